"""Check one solution: a verdict that tells error evidence from coverage gaps (SPEC section 13).

:func:`check_solution` reads a (model-written) solution to a question
(:func:`~ssbg.reading.readers.solutions.read_solution`), binds it
(:func:`~ssbg.trace.bind_trace`: every step checked by dimensional analysis, refusals
propagated), and sorts what it finds into two closed families:

- **error evidence** (:data:`ERROR_FINDINGS`): ``unit_mismatch`` (a step whose units do
  not combine), ``expected_unit_mismatch`` (the answer's unit is not the one the question
  asks), ``ungrounded_number`` (a number neither the question, an earlier step nor a cued
  constant states), ``arithmetic_error`` (a stated result its own operation does not give),
  ``conversion_error`` (a stated result its numbers give without a conversion its units need: ``10 gallons per
  minute * 2 hours = 20 gallons``, ADR 0030);
- **coverage** (:data:`COVERAGE_FINDINGS`): what ssbg could not read or check (a unit
  outside the pack, a number read without a unit, ambiguous grounding, an unsupported
  operation, a line it did not read, ...).

The verdict is ``error`` when there is error evidence, else ``unverifiable`` when there is
a coverage gap, else ``sound`` (every step admitted, the answer's unit checked).  Coverage
alone never makes a verdict ``error``.  A refusal that propagates from an earlier one
(ADR 0009) is no finding of its own: each root cause is counted once, at its step.

The count-noun kind check (:mod:`ssbg.kinds`, ADR 0017: ``count_kind_mismatch``, a per-thing
rate applied to a count of another thing or a question answered by a count of another;
``mixed_kinds``, a sum of different kinds) gives **notes** (:data:`NOTE_FINDINGS`,
:attr:`Verdict.notes`), which never change the status: on the dev model solutions its
findings flag 33 wrong and 19 correct solutions (precision 63.5%, the base rate), so it is not
error evidence (ADR 0017 has the figures, with the reference too).

**Robust refusal** (ADR 0027).  A finding that depends on a reading (:data:`ROBUST_FINDINGS`: a
unit mismatch, an ungrounded number, an answer-unit mismatch) is error evidence only when the
readings the reader finds plausible and that would undo it hold less than ``min_evidence`` (ε,
:data:`DEFAULT_MIN_EVIDENCE`) of the probability: the n-best unit readings of the mentions and
sources of the operands (:func:`~ssbg.reading.choosing.reading_mass`), the stated and the asked unit
(weighed with :data:`STATED_UNIT_RELIABILITY`, :data:`ASKED_UNIT_RELIABILITY`), the quantities a
question states without writing them (:mod:`ssbg.reading.implicit`).  Otherwise it is
``ambiguous_grounding`` (could not tell, coverage), its detail naming the most probable such
reading and its probability; ``Finding.support`` keeps the probability, so
:meth:`Verdict.status_at` gives the verdict at any other ε.

With a ``reference`` solution (the gold one, say), a finding the reference shares (the same
reason at the same question span, or without one the same detail; the same computation at
the step; an ungrounded number the reference uses or writes) is marked ``in_reference`` and
counts as ssbg's reading limit: coverage, not evidence.  A unit mismatch only in the count of
things (``Finding.could_not_tell``: a per-thing reading the reader gives no probability) is
coverage too (:func:`check_solution` says when; ADR 0019 has why it remains).

Examples
--------
>>> q = "Weng earns $12 an hour for babysitting. Yesterday she babysat for 5 hours. How much did she earn?"
>>> v = check_solution(q, "She earned 12 * 6 = $<<12*6=72>>72.\\nA: 72")
>>> v.status, [(f.reason, f.step, f.line, f.detail) for f in v.findings]
('error', [('ungrounded_number', 0, 1, '6')])
>>> check_solution(q, "She earned 12 * 5 = $<<12*5=60>>60.\\nA: 60").status
'sound'
>>> v = check_solution(q, "She earned 12 + 5 = $<<12+5=17>>17.\\nA: 17")
>>> v.status, [(f.reason, f.step, f.question_spans) for f in v.findings]
('error', [('unit_mismatch', 0, ((11, 22), (66, 73)))])
"""

from __future__ import annotations

import bisect
import dataclasses
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from ssbg.checking.conversions import conversion_slips
from ssbg.constants import IMPLICIT_CONSTANTS
from ssbg.errors import ProblemGraphError
from ssbg.model import BoundEquation, SemanticSymbolicBindingGraph, SymbolBinding
from ssbg.reading.choosing import BoundTrace, ReadingMass
from ssbg.reading.implicit import implicit_readings, unsaid_step
from ssbg.reading.learned.model import keeping_readings
from ssbg.reading.readers.solutions import SolutionReading, gives, read_solution, written_number, written_numbers
from ssbg.reading.textview import text_spans
from ssbg.reading.weighing import ASKED_UNIT_RELIABILITY, DEFAULT_MIN_EVIDENCE, STATED_UNIT_RELIABILITY, is_evidence
from ssbg.trace import Operand, Trace
from ssbg.units import UnitPack, UnitVector, corpus_pack, load_pack

__all__ = [
    "ASKED_UNIT_RELIABILITY",
    "COVERAGE_FINDINGS",
    "DEFAULT_MIN_EVIDENCE",
    "ERROR_FINDINGS",
    "FINDING_FAMILIES",
    "FINDING_REASONS",
    "NOTE_FINDINGS",
    "ROBUST_FINDINGS",
    "STATED_UNIT_RELIABILITY",
    "STEP_STATUSES",
    "VERDICT_STATUSES",
    "CheckedStep",
    "Finding",
    "Reference",
    "Verdict",
    "check_solution",
    "read_reference",
    "reference_findings",
]

VERDICT_STATUSES: tuple[str, ...] = ("sound", "error", "unverifiable")
"""``sound``: every step admitted and the answer's unit checked; ``error``: error evidence;
``unverifiable``: no error evidence, but something ssbg could not read or check."""

FINDING_FAMILIES: tuple[str, ...] = ("error", "coverage", "note")

ERROR_FINDINGS: frozenset[str] = frozenset(
    {
        "unit_mismatch",  # a step's units do not combine (a sum of dollars and eggs)
        "expected_unit_mismatch",  # the answer's unit has another dimension than the question asks
        "ungrounded_number",  # a number neither the question, an earlier step nor a cued constant states
        "arithmetic_error",  # a stated result its own operation does not give
        "conversion_error",  # a stated result its numbers give without a conversion its units need (ADR 0030)
    }
)
"""Error evidence: a finding of one of these makes the verdict ``error`` (unless it recurs in the reference)."""

COVERAGE_FINDINGS: frozenset[str] = frozenset(
    {
        "unknown_unit",  # a unit outside the pack (a noun the corpus pack does not list, with the default pack)
        "unit_unbound",  # a number ssbg read without a unit
        "ambiguous_grounding",  # a number the words do not bind to one mention (the grounding issue's refusal)
        "unsupported_operation",  # algebra beyond one unknown, remainders, powers; a step no rule fits
        "unparseable_formula",  # a formula ssbg cannot parse
        "unread_line",  # a line with arithmetic that no step read
        "no_equation",  # no arithmetic step at all
        "empty_text",  # an empty question or solution
        "record_too_large",  # a text beyond a cap of ssbg.limits (refused unread), or more formulas than it reads
        "number_out_of_range",  # a number of the question too long or too large to read (ssbg.numbers)
        "unknown_expected_unit",  # the question's unit is outside the pack
        "unbound_target",  # ssbg cannot tell which step answers the question
    }
)
"""Coverage: what ssbg could not read or check; alone, it makes a verdict ``unverifiable``, never ``error``."""

