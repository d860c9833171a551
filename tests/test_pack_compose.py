"""Pack composition (ADR 0017): laws, conflicts, provenance, memoization, pickling, the CLI."""

from __future__ import annotations

import hashlib
import json
import pickle
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ssbg.cli import EXIT_BAD_INPUT, EXIT_OK, EXIT_REFUSED, main
from ssbg.errors import PackError, UnitAlgebraError
from ssbg.units import (
    PackComponent,
    UnitPack,
    UnitVector,
    clear_pack_cache,
    compose,
    composition_checksum,
    load_pack,
    parse_unit,
)

UNITS_AND_COUNTS = "en_units_v1+en_counts_v1"
REPO = Path(__file__).resolve().parents[1]


def _row(lemma: str, **changes: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "lemma": lemma,
        "plural": lemma + "s",
        "surfaces": [],
        "domain": "count",
        "dimension": {"count": 1},
        "ratio": "1",
        "canonical": False,
        "container_size": None,
    }
    return {**row, **changes}


def _write_pack(folder: Path, name: str, rows: list[dict[str, Any]], version: str = "1.0.0") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    data = "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows).encode()
    (folder / "lexicon.jsonl").write_bytes(data)
    manifest = {"name": name, "version": version, "rows": len(rows), "sha256": hashlib.sha256(data).hexdigest()}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return folder


@contextmanager
def _packs(*specs: tuple[str, list[dict[str, Any]]]) -> Iterator[list[UnitPack]]:
    with tempfile.TemporaryDirectory() as tmp:
        yield [load_pack(_write_pack(Path(tmp) / name, name, rows)) for name, rows in specs]


# ------------------------------------------------------------------ provenance


def test_composed_pack_is_named_after_its_components() -> None:
    both = load_pack(UNITS_AND_COUNTS)
    assert (both.name, both.version) == (UNITS_AND_COUNTS, "1.0.0+1.0.0")


def test_composed_pack_keeps_every_component_checksum() -> None:
    units, counts = load_pack("en_units_v1"), load_pack("en_counts_v1")
    both = load_pack(UNITS_AND_COUNTS)
    assert both.components == (*units.components, *counts.components)
    assert [c.checksum for c in both.components] == [units.checksum, counts.checksum]


def test_composed_checksum_is_over_the_components() -> None:
    both = load_pack(UNITS_AND_COUNTS)
    lines = "".join(f"{c.name} {c.version} {c.checksum}\n" for c in both.components)
    assert both.checksum == composition_checksum(both.components) == hashlib.sha256(lines.encode()).hexdigest()


def test_a_single_pack_is_its_own_component() -> None:
    units = load_pack("en_units_v1")
    assert units.components == (PackComponent(units.name, units.version, units.checksum),)
    assert composition_checksum(units.components) == units.checksum


def test_provenance_names_every_component() -> None:
    both = load_pack(UNITS_AND_COUNTS)
    assert both.provenance == " + ".join(f"{c.name} {c.version} sha256:{c.checksum[:12]}" for c in both.components)


def test_a_pack_whose_name_disagrees_with_its_components_is_refused() -> None:
    units = load_pack("en_units_v1")
    with pytest.raises(PackError) as info:
        UnitPack(
            "renamed", units.version, units.entries, units.surfaces, units.folded, units.checksum, units.components
        )
    assert info.value.reason == "manifest_invalid"


# ------------------------------------------------------------- what it resolves


def test_the_composition_resolves_both_packs() -> None:
    both = load_pack(UNITS_AND_COUNTS)
    assert (parse_unit("cookies", both), parse_unit("hours", both)) == (UnitVector(count=1), UnitVector(time=1))


def test_count_nouns_compose_into_rates() -> None:
    assert parse_unit("dollars per cookie", load_pack(UNITS_AND_COUNTS)) == UnitVector(money=1, count=-1)


def test_every_entry_of_a_component_is_in_the_composition() -> None:
    both = load_pack(UNITS_AND_COUNTS)
    for name in ("en_units_v1", "en_counts_v1"):
        part = load_pack(name)
        assert all(both.entries[lemma] == entry for lemma, entry in part.entries.items())


def test_en_units_v1_alone_is_unchanged_by_the_composition() -> None:
    load_pack(UNITS_AND_COUNTS)
    assert len(load_pack("en_units_v1").entries) == 112
    with pytest.raises(UnitAlgebraError):
        parse_unit("cookies")


# -------------------------------------------------------------------- the laws

_LEMMAS = [f"thing{i}" for i in range(12)]


