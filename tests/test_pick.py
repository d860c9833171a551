"""From a report's row to its problem: ``ssbg bind`` / ``ssbg render`` pick a corpus problem by the id the tables
print or by its line, read and bound with the corpus pack; the report's tables and drill-downs say the command
(issue 37, item 1; ADR 0032)."""

from __future__ import annotations

import csv
import json
import shlex
from pathlib import Path

import pytest

from ssbg.cli import main
from ssbg.reading.readers.pick import pick_record
from ssbg.units import CORPUS_PACK_NAME, corpus_pack, default_pack

SAMPLE = "data/samples/gsm8k_sample.jsonl"


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_gsm8k_train_problem_1_is_read_and_bound_with_the_corpus_pack(corpora: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    train = corpora / "gsm8k" / "train.jsonl"
    for argv in (["bind", str(train), "--id", "1"], ["bind", f"gsm8k={train}", "--id", "train-1"],
                 ["bind", str(train), "--line", "1"]):
        code, out, err = _run(argv, capsys)
        assert code == 0, err
        assert f"ssbg: pack {corpus_pack().provenance}" in err  # it names its pack: the corpus pack
        assert "friends" not in err
        assert "unknown_unit" not in out
        assert "status=refused" not in out
        assert 'problem=train-1"' in out.splitlines()[0]
    code, out, err = _run(["render", str(train), "--id", "train-1"], capsys)
    assert code == 0
    assert out.startswith('digraph "binding_graph"')
    assert "en_counts_v2" in out
    assert f"ssbg: pack {corpus_pack().provenance}" in err


def test_a_hand_written_problem_keeps_en_units_v1(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["bind", "data/problem.json"], ["bind", "data/lanes/kinds.jsonl", "--id", "kind-add-admitted"],
                 ["bind", "data/lanes/kinds.jsonl", "--line", "1"]):
        code, _out, err = _run(argv, capsys)
        assert code == 0, err
        assert err.rstrip().endswith(f"ssbg: pack {default_pack().provenance}")


@pytest.mark.parametrize("wanted", ["gsm8k_sample-2", "2"])
def test_the_id_the_report_prints_picks_the_problem(wanted: str) -> None:
    record = pick_record(SAMPLE, problem_id=wanted)
    assert (record.corpus, record.problem_id, record.source) == ("gsm8k", "gsm8k_sample-2", f"{SAMPLE}:2")
    assert pick_record(f"gsm8k={SAMPLE}", line=2) == record


def test_a_bare_gsm8k_file_is_read_as_gsm8k(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    train = tmp_path / "train.jsonl"  # no 'gsm8k' in its name: its first record's fields say so
    train.write_bytes(Path(SAMPLE).read_bytes())
    code, out, err = _run(["bind", str(train), "--id", "2"], capsys)
    assert code == 0, err
    assert 'problem=train-2"' in out.splitlines()[0]


def test_an_id_that_picks_nothing_or_several_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = _run(["render", f"gsm8k={SAMPLE}", "--id", "99"], capsys)
    assert code == 2
    assert "no record '99'" in err
    assert "gsm8k_sample-1, gsm8k_sample-2" in err
    code, _out, err = _run(["bind", "data/lanes/kinds.jsonl"], capsys)
    assert code == 2
    assert "name one with --id ID (ids: kind-add-admitted" in err
    code, _out, err = _run(["bind", "data/problem.json", "--line", "3"], capsys)
    assert code == 2
    assert "--line picks a record of a corpus file" in err
    twice = tmp_path / "svamp_twice.json"  # two records with one id: the error names their lines
    rows = json.loads(Path("data/samples/svamp_sample.json").read_text(encoding="utf-8"))[:1] * 2
    twice.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    code, _out, err = _run(["bind", str(twice), "--id", rows[0]["ID"]], capsys)
    assert code == 2
    assert "s-1 (--line 2), s-1 (--line 10); pick one with --line" in err


def test_the_report_says_the_command_that_draws_each_problem(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = _run(["report", SAMPLE, "data/lanes/kinds.jsonl", "-o", str(tmp_path / "r.html"),
                            "--no-progress", "--no-diagrams"], capsys)
    assert code == 0, err
    with open(tmp_path / "r_tables" / "problems.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert {r["draw_command"] for r in rows[:2]} == {
        f"ssbg render gsm8k={SAMPLE} --id gsm8k_sample-{n} -o gsm8k_sample-{n}.svg" for n in (1, 2)}
    lane = next(r for r in rows if r["problem_id"] == "kind-add-refused")  # bound with the report's pack
    assert lane["draw_command"].endswith(f"--id kind-add-refused --pack {CORPUS_PACK_NAME} -o kind-add-refused.svg")
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert page.count('<p class="draw">Draw it: <code>ssbg render') >= 1
    for row in [*rows[:3], lane]:  # every command draws the problem it names
        argv = shlex.split(row["draw_command"])[1:]
        code, out, err = _run(argv[: argv.index("-o")], capsys)
        assert code == 0, err
        assert f'problem={row["problem_id"]}' in out
