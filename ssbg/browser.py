"""The corpus browser's logic, as plain functions and values.

:class:`ssbg.widgets.CorpusBrowser` wires ipywidgets controls to the functions
here and does nothing else; tests and notebooks call these functions directly.
The browser reads the documented tables of a corpus run
(:mod:`ssbg.stats.rows`): it filters the equation table, lists the problems
that pass, and shows one problem's highlighted text, diagram and equations.
This module never imports ipywidgets; pandas, :mod:`ssbg.stats` and
:mod:`ssbg.views` are imported inside the functions that need them (an edge
module: see :mod:`ssbg`).

Examples
--------
>>> unit_tokens("dollars;-;hours")
('dollars', 'hours')
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ssbg.admissibility import OPERATION_KINDS
from ssbg.errors import SsbgError, UnitAlgebraError
from ssbg.model import SemanticSymbolicBindingGraph
from ssbg.outputs import html_text
from ssbg.reading.records import CorpusRecord
from ssbg.units import UnitPack, corpus_pack, normalize_unit_text

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "BROWSER_FILTERS",
    "BROWSER_REASONS",
    "DETAIL_COLUMNS",
    "UNIT_COLUMNS",
    "BrowserError",
    "ProblemDetail",
    "filter_equations",
    "filter_options",
    "index_records",
    "problem_choices",
    "problem_detail",
    "unit_tokens",
]

BROWSER_REASONS: frozenset[str] = frozenset(
    {
        "missing_column",  # a table lacks a documented column of ssbg.stats.rows
        "invalid_filter",  # a filter value that is not text
    }
)

BROWSER_FILTERS: tuple[str, ...] = ("corpus", "reason", "kind", "unit")
"""The filters of :func:`filter_equations`, in the order the browser shows them."""

UNIT_COLUMNS: tuple[str, ...] = ("lhs_unit", "operand_units", "offending_unit", "unknown_units", "blocking_units")
"""Equation-table columns a unit filter searches (``;``-separated unit lists)."""

DETAIL_COLUMNS: tuple[str, ...] = (
    "index",
    "kind",
    "status",
    "reason",
    "root_cause",
    "propagated_from",
    "lhs_unit",
    "operand_units",
    "offending_unit",
    "unit_proof",
    "span_text",
)
"""Equation-table columns a problem's detail shows."""

_KEY_COLUMNS: tuple[str, ...] = ("corpus", "problem_id")
_UNIT_SEPARATOR = ";"


def _e(value: object) -> str:
    return html_text("" if value is None else value)  # escaped, bidirectional controls shown (ssbg.outputs)


class BrowserError(SsbgError, ValueError):
    """A table or filter the corpus browser cannot use; ``reason`` is one of :data:`BROWSER_REASONS`."""

    REASONS = BROWSER_REASONS


def _require_columns(frame: pd.DataFrame, columns: Sequence[str], what: str) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise BrowserError(
            f"the {what} table lacks column(s) {missing} (see ssbg.stats.rows)",
            reason="missing_column",
            path=what,
            detail=",".join(missing),
        )