FINDING_REASONS: frozenset[str] = ERROR_FINDINGS | COVERAGE_FINDINGS

ROBUST_FINDINGS: frozenset[str] = frozenset(
    {"unit_mismatch", "ungrounded_number", "expected_unit_mismatch", "conversion_error"}
)
"""The error findings that depend on a reading: evidence only when the readings that would not make them hold less
than ``min_evidence`` of the probability (:func:`check_solution`, ADR 0027); ``arithmetic_error`` reads no unit."""

NOTE_FINDINGS: frozenset[str] = frozenset({"count_kind_mismatch", "mixed_kinds"})
"""The kind check's findings (:data:`ssbg.kinds.KIND_FINDINGS`), kept as notes (:attr:`Verdict.notes`): they never
change a verdict (ADR 0017: their precision on labelled solutions is the base rate without a reference)."""

STEP_STATUSES: tuple[str, ...] = ("admitted", "error", "coverage", "propagated", "unread")
"""What became of each formula of the solution: admitted; the step of an error or coverage finding;
refused only because an earlier step was (propagated); not read into a step."""

# Where each reason of the core and the reader lands (None: no finding of its own).  An equation's refusal
# reason is of one of two families (ssbg.errors.REFUSAL_FAMILIES, ADR 0024): ADR-0134's seven, of dimensional
# analysis, and a reading's outcomes (GROUNDING_REASONS), which land in coverage only, never in error evidence.
_FROM_ADMISSIBILITY: Mapping[str, str | None] = {
    "unit_mismatch": "unit_mismatch",
    "unknown_unit": "unknown_unit",
    "unit_unbound": "unit_unbound",  # a root cause; a propagated one is no finding
    "unknown_symbol": "unsupported_operation",
    "unknown_operation": "unsupported_operation",
    "operand_arity": "unsupported_operation",
    "rate_form_invalid": "unsupported_operation",
}
_FROM_GROUNDING: Mapping[str, str | None] = {
    "ambiguous_grounding": "ambiguous_grounding",  # ssbg could not tell which reading the text means
}
_FROM_EQUATION: Mapping[str, str | None] = {**_FROM_ADMISSIBILITY, **_FROM_GROUNDING}
_FROM_TARGET: Mapping[str, str | None] = {
    "expected_unit_mismatch": "expected_unit_mismatch",
    "ambiguous_target": "unbound_target",
    "unbound_target": "unbound_target",
    "unknown_expected_unit": "unknown_expected_unit",
    "unresolved_upstream": None,  # the step that answers was refused: its root cause is the finding
    "ambiguous_grounding": "ambiguous_grounding",
}
# The reader's notes (READING_NOTES) are findings of the same name: a test checks they are all in FINDING_REASONS.


def _fail(message: str, path: str) -> ProblemGraphError:
    return ProblemGraphError(message, reason="invalid_value", path=path)


def _check_min_evidence(value: object) -> None:
    if not (type(value) is float or type(value) is int) or not 0.0 < value <= 1.0:
        raise _fail(f"'min_evidence' must be a probability in (0, 1] (got {value!r})", "min_evidence")


def _span(value: object, path: str) -> None:
    if not (
        isinstance(value, tuple)
        and len(value) == 2
        and all(type(v) is int for v in value)
        and 0 <= value[0] <= value[1]
    ):
        raise _fail(f"'{path}' must be a (start, end) pair of ints with 0 <= start <= end (got {value!r})", path)


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing the checker found, at a step of the solution.

    ``reason`` is one of :data:`FINDING_REASONS`; ``step`` the index of the solution's formula
    (from 0, in the order written, as the tables' ``first_error_step``; :meth:`Verdict.explain` says it
    from 1, as a person counts: its ``step 1`` is step 0; None for a whole-solution finding), ``line`` its 1-based
    line, ``span`` its characters in the solution; ``user_step`` the index (from 0, as ProcessBench
    counts) of the user's step it is in: the item of a solution given as a list of steps, else the
    paragraph of the text (paragraphs split on blank lines; a text without one is step 0), None for a
    whole-solution finding (ADR 0031); ``question_spans`` the spans of the question
    it concerns (the mentions its operands stand for, the question sentence for an answer
    unit); ``detail`` what was found (the units, the number, the arithmetic);
    ``in_reference`` that the reference solution has the same finding (a reading limit);
    ``could_not_tell`` why ssbg cannot tell an error finding from its own reading (empty when
    it can): such a finding is coverage, not evidence (:func:`check_solution` says when).
    ``support`` is the probability that a plausible reading undoes a reading-dependent finding
    (:data:`ROBUST_FINDINGS`; None for the others), and ``would_be`` what an ``ambiguous_grounding``
    finding was found as when that probability reached ``min_evidence`` (ADR 0027).
    """

    reason: str
    step: int | None = None
    line: int | None = None
    span: tuple[int, int] | None = None
    question_spans: tuple[tuple[int, int], ...] = ()
    detail: str = ""
    in_reference: bool = False
    could_not_tell: str = ""
    support: float | None = None
    would_be: str = ""
    user_step: int | None = None

    def __post_init__(self) -> None:
        if self.reason not in FINDING_REASONS and self.reason not in NOTE_FINDINGS:
            known = sorted(FINDING_REASONS | NOTE_FINDINGS)
            raise _fail(f"'reason' must be one of {known} (got {self.reason!r})", "reason")
        for name in ("step", "line", "user_step"):
            value = getattr(self, name)
            if value is not None and (type(value) is not int or value < 0):
                raise _fail(f"'{name}' must be an int >= 0 or None (got {value!r})", name)
        if self.span is not None:
            _span(self.span, "span")
        if not isinstance(self.question_spans, tuple):
            raise _fail("'question_spans' must be a tuple of (start, end) pairs", "question_spans")
        for k, s in enumerate(self.question_spans):
            _span(s, f"question_spans[{k}]")
        if type(self.detail) is not str or type(self.in_reference) is not bool or type(self.could_not_tell) is not str:
            raise _fail("'detail' and 'could_not_tell' must be str and 'in_reference' a bool", "detail")
        if self.support is not None and not (type(self.support) is float and 0.0 <= self.support <= 1.0):
            raise _fail(f"'support' must be a probability in [0, 1] or None (got {self.support!r})", "support")
        if self.would_be and (self.would_be not in ROBUST_FINDINGS or self.reason != "ambiguous_grounding"):
            raise _fail(f"'would_be' must be one of {sorted(ROBUST_FINDINGS)} on an ambiguous_grounding finding "
                        f"(got {self.would_be!r} on {self.reason!r})", "would_be")

    @property
    def family(self) -> str:
        """``error`` for error evidence, ``coverage`` for a reading limit (also error evidence the reference shares
        or ssbg cannot tell from its own reading), ``note`` for the kind check's notes."""
        if self.reason in NOTE_FINDINGS:
            return "note"
        evidence = self.reason in ERROR_FINDINGS and not self.in_reference and not self.could_not_tell
        return "error" if evidence else "coverage"

    def evidence_below(self) -> float | None:
        """The ``min_evidence`` above which this finding is error evidence: its ``support`` (0 for a finding no
        reading could admit, as ``arithmetic_error``), or None when it is evidence under no ε (coverage, a note, or
        shared with the reference).  A verdict at ε is ``error`` iff a finding has ``evidence_below() < ε``."""
        if self.in_reference or self.could_not_tell:
            return None
        if self.reason in ERROR_FINDINGS or self.would_be:
            return self.support if self.support is not None else 0.0
        return None

    def key(self) -> tuple[str, frozenset[tuple[int, int]], str]:
        """What makes two findings (of a solution and of its reference) the same: the reason, the question spans, and
        without question spans the detail."""
        reason = self.would_be or self.reason  # a finding ssbg could not tell is matched as what it was found as
        detail = self.detail.partition("; P(")[0] if self.would_be else self.detail
        return reason, frozenset(self.question_spans), "" if self.question_spans else detail

    def to_dict(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "family": self.family,
            "step": self.step,
            "line": self.line,
            "user_step": self.user_step,
            "span": None if self.span is None else list(self.span),
            "question_spans": [list(s) for s in self.question_spans],
            "detail": self.detail,
            "in_reference": self.in_reference,
            "could_not_tell": self.could_not_tell or None,
            "support": self.support,
            "would_be": self.would_be or None,
        }


