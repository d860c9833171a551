"""Data where researchers keep it (issue 26): JSONL, JSON, CSV and Parquet files, DataFrames, lists of dicts and
Hugging Face datasets give the same rows, in check_solutions and in the corpus reading; real objects, no mocks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import datasets
import pandas as pd
import pytest

from ssbg.checking.batch import check_solutions
from ssbg.cli import main
from ssbg.errors import ImportRefusal
from ssbg.reading.readers import RecordSource, read_corpus
from ssbg.reading.readers.tabular import plain, scan_source
from ssbg.stats.batch import run_batch
from ssbg.stats.report import write_report

from .conftest import corpora_dir

SOLVERS = ("6b_finetuning", "6b_verification", "175b_finetuning", "175b_verification")
DEV_ARGS: dict[str, Any] = {
    "question_field": "question", "solution_field": "solution", "label_field": "is_correct",
    "id_field": "test_index", "solver_keys": SOLVERS, "reference_field": "ground_truth", "progress": False,
}  # fmt: skip


def _rows(frame: pd.DataFrame) -> list[str]:
    """Every verdict row as CSV text, its source cut to the record's number, sorted: what the forms must share."""
    out = frame.copy()
    out["source"] = out["source"].astype(str).str.rpartition(":")[2]
    return sorted(out.to_csv(index=False, header=False, lineterminator="\n").splitlines())


@pytest.fixture(scope="module")
def dev_records() -> list[dict[str, Any]]:
    path = corpora_dir() / "gsm8k_model_solutions" / "dev.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[:60]]


