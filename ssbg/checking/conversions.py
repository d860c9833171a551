"""Conversions checked by value: a step admitted by dimension whose stated result forgot a scale (ADR 0030).

Admissibility (ADR-0134) is dimensional: ``10 gallons per minute * 2 hours = 20 gallons`` is admitted, its proof
noting ``convert gallon_per_minute*hour->gallon x60``.  This module is the checker's arithmetic over the same
units: every operand carries the scale of its unit (:attr:`~ssbg.units.ResolvedUnit.ratio`, the pack's factor to
its dimension's base unit), a step's result the scale of the unit it states, and a step whose written result is
what its numbers give *without* the factors (or with them inverted), and not what they give with them, is a
:class:`Slip` — the checker's ``conversion_error`` finding.

What it reads and what it leaves (each a way to a false alarm it does not take):

- a step's scale is pinned only where the solution states the result's unit (``= 20 gallons``) or where a sum
  adds operands of one dimension and different scales (``1 hour + 30 minutes``: no unit of time makes ``31``
  right); a product or quotient that states no unit takes the scale its operands give (``10 * 2 = 20``, in
  gallons per minute times hours) and carries it to the steps that use it;
- an operand whose literal is not the value of what it is grounded to (``0.2`` for ``20%``, ``30`` for "half an
  hour") was converted by the solution already: the step is not read (its scale is not known);
- a unit without a scale (``x?`` in a proof), an upstream result with none, a step without a stated result, or a
  result that is neither the scaled nor the unscaled value (an arithmetic slip, or a reading ssbg does not
  follow) gives no slip.

The values are exact: scales are :class:`fractions.Fraction`, written results compared with
:func:`~ssbg.reading.readers.solutions.gives` (the rounding a writer may use).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

from ssbg.constants import IMPLICIT_CONSTANTS
from ssbg.errors import NumberError
from ssbg.numbers import number_or_none
from ssbg.reading.readers.solutions import Said, gives, said_units
from ssbg.units import DIMENSIONLESS

if TYPE_CHECKING:
    from ssbg.model import SemanticSymbolicBindingGraph, SymbolBinding
    from ssbg.reading.readers.solutions import SolutionReading
    from ssbg.trace import Operand, Step, Trace
    from ssbg.units import ResolvedUnit, UnitPack

__all__ = ["ConversionScan", "Slip", "conversion_slips", "scan_conversions"]

_ADDITIVE = frozenset({"add", "subtract"})
_SIGN = {"add": " + ", "subtract": " - ", "multiply": " * ", "divide": " / "}
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?|-?\.\d+")
_TOLERANCE = 1e-9


@dataclass(frozen=True, slots=True)
class Slip:
    """A step whose written result forgot (or inverted) a conversion its units need.

    ``step`` is the trace step, ``written`` the result the solution states, ``expected`` what its numbers give
    with their units' scales, in ``unit`` (the unit the step states; for a sum that states none, the finest of
    its operands'), ``factor`` the scale left out (``expected`` is ``written`` times it; an ``inverted`` one was
    divided where it should multiply) and ``between`` the two units it converts, where ssbg can name them.
    """

    step: int
    written: float
    expected: float
    factor: Fraction
    unit: str
    between: str = ""
    inverted: bool = False
    support: float = 0.0  # the probability that a plausible reading undoes it (ADR 0027)
    said: str = ""  # the operation with its operands' units, ``10 gallon per minute x 2 hour``

    def sentence(self) -> str:
        """The slip in words: ``"10 gallon per minute x 2 hour is 1,200 gallon, not 20: the factor 60 between
        minute and hour was left out"``."""
        what = "inverted" if self.inverted else "left out"
        factor = _factor(self.factor if self.factor >= 1 else 1 / self.factor)
        where = f" between {self.between}" if self.between else ""
        said = self.said or "with its units the step"
        value = f"{_shown(self.expected)} {self.unit}, not {_shown(self.written)}"
        return f"{said} is {value}: the factor {factor}{where} was {what}"


