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
dimensionless ``ratio`` symbol with no unit.  It binds exactly the readings it is
given (ADR-0134, ADR 0035); choosing another after a refusal is the reading side's
(:mod:`ssbg.reading.choosing`), which asks this binder and never the other way round.

The JSON codec (:mod:`ssbg.trace_json`) mirrors :class:`~ssbg.problem.MathProblemGraph`'s; malformed input
refuses with :class:`~ssbg.errors.ProblemGraphError` naming its JSON path.

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
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NamedTuple, Self

from ssbg.admissibility import _BindingStamper
from ssbg.allocation import slugify
from ssbg.constants import IMPLICIT_CONSTANTS, ImplicitConstant
from ssbg.errors import PackError, ProblemGraphError, shown
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
from ssbg.numbers import MAX_MAGNITUDE
from ssbg.question import question_form_for, reconcile_resolved
from ssbg.trace_json import (
    TraceDecoder,
    TraceTypes,
    check_index,
    check_number,
    check_probability,
    check_reference,
    check_span,
    check_text,
    fail,
    in_range,
    is_unicode,
    mention_dict,
    operand_dict,
    plain_operand,
    step_dict,
    trace_dict,
)
from ssbg.units import DIMENSIONLESS, ResolvedUnit, UnitPack, UnitVector, default_pack

