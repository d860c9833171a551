"""The error hierarchy: closed reasons, builtin parents, typed fields, pickling."""

from __future__ import annotations

import pickle

import pytest

from ssbg import errors
from ssbg.errors import (
    AdmissibilityError,
    BindingGraphError,
    ImportRefusal,
    LaneError,
    PackError,
    ProblemGraphError,
    QuestionTargetError,
    SsbgError,
    UnitAlgebraError,
)

ERROR_CLASSES = [
    BindingGraphError,
    UnitAlgebraError,
    PackError,
    AdmissibilityError,
    ProblemGraphError,
    QuestionTargetError,
    ImportRefusal,
    LaneError,
]


@pytest.mark.parametrize("cls", ERROR_CLASSES)
def test_every_error_is_an_ssbg_error_and_a_value_error(cls: type[SsbgError]) -> None:
    assert issubclass(cls, SsbgError)
    assert issubclass(cls, ValueError)


@pytest.mark.parametrize("cls", ERROR_CLASSES)
def test_every_error_declares_a_nonempty_closed_reason_set(cls: type[SsbgError]) -> None:
    assert isinstance(cls.REASONS, frozenset)
    assert cls.REASONS
    assert all(isinstance(r, str) and r == r.strip() for r in cls.REASONS)


@pytest.mark.parametrize("cls", ERROR_CLASSES)
def test_a_reason_outside_the_closed_set_is_a_programming_error(cls: type[SsbgError]) -> None:
    with pytest.raises(ValueError, match="not one of"):
        cls("boom", reason="no_such_reason")


@pytest.mark.parametrize("cls", ERROR_CLASSES)
def test_errors_pickle_with_their_fields(cls: type[SsbgError]) -> None:
    reason = sorted(cls.REASONS)[0]
    exc = cls("something went wrong", reason=reason, path="$.x[1]", detail="d")
    back = pickle.loads(pickle.dumps(exc))
    assert type(back) is cls
    assert (back.reason, back.path, back.detail, back.message) == (reason, "$.x[1]", "d", "something went wrong")


def test_admissibility_error_carries_the_offending_unit_through_pickle() -> None:
    exc = AdmissibilityError("unknown_unit: apples", reason="unknown_unit", offending_unit="apples")
    assert pickle.loads(pickle.dumps(exc)).offending_unit == "apples"


def test_import_refusal_carries_problem_and_corpus_through_pickle() -> None:
    exc = ImportRefusal("x", reason="no_equation", problem_id="p1", corpus="gsm8k", path="f.jsonl:3")
    back = pickle.loads(pickle.dumps(exc))
    assert (back.problem_id, back.corpus, back.path) == ("p1", "gsm8k", "f.jsonl:3")


def test_admissibility_reasons_are_the_seven_of_adr_0134_and_ambiguous_grounding() -> None:
    assert {
        "unit_mismatch",
        "unknown_unit",
        "unit_unbound",
        "unknown_symbol",
        "unknown_operation",
        "operand_arity",
        "rate_form_invalid",
        "ambiguous_grounding",  # ADR 0018: binding's own, never check_admissibility's
    } == errors.ADMISSIBILITY_REASONS


def test_str_names_the_path() -> None:
    assert "(at $.a)" in str(ProblemGraphError("bad", reason="wrong_type", path="$.a"))
