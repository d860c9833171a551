"""One weighing of the readings behind a dimension finding, for the checker and the corpus report alike (ADR 0034).

A refusal that depends on how ssbg read the words — a step whose units do not combine, an answer in another unit
than the one asked — is evidence of an error only when the readings the reader finds plausible and that would undo
it hold less than ε of its probability (robust refusal, ADR 0027); otherwise ssbg could not tell. The checker
(:func:`ssbg.check_solution`) and the corpus report (``ssbg report``) ask this module, so that "a dimension error
found" means one thing in every output.

>>> is_evidence(0.0, DEFAULT_MIN_EVIDENCE), is_evidence(0.2, DEFAULT_MIN_EVIDENCE), is_evidence(None, 0.5)
(True, False, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from ssbg.model import SemanticSymbolicBindingGraph
    from ssbg.reading.choosing import BoundTrace

__all__ = [
    "ASKED_UNIT_RELIABILITY",
    "DEFAULT_MIN_EVIDENCE",
    "DIMENSION_REASONS",
    "STATED_UNIT_RELIABILITY",
    "TARGET_SYMBOL",
    "DimensionWeights",
    "given_dimensions",
    "is_evidence",
    "weigh_dimensions",
]

STATED_UNIT_RELIABILITY = 0.936
"""The probability that the unit a solution states for a step (``>>24 clips``: a rule's reading of its words) is
the step's result's: on GSM8K train gold solutions read as the checker reads them, 14,200 of the 15,166 steps that
state a unit and whose operands' units combine state the unit they give (``benchmarks/stated_units.py``).  The
other reading, weighed ``1 -`` this, checks the step without its stated unit (ADR 0027)."""

ASKED_UNIT_RELIABILITY = 0.887
"""The probability that the unit ssbg reads a question as asking for is the answer's, without a reference: on GSM8K
train gold solutions whose last step is admitted and whose asked unit is in the pack, 2,635 of 2,971 answers have
the asked unit (``benchmarks/stated_units.py``).  With a reference that does not share the mismatch, the asked
unit is taken as confirmed (1)."""

DEFAULT_MIN_EVIDENCE = 0.001
"""ε, the default ``min_evidence``: a reading-dependent finding is error evidence only when the plausible readings
under which the step is admitted (the number grounded, the answer's unit the one asked) hold less than this share
of the reader's probability; otherwise ssbg could not tell (``ambiguous_grounding``).  Chosen on half A of the dev
file's problems (``benchmarks/checker_halves.py --sweep``), scored on half B (ADR 0027)."""

DIMENSION_REASONS: frozenset[str] = frozenset({"unit_mismatch", "rate_form_invalid", "expected_unit_mismatch"})
"""The refusals that say a dimension error, when no plausible reading undoes them: a root equation refused
``unit_mismatch`` or ``rate_form_invalid``, a question target refused ``expected_unit_mismatch``.  Every other
refusal (a unit outside the pack, a number without a unit, two readings the words leave open) says ssbg could not
tell (ADR 0024)."""


TARGET_SYMBOL = "unknown_answer"
"""The symbol a question target's support is kept under (the target's, as :func:`~ssbg.trace.bind_trace` names it)."""


def is_evidence(support: float | None, min_evidence: float) -> bool:
    """Whether a finding whose plausible undoing readings hold ``support`` of the probability is evidence at ε =
    ``min_evidence`` (None: no reading undoes it, as for a hand-written problem)."""
    return support is None or support < min_evidence


@dataclass(frozen=True, slots=True)
class DimensionWeights:
    """The support of each dimension refusal of a bound trace: ``equations`` by the refused equation's lhs symbol
    (its P(admissible) over the plausible readings, :meth:`~ssbg.reading.choosing.BoundTrace.reading_mass`; 0.0 for
    ``rate_form_invalid``, which no unit reading undoes) and ``target`` the answer's P(the asked unit) when the
    question target is refused ``expected_unit_mismatch`` (else None)."""

    equations: dict[str, float] = field(default_factory=dict)
    target: float | None = None

    def by_symbol(self) -> dict[str, float]:
        """Every support by the refused symbol: an equation's lhs, the question target's ``unknown_answer``."""
        out = dict(self.equations)
        if self.target is not None:
            out[TARGET_SYMBOL] = self.target
        return out

    def found(self, min_evidence: float = DEFAULT_MIN_EVIDENCE) -> bool:
        """Whether a dimension error is found at ε: some refusal that every plausible reading keeps."""
        supports = [*self.equations.values(), *(() if self.target is None else (self.target,))]
        return any(is_evidence(s, min_evidence) for s in supports)


def weigh_dimensions(bound: BoundTrace, *, asked: float = ASKED_UNIT_RELIABILITY) -> DimensionWeights:
    """The supports of a bound trace's dimension refusals (:class:`DimensionWeights`), weighed on its one binding
    (ADR 0028) with the n-best readings its trace keeps (``keeping_readings``: without them only the chosen reading
    and the stated and asked units' reliabilities are weighed)."""
    masses = bound.reading_mass()

    def unit_mismatch(lhs: str) -> float:
        index = _step_index(lhs)
        mass = masses.get(index) if index is not None else None
        return 0.0 if mass is None else round(mass.mass, 6)

    def target() -> float:
        mass = bound.answer_mass(asked)
        return 0.0 if mass is None else round(mass.mass, 6)

    return _weights(bound.graph, unit_mismatch, target)


def given_dimensions(graph: SemanticSymbolicBindingGraph) -> DimensionWeights:
    """The supports of a graph whose readings were given, not read (a hand-written ``MathProblemGraph``): 0.0 for
    every dimension refusal, since no other reading of its words can undo one."""
    return _weights(graph, lambda lhs: 0.0, lambda: 0.0)


def _weights(
    graph: SemanticSymbolicBindingGraph, unit_mismatch: Callable[[str], float], target: Callable[[], float]
) -> DimensionWeights:
    """Each root dimension refusal of ``graph`` with its support: ``unit_mismatch(lhs)`` for a mismatch, 0.0 for
    ``rate_form_invalid`` (no unit reading undoes it), ``target()`` for the question target's."""
    equations: dict[str, float] = {}
    for eq in graph.equations:
        if eq.admissibility_status != "refused" or not eq.is_root_cause:
            continue
        if eq.refusal_reason == "rate_form_invalid":
            equations[eq.lhs_symbol_id] = 0.0
        elif eq.refusal_reason == "unit_mismatch":
            equations[eq.lhs_symbol_id] = unit_mismatch(eq.lhs_symbol_id)
    refused = bool(graph.unknowns) and graph.unknowns[0].target_refusal_reason == "expected_unit_mismatch"
    return DimensionWeights(equations, target() if refused else None)


def _step_index(lhs: str) -> int | None:
    head, _, number = lhs.partition("_")
    return int(number) if head == "step" and number.isdigit() else None
