"""The corpus refusal report: one self-contained HTML file plus the tables as CSV/Parquet.

:func:`write_report` runs :func:`~ssbg.stats.batch.run_batch` over corpus
specs, computes the summaries of :mod:`ssbg.stats.tables`, draws the plots of
:mod:`ssbg.stats.plots`, and writes

- ``report.html``: key figures, every summary table, the plots as inline SVG
  and a few drill-down problems per top refusal reason (highlighted text and
  equation diagram), with no external resource and no script;
- ``<csv_dir>/<table>.csv`` for the two tidy tables and every summary (and
  ``.parquet`` when pyarrow is installed).

Every table cell in the HTML is the text of the same cell in its CSV (tables
are cut to their first rows where the HTML says so), every text from a corpus
is escaped, and nothing in the output depends on the time, the job count or the
engine: two runs write byte-equal CSVs.

Examples
--------
>>> import json, tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> row = {"problem_id": "p1", "text": "Ann has 3 <b>flurbs</b>.", "entities": ["Ann"],
...        "initial_state": [{"entity": "Ann", "quantity": {"value": 3, "unit": "flurbs"}}],
...        "operations": [{"actor": "Ann", "kind": "add", "operand": {"value": 2, "unit": "flurbs"}}],
...        "unknown": {"entity": "Ann", "unit": "flurbs"}}
>>> _ = (d / "c.jsonl").write_text(json.dumps(row) + "\\n")
>>> r = write_report([d / "c.jsonl"], d / "report.html", csv_dir=d / "csv", progress=False, diagrams=False)
>>> sorted(p.name for p in r.csv_paths)[:3]
['admission_by_kind.csv', 'answer_units.csv', 'bad_lines.csv']
>>> "&lt;b&gt;flurbs&lt;/b&gt;" in r.html_path.read_text()
True
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import math
import os
import re
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ssbg.errors import GROUNDING_REASONS, REASON_GLOSSARY, OutputError, SsbgError, output_error
from ssbg.files import OutputLock, OutputSet, check_outputs, check_writable
from ssbg.model import SemanticSymbolicBindingGraph
from ssbg.outputs import html_text, write_csv
from ssbg.reading.textview import tidy_numbers
from ssbg.reading.weighing import DEFAULT_MIN_EVIDENCE
from ssbg.stats.batch import ENGINES, BatchResult, run_batch
from ssbg.stats.plots import SvgFigure, plot_admission_by_kind, plot_coverage_curve, plot_refusal_reasons
from ssbg.stats.rows import Drilldown
from ssbg.stats.tables import ALL_CORPORA, CorpusSummary, ProblemsWithCommands, iter_csv_tables, summarize

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "AMBIGUITY_REASON",
    "GLOSSARY_HTML",
    "IN_SAMPLE_KEY",
    "REASONS_LEDE",
    "TYPICAL_REASONS",
    "ReportResult",
    "TypicalDrilldown",
    "cell_text",
    "choose_drilldowns",
    "column_label",
    "highlight_text",
    "reading_uncertainty_note",
    "render_report_html",
    "typical_drilldowns",
    "write_report",
    "write_tables",
]

LEADERBOARD_ROWS = 25
BAD_LINE_ROWS = 200
OPEN_BAD_LINES = 20
PARQUET_ROWS = 200_000
COVERAGE_KS: tuple[int, ...] = (0, 1, 2, 3, 5, 10, 20, 50)
DRILLDOWN_EQUATION_REASONS = 4
DRILLDOWN_TARGET_REASONS = 2
DRILLDOWN_IMPORT_REASONS = 2
DRILLDOWNS_PER_REASON = 3


# --------------------------------------------------------------------------- cells and tables


def cell_text(value: object) -> str:
    """The text pandas writes for a value in a CSV cell (so HTML and CSV agree).

    Examples
    --------
    >>> [cell_text(v) for v in (None, float("nan"), True, 3, 12.5, "a;b")]
    ['', '', 'True', '3', '12.5', 'a;b']
    """
    if value is None:
        return ""
    if isinstance(value, float) and math.isnan(value):
        return ""
    if hasattr(value, "item") and not isinstance(value, str):  # numpy scalars
        return cell_text(value.item())
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _breakable(text: str) -> str:
    """Escape, then allow line breaks after separators (``<wbr>`` adds no text)."""
    out = html_text(text, quote=True)
    for sep in (";", "_", "/", ":"):
        out = out.replace(sep, f"{sep}<wbr>")
    return out


def column_label(name: str) -> str:
    """The header a person reads for a table column (the CSV keeps ``name``).

    Examples
    --------
    >>> [column_label(c) for c in ("bad_lines", "share_of_equations_pct", "k")]
    ['bad lines', 'share of equations %', 'k']
    """
    base, pct = (name.removesuffix("_pct"), True) if name.endswith("_pct") else (name, False)
    words = base.replace("_", " ").strip()
    return f"{words} %" if pct else words


def _table(frame: pd.DataFrame, *, table_id: str, max_rows: int | None = None, caption: str | None = None,
           csv_name: str | None = None) -> str:
    """An HTML table whose cells are exactly the CSV cells of ``frame``'s first rows; each header shows the
    column's :func:`column_label` and carries the CSV column name as ``data-column`` (and its tooltip).
    ``csv_name`` names the CSV when the table shows some columns of another one (default: ``table_id``)."""
    from pandas.api.types import is_bool_dtype, is_numeric_dtype

    shown = frame if max_rows is None else frame.head(max_rows)
    numeric = [is_numeric_dtype(frame[c]) and not is_bool_dtype(frame[c]) for c in frame.columns]
    head = "".join(
        f'<th{" class=num" if num else ""} scope="col" data-column="{html_text(str(c), quote=True)}" '
        f'title="{html_text(str(c), quote=True)}">{html_text(column_label(str(c)))}</th>'
        for c, num in zip(frame.columns, numeric, strict=True)
    )
    body: list[str] = []
    for row in shown.itertuples(index=False, name=None):
        cells = "".join(
            f'<td{" class=num" if num else ""}>{_breakable(cell_text(v))}</td>'
            for v, num in zip(row, numeric, strict=True)
        )
        body.append(f"<tr>{cells}</tr>")
    note = ""
    if max_rows is not None and len(frame) > max_rows:
        note = (f'<p class="note">First {max_rows} of {len(frame)} rows; all of them are in '
                f"<code>{table_id}.csv</code>.</p>")
    cap = f"<caption>{html_text(caption)}</caption>" if caption else ""
    if not len(shown):
        return f'<p class="empty" id="{table_id}">None.</p>'
    return (f'<div class="table-wrap"><table id="{table_id}" data-csv="{csv_name or table_id}.csv">{cap}'
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>{note}")


# --------------------------------------------------------------------------- drill-downs


_UNIT_LABEL_STYLE = "font-size:0.7em;color:#7a5d00;margin-left:0.2em"


def highlight_text(text: str, graph: SemanticSymbolicBindingGraph | None) -> str:
    """The problem text, escaped, with the quantities the graph binds marked.

    A fact's span is marked only when it really points into ``text`` (its
    offsets cover the same characters).  Drill-downs of traces use
    ``ssbg.reading.textview.render_text`` instead.

    Examples
    --------
    >>> highlight_text("Bo has <3> cats", None)
    '<p class="problem-text">Bo has &lt;3&gt; cats</p>'
    """
    spans: list[tuple[int, int, str]] = []
    if graph is not None:
        units = {s.symbol_id: s.unit for s in graph.symbols}
        for fact in graph.facts:
            sp = fact.source_span
            if 0 <= sp.start < sp.end <= len(text) and text[sp.start : sp.end] == sp.text:
                spans.append((sp.start, sp.end, units.get(fact.symbol_id) or "no unit"))
    spans.sort()
    out: list[str] = []
    pos = 0
    for start, end, unit in spans:
        if start < pos:
            continue  # overlapping spans: keep the first
        out.append(html_text(tidy_numbers(text[pos:start])))
        # the unit label is a superscript of its own (HTML, not CSS), so it never runs into the text
        # where the page's stylesheet is missing (a notebook's output): "50 dollars" then "dollars" raised
        out.append(f'<mark title="{html_text(unit, quote=True)}">{html_text(tidy_numbers(text[start:end]))}'
                   f'<sup class="unit" style="{_UNIT_LABEL_STYLE}"> {html_text(unit)}</sup></mark>')
        pos = end
    out.append(html_text(tidy_numbers(text[pos:])))
    return f'<p class="problem-text">{"".join(out)}</p>'


def _textview(d: Drilldown) -> str:
    """The highlighted text: ``ssbg.reading.textview`` for a trace, else :func:`highlight_text`."""
    from ssbg.errors import SsbgError

    text = d.text or ""
    try:
        trace_mod = importlib.import_module("ssbg.trace")
        textview = importlib.import_module("ssbg.reading.textview")
    except ImportError:  # pragma: no cover - both ship with ssbg
        return highlight_text(text, d.graph)
    if isinstance(d.payload, trace_mod.Trace):
        try:
            markup: str = textview.render_text(d.payload, graph=d.graph).html
        except SsbgError:
            return highlight_text(text, d.graph)
        return f'<div class="problem-view">{markup}</div>'
    return highlight_text(text, d.graph)


def _diagram(graph: SemanticSymbolicBindingGraph) -> str:
    """The equation diagram as inline SVG ('' when the views or Graphviz are missing)."""
    from ssbg.errors import SsbgError

    try:
        views = importlib.import_module("ssbg.views")
        svg: str = views.render(graph, view="equations", legend=False, rankdir="LR").svg
    except (ImportError, SsbgError, OSError):
        return ""
    start = svg.find("<svg")
    return f'<div class="diagram">{svg[start:] if start >= 0 else svg}</div>'


def symbol_words(graph: SemanticSymbolicBindingGraph | None) -> dict[str, str]:
    """What each symbol of a graph stands for, in the words a reader knows: the text it quotes (``'$80'``), or its
    readable name (``result of step 0 ($)``, ``Kim's hours (initially)``)."""
    if graph is None:
        return {}
    return {s.symbol_id: (f"'{s.name}'" if s.name == s.source_span.text else s.name) for s in graph.symbols}


def in_words(text: str | None, words: Mapping[str, str]) -> str:
    """``text`` with every symbol id it names replaced by the words of :func:`symbol_words`.

    >>> in_words("operand q_dollar_per_jacket_000 read as '$' admits it", {"q_dollar_per_jacket_000": "'$80'"})
    "operand '$80' read as '$' admits it"
    """
    if not text or not words:
        return text or ""
    pattern = re.compile(r"(?<![\w])(?:" + "|".join(map(re.escape, sorted(words, key=len, reverse=True)))
                         + r")(?![\w])")
    return pattern.sub(lambda m: words[m.group()], text)


def _equation_list(graph: SemanticSymbolicBindingGraph) -> str:
    """The graph's equations and question targets in words (each symbol id in the cell's tooltip)."""
    words = symbol_words(graph)
    rows = []
    for eq in graph.equations:
        status = eq.admissibility_status
        why = ""
        if eq.refusal_reason:
            origin = f" from {eq.propagated_from}" if eq.propagated_from else ""
            why = f"{eq.refusal_reason}{origin}: {_detail(eq.refusal_reason, eq.refusal_detail)}"
        ids = f"{eq.lhs_symbol_id} := {eq.rhs_canonical}"
        rows.append(
            f'<tr class="{html_text(status)}"><td title="{html_text(ids)}">'
            f"{_breakable(in_words(eq.lhs_symbol_id, words))} = {_breakable(in_words(eq.rhs_canonical, words))}"
            f"</td><td>{html_text(eq.operation_kind)}</td>"
            f"<td>{html_text(status)}</td><td>{_breakable(in_words(why, words) if why else eq.unit_proof)}</td></tr>"
        )
    for u in graph.unknowns:
        why = u.target_refusal_reason or ""
        detail = in_words(u.target_refusal_detail, words)
        rows.append(
            f'<tr class="{"refused" if u.target_status == "refused" else "admitted"}">'
            f'<td title="{html_text(u.symbol_id)}">the question '
            f'(asks {_breakable(u.expected_unit or "?")})</td>'
            f"<td>{html_text(u.question_form)}</td><td>{html_text(u.target_status)}</td>"
            f"<td>{_breakable(why + (': ' + detail if why else ''))}</td></tr>"
        )
    return ('<table class="equations"><thead><tr><th>equation</th><th>kind</th><th>status</th>'
            f"<th>proof or refusal</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")


# Equation refusal reasons whose first drill-down is a typical one (:func:`typical_drilldowns`).
TYPICAL_REASONS: tuple[str, ...] = ("unit_mismatch",)

# The reason an equation is refused with when its refusal depends on a tied grounding or a
# low-confidence unit reading (issue 16): :func:`reading_uncertainty_note` reads its counts.
AMBIGUITY_REASON = "ambiguous_grounding"


@dataclass(frozen=True)
class TypicalDrilldown:
    """A typical refusal of a reason: the median refusal of its most frequent pattern (see
    :func:`~ssbg.stats.tables.refusal_patterns`), read again and bound."""

    drilldown: Drilldown
    pattern: str
    equations: int
    problems: int


def typical_drilldowns(
    batch: BatchResult, *, pack: str | Path | None = None
) -> dict[tuple[str, str], TypicalDrilldown]:
    """For each reason of :data:`TYPICAL_REASONS` the run refused equations with: its typical drill-down,
    by ``(kind, reason)``.  The problem is read again from its corpus file (a run keeps few graphs), with
    ``pack`` (default: the run's); a reason whose problem cannot be read again has none (the others are
    still shown)."""
    from ssbg.stats.batch import bind_payload, read_record_at
    from ssbg.stats.tables import refusal_patterns
    from ssbg.units import corpus_pack, load_pack

    loaded = load_pack(pack) if pack is not None else batch.unit_pack or corpus_pack()
    out: dict[tuple[str, str], TypicalDrilldown] = {}
    for reason in TYPICAL_REASONS:
        patterns = refusal_patterns(batch.equations, reason, pack=loaded)
        if not len(patterns):
            continue
        top = patterns.iloc[0]
        corpus, problem_id, index = str(top["corpus"]), str(top["problem_id"]), int(top["index"])
        problems = batch.problems
        hit = problems[(problems["corpus"] == corpus) & (problems["problem_id"] == problem_id)]
        record = read_record_at(corpus, str(hit["source"].iloc[0]), pack=loaded) if len(hit) else None
        if record is None or record.payload is None:
            continue
        try:
            graph = bind_payload(record.payload, pack=loaded)
        except SsbgError:
            continue
        if index >= len(graph.equations) or graph.equations[index].refusal_reason != reason:
            continue  # the file changed since the run
        text = record.text if record.text is not None else getattr(record.payload, "text", None)
        drill = Drilldown(corpus, problem_id, record.source, "equation", reason,
                          text if isinstance(text, str) else None, graph.equations[index].refusal_detail, graph,
                          record.payload)
        out[("equation", reason)] = TypicalDrilldown(drill, str(top["pattern"]), int(top["equations"]),
                                                     int(top["problems"]))
    return out


REASONS_LEDE = (
    '<p class="lede"><b>unit_mismatch</b>: the units the words give do not fit the arithmetic, an error of the '
    "problem, of the solution, or of ssbg's reading. <b>ambiguous_grounding</b>: the words support two readings "
    "of an operand (two quantities of the same value that nothing tells apart, a total that may as well be one "
    "thing's price, a factor that may be per thing of the other) and only one of them fits: ssbg could not tell "
    "which the text means, and says so instead of counting a mismatch (ADR 0018). <b>unknown_unit</b>: a unit "
    "outside the pack, a gap in coverage. <b>unit_unbound</b> at the root: a number whose unit the words leave "
    "to the reader (\"36 on Wednesday\" after \"40 degrees on Sunday\"), which ssbg could not tell either. A "
    "<b>propagated</b> refusal only inherits an upstream one. The <b>family</b> column keeps two closed sets "
    "apart (ADR 0024): <b>admissibility</b>, the seven reasons of the unit-admissibility rules (ADR-0134 of the spec, "
    "<code>docs/spec/ADR-0134-binding-graph-admissibility.md</code> in ssbg's source), and "
    "<b>grounding</b>, outcomes of reading (ambiguous_grounding), which are never a dimension error.</p>"
)
"""What the refusal-reason table's reasons mean, printed above it."""


GLOSSARY_HTML = (
    '<h2 id="glossary">Glossary</h2><p class="lede">Every reason a refusal may give, in one sentence '
    "(<code>ssbg.errors.REASON_GLOSSARY</code>; <code>ssbg --help</code> prints the same). An equation's reasons are "
    "those of the unit-admissibility rules (ADR-0134 of the spec, <code>docs/spec/ADR-0134-binding-graph-"
    "admissibility.md</code> in ssbg's source) and one of reading, <code>ambiguous_grounding</code>; a question "
    "target and a record have their own.</p><dl class=\"glossary\">"
    + "".join(f"<dt><code>{html_text(reason)}</code></dt><dd>{html_text(said)}</dd>"
              for reason, said in REASON_GLOSSARY.items())
    + "</dl>"
)
"""The report's glossary: :data:`~ssbg.errors.REASON_GLOSSARY` as a definition list."""


KINDS_LEDE = (
    '<p class="lede">The kind check (ADR 0017) reads what each count counts, after admissibility: '
    "<b>count_kind_mismatch</b> is a rate per one thing applied to a count of another that is not a listed kind of "
    "it (dollars per cookie &times; boxes), or a question asking how many of one thing answered by a count of "
    "another; <b>mixed_kinds</b> notes a sum or difference of different kinds (boys + girls). Neither is a "
    "refusal: those equations are admitted by the six-dimension algebra, and are counted here, apart. The "
    "proofs in the tables keep what is counted (<code>count[cookie]</code>).</p>"
)
"""What the kind check's table means, printed above it."""


def reading_uncertainty_note(refusal_reasons: pd.DataFrame, reason: str) -> str | None:
    """A note for a refusal reason dominated by reading uncertainty, or None.

    It reads the all-corpora row of :data:`AMBIGUITY_REASON` in the refusal-reason
    table (the equations whose refusal depends on a tied grounding or a
    low-confidence unit reading, issue 16) and writes a note when they are at
    least as many root causes as ``reason``'s own: the reason's figures are then
    more about how the text was read than about the units.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"corpus": ["(all corpora)"] * 2, "reason": ["unit_mismatch", "ambiguous_grounding"],
    ...                       "root_cause": [40, 55]})
    >>> reading_uncertainty_note(table, "unit_mismatch").startswith("55 equations were refused as ambiguous_grounding")
    True
    >>> reading_uncertainty_note(table.iloc[:1], "unit_mismatch") is None
    True
    """
    if refusal_reasons.empty or reason == AMBIGUITY_REASON:
        return None
    whole = refusal_reasons[refusal_reasons["corpus"] == ALL_CORPORA]
    counts = dict(zip(whole["reason"].astype(str), whole["root_cause"].astype(int), strict=True))
    uncertain, own = counts.get(AMBIGUITY_REASON, 0), counts.get(reason, 0)
    if not uncertain or uncertain < own:
        return None
    return (f"{uncertain:,} equations were refused as {AMBIGUITY_REASON} (their refusal depends on a tied grounding "
            f"or a low-confidence unit reading), against {own:,} as {reason}: these figures say more about how the "
            "text was read than about its units.")


def choose_drilldowns(
    summary: CorpusSummary,
    drilldowns: Sequence[Drilldown],
    typical: Mapping[tuple[str, str], TypicalDrilldown] | None = None,
) -> list[tuple[str, str, list[Drilldown]]]:
    """Pick the drill-downs to show: (kind, reason, problems) for the top reasons.

    Reasons are ranked over all corpora (root-cause equation refusals, then
    question targets, then import refusals); the problems of a reason alternate
    between corpora, in reading order within each, after the reason's typical
    drill-down when ``typical`` (:func:`typical_drilldowns`) has one.
    """
    def top(frame: pd.DataFrame, count_col: str, n: int) -> list[str]:
        if frame.empty:
            return []
        whole = frame[frame["corpus"] == ALL_CORPORA]
        whole = whole[whole[count_col] > 0].sort_values([count_col, "reason"], ascending=[False, True],
                                                         kind="stable")
        return [str(r) for r in whole["reason"].head(n)]

    picked: list[tuple[str, str, list[Drilldown]]] = []
    plan = (
        ("equation", top(summary.refusal_reasons, "root_cause", DRILLDOWN_EQUATION_REASONS)),
        ("target", top(summary.target_refusals, "problems", DRILLDOWN_TARGET_REASONS)),
        ("import", top(summary.import_refusals, "records", DRILLDOWN_IMPORT_REASONS)),
    )
    for kind, reasons in plan:
        for reason in reasons:
            by_corpus: dict[str, list[Drilldown]] = {}
            for d in drilldowns:
                if d.kind == kind and d.reason == reason:
                    by_corpus.setdefault(d.corpus, []).append(d)
            first = typical.get((kind, reason)) if typical else None
            chosen: list[Drilldown] = [first.drilldown] if first is not None else []
            shown = {(d.corpus, d.problem_id) for d in chosen}
            queues = [[d for d in by_corpus[c] if (d.corpus, d.problem_id) not in shown] for c in sorted(by_corpus)]
            while len(chosen) < DRILLDOWNS_PER_REASON and any(queues):
                for q in queues:
                    if q and len(chosen) < DRILLDOWNS_PER_REASON:
                        chosen.append(q.pop(0))
            if chosen:
                picked.append((kind, reason, chosen))
    return picked


def _detail(reason: str, detail: str | None) -> str:
    text = detail or ""
    return text[len(reason) + 2:] if text.startswith(f"{reason}: ") else text


class _Diagrams:
    """The equation diagrams of drill-downs, drawn concurrently from the moment it is made: each is a
    ``dot`` process, so threads overlap them (a few dozen per report) with each other and with what
    the caller does meanwhile (writing the tables); :meth:`result` gives the SVGs in order."""

    def __init__(self, items: Sequence[Drilldown]) -> None:
        from concurrent.futures import ThreadPoolExecutor

        graphs = [d.graph for d in items if d.graph is not None]
        self._pool = ThreadPoolExecutor(max_workers=min(max(len(graphs), 1), max(2, os.cpu_count() or 1)))
        self._drawn = [self._pool.submit(_diagram, g) for g in graphs]

    @classmethod
    def of(cls, chosen: Sequence[tuple[str, str, list[Drilldown]]]) -> _Diagrams:
        """The diagrams of :func:`choose_drilldowns`' picks, in page order."""
        return cls([d for _kind, _reason, items in chosen for d in items])

    def result(self) -> list[str]:
        """The SVGs, in the order of the drill-downs that have a graph (waits for them)."""
        try:
            return [f.result() for f in self._drawn]
        finally:
            self.close()

    def close(self) -> None:
        """Let the drawings finish and release the threads (the result is not wanted, or was taken)."""
        self._pool.shutdown()


HAND_WRITTEN = "ssbg"
"""The corpus name of records read as hand-written graphs (``data/lanes``, ``data/problem.json``): no corpus."""


def corpus_label(corpus: str) -> str:
    """How the page names a corpus: ``ssbg`` records are the hand-written examples, not a corpus of text.

    >>> corpus_label("ssbg"), corpus_label("gsm8k")
    ('hand-written example (ssbg)', 'gsm8k')
    """
    return "hand-written example (ssbg)" if corpus == HAND_WRITTEN else corpus


def _drilldown_html(d: Drilldown, *, diagram: str = "", command: str | None = None) -> str:
    """One drill-down card; ``diagram`` is its equation diagram's HTML (``""``: none); ``command`` the shell
    command that draws the problem (None: a record of no file)."""
    parts = [
        f'<article class="drill"><h4><span class="corpus">{html_text(corpus_label(d.corpus))}</span> '
        f"{_breakable(d.problem_id)} <small>{_breakable(d.source)}</small></h4>",
        f'<p class="why"><b>{html_text(d.reason)}</b>: '
        f"{_breakable(in_words(_detail(d.reason, d.detail), symbol_words(d.graph)))}</p>",
    ]
    if d.text:
        parts.append(_textview(d))
    else:
        parts.append('<p class="note">The record has no problem text.</p>')
    if d.graph is not None:
        parts.append(_equation_list(d.graph))
        parts.append(diagram)
    if command is not None:
        parts.append(f'<p class="draw">Draw it: <code>{_breakable(command)}</code></p>')
    parts.append("</article>")
    return "".join(parts)


# --------------------------------------------------------------------------- the page

_CSS = """
:root{--ink:#1d2430;--muted:#5b6575;--line:#e3e7ee;--bg:#f7f8fa;--accent:#0b63b6;--bad:#b3261e;--good:#1b7f3b}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,
"DejaVu Sans",sans-serif}
main{max-width:1320px;margin:0 auto;padding:24px 28px 64px}
header.top{background:#17202e;color:#fff;padding:22px 28px}
header.top div{max-width:1264px;margin:0 auto}
header.top h1{margin:0 0 4px;font-size:24px;font-weight:650;letter-spacing:.2px}
header.top details{color:#c6cfdc;font-size:13px;overflow-wrap:anywhere}
header.top summary{cursor:pointer}header.top ul{margin:4px 0 0;padding-left:20px}
header.top p.insample{color:#c6cfdc;font-size:13px;margin:4px 0 0}
h2{font-size:18px;margin:34px 0 10px;padding-bottom:6px;border-bottom:2px solid var(--line)}
h3{font-size:15px;margin:22px 0 8px}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(128px,1fr));gap:12px;margin:4px 0 8px}
.card{background:#fff;border:1px solid var(--line);border-radius:8px;padding:12px 14px}
.card b{display:block;font-size:22px;font-variant-numeric:tabular-nums}
.card span{color:var(--muted);font-size:12px}
.card.bad b{color:var(--bad)}.card.good b{color:var(--good)}
.table-wrap{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%;background:#fff;font-size:12.5px;margin:6px 0}
th,td{border-bottom:1px solid var(--line);padding:4px 7px;text-align:left;vertical-align:top;
overflow-wrap:break-word}
th{background:#eef1f6;font-weight:600;font-size:12px}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
th.num{text-align:right;white-space:normal;min-width:3em;hyphens:auto}
#overview th,#overview td{padding:4px 5px}
tbody tr:nth-child(even){background:#fafbfc}
.figure{background:#fff;border:1px solid var(--line);border-radius:8px;padding:10px;margin:10px 0}
.figure svg{max-width:100%;height:auto;display:block;margin:0 auto}
.diagram{background:#fff;border:1px solid var(--line);border-radius:6px;padding:6px;margin-top:8px;overflow:hidden}
.diagram svg{max-width:100%;height:auto;display:block;margin:0 auto}
.note,.empty{color:var(--muted);font-size:12.5px;margin:4px 0}
.lede{color:var(--muted);margin:4px 0 10px;max-width:900px}
.drill{background:#fff;border:1px solid var(--line);border-left:4px solid var(--bad);border-radius:6px;
padding:10px 14px;margin:10px 0}
.drill h4{margin:0 0 4px;font-size:14px}.drill p.draw{margin:6px 0 0;overflow-wrap:anywhere}
.drill h4 small{color:var(--muted);font-weight:400}
.drill .corpus{background:#e8eef8;color:#0b3d75;border-radius:4px;padding:1px 6px;font-size:12px}
.why{margin:2px 0 6px;overflow-wrap:anywhere}
.problem-view{background:#fbfbf7;border:1px solid #ecebdc;border-radius:4px;padding:4px 10px;margin:6px 0;
overflow-wrap:anywhere}.problem-view .ssbg-text{max-width:none!important}
.problem-text{background:#fbfbf7;border:1px solid #ecebdc;border-radius:4px;padding:8px 10px;white-space:pre-wrap;
overflow-wrap:anywhere}
mark{background:#fff1b8;border-radius:3px;padding:0 2px}
table.equations td{font-size:12px}table.equations tr.refused td:nth-child(3){color:var(--bad);font-weight:600}
table.equations tr.admitted td:nth-child(3){color:var(--good)}
code{font-family:"DejaVu Sans Mono",monospace;font-size:12px}
details.bad summary{cursor:pointer;font-weight:600;margin:14px 0 6px}
nav.toc{font-size:13px;margin:14px 0 0}nav.toc a{color:var(--accent);margin-right:14px;text-decoration:none}
footer{color:var(--muted);font-size:12px;margin-top:40px}
dl.glossary{display:grid;grid-template-columns:minmax(10em,max-content) 1fr;gap:4px 14px;margin:6px 0;font-size:13px}
dl.glossary dt{margin:0}dl.glossary dd{margin:0}
"""


def _cards(overview: pd.DataFrame) -> str:
    whole = overview[overview["corpus"] == ALL_CORPORA]
    row = whole.iloc[0] if len(whole) else (overview.iloc[0] if len(overview) else None)
    corpora = len(overview[overview["corpus"] != ALL_CORPORA])
    if row is None:
        return '<p class="empty">No records.</p>'
    items = [
        ("", f"{corpora}", "corpora"),
        ("", f"{int(row['records']):,}", "records read"),
        ("bad" if row["bad_lines"] else "", f"{int(row['bad_lines']):,}", "unreadable records"),
        ("", f"{int(row['equations']):,}", "equations bound"),
        ("good", cell_text(row["admission_pct"]) + "%", "equations admitted"),
        ("bad", f"{int(row['root_cause']):,}", "root-cause refusals"),
        ("", f"{int(row['propagated']):,}", "propagated refusals"),
        ("good", cell_text(row["problems_admitted_pct"]) + "%", "problems fully admitted"),
        ("bad", cell_text(row["problems_error_pct"]) + "%", "problems with a dimension error found"),
        ("", cell_text(row["problems_could_not_tell_pct"]) + "%", "problems ssbg could not tell"),
    ]
    return '<div class="cards">' + "".join(
        f'<div class="card {cls}"><b>{html_text(value)}</b><span>{html_text(label)}</span></div>'
        for cls, value, label in items
    ) + "</div>"


def _figure(fig: SvgFigure) -> str:
    svg = fig.svg
    start = svg.find("<svg")
    return f'<div class="figure" role="img" aria-label="{html_text(fig.title)}">{svg[start:]}</div>'


def _figures(s: CorpusSummary) -> tuple[str, str, str]:
    """The report's figures as HTML: refusal reasons, the coverage curve, admission by kind."""
    return (
        _figure(plot_refusal_reasons(s.refusal_reasons)),
        _figure(plot_coverage_curve(s.coverage_curve)),
        _figure(plot_admission_by_kind(s.admission_by_kind)),
    )


def _figures_to(s: CorpusSummary, conn: Any) -> None:
    """The child's side of :class:`_FiguresAside`: the figures, or None when drawing them failed."""
    try:
        figures: tuple[str, str, str] | None = _figures(s)
    except Exception:  # noqa: BLE001 - the parent draws them again and raises what fails there
        figures = None
    conn.send(figures)
    conn.close()


class _FiguresAside:
    """The report's figures drawn in a forked child process while this one writes the tables.

    Matplotlib's drawing is pure Python (about 0.7 s for the three figures of a
    corpus report) and the table writing too, so a thread would not overlap
    them; a fork does, with the summary inherited rather than sent.  It is made
    before any thread of the report starts (the diagrams' ``dot`` threads come
    after), and only where ``fork`` exists and the caller allowed several
    processes.  A child that fails or dies leaves the drawing to this process:
    the figures are the same SVG either way (fixed id salt, no date).
    """

    def __init__(self, summary: CorpusSummary, *, enabled: bool) -> None:
        import multiprocessing

        self._summary = summary
        self._process: Any = None
        if not enabled or "fork" not in multiprocessing.get_all_start_methods():
            return
        context = multiprocessing.get_context("fork")
        self._conn, child_end = context.Pipe(duplex=False)
        self._process = context.Process(target=_figures_to, args=(summary, child_end), daemon=True,
                                        name="ssbg-report-figures")
        self._process.start()
        child_end.close()

    def result(self) -> tuple[str, str, str]:
        figures: tuple[str, str, str] | None = None
        if self._process is not None:
            try:
                figures = self._conn.recv()
            except (EOFError, OSError):
                figures = None
            finally:
                self._conn.close()
                self._process.join()
                self._process = None
        return figures if figures is not None else _figures(self._summary)

    def close(self) -> None:
        """Stop a child whose figures are not wanted (the report failed before taking them)."""
        if self._process is not None:
            self._process.terminate()
            self._process.join()
            self._conn.close()
            self._process = None


def _evidence_line(min_evidence: float) -> str:
    """The report header's line on ε (ADR 0027, ADR 0034): the checker's weighing of the plausible readings."""
    return (
        f'<p class="note evidence">min_evidence (ε) = {min_evidence:g}: a problem counts as “a dimension error '
        "found” only when the readings the reader finds plausible and that would admit its refused equation (or "
        "give its answer the unit asked) hold less than ε of the probability — the weighing of <code>ssbg "
        "check-solutions</code>, so both count the same thing; the other refused problems are “could not tell” "
        "(<code>--min-evidence</code> sets ε; ADR 0034). The checker\u2019s <code>error</code> also counts "
        "what this page does not: numbers no text states, arithmetic slips and forgotten conversions.</p>"
    )


def render_report_html(
    batch: BatchResult,
    summary: CorpusSummary | None = None,
    *,
    title: str = "ssbg corpus refusal report",
    diagrams: bool = True,
) -> str:
    """The report page as one HTML string (no script, no external resource); ε is the batch's
    (:attr:`~ssbg.stats.batch.BatchResult.min_evidence`).

    Examples
    --------
    >>> from ssbg.stats.batch import run_batch
    >>> page = render_report_html(run_batch([], progress=False))
    >>> page.startswith("<!DOCTYPE html>") and "<script" not in page
    True
    """
    s = summary if summary is not None else summarize(batch.problems, batch.equations, pack=batch.unit_pack,
                                                      kinds=batch.kinds, min_evidence=batch.min_evidence)
    typical = typical_drilldowns(batch)
    chosen = choose_drilldowns(s, batch.drilldowns, typical)
    drawn = _Diagrams.of(chosen) if diagrams else None
    return _page(batch, s, chosen, drawn, title, typical=typical)


def _reason_notes(
    kind: str, reason: str, s: CorpusSummary, typical: Mapping[tuple[str, str], TypicalDrilldown],
    *, uncertainty: bool = True,
) -> str:
    """The notes under a drill-down reason's heading: which problem is typical, and reading uncertainty (once a
    page: under the first reason it applies to, ``uncertainty`` False under the others)."""
    notes: list[str] = []
    first = typical.get((kind, reason))
    if first is not None:
        notes.append(f"The first problem is typical: the median refusal of the most frequent pattern, "
                     f"<code>{html_text(first.pattern)}</code> ({first.equations:,} refusals in "
                     f"{first.problems:,} problems).")
    if kind == "equation" and uncertainty:
        uncertain = reading_uncertainty_note(s.refusal_reasons, reason)
        if uncertain is not None:
            notes.append(html_text(uncertain))
    return "".join(f'<p class="note">{note}</p>' for note in notes)


_OVERVIEW_EQUATIONS = ("equations", "admitted_equations", "refused_equations", "root_cause", "propagated",
                       "admission_pct", "kind_mismatches", "mixed_kinds")
"""The overview's columns about equations, shown in a table of their own (one table is wider than a page)."""


def _hand_written_note(overview: pd.DataFrame) -> list[str]:
    """A sentence saying that the rows of corpus ``ssbg`` are the hand-written examples, where there are any."""
    if HAND_WRITTEN not in set(overview["corpus"].astype(str)) if len(overview) else True:
        return []
    return ['<p class="note"><b>ssbg</b> is no corpus of text: its rows are hand-written examples, problems '
            "written as graphs (the expected-shape lanes of <code>data/lanes</code>, <code>data/problem.json</code>)"
            ", read as they are written; the drill-downs mark them <i>hand-written example</i>.</p>"]


def _overview(overview: pd.DataFrame) -> list[str]:
    """``overview.csv`` as two tables that fit a page: its problems' columns, then its equations'."""
    equations = [c for c in _OVERVIEW_EQUATIONS if c in overview.columns]
    problems = [c for c in overview.columns if c not in equations]
    return ["<h3>Problems</h3>", _table(overview[problems], table_id="overview"),
            "<h3>Equations</h3>", _table(overview[["corpus", *equations]], table_id="overview_equations",
                                         csv_name="overview")]


def _unknown_units(s: CorpusSummary, figure: str, coverage: pd.DataFrame) -> list[str]:
    """The unknown-unit leaderboard and its coverage curve; a sentence instead when no refusal is for a unit
    the pack lacks (no empty table, no empty plot)."""
    if not len(s.unknown_units):
        return ['<p class="empty" id="unknown_units">No refusal is for a unit the pack lacks: every unit these '
                "corpora write that ssbg read is in the pack, so there is no leaderboard and no coverage curve "
                "(<code>unknown_units.csv</code> and <code>coverage_curve.csv</code> have no rows).</p>"]
    misread = s.unknown_units["misread_word"].astype(bool)
    units = s.unknown_units[~misread].drop(columns=["misread_word"])
    words = s.unknown_units[misread].drop(columns=["misread_word"])
    return [
        "<h3>Units the pack lacks</h3>",
        _table(units, table_id="unknown_units", max_rows=LEADERBOARD_ROWS) if len(units) else
        '<p class="empty">none</p>',
        "<h3>Words read as units that are not units</h3>",
        '<p class="note">A multiplier (<i>3 times as many</i>), a pronoun, a time of day, a day or a month read as '
        "the unit of the number before it: the reading is what to mend, not the pack "
        "(<code>ssbg.stats.tables.MISREAD_WORDS</code>; <code>misread_word</code> in <code>unknown_units.csv</code>"
        "; the ranks are the leaderboard's).</p>",
        _table(words, table_id="misread_words", max_rows=LEADERBOARD_ROWS, csv_name="unknown_units") if len(words)
        else '<p class="empty">none</p>',
        figure,
        f'<p class="note">Rows of <code>coverage_curve.csv</code> at k in {list(COVERAGE_KS)}.</p>',
        _table(coverage, table_id="coverage_curve"),
    ]


def problems_with_commands(batch: BatchResult) -> ProblemsWithCommands:
    """The run's problems with the command that draws each (``--pack`` the run's pack's name where ``render``
    would use another)."""
    return ProblemsWithCommands(batch.problems, batch.unit_pack.name if batch.unit_pack is not None else None)


IN_SAMPLE_KEY = "ssbg.reading_model"
"""The Parquet schema metadata key of the line saying how many problems the reading model was trained on."""


def _metadata(batch: BatchResult) -> dict[str, str]:
    """What each Parquet file of a report carries in its schema: the pack's provenance and the in-sample line."""
    meta = {"ssbg.pack": batch.pack_provenance, "ssbg.min_evidence": repr(batch.min_evidence)}
    if batch.in_sample is not None:
        meta[IN_SAMPLE_KEY] = batch.in_sample.sentence
    return meta


def _in_sample_line(batch: BatchResult) -> str:
    """The header's line of how many of the problems the reading model was trained on (ssbg.stats.insample)."""
    if batch.in_sample is None:
        return ""
    said = batch.in_sample.sentence
    return f'<p class="insample">{html_text(said[0].upper() + said[1:])}.</p>'


def _page(
    batch: BatchResult,
    s: CorpusSummary,
    chosen: Sequence[tuple[str, str, list[Drilldown]]],
    diagrams: _Diagrams | None,
    title: str,
    figures: tuple[str, str, str] | None = None,
    typical: Mapping[tuple[str, str], TypicalDrilldown] | None = None,
) -> str:
    """The report page of :func:`render_report_html`, its drill-downs chosen and their diagrams on the way
    (``figures``: :func:`_figures` of ``s``, when already drawn)."""
    commands = problems_with_commands(batch)
    reasons_figure, coverage_figure, kinds_figure = _figures(s) if figures is None else figures
    coverage = s.coverage_curve[s.coverage_curve["k"].isin(COVERAGE_KS)].reset_index(drop=True)
    files = "".join(f"<li>{_breakable(spec)}</li>" for spec in batch.specs)
    body: list[str] = [
        f'<header class="top"><div><h1>{html_text(title)}</h1>'
        f'<details class="files"><summary>Unit pack <span class="pack">{html_text(batch.pack_provenance)}</span>'
        f' · {len(batch.specs)} corpus file{"" if len(batch.specs) == 1 else "s"}</summary><ul>{files}</ul>'
        '<p class="note">Every table of this report was computed with this pack: <code>pack.csv</code>, beside '
        "the tables, lists each of its parts with its full sha256.</p></details>"
        f"{_in_sample_line(batch)}"
        f"{_evidence_line(batch.min_evidence)}"
        '<nav class="toc"><a href="#corpora">Corpora</a><a href="#reasons">Refusal reasons</a>'
        '<a href="#kinds-counted">What is counted</a>'
        '<a href="#units">Unknown units</a><a href="#kinds">Operation kinds</a><a href="#targets">Question targets'
        '</a><a href="#imports">Import refusals</a><a href="#drilldowns">Drill-downs</a>'
        '<a href="#glossary">Glossary</a>'
        "</nav></div></header><main>",
        _cards(s.overview),
        '<h2 id="corpora">Corpora</h2>',
        '<p class="lede">Each record is read, bound into a binding graph, and every equation is proved or refused '
        "by dimensional analysis over the unit pack. A <b>root-cause</b> refusal is an equation refused on its own; "
        "a <b>propagated</b> one is refused only because an equation it depends on was.</p>",
        *_hand_written_note(s.overview),
        *_overview(s.overview),
        '<h2 id="reasons">Refusal reasons</h2>',
        REASONS_LEDE,
        reasons_figure,
        _table(s.refusal_reasons, table_id="refusal_reasons"),
        '<h2 id="kinds-counted">What is counted</h2>',
        KINDS_LEDE,
        _table(s.kind_findings, table_id="kind_findings"),
        '<h2 id="units">Unknown units</h2>',
        '<p class="lede">Units the pack does not know, ranked by the root-cause refusals they cause. The coverage '
        "curve counts the refusals that would disappear if the top-k units were added: a refusal disappears only "
        "when every unknown unit it needs (its own and its upstream refusals') is among them, and refusals for "
        "other reasons never do.</p>",
        *_unknown_units(s, coverage_figure, coverage),
        '<h2 id="kinds">Operation kinds</h2>',
        kinds_figure,
        _table(s.admission_by_kind, table_id="admission_by_kind"),
        '<h2 id="targets">Question targets and answer units</h2>',
        _table(s.target_refusals, table_id="target_refusals"),
        "<h3>Predicted vs gold answer unit</h3>",
        _table(s.answer_units, table_id="answer_units"),
        '<h2 id="imports">Import refusals</h2>',
        _table(s.import_refusals, table_id="import_refusals"),
        f'<details class="bad"{" open" if len(s.bad_lines) <= OPEN_BAD_LINES else ""}><summary>'
        f"Unreadable records: {len(s.bad_lines)} (lines that are not JSON, not UTF-8, too large, or not a "
        "valid record)</summary>",
        _table(s.bad_lines, table_id="bad_lines", max_rows=BAD_LINE_ROWS),
        "</details>",
        '<h2 id="drilldowns">Drill-downs</h2>',
        '<p class="lede">A few problems for each of the most frequent refusal reasons, alternating between '
        "corpora: the text with its bound quantities marked, the equations with their proofs or refusals, and the "
        "equation diagram.</p>",
    ]
    if not chosen:
        body.append('<p class="empty">No refusals to drill into.</p>')
    drawn = iter(diagrams.result() if diagrams is not None else [])
    noted = False  # the reading-uncertainty note is said once, under the first reason it applies to
    for kind, reason, items in chosen:
        label = {"equation": "equation refusal", "target": "question target", "import": "import refusal"}[kind]
        if kind == "equation" and reason in GROUNDING_REASONS:
            label = "equation refusal of reading (could not tell)"  # never a dimension error (ADR 0024)
        body.append(f"<h3>{html_text(label)}: {html_text(reason)}</h3>")
        body.append(_reason_notes(kind, reason, s, typical or {}, uncertainty=not noted))
        noted = noted or (kind == "equation" and reading_uncertainty_note(s.refusal_reasons, reason) is not None)
        body.extend(
            _drilldown_html(d, diagram=next(drawn) if diagrams is not None and d.graph is not None else "",
                            command=commands.command(d.corpus, d.problem_id, d.source))
            for d in items
        )
    body.append(GLOSSARY_HTML)
    body.append('<footer>Written by <code>ssbg report</code>. Every number above is a cell of the CSV tables '
                "written next to this report.</footer></main>")
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{html_text(title)}</title><style>{_CSS}</style></head><body>"
            + "".join(body) + "</body></html>\n")


