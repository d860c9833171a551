"""The visual vocabulary of the diagrams, kept apart from the code that uses it.

Each closed vocabulary of :mod:`ssbg.views.scene` (tones, shapes, row styles)
maps here to Graphviz attributes.  Colours are chosen so that a reader tells
apart at a glance: admitted (green), a refusal of its own (red, bold), a
refusal inherited from upstream (orange, dashed), the question target (blue,
double octagon) and the given facts (pale yellow).  Only constants live here;
no text from a problem ever does.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import NamedTuple

__all__ = ["LEGEND", "ROW_STYLES", "SHAPES", "TONES", "NodeStyle", "RowStyle"]


class NodeStyle(NamedTuple):
    """Graphviz attributes of a node (and of its edges) in one tone."""

    color: str  # outline and edge colour
    fillcolor: str
    penwidth: str
    dashed: bool
    fontcolor: str  # colour of the status row


class RowStyle(NamedTuple):
    """How one row of a label is set: font face, size, colour and weight."""

    face: str
    size: str
    color: str | None  # None: the tone's status colour
    bold: bool


TONES: MappingProxyType[str, NodeStyle] = MappingProxyType(
    {
        "admitted": NodeStyle("#1b7f3b", "#e3f4e8", "1.6", False, "#1b7f3b"),
        "refused": NodeStyle("#c62828", "#fde2e2", "2.6", False, "#b71c1c"),
        "propagated": NodeStyle("#e07000", "#fff3e0", "1.8", True, "#b35900"),
        "pending": NodeStyle("#757575", "#f2f2f2", "1.2", True, "#555555"),
        "target": NodeStyle("#1456b8", "#e3eefc", "2.0", False, "#0d3c85"),
        "given": NodeStyle("#8d7b2a", "#fffbe0", "1.2", False, "#5f5218"),
        "entity": NodeStyle("#9e9e9e", "#ffffff", "1.0", False, "#555555"),
        "neutral": NodeStyle("#424242", "#ffffff", "1.2", False, "#333333"),
    }
)

# Scene shape -> (Graphviz shape, extra style words).
SHAPES: MappingProxyType[str, tuple[str, str]] = MappingProxyType(
    {
        "symbol": ("box", "rounded"),
        "entity": ("ellipse", ""),
        "target": ("doubleoctagon", ""),
        "equation": ("box", ""),
    }
)

ROW_STYLES: MappingProxyType[str, RowStyle] = MappingProxyType(
    {
        "title": RowStyle("Helvetica", "13", "#111111", True),
        "id": RowStyle("Courier", "10", "#666666", False),
        "unit": RowStyle("Helvetica", "11", "#333333", False),
        "value": RowStyle("Helvetica", "11", "#5f5218", False),
        "formula": RowStyle("Courier", "11", "#111111", True),
        "kind": RowStyle("Helvetica", "10", "#555555", False),
        "status": RowStyle("Helvetica", "11", None, True),
        "detail": RowStyle("Helvetica", "10", None, False),
        "proof": RowStyle("Courier", "10", "#1b7f3b", False),
        "target": RowStyle("Helvetica", "11", "#0d3c85", False),
        "edge": RowStyle("Helvetica", "10", None, False),
    }
)

# The legend under the title: (tone, text), in reading order.
LEGEND: tuple[tuple[str, str], ...] = (
    ("admitted", "admitted"),
    ("refused", "refused: root cause"),
    ("propagated", "refused: propagated"),
    ("target", "question target"),
    ("given", "given fact"),
)
