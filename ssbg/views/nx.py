"""A binding graph as a networkx ``DiGraph``, and back (SPEC section 8).

:func:`to_networkx` puts every symbol and every equation on a node (a ``kind``
attribute says which), draws ``dependency -> equation -> lhs`` edges and keeps
every field of the dataclasses as a plain, JSON-able attribute (spans as dicts,
frozensets as sorted lists); facts, unknowns, constraints, the provenance and
the content hash sit on the graph.  :func:`from_networkx` reads such a graph
back into an equal :class:`~ssbg.model.SemanticSymbolicBindingGraph` and refuses
anything that is not one with a :class:`~ssbg.errors.BindingGraphError` whose
``path`` names the node or attribute (``G.nodes['op_000_result'].unit``).
:func:`symbol_graph` is the symbol-only projection: one ``dependency -> lhs``
edge per equation, labelled with its operation kind and status.

networkx is imported inside the functions: ``import ssbg.views`` stays cheap.

Examples
--------
>>> import networkx as nx
>>> from ssbg.views.nx import from_networkx, to_networkx
>>> bg = _example()
>>> G = to_networkx(bg)
>>> sorted(nx.ancestors(G, "op_000_result"))
['eq:000', 'op_000__rate', 't0_ann_time']
>>> from_networkx(G) == bg
True
"""

from __future__ import annotations

import dataclasses
import re
import typing
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ssbg.errors import BindingGraphError
from ssbg.model import (
    BoundConstraint,
    BoundEquation,
    BoundFact,
    BoundUnknown,
    SemanticSymbolicBindingGraph,
    SourceSpanLink,
    SymbolBinding,
)
from ssbg.views.errors import RenderError

if TYPE_CHECKING:
    import networkx

__all__ = [
    "EQUATION_NODE_PREFIX",
    "NODE_KINDS",
    "equation_node_id",
    "from_networkx",
    "symbol_graph",
    "to_networkx",
]

NODE_KINDS: frozenset[str] = frozenset({"symbol", "equation"})
EQUATION_NODE_PREFIX = "eq:"

# Graph-level collections: attribute name -> item class.  The item order is the
# list order; node order comes from each node's ``index`` attribute.
_GRAPH_COLLECTIONS: tuple[tuple[str, type], ...] = (
    ("facts", BoundFact),
    ("unknowns", BoundUnknown),
    ("constraints", BoundConstraint),
)
_DECODED_CLASSES: tuple[type, ...] = (
    SourceSpanLink, SymbolBinding, BoundFact, BoundEquation, BoundUnknown, BoundConstraint,
)
# Class -> its fields in order, with resolved type hints (evaluated once: the model is fixed).
_FIELDS: MappingProxyType[type, tuple[tuple[str, Any], ...]] = MappingProxyType({
    cls: tuple((f.name, typing.get_type_hints(cls)[f.name]) for f in dataclasses.fields(cls))
    for cls in _DECODED_CLASSES
})
_COLLECTION_PATH = re.compile(r"^(symbols|equations|facts|unknowns|constraints)\[(\d+)\](.*)$")


def _networkx() -> Any:
    try:
        import networkx as nx
    except ImportError:  # pragma: no cover - networkx is a declared extra
        raise RenderError(
            "the networkx views need networkx: pip install 'ssbg[views]'",
            reason="package_missing",
            detail="networkx",
        ) from None
    return nx


def equation_node_id(index: int) -> str:
    """The node id of the ``index``-th equation (symbol ids never contain ``:``).

    >>> equation_node_id(7)
    'eq:007'
    """
    return f"{EQUATION_NODE_PREFIX}{index:03d}"


# --------------------------------------------------------------------- encode


def _plain(value: object) -> object:
    """A field value as plain JSON data."""
    if isinstance(value, SourceSpanLink):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if isinstance(value, frozenset):
        return sorted(value)
    return value


def _fields_dict(item: object) -> dict[str, object]:
    return {f.name: _plain(getattr(item, f.name)) for f in dataclasses.fields(item)}  # type: ignore[arg-type]


def _require_graph(bg: object) -> SemanticSymbolicBindingGraph:
    if not isinstance(bg, SemanticSymbolicBindingGraph):
        raise BindingGraphError(
            f"expected a SemanticSymbolicBindingGraph (got {type(bg).__name__})",
            reason="invalid_field",
            path="bg",
            detail=type(bg).__name__,
        )
    return bg


