"""The checker and the packs under hostile input (issue 27, ADR 0022).

One bad record never stops a run and is a typed, counted row in every batch path; ``check_solution``
never raises on strings; records beyond the caps of :mod:`ssbg.limits` are refused unread; a pack
named by the caller is a shipped one or a folder given by path, never a folder of the working
directory; the outputs of ``check-solutions`` land as one set; CSV cells read with default settings
and are spreadsheet-safe; bidi controls are shown, not obeyed; the bare exceptions found are typed.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ssbg
from ssbg.checking import batch as checking_batch
from ssbg.checking.batch import check_solutions
from ssbg.checking.verdict import COVERAGE_FINDINGS, check_solution
from ssbg.cli import main
from ssbg.errors import IMPORT_REASONS, BindingGraphError, PackError, ProblemGraphError, shown
from ssbg.files import OutputSet, Terminated
from ssbg.limits import (
    MAX_NUMBERS,
    MAX_OPERANDS,
    MAX_QUESTION_CHARS,
    MAX_SOLUTION_CHARS,
    MAX_STEPS,
    caps_help,
    size_refusal,
)
from ssbg.outputs import BIDI_CONTROLS, MAX_CELL_CHARS, csv_cell, html_text
from ssbg.reading import evidence
from ssbg.reading.readers.common import MAX_RECORD_BYTES
from ssbg.units import MAX_PACK_NAME_CHARS, clear_pack_cache, load_pack
from tests.strategies import hostile_json, seam_settings

REPO = Path(__file__).resolve().parents[1]
Q = "Ann has 3 apples and buys 4 more apples. How many apples?"
S = "3 + 4 = 7 apples"


def _line(**record: Any) -> str:
    return json.dumps(record)


def _write(path: Path, lines: list[str | bytes]) -> Path:
    with path.open("wb") as handle:
        for line in lines:
            handle.write(line if isinstance(line, bytes) else line.encode("utf-8"))
            handle.write(b"\n")
    return path


# ------------------------------------------------------------------ one record never stops a run

BIG_NUMBER_Q = "Ann has 10000000000000000 apples and buys 4 more apples. How many apples?"


def test_the_three_record_file_with_an_out_of_range_number_is_three_rows_exit_0(tmp_path: Path) -> None:
    """The issue's file: before, exit 2 and no rows; now the middle record is a refused row."""
    f = _write(tmp_path / "three.jsonl", [_line(id=k, q=q, s=S) for k, q in (("a", Q), ("b", BIG_NUMBER_Q), ("c", Q))])
    out = tmp_path / "out" / "v.csv"
    args = [str(f), "--question-field", "q", "--solution-field", "s", "--id-field", "id", "-o", str(out),
            "--no-progress"]
    assert main(["check-solutions", *args]) == 0
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert [(r["id"], r["status"], r["refusal_reason"]) for r in rows] == [
        ("a", "sound", ""), ("b", "refused", "number_out_of_range"), ("c", "sound", "")]
    assert "10000000000000000" in rows[1]["refusal_detail"]
    assert main(["check-solutions", *args, "--fail-on-error"]) == 0  # a refused row is no 'error' verdict


def test_check_solution_never_raises_on_strings_out_of_range_or_too_large() -> None:
    v = check_solution("Ann has 99999999999999999999999999 apples. How many?", "3 + 4 = 7 apples")
    assert v.status == "unverifiable"
    assert [f.reason for f in v.findings] == ["number_out_of_range"]
    v = ssbg.check_solution("A" * (MAX_QUESTION_CHARS + 1), S)
    assert v.status == "unverifiable"
    assert [f.reason for f in v.findings] == ["record_too_large"]
    assert "MAX_QUESTION_CHARS" in v.findings[0].detail
    assert {"number_out_of_range", "record_too_large"} <= COVERAGE_FINDINGS


@seam_settings(60)
@given(st.text(max_size=120), st.text(max_size=160))
def test_check_solution_returns_a_verdict_for_any_strings(question: str, solution: str) -> None:
    """Any two strings (lone surrogates, digits by the hundred, markup) give a verdict, never an exception."""
    v = check_solution(question, solution)
    assert v.status in ("sound", "error", "unverifiable")


_NUMBERS = st.text(alphabet="0123456789.,%$ +-*/=<>x\n", max_size=120)


