"""What ``ssbg check-solutions`` writes: the verdict and score tables (CSV) and an HTML page.

The page is self-contained: the scores per solver (with labels), the verdict counts, and a few
verdicts drawn as :meth:`~ssbg.checking.verdict.Verdict.html` draws them (with labels: the
first catches, flagged wrong solutions, and the first false alarms, flagged correct ones, of
each solver; without: the first flagged solutions).  The drawn verdicts are checked again in
this process from the file (the batch keeps rows, not verdicts).  Files appear whole or not at
all: each is written beside its target and moved into place.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ssbg.checking.batch import REFERENCE_SOLVER, Fields, field_value
from ssbg.checking.verdict import DEFAULT_MIN_EVIDENCE, Verdict, check_solution
from ssbg.outputs import csv_text, html_text
from ssbg.reading.readers.common import decode_jsonl_line
from ssbg.units import UnitPack

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["STATUS_ORDER", "csv_text", "example_rows", "plot_risk_coverage", "plot_verdicts", "recheck", "report_html"]

STATUS_ORDER: tuple[str, ...] = ("error", "unverifiable", "sound", "refused")
_STATUS_COLOURS = {"error": "#D55E00", "unverifiable": "#E6C229", "sound": "#009E73", "refused": "#999999"}


def example_rows(frame: pd.DataFrame, *, per_kind: int = 3) -> list[tuple[str, Any]]:
    """Rows to draw, as (kind, row): per solver, the first ``per_kind`` catches (flagged wrong ones) and false
    alarms (flagged correct ones), or without labels the first flagged ones."""
    out: list[tuple[str, Any]] = []
    flagged = frame[frame["status"].astype(str) == "error"]
    for solver in dict.fromkeys(frame["solver"].astype(str)):
        mine = flagged[flagged["solver"].astype(str) == solver]
        labels = mine["label"]
        if labels.notna().any():
            out += [("catch", r) for r in mine[labels == False].head(per_kind).itertuples(index=False)]  # noqa: E712
            out += [("false alarm", r) for r in mine[labels == True].head(per_kind).itertuples(index=False)]  # noqa: E712
        else:
            out += [("flagged", r) for r in mine.head(per_kind).itertuples(index=False)]
    return out


def recheck(
    data: object, fields: Fields, rows: Sequence[tuple[str, Any]], pack: UnitPack, *, source_name: str | None = None
) -> list[tuple[str, Any, Verdict]]:
    """The verdicts of the given rows, checked again from their records of ``data`` (a path or records in memory,
    as :func:`~ssbg.checking.batch.check_solutions` takes them; a source is read once more)."""
    from ssbg.reading.readers.tabular import scan_source

    wanted = {int(str(r.source).rpartition(":")[2]) for _, r in rows}
    lines: dict[int, Any] = {}
    for raw in scan_source(data, name=source_name) if wanted else ():  # a file's lines read bounded
        if raw.line in wanted and raw.refusal is None:
            lines[raw.line] = decode_jsonl_line(raw).data
    out: list[tuple[str, Any, Verdict]] = []
    for kind, row in rows:
        data = lines.get(int(str(row.source).rpartition(":")[2]))
        question = field_value(data, fields.question)
        reference = None if fields.reference is None else field_value(data, fields.reference)
        if str(row.solver) == REFERENCE_SOLVER:
            solution, reference = reference, None
        else:
            holder = field_value(data, str(row.solver)) if fields.solver_keys else data
            solution = field_value(holder, fields.solution) if not isinstance(holder, str | list) else holder
        if isinstance(question, str) and isinstance(solution, str | list):
            ref = reference if isinstance(reference, str | list) else None
            level = float(getattr(row, "min_evidence", DEFAULT_MIN_EVIDENCE))
            out.append((kind, row, check_solution(question, solution, pack=pack, reference=ref, min_evidence=level)))
    return out


def questions_of(data: object, question_field: str, *, limit: int | None = None,
                 source_name: str | None = None) -> list[str | None]:
    """The distinct questions of ``data``'s records (of its first ``limit``), in order (None once for records that
    have none): the problems a verdict file's header counts (:func:`ssbg.stats.insample.count_in_sample`)."""
    from ssbg.reading.readers.tabular import scan_source

    seen: dict[str | None, None] = {}
    for k, raw in enumerate(scan_source(data, name=source_name)):
        if limit is not None and k >= limit:
            break
        question = None if raw.refusal is not None else field_value(decode_jsonl_line(raw).data, question_field)
        seen.setdefault(question if isinstance(question, str) else None)
    return list(seen)