@st.composite
def _three_disjoint_packs(draw: st.DrawFn) -> list[list[dict[str, Any]]]:
    owner = draw(st.lists(st.integers(0, 3), min_size=len(_LEMMAS), max_size=len(_LEMMAS)))  # 3: in no pack
    shared = draw(st.sampled_from(_LEMMAS))  # listed identically in every pack: no conflict
    pairs = list(zip(_LEMMAS, owner, strict=True))
    return [[_row(lemma) for lemma, o in pairs if o == i or lemma == shared] for i in range(3)]


@settings(max_examples=25, deadline=None)
@given(_three_disjoint_packs())
def test_composition_is_associative(rows: list[list[dict[str, Any]]]) -> None:
    with _packs(("a", rows[0]), ("b", rows[1]), ("c", rows[2])) as (a, b, c):
        assert (a + b) + c == a + (b + c)


@settings(max_examples=25, deadline=None)
@given(_three_disjoint_packs())
def test_lookups_do_not_depend_on_the_order(rows: list[list[dict[str, Any]]]) -> None:
    with _packs(("a", rows[0]), ("b", rows[1])) as (a, b):
        texts = [*_LEMMAS, *(lemma + "s" for lemma in _LEMMAS), *(lemma.upper() + "S" for lemma in _LEMMAS)]
        assert [(a + b).lookup(t) for t in texts] == [(b + a).lookup(t) for t in texts]


@settings(max_examples=25, deadline=None)
@given(_three_disjoint_packs())
def test_composing_a_pack_with_itself_gives_it_back(rows: list[list[dict[str, Any]]]) -> None:
    with _packs(("a", rows[0]), ("b", rows[1])) as (a, b):
        assert a + a == a
        assert (a + b) + a == a + b


def test_a_single_pack_composes_to_itself() -> None:
    units = load_pack("en_units_v1")
    assert compose(units) is units


# ------------------------------------------------------------------ conflicts

_CONFLICTS = [
    ("same lemma, other entry", [_row("widget")], [_row("widget", plural="widgetz")], "widget"),
    ("same surface, other lemma", [_row("gadget", surfaces=["gizmo"])], [_row("doohickey", plural="gizmo")], "gizmo"),
    ("lemma is the other's surface", [_row("gizmo")], [_row("gadget", surfaces=["gizmo"])], "gizmo"),
    ("same normalized surface", [_row("gad", surfaces=["Big Gizmo"])], [_row("doo", plural="big-gizmo")], "big_gizmo"),
]


@pytest.mark.parametrize(("case", "first", "second", "detail"), _CONFLICTS, ids=[c[0] for c in _CONFLICTS])
def test_a_claim_of_both_packs_is_a_conflict(
    case: str, first: list[dict[str, Any]], second: list[dict[str, Any]], detail: str | None
) -> None:
    with _packs(("one", first), ("two", second)) as (a, b), pytest.raises(PackError) as info:
        compose(a, b)
    assert info.value.reason == "pack_conflict"
    assert info.value.packs == ("one", "two")
    assert info.value.path == "one+two"
    if detail is not None:
        assert info.value.detail == detail


def test_an_identical_entry_in_both_packs_is_no_conflict() -> None:
    with _packs(("one", [_row("widget"), _row("gadget")]), ("two", [_row("widget")])) as (a, b):
        assert (a + b).entries["widget"] == a.entries["widget"]


def test_two_versions_of_one_pack_conflict(tmp_path: Path) -> None:
    old = load_pack(_write_pack(tmp_path / "v1", "same", [_row("widget")], version="1.0.0"))
    new = load_pack(_write_pack(tmp_path / "v2", "same", [_row("widget")], version="2.0.0"))
    with pytest.raises(PackError) as info:
        compose(old, new)
    assert (info.value.reason, info.value.detail) == ("pack_conflict", "same")


def test_en_units_v1_and_a_pack_claiming_its_units_conflict(tmp_path: Path) -> None:
    rival = load_pack(_write_pack(tmp_path / "rival", "rival", [_row("hour")]))
    with pytest.raises(PackError) as info:
        load_pack("en_units_v1") + rival
    fields = (info.value.reason, info.value.detail, info.value.packs)
    assert fields == ("pack_conflict", "hour", ("en_units_v1", "rival"))


@pytest.mark.parametrize("bad", [None, "en_units_v1", 3])
def test_compose_takes_packs_only(bad: object) -> None:
    with pytest.raises(UnitAlgebraError) as info:
        compose(load_pack("en_units_v1"), bad)  # type: ignore[arg-type]
    assert (info.value.reason, info.value.path) == ("malformed_unit", "packs[1]")


def test_compose_needs_a_pack() -> None:
    with pytest.raises(UnitAlgebraError) as info:
        compose()
    assert info.value.reason == "malformed_unit"


def test_adding_a_non_pack_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        load_pack("en_units_v1") + 1  # type: ignore[operator]


