"""From a binding graph to a *scene*: the plain dict a renderer draws.

As in displaCy, rendering is kept apart from the domain: this module turns a
:class:`~ssbg.model.SemanticSymbolicBindingGraph` into plain dicts (nodes with
a shape, a tone and rows of raw text; edges with a tone), and
:mod:`ssbg.views.dot` turns those dicts into DOT without ever seeing a
dataclass.  Text in a scene is raw problem text: escaping is the renderer's job.

Two views (:data:`VIEWS`):

- ``"equations"``: symbols and equations as nodes, ``dependency -> equation ->
  lhs`` edges; an equation's tone is its status (admitted, refused as a root
  cause, refused by propagation, pending), its rows say why.
- ``"symbols"``: symbols only, one ``dependency -> lhs`` edge per dependency of
  each equation, labelled with its operation kind; a symbol takes the tone of
  the equation that wrote it.

In both, the question target is a double octagon hung under the symbol that
answers it by an ``answers`` edge (``resolved_by -> target``).

Examples
--------
>>> from ssbg.views.nx import _example
>>> s = equation_scene(_example(), proofs=True)
>>> [(n["id"], n["tone"]) for n in s["nodes"] if n["kind"] == "equation"]
[('eq:000', 'admitted')]
>>> [r["text"] for r in s["nodes"][-1]["rows"] if r["style"] == "proof"]
['proof: apply_rate: [money/time,time] -> money']
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from ssbg.model import BoundEquation, BoundUnknown, SemanticSymbolicBindingGraph, SymbolBinding
from ssbg.views.errors import RenderError
from ssbg.views.nx import _require_graph, equation_node_id

__all__ = [
    "ROW_STYLE_NAMES",
    "SCENE_SHAPES",
    "TONE_NAMES",
    "VIEWS",
    "Row",
    "Scene",
    "SceneEdge",
    "SceneNode",
    "build_scene",
    "equation_scene",
    "equation_tone",
    "symbol_scene",
]

VIEWS: tuple[str, ...] = ("equations", "symbols")
TONE_NAMES: frozenset[str] = frozenset(
    {"admitted", "refused", "propagated", "pending", "target", "given", "entity", "neutral"}
)
SCENE_SHAPES: frozenset[str] = frozenset({"symbol", "entity", "target", "equation"})
ROW_STYLE_NAMES: frozenset[str] = frozenset(
    {"title", "id", "unit", "value", "formula", "kind", "status", "detail", "proof", "target", "edge"}
)


class Row(TypedDict):
    """One line of a label: raw text, a style from :data:`ROW_STYLE_NAMES` and,
    for status rows, the tone whose colour they take (else the node's)."""

    text: str
    style: str
    tone: NotRequired[str]


class SceneNode(TypedDict):
    id: str
    kind: str  # "symbol" or "equation"
    shape: str  # one of SCENE_SHAPES
    tone: str  # one of TONE_NAMES
    rows: list[Row]


class SceneEdge(TypedDict):
    tail: str
    head: str
    tone: str
    rows: list[Row]


class Scene(TypedDict):
    view: str
    title: str
    nodes: list[SceneNode]
    edges: list[SceneEdge]


def equation_tone(eq: BoundEquation) -> str:
    """``admitted``, ``refused`` (a root cause), ``propagated`` or ``pending``."""
    if eq.admissibility_status == "refused":
        return "refused" if eq.is_root_cause else "propagated"
    return eq.admissibility_status


def _row(text: str, style: str, tone: str | None = None) -> Row:
    row: Row = {"text": text, "style": style}
    if tone is not None:
        row["tone"] = tone
    return row


def _status_rows(eq: BoundEquation, *, proofs: bool) -> list[Row]:
    tone = equation_tone(eq)
    rows: list[Row] = []
    if tone == "admitted":
        rows.append(_row("admitted", "status", tone))
        if proofs:
            rows.append(_row(f"proof: {eq.unit_proof}", "proof"))
    elif tone == "pending":
        rows.append(_row("pending (not checked)", "status", tone))
    else:
        head = "REFUSED" if tone == "refused" else f"REFUSED via {eq.propagated_from}"
        rows.append(_row(f"{head}: {eq.refusal_reason}", "status", tone))
        if eq.refusal_detail is not None:
            rows.append(_row(eq.refusal_detail, "detail", tone))
        if eq.offending_unit is not None:
            rows.append(_row(f"offending unit: {eq.offending_unit}", "detail", tone))
    return rows


def _target_rows(unknown: BoundUnknown) -> list[Row]:
    rows = [_row(f"question target: {unknown.question_form}, state {unknown.state_index}", "target")]
    if unknown.expected_unit is not None:
        rows.append(_row(f"expected unit: {unknown.expected_unit}", "target"))
    if unknown.resolved_by is not None:
        unit = f" ({unknown.resolved_unit})" if unknown.resolved_unit is not None else ""
        rows.append(_row(f"answered by {unknown.resolved_by}{unit}", "target"))
    if unknown.target_status == "refused":
        rows.append(_row(f"TARGET REFUSED: {unknown.target_refusal_reason}", "status", "refused"))
        if unknown.target_refusal_detail is not None:
            rows.append(_row(unknown.target_refusal_detail, "detail", "refused"))
    elif unknown.target_status == "pending":
        rows.append(_row("target pending", "status", "pending"))
    return rows


_TARGET_TONE = {"bound": "target", "refused": "refused", "pending": "pending"}


class _Index:
    """Lookups a scene needs, computed once per graph (plain dicts, never shared)."""

    def __init__(self, bg: SemanticSymbolicBindingGraph) -> None:
        self.facts: dict[str, list[str]] = {}
        for fact in bg.facts:
            unit = f" {fact.unit}" if fact.unit is not None else ""
            self.facts.setdefault(fact.symbol_id, []).append(f"= {fact.value}{unit}")
        self.targets: dict[str, BoundUnknown] = {}
        for unknown in bg.unknowns:
            self.targets.setdefault(unknown.symbol_id, unknown)
        self.writers: dict[str, list[BoundEquation]] = {}
        for eq in bg.equations:
            self.writers.setdefault(eq.lhs_symbol_id, []).append(eq)

    def symbol_tone(self, symbol: SymbolBinding, *, by_writer: bool) -> str:
        target = self.targets.get(symbol.symbol_id)
        if target is not None:
            return _TARGET_TONE[target.target_status]
        if by_writer and symbol.symbol_id in self.writers:
            tones = {equation_tone(eq) for eq in self.writers[symbol.symbol_id]}
            for tone in ("refused", "propagated", "pending", "admitted"):
                if tone in tones:
                    return tone
        if symbol.symbol_id in self.facts:
            return "given"
        return "entity" if symbol.semantic_role == "entity" else "neutral"

    def symbol_node(self, symbol: SymbolBinding, *, by_writer: bool, extra: list[Row]) -> SceneNode:
        sid = symbol.symbol_id
        shape = "target" if sid in self.targets else "entity" if symbol.semantic_role == "entity" else "symbol"
        rows = [_row(symbol.name, "title"), _row(f"{sid} · {symbol.semantic_role}", "id")]
        if symbol.unit is not None:
            rows.append(_row(f"unit: {symbol.unit}", "unit"))
        rows.extend(_row(text, "value") for text in self.facts.get(sid, ()))
        rows.extend(extra)
        if sid in self.targets:
            rows.extend(_target_rows(self.targets[sid]))
        return {"id": sid, "kind": "symbol", "shape": shape, "tone": self.symbol_tone(symbol, by_writer=by_writer),
                "rows": rows}


def _answer_edges(bg: SemanticSymbolicBindingGraph) -> list[SceneEdge]:
    """``resolved_by -> target`` edges, so the question hangs under the symbol that answers it.

    None when the target is itself the lhs of its resolving equation (a summed total).
    """
    return [
        {"tail": u.resolved_by, "head": u.symbol_id, "tone": _TARGET_TONE[u.target_status],
         "rows": [_row("answers", "edge")]}
        for u in bg.unknowns
        if u.resolved_by is not None and u.resolved_by != u.symbol_id
    ]


def equation_scene(bg: SemanticSymbolicBindingGraph, *, proofs: bool = False) -> Scene:
    """The equation view: symbol and equation nodes, ``dependency -> equation -> lhs``.

    ``proofs=True`` adds the unit proof to every admitted equation.
    """
    graph = _require_graph(bg)
    index = _Index(graph)
    nodes = [index.symbol_node(s, by_writer=False, extra=[]) for s in graph.symbols]
    edges: list[SceneEdge] = []
    refused_lhs = {eq.lhs_symbol_id for eq in graph.equations if eq.admissibility_status == "refused"}
    for i, eq in enumerate(graph.equations):
        node = equation_node_id(i)
        tone = equation_tone(eq)
        rows = [
            _row(f"{eq.lhs_symbol_id} := {eq.rhs_canonical}", "formula"),
            _row(eq.operation_kind, "kind"),
            *_status_rows(eq, proofs=proofs),
        ]
        nodes.append({"id": node, "kind": "equation", "shape": "equation", "tone": tone, "rows": rows})
        for dep in sorted(eq.dependencies):
            # A refusal flowing into this equation is drawn as the dashed propagated tone.
            dep_tone = "propagated" if dep in refused_lhs else "neutral"
            edges.append({"tail": dep, "head": node, "tone": dep_tone, "rows": []})
        edges.append({"tail": node, "head": eq.lhs_symbol_id, "tone": tone, "rows": []})
    edges.extend(_answer_edges(graph))
    return {"view": "equations", "title": graph.provenance, "nodes": nodes, "edges": edges}


def symbol_scene(bg: SemanticSymbolicBindingGraph, *, proofs: bool = False) -> Scene:
    """The symbol view: symbols only, ``dependency -> lhs`` edges labelled with the kind.

    A symbol written by an equation takes that equation's tone and lists its
    kind and status (and, with ``proofs=True``, the unit proof).
    """
    graph = _require_graph(bg)
    index = _Index(graph)
    nodes: list[SceneNode] = []
    for symbol in graph.symbols:
        extra: list[Row] = []
        for eq in index.writers.get(symbol.symbol_id, ()):
            extra.append(_row(f"{eq.lhs_symbol_id} := {eq.rhs_canonical}", "formula"))
            extra.extend(_status_rows(eq, proofs=proofs))
        nodes.append(index.symbol_node(symbol, by_writer=True, extra=extra))
    edges: list[SceneEdge] = []
    for eq in graph.equations:
        tone = equation_tone(eq)
        edges.extend(
            {"tail": dep, "head": eq.lhs_symbol_id, "tone": tone, "rows": [_row(eq.operation_kind, "edge")]}
            for dep in sorted(eq.dependencies)
        )
    edges.extend(_answer_edges(graph))
    return {"view": "symbols", "title": graph.provenance, "nodes": nodes, "edges": edges}


def build_scene(bg: SemanticSymbolicBindingGraph, *, view: str = "equations", proofs: bool = False) -> Scene:
    """Dispatch on ``view`` (one of :data:`VIEWS`); an unknown view raises ``RenderError``.

    >>> from ssbg.views.nx import _example
    >>> build_scene(_example(), view="symbols")["edges"][0]["rows"]
    [{'text': 'apply_rate', 'style': 'edge'}]
    """
    builders = {"equations": equation_scene, "symbols": symbol_scene}
    builder = builders.get(view) if isinstance(view, str) else None
    if builder is None:
        raise RenderError(f"'view' must be one of {list(VIEWS)} (got {view!r})", reason="unknown_view",
                          path="view", detail=repr(view))
    return builder(bg, proofs=proofs)
