"""Input type 2: a text-grounded solution trace, and its adapter (SPEC section 7).

Real corpora are problem text plus annotated arithmetic.  A :class:`Trace` holds
the text, the quantity **mentions** found in it (value, unit as written, its
lemma, character offsets), and the arithmetic **steps** of a solution, whose
operands each point at a mention, an earlier step, or an implicit constant of
:data:`~ssbg.constants.IMPLICIT_CONSTANTS`.  A step may state its result's unit
(``>>24 clips``); the question may state the answer's unit; the corpus may give
a gold answer unit.

:func:`bind_trace` binds a trace into a
:class:`~ssbg.model.SemanticSymbolicBindingGraph`: one symbol and fact per
mention (with its real span into the text) and per constant used, one equation
per step checked by :class:`~ssbg.admissibility.EquationStamper` (so a refusal
propagates downstream), and the question target bound to the last step.  The
operation kind of a step is decided at bind time from its operand units:
``apply_rate`` when one operand is a rate over the other's unit, the step's
own op otherwise.  A pure number (``twice``, ``half``, ``3/4``) binds as a
dimensionless ``ratio`` symbol with no unit.

The JSON codec mirrors :class:`~ssbg.problem.MathProblemGraph`'s; malformed
input refuses with :class:`~ssbg.errors.ProblemGraphError` naming its JSON path.

Examples
--------
>>> text = "Weng earns $12 an hour. She worked 50 minutes. How much did she earn?"
>>> t = Trace.from_dict({
...     "problem_id": "w1", "corpus": "example", "text": text, "question_span": [47, 69],
...     "mentions": [
...         {"start": 11, "end": 22, "text": "$12 an hour", "value": 12, "unit": "$ per hour"},
...         {"start": 35, "end": 45, "text": "50 minutes", "value": 50, "unit": "minutes"}],
...     "steps": [
...         {"op": "divide", "operands": [{"mention": 0}, {"constant": "minutes_per_hour"}], "result": 0.2},
...         {"op": "multiply", "operands": [{"step": 0}, {"mention": 1}], "result": 10, "unit": "$"}]})
>>> bg = bind_trace(t)
>>> [(e.operation_kind, e.admissibility_status, e.unit_proof) for e in bg.equations]
[('divide', 'admitted', 'divide: [money/time,dimensionless] -> money/time'), \
('apply_rate', 'admitted', 'apply_rate: [money/time,time] -> money')]
>>> bg.symbols[0].source_span.text
'$12 an hour'
>>> Trace.from_json(t.to_json()) == t
True
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from ssbg.admissibility import _BindingStamper
from ssbg.allocation import slugify
from ssbg.constants import IMPLICIT_CONSTANTS, ImplicitConstant
from ssbg.errors import NumberError, PackError, ProblemGraphError, shown
from ssbg.model import (
    STATE_INDEX_TERMINAL,
    BoundEquation,
    BoundFact,
    BoundUnknown,
    SemanticSymbolicBindingGraph,
    SourceSpanLink,
    SymbolBinding,
    _prebuilt_fact,
    _prebuilt_graph,
    _prebuilt_replace,
    _prebuilt_span,
    _prebuilt_symbol,
    _prebuilt_unknown,
)
from ssbg.numbers import MAX_MAGNITUDE, check_json_number
from ssbg.problem import JsonDecoder
from ssbg.question import question_form_for, reconcile_resolved
from ssbg.units import DIMENSIONLESS, ResolvedUnit, UnitPack, UnitVector, default_pack

__all__ = [
    "MENTION_KINDS",
    "MENTION_SOURCES",
    "OPERAND_SOURCES",
    "STEP_OPS",
    "BoundTrace",
    "Mention",
    "Operand",
    "ReadingMass",
    "SourceReading",
    "Step",
    "Trace",
    "UnitReadingChoice",
    "answer_mass",
    "bind_trace",
    "clear_trace_cache",
    "reading_mass",
    "step_units",
]

STEP_OPS: frozenset[str] = frozenset({"add", "subtract", "multiply", "divide"})
"""The arithmetic a trace step performs (the bound kind may refine it)."""

MENTION_KINDS: frozenset[str] = frozenset({"quantity", "multiplier", "fraction"})
"""``quantity``: a number with or without a unit; ``multiplier`` (``3 times``) and
``fraction`` (``3/4``, ``one-third``): pure numbers, bound as dimensionless ratios."""

MENTION_SOURCES: tuple[str, ...] = ("text", "solution")
"""Where a mention is written: the problem ``text`` or the corpus ``solution`` prose
(a number the worked solution states, such as "everyone has 2 legs")."""

OPERAND_SOURCES: tuple[str, ...] = ("mention", "step", "constant")
"""What a step operand points at (exactly one of them)."""

INTRODUCED_BY = "ssbg.trace.bind_trace"

Number = int | float


def _fail(reason: str, message: str, path: str) -> ProblemGraphError:
    return ProblemGraphError(message, reason=reason, path=path)


def _check_number(value: object, path: str) -> None:
    """A number within :mod:`ssbg.numbers`' bounds (an int or a float, never a bool)."""
    try:
        check_json_number(value, field=path)
    except NumberError as exc:
        reason = "wrong_type" if exc.reason == "not_a_number" else "invalid_value"
        what = "a number" if reason == "wrong_type" else f"a finite number of at most {MAX_MAGNITUDE:g} in magnitude"
        raise _fail(reason, f"'{path}' must be {what} (got {exc.detail})", path) from None


_SURROGATE = re.compile("[\ud800-\udfff]")