@seam_settings(60)
@given(st.text(alphabet="0123456789 ", max_size=60), _NUMBERS)
def test_check_solution_returns_a_verdict_for_strings_of_numbers(digits: str, solution: str) -> None:
    v = check_solution(f"Ann has {digits} apples. How many apples?", solution)
    assert v.status in ("sound", "error", "unverifiable")


# Each kind of per-record failure: (what the middle record's line is, or how the line is made; the reason of
# its rows).  The solver keys are m1 and m2, with a reference: three rows per record.
_KINDS: dict[str, tuple[Any, str]] = {
    "not JSON": ("{bad", "malformed_record"),
    "not UTF-8": (b'{"id": "x", "q": "\xff\xfe"}', "encoding_error"),
    "a lone surrogate": ('{"id": "x", "q": "\\ud800", "m1": "1", "m2": "1", "g": "1"}', "encoding_error"),
    "not an object": ("[1, 2, 3]", "malformed_record"),
    "no question": (_line(id="x", m1=S, m2=S, g=S), "malformed_record"),
    "a question of the wrong type": (_line(id="x", q=[1], m1=S, m2=S, g=S), "malformed_record"),
    "an empty question": (_line(id="x", q="  ", m1=S, m2=S, g=S), "empty_text"),
    "a question too long": (_line(id="x", q="a" * (MAX_QUESTION_CHARS + 1), m1=S, m2=S, g=S), "record_too_large"),
    "a question of too many numbers": (_line(id="x", q="1 " * (MAX_NUMBERS + 1), m1=S, m2=S, g=S),
                                       "record_too_large"),
    "a number out of range": (_line(id="x", q=BIG_NUMBER_Q, m1=S, m2=S, g=S), "number_out_of_range"),
    "a NaN in the question's place": ('{"id": "x", "q": NaN, "m1": "1", "m2": "1", "g": "1"}', "malformed_record"),
    "a line too long": ("LONG", "record_too_large"),
    "an unexpected failure": (_line(id="x", q="BOOM " + Q, m1=S, m2=S, g=S), "reader_error"),
}
# Failures of one solution or of the reference: that row refused, the record's other rows checked.
_ROW_KINDS: dict[str, tuple[dict[str, Any], str, str]] = {
    "a solution too long": ({"m1": "1 + " * (MAX_SOLUTION_CHARS // 4 + 1)}, "m1", "record_too_large"),
    "too many equals signs": ({"m1": "1 = 1\n" * (MAX_STEPS + 1)}, "m1", "record_too_large"),
    "a step of too many operands": ({"m2": "+".join(["1"] * (MAX_OPERANDS + 1)) + " = 9"}, "m2",
                                    "record_too_large"),
    "a solution of the wrong type": ({"m2": {"x": 1}}, "m2", "malformed_record"),
    "no solution": ({"m2": None}, "m2", "malformed_record"),
    "a reference too long": ({"g": "2 = 2\n" * (MAX_STEPS + 1)}, "reference", "record_too_large"),
    "a reference of the wrong type": ({"g": 12}, "reference", "malformed_record"),
}


def _good(rid: str) -> str:
    return _line(id=rid, q=Q, m1=S, m2=S, g=S)


def _bad_line(spec: Any) -> str | bytes:
    if spec == "LONG":
        return _line(id="x", q="a" * (MAX_RECORD_BYTES + 10), m1=S, m2=S, g=S)
    return spec  # type: ignore[no-any-return]


@pytest.fixture
def boom(monkeypatch: pytest.MonkeyPatch) -> None:
    """check_solution raises a bare exception for one question: what a bug would do."""
    real = checking_batch.check_solution

    def fake(question: str, *args: Any, **kwargs: Any) -> Any:
        if question.startswith("BOOM"):
            raise KeyError("a bug")
        return real(question, *args, **kwargs)

    monkeypatch.setattr(checking_batch, "check_solution", fake)


def _check(path: Path) -> Any:
    return check_solutions(path, question_field="q", solution_field="s", id_field="id", reference_field="g",
                           solver_keys=["m1", "m2"], progress=False)


@pytest.mark.parametrize("kind", sorted(_KINDS))
def test_each_failure_of_one_record_is_its_typed_rows_and_every_other_row_stands(
    tmp_path: Path, kind: str, boom: None
) -> None:
    spec, reason = _KINDS[kind]
    f = _write(tmp_path / "s.jsonl", [_good("a"), _bad_line(spec), _good("c")])
    frame = _check(f)
    assert len(frame) == 9  # three rows a record: m1, m2, reference
    good = frame[frame["source"].str.endswith((":1", ":3"))]
    assert good["id"].tolist() == ["a"] * 3 + ["c"] * 3
    assert set(good["status"].astype(str)) == {"sound"}
    bad = frame[frame["source"].str.endswith(":2")]
    assert bad["status"].astype(str).tolist() == ["refused"] * 3
    assert set(bad["refusal_reason"]) == {reason}
    assert reason in IMPORT_REASONS
    assert bad["refusal_detail"].notna().all()


@pytest.mark.parametrize("kind", sorted(_ROW_KINDS))
def test_each_failure_of_one_solution_is_its_row_only(tmp_path: Path, kind: str) -> None:
    change, solver, reason = _ROW_KINDS[kind]
    record = {"id": "b", "q": Q, "m1": S, "m2": S, "g": S, **change}
    f = _write(tmp_path / "s.jsonl", [_good("a"), json.dumps(record), _good("c")])
    frame = _check(f)
    assert len(frame) == 9
    bad = frame[(frame["id"] == "b") & (frame["solver"] == solver)]
    assert bad["status"].astype(str).tolist() == ["refused"]
    assert bad["refusal_reason"].tolist() == [reason]
    rest = frame[~((frame["id"] == "b") & (frame["solver"] == solver))]
    assert set(rest["status"].astype(str)) == {"sound"}
    if solver == "reference":  # the solutions are still checked, without the reference
        assert not frame[(frame["id"] == "b") & (frame["solver"] != "reference")]["reference_checked"].any()


def test_every_failure_in_one_file_through_the_command_and_two_jobs(tmp_path: Path) -> None:
    """All the failures in one file (no monkeypatched bug: worker processes): the command writes a row for
    every solution, exit 0, and two jobs give the same bytes."""
    lines: list[str | bytes] = [_good("first")]
    for kind, (spec, _reason) in sorted(_KINDS.items()):
        if kind != "an unexpected failure":
            lines += [_bad_line(spec), _good(f"after {kind}")]
    for _kind, (change, _solver, _reason) in sorted(_ROW_KINDS.items()):
        lines += [json.dumps({"id": "row", "q": Q, "m1": S, "m2": S, "g": S, **change})]
    f = _write(tmp_path / "all.jsonl", lines)
    outputs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"v{jobs}.csv"
        code = main(["check-solutions", str(f), "--question-field", "q", "--solution-field", "s", "--id-field", "id",
                     "--reference-field", "g", "--solver-key", "m1,m2", "-o", str(out), "--jobs", jobs,
                     "--no-progress"])
        assert code == 0
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    rows = list(csv.DictReader(io.StringIO(outputs[0].decode("utf-8"))))
    assert len(rows) == 3 * (len(lines))
    for r in rows:
        if r["id"].startswith(("first", "after")):
            assert r["status"] == "sound", r
    refused = [r for r in rows if r["status"] == "refused"]
    assert len(refused) == 3 * (len(_KINDS) - 1) + len(_ROW_KINDS)
    assert all(r["refusal_reason"] in IMPORT_REASONS for r in refused)


# ------------------------------------------------------------------ caps


@pytest.mark.parametrize(
    ("question", "solution", "cap"),
    [
        ("a" * MAX_QUESTION_CHARS, None, None),
        ("a" * (MAX_QUESTION_CHARS + 1), None, "MAX_QUESTION_CHARS"),
        ("1 " * MAX_NUMBERS, None, None),
        ("1 " * (MAX_NUMBERS + 1), None, "MAX_NUMBERS"),
        (Q, "x" * MAX_SOLUTION_CHARS, None),
        (Q, "x" * (MAX_SOLUTION_CHARS + 1), "MAX_SOLUTION_CHARS"),
        (Q, ["x" * (MAX_SOLUTION_CHARS // 2 + 1)] * 2, "MAX_SOLUTION_CHARS"),
        (Q, "=" * MAX_STEPS, None),
        (Q, "=" * (MAX_STEPS + 1), "MAX_STEPS"),
        (Q, "1+" * (MAX_OPERANDS - 1) + "1 = 5", None),
        (Q, "1+" * MAX_OPERANDS + "1 = 5", "MAX_OPERANDS"),
        (Q, "1 \n" * (MAX_NUMBERS + 1), "MAX_NUMBERS"),
    ],
)
def test_each_cap_refuses_one_past_it_and_admits_it(question: str, solution: Any, cap: str | None) -> None:
    found = size_refusal(question, solution)
    if cap is None:
        assert found is None
    else:
        assert found is not None
        assert found.reason == "record_too_large"
        assert cap in (found.detail or "")


def test_a_record_past_a_cap_is_refused_before_any_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    from ssbg.reading.readers import solutions

    def unread(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("read")

    monkeypatch.setattr(solutions, "normalize_solution", unread)
    monkeypatch.setattr(solutions, "_question", unread)
    v = check_solution(Q, "1 = 1\n" * (MAX_STEPS + 1))
    assert [f.reason for f in v.findings] == ["record_too_large"]
    assert v.trace is None


def test_the_caps_are_stated_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["check-solutions", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert " ".join(caps_help().split()) in text
    for value in (MAX_QUESTION_CHARS, MAX_SOLUTION_CHARS, MAX_STEPS, MAX_NUMBERS, MAX_OPERANDS, MAX_CELL_CHARS):
        assert f"{value:,}" in text


# ------------------------------------------------------------------ linear work: exact equivalents


def _old_left(text: str, s_start: int, start: int) -> int:
    """evidence.mention_context's window start as it was (a scan from the sentence's start)."""
    left = s_start
    for m in evidence._NUMBER.finditer(text, s_start, start):
        left = m.end()
    return left


@seam_settings(2000)
@given(st.text(alphabet="0123456789 ,.$%ab\n", max_size=40), st.data())
def test_the_window_before_a_mention_is_the_cut_scans_exactly(text: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(text)))
    s_start = data.draw(st.integers(0, start))
    s_end = data.draw(st.integers(start, len(text)))
    _words, ends = evidence._sentence_context.__wrapped__(text, s_start, s_end)
    assert evidence._left_stop(text, s_start, start, ends) == _old_left(text, s_start, start)


@seam_settings(1000)
@given(st.text(alphabet="0123456789 ,.$%<>=+abc\n", max_size=600), st.data())
def test_the_first_tokens_after_a_result_are_the_whole_lines(line: str, data: st.DataObject) -> None:
    from ssbg.reading.mentions import tokenize
    from ssbg.reading.readers.gsm8k import _first_tokens

    start = data.draw(st.integers(0, len(line)))
    stop = data.draw(st.integers(start, len(line)))
    assert _first_tokens(line, start, stop, 8) == tokenize(line, start, stop, limit=8)


def test_a_hostile_plan_never_builds_a_matrix_past_its_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hundreds of contested annotated numbers: the assignment is solved in parts of at most MAX_PLAN_CELLS."""
    import numpy as np

    from ssbg.reading import grounding

    sizes: list[int] = []
    real = np.full

    def full(shape: Any, *args: Any, **kwargs: Any) -> Any:
        sizes.append(int(np.prod(shape)))
        return real(shape, *args, **kwargs)

    monkeypatch.setattr(np, "full", full)
    steps = "\n".join("2+3+2+3 = <<2+3+2+3=10>>10 apples" for _ in range(300))
    v = check_solution("Ann has 2 apples, then 3 more. How many apples?", steps)
    assert v.status in ("sound", "error", "unverifiable")
    assert sizes == [] or max(sizes) <= grounding.MAX_PLAN_CELLS


def test_a_step_repeating_one_operand_binds_every_repeat_once() -> None:
    from ssbg.trace import Trace, bind_trace

    n = 3000
    t = Trace.from_dict({"problem_id": "p", "corpus": "c", "text": "Ann has 3 apples.",
                         "mentions": [{"start": 8, "end": 9, "text": "3", "value": 3, "unit": "apples"}],
                         "steps": [{"op": "add", "operands": [{"mention": 0}] * n}]})
    g = bind_trace(t)
    again = sorted(s.symbol_id for s in g.symbols if "_again_" in s.symbol_id)
    assert len(again) == n - 1
    assert {a.rpartition("_")[2] for a in again} == {f"{k:03d}" for k in range(1, n)}


# ------------------------------------------------------------------ packs


def _poisoned_copy(folder: Path) -> Path:
    """A folder ``en_units_v1`` whose pack admits apples as money (a valid checksum and row count)."""
    target = folder / "en_units_v1"
    shutil.copytree(REPO / "packs" / "en_units_v1", target)
    lexicon = target / "lexicon.jsonl"
    lines = lexicon.read_text(encoding="utf-8").splitlines()
    dollar = json.loads(next(line for line in lines if '"lemma": "dollar"' in line))
    dollar.update(lemma="applecoin", plural="apples", surfaces=["apple"], canonical=False)
    lines.append(json.dumps(dollar))
    lexicon.write_text("\n".join(lines) + "\n", encoding="utf-8")
    manifest = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
    manifest.update(rows=len(lines), sha256=hashlib.sha256(lexicon.read_bytes()).hexdigest())
    (target / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return target


def test_a_folder_named_like_the_shipped_pack_in_the_working_directory_changes_no_verdict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _poisoned_copy(tmp_path)
    monkeypatch.chdir(tmp_path)
    clear_pack_cache()
    try:
        assert main(["check", "add", "dollars", "apples"]) == 1  # refused: the shipped pack has no apples
        assert main(["check", "add", "dollars", "apples", "--pack", "en_units_v1"]) == 1
        assert load_pack("en_units_v1").citation == "en_units_v1@1.0.0#e40912d9afa7"
        q = "Ann has 3 dollars and 4 apples. How many dollars?"
        assert check_solution(q, "3 + 4 = 7 dollars", pack="en_units_v1").status == check_solution(
            q, "3 + 4 = 7 dollars", pack=load_pack(REPO / "packs" / "en_units_v1")).status
        # given explicitly, by path, the folder is what the caller asked for
        assert main(["check", "add", "dollars", "apples", "--pack", "./en_units_v1"]) == 0
        assert load_pack(Path("en_units_v1")).resolve("apples") is not None
        with pytest.raises(PackError, match="applecoin"):  # the folder by path, in a composition too
            load_pack("./en_units_v1+en_counts_v1")
    finally:
        clear_pack_cache()
    capsys.readouterr()


LONG_NAME = "p" * (MAX_PACK_NAME_CHARS + 1)


@pytest.mark.parametrize("spec", [LONG_NAME, f"en_units_v1+{LONG_NAME}", "./" + LONG_NAME, "x" * 5000,
                                  "/" + "/".join(["a" * 200] * 30), "..", ".hidden", "en units", ""])
def test_a_bad_or_over_long_pack_name_is_a_typed_error(spec: str) -> None:
    with pytest.raises(PackError) as info:
        load_pack(spec)
    assert info.value.reason == "pack_missing"
    assert len(str(info.value)) < 1000


@pytest.mark.parametrize("command", ["check", "report", "check-solutions"])
def test_an_over_long_pack_name_is_exit_2_in_every_command(
    tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    f = _write(tmp_path / "s.jsonl", [_line(id="a", q=Q, s=S)])
    argv = {
        "check": ["check", "add", "dollars", "dollars"],
        "report": ["report", str(f), "-o", str(tmp_path / "r.html")],
        "check-solutions": ["check-solutions", str(f), "--question-field", "q", "--solution-field", "s",
                            "-o", str(tmp_path / "v.csv"), "--no-progress"],
    }[command]
    assert main([*argv, "--pack", LONG_NAME]) == 2
    assert "PackError [pack_missing]" in capsys.readouterr().err


def test_an_over_long_pack_name_in_the_playground_is_a_typed_error() -> None:
    from ssbg.playground import evaluate, load_playground_pack

    with pytest.raises(PackError):
        load_playground_pack(LONG_NAME)
    result = evaluate("add", ["dollars", "dollars"], pack=LONG_NAME)  # type: ignore[arg-type]
    assert "pack_missing" in json.dumps(result.to_dict() if hasattr(result, "to_dict") else str(result))


@seam_settings(200)
@given(st.text(max_size=300))
def test_any_pack_name_loads_or_is_a_pack_error(spec: str) -> None:
    try:
        pack = load_pack(spec)
    except PackError as exc:
        assert exc.reason in ("pack_missing", "pack_conflict", "manifest_invalid")
    else:
        assert pack.name


# ------------------------------------------------------------------ outputs as one set


def _args(f: Path, out: Path, *more: str) -> list[str]:
    return ["check-solutions", str(f), "--question-field", "q", "--solution-field", "s", "--id-field", "id",
            "-o", str(out), "--no-progress", *more]


def test_an_output_that_cannot_be_written_fails_before_a_record_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def unread(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the records were read")

    monkeypatch.setattr(checking_batch, "check_solutions", unread)
    f = _write(tmp_path / "s.jsonl", [_line(id="a", q=Q, s=S)])
    (tmp_path / "afile").write_text("x")
    assert main(_args(f, tmp_path / "afile" / "v.csv")) == 2
    assert "not_a_directory" in capsys.readouterr().err
    (tmp_path / "page").mkdir()
    assert main(_args(f, tmp_path / "v.csv", "--html", str(tmp_path / "page"))) == 2
    assert "is_a_directory" in capsys.readouterr().err


def test_a_failure_at_the_page_leaves_the_previous_set_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ssbg.checking import report

    f = _write(tmp_path / "s.jsonl", [_line(id="a", q=Q, s=S, ok=True)])
    out, page = tmp_path / "v.csv", tmp_path / "v.html"
    assert main(_args(f, out, "--html", str(page), "--label-field", "ok")) == 0
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("v.")}
    assert {"v.csv", "v.pack.csv", "v.scores.csv", "v.html"} <= set(before)
    _write(f, [_line(id="changed", q=Q, s=S, ok=True)])

    def fail(*args: Any, **kwargs: Any) -> str:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(report, "report_html", fail)
    with pytest.raises(OSError, match="No space left"):
        main(_args(f, out, "--html", str(page), "--label-field", "ok"))
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith(("v.", ".v."))}
    assert after == before  # the old set, and no staged file


def test_scores_of_an_earlier_run_do_not_outlive_a_run_without_labels(tmp_path: Path) -> None:
    f = _write(tmp_path / "s.jsonl", [_line(id="a", q=Q, s=S, ok=True)])
    out = tmp_path / "v.csv"
    assert main(_args(f, out, "--label-field", "ok")) == 0
    assert (tmp_path / "v.scores.csv").is_file()
    assert main(_args(f, out)) == 0
    assert not (tmp_path / "v.scores.csv").exists()


def _stage_and_terminate(out: OutputSet, target: Path) -> None:
    with out:
        out.temp(target).write_text("new")
        signal.raise_signal(signal.SIGTERM)


def test_sigterm_inside_an_output_set_deletes_the_staged_files(tmp_path: Path) -> None:
    if threading.current_thread() is not threading.main_thread():  # pragma: no cover
        pytest.skip("signals are handled in the main thread")
    previous = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        (tmp_path / "a.txt").write_text("old")
        out = OutputSet()
        with pytest.raises(Terminated) as info:
            _stage_and_terminate(out, tmp_path / "a.txt")
        assert info.value.code == 143
        assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]
        assert (tmp_path / "a.txt").read_text() == "old"
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # restored
    finally:
        signal.signal(signal.SIGTERM, previous)


_SIGTERM_REPORT = """
import os, signal, sys
from pathlib import Path
from ssbg.stats import report
real = report._write_file
count = [0]
def write(target, write, stage):
    real(target, write, stage)
    count[0] += 1
    if count[0] == 5:
        os.kill(os.getpid(), signal.SIGTERM)
report._write_file = write
from ssbg.cli import main
sys.exit(main(["report", sys.argv[1], "-o", sys.argv[2], "--csv-dir", sys.argv[3]]))
"""


def test_sigterm_in_the_report_write_phase_leaves_no_staged_file(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-c", _SIGTERM_REPORT, str(REPO / "data" / "samples"),
                           str(out / "r.html"), str(out / "tables")], capture_output=True, text=True, check=False,
                          cwd=REPO, timeout=300)
    assert done.returncode == 143, done.stderr[-2000:]
    left = [p for p in out.rglob("*") if p.is_file()] if out.exists() else []
    assert left == []  # nothing staged outlives it, and nothing half-written was renamed in


def test_error_steps_from_a_fifo_or_dev_zero_are_refused_without_blocking(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = _write(tmp_path / "s.jsonl", [_line(id="a", q=Q, s=S)])
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for source in (fifo, Path("/dev/zero")):
        start = time.monotonic()
        assert main(_args(f, tmp_path / "v.csv", "--error-steps", str(source))) == 2
        assert time.monotonic() - start < 60
        assert "unreadable_file" in capsys.readouterr().err
    big = tmp_path / "big.csv"
    with big.open("wb") as handle:
        handle.truncate(checking_batch.MAX_ERROR_STEPS_BYTES + 1)
    assert main(_args(f, tmp_path / "v.csv", "--error-steps", str(big))) == 2
    assert "unreadable_file" in capsys.readouterr().err


# ------------------------------------------------------------------ what other tools read


def test_every_cell_reads_with_default_csv_settings_and_is_spreadsheet_safe(tmp_path: Path) -> None:
    long_id = "x" * 200_000
    f = _write(tmp_path / "s.jsonl", [_line(id=long_id, q=Q, s=S), _line(id='=HYPERLINK("http://evil")', q=Q, s=S),
                                      _line(id="@SUM(A1)", q=Q, s=S), _line(id="-2+3", q=Q, s=S),
                                      _line(id="+1", q=Q, s=S), _line(id="plain", q=Q, s=S)])
    out = tmp_path / "v.csv"
    assert main(_args(f, out)) == 0
    with out.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))  # the default field limit, 131,072
    ids = [r["id"] for r in rows]
    assert len(ids[0]) <= MAX_CELL_CHARS
    assert ids[0].endswith("[cut: 200,000 characters]")
    assert ids[1:] == ["'=HYPERLINK(\"http://evil\")", "'@SUM(A1)", "'-2+3", "'+1", "plain"]
    assert all(not c.startswith(("=", "+", "-", "@")) for r in rows for c in r.values())
    assert csv_cell("\tcmd") == "'\tcmd"


BIDI_Q = "Ann has 3 apples \u202eand buys 4 more\u2067 apples. How many apples?"


def test_bidi_controls_are_shown_not_obeyed_in_html_and_svg(tmp_path: Path) -> None:
    v = check_solution(BIDI_Q, "3 + 4 = 7 apples \u202e")
    page = v.html()
    assert not BIDI_CONTROLS & set(page)
    assert "\\u202e" in page
    assert html_text("\u2066x\u2069") == "\\u2066x\\u2069"
    f = _write(tmp_path / "s.jsonl", [_line(id="a\u202eb", q=BIDI_Q, s="3 + 5 = 8 apples", m="\u202em")])
    out, page_path = tmp_path / "v.csv", tmp_path / "v.html"
    assert main(_args(f, out, "--html", str(page_path), "--solver-field", "m")) == 0
    assert not BIDI_CONTROLS & set(page_path.read_text(encoding="utf-8"))
    from ssbg.views.dot import escape_html

    assert not BIDI_CONTROLS & set(escape_html("x\u202ey"))


def test_bidi_controls_are_shown_in_the_corpus_report(tmp_path: Path) -> None:
    from ssbg.stats.report import write_report

    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"id": "p\u202e1", "question": BIDI_Q, "answer": "3 + 4 = <<3+4=7>>7\n#### 7"}) + "\n",
                    encoding="utf-8")
    result = write_report([f"gsm8k={data}"], tmp_path / "r.html", jobs=1, progress=False)
    text = result.html_path.read_text(encoding="utf-8")
    assert not BIDI_CONTROLS & set(text)


# ------------------------------------------------------------------ the bare exceptions


def test_an_int_past_the_digit_limit_in_a_text_field_is_a_typed_error() -> None:
    from ssbg.trace import Trace

    big = 10**5000
    with pytest.raises(ProblemGraphError, match="an int of 5001 digits"):
        ssbg.MathProblemGraph.from_dict({
            "entities": ["Ann"], "unknown": {"entity": "Ann", "unit": "dollars"}, "initial_state": [],
            "operations": [{"actor": "Ann", "kind": big, "operand": {"value": 1, "unit": "dollars"}}]})
    with pytest.raises(ProblemGraphError, match="an int of 5001 digits"):
        Trace.from_dict({"problem_id": "p", "corpus": "c", "text": "Ann has 3 apples.",
                         "mentions": [{"start": big, "end": 9, "text": "3", "value": 3}],
                         "steps": [{"op": "add", "operands": [{"mention": 0}, {"mention": 0}]}]})
    assert shown([big]) == "<a list holding an int too long to write>"


def test_bind_trace_with_a_pack_name_is_a_typed_error() -> None:
    from ssbg.trace import Trace, bind_trace

    t = Trace.from_dict({"problem_id": "p", "corpus": "c", "text": "Ann has 3 apples.",
                         "mentions": [{"start": 8, "end": 9, "text": "3", "value": 3, "unit": "apples"}],
                         "steps": [{"op": "add", "operands": [{"mention": 0}, {"mention": 0}]}]})
    with pytest.raises(PackError, match="load_pack") as info:
        bind_trace(t, pack="x")  # type: ignore[arg-type]
    assert info.value.reason == "pack_missing"
    from ssbg.reading.choosing import bind_choosing

    with pytest.raises(PackError, match="load_pack") as info:
        bind_choosing(t, pack="x")  # type: ignore[arg-type]
    assert info.value.reason == "pack_missing"


def test_from_networkx_with_graph_data_that_is_no_dict_is_a_typed_error() -> None:
    from ssbg.views import from_networkx, to_networkx

    g = ssbg.MathProblemGraph.from_dict({
        "entities": ["Ann"], "unknown": {"entity": "Ann", "unit": "dollars"},
        "initial_state": [{"entity": "Ann", "quantity": {"value": 6, "unit": "hours"}}],
        "operations": [{"actor": "Ann", "kind": "apply_rate",
                        "operand": {"value": 12, "numerator_unit": "dollars", "denominator_unit": "hours"}}]})
    drawn = to_networkx(ssbg.bind_math_problem_graph(g))
    for bad in ([], None, "x"):
        drawn.graph = bad
        with pytest.raises(BindingGraphError, match=r"G\.graph"):
            from_networkx(drawn)


# ------------------------------------------------------------------ fuzz: the checker's records


@seam_settings(40)
@given(st.lists(hostile_json, min_size=1, max_size=4))
def test_any_json_records_are_one_row_per_solution(records: list[Any]) -> None:
    """Records of any JSON shape (huge numbers, NaN, nesting, surrogates): one row per solution each, typed."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        f = Path(folder) / "s.jsonl"
        lines = [json.dumps({"id": "good", "q": Q, "m1": {"s": S}, "m2": S})]  # the fields exist in the file
        for r in records:
            try:
                lines.append(json.dumps({"id": "r", "q": r, "m1": r, "m2": S}))
            except (ValueError, UnicodeEncodeError):  # pragma: no cover - what json.dumps cannot write
                lines.append("{bad")
        f.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
        frame = check_solutions(f, question_field="q", solution_field="s", id_field="id", solver_keys=["m1", "m2"],
                                progress=False)
    assert len(frame) == 2 * (len(records) + 1)
    refused = frame[frame["status"].astype(str) == "refused"]
    assert set(refused["refusal_reason"]) <= IMPORT_REASONS


def test_the_caps_module_states_every_cap_in_its_table() -> None:
    from ssbg import limits

    doc = limits.__doc__ or ""
    for name, value, _what in limits.CAPS:
        assert re.search(rf":data:`{name}`\s+{value:,}", doc), name


def test_csv_text_leaves_a_frame_without_such_cells_as_pandas_writes_it() -> None:
    import pandas as pd

    from ssbg.outputs import csv_text

    plain = pd.DataFrame({"a": ["x", None, "y"], "n": [1, -2, 3]})
    assert csv_text(plain) == plain.to_csv(index=False, lineterminator="\n")
    hostile = pd.DataFrame({"a": ["=1+1", "y" * 200_000], "n": [1, 2]})
    rows = list(csv.reader(io.StringIO(csv_text(hostile))))
    assert rows[1] == ["'=1+1", "1"]
    assert rows[2][0].endswith("[cut: 200,000 characters]")
    assert hostile["a"][0] == "=1+1"  # the frame itself is left as it was


@pytest.mark.parametrize("rows", [1, 2, 3, 7, 1000])
def test_write_csv_writes_the_bytes_of_csv_text_a_chunk_of_rows_at_a_time(tmp_path: Path, rows: int) -> None:
    import numpy as np
    import pandas as pd

    from ssbg.outputs import csv_text, write_csv

    frame = pd.DataFrame({
        "text": ["=1+1", "plain", None, "-5 apples", "a,b \"q\"", "y" * 40_000, "ok"],
        "kind": pd.Categorical(["add", "add", "divide", None, "add", "divide", "add"]),
        "n": pd.array([1, None, 3, -4, 5, 6, 7], dtype="Int64"),
        "x": [0.1, np.nan, 1e-7, 2.5, 1 / 3, 1e20, -0.0],
        "ok": [True, False, True, True, False, True, False],
    })  # fmt: skip
    for table in (frame, frame.iloc[:0], frame.iloc[1:2]):
        path = tmp_path / "t.csv"
        write_csv(table, path, rows=rows)
        assert path.read_bytes() == csv_text(table).encode("utf-8")