def to_networkx(bg: SemanticSymbolicBindingGraph) -> networkx.DiGraph[str]:
    """The binding graph as a ``DiGraph`` of symbol and equation nodes.

    Parameters
    ----------
    bg
        A binding graph.

    Returns
    -------
    networkx.DiGraph
        Nodes: every symbol under its ``symbol_id`` and every equation under
        :func:`equation_node_id`, each with ``kind`` (``"symbol"`` or
        ``"equation"``), ``index`` (its position in its collection) and every
        dataclass field.  Edges: ``dependency -> equation`` (``role`` =
        ``"dependency"``) and ``equation -> lhs`` (``role`` = ``"lhs"``).  Graph
        attributes: ``provenance``, ``facts``, ``unknowns``, ``constraints``
        (lists of field dicts) and ``content_hash``.  Everything is JSON-able.

    Raises
    ------
    BindingGraphError
        ``invalid_field`` when ``bg`` is not a binding graph.

    Examples
    --------
    >>> G = to_networkx(_example())
    >>> G.nodes["eq:000"]["operation_kind"], G.nodes["op_000_result"]["unit"]
    ('apply_rate', 'dollars')
    >>> G.graph["unknowns"][0]["target_status"]
    'bound'
    """
    graph = _require_graph(bg)
    nx = _networkx()
    digraph: networkx.DiGraph[str] = nx.DiGraph()
    digraph.graph["provenance"] = graph.provenance
    for name, _cls in _GRAPH_COLLECTIONS:
        digraph.graph[name] = [_fields_dict(item) for item in getattr(graph, name)]
    digraph.graph["content_hash"] = graph.content_hash
    for i, symbol in enumerate(graph.symbols):
        digraph.add_node(symbol.symbol_id, kind="symbol", index=i, **_fields_dict(symbol))
    for i, eq in enumerate(graph.equations):
        node = equation_node_id(i)
        digraph.add_node(node, kind="equation", index=i, **_fields_dict(eq))
        for dep in sorted(eq.dependencies):
            digraph.add_edge(dep, node, role="dependency")
        digraph.add_edge(node, eq.lhs_symbol_id, role="lhs")
    return digraph


def symbol_graph(bg: SemanticSymbolicBindingGraph) -> networkx.MultiDiGraph[str]:
    """The symbol-only projection: one ``dependency -> lhs`` edge per equation.

    A ``MultiDiGraph`` keyed by the equation's node id, so two equations between
    the same symbols stay two edges.  Nodes carry the symbol fields (as in
    :func:`to_networkx`) plus ``is_target`` (an unknown binds to it); edges
    carry ``equation``, ``operation_kind``, ``admissibility_status``,
    ``refusal_reason``, ``propagated_from`` and ``unit_proof``.  Not meant to be
    read back: use :func:`to_networkx` for a lossless form.

    Examples
    --------
    >>> s = symbol_graph(_example())
    >>> [(u, v, d["operation_kind"]) for u, v, d in s.edges(data=True)]
    [('t0_ann_time', 'op_000_result', 'apply_rate'), ('op_000__rate', 'op_000_result', 'apply_rate')]
    """
    graph = _require_graph(bg)
    nx = _networkx()
    targets = {u.symbol_id for u in graph.unknowns}
    projection: networkx.MultiDiGraph[str] = nx.MultiDiGraph()
    projection.graph["provenance"] = graph.provenance
    projection.graph["content_hash"] = graph.content_hash
    for i, symbol in enumerate(graph.symbols):
        projection.add_node(symbol.symbol_id, kind="symbol", index=i, is_target=symbol.symbol_id in targets,
                   **_fields_dict(symbol))
    for i, eq in enumerate(graph.equations):
        for dep in sorted(eq.dependencies):
            projection.add_edge(
                dep, eq.lhs_symbol_id, key=equation_node_id(i),
                equation=equation_node_id(i),
                operation_kind=eq.operation_kind,
                admissibility_status=eq.admissibility_status,
                refusal_reason=eq.refusal_reason,
                propagated_from=eq.propagated_from,
                unit_proof=eq.unit_proof,
            )
    return projection


# --------------------------------------------------------------------- decode


def _refuse(reason: str, message: str, path: str, detail: object = None) -> BindingGraphError:
    return BindingGraphError(message, reason=reason, path=path, detail=None if detail is None else repr(detail))


def _check_plain(value: object, hint: Any, path: str) -> object:
    """Check one plain attribute against its field type and convert it back."""
    if hint is SourceSpanLink:
        return _decode_item(SourceSpanLink, value, path)
    if hint == frozenset[str]:
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise _refuse("invalid_field", f"'{path}' must be a list of str (got {value!r})", path, value)
        if len(set(value)) != len(value):
            raise _refuse("invalid_field", f"'{path}' lists an id twice (got {value!r})", path, value)
        return frozenset(value)
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _refuse("invalid_field", f"'{path}' must be an int (got {value!r})", path, value)
        return value
    allowed: tuple[type, ...] = (str,) if hint is str else (str, type(None)) if hint == (str | None) else ()
    if not allowed:  # pragma: no cover - guarded by test_every_field_type_is_decodable
        raise TypeError(f"no decoder for field type {hint!r}")
    if not isinstance(value, allowed):
        want = "a str" if hint is str else "a str or None"
        raise _refuse("invalid_field", f"'{path}' must be {want} (got {value!r})", path, value)
    return value