@dataclass(frozen=True, slots=True)
class CheckedStep:
    """A formula of the solution and what became of it (:data:`STEP_STATUSES`); ``user_step`` the user's step it is
    in (from 0: the list item, else the paragraph; :attr:`Finding.user_step`)."""

    index: int
    line: int
    start: int
    end: int
    formula: str
    status: str
    unit_proof: str | None = None  # the admitted step's proof (its last equation), where admitted
    user_step: int | None = None


def _unit_words(unit: str | None) -> str:
    return "a bare number" if unit is None else unit


def _source_words(trace: Trace, o: Operand, formulas: Sequence[int | None]) -> str:
    """What an operand reading stands for, in words: the quantity as written, an earlier formula's result (counted
    from 1, as :meth:`Verdict.explain` counts), a constant."""
    if o.mention is not None:
        mention = trace.mentions[o.mention]
        return repr(mention.text) if mention.source == "text" else "nothing the question writes"
    if o.step is not None:
        formula = formulas[o.step]
        return "an earlier result" if formula is None else f"the result of step {formula + 1}"
    return f"the constant {o.constant}"


_EXPLAIN = {
    "unit_mismatch": "its units do not combine",
    "expected_unit_mismatch": "the answer's unit is not the one the question asks for",
    "ungrounded_number": "it uses a number that neither the question, an earlier step nor a known constant states",
    "arithmetic_error": "its stated result is not what its operation gives",
    "conversion_error": "its stated result is what its numbers give without a unit conversion they need (or with it "
    "inverted), not what they give with it",
    "unknown_unit": "it uses a unit ssbg's pack does not know",
    "unit_unbound": "ssbg read one of its numbers without a unit",
    "ambiguous_grounding": "ssbg cannot tell which number of the question it uses",
    "unsupported_operation": "it is an operation ssbg does not check",
    "unparseable_formula": "ssbg cannot parse its formula",
    "unread_line": "the line has arithmetic, or states a number a later step uses, that ssbg did not read as a step",
    "no_equation": "ssbg read no arithmetic step in the solution",
    "empty_text": "the question or the solution is empty",
    "record_too_large": "the question or the solution is larger than ssbg reads (ssbg.limits), or has more "
    "formulas than it reads",
    "number_out_of_range": "the question has a number too long or too large for ssbg to read",
    "unknown_expected_unit": "the question asks for a unit ssbg's pack does not know",
    "unbound_target": "ssbg cannot tell which step answers the question",
    "count_kind_mismatch": "it applies a rate per one thing to a count of another (or answers how many of one "
    "thing with a count of another)",
    "mixed_kinds": "it adds or subtracts counts of different things",
}