@pytest.mark.parametrize("spec", ["en_units_v1+", "+en_counts_v1", "en_units_v1+no_such_pack"])
def test_a_composed_name_with_a_missing_part(spec: str) -> None:
    with pytest.raises(PackError) as info:
        load_pack(spec)
    assert info.value.reason == "pack_missing"


def test_a_conflict_error_pickles_with_its_fields(tmp_path: Path) -> None:
    rival = load_pack(_write_pack(tmp_path / "rival", "rival", [_row("hour")]))
    with pytest.raises(PackError) as info:
        load_pack("en_units_v1") + rival
    again = pickle.loads(pickle.dumps(info.value))
    assert (again.reason, again.detail, again.packs) == (info.value.reason, info.value.detail, info.value.packs)


# --------------------------------------------------------------- memoization


def test_a_composition_is_loaded_once() -> None:
    assert load_pack(UNITS_AND_COUNTS) is load_pack(UNITS_AND_COUNTS)


def test_plus_and_compose_and_load_pack_agree() -> None:
    units, counts = load_pack("en_units_v1"), load_pack("en_counts_v1")
    assert units + counts is compose(units, counts) is load_pack(UNITS_AND_COUNTS)


def test_clear_pack_cache_forgets_compositions() -> None:
    before = load_pack(UNITS_AND_COUNTS)
    clear_pack_cache()
    after = load_pack(UNITS_AND_COUNTS)
    assert after is not before
    assert after == before


def test_import_ssbg_loads_no_pack() -> None:
    code = (
        "import ssbg, ssbg.units as u\n"
        "print(u.default_pack.cache_info().currsize, u._load_named.cache_info().currsize,"
        " u._compose.cache_info().currsize)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "0", "0"]


# ------------------------------------------------------------------- pickling


def test_a_composed_pack_pickles() -> None:
    both = load_pack(UNITS_AND_COUNTS)
    again = pickle.loads(pickle.dumps(both))
    assert again == both
    assert again.provenance == both.provenance
    assert again.resolve("T-shirts") == both.resolve("T-shirts")


def test_a_single_pack_pickles() -> None:
    units = load_pack("en_units_v1")
    assert pickle.loads(pickle.dumps(units)) == units


# ------------------------------------------------------------------------ CLI


def test_check_takes_a_composed_pack(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "apply_rate", "dollars per cookie", "cookies", "--pack", UNITS_AND_COUNTS]) == EXIT_OK
    assert capsys.readouterr().out.splitlines()[0] == "admitted apply_rate: [money/count,count] -> money"


def test_check_reports_a_conflict_as_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rival = _write_pack(tmp_path / "rival", "rival", [_row("hour")])
    assert main(["check", "add", "hours", "hours", "--pack", f"en_units_v1+{rival}"]) == EXIT_BAD_INPUT
    assert "pack_conflict" in capsys.readouterr().err


def test_bind_takes_a_composed_pack(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    problem = {
        "entities": ["Ann"],
        "initial_state": [{"entity": "Ann", "quantity": {"value": 3, "unit": "cookies"}}],
        "operations": [{"actor": "Ann", "kind": "add", "operand": {"value": 2, "unit": "cookies"}}],
        "unknown": {"entity": "Ann", "unit": "cookies"},
    }
    path = tmp_path / "p.json"
    path.write_text(json.dumps(problem))
    assert main(["bind", str(path), "--pack", UNITS_AND_COUNTS, "--fail-on-refusal"]) == EXIT_OK
    out = capsys.readouterr().out
    both = load_pack(UNITS_AND_COUNTS)
    assert f"pack={both.citation} " in out
    assert both.citation == "+".join(f"{c.name}@{c.version}#{c.checksum[:12]}" for c in both.components)
    assert 'proof="add: [count,count] -> count"' in out


def _apples_lane(tmp_path: Path) -> Path:
    """data/lanes/kinds.jsonl's kind-add-refused case, expected admitted as counts apples."""
    lane = json.loads((REPO / "data" / "lanes" / "kinds.jsonl").read_text().splitlines()[1])
    assert lane["problem_id"] == "kind-add-refused"
    lane["expected"].update(
        equation_statuses=[
            {"lhs": "op_000_result", "kind": "add", "status": "admitted", "reason": None, "propagated_from": None,
             "proof": "add: [count,count] -> count"}
        ],
        target_status="bound", target_reason=None, resolved_unit="count",
    )  # fmt: skip
    path = tmp_path / "apples.jsonl"
    path.write_text(json.dumps(lane) + "\n")
    return path


def test_lane_takes_a_composed_pack(tmp_path: Path) -> None:
    assert main(["lane", str(_apples_lane(tmp_path)), "--pack", UNITS_AND_COUNTS]) == EXIT_OK


def test_the_same_lane_refuses_apples_on_the_default_pack(tmp_path: Path) -> None:
    assert main(["lane", str(_apples_lane(tmp_path))]) == EXIT_REFUSED