def _shown(value: float) -> str:
    if value == int(value) and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:,.6g}"


def _factor(f: Fraction) -> str:
    if f.denominator == 1:
        return f"{f.numerator:,}"
    if f.numerator == 1:
        return f"1/{f.denominator:,}"
    return f"{float(f):.6g}"


class _Quantity:
    """An operand's written value and its unit's scale (None: not known)."""

    __slots__ = ("derived", "dimension", "scale", "unit", "value")

    def __init__(
        self, value: float, scale: Fraction | None, unit: str, *, derived: bool = False, dimension: object = None
    ) -> None:
        self.value = value
        self.scale = scale
        self.unit = unit
        self.derived = derived  # the scale of a product or quotient that stated no unit
        self.dimension = dimension  # the unit's dimension, where its symbol has a unit the pack knows


def _literal(o: Operand) -> float | None:
    """The number an operand's literal writes (``1,200``), read as every number of ssbg is (:mod:`ssbg.numbers`)."""
    try:
        return number_or_none((o.text or "").replace(",", "").strip())
    except NumberError:  # a literal out of range: no value to compare
        return None


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= _TOLERANCE * max(1.0, abs(a), abs(b))


def _combine(op: str, values: list[float]) -> float | None:
    total = values[0]
    for v in values[1:]:
        if op == "add":
            total += v
        elif op == "subtract":
            total -= v
        elif op == "multiply":
            total *= v
        elif v == 0:
            return None
        else:
            total /= v
    return total if math.isfinite(total) else None


def _combine_scales(op: str, scales: list[Fraction]) -> Fraction:
    total = scales[0]
    for s in scales[1:]:
        total = total * s if op == "multiply" else total / s
    return total


class ConversionScan(NamedTuple):
    """What :func:`scan_conversions` found: the slips, and how many steps had their value compared with what
    their units' factors give (``pinned``)."""

    slips: list[Slip]
    pinned: int


def conversion_slips(reading: SolutionReading, graph: SemanticSymbolicBindingGraph, pack: UnitPack) -> list[Slip]:
    """The steps of a bound solution whose written result forgot or inverted a conversion (:class:`Slip`).

    ``graph`` is the solution's binding: each admitted step's operands are read at the units its symbols were
    admitted with, in the order its equation writes them; each result carries the scale of its stated unit or,
    stating none, the scale its operands give.
    """
    return scan_conversions(reading, graph, pack).slips


def scan_conversions(reading: SolutionReading, graph: SemanticSymbolicBindingGraph, pack: UnitPack) -> ConversionScan:
    """:func:`conversion_slips` and the count of steps it compared by value, in one pass."""
    trace = reading.trace
    if trace is None or not _scaled(graph, pack):
        return ConversionScan([], 0)
    scan = _Scan(reading, trace, graph, pack)
    for i, step in enumerate(trace.steps):
        scan.step(i, step)
    return ConversionScan(scan.slips, scan.pinned)


def _scaled(graph: SemanticSymbolicBindingGraph, pack: UnitPack) -> bool:
    """Whether a scale can enter a step of the binding: a conversion its proof notes (the proofs name every one,
    ``x?`` where a unit has no scale), or a constant whose unit is a factor between two units (``60 minutes per
    hour``, which a product may apply the wrong way round with no conversion to note).  A binding with neither
    has nothing to check by value: most solutions, which the scan then costs nothing."""
    if any("; convert " in eq.unit_proof for eq in graph.equations):
        return True
    return any(s.symbol_id.startswith("c_") and _scale(s.unit, pack) not in (None, 1) for s in graph.symbols)


