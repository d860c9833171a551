"""A verdict as HTML: the solution with its steps marked beside the question's highlighted mentions.

Rendered the displaCy way, as the text view is: :meth:`~ssbg.checking.verdict.Verdict.view_data`
turns a verdict into plain dicts, :func:`render_verdict_data` turns those into HTML through the
templates below (it never sees a verdict), ``Verdict.html()`` does both.  The question
is the text view's (:mod:`ssbg.reading.textview`: mentions coloured by unit, the ones the
findings concern outlined); each step of the solution is marked by what became of it (an
error finding, a coverage gap, admitted, propagated, not read), with its findings as a
tooltip and listed below.  All text is escaped.

Examples
--------
>>> from ssbg.checking.verdict import check_solution
>>> v = check_solution("Ann has 3 bags of 4 kg <b>. How many kg?", "3 * 5 = <<3*5=15>>15 kg")
>>> page = render_verdict_data(v.view_data())
>>> 'data-status="error"' in page, "&lt;b&gt;" in page, "<b>." in page
(True, True, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ssbg.outputs import html_text
from ssbg.reading.textview import render_spans

__all__ = ["STATUS_COLORS", "render_verdict_data"]

STATUS_COLORS: Mapping[str, str] = MappingProxyType(
    {
        "sound": "#2d6a4f",
        "error": "#a4161a",
        "unverifiable": "#8a6d00",
        "admitted": "#d8f3dc",
        "coverage": "#ffe8a1",
        "propagated": "#e9ecef",
        "unread": "#f1f3f5",
    }
)
"""The verdict badge's colour, and a step's background by its status (an error step is outlined red)."""

_TPL_PAGE = (
    '<div class="ssbg-verdict" data-status="{status}" style="font-family:sans-serif;max-width:90em">'
    '<div style="margin-bottom:0.5em"><span style="background:{color};color:white;padding:0.15em 0.6em;'
    'border-radius:0.3em;font-weight:bold">{status}</span> <span style="color:#555">{summary}</span></div>'
    '<div style="display:flex;gap:1.5em;flex-wrap:wrap;align-items:flex-start">'
    '<div style="flex:1 1 26em"><div style="font-size:0.8em;color:#666">question</div>{question}</div>'
    '<div style="flex:1 1 26em"><div style="font-size:0.8em;color:#666">solution</div>'
    '<div style="white-space:pre-wrap;line-height:2.1;font-family:monospace;font-size:0.92em">{solution}</div>'
    "</div></div>{findings}</div>"
)
_TPL_STEP = (
    '<mark class="ssbg-step" data-step="{index}" data-status="{status}" data-user-step="{user_step}" title="{tooltip}" '
    'style="background:{color};padding:0.15em 0.2em;border-radius:0.25em;{extra}">{text}</mark>'
)
_ERROR_STEP = "outline:2px solid #a4161a;outline-offset:1px"
_TPL_FINDINGS = '<ul style="font-size:0.85em;margin-top:0.6em">{items}</ul>'
_TPL_FINDING = '<li data-family="{family}" style="color:{color}">{text}</li>'


def _e(text: object) -> str:
    return html_text(text)  # escaped, bidirectional controls shown (ssbg.outputs)


def render_verdict_data(data: Mapping[str, Any]) -> str:
    """HTML for the plain dict of :func:`verdict_data` (the templates see only plain data)."""
    text = data["solution"]
    out: list[str] = []
    cursor = 0
    for s in data["steps"]:
        start, end = s["start"], s["end"]
        if start < cursor or end <= start:
            continue  # overlapping marks are not drawn twice
        out.append(_e(text[cursor:start]))
        status = s["status"]
        out.append(
            _TPL_STEP.format(
                index=_e(s["index"]),
                user_step=_e("" if s.get("user_step") is None else s["user_step"]),
                status=_e(status),
                tooltip=_e("\n".join(s["notes"]) or status),
                color=STATUS_COLORS.get(status, "#ffffff") if status != "error" else "#f8d7da",
                extra=_ERROR_STEP if status == "error" else "",
                text=_e(text[start:end]),
            )
        )
        cursor = end
    out.append(_e(text[cursor:]))
    items = "".join(
        _TPL_FINDING.format(family=_e(family), color=STATUS_COLORS["error"] if family == "error" else "#555",
                            text=_e(sentence))
        for family, sentence in data["findings"]
    )
    return _TPL_PAGE.format(
        status=_e(data["status"]),
        color=STATUS_COLORS.get(data["status"], "#555"),
        summary=_e(data["summary"]),
        question=render_spans(data["question"]),
        solution="".join(out),
        findings=_TPL_FINDINGS.format(items=items) if items else "",
    )

