"""Checking edge: is a (model-written) solution dimensionally sound, and if not, which step is wrong?

:func:`check_solution` gives a :class:`Verdict` (``sound``, ``error`` or ``unverifiable``)
whose findings each name a step of the solution and the question spans it concerns, in
two closed families: error evidence and coverage (:mod:`ssbg.checking.verdict`).
:func:`check_solutions` checks a JSONL file of them (a DataFrame, with labels the
per-solver scores, and :func:`sweep_verdicts` the scores at each ε of robust refusal, ADR 0027), and
``ssbg check-solutions`` is its command (:mod:`ssbg.checking.cli`).

It imports the core and :mod:`ssbg.reading`; :mod:`ssbg.stats` (the batch engines) and
:mod:`ssbg.views`-free rendering helpers of :mod:`ssbg.reading.textview` are imported inside
the functions that need them.  ``ssbg.check_solution`` reaches it from the package root
without ``import ssbg`` importing it (a lazy name, ADR 0019).
"""

from ssbg.checking.batch import SolverScore, check_solutions, score_verdicts, sweep_verdicts
from ssbg.checking.verdict import (
    COVERAGE_FINDINGS,
    DEFAULT_MIN_EVIDENCE,
    ERROR_FINDINGS,
    FINDING_FAMILIES,
    FINDING_REASONS,
    ROBUST_FINDINGS,
    STEP_STATUSES,
    VERDICT_STATUSES,
    CheckedStep,
    Finding,
    Reference,
    Verdict,
    check_solution,
    read_reference,
    reference_findings,
)

__all__ = [
    "COVERAGE_FINDINGS",
    "DEFAULT_MIN_EVIDENCE",
    "ERROR_FINDINGS",
    "FINDING_FAMILIES",
    "FINDING_REASONS",
    "ROBUST_FINDINGS",
    "STEP_STATUSES",
    "VERDICT_STATUSES",
    "CheckedStep",
    "Finding",
    "Reference",
    "SolverScore",
    "Verdict",
    "check_solution",
    "check_solutions",
    "read_reference",
    "reference_findings",
    "score_verdicts",
    "sweep_verdicts",
]