class _Scan:
    """Scratch state of one :func:`scan_conversions` run: the steps' results with their scales, in order."""

    def __init__(self, reading: SolutionReading, trace: Trace, graph: SemanticSymbolicBindingGraph,
                 pack: UnitPack) -> None:
        self.trace = trace
        self.pack = pack
        self.written_units = said_units(reading.solution.text, pack)
        self.symbols = {s.symbol_id: s for s in graph.symbols}
        self.equations = {e.lhs_symbol_id: e for e in graph.equations}
        self.results: list[_Quantity | None] = []
        self.slips: list[Slip] = []
        self.pinned = 0

    def quantities(self, i: int, step: Step, stated: str | None) -> list[_Quantity] | None:
        """The step's operands with their scales, or None when the step is not read (ADR 0030 says which)."""
        eq = self.equations.get(f"step_{i:03d}")
        if (
            eq is None
            or eq.admissibility_status != "admitted"
            or step.result is None
            or stated != step.unit  # a stated unit the binder read again (a rate its context gives) is a reading
        ):
            return None
        ids = [x.strip() for x in eq.rhs_canonical.split(_SIGN[step.op])]
        if len(ids) != len(step.operands):
            return None
        found = _operands(self.trace, step.operands, [self.symbols.get(x) for x in ids], self.results, self.pack)
        end = (step.at or 0) + len(step.formula or "")
        if found is None or _said_otherwise(found, self.written_units, end, self.pack):
            return None
        return found if _fixed([q.unit for q in found] + [_name(stated, self.pack)], self.pack) else None

    def step(self, i: int, step: Step) -> None:
        pack = self.pack
        sid = f"step_{i:03d}"
        stated = self.symbols[sid].unit if sid in self.symbols else None
        stated_scale = _scale(stated, pack)
        quantities = self.quantities(i, step, stated)
        if quantities is None or step.result is None:
            # not read: its result is in the unit the solution states for it, if it states one itself
            known = step.result is not None and stated_scale is not None and stated == step.unit and not step.implicit
            as_stated = _Quantity(float(step.result or 0), stated_scale, _name(stated, pack))
            self.results.append(as_stated if known else None)
            return
        written = _written(step.formula, float(step.result))
        slip, scale, compared = _check(i, step.op, quantities, written, _name(stated, pack), stated_scale, pack,
                                       implicit=step.implicit)
        self.pinned += compared
        if slip is not None:
            holds = functools.partial(_holds, i, step.op, written, _name(stated, pack), stated_scale, pack)
            undo = _support(self.trace, step.operands, quantities, self.results, pack, holds)
            said = _SIGN[step.op].replace("*", "x").join(f"{_shown(q.value)} {q.unit}" for q in quantities)
            self.slips.append(dataclasses.replace(slip, support=undo, said=said))
        unit = _name(stated, pack) if stated is not None else _product_name(step.op, quantities)
        derived = stated is None and step.op not in _ADDITIVE
        self.results.append(None if scale is None else _Quantity(float(step.result), scale, unit, derived=derived))


def _holds(
    index: int, op: str, written: str, stated: str, stated_scale: Fraction | None, pack: UnitPack,
    quantities: list[_Quantity],
) -> bool:
    """Whether the step gives its written result with these operands (no slip)."""
    return _check(index, op, quantities, written, stated, stated_scale, pack, implicit=False)[0] is None


def _support(
    trace: Trace,
    operands: tuple[Operand, ...],
    quantities: list[_Quantity],
    results: list[_Quantity | None],
    pack: UnitPack,
    holds: Callable[[list[_Quantity]], bool],
) -> float:
    """The probability that a plausible reading undoes a slip: the reader's other unit readings of each operand's
    mention and the scorer's other sources of each literal (ADR 0027), one operand at a time, each weighed with its
    probability, under which the step gives its written result.  A reading ssbg cannot weigh (a unit the pack does
    not know or scale) counts as undoing it; one of another dimension does not (the step would be refused)."""
    total = 0.0
    for j, o in enumerate(operands):
        chosen = quantities[j]
        for unit, probability in _alternatives(trace, o, results, pack):
            if probability <= 0.0:
                continue
            if unit is None:
                total += probability
                continue
            if unit.dimension != _dimension(chosen.unit, pack):
                continue
            if unit.ratio is None:
                total += probability
                continue
            tried = list(quantities)
            tried[j] = _Quantity(chosen.value, unit.ratio, unit.lemma)
            if holds(tried):
                total += probability
    return min(1.0, round(total, 6))


