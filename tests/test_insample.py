"""The header line of a report and a verdict file: how many of its problems the reading model was trained on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ssbg.cli import main
from ssbg.reading.learned.model import load_model, using
from ssbg.stats.batch import run_batch
from ssbg.stats.insample import InSample, count_in_sample

from .conftest import corpora_dir


def _lines(path: Path, n: int) -> list[dict[str, object]]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(next(f)) for _ in range(n)]


def _trained_train_lines(n: int) -> list[dict[str, object]]:
    """The first ``n`` GSM8K train problems the shipped model was trained on."""
    model = load_model()
    assert model is not None
    out = []
    with (corpora_dir() / "gsm8k" / "train.jsonl").open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            if model.trained_on(row["question"]):
                out.append(row)
                if len(out) == n:
                    break
    return out


def test_problems_the_model_was_trained_on_are_counted() -> None:
    rows = _trained_train_lines(5)
    s = count_in_sample([str(r["question"]) for r in rows] + ["A question no one wrote down?"])
    assert (s.trained, s.problems) == (5, 6)
    assert s.sentence == "the reading model was trained on 5 of these 6 problems: figures on them are in-sample"


def test_no_gsm8k_test_question_is_one_the_model_was_trained_on() -> None:
    rows = [json.loads(line) for line in (corpora_dir() / "gsm8k_model_solutions" / "dev.jsonl").open()]
    s = count_in_sample(str(r["question"]) for r in rows)
    assert (s.trained, s.problems) == (0, 660)


def test_zero_is_said_too() -> None:
    assert count_in_sample(["A question no one wrote down?"]).sentence == (
        "the reading model was trained on 0 of these 1 problems: no figure here is in-sample")


def test_without_a_model_the_line_says_so() -> None:
    with using(None):
        s = count_in_sample(["A question?"])
    assert (s.model, s.trained) == (False, 0)
    assert s.sentence.startswith("no reading model was used")


@pytest.mark.parametrize(("trained", "problems"), [(-1, 2), (3, 2), (True, 2)])
def test_counts_are_validated(trained: int, problems: int) -> None:
    with pytest.raises(ValueError, match="trained"):
        InSample(trained, problems)


def test_a_batch_counts_its_trained_problems_in_workers_too(tmp_path: Path) -> None:
    rows = _trained_train_lines(3) + _lines(corpora_dir() / "gsm8k_model_solutions" / "dev.jsonl", 2)
    corpus = tmp_path / "mixed.jsonl"
    corpus.write_text("".join(json.dumps({"question": r["question"], "answer": r.get("answer", r.get("ground_truth"))})
                              + "\n" for r in rows), encoding="utf-8")
    for jobs in (1, 2):
        batch = run_batch([f"gsm8k={corpus}"], jobs=jobs, batch_size=2, progress=False)
        assert batch.in_sample == InSample(3, 5)


def test_the_report_says_it_in_its_header_terminal_and_parquet(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "train.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in _trained_train_lines(2)), encoding="utf-8")
    out = tmp_path / "r.html"
    assert main(["report", f"gsm8k={corpus}", "-o", str(out), "--no-progress", "--no-diagrams"]) == 0
    said = "the reading model was trained on 2 of these 2 problems: figures on them are in-sample"
    assert f"<p class=\"insample\">T{said[1:]}.</p>" in out.read_text(encoding="utf-8")
    assert f"reading: {said}" in capsys.readouterr().out
    pq = pytest.importorskip("pyarrow.parquet")
    meta = pq.read_schema(tmp_path / "r_tables" / "problems.parquet").metadata
    assert meta[b"ssbg.reading_model"] == said.encode()


def test_check_solutions_says_it_of_gsm8k_test_questions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = corpora_dir() / "gsm8k_model_solutions" / "dev.jsonl"
    out = tmp_path / "v.csv"
    code = main(["check-solutions", str(data), "--question-field", "question", "--solution-field", "solution",
                 "--solver-key", "6b_finetuning", "-o", str(out), "--html", str(tmp_path / "v.html"),
                 "--limit", "4", "--no-progress"])
    assert code == 0
    said = "the reading model was trained on 0 of these 4 problems: no figure here is in-sample"
    assert f"reading: {said}" in capsys.readouterr().out
    assert f"T{said[1:]}." in (tmp_path / "v.html").read_text(encoding="utf-8")


def test_check_solutions_counts_distinct_questions_it_was_trained_on(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    rows = _trained_train_lines(2)
    data = tmp_path / "sols.jsonl"
    data.write_text("".join(json.dumps({"q": r["question"], "s": r["answer"]}) + "\n" for r in rows * 2),
                    encoding="utf-8")
    assert main(["check-solutions", str(data), "--question-field", "q", "--solution-field", "s",
                 "-o", str(tmp_path / "v.csv"), "--no-progress"]) == 0
    assert ("reading: the reading model was trained on 2 of these 2 problems: figures on them are in-sample"
            in capsys.readouterr().out)
