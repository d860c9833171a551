"""What is counted (ADR 0017, part 2): counted nouns kept in the proof, and the kind check.

Admissibility is ADR-0134's six-dimension algebra: ``cookies`` and ``boxes`` are both
``count``, so ``dollars per cookie x boxes`` is admitted as money.  This module reads a
bound graph again, after admissibility, and keeps *what* each count counts:

- a :class:`Counted` unit is a six-dimension vector whose count exponent is split by the
  nouns it counts (``money/count[cookie]``); a count unit of the pack names its noun (its
  lemma) unless it is a multiplier (``dozen``, ``pair``: a container size) or not a plain count;
- each admitted equation's proof is written again with the counted nouns
  (:func:`counted_proof`: ``multiply: [money/count[cookie],count[box]] -> money``); with no
  counted noun it is the admissibility proof, character for character;
- the **kind check** (:func:`read_kinds`) reports apart, never as a refusal:
  ``count_kind_mismatch`` where a rate's denominator counts one thing and the count it is
  applied to counts another that is neither the same nor a listed kind of it
  (:data:`KIND_MEMBERS`), and where a question asks how many of one thing and is answered
  by a count of another; ``mixed_kinds`` notes a sum or difference of different kinds
  (``boys + girls``), which is admitted.

Nothing here changes a status, a refusal or the graph's admissibility: the lanes and the
core binders are untouched; corpus work (:mod:`ssbg.stats`, :mod:`ssbg.checking`) calls
:func:`read_kinds` after binding.

Examples
--------
>>> from ssbg.units import load_pack
>>> pack = load_pack("en_units_v1+en_counts_v1")
>>> str(counted_unit("dollars per cookie", pack)), str(counted_unit("cookies per box", pack))
('money/count[cookie]', 'count[cookie]/count[box]')
>>> str(counted_unit("dozen", pack)), str(counted_unit("hours", pack))
('count', 'time')
>>> is_kind_of("apple", "fruit"), is_kind_of("girl", "person"), is_kind_of("box", "cookie")
(True, True, False)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import NamedTuple

from ssbg.model import BoundEquation, SemanticSymbolicBindingGraph, SymbolBinding, _prebuilt_replace
from ssbg.units import BASE_DIMENSIONS, DIMENSIONLESS, ResolvedUnit, UnitPack, UnitVector

__all__ = [
    "GENERIC_COUNTS",
    "KIND_FINDINGS",
    "KIND_MEMBERS",
    "Counted",
    "KindFinding",
    "KindReading",
    "counted_proof",
    "counted_unit",
    "is_kind_of",
    "read_kinds",
]

KIND_FINDINGS: tuple[str, ...] = ("count_kind_mismatch", "mixed_kinds")
"""``count_kind_mismatch``: a rate per one thing applied to a count of another, or a question asking how many
of one thing answered by a count of another (a finding); ``mixed_kinds``: a sum or difference of different kinds,
admitted (a note)."""

GENERIC_COUNTS: frozenset[str] = frozenset({"item", "piece", "thing", "object", "unit", "article", "product"})
"""Nouns that count anything: every counted noun is a kind of them, and they of every noun."""

# A small hand-written table of kinds (ADR 0017: the build resource has no hypernyms): a kind -> the nouns
# (pack lemmas) that are kinds of it.  Membership is transitive (a hen is a chicken, a bird, an animal).
KIND_MEMBERS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        kind: frozenset(members.split())
        for kind, members in {
            "person": "adult child boy girl man woman baby toddler teenager teen kid student pupil teacher friend "
            "guest player worker employee member customer visitor parent sibling brother sister son daughter "
            "cousin aunt uncle nephew niece grandchild grandson granddaughter grandparent grandmother grandfather "
            "mother father mom dad classmate senior junior freshman sophomore volunteer participant passenger "
            "tourist athlete doctor nurse patient camper scout resident neighbor attendee fan dancer singer "
            "musician contestant runner swimmer driver rider officer soldier male female husband wife coach "
            "chef cook waiter waitress clerk farmer baker artist author writer reader user shopper client "
            "staff volunteer kindergartener fifth-grader sixth-grader seventh-grader eighth-grader grader "
            "teammate roommate partner colleague boss manager owner family",
            "animal": "bird fish dog cat cow pig horse sheep goat rabbit bunny mouse rat hamster puppy kitten lamb "
            "calf pony frog toad turtle tortoise snake lizard lion tiger bear elephant monkey giraffe zebra deer "
            "fox wolf squirrel insect ant bee butterfly spider pet worm crab lobster shrimp whale dolphin shark "
            "seal otter camel donkey mule ox bull kangaroo koala panda hippo rhino alligator crocodile bat",
            "bird": "chicken hen rooster chick duck duckling goose turkey parrot owl penguin eagle hawk pigeon "
            "dove swan robin crow sparrow peacock flamingo ostrich",
            "pet": "dog cat hamster puppy kitten rabbit bunny parrot goldfish guinea",
            "fish": "goldfish trout salmon tuna",
            "insect": "ant bee butterfly ladybug beetle fly mosquito grasshopper cricket",
            "fruit": "apple orange banana pear peach plum grape cherry strawberry blueberry raspberry blackberry "
            "cranberry berry lemon lime mango pineapple watermelon melon cantaloupe kiwi apricot papaya coconut "
            "avocado fig pomegranate tangerine grapefruit nectarine clementine date",
            "berry": "strawberry blueberry raspberry blackberry cranberry",
            "vegetable": "carrot potato tomato onion pepper cucumber lettuce cabbage broccoli cauliflower zucchini "
            "squash pumpkin eggplant bean pea radish beet celery spinach corn",
            "flower": "rose tulip daisy lily sunflower daffodil orchid carnation violet marigold",
            "plant": "flower tree bush shrub herb rose tulip daisy lily sunflower seedling",
            "tree": "oak pine maple birch palm",
            "coin": "penny nickel dime quarter",
            "vehicle": "car truck bus bike bicycle motorcycle van boat ship train plane airplane taxi tractor "
            "scooter",
            "baked_good": "cookie cupcake muffin brownie cake pie donut doughnut croissant bagel biscuit pastry "
            "scone tart",
            "dessert": "cookie cupcake muffin brownie cake pie donut doughnut",
            "treat": "cookie cupcake muffin brownie candy lollipop chocolate",
            "sweet": "candy lollipop chocolate",
            "clothing": "shirt t-shirt sock shoe boot sandal hat cap dress skirt jacket coat sweater scarf glove "
            "mitten jean pant trouser short",
            "garment": "shirt t-shirt dress skirt jacket coat sweater",
            "shoe": "boot sandal sneaker",
            "book": "novel textbook comic notebook",
            "supply": "pencil pen crayon marker eraser notebook",
            "furniture": "chair table desk bed sofa couch shelf bench",
            "ball": "basketball football baseball softball volleyball",
            "toy": "doll ball marble block puzzle",
            "seat": "chair bench",
        }.items()
    }
)


@functools.cache
def _closure(kind: str) -> frozenset[str]:
    members = set(KIND_MEMBERS.get(kind, ()))
    for member in tuple(members):
        if member in KIND_MEMBERS and member != kind:
            members |= _closure(member)
    return frozenset(members)


def is_kind_of(noun: str, kind: str) -> bool:
    """Whether ``noun`` counts a kind of what ``kind`` counts: the same noun, a listed kind (transitively), or
    either is generic (:data:`GENERIC_COUNTS`)."""
    return noun == kind or noun in GENERIC_COUNTS or kind in GENERIC_COUNTS or noun in _closure(kind)


# --------------------------------------------------------------------------- counted units


class Counted(NamedTuple):
    """A unit with what its counts count: the six-dimension ``vector`` and the named count factors.

    ``nouns`` are ``(noun, exponent)`` pairs, sorted by noun, no zero exponent; the count exponent they leave
    (``vector.count`` minus theirs) is an unnamed count.  ``str()`` is the canonical form: base dimensions in
    order, each count factor ``count[noun]`` (nouns sorted, then the unnamed ``count``), numerator over
    denominator, as :meth:`~ssbg.units.UnitVector.to_canonical_string` writes a vector.
    """

    vector: UnitVector
    nouns: tuple[tuple[str, int], ...] = ()

    def __str__(self) -> str:
        return _counted_string(self)

    @property
    def noun(self) -> str | None:
        """The one noun of a plain count of one thing (``count[cookie]``), else None."""
        if self.vector == _COUNT and len(self.nouns) == 1 and self.nouns[0][1] == 1:
            return self.nouns[0][0]
        return None


_COUNT = UnitVector(count=1)
_PURE = Counted(DIMENSIONLESS)


@functools.lru_cache(maxsize=4096)
def _counted_string(c: Counted) -> str:
    if not c.nouns:
        return c.vector.to_canonical_string()
    num: list[str] = []
    den: list[str] = []
    for name, exp in zip(BASE_DIMENSIONS, c.vector, strict=True):
        if name == "count":
            named = sum(e for _, e in c.nouns)
            factors = [(f"count[{noun}]", e) for noun, e in c.nouns]
            if exp != named:
                factors.append(("count", exp - named))
        else:
            factors = [(name, exp)] if exp else []
        for label, e in factors:
            (num if e > 0 else den).append(label if abs(e) == 1 else f"{label}^{abs(e)}")
    if not num and not den:
        return "dimensionless"
    top = "*".join(num) if num else "1"
    return f"{top}/{'*'.join(den)}" if den else top


def _entry_counted(lemma: str, pack: UnitPack) -> Counted:
    entry = pack.entries[lemma]
    named = entry.dimension == _COUNT and entry.container_size is None and entry.ratio in (None, 1)
    return Counted(entry.dimension, ((lemma, 1),) if named else ())


def _inverse(c: Counted) -> Counted:
    return Counted(UnitVector(*(-e for e in c.vector)), tuple((n, -e) for n, e in c.nouns))


def _quotient(a: Counted, b: Counted) -> Counted:
    """``a / b`` kept whole (the two sides of one unit text: nothing cancels across them but equal nouns)."""
    nouns = dict(a.nouns)
    for noun, e in b.nouns:
        nouns[noun] = nouns.get(noun, 0) - e
    vector = UnitVector(*(x - y for x, y in zip(a.vector, b.vector, strict=True)))
    return Counted(vector, tuple(sorted((n, e) for n, e in nouns.items() if e)))


def _split_lemma(lemma: str, pack: UnitPack) -> tuple[str, str] | None:
    """The two sides of a composite lemma (``a_per_b``), split as the pack splits it: both sides resolve, the
    fewest composite sides, the rightmost split (:meth:`ssbg.units.UnitPack._best_split`)."""
    best: tuple[int, int, str, str] | None = None
    start = lemma.find("_per_")
    while start > 0:
        left, right = lemma[:start], lemma[start + len("_per_") :]
        a, b = pack.lookup(left), pack.lookup(right)
        if right and not isinstance(a, str) and not isinstance(b, str):
            composites = (a.via == "composite") + (b.via == "composite")
            if best is None or (composites, -start) <= (best[0], best[1]):
                best = (composites, -start, left, right)
        start = lemma.find("_per_", start + 1)
    return None if best is None else (best[2], best[3])


def _resolved_counted(unit: ResolvedUnit, pack: UnitPack, depth: int = 0) -> Counted:
    if unit.via != "composite":
        return _entry_counted(unit.lemma, pack) if unit.lemma in pack.entries else Counted(unit.dimension)
    sides = _split_lemma(unit.lemma, pack) if depth < 4 else None
    if sides is None:
        return Counted(unit.dimension)
    left, right = (pack.lookup(side) for side in sides)
    if isinstance(left, str) or isinstance(right, str):  # pragma: no cover - _split_lemma resolved both
        return Counted(unit.dimension)
    return _quotient(_resolved_counted(left, pack, depth + 1), _resolved_counted(right, pack, depth + 1))


@functools.lru_cache(maxsize=16_384)
def _counted_text(text: str, pack: UnitPack) -> Counted | None:
    hit = pack.lookup(text)
    return None if isinstance(hit, str) else _resolved_counted(hit, pack)


def counted_unit(text: str, pack: UnitPack) -> Counted | None:
    """What a unit text counts, over ``pack``; None for a text the pack does not resolve."""
    return _counted_text(text, pack)


# --------------------------------------------------------------------------- the algebra with nouns


class _Meeting(NamedTuple):
    rate_noun: str  # the noun a denominator counts
    counted_noun: str  # the noun it met in another factor's numerator


def _is_rate(f: Counted) -> bool:
    """Whether a factor is "X per Y": something over something (``cookies per box`` too, whose vector is 0)."""
    rest = [e for name, e in zip(BASE_DIMENSIONS, f.vector, strict=True) if name != "count"]
    named = sum(e for _, e in f.nouns)
    exps = [*rest, *(e for _, e in f.nouns), f.vector.count - named]
    return any(e > 0 for e in exps) and any(e < 0 for e in exps)


def _product(factors: Sequence[Counted]) -> tuple[Counted, tuple[_Meeting, ...]]:
    """The product of ``factors``, a count in one factor's denominator cancelling one in another's numerator: the
    same noun first, then two unnamed counts; a rate's denominator (``dollars per cookie``; dividing by a rate
    inverts it) then takes a kind of its noun (or an unnamed count), then any other noun of a plain count: a
    meeting, the kind check's finding (``dollars per cookie x boxes``; two rates form a rate: ``calories per cake /
    calories per slice`` is ``count[slice]/count[cake]``).  Dividing by a plain count forms a rate and cancels no other
    noun (``cookies / boxes`` is ``count[cookie]/count[box]``); counts within one factor never cancel."""
    vector = DIMENSIONLESS
    for f in factors:
        vector = UnitVector(*(x + y for x, y in zip(vector, f.vector, strict=True)))
    pos: list[tuple[str | None, int]] = []
    neg: list[tuple[str | None, int]] = []
    for i, f in enumerate(factors):
        named = 0
        for noun, e in f.nouns:
            (pos if e > 0 else neg).extend([(noun, i)] * abs(e))
            named += e
        rest = f.vector.count - named
        (pos if rest > 0 else neg).extend([(None, i)] * abs(rest))
    meetings: list[_Meeting] = []
    rates = [_is_rate(f) for f in factors]
    for rule in (_same, _unnamed, _kind, _any):
        for n in sorted(neg, key=_order):
            if rule in (_kind, _any) and not rates[n[1]]:
                continue  # only a rate's denominator meets another noun
            match = next((p for p in sorted(pos, key=_order)
                          if p[1] != n[1] and rule(p[0], n[0]) and (rule is not _any or not rates[p[1]])), None)
            if match is None:
                continue
            pos.remove(match)
            neg.remove(n)
            if rule is _any:
                meetings.append(_Meeting(str(n[0]), str(match[0])))
    nouns: dict[str, int] = {}
    for sign, items in ((1, pos), (-1, neg)):
        for name, _ in items:
            if name is not None:
                nouns[name] = nouns.get(name, 0) + sign
    return Counted(vector, tuple(sorted((n, e) for n, e in nouns.items() if e))), tuple(meetings)


def _order(item: tuple[str | None, int]) -> tuple[bool, str, int]:
    return (item[0] is None, item[0] or "", item[1])


def _same(counted: str | None, rate: str | None) -> bool:
    return counted is not None and counted == rate


def _unnamed(counted: str | None, rate: str | None) -> bool:
    return counted is None and rate is None


def _kind(counted: str | None, rate: str | None) -> bool:
    return counted is None or rate is None or is_kind_of(counted, rate)


def _any(counted: str | None, rate: str | None) -> bool:
    return counted is not None and rate is not None


def _sum(operands: Sequence[Counted]) -> tuple[Counted, tuple[str, ...]]:
    """A sum or difference: the operands' counted unit when they agree (or one is a kind of every other: the
    widest), else the vector with its count unnamed, and the different nouns (a ``mixed_kinds`` note)."""
    first = operands[0]
    if all(o == first for o in operands):
        return first, ()
    nouns = [o.noun for o in operands]
    if all(n is not None for n in nouns):
        named = sorted({n for n in nouns if n is not None})
        wide = [k for k in named if all(is_kind_of(n, k) for n in named)]
        if wide:  # apples + fruits: fruits
            return Counted(first.vector, ((wide[0], 1),)), ()
    distinct = tuple(sorted({n for o in operands for n, _ in o.nouns}))
    return Counted(first.vector), distinct if len(distinct) > 1 else ()


# --------------------------------------------------------------------------- reading a graph


@dataclass(frozen=True, slots=True)
class KindFinding:
    """One finding (or note) of the kind check.

    ``finding`` is one of :data:`KIND_FINDINGS`; ``where`` is ``equation`` or ``target``; ``index`` the
    equation's index in the graph (the answering equation's for a target), ``lhs`` its lhs symbol;
    ``nouns`` the nouns that disagree (a rate's, then the count's; the asked, then the answer's; a sum's,
    sorted); ``detail`` in words.
    """

    finding: str
    where: str
    index: int
    lhs: str
    nouns: tuple[str, ...]
    detail: str


@dataclass(frozen=True, slots=True)
class KindReading:
    """What :func:`read_kinds` read: the counted proof of each equation (by index; the admissibility proof where
    nothing is counted or the equation is refused), the counted unit of each admitted lhs, and the findings."""

    proofs: tuple[str, ...]
    counted: Mapping[str, Counted]
    findings: tuple[KindFinding, ...]

    def graph(self, graph: SemanticSymbolicBindingGraph) -> SemanticSymbolicBindingGraph:
        """``graph`` with its equations' proofs written with the counted nouns (the same graph when none is).
        Built as the binder builds (ADR 0013's amendment): a proof is :func:`counted_proof`'s non-empty text and
        the rest of the graph is the validated graph's, so nothing is validated again."""
        if all(eq.unit_proof == proof for eq, proof in zip(graph.equations, self.proofs, strict=True)):
            return graph
        equations = tuple(
            eq if eq.unit_proof == proof else _prebuilt_replace(eq, unit_proof=proof)
            for eq, proof in zip(graph.equations, self.proofs, strict=True)
        )
        return _prebuilt_replace(graph, equations=equations)


def _ordered(eq: BoundEquation, table: Mapping[str, SymbolBinding]) -> list[str] | None:
    """The equation's operands in the order its proof lists them (the admissibility rules' role order)."""
    deps = sorted(eq.dependencies)
    kind = eq.operation_kind
    if kind in ("apply_rate", "unit_partition"):
        rates = [d for d in deps if table[d].semantic_role == "rate"]
        if len(rates) != 1 or len(deps) != 2:
            return None
        other = next(d for d in deps if d != rates[0])
        return [rates[0], other] if kind == "apply_rate" else [other, rates[0]]
    if kind == "divide":
        divisors = [d for d in deps if d.endswith("__divisor")]
        if len(divisors) == 1 and len(deps) == 2:
            return [next(d for d in deps if d != divisors[0]), divisors[0]]
        left, sep, right = eq.rhs_canonical.partition(" / ")
        return [left.strip(), right.strip()] if sep and {left.strip(), right.strip()} == set(deps) else None
    if kind in ("fraction_portion", "compare_multiplicative"):
        factors = [d for d in deps if table[d].semantic_role == "ratio"]
        if len(factors) != 1 or len(deps) != 2:
            return None
        return [next(d for d in deps if d != factors[0]), factors[0]]
    return deps


_ADDITIVE = frozenset({"add", "subtract", "transfer", "compare_additive"})


@functools.lru_cache(maxsize=4096)
def _derive(kind: str, ops: tuple[Counted, ...]) -> tuple[Counted, tuple[_Meeting, ...], tuple[str, ...]]:
    """The counted lhs of an admitted equation from its operands in proof order, its meetings, its mixed nouns
    (a function of its arguments alone, kept: a problem's solutions derive the same equations again)."""
    if kind in _ADDITIVE:
        result, mixed = _sum(ops)
        return result, (), mixed
    if kind in ("divide", "unit_partition"):  # dividend / divisor, quantity / chunk rate
        result, meetings = _product([ops[0], _inverse(ops[1])])
    else:  # multiply, apply_rate (rate, base), fraction_portion and compare_multiplicative (holding, factor)
        result, meetings = _product(ops)
    return result, meetings, ()


def counted_proof(kind: str, operands: Sequence[Counted], lhs: Counted, plain: str) -> str:
    """The proof written with counted nouns: ``kind: [operands] -> lhs``, then the admissibility proof's own notes
    (``; convert ...``).  With no counted noun it is ``plain``."""
    head = f"{kind}: [{','.join(map(str, operands))}] -> {lhs}"
    _, sep, tail = plain.partition("; ")
    return head + (sep + tail if sep else "")


def _operand_counted(sid: str, table: Mapping[str, SymbolBinding], counted: Mapping[str, Counted],
                     pack: UnitPack) -> Counted | None:
    sym = table[sid]
    if sym.unit is not None:
        return counted_unit(sym.unit, pack)
    if sid in counted:
        return counted[sid]
    return _PURE if sym.semantic_role == "ratio" else None


def read_kinds(graph: SemanticSymbolicBindingGraph, pack: UnitPack) -> KindReading:
    """Read what each admitted equation of ``graph`` counts (its proof with counted nouns) and check kinds.

    Refused equations keep their proof (``unverified``) and are not checked; nor is anything that depends on
    them.  Never raises on a bound graph: an equation whose operands it cannot order keeps its proof and its
    lhs counts nothing by name.
    """
    table = {s.symbol_id: s for s in graph.symbols}
    counted: dict[str, Counted] = {}
    proofs: list[str] = []
    findings: list[KindFinding] = []
    for index, eq in enumerate(graph.equations):
        proofs.append(eq.unit_proof)
        if eq.admissibility_status != "admitted":
            continue
        order = _ordered(eq, table)
        ops = None if order is None else [_operand_counted(sid, table, counted, pack) for sid in order]
        if ops is None or any(o is None for o in ops):
            continue
        operands = tuple(o for o in ops if o is not None)
        result, meetings, mixed = _derive(eq.operation_kind, operands)
        declared = table[eq.lhs_symbol_id].unit
        lhs = counted_unit(declared, pack) if declared is not None else None
        lhs = result if lhs is None or lhs.vector != result.vector else lhs
        counted[eq.lhs_symbol_id] = lhs
        if any(o.nouns for o in operands) or lhs.nouns:
            proofs[-1] = counted_proof(eq.operation_kind, operands, lhs, eq.unit_proof)
        findings.extend(
            KindFinding("count_kind_mismatch", "equation", index, eq.lhs_symbol_id, (m.rate_noun, m.counted_noun),
                        f"a rate per {m.rate_noun} is applied to a count of {m.counted_noun}")
            for m in meetings
        )
        if mixed:
            findings.append(KindFinding(
                "mixed_kinds", "equation", index, eq.lhs_symbol_id, mixed,
                f"{eq.operation_kind} of different kinds: {', '.join(mixed)}"))  # fmt: skip
    findings.extend(_target_findings(graph, table, counted, pack))
    return KindReading(tuple(proofs), MappingProxyType(counted), tuple(findings))


def _target_findings(
    graph: SemanticSymbolicBindingGraph, table: Mapping[str, SymbolBinding], counted: Mapping[str, Counted],
    pack: UnitPack,
) -> Iterable[KindFinding]:
    """A question asking how many of one thing, answered by a count of another (neither a kind of the other)."""
    index_of = {eq.lhs_symbol_id: i for i, eq in enumerate(graph.equations)}
    for target in graph.unknowns:
        if target.target_status != "bound" or target.expected_unit is None or target.resolved_by is None:
            continue
        asked = counted_unit(target.expected_unit, pack)
        answer = counted.get(target.resolved_by)
        if answer is None and table.get(target.resolved_by) is not None and table[target.resolved_by].unit:
            answer = counted_unit(str(table[target.resolved_by].unit), pack)
        want, got = (asked.noun if asked else None), (answer.noun if answer else None)
        if want is None or got is None or is_kind_of(got, want) or is_kind_of(want, got):
            continue
        yield KindFinding("count_kind_mismatch", "target", index_of.get(target.resolved_by, -1), target.resolved_by,
                          (want, got), f"the question asks how many {want} and is answered by a count of {got}")