def _unicode(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8 (no lone surrogate): checked when text is imported."""
    return text.isascii() or _SURROGATE.search(text) is None


def _check_text(value: object, path: str, *, optional: bool = False) -> None:
    if value is None and optional:
        return
    if type(value) is str and value and not value.isspace() and _unicode(value):
        return
    if not isinstance(value, str):
        raise _fail("wrong_type", f"'{path}' must be a str (got {type(value).__name__})", path)
    if not value.strip():
        raise _fail("invalid_value", f"'{path}' must not be empty", path)
    if not _unicode(value):
        raise _fail("invalid_value", f"'{path}' holds a lone surrogate, not Unicode text", path)


def _in_range(value: float) -> bool:
    return -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE  # False for NaN


def _check_index(value: object, path: str) -> int:
    if type(value) is int and value >= 0:  # the common case, first
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail("wrong_type", f"'{path}' must be an int (got {type(value).__name__})", path)
    if value < 0:
        raise _fail("invalid_value", f"'{path}' must be >= 0 (got {shown(value)})", path)
    return value


class UnitReadingChoice(NamedTuple):
    """One of a mention's n-best unit readings (the learned reader's, ADR 0027): the unit as a reader writes it
    (None: a bare number) and how probable the reader finds it."""

    unit: str | None
    probability: float


class SourceReading(NamedTuple):
    """One of an operand's n-best sources (the learned grounding scorer's, ADR 0027): what the literal stands for
    (an :class:`Operand` with no alternative and no readings of its own) and how probable the scorer finds it."""

    operand: Operand
    probability: float


def _check_probability(value: object, path: str) -> None:
    if not (type(value) is float or type(value) is int) or not 0.0 <= value <= 1.0:
        raise _fail("invalid_value", f"'{path}' must be a probability in [0, 1] (got {shown(value)})", path)


@dataclass(frozen=True, slots=True)
class Mention:
    """A quantity written in the problem text (or the solution): ``text[start:end]``.

    ``unit`` is the unit as written (``"clips"``, ``"$"``, ``"$ per hour"``), ``lemma``
    its singular lemma (``"clip"``, ``"dollar"``, ``"dollar_per_hour"``); both
    ``None`` for a bare number.  ``kind`` is one of :data:`MENTION_KINDS`;
    ``source`` one of :data:`MENTION_SOURCES` (offsets index that string).
    ``alt_unit`` is a second reading of the unit that the words support as well
    (``$12.00`` for a combo: dollars, or dollars per combo); binding reports a
    refusal that only the first reading makes as ``ambiguous_grounding`` (ADR 0018).
    ``readings`` are the reader's n-best unit readings with their probabilities, best
    first (:class:`UnitReadingChoice`; empty unless a caller asked for them:
    :func:`ssbg.reading.learned.model.keeping_readings`, ADR 0027); they never change
    what binding chooses, only what :func:`reading_mass` weighs.
    """

    start: int
    end: int
    text: str
    value: Number
    unit: str | None = None
    lemma: str | None = None
    kind: str = "quantity"
    source: str = "text"
    alt_unit: str | None = None
    readings: tuple[UnitReadingChoice, ...] = ()

    def __post_init__(self) -> None:
        start, end, value, unit, lemma = self.start, self.end, self.value, self.unit, self.lemma
        if (  # the common, valid mention checked in one expression; the checks below name what is wrong
            type(start) is int
            and type(end) is int
            and 0 <= start < end
            and type(self.text) is str
            and len(self.text) == end - start
            and _unicode(self.text)
            and (type(value) is int or type(value) is float)
            and -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE
            and (unit is None or (type(unit) is str and unit and not unit.isspace() and _unicode(unit)))
            and (lemma is None or (type(lemma) is str and lemma and not lemma.isspace() and _unicode(lemma)))
            and type(self.kind) is str
            and self.kind in MENTION_KINDS
            and type(self.source) is str
            and self.source in MENTION_SOURCES
            and self.alt_unit is None
            and not self.readings
        ):
            return
        _check_index(self.start, "start")
        _check_index(self.end, "end")
        if self.end <= self.start:
            raise _fail(
                "invalid_value",
                f"mention span must satisfy start < end (got [{shown(self.start)}, {shown(self.end)}))",
                "end",
            )
        if not isinstance(self.text, str) or len(self.text) != self.end - self.start:
            raise _fail("invalid_value", "'text' must be the covered text (length end - start)", "text")
        _check_text(self.text, "text")
        _check_number(self.value, "value")
        _check_text(self.unit, "unit", optional=True)
        _check_text(self.lemma, "lemma", optional=True)
        if type(self.kind) is not str or self.kind not in MENTION_KINDS:
            raise _fail("invalid_value", f"'kind' must be one of {sorted(MENTION_KINDS)} (got {shown(self.kind)})",
                        "kind")
        if type(self.source) is not str or self.source not in MENTION_SOURCES:
            raise _fail(
                "invalid_value", f"'source' must be one of {list(MENTION_SOURCES)} (got {shown(self.source)})", "source"
            )
        _check_text(self.alt_unit, "alt_unit", optional=True)
        if self.alt_unit is not None and self.alt_unit == self.unit:
            raise _fail("invalid_value", "'alt_unit' must differ from 'unit'", "alt_unit")
        if not isinstance(self.readings, tuple):
            raise _fail("wrong_type", "'readings' must be a tuple", "readings")
        for k, r in enumerate(self.readings):
            if not isinstance(r, UnitReadingChoice):
                raise _fail("wrong_type", "must be a UnitReadingChoice", f"readings[{k}]")
            _check_text(r.unit, f"readings[{k}].unit", optional=True)
            _check_probability(r.probability, f"readings[{k}].probability")

    @property
    def is_pure(self) -> bool:
        """True for a multiplier or fraction with no unit: a dimensionless ratio."""
        return self.unit is None and self.kind != "quantity"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"start": self.start, "end": self.end, "text": self.text, "value": self.value}
        if self.unit is not None:
            out["unit"] = self.unit
        if self.lemma is not None:
            out["lemma"] = self.lemma
        if self.kind != "quantity":
            out["kind"] = self.kind
        if self.source != "text":
            out["source"] = self.source
        if self.alt_unit is not None:
            out["alt_unit"] = self.alt_unit
        if self.readings:
            out["readings"] = [[r.unit, r.probability] for r in self.readings]
        return out


@dataclass(frozen=True, slots=True)
class Operand:
    """A step operand: exactly one of ``mention`` (index), ``step`` (an earlier step's
    index) or ``constant`` (an id of :data:`~ssbg.constants.IMPLICIT_CONSTANTS`).

    ``cue`` is the ``(start, end)`` of the words that imply a constant, when the
    text has them; ``text`` is the literal as the corpus formula wrote it and
    ``at`` its offset in the solution (or equation) it was read from.  ``why``
    says what evidence chose this reading; ``alternative`` is another reading the
    evidence supports as well (a tie, ADR 0018): it has no alternative of its own.
    ``readings`` are the scorer's n-best sources of the literal with their probabilities,
    best first, the chosen one among them (:class:`SourceReading`; empty unless a caller
    asked for them, ADR 0027).
    """

    mention: int | None = None
    step: int | None = None
    constant: str | None = None
    cue: tuple[int, int] | None = None
    text: str | None = None
    at: int | None = None
    why: str | None = None
    alternative: Operand | None = None
    readings: tuple[SourceReading, ...] = ()

    def __post_init__(self) -> None:
        mention, step, text = self.mention, self.step, self.text
        if (
            self.constant is None
            and self.cue is None
            and (
                (type(mention) is int and mention >= 0 and step is None)
                or (type(step) is int and step >= 0 and mention is None)
            )
            and (text is None or (type(text) is str and text and not text.isspace()))
            and (self.at is None or (type(self.at) is int and self.at >= 0))
            and (self.why is None or (type(self.why) is str and self.why and not self.why.isspace()))
            and self.alternative is None
            and not self.readings
        ):
            return  # the common case (an index and a literal), checked in one pass; the rest below
        chosen = (self.mention is not None) + (self.step is not None) + (self.constant is not None)
        if chosen != 1:
            raise _fail("invalid_value", f"an operand points at exactly one of {list(OPERAND_SOURCES)}", "operand")
        if self.mention is not None:
            _check_index(self.mention, "mention")
        elif self.step is not None:
            _check_index(self.step, "step")
        elif type(self.constant) is not str or self.constant not in IMPLICIT_CONSTANTS:
            raise _fail("invalid_value", f"'constant' {shown(self.constant)} is not an implicit constant", "constant")
        if self.cue is not None:
            if self.constant is None:
                raise _fail("unexpected_field", "only a constant operand has a 'cue'", "cue")
            if not (isinstance(self.cue, tuple) and len(self.cue) == 2):
                raise _fail("wrong_type", "'cue' must be a (start, end) pair", "cue")
            start, end = _check_index(self.cue[0], "cue[0]"), _check_index(self.cue[1], "cue[1]")
            if end <= start:
                raise _fail("invalid_value", "'cue' must satisfy start < end", "cue")
        if self.text is not None:
            _check_text(self.text, "text")
        if self.at is not None:
            _check_index(self.at, "at")
        _check_text(self.why, "why", optional=True)
        alt = self.alternative
        if alt is not None:
            if not isinstance(alt, Operand):
                raise _fail("wrong_type", "'alternative' must be an Operand", "alternative")
            if alt.alternative is not None:
                raise _fail("invalid_value", "an alternative has no alternative of its own", "alternative")
            if (alt.mention, alt.step, alt.constant) == (self.mention, self.step, self.constant):
                raise _fail("invalid_value", "an alternative points elsewhere than its operand", "alternative")
        if not isinstance(self.readings, tuple):
            raise _fail("wrong_type", "'readings' must be a tuple", "readings")
        for k, r in enumerate(self.readings):
            if not isinstance(r, SourceReading) or not isinstance(r.operand, Operand):
                raise _fail("wrong_type", "must be a SourceReading of an Operand", f"readings[{k}]")
            if r.operand.alternative is not None or r.operand.readings:
                raise _fail("invalid_value", "a reading has no alternative or readings of its own", f"readings[{k}]")
            _check_probability(r.probability, f"readings[{k}].probability")

    @property
    def source(self) -> str:
        """Which of :data:`OPERAND_SOURCES` this operand points at."""
        return "mention" if self.mention is not None else "step" if self.step is not None else "constant"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.mention is not None:
            out["mention"] = self.mention
        elif self.step is not None:
            out["step"] = self.step
        else:
            out["constant"] = self.constant
            if self.cue is not None:
                out["cue"] = list(self.cue)
        if self.text is not None:
            out["text"] = self.text
        if self.at is not None:
            out["at"] = self.at
        if self.why is not None:
            out["why"] = self.why
        if self.alternative is not None:
            out["alternative"] = self.alternative.to_dict()
        if self.readings:
            out["readings"] = [{"operand": r.operand.to_dict(), "probability": r.probability} for r in self.readings]
        return out


@dataclass(frozen=True, slots=True)
class Step:
    """One arithmetic step: ``op`` over ``operands``.

    ``result`` is the value the corpus states, ``unit`` the result unit the text
    states (as written), ``formula`` the corpus text the step came from, and
    ``implicit`` marks a step the importer synthesized (a sub-expression of a
    longer formula, or a complement such as ``1 - 20%``).  ``at`` is the formula's
    offset in the solution.  ``per`` lists the units the context of the stated unit
    makes it a rate of (``$3 ... each``, a problem that counts hours a week): a
    stated unit that drops one of them is read as that rate and noted (ADR 0018).
    """

    op: str
    operands: tuple[Operand, ...]
    result: Number | None = None
    unit: str | None = None
    formula: str | None = None
    implicit: bool = False
    at: int | None = None
    per: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        op, operands, result, unit, formula = self.op, self.operands, self.result, self.unit, self.formula
        if (  # the common, valid step checked in one expression; the checks below name what is wrong
            type(op) is str
            and op in STEP_OPS
            and type(operands) is tuple
            and all(map(_is_operand, operands))
            and (len(operands) == 2 or (len(operands) > 2 and op != "divide"))
            and (result is None or ((type(result) is int or type(result) is float) and _in_range(result)))
            and (unit is None or (type(unit) is str and unit and not unit.isspace() and _unicode(unit)))
            and (formula is None or (type(formula) is str and formula and not formula.isspace() and _unicode(formula)))
            and type(self.implicit) is bool
            and (self.at is None or (type(self.at) is int and self.at >= 0))
            and not self.per
        ):
            return
        if type(self.op) is not str or self.op not in STEP_OPS:
            raise _fail("unknown_operation", f"'op' must be one of {sorted(STEP_OPS)} (got {shown(self.op)})", "op")
        if type(self.operands) is not tuple and not isinstance(self.operands, tuple):
            raise _fail("wrong_type", "'operands' must be a tuple of Operand", "operands")
        for o in self.operands:  # a loop, not all(<generator>): this runs for every step imported
            if type(o) is not Operand and not isinstance(o, Operand):
                raise _fail("wrong_type", "'operands' must be a tuple of Operand", "operands")
        low, high = (2, 2) if self.op == "divide" else (2, None)
        n = len(self.operands)
        if n < low or (high is not None and n > high):
            raise _fail(
                "invalid_value", f"a {self.op} step takes {'2' if high else '2 or more'} operands (got {n})", "operands"
            )
        if self.result is not None:
            _check_number(self.result, "result")
        _check_text(self.unit, "unit", optional=True)
        _check_text(self.formula, "formula", optional=True)
        if not isinstance(self.implicit, bool):
            raise _fail("wrong_type", "'implicit' must be a bool", "implicit")
        if self.at is not None:
            _check_index(self.at, "at")
        if not isinstance(self.per, tuple):
            raise _fail("wrong_type", "'per' must be a tuple of unit texts", "per")
        for k, unit_text in enumerate(self.per):
            _check_text(unit_text, f"per[{k}]")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"op": self.op, "operands": [o.to_dict() for o in self.operands]}
        for name in ("result", "unit", "formula", "at"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.implicit:
            out["implicit"] = True
        if self.per:
            out["per"] = list(self.per)
        return out


# isinstance(value, Operand), as a C callable for map()
_is_operand: Callable[[object], bool] = Operand.__instancecheck__


@dataclass(frozen=True, slots=True)
class Trace:
    """A problem's text, its quantity mentions and the steps of a solution over them.

    Mentions of each source are sorted by offset and do not overlap; every
    operand reference resolves (a mention index in range, an *earlier* step, a
    known constant); a constant's cue lies inside the text.  ``question_span`` is
    the question's ``(start, end)`` in ``text`` where known; ``solution`` is the
    corpus's worked solution, present when a mention quotes it.
    """

    problem_id: str
    corpus: str
    text: str
    mentions: tuple[Mention, ...]
    steps: tuple[Step, ...]
    question_span: tuple[int, int] | None = None
    answer_unit: str | None = None
    gold_answer_unit: str | None = None
    answer: Number | None = None
    solution: str | None = None

    def __post_init__(self) -> None:
        problem_id, corpus, text = self.problem_id, self.corpus, self.text
        if not (  # the common case in one expression; _check_text names what is wrong
            type(problem_id) is str
            and problem_id
            and not problem_id.isspace()
            and type(corpus) is str
            and corpus
            and not corpus.isspace()
            and type(text) is str
            and text
            and not text.isspace()
            and _unicode(problem_id)
            and _unicode(corpus)
            and _unicode(text)
        ):
            _check_text(self.problem_id, "$.problem_id")
            _check_text(self.corpus, "$.corpus")
            _check_text(self.text, "$.text")
        for name in ("mentions", "steps"):
            if not isinstance(getattr(self, name), tuple):
                raise _fail("wrong_type", f"'{name}' must be a tuple", f"$.{name}")
        if not self.steps:
            raise _fail("invalid_value", "a trace needs at least one step", "$.steps")
        size = len(self.text)
        if self.solution is not None:  # optional fields are checked only when present (a call saved per None)
            _check_text(self.solution, "$.solution")
        previous_end = {"text": 0, "solution": 0}
        # Paths are formatted only when a check fails (these loops run for every imported problem).
        for i, m in enumerate(self.mentions):
            if not isinstance(m, Mention):
                raise _fail("wrong_type", "must be a Mention", f"$.mentions[{i}]")
            source = self.text if m.source == "text" else self.solution
            if source is None:
                raise _fail(
                    "missing_field", "a solution mention needs the trace's 'solution'", f"$.mentions[{i}].source"
                )
            if m.end > len(source) or source[m.start : m.end] != m.text:
                raise _fail(
                    "invalid_value",
                    f"mention text {shown(m.text)} is not {m.source}[{shown(m.start)}:{shown(m.end)}]",
                    f"$.mentions[{i}].text",
                )
            if m.start < previous_end[m.source]:
                raise _fail(
                    "invalid_value", "mentions must be sorted by offset and must not overlap", f"$.mentions[{i}].start"
                )
            previous_end[m.source] = m.end
        count = len(self.mentions)
        for i, step in enumerate(self.steps):
            if not isinstance(step, Step):
                raise _fail("wrong_type", "must be a Step", f"$.steps[{i}]")
            for j, o in enumerate(step.operands):
                if (
                    (o.mention is not None and o.mention >= count)
                    or (o.step is not None and o.step >= i)
                    or (o.cue is not None and o.cue[1] > size)
                    or o.alternative is not None
                    or o.readings
                ):  # the rare operand that fails, or carries an alternative: checked (and named) apart
                    self._check_reference(o, i, j, count, size)
                    if o.alternative is not None:
                        self._check_reference(o.alternative, i, j, count, size)
                    for r in o.readings:
                        self._check_reference(r.operand, i, j, count, size)
        if self.question_span is not None:
            qs = self.question_span
            if not (isinstance(qs, tuple) and len(qs) == 2):
                raise _fail("wrong_type", "'question_span' must be a (start, end) pair", "$.question_span")
            start = _check_index(qs[0], "$.question_span[0]")
            end = _check_index(qs[1], "$.question_span[1]")
            if not start < end <= size:
                raise _fail("invalid_value", f"question span {list(qs)} is not inside the text", "$.question_span")
        if self.answer_unit is not None:
            _check_text(self.answer_unit, "$.answer_unit")
        if self.gold_answer_unit is not None:
            _check_text(self.gold_answer_unit, "$.gold_answer_unit")
        if self.answer is not None:
            _check_number(self.answer, "$.answer")

    @staticmethod
    def _check_reference(o: Operand, i: int, j: int, count: int, size: int) -> None:
        """An operand of step ``i`` resolves: a mention in range, an earlier step, a cue inside the text."""
        if o.mention is not None and o.mention >= count:
            raise _fail("invalid_value", f"mention {o.mention} does not exist", f"$.steps[{i}].operands[{j}].mention")
        if o.step is not None and o.step >= i:
            raise _fail("invalid_value", f"step {o.step} is not an earlier step", f"$.steps[{i}].operands[{j}].step")
        if o.cue is not None and o.cue[1] > size:
            raise _fail("invalid_value", f"cue {list(o.cue)} lies outside the text", f"$.steps[{i}].operands[{j}].cue")

    @property
    def question(self) -> str | None:
        """The question's text, where its span is known."""
        return None if self.question_span is None else self.text[self.question_span[0] : self.question_span[1]]

    # ------------------------------------------------------------------ JSON

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "problem_id": self.problem_id,
            "corpus": self.corpus,
            "text": self.text,
            "mentions": [m.to_dict() for m in self.mentions],
            "steps": [s.to_dict() for s in self.steps],
        }
        if self.question_span is not None:
            out["question_span"] = list(self.question_span)
        for name in ("answer_unit", "gold_answer_unit", "answer", "solution"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out

    def to_json(self) -> str:
        """Canonical JSON: sorted keys, compact separators, UTF-8 text kept."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes, *, path: str = "$") -> Trace:
        """Parse JSON text; malformed JSON refuses with reason ``malformed_json``."""
        return cls.from_dict(JsonDecoder.loads(text, path), path=path)

    @classmethod
    def from_dict(cls, data: object, *, path: str = "$") -> Trace:
        """Build from plain JSON data; every failure names its JSON path under ``path``."""
        return _Decoder(path).trace(data)


_TRACE_FIELDS = ("problem_id", "corpus", "text", "mentions", "steps")
_TRACE_OPTIONAL = ("question_span", "answer_unit", "gold_answer_unit", "answer", "solution")
_MENTION_FIELDS = ("start", "end", "text", "value")
_MENTION_OPTIONAL = ("unit", "lemma", "kind", "source", "alt_unit", "readings")
_STEP_FIELDS = ("op", "operands")
_STEP_OPTIONAL = ("result", "unit", "formula", "implicit", "at", "per")
_OPERAND_OPTIONAL = ("mention", "step", "constant", "cue", "text", "at", "why", "alternative", "readings")


class _Decoder(JsonDecoder):
    """Reads plain JSON data into the trace dataclasses, keeping the JSON path for errors."""

    def at(self, sub: str) -> str:
        """A path under this decoder's root (``$.steps[0]`` -> ``<root>.steps[0]``)."""
        return sub.replace("$", self.root, 1) if sub.startswith("$") else sub

    def pair(self, data: object, path: str) -> tuple[int, int] | None:
        if data is None:
            return None
        items = self.array(data, path)
        if len(items) != 2:
            raise _fail("invalid_value", f"'{path}' must be a [start, end] pair", path)
        return (_check_index(items[0], f"{path}[0]"), _check_index(items[1], f"{path}[1]"))

    def build(self, cls: type[Any], path: str, **kwargs: Any) -> Any:
        """Construct, re-rooting the dataclass's own field error at ``path``."""
        try:
            return cls(**kwargs)
        except ProblemGraphError as exc:
            sub = exc.path or ""
            full = self.at(sub) if sub.startswith("$") else f"{path}.{sub}" if sub else path
            raise ProblemGraphError(exc.message, reason=exc.reason, path=full, detail=exc.detail) from None

    def mention(self, data: object, path: str) -> Mention:
        d = dict(self.obj(data, path, _MENTION_FIELDS, _MENTION_OPTIONAL))
        if "readings" in d:
            pairs = [self.array(item, f"{path}.readings[{k}]") for k, item in
                     enumerate(self.array(d["readings"], f"{path}.readings"))]
            for k, pair in enumerate(pairs):
                if len(pair) != 2:
                    raise _fail("invalid_value", "a reading is a [unit, probability] pair", f"{path}.readings[{k}]")
            d["readings"] = tuple(UnitReadingChoice(u, p) for u, p in pairs)
        mention: Mention = self.build(Mention, path, **d)
        return mention

    def operand(self, data: object, path: str) -> Operand:
        d = dict(self.obj(data, path, (), _OPERAND_OPTIONAL))
        if "cue" in d:
            d["cue"] = self.pair(d["cue"], f"{path}.cue")
        if "alternative" in d:
            d["alternative"] = self.operand(d["alternative"], f"{path}.alternative")
        if "readings" in d:
            items = []
            for k, item in enumerate(self.array(d["readings"], f"{path}.readings")):
                r = self.obj(item, f"{path}.readings[{k}]", ("operand", "probability"), ())
                items.append(SourceReading(self.operand(r["operand"], f"{path}.readings[{k}].operand"),
                                           r["probability"]))
            d["readings"] = tuple(items)
        operand: Operand = self.build(Operand, path, **d)
        return operand

    def step(self, data: object, path: str) -> Step:
        d = dict(self.obj(data, path, _STEP_FIELDS, _STEP_OPTIONAL))
        d["operands"] = tuple(
            self.operand(item, f"{path}.operands[{j}]") for j, item in enumerate(self.array(d["operands"], path))
        )
        if "per" in d:
            d["per"] = tuple(self.array(d["per"], f"{path}.per"))
        step: Step = self.build(Step, path, **d)
        return step

    def trace(self, data: object) -> Trace:
        root = self.root
        d = dict(self.obj(data, root, _TRACE_FIELDS, _TRACE_OPTIONAL))
        d["mentions"] = tuple(
            self.mention(item, f"{root}.mentions[{i}]")
            for i, item in enumerate(self.array(d["mentions"], f"{root}.mentions"))
        )
        d["steps"] = tuple(
            self.step(item, f"{root}.steps[{i}]") for i, item in enumerate(self.array(d["steps"], f"{root}.steps"))
        )
        if "question_span" in d:
            d["question_span"] = self.pair(d["question_span"], f"{root}.question_span")
        trace: Trace = self.build(Trace, root, **d)
        return trace


# --------------------------------------------------------------------- binding


def _number_text(value: Number) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def _resolve(unit: str | None, pack: UnitPack) -> ResolvedUnit | None:
    """What ``pack`` resolves ``unit`` to, or None (the pack memoizes it)."""
    hit = None if unit is None else pack.lookup(unit)
    return None if isinstance(hit, str) else hit


@functools.lru_cache(maxsize=8192)
def _slug(text: str) -> str:
    return slugify(text)


def clear_trace_cache() -> None:
    """Forget the memoized slugs, serial numbers, step labels and upstream units of :func:`bind_trace`
    (tests use this; the pack memoizes unit resolutions, :func:`~ssbg.units.clear_pack_cache` forgets them)."""
    _slug.cache_clear()
    _serial.cache_clear()
    _step_labels.cache_clear()
    _from_vector.cache_clear()


@functools.lru_cache(maxsize=1024)
def _serial(index: int) -> str:
    """The ``_<nnn>`` suffix that numbers a symbol id (memoized: formatting is the costly part)."""
    return f"_{index:03d}"


@functools.lru_cache(maxsize=1024)
def _step_labels(i: int) -> tuple[str, str, str]:
    """Step ``i``'s symbol id, its span's source suffix and its symbol's name (memoized: the same for every trace)."""
    return f"step_{i:03d}", f":steps[{i}]", f"result of step {i}"


@functools.lru_cache(maxsize=4096)
def _from_vector(vector: UnitVector) -> ResolvedUnit:
    """An admitted unit vector as a resolved unit (memoized: both are immutable)."""
    name = vector.to_canonical_string()
    num = UnitVector(*(max(e, 0) for e in vector))
    den = UnitVector(*(max(-e, 0) for e in vector))
    return ResolvedUnit(name, name, vector, None, "upstream", num, den)


def _role_for(resolved: ResolvedUnit | None, *, pure: bool) -> str:
    if pure:
        return "ratio"
    if resolved is None:
        return "quantity"
    if resolved.is_rate:
        return "rate"
    dims = resolved.dimension
    if dims == _TIME:
        return "duration"
    if dims == _COUNT:
        return "count"
    return "quantity"


_TIME = UnitVector(time=1)
_COUNT = UnitVector(count=1)


_RESULT_ROLE: Mapping[str, str] = {
    "add": "total",
    "subtract": "difference",
    "multiply": "quantity",
    "divide": "quantity",
    "apply_rate": "total",
}

_OP_SIGN: Mapping[str, str] = {"add": "+", "subtract": "-", "multiply": "*", "divide": "/"}
_OP_JOIN: Mapping[str, str] = {op: f" {sign} " for op, sign in _OP_SIGN.items()}
_ADDITIVE: frozenset[str] = frozenset({"add", "subtract"})


class _Bound(NamedTuple):
    """What binding knows about one operand symbol (internal scratch: a tuple is cheaper to build)."""

    symbol_id: str
    unit: ResolvedUnit | None  # resolved unit, or None when unknown or unitless
    pure: bool  # a dimensionless pure number (role ratio, no unit)
    value: float | None  # its value, where the trace says it


_new_bound = tuple.__new__  # skips the generated NamedTuple constructor on the hot path


class _TraceBinder:
    """Scratch state of one :func:`bind_trace` run (never escapes it).

    Its values are built from fields it has read from the validated trace, or made itself, without
    validating them again (ADR 0013's amendment; ``tests/test_unchecked_binding.py`` rebuilds every
    graph through the validating constructors and finds it equal).
    """

    def __init__(self, trace: Trace, pack: UnitPack) -> None:
        self.trace = trace
        self.pack = pack
        self.source = trace.problem_id
        self.symbols: dict[str, SymbolBinding] = {}
        self.facts: list[BoundFact] = []
        self.equations: list[BoundEquation] = []
        self.slugs: dict[str, int] = {}
        self.mentions: list[_Bound] = []
        self.constants: dict[str, _Bound] = {}
        self.steps: list[_Bound] = []
        self.stamper = _BindingStamper(self.symbols, pack)
        self.fact_of: dict[str, BoundFact] = {}  # symbol id -> its first fact, for facts[:indexed]
        self.indexed = 0
        self.kept: set[str] = set()  # per-thing readings kept in the graph (reconsider)
        self.readings_of: dict[int, list[tuple[_Bound, float, str]]] | None = None  # step_readings, when asked
        self.stated_reliability = 1.0  # reading_mass's ``stated``, for step_readings

    def virtual_span(self, where: str, text: str) -> SourceSpanLink:
        return _prebuilt_span(f"{self.source}:{where}", 0, len(text), text)

    def bind_mentions(self) -> None:
        """One symbol and fact per mention, ``q_<slug>_<nnn>`` (``s_`` for one in the solution)."""
        lookup, symbols, facts, mentions, slugs = self.pack.lookup, self.symbols, self.facts, self.mentions, self.slugs
        source = self.source
        for m in self.trace.mentions:
            unit = m.unit
            if unit is None:
                resolved = None
                pure = m.kind != "quantity"  # Mention.is_pure
                role = "ratio" if pure else "quantity"
            else:
                hit = lookup(unit)
                pure = False
                if isinstance(hit, str):  # not in the pack
                    resolved = None
                    role = "quantity"
                else:  # _role_for(hit, pure=False), inlined
                    resolved = hit
                    dims = hit.dimension
                    if hit.via == "composite" or hit.denominator != DIMENSIONLESS:  # ResolvedUnit.is_rate
                        role = "rate"
                    else:
                        role = "duration" if dims == _TIME else "count" if dims == _COUNT else "quantity"
            named = m.lemma or (resolved.lemma if resolved is not None else unit)
            slug = _slug(named or "") or ("ratio" if pure else "number")
            in_text = m.source == "text"
            key = ("q_" if in_text else "s_") + slug
            index = slugs.get(key, 0)
            slugs[key] = index + 1
            sid = key + _serial(index)
            span = _prebuilt_span(source if in_text else f"{source}:solution", m.start, m.end, m.text)
            symbols[sid] = _prebuilt_symbol(sid, m.text, role, span, INTRODUCED_BY, None, unit)
            value = m.value
            facts.append(_prebuilt_fact(sid, repr(value) if type(value) is int else _number_text(value), span, unit))
            mentions.append(_new_bound(_Bound, (sid, resolved, pure, float(value))))

    def constant(self, operand: Operand, *, additive: bool = False) -> _Bound:
        """The symbol of a constant; in a sum or difference, a rate constant is the amount of one
        denominator unit (``7 - 5 days``: 7 days, not 7 days per week)."""
        cid = operand.constant or ""
        c: ImplicitConstant = IMPLICIT_CONSTANTS[cid]
        unit = c.unit
        key = cid
        if additive and unit is not None and "_per_" in unit:
            unit = unit.partition("_per_")[0]
            key = f"{cid}_amount"
        known = self.constants.get(key)
        if known is not None:
            return known
        if operand.cue is not None:
            start, end = operand.cue
            span = _prebuilt_span(self.source, start, end, self.trace.text[start:end])
        else:
            span = self.virtual_span("constants", c.description)
        sid = f"c_{key}"
        resolved = _resolve(unit, self.pack)
        name = c.description if key == cid else f"{c.description}, as an amount of {unit}"
        self.symbols[sid] = _prebuilt_symbol(
            sid, name, _role_for(resolved, pure=c.is_pure), span, INTRODUCED_BY, None, unit
        )
        self.facts.append(_prebuilt_fact(sid, _number_text(c.value), span, unit))
        bound = _Bound(sid, resolved, c.is_pure, float(c.value))
        self.constants[key] = bound
        return bound

    def beside_a_rate(self, step: Step) -> bool:
        """Whether a sum or difference adds a rate constant to a rate of its own dimension (``7 days a week -
        3 days every week``): the constant then stays the rate; else it is the amount of one period."""
        rates = []
        for o in step.operands:
            bound = self.steps[o.step] if o.step is not None else None
            if o.mention is not None:
                bound = self.mentions[o.mention]
            if bound is not None and bound.unit is not None and bound.unit.is_rate:
                rates.append(bound.unit.dimension)
        if not rates:
            return False
        for o in step.operands:
            unit = IMPLICIT_CONSTANTS[o.constant].unit if o.constant is not None else None
            hit = None if unit is None else self.pack.lookup(unit)
            if isinstance(hit, ResolvedUnit) and hit.is_rate and hit.dimension in rates:
                return True
        return False

    def alias(self, bound: _Bound, occurrence: int) -> _Bound:
        """A second symbol for an operand used twice in one step (``12 * 12``)."""
        original = self.symbols[bound.symbol_id]
        sid = f"{bound.symbol_id}_again_{occurrence:03d}"
        if sid not in self.symbols:
            if bound.symbol_id in self.stamper.admitted or bound.symbol_id in self.stamper.root_of:
                # A step result: an identity equation carries its admitted unit (or its refusal).
                self.symbols[sid] = _prebuilt_replace(original, symbol_id=sid, name=f"{original.name} (again)")
                self.equations.append(
                    self.stamper.stamp(sid, bound.symbol_id, (bound.symbol_id,), "add", original.source_span)
                )
            else:
                self.symbols[sid] = _prebuilt_replace(original, symbol_id=sid)
                fact = self.fact(bound.symbol_id)
                if fact is not None:
                    self.facts.append(_prebuilt_replace(fact, symbol_id=sid))
        return bound._replace(symbol_id=sid)

    def fact(self, symbol_id: str) -> BoundFact | None:
        """The first fact of ``symbol_id``, through an index that takes in the facts added since it was last
        asked (a scan of every fact per alias made a trace with many repeated operands cost n^2)."""
        facts, fact_of = self.facts, self.fact_of
        for fact in facts[self.indexed :]:
            fact_of.setdefault(fact.symbol_id, fact)
        self.indexed = len(facts)
        return fact_of.get(symbol_id)

    def kind_for(self, op: str, operands: list[_Bound], *, mark: bool = True) -> str:
        """``apply_rate`` for a product of a rate and a quantity in its denominator's unit, else ``op``
        (``mark``: the rate's symbol takes the role ``rate``)."""
        if op != "multiply" or len(operands) != 2:
            return op
        first, second = operands
        for rate, base in ((first, second), (second, first)):
            if (
                rate.unit is not None
                and base.unit is not None
                and rate.unit.is_rate
                and rate.unit.denominator != DIMENSIONLESS
                and base.unit.dimension == rate.unit.denominator
            ):
                sym = self.symbols[rate.symbol_id]
                if mark and sym.semantic_role != "rate":
                    self.symbols[rate.symbol_id] = _prebuilt_replace(sym, semantic_role="rate")
                return "apply_rate"
        return op

    def bind_step(self, i: int, step: Step) -> None:
        op = step.op
        mentions, steps, symbols, stamper = self.mentions, self.steps, self.symbols, self.stamper
        operands: list[_Bound] = []
        ids: list[str] = []
        seen: dict[str, int] = {}  # operand symbols before aliasing: how often each came (a dict: a list's search
        # made a step repeating one operand quadratic, issue 27)
        additive = op in _ADDITIVE and not self.beside_a_rate(step)
        for o in step.operands:
            if (index := o.mention) is not None:
                bound = mentions[index]
            elif (index := o.step) is not None:
                bound = steps[index]
            else:
                bound = self.constant(o, additive=additive)
            original = bound.symbol_id
            repeats = seen.get(original, 0)
            if repeats:
                bound = self.alias(bound, repeats)
            seen[original] = repeats + 1
            operands.append(bound)
            ids.append(bound.symbol_id)
        kind = self.kind_for(op, operands) if op == "multiply" else op
        sid, where, name = _step_labels(i)
        rhs = _OP_JOIN[op].join(ids)
        text = step.formula or rhs
        span = _prebuilt_span(self.source + where, 0, len(text), text)
        unit_text = step.unit
        if unit_text:
            name = f"{name} ({unit_text})"
        symbols[sid] = _prebuilt_symbol(sid, name, _RESULT_ROLE[kind], span, INTRODUCED_BY, None, unit_text)
        equation = stamper.stamp(sid, rhs, ids, kind, span)
        if equation.refusal_reason == "unit_mismatch":
            equation = self.reconsider(step, equation, operands)
        self.equations.append(equation)
        admitted = stamper.admitted.get(sid)
        unit = None
        if admitted is not None:
            unit = _from_vector(admitted)
            if unit.is_rate and unit.numerator != DIMENSIONLESS:
                symbols[sid] = _prebuilt_replace(symbols[sid], semantic_role="rate")
        value = step.result
        steps.append(_new_bound(_Bound, (sid, unit, False, None if value is None else float(value))))

    def reconsider(self, step: Step, refused: BoundEquation, operands: list[_Bound]) -> BoundEquation:
        """A mismatch read again (ADR 0018): a stated unit that drops a denominator its context supplies
        (or the things a measure is shared among) is that rate, noted in the proof; a product or quotient
        a factor read per thing admits is admitted so where the text says it, else ``ambiguous_grounding``;
        a mismatch that a tied grounding or a mention's second unit reading would not make is
        ``ambiguous_grounding``; else the mismatch stands."""
        sid, rhs, ids, kind, span = (
            refused.lhs_symbol_id, refused.rhs_canonical, sorted(refused.dependencies), refused.operation_kind,
            refused.source_span,
        )  # fmt: skip
        stamper, symbols = self.stamper, self.symbols
        stated = step.unit
        if stated and (refused.refusal_detail or "").startswith("lhs"):
            original = symbols[sid]
            readings = [(per, "its context") for per in step.per]
            divisor = self.shared_by(step, stated)
            if divisor is not None:  # $40 / 8 toys = $5: $5 per toy, as divided
                readings.append((divisor, "its divisor"))
            for per, why in readings:
                rate = f"{stated} per {per}"
                if isinstance(self.pack.lookup(rate), str):
                    continue
                symbols[sid] = _prebuilt_replace(original, unit=rate)
                stamper.retract(sid)
                again = stamper.stamp(sid, rhs, ids, kind, span)
                if again.admissibility_status == "admitted":
                    note = f"{again.unit_proof}; stated {shown(stated)} read as {shown(rate)} ({why})"
                    return _prebuilt_replace(again, unit_proof=note)
            symbols[sid] = original
            stamper.retract(sid)
            refused = stamper.stamp(sid, rhs, ids, kind, span)
        per_thing = self.per_thing(step, sid, operands) if step.op in ("multiply", "divide") else None
        if per_thing is not None:
            k, rate, hit, said = per_thing
            stamper.retract(sid)
            if not said:  # a total or a per-thing amount: the words leave it open
                detail = f"operand {operands[k].symbol_id} read as {shown(rate)} admits it"
                return stamper.refuse(sid, rhs, ids, kind, span, "ambiguous_grounding", detail)
            # the text says it is per thing ("each car has 4 wheels"): that reading, kept and noted
            tried = list(operands)
            tried[k] = self.read_per(operands[k], rate, hit, keep=True)
            tried_ids = [t.symbol_id for t in tried]
            kind = self.kind_for(step.op, tried) if step.op == "multiply" else kind  # a rate applied, now
            again = stamper.stamp(sid, _OP_JOIN[step.op].join(tried_ids), tried_ids, kind, span)
            note = f"{again.unit_proof}; {operands[k].symbol_id} read as {shown(rate)} (the text says per thing)"
            return _prebuilt_replace(again, unit_proof=note)
        tie = self.other_reading(step, sid, rhs, ids, kind, operands)
        if tie is None:
            return refused
        stamper.retract(sid)
        return stamper.refuse(sid, rhs, ids, kind, span, "ambiguous_grounding", tie)

    def per_thing(self, step: Step, sid: str, operands: list[_Bound]) -> tuple[int, str, ResolvedUnit, bool] | None:
        """A refused product or quotient that a factor read per thing admits (ADR 0018).  The first such
        reading: (operand, the rate it is read as, its unit, whether the text says so), or None.

        A product's factor (a text quantity or a step result with a plain unit) is read per the plain unit
        another factor has, the factor in the stated unit first: ``2 cars * 4 wheels = 8 wheels`` is 4 wheels
        per car.  A quotient's divisor is read per the stated unit: ``12 towels / 4 towels = 3 loads`` is 4
        towels per load.  The text says so when a distributive word names the thing in a text quantity's
        sentence ("each car", "for one load"; :func:`_says_per`); of a step result it never does (its
        solution line is not read again).  Nothing is recorded by the trials."""
        stated = None if step.unit is None else self.pack.lookup(step.unit)
        first: tuple[int, str, ResolvedUnit, bool] | None = None
        for k, (unit, span), j, thing in self.per_thing_readings(step, operands, stated):
            rate = f"{unit} per {thing.lemma}"
            hit = self.pack.lookup(rate)
            if isinstance(hit, str):
                continue
            read_as = self.read_per(operands[k], rate, hit, keep=False)
            try:
                ok = self.trial(step.op, sid, operands, k, read_as)
            finally:
                if read_as.symbol_id not in self.kept:
                    del self.symbols[read_as.symbol_id]
            if not ok:
                continue
            other = None if j is None else step.operands[j].mention
            avoid = (0, 0) if other is None else (self.trace.mentions[other].start, self.trace.mentions[other].end)
            if span is not None and _says_per(self.trace.text, span, thing.lemma, self.pack, avoid=avoid):
                return k, rate, hit, True  # the reading the text says, over one it leaves open
            first = first or (k, rate, hit, False)
        return first

    def per_thing_readings(
        self, step: Step, operands: list[_Bound], stated: ResolvedUnit | str | None
    ) -> list[tuple[int, tuple[str, tuple[int, int] | None], int | None, ResolvedUnit]]:
        """The readings to try: (factor, (its unit text, its span in the text or None for a step result), the
        operand that has the thing or None for the stated unit, the thing)."""
        things = [self.plain_unit(o) for o in step.operands]  # each operand's plain unit, or None
        plain: dict[int, tuple[str, tuple[int, int] | None]] = {}  # factors with a plain unit
        for k, o in enumerate(step.operands):
            if things[k] is None:
                continue
            if o.mention is not None:
                m = self.trace.mentions[o.mention]
                plain[k] = (m.unit or "", (m.start, m.end))
            elif o.step is not None:
                plain[k] = (self.trace.steps[o.step].unit or "", None)
        if step.op == "divide":
            if len(operands) != 2 or 1 not in plain or not isinstance(stated, ResolvedUnit) or stated.is_rate:
                return []
            return [(1, plain[1], None, stated)] if self.same_kind(step, operands) else []
        lemma = stated.lemma if isinstance(stated, ResolvedUnit) else None
        lemmas = {k: getattr(things[k], "lemma", None) for k in plain}
        # the factor in the stated unit first: 2 cars * 4 wheels = 8 wheels is wheels per car, not cars per wheel
        order = sorted(plain, key=lambda k: (lemmas[k] != lemma, k))
        return [(k, plain[k], j, thing) for k in order for j, thing in enumerate(things)
                if j != k and thing and thing.lemma != lemmas[k]]

    def read_per(self, bound: _Bound, rate: str, hit: ResolvedUnit, *, keep: bool) -> _Bound:
        """A symbol for an operand read as ``rate`` (kept in the graph with the operand's fact when ``keep``)."""
        thing = rate.rpartition(" per ")[2]
        sid = f"{bound.symbol_id}_per_{slugify(thing)}"
        if sid not in self.symbols:
            original = self.symbols[bound.symbol_id]
            self.symbols[sid] = _prebuilt_replace(
                original, symbol_id=sid, name=f"{original.name} (per {thing})", unit=rate, semantic_role="rate"
            )
        if keep and sid not in self.kept:
            self.kept.add(sid)
            fact = self.fact(bound.symbol_id)
            if fact is not None:
                self.facts.append(_prebuilt_replace(fact, symbol_id=sid))
        return bound._replace(symbol_id=sid, unit=hit)

    def same_kind(self, step: Step, operands: list[_Bound]) -> bool:
        """Whether a quotient divides like by like, so that its divisor may be per the stated thing: a measure
        by the same measure (40 ounces / 8 ounces), a count by a count of the same thing (12 towels / 4 towels)."""
        dividend, divisor = operands[0].unit, operands[1].unit
        if dividend is None or divisor is None or dividend.dimension != divisor.dimension:
            return False
        if divisor.dimension != _COUNT:
            return True
        counted = self.plain_unit(step.operands[0])
        return counted is not None and counted.lemma == divisor.lemma

    def shared_by(self, step: Step, stated: str) -> str | None:
        """The things a quotient is shared among, when its stated unit drops them: the lemma of a divisor that
        counts things, where the dividend has the stated unit, a measure (``$40 / 8 toys = $5``: toy).  Not
        a count: ``24 cookies / 4 friends`` per friend is count/count, a pure number no later sum could use."""
        if step.op != "divide" or len(step.operands) != 2:
            return None
        dividend, divisor = self.plain_unit(step.operands[0]), self.plain_unit(step.operands[1])
        unit = self.pack.lookup(stated)
        if dividend is None or divisor is None or divisor.dimension != _COUNT or not isinstance(unit, ResolvedUnit):
            return None
        if dividend.dimension == _COUNT:
            return None
        return divisor.lemma if dividend.lemma == unit.lemma != divisor.lemma else None

    def plain_unit(self, operand: Operand) -> ResolvedUnit | None:
        """The plain unit an operand has (its mention's or its step's stated unit, not a rate), else None."""
        if operand.mention is not None:
            text = self.trace.mentions[operand.mention].unit
        elif operand.step is not None:
            text = self.trace.steps[operand.step].unit
        else:
            return None
        hit = None if text is None else self.pack.lookup(text)
        if isinstance(hit, ResolvedUnit) and not hit.is_rate and hit.dimension != DIMENSIONLESS:
            return hit
        return None

    def other_reading(
        self, step: Step, sid: str, rhs: str, ids: list[str], kind: str, operands: list[_Bound]
    ) -> str | None:
        """What another reading the words support as well would admit: an operand's tied alternative, or a
        mention's second unit reading; None when none would (nothing is recorded by the trials)."""
        for k, o in enumerate(step.operands):
            alt = o.alternative
            if alt is not None:
                other = self.alternative_bound(alt, step.op)
                if other.symbol_id not in ids and self.trial(step.op, sid, operands, k, other):
                    return f"operand {operands[k].symbol_id} or its tie {other.symbol_id} admits it"
            second = self.trace.mentions[o.mention].alt_unit if o.mention is not None else None
            hit = None if second is None else self.pack.lookup(second)
            if second is not None and hit is not None and not isinstance(hit, str):
                bound = operands[k]
                temp = f"{bound.symbol_id}__read_as"
                self.symbols[temp] = _prebuilt_replace(
                    self.symbols[bound.symbol_id], symbol_id=temp, unit=second, semantic_role=_role_for(hit, pure=False)
                )
                try:
                    ok = self.trial(step.op, sid, operands, k, bound._replace(symbol_id=temp, unit=hit))
                finally:
                    del self.symbols[temp]
                if ok:
                    return f"operand {bound.symbol_id} read as {shown(second)} admits it"
        return None

    def alternative_bound(self, alt: Operand, op: str) -> _Bound:
        """The symbol of an operand's tied alternative (a constant's symbol is made on first need)."""
        if alt.mention is not None:
            return self.mentions[alt.mention]
        if alt.step is not None:
            return self.steps[alt.step]
        return self.constant(alt, additive=op in _ADDITIVE)

    def trial(self, op: str, sid: str, operands: list[_Bound], k: int, other: _Bound) -> bool:
        """Whether step ``sid`` would be admitted with operand ``k`` read as ``other``."""
        tried = [*operands[:k], other, *operands[k + 1 :]]
        ids = [t.symbol_id for t in tried]
        kind = self.kind_for(op, tried, mark=False) if op == "multiply" else op
        return self.stamper.admits(sid, _OP_JOIN[op].join(ids), ids, kind)

    def source_bound(self, o: Operand, additive: bool) -> _Bound | None:
        """The symbol a source of a literal stands for (None: an earlier step that was refused, whose unit no check
        can give)."""
        if o.mention is not None:
            return self.mentions[o.mention]
        if o.step is not None:
            bound = self.steps[o.step]
            return None if bound.symbol_id in self.stamper.root_of else bound
        return self.constant(o, additive=additive)

    def read_as(self, bound: _Bound, unit: str) -> _Bound | None:
        """A scratch symbol for a mention read with another unit (None when the pack does not know the unit)."""
        hit = self.pack.lookup(unit)
        if isinstance(hit, str):
            return None
        sid = f"{bound.symbol_id}__as_{slugify(unit)}"
        if sid not in self.symbols:
            self.symbols[sid] = _scratch_symbol(
                self.symbols[bound.symbol_id], symbol_id=sid, unit=unit, semantic_role=_role_for(hit, pure=False)
            )
        return bound._replace(symbol_id=sid, unit=hit)

    def options(self, o: Operand, additive: bool) -> list[tuple[_Bound, float, str]]:
        """An operand's readings the unit check can decide, each with its probability (its source's times its
        unit's) and, where it departs from the chosen reading, the departure in words."""
        sources = [(r.operand, r.probability) for r in o.readings] or [(o, 1.0)]
        out: list[tuple[_Bound, float, str]] = []
        for src, p in sources:
            bound = self.source_bound(src, additive)
            if bound is None:
                continue
            moved = (src.mention, src.step, src.constant) != (o.mention, o.step, o.constant)
            said = ""
            if moved:
                said = f"{o.text or '?'} as " + (
                    repr(self.trace.mentions[src.mention].text) if src.mention is not None
                    else f"the result of step {src.step}" if src.step is not None
                    else IMPLICIT_CONSTANTS[src.constant or ""].description
                )
            if src.step is not None:  # an earlier result: the units its own readings give it (joint weighing)
                for alt, q, words in self.step_readings(src.step):
                    out.append((alt, p * q, "; ".join(w for w in (said, words) if w)))
                continue
            if src.mention is None:
                out.append((bound, p, said))
                continue
            m = self.trace.mentions[src.mention]
            units = m.readings
            if not any(u.unit == m.unit for u in units):  # none kept, or a later rule read the unit anew
                units = (UnitReadingChoice(m.unit, 1.0),)
            total = sum(u.probability for u in units) or 1.0
            for u in units:
                if u.unit is None and not (u.unit == m.unit and bound.pure):
                    continue  # a quantity read without a unit: no check can decide it (unit_unbound); a pure one can
                read = bound if u.unit == m.unit else self.read_as(bound, u.unit or "")
                if read is None or (read.unit is None and not read.pure):
                    continue
                words = said if u.unit == m.unit else f"{m.text!r} read as {u.unit!r}" + (f" ({said})" if said else "")
                out.append((read, p * u.probability / total, words))
        return out

    def mass(self, i: int, step: Step, stated: float = 1.0, expected: UnitVector | None = None,
             asked: float = 1.0) -> ReadingMass:
        """How much of the readings' probability the unit check admits step ``i`` under (:func:`reading_mass`):
        ``stated`` is the probability that the unit the step states is its result's (else the check goes without
        it); with ``expected``, the probability that it is admitted with that unit, ``asked`` being the
        probability that the asked unit is the answer's (else any admitted unit answers: :func:`answer_mass`)."""
        sid = _step_labels(i)[0]
        lhs: list[tuple[str, float, str]] = [(sid, 1.0, "")]
        if expected is None and step.unit and stated < 1.0:
            free = f"{sid}__unstated"
            self.symbols[free] = _scratch_symbol(self.symbols[sid], symbol_id=free, unit=None)
            lhs = [(sid, stated, ""), (free, 1.0 - stated, f"the stated {shown(step.unit)} not the result's unit")]

        def admitted_by(ids: list[str], kind: str) -> tuple[float, str]:
            """The share of the lhs readings that admit the combination, and the likeliest one's words."""
            rhs = _OP_JOIN[step.op].join(ids)
            if expected is None:
                admits = self.stamper.admits
                hits: list[tuple[float, str]]
                if len(lhs) == 2:  # its stated unit only adds a check: what the lhs without it refuses, it refuses
                    (stated_lhs, q_stated, w_stated), (free_lhs, q_free, w_free) = lhs
                    if not admits(free_lhs, rhs, ids, kind):
                        return 0.0, ""
                    hits = [(q_stated, w_stated)] if admits(stated_lhs, rhs, ids, kind) else []
                    hits.append((q_free, w_free))
                else:
                    hits = [(q, w) for name, q, w in lhs if admits(name, rhs, ids, kind)]
                return (sum(q for q, _ in hits), max(hits)[1]) if hits else (0.0, "")
            trial = f"{sid}__trial"
            self.symbols[trial] = _scratch_symbol(self.symbols[sid], symbol_id=trial)
            eq = self.stamper.stamp(trial, rhs, ids, kind, self.symbols[sid].source_span)
            unit = self.stamper.admitted.get(trial)
            self.stamper.retract(trial)
            if eq.admissibility_status != "admitted":
                return 0.0, ""
            if unit == expected:
                return 1.0, ""
            return 1.0 - asked, "the asked unit not the answer's" if asked < 1.0 else ""

        weighed = admitted = best_p = 0.0
        best: str | None = None
        count = 0
        for p, ids, kind, departures in self.combinations(step):
            count += 1
            weighed += p
            share, said = admitted_by(ids, kind)
            if share:
                admitted += p * share
                if p * share > best_p:
                    words = [*departures, *([said] if said else [])]
                    best_p, best = p * share, "; ".join(dict.fromkeys(words)) or "the chosen reading"
        if not weighed:
            return ReadingMass(i, 0.0, None, 0.0, 0)
        return ReadingMass(i, admitted / weighed, best, best_p / weighed, count)

    def combinations(self, step: Step) -> Iterator[tuple[float, list[str], str, list[str]]]:
        """The combinations of a step's operand readings (:meth:`options`, the likeliest :data:`MAX_READINGS`):
        each as its probability, its operand symbols, its operation kind and its departures from the chosen
        reading in words (none: the chosen reading)."""
        additive = step.op in _ADDITIVE and not self.beside_a_rate(step)
        choices = [self.options(o, additive) for o in step.operands]
        for c in choices:
            c.sort(key=lambda x: -x[1])
        while math.prod(len(c) for c in choices) > MAX_READINGS:  # keep the likeliest: drop the least probable
            longest = max(range(len(choices)), key=lambda k: (len(choices[k]), -k))
            choices[longest].pop()
        for combo in itertools.product(*choices):
            seen: dict[str, int] = {}
            tried: list[_Bound] = []
            for bound, _, _ in combo:
                repeats = seen.get(bound.symbol_id, 0)
                seen[bound.symbol_id] = repeats + 1
                tried.append(self.alias(bound, repeats) if repeats else bound)
            kind = self.kind_for(step.op, tried, mark=False) if step.op == "multiply" else step.op
            yield math.prod(x[1] for x in combo), [t.symbol_id for t in tried], kind, [w for _, _, w in combo if w]

    def step_readings(self, j: int) -> list[tuple[_Bound, float, str]]:
        """The units an earlier step's result may have under its own operands' readings, each with its
        probability and, where it departs from the chosen reading, the departure in words (ADR 0027, joint
        weighing): the chosen reading keeps the unit binding admitted; another combination the unit check
        admits gives the unit it derives, weighed ``1 - stated`` when that is not the unit the step states.
        Normalised over the combinations the check admits (the step is taken as right, as the check of a
        later step takes it); empty for a refused step, whose unit no check can give.  Each step's readings
        are weighed once and independently of the others' (a mention two steps share is not tied)."""
        cache = self.readings_of
        if cache is None:
            cache = self.readings_of = {}
        found = cache.get(j)
        if found is not None:
            return found
        chosen = self.steps[j]
        if chosen.symbol_id in self.stamper.root_of:
            cache[j] = []
            return cache[j]
        cache[j] = [(chosen, 1.0, "")]  # what a use of the step inside its own readings sees (none does)
        step, sid = self.trace.steps[j], chosen.symbol_id
        stated = self.stated_reliability
        declared = self.pack.lookup(step.unit) if step.unit else None
        declared_dim = declared.dimension if isinstance(declared, ResolvedUnit) else None
        trial = f"{sid}__free"
        self.symbols[trial] = _scratch_symbol(self.symbols[sid], symbol_id=trial, unit=None)
        weights: dict[UnitVector, list[Any]] = {}
        chosen_unit = self.stamper.admitted.get(sid)
        for p, ids, kind, departures in self.combinations(step):
            if not departures and chosen_unit is not None:
                unit, q = chosen_unit, p
            else:
                eq = self.stamper.stamp(trial, _OP_JOIN[step.op].join(ids), ids, kind, self.symbols[sid].source_span)
                derived = self.stamper.admitted.get(trial)
                self.stamper.retract(trial)
                if eq.admissibility_status != "admitted" or derived is None:
                    continue
                unit, q = derived, p if declared_dim is None or derived == declared_dim else p * (1.0 - stated)
            if not q:
                continue
            entry = weights.setdefault(unit, [0.0, -1.0, ""])
            entry[0] += q
            if q > entry[1]:
                entry[1], entry[2] = q, "; ".join(dict.fromkeys(departures))
        total = sum(e[0] for e in weights.values())
        out: list[tuple[_Bound, float, str]] = []
        for k, (unit, (weight, _, words)) in enumerate(sorted(weights.items(), key=lambda kv: -kv[1][0])):
            if unit == chosen_unit:
                out.append((chosen, weight / total, ""))
                continue
            alt = f"{sid}__reading_{k:02d}"
            self.symbols[alt] = _scratch_symbol(self.symbols[sid], symbol_id=alt, unit=None)
            self.stamper.admitted[alt] = unit
            out.append((chosen._replace(symbol_id=alt, unit=_from_vector(unit)), weight / total,
                        f"the result of step {j} as {unit.to_canonical_string()} ({words})"))
        cache[j] = out
        return out

    def unknown(self) -> BoundUnknown:
        t = self.trace
        sid = "unknown_answer"
        if t.question_span is not None:  # inside the text (Trace checks it)
            start, end = t.question_span
            span = _prebuilt_span(self.source, start, end, t.text[start:end])
        else:
            span = _prebuilt_span(self.source, 0, len(t.text), t.text)
        expected = t.gold_answer_unit if t.gold_answer_unit is not None else t.answer_unit
        self.symbols[sid] = _prebuilt_symbol(sid, "the answer", "unknown", span, INTRODUCED_BY, None, expected)
        last = self.equations[-1]
        hit = None if expected is None else self.pack.lookup(expected)  # what resolve gives, without raising
        resolved = hit if isinstance(hit, ResolvedUnit) else None
        form = question_form_for(last.operation_kind, expected_is_rate=resolved is not None and resolved.is_rate)
        lhs = last.lhs_symbol_id
        return reconcile_resolved(
            sid, span, expected, resolved, lhs, self.stamper.admitted.get(lhs), lhs in self.stamper.root_of,
            STATE_INDEX_TERMINAL, form, (), self.pack.name, _prebuilt_unknown,
        )  # fmt: skip


_DISTRIBUTIVE = frozenset({"each", "every", "per", "a", "an", "one"})
_EACH = frozenset({"each", "every", "per"})  # these reach the thing across a few words: "each of his 4 fandoms"
_REACH = 5
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
_WORD = re.compile(r"[A-Za-z]+")


def _says_per(
    text: str, span: tuple[int, int], lemma: str, pack: UnitPack, *, avoid: tuple[int, int] = (0, 0)
) -> bool:
    """Whether the sentence of the quantity at ``span`` says it is per thing ``lemma``: the thing named
    after a distributive word ("each car", "a batch", "per guest", "each of his two hallways"; not the
    thing's own quantity at ``avoid``), or "each" just before or after the quantity ("each bought 15
    marbles", "4 wheels each").

    >>> from ssbg.units import load_pack
    >>> p = load_pack("en_units_v1+en_counts_v1")
    >>> _says_per("He has 2 cars. Each car has 4 wheels.", (26, 34), "car", p)
    True
    >>> _says_per("He has 2 cars and 4 wheels.", (18, 26), "car", p)
    False
    >>> _says_per("Each of his two hallways took four planks.", (30, 41), "hallway", p)
    True
    >>> _says_per("20 customers came, and each bought 15 marbles.", (0, 12), "marble", p, avoid=(35, 45))
    False
    >>> _says_per("He practiced 86 minutes on each of 2 days.", (13, 23), "day", p, avoid=(35, 41))
    True
    >>> _says_per("He practiced 86 minutes on each of 2 days.", (35, 41), "minute", p, avoid=(13, 23))
    False
    """
    start, end = span
    before = [m.end() for m in _SENTENCE_END.finditer(text, 0, start)]
    first = before[-1] if before else 0
    after = _SENTENCE_END.search(text, end)
    last = after.start() if after is not None else len(text)
    words = [(m.group().lower(), m.start()) for m in _WORD.finditer(text, first, last)]
    inside = [i for i, (_, at) in enumerate(words) if start <= at < end]
    if inside:
        a, b = inside[0], inside[-1] + 1
        lead = range(max(0, a - 3), a)
        if any(words[n][0] == "each" and words[n + 1][0] != "of" for n in lead):
            return True  # "each bought 15 marbles" (not "on each of 2 days": that counts the things)
        if b < len(words) and words[b][0] == "each":
            return True
    for i, (word, at) in enumerate(words):
        if not i or start <= at < end:
            continue
        reach = words[max(0, i - _REACH) : i]
        if avoid[0] <= at < avoid[1]:  # the thing's own quantity: "on each of 2 days", "for each of his 3 kids"
            near = any(w == "each" and nxt == "of" for (w, _), (nxt, _) in itertools.pairwise(reach))
        else:
            near = words[i - 1][0] in _DISTRIBUTIVE or any(w in _EACH for w, _ in reach[:-1])
        if near:
            hit = pack.lookup(word)
            if isinstance(hit, ResolvedUnit) and hit.lemma == lemma:
                return True
    return False


def _scratch_symbol(symbol: SymbolBinding, **changes: Any) -> SymbolBinding:
    """A copy of a symbol with some fields changed, validated as any other: the trial readings of
    :func:`reading_mass` (a mention read with another unit, a step checked without its stated unit)."""
    changed: SymbolBinding = replace(symbol, **changes)
    return changed


MAX_READINGS = 243
"""The most combinations of its operands' readings :func:`reading_mass` weighs for one step (3 readings of 5
operands); past it, the least probable readings are dropped first."""


class ReadingMass(NamedTuple):
    """How much of the reader's probability admits a refused step (ADR 0027).

    ``mass`` is P(admissible): the probability of the combinations of its operands' n-best readings under which
    the unit check admits the step, normalised over the combinations it can decide; ``best`` the most probable
    admitting combination in words (what departs from the chosen reading; None when none admits) and
    ``best_probability`` its normalised probability; ``readings`` how many combinations were weighed."""

    step: int
    mass: float
    best: str | None
    best_probability: float
    readings: int


def reading_mass(trace: Trace, *, pack: UnitPack | None = None, stated: float = 1.0) -> dict[int, ReadingMass]:
    """P(admissible) of each step refused as a root-cause ``unit_mismatch``, over the n-best readings the trace keeps.

    Each operand's readings are its sources (:attr:`Operand.readings`, else the chosen one) and, for a mention,
    its unit readings (:attr:`Mention.readings`, else its unit); a combination's probability is the product of
    its operands'.  The unchanged unit check (:meth:`~ssbg.admissibility.EquationStamper.admits`) is asked of
    every combination and picks none: binding's choice is :func:`bind_trace`'s.  A reading no check can decide
    (a bare number, a unit outside the pack, a refused earlier step) is left out of the normalisation.  Each step
    is weighed alone: earlier steps keep their admitted units.  ``stated`` is the probability that a step's stated
    unit (``>>24 clips``, a reading of the solution's words) is its result's; the other reading, weighed
    ``1 - stated``, checks the step without it (1: the stated unit as read).

    >>> t = Trace.from_dict({"problem_id": "p", "corpus": "example", "text": "a 3 kg bag and 4 apples",
    ...     "mentions": [{"start": 2, "end": 6, "text": "3 kg", "value": 3, "unit": "kg"},
    ...                  {"start": 15, "end": 23, "text": "4 apples", "value": 4, "unit": "apples",
    ...                   "readings": [["apples", 0.7], ["kg", 0.3]]}],
    ...     "steps": [{"op": "add", "operands": [{"mention": 0}, {"mention": 1}]}]})
    >>> from ssbg.units import load_pack
    >>> m = reading_mass(t, pack=load_pack("en_units_v1+en_counts_v1"))[0]
    >>> round(m.mass, 2), m.best
    (0.3, "'4 apples' read as 'kg'")
    """
    return BoundTrace(trace, pack=pack, stated=stated).reading_mass()


def answer_mass(
    trace: Trace, *, pack: UnitPack | None = None, asked: float = 1.0, stated: float = 1.0
) -> ReadingMass | None:
    """P(the answer has the unit asked) when the last step's chosen reading gives another (its target refused as
    ``expected_unit_mismatch``): the probability of the combinations of the last step's operand readings under which
    the unit check admits it with the asked unit (as :func:`reading_mass`); None when the target is not so refused.
    The asked unit is the question's reading (``answer_unit``, or the corpus's ``gold_answer_unit``): ``asked`` is
    the probability that it is the answer's; the other reading, weighed ``1 - asked``, lets any admitted unit
    answer (1: the asked unit as read); ``stated`` weighs the units earlier steps state, as in :func:`reading_mass`."""
    return BoundTrace(trace, pack=pack, stated=stated).answer_mass(asked)


def step_units(trace: Trace, *, pack: UnitPack | None = None) -> tuple[UnitVector | None, ...]:
    """The admitted unit of each step's result (None where the step is refused), as :func:`bind_trace` checks them.

    >>> t = Trace.from_dict({"problem_id": "p", "corpus": "example", "text": "3 hours and 20 minutes",
    ...     "mentions": [{"start": 0, "end": 7, "text": "3 hours", "value": 3, "unit": "hours"},
    ...                  {"start": 12, "end": 22, "text": "20 minutes", "value": 20, "unit": "minutes"}],
    ...     "steps": [{"op": "add", "operands": [{"mention": 0}, {"mention": 1}]}]})
    >>> [u.to_canonical_string() for u in step_units(t) if u is not None]
    ['time']
    """
    return BoundTrace(trace, pack=pack).step_units


class BoundTrace:
    """A trace bound once, and what the checker asks of that binding: the graph (:func:`bind_trace`'s), each
    step's admitted unit (:func:`step_units`), the reading masses (:func:`reading_mass`, :func:`answer_mass`).

    One binding answers all of them (ADR 0028): the masses' trials work on the binding's own scratch state
    after the graph was taken from it, and an earlier step's readings (the joint weighing) are weighed once
    for both masses.  ``stated`` is the stated-unit reliability both masses use.

    >>> t = Trace.from_dict({"problem_id": "p", "corpus": "example", "text": "3 hours and 20 minutes",
    ...     "mentions": [{"start": 0, "end": 7, "text": "3 hours", "value": 3, "unit": "hours"},
    ...                  {"start": 12, "end": 22, "text": "20 minutes", "value": 20, "unit": "minutes"}],
    ...     "steps": [{"op": "add", "operands": [{"mention": 0}, {"mention": 1}]}]})
    >>> b = BoundTrace(t)
    >>> b.graph == bind_trace(t), b.reading_mass(), b.answer_mass()
    (True, {}, None)
    """

    def __init__(self, trace: Trace, *, pack: UnitPack | None = None, stated: float = 1.0) -> None:
        self.pack = default_pack() if pack is None else pack
        self.trace = trace
        binder = _bind(trace, self.pack)
        binder.stated_reliability = stated
        admitted = binder.stamper.admitted
        self.step_units: tuple[UnitVector | None, ...] = tuple(
            admitted.get(_step_labels(i)[0]) for i in range(len(trace.steps))
        )
        self.graph: SemanticSymbolicBindingGraph = _graph(binder, self.pack)
        self._binder = binder
        self._masses: dict[int, ReadingMass] | None = None

    def reading_mass(self) -> dict[int, ReadingMass]:
        """:func:`reading_mass` of the trace (weighed on first need, then kept)."""
        if self._masses is None:
            binder, out = self._binder, {}
            by_lhs = {e.lhs_symbol_id: e for e in self.graph.equations}
            for i, step in enumerate(self.trace.steps):
                eq = by_lhs.get(_step_labels(i)[0])
                if eq is not None and eq.refusal_reason == "unit_mismatch" and eq.is_root_cause:
                    out[i] = binder.mass(i, step, binder.stated_reliability)
            self._masses = out
        return self._masses

    def answer_mass(self, asked: float = 1.0) -> ReadingMass | None:
        """:func:`answer_mass` of the trace, ``asked`` the probability that the asked unit is the answer's."""
        trace = self.trace
        target = self.graph.unknowns[0]
        expected = trace.gold_answer_unit if trace.gold_answer_unit is not None else trace.answer_unit
        hit = None if expected is None else self.pack.lookup(expected)
        if target.target_refusal_reason != "expected_unit_mismatch" or not isinstance(hit, ResolvedUnit):
            return None
        last = len(trace.steps) - 1
        return self._binder.mass(last, trace.steps[last], expected=hit.dimension, asked=asked)


def _bind(trace: Trace, pack: UnitPack) -> _TraceBinder:
    if not isinstance(trace, Trace):
        raise ProblemGraphError(f"bind_trace needs a Trace (got {type(trace).__name__})", reason="wrong_type", path="$")
    binder = _TraceBinder(trace, pack)
    binder.bind_mentions()
    for i, step in enumerate(trace.steps):
        binder.bind_step(i, step)
    return binder


def bind_trace(trace: Trace, *, pack: UnitPack | None = None) -> SemanticSymbolicBindingGraph:
    """Bind a trace: mention and constant facts, one checked equation per step, the question target.

    Symbols: ``q_<lemma>_<nnn>`` per mention (span into the text), ``c_<id>``
    per implicit constant used (span at its cue, else a virtual ``constants``
    source holding its description), ``step_<nnn>`` per step result (span: the
    step's formula), ``unknown_answer`` for the question.  Pure and
    deterministic; never raises on a well-formed trace (a dimension problem
    becomes a refused equation or a refused target).

    Raises
    ------
    ProblemGraphError
        When ``trace`` is not a :class:`Trace` (build one with :meth:`Trace.from_dict`).
    PackError
        ``pack_missing`` when ``pack`` is neither a :class:`~ssbg.units.UnitPack` nor None (a name is loaded
        with :func:`~ssbg.units.load_pack` first).
    """
    if pack is not None and not isinstance(pack, UnitPack):
        raise PackError(f"'pack' must be a UnitPack or None (got {type(pack).__name__}; load a pack by name with "
                        "ssbg.load_pack)", reason="pack_missing", path="pack", detail=shown(pack))
    p = default_pack() if pack is None else pack
    return _graph(_bind(trace, p), p)


def _graph(binder: _TraceBinder, pack: UnitPack) -> SemanticSymbolicBindingGraph:
    """The graph of a bound trace: its symbols, facts, equations and question target, as bound so far."""
    unknown = binder.unknown()
    trace = binder.trace
    return _prebuilt_graph(
        tuple(binder.symbols.values()),
        tuple(binder.facts),
        tuple(binder.equations),
        (unknown,),
        (),
        f"{INTRODUCED_BY} pack={pack.citation} corpus={trace.corpus} problem={trace.problem_id}",
    )
