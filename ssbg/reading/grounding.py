"""Grounding: what each number of a solution's formulas stands for, and the trace steps they make (edge).

:func:`~ssbg.reading.formula.parse_formula` reads a corpus formula into a tree;
:class:`TraceBuilder` flattens trees into :class:`~ssbg.trace.Step` values
(a chain of one operator is one step, ``a - b - c``; every other operator a step
of its own; sub-expressions become implicit steps) and grounds each number:

1. an earlier step's result (the most recent equal one; a literal written with
   decimals also matches a result it rounds), never one of the formula's own sub-steps;
2. a mention in the text with that value (an unused one first);
3. an implicit constant whose cue words occur in the text (``60`` with "hour");
   then a mention whose unit scales to the value (``20%`` for ``0.2``, ``half a
   dozen`` for ``6``);
4. the complement of a percentage mention (``.8`` or ``80`` for ``20%``), as an
   implicit step ``100% - 20%`` (or ``100% + 20%`` where the text speaks of an increase);
5. the numerator or denominator of a fraction mention (the ``3`` of ``1/3``);
6. a number the solution's prose states outside its annotations (see
   :class:`TraceBuilder`);
7. a quantity the text states by a list or an article (``Monday to Thursday``
   for 4 days, ``a ferret`` for 1, :mod:`ssbg.reading.counting`); the rest of a
   fraction (``1 - 1/3``); a mention converted by a cued constant (``two weeks``
   x 7 days per week); ``k + 1`` parts of "k times as many"; a fallback
   constant (``every other``, ``parents``, ``self``, ``March`` 31 days, pints per gallon);
8. last: the persons or weekdays the text names, summed as the divisor of an average or
   share, or a listed count (``third and fourth``); ``n + 1`` with ``self``; ``two and a
   half``; ``every 6 months`` as 12 / 6 a year; a number-word measure (``a fifty-dollar
   bill``, ``half an hour``); ``1 hour 30 minutes``.

A number none of these explains refuses the record with
:class:`~ssbg.errors.ImportRefusal` reason ``operand_not_found``; nothing is guessed.

Examples
--------
>>> from ssbg.reading.mentions import extract_mentions
>>> text = "Weng earns $12 an hour. She worked 50 minutes. How much did she earn?"
>>> b = TraceBuilder("w1", "example", text, extract_mentions(text))
>>> b.add_formula("12/60=0.2", unit="$ per minute"), b.add_formula("0.2*50=10", unit="$")
(True, True)
>>> [(s.op, [o.source for o in s.operands]) for s in b.build().steps]
[('divide', ['mention', 'constant']), ('multiply', ['step', 'mention'])]
"""

from __future__ import annotations

import dataclasses
import functools
import operator
import re
from collections.abc import Callable, Sequence
from typing import Any

from ssbg.constants import IMPLICIT_CONSTANTS
from ssbg.errors import ImportRefusal, ProblemGraphError
from ssbg.reading.counting import compound_measures, counted_mentions, listed_items, named_items
from ssbg.reading.cues import FALLBACK_CONSTANTS, SELF_COMPANION_CUE, find_cues
from ssbg.reading.formula import (
    BinOp,
    Literal,
    Node,
    Unity,
    Var,
    close,
    isolate,
    parse_equation,
    parse_formula,
    parse_number,
)
from ssbg.reading.mentions import mention_at, pack_lookup, worded_mentions
from ssbg.trace import Mention, Operand, Step, Trace
from ssbg.units import UnitPack, default_pack

__all__ = ["MAX_FORMULAS", "TraceBuilder"]

MAX_FORMULAS = 500  # formulas one record may try (GSM8K solutions have up to about 30)


def _value_key(value: float) -> float:
    """The key a mention is found under by value: ``round(value, 9)``; a whole number is its own key
    (rounding returns it unchanged, at many times the cost of the test)."""
    return value if value.is_integer() else round(value, 9)


def _decimals(text: str) -> int:
    _, dot, frac = text.rstrip("%").partition(".")
    return len(frac) if dot else 0


def _fraction_parts(value: float) -> tuple[int, int] | None:
    """``(numerator, denominator)`` of a simple fraction (denominator up to 12)."""
    whole = int(value)
    for den in range(2, 13):
        num = (value - whole) * den
        if abs(num - round(num)) < 1e-9 and round(num) > 0:
            return round(num) + whole * den, den
    return None

_APPLY: dict[str, Callable[[float, float], float]] = {
    "add": operator.add,
    "subtract": operator.sub,
    "multiply": operator.mul,
    "divide": operator.truediv,
}

