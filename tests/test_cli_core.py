"""The core subcommands of the ssbg CLI: check and bind, with exit codes."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from ssbg.admissibility import OPERATION_KINDS
from ssbg.cli import EXIT_BAD_INPUT, EXIT_OK, EXIT_REFUSED, KIND_OPERANDS, build_parser, main
from ssbg.units import CORPUS_PACK_NAME, corpus_pack, default_pack

PROBLEM = {
    "entities": ["Ann"],
    "initial_state": [{"entity": "Ann", "quantity": {"value": 3, "unit": "hours"}}],
    "operations": [
        {
            "actor": "Ann",
            "kind": "apply_rate",
            "operand": {"value": 12, "numerator_unit": "dollars", "denominator_unit": "hours"},
        },
        {"actor": "Ann", "kind": "add", "operand": {"value": 2, "unit": "apples"}},
    ],
    "unknown": {"entity": "Ann", "unit": "dollars"},
}


def test_check_admitted(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "apply_rate", "dollars_per_hour", "hours"]) == EXIT_OK
    assert capsys.readouterr().out.splitlines() == ["admitted apply_rate: [money/time,time] -> money",
                                                    f"pack: {default_pack().provenance}"]


@pytest.mark.parametrize("argv", [["check", "add", "apples", "apples"], ["check", "apply_rate", "dollars", "hours"],
                                  ["lane", "data/lanes/kinds.jsonl"]])
def test_every_command_names_the_pack_its_result_is_over(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    main(argv)
    assert f"pack: {default_pack().provenance}" in capsys.readouterr().out


def test_bind_names_its_pack_beside_the_canonical_string(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bind", "data/problem.json", "--pack", CORPUS_PACK_NAME]) == EXIT_OK
    assert f"ssbg: pack {corpus_pack().provenance}" in capsys.readouterr().err


def test_a_count_noun_the_units_lack_hints_at_the_corpus_pack(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "add", "apples", "apples"]) == EXIT_REFUSED
    assert f"--pack {CORPUS_PACK_NAME} reads it" in capsys.readouterr().out
    assert main(["check", "add", "apples", "apples", "--pack", CORPUS_PACK_NAME]) == EXIT_OK


def test_a_unit_no_pack_knows_has_no_pack_hint(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "add", "qwzx", "qwzx"]) == EXIT_REFUSED
    assert "--pack" not in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "says"), [
    (["divide", "miles"], "divide takes 2 operands (DIVIDEND DIVISOR), got 1: miles"),
    (["add", "miles"], "add takes at least 2 operands"),
    (["apply_rate", "dollars_per_hour", "hours", "hours"], "apply_rate takes 2 operands"),
])  # fmt: skip
def test_a_missing_or_extra_operand_is_bad_usage(argv: list[str], says: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", *argv]) == EXIT_BAD_INPUT
    assert says in capsys.readouterr().err


def test_bind_says_plainly_that_a_file_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bind", str(tmp_path / "none.json")]) == EXIT_BAD_INPUT
    assert capsys.readouterr().err.strip().endswith(f"[unreadable_file] at {tmp_path / 'none.json'}: no such file")


def test_check_refused_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "add", "dollars", "hours", "--json"]) == EXIT_REFUSED
    payload = json.loads(capsys.readouterr().out)
    assert (payload["status"], payload["reason"]) == ("refused", "unit_mismatch")


def test_check_pure_number_operand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "fraction_portion", "dollars", "-"]) == EXIT_OK


def test_check_with_missing_pack_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "add", "dollars", "dollars", "--pack", "/no/such/pack"]) == EXIT_BAD_INPUT
    assert "pack_missing" in capsys.readouterr().err


def test_bind_prints_the_canonical_string(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(PROBLEM))
    assert main(["bind", str(path), "--hash"]) == EXIT_OK
    out = capsys.readouterr().out
    assert out.startswith("provenance ")
    assert "kind=apply_rate status=admitted" in out
    assert out.splitlines()[-1].startswith("sha256 ")


def test_bind_fail_on_refusal(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(PROBLEM))
    assert main(["bind", str(path), "--fail-on-refusal"]) == EXIT_REFUSED


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("{", "malformed_json"),
        ('{"entities": []}', "missing_field"),
        (b"\xff\xfe", "malformed_json"),
        ("[" * 100_000, "malformed_json"),  # nested deeper than the decoder's stack
    ],
)
def test_bind_bad_input(tmp_path: Path, content: str | bytes, reason: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    assert main(["bind", str(path)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert f"[{reason}]" in err
    assert str(path) in err


def test_bind_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bind", "/no/such/file.json"]) == EXIT_BAD_INPUT


# --------------------------------------------------------------------------- what a newcomer trips on (issue 20)

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "data" / "problem.json"
LANES = REPO / "data" / "lanes" / "kinds.jsonl"


@pytest.mark.parametrize(("kind", "units"), [("multiply", ["dollars", "-"]), ("multiply", ["-", "hours"]),
                                             ("divide", ["dollars", "-"]), ("fraction_portion", ["dollars", "-"])])
def test_check_reads_dash_as_a_pure_number(kind: str, units: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", kind, *units]) == EXIT_OK
    assert "dimensionless" in capsys.readouterr().out


def test_check_an_unknown_kind_is_bad_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "nosuch", "dollars"]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "'nosuch'" in err
    assert all(kind in err for kind in OPERATION_KINDS)


def test_every_operation_kind_has_its_operands_in_the_help() -> None:
    assert list(KIND_OPERANDS) == list(OPERATION_KINDS)
    help_text = _subparser("check").format_help()
    assert all(f"  {kind} " in help_text for kind in OPERATION_KINDS)


def _subparser(name: str) -> argparse.ArgumentParser:
    actions = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    parser: argparse.ArgumentParser = actions[0].choices[name]
    return parser


@pytest.mark.parametrize("command", ["check", "bind", "lane", "render", "report"])
def test_every_subcommand_has_a_description(command: str) -> None:
    assert _subparser(command).description


def test_report_help_lists_every_format() -> None:
    from ssbg.reading.readers import READERS
    from ssbg.stats.cli import FORMAT_DESCRIPTIONS

    assert sorted(FORMAT_DESCRIPTIONS) == sorted(READERS)
    help_text = _subparser("report").format_help()
    assert all(f"  {name} " in help_text for name in READERS)


@pytest.mark.parametrize(("units", "unknown", "close"), [(["dollars", "dollarz"], "dollarz", "dollar"),
                                                        (["dollars_per_hourz", "hours"], "hourz", "dollars_per_hour")])
def test_check_names_an_unknown_unit_with_the_packs_close_entries(
    units: list[str], unknown: str, close: str, capsys: pytest.CaptureFixture[str]
) -> None:
    kind = "add" if units[0] == "dollars" else "apply_rate"
    assert main(["check", kind, *units]) == EXIT_REFUSED
    out = capsys.readouterr().out
    assert f"'{unknown}'" in out
    assert f"close entries: {close}" in out
    assert main(["check", kind, *units, "--json"]) == EXIT_REFUSED
    payload = json.loads(capsys.readouterr().out)
    assert (payload["reason"], close in payload["close_entries"]) == ("unknown_unit", True)


def test_the_example_problem_binds_admitted(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bind", str(EXAMPLE), "--fail-on-refusal"]) == EXIT_OK
    assert "target=bound" in capsys.readouterr().out


def test_bind_picks_a_line_of_a_jsonl_file_by_id(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bind", str(LANES), "--id", "kind-divide-admitted"]) == EXIT_OK
    assert 'problem=kind-divide-admitted"' in capsys.readouterr().out


@pytest.mark.parametrize("problem_id", [None, "no-such-problem"])
def test_bind_a_jsonl_file_without_a_known_id_is_bad_input(
    problem_id: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bind", str(LANES), *(["--id", problem_id] if problem_id else [])]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "[invalid_value]" in err
    assert "kind-add-admitted" in err  # the ids to pick from


def test_bind_accepts_a_lane_line_saved_as_a_json_file(tmp_path: Path) -> None:
    line = LANES.read_text(encoding="utf-8").splitlines()[0]
    assert '"expected"' in line
    path = tmp_path / "lane.json"
    path.write_text(line, encoding="utf-8")
    assert main(["bind", str(path)]) == EXIT_OK


def test_bind_names_a_misspelled_unit_inside_a_rate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    problem = json.loads(json.dumps(PROBLEM))
    problem["operations"][0]["operand"]["denominator_unit"] = "hourz"
    path = tmp_path / "p.json"
    path.write_text(json.dumps(problem))
    assert main(["bind", str(path)]) == EXIT_OK
    captured = capsys.readouterr()
    assert "kind=apply_rate status=refused" in captured.out
    assert 'reason=unknown_unit detail="unknown_unit: dollars_per_hourz"' in captured.out
    hint = "'hourz' (in 'dollars_per_hourz') is not in pack en_units_v1; close entries: dollars_per_hour"
    assert hint in captured.err