@pytest.fixture(scope="module")
def dev_jsonl(dev_records: list[dict[str, Any]], tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("dev") / "dev.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in dev_records), encoding="utf-8")
    return path


def test_one_dev_file_as_jsonl_parquet_dataframe_and_dataset_gives_byte_equal_rows(
    dev_records: list[dict[str, Any]], dev_jsonl: Path, tmp_path: Path
) -> None:
    parquet = tmp_path / "dev.parquet"
    pd.DataFrame(dev_records).to_parquet(parquet)
    forms: dict[str, object] = {
        "jsonl": dev_jsonl,
        "parquet": parquet,
        "dataframe": pd.read_parquet(parquet),
        "dataset": datasets.Dataset.from_list(dev_records),
    }
    rows = {name: _rows(check_solutions(data, **DEV_ARGS)) for name, data in forms.items()}
    assert len(rows["jsonl"]) == 60 * 5
    assert {name: r == rows["jsonl"] for name, r in rows.items()} == dict.fromkeys(forms, True)


def test_a_flattened_csv_and_a_list_of_dicts_give_the_same_rows(
    dev_records: list[dict[str, Any]], dev_jsonl: Path, tmp_path: Path
) -> None:
    csv = tmp_path / "dev.csv"
    pd.json_normalize(dev_records).to_csv(csv, index=False)  # "6b_finetuning.solution" columns
    want = _rows(check_solutions(dev_jsonl, **DEV_ARGS))
    assert _rows(check_solutions(csv, **DEV_ARGS)) == want
    assert _rows(check_solutions(iter(dev_records), **DEV_ARGS)) == want


def test_format_equals_path_names_the_format(dev_records: list[dict[str, Any]], tmp_path: Path) -> None:
    odd = tmp_path / "dev.bin"
    pd.DataFrame(dev_records[:3]).to_parquet(odd)
    frame = check_solutions(f"parquet={odd}", **DEV_ARGS)
    assert frame["source"].tolist()[0] == f"{odd}:1"


def test_records_in_memory_are_named_by_the_caller_or_by_their_kind() -> None:
    q = "Ann has 3 bags of 4 kg. How many kg does she have?"
    rows = [{"q": q, "s": "3 * 4 = 12 kg"}]
    args: dict[str, Any] = {"question_field": "q", "solution_field": "s", "progress": False}
    assert check_solutions(pd.DataFrame(rows), **args)["source"].tolist() == ["dataframe:1"]
    assert check_solutions(rows, **args, source_name="mine")["id"].tolist() == ["mine:1"]
    split = datasets.Dataset.from_list(rows, split=datasets.Split.TEST)
    assert check_solutions(split, **args)["source"].tolist() == ["test:1"]


def test_a_missing_cell_reads_like_a_missing_key() -> None:
    frame = pd.DataFrame([{"q": "a", "n": 1.5}, {"q": "b", "n": float("nan")}])
    assert [r.data for r in scan_source(frame)] == [{"q": "a", "n": 1.5}, {"q": "b"}]


def test_numpy_values_become_plain_python() -> None:
    import numpy as np

    assert plain({"a": np.int64(3), "b": np.array(["x", "y"]), "c": np.bool_(True)}) == {"a": 3, "b": ["x", "y"],
                                                                                        "c": True}


def test_a_record_that_is_no_mapping_is_a_counted_refusal() -> None:
    frame = check_solutions([{"q": "Ann has 3 kg.", "s": "3 * 1 = 3"}, ["not", "a", "record"]], question_field="q",
                            solution_field="s", progress=False)
    assert frame["refusal_reason"].tolist()[1] == "malformed_record"


def test_a_parquet_file_that_is_not_parquet_is_bad_input(tmp_path: Path) -> None:
    bad = tmp_path / "x.parquet"
    bad.write_text("not parquet", encoding="utf-8")
    with pytest.raises(ImportRefusal) as info:
        check_solutions(bad, question_field="q", solution_field="s", progress=False)
    assert (info.value.reason, info.value.detail) == ("malformed_record", "parquet")


# ------------------------------------------------------------------ a field naming nothing: exit 2


@pytest.mark.parametrize(
    ("extra", "detail"),
    [(["--solution-field", "answer"], "6b_finetuning.answer"),
     (["--solution-field", "solution", "--solver-key", "6b_finetunin"], "6b_finetunin")],
)
def test_a_field_no_record_has_is_bad_input_naming_the_fields(
    dev_jsonl: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], detail: str
) -> None:
    keys = [] if "--solver-key" in extra else ["--solver-key", "6b_finetuning"]
    code = main(["check-solutions", str(dev_jsonl), "--question-field", "question", *keys, *extra,
                 "-o", str(tmp_path / "v.csv"), "--no-progress", "--fail-on-error"])
    err = capsys.readouterr().err
    assert (code, f"'{detail}'" in err, "the records have: 175b_finetuning" in err) == (2, True, True)
    assert not (tmp_path / "v.csv").exists()


def test_check_solutions_writes_parquet_beside_the_csv(dev_jsonl: Path, tmp_path: Path) -> None:
    out = tmp_path / "v.csv"
    code = main(["check-solutions", str(dev_jsonl), "--question-field", "question", "--solution-field", "solution",
                 "--solver-key", "6b_finetuning", "--label-field", "is_correct", "-o", str(out), "--no-progress"])
    assert code == 0
    csv = pd.read_csv(out, dtype=str, keep_default_na=False)
    parquet = pd.read_parquet(tmp_path / "v.parquet")
    assert (len(parquet), list(parquet.columns), parquet["id"].astype(str).tolist()) == (
        len(csv), list(csv.columns), csv["id"].tolist())
    assert (tmp_path / "v.scores.parquet").is_file()


# ------------------------------------------------------------------ the corpus reading


GSM8K_ROWS = [
    {"question": "Ann has 3 apples and buys 4 more apples. How many apples does she have?",
     "answer": "She has 3 + 4 = <<3+4=7>>7 apples.\n#### 7"},
    {"question": "A pen costs $2. Bob buys 5 pens. How much does he pay?",
     "answer": "He pays 2 * 5 = $<<2*5=10>>10.\n#### 10"},
    {"question": "Broken record"},
]  # fmt: skip


def _problems(result: Any) -> tuple[pd.DataFrame, list[str]]:
    """The problem rows without where they came from, and each problem's number (``NAME-N``: N)."""
    numbers = result.problems["problem_id"].astype(str).str.rpartition("-")[2].tolist()
    return result.problems.drop(columns=["source", "import_path", "problem_id"]), numbers


