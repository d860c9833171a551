"""Text as ssbg's outputs show it (core): CSV cells other tools read as written, HTML and SVG text shown as written.

- **CSV cells** (:func:`csv_cell`): at most :data:`MAX_CELL_CHARS` characters, so that every CSV
  ssbg writes reads with the default settings of Python's ``csv`` module (its field limit is
  131,072) and fits a spreadsheet cell (32,767); a longer text is cut and ends by stating its
  full length.  A cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is
  prefixed with ``'``, as spreadsheet-safe exporters do (OWASP's CSV injection advice): a
  spreadsheet shows it as text instead of running it as a formula.  Numbers are not cells of
  text and are written as they are.
- **Bidirectional controls** (:data:`BIDI_CONTROLS`: the embeddings, overrides and isolates
  U+202A-U+202E and U+2066-U+2069, the marks U+200E, U+200F and U+061C): shown as visible
  escapes (``\\u202e``) in HTML and SVG (:func:`show_controls`, :func:`html_text`), so that an
  unclosed override in a question cannot reorder the rest of a page.

>>> csv_cell('=HYPERLINK("http://x")'), csv_cell("-5 apples"), csv_cell("a1")
('\\'=HYPERLINK("http://x")', "'-5 apples", 'a1')
>>> html_text("abc\\u202edef <b>")
'abc\\\\u202edef &lt;b&gt;'
>>> len(csv_cell("x" * 200_000)) <= MAX_CELL_CHARS, csv_cell("x" * 200_000)[-40:]
(True, 'xxxxxxxxxxx... [cut: 200,000 characters]')
"""

from __future__ import annotations

import html
import os
from typing import Any

__all__ = [
    "BIDI_CONTROLS", "CSV_ROWS", "MAX_CELL_CHARS", "csv_cell", "csv_text", "html_text", "show_controls", "write_csv",
]

MAX_CELL_CHARS = 32_000
"""The most characters of a CSV cell (Python's csv reads 131,072 by default, a spreadsheet cell holds 32,767)."""

BIDI_CONTROLS: frozenset[str] = frozenset(
    [chr(c) for c in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))]
)
"""The characters that reorder text shown right to left (Unicode's bidirectional formatting characters)."""

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_TABLE = {ord(c): f"\\u{ord(c):04x}" for c in BIDI_CONTROLS}


def csv_cell(text: str) -> str:
    """A text as a CSV cell: cut to :data:`MAX_CELL_CHARS` (its full length stated), a formula start neutralised."""
    if len(text) > MAX_CELL_CHARS:
        tail = f"... [cut: {len(text):,} characters]"
        text = text[: MAX_CELL_CHARS - len(tail) - 1] + tail
    if text.startswith(_FORMULA_STARTS):
        return "'" + text
    return text


def show_controls(text: str) -> str:
    """``text`` with every bidirectional control spelled as a visible escape (``\\u202e``)."""
    return text.translate(_TABLE)


def html_text(value: object, quote: bool = True) -> str:
    """A value as HTML text: escaped (``html.escape``) with its bidirectional controls shown."""
    return html.escape(show_controls(str(value)), quote=quote)


def csv_text(frame: Any) -> str:
    """A pandas DataFrame as CSV text every reader takes as written: each text cell through :func:`csv_cell`;
    numbers, booleans and missing values as pandas writes them (a frame with no text cell to change is
    written as it is)."""
    text: str = _safe_cells(frame).to_csv(index=False, lineterminator="\n")
    return text


CSV_ROWS = 50_000
"""Rows of a table :func:`write_csv` turns into text at a time."""


def write_csv(frame: Any, path: str | os.PathLike[str], rows: int = CSV_ROWS) -> None:
    """Write :func:`csv_text` of ``frame`` to ``path`` (UTF-8, as ``Path.write_text`` writes) ``rows`` rows at a
    time, so that a table of millions of rows is never held as one text (nor copied whole to make its cells
    safe); the bytes are those of ``csv_text(frame)``."""
    with open(path, "w", encoding="utf-8") as f:
        for start in range(0, max(len(frame), 1), rows):  # an empty table: its header
            part = _safe_cells(frame.iloc[start : start + rows])
            f.write(part.to_csv(index=False, header=start == 0, lineterminator="\n"))


def _safe_cells(frame: Any) -> Any:
    """``frame`` with each text cell through :func:`csv_cell` (``frame`` itself when no cell changes)."""
    safe = frame
    for name in frame.columns:
        column = frame[name]
        if str(column.dtype) == "object" or str(column.dtype).startswith("str"):  # object, string, str (pandas 3)
            changed = column.map(lambda v: csv_cell(v) if isinstance(v, str) else v)
            if not changed.equals(column):
                if safe is frame:
                    safe = frame.copy()
                safe[name] = changed
    return safe