def _dimension(name: str, pack: UnitPack) -> object:
    hit = pack.lookup(name.replace(" per ", "_per_").replace(" ", "_"))
    return None if isinstance(hit, str) else hit.dimension


def _alternatives(
    trace: Trace, o: Operand, results: list[_Quantity | None], pack: UnitPack
) -> list[tuple[ResolvedUnit | None, float]]:
    """An operand's other readings as (resolved unit, probability); None for a unit ssbg cannot weigh."""
    out: list[tuple[ResolvedUnit | None, float]] = []
    if o.mention is not None:
        mention = trace.mentions[o.mention]
        for r in mention.readings:
            if r.unit == mention.unit:
                continue
            hit = None if r.unit is None else pack.lookup(r.unit)
            out.append((None if hit is None or isinstance(hit, str) else hit, r.probability))
    for source in o.readings:
        other = source.operand
        if (other.mention, other.step, other.constant) == (o.mention, o.step, o.constant):
            continue
        unit: str | None = None
        if other.mention is not None:
            unit = trace.mentions[other.mention].unit
        elif other.constant is not None:
            c = IMPLICIT_CONSTANTS.get(other.constant)
            unit = None if c is None else c.unit
        elif other.step is not None:
            earlier = results[other.step] if other.step < len(results) else None
            unit = None if earlier is None else earlier.unit.replace(" per ", "_per_").replace(" ", "_")
        hit = None if unit is None else pack.lookup(unit)
        out.append((None if hit is None or isinstance(hit, str) else hit, source.probability))
    return out


def _said_otherwise(quantities: list[_Quantity], said: Said, end: int, pack: UnitPack) -> bool:
    """Whether the solution writes one of the operands' numbers with a unit of its dimension (or of its rate's
    numerator) and another scale than the one ssbg grounded it to (``14 days x 1 kg``, the 1 bound to a mention in
    grams per day): the solution's own word on that number's unit disagrees with ssbg's reading, so the step's
    scales are not known."""
    for q in quantities:
        written = said.get(q.value)
        if not written or q.scale is None:
            continue
        known = {(q.dimension, q.scale)}
        numerator = pack.lookup(q.unit.split(" per ")[0].replace(" ", "_"))
        if " per " in q.unit and not isinstance(numerator, str) and numerator.ratio is not None:
            known.add((numerator.dimension, numerator.ratio))
        dimensions = {d for d, _ in known}
        if any(at < end and d in dimensions and (d, scale) not in known for at, d, scale in written):
            return True
    return False


def _name(unit: str | None, pack: UnitPack) -> str:
    """A unit's lemma in words (``dollar per hour``), or the text as written when the pack does not know it."""
    if unit is None:
        return "number"
    hit = pack.lookup(unit)
    lemma = unit if isinstance(hit, str) else hit.lemma
    return lemma.replace("_per_", " per ").replace("_", " ")


def _product_name(op: str, quantities: list[_Quantity]) -> str:
    if op in _ADDITIVE:
        return quantities[0].unit
    sign = " x " if op == "multiply" else " / "
    return sign.join(q.unit for q in quantities if q.unit != "number") or "number"


def _written(formula: str | None, result: float) -> str:
    """The result as the formula writes it (its rounding is what :func:`gives` allows), else the value's text."""
    if formula is not None and "=" in formula:
        tail = formula.rpartition("=")[2].strip()
        match = _NUMBER.search(tail)
        if match is not None:
            return match.group().replace(",", "")
    return _text(result)


