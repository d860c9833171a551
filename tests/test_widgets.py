"""The widgets driven headless: set control values, read the shown output and state."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import traitlets

from ssbg.admissibility import OPERATION_KINDS
from ssbg.errors import AdmissibilityError
from ssbg.interactive import OPERAND_SLOTS
from ssbg.widgets import AdmissibilityPlayground
from tests.test_interactive import HOSTILE_TEXTS, REFUSAL_CASES

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