_MULTIPLIERS = frozenset({"twice", "thrice", "quadruple", "both", "round_trip"})
_DIVISORS = frozenset({"half", "third", "quarter", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"})
_MIXED = re.compile(r"\d+\s+\d+\s*/\s*\d+")
# Words of an increase: "100% + p" is read for a percentage only where the text has one.
_INCREASE = re.compile(
    r"(?i)(?<![a-z])(?:more|increas\w*|rais\w*|rise[sn]?|rose|higher|bump\w*|mark(?:s|ed)?[- ]?up|interest|tax|"
    r"tips?|grow\w*|grew|gain\w*|profit\w*|return\w*|larger|bigger|longer|taller|extra|premium|inflation|up)(?![a-z])"
)
# Conversion constants "x_per_y" as (id, value, x, y): "2 weeks" x 7 days_per_week is 14 days.
def _conversion_table(*, fallback: bool) -> tuple[tuple[str, float, str, str], ...]:
    """(constant id, factor, numerator unit, denominator unit) of the ``X_per_Y`` constants: the ordinary
    ones, or the fallback ones whose cue names both units (month lengths convert no mention)."""
    return tuple(
        (c.constant_id, float(c.value), c.unit.partition("_per_")[0], c.unit.partition("_per_")[2])
        for c in IMPLICIT_CONSTANTS.values()
        if c.unit is not None
        and c.unit.count("_per_") == 1
        and (c.constant_id in FALLBACK_CONSTANTS) == fallback
        and not c.unit.endswith("_per_item")
        and not (fallback and c.unit == "day_per_month")
    )


_CONVERSIONS = _conversion_table(fallback=False)
# tried by _converted only after every ordinary conversion
_CUED_CONVERSIONS = _conversion_table(fallback=True)
# Words of a total shared by parts ("twice as many ... in total", "combined", "share").
_SHARED = re.compile(r"(?i)(?<![a-z])(?:total|combined?|together|altogether|sum|in all|shared?|split|between)(?![a-z])")
# Words of an average or an equal share: a divisor may then count the persons (or weekdays) the text names.
_AVERAGE = re.compile(
    r"(?i)(?<![a-z])(?:average|mean|share[ds]?|sharing|equal(?:ly)?|even(?:ly)?|split|divide[ds]?|each)(?![a-z])"
)
_PLURALS = {"dollar": r"\$|dollars?", "foot": r"foot|feet"}  # a target unit as the text may write it
_EVERY = re.compile(r"(?i)(?<![a-z])every\s+$")
_FRACTION_RESULT = re.compile(r"(\d+)/(\d+)")
_PERCENT_RATE = re.compile(r"(?:%|percent) per ")
_COMPANION_LEMMAS = frozenset(
    {
        "friend",
        "sibling",
        "brother",
        "sister",
        "cousin",
        "classmate",
        "child",
        "kid",
        "teammate",
        "coworker",
        "roommate",
    }
)
_WRITTEN_FRACTION = re.compile(r"\d\s*/\s*\d")  # "2/5 times", "1/2 cup": a fraction the text writes
_ANNOTATION = re.compile(r"<<[^<>]*>>")
_SCALE_WORD = re.compile(r"(?i)\b(?:thousand|million|billion)\b")
_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
_OPERATOR_BEFORE = re.compile(r"(?:[-+*/=(\u00d7\u00f7]|\bx)\s*\$?\s*$")
_OPERATOR_AFTER = re.compile(
    r"^\s*(?:%\s*)?(?:[=)_]|(?:[-+*/\u00d7\u00f7]|x\b)\s*[$(\d.]|\*\s*[A-Za-z](?![A-Za-z])|[A-Za-z](?![A-Za-z])\s*[-+*/=)]|\()"
)  # "10*x = 80", "2x + 4", "3(J - 11)": a coefficient of an algebra solution is arithmetic too


def _in_arithmetic(text: str, start: int, end: int) -> bool:
    """True for a number the prose writes inside arithmetic (``48/2 = ``, ``= 24``): a restated
    formula grounds nothing; only a number stated in words ("everyone has 2 legs") may."""
    return bool(_OPERATOR_BEFORE.search(text, max(0, start - 4), start)) or bool(
        _OPERATOR_AFTER.match(text[end : end + 4])
    )


_PROSE_NUMBER = re.compile(r"(?<![\w.,])(?P<cur>\$)?(?P<num>\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)")


def blank_annotations(solution: str) -> str:
    """The solution with every ``<<...>>`` annotation overwritten by ``_`` (offsets kept)."""
    return _ANNOTATION.sub(lambda m: "_" * len(m.group()), solution)


@functools.lru_cache(maxsize=65_536)
def _scale_factor(pack: UnitPack, unit: str) -> float | None:
    """The ratio of a dimensionless or count unit to its base (``percent``: 0.01), None for others and 1."""
    resolved = pack_lookup(pack, unit)
    if (
        resolved is None
        or resolved.ratio is None
        or resolved.ratio == 1
        or resolved.dimension.as_dict() not in ({}, {"count": 1})
    ):
        return None
    return float(resolved.ratio)


class TraceBuilder:
    """Accumulates the steps of one problem's solution and builds its :class:`~ssbg.trace.Trace`.

    Every method that cannot ground or parse raises
    :class:`~ssbg.errors.ImportRefusal` (its ``problem_id``, ``corpus`` and
    ``path`` filled in), so a reader turns it into a refused record.

    ``solution`` is the corpus's worked solution, when it has one: a number that
    neither the text, an earlier step nor a cued constant explains may still be
    one the solution's prose states ("everyone has 2 legs"); it then grounds to a
    mention of source ``solution`` (real offsets into the solution, annotations
    excluded).
    """

    def __init__(
        self,
        problem_id: str,
        corpus: str,
        text: str,
        mentions: Sequence[Mention],
        *,
        question_span: tuple[int, int] | None = None,
        answer_unit: str | None = None,
        gold_answer_unit: str | None = None,
        answer: float | None = None,
        solution: str | None = None,
        where: str | None = None,
        pack: UnitPack | None = None,
    ) -> None:
        self.problem_id = problem_id
        self.corpus = corpus
        self.text = text
        self.mentions = tuple(mentions)
        self.question_span = question_span
        self.answer_unit = answer_unit
        self.gold_answer_unit = gold_answer_unit
        self.answer = answer
        self.solution = solution
        self.where = where
        self.pack = default_pack() if pack is None else pack
        self.steps: list[Step] = []
        self.step_values: list[float] = []
        self.used: set[int] = set()
        self._aligned_by_position: Sequence[int | None] | None = None
        self._extracted = self.mentions  # as given (a rule may later widen or narrow one of self.mentions)
        self._by_value: dict[float, list[int]] = {}
        for i, m in enumerate(self.mentions):
            self._by_value.setdefault(_value_key(float(m.value)), []).append(i)
        self._prose: tuple[tuple[int, float], ...] | None = None  # numbers of the solution prose, on first need
        self._blanked: str | None = None  # the solution with annotations blanked: see blanked_solution
        self._prose_words: tuple[tuple[int, float], ...] | None = None
        self._quoted: list[Mention] = []  # extra mentions operands point at (solution quotes, counts), by first use
        self._counted_clear_of: tuple[tuple[int, int], ...] | None = None  # spans counted mentions keep clear of
        self._position: int | None = None  # offset in the solution of the formula being added
        self._formulas = 0  # formulas tried (MAX_FORMULAS bounds a corrupt record's work)
        self._own_steps_from = 0  # the steps of the formula being added start here: none of its numbers is one of them
        self._fraction_results: set[str] = set()  # results stated as fractions ("= 8/3"), as written
        self._fallback_reads: dict[str, tuple[Any, ...]] = {}  # the fallback rules' readings of the text, on need

    # ------------------------------------------------------------ refusals

    def refusal(self, reason: str, message: str, detail: str | None = None) -> ImportRefusal:
        """An :class:`ImportRefusal` about this problem."""
        return ImportRefusal(
            message, reason=reason, path=self.where, detail=detail, problem_id=self.problem_id, corpus=self.corpus
        )

    # ------------------------------------------------------------ grounding

    @functools.cached_property
    def _scaled(self) -> tuple[float | None, ...]:
        """Each given mention's value in its unit's scale (:meth:`_scaled_value`), read on first need."""
        return tuple(self._scaled_value(m) for m in self._extracted)

    @functools.cached_property
    def _by_scaled(self) -> dict[float, list[int]]:
        """The given mentions by their scaled values (``20%`` under 0.2, ``129.9 million`` under 129.9)."""
        by_scaled: dict[float, list[int]] = {}
        for i, m in enumerate(self._extracted):
            scale = _SCALE_WORD.search(m.text)
            if scale is not None:  # "129.9 million voters" also stands for 129.9
                by_scaled.setdefault(_value_key(float(m.value) / _SCALES[scale.group().lower()]), []).append(i)
            scaled = self._scaled[i]
            if scaled is not None:
                by_scaled.setdefault(_value_key(scaled), []).append(i)
        return by_scaled

    def _scaled_value(self, m: Mention) -> float | None:
        """A mention's value in its unit's scale, for dimensionless and count units (``20%`` -> 0.2)."""
        if m.unit is None:
            return None
        if _PERCENT_RATE.match(m.unit):  # "50% every year": a percentage per period scales as a percentage
            return float(m.value) / 100
        factor = _scale_factor(self.pack, m.unit)
        return None if factor is None else float(m.value) * factor

    def merge(self, a: Literal, b: Literal) -> Literal | None:
        """Fold ``a/b`` into one literal when a fraction or percent mention has that value."""
        if b.value == 0:
            return None
        value = a.value / b.value
        if f"{a.text}/{b.text}" in self._fraction_results:
            return Literal(f"{a.text}/{b.text}", value)  # "8/3", an earlier result written as a fraction
        percent = b.value == 100  # "20/100" for a mention of 20%
        scales = self._scaled if percent else ()
        for i, m in enumerate(self.mentions):
            if m.kind == "fraction" and 0 < float(m.value) < 1 and close(1 - float(m.value), value):
                return Literal(f"{a.text}/{b.text}", value)  # "2/3" for the rest of "a third"
            if (close(float(m.value), value) and (m.kind == "fraction" or _WRITTEN_FRACTION.search(m.text))) or (
                percent
                and (scaled := scales[i]) is not None
                and close(scaled, value)
                and close(float(m.value), a.value)
            ):
                return Literal(f"{a.text}/{b.text}", value)
        return None

    def _from_steps(self, lit: Literal) -> int | None:
        """The most recent earlier step (not one of the formula's own) whose result ``lit`` states."""
        value = lit.value
        values = self.step_values
        last = self._own_steps_from - 1
        for i in range(last, -1, -1):
            r = values[i]
            if r == value or abs(r - value) <= 1e-9 * max(1.0, abs(r), abs(value)):
                return i
        if last < 0:
            return None
        text = lit.text
        if text.endswith("%"):  # "60%" is a result stated as 60 percent ("40% + 20% = 60%")
            for i in range(last, -1, -1):
                if self.steps[i].unit == "%" and close(values[i], value * 100):
                    return i
        places = _decimals(text) if "." in text else 0
        if places:  # "3.33" also stands for a result 3.3333 it rounds
            tolerance = 0.5 * 10 ** (-places) + 1e-9
            for i in range(last, -1, -1):
                if abs(values[i] - value) <= tolerance:
                    return i
        return None

    def _from_mentions(self, value: float, *, scaled: bool) -> int | None:
        key = _value_key(value)
        exact = self._by_scaled.get(key) if scaled else self._by_value.get(key)
        if not exact:
            return None
        for i in exact:
            if i not in self.used:
                return i
        return exact[0]

    def _complement(self, value: float) -> int | None:
        """An implicit step ``100% - p`` whose result is ``value`` (``80`` or ``.8`` for ``20%``), or
        ``100% + p`` for a text that speaks of an increase (``1.2`` or ``120`` for "a 20% raise")."""
        rising: bool | None = None
        for i, m in enumerate(self.mentions):
            scaled = self._scaled[i]
            is_percent = m.unit is not None and scaled is not None and close(scaled * 100, float(m.value))
            if not is_percent:
                continue
            p = float(m.value)
            if close(100 - p, value) or close(1 - p / 100, value):
                op, rest = "subtract", 100 - p
            elif close(100 + p, value) or close(1 + p / 100, value):
                if rising is None:
                    rising = _INCREASE.search(self.text) is not None
                if not rising:
                    continue
                op, rest = "add", 100 + p
            else:
                continue
            cue = find_cues(self.text, 100)
            whole = Operand(constant="percent", cue=(cue[0].start, cue[0].end) if cue else None)
            return self._push(Step(op, (whole, Operand(mention=i)), rest, None, None, True), rest)
        return None

    def _fraction_complement(self, value: float) -> int | None:
        """An implicit step ``1 - f`` for a fraction mention ``f`` (``2/3`` for "a third", the rest),
        where the text has words of a whole or a rest (the ``whole`` constant's cue)."""
        for i, m in enumerate(self.mentions):
            if m.kind == "fraction" and 0 < float(m.value) < 1 and close(1 - float(m.value), value):
                cue = find_cues(self.text, 1)
                whole = next((c for c in cue if c.constant_id == "whole"), None)
                if whole is None:
                    return None
                rest = 1 - float(m.value)
                operands = (Operand(constant="whole", cue=(whole.start, whole.end)), Operand(mention=i))
                return self._push(Step("subtract", operands, rest, None, None, True), rest)
        return None

    def _parts(self, value: float) -> int | None:
        """An implicit step ``k + 1`` for "k times as many" with a total to share (``180/3`` when
        Alice sold twice as many as Emily and they sold 180 in total): the parts of the whole."""
        if value < 2 or not value.is_integer() or not _SHARED.search(self.text):
            return None
        k = value - 1
        multiplier: Operand | None = None
        for i, m in enumerate(self.mentions):
            if m.kind == "multiplier" and close(float(m.value), k):
                multiplier = Operand(mention=i)
                break
        else:
            cue = next((c for c in find_cues(self.text, k) if c.constant_id in _MULTIPLIERS), None)
            if cue is not None:
                multiplier = Operand(constant=cue.constant_id, cue=(cue.start, cue.end))
        if multiplier is None:
            return None
        return self._push(Step("add", (multiplier, Operand(constant="one_part")), value, None, None, True), value)

    def _converted(self, value: float) -> int | None:
        """An implicit unit conversion of a mention by a cued conversion constant: ``2 weeks`` x 7
        (days_per_week) for 14 where the text or the formula's line says "day", ``25 cents`` / 100
        (cents_per_dollar) for 0.25 where it says "dollar" or "$"."""
        where = ""
        for conversions, fallback in ((_CONVERSIONS, False), (_CUED_CONVERSIONS, True)):
            for i, m in enumerate(self.mentions):
                if m.lemma is None or m.kind != "quantity":
                    continue
                head = m.lemma.partition("_per_")[0]
                a = float(m.value)
                for cid, factor, num, den in conversions:
                    if head == den and close(a * factor, value):
                        op, target = "multiply", num
                    elif head == num and close(a / factor, value):
                        op, target = "divide", den
                    else:
                        continue
                    if not where:
                        where = self.text + "\n" + self._solution_line()
                    said = _PLURALS.get(target) or rf"{re.escape(target)}(?:e?s)?"
                    if not re.search(rf"(?i)(?<![A-Za-z])(?:{said})(?![A-Za-z])", where):
                        continue
                    cues = find_cues(self.text, factor, fallback=fallback)
                    cue = next((c for c in cues if c.constant_id == cid), None)
                    if cue is None:
                        continue
                    operands = (Operand(mention=i), Operand(constant=cid, cue=(cue.start, cue.end)))
                    return self._push(Step(op, operands, value, None, None, True), value)
        return None

    def _reading(self, key: str, read: Callable[[], tuple[Any, ...]]) -> tuple[Any, ...]:
        """A reading of the text a fallback rule needs (``read()``), computed once per problem."""
        found = self._fallback_reads.get(key)
        if found is None:
            found = self._fallback_reads[key] = read()
        return found

    def _compound(self, value: float) -> Operand | None:
        """A measure a number word writes as a modifier (``a fifty-dollar bill`` for 50, ``6 thirty-minute
        programs`` for 30; :func:`~ssbg.reading.counting.compound_measures`).  Inside a text mention
        (``one fifty-dollar bill``) the mention is narrowed to the words before it (``one``), which keep
        their value and unit; ``half`` before ``an hour`` widens to ``half an hour``, converted to minutes
        by ``minutes_per_hour`` for 30."""
        for c in self._reading("compound", lambda: compound_measures(self.text, pack=self.pack)):
            minutes = c.unit == "hour" and close(float(c.value) * 60, value)  # "half an hour" for 30 minutes
            if not close(float(c.value), value) and not minutes:
                continue
            inside = next((i for i, m in enumerate(self.mentions) if m.start < c.end and c.start < m.end), None)
            index: int | None
            if inside is not None:
                m = self.mentions[inside]
                if m.start == c.start and m.end <= c.end and close(float(m.value), float(c.value)):
                    widened = dataclasses.replace(m, end=c.end, text=c.text, unit=c.unit, lemma=c.lemma, kind=c.kind)
                    self.mentions = (*self.mentions[:inside], widened, *self.mentions[inside + 1 :])
                    index = inside  # "half" read as "half an hour"
                else:
                    head = self.text[m.start : c.start].rstrip(" ,")
                    if not head or not m.start < c.start or c.end > m.end:
                        continue
                    if any(q.source == "text" and q.start < c.end and c.start < q.end for q in self._quoted):
                        continue
                    narrowed = Mention(m.start, m.start + len(head), head, m.value, m.unit, m.lemma, m.kind, m.source)
                    self.mentions = (*self.mentions[:inside], narrowed, *self.mentions[inside + 1 :])
                    index = self._extra(c)
            else:
                index = self._extra(c)
            if index is None:
                continue
            if not minutes or close(float(c.value), value):
                return Operand(mention=index)
            cue = next((k for k in find_cues(self.text, 60) if k.constant_id == "minutes_per_hour"), None)
            if cue is None:
                continue
            operands = (Operand(mention=index), Operand(constant="minutes_per_hour", cue=(cue.start, cue.end)))
            return Operand(step=self._push(Step("multiply", operands, value, None, None, True), value))
        return None

    def _hours_and_minutes(self, value: float) -> int | None:
        """Implicit steps for ``1 hour 30 minutes`` (or ``one hour and 20 minutes``) as 90 minutes
        (``1 x 60 + 30``) or 1.5 hours (``1 + 30 / 60``): adjacent hour and minute mentions."""
        for i in range(len(self.mentions) - 1):
            a, b = self.mentions[i], self.mentions[i + 1]
            if a.lemma not in ("hour", "hr") or (b.lemma or "").partition("_per_")[0] != "minute":
                continue
            if not re.fullmatch(r"\s*(?:and\s+)?", self.text[a.end : b.start]):
                continue
            h, mins = float(a.value), float(b.value)
            cue = next((k for k in find_cues(self.text, 60) if k.constant_id == "minutes_per_hour"), None)
            if cue is None:
                return None
            per_hour = Operand(constant="minutes_per_hour", cue=(cue.start, cue.end))
            if close(h * 60 + mins, value):
                first = self._push(Step("multiply", (Operand(mention=i), per_hour), h * 60, None, None, True), h * 60)
                return self._push(
                    Step("add", (Operand(step=first), Operand(mention=i + 1)), value, None, None, True), value
                )
            if close(h + mins / 60, value):
                part = mins / 60
                first = self._push(Step("divide", (Operand(mention=i + 1), per_hour), part, None, None, True), part)
                return self._push(
                    Step("add", (Operand(mention=i), Operand(step=first)), value, None, None, True), value
                )
        return None

    def _and_a_half(self, value: float) -> int | None:
        """An implicit sum for ``two and a half dozen`` (2.5): a number, ``and``, then a mention of a half
        (the number takes the half's unit when it has none)."""
        for i in range(len(self.mentions) - 1):
            a, b = self.mentions[i], self.mentions[i + 1]
            if (
                not close(float(b.value), 0.5)
                or not close(float(a.value) + 0.5, value)
                or not re.fullmatch(r"\s+and\s+", self.text[a.end : b.start])
                or not re.match(r"(?i)(?:a\s+)?half\b", b.text)
                or (a.unit is not None and a.unit != b.unit)
            ):
                continue
            if a.unit is None and b.unit is not None:
                a = dataclasses.replace(a, unit=b.unit, lemma=b.lemma)
                self.mentions = (*self.mentions[:i], a, *self.mentions[i + 1 :])
            operands = (Operand(mention=i), Operand(mention=i + 1))
            return self._push(Step("add", operands, value, None, None, True), value)
        return None

    def _times_per(self, value: float) -> int | None:
        """An implicit count of periods: ``every 6 months`` happens 12 / 6 = 2 times a year (a cued
        conversion constant over the mention), where the text or the formula's line names the longer unit."""
        where = ""
        for i, m in enumerate(self.mentions):
            a = float(m.value)
            if m.lemma is None or a <= 0 or not _EVERY.search(self.text, max(0, m.start - 8), m.start):
                continue
            for cid, factor, num, den in _CONVERSIONS:
                if m.lemma != num or not close(factor / a, value):
                    continue
                where = where or self.text + "\n" + self._solution_line()
                said = _PLURALS.get(den) or rf"{re.escape(den)}(?:e?s)?"
                if not re.search(rf"(?i)(?<![A-Za-z])(?:{said})(?![A-Za-z])", where):
                    continue
                cue = next((c for c in find_cues(self.text, factor) if c.constant_id == cid), None)
                if cue is None:
                    continue
                operands = (Operand(constant=cid, cue=(cue.start, cue.end)), Operand(mention=i))
                return self._push(Step("divide", operands, value, None, None, True), value)
        return None

    def _self_cue(self, *, companions: bool) -> tuple[int, int] | None:
        """The span of the words that cue ``self``: its own cue words, or (``companions``) a group named
        with a possessive (``her 2 siblings``)."""
        cue = next((c for c in find_cues(self.text, 1, fallback=True) if c.constant_id == "self"), None)
        if cue is not None:
            return cue.start, cue.end
        hit = SELF_COMPANION_CUE.search(self.text) if companions else None
        return None if hit is None else (hit.start(), hit.end())

    def _with_self(self, value: float) -> int | None:
        """An implicit sum ``n + 1`` of a mention of ``n`` companions and the person they go with, where
        the text says so (``him and his 4 friends`` are 5, the ``self`` constant's cue)."""
        if value < 2 or not value.is_integer():
            return None
        for i, m in enumerate(self.mentions):
            if m.lemma not in _COMPANION_LEMMAS or not close(float(m.value), value - 1):
                continue
            cue = self._self_cue(companions=True)
            if cue is None:
                return None
            operands = (Operand(mention=i), Operand(constant="self", cue=cue))
            return self._push(Step("add", operands, value, None, None, True), value)
        return None

    def _fallback_constant(self, value: float, op: str | None) -> Operand | None:
        """A fallback constant the text cues (``every other``, ``parents``, ...), or ``self`` for a 1 in
        a sum of persons whose owner a possessive group leaves out ("Kath takes her 2 siblings")."""
        late = find_cues(self.text, value, fallback=True)
        if late:
            return Operand(constant=late[0].constant_id, cue=(late[0].start, late[0].end))
        if value == 1 and op == "add":
            span = self._self_cue(companions=True)
            if span is not None:
                return Operand(constant="self", cue=span)
        return None

    def _named_total(self, value: float, op: str | None) -> Operand | None:
        """An implicit sum ``1 + 1 + 1`` of the persons (or weekdays) the text names, each once, as a
        divisor where the text speaks of an average or an equal share (``Mark, Peter and John share
        equally`` divides by 3; ``12 miles on Monday, 18 on Tuesday, 21 on Wednesday`` averages over 3)."""
        if value < 2 or not value.is_integer() or not _AVERAGE.search(self.text):
            return None
        taken = [(m.start, m.end) for m in self.mentions]
        # "knives, forks, and spoons": a count as one mention
        for listed in self._reading("listed", lambda: listed_items(self.text)):
            if close(float(listed.value), value) and not any(a < listed.end and listed.start < b for a, b in taken):
                index = self._extra(listed)
                if index is not None:
                    return Operand(mention=index)
        if op != "divide":
            return None
        for group in self._reading("named", lambda: named_items(self.text)):
            items = [c for c in group if not any(a < c.end and c.start < b for a, b in taken)]
            if len(items) != value or len(items) != len(group):
                continue
            if any(
                q.source == "text" and q.start < c.end and c.start < q.end and (q.start, q.end) != (c.start, c.end)
                for q in self._quoted
                for c in items
            ):
                continue  # an item overlaps another extra mention: adding some and not others would leave them
            operands = tuple(Operand(mention=i) for c in items if (i := self._extra(c)) is not None)
            return Operand(step=self._push(Step("add", operands, value, None, None, True), value))
        return None

    def _extra(self, mention: Mention) -> int | None:
        """The operand index of an extra mention (a solution quote or a counted text mention), added on
        first use; None when it overlaps another extra text mention."""
        for k, other in enumerate(self._quoted):
            if other.source == mention.source and other.start == mention.start and other.end == mention.end:
                return len(self.mentions) + k
            if other.source == mention.source == "text" and other.start < mention.end and mention.start < other.end:
                return None
        self._quoted.append(mention)
        return len(self.mentions) + len(self._quoted) - 1

    def _from_counts(self, value: float) -> int | None:
        """A quantity the text states by a list or an article (:func:`~ssbg.reading.counting.counted_mentions`):
        ``Monday, Wednesday and Friday`` for 3, ``Travis and his brother`` for 2.  A ``1`` read from
        ``a``/``an`` counts only when the solution's line of the formula names its noun ("His ferret will
        need 1 * 4" for "a ferret")."""
        if self._counted_clear_of is None:  # the text mentions as they are at the first need
            self._counted_clear_of = tuple((m.start, m.end) for m in self.mentions)
        taken = self._counted_clear_of
        # the article readings give only 1 and 0: for another value they are left unread
        articles = close(value, 1) or close(value, 0)
        counted = self._reading(
            "counted" if articles else "counted_without_articles",
            lambda: tuple(
                c
                for c in counted_mentions(self.text, pack=self.pack, articles=articles)
                if not any(a < c.end and c.start < b for a, b in taken)
            ),
        )
        line: str | None = None
        for c in counted:
            if not close(float(c.value), value):
                continue
            if value in (0, 1):
                if line is None:
                    line = self._solution_line()
                noun = (c.lemma or "").rpartition("_")[2]
                if not noun or not re.search(rf"(?i)(?<![A-Za-z]){re.escape(noun)}", line):
                    continue
            index = self._extra(c)
            if index is not None:
                return index
        return None

    @property
    def blanked_solution(self) -> str:
        """The solution with its annotations blanked (:func:`blank_annotations`, computed once); ``""`` without one."""
        if self._blanked is None:
            self._blanked = "" if self.solution is None else blank_annotations(self.solution)
        return self._blanked

    def _solution_line(self) -> str:
        """The line of the solution holding the formula being added (annotations blanked), or ``""``."""
        if self.solution is None or self._position is None:
            return ""
        blanked = self.blanked_solution
        start = blanked.rfind("\n", 0, self._position) + 1
        end = blanked.find("\n", self._position)
        return blanked[start : end if end >= 0 else len(blanked)]

    def _cued_by_solution(self, value: float) -> str | None:
        """A constant whose cue words the solution's prose writes (``He does this twice a day``).

        The cue is not in the problem text, so the operand has no cue span.
        """
        if self.solution is None:
            return None
        cues = find_cues(self.blanked_solution, value)
        return cues[0].constant_id if cues else None

    def _fraction_part(self, value: float) -> int | None:
        """A fraction (or percentage) mention whose numerator or denominator is ``value``
        (the 3 of ``one-third``, the 5 of ``20%``: 1/5), or a part of a mixed number (``4 1/2``)."""
        if value <= 0:
            return None
        for i, m in enumerate(self.mentions):
            scaled = self._scaled[i]
            if (m.kind == "fraction" and m.unit is None) or _MIXED.match(m.text):
                fraction = float(m.value)
                if _MIXED.match(m.text) and (value == int(fraction) or close(value, fraction - int(fraction))):
                    return i  # "4 1/2 pound steaks" read as 4 steaks of 1/2 pound
            elif scaled is not None and m.unit is not None and close(scaled * 100, float(m.value)) and scaled < 1:
                fraction = scaled  # "20% off" divides by 5: 20% is 1/5
            else:
                continue
            parts = _fraction_parts(fraction)
            if parts is not None and value.is_integer() and value in parts:
                return i
        return None

    def _from_solution(self, value: float) -> int | None:
        """A number the solution's prose states (outside annotations), nearest before the formula."""
        if self.solution is None:
            return None
        blanked = self.blanked_solution
        if self._prose is None:
            self._prose = tuple(
                (m.start("cur") if m.group("cur") else m.start("num"), parse_number(m.group("num")))
                for m in _PROSE_NUMBER.finditer(blanked)
                if not _in_arithmetic(blanked, m.start(), m.end())
            )
        hits = [start for start, v in self._prose if close(v, value)]
        if not hits:
            if self._prose_words is None:  # "two, 21 and 42": numbers the prose writes in words (read on need)
                self._prose_words = tuple(
                    (m.start, float(m.value))
                    for m in worded_mentions(blanked, pack=self.pack)
                    if not _in_arithmetic(blanked, m.start, m.end)
                )
            hits = [start for start, v in self._prose_words if close(v, value)]
        if not hits:
            return None
        where = self._position if self._position is not None else len(self.solution)
        before = [start for start in hits if start < where]
        chosen = before[-1] if before else hits[0]
        for k, quoted in enumerate(self._quoted):
            if quoted.start == chosen and quoted.source == "solution":
                return len(self.mentions) + k
        mention = mention_at(blanked, chosen, pack=self.pack, source="solution")
        if mention is None or not close(float(mention.value), value):
            return None
        return self._extra(mention)

    def ground(self, lit: Literal, op: str | None = None) -> Operand:
        """Ground one literal (see the module docstring for the order).

        ``op`` is the operation the literal is an operand of: among cued constants
        of equal value, a multiply prefers a multiplier (``twice``), a divide a
        divisor (``half``).
        """
        by_position = self._aligned_by_position
        if by_position is not None:
            if not 0 <= lit.position < len(by_position):
                raise self.refusal("operand_not_found", f"no gold alignment for {lit.text}", lit.text)
            gold = by_position[lit.position]
            if gold is not None:
                self.used.add(gold)
                return Operand(mention=gold, text=lit.text)
        step = self._from_steps(lit)
        if step is not None:
            return Operand(step=step, text=lit.text)
        mention = self._from_mentions(lit.value, scaled=False)
        if mention is not None:
            self.used.add(mention)
            return Operand(mention=mention, text=lit.text)
        cues = find_cues(self.text, lit.value)
        if cues:
            preferred = _MULTIPLIERS if op == "multiply" else _DIVISORS if op == "divide" else frozenset()
            cue = next((c for c in cues if c.constant_id in preferred), cues[0])
            return Operand(constant=cue.constant_id, cue=(cue.start, cue.end), text=lit.text)
        mention = self._from_mentions(lit.value, scaled=True)
        if mention is not None:
            self.used.add(mention)
            return Operand(mention=mention, text=lit.text)
        return self._ground_late(lit, op)

    def _ground_late(self, lit: Literal, op: str | None) -> Operand:
        """Ground a literal by the rules after the cheap ones (kept apart from :meth:`ground`, whose
        common paths then create none of these closures)."""
        value = lit.value
        # The rules after the cheap ones, in the order of the module docstring: each gives the
        # operand's constant id, step or mention index (named by its kind), an operand, or None.
        late: tuple[tuple[str, Callable[[], Any]], ...] = (
            ("constant", lambda: self._cued_by_solution(value)),
            ("step", lambda: self._complement(value)),
            ("mention", lambda: self._fraction_part(value)),
            ("mention", lambda: self._from_solution(value)),
            ("mention", lambda: self._from_counts(value)),
            ("step", lambda: self._fraction_complement(value)),
            ("step", lambda: self._converted(value)),
            ("step", lambda: self._parts(value)),
            ("operand", lambda: self._fallback_constant(value, op)),
            ("operand", lambda: self._named_total(value, op)),
            ("step", lambda: self._with_self(value)),
            ("step", lambda: self._and_a_half(value)),
            ("step", lambda: self._times_per(value)),
            ("operand", lambda: self._compound(value)),
            ("step", lambda: self._hours_and_minutes(value)),
        )
        for kind, rule in late:
            found = rule()
            if found is None:
                continue
            if kind == "operand":
                operand: Operand = found
                return dataclasses.replace(operand, text=lit.text)
            return Operand(text=lit.text, **{kind: found})  # constant=, step= or mention=
        raise self.refusal(
            "operand_not_found",
            f"{lit.text} is neither in the text, an earlier step, a cued constant nor the solution",
            detail=lit.text,
        )

    # ------------------------------------------------------------ steps

    def _push(self, step: Step, value: float) -> int:
        self.steps.append(step)
        self.step_values.append(value)
        return len(self.steps) - 1

    def _emit(self, node: BinOp, formula: str, top: bool, result: float | None, unit: str | None) -> tuple[int, float]:
        """Append the step of ``node`` (after the implicit steps of its sub-expressions): its index and value.

        A chain of one additive operator is one step (``a - b - c``); every other operator is a step of
        its own.  The value is computed from the operands' values as they are emitted, in the order
        :attr:`BinOp.value` computes it, so each sub-tree is evaluated once.
        """
        op = node.op
        items: list[Node]
        if op in ("add", "subtract"):
            items = []
            cur: Node = node
            while isinstance(cur, BinOp) and cur.op == op:
                items.append(cur.right)
                cur = cur.left
            items.append(cur)
            items.reverse()
        else:
            items = [node.left, node.right]
        operands: list[Operand] = []
        values: list[float] = []
        for item in items:
            if isinstance(item, Literal):
                operands.append(self.ground(item, op))
                values.append(item.value)
            elif isinstance(item, BinOp):
                index, value = self._emit(item, formula, False, None, None)
                operands.append(Operand(step=index))
                values.append(value)
            elif isinstance(item, Unity):  # the lone unknown's coefficient in an equation solved by collecting terms
                operands.append(Operand(constant="unknown_itself", text=item.name))
                values.append(1.0)
            else:
                raise self.refusal("unsupported_operation", f"the unknown {item.name} is not isolated", formula)
        apply = _APPLY[op]
        value = values[0]
        try:
            for right in values[1:]:
                value = apply(value, right)
        except ZeroDivisionError:
            raise self.refusal("unparseable_formula", f"division by zero in {formula!r}", detail=formula) from None
        stated = result if top and result is not None else value
        return self._push(Step(op, tuple(operands), stated, unit if top else None, formula, not top), stated), value

    def add_formula(
        self,
        formula: str,
        *,
        unit: str | None = None,
        position: int | None = None,
        optional: bool = False,
    ) -> bool:
        """Parse ``formula`` (``expr`` or ``expr=result``) and append its steps.

        ``position`` is the formula's offset in the solution (to pick the nearest
        number the prose states).  An ``optional`` formula (one read from un-annotated prose) that cannot be
        grounded adds nothing and returns False instead of refusing.  A formula
        that is a single number adds no step.

        Raises
        ------
        ImportRefusal
            ``unparseable_formula`` / ``operand_not_found`` (unless ``optional``).
        """
        expr, eq, stated = formula.rpartition("=")
        if not eq:
            expr, stated = formula, ""
        result: float | None = None
        written = stated.strip()
        fraction = _FRACTION_RESULT.fullmatch(written) if "/" in written else None
        if fraction is not None:  # "= 2/3": a result the prose writes as a fraction, later written so again
            result = int(fraction.group(1)) / int(fraction.group(2))
            self._fraction_results.add(fraction.group())
        elif written:
            try:
                result = parse_number(written.rstrip("%"))
            except ValueError:
                if optional:
                    return False
                raise self.refusal("unparseable_formula", f"result {stated!r} is not a number", formula) from None
        saved = self._saved() if optional else None
        self._position = position
        try:
            tree = parse_formula(expr, merge=self.merge)
            self.add_tree(tree, formula=formula.strip(), result=result, unit=unit)
        except ImportRefusal:
            if saved is None:
                raise
            self._restore(saved)
            return False
        finally:
            self._position = None
        return True

    def _saved(self) -> tuple[int, set[int], int]:
        return len(self.steps), set(self.used), len(self._quoted)

    def _restore(self, saved: tuple[int, set[int], int]) -> None:
        """Undo the steps and extra mentions added since :meth:`_saved` (a formula that did not ground)."""
        del self.steps[saved[0] :], self.step_values[saved[0] :], self._quoted[saved[2] :]
        self.used = saved[1]

    def add_solved(self, equation: str, *, position: int | None = None) -> tuple[str, float] | None:
        """Append the steps that solve an equation over one unknown the solution's prose writes
        (``x + x + 4 = 120`` gives ``(120 - 4) / (1 + 1)``, see :func:`isolate`), when every number
        in it grounds: (the unknown's name, its value).  An equation that does not ground, has no
        unknown or two, or only restates a value (``x = 25``) adds nothing and gives None.

        >>> from ssbg.reading.mentions import extract_mentions
        >>> text = "There were 120 guests, 4 more men than women. How many women?"
        >>> b = TraceBuilder("a1", "example", text, extract_mentions(text))
        >>> b.add_solved("x + x + 4 = 120"), b.add_solved("x = 58")
        (('x', 58.0), None)
        >>> [(s.op, [o.source for o in s.operands]) for s in b.build().steps]
        [('subtract', ['mention', 'mention']), ('add', ['constant', 'constant']), ('divide', ['step', 'step'])]
        """
        saved = self._saved()
        self._position = position
        try:
            tree, name = isolate(*parse_equation(equation, merge=self.merge), equation)
            if name is None or not isinstance(tree, BinOp):
                return None
            value = tree.value
            self.add_tree(tree, formula=equation.strip())
        except (ImportRefusal, ZeroDivisionError):
            self._restore(saved)
            return None
        finally:
            self._position = None
        return name, value

    def add_equation(
        self, equation: str, *, result: float | None = None, aligned: Sequence[int | None] | None = None
    ) -> str | None:
        """Append the steps of an equation over at most one unknown, solved by inverting operations.

        ``X=(27.0*16.0)``, ``41 + X = 87`` and ``25000.0-(1500.0*8.0)=money`` all
        give arithmetic steps; an unknown that occurs twice is algebra and refuses
        (``unsupported_operation``).  ``aligned`` maps each number of the
        equation, by its order in the text, to a mention (gold alignments).
        Returns the unknown's name, or None when the equation has none.
        """
        try:
            left, right = parse_equation(equation, merge=None if aligned is not None else self.merge)
            tree, name = isolate(left, right, equation)
            self._aligned_by_position = aligned
            self.add_tree(tree, formula=equation.strip(), result=result)
        except ImportRefusal as exc:
            if exc.problem_id is None:
                raise self.refusal(exc.reason, exc.message, exc.detail) from None
            raise
        finally:
            self._aligned_by_position = None
        return name

    def add_tree(self, node: Node, *, formula: str, result: float | None = None, unit: str | None = None) -> None:
        """Append the steps of a parsed formula (its root step states ``result`` and ``unit``).

        A number of the formula never grounds as one of the formula's own sub-steps: in
        ``10*2 + 20`` the ``20`` is a number written, not the ``10*2`` beside it.  After
        :data:`MAX_FORMULAS` formulas a record refuses as ``record_too_large`` (grounding looks
        back over earlier steps and the prose, so a corrupt record of thousands would take
        quadratic time; optional prose formulas past the bound are skipped).
        """
        self._formulas += 1
        if self._formulas > MAX_FORMULAS:
            raise self.refusal("record_too_large", f"more than {MAX_FORMULAS} formulas", formula)
        self._own_steps_from = len(self.steps)
        try:
            if isinstance(node, BinOp):  # a formula that is one number adds no step
                self._emit(node, formula, True, result, unit)
            elif isinstance(node, Var):
                raise self.refusal("unsupported_operation", f"the unknown {node.name} is not isolated", formula)
        except ImportRefusal as exc:
            if exc.problem_id is None:
                raise self.refusal(exc.reason, exc.message, exc.detail) from None
            raise
        finally:
            self._own_steps_from = len(self.steps)

    def build(self) -> Trace:
        """The trace; ``no_equation`` when no formula produced a step."""
        if not self.steps:
            raise self.refusal("no_equation", "no arithmetic step in the solution")
        answer_unit = self.answer_unit
        steps = tuple(self.steps)
        mentions = self.mentions
        quotes_solution = any(m.source == "solution" for m in self._quoted)
        if self._quoted:  # extra mentions join the text's (by offset) or follow them (the solution's)
            base = len(self.mentions)
            extra = [(m.source != "text", m.start, base + k) for k, m in enumerate(self._quoted)]
            order = sorted([(False, m.start, i) for i, m in enumerate(self.mentions)] + extra)
            rank = {old: new for new, (_, _, old) in enumerate(order)}
            every = (*self.mentions, *self._quoted)
            mentions = tuple(every[old] for _, _, old in order)
            steps = tuple(
                dataclasses.replace(
                    step,
                    operands=tuple(
                        dataclasses.replace(o, mention=rank[o.mention]) if o.mention is not None else o
                        for o in step.operands
                    ),
                )
                for step in steps
            )
        try:
            return Trace(
                self.problem_id,
                self.corpus,
                self.text,
                mentions,
                steps,
                question_span=self.question_span,
                answer_unit=answer_unit,
                gold_answer_unit=self.gold_answer_unit,
                answer=self.answer,
                solution=self.solution if quotes_solution else None,
            )
        except ProblemGraphError as exc:
            raise self.refusal("malformed_record", exc.message, exc.path) from None