def _scale(unit: str | None, pack: UnitPack) -> Fraction | None:
    if unit is None:
        return None
    hit = pack.lookup(unit)
    return None if isinstance(hit, str) else hit.ratio


_AGAIN = re.compile(r"_again_\d+$")
_STEP = re.compile(r"step_(\d+)$")


def _operands(
    trace: Trace,
    operands: tuple[Operand, ...],
    bound: list[SymbolBinding | None],
    results: list[_Quantity | None],
    pack: UnitPack,
) -> list[_Quantity] | None:
    """The operands' written values and scales, or None when one is not known (the step is not read)."""
    out: list[_Quantity] = []
    for o, sym in zip(operands, bound, strict=True):
        if sym is None:
            return None
        literal = _literal(o)
        step = _STEP.match(_AGAIN.sub("", sym.symbol_id))
        if step is not None:
            k = int(step.group(1))
            earlier = results[k] if k < len(results) else None
            if earlier is None or (literal is not None and not _same(literal, earlier.value)):
                return None
            out.append(_Quantity(earlier.value, earlier.scale, earlier.unit, derived=earlier.derived))
            continue
        if o.mention is not None:
            value = float(trace.mentions[o.mention].value)
        else:
            c = IMPLICIT_CONSTANTS.get(o.constant or "")
            if c is None:
                return None
            value = float(c.value)
        if literal is not None and not _same(literal, value):
            return None  # converted by the solution already (0.2 for 20%), or a reading not followed
        scale = Fraction(1) if sym.unit is None and sym.semantic_role == "ratio" else _scale(sym.unit, pack)
        if scale is None:
            return None
        hit = None if sym.unit is None else pack.lookup(sym.unit)
        dimension = None if hit is None or isinstance(hit, str) else hit.dimension
        out.append(_Quantity(value, scale, _name(sym.unit, pack), dimension=dimension))
    return out


def _check(
    index: int,
    op: str,
    quantities: list[_Quantity],
    written: str,
    stated: str,
    stated_scale: Fraction | None,
    pack: UnitPack,
    *,
    implicit: bool,
) -> tuple[Slip | None, Fraction | None, bool]:
    """The step's slip (or None), the scale of its result (None: not known) and whether its scale was pinned (the
    value compared with what the factors give)."""
    scales: list[Fraction] = []
    for q in quantities:
        if q.scale is None:
            return None, None, False
        scales.append(q.scale)
    raw = _combine(op, [q.value for q in quantities])
    if raw is None:
        return None, None, False
    if op in _ADDITIVE:
        return _check_sum(index, op, quantities, scales, raw, written, stated, stated_scale, implicit=implicit)
    derived = _combine_scales(op, scales)
    if stated_scale is None or implicit or sum(q.unit != "number" for q in quantities) < 2:
        # the scale its operands give: the written result is in that unit (a quantity times a pure number
        # stated in another unit, ``1/2 * 16 cups = 8 teaspoons``, is a comparison the words make, not a conversion)
        return None, derived, False
    factor = derived / stated_scale
    expected = raw * float(factor)
    if factor == 1:
        return None, stated_scale, False
    if gives(expected, written):
        return None, stated_scale, True
    inverted = not gives(raw, written)
    if inverted and not gives(raw / float(factor), written):
        return None, None, True  # neither with nor without the factor: an arithmetic slip or a reading not followed
    between = _between([q.unit for q in quantities], stated, pack)
    if not inverted:  # a factor the solution wrote, multiplied where it divides (or the other way round)?
        for q in quantities:
            c = Fraction(q.value).limit_denominator(1_000_000)
            if q.derived or c in (0, 1) or " per " not in q.unit or _dimension(q.unit, pack) != DIMENSIONLESS:
                continue
            if factor in (1 / (c * c), c * c):
                return Slip(index, float(written), expected, c, stated, between, inverted=True), stated_scale, True
    return Slip(index, float(written), expected, factor, stated, between, inverted), stated_scale, True