# --------------------------------------------------------------------------- files


def write_tables(
    tables: Iterable[tuple[str, pd.DataFrame]],
    csv_dir: str | Path,
    *,
    parquet: bool = True,
    metadata: Mapping[str, str] | None = None,
    out: OutputSet | None = None,
) -> tuple[list[Path], list[Path]]:
    """Write each (name, frame) as ``name.csv`` (and ``name.parquet`` when pyarrow is present).

    CSVs are written without the index, with ``\\n`` line ends, so equal frames
    give byte-equal files.  ``metadata`` goes into each Parquet file's schema
    (a report puts its pack's provenance there, ``ssbg.pack``, so that a Parquet
    file names its pack on its own; the CSVs have ``pack.csv`` beside them).
    Every file is written beside its target and renamed into place with the
    others (:class:`~ssbg.files.OutputSet`; pass ``out`` to make the tables part
    of a larger set, which the caller commits): an error or an interruption
    leaves the previous tables as they were.  A Parquet file of a table this run
    does not write as Parquet is removed with the swap, so the folder never
    mixes two runs.

    Raises
    ------
    OutputError
        When the file system refuses a write (a full disk, a read-only folder), naming the file.
    """
    folder = check_writable(csv_dir)
    try:
        importlib.import_module("pyarrow")
        have_arrow = parquet
    except ImportError:
        have_arrow = False
    csvs: list[Path] = []
    parquets: list[Path] = []
    with contextlib.ExitStack() as stack:
        stage = out if out is not None else stack.enter_context(OutputSet())
        for name, frame in tables:
            path = folder / f"{name}.csv"
            _write_file(path, functools.partial(_write_csv, frame), stage)
            csvs.append(path)
            target = folder / f"{name}.parquet"
            if have_arrow:
                _write_file(target, functools.partial(_write_parquet, frame, metadata=metadata), stage)
                parquets.append(target)
            else:
                stage.remove(target)
        if out is None:
            stage.commit()
    return csvs, parquets


