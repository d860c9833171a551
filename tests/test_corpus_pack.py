"""The composed pack as the default of corpus work, and the pack named on every output (ADR 0017, part 2).

Corpus work (``ssbg report``, the batch and table functions, the browser, the checker, notebooks 02
and 03, ``make demo``) binds with ``en_units_v1+en_counts_v2+en_measures_v1`` when no pack is given; the core API,
``ssbg check``/``bind``/``lane`` and the lanes keep ``en_units_v1``.  Every report, table and graph
names the pack it used: name, version and checksum of each part.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from ssbg.adapter import bind_math_problem_graph
from ssbg.cli import main
from ssbg.errors import AdmissibilityError, UnitAlgebraError
from ssbg.problem import MathProblemGraph
from ssbg.reading.records import CorpusRecord
from ssbg.units import (
    CORPUS_PACK_NAME,
    DEFAULT_PACK_NAME,
    corpus_pack,
    default_pack,
    load_pack,
    parse_unit,
)

REPO = Path(__file__).resolve().parents[1]
UNITS_CITATION = "en_units_v1@1.0.0#e40912d9afa7"
CITATION = re.compile(r"[A-Za-z0-9_.-]+@[^#+ ]+#[0-9a-f]{12}(\+[A-Za-z0-9_.-]+@[^#+ ]+#[0-9a-f]{12})*")


def cookies(pid: str = "c1", unit: str = "cookies") -> dict[str, Any]:
    return {
        "problem_id": pid,
        "text": f"Ann has 3 {unit} and bakes 2 more.",
        "entities": ["Ann"],
        "initial_state": [{"entity": "Ann", "quantity": {"value": 3, "unit": unit}}],
        "operations": [{"actor": "Ann", "kind": "add", "operand": {"value": 2, "unit": unit}}],
        "unknown": {"entity": "Ann", "unit": unit},
    }


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


# ------------------------------------------------------------------ the two defaults


def test_the_corpus_pack_is_the_composition_of_units_and_counts() -> None:
    pack = corpus_pack()
    assert CORPUS_PACK_NAME == pack.name == "en_units_v1+en_counts_v2+en_measures_v1"
    assert pack is load_pack(CORPUS_PACK_NAME)  # memoized
    assert [c.name for c in pack.components] == ["en_units_v1", "en_counts_v2", "en_measures_v1"]


def test_the_core_api_keeps_en_units_v1() -> None:
    assert (DEFAULT_PACK_NAME, default_pack().name) == ("en_units_v1", "en_units_v1")
    with pytest.raises(UnitAlgebraError):
        parse_unit("cookies")
    from ssbg.admissibility import check_operation

    with pytest.raises(AdmissibilityError) as info:
        check_operation("add", ["cookies", "cookies"])
    assert info.value.reason == "unknown_unit"
    graph = bind_math_problem_graph(MathProblemGraph.from_dict(cookies()))
    assert graph.equations[0].refusal_reason == "unknown_unit"
    assert f"pack={UNITS_CITATION} " in graph.provenance


def test_ssbg_check_and_bind_keep_en_units_v1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "add", "cookies", "cookies"]) == 1
    assert "unknown_unit" in capsys.readouterr().out
    path = tmp_path / "p.json"
    path.write_text(json.dumps(cookies()))
    assert main(["bind", str(path)]) == 0
    assert f"pack={UNITS_CITATION} " in capsys.readouterr().out


def test_the_lanes_pass_on_en_units_v1_alone() -> None:
    from ssbg.lanes import check_lanes

    report = check_lanes(sorted((REPO / "data" / "lanes").glob("*.jsonl")))
    assert report.divergences == ()


# ------------------------------------------------------------------ corpus work


def test_run_batch_binds_with_the_corpus_pack_by_default(tmp_path: Path) -> None:
    from ssbg.stats.batch import run_batch

    corpus = write_jsonl(tmp_path / "c.jsonl", [cookies()])
    run = run_batch([corpus], progress=False)
    assert (run.unit_pack, run.pack) == (corpus_pack(), corpus_pack().citation)
    assert run.equations["status"].tolist() == ["admitted"]
    seed = run_batch([corpus], progress=False, pack="en_units_v1")
    assert (seed.pack, seed.equations["reason"].tolist()) == (UNITS_CITATION, ["unknown_unit"])


def test_analyse_record_and_reading_default_to_the_corpus_pack(tmp_path: Path) -> None:
    from ssbg.stats.batch import analyse_record, iter_records

    record = CorpusRecord("t", "c1", "t.jsonl:1", payload=MathProblemGraph.from_dict(cookies()))
    assert analyse_record(record).graph.equations[0].admissibility_status == "admitted"  # type: ignore[union-attr]
    line = {"question": "Ann bakes 3 cookies and 2 more cookies. How many cookies?",
            "answer": "3 + 2 = <<3+2=5>>5\n#### 5"}
    corpus = write_jsonl(tmp_path / "g.jsonl", [line])
    built = [r.payload for r in iter_records([f"gsm8k={corpus}"])]
    from ssbg.trace import bind_trace

    assert bind_trace(built[0], pack=corpus_pack()).equations[0].admissibility_status == "admitted"  # type: ignore[arg-type]


def test_the_report_names_its_pack_in_its_header_tables_and_parquet(tmp_path: Path) -> None:
    from ssbg.stats.report import write_report
    from ssbg.stats.tables import PACK_COLUMNS

    corpus = write_jsonl(tmp_path / "c.jsonl", [cookies(), cookies("c2", "flurbs")])
    result = write_report([corpus], tmp_path / "r.html", csv_dir=tmp_path / "t", progress=False, diagrams=False)
    pack = corpus_pack()
    page = result.html_path.read_text(encoding="utf-8")
    assert pack.provenance in page
    table = pd.read_csv(tmp_path / "t" / "pack.csv", dtype=str)
    assert tuple(table.columns) == PACK_COLUMNS
    assert table.values.tolist() == [
        ["pack", pack.name, pack.version, pack.checksum],
        *[["component", c.name, c.version, c.checksum] for c in pack.components],
    ]
    if result.parquet_paths:
        import pyarrow.parquet as pq

        for path in result.parquet_paths:
            assert pq.read_schema(path).metadata[b"ssbg.pack"].decode() == pack.provenance


def test_a_report_with_another_pack_names_that_pack(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = write_jsonl(tmp_path / "c.jsonl", [cookies()])
    argv = ["report", str(corpus), "-o", str(tmp_path / "r.html"), "--csv-dir", str(tmp_path / "t"),
            "--no-progress", "--no-diagrams"]
    assert main([*argv, "--pack", "en_units_v1"]) == 0
    out = capsys.readouterr().out
    assert f"pack: {default_pack().provenance}\n" in out
    assert pd.read_csv(tmp_path / "t" / "pack.csv")["name"].tolist() == ["en_units_v1", "en_units_v1"]
    assert main(argv) == 0
    assert f"pack: {corpus_pack().provenance}\n" in capsys.readouterr().out


def test_every_graph_of_a_corpus_run_names_the_pack_with_its_checksums(tmp_path: Path) -> None:
    from ssbg.stats.batch import run_batch

    run = run_batch([REPO / "data" / "samples"], progress=False)
    provenances = {d.graph.provenance for d in run.drilldowns if d.graph is not None}
    assert provenances
    for provenance in provenances:
        token = re.search(r"pack=(\S+)", provenance)
        assert token is not None
        assert token.group(1) == corpus_pack().citation
        assert CITATION.fullmatch(token.group(1))


def test_the_leaderboard_and_coverage_curve_show_what_the_composed_pack_leaves(tmp_path: Path) -> None:
    from ssbg.stats.batch import run_batch
    from ssbg.stats.tables import summarize

    rows = [cookies(f"c{i}") for i in range(3)] + [cookies(f"f{i}", "flurbs") for i in range(2)]
    rows.append(cookies("s1", "zorbs"))  # (servings, unknown here until en_counts_v2, now count)
    corpus = write_jsonl(tmp_path / "c.jsonl", rows)
    both = run_batch([corpus], progress=False)
    summary = summarize(both.problems, both.equations, pack=both.unit_pack)
    assert summary.unknown_units[["unit_key", "root_refusals", "problems"]].values.tolist() == [
        ["flurb", 2, 2], ["zorb", 1, 1]]
    curve = summary.coverage_curve[summary.coverage_curve["corpus"] == "ssbg"]
    assert curve[["k", "removed", "remaining"]].values.tolist() == [[0, 0, 3], [1, 2, 1], [2, 3, 0]]
    assert curve["unit"].tolist()[1:] == ["flurbs", "zorbs"]
    seed = run_batch([corpus], progress=False, pack="en_units_v1")
    board = summarize(seed.problems, seed.equations, pack=seed.unit_pack).unknown_units
    assert board["unit_key"].tolist() == ["cookie", "flurb", "zorb"]


def test_the_browser_reads_binds_and_matches_units_with_the_corpus_pack(tmp_path: Path) -> None:
    from ssbg.browser import filter_equations, index_records, problem_detail
    from ssbg.stats.batch import run_batch

    corpus = write_jsonl(tmp_path / "c.jsonl", [cookies()])
    run = run_batch([corpus], progress=False)
    assert len(filter_equations(run.equations, unit="cookie")) == 1  # one lemma for cookie and cookies
    assert len(filter_equations(run.equations, unit="cookie", pack=default_pack())) == 0
    records = index_records([corpus])
    detail = problem_detail("ssbg", "c1", equations=run.equations, record=records[("ssbg", "c1")])
    assert corpus_pack().citation in detail.diagram_svg  # the diagram's title is the graph's provenance


def test_the_checker_checks_with_the_corpus_pack_by_default() -> None:
    from ssbg.checking import check_solution

    q = "Ann has 3 apples and buys 4 apples. How many apples does she have?"
    verdict = check_solution(q, "3 + 4 = <<3+4=7>>7 apples\nA: 7")
    assert (verdict.status, verdict.pack) == ("sound", corpus_pack().citation)
    seed = check_solution(q, "3 + 4 = <<3+4=7>>7 apples\nA: 7", pack="en_units_v1")
    assert (seed.status, seed.pack) == ("unverifiable", UNITS_CITATION)


def test_check_solutions_writes_its_pack_beside_the_verdicts(tmp_path: Path) -> None:
    record = {"id": 1, "question": "Ann has 3 apples and buys 4 apples. How many apples does she have?",
              "solution": "3 + 4 = <<3+4=7>>7 apples\nA: 7"}
    path = write_jsonl(tmp_path / "s.jsonl", [record])
    out = tmp_path / "v.csv"
    argv = ["check-solutions", str(path), "--question-field", "question", "--solution-field", "solution",
            "-o", str(out), "--html", str(tmp_path / "v.html"), "--no-progress"]
    assert main(argv) == 0
    pack = corpus_pack()
    assert pd.read_csv(tmp_path / "v.pack.csv")["sha256"].tolist() == [pack.checksum,
                                                                        *(c.checksum for c in pack.components)]
    assert pack.provenance in (tmp_path / "v.html").read_text(encoding="utf-8")
    assert pd.read_csv(out)["status"].tolist() == ["sound"]


# ------------------------------------------------------------------ notebooks and make


def _cells(name: str) -> list[str]:
    notebook = json.loads((REPO / "notebooks" / name).read_text(encoding="utf-8"))
    return ["".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code"]


@pytest.mark.parametrize("name", ["02_admissibility_playground.ipynb", "03_corpus_refusal_statistics.ipynb"])
def test_the_corpus_notebooks_default_to_the_corpus_pack(name: str) -> None:
    code = "\n".join(_cells(name))
    assert re.search(r"^PACK = None\b", code, flags=re.MULTILINE)
    assert "pack=PACK" in code  # the parameter reaches run_batch, whose None is the corpus pack
    said = code.split("PACK = None", 1)[1].splitlines()[0]
    assert "en_units_v1+en_counts_v2+en_measures_v1" in said  # said where it is set


def _make_n(target: str) -> list[str]:
    done = subprocess.run(["make", "-n", target], cwd=REPO, capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


@pytest.mark.parametrize("target", ["demo", "demo-corpora"])
def test_make_demo_reports_with_the_default_pack_and_lanes_keep_theirs(target: str) -> None:
    lines = _make_n(target)
    reports = [line for line in lines if "ssbg report" in line]
    assert reports
    assert not [line for line in reports if "--pack" in line]  # the report's default: the corpus pack
    assert not [line for line in lines if "ssbg lane" in line and "--pack" in line]  # lanes: en_units_v1