def _reroot(exc: BindingGraphError, path: str) -> BindingGraphError:
    sub = exc.path or ""
    full = f"{path}.{sub}" if sub else path
    return BindingGraphError(exc.message, reason=exc.reason, path=full, detail=exc.detail)


def _decode_fields(cls: type, attrs: Mapping[Any, Any], path: str, *, strict: bool) -> Any:
    fields = _FIELDS[cls]
    if strict:
        names = {name for name, _hint in fields}
        extra = sorted(str(k) for k in attrs if k not in names)
        if extra:
            raise _refuse("invalid_field", f"'{path}' has unexpected key(s) {extra}", f"{path}.{extra[0]}", extra)
    kwargs: dict[str, object] = {}
    for name, hint in fields:
        if name not in attrs:
            raise _refuse("invalid_field", f"'{path}' lacks the attribute '{name}'", f"{path}.{name}")
        kwargs[name] = _check_plain(attrs[name], hint, f"{path}.{name}")
    try:
        return cls(**kwargs)
    except BindingGraphError as exc:
        if cls is SourceSpanLink and exc.path is not None:
            # A span names its own fields "source_span.start"; here the span sits at ``path``.
            exc.path = exc.path.removeprefix("source_span").lstrip(".")
        raise _reroot(exc, path) from None


def _decode_item(cls: type, value: object, path: str) -> Any:
    if not isinstance(value, Mapping):
        raise _refuse("invalid_field", f"'{path}' must be a dict (got {type(value).__name__})", path)
    return _decode_fields(cls, value, path, strict=True)


def _node_path(node: object) -> str:
    return f"G.nodes[{node!r}]"


def _ordered(nodes: list[tuple[int, Any, Any]], what: str) -> list[Any]:
    """Order decoded items by their ``index``; indices must be exactly 0..n-1."""
    seen: dict[int, object] = {}
    for index, node, _item in nodes:
        if index in seen or not 0 <= index < len(nodes):
            raise _refuse(
                "invalid_field",
                f"{what} indices must be 0..{len(nodes) - 1}, each once (node {node!r} has {index})",
                f"{_node_path(node)}.index",
                index,
            )
        seen[index] = node
    return [item for _index, _node, item in sorted(nodes, key=lambda t: t[0])]


def _graph_error_path(path: str, symbol_nodes: list[str], equation_nodes: list[object]) -> str:
    """Map a path of the graph constructor (``equations[2].x``) onto G."""
    match = _COLLECTION_PATH.match(path)
    if match is None:
        return "G"
    name, index, rest = match.group(1), int(match.group(2)), match.group(3)
    if name == "symbols":
        return f"{_node_path(symbol_nodes[index])}{rest}"
    if name == "equations":
        return f"{_node_path(equation_nodes[index])}{rest}"
    return f"G.graph[{name!r}][{index}]{rest}"


