"""check_solutions and ``ssbg check-solutions``: a row per solution, its own id, refusals counted, scores per solver."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from ssbg.checking.batch import (
    REFERENCE_SOLVER,
    ROW_STATUSES,
    SCORE_COLUMNS,
    VERDICT_COLUMNS,
    Fields,
    check_solutions,
    field_value,
    read_error_steps,
    score_verdicts,
)
from ssbg.cli import main
from ssbg.errors import IMPORT_REASONS, ImportRefusal

from .conftest import corpora_dir

WENG = "Weng earns $12 an hour for babysitting. Yesterday she babysat for 5 hours. How much did she earn?"
GOOD = "She earned 12 * 5 = $<<12*5=60>>60.\nA: 60"
BAD = "She earned 12 * 6 = $<<12*6=72>>72.\nA: 72"
MIXED = "She earned 5 + 12 = $<<5+12=17>>17.\nA: 17"


def wide(rid: Any, **solvers: tuple[str, bool]) -> dict[str, Any]:
    record: dict[str, Any] = {"test_index": rid, "question": WENG, "ground_truth": GOOD}
    for name, (solution, ok) in solvers.items():
        record[name] = {"solution": solution, "is_correct": ok}
    return record


def write(path: Path, lines: list[Any]) -> Path:
    path.write_bytes(b"".join((x if isinstance(x, bytes) else json.dumps(x).encode()) + b"\n" for x in lines))
    return path


WIDE_ARGS: dict[str, Any] = {
    "question_field": "question", "solution_field": "solution", "id_field": "test_index",
    "label_field": "is_correct", "solver_keys": ("m1", "m2"), "progress": False,
}  # fmt: skip


@pytest.fixture
def wide_file(tmp_path: Path) -> Path:
    return write(tmp_path / "dev.jsonl", [
        wide(7, m1=(GOOD, True), m2=(BAD, False)),
        wide(9, m1=(MIXED, False), m2=(GOOD, True)),
        b"{not json",
        wide(11, m1=(BAD, True), m2=(GOOD, True)),
    ])  # fmt: skip


def test_one_row_per_solution_with_the_records_own_id(wide_file: Path) -> None:
    df = check_solutions(wide_file, **WIDE_ARGS)
    assert list(df.columns) == list(VERDICT_COLUMNS)
    assert df[["id", "solver", "status"]].values.tolist() == [
        ["7", "m1", "sound"], ["7", "m2", "error"], ["9", "m1", "error"], ["9", "m2", "sound"],
        ["dev.jsonl:3", "m1", "refused"], ["dev.jsonl:3", "m2", "refused"], ["11", "m1", "error"],
        ["11", "m2", "sound"],
    ]  # fmt: skip
    assert df["source"].tolist()[:2] == [f"{wide_file}:1", f"{wide_file}:1"]


def test_the_first_error_is_located(wide_file: Path) -> None:
    row = check_solutions(wide_file, **WIDE_ARGS).iloc[2]
    assert (row["first_error_reason"], row["first_error_step"], row["first_error_line"]) == ("unit_mismatch", 0, 1)


def test_engines_and_jobs_give_the_same_rows(wide_file: Path) -> None:
    one = check_solutions(wide_file, **WIDE_ARGS)
    for jobs, engine in ((2, "local"), (1, "dask"), (2, "dask")):
        other = check_solutions(wide_file, **WIDE_ARGS, jobs=jobs, engine=engine, batch_size=1)
        pd.testing.assert_frame_equal(one, other)


def test_the_reference_is_checked_once_and_is_a_row_of_its_own(wide_file: Path) -> None:
    df = check_solutions(wide_file, **WIDE_ARGS, reference_field="ground_truth")
    ref = df[df["solver"] == REFERENCE_SOLVER]
    assert ref["status"].astype(str).tolist() == ["sound", "sound", "refused", "sound"]
    assert ref["label"].tolist()[:2] == [True, True]
    checked = df[(df["solver"] != REFERENCE_SOLVER) & (df["status"] != "refused")]
    assert checked["reference_checked"].all()


def test_a_finding_the_reference_shares_is_not_counted_as_evidence(tmp_path: Path) -> None:
    record = wide(1, m1=(BAD, False), m2=(GOOD, True))
    record["ground_truth"] = BAD
    args = dict(WIDE_ARGS, reference_field="ground_truth")
    df = check_solutions(write(tmp_path / "r.jsonl", [record]), **args)
    row = df.iloc[0]
    assert (row["status"], row["n_error"], row["n_in_reference"]) == ("unverifiable", 0, 1)


@pytest.mark.parametrize(
    ("record", "reason", "detail"),
    [
        pytest.param([1, 2], "malformed_record", "$", id="not an object"),
        pytest.param({"test_index": 3, "m1": {"solution": GOOD, "is_correct": True}}, "malformed_record", "question",
                     id="no question"),
        pytest.param({"test_index": 3, "question": 5}, "malformed_record", "question", id="question not text"),
        pytest.param({"test_index": 3, "question": "  "}, "empty_text", "question", id="empty question"),
    ],
)
def test_a_malformed_record_is_a_counted_typed_refusal_with_its_id(
    tmp_path: Path, record: Any, reason: str, detail: str
) -> None:
    good = wide(1, m1=(GOOD, True), m2=(GOOD, True))  # a field some record has: a bad one refuses alone
    df = check_solutions(write(tmp_path / "bad.jsonl", [record, good]), **WIDE_ARGS).iloc[:2]
    assert df["status"].astype(str).tolist() == ["refused", "refused"]
    assert df["refusal_reason"].tolist() == [reason, reason]
    assert df["refusal_detail"].tolist()[0] == detail
    assert set(df["refusal_reason"]) <= IMPORT_REASONS
    if isinstance(record, dict):
        assert df["id"].tolist() == ["3", "3"]


@pytest.mark.parametrize(
    ("holder", "reason", "detail"),
    [
        pytest.param({"is_correct": True}, "malformed_record", "solution", id="no solution"),
        pytest.param({"solution": "", "is_correct": True}, "empty_text", "solution", id="empty solution"),
        pytest.param({"solution": GOOD, "is_correct": "maybe"}, "malformed_record", "is_correct", id="bad label"),
        pytest.param({"solution": GOOD}, "malformed_record", "is_correct", id="no label"),
        pytest.param(None, "malformed_record", "solution", id="no solver key"),
    ],
)
def test_a_bad_solution_refuses_only_its_own_row(tmp_path: Path, holder: Any, reason: str, detail: str) -> None:
    record = wide(4, m2=(GOOD, True))
    if holder is not None:
        record["m1"] = holder
    good = wide(1, m1=(GOOD, True), m2=(GOOD, True))
    df = check_solutions(write(tmp_path / "s.jsonl", [record, good]), **WIDE_ARGS).iloc[:2]
    assert df["status"].astype(str).tolist() == ["refused", "sound"]
    assert (df["refusal_reason"][0], df["refusal_detail"][0]) == (reason, detail)


def test_bytes_that_are_not_utf8_refuse_that_line_only(tmp_path: Path) -> None:
    df = check_solutions(write(tmp_path / "e.jsonl", [b'{"question": "\xff"}', wide(2, m1=(GOOD, True),
                                                                                      m2=(GOOD, True))]), **WIDE_ARGS)
    assert df["refusal_reason"].tolist()[:2] == ["encoding_error", "encoding_error"]
    assert df["status"].astype(str).tolist()[2:] == ["sound", "sound"]


@pytest.mark.parametrize(
    "label", [True, False, 1, 0, "true", "False", "correct", "wrong"]
)
def test_labels_in_the_forms_files_write_them(tmp_path: Path, label: Any) -> None:
    record = {"q": WENG, "s": GOOD, "ok": label}
    df = check_solutions(write(tmp_path / "l.jsonl", [record]), question_field="q", solution_field="s",
                         label_field="ok", progress=False)
    assert df["label"].tolist() == [label in (True, 1, "true", "correct")]


def test_one_solution_per_record_with_a_solver_field(tmp_path: Path) -> None:
    lines = [{"id": "a", "model": "gpt", "q": WENG, "out": {"text": BAD}},
             {"id": "b", "model": "llama", "q": WENG, "out": {"text": ["She earned 12 * 5 = $60.", "A: 60"]}}]
    df = check_solutions(write(tmp_path / "long.jsonl", lines), question_field="q", solution_field="out.text",
                         id_field="id", solver_field="model", progress=False)
    assert df[["id", "solver", "status"]].values.tolist() == [["a", "gpt", "error"], ["b", "llama", "sound"]]


def test_field_paths_may_be_dotted_and_keys_may_hold_dots() -> None:
    record = {"175b_verification": {"solution": "x"}, "a.b": {"c": 1}, "a": {"b": {"d": 2}}}
    assert field_value(record, "175b_verification.solution") == "x"
    assert field_value(record, "a.b.c") == 1
    assert field_value(record, "a.b.d") == 2
    missing = field_value(record, "a.x")  # the missing sentinel
    assert missing is not None
    assert missing != 2


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [({"jobs": 0}, ValueError), ({"engine": "spark"}, ValueError), ({"question_field": ""}, ValueError)],
)
def test_bad_settings_fail_before_any_work(wide_file: Path, kwargs: dict[str, Any], error: type) -> None:
    with pytest.raises(error):
        check_solutions(wide_file, **{**WIDE_ARGS, **kwargs})


def test_a_missing_file_is_a_typed_refusal(tmp_path: Path) -> None:
    with pytest.raises(ImportRefusal) as info:
        check_solutions(tmp_path / "nothing.jsonl", **WIDE_ARGS)
    assert (info.value.reason, info.value.detail) == ("unreadable_file", "no such file")


def test_solver_field_and_keys_are_exclusive() -> None:
    with pytest.raises(ValueError, match="not both"):
        Fields("q", "s", solver="model", solver_keys=("a",))


def test_the_statuses_are_a_closed_vocabulary(wide_file: Path) -> None:
    df = check_solutions(wide_file, **WIDE_ARGS)
    assert list(df["status"].cat.categories) == list(ROW_STATUSES)


# ------------------------------------------------------------------ scores


def test_scores_per_solver_and_all(wide_file: Path) -> None:
    df = check_solutions(wide_file, **WIDE_ARGS, reference_field="ground_truth")
    scores = score_verdicts(df).set_index("solver")
    assert list(scores.reset_index().columns) == list(SCORE_COLUMNS)
    assert list(scores.index) == ["m1", "m2", REFERENCE_SOLVER, "all solvers"]
    m1 = scores.loc["m1"]
    # m1: 7 sound (correct), 9 error (wrong), 11 error (correct); the refused line 3 is not labelled
    assert (m1["labelled"], m1["wrong"], m1["flagged"], m1["refused"]) == (3, 1, 2, 1)
    assert (m1["precision_pct"], m1["recall_pct"], m1["false_alarm_pct"]) == (50.0, 100.0, 50.0)
    assert m1["lift"] == round(50.0 / (100 / 3), 2)
    whole = scores.loc["all solvers"]
    assert (whole["labelled"], whole["wrong"], whole["flagged"]) == (6, 2, 3)


def test_the_first_flagged_step_is_compared_with_the_hand_read_one(wide_file: Path, tmp_path: Path) -> None:
    steps = tmp_path / "steps.csv"
    steps.write_text("id,solver,line,note\n7,m2,1,\n9,m1,2,the second line\n", encoding="utf-8")
    df = check_solutions(wide_file, **WIDE_ARGS)
    scores = score_verdicts(df, error_steps=read_error_steps(steps)).set_index("solver")
    assert (scores.loc["m2", "hand_read"], scores.loc["m2", "first_step_right"]) == (1, 1)
    assert (scores.loc["m1", "hand_read"], scores.loc["m1", "first_step_right"]) == (1, 0)
    assert scores.loc["all solvers", "first_step_right_pct"] == 50.0


def test_a_bad_error_steps_line_is_a_typed_refusal_naming_it(tmp_path: Path) -> None:
    steps = tmp_path / "steps.csv"
    steps.write_text("id,solver,line\n7,m2,1\n7,m1,one\n", encoding="utf-8")
    with pytest.raises(ImportRefusal) as info:
        read_error_steps(steps)
    assert info.value.path == f"{steps}:3"


# ------------------------------------------------------------------ the command


def test_the_command_writes_verdicts_scores_and_a_page(wide_file: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out" / "verdicts.csv"
    code = main(["check-solutions", str(wide_file), "--question-field", "question", "--solution-field", "solution",
                 "--id-field", "test_index", "--label-field", "is_correct", "--solver-key", "m1,m2",
                 "--reference-field", "ground_truth", "-o", str(out), "--html", str(tmp_path / "r.html"),
                 "--no-progress"])
    assert code == 0
    frame = pd.read_csv(out, dtype=str)
    assert frame["id"].tolist()[:2] == ["7", "7"]
    assert (out.parent / "verdicts.scores.csv").is_file()
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "catch: m2 on 7 (wrong)" in page
    assert "false alarm: m1 on 11 (correct)" in page
    printed = capsys.readouterr().out
    assert "precision_pct" in printed
    assert "refused records: 3" in printed


def test_the_command_exits_1_on_an_error_verdict_when_asked(wide_file: Path, tmp_path: Path) -> None:
    args = ["check-solutions", str(wide_file), "--question-field", "question", "--solution-field", "solution",
            "--solver-key", "m1", "--solver-key", "m2", "-o", str(tmp_path / "v.csv"), "--no-progress"]
    assert main(args) == 0
    assert main([*args, "--fail-on-error"]) == 1


def test_the_command_exits_2_on_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check-solutions", str(tmp_path / "none.jsonl"), "--question-field", "q", "--solution-field", "s",
                 "-o", str(tmp_path / "v.csv"), "--no-progress"])
    assert code == 2
    assert f"[unreadable_file] at {tmp_path / 'none.jsonl'}: no such file" in capsys.readouterr().err


def test_the_verdicts_csv_is_byte_equal_across_jobs(wide_file: Path, tmp_path: Path) -> None:
    base = ["check-solutions", str(wide_file), "--question-field", "question", "--solution-field", "solution",
            "--solver-key", "m1,m2", "--label-field", "is_correct", "--no-progress"]
    main([*base, "-o", str(tmp_path / "a.csv")])
    main([*base, "-o", str(tmp_path / "b.csv"), "--jobs", "2"])
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()


# ------------------------------------------------------------------ the dev file of model solutions


@pytest.mark.corpora
@pytest.mark.slow
def test_the_dev_file_reads_whole() -> None:
    path = corpora_dir() / "gsm8k_model_solutions" / "dev.jsonl"
    df = check_solutions(path, question_field="question", solution_field="solution", id_field="test_index",
                         label_field="is_correct", reference_field="ground_truth", progress=False,
                         solver_keys=("6b_finetuning", "6b_verification", "175b_finetuning", "175b_verification"))
    assert len(df) == 3300
    assert (df["status"].astype(str) != "refused").all()
    labelled = df[df["solver"] != REFERENCE_SOLVER]
    assert round(100 * (labelled["label"] == False).mean(), 1) == 62.7  # noqa: E712 - the base rate the README says


def test_the_verdicts_are_byte_equal_across_hash_seeds(wide_file: Path, tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    outputs = []
    for seed in ("0", "4242"):
        out = tmp_path / f"v{seed}.csv"
        subprocess.run(
            [sys.executable, "-m", "ssbg.cli", "check-solutions", str(wide_file), "--question-field", "question",
             "--solution-field", "solution", "--solver-key", "m1,m2", "--label-field", "is_correct",
             "--reference-field", "ground_truth", "--no-progress", "-o", str(out), "--html", str(tmp_path / "p.html")],
            env={**os.environ, "PYTHONHASHSEED": seed}, check=True, capture_output=True,
        )
        outputs.append((out.read_bytes(), (tmp_path / f"v{seed}.scores.csv").read_bytes(),
                        (tmp_path / "p.html").read_bytes()))
    assert outputs[0] == outputs[1]


# ------------------------------------------------------------------ ε and its sweep (ADR 0027)


def test_the_sweep_scores_each_epsilon_as_checking_at_it_would(wide_file: Path) -> None:
    from ssbg.checking.batch import sweep_verdicts

    frame = check_solutions(wide_file, **WIDE_ARGS)
    swept = sweep_verdicts(frame, [0.001, 0.5, 1.0])
    for level in (0.001, 0.5, 1.0):
        again = score_verdicts(check_solutions(wide_file, **WIDE_ARGS, min_evidence=level))
        mine = swept[swept["min_evidence"] == level].set_index("solver")
        for _, row in again.iterrows():
            assert (mine.loc[row["solver"], "flagged"], _nan(mine.loc[row["solver"], "precision_pct"])) == (
                row["flagged"], _nan(row["precision_pct"]))


def _nan(x: Any) -> Any:
    return None if x is None or math.isnan(x) else x


def test_every_row_keeps_the_epsilon_it_was_judged_at(wide_file: Path) -> None:
    frame = check_solutions(wide_file, **WIDE_ARGS, min_evidence=0.25)
    assert set(frame["min_evidence"]) == {0.25}
    assert frame.attrs["min_evidence"] == 0.25


def test_the_command_prints_its_epsilon_and_writes_the_sweep(wide_file: Path, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "v.csv"
    code = main(["check-solutions", str(wide_file), "--question-field", "question", "--solution-field", "solution",
                 "--label-field", "is_correct", "--solver-key", "m1,m2", "-o", str(out), "--no-progress",
                 "--min-evidence", "0.2", "--sweep", "--html", str(tmp_path / "r.html")])
    assert code == 0
    assert capsys.readouterr().out.startswith("min_evidence (ε): 0.2")
    assert set(pd.read_csv(out)["min_evidence"]) == {0.2}
    assert len(pd.read_csv(out.with_suffix(".sweep.csv"))) > 0
    assert "min_evidence (ε): 0.2" in (tmp_path / "r.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("level", ["0", "1.5", "x"])
def test_the_command_refuses_an_epsilon_outside_0_1(wide_file: Path, tmp_path: Path, level: str) -> None:
    with pytest.raises(SystemExit) as info:
        main(["check-solutions", str(wide_file), "--question-field", "question", "--solution-field", "solution",
              "--solver-key", "m1", "-o", str(tmp_path / "v.csv"), "--min-evidence", level])
    assert info.value.code == 2
