"""The HTML report and its CSVs: escaping, numbers equal to the CSVs, byte-equal runs, the CLI."""

from __future__ import annotations

import csv
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from ssbg.cli import main
from ssbg.stats.batch import run_batch
from ssbg.stats.report import REASONS_LEDE, ReportResult, cell_text, highlight_text, write_report
from ssbg.stats.tables import SUMMARY_TABLES, corpus_overview
from tests.conftest import corpora_dir
from tests.test_batch import mixed_corpus, problem, write_jsonl

REPO = Path(__file__).resolve().parents[1]


class _Tables(HTMLParser):
    """Collect every <table id=...>'s header (its CSV column names) and cell texts (``<wbr>`` adds nothing);
    ``labels`` keeps the header texts a reader sees."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.labels: dict[str, list[str]] = {}
        self.csv: dict[str, str] = {}  # table id -> the CSV it shows (some of its columns)
        self._table: str | None = None
        self._row: list[str] | None = None
        self._cell: list[str] | None = None
        self._column: str | None = None
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self.scripts += 1
        if tag == "table" and dict(attrs).get("data-csv"):
            self._table = str(dict(attrs)["id"])
            self.csv[self._table] = str(dict(attrs)["data-csv"]).removesuffix(".csv")
            self.tables[self._table] = []
            self.labels[self._table] = []
        elif self._table and tag == "tr":
            self._row = []
        elif self._row is not None and tag in ("td", "th"):
            self._cell = []
            self._column = dict(attrs).get("data-column") if tag == "th" else None

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            text = "".join(self._cell)
            if tag == "th" and self._table:
                self.labels[self._table].append(text)
            self._row.append(text if self._column is None else self._column)
            self._cell = None
        elif tag == "tr" and self._row is not None and self._table:
            self.tables[self._table].append(self._row)
            self._row = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def parse(html_text: str) -> _Tables:
    p = _Tables()
    p.feed(html_text)
    return p


def read_csv(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> ReportResult:
    d = tmp_path_factory.mktemp("report")
    corpus = write_jsonl(d / "c.jsonl", mixed_corpus(80))
    other = write_jsonl(d / "other.jsonl", [json.dumps(problem(f"o{i}", "quoggs")) for i in range(5)])
    return write_report([corpus, other], d / "out" / "report.html", csv_dir=d / "csv", progress=False)


def test_problem_text_is_escaped(report: ReportResult) -> None:
    page = report.html_path.read_text(encoding="utf-8")
    assert "&lt;script&gt;x&lt;/script&gt;" in page
    assert parse(page).scripts == 0


def test_every_html_table_equals_the_head_of_its_csv(report: ReportResult) -> None:
    parsed = parse(report.html_path.read_text(encoding="utf-8"))
    tables = parsed.tables
    csv_dir = report.csv_paths[0].parent
    assert set(parsed.csv.values()) <= set(SUMMARY_TABLES)
    assert set(parsed.csv.values()) >= {"overview", "refusal_reasons"}
    for table_id, rows in tables.items():
        name = parsed.csv[table_id]
        full = read_csv(csv_dir / f"{name}.csv")
        keep = [full[0].index(c) for c in rows[0]]  # the columns the table shows, in its order
        on_disk = [[r[k] for k in keep] for r in full]
        if name == "coverage_curve":  # the report shows chosen k rows of the curve
            header, body = on_disk[0], on_disk[1:]
            ks = {r[1] for r in rows[1:]}
            on_disk = [header, *[r for r in body if r[1] in ks]]
        assert rows == on_disk[: len(rows)], name


def test_every_table_is_written_as_csv(report: ReportResult) -> None:
    names = sorted(p.stem for p in report.csv_paths)
    assert names == sorted(["problems", "equations", "kinds", *SUMMARY_TABLES, "pack"])


def test_parquet_round_trips_the_tidy_tables(report: ReportResult) -> None:
    import pandas as pd

    pytest.importorskip("pyarrow")
    path = next(p for p in report.parquet_paths if p.stem == "equations")
    back = pd.read_parquet(path)
    assert back.astype(str).equals(report.batch.equations.astype(str))


def test_drilldowns_show_the_top_reasons(report: ReportResult) -> None:
    page = report.html_path.read_text(encoding="utf-8")
    assert page.count('<article class="drill">') >= 3
    assert "equation refusal: unknown_unit" in page


def test_bad_lines_are_listed_with_their_line_numbers(report: ReportResult) -> None:
    page = report.html_path.read_text(encoding="utf-8")
    shown = parse(page).tables["bad_lines"]
    sources = [row[shown[0].index("source")] for row in shown[1:]]
    corpus = report.batch.specs[0]
    expected = [f"{corpus}:{n}" for n, line in enumerate(mixed_corpus(80), start=1)
                if not line.startswith('{"problem_id": "m')]
    assert (sources, f"Unreadable records: {len(sources)} " in page) == (expected, True)


def _csv_bytes(result: ReportResult) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in result.csv_paths}


@pytest.mark.slow
def test_csvs_are_byte_equal_across_runs_jobs_and_engines(tmp_path: Path) -> None:
    corpus = write_jsonl(tmp_path / "c.jsonl", mixed_corpus(400))
    samples = REPO / "data" / "samples"  # every text format: read in the workers
    runs = {
        name: write_report([corpus, samples], tmp_path / name / "r.html", progress=False, diagrams=False, jobs=jobs,
                           engine=engine)
        for name, jobs, engine in [("a", 1, "local"), ("b", 1, "local"), ("j2", 2, "local"), ("dask", 2, "dask")]
    }
    reference = _csv_bytes(runs["a"])
    assert all(_csv_bytes(r) == reference for r in runs.values())


def test_html_is_deterministic(tmp_path: Path) -> None:
    corpus = write_jsonl(tmp_path / "c.jsonl", mixed_corpus(30))
    a = write_report([corpus], tmp_path / "a.html", progress=False, diagrams=False)
    b = write_report([corpus], tmp_path / "b.html", progress=False, diagrams=False)
    assert a.html_path.read_bytes() == b.html_path.read_bytes()


@pytest.mark.slow
def test_html_with_diagrams_is_the_same_from_one_or_two_workers(tmp_path: Path) -> None:
    # two workers: the plotting modules are imported in a thread during the run, and the
    # drill-down diagrams are drawn by concurrent dot processes; the page must not change.
    samples = REPO / "data" / "samples"
    one = write_report([samples], tmp_path / "one.html", progress=False, jobs=1)
    two = write_report([samples], tmp_path / "two.html", progress=False, jobs=2)
    page = one.html_path.read_bytes()
    assert page.count(b'<div class="diagram">') >= 3
    assert two.html_path.read_bytes() == page


def test_concurrent_diagrams_equal_sequential_ones() -> None:
    from ssbg.stats.report import _diagram, _Diagrams

    drills = [d for d in run_batch([REPO / "data" / "lanes"], progress=False).drilldowns if d.graph is not None]
    assert len(drills) >= 3
    assert _Diagrams(drills).result() == [_diagram(d.graph) for d in drills if d.graph is not None]


def test_figures_drawn_aside_equal_those_drawn_here(monkeypatch: pytest.MonkeyPatch) -> None:
    from ssbg.stats import report
    from ssbg.stats.tables import summarize

    batch = run_batch([REPO / "data" / "lanes"], progress=False)
    s = summarize(batch.problems, batch.equations)
    here = report._figures(s)
    assert all('<svg' in f for f in here)
    assert report._FiguresAside(s, enabled=True).result() == here
    assert report._FiguresAside(s, enabled=False).result() == here

    def dies(_s: object, conn: Any) -> None:  # a child that ends without sending anything
        conn.close()

    monkeypatch.setattr(report, "_figures_to", dies)
    assert report._FiguresAside(s, enabled=True).result() == here  # drawn here instead


def test_a_failed_report_stops_its_figures_child(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ssbg.stats import report

    children: list[Any] = []
    made = report._FiguresAside.__init__

    def keep(self: Any, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        children.append(self._process)

    def fails(*_args: object, **_kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(report._FiguresAside, "__init__", keep)
    monkeypatch.setattr(report, "write_tables", fails)
    with pytest.raises(OSError, match="disk full"):
        write_report([REPO / "data" / "lanes"], tmp_path / "r.html", jobs=2, progress=False)
    assert children
    assert all(c is not None and not c.is_alive() for c in children)


def test_highlight_marks_only_spans_that_point_into_the_text() -> None:
    from ssbg.trace import Trace, bind_trace

    text = "Ann has 3 <apples> & 2 pears."
    t = Trace.from_dict({
        "problem_id": "h", "corpus": "demo", "text": text,
        "mentions": [{"start": 8, "end": 18, "text": "3 <apples>", "value": 3, "unit": "apples"},
                     {"start": 21, "end": 28, "text": "2 pears", "value": 2, "unit": "pears"}],
        "steps": [{"op": "add", "operands": [{"mention": 0}, {"mention": 1}], "result": 5}]})
    markup = highlight_text(text, bind_trace(t))
    assert markup.count("<mark") == 2
    assert "3 &lt;apples&gt;" in markup
    assert "&amp;" in markup


@pytest.mark.parametrize(("value", "text"), [(None, ""), (float("nan"), ""), (True, "True"), (7, "7"),
                                             (0.1, "0.1"), (100.0, "100.0"), ("a<b", "a<b")])
def test_cell_text_matches_pandas_csv(value: Any, text: str) -> None:
    import pandas as pd

    written = pd.DataFrame({"v": [value]}).to_csv(index=False, lineterminator="\n").splitlines()[1]
    assert (cell_text(value), written.strip('"')) == (text, text)


# --------------------------------------------------------------------------- the command line


def test_cli_writes_report_and_prints_the_refusal_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = write_jsonl(tmp_path / "c.jsonl", mixed_corpus(20))
    code = main(["report", str(corpus), "-o", str(tmp_path / "r.html"), "--csv-dir", str(tmp_path / "t"),
                 "--no-progress", "--no-diagrams"])
    out = capsys.readouterr().out
    assert (code, (tmp_path / "r.html").is_file(), "unknown_unit" in out, f"report: {tmp_path / 'r.html'}" in out) \
        == (0, True, True, True)


@pytest.mark.parametrize(("lines", "code"), [([json.dumps(problem("a"))], 0), ([json.dumps(problem("a", "flurbs"))], 1),
                                             ([json.dumps(problem("a")), "{bad"], 1), (["{bad"], 2)])
def test_cli_fail_on_refusal(tmp_path: Path, lines: list[str], code: int) -> None:
    corpus = write_jsonl(tmp_path / "c.jsonl", lines)
    argv = ["report", str(corpus), "-o", str(tmp_path / "r.html"), "--no-progress", "--no-diagrams",
            "--fail-on-refusal"]
    assert main(argv) == code


@pytest.mark.parametrize(("argv", "says"), [
    (["report", "/nonexistent/corpus.jsonl", "-o", "x.html"],
     "[unreadable_file] at /nonexistent/corpus.jsonl: no such file"),
    (["report", "nosuchformat=data", "-o", "x.html"], "ImportRefusal [malformed_record]"),
])  # fmt: skip
def test_cli_bad_input_exits_2(argv: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [a if a != "x.html" else str(tmp_path / "x.html") for a in argv]
    assert main(argv) == 2
    assert says in capsys.readouterr().err


@pytest.mark.parametrize("bad", [["--jobs", "0"], ["--engine", "spark"], ["--limit", "-1"]])
def test_cli_bad_usage_exits_2(bad: list[str], tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as info:
        main(["report", str(tmp_path), "-o", str(tmp_path / "r.html"), *bad])
    assert info.value.code == 2


# --------------------------------------------------------------------------- the bundled data and real corpora


def test_report_over_bundled_data(tmp_path: Path) -> None:
    result = write_report([REPO / "data"], tmp_path / "r.html", progress=False, diagrams=False)
    assert len(result.batch.problems) > 0
    assert result.summary.overview["records"].iloc[-1] == len(
        result.batch.problems)


@pytest.mark.corpora
@pytest.mark.slow
def test_report_over_real_corpora_keeps_every_record(tmp_path: Path) -> None:
    corpora = corpora_dir()
    specs = [str(corpora / "svamp" / "SVAMP.json"), str(corpora / "gsm8k" / "train.jsonl")]
    result = write_report(specs, tmp_path / "r.html", progress=False, diagrams=False, limit=300, jobs=2)
    counts = result.batch.problems.groupby("corpus", observed=True).size().to_dict()
    assert counts == {"gsm8k": 300, "svamp": 300}


def test_trace_drilldowns_use_the_text_view_and_escape_the_text(tmp_path: Path) -> None:
    from ssbg.trace import Trace

    text = "Ann has 3 flurbs and buys 2 flurbs. <script>alert(1)</script> How many flurbs?"
    trace = Trace.from_dict({
        "problem_id": "tr1", "corpus": "demo", "text": text,
        "mentions": [{"start": 8, "end": 16, "text": "3 flurbs", "value": 3, "unit": "flurbs"},
                     {"start": 26, "end": 34, "text": "2 flurbs", "value": 2, "unit": "flurbs"}],
        "steps": [{"op": "add", "operands": [{"mention": 0}, {"mention": 1}], "result": 5}]})
    corpus = write_jsonl(tmp_path / "traces.jsonl", [trace.to_json()])
    page = write_report([corpus], tmp_path / "r.html", progress=False, diagrams=False).html_path.read_text()
    assert ('class="ssbg-text"' in page, "&lt;script&gt;alert(1)&lt;/script&gt;" in page, parse(page).scripts) == (
        True, True, 0)


REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(("spec", "fmt"), [
    ("notes.jsonl", "ssbg"),  # guessed: prose in a .jsonl file read as ssbg JSONL
    ("gsm8k=notes.jsonl", "gsm8k"),
    ("svamp=data/samples/gsm8k_sample.jsonl", "svamp"),  # a GSM8K file named as SVAMP
    ("asdiv=notes.xml", "asdiv"),  # no <Problem> at all
])
def test_cli_a_file_no_record_of_which_reads_in_its_format_is_bad_input(
    spec: str, fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    notes = (REPO / "README.md").read_bytes()
    for name in ("notes.jsonl", "notes.xml"):
        (tmp_path / name).write_bytes(notes)
    spec = spec.replace("notes.", f"{tmp_path}/notes.")
    assert main(["report", spec, "-o", str(tmp_path / "r.html"), "--no-progress", "--no-diagrams"]) == 2
    err = capsys.readouterr().err
    assert "[malformed_record]" in err
    assert f"does not read as {fmt}" in err
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize("spec", ["README.md", "gsm8k=README.md", "asdiv=README.md", "data/samples/README.md"])
def test_cli_a_file_whose_extension_no_reader_knows_is_bad_input(
    spec: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    assert main(["report", spec, "-o", str(tmp_path / "r.html"), "--no-progress", "--no-diagrams"]) == 2
    err = capsys.readouterr().err
    assert "[malformed_record]" in err
    assert "ssbg reads no '.md' file; it reads JSONL (.jsonl, .ndjson), a JSON array (.json), CSV (.csv)" in err
    assert not (tmp_path / "r.html").exists()


def test_an_empty_file_is_an_empty_corpus(tmp_path: Path) -> None:
    corpus = write_jsonl(tmp_path / "c.jsonl", [""])
    assert main(["report", str(corpus), "-o", str(tmp_path / "r.html"), "--no-progress", "--no-diagrams"]) == 0


def test_the_terminal_table_shows_no_nan(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [json.dumps({"question": "Ann has 3 cats. How many cats?", "answer": "She has 3.\n#### 3"})]
    corpus = write_jsonl(tmp_path / "d.jsonl", lines)  # read, refused as no_equation: no equation to share
    assert main(["report", f"gsm8k={corpus}", "-o", str(tmp_path / "r.html"), "--no-progress", "--no-diagrams"]) == 0
    assert "NaN" not in capsys.readouterr().out


def test_table_headers_are_words_a_person_reads(report: ReportResult) -> None:
    labels = parse(report.html_path.read_text(encoding="utf-8")).labels
    every = [label for names in labels.values() for label in names]
    assert "bad lines" in every
    assert "share of equations %" in every
    assert not [label for label in every if "_" in label]


def test_the_unit_label_needs_no_stylesheet_to_stand_apart() -> None:
    from dataclasses import replace

    from ssbg.adapter import bind_math_problem_graph
    from ssbg.model import SourceSpanLink
    from ssbg.problem import MathProblemGraph

    text = "Kit has 50 dollars."
    g = MathProblemGraph.from_dict({"entities": ["Kit"], "operations": [],
                                    "initial_state": [{"entity": "Kit", "quantity": {"value": 50, "unit": "dollars"}}],
                                    "unknown": {"entity": "Kit", "unit": "dollars"}})
    graph = bind_math_problem_graph(g)
    fact = replace(graph.facts[0], source_span=SourceSpanLink("p", 8, 18, "50 dollars"))  # a span into the text
    page = highlight_text(text, replace(graph, facts=(fact,)))
    assert "dollarsdollars" not in page
    assert '<sup class="unit"' in page  # raised by HTML itself, not by the report's stylesheet


def test_a_whole_number_written_with_a_zero_fraction_is_shown_whole() -> None:
    page = highlight_text("Jill found 64.0 shells and paid $2.50.", None)
    assert "64 shells" in page
    assert "64.0" not in page
    assert "$2.50" in page


# --------------------------------------------------------------------------- a typical unit_mismatch drill-down


def _mismatch_corpus() -> list[str]:
    """Five problems multiplying hours by a pay rate (the most common pattern) around two multiplying boxes by
    items: each refused as unit_mismatch (the product is declared in the holding's unit)."""
    pay = {"actor": "Ann", "kind": "multiply", "operand": {"value": 2, "unit": "dollars per hour"}}
    items = {"actor": "Ann", "kind": "multiply", "operand": {"value": 2, "unit": "items"}}
    lines = [json.dumps(problem("b0", "boxes", ops=[items]))]
    lines += [json.dumps(problem(f"h{i}", "hours", ops=[pay])) for i in range(5)]
    lines += [json.dumps(problem("b1", "boxes", ops=[items]))]
    return lines


def test_the_unit_mismatch_drilldown_is_the_median_of_the_most_common_pattern(tmp_path: Path) -> None:
    from ssbg.stats.report import choose_drilldowns, typical_drilldowns
    from ssbg.stats.tables import summarize

    corpus = write_jsonl(tmp_path / "c.jsonl", _mismatch_corpus())
    batch = run_batch([corpus], progress=False)
    typical = typical_drilldowns(batch)
    first = typical[("equation", "unit_mismatch")]
    assert (first.pattern, first.equations, first.drilldown.problem_id) == (
        "multiply: dollar_per_hour * hour -> hour", 5, "h2")
    summary = summarize(batch.problems, batch.equations)
    picked = {(k, r): items for k, r, items in choose_drilldowns(summary, batch.drilldowns, typical)}
    shown = [d.problem_id for d in picked[("equation", "unit_mismatch")]]
    assert shown[0] == "h2"
    assert len(shown) == len(set(shown))  # the typical one is not shown twice


def test_the_report_says_which_drilldown_is_typical(tmp_path: Path) -> None:
    corpus = write_jsonl(tmp_path / "c.jsonl", _mismatch_corpus())
    one = write_report([corpus], tmp_path / "one.html", progress=False, diagrams=False)
    two = write_report([corpus], tmp_path / "two.html", progress=False, diagrams=False, jobs=2)
    page = one.html_path.read_text(encoding="utf-8")
    assert "The first problem is typical" in page
    assert "multiply: dollar_per_hour * hour -&gt; hour" in page
    assert page == two.html_path.read_text(encoding="utf-8")  # the same choice whatever the job count


def test_a_reason_dominated_by_uncertain_readings_gets_a_note() -> None:
    from ssbg.stats.report import AMBIGUITY_REASON, reading_uncertainty_note
    from ssbg.stats.tables import equations_frame, refusal_reasons

    def row(pid: str, reason: str) -> tuple[Any, ...]:
        return ("c", pid, 0, "s0", "multiply", "refused", reason, True, None, "$", "$;$", None, None, None, False,
                "unverified", "", 0, 0, None)

    frame = equations_frame([row("p1", "unit_mismatch"), row("p2", AMBIGUITY_REASON), row("p3", AMBIGUITY_REASON)])
    note = reading_uncertainty_note(refusal_reasons(frame), "unit_mismatch")
    assert note is not None
    assert note.startswith(f"2 equations were refused as {AMBIGUITY_REASON}")
    assert reading_uncertainty_note(refusal_reasons(frame.iloc[:1]), "unit_mismatch") is None


def test_the_ambiguity_reason_the_note_reads_is_a_reading_outcome_not_an_admissibility_reason() -> None:
    from ssbg.errors import ADMISSIBILITY_REASONS, GROUNDING_REASONS
    from ssbg.stats.report import AMBIGUITY_REASON

    assert AMBIGUITY_REASON in GROUNDING_REASONS
    assert AMBIGUITY_REASON not in ADMISSIBILITY_REASONS  # ADR 0024


# Two traces of the bundled corpus pack: one a reading leaves open (7 berries per bird or in all: ssbg cannot
# tell), one a dimension error (24 cookies / 4 friends stated as cookies).
_BERRIES = "Each bird eats 3 berries at dawn and 4 berries at dusk. There are 5 birds. How many berries do they eat?"
_COOKIES = "She shares 24 cookies among 4 friends. How many cookies does each get?"
READING_TRACES = (
    {"problem_id": "berries", "text": _BERRIES,
     "mentions": [{"start": 15, "end": 24, "text": "3 berries", "value": 3, "unit": "berries"},
                  {"start": 37, "end": 46, "text": "4 berries", "value": 4, "unit": "berries"},
                  {"start": 66, "end": 73, "text": "5 birds", "value": 5, "unit": "birds"}],
     "steps": [{"op": "add", "operands": [{"mention": 0}, {"mention": 1}], "unit": "berries"},
               {"op": "multiply", "operands": [{"step": 0}, {"mention": 2}], "unit": "berries"}]},
    {"problem_id": "cookies", "text": _COOKIES,
     "mentions": [{"start": 11, "end": 21, "text": "24 cookies", "value": 24, "unit": "cookies"},
                  {"start": 28, "end": 37, "text": "4 friends", "value": 4, "unit": "friends"}],
     "steps": [{"op": "divide", "operands": [{"mention": 0}, {"mention": 1}], "unit": "cookies"}]},
)  # fmt: skip


@pytest.fixture(scope="module")
def reading_report(tmp_path_factory: pytest.TempPathFactory) -> ReportResult:
    d = tmp_path_factory.mktemp("reading")
    traces = [*READING_TRACES, {**READING_TRACES[0], "problem_id": "berries2"}]  # more reading refusals than errors
    corpus = write_jsonl(d / "t.jsonl", [json.dumps({**t, "corpus": "example"}) for t in traces])
    return write_report([corpus], d / "report.html", csv_dir=d / "csv", progress=False, diagrams=False,
                        pack="en_units_v1+en_counts_v1")


def test_the_refusal_table_names_each_reasons_family_and_groups_them_apart(reading_report: ReportResult) -> None:
    rows = read_csv(reading_report.csv_paths[0].parent / "refusal_reasons.csv")
    head, body = rows[0], rows[1:]
    assert head[:3] == ["corpus", "reason", "family"]
    roots = [(r[0], r[1], r[2], r[head.index("root_cause")]) for r in body]
    assert roots == [("ssbg", "unit_mismatch", "admissibility", "1"), ("ssbg", "ambiguous_grounding", "grounding", "2"),
                     ("(all corpora)", "unit_mismatch", "admissibility", "1"),
                     ("(all corpora)", "ambiguous_grounding", "grounding", "2")]


def test_a_reading_refusal_is_never_counted_or_shown_as_a_dimension_error(reading_report: ReportResult) -> None:
    overview = read_csv(reading_report.csv_paths[0].parent / "overview.csv")
    whole = dict(zip(overview[0], overview[-1], strict=True))
    # at the default ε the cookies' stated unit may be the step's "cookies per friend" (1 - 0.936 of the
    # probability, ADR 0027): could not tell, as the checker says; at an ε above that doubt it is an error
    assert (whole["refused_error"], whole["refused_could_not_tell"]) == ("0", "3")
    batch = reading_report.batch
    at = corpus_overview(batch.problems, batch.equations, min_evidence=0.1).iloc[-1]
    assert (at["refused_error"], at["refused_could_not_tell"]) == (1, 2)  # cookies; the berries
    page = reading_report.html_path.read_text(encoding="utf-8")
    assert "<h3>equation refusal of reading (could not tell): ambiguous_grounding</h3>" in page
    assert "<h3>equation refusal: unit_mismatch</h3>" in page
    assert "<b>grounding</b>, outcomes of reading" in page


def test_the_report_says_what_each_refusal_reason_means(report: ReportResult) -> None:
    page = report.html_path.read_text(encoding="utf-8")
    assert REASONS_LEDE in page
    assert page.index("ambiguous_grounding</b>: the words support two readings") < page.index('id="refusal_reasons"')


# ------------------------------------------------------------------ issue 26: the report's empty and cramped parts


@pytest.fixture(scope="module")
def data_report(tmp_path_factory: pytest.TempPathFactory) -> str:
    d = tmp_path_factory.mktemp("data_report")
    return write_report(["data"], d / "report.html", progress=False).html_path.read_text(encoding="utf-8")


def _visible(page: str) -> str:
    """The page's text a reader sees: no SVG, no tag, no attribute (tooltips and data- attributes aside)."""
    import html

    page = re.sub(r"<svg.*?</svg>", " ", page, flags=re.DOTALL).replace("<wbr>", "")
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def test_no_unknown_unit_says_so_instead_of_an_empty_table_and_plot(tmp_path: Path) -> None:
    corpus = write_jsonl(tmp_path / "c.jsonl", [json.dumps(problem(f"p{i}")) for i in range(3)])
    page = write_report([corpus], tmp_path / "r.html", progress=False).html_path.read_text(encoding="utf-8")
    units = page[page.index('<h2 id="units">') : page.index('<h2 id="kinds">')]
    assert ("No refusal is for a unit the pack lacks" in units, "None." in units, "<svg" in units) == (
        True, False, False)


def test_the_overview_is_two_tables_narrow_enough_for_a_page(data_report: str) -> None:
    tables = parse(data_report)
    widths = {t: len(rows[0]) for t, rows in tables.tables.items() if tables.csv[t] == "overview"}
    assert sorted(widths) == ["overview", "overview_equations"]
    assert max(widths.values()) <= 13


def test_the_reading_uncertainty_note_is_said_once(data_report: str) -> None:
    assert data_report.count("equations were refused as ambiguous_grounding (their refusal depends") <= 1


def test_drill_downs_name_quantities_in_words_not_symbol_ids(data_report: str) -> None:
    drills = _visible(data_report[data_report.index('<h2 id="drilldowns">') :])
    assert re.findall(r"\b(?:q_\w+_\d{3}|step_\d{3}|op_\d{3}_\w+|t\d+_\w+)\b", drills) == []
    assert "operand '$80' read as '$'" in drills


def test_no_share_in_the_report_has_more_than_two_decimals(tmp_path: Path) -> None:
    lines = [json.dumps(problem("a")), json.dumps(problem("b")), json.dumps(problem("c", "quoggs"))]  # 2 of 3
    page = write_report([write_jsonl(tmp_path / "c.jsonl", lines)], tmp_path / "r.html",
                        progress=False).html_path.read_text(encoding="utf-8")
    assert "66.67" in page
    shown = _visible(page).replace("min_evidence (ε) = 0.001", "")  # ε is a threshold, not a share
    assert re.findall(r"\d\.\d{3,}", shown) == []


def test_the_header_states_epsilon_and_keeps_errors_apart_from_could_not_tell(data_report: str) -> None:
    header = data_report.split("</header>", 1)[0]
    assert "min_evidence (ε) = 0.001" in _visible(header)
    assert "check-solutions" in _visible(header)  # the checker's weighing, named
    assert "could not tell" in _visible(header)