def test_a_corpus_as_jsonl_parquet_csv_dataframe_and_dataset_gives_the_same_tables(tmp_path: Path) -> None:
    folder = tmp_path / "gsm8k"
    folder.mkdir()
    jsonl = folder / "train.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in GSM8K_ROWS), encoding="utf-8")
    pd.DataFrame(GSM8K_ROWS).to_parquet(folder / "train.parquet")
    pd.DataFrame(GSM8K_ROWS).to_csv(folder / "train.csv", index=False)
    want = run_batch([jsonl], progress=False)
    want_problems, want_numbers = _problems(want)
    forms: list[object] = [
        [folder / "train.parquet"], [f"gsm8k={folder / 'train.csv'}"],
        [("gsm8k", pd.DataFrame(GSM8K_ROWS))], [RecordSource(datasets.Dataset.from_list(GSM8K_ROWS), "gsm8k")],
        ("gsm8k", GSM8K_ROWS),
    ]
    for specs in forms:
        got = run_batch(specs, progress=False, jobs=2)
        problems, numbers = _problems(got)
        pd.testing.assert_frame_equal(problems, want_problems)
        pd.testing.assert_frame_equal(got.equations.drop(columns=["problem_id"]),
                                      want.equations.drop(columns=["problem_id"]))
        assert numbers == want_numbers == ["1", "2", "3"]


def test_records_in_memory_are_named_as_a_file_of_that_name_would_be() -> None:
    records = list(read_corpus(RecordSource(GSM8K_ROWS, "gsm8k", name="train")))
    assert [(r.problem_id, r.source, r.refusal is None) for r in records] == [
        ("train-1", "train:1", True), ("train-2", "train:2", True), ("train-3", "train:3", False)]


def test_asdiv_reads_its_own_files_only() -> None:
    with pytest.raises(ImportRefusal) as info:
        list(read_corpus(("asdiv", [{"Body": "x"}])))
    assert (info.value.reason, info.value.detail) == ("malformed_record", "asdiv")


def test_write_report_takes_a_dataframe(tmp_path: Path) -> None:
    result = write_report([("gsm8k", pd.DataFrame(GSM8K_ROWS))], tmp_path / "r.html", progress=False,
                          diagrams=False)
    assert result.summary.overview["records"].tolist()[0] == 3


def test_a_failed_report_leaves_nothing_behind(tmp_path: Path) -> None:
    assert main(["report", "README.md", "-o", str(tmp_path / "new" / "report.html"), "--no-progress"]) == 2
    assert list(tmp_path.iterdir()) == []


def test_ssbg_report_reads_parquet_and_csv_by_extension(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "gsm8k"
    folder.mkdir()
    pd.DataFrame(GSM8K_ROWS).to_parquet(folder / "train.parquet")
    pd.DataFrame(GSM8K_ROWS).to_csv(tmp_path / "rows.csv", index=False)
    out = tmp_path / "out" / "report.html"
    assert main(["report", str(folder / "train.parquet"), f"gsm8k={tmp_path / 'rows.csv'}", "-o", str(out),
                 "--no-progress", "--no-diagrams"]) == 0
    overview = pd.read_parquet(tmp_path / "out" / "report_tables" / "overview.parquet")
    assert overview["records"].tolist() == [6, 6]  # one corpus (gsm8k, both files), then all corpora


def test_check_solutions_reads_format_equals_path(dev_records: list[dict[str, Any]], tmp_path: Path) -> None:
    odd = tmp_path / "records.bin"
    pd.DataFrame(dev_records[:2]).to_parquet(odd)
    code = main(["check-solutions", f"parquet={odd}", "--question-field", "question", "--solution-field", "solution",
                 "--solver-key", "6b_finetuning", "-o", str(tmp_path / "v.csv"), "--no-progress"])
    assert (code, len(pd.read_csv(tmp_path / "v.csv"))) == (0, 2)