def from_networkx(G: object, *, check_hash: bool = True) -> SemanticSymbolicBindingGraph:  # noqa: N803 (networkx names its graphs G)
    """Rebuild the binding graph that :func:`to_networkx` drew.

    Node, edge and graph attributes that are not binding-graph fields (an
    analysis may add layout positions or centralities) are ignored; every field
    must be present, with its plain type.  The edges must be exactly the
    ``dependency -> equation -> lhs`` edges the equations name.

    Parameters
    ----------
    G
        A ``networkx.DiGraph`` (not a multigraph) as :func:`to_networkx` makes it,
        possibly after a JSON round trip (``node_link_data`` / ``node_link_graph``).
    check_hash
        When the graph carries ``content_hash``, refuse a rebuilt graph whose
        hash differs (the attributes were edited).  Pass ``False`` to rebuild an
        edited graph, or drop the attribute.

    Raises
    ------
    BindingGraphError
        With a reason from :data:`~ssbg.errors.BINDING_GRAPH_REASONS` and a
        ``path`` naming the node, edge or attribute (``G.nodes['eq:001'].unit_proof``,
        ``G.graph['facts'][0].value``, ``G.edges[('a', 'eq:000')]``).

    Examples
    --------
    >>> G = to_networkx(_example())
    >>> G.nodes["eq:000"]["admissibility_status"] = "maybe"
    >>> from_networkx(G)
    Traceback (most recent call last):
    ...
    ssbg.errors.BindingGraphError: 'admissibility_status' must be one of ... (at G.nodes['eq:000'].admissibility_status)
    """
    nx = _networkx()
    if not isinstance(G, nx.DiGraph) or G.is_multigraph():
        raise _refuse("invalid_field", f"expected a networkx DiGraph (got {type(G).__name__})", "G",
                      type(G).__name__)
    symbols: list[tuple[int, Any, Any]] = []
    equations: list[tuple[int, Any, Any]] = []
    decoders: dict[str, tuple[type, list[tuple[int, Any, Any]]]] = {
        "symbol": (SymbolBinding, symbols),
        "equation": (BoundEquation, equations),
    }
    for node, attrs in G.nodes(data=True):
        path = _node_path(node)
        kind = attrs.get("kind")
        if not isinstance(kind, str) or kind not in decoders:
            raise _refuse("invalid_field", f"'{path}.kind' must be one of {sorted(NODE_KINDS)} (got {kind!r})",
                          f"{path}.kind", kind)
        index = _check_plain(attrs.get("index"), int, f"{path}.index")
        cls, bucket = decoders[kind]
        item = _decode_fields(cls, attrs, path, strict=False)
        if isinstance(item, SymbolBinding) and item.symbol_id != node:
            raise _refuse("invalid_field", f"symbol node {node!r} carries symbol_id {item.symbol_id!r}",
                          f"{path}.symbol_id", item.symbol_id)
        bucket.append((int(typing.cast(int, index)), node, item))
    ordered_symbols = _ordered(symbols, "symbol")
    ordered_equations = _ordered(equations, "equation")
    symbol_nodes = [item.symbol_id for item in ordered_symbols]
    equation_nodes = [node for _i, node, _item in sorted(equations, key=lambda t: t[0])]
    if not isinstance(G.graph, dict):  # networkx keeps whatever was assigned to G.graph
        raise _refuse("invalid_field", f"'G.graph' must be a dict of graph attributes (got {type(G.graph).__name__})",
                      "G.graph", type(G.graph).__name__)
    collections: dict[str, tuple[Any, ...]] = {}
    for name, cls in _GRAPH_COLLECTIONS:
        raw = G.graph.get(name)
        if not isinstance(raw, (list, tuple)):
            raise _refuse("invalid_field", f"G.graph[{name!r}] must be a list (got {type(raw).__name__})",
                          f"G.graph[{name!r}]")
        collections[name] = tuple(_decode_item(cls, item, f"G.graph[{name!r}][{i}]") for i, item in enumerate(raw))
    provenance = _check_plain(G.graph.get("provenance"), str, "G.graph['provenance']")
    try:
        bg = SemanticSymbolicBindingGraph(
            symbols=tuple(ordered_symbols),
            facts=collections["facts"],
            equations=tuple(ordered_equations),
            unknowns=collections["unknowns"],
            constraints=collections["constraints"],
            provenance=typing.cast(str, provenance),
        )
    except BindingGraphError as exc:
        where = _graph_error_path(exc.path or "", symbol_nodes, equation_nodes)
        raise BindingGraphError(exc.message, reason=exc.reason, path=where, detail=exc.detail) from None
    _check_edges(G, bg, equation_nodes)
    if check_hash and "content_hash" in G.graph and G.graph["content_hash"] != bg.content_hash:
        raise _refuse("invalid_field", "G.graph['content_hash'] does not match the rebuilt graph "
                      "(pass check_hash=False to rebuild an edited graph)", "G.graph['content_hash']",
                      G.graph["content_hash"])
    return bg


def _check_edges(G: Any, bg: SemanticSymbolicBindingGraph, equation_nodes: list[object]) -> None:  # noqa: N803
    expected: set[tuple[object, object]] = set()
    for node, eq in zip(equation_nodes, bg.equations, strict=True):
        expected.update((dep, node) for dep in eq.dependencies)
        expected.add((node, eq.lhs_symbol_id))
    actual = set(G.edges())
    extra = sorted(actual - expected, key=repr)
    if extra:
        raise _refuse("invalid_field", f"edge {extra[0]!r} is not a dependency or lhs edge of any equation",
                      f"G.edges[{extra[0]!r}]", extra[0])
    missing = sorted(expected - actual, key=repr)
    if missing:
        raise _refuse("invalid_field", f"edge {missing[0]!r} is missing: its equation names it",
                      f"G.edges[{missing[0]!r}]", missing[0])


def _example() -> SemanticSymbolicBindingGraph:
    """A one-equation graph for the examples (Ann earns $12 an hour for 3 hours)."""
    from ssbg.adapter import bind_math_problem_graph
    from ssbg.problem import MathProblemGraph

    return bind_math_problem_graph(MathProblemGraph.from_dict({
        "entities": ["Ann"],
        "initial_state": [{"entity": "Ann", "quantity": {"value": 3, "unit": "hours"}}],
        "operations": [{"actor": "Ann", "kind": "apply_rate",
                        "operand": {"value": 12, "numerator_unit": "dollars", "denominator_unit": "hours"}}],
        "unknown": {"entity": "Ann", "unit": "dollars"},
    }))