def _filter_value(value: object, name: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise BrowserError(
            f"filter '{name}' must be a str or None (got {type(value).__name__})",
            reason="invalid_filter",
            path=name,
            detail=repr(value),
        )
    return value.strip() or None


def unit_tokens(cell: object) -> tuple[str, ...]:
    """The unit texts of one table cell (``"dollars;hours"`` -> both; empty and missing -> none).

    >>> unit_tokens("dollars;-;hours")
    ('dollars', 'hours')
    >>> unit_tokens(None)
    ()
    """
    if not isinstance(cell, str):
        return ()
    return tuple(t for t in (p.strip() for p in cell.split(_UNIT_SEPARATOR)) if t and t != "-")


def _unit_key(text: str, pack: UnitPack) -> str:
    """What two unit texts must share to match: the pack lemma, else the normalized text."""
    try:
        return "lemma:" + pack.resolve(text).lemma
    except UnitAlgebraError:
        return "text:" + normalize_unit_text(text)


def _column_values(frame: pd.DataFrame, column: str) -> list[object]:
    return [v for v in frame[column].astype("object").unique().tolist() if isinstance(v, str)]


def filter_equations(
    equations: pd.DataFrame,
    *,
    corpus: str | None = None,
    reason: str | None = None,
    kind: str | None = None,
    unit: str | None = None,
    pack: UnitPack | None = None,
) -> pd.DataFrame:
    """The rows of an equation table that pass every given filter (blank or ``None``: no filter).

    Parameters
    ----------
    equations
        An equation table with the columns of ``ssbg.stats.rows.EQUATION_COLUMNS``.
    corpus, reason, kind
        Exact values of the ``corpus``, ``reason`` and ``kind`` columns.
    unit
        A unit text; a row matches when any of :data:`UNIT_COLUMNS` lists a
        unit with the same pack lemma (``dollar`` finds ``dollars`` and ``$``),
        or, for units outside the pack, the same normalized text.
    pack
        The pack that decides lemmas (the corpus pack, ``en_units_v1+en_counts_v2+en_measures_v1``, when None).

    Raises
    ------
    BrowserError
        ``missing_column`` when the table lacks a column a filter reads;
        ``invalid_filter`` for a filter value that is not text.

    Examples
    --------
    >>> import pandas as pd
    >>> eq = pd.DataFrame({"corpus": ["a", "a", "b"], "problem_id": ["p1", "p2", "p3"],
    ...     "reason": [None, "unknown_unit", "unit_mismatch"], "kind": ["add", "add", "divide"],
    ...     "lhs_unit": ["dollars", "apples", "hours"], "operand_units": ["$;dollars", "apples;apples", "miles;hours"],
    ...     "offending_unit": [None, "apples", "hours"], "unknown_units": [None, "apple", None],
    ...     "blocking_units": [None, "apple", None]})
    >>> filter_equations(eq, unit="dollar")["problem_id"].tolist()
    ['p1']
    >>> filter_equations(eq, corpus="a", reason="unknown_unit")["problem_id"].tolist()
    ['p2']
    """
    wanted = {
        name: _filter_value(value, name) for name, value in (("corpus", corpus), ("reason", reason), ("kind", kind))
    }
    unit_text = _filter_value(unit, "unit")
    _require_columns(equations, [name for name, value in wanted.items() if value is not None], "equations")
    mask = [True] * len(equations)
    for name, value in wanted.items():
        if value is not None:
            hits = (equations[name].astype("object") == value).tolist()
            mask = [m and h for m, h in zip(mask, hits, strict=True)]
    if unit_text is not None:
        _require_columns(equations, UNIT_COLUMNS, "equations")
        p = corpus_pack() if pack is None else pack
        key = _unit_key(unit_text, p)
        for_column = []
        for column in UNIT_COLUMNS:
            matching = {
                v for v in _column_values(equations, column) if any(_unit_key(t, p) == key for t in unit_tokens(v))
            }
            for_column.append(equations[column].astype("object").isin(matching).tolist())
        unit_hits = [any(row) for row in zip(*for_column, strict=True)]
        mask = [m and h for m, h in zip(mask, unit_hits, strict=True)]
    return equations[mask]


def filter_options(equations: pd.DataFrame) -> dict[str, tuple[str, ...]]:
    """The values each browser filter can take in this table, in a stable order.

    Corpora and units sorted; reasons sorted; kinds in ``OPERATION_KINDS`` order.

    Raises
    ------
    BrowserError
        ``missing_column`` when the table lacks a column of :data:`BROWSER_FILTERS`.

    Examples
    --------
    >>> import pandas as pd
    >>> eq = pd.DataFrame({"corpus": ["b", "a"], "reason": [None, "unit_mismatch"], "kind": ["divide", "add"],
    ...     "lhs_unit": ["hours", None], "operand_units": ["miles;hours", "dollars;hours"],
    ...     "offending_unit": [None, "hours"], "unknown_units": [None, None], "blocking_units": [None, None]})
    >>> options = filter_options(eq)
    >>> options["kind"], options["unit"]
    (('add', 'divide'), ('dollars', 'hours', 'miles'))
    """
    _require_columns(equations, ("corpus", "reason", "kind", *UNIT_COLUMNS), "equations")
    kinds = set(_column_values(equations, "kind"))
    units = {t for column in UNIT_COLUMNS for v in _column_values(equations, column) for t in unit_tokens(v)}
    return {
        "corpus": tuple(sorted(str(v) for v in _column_values(equations, "corpus"))),
        "reason": tuple(sorted(str(v) for v in _column_values(equations, "reason"))),
        "kind": tuple(k for k in OPERATION_KINDS if k in kinds)
        + tuple(sorted(str(k) for k in kinds - set(OPERATION_KINDS))),
        "unit": tuple(sorted(units)),
    }


def problem_choices(equations: pd.DataFrame, limit: int | None = None) -> tuple[tuple[str, tuple[str, str]], ...]:
    """One ``(label, (corpus, problem_id))`` per problem of a (filtered) equation table, in table order.

    The label counts the problem's rows in the (filtered) table and how many of them are refused.

    >>> import pandas as pd
    >>> eq = pd.DataFrame({"corpus": ["c", "c", "c"], "problem_id": ["p1", "p1", "p2"],
    ...     "status": ["admitted", "refused", "admitted"]})
    >>> problem_choices(eq)
    (('c / p1 (2 matching, 1 refused)', ('c', 'p1')), ('c / p2 (1 matching, 0 refused)', ('c', 'p2')))
    """
    _require_columns(equations, (*_KEY_COLUMNS, "status"), "equations")
    counts: dict[tuple[str, str], list[int]] = {}
    corpora = equations["corpus"].astype("object").tolist()
    ids = equations["problem_id"].astype("object").tolist()
    statuses = equations["status"].astype("object").tolist()
    for c, p, s in zip(corpora, ids, statuses, strict=True):
        tally = counts.setdefault((str(c), str(p)), [0, 0])
        tally[0] += 1
        tally[1] += s == "refused"
    out = []
    for (c, p), (n, refused) in counts.items():
        out.append((f"{c} / {p} ({n} matching, {refused} refused)", (c, p)))
    return tuple(out[:limit])


def index_records(
    specs: Sequence[str | Path], *, keys: Iterable[tuple[str, str]] | None = None, pack: UnitPack | None = None
) -> dict[tuple[str, str], CorpusRecord]:
    """Read corpus records by ``(corpus, problem_id)`` (only ``keys`` when given), first one wins.

    Records are read with ``pack``, the pack the tables were built with (the corpus pack,
    ``en_units_v1+en_counts_v2+en_measures_v1``, when None), since the pack decides which words are units.
    Reading stops as soon as every asked-for key is found.

    Raises
    ------
    ImportRefusal
        ``malformed_record`` for a spec that names no corpus (from
        :func:`ssbg.stats.batch.iter_records`).
    """
    from ssbg.stats.batch import iter_records

    wanted = None if keys is None else set(keys)
    found: dict[tuple[str, str], CorpusRecord] = {}
    for record in iter_records(specs, pack=pack):
        key = (record.corpus, record.problem_id)
        if key not in found and (wanted is None or key in wanted):
            found[key] = record
            if wanted is not None and len(found) == len(wanted):
                break  # every asked-for record is in: stop reading
    return found


@dataclass(frozen=True, slots=True, eq=False)  # eq: a DataFrame has no truth value
class ProblemDetail:
    """What the browser shows for one problem: text, diagram, equations, and why anything is missing.

    Attributes
    ----------
    corpus, problem_id
        Which problem.
    text
        The problem text when the record has one.
    text_html
        The text with its mentions highlighted (empty without text).
    diagram_svg
        The equation diagram as SVG (empty when it cannot be drawn).
    equations
        The problem's rows of the equation table (:data:`DETAIL_COLUMNS`), by index.
    problem
        The problem's row of the problem table (empty without one).
    notes
        Why a part is missing (import refusal, bind error, no record, no ``dot``).
    """

    corpus: str
    problem_id: str
    text: str | None
    text_html: str
    diagram_svg: str
    equations: pd.DataFrame
    problem: Mapping[str, object]
    notes: tuple[str, ...] = ()

    def to_html(self) -> str:
        """A self-contained HTML fragment: heading, problem facts, text, diagram, equations, notes."""
        return _detail_html(self)

    def _repr_html_(self) -> str:
        return self.to_html()

    def __repr__(self) -> str:
        return (
            f"ProblemDetail(corpus={self.corpus!r}, problem_id={self.problem_id!r}, equations={len(self.equations)}, "
            f"text={self.text is not None}, diagram={bool(self.diagram_svg)}, notes={self.notes!r})"
        )


def _plain(value: object) -> object:
    """A table cell as a plain Python value (missing -> None)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    item = getattr(value, "item", None)
    return item() if callable(item) else value


def _problem_row(problems: pd.DataFrame | None, corpus: str, problem_id: str) -> dict[str, object]:
    if problems is None:
        return {}
    _require_columns(problems, _KEY_COLUMNS, "problems")
    hit = problems[
        (problems["corpus"].astype("object") == corpus) & (problems["problem_id"].astype("object") == problem_id)
    ]
    if hit.empty:
        return {}
    return {str(k): _plain(v) for k, v in hit.iloc[0].to_dict().items()}


def _bind(record: CorpusRecord | None, pack: UnitPack | None, notes: list[str]) -> SemanticSymbolicBindingGraph | None:
    from ssbg.stats.batch import bind_payload

    if record is None:
        notes.append("no corpus record for this problem: pass its records to see its text and diagram")
        return None
    if record.refusal is not None:
        notes.append(f"import refused [{record.refusal.reason}]: {record.refusal.detail or record.refusal.message}")
        return None
    try:
        return bind_payload(record.payload, pack=pack)
    except SsbgError as exc:
        notes.append(f"binding failed [{exc.reason}]: {exc.detail or exc.message}")
        return None


def _diagram_svg(graph: SemanticSymbolicBindingGraph | None, notes: list[str]) -> str:
    from ssbg.views import RenderError, render

    if graph is None:
        return ""
    try:
        svg = render(graph, view="equations", proofs=True).svg
    except RenderError as exc:
        notes.append(f"no diagram [{exc.reason}]: {exc.message}")
        return ""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else svg


def _text_html(record: CorpusRecord | None, graph: SemanticSymbolicBindingGraph | None, pack: UnitPack | None) -> str:
    """The problem text with its quantities highlighted, escaped.

    A trace (and a refused record's text, with its reason) goes through the
    text view, which marks every mention by its unit's dimension and symbol; a
    MathProblemGraph's symbols carry no offsets into its text, so its text is
    shown escaped, with only the facts whose spans do point into it marked.
    """
    from ssbg.reading.textview import render_text
    from ssbg.trace import Trace

    if record is None:
        return ""
    if isinstance(record.payload, Trace) or (record.refusal is not None and record.text):
        return render_text(record, graph=graph, pack=pack).html
    if not record.text:
        return ""
    from ssbg.stats.report import highlight_text

    return highlight_text(record.text, graph)


def _record_text(record: CorpusRecord | None) -> str | None:
    if record is None:
        return None
    text = getattr(record.payload, "text", None) if record.text is None else record.text
    return text if isinstance(text, str) else None


def problem_detail(
    corpus: str,
    problem_id: str,
    *,
    equations: pd.DataFrame,
    problems: pd.DataFrame | None = None,
    record: CorpusRecord | None = None,
    pack: UnitPack | None = None,
) -> ProblemDetail:
    """Everything the browser shows for one problem; a missing part is a note, not an exception.

    Parameters
    ----------
    corpus, problem_id
        Which problem.
    equations
        The equation table (its rows for this problem are shown).
    problems
        The problem table (its row gives outcome, question form and answer units).
    record
        The problem's corpus record (:func:`index_records`): its text is
        highlighted and its payload bound again to draw the diagram.
    pack
        The pack to bind with (the one the tables were built with; the corpus pack,
        ``en_units_v1+en_counts_v2+en_measures_v1``, when None).

    Raises
    ------
    BrowserError
        ``missing_column`` when a table lacks a documented column.
    """
    _require_columns(equations, (*_KEY_COLUMNS, *DETAIL_COLUMNS), "equations")
    mine = equations[
        (equations["corpus"].astype("object") == corpus) & (equations["problem_id"].astype("object") == problem_id)
    ]
    rows = mine.sort_values("index", kind="stable")[list(DETAIL_COLUMNS)].reset_index(drop=True)
    notes: list[str] = []
    p = corpus_pack() if pack is None else pack
    graph = _bind(record, p, notes)
    return ProblemDetail(
        corpus=corpus,
        problem_id=problem_id,
        text=_record_text(record),
        text_html=_text_html(record, graph, p),
        diagram_svg=_diagram_svg(graph, notes),
        equations=rows,
        problem=_problem_row(problems, corpus, problem_id),
        notes=tuple(notes),
    )


_PROBLEM_FACTS: tuple[str, ...] = (
    "outcome",
    "question_form",
    "target_status",
    "target_reason",
    "predicted_answer_unit",
    "gold_answer_unit",
    "source",
)


# Graphviz sizes its SVG in points; scale it down to the output's width instead of scrolling sideways.
_FIT_SVG = "<style>.ssbg-diagram svg{max-width:100%;height:auto}</style>"


def _detail_html(detail: ProblemDetail) -> str:
    parts = [
        f'<div class="ssbg-problem-detail" data-corpus="{_e(detail.corpus)}" data-problem="{_e(detail.problem_id)}" '
        'style="font-family:sans-serif;font-size:13px">',
        f'<h4 style="margin:4px 0">{_e(detail.corpus)} / {_e(detail.problem_id)}</h4>',
    ]
    facts = [(k, detail.problem[k]) for k in _PROBLEM_FACTS if detail.problem.get(k) is not None]
    if facts:
        items = "; ".join(f"{_e(k)}: <code>{_e(v)}</code>" for k, v in facts)
        parts.append(f'<div class="ssbg-problem-facts">{items}</div>')
    if detail.text_html:
        parts.append(f'<div class="ssbg-problem-text">{detail.text_html}</div>')
    if detail.diagram_svg:
        parts.append(_FIT_SVG + f'<div class="ssbg-diagram">{detail.diagram_svg}</div>')
    if len(detail.equations):
        table = detail.equations.to_html(index=False, na_rep="", escape=True, border=0)
        parts.append(f'<div class="ssbg-equations" style="overflow-x:auto">{table}</div>')
    else:
        parts.append('<div class="ssbg-equations">no equations in the table for this problem</div>')
    parts.extend(f'<div class="ssbg-note">{_e(n)}</div>' for n in detail.notes)
    parts.append("</div>")
    return "".join(parts)
