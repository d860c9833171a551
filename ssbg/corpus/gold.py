"""Agreement of ssbg's units with the gold some corpora carry (edge).

- CogComp flags which quantities are rates and whether the question asks for
  one (:func:`cogcomp_rate_agreement`): ssbg's rate-ness of a quantity is that
  of its mention's unit (``3 eggs in each box`` -> ``eggs per box``), of the
  question that of the stated answer unit or a rate cue in the question
  (``each student``, ``how fast``).
- MAWPS names some unknowns (``hours``, ``miles``, ``cost``;
  :func:`mawps_unknown_agreement`): where the name is a pack unit, ssbg's answer
  unit must have its dimension; where its head word names a dimension
  (``original_price``, ``average_speed``), that dimension.  Other names
  (``books``, ``number``) have no dimension to compare: they are counted apart.

ssbg's answer unit is the unit the question states (``How many hours ...``),
else the admitted unit of the step the question target binds to.

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

from ssbg.corpus.mentions import lemmatize, pack_lookup
from ssbg.corpus.readers.cogcomp import gold_rate_flags, pair_quantities, read_cogcomp
from ssbg.corpus.readers.common import iter_json_array
from ssbg.corpus.readers.mawps import read_mawps
from ssbg.trace import Trace, step_units
from ssbg.units import UnitPack, UnitVector, default_pack

__all__ = [
    "DIMENSION_WORDS",
    "RateAgreement",
    "UnknownAgreement",
    "answer_dimension",
    "cogcomp_rate_agreement",
    "gold_dimension",
    "is_rate_unit",
    "mawps_unknown_agreement",
    "question_asks_rate",
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
            ("cost", "price", "wage", "money", "bill", "paycheck", "profit", "income", "salary", "fee", "savings"),
            _MONEY,
        ),
        **dict.fromkeys(("time", "duration"), UnitVector(time=1)),
        **dict.fromkeys(("distance", "length", "height", "width", "mileage", "yardage"), UnitVector(length=1)),
        "weight": UnitVector(mass=1),
        **dict.fromkeys(("speed", "velocity"), UnitVector(length=1, time=-1)),
        "area": UnitVector(length=2),
        "volume": UnitVector(length=3),
    }
)
"""English nouns that name a dimension, not a unit: how a gold unknown such as ``hourly_wage`` is read."""


def gold_dimension(name: str, pack: UnitPack) -> UnitVector | None:
    """A named unknown as gold: the dimension of its head word (the last of ``original_price``).

    The head word is read as a pack unit (``hours``, ``kilometers``) or as a
    dimension word of :data:`DIMENSION_WORDS` (``price`` -> money); other names
    (``books``, ``number``) have no dimension: None.

    >>> from ssbg.units import default_pack
    >>> [gold_dimension(n, default_pack()).to_canonical_string() for n in ("hours", "hourly_wage", "average_speed")]
    ['time', 'money', 'length/time']
    >>> gold_dimension("books", default_pack()) is None
    True
    """
    head = name.lower().rsplit("_", 1)[-1]
    for word in (name, head):
        resolved = pack_lookup(pack, word)
        if resolved is not None:
            return resolved.dimension
    return DIMENSION_WORDS.get(head)


def answer_dimension(trace: Trace, pack: UnitPack) -> UnitVector | str | None:
    """ssbg's answer unit: the unit the question states, else the admitted unit of the last step.

    A stated pack unit gives its dimension, a stated open noun its lemma.
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
        if _same(gold, got):
            out.agreeing += 1
        else:
            out.disagreements.append((record.problem_id, trace.gold_answer_unit, _show(got)))
    return out


def _same(gold: UnitVector, got: UnitVector | str | None) -> bool:
    return isinstance(got, UnitVector) and gold == got


def _show(value: UnitVector | str | None) -> str:
    if value is None:
        return "-"
    return value if isinstance(value, str) else value.to_canonical_string()


def summarize(items: Iterable[tuple[str, str, str]], limit: int = 10) -> list[str]:
    """A few disagreements as ``id: gold -> ssbg`` lines."""
    return [f"{pid}: {gold} -> {got}" for pid, gold, got in list(items)[:limit]]
