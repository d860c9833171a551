"""What a researcher trips on in a first afternoon (issue 37; ADR 0032): a table per problem in one call, input
that is read or refused out loud, packs one can write, words one can read, and the CLI habits one expects.
(Picking a report's problem to draw is tests/test_pick.py.)"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pandas as pd
import pytest

import ssbg
from ssbg.cli import main
from ssbg.errors import ImportRefusal

SAMPLE = Path("data/samples/gsm8k_sample.jsonl")
WENG = "Weng earns $12 an hour for babysitting. Yesterday she babysat for 5 hours. How much did she earn?"


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------ 2. a table per problem


def _gsm8k_frame() -> pd.DataFrame:
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    return pd.DataFrame(rows, index=pd.Index([f"q{n}" for n in range(100, 100 + len(rows))], name="qid"))


def test_analyse_gives_a_row_per_problem_indexed_like_the_input() -> None:
    frame = _gsm8k_frame()
    table = ssbg.analyse(frame, progress=False)
    assert table.index.equals(frame.index)  # the DataFrame's own index, name and all
    assert table["question"].tolist() == frame["question"].tolist()
    assert set(table["finding"]) <= {"admitted", "dimension error found", "could not tell"}
    refused = table[table["outcome"] != "admitted"]
    assert refused["first_refusal"].notna().all()
    assert set(refused["family"]) <= {"admissibility", "grounding", "question_target", "import", "binding"}
    admitted = table[table["outcome"] == "admitted"]
    assert admitted["first_refusal"].isna().all()
    assert (admitted["finding"] == "admitted").all()
    assert (table["n_equations"] == table["n_admitted"] + table["n_refused"]).all()
    # the same problems from the file and from a list of dicts: the same rows (positions from 0 for a list)
    from_file = ssbg.analyse(f"gsm8k={SAMPLE}", progress=False)
    from_list = ssbg.analyse(frame.to_dict(orient="records"), progress=False)
    assert list(from_list.index) == list(range(len(frame)))
    columns = ["outcome", "first_refusal", "family", "finding", "n_equations", "n_root_cause"]
    assert from_file[columns].values.tolist() == from_list[columns].values.tolist() == table[columns].values.tolist()


def test_analyse_says_dimension_error_or_could_not_tell() -> None:
    rows = [{"question": "A car goes 60 miles in 2 hours. How far does it go in miles?",
             "answer": "60 + 2 = <<60+2=62>>62 miles\n#### 62"},
            {"question": "Tom has 5 pens.", "answer": "no equation\n#### 5"}]
    table = ssbg.analyse(rows, progress=False)
    assert table[["first_refusal", "family", "finding"]].values.tolist() == [
        ["unit_mismatch", "admissibility", "dimension error found"], ["no_equation", "import", "could not tell"]]


def test_check_solutions_keeps_a_dataframes_index() -> None:
    frame = pd.DataFrame([{"q": WENG, "m": {"s": "She earned 12 * 5 = $60.\nA: 60"}, "n": {"s": "12 * 6 = 72"}},
                          {"q": WENG, "m": {"s": "12 * 5 = 60"}, "n": {"s": "5 + 3 = 8"}}], index=[70, 42])
    df = ssbg.check_solutions(frame, question_field="q", solution_field="s", solver_keys=["m", "n"], progress=False)
    assert df.index.tolist() == [70, 70, 42, 42]
    assert df["source"].tolist() == ["dataframe:1", "dataframe:1", "dataframe:2", "dataframe:2"]


# ------------------------------------------------------------------ 3. input read, or refused out loud


def test_gzip_is_read_by_its_first_bytes_whatever_the_name(tmp_path: Path) -> None:
    plain = ssbg.analyse(f"gsm8k={SAMPLE}", progress=False)
    for name in ("gsm8k_sample.jsonl.gz", "gsm8k_sample.jsonl"):
        packed = tmp_path / name
        packed.write_bytes(gzip.compress(SAMPLE.read_bytes(), mtime=0))
        got = ssbg.analyse(str(packed), progress=False)
        assert got.drop(columns=["source"]).equals(plain.drop(columns=["source"])), name  # ids gsm8k_sample-N too
    csv = tmp_path / "dev.csv.gz"
    rows = [{"question": WENG, "solution": "She earned 12 * 5 = $60.\nA: 60"}]
    csv.write_bytes(gzip.compress(pd.DataFrame(rows).to_csv(index=False).encode(), mtime=0))
    df = ssbg.check_solutions(csv, question_field="question", solution_field="solution", progress=False)
    assert df["status"].tolist() == ["sound"]


def test_a_cut_gzip_stream_is_a_refused_record_not_a_crash(tmp_path: Path) -> None:
    cut = tmp_path / "gsm8k_cut.jsonl.gz"
    cut.write_bytes(gzip.compress(SAMPLE.read_bytes(), mtime=0)[:-40])
    from ssbg.reading.readers import read_corpus

    records = list(read_corpus(str(cut)))
    assert records[-1].refusal is not None
    assert records[-1].refusal.reason in ("unreadable_file", "reader_error")
    assert all(r.refusal is None for r in records[:-1])


@pytest.mark.parametrize("name", ["dev.tsv", "notes.txt", "dev"])
def test_an_extension_no_reader_knows_is_bad_input(name: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / name
    f.write_bytes(SAMPLE.read_bytes())
    for argv in (["report", str(f), "-o", str(tmp_path / "r.html"), "--no-progress"],
                 ["check-solutions", str(f), "--question-field", "question", "--solution-field", "answer",
                  "-o", str(tmp_path / "v.csv"), "--no-progress"]):
        code, _out, err = _run(argv, capsys)
        assert code == 2
        assert "; it reads JSONL (.jsonl, .ndjson), a JSON array (.json), CSV (.csv), Parquet" in err
    with pytest.raises(ImportRefusal, match="ssbg reads no"):
        ssbg.analyse(str(f), progress=False)
    code, _out, err = _run(["check-solutions", f"jsonl={f}", "--question-field", "question", "--solution-field",
                            "answer", "-o", str(tmp_path / "v.csv"), "--no-progress"], capsys)
    assert code == 0, err  # its format named: read as it says


def test_a_field_holding_an_object_names_the_sub_fields_that_hold_text(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "llm.jsonl"
    rows = [{"question": WENG, "llm_output": {"text": "12 * 5 = $60\nA: 60", "tokens": 9}}] * 2
    f.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    argv = ["check-solutions", str(f), "--question-field", "question", "--solution-field", "llm_output", "-o",
            str(tmp_path / "v.csv"), "--no-progress"]
    code, _out, err = _run(argv, capsys)
    assert code == 2
    assert "the field 'llm_output' text; the solution field 'llm_output' holds dict" in err
    assert "did you mean `llm_output.text`?" in err
    argv[argv.index("llm_output")] = "llm_output.text"
    code, _out, err = _run(argv, capsys)
    assert code == 0, err
    # where some records hold text, the others are refused rows that say what to read instead
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(json.dumps({"question": WENG, "a": "12 * 5 = 60"}) + "\n"
                     + json.dumps({"question": WENG, "a": {"text": "12 * 5 = 60"}}) + "\n", encoding="utf-8")
    df = ssbg.check_solutions(mixed, question_field="question", solution_field="a", progress=False)
    assert df["status"].tolist()[1] == "refused"
    assert df["refusal_detail"].tolist()[1] == "a (did you mean `a.text`?)"


# ------------------------------------------------------------------ 4. a pack of one's own


def test_pack_init_writes_an_example_and_its_manifest_and_check_validates(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    from ssbg.packtool import EXAMPLE_ROWS
    from ssbg.units import load_pack

    folder = tmp_path / "mine"
    code, out, _err = _run(["pack", "init", str(folder)], capsys)
    assert code == 0
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    lexicon = (folder / "lexicon.jsonl").read_bytes()
    assert [json.loads(line) for line in lexicon.splitlines()] == list(EXAMPLE_ROWS)
    import hashlib

    assert (manifest["name"], manifest["rows"], manifest["sha256"]) == ("mine", 2, hashlib.sha256(lexicon).hexdigest())
    assert f"sha256 {manifest['sha256']}" in out
    code, out, _err = _run(["check", "apply_rate", "furlongs_per_hour", "hours", "--lhs", "miles", "--pack",
                            f"en_units_v1+{folder}"], capsys)
    assert code == 0
    assert "convert furlong_per_hour*hour->mile x1/8" in out  # 660 feet: an eighth of a mile
    with (folder / "lexicon.jsonl").open("a", encoding="utf-8") as f:  # a unit added: the manifest is stale
        f.write(json.dumps({**EXAMPLE_ROWS[0], "lemma": "league", "plural": "leagues", "surfaces": [],
                            "ratio": "15840"}) + "\n")
    code, _out, err = _run(["pack", "check", str(folder)], capsys)
    assert code == 2
    assert "checksum_mismatch" in err
    assert f"`ssbg pack init {folder}` rewrites it" in err
    code, out, _err = _run(["pack", "init", str(folder), "--version", "0.2.0"], capsys)  # the lexicon kept
    assert code == 0
    assert "3 units (count 1, length 2)" in out
    assert load_pack(folder).version == "0.2.0"
    (folder / "lexicon.jsonl").write_text('{"lemma": "rod"}\n', encoding="utf-8")  # a bad row: file:line
    code, _out, err = _run(["pack", "init", str(folder)], capsys)
    assert code == 2
    assert f"PackError [malformed_row] at {folder / 'lexicon.jsonl'}:1" in err


def test_the_readme_explains_every_field_of_a_pack_row() -> None:
    from ssbg.packtool import EXAMPLE_ROWS

    readme = Path("README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Your own units: a pack"):readme.index("## What ssbg draws")]
    for field in [*EXAMPLE_ROWS[0], "rows", "sha256"]:
        assert f"`{field}`" in section, field
    for row in EXAMPLE_ROWS:
        assert json.dumps(row, sort_keys=True) in section


# ------------------------------------------------------------------ 5. words a reader can parse


def test_every_refusal_reason_has_a_plain_sentence_on_the_page_and_in_help(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from ssbg.errors import IMPORT_REASONS, QUESTION_TARGET_REASONS, REASON_GLOSSARY, REFUSAL_REASONS

    assert set(REASON_GLOSSARY) == REFUSAL_REASONS | QUESTION_TARGET_REASONS | IMPORT_REASONS
    assert all(said.endswith(".") and said[0].isupper() and "\n" not in said for said in REASON_GLOSSARY.values())
    with pytest.raises(SystemExit):
        main(["--help"])
    helped = " ".join(capsys.readouterr().out.split())
    for reason, said in REASON_GLOSSARY.items():
        assert f"{reason}: {said}" in helped
    from ssbg.stats.report import write_report

    page = write_report([SAMPLE, "data/lanes/kinds.jsonl"], tmp_path / "r.html", progress=False,
                        diagrams=False).html_path.read_text(encoding="utf-8")
    assert '<h2 id="glossary">Glossary</h2>' in page
    assert '<a href="#glossary">Glossary</a>' in page
    from ssbg.outputs import html_text

    for reason, said in REASON_GLOSSARY.items():
        assert f"<dt><code>{reason}</code></dt><dd>{html_text(said)}</dd>" in page
    assert "ADR-0134's" not in page  # named as what it is, with where to read it
    assert "the unit-admissibility rules (ADR-0134 of the spec, <code>docs/spec/ADR-0134-" in page
    assert Path("docs/spec/ADR-0134-binding-graph-admissibility.md").is_file()
    assert Path("docs/spec/ADR-0132-binding-graph-data-model.md").is_file()
    # the lanes are hand-written examples, not a corpus
    assert '<span class="corpus">hand-written example (ssbg)</span>' in page
    assert "<b>ssbg</b> is no corpus of text: its rows are hand-written examples" in page


def test_the_words_the_pack_lacks_are_split_into_units_and_misread_words(corpora: Path, tmp_path: Path) -> None:
    from ssbg.stats.report import write_report

    lines = (corpora / "gsm8k" / "train.jsonl").read_text(encoding="utf-8").splitlines()
    picked = tmp_path / "gsm8k_picked.jsonl"  # 'times' (19), 'ones' (374), 'morning' (222), 'throws' (445)
    picked.write_text("".join(lines[n - 1] + "\n" for n in (19, 374, 222, 445)), encoding="utf-8")
    result = write_report([picked], tmp_path / "r.html", progress=False, diagrams=False)
    board = result.summary.unknown_units
    flagged = dict(zip(board["unit_key"], board["misread_word"], strict=True))
    assert {k: flagged.get(k) for k in ("times", "one", "morning", "throw")} == {
        "times": True, "one": True, "morning": True, "throw": False}
    page = result.html_path.read_text(encoding="utf-8")
    units, words = page.split("<h3>Units the pack lacks</h3>")[1].split("<h3>Words read as units that are not")
    words = words.split("<h2")[0]
    assert ">times<" in words
    assert ">morning<" in words
    assert ">times<" not in units
    assert ">throw<" in units


# ------------------------------------------------------------------ 6. the habits a CLI and an API user expects


def test_version_and_a_curated_namespace(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"ssbg {ssbg.__version__}"
    names = dir(ssbg)
    assert names == sorted(ssbg.__all__)
    assert not {"Any", "TYPE_CHECKING", "importlib", "MappingProxyType"} & (set(names) | set(ssbg.__all__))
    assert "analyse" in names
    assert all(hasattr(ssbg, name) for name in ssbg.__all__)


def test_check_solutions_writes_csv_or_json_lines_to_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "s.jsonl"
    f.write_text(json.dumps({"question": WENG, "s": "She earned 12 * 5 = $60.\nA: 60"}) + "\n", encoding="utf-8")
    base = ["check-solutions", str(f), "--question-field", "question", "--solution-field", "s", "--no-progress"]
    code, out, err = _run([*base, "-o", "-"], capsys)
    assert code == 0
    assert out.startswith("id,solver,source,status,")
    assert out.count("\n") == 2
    assert ",sound," in out
    assert "Verdicts per solver" in err
    assert "verdicts: stdout (csv)" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.jsonl"]  # nothing written beside
    code, out, _err = _run([*base, "--format", "jsonl"], capsys)  # stdout is the default
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["id"], r["status"], r["label"]) for r in rows] == [("s.jsonl:1", "sound", None)]
    code, _out, _err = _run([*base, "--format", "jsonl", "-o", str(tmp_path / "v.jsonl")], capsys)
    assert code == 0
    assert json.loads((tmp_path / "v.jsonl").read_text(encoding="utf-8"))["status"] == "sound"
    assert (tmp_path / "v.pack.csv").is_file()


def test_every_help_lists_every_input_format(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("report", "check-solutions", "bind", "render"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        said = " ".join(capsys.readouterr().out.split())
        for kind in ("JSONL", ".json", "CSV", "Parquet", "gzip"):
            assert kind in said, (command, kind)
        if command != "check-solutions":
            for fmt in ("gsm8k", "svamp", "mawps", "cogcomp", "asdiv", ".xml"):
                assert fmt in said, (command, fmt)


def test_the_report_progress_bar_knows_its_total(tmp_path: Path) -> None:
    from ssbg.reading.readers import count_corpus_records
    from ssbg.stats.batch import _total

    assert count_corpus_records(str(SAMPLE)) == 16
    assert count_corpus_records(("gsm8k", [{}] * 5)) == 5
    packed = tmp_path / "gsm8k_packed.jsonl.gz"
    packed.write_bytes(gzip.compress(SAMPLE.read_bytes(), mtime=0))
    assert count_corpus_records(str(packed)) == 16
    assert count_corpus_records("data/samples/svamp_sample.json") is None  # only reading the array says
    assert _total([str(SAMPLE), str(packed)], 10) == 20
    assert _total([str(SAMPLE), "data/samples/svamp_sample.json"], None) is None


def test_one_step_numbering_said_everywhere() -> None:
    from ssbg.checking.batch import VERDICT_COLUMNS  # noqa: F401 - its comments are the CSV's docs
    from ssbg.checking.verdict import Finding, Verdict

    assert "count the same steps from 0" in (Verdict.explain.__doc__ or "")
    assert "its ``step 1`` is step 0" in (Finding.__doc__ or "")
    batch = Path("ssbg/checking/batch.py").read_text(encoding="utf-8")
    assert '"first_error_step",  # its step, from 0 (Finding.step; Verdict.explain() says it from 1' in batch
    v = ssbg.check_solution(WENG, "She worked 5 + 3 = <<5+3=8>>8 hours.\nShe earned 12 * 8 = $<<12*8=96>>96.")
    assert v.findings[0].step == 0
    assert "- step 1 (line 1" in v.explain()


def test_a_datasetdict_is_refused_with_pick_a_split() -> None:
    datasets = pytest.importorskip("datasets")
    rows = [{"question": WENG, "answer": "12 * 5 = <<12*5=60>>60\n#### 60"}]
    dd = datasets.DatasetDict({"train": datasets.Dataset.from_list(rows), "test": datasets.Dataset.from_list(rows)})
    for call in (lambda: ssbg.analyse(dd, progress=False),
                 lambda: ssbg.check_solutions(dd, question_field="question", solution_field="answer",
                                              progress=False)):
        with pytest.raises(ImportRefusal, match=r"holds splits \(train, test\): pick a split, data\['train'\]"):
            call()
    assert len(ssbg.analyse(dd["train"], progress=False)) == 1


def test_the_scores_table_of_the_check_solutions_page_wraps() -> None:
    from ssbg.checking.report import _table

    html = _table(pd.DataFrame([{"solver": "m", "false_alarm_pct": 1.0}]))
    assert html.startswith('<div class="wrap"><table>')
    assert "<th>false_<wbr>alarm_<wbr>pct</th>" in html
    from ssbg.checking import report

    assert "th{{white-space:normal" in report._TPL_PAGE
    assert "overflow-wrap:anywhere" in report._TPL_PAGE


# ------------------------------------------------------------------ 7. the speed a user sees


def test_the_speed_table_times_the_command_beside_the_in_process_figure() -> None:
    import subprocess
    import sys

    sys.path.insert(0, "benchmarks")
    try:
        import run_all
        import speed_table
    finally:
        sys.path.remove("benchmarks")
    scripts = [script for _what, script, _keys, _target in speed_table.ROWS]
    assert scripts.index("bench_cli_report.py") == scripts.index("bench_report.py") + 1  # beside it
    row = speed_table.ROWS[scripts.index("bench_cli_report.py")]
    assert row[2] == ("cli_report",)
    assert "start-up" in row[0]
    assert run_all.ORDER.index("bench_cli_report.py") == run_all.ORDER.index("bench_report.py") + 1
    source = Path("benchmarks/bench_cli_report.py").read_text(encoding="utf-8")
    assert 'figure("cli_report",' in source
    assert '"report", f"gsm8k={train}", "--jobs", str(args.jobs)' in source
    done = subprocess.run([sys.executable, "benchmarks/bench_cli_report.py", "--help"], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0
    assert "start-up included" in done.stdout