def plot_verdicts(frame: pd.DataFrame, *, title: str = "Verdicts by solver and label") -> Any:
    """Stacked horizontal bars: per solver, its wrong and its correct solutions (or all, without labels) split by
    verdict, as shares; the ``error`` segment of the wrong bar is the recall, of the correct bar the false-alarm
    rate.  An :class:`~ssbg.stats.plots.SvgFigure` (deterministic SVG, drawn as the report's plots are)."""
    import matplotlib

    from ssbg.stats.plots import _RC, _figure, _render  # the stats plots' drawing setup: fonts, no date, id salt

    rows: list[tuple[str, Any]] = []
    for solver in dict.fromkeys(frame["solver"].astype(str)):
        mine = frame[frame["solver"].astype(str) == solver]
        labels = mine["label"]
        if labels.notna().any():
            groups = [(f"{solver}, wrong", mine[labels == False]), (f"{solver}, correct", mine[labels == True])]  # noqa: E712
            rows += [(name, sub) for name, sub in groups if len(sub)]
        else:
            rows.append((solver, mine))
    with matplotlib.rc_context(_RC):
        fig = _figure(9.0, 1.2 + 0.36 * max(len(rows), 1))
        ax = fig.subplots()
        y = list(range(len(rows)))[::-1]
        for row, (_name, sub) in zip(y, rows, strict=True):
            status = sub["status"].astype(str)
            left = 0.0
            for s in STATUS_ORDER:
                share = 100.0 * float((status == s).mean()) if len(sub) else 0.0
                if share:
                    ax.barh(row, share, left=left, color=_STATUS_COLOURS[s], edgecolor="white", linewidth=0.5,
                            label=s)
                    if share >= 6:
                        ax.text(left + share / 2, row, f"{share:.0f}%", ha="center", va="center", fontsize=7.5)
                    left += share
        ax.set_yticks(y, [name for name, _ in rows])
        ax.set_xlim(0, 100)
        ax.set_xlabel("% of the solutions")
        handles, labels_ = ax.get_legend_handles_labels()
        unique = dict(zip(labels_, handles, strict=True))
        ax.legend(unique.values(), unique.keys(), loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=4,
                  frameon=False, fontsize=8)
        ax.set_title(title, pad=24)
        return _render(fig, title)