def _check_sum(
    index: int,
    op: str,
    quantities: list[_Quantity],
    scales: list[Fraction],
    raw: float,
    written: str,
    stated: str,
    stated_scale: Fraction | None,
    *,
    implicit: bool,
) -> tuple[Slip | None, Fraction | None, bool]:
    """A sum or difference: its terms in one unit (the stated one, else any of its operands')."""
    if len(set(scales)) == 1 and (stated_scale is None or stated_scale == scales[0]):
        return None, scales[0], False  # one scale throughout: nothing to convert
    if implicit or stated_scale is None or any(q.derived for q in quantities):
        # the reader computed it from the written numbers; or it states no unit ("8 teaspoons + 16 cups" may
        # count things, as the question asks); or a term's scale is one a product in the same formula gave
        return None, None, False
    targets = [(stated_scale, stated)]
    physical = _combine(op, [q.value * float(s) for q, s in zip(quantities, scales, strict=True)])
    if physical is None:
        return None, None, False
    for s, _ in targets:
        if gives(physical / float(s), written):
            return None, s, True
    if not gives(raw, written):
        return None, None, True  # neither with nor without the factors: an arithmetic slip or a reading not followed
    target, unit = min(targets)  # in the finest of the units (whole numbers, mostly)
    other = next((q, s) for q, s in zip(quantities, scales, strict=True) if s != target)
    between = f"{other[0].unit} and {unit}"
    return Slip(index, float(written), physical / float(target), other[1] / target, unit, between), target, True


_CONVENTIONAL = frozenset({"day", "week", "month", "year", "night", "decade", "century"})
"""Units of time whose conversion a problem fixes by convention, not by definition (a working day of 8 hours, a
month of 4 weeks or 30 days, a year of 52 weeks or 365 days): a step converting to or from one is not read."""


def _parts(units: list[str]) -> list[str]:
    parts: list[str] = []
    for unit in units:
        for part in unit.split(" per "):
            for word in part.split(" x "):
                if word not in parts:
                    parts.append(word)
    return parts


def _fixed(units: list[str], pack: UnitPack) -> bool:
    """Whether every conversion among ``units`` has a factor fixed by definition: none between units of time that
    conventions fix (:data:`_CONVENTIONAL`), none of a count (a pair, a dozen: whether 4 is 4 shoes or 4 pairs is a
    reading) and none of a scaled pure number (a percent: 20% is written 20, 0.2 or 20/100)."""
    scales: dict[object, set[object]] = {}
    calendar: dict[object, bool] = {}
    for part in _parts(units):
        hit = pack.lookup(part.replace(" ", "_"))
        if isinstance(hit, str):
            continue
        dims = hit.dimension
        if hit.ratio != 1 and (dims.count != 0 or dims == DIMENSIONLESS):
            return False
        scales.setdefault(dims, set()).add(hit.ratio)
        calendar[dims] = calendar.get(dims, False) or part in _CONVENTIONAL
    return not any(len(v) > 1 and calendar[d] for d, v in scales.items())


def _between(units: list[str], stated: str, pack: UnitPack) -> str:
    """Two units of one dimension and different scales among the operands' and the stated one (their parts:
    ``gallon per minute`` is a gallon and a minute), for the sentence: ``hour and minute``."""
    parts = _parts([*units, stated])
    for k, a in enumerate(parts):
        ha = pack.lookup(a.replace(" ", "_"))
        for b in parts[k + 1 :]:
            hb = pack.lookup(b.replace(" ", "_"))
            if isinstance(ha, str) or isinstance(hb, str):
                continue
            if ha.dimension == hb.dimension and ha.ratio is not None and hb.ratio is not None and ha.ratio != hb.ratio:
                return f"{a} and {b}"
    return ""


def _text(value: float) -> str:
    return str(int(value)) if value == int(value) and abs(value) < 1e15 else repr(value)