def _write_csv(frame: pd.DataFrame, path: Path) -> None:
    """A table as CSV, its text cells capped and spreadsheet-safe (:func:`ssbg.outputs.csv_text`), written a
    chunk of rows at a time (a million problems' tables are never held as one text)."""
    write_csv(frame, path)


def _write_file(target: Path, write: Callable[[Path], object], stage: OutputSet) -> None:
    """Write ``target``'s staged file with ``write(temp_path)``; an ``OSError`` is an :class:`OutputError`."""
    temp = stage.temp(target)
    try:
        write(temp)
    except OSError as exc:
        raise output_error(exc, str(target)) from None


def _write_parquet(
    frame: pd.DataFrame, path: Path, rows_per_group: int = PARQUET_ROWS, *, metadata: Mapping[str, str] | None = None
) -> Path:
    """Write Parquet a row group at a time, so a large table is never converted whole."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.Schema.from_pandas(frame.head(0), preserve_index=False)
    if metadata:
        schema = schema.with_metadata({**(schema.metadata or {}), **{k.encode(): v.encode() for k, v in
                                                                      metadata.items()}})
    with pq.ParquetWriter(path, schema) as writer:
        for start in range(0, max(len(frame), 1), rows_per_group):
            part = frame.iloc[start : start + rows_per_group]
            writer.write_table(pa.Table.from_pandas(part, schema=schema, preserve_index=False))
    return path


@dataclass(frozen=True)
class ReportResult:
    """What :func:`write_report` wrote, and the tables it wrote them from."""

    html_path: Path
    csv_paths: tuple[Path, ...]
    parquet_paths: tuple[Path, ...]
    batch: BatchResult
    summary: CorpusSummary
    recovered: str | None = None  # what the run finished or undid of a killed run's commit (OutputLock.note)

    @property
    def tables(self) -> Mapping[str, pd.DataFrame]:
        """Every table by name (the tidy tables, then the summaries)."""
        return dict(iter_csv_tables(self.batch.problems, self.batch.equations, self.summary,
                                    self.batch.pack_components, self.batch.kinds))


class _RenderingWarmUp:
    """Imports the plotting modules (matplotlib's, about 1 s) in a thread while worker processes bind.

    The driver of a process pool mostly waits; this uses that wait instead of
    adding the import to the end of the run.  The thread starts at the first
    chunk, after the pool has forked all its workers (a fork pool launches them
    at its first task), so no fork happens while it imports; it is joined
    before the report is drawn.  A missing matplotlib is the report's to
    report, not the warm-up's.
    """

    def __init__(self, *, enabled: bool) -> None:
        self._enabled = enabled
        self._thread: threading.Thread | None = None

    def on_chunk(self, _chunk: object) -> None:
        if self._enabled and self._thread is None:
            self._thread = threading.Thread(target=self._import, name="ssbg-rendering-warm-up", daemon=True)
            self._thread.start()

    @staticmethod
    def _import() -> None:
        for module in ("matplotlib.figure", "matplotlib.backends.backend_svg"):
            try:
                importlib.import_module(module)
            except ImportError:
                return

    def join(self) -> None:
        if self._thread is not None:
            self._thread.join()


def _new_folders(*folders: Path) -> list[Path]:
    """The folders on the way to ``folders`` that do not exist yet (the deepest first)."""
    out: list[Path] = []
    for folder in folders:
        for f in (folder, *folder.parents):
            if f.exists():
                break
            if f not in out:
                out.append(f)
    return sorted(out, key=lambda f: len(f.parts), reverse=True)


def _remove_empty(folders: Sequence[Path]) -> None:
    """Remove the folders a failed run created, where they are still empty (deepest first)."""
    for folder in folders:
        with contextlib.suppress(OSError):
            folder.rmdir()


def _spec_files(specs: Any) -> list[Path]:
    """The files named by corpus specs (``NAME=PATH`` or a path; a folder's files), for :func:`check_outputs`."""
    if isinstance(specs, str | Path):
        specs = [specs]
    if not isinstance(specs, list | tuple):
        return []
    out: list[Path] = []
    for spec in specs:
        if isinstance(spec, str | Path):
            text = str(spec)
            name, sep, rest = text.partition("=")
            path = Path(rest) if sep and name and not Path(text).exists() else Path(text)
            out.append(path)
            if path.is_dir():
                with contextlib.suppress(OSError):  # a folder the run cannot list fails where it is read
                    out += sorted(path.iterdir())
    return out


def write_report(
    specs: Any,
    out_html: str | Path,
    *,
    csv_dir: str | Path | None = None,
    jobs: int = 1,
    engine: str = "local",
    pack: str | Path | None = None,
    limit: int | None = None,
    progress: bool = True,
    title: str = "ssbg corpus refusal report",
    diagrams: bool = True,
    parquet: bool = True,
    min_evidence: float = DEFAULT_MIN_EVIDENCE,
) -> ReportResult:
    """Run corpora through ssbg and write the HTML report and the CSV/Parquet tables.

    Parameters
    ----------
    specs
        Corpus specs (``FORMAT=PATH`` or paths; a folder expands per file), or records in memory
        (``(FORMAT, data)``: a DataFrame, a ``datasets.Dataset``, a list of dicts), as for
        :func:`~ssbg.stats.batch.run_batch`.
    out_html
        Where the report goes; its folder is created.
    csv_dir
        Where the tables go (default: ``<report name>_tables`` beside the report).
    jobs, engine, pack, limit, progress
        As for :func:`~ssbg.stats.batch.run_batch`.
    title
        The page title.
    diagrams
        Draw equation diagrams in the drill-downs (needs Graphviz's ``dot``).
    parquet
        Also write Parquet when pyarrow is installed.
    min_evidence
        ε in (0, 1]: a problem counts as a dimension error found only when the plausible readings that would admit
        its refusal hold less than ε of the probability (the checker's weighing, ADR 0034); the others could not
        tell.  Named in the page's header and in every Parquet file's schema (``ssbg.min_evidence``).

    The report and its tables are one set (:class:`~ssbg.files.OutputSet`):
    each file is written beside its target and all are renamed into place
    together at the end, so a run that fails or is interrupted leaves the
    previous report and tables as they were, and no partial file.  The output
    folders are checked writable before the corpora are read.

    Raises
    ------
    ImportRefusal
        ``malformed_record`` for a spec that names no corpus.
    OutputError
        When the report or a table cannot be written (naming the path), before
        the run when the folders are not writable or the report names a folder.
    ValueError
        For bad ``jobs`` or ``engine`` values.
    """
    if engine not in ENGINES:
        raise ValueError(f"'engine' must be one of {list(ENGINES)} (got {engine!r})")
    html_path = Path(out_html)
    tables_dir = Path(csv_dir) if csv_dir is not None else html_path.with_name(f"{html_path.stem}_tables")
    if html_path.is_dir():
        raise OutputError(f"cannot write the report to {html_path}: it is a folder", reason="is_a_directory",
                          path=str(html_path), detail="is a directory")
    check_outputs([html_path], _spec_files(specs))  # a FIFO, a device, a corpus file: refused before reading
    made = _new_folders(html_path.parent, tables_dir)  # removed again if the run fails: it leaves nothing behind
    check_writable(html_path.parent)
    check_writable(tables_dir)
    # the set's lock, held from before the first record is read to after the commit (ADR 0033): a second run on
    # the same page stops (exit 2); a killed run's commit is finished or undone and its staged files deleted
    try:
        with OutputLock(html_path, folders=[tables_dir]) as lock:
            return _report_run(specs, html_path, tables_dir, lock, title=title, jobs=jobs, engine=engine, pack=pack,
                               limit=limit, progress=progress, parquet=parquet, diagrams=diagrams,
                               min_evidence=min_evidence)
    except BaseException:
        _remove_empty(made)  # the folders this run made, where they are still empty: it leaves nothing behind
        raise


def _report_run(specs: Any, html_path: Path, tables_dir: Path, lock: OutputLock, *, title: str, jobs: int,
                engine: str, pack: Any, limit: int | None, progress: bool, parquet: bool,
                diagrams: bool, min_evidence: float) -> ReportResult:
    """:func:`write_report` with its outputs judged and its lock held."""
    warm_up = _RenderingWarmUp(enabled=jobs > 1 and engine == "local")
    try:
        batch = run_batch(specs, jobs=jobs, engine=engine, pack=pack, limit=limit, progress=progress,
                          on_chunk=warm_up.on_chunk, min_evidence=min_evidence)
    finally:
        warm_up.join()
    summary = summarize(batch.problems, batch.equations, pack=batch.unit_pack, kinds=batch.kinds,
                        min_evidence=batch.min_evidence)
    typical = typical_drilldowns(batch)
    chosen = choose_drilldowns(summary, batch.drilldowns, typical)
    # the figures (a forked child) and the diagrams (dot processes) are drawn while this process
    # writes the tables; the fork comes first, before the diagrams start their threads
    figures = _FiguresAside(summary, enabled=jobs > 1 and engine == "local")
    drawn = _Diagrams.of(chosen) if diagrams else None
    with OutputSet(lock) as out:
        try:
            csvs, parquets = write_tables(
                iter_csv_tables(batch.problems, batch.equations, summary, batch.pack_components, batch.kinds,
                                commands=problems_with_commands(batch)),
                tables_dir, parquet=parquet, metadata=_metadata(batch), out=out)
            page = _page(batch, summary, chosen, drawn, title, figures.result(), typical)
        finally:
            figures.close()
            if drawn is not None:
                drawn.close()
        _write_file(html_path, lambda temp: temp.write_text(page, encoding="utf-8"), out)
        out.commit()
    return ReportResult(html_path, tuple(csvs), tuple(parquets), batch, summary, lock.note)

