"""Agreement of ssbg's units with the gold some corpora carry (edge).

- CogComp flags which quantities are rates and whether the question asks for
  one (:func:`cogcomp_rate_agreement`): ssbg's rate-ness of a quantity is that
  of its mention's unit (``3 eggs in each box`` -> ``eggs per box``), of the
  question that of the stated answer unit or a rate cue in the question
  (``each student``, ``how fast``).
- MAWPS names some unknowns (``hours``, ``miles``, ``cost``;
  :func:`mawps_unknown_agreement`).  A name is read as an English noun phrase
  in snake case (:func:`gold_dimension`), in this order:

  1. the whole name as a pack unit (``miles``, ``kilometers``);
  2. its head: the last word before a preposition (``original_price``,
     ``cost_of_1_lollipop``, ``minutes_over_twentyfive_hundred``), read as a
     pack unit or a dimension word of :data:`DIMENSION_WORDS` (``price`` ->
     money, ``width`` -> length);
  3. ``X_per_Y`` is a rate: X's dimension over Y's, when both have one;
  4. a time unit after an ordinal or deictic word (``third_month``,
     ``Last_year``, ``next_week``) names *when*, not the answer's unit.

  Names that give no dimension (``books``, ``number``, ``percent_green`` whose
  head comes first, ``new_clients_per_hour`` whose numerator is an open noun,
  ``third_month``) are counted as named but not evaluable.  ssbg agrees when its
  answer unit has the gold dimension; for a price word of :data:`PRICE_WORDS`
  (``cost``, ``income``) money per anything agrees too, since the corpus uses
  such a name for a unit cost (``cents per ounce``) or a yearly income alike.

ssbg's answer unit (:func:`answer_dimension`) is the unit the question states
(``How many hours ...``, ``What percentage ...``) or asks by its wh-word in the
text's one unit of that dimension (``How far`` in a text of miles; see
:func:`~ssbg.reading.mentions.asked_unit`), else the admitted unit of the step
the question target binds to: what ssbg reports (the trace's ``answer_unit``),
with no reading that only the measurement does.

Examples
--------
>>> from ssbg.units import default_pack
>>> is_rate_unit("eggs per box", default_pack()), is_rate_unit("hours", default_pack())
(True, False)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from ssbg.constants import IMPLICIT_CONSTANTS
from ssbg.reading.choosing import bind_choosing, step_units
from ssbg.reading.mentions import lemmatize, pack_lookup
from ssbg.reading.readers.cogcomp import gold_rate_flags, pair_quantities, read_cogcomp
from ssbg.reading.readers.common import iter_json_array
from ssbg.reading.readers.mawps import read_mawps
from ssbg.trace import Operand, Trace
from ssbg.units import UnitPack, UnitVector, default_pack

__all__ = [
    "CORPUS_FILES",
    "DIMENSION_WORDS",
    "PRICE_WORDS",
    "ImportRow",
    "MismatchSurvey",
    "RateAgreement",
    "UnknownAgreement",
    "answer_dimension",
    "cogcomp_rate_agreement",
    "gold_dimension",
    "import_table",
    "is_rate_unit",
    "mawps_unknown_agreement",
    "measure",
    "operand_sources",
    "question_asks_rate",
    "unit_mismatch_survey",
]

_ASKED = re.compile(r"(?i)\b(?:how|what|find|calculate)\b")
_RATE_CUE = re.compile(
    r"(?i)\b(?:each|every|per|apiece)\b|\bhow fast\b|\bspeed\b|\bon average\b"
    r"|\b(?:in|on|for|during|make|bake|occupy|weigh)\s+(?:1(?:\.0)?|one|a|an)\s+[a-z]+"
    r"|\b(?:1(?:\.0)?|one)\s+[a-z]+\s+(?:weigh|cost)"
)


def is_rate_unit(unit: str | None, pack: UnitPack) -> bool:
    """True for a unit ``X per Y`` (a pack rate, or an open ``apples per box``)."""
    if unit is None:
        return False
    resolved = pack_lookup(pack, unit)
    if resolved is not None:
        return resolved.is_rate and not resolved.denominator.is_dimensionless
    return " per " in unit


def question_asks_rate(trace: Trace, pack: UnitPack) -> bool:
    """True when the question's stated unit is a rate or the asked phrase has a rate cue.

    Cues: ``each``/``every``/``per``, ``how fast``, ``speed``, ``on average``, or one unit
    of something (``in 1 hour``, ``to make 1 loaf``).
    """
    if is_rate_unit(trace.answer_unit, pack):
        return True
    question = trace.question if trace.question is not None else trace.text
    asked = _ASKED.search(question)  # the asked phrase, not an "If each box holds 5 ..." before it
    return _RATE_CUE.search(question, asked.start() if asked else 0) is not None


@dataclass
class RateAgreement:
    """Counts of gold rate flags and of those ssbg agrees with (question flag + aligned quantities)."""

    problems: int = 0
    problems_agreeing: int = 0
    flags: int = 0
    flags_agreeing: int = 0
    question_flags: int = 0
    question_agreeing: int = 0
    confusion: dict[str, int] = field(default_factory=dict)

    @property
    def flag_share(self) -> float:
        return self.flags_agreeing / self.flags if self.flags else 0.0

    @property
    def problem_share(self) -> float:
        return self.problems_agreeing / self.problems if self.problems else 0.0


def cogcomp_rate_agreement(path: Path, *, pack: UnitPack | None = None) -> RateAgreement:
    """Compare ssbg's rate-ness with CogComp's gold ``rates`` over the problems it imports."""
    p = default_pack() if pack is None else pack
    gold = {}
    for raw in iter_json_array(path):
        if isinstance(raw.data, dict) and isinstance(raw.data.get("iIndex"), int | str):
            gold[str(raw.data["iIndex"])] = raw.data
    out = RateAgreement()

    def count(kind: str, wanted: bool, got: bool) -> bool:
        key = f"{kind} gold={'rate' if wanted else 'not'} ssbg={'rate' if got else 'not'}"
        out.confusion[key] = out.confusion.get(key, 0) + 1
        out.flags += 1
        out.flags_agreeing += wanted == got
        return wanted == got

    for record in read_cogcomp(path):
        data = gold.get(record.problem_id)
        trace = record.payload
        if data is None or not isinstance(trace, Trace):
            continue
        flags = gold_rate_flags(data)
        if flags is None:
            continue
        asks, rates = flags
        agreeing = count("question", asks, question_asks_rate(trace, p))
        out.question_flags += 1
        out.question_agreeing += agreeing
        paired = pair_quantities([float(q) for q in data["quants"]], trace.mentions)
        for k in sorted(set(data["lAlignments"])):
            mention = paired[k] if 0 <= k < len(paired) else None
            unit = trace.mentions[mention].unit if mention is not None else None
            agreeing &= count("quantity", k in rates, is_rate_unit(unit, p))
        out.problems += 1
        out.problems_agreeing += agreeing
    return out


_MONEY = UnitVector(money=1)
DIMENSION_WORDS: Mapping[str, UnitVector] = MappingProxyType(
    {
        **dict.fromkeys(
            (
                *("cost", "price", "wage", "money", "bill", "paycheck", "profit", "income", "salary", "fee"),
                *("savings", "pay", "interest", "tax", "taxes"),
            ),
            _MONEY,
        ),
        **dict.fromkeys(("time", "duration"), UnitVector(time=1)),
        **dict.fromkeys(("distance", "length", "height", "width", "mileage", "yardage"), UnitVector(length=1)),
        "weight": UnitVector(mass=1),
        **dict.fromkeys(("speed", "velocity"), UnitVector(length=1, time=-1)),
        "area": UnitVector(length=2),
        "volume": UnitVector(length=3),
        "percentage": UnitVector(),
    }
)
"""English nouns that name a dimension, not a unit: how a gold unknown such as ``hourly_wage`` is read."""

PRICE_WORDS: frozenset[str] = frozenset({"cost", "price", "wage", "salary", "income", "fee", "pay"})
"""Money words quoted alone or per unit (a unit cost in cents per ounce, an income of dollars a year)."""

_PREPOSITIONS = frozenset({"of", "over", "at", "in", "on", "for", "per", "to", "from", "with", "by"})
_PERIOD_MODIFIERS = frozenset(
    {"first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"}
    | {"last", "next", "previous", "past", "this", "current", "coming", "following"}
)


def _head(name: str) -> tuple[list[str], int]:
    """A snake-case name's lowercase words and the index after its head (the first preposition's, else the end)."""
    words = [w for w in name.lower().split("_") if w]
    return words, next((k for k, w in enumerate(words) if k and w in _PREPOSITIONS), len(words))


def _word_dimension(word: str, pack: UnitPack) -> UnitVector | None:
    """A pack unit's dimension, else a dimension word's, else None."""
    resolved = pack_lookup(pack, word)
    return resolved.dimension if resolved is not None else DIMENSION_WORDS.get(word)


def gold_dimension(name: str, pack: UnitPack) -> UnitVector | None:
    """A named unknown as gold: the dimension its name states, or None (the rules: module docstring).

    >>> from ssbg.units import default_pack
    >>> names = ("hours", "hourly_wage", "average_speed", "cost_of_1_lollipop", "miles_per_hour")
    >>> [gold_dimension(n, default_pack()).to_canonical_string() for n in names]
    ['time', 'money', 'length/time', 'money', 'length/time']
    >>> [gold_dimension(n, default_pack()) for n in ("books", "third_month", "new_clients_per_hour")]
    [None, None, None]
    """
    resolved = pack_lookup(pack, name)
    if resolved is not None:
        return resolved.dimension
    words, cut = _head(name)
    if cut == 0 or cut == len(words) - 1:
        return None  # no words, or a dangling preposition
    head = _word_dimension(words[cut - 1], pack)
    if head is not None and head.as_dict() == {"time": 1} and cut > 1 and words[cut - 2] in _PERIOD_MODIFIERS:
        return None  # "third_month", "last_year": a period, not a unit
    if cut < len(words) and words[cut] == "per":
        per = _word_dimension(words[cut + 1], pack)
        return None if head is None or per is None else head / per
    return head


def answer_dimension(trace: Trace, pack: UnitPack) -> UnitVector | str | None:
    """ssbg's answer unit: the unit the question states or asks, else the admitted unit of the last step.

    A stated pack unit gives its dimension, a stated open noun its lemma.  This
    is what ssbg itself reports (the trace's answer unit, the bound question
    target): the measurement adds no reading of its own.
    """
    if trace.answer_unit is not None:
        resolved = pack_lookup(pack, trace.answer_unit)
        return resolved.dimension if resolved is not None else lemmatize(trace.answer_unit.split(" per ")[0])
    return step_units(trace, pack=pack)[-1]


@dataclass
class UnknownAgreement:
    """MAWPS named unknowns: how many, how many name a unit, how many ssbg agrees with."""

    problems: int = 0
    named: int = 0
    evaluable: int = 0
    agreeing: int = 0
    disagreements: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def share(self) -> float:
        return self.agreeing / self.evaluable if self.evaluable else 0.0


def mawps_unknown_agreement(path: Path, *, pack: UnitPack | None = None) -> UnknownAgreement:
    """Compare ssbg's answer unit with MAWPS's named unknowns over the problems it imports."""
    p = default_pack() if pack is None else pack
    out = UnknownAgreement()
    for record in read_mawps(path):
        trace = record.payload
        if not isinstance(trace, Trace):
            continue
        out.problems += 1
        if trace.gold_answer_unit is None:
            continue
        out.named += 1
        gold = gold_dimension(trace.gold_answer_unit, p)
        if gold is None:
            continue
        out.evaluable += 1
        got = answer_dimension(trace, p)
        if _same(gold, got) or (_price_word(trace.gold_answer_unit) and _money_rate(gold, got)):
            out.agreeing += 1
        else:
            out.disagreements.append((record.problem_id, trace.gold_answer_unit, _show(got)))
    return out


def _same(gold: UnitVector, got: UnitVector | str | None) -> bool:
    return isinstance(got, UnitVector) and gold == got


def _price_word(name: str) -> bool:
    words, cut = _head(name)
    return cut > 0 and words[cut - 1] in PRICE_WORDS


def _money_rate(gold: UnitVector, got: UnitVector | str | None) -> bool:
    """``got`` is money per something (``money/mass``) and ``gold`` is money."""
    if gold != _MONEY or not isinstance(got, UnitVector) or got.money != 1:
        return False
    rest = [exp for dim, exp in got.as_dict().items() if dim != "money"]
    return bool(rest) and all(exp < 0 for exp in rest)


def _show(value: UnitVector | str | None) -> str:
    if value is None:
        return "-"
    return value if isinstance(value, str) else value.to_canonical_string()


def summarize(items: Iterable[tuple[str, str, str]], limit: int = 10) -> list[str]:
    """A few disagreements as ``id: gold -> ssbg`` lines."""
    return [f"{pid}: {gold} -> {got}" for pid, gold, got in list(items)[:limit]]


@dataclass
class MismatchSurvey:
    """Steps whose operands all resolve in the pack, and how they were stamped.

    Gold solutions are right, so every such step refused as ``unit_mismatch`` is
    an extraction error or a true slip of the corpus; ``patterns`` counts them by
    kind, operand units and stated unit.
    """

    steps: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    patterns: dict[str, int] = field(default_factory=dict)
    examples: dict[str, list[str]] = field(default_factory=dict)

    @property
    def mismatch_share(self) -> float:
        return self.statuses.get("unit_mismatch", 0) / self.steps if self.steps else 0.0

    def top(self, n: int = 20) -> list[tuple[str, int, list[str]]]:
        """The ``n`` most common patterns (ties by pattern text), with example problem ids."""
        ranked = sorted(self.patterns.items(), key=lambda kv: (-kv[1], kv[0]))[:n]
        return [(pattern, count, self.examples.get(pattern, [])) for pattern, count in ranked]


_SIGN = {"add": "+", "subtract": "-", "multiply": "*", "divide": "/", "apply_rate": "*"}


def _operand_label(
    trace: Trace, operand: Operand, units: tuple[UnitVector | None, ...], pack: UnitPack, additive: bool
) -> str | None:
    """How a resolved operand shows in a pattern (its pack lemma, ``pure``, or a step's vector); None if unresolved."""
    if operand.step is not None:
        vector = units[operand.step]
        return None if vector is None else vector.to_canonical_string()
    if operand.mention is not None:
        mention = trace.mentions[operand.mention]
        if mention.unit is None:
            return "pure" if mention.is_pure else None
        resolved = pack_lookup(pack, mention.unit)
        return None if resolved is None else resolved.lemma
    constant = IMPLICIT_CONSTANTS[operand.constant or ""]
    if constant.unit is None:
        return "pure"
    unit = constant.unit.partition("_per_")[0] if additive and "_per_" in constant.unit else constant.unit
    resolved = pack_lookup(pack, unit)
    return None if resolved is None else resolved.lemma


def unit_mismatch_survey(traces: Iterable[Trace], *, pack: UnitPack | None = None, examples: int = 3) -> MismatchSurvey:
    """Survey the steps of ``traces`` whose operands all resolve in the pack (see :class:`MismatchSurvey`)."""
    p = default_pack() if pack is None else pack
    out = MismatchSurvey()
    for trace in traces:
        graph = bind_choosing(trace, pack=p)
        units = step_units(trace, pack=p)
        stamped = {e.lhs_symbol_id: e for e in graph.equations}
        declared = {s.symbol_id: s.unit for s in graph.symbols}
        for i, step in enumerate(trace.steps):
            additive = step.op in ("add", "subtract")
            labels = [_operand_label(trace, o, units, p, additive) for o in step.operands]
            if any(label is None for label in labels):
                continue
            equation = stamped[f"step_{i:03d}"]
            status = equation.refusal_reason or "admitted"
            out.steps += 1
            out.statuses[status] = out.statuses.get(status, 0) + 1
            if status != "unit_mismatch":
                continue
            pattern = f"{equation.operation_kind}: " + f" {_SIGN[equation.operation_kind]} ".join(
                label or "" for label in labels
            )
            if (equation.refusal_detail or "").startswith("lhs"):
                pattern += f" -> stated {declared.get(equation.lhs_symbol_id)!r}"
            out.patterns[pattern] = out.patterns.get(pattern, 0) + 1
            seen = out.examples.setdefault(pattern, [])
            if len(seen) < examples and trace.problem_id not in seen:
                seen.append(trace.problem_id)
    return out


CORPUS_FILES: Mapping[str, tuple[str, float]] = MappingProxyType(
    {
        "gsm8k": ("gsm8k/train.jsonl", 0.95),
        "svamp": ("svamp/SVAMP.json", 0.98),
        "mawps": ("mawps/mwptoolkit/mawps_source.json", 0.90),
        "cogcomp": ("cogcomp_arithmetic/data/questions.json", 0.98),
    }
)
"""The development corpora (paths under ``../shared/corpora``) and the import share each must reach."""


@dataclass(frozen=True)
class ImportRow:
    """One corpus: how many problems, how many import into a trace, and the refusals by reason."""

    corpus: str
    problems: int
    imported: int
    target: float
    refusals: Mapping[str, int]

    @property
    def share(self) -> float:
        return self.imported / self.problems if self.problems else 0.0


def import_table(corpora: Path) -> list[ImportRow]:
    """Per corpus of :data:`CORPUS_FILES`: problems, imported (every step operand bound), refusals by reason.

    The refusal counts and the imported count add up to the problems.
    """
    from ssbg.reading.readers import READERS

    rows: list[ImportRow] = []
    for name, (relative, target) in CORPUS_FILES.items():
        reasons: dict[str, int] = {}
        total = imported = 0
        for record in READERS[name](corpora / relative):
            total += 1
            if record.refusal is None:
                imported += 1
            else:
                reasons[record.refusal.reason] = reasons.get(record.refusal.reason, 0) + 1
        rows.append(ImportRow(name, total, imported, target, dict(sorted(reasons.items()))))
    return rows


def operand_sources(traces: Iterable[Trace]) -> dict[str, int]:
    """How the step operands of ``traces`` are grounded: text mention, solution mention, step, constant."""
    out: dict[str, int] = {}
    for trace in traces:
        for step in trace.steps:
            for o in step.operands:
                key = o.source if o.mention is None else f"mention ({trace.mentions[o.mention].source})"
                out[key] = out.get(key, 0) + 1
    return dict(sorted(out.items()))


def measure(corpora: Path | str) -> str:
    """Every figure of issue 4 over the development corpora, as a markdown report.

    ``python -c "from ssbg.stats.gold import measure; print(measure('../shared/corpora'))"``
    """
    from ssbg.reading.readers.gsm8k import read_gsm8k

    root = Path(corpora)
    lines = ["| corpus | problems | imported | share | target | refusals by reason |", "|---|---:|---:|---:|---:|---|"]
    for row in import_table(root):
        refusals = ", ".join(f"{k} {v}" for k, v in row.refusals.items()) or "-"
        lines.append(
            f"| {row.corpus} | {row.problems:,} | {row.imported:,} | {row.share:.1%} | {row.target:.0%} | {refusals} |"
        )
    rates = cogcomp_rate_agreement(root / CORPUS_FILES["cogcomp"][0])
    unknowns = mawps_unknown_agreement(root / CORPUS_FILES["mawps"][0])
    lines += [
        "",
        f"CogComp rate flags: {rates.flags_agreeing:,}/{rates.flags:,} flags agree ({rates.flag_share:.1%}); "
        f"question flags {rates.question_agreeing}/{rates.question_flags} "
        f"({rates.question_agreeing / max(1, rates.question_flags):.1%}); every flag of a problem: "
        f"{rates.problems_agreeing}/{rates.problems} ({rates.problem_share:.1%})",
        f"MAWPS named unknowns: {unknowns.named} named among {unknowns.problems} imported, {unknowns.evaluable} "
        f"with a dimension; ssbg agrees on {unknowns.agreeing} ({unknowns.share:.1%}); disagreements: "
        + "; ".join(summarize(unknowns.disagreements, 20)),
    ]
    traces = [r.payload for r in read_gsm8k(root / CORPUS_FILES["gsm8k"][0]) if isinstance(r.payload, Trace)]
    sources = operand_sources(traces)
    lines += ["", "GSM8K train operands by source: " + ", ".join(f"{k} {v:,}" for k, v in sources.items())]
    survey = unit_mismatch_survey(traces)
    lines += [
        "",
        f"GSM8K train steps whose operands all resolve in the pack: {survey.steps:,}; "
        + ", ".join(f"{k} {v:,}" for k, v in sorted(survey.statuses.items()))
        + f"; unit_mismatch share {survey.mismatch_share:.1%}",
        "",
        "| # | refusals | pattern | examples |",
        "|---:|---:|---|---|",
    ]
    for n, (pattern, count, examples) in enumerate(survey.top(20), start=1):
        lines.append(f"| {n} | {count} | `{pattern}` | {', '.join(examples)} |")
    return "\n".join(lines) + "\n"
