"""``ssbg render``: the subcommand the views register on the ssbg CLI."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

import ssbg.cli
from ssbg.adapter import bind_math_problem_graph
from ssbg.errors import ProblemGraphError
from ssbg.problem import MathProblemGraph
from ssbg.views.cli import register
from ssbg.views.dot import to_dot
from ssbg.views.errors import RenderError

PROBLEM = {
    "problem_id": "views-cli",
    "entities": ["Ann"],
    "initial_state": [{"entity": "Ann", "quantity": {"value": 3, "unit": "hours"}}],
    "operations": [{"actor": "Ann", "kind": "apply_rate",
                    "operand": {"value": 12, "numerator_unit": "dollars", "denominator_unit": "hours"}}],
    "unknown": {"entity": "Ann", "unit": "dollars"},
}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ssbg")
    register(parser.add_subparsers(dest="command", required=True))
    return parser


def _run(*argv: str) -> int:
    args = _parser().parse_args(["render", *argv])
    code: int = args.func(args)
    return code


@pytest.fixture
def problem_file(tmp_path: Path) -> Path:
    path = tmp_path / "problem.json"
    path.write_text(json.dumps(PROBLEM), encoding="utf-8")
    return path


def _expected_dot(**options: object) -> str:
    return to_dot(bind_math_problem_graph(MathProblemGraph.from_dict(PROBLEM)), **options)  # type: ignore[arg-type]


def test_dot_to_stdout_by_default(problem_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(str(problem_file)) == 0
    assert capsys.readouterr().out == _expected_dot()


@pytest.mark.parametrize("view", ["equations", "symbols"])
def test_view_and_proofs_options(problem_file: Path, tmp_path: Path, view: str) -> None:
    out = tmp_path / "g.dot"
    assert _run(str(problem_file), "--view", view, "--proofs", "-o", str(out)) == 0
    assert out.read_text(encoding="utf-8") == _expected_dot(view=view, proofs=True)


def test_no_legend_and_rankdir(problem_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "g.dot"
    assert _run(str(problem_file), "--no-legend", "--rankdir", "LR", "-o", str(out)) == 0
    assert out.read_text(encoding="utf-8") == _expected_dot(legend=False, rankdir="LR")


@pytest.mark.parametrize(("suffix", "magic"), [(".svg", b"<?xml"), (".png", b"\x89PNG")])
def test_writes_svg_and_png(problem_file: Path, tmp_path: Path, suffix: str, magic: bytes) -> None:
    out = tmp_path / f"g{suffix}"
    assert _run(str(problem_file), "-o", str(out)) == 0
    assert out.read_bytes().startswith(magic)


def test_unknown_suffix_is_a_typed_error(problem_file: Path, tmp_path: Path) -> None:
    with pytest.raises(RenderError) as info:
        _run(str(problem_file), "-o", str(tmp_path / "g.pdf"))
    assert info.value.reason == "unknown_format"


def test_bad_problem_is_a_typed_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"entities": []', encoding="utf-8")
    with pytest.raises(ProblemGraphError) as info:
        _run(str(bad))
    assert info.value.reason == "malformed_json"


def test_unknown_view_is_a_usage_error(problem_file: Path) -> None:
    with pytest.raises(SystemExit) as info:
        _parser().parse_args(["render", str(problem_file), "--view", "timeline"])
    assert info.value.code == 2


def test_main_maps_a_typed_error_to_exit_2(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Through ssbg.cli.main with only this edge registered (others are tested in their own files)."""
    monkeypatch.setattr(ssbg.cli, "_EDGE_COMMANDS", ("ssbg.views.cli",))
    assert ssbg.cli.main(["render", str(tmp_path / "absent.json")]) == ssbg.cli.EXIT_BAD_INPUT


def test_main_renders(monkeypatch: pytest.MonkeyPatch, problem_file: Path, tmp_path: Path) -> None:
    monkeypatch.setattr(ssbg.cli, "_EDGE_COMMANDS", ("ssbg.views.cli",))
    out = tmp_path / "g.svg"
    assert ssbg.cli.main(["render", str(problem_file), "-o", str(out)]) == ssbg.cli.EXIT_OK
    assert out.read_bytes().startswith(b"<?xml")


def test_renders_a_line_of_a_lane_file_picked_by_id(tmp_path: Path) -> None:
    lanes = Path(__file__).resolve().parents[1] / "data" / "lanes" / "kinds.jsonl"
    out = tmp_path / "lane.dot"
    assert _run(str(lanes), "--id", "kind-apply_rate-admitted", "-o", str(out)) == 0
    assert "op_000_result" in out.read_text(encoding="utf-8")


def test_renders_the_example_problem(tmp_path: Path) -> None:
    example = Path(__file__).resolve().parents[1] / "data" / "problem.json"
    out = tmp_path / "example.dot"
    assert _run(str(example), "-o", str(out)) == 0
    assert "op_001_result" in out.read_text(encoding="utf-8")
