"""The widgets driven headless: set control values, read the shown output and state."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import traitlets

from ssbg.admissibility import OPERATION_KINDS
from ssbg.browser import BrowserError, filter_equations, filter_options, index_records, problem_choices
from ssbg.errors import AdmissibilityError
from ssbg.playground import OPERAND_SLOTS
from ssbg.widgets import AdmissibilityPlayground, CorpusBrowser
from tests.test_playground import HOSTILE_TEXTS, REFUSAL_CASES

REPO = Path(__file__).resolve().parents[1]


def drive(playground: AdmissibilityPlayground, kind: str, units: list[str | None], lhs: str | None = None) -> None:
    """Set the controls the way a person would: kind, operand count, each operand, the lhs."""
    playground.kind.value = kind
    playground.count.value = len(units)
    for field, unit in zip(playground.operands, units, strict=False):
        field.value = unit or ""
    playground.lhs.value = lhs or ""


def test_the_initial_operation_is_shown_admitted() -> None:
    playground = AdmissibilityPlayground("apply_rate", ["dollars_per_hour", "hours"])
    assert 'class="ssbg-proof">apply_rate: [money/time,time] -&gt; money<' in playground.output.value


def test_changing_an_operand_changes_the_output_to_the_refusal() -> None:
    playground = AdmissibilityPlayground("apply_rate", ["dollars_per_hour", "hours"])
    playground.operands[1].value = "dollars"
    assert 'data-reason="unit_mismatch"' in playground.output.value


def test_changing_the_operand_back_restores_the_proof() -> None:
    playground = AdmissibilityPlayground("apply_rate", ["dollars_per_hour", "hours"])
    playground.operands[1].value = "dollars"
    playground.operands[1].value = "hours"
    assert playground.result.status == "admitted"


# unknown_operation cannot be reached through the widget: the kind is a Dropdown over OPERATION_KINDS
# (test_the_kind_dropdown_only_offers_the_closed_vocabulary); every other reachable reason is driven.
@pytest.mark.parametrize("reason", sorted(set(REFUSAL_CASES) - {"unknown_operation"}))
def test_each_refusal_reason_is_shown_when_driven_through_the_controls(reason: str) -> None:
    kind, units, lhs, _ = REFUSAL_CASES[reason]
    playground = AdmissibilityPlayground()
    drive(playground, kind, units, lhs)
    assert (playground.result.reason, f'data-reason="{reason}"' in playground.output.value) == (reason, True)


@pytest.mark.parametrize("kind", OPERATION_KINDS)
def test_the_dropdown_reaches_every_kind(kind: str) -> None:
    playground = AdmissibilityPlayground()
    playground.kind.value = kind
    assert playground.result.kind == kind


def test_the_kind_dropdown_only_offers_the_closed_vocabulary() -> None:
    playground = AdmissibilityPlayground()
    with pytest.raises(traitlets.TraitError):
        playground.kind.value = "teleport"


def test_an_unknown_initial_kind_is_a_typed_error() -> None:
    with pytest.raises(AdmissibilityError) as info:
        AdmissibilityPlayground("teleport", ["hours"])
    assert info.value.reason == "unknown_operation"


def test_more_initial_units_than_slots_is_a_typed_error() -> None:
    with pytest.raises(AdmissibilityError) as info:
        AdmissibilityPlayground("add", ["hours"] * (OPERAND_SLOTS + 1))
    assert info.value.reason == "operand_arity"


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_bad_text_in_an_operand_shows_a_refusal(text: str) -> None:
    playground = AdmissibilityPlayground("add", ["hours", "hours"])
    playground.operands[1].value = text
    assert playground.result.status == "refused"


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_bad_text_is_escaped_in_the_output(text: str) -> None:
    playground = AdmissibilityPlayground("add", ["hours", "hours"])
    playground.operands[1].value = text
    playground.lhs.value = text
    assert "<script" not in playground.output.value


def test_a_declared_lhs_is_checked() -> None:
    playground = AdmissibilityPlayground("divide", ["miles", "hours"])
    playground.lhs.value = "dollars"
    assert (playground.result.reason, playground.result.offending_unit) == ("unit_mismatch", "dollars")


def test_a_conversion_note_is_shown() -> None:
    playground = AdmissibilityPlayground("add", ["hours", "minutes"])
    assert 'class="ssbg-note">conversion needed: minute-&gt;hour x1/60<' in playground.output.value


def test_the_operand_vectors_are_shown() -> None:
    playground = AdmissibilityPlayground("apply_rate", ["dollars_per_hour", "hours"])
    assert "<td" in playground.output.value
    assert ">money/time<" in playground.output.value


def test_a_missing_pack_shows_a_pack_refusal() -> None:
    playground = AdmissibilityPlayground("add", ["hours", "hours"])
    playground.pack.value = "no/such/pack"
    assert (playground.result.refused_by, playground.result.reason) == ("pack", "pack_missing")


def test_clearing_the_pack_text_returns_to_the_default_pack() -> None:
    playground = AdmissibilityPlayground("add", ["hours", "hours"], pack="no/such/pack")
    playground.pack.value = ""
    assert (playground.result.status, playground.result.pack) == ("admitted", "en_units_v1")


def test_a_pack_folder_is_loaded_and_used(tmp_path: Path) -> None:
    folder = tmp_path / "pack_copy"
    shutil.copytree(REPO / "packs" / "en_units_v1", folder)
    playground = AdmissibilityPlayground("add", ["hours", "minutes"])
    playground.pack.value = str(folder)
    assert (playground.result.status, playground.result.pack) == ("admitted", "en_units_v1")


def test_typing_a_prefix_narrows_the_completions() -> None:
    playground = AdmissibilityPlayground("add", ["hours", "hours"])
    playground.operands[0].value = "hou"
    assert playground.operands[0].options == ("hour", "hours")


def test_a_missing_pack_offers_no_completions() -> None:
    playground = AdmissibilityPlayground("add", ["hours", "hours"], pack="no/such/pack")
    assert playground.operands[0].options == ()


def test_the_operand_count_hides_unused_fields() -> None:
    playground = AdmissibilityPlayground("add", ["hours", "hours"])
    playground.count.value = 1
    assert [f.layout.display for f in playground.operands] == [None] + ["none"] * (OPERAND_SLOTS - 1)


def test_the_operand_labels_follow_the_kind() -> None:
    playground = AdmissibilityPlayground("add", ["hours", "hours"])
    playground.kind.value = "divide"
    assert [f.description for f in playground.operands[:2]] == ["1. dividend", "2. divisor"]


def test_hidden_operands_are_not_evaluated() -> None:
    playground = AdmissibilityPlayground("add", ["hours", "hours", "apples"])
    playground.count.value = 2
    assert playground.result.units == ("hours", "hours")


def test_the_playground_displays_as_its_box() -> None:
    bundle = AdmissibilityPlayground()._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle


# ============================================================================= the corpus browser


@pytest.fixture(scope="module")
def lanes() -> Any:
    from ssbg.stats.batch import run_batch

    return run_batch([REPO / "data" / "lanes"], progress=False)


@pytest.fixture(scope="module")
def records() -> Any:
    return index_records([REPO / "data" / "lanes"])


def shown_key(browser: CorpusBrowser) -> tuple[str, str] | None:
    return None if browser.shown is None else (browser.shown.corpus, browser.shown.problem_id)


def test_the_browser_starts_on_the_first_problem_of_the_table(lanes: Any) -> None:
    browser = CorpusBrowser(lanes.equations, lanes.problems)
    assert shown_key(browser) == problem_choices(lanes.equations)[0][1]


@pytest.mark.parametrize("name", ["corpus", "reason", "kind"])
def test_each_dropdown_filters_the_table(lanes: Any, name: str) -> None:
    browser = CorpusBrowser(lanes.equations)
    value = filter_options(lanes.equations)[name][-1]
    getattr(browser, name).value = value
    assert browser.filtered.index.tolist() == filter_equations(lanes.equations, **{name: value}).index.tolist()


def test_the_unit_field_filters_the_table(lanes: Any) -> None:
    browser = CorpusBrowser(lanes.equations)
    browser.unit.value = "widgets"
    assert {key for _, key in problem_choices(browser.filtered)} == {("ssbg", "refusal-unknown-unit-propagates")}


def test_the_listed_problems_follow_the_filters(lanes: Any) -> None:
    browser = CorpusBrowser(lanes.equations)
    browser.reason.value = "unit_mismatch"
    assert [label for label, _ in browser.problem.options] == [
        label for label, _ in problem_choices(filter_equations(lanes.equations, reason="unit_mismatch"))
    ]


def test_the_shown_problem_has_a_row_with_the_filtered_reason(lanes: Any) -> None:
    browser = CorpusBrowser(lanes.equations)
    browser.reason.value = "operand_arity"
    assert browser.shown is not None
    assert "operand_arity" in browser.shown.equations["reason"].astype(object).tolist()


def test_picking_a_problem_shows_it(lanes: Any) -> None:
    browser = CorpusBrowser(lanes.equations, lanes.problems)
    browser.problem.value = 3
    assert shown_key(browser) == problem_choices(lanes.equations)[3][1]


def test_the_pick_survives_a_filter_that_still_matches_it(lanes: Any) -> None:
    browser = CorpusBrowser(lanes.equations)
    browser.reason.value = "operand_arity"
    browser.problem.value = 1
    picked = shown_key(browser)
    browser.corpus.value = "ssbg"
    assert shown_key(browser) == picked


def test_no_match_shows_no_problem_and_says_so(lanes: Any) -> None:
    browser = CorpusBrowser(lanes.equations)
    browser.unit.value = "no-such-unit"
    assert (browser.shown, "no equation matches" in browser.detail.value) == (None, True)


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_bad_unit_text_never_raises_and_is_not_injected(lanes: Any, text: str) -> None:
    browser = CorpusBrowser(lanes.equations)
    browser.unit.value = text
    assert "<script" not in browser.detail.value + browser.matches.value


def test_the_count_line_says_how_many_rows_match(lanes: Any) -> None:
    browser = CorpusBrowser(lanes.equations)
    browser.reason.value = "unit_mismatch"
    assert f">{len(browser.filtered)} equations in " in browser.matches.value


def test_with_records_the_detail_shows_text_and_diagram(lanes: Any, records: Any) -> None:
    browser = CorpusBrowser(lanes.equations, lanes.problems, records)
    browser.unit.value = "widgets"
    assert ("<svg" in browser.detail.value, "Bea" in browser.detail.value) == (True, True)


def test_a_table_without_the_documented_columns_is_refused(lanes: Any) -> None:
    with pytest.raises(BrowserError) as info:
        CorpusBrowser(lanes.equations.drop(columns=["kind"]))
    assert info.value.reason == "missing_column"