__all__ = [
    "MENTION_KINDS",
    "MENTION_SOURCES",
    "OPERAND_SOURCES",
    "STEP_OPS",
    "Mention",
    "Operand",
    "SourceReading",
    "Step",
    "Trace",
    "TraceBinder",
    "UnitReadingChoice",
    "bind_trace",
    "clear_trace_cache",
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


@dataclass(frozen=True, slots=True)
class Mention:
    """A quantity written in the problem text (or the solution): ``text[start:end]``.

    ``unit`` is the unit as written (``"clips"``, ``"$"``, ``"$ per hour"``), ``lemma``
    its singular lemma (``"clip"``, ``"dollar"``, ``"dollar_per_hour"``); both
    ``None`` for a bare number.  ``kind`` is one of :data:`MENTION_KINDS`;
    ``source`` one of :data:`MENTION_SOURCES` (offsets index that string).
    ``alt_unit`` is a second reading of the unit that the words support as well
    (``$12.00`` for a combo: dollars, or dollars per combo).  ``readings`` are the
    reader's n-best unit readings with their probabilities, best first
    (:class:`UnitReadingChoice`; empty unless a caller asked for them, ADR 0027).
    :func:`bind_trace` binds ``unit`` and reads neither: the reading side weighs
    them (:mod:`ssbg.reading.choosing`, ADR 0018, ADR 0035).
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
            and is_unicode(self.text)
            and (type(value) is int or type(value) is float)
            and -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE
            and (unit is None or (type(unit) is str and unit and not unit.isspace() and is_unicode(unit)))
            and (lemma is None or (type(lemma) is str and lemma and not lemma.isspace() and is_unicode(lemma)))
            and type(self.kind) is str
            and self.kind in MENTION_KINDS
            and type(self.source) is str
            and self.source in MENTION_SOURCES
            and self.alt_unit is None
            and not self.readings
        ):
            return
        check_index(self.start, "start")
        check_index(self.end, "end")
        if self.end <= self.start:
            raise fail(
                "invalid_value",
                f"mention span must satisfy start < end (got [{shown(self.start)}, {shown(self.end)}))",
                "end",
            )
        if not isinstance(self.text, str) or len(self.text) != self.end - self.start:
            raise fail("invalid_value", "'text' must be the covered text (length end - start)", "text")
        check_text(self.text, "text")
        check_number(self.value, "value")
        check_text(self.unit, "unit", optional=True)
        check_text(self.lemma, "lemma", optional=True)
        if type(self.kind) is not str or self.kind not in MENTION_KINDS:
            raise fail("invalid_value", f"'kind' must be one of {sorted(MENTION_KINDS)} (got {shown(self.kind)})",
                        "kind")
        if type(self.source) is not str or self.source not in MENTION_SOURCES:
            raise fail(
                "invalid_value", f"'source' must be one of {list(MENTION_SOURCES)} (got {shown(self.source)})", "source"
            )
        check_text(self.alt_unit, "alt_unit", optional=True)
        if self.alt_unit is not None and self.alt_unit == self.unit:
            raise fail("invalid_value", "'alt_unit' must differ from 'unit'", "alt_unit")
        if not isinstance(self.readings, tuple):
            raise fail("wrong_type", "'readings' must be a tuple", "readings")
        for k, r in enumerate(self.readings):
            if not isinstance(r, UnitReadingChoice):
                raise fail("wrong_type", "must be a UnitReadingChoice", f"readings[{k}]")
            check_text(r.unit, f"readings[{k}].unit", optional=True)
            check_probability(r.probability, f"readings[{k}].probability")

    @property
    def is_pure(self) -> bool:
        """True for a multiplier or fraction with no unit: a dimensionless ratio."""
        return self.unit is None and self.kind != "quantity"

    to_dict = mention_dict


@dataclass(frozen=True, slots=True)
class Operand:
    """A step operand: exactly one of ``mention`` (index), ``step`` (an earlier step's
    index) or ``constant`` (an id of :data:`~ssbg.constants.IMPLICIT_CONSTANTS`).

    ``cue`` is the ``(start, end)`` of the words that imply a constant, when the
    text has them; ``text`` is the literal as the corpus formula wrote it and
    ``at`` its offset in the solution (or equation) it was read from.  ``why``
    says what evidence chose this reading; ``alternative`` is another reading the
    evidence supports as well (a tie, ADR 0018; the reading side weighs it): it has no alternative of its own.
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
        if plain_operand(self, SourceReading):
            return  # the common shapes (an index or a constant, a literal, its sources), checked in one pass
        chosen = (self.mention is not None) + (self.step is not None) + (self.constant is not None)
        if chosen != 1:
            raise fail("invalid_value", f"an operand points at exactly one of {list(OPERAND_SOURCES)}", "operand")
        if self.mention is not None:
            check_index(self.mention, "mention")
        elif self.step is not None:
            check_index(self.step, "step")
        elif type(self.constant) is not str or self.constant not in IMPLICIT_CONSTANTS:
            raise fail("invalid_value", f"'constant' {shown(self.constant)} is not an implicit constant", "constant")
        if self.cue is not None:
            if self.constant is None:
                raise fail("unexpected_field", "only a constant operand has a 'cue'", "cue")
            if not (isinstance(self.cue, tuple) and len(self.cue) == 2):
                raise fail("wrong_type", "'cue' must be a (start, end) pair", "cue")
            start, end = check_index(self.cue[0], "cue[0]"), check_index(self.cue[1], "cue[1]")
            if end <= start:
                raise fail("invalid_value", "'cue' must satisfy start < end", "cue")
        if self.text is not None:
            check_text(self.text, "text")
        if self.at is not None:
            check_index(self.at, "at")
        check_text(self.why, "why", optional=True)
        alt = self.alternative
        if alt is not None:
            if not isinstance(alt, Operand):
                raise fail("wrong_type", "'alternative' must be an Operand", "alternative")
            if alt.alternative is not None:
                raise fail("invalid_value", "an alternative has no alternative of its own", "alternative")
            if (alt.mention, alt.step, alt.constant) == (self.mention, self.step, self.constant):
                raise fail("invalid_value", "an alternative points elsewhere than its operand", "alternative")
        if not isinstance(self.readings, tuple):
            raise fail("wrong_type", "'readings' must be a tuple", "readings")
        for k, r in enumerate(self.readings):
            if not isinstance(r, SourceReading) or not isinstance(r.operand, Operand):
                raise fail("wrong_type", "must be a SourceReading of an Operand", f"readings[{k}]")
            if r.operand.alternative is not None or r.operand.readings:
                raise fail("invalid_value", "a reading has no alternative or readings of its own", f"readings[{k}]")
            check_probability(r.probability, f"readings[{k}].probability")

    @property
    def source(self) -> str:
        """Which of :data:`OPERAND_SOURCES` this operand points at."""
        return "mention" if self.mention is not None else "step" if self.step is not None else "constant"

    to_dict = operand_dict


@dataclass(frozen=True, slots=True)
class Step:
    """One arithmetic step: ``op`` over ``operands``.

    ``result`` is the value the corpus states, ``unit`` the result unit the text
    states (as written), ``formula`` the corpus text the step came from, and
    ``implicit`` marks a step the importer synthesized (a sub-expression of a
    longer formula, or a complement such as ``1 - 20%``).  ``at`` is the formula's
    offset in the solution.  ``per`` lists the units the context of the stated unit
    makes it a rate of (``$3 ... each``, a problem that counts hours a week): the
    reading side reads a stated unit that drops one of them as that rate (ADR 0018).
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
            and (result is None or ((type(result) is int or type(result) is float) and in_range(result)))
            and (unit is None or (type(unit) is str and unit and not unit.isspace() and is_unicode(unit)))
            and (formula is None or (type(formula) is str and formula and not formula.isspace()
                                     and is_unicode(formula)))
            and type(self.implicit) is bool
            and (self.at is None or (type(self.at) is int and self.at >= 0))
            and not self.per
        ):
            return
        if type(self.op) is not str or self.op not in STEP_OPS:
            raise fail("unknown_operation", f"'op' must be one of {sorted(STEP_OPS)} (got {shown(self.op)})", "op")
        if type(self.operands) is not tuple and not isinstance(self.operands, tuple):
            raise fail("wrong_type", "'operands' must be a tuple of Operand", "operands")
        for o in self.operands:  # a loop, not all(<generator>): this runs for every step imported
            if type(o) is not Operand and not isinstance(o, Operand):
                raise fail("wrong_type", "'operands' must be a tuple of Operand", "operands")
        low, high = (2, 2) if self.op == "divide" else (2, None)
        n = len(self.operands)
        if n < low or (high is not None and n > high):
            raise fail(
                "invalid_value", f"a {self.op} step takes {'2' if high else '2 or more'} operands (got {n})", "operands"
            )
        if self.result is not None:
            check_number(self.result, "result")
        check_text(self.unit, "unit", optional=True)
        check_text(self.formula, "formula", optional=True)
        if not isinstance(self.implicit, bool):
            raise fail("wrong_type", "'implicit' must be a bool", "implicit")
        if self.at is not None:
            check_index(self.at, "at")
        if not isinstance(self.per, tuple):
            raise fail("wrong_type", "'per' must be a tuple of unit texts", "per")
        for k, unit_text in enumerate(self.per):
            check_text(unit_text, f"per[{k}]")

    to_dict = step_dict


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
            and is_unicode(problem_id)
            and is_unicode(corpus)
            and is_unicode(text)
        ):
            check_text(self.problem_id, "$.problem_id")
            check_text(self.corpus, "$.corpus")
            check_text(self.text, "$.text")
        for name in ("mentions", "steps"):
            if not isinstance(getattr(self, name), tuple):
                raise fail("wrong_type", f"'{name}' must be a tuple", f"$.{name}")
        if not self.steps:
            raise fail("invalid_value", "a trace needs at least one step", "$.steps")
        size = len(self.text)
        if self.solution is not None:  # optional fields are checked only when present (a call saved per None)
            check_text(self.solution, "$.solution")
        previous_end = {"text": 0, "solution": 0}
        # Paths are formatted only when a check fails (these loops run for every imported problem).
        for i, m in enumerate(self.mentions):
            if not isinstance(m, Mention):
                raise fail("wrong_type", "must be a Mention", f"$.mentions[{i}]")
            source = self.text if m.source == "text" else self.solution
            if source is None:
                raise fail("missing_field", "a solution mention needs the trace's solution", f"$.mentions[{i}].source")
            if m.end > len(source) or source[m.start : m.end] != m.text:
                raise fail(
                    "invalid_value",
                    f"mention text {shown(m.text)} is not {m.source}[{shown(m.start)}:{shown(m.end)}]",
                    f"$.mentions[{i}].text",
                )
            if m.start < previous_end[m.source]:
                raise fail(
                    "invalid_value", "mentions must be sorted by offset and must not overlap", f"$.mentions[{i}].start"
                )
            previous_end[m.source] = m.end
        count = len(self.mentions)
        for i, step in enumerate(self.steps):
            if not isinstance(step, Step):
                raise fail("wrong_type", "must be a Step", f"$.steps[{i}]")
            for j, o in enumerate(step.operands):
                if (
                    (o.mention is not None and o.mention >= count)
                    or (o.step is not None and o.step >= i)
                    or (o.cue is not None and o.cue[1] > size)
                    or o.alternative is not None
                    or o.readings
                ):  # the rare operand that fails, or carries an alternative: checked (and named) apart
                    check_reference(o, i, j, count, size)
                    if o.alternative is not None:
                        check_reference(o.alternative, i, j, count, size)
                    for r in o.readings:
                        check_reference(r.operand, i, j, count, size)
        if self.question_span is not None:
            check_span(self.question_span, size, "$.question_span")
        if self.answer_unit is not None:
            check_text(self.answer_unit, "$.answer_unit")
        if self.gold_answer_unit is not None:
            check_text(self.gold_answer_unit, "$.gold_answer_unit")
        if self.answer is not None:
            check_number(self.answer, "$.answer")

    @property
    def question(self) -> str | None:
        """The question's text, where its span is known."""
        return None if self.question_span is None else self.text[self.question_span[0] : self.question_span[1]]

    # ------------------------------------------------------------------ JSON

    to_dict = trace_dict

    def to_json(self) -> str:
        """Canonical JSON: sorted keys, compact separators, UTF-8 text kept."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes, *, path: str = "$") -> Trace:
        """Parse JSON text; malformed JSON refuses with reason ``malformed_json``."""
        return cls.from_dict(TraceDecoder.loads(text, path), path=path)

    @classmethod
    def from_dict(cls, data: object, *, path: str = "$") -> Trace:
        """Build from plain JSON data; every failure names its JSON path under ``path``."""
        trace: Trace = TraceDecoder(path, _TYPES).trace(data)
        return trace


_TYPES = TraceTypes(Trace, Mention, Operand, Step, UnitReadingChoice, SourceReading)


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


class TraceBinder:
    """The scratch state of binding one trace (never escapes it): :meth:`bound` binds every mention, then every
    step in order, and :meth:`graph` is what it bound.

    It binds exactly the readings of the trace it is handed (ADR-0134, ADR 0035): each operand as its mention,
    step or constant, each unit as written, each step stamped once.  :meth:`mismatch` is its one hook, where
    the reading side (:class:`ssbg.reading.choosing.ChoosingBinder`) reconsiders a refused step; here a refusal
    stays.  Its values are built from fields it has read from the validated trace, or made itself, without
    validating them again (ADR 0013's amendment; ``tests/test_unchecked_binding.py`` rebuilds every graph through
    the validating constructors and finds it equal).
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

    @classmethod
    def bound(cls, trace: Trace, pack: UnitPack | None = None) -> Self:
        """A binder of this class that has bound ``trace`` over ``pack`` (None: the default pack): every mention,
        then every step in order.

        Raises
        ------
        ProblemGraphError
            When ``trace`` is not a :class:`Trace`.
        PackError
            ``pack_missing`` when ``pack`` is neither a :class:`~ssbg.units.UnitPack` nor None.
        """
        if not isinstance(trace, Trace):
            raise ProblemGraphError(f"bind_trace needs a Trace (got {type(trace).__name__})", reason="wrong_type",
                                    path="$")
        if pack is not None and not isinstance(pack, UnitPack):
            raise PackError(f"'pack' must be a UnitPack or None (got {type(pack).__name__}; load a pack by name "
                            "with ssbg.load_pack)", reason="pack_missing", path="pack", detail=shown(pack))
        binder = cls(trace, default_pack() if pack is None else pack)
        binder.bind_mentions()
        for i, step in enumerate(trace.steps):
            binder.bind_step(i, step)
        return binder

    def graph(self) -> SemanticSymbolicBindingGraph:
        """The graph of the bound trace: its symbols, facts, equations and question target, as bound so far."""
        unknown = self.unknown()
        trace = self.trace
        return _prebuilt_graph(
            tuple(self.symbols.values()),
            tuple(self.facts),
            tuple(self.equations),
            (unknown,),
            (),
            f"{INTRODUCED_BY} pack={self.pack.citation} corpus={trace.corpus} problem={trace.problem_id}",
        )

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
            equation = self.mismatch(step, equation, operands)
        self.equations.append(equation)
        admitted = stamper.admitted.get(sid)
        unit = None
        if admitted is not None:
            unit = _from_vector(admitted)
            if unit.is_rate and unit.numerator != DIMENSIONLESS:
                symbols[sid] = _prebuilt_replace(symbols[sid], semantic_role="rate")
        value = step.result
        steps.append(_new_bound(_Bound, (sid, unit, False, None if value is None else float(value))))

    def mismatch(self, step: Step, refused: BoundEquation, operands: list[_Bound]) -> BoundEquation:
        """What a step refused as ``unit_mismatch`` binds as: here, that refusal (ADR-0134: no coercion, no second
        reading).  The one hook of the binder, for the reading side (:class:`ssbg.reading.choosing.ChoosingBinder`
        reconsiders the step under the other readings its words support); the core never overrides it."""
        return refused

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


def bind_trace(trace: Trace, *, pack: UnitPack | None = None) -> SemanticSymbolicBindingGraph:
    """Bind a trace exactly as read: mention and constant facts, one checked equation per step, the question target.

    Symbols: ``q_<lemma>_<nnn>`` per mention (span into the text), ``c_<id>``
    per implicit constant used (span at its cue, else a virtual ``constants``
    source holding its description), ``step_<nnn>`` per step result (span: the
    step's formula), ``unknown_answer`` for the question.  Pure and
    deterministic; never raises on a well-formed trace (a dimension problem
    becomes a refused equation or a refused target).  No other reading is tried
    (ADR-0134, ADR 0035): a refused step stays refused with the units it was
    given; :func:`ssbg.reading.choosing.bind_choosing` reconsiders it.

    Raises
    ------
    ProblemGraphError
        When ``trace`` is not a :class:`Trace` (build one with :meth:`Trace.from_dict`).
    PackError
        ``pack_missing`` when ``pack`` is neither a :class:`~ssbg.units.UnitPack` nor None (a name is loaded
        with :func:`~ssbg.units.load_pack` first).
    """
    return TraceBinder.bound(trace, pack).graph()
