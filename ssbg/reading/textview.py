"""A problem's text with its quantity mentions highlighted (an HTML view, after spaCy's displaCy).

Rendering is split the displaCy way: :func:`text_spans` turns a trace (and its
binding graph) into a plain dict of spans, :func:`render_spans` turns such a
dict into HTML through the templates below, and :func:`render_text` does both
and returns a :class:`TextView` that displays itself in Jupyter.  Each mention
is coloured by its unit's dimension (money, time, a rate, an open unit the pack
lacks, ...) and carries the id of the symbol it binds to; implicit constants
whose cue words stand alone in the text are marked too.  All text is escaped.

Examples
--------
>>> from ssbg.trace import Trace
>>> t = Trace.from_dict({"problem_id": "p1", "corpus": "example", "text": "Ann earns $12 an hour <b>.",
...     "mentions": [{"start": 10, "end": 21, "text": "$12 an hour", "value": 12, "unit": "$ per hour"}],
...     "steps": [{"op": "add", "operands": [{"mention": 0}, {"mention": 0}]}]})
>>> view = render_text(t)
>>> 'data-symbol="q_dollar_per_hour_000"' in view.html, "&lt;b&gt;" in view.html, "<b>" in view.html
(True, True, False)
>>> text_spans(t)["spans"][0]["category"]
'rate'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ssbg.errors import ProblemGraphError
from ssbg.model import SemanticSymbolicBindingGraph
from ssbg.outputs import html_text
from ssbg.reading.choosing import bind_choosing
from ssbg.reading.records import CorpusRecord
from ssbg.trace import Trace
from ssbg.units import UnitPack, default_pack

__all__ = ["CATEGORY_COLORS", "TextView", "render_spans", "render_text", "text_spans", "tidy_numbers", "unit_category"]

# ------------------------------------------------------------------ templates

CATEGORY_COLORS: Mapping[str, str] = MappingProxyType(
    {
        "money": "#b7e4c7",
        "time": "#bde0fe",
        "length": "#ffd6a5",
        "area": "#ffc6a5",
        "volume": "#caffbf",
        "mass": "#e2c2ff",
        "count": "#fdffb6",
        "temperature": "#ffadad",
        "dimensionless": "#e9ecef",
        "rate": "#a0c4ff",
        "unknown": "#f8d7da",
        "pure": "#dee2e6",
        "number": "#f1f3f5",
    }
)
"""Background colour by category: the dimension of a unit the pack resolves, ``rate`` for any
``X per Y``, ``unknown`` for a unit outside the pack, ``pure`` for a multiplier or fraction,
``number`` for a bare number."""

_TPL_PAGE = (
    '<div class="ssbg-text" style="line-height:2.3;font-family:sans-serif;max-width:52em">'
    '<div style="font-size:0.8em;color:#666">{title}</div>{body}{legend}</div>'
)
_TPL_BLOCK = '<p style="margin:0.4em 0" data-source="{source}">{label}{content}</p>'
_TPL_MARK = (
    '<mark class="ssbg-mention" data-symbol="{symbol}" data-category="{category}" title="{tooltip}" '
    'style="background:{color};padding:0.2em 0.35em;border-radius:0.3em;{extra}">{text}'
    '<span style="font-size:0.65em;font-weight:bold;margin-left:0.4em;vertical-align:middle">{label}</span></mark>'
)
_TPL_LEGEND_ITEM = (
    '<span style="background:{color};padding:0.1em 0.4em;margin-right:0.3em;border-radius:0.3em">{name}</span>'
)
_TPL_LEGEND = '<div style="font-size:0.75em;margin-top:0.6em">{items}</div>'
_TPL_REFUSAL = '<p style="color:#a4161a;font-size:0.85em">not imported: {reason} ({detail})</p>'
_CUE_STYLE = "border:1px dashed #495057"
_EMPHASIS_STYLE = ";outline:2px solid #a4161a;outline-offset:1px"  # a span with "emphasis": what a verdict concerns

_DOMAIN_CATEGORY = {
    "money": "money",
    "time": "time",
    "length": "length",
    "area": "area",
    "volume": "volume",
    "mass": "mass",
    "count": "count",
    "temperature": "temperature",
    "dimensionless": "dimensionless",
}


def unit_category(unit: str | None, pack: UnitPack, *, pure: bool = False) -> str:
    """The colour category of a unit as written (see :data:`CATEGORY_COLORS`).

    >>> from ssbg.units import default_pack
    >>> [unit_category(u, default_pack()) for u in ("$", "hours", "miles per hour", "clips", None)]
    ['money', 'time', 'rate', 'unknown', 'number']
    """
    if unit is None:
        return "pure" if pure else "number"
    try:
        resolved = pack.resolve(unit)
    except ValueError:
        return "rate" if " per " in unit else "unknown"
    if resolved.is_rate:
        return "rate"
    entry = pack.entries.get(resolved.lemma)
    domain = entry.domain if entry is not None else ""
    return _DOMAIN_CATEGORY.get(domain, "dimensionless" if resolved.dimension.is_dimensionless else "unknown")


# ------------------------------------------------------------------ domain -> dicts


@dataclass(frozen=True)
class TextView:
    """A rendered text view: ``html`` to embed, ``data`` the plain spans it was rendered from."""

    html: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def _repr_html_(self) -> str:
        return self.html

    def __str__(self) -> str:
        return self.html


def text_spans(
    trace: Trace,
    *,
    graph: SemanticSymbolicBindingGraph | None = None,
    pack: UnitPack | None = None,
    constants: bool = True,
) -> dict[str, Any]:
    """The plain-dict form of a trace's highlighted text: one dict per mention (and constant cue).

    Keys: ``title``, ``text``, ``solution`` (or None), ``spans`` (each with
    ``source`` ``text``/``solution``, ``start``, ``end``, ``text``, ``symbol``,
    ``unit``, ``lemma``, ``category``, ``kind`` ``mention``/``constant``), ``categories``.
    """
    if not isinstance(trace, Trace):
        raise ProblemGraphError(f"text_spans needs a Trace (got {type(trace).__name__})", reason="wrong_type", path="$")
    p = default_pack() if pack is None else pack
    g = bind_choosing(trace, pack=p) if graph is None else graph
    by_span: dict[tuple[str, int, int], str] = {}
    for symbol in g.symbols:
        link = symbol.source_span
        by_span.setdefault((link.source_id, link.start, link.end), symbol.symbol_id)
    solution_source = f"{trace.problem_id}:solution"
    spans: list[dict[str, Any]] = []
    for m in trace.mentions:
        source_id = trace.problem_id if m.source == "text" else solution_source
        spans.append(
            {
                "source": m.source,
                "start": m.start,
                "end": m.end,
                "text": m.text,
                "symbol": by_span.get((source_id, m.start, m.end), ""),
                "unit": m.unit,
                "lemma": m.lemma,
                "category": unit_category(m.unit, p, pure=m.is_pure),
                "kind": "mention",
            }
        )
    if constants:
        taken = [(s["start"], s["end"]) for s in spans if s["source"] == "text"]
        for symbol in g.symbols:
            link = symbol.source_span
            if not symbol.symbol_id.startswith("c_") or link.source_id != trace.problem_id:
                continue
            if any(a < link.end and link.start < b for a, b in taken):
                continue  # a cue inside a mention ("hour" of "$12 an hour") shows on the mention's symbol
            taken.append((link.start, link.end))
            spans.append(
                {
                    "source": "text",
                    "start": link.start,
                    "end": link.end,
                    "text": link.text,
                    "symbol": symbol.symbol_id,
                    "unit": symbol.unit,
                    "lemma": None,
                    "category": unit_category(symbol.unit, p, pure=symbol.semantic_role == "ratio"),
                    "kind": "constant",
                }
            )
    spans.sort(key=lambda s: (s["source"] != "text", s["start"]))
    return {
        "title": f"{trace.corpus} {trace.problem_id}",
        "text": trace.text,
        "solution": trace.solution if any(s["source"] == "solution" for s in spans) else None,
        "spans": spans,
        "categories": sorted({s["category"] for s in spans}),
    }


# ------------------------------------------------------------------ dicts -> HTML


def _e(text: object) -> str:
    return html_text(text)  # escaped, bidirectional controls shown (ssbg.outputs)


_ZERO_FRACTION = re.compile(r"(?<![\d.,])(\d+)\.0(?![\d.]|,\d)")


def tidy_numbers(text: str) -> str:
    """A text as shown: a whole number the corpus writes with a ``.0`` (CogComp's ``64.0 shells``) without
    it; every other character as it is (prices such as ``$7.00`` too; the tables keep the corpus's text).

    >>> tidy_numbers("Jill found 64.0 shells, paid $7.0, not $7.00 or 2.50 or 1.05 or 3.0.1")
    'Jill found 64 shells, paid $7, not $7.00 or 2.50 or 1.05 or 3.0.1'
    """
    return _ZERO_FRACTION.sub(r"\1", text)


def _block(text: str, spans: list[dict[str, Any]], source: str, label: str) -> str:
    out: list[str] = []
    cursor = 0
    for s in spans:
        start, end = s["start"], s["end"]
        if start < cursor:  # overlapping spans are not drawn twice
            continue
        out.append(_e(tidy_numbers(text[cursor:start])).replace("\n", "<br>"))
        unit = s["unit"] or "no unit"
        tooltip = f"{s['symbol'] or '-'} · {unit}" + (f" ({s['lemma']})" if s["lemma"] else "") + f" · {s['category']}"
        out.append(
            _TPL_MARK.format(
                symbol=_e(s["symbol"]),
                category=_e(s["category"]),
                tooltip=_e(tooltip),
                color=CATEGORY_COLORS.get(s["category"], "#ffffff"),
                extra=(_CUE_STYLE if s["kind"] == "constant" else "") + (_EMPHASIS_STYLE if s.get("emphasis") else ""),
                text=_e(tidy_numbers(s["text"])),
                label=_e(s["unit"] or s["category"]),  # the words ssbg read; the symbol id is in the tooltip
            )
        )
        cursor = end
    out.append(_e(tidy_numbers(text[cursor:])).replace("\n", "<br>"))
    return _TPL_BLOCK.format(source=_e(source), label=label, content="".join(out))


def render_spans(data: Mapping[str, Any], *, refusal: tuple[str, str] | None = None) -> str:
    """HTML for the plain dict of :func:`text_spans` (templates only see plain data); a span whose
    ``emphasis`` is true is outlined (what a verdict of :mod:`ssbg.checking` concerns)."""
    text_spans_ = [s for s in data.get("spans", ()) if s["source"] == "text"]
    body = _block(data["text"], text_spans_, "text", "")
    if data.get("solution"):
        solution_spans = [s for s in data["spans"] if s["source"] == "solution"]
        body += _block(data["solution"], solution_spans, "solution", "<b>solution</b> ")
    if refusal is not None:
        body += _TPL_REFUSAL.format(reason=_e(refusal[0]), detail=_e(refusal[1]))
    items = "".join(_TPL_LEGEND_ITEM.format(color=CATEGORY_COLORS[c], name=_e(c)) for c in data.get("categories", ()))
    legend = _TPL_LEGEND.format(items=items) if items else ""
    return _TPL_PAGE.format(title=_e(data.get("title", "")), body=body, legend=legend)


def render_text(
    item: Trace | CorpusRecord,
    *,
    graph: SemanticSymbolicBindingGraph | None = None,
    pack: UnitPack | None = None,
    constants: bool = True,
) -> TextView:
    """Highlight a problem's mentions (a trace, or a corpus record: a refused one shows its text and reason).

    Raises
    ------
    ProblemGraphError
        ``wrong_type`` for anything but a :class:`~ssbg.trace.Trace` or a
        :class:`~ssbg.reading.records.CorpusRecord`; ``missing_field`` for a
        refused record without text.
    """
    if isinstance(item, CorpusRecord):
        if isinstance(item.payload, Trace):
            return render_text(item.payload, graph=graph, pack=pack, constants=constants)
        if item.refusal is not None:
            if item.text is None:
                raise ProblemGraphError(
                    "a refused record without text has nothing to show", reason="missing_field", path="text"
                )
            data: dict[str, Any] = {"title": f"{item.corpus} {item.problem_id}", "text": item.text,
                                    "solution": None, "spans": [], "categories": []}  # fmt: skip
            detail = item.refusal.detail or item.refusal.message
            return TextView(render_spans(data, refusal=(item.refusal.reason, detail)), data)
        raise ProblemGraphError(
            f"render_text shows traces (got a {type(item.payload).__name__} payload)",
            reason="wrong_type",
            path="payload",
        )
    data = text_spans(item, graph=graph, pack=pack, constants=constants)
    return TextView(render_spans(data), data)
