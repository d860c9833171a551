"""The playground's plain functions: evaluate, operand rows, completion, HTML (no widgets here)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ssbg.admissibility import OPERATION_KINDS, REFUSED_UNIT_PROOF, check_operation
from ssbg.errors import ADMISSIBILITY_REASONS, PACK_REASONS, AdmissibilityError
from ssbg.playground import (
    KIND_EXAMPLES,
    OPERAND_STATUSES,
    PLAYGROUND_STATUSES,
    complete_unit,
    evaluate,
    load_playground_pack,
    operand_roles,
    resolve_operand,
    suggest_units,
    unknown_unit_hint,
)
from ssbg.units import default_pack, resolve_unit

REPO = Path(__file__).resolve().parents[1]

# One playground input per admissibility reason it can produce: (kind, units, lhs_unit, offending unit).
# unknown_symbol is absent on purpose: check_operation binds every symbol it names, so typed units
# cannot produce it (test_evaluate_never_raises_and_agrees_with_check_operation draws inputs to show it).
REFUSAL_CASES: dict[str, tuple[str, list[str | None], str | None, str | None]] = {
    "unit_mismatch": ("add", ["dollars", "hours"], None, "hours"),
    "unknown_unit": ("add", ["apples", "apples"], None, "apples"),
    "unit_unbound": ("add", ["hours", None], None, None),
    "unknown_operation": ("teleport", ["hours", "hours"], None, None),
    "operand_arity": ("divide", ["miles", "hours", "hours"], None, None),
    "rate_form_invalid": ("apply_rate", ["dollars", "hours"], None, "dollars"),
}
UNREACHABLE_FROM_TEXT = frozenset({"unknown_symbol"})

HOSTILE_TEXTS = (
    "<script>alert(1)</script>",
    'say "hi" & <b>bye</b>',
    "{braces}",
    "back\\slash",
    "new\nline",
    "été",
    "x" * 500,
    "dollars_per_",
    "per",
    "\u200b",
)


def test_examples_cover_every_operation_kind() -> None:
    assert set(KIND_EXAMPLES) == set(OPERATION_KINDS)


@pytest.mark.parametrize("kind", OPERATION_KINDS)
def test_each_kind_example_is_admitted_with_the_proof_of_check_operation(kind: str) -> None:
    units = KIND_EXAMPLES[kind]
    result = evaluate(kind, units)
    assert (result.status, result.proof) == ("admitted", check_operation(kind, list(units)).to_canonical_string())


@pytest.mark.parametrize("kind", OPERATION_KINDS)
def test_operand_roles_label_every_operand(kind: str) -> None:
    assert len(operand_roles(kind, 3)) == 3


def test_operand_roles_follow_the_check_operation_order() -> None:
    assert operand_roles("divide", 2) == ("dividend", "divisor")


def test_refusal_cases_cover_every_reason_reachable_from_text() -> None:
    assert set(REFUSAL_CASES) == ADMISSIBILITY_REASONS - UNREACHABLE_FROM_TEXT


@pytest.mark.parametrize("reason", sorted(REFUSAL_CASES))
def test_each_refusal_reason_comes_back_as_a_result(reason: str) -> None:
    kind, units, lhs, _ = REFUSAL_CASES[reason]
    result = evaluate(kind, units, lhs_unit=lhs)
    assert (result.status, result.refused_by, result.reason, result.proof) == (
        "refused",
        "admissibility",
        reason,
        REFUSED_UNIT_PROOF,
    )


@pytest.mark.parametrize("reason", sorted(REFUSAL_CASES))
def test_each_refusal_keeps_the_fields_of_the_typed_error(reason: str) -> None:
    kind, units, lhs, offending = REFUSAL_CASES[reason]
    with pytest.raises(AdmissibilityError) as info:
        check_operation(kind, units, lhs_unit=lhs)
    result = evaluate(kind, units, lhs_unit=lhs)
    assert (result.detail, result.offending_unit, result.message) == (
        info.value.detail,
        offending,
        info.value.message,
    )


@pytest.mark.parametrize("reason", sorted(REFUSAL_CASES))
def test_each_refusal_reason_is_shown_in_the_html(reason: str) -> None:
    kind, units, lhs, _ = REFUSAL_CASES[reason]
    assert f'data-reason="{reason}"' in evaluate(kind, units, lhs_unit=lhs).to_html()


def test_a_declared_lhs_of_another_dimension_is_refused_naming_it() -> None:
    result = evaluate("divide", ["miles", "hours"], lhs_unit="dollars")
    assert (result.reason, result.offending_unit) == ("unit_mismatch", "dollars")


def test_a_declared_lhs_of_the_derived_dimension_is_admitted_with_its_row() -> None:
    result = evaluate("divide", ["miles", "hours"], lhs_unit="mph")
    assert (result.status, result.lhs is not None and result.lhs.lemma) == ("admitted", "mile_per_hour")


def test_commensurable_units_of_another_scale_get_a_conversion_note() -> None:
    assert evaluate("add", ["hours", "minutes"]).notes == ("conversion needed: minute->hour x1/60",)


def test_a_declared_lhs_of_another_scale_gets_a_conversion_note() -> None:
    assert evaluate("add", ["hours", "hours"], lhs_unit="minutes").notes == ("conversion needed: hour->minute x60",)


def test_equal_units_need_no_conversion_note() -> None:
    assert evaluate("add", ["hours", "hours"]).notes == ()


def test_a_unit_without_fixed_scale_says_so_in_its_note() -> None:
    (note,) = evaluate("add", ["boxes", "dozen"]).notes
    assert note.startswith("conversion needed: dozen->box (the pack fixes no scale")


def test_a_blank_factor_is_a_pure_number_and_says_so() -> None:
    result = evaluate("fraction_portion", ["boxes", "  "])
    assert (result.status, result.units, result.operands[1].status) == ("admitted", ("boxes", None), "no_unit")


def test_an_unknown_unit_gets_close_pack_entries_as_a_hint() -> None:
    (note,) = evaluate("add", ["dolars", "dollars"]).notes
    assert "dollar" in note.split("close entries: ")[1].split(", ")


def test_operand_rows_show_vector_exponents_and_ratio() -> None:
    row = evaluate("apply_rate", ["dollars_per_hour", "hours"]).operands[0]
    assert (row.role, row.lemma, row.vector, row.exponents, row.ratio) == (
        "rate",
        "dollar_per_hour",
        "money/time",
        (("time", -1), ("money", 1)),
        "5/3",
    )


def test_operand_rows_are_shown_for_a_refusal_too() -> None:
    rows = evaluate("add", ["dollars", "apples"]).operands
    assert [(r.status, r.reason) for r in rows] == [("resolved", None), ("unresolved", "unknown_unit")]


@pytest.mark.parametrize(
    ("text", "status"), [("hours", "resolved"), ("apples", "unresolved"), (None, "no_unit"), (7, "unresolved")]
)
def test_resolve_operand_never_raises(text: object, status: str) -> None:
    row = resolve_operand(1, "operand", text)
    assert (row.status, row.status in OPERAND_STATUSES) == (status, True)


def test_resolve_operand_agrees_with_resolve_unit() -> None:
    unit = resolve_unit("square feet")
    row = resolve_operand(1, "operand", "square feet")
    assert (row.lemma, row.via, row.vector) == (unit.lemma, unit.via, unit.dimension.to_canonical_string())


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_hostile_text_is_refused_not_raised(text: str) -> None:
    result = evaluate("add", ["hours", text])
    assert (result.status, result.refused_by) == ("refused", "admissibility")


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_hostile_text_is_escaped_in_the_html(text: str) -> None:
    page = evaluate("add", ["hours", text], lhs_unit=text).to_html()
    assert "<script" not in page
    assert "<b>" not in page


@pytest.mark.parametrize(
    ("kind", "units", "lhs", "reason"),
    [
        (None, ["hours"], None, "unknown_operation"),
        (["add"], ["hours"], None, "unknown_operation"),
        ("add", "hours", None, "operand_arity"),
        ("add", None, None, "operand_arity"),
        ("add", [3, "hours"], None, "unknown_unit"),
        ("add", ["hours", "hours"], 42, "unknown_unit"),
        ("add", [], None, "operand_arity"),
    ],
)
def test_values_that_are_not_text_are_refused_with_a_reason(kind: Any, units: Any, lhs: Any, reason: str) -> None:
    assert evaluate(kind, units, lhs_unit=lhs).reason == reason


def test_a_missing_pack_is_a_pack_refusal() -> None:
    result = evaluate("add", ["hours", "hours"], pack="no/such/pack")
    assert (result.status, result.refused_by, result.reason) == ("refused", "pack", "pack_missing")


def test_a_corrupt_pack_is_a_pack_refusal(tmp_path: Path) -> None:
    folder = tmp_path / "broken_pack"
    shutil.copytree(REPO / "packs" / "en_units_v1", folder)
    with (folder / "lexicon.jsonl").open("a", encoding="utf-8") as lexicon:
        lexicon.write('{"lemma": "oops"}\n')
    result = evaluate("add", ["hours", "hours"], pack=str(folder))
    assert (result.refused_by, result.reason in PACK_REASONS, result.reason) == ("pack", True, "checksum_mismatch")


def test_a_pack_folder_loads_and_is_named_in_the_result(tmp_path: Path) -> None:
    folder = tmp_path / "copy"
    shutil.copytree(REPO / "packs" / "en_units_v1", folder)
    result = evaluate("add", ["hours", "minutes"], pack=folder)
    assert (result.status, result.pack) == ("admitted", "en_units_v1")


def test_a_blank_pack_text_is_the_default_pack() -> None:
    assert load_playground_pack(" ") is default_pack()


def test_complete_unit_lists_pack_entries_by_prefix() -> None:
    assert complete_unit("hou") == ("hour", "hours")


def test_every_completion_of_the_pack_resolves() -> None:
    pack = default_pack()
    for text in complete_unit(""):
        pack.resolve(text)


def test_complete_unit_completes_the_denominator_of_a_composite() -> None:
    money = resolve_unit("dollars").dimension
    numerators = {resolve_unit(h).numerator for h in complete_unit("dollars per mi")}
    assert numerators == {money}


def test_complete_unit_honours_the_limit() -> None:
    assert len(complete_unit("", limit=5)) == 5


def test_suggest_units_is_empty_for_empty_text() -> None:
    assert suggest_units("") == ()


def test_summary_of_an_admitted_result_is_its_proof() -> None:
    assert evaluate("divide", ["miles", "hours"]).summary() == "admitted: divide: [length,time] -> length/time"


def test_to_text_lists_each_operand() -> None:
    text = evaluate("apply_rate", ["dollars_per_hour", "hours"]).to_text()
    assert len(text.splitlines()) == 3


pack_texts = st.sampled_from(complete_unit(""))
typed_units = st.one_of(st.none(), pack_texts, st.text(max_size=30), st.sampled_from(HOSTILE_TEXTS))


@settings(max_examples=300, deadline=None)
@given(
    kind=st.one_of(st.sampled_from(OPERATION_KINDS), st.text(max_size=12)),
    units=st.lists(typed_units, max_size=5),
    lhs=st.one_of(st.none(), pack_texts, st.text(max_size=10)),
)
def test_evaluate_never_raises_and_agrees_with_check_operation(
    kind: str, units: list[str | None], lhs: str | None
) -> None:
    result = evaluate(kind, units, lhs_unit=lhs)
    cleaned = [u.strip() or None if isinstance(u, str) else u for u in units]
    cleaned_lhs = (lhs.strip() or None) if lhs is not None else None
    try:
        expected = ("admitted", check_operation(kind, cleaned, lhs_unit=cleaned_lhs).to_canonical_string(), None)
    except AdmissibilityError as exc:
        expected = ("refused", REFUSED_UNIT_PROOF, exc.reason)
    assert (result.status, result.proof, result.reason) == expected


@settings(max_examples=200, deadline=None)
@given(kind=st.sampled_from(OPERATION_KINDS), units=st.lists(typed_units, max_size=5))
def test_typed_units_never_produce_an_unreachable_reason(kind: str, units: list[str | None]) -> None:
    result = evaluate(kind, units)
    assert (result.status in PLAYGROUND_STATUSES, result.reason in UNREACHABLE_FROM_TEXT) == (True, False)



@pytest.mark.parametrize(("text", "expected"), [
    ("dollars_per_hourz", ("dollars_per_hour", "dollars_per_hours")),
    ("dollars per hourz", ("dollars_per_hour", "dollars_per_hours")),
    ("dollarz_per_hour", ("dollar_per_hour", "dollars_per_hour")),
])
def test_suggestions_for_a_rate_complete_its_unknown_side(text: str, expected: tuple[str, ...]) -> None:
    assert all(s in suggest_units(text) for s in expected)


def test_the_hint_names_the_unknown_side_of_a_rate() -> None:
    hint = unknown_unit_hint("dollars_per_hourz")
    assert hint is not None
    assert hint.startswith("'hourz' (in 'dollars_per_hourz') is not in pack en_units_v1; close entries: ")


def test_the_playground_shows_the_rate_hint() -> None:
    notes = evaluate("apply_rate", ["dollars_per_hourz", "hours"]).notes
    assert any("'hourz' (in 'dollars_per_hourz')" in n and "dollars_per_hour" in n for n in notes)
