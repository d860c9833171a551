"""The public surface: ADR-0134's names and ours are exported from ``ssbg`` with ``__all__``."""

from __future__ import annotations

import pytest

import ssbg

ADR_0134_SURFACE = (
    "check_admissibility",
    "UnitProof",
    "UnitVector",
    "parse_unit",
    "unit_product",
    "unit_quotient",
    "unit_inverse",
    "units_equal",
    "AdmissibilityError",
    "UnitAlgebraError",
    "ADMISSIBILITY_REASONS",
    "BASE_DIMENSIONS",
    "DIMENSIONLESS",
    "REFUSED_UNIT_PROOF",
)
ADR_0132_SURFACE = (
    "SourceSpanLink",
    "SymbolBinding",
    "BoundFact",
    "BoundEquation",
    "BoundUnknown",
    "BoundConstraint",
    "SemanticSymbolicBindingGraph",
    "allocate_symbols",
    "BindingGraphError",
    "SEMANTIC_ROLES",
    "ADMISSIBILITY_STATUSES",
)
OURS = (
    "MathProblemGraph",
    "bind_math_problem_graph",
    "load_pack",
    "default_pack",
    "check_operation",
    "QUESTION_TARGET_REASONS",
    "GROUNDING_REASONS",  # ADR 0024: reading's outcomes, apart from ADR-0134's seven
    "REFUSAL_REASONS",
    "REFUSAL_FAMILIES",
    "SsbgError",
)


@pytest.mark.parametrize("name", ADR_0134_SURFACE + ADR_0132_SURFACE + OURS)
def test_name_is_exported(name: str) -> None:
    assert name in ssbg.__all__
    assert hasattr(ssbg, name)


def test_all_lists_only_real_names_once() -> None:
    assert len(set(ssbg.__all__)) == len(ssbg.__all__)
    assert all(hasattr(ssbg, name) for name in ssbg.__all__)


def test_placeholder_constants_of_phase_2_are_gone() -> None:
    assert not hasattr(ssbg, "PHASE_2_UNIT_PROOF")
    assert not hasattr(ssbg, "PHASE_2_ADMISSIBILITY")


def test_refused_unit_proof_sentinel() -> None:
    assert ssbg.REFUSED_UNIT_PROOF == "unverified"