_TPL_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>ssbg check-solutions: {title}</title>
<style>body{{font-family:sans-serif;margin:2em;max-width:95em}} table{{border-collapse:collapse;font-size:0.85em;
max-width:100%}} .wrap{{overflow-x:auto;max-width:100%}}
td,th{{border:1px solid #ccc;padding:0.25em 0.5em;text-align:right;overflow-wrap:anywhere}}
th{{white-space:normal;min-width:3.5em}} td:first-child,th:first-child{{text-align:left}}
section{{border-top:1px solid #ddd;margin-top:1.2em;padding-top:0.8em}}</style></head>
<body><h1>ssbg check-solutions</h1><p>{title}</p><p class="pack">Unit pack: {pack}</p>
<p class="evidence">min_evidence (ε): {min_evidence}. A unit mismatch, an ungrounded number or an answer-unit mismatch
is error evidence (a dimension error found) only when the readings that undo it hold less than ε of the reader's
probability; otherwise ssbg could not tell (ambiguous_grounding, coverage).</p>{in_sample}{scores}
<h2>Verdicts</h2>{counts}{plot}{examples}</body></html>
"""


def _table(frame: pd.DataFrame) -> str:
    """A table whose headers break after each ``_`` (``false_<wbr>alarm_<wbr>pct``), so that a wide table of
    scores wraps within the page rather than running past it; wider still, it scrolls inside its box."""
    head = "".join(f"<th>{html_text(str(c)).replace('_', '_<wbr>')}</th>" for c in frame.columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{'' if _blank(v) else html_text(str(v))}</td>" for v in row) + "</tr>"
        for row in frame.itertuples(index=False)
    )
    return f'<div class="wrap"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def plot_risk_coverage(
    sweep: pd.DataFrame, *, marked: float = DEFAULT_MIN_EVIDENCE,
    title: str = "Risk and coverage of verdict 'error' over ε",
) -> Any:
    """Per solver of a :func:`~ssbg.checking.batch.sweep_verdicts` table (the reference left out), the
    risk-coverage curve over ε: coverage the share of solutions flagged ``error``, risk the share of the flagged
    that are correct (100 - precision); the ε ``marked`` (the default) drawn as a star.  An
    :class:`~ssbg.stats.plots.SvgFigure` (deterministic SVG)."""
    import matplotlib

    from ssbg.stats.plots import _RC, _figure, _render  # the stats plots' drawing setup: fonts, no date, id salt

    frame = sweep[sweep["solver"].astype(str) != REFERENCE_SOLVER]
    with matplotlib.rc_context(_RC):
        fig = _figure(6.4, 4.2)
        ax = fig.subplots()
        for solver in dict.fromkeys(frame["solver"].astype(str)):
            part = frame[frame["solver"].astype(str) == solver].sort_values("min_evidence")
            risk = 100.0 - part["precision_pct"]
            (line,) = ax.plot(part["error_pct"], risk, marker="o", markersize=3, label=solver)
            at = part["min_evidence"] == marked
            ax.plot(part.loc[at, "error_pct"], risk[at], marker="*", markersize=13, color=line.get_color(),
                    markeredgecolor="black", linestyle="none")
        ax.set_xlabel("coverage: solutions flagged error (%)")
        ax.set_ylabel("risk: flagged solutions that are correct (%)")
        ax.legend(fontsize=8, frameon=False)
        ax.grid(alpha=0.3)
        ax.set_title(f"{title} (\u2605 ε = {marked})")
        return _render(fig, title)


def _svg_body(svg: str) -> str:
    """An SVG document as an inline element (its XML prolog dropped)."""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else ""


def _blank(value: object) -> bool:
    return value is None or str(value) in ("nan", "<NA>", "None")


def report_html(
    frame: pd.DataFrame,
    scores: pd.DataFrame | None,
    examples: Sequence[tuple[str, Any, Verdict]],
    *,
    title: str,
    pack: str = "",
    in_sample: str = "",
    min_evidence: float = DEFAULT_MIN_EVIDENCE,
) -> str:
    """The page: the pack (its :attr:`~ssbg.units.UnitPack.provenance`), how many of the problems the reading model
    was trained on (``in_sample``, :attr:`ssbg.stats.insample.InSample.sentence`), scores (when labelled), verdict
    counts per solver, and the drawn verdicts (all escaped)."""
    import pandas as pd

    counts = pd.crosstab(frame["solver"].astype(str), frame["status"].astype(str)).reset_index()
    parts = []
    for kind, row, verdict in examples:
        label = "" if _blank(row.label) else (" (correct)" if bool(row.label) else " (wrong)")
        parts.append(
            f"<section><h3>{html_text(kind)}: {html_text(str(row.solver))} on {html_text(str(row.id))}"
            f"{label}</h3>{verdict.html()}</section>"
        )
    return _TPL_PAGE.format(
        title=html_text(title),
        pack=html_text(pack) if pack else "(not given)",
        in_sample=f'<p class="insample">{html_text(in_sample[0].upper() + in_sample[1:])}.</p>' if in_sample else "",
        min_evidence=html_text(repr(min_evidence)),
        scores="" if scores is None else "<h2>Scores</h2>" + _table(scores),
        counts=_table(counts),
        plot=_svg_body(plot_verdicts(frame).svg),
        examples="".join(parts),
    )
