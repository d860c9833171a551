"""Expected-shape lanes: every lane passes, the checker catches divergences, bad lanes refuse with file:line."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from ssbg.adapter import bind_math_problem_graph
from ssbg.admissibility import OPERATION_KINDS
from ssbg.errors import ADMISSIBILITY_REASONS, GROUNDING_REASONS, QUESTION_TARGET_REASONS, LaneError
from ssbg.lanes import (
    PROPAGATED_ONLY_REASONS,
    UNREACHABLE_ADMISSIBILITY_REASONS,
    UNREACHABLE_TARGET_REASONS,
    Divergence,
    LaneCase,
    check_case,
    check_lane,
    check_lanes,
    lane_case_from_dict,
    lane_coverage,
    lane_files,
    load_lane,
    register,
)
from ssbg.model import QUESTION_FORMS
from ssbg.problem import LANE_EXPECTED_KEY, MathProblemGraph
from ssbg.units import default_pack
from tests.strategies import problem_graphs

LANES = Path(__file__).resolve().parents[1] / "data" / "lanes"
LANE_FILES = lane_files([LANES])
ALL_CASES: tuple[LaneCase, ...] = check_lanes([LANES]).cases
COVERAGE = lane_coverage(ALL_CASES)


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _write(path: Path, rows: list[Any]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _good_row(case_id: str = "good") -> dict[str, Any]:
    row = _lines(LANES / "kinds.jsonl")[0]
    row["problem_id"] = case_id
    return row


# ------------------------------------------------------------------ the lanes themselves


@pytest.mark.parametrize("case", ALL_CASES, ids=lambda c: c.case_id)
def test_every_lane_case_binds_to_its_expected_shape(case: LaneCase) -> None:
    assert check_case(case) == ()


def test_the_lanes_hold_at_least_sixty_hand_written_cases() -> None:
    assert len(ALL_CASES) >= 60


@pytest.mark.parametrize("case", ALL_CASES, ids=lambda c: c.case_id)
def test_every_case_has_an_english_text(case: LaneCase) -> None:
    assert case.problem.text is not None
    assert case.problem.text.rstrip().endswith("?")


# ------------------------------------------------------------------ coverage, computed from the lanes


@pytest.mark.parametrize("kind", OPERATION_KINDS)
def test_lanes_admit_every_kind(kind: str) -> None:
    assert kind in COVERAGE.kinds_admitted


@pytest.mark.parametrize("kind", OPERATION_KINDS)
def test_lanes_refuse_every_kind_as_a_root_cause(kind: str) -> None:
    assert kind in COVERAGE.kinds_refused


@pytest.mark.parametrize("reason", sorted(ADMISSIBILITY_REASONS - set(UNREACHABLE_ADMISSIBILITY_REASONS)))
def test_lanes_cover_every_reachable_admissibility_reason(reason: str) -> None:
    covered = COVERAGE.propagated_reasons if reason in PROPAGATED_ONLY_REASONS else COVERAGE.root_reasons
    assert reason in covered


def test_the_unreachable_table_covers_only_adr_0134s_reasons() -> None:
    assert set(UNREACHABLE_ADMISSIBILITY_REASONS) <= ADMISSIBILITY_REASONS
    assert not set(UNREACHABLE_ADMISSIBILITY_REASONS) & GROUNDING_REASONS


def test_lanes_cover_propagated_refusals() -> None:
    assert COVERAGE.propagated_reasons == PROPAGATED_ONLY_REASONS


@pytest.mark.parametrize("form", sorted(QUESTION_FORMS))
def test_lanes_cover_every_question_form(form: str) -> None:
    assert form in COVERAGE.question_forms


@pytest.mark.parametrize("reason", sorted(QUESTION_TARGET_REASONS - set(UNREACHABLE_TARGET_REASONS)))
def test_lanes_cover_every_reachable_question_target_reason(reason: str) -> None:
    assert reason in COVERAGE.target_reasons


@pytest.mark.parametrize("steps", [3, 4, 5, 6])
def test_lanes_hold_multi_step_chains(steps: int) -> None:
    assert any(len(c.problem.operations) == steps for c in ALL_CASES)


def test_lanes_hold_transfers_between_entities() -> None:
    assert sum(op.kind == "transfer" for c in ALL_CASES for op in c.problem.operations) >= 5


def _unit_texts(case: LaneCase) -> set[str]:
    data = case.problem.to_dict()
    found: set[str] = set()

    def walk(node: object, key: str = "") -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, k)
        elif isinstance(node, list):
            for v in node:
                walk(v, key)
        elif isinstance(node, str) and key.endswith("unit"):
            found.add(node)

    walk(data)
    return found


@pytest.mark.parametrize("unit", ["feet", "ft", "people", "children", "mph", "square feet", "$", "%",
                                  "miles per hour", "dollars per hour", "per cent", "dozen"])
def test_lanes_use_irregular_composite_and_symbol_units(unit: str) -> None:
    assert any(unit in _unit_texts(c) for c in ALL_CASES)


@pytest.mark.parametrize("note", ["hour->minute", "dollar->cent", "cent->dollar", "week->day", "pound->ounce",
                                  "euro->dollar x?"])
def test_lanes_pin_conversion_notes(note: str) -> None:
    proofs = [eq.proof or "" for c in ALL_CASES for eq in c.expected.equation_statuses]
    assert any(note in p for p in proofs)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problem_graphs())
def test_the_adapter_never_produces_a_reason_the_lanes_declare_unreachable(graph: MathProblemGraph) -> None:
    # If this fails, the adapter has learned a new refusal: add lanes for it and
    # drop it from ssbg.lanes' UNREACHABLE_* tables (docs/adr/0005-lane-format.md).
    bound = bind_math_problem_graph(graph)
    for eq in bound.equations:
        assert eq.refusal_reason not in UNREACHABLE_ADMISSIBILITY_REASONS
        assert eq.refusal_reason is None or eq.refusal_reason in ADMISSIBILITY_REASONS  # never a reading's outcome
        if eq.refusal_reason in PROPAGATED_ONLY_REASONS:
            assert eq.propagated_from is not None
    assert bound.unknowns[0].target_refusal_reason not in UNREACHABLE_TARGET_REASONS


# ------------------------------------------------------------------ the checker catches divergences


def _mutate(row: dict[str, Any], path: tuple[str | int, ...], value: object) -> tuple[object, dict[str, Any]]:
    node: Any = row[LANE_EXPECTED_KEY]
    for step in path[:-1]:
        node = node[step]
    old = node[path[-1]]
    node[path[-1]] = value
    return old, row


MUTATIONS = [
    (("symbols",), lambda v: v + 1, "symbols"),
    (("facts",), lambda v: v + 2, "facts"),
    (("question_form",), lambda v: "ratio" if v != "ratio" else "count", "question_form"),
    (("state_index",), lambda v: "initial" if v != "initial" else "terminal", "state_index"),
    (("resolved_by",), lambda v: "op_009_result", "resolved_by"),
    (("resolved_unit",), lambda v: "time", "resolved_unit"),
    (("equation_statuses", 0, "lhs"), lambda v: "op_009_result", "equation_statuses[0].lhs"),
    (("equation_statuses", 0, "kind"), lambda v: "divide" if v != "divide" else "add", "equation_statuses[0].kind"),
    (("equation_statuses", 0, "proof"), lambda v: "add: [time] -> time", "equation_statuses[0].proof"),
]


@pytest.mark.parametrize(("path", "change", "field"), MUTATIONS, ids=[m[2] for m in MUTATIONS])
def test_a_mutated_expectation_is_reported_as_one_divergence(
    tmp_path: Path, path: tuple[str | int, ...], change: Any, field: str
) -> None:
    row = _lines(LANES / "kinds.jsonl")[0]  # kind-add-admitted: bound, one admitted equation with a proof
    got = row[LANE_EXPECTED_KEY]
    for step in path:
        got = got[step]
    old, row = _mutate(row, path, change(got))
    lane = _write(tmp_path / "mutated.jsonl", [row])
    report = check_lane(lane)
    assert report.divergences == (
        Divergence(row["problem_id"], f"{lane}:1", field, change(old), old),
    )


def test_a_refusal_expected_where_the_graph_admits_shows_status_and_reason(tmp_path: Path) -> None:
    row = _lines(LANES / "kinds.jsonl")[0]
    row[LANE_EXPECTED_KEY]["equation_statuses"][0].update(status="refused", reason="unit_mismatch")
    report = check_lane(_write(tmp_path / "lane.jsonl", [row]))
    assert [(d.field, d.expected, d.got) for d in report.divergences] == [
        ("equation_statuses[0].status", "refused", "admitted"),
        ("equation_statuses[0].reason", "unit_mismatch", None),
    ]


def test_a_missing_equation_is_named_by_its_position(tmp_path: Path) -> None:
    row = next(r for r in _lines(LANES / "kinds.jsonl") if r["problem_id"] == "kind-transfer-admitted")
    exp = row[LANE_EXPECTED_KEY]
    exp["equation_statuses"] = exp["equation_statuses"][:1]
    exp["equations"] = 1
    report = check_lane(_write(tmp_path / "lane.jsonl", [row]))
    assert [(d.field, d.expected, d.got) for d in report.divergences] == [
        ("equations", 1, 2),
        ("equation_statuses[1]", None, "op_000_received"),
    ]


def test_a_target_expected_bound_but_refused_shows_status_and_reason(tmp_path: Path) -> None:
    row = next(r for r in _lines(LANES / "kinds.jsonl") if r["problem_id"] == "kind-add-refused")
    row[LANE_EXPECTED_KEY].update(target_status="bound", target_reason=None)
    report = check_lane(_write(tmp_path / "lane.jsonl", [row]))
    assert [(d.field, d.expected, d.got) for d in report.divergences] == [
        ("target_status", "bound", "refused"),
        ("target_reason", None, "unknown_expected_unit"),
    ]


def test_report_lists_every_divergence_then_the_summary(tmp_path: Path) -> None:
    rows = _lines(LANES / "kinds.jsonl")[:3]
    rows[0][LANE_EXPECTED_KEY]["symbols"] += 1
    rows[2][LANE_EXPECTED_KEY]["facts"] += 1
    report = check_lane(_write(tmp_path / "lane.jsonl", rows))
    lines = report.format().splitlines()
    assert (report.ok, len(report.cases), len(report.divergences)) == (False, 3, 2)
    assert lines[-1] == "3 cases, 2 divergences"
    assert [line.split()[1] for line in lines[:-1]] == [rows[0]["problem_id"] + ":", rows[2]["problem_id"] + ":"]


def test_check_lane_accepts_loaded_cases_and_a_path_alike() -> None:
    lane = LANES / "questions.jsonl"
    assert check_lane(load_lane(lane)) == check_lane(lane)


def test_check_lane_refuses_values_that_are_not_cases() -> None:
    with pytest.raises(LaneError) as info:
        check_lane([{"problem_id": "x"}])  # type: ignore[list-item]
    assert info.value.reason == "malformed_lane"


# ------------------------------------------------------------------ malformed lanes


def _lane_with_bad_line(tmp_path: Path, bad: bytes) -> Path:
    good = json.dumps(_good_row("first")).encode()
    path = tmp_path / "bad.jsonl"
    path.write_bytes(good + b"\n\n" + bad + b"\n")  # the bad line is line 3 (line 2 is blank)
    return path


def _expected_with(**changes: Any) -> bytes:
    row = _good_row("second")
    row[LANE_EXPECTED_KEY].update(changes)
    return json.dumps(row).encode()


def _equation_with(**changes: Any) -> bytes:
    row = _good_row("second")
    row[LANE_EXPECTED_KEY]["equation_statuses"][0].update(changes)
    return json.dumps(row).encode()


def _row_without(key: str) -> bytes:
    row = _good_row("second")
    del row[key]
    return json.dumps(row).encode()


def _problem_with(**changes: Any) -> bytes:
    row = _good_row("second")
    row.update(changes)
    return json.dumps(row).encode()


BAD_LINES = {
    "not json": (b"{not json", "$"),
    "not utf-8": (b'{"problem_id": "\xff"}', "$"),
    "not an object": (b"[1, 2]", "$"),
    "nested too deeply": (b"[" * 100_000, "$"),
    "no expected": (_row_without(LANE_EXPECTED_KEY), "$.expected"),
    "no case id": (_row_without("problem_id"), "$.problem_id"),
    "no text": (_row_without("text"), "$.text"),
    "repeated case id": (json.dumps(_good_row("first")).encode(), "$.problem_id"),
    "bad problem": (_problem_with(operations=[{"actor": "Ann", "kind": "teleport", "operand": {}}]),
                    "$.operations[0].kind"),
    "unknown expected field": (_expected_with(colour="red"), "$.expected.colour"),
    "missing count": (json.dumps({**_good_row("second"), LANE_EXPECTED_KEY: {
        k: v for k, v in _good_row()[LANE_EXPECTED_KEY].items() if k != "facts"}}).encode(), "$.expected.facts"),
    "negative count": (_expected_with(symbols=-1), "$.expected.symbols"),
    "boolean count": (_expected_with(symbols=True), "$.expected.symbols"),
    "count disagrees with list": (_expected_with(equations=3), "$.expected.equation_statuses"),
    "unknown question form": (_expected_with(question_form="quiz"), "$.expected.question_form"),
    "target reason without refusal": (_expected_with(target_reason="unbound_target"), "$.expected.target_reason"),
    "unknown target reason": (_expected_with(target_status="refused", target_reason="nope"),
                              "$.expected.target_reason"),
    "bad state index": (_expected_with(state_index="later"), "$.expected.state_index"),
    "equations not a list": (_expected_with(equation_statuses={}), "$.expected.equation_statuses"),
    "unknown kind": (_equation_with(kind="teleport"), "$.expected.equation_statuses[0].kind"),
    "unknown status": (_equation_with(status="pending"), "$.expected.equation_statuses[0].status"),
    "refused without reason": (_equation_with(status="refused"), "$.expected.equation_statuses[0].reason"),
    "unknown reason": (_equation_with(status="refused", reason="bad_luck"),
                       "$.expected.equation_statuses[0].reason"),
    "a reading's outcome": (_equation_with(status="refused", reason="ambiguous_grounding"),  # ADR 0024: the seven only
                            "$.expected.equation_statuses[0].reason"),
    "propagated from a root cause": (_equation_with(status="refused", reason="unknown_unit",
                                                    propagated_from="op_000_result"),
                                     "$.expected.equation_statuses[0].propagated_from"),
    "empty lhs": (_equation_with(lhs=""), "$.expected.equation_statuses[0].lhs"),
    "empty proof": (_equation_with(proof=""), "$.expected.equation_statuses[0].proof"),
    "unknown equation field": (_equation_with(colour="red"), "$.expected.equation_statuses[0].colour"),
}


@pytest.mark.parametrize(("bad", "detail"), list(BAD_LINES.values()), ids=list(BAD_LINES))
def test_a_malformed_line_refuses_with_file_line_and_json_path(tmp_path: Path, bad: bytes, detail: str) -> None:
    lane = _lane_with_bad_line(tmp_path, bad)
    with pytest.raises(LaneError) as info:
        load_lane(lane)
    assert (info.value.reason, info.value.path, info.value.detail) == ("malformed_lane", f"{lane}:3", detail)


def test_a_missing_lane_file_is_lane_missing(tmp_path: Path) -> None:
    with pytest.raises(LaneError) as info:
        load_lane(tmp_path / "absent.jsonl")
    assert (info.value.reason, info.value.path) == ("lane_missing", str(tmp_path / "absent.jsonl"))


def test_a_folder_without_lanes_is_lane_missing(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a lane", encoding="utf-8")
    with pytest.raises(LaneError) as info:
        lane_files([tmp_path])
    assert (info.value.reason, info.value.path) == ("lane_missing", str(tmp_path))


def test_a_folder_expands_to_its_lanes_sorted(tmp_path: Path) -> None:
    for name in ("b.jsonl", "a.jsonl", "c.txt"):
        (tmp_path / name).write_text("", encoding="utf-8")
    assert lane_files([tmp_path]) == (tmp_path / "a.jsonl", tmp_path / "b.jsonl")


def test_a_case_id_repeated_across_lanes_refuses_at_the_second(tmp_path: Path) -> None:
    _write(tmp_path / "a.jsonl", [_good_row("same")])
    second = _write(tmp_path / "b.jsonl", [_good_row("other"), _good_row("same")])
    with pytest.raises(LaneError) as info:
        check_lanes([tmp_path])
    assert (info.value.reason, info.value.path) == ("malformed_lane", f"{second}:2")


def test_lane_error_from_a_dict_names_the_given_source() -> None:
    with pytest.raises(LaneError) as info:
        lane_case_from_dict("not a dict", source="here.jsonl:7")
    assert (info.value.reason, info.value.path, info.value.detail) == ("malformed_lane", "here.jsonl:7", "$")


# ------------------------------------------------------------------ lanes read as a corpus


@pytest.mark.parametrize("lane", LANE_FILES, ids=lambda p: p.name)
def test_a_lane_reads_as_ssbg_jsonl_with_its_case_ids(lane: Path) -> None:
    from ssbg.reading.readers.ssbg_jsonl import read_ssbg_jsonl

    records = list(read_ssbg_jsonl(lane))
    assert [r.refusal for r in records] == [None] * len(records)
    assert [r.problem_id for r in records] == [c.case_id for c in load_lane(lane)]


# ------------------------------------------------------------------ command line


def _lane_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ssbg")
    register(parser.add_subparsers(dest="command", required=True))
    return parser


def _run(argv: list[str]) -> int:
    args = _lane_parser().parse_args(argv)
    code: int = args.func(args)
    return code


def test_lane_command_exits_0_on_the_shipped_lanes(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["lane", str(LANES)]) == 0
    assert capsys.readouterr().out.splitlines() == [f"{len(ALL_CASES)} cases, 0 divergences",
                                                    f"pack: {default_pack().provenance}"]


def test_lane_command_exits_1_and_prints_each_divergence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    row = _good_row("drifted")
    row[LANE_EXPECTED_KEY]["symbols"] += 1
    lane = _write(tmp_path / "drift.jsonl", [row])
    assert _run(["lane", str(lane), str(LANES / "units.jsonl")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{lane}:1 drifted: symbols:")
    assert out[-2] == f"{1 + len(load_lane(LANES / 'units.jsonl'))} cases, 1 divergences"


def test_lane_command_raises_the_typed_error_on_a_malformed_lane(tmp_path: Path) -> None:
    lane = _lane_with_bad_line(tmp_path, b"{broken")
    with pytest.raises(LaneError) as info:
        _run(["lane", str(lane)])
    assert info.value.path == f"{lane}:3"


def test_ssbg_main_maps_lane_results_to_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # ssbg.cli.build_parser imports every edge's register(); skip until they all exist.
    pytest.importorskip("ssbg.views.cli")
    pytest.importorskip("ssbg.stats.cli")
    from ssbg.cli import main

    row = _good_row("drifted")
    row[LANE_EXPECTED_KEY]["facts"] += 1
    drift = _write(tmp_path / "drift.jsonl", [row])
    assert main(["lane", str(LANES)]) == 0
    assert main(["lane", str(drift)]) == 1
    assert main(["lane", str(_lane_with_bad_line(tmp_path, b"{broken"))]) == 2
    assert main(["lane", str(tmp_path / "absent")]) == 2
    capsys.readouterr()


def test_load_lane_on_a_folder_is_lane_missing(tmp_path: Path) -> None:
    with pytest.raises(LaneError) as info:
        load_lane(tmp_path)
    assert (info.value.reason, info.value.path) == ("lane_missing", str(tmp_path))
