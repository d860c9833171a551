"""The error hierarchy: closed reasons, builtin parents, typed fields, pickling."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest

import ssbg
from ssbg import errors
from ssbg.admissibility import REFUSED_UNIT_PROOF
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
from ssbg.model import BoundEquation, SourceSpanLink
from tests.conftest import IN_CI

SPEC = Path(__file__).resolve().parents[1] / ".." / "shared" / "spec"
SPAN = SourceSpanLink("p", 0, 1, "x")

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


def _adr_0134_reasons() -> frozenset[str]:
    """The closed set as ADR-0134 writes it (``ADMISSIBILITY_REASONS = {a, b, ...}``), read from ../shared/spec."""
    found = sorted(SPEC.glob("ADR-0134-*.md"))
    if not found:
        if IN_CI:
            pytest.fail(f"ADR-0134 missing from {SPEC} (CI must have the spec)")
        pytest.skip(f"ADR-0134 not found in {SPEC}")
    text = found[0].read_text(encoding="utf-8")
    sets = re.findall(r"ADMISSIBILITY_REASONS\s*=\s*\{([^}]*)\}", text)
    assert len(sets) == 1, f"{found[0]} states ADMISSIBILITY_REASONS {len(sets)} times"
    return frozenset(word.strip() for word in sets[0].split(",") if word.strip())


def test_admissibility_reasons_are_exactly_adr_0134s() -> None:
    spec = _adr_0134_reasons()
    assert len(spec) == 7  # the ADR's set as read; a parse that lost one would pass the equality vacuously smaller
    assert spec == errors.ADMISSIBILITY_REASONS
    assert spec == ssbg.ADMISSIBILITY_REASONS
    assert spec == AdmissibilityError.REASONS


def test_grounding_reasons_are_apart_from_adr_0134s_and_the_union_is_what_an_equation_accepts() -> None:
    assert {"ambiguous_grounding"} == errors.GROUNDING_REASONS
    assert not errors.GROUNDING_REASONS & errors.ADMISSIBILITY_REASONS
    assert errors.REFUSAL_REASONS == errors.ADMISSIBILITY_REASONS | errors.GROUNDING_REASONS
    assert (ssbg.GROUNDING_REASONS, ssbg.REFUSAL_REASONS) == (errors.GROUNDING_REASONS, errors.REFUSAL_REASONS)
    for reason in sorted(errors.REFUSAL_REASONS):
        eq = BoundEquation("x", "a", frozenset({"a"}), "add", REFUSED_UNIT_PROOF, "refused", SPAN, reason)
        assert eq.refusal_reason == reason
    for reason in ("no_such_reason", "expected_unit_mismatch", "malformed_unit", "UNIT_MISMATCH"):
        with pytest.raises(BindingGraphError) as info:
            BoundEquation("x", "a", frozenset({"a"}), "add", REFUSED_UNIT_PROOF, "refused", SPAN, reason)
        assert (info.value.reason, info.value.path, info.value.detail) == (
            "unknown_refusal_reason", "refusal_reason", repr(reason))


def test_an_admissibility_error_keeps_to_the_seven() -> None:
    for reason in sorted(errors.GROUNDING_REASONS):
        with pytest.raises(ValueError, match="not one of"):
            AdmissibilityError("boom", reason=reason)


def test_every_refusal_reason_has_one_family() -> None:
    families = {r: errors.refusal_family(r) for r in errors.REFUSAL_REASONS}
    assert set(families.values()) == set(errors.REFUSAL_FAMILIES) == {"admissibility", "grounding"}
    assert {r for r, f in families.items() if f == "admissibility"} == errors.ADMISSIBILITY_REASONS
    assert {r for r, f in families.items() if f == "grounding"} == errors.GROUNDING_REASONS
    with pytest.raises(ValueError, match="not an equation refusal reason"):
        errors.refusal_family("unbound_target")


def test_str_names_the_path() -> None:
    assert "(at $.a)" in str(ProblemGraphError("bad", reason="wrong_type", path="$.a"))