@dataclass(frozen=True)
class Verdict:
    """The verdict on one solution: its status, the findings (each at its step), and the steps.

    ``status`` is one of :data:`VERDICT_STATUSES`.  ``solution`` is the solution as shown (a
    list of steps joined by newlines); spans index it.  ``pack`` names the pack it was checked with
    (:attr:`~ssbg.units.UnitPack.citation`: each part's name, version and checksum prefix).
    ``trace`` and ``graph`` are what was checked (None when no step was read), for views.
    ``min_evidence`` is the ε it was judged at (:func:`check_solution`); :meth:`status_at` gives
    the status at another ε from the same findings.  ``user_steps`` are the spans of the steps the user
    gave (the items of a list, else the paragraphs of the text split on blank lines): a finding's
    ``user_step`` indexes them from 0, and :meth:`explain` names it when there is more than one.
    """

    status: str
    question: str
    solution: str
    findings: tuple[Finding, ...]
    steps: tuple[CheckedStep, ...]
    answer: float | None = None
    pack: str = ""
    reference_checked: bool = False
    trace: Trace | None = field(default=None, repr=False, compare=False)
    graph: SemanticSymbolicBindingGraph | None = field(default=None, repr=False, compare=False)
    notes: tuple[Finding, ...] = ()  # the kind check's notes (NOTE_FINDINGS): never change the status
    min_evidence: float = DEFAULT_MIN_EVIDENCE
    user_steps: tuple[tuple[int, int], ...] = ()  # the user's steps' spans in ``solution`` (Finding.user_step)
    # the formula (CheckedStep.index) each step of ``trace`` belongs to, None where none: how readings() places them
    step_formulas: tuple[int | None, ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_min_evidence(self.min_evidence)
        for k, span in enumerate(self.user_steps):
            _span(span, f"user_steps[{k}]")
        for f in self.findings:
            below = f.evidence_below()
            if f.family == "error" and below is not None and below >= self.min_evidence:
                raise _fail(f"a {f.reason!r} finding with support {below} is not evidence at min_evidence "
                            f"{self.min_evidence}", "findings")
        if any(f.family == "note" for f in self.findings) or any(f.family != "note" for f in self.notes):
            raise _fail("the kind check's notes go in 'notes', and only they", "notes")
        if self.status not in VERDICT_STATUSES:
            raise _fail(f"'status' must be one of {list(VERDICT_STATUSES)} (got {self.status!r})", "status")
        errors = any(f.family == "error" for f in self.findings)
        expected = "error" if errors else "unverifiable" if self.findings else "sound"
        if self.status != expected:
            raise _fail(f"'status' must be {expected!r} for these findings (got {self.status!r})", "status")

    @property
    def evidence_below(self) -> float | None:
        """The ε above which this verdict is ``error``: the least :meth:`Finding.evidence_below` of its findings
        (None: ``error`` at no ε)."""
        found = [b for b in (f.evidence_below() for f in self.findings) if b is not None]
        return min(found) if found else None

    def status_at(self, min_evidence: float) -> str:
        """The status this verdict's findings give at another ε (what a sweep of ε reads, without checking again).

        >>> v = check_solution("Ann has 3 bags of 4 kg. How many kg?", "3 + 4 = <<3+4=7>>7 kg")
        >>> v.status, v.status_at(0.01), [(f.reason, f.would_be, f.support) for f in v.findings]
        ('unverifiable', 'error', [('ambiguous_grounding', 'unit_mismatch', 0.001793)])
        """
        _check_min_evidence(min_evidence)
        below = self.evidence_below
        if below is not None and below < min_evidence:
            return "error"
        return "unverifiable" if self.findings else "sound"

    @property
    def errors(self) -> tuple[Finding, ...]:
        """The findings that are error evidence."""
        return tuple(f for f in self.findings if f.family == "error")

    @property
    def coverage(self) -> tuple[Finding, ...]:
        """The findings that are coverage gaps (reading limits shared with the reference among them)."""
        return tuple(f for f in self.findings if f.family == "coverage")

    @property
    def first_error(self) -> Finding | None:
        """The error finding written first in the solution (by line, then step); its ``user_step`` is the user's step
        it is in, from 0 (the list item, else the paragraph: how step-labelled benchmarks count)."""
        located = sorted(self.errors, key=lambda f: (f.line if f.line is not None else 1 << 30, f.step or 0))
        return located[0] if located else None

    def explain(self, readings: bool = False) -> str:
        """The verdict in prose: what was found, at which step, and why it is evidence or a reading limit.
        One step numbering, said here once: this text counts steps from 1, as a person reads them (``step 1``
        is the first formula); ``Finding.step``, ``CheckedStep.index`` and the tables' ``first_error_step``
        count the same steps from 0 (``step 1`` here is ``first_error_step`` 0); lines count from 1 everywhere.

        A step is the reader's formula, counted from 1 ("step 2"); when the user gave more than one step (a list,
        or paragraphs split on blank lines) it also names the user's step, counted from 0 as step-labelled
        benchmarks count ("step 3, in the user's step 1 counted from 0,", :attr:`Finding.user_step`).

        With ``readings``, it ends with every reading the reader handed over (:meth:`readings`): each question
        quantity's and each literal's, best first, ``*`` before the one bound.

        >>> print(check_solution("Ann has 3 bags of 4 kg. How many kg?", "3 * 4 = <<3*4=12>>12 kg").explain())
        sound: every step of the solution is admitted by dimensional analysis and the answer has the unit asked for.
        >>> q = "Weng earns $12 an hour for babysitting. Yesterday she babysat for 5 hours. How much did she earn?"
        >>> print(check_solution(q, "She earned 12 * 5 = $<<12*5=60>>60.").explain(readings=True))
        sound: every step of the solution is admitted by dimensional analysis and the answer has the unit asked for.
        readings handed over (best first; * the one bound):
        - '$12 an hour': * $ per hour 0.997 | $ 0.00333 | hour 1.5e-05
        - '5 hours': * hours 1 | a bare number 0.00013 | $ 6.1e-05
        - step 1, 12: * '$12 an hour' 1
        - step 1, 5: * '5 hours' 1
        """
        if self.status == "sound":
            lines = ["sound: every step of the solution is admitted by dimensional analysis and the answer has the "
                     "unit asked for.", *("- note: " + self._sentence(f) for f in self.notes)]
        else:
            head = {
                "error": "error: the solution has error evidence",
                "unverifiable": "unverifiable: no error evidence, but ssbg could not check everything",
            }[self.status]
            lines = [f"{head} ({len(self.errors)} error finding(s), {len(self.coverage)} coverage gap(s))."]
            lines.extend("- " + self._sentence(f) for f in self._ordered())
            lines.extend("- note: " + self._sentence(f) for f in self.notes)
        if readings:
            lines.extend(self._readings_lines())
        return "\n".join(lines)

    def _readings_lines(self) -> list[str]:
        rows = self.readings()
        if not rows:
            return ["readings handed over: none (no step was read)."]
        things: dict[int, tuple[str, list[str]]] = {}
        for r in rows:
            what, text, step = r["what"], r["text"], r["step"]
            where = repr(text) if what == "quantity" else f"step {step + 1}, {text}" if step is not None else text
            said = things.setdefault(r["thing"], (where, []))[1]
            said.append(f"{'* ' if r['bound'] else ''}{r['reading']} {r['probability']:.3g}")
        return ["readings handed over (best first; * the one bound):",
                *(f"- {where}: " + " | ".join(said) for where, said in things.values())]

    def readings(self) -> list[dict[str, Any]]:
        """Every reading the reader handed over for this solution (ADR 0035), as plain rows, best first within each
        thing: each question quantity's n-best units and each solution literal's n-best sources, with their
        probabilities and whether it is the reading bound.  A row's keys: ``thing`` (numbers the things from 0; a
        literal written twice is two things), ``what`` (``quantity`` or ``literal``), ``text`` (as written), ``step``
        (the formula a literal is in, from 0 as :attr:`Finding.step`; None for a quantity), ``reading`` (a unit as
        written, or what the literal stands for: ``'$12 an hour'``, ``the result of step 1``, a constant, "nothing
        the question writes"), ``probability``, ``bound``.  A thing read one way only has one row, probability 1.
        ``pandas.DataFrame(verdict.readings())`` is the table.

        >>> q = "Weng earns $12 an hour for babysitting. Yesterday she babysat for 5 hours. How much did she earn?"
        >>> v = check_solution(q, "She earned 12 * 5 = $<<12*5=60>>60.")
        >>> [(r["thing"], r["text"], r["reading"], r["probability"], r["bound"]) for r in v.readings()][:2]
        [(0, '$12 an hour', '$ per hour', 0.996645, True), (0, '$12 an hour', '$', 0.003334, False)]
        """
        trace = self.trace
        if trace is None:
            return []
        rows: list[dict[str, Any]] = []
        thing = 0
        for m in trace.mentions:
            if m.source != "text":
                continue
            choices = sorted(m.readings, key=lambda r: -r.probability) or ((m.unit, 1.0),)
            rows.extend({"thing": thing, "what": "quantity", "text": m.text, "step": None,
                         "reading": _unit_words(unit), "probability": p, "bound": unit == m.unit}
                        for unit, p in choices)
            thing += 1
        formulas = self.step_formulas if len(self.step_formulas) == len(trace.steps) else (None,) * len(trace.steps)
        for step, formula in zip(trace.steps, formulas, strict=True):
            for o in step.operands:
                if o.text is None:  # a constant the text cues, or a step's result the formula does not write
                    continue
                sources = sorted(o.readings, key=lambda r: -r.probability) or ((o, 1.0),)  # the plan may bind another
                rows.extend({"thing": thing, "what": "literal", "text": o.text, "step": formula,
                             "reading": _source_words(trace, r, formulas), "probability": p,
                             "bound": (r.mention, r.step, r.constant) == (o.mention, o.step, o.constant)}
                            for r, p in sources)
                thing += 1
        return rows

    def _sentence(self, f: Finding) -> str:
        where = "the solution" if f.step is None else f"step {f.step + 1}"
        if f.user_step is not None and len(self.user_steps) > 1:  # the user's own steps, counted from 0 (ADR 0031)
            where += f", in the user's step {f.user_step} counted from 0,"
        if f.line is not None:
            where += f" (line {f.line}"
            if f.span is not None:
                where += f": {self.solution[f.span[0] : f.span[1]].strip()!r}"
            where += ")"
        said = f"{where}: {_EXPLAIN[f.reason]} [{f.reason}]"
        if f.would_be:  # a reading-dependent finding some plausible reading undoes (ADR 0027)
            said = (f"{where}: ssbg could not tell whether {_EXPLAIN[f.would_be]}: a reading it finds plausible would "
                    f"not make it so [ambiguous_grounding, found as {f.would_be}]")
        if f.detail:
            said += f": {f.detail}"
        if f.question_spans:
            said += "; it concerns " + ", ".join(repr(self.question[a:b]) for a, b in f.question_spans)
        if f.in_reference:
            said += "; the reference solution has the same finding, so it is taken as ssbg's reading limit"
        elif f.could_not_tell and f.reason in ERROR_FINDINGS:
            said += f"; ssbg could not tell it from its own reading ({f.could_not_tell}), so it is not evidence"
        elif f.family == "coverage":
            said += " (coverage: not evidence of an error)"
        elif f.family == "note":
            said += " (a note of the kind check: not evidence of an error)"
        return said + "."

    def to_dict(self) -> dict[str, Any]:
        """The verdict as plain data (no trace or graph)."""
        return {
            "status": self.status,
            "answer": self.answer,
            "pack": self.pack,
            "reference_checked": self.reference_checked,
            "findings": [f.to_dict() for f in self.findings],
            "notes": [f.to_dict() for f in self.notes],
            "steps": [
                {"index": s.index, "line": s.line, "user_step": s.user_step, "span": [s.start, s.end],
                 "formula": s.formula, "status": s.status}
                for s in self.steps
            ],
        }

    def view_data(self) -> dict[str, Any]:
        """The plain-dict form of the verdict's view: status, summary, the question's spans (as
        :func:`~ssbg.reading.textview.text_spans` gives them, plus ``emphasis``), the solution's steps
        with their findings, and the findings in prose."""
        concerned = {s for f in self.errors or self.coverage for s in f.question_spans}
        if self.trace is not None:
            question = text_spans(self.trace, graph=self.graph)
            spans = [dict(s, emphasis=(s["start"], s["end"]) in concerned) for s in question["spans"]
                     if s["source"] == "text"]
            taken = [(s["start"], s["end"]) for s in spans]
            for a, b in sorted(concerned - set(taken)):
                if not any(x < b and a < y for x, y in taken):  # the question sentence of an answer-unit finding
                    spans.append({"source": "text", "start": a, "end": b, "text": self.question[a:b], "symbol": "",
                                  "unit": None, "lemma": None, "category": "number", "kind": "mention",
                                  "emphasis": True})
            spans.sort(key=lambda s: s["start"])
            question = dict(question, spans=spans, solution=None, title="")
        else:
            question = {"title": "", "text": self.question, "solution": None, "spans": [], "categories": []}
        by_step: dict[int, list[str]] = {}
        for f in self.findings:
            if f.step is not None:
                by_step.setdefault(f.step, []).append(f"{f.reason} ({f.family}): {f.detail}")
        steps = [
            {"index": s.index, "start": s.start, "end": s.end, "status": s.status, "line": s.line,
             "user_step": s.user_step, "notes": by_step.get(s.index, []) or ([s.unit_proof] if s.unit_proof else [])}
            for s in self.steps
        ]
        # a finding on a line but at no step (a line ssbg did not read) marks that line
        steps.extend(
            {"index": -1, "start": f.span[0], "end": f.span[1], "status": f.family, "line": f.line,
             "user_step": f.user_step, "notes": [f"{f.reason} ({f.family}): {f.detail}"]}
            for f in self.findings
            if f.step is None and f.span is not None
        )
        steps.sort(key=lambda s: (s["start"], s["end"]))
        explained = self.explain().splitlines()
        return {
            "status": self.status,
            "summary": explained[0],
            "question": question,
            "solution": self.solution,
            "steps": steps,
            "findings": [(f.family, line[2:]) for f, line in zip(self._ordered(), explained[1:], strict=False)],
        }

    def _ordered(self) -> list[Finding]:
        return sorted(self.findings, key=lambda f: (f.family != "error", f.line or 0, f.step or 0))

    def html(self) -> str:
        """The verdict as HTML: the solution with each step marked beside the question's highlighted mentions."""
        from ssbg.checking.render import render_verdict_data

        return render_verdict_data(self.view_data())

    def _repr_html_(self) -> str:
        return self.html()

    def __str__(self) -> str:
        return self.explain()


# ------------------------------------------------------------------ findings


_STEP_ID = re.compile(r"step_(\d+)$")
_AGAIN = re.compile(r"_again_\d+$")  # a second symbol for an operand used twice in one step
_SYMBOL = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")


class _GraphFindings:
    """The findings of a bound solution (scratch state of one check)."""

    def __init__(self, reading: SolutionReading, bound: BoundTrace, pack: UnitPack, asked: float = 1.0) -> None:
        self.asked = asked
        self.reading = reading
        self.bound = bound  # the one binding every question below is asked of (ADR 0028)
        graph = self.graph = bound.graph
        self.pack = pack
        self.owner = reading.owner()
        self.steps = {s.index: s for s in reading.steps}
        self.symbols: dict[str, SymbolBinding] = {s.symbol_id: s for s in graph.symbols}
        self.equations: dict[str, BoundEquation] = {e.lhs_symbol_id: e for e in graph.equations}
        self.problem_id = reading.trace.problem_id if reading.trace is not None else ""
        self.placeholder_symbols = frozenset(
            sid for sid, s in self.symbols.items() if s.source_span.source_id == f"{self.problem_id}:solution"
        )

    def mass(self, index: int) -> ReadingMass | None:
        """The reading mass of trace step ``index`` refused as a root-cause unit mismatch (:func:`reading_mass`)."""
        return self.bound.reading_mass().get(index)

    def step_of(self, lhs: str) -> int | None:
        m = _STEP_ID.match(lhs)
        return None if m is None else self.owner[int(m.group(1))]

    def question_spans(self, eq: BoundEquation, step: int | None) -> tuple[tuple[int, int], ...]:
        """The spans of the question the equation's operands stand for (through sub-steps of the same formula)."""
        found: set[tuple[int, int]] = set()
        todo = [eq]
        seen: set[str] = set()
        while todo:
            current = todo.pop()
            for dep in current.dependencies:
                sym = self.symbols.get(dep)
                if sym is None or dep in seen:
                    continue
                seen.add(dep)
                if sym.source_span.source_id == self.problem_id:
                    found.add((sym.source_span.start, sym.source_span.end))
                elif dep in self.equations and self.step_of(dep) == step:
                    todo.append(self.equations[dep])
        return tuple(sorted(found))

    def finding(
        self, reason: str, step: int | None, question_spans: tuple[tuple[int, int], ...], detail: str
    ) -> Finding:
        s = None if step is None else self.steps[step]
        if s is None:
            return Finding(reason, step, None, None, question_spans, detail)
        return Finding(reason, step, s.line, (s.start, s.end), question_spans, detail,
                       user_step=self.reading.solution.user_step(s.start))

    def equation_findings(self) -> list[tuple[Finding, _Facts]]:
        out: list[tuple[Finding, _Facts]] = []
        for eq in self.graph.equations:
            if eq.admissibility_status != "refused" or not eq.is_root_cause or eq.refusal_reason is None:
                continue
            step = self.step_of(eq.lhs_symbol_id)
            if eq.refusal_reason == "unit_unbound" and eq.refusal_detail in self.placeholder_symbols:
                continue  # a number nothing grounds: its ungrounded_number (or unread formula) note is the finding
            reason = _FROM_EQUATION.get(eq.refusal_reason, "unsupported_operation")
            if reason is None:
                continue
            spans = self.question_spans(eq, step)
            if reason == "unknown_unit" and eq.offending_unit is not None:
                unit = eq.offending_unit
                spans = tuple(s for s in spans if self._unit_at(s) == unit) or spans
            elif reason == "unit_unbound" and eq.refusal_detail in self.symbols:
                link = self.symbols[eq.refusal_detail].source_span
                if link.source_id == self.problem_id:
                    spans = ((link.start, link.end),)
            out.append((self.finding(reason, step, spans, self.detail(eq, step)), self.facts(eq, reason)))
        return out

    def facts(self, eq: BoundEquation, reason: str) -> _Facts:
        """What the policy weighs beside the finding: the refused step's computation, and for a unit mismatch
        whether it is only in the count of things."""
        m = _STEP_ID.match(eq.lhs_symbol_id)
        trace = self.reading.trace
        if m is None or trace is None:
            return _Facts()
        index = int(m.group(1))
        signature = _signature(trace, index)
        mass = self.mass(index) if reason == "unit_mismatch" else None
        if mass is None:
            return _Facts(signature, reason == "unit_mismatch" and self.count_only(eq))
        return _Facts(signature, self.count_only(eq), None, mass.mass, _said(mass))

    def dimension(self, sid: str) -> tuple[int, ...] | None:
        """A symbol's dimension as exponents (None when it has no unit the pack knows)."""
        m = _STEP_ID.match(_AGAIN.sub("", sid))
        if m is not None:
            units = self.bound.step_units
            index = int(m.group(1))
            unit = units[index] if index < len(units) else None
            return None if unit is None else _exponents(unit)
        sym = self.symbols.get(sid)
        hit = None if sym is None or sym.unit is None else self.pack.lookup(sym.unit)
        return None if hit is None or isinstance(hit, str) else _exponents(hit.dimension)

    def count_only(self, eq: BoundEquation) -> bool:
        """Whether a unit mismatch is only in the exponent of counted things (``cups per day * 20 chickens``
        stated as ``cups per day``; ``5 jewels + 20``): its units agree once counts are set aside."""
        dims = [self.dimension(d) for d in sorted(eq.dependencies)]
        known = [_uncounted(d) for d in dims if d is not None]
        if len(known) != len(dims) or not known:
            return False
        if not (eq.refusal_detail or "").startswith("lhs "):
            return len(set(known)) == 1
        stated = self._stated(eq.lhs_symbol_id)
        if stated is None:
            return False
        if eq.operation_kind in _ADDITIVE_KINDS:
            return all(d == stated for d in known)
        total = tuple(map(sum, zip(*known, strict=True)))
        quotients = [tuple(a - b for a, b in zip(x, y, strict=True)) for x, y in ((known[0], known[-1]),
                                                                                   (known[-1], known[0]))]
        return stated in (total, *quotients)

    def _stated(self, lhs: str) -> tuple[int, ...] | None:
        sym = self.symbols.get(lhs)
        hit = None if sym is None or sym.unit is None else self.pack.lookup(sym.unit)
        return None if hit is None or isinstance(hit, str) else _uncounted(_exponents(hit.dimension))

    def words(self, sid: str, step: int | None) -> str:
        """What a symbol stands for, in words: the text it was read from and its unit, or which step's result."""
        base = _AGAIN.sub("", sid)
        m = _STEP_ID.match(base)
        if m is not None:
            owner = self.owner[int(m.group(1))]
            return "a part of this step" if owner == step else f"the result of step {(owner or 0) + 1}"
        sym = self.symbols.get(sid)
        if sym is None:
            return sid
        return f"{sym.source_span.text.strip()!r} [{sym.unit or 'no unit'}]"

    def detail(self, eq: BoundEquation, step: int | None) -> str:
        """A refused equation in words (``'$12 an hour' [$ per hour] + '5 hours' [hours]: ...``)."""
        said = _SYMBOL.sub(lambda m: self.words(m.group(), step) if m.group() in self.symbols else m.group(),
                           eq.rhs_canonical)
        detail = eq.refusal_detail or ""
        if eq.refusal_reason == "unit_mismatch":
            if detail.startswith("lhs "):
                return f"{said}: does not give the unit the step states, {eq.offending_unit!r}"
            return f"{said}: " + _SYMBOL.sub(lambda m: self.words(m.group(), step) if m.group() in self.symbols
                                             else m.group(), detail)
        if eq.refusal_reason == "unknown_unit" and eq.offending_unit:
            return f"{said}: {eq.offending_unit!r} is not in the pack"
        if eq.refusal_reason == "unit_unbound" and detail in self.symbols:
            return f"{said}: {self.words(detail, step)} has no unit"
        return f"{said}: {detail}" if detail else said

    def _unit_at(self, span: tuple[int, int]) -> str | None:
        for sym in self.symbols.values():
            link = sym.source_span
            if link.source_id == self.problem_id and (link.start, link.end) == span:
                return sym.unit
        return None

    def kind_notes(self, pack: UnitPack) -> tuple[list[Finding], SemanticSymbolicBindingGraph]:
        """The kind check's notes (:func:`ssbg.kinds.read_kinds`), each at its step, and the graph with the counted
        nouns in its proofs."""
        from ssbg.kinds import read_kinds

        kinds = read_kinds(self.graph, pack)
        out: list[Finding] = []
        for f in kinds.findings:
            step = self.step_of(f.lhs)
            spans: tuple[tuple[int, int], ...]
            if f.where == "target" and self.graph.unknowns:
                link = self.graph.unknowns[0].question_span
                spans = ((link.start, link.end),) if link.source_id == self.problem_id else ()
            else:
                spans = self.question_spans(self.graph.equations[f.index], step) if f.index >= 0 else ()
            out.append(self.finding(f.finding, step, spans, f.detail))
        return out, kinds.graph(self.graph)

    def conversion_findings(self) -> list[tuple[Finding, _Facts]]:
        """The admitted steps whose stated result forgot or inverted a conversion (:mod:`ssbg.checking.conversions`,
        ADR 0030), each with the probability that a plausible reading of its units undoes it."""
        trace = self.reading.trace
        if trace is None:
            return []
        out: list[tuple[Finding, _Facts]] = []
        for slip in conversion_slips(self.reading, self.graph, self.pack):
            step = self.owner[slip.step]
            eq = self.equations.get(f"step_{slip.step:03d}")
            spans = () if eq is None else self.question_spans(eq, step)
            finding = self.finding("conversion_error", step, spans, slip.sentence())
            out.append((finding, _Facts(_signature(trace, slip.step), support=slip.support)))
        return out

    def target_findings(self) -> list[tuple[Finding, _Facts]]:
        if not self.graph.unknowns or not self.graph.equations:
            return []
        target = self.graph.unknowns[0]
        if target.target_status != "refused" or target.target_refusal_reason is None:
            return []
        reason = _FROM_TARGET.get(target.target_refusal_reason, "unbound_target")
        if reason is None:
            return []
        step = self.step_of(self.graph.equations[-1].lhs_symbol_id) if target.resolved_by else None
        link = target.question_span
        spans = ((link.start, link.end),) if link.source_id == self.problem_id else ()
        detail = target.target_refusal_detail or ""
        if reason == "expected_unit_mismatch" and not self._answers(step):
            reason, detail = "unbound_target", f"the last step does not give the stated answer ({detail})"
        facts = _Facts()
        if reason == "expected_unit_mismatch" and self.reading.trace is not None:
            mass = self.bound.answer_mass(self.asked)
            if mass is not None:
                facts = _Facts(support=mass.mass, reading=_said(mass))
        return [(self.finding(reason, step, spans, detail), facts)]

    def _answers(self, step: int | None) -> bool:
        """Whether the last step gives the solution's stated answer (True when it states none)."""
        answer = self.reading.answer
        trace = self.reading.trace
        if answer is None or trace is None or step is None:
            return True
        value = trace.steps[-1].result
        return value is None or gives(float(value), _plain(answer)) or gives(answer, _plain(float(value)))


def _plain(value: float) -> str:
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def _said(mass: ReadingMass) -> str:
    """The most probable admitting reading of a reading mass in words, with its probability."""
    return "" if mass.best is None else f"{mass.best} (p = {mass.best_probability:.3g})"


def _note_findings(reading: SolutionReading, question: str, pack: UnitPack) -> list[tuple[Finding, _Facts]]:
    out = []
    results: list[tuple[int, float]] | None = None  # the steps' stated results, read once (not once per note)
    for n in reading.notes:
        f = Finding(n.reason, n.step, n.line, None if n.start is None or n.end is None else (n.start, n.end), (),
                    n.detail, user_step=reading.solution.user_step(n.start))
        if n.reason != "ungrounded_number":
            out.append((f, _Facts()))
            continue
        number = written_number(n.detail)
        found = [] if number is None else implicit_readings(question, number, pack)
        if not found and number is not None:
            if results is None:
                results = _stated_results(reading)
            unsaid = unsaid_step(question, _results_before(results, n.step), number)
            found = [] if unsaid is None else [unsaid]
        if not found:
            out.append((f, _Facts(number=number, support=0.0)))
            continue
        best = found[0]  # the most probable reading; the rules overlap, so their probabilities are not added
        rule = best.rule.replace("_", " ")
        said = f"{best.words!r} read as {_plain(best.value)} ({rule}, p = {best.probability:.3g})"
        out.append((f, _Facts(number=number, support=best.probability, reading=said)))
    return out


# ------------------------------------------------------------------ what the policy weighs


Signature = tuple[str, tuple[float, ...], float | None]
"""A step's computation: its operation, its operand values (sorted) and its stated result."""

_ADDITIVE_KINDS = frozenset({"add", "subtract", "transfer", "compare_additive"})


class _Facts(NamedTuple):
    """What the policy weighs beside a finding (never shown): the refused step's computation, whether a unit
    mismatch is only in the count of things, an ungrounded number's value."""

    signature: Signature | None = None
    count_only: bool = False
    number: float | None = None
    support: float | None = None  # P(a plausible reading admits the step / grounds the number / gives the asked unit)
    reading: str = ""  # the most probable such reading, with its probability, in words


def _value(x: float) -> float:
    return round(float(x), 6)


def _stated_results(reading: SolutionReading) -> list[tuple[int, float]]:
    """``(step index, result)`` of each formula of the solution that states its result (``16-3=13``: 13), in order."""
    out = []
    for s in reading.steps:
        value = written_number(s.formula.rpartition("=")[2]) if "=" in s.formula else None
        if value is not None:
            out.append((s.index, value))
    return out


def _results_before(results: list[tuple[int, float]], step: int | None) -> list[float]:
    """The results of :func:`_stated_results` of the formulas before ``step`` (every one for None), in order."""
    if step is None:
        return [v for _, v in results]
    return [v for _, v in results[: bisect.bisect_left(results, (step, -math.inf))]]


def _operand_value(trace: Trace, o: Operand) -> float | None:
    if o.mention is not None:
        return _value(trace.mentions[o.mention].value)
    if o.step is not None:
        result = trace.steps[o.step].result
        return None if result is None else _value(result)
    constant = IMPLICIT_CONSTANTS.get(o.constant or "")
    return None if constant is None else _value(constant.value)


def _signature(trace: Trace, index: int) -> Signature:
    step = trace.steps[index]
    values = sorted(v for v in (_operand_value(trace, o) for o in step.operands) if v is not None)
    return step.op, tuple(values), None if step.result is None else _value(step.result)


def _exponents(v: UnitVector) -> tuple[int, ...]:
    return v.length, v.time, v.mass, v.money, v.count, v.temperature


def _uncounted(d: tuple[int, ...]) -> tuple[int, ...]:
    return (*d[:4], 0, *d[5:])


@dataclass(frozen=True)
class Reference:
    """What a reference solution (the gold one, say) tells about another solution's findings
    (:func:`read_reference`): its own findings and notes, the computations of its steps (operation, operand
    values, stated result), the numbers it uses or writes, and the question spans its refused steps read.
    How :func:`check_solution` weighs them is said there (and in ADR 0019)."""

    findings: tuple[Finding, ...]
    steps: frozenset[Signature] = frozenset()
    numbers: frozenset[float] = frozenset()
    refused_spans: frozenset[tuple[int, int]] = frozenset()

    @classmethod
    def from_verdict(cls, verdict: Verdict) -> Reference:
        """The reference as its own verdict (checked alone) shows it."""
        trace, graph = verdict.trace, verdict.graph
        numbers = set(written_numbers(verdict.solution))
        steps: set[Signature] = set()
        if trace is not None:
            for i, step in enumerate(trace.steps):
                steps.add(_signature(trace, i))
                numbers.update(v for v in (_operand_value(trace, o) for o in step.operands) if v is not None)
        refused: set[tuple[int, int]] = set()
        if graph is not None and trace is not None:
            symbols = {sym.symbol_id: sym.source_span for sym in graph.symbols}
            for eq in graph.equations:
                if eq.admissibility_status == "refused":
                    links = (symbols.get(d) for d in eq.dependencies)
                    refused.update((x.start, x.end) for x in links if x is not None and x.source_id == trace.problem_id)
        return cls((*verdict.findings, *verdict.notes), frozenset(steps), frozenset(numbers), frozenset(refused))


def read_reference(
    question: str, reference: str | Sequence[str], *, pack: UnitPack | str | Path | None = None
) -> Reference:
    """A reference solution read once, to pass to :func:`check_solution` for many solutions of one question."""
    return Reference.from_verdict(check_solution(question, reference, pack=pack))


_COUNT_ONLY = "its units differ only in the count of things, a per-thing reading ssbg cannot tell"


_WHAT = {
    "conversion_error": "P(a reading of its units that gives its result)",
    "unit_mismatch": "P(admissible)",
    "ungrounded_number": "P(grounded)",
    "expected_unit_mismatch": "P(the asked unit)",
}


def _judge(pairs: Iterable[tuple[Finding, _Facts]], reference: Reference | None, min_evidence: float) -> list[Finding]:
    """The findings as the policy weighs them (:func:`check_solution`, ADR 0027): shared with the reference, a
    reading limit (``in_reference``); a reading-dependent error finding (:data:`ROBUST_FINDINGS`) whose plausible
    readings admit it with probability ``support >= min_evidence``, ``ambiguous_grounding`` (could not tell), naming
    the most probable admitting reading; the rest as found, with their support."""
    keys = [f.key() for f in reference.findings] if reference is not None else []
    out: list[Finding] = []
    for f, facts in pairs:
        support = None if f.reason not in ROBUST_FINDINGS else facts.support if facts.support is not None else 0.0
        if support is not None:
            f = dataclasses.replace(f, support=round(support, 6))  # noqa: PLW2901
        if reference is not None and _shared(f, facts, keys, reference):
            out.append(dataclasses.replace(f, in_reference=True))
        elif f.reason == "unit_mismatch" and facts.count_only and (
            reference is None or not reference.refused_spans.isdisjoint(f.question_spans)
        ):
            out.append(dataclasses.replace(f, could_not_tell=_COUNT_ONLY))
        elif support is not None and not is_evidence(support, min_evidence):
            said = f"{_WHAT[f.reason]} = {support:.3g}"
            if facts.reading:
                does = "grounds it" if f.reason == "ungrounded_number" else "admits it"
                said += f", the most probable reading that {does}: {facts.reading}"
            out.append(dataclasses.replace(f, reason="ambiguous_grounding", would_be=f.reason,
                                           detail=f"{f.detail}; {said}"))
        else:
            out.append(f)
    return out


def _shared(f: Finding, facts: _Facts, keys: Sequence[tuple[str, frozenset[tuple[int, int]], str]],
            reference: Reference | None) -> bool:
    """Whether the reference shares a finding: the same reason at an overlapping question span (without question
    spans, the same detail); the same computation at the step; an ungrounded number the reference uses."""
    reason, spans, detail = f.key()
    if any(r == reason and ((spans & s) if spans or s else d == detail) for r, s, d in keys):
        return True
    if reference is None:
        return False
    if facts.signature is not None and facts.signature in reference.steps:
        return True
    return f.reason == "ungrounded_number" and facts.number is not None and facts.number in reference.numbers


def _step_statuses(reading: SolutionReading, graph: SemanticSymbolicBindingGraph | None,
                   findings: Sequence[Finding]) -> tuple[CheckedStep, ...]:
    owner = reading.owner()
    refused: dict[int, bool] = {}
    proofs: dict[int, str] = {}
    for eq in () if graph is None else graph.equations:
        m = _STEP_ID.match(eq.lhs_symbol_id)
        k = None if m is None else owner[int(m.group(1))]
        if k is None:
            continue
        refused[k] = refused.get(k, False) or eq.admissibility_status == "refused"
        if eq.admissibility_status == "admitted":
            proofs[k] = eq.unit_proof
    by_step: dict[int, str] = {}
    for f in findings:
        if f.step is not None and by_step.get(f.step) != "error":
            by_step[f.step] = f.family
    out: list[CheckedStep] = []
    for s in reading.steps:
        status = by_step.get(s.index) or (
            "unread" if not s.read else "propagated" if refused.get(s.index) else "admitted"
        )
        out.append(CheckedStep(s.index, s.line, s.start, s.end, s.formula, status,
                               proofs.get(s.index) if status == "admitted" else None,
                               reading.solution.user_step(s.start)))
    return tuple(out)


def _findings(
    reading: SolutionReading, question: str, pack: UnitPack, asked: float = ASKED_UNIT_RELIABILITY
) -> tuple[list[tuple[Finding, _Facts]], SemanticSymbolicBindingGraph | None, list[Finding]]:
    """The findings (each with what the policy weighs), the bound graph (its proofs with the counted nouns) and
    the kind check's notes."""
    findings = _note_findings(reading, question, pack)
    if reading.trace is None:
        return findings, None, []
    found = _GraphFindings(reading, BoundTrace(reading.trace, pack=pack, stated=STATED_UNIT_RELIABILITY), pack, asked)
    findings += found.equation_findings()
    findings += found.target_findings()
    findings += found.conversion_findings()
    notes, graph = found.kind_notes(pack)
    return sorted(findings, key=lambda pair: _order(pair[0])), graph, sorted(notes, key=_order)


def _order(f: Finding) -> tuple[int, int, str]:
    return (f.line if f.line is not None else 1 << 30, f.step if f.step is not None else -1, f.reason)


def _mark_recurring(findings: Iterable[Finding], reference: Iterable[Finding]) -> list[Finding]:
    """The findings (the kind check's notes), those the reference shares marked ``in_reference``."""
    keys = [f.key() for f in reference]
    return [dataclasses.replace(f, in_reference=True) if _shared(f, _Facts(), keys, None) else f for f in findings]


def _pack(pack: UnitPack | str | Path | None) -> UnitPack:
    if pack is None:
        return corpus_pack()
    if isinstance(pack, UnitPack):
        return pack
    return load_pack(pack)


def reference_findings(
    question: str, reference: str | Sequence[str], *, pack: UnitPack | str | Path | None = None
) -> tuple[Finding, ...]:
    """The findings (and notes) of a reference solution checked alone.  :func:`read_reference` reads what
    :func:`check_solution` weighs besides (the reference's steps, numbers and readings); a tuple of findings
    passed as ``reference`` is matched by reason and question span or detail only."""
    return read_reference(question, reference, pack=pack).findings


def check_solution(
    question: str,
    solution: str | Sequence[str],
    *,
    pack: UnitPack | str | Path | None = None,
    reference: str | Sequence[str] | Reference | Sequence[Finding] | None = None,
    min_evidence: float = DEFAULT_MIN_EVIDENCE,
) -> Verdict:
    """Check a solution to a question: ``sound``, ``error`` (with the step of each finding) or ``unverifiable``.

    Parameters
    ----------
    question
        The problem text (its question is its last sentence asking something).
    solution
        The solution: a string in any of the formats :mod:`ssbg.reading.readers.solutions` reads
        (calculator annotations, prose arithmetic, ``Step 1:`` lines, LaTeX and Markdown as chat models
        write them, a final ``#### N`` / ``A: N`` / ``The answer is N`` / ``\\boxed{N}``), or a list of
        step strings.  Each finding names the user's step it is in (``Finding.user_step``, from 0: the
        list item, else the paragraph of the text split on blank lines, as ProcessBench counts).
    pack
        The unit pack (a :class:`~ssbg.units.UnitPack`, a name or a folder; default the corpus pack,
        :data:`~ssbg.units.CORPUS_PACK_NAME`, ``en_units_v1+en_counts_v2+en_measures_v1``: ADR 0017 says why
        the checker reads counted nouns by default).
    reference
        A reference solution (e.g. the gold one), read once by :func:`read_reference` for many
        solutions (or the findings of :func:`reference_findings`).

    min_evidence
        ε in (0, 1] (default :data:`DEFAULT_MIN_EVIDENCE`, chosen on half A of the dev file): a
        reading-dependent finding is error evidence only when the plausible readings that undo it
        hold less than this share of the probability (ADR 0027).

    What is evidence (ADR 0019, ADR 0027).  A finding of :data:`ERROR_FINDINGS` makes the verdict
    ``error`` unless ssbg cannot tell it from its own reading:

    - a ``unit_mismatch`` the step's plausible readings admit with probability at least
      ``min_evidence`` (the operands' n-best sources and unit readings, the stated unit weighed with
      :data:`STATED_UNIT_RELIABILITY`), an ``ungrounded_number`` a question's unwritten quantity
      grounds that probably, an ``expected_unit_mismatch`` as probably answered otherwise (the asked
      unit weighed with :data:`ASKED_UNIT_RELIABILITY` without a reference): ``ambiguous_grounding``,
      naming the most probable such reading (``would_be`` keeps what it was found as);

    - the reference shares it (``in_reference``): the same reason at an overlapping question span
      (without question spans, the same detail), the same computation at the step (operation,
      operand values, stated result), or, for ``ungrounded_number``, a number the reference uses or
      writes;
    - a ``unit_mismatch`` only in the count of things (its units agree once counted nouns are set
      aside: a per-thing reading ssbg cannot tell) without a reference, or with one whose refused
      steps read one of the question numbers it concerns (``could_not_tell``).

    Such findings are coverage: alone they make the verdict ``unverifiable``.

    Never raises on strings; a finding says what could not be read.  A question or a solution beyond a
    cap of :mod:`ssbg.limits` is not read: its verdict is ``unverifiable`` with one ``record_too_large``
    finding naming the cap; a question with a number too long or too large to read
    (:mod:`ssbg.numbers`) one with ``number_out_of_range``.

    Raises
    ------
    ProblemGraphError
        ``wrong_type`` when ``question`` or ``solution`` is not text.

    Examples
    --------
    A solution as a chat model writes it, as a list of steps: the first error is named by the user's step (from 0)
    and the conversion the unit proof applies is checked by value (ADR 0030).

    >>> hose = "A hose fills a pool at 10 gallons per minute. How many gallons does it fill in 2 hours?"
    >>> v = check_solution(hose, ["It runs for 2 hours.", "\\\\[ 10 \\\\times 2 = 20 \\\\text{ gallons} \\\\]"])
    >>> v.status, v.first_error.reason, v.first_error.step, v.first_error.user_step
    ('error', 'conversion_error', 0, 1)
    """
    _check_min_evidence(min_evidence)
    p = _pack(pack)
    with keeping_readings():
        reading = read_solution(question, solution, pack=p)
    checked = reference is not None
    ref: Reference | None = None
    if isinstance(reference, Reference):
        ref = reference
    elif reference is not None and not isinstance(reference, str) and all(isinstance(r, Finding) for r in reference):
        ref = Reference(tuple(reference))  # type: ignore[arg-type]
    elif reference is not None:
        ref = read_reference(question, reference, pack=p)  # type: ignore[arg-type]
    pairs, graph, notes = _findings(reading, question, p, ASKED_UNIT_RELIABILITY if ref is None else 1.0)
    judged = _judge(pairs, ref, min_evidence)
    if ref is not None:
        notes = _mark_recurring(notes, ref.findings)
    findings = judged
    errors = any(f.family == "error" for f in findings)
    status = "error" if errors else "unverifiable" if findings else "sound"
    return Verdict(
        status,
        question,
        reading.solution.text,
        tuple(findings),
        _step_statuses(reading, graph, findings),
        reading.answer,
        p.citation,
        checked,
        reading.trace,
        graph,
        tuple(notes),
        min_evidence,
        reading.solution.user_steps,
        reading.owner(),
    )
