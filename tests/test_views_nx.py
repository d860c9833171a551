"""The networkx views: lossless round trip, graph shape, symbol projection, refusals."""

from __future__ import annotations

import dataclasses
import json
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings

from ssbg.adapter import bind_math_problem_graph
from ssbg.errors import BINDING_GRAPH_REASONS, BindingGraphError
from ssbg.lanes import lane_files, load_lane
from ssbg.model import (
    BoundConstraint,
    BoundEquation,
    BoundFact,
    BoundUnknown,
    SemanticSymbolicBindingGraph,
    SourceSpanLink,
    SymbolBinding,
)
from ssbg.problem import MathProblemGraph
from ssbg.views.nx import NODE_KINDS, _check_plain, equation_node_id, from_networkx, symbol_graph, to_networkx
from tests.strategies import bound_graphs, hostile_names

LANES = Path(__file__).resolve().parents[1] / "data" / "lanes"


def _lane_problems() -> list[Any]:
    """Every lane problem, as pytest params named by case id."""
    return [pytest.param(case.problem, id=case.case_id) for path in lane_files([LANES]) for case in load_lane(path)]


LANE_PROBLEMS = _lane_problems()


def _multi_step() -> SemanticSymbolicBindingGraph:
    """Admitted wages, a transfer, a refused open noun and its propagated dependent."""
    return bind_math_problem_graph(MathProblemGraph.from_dict({
        "problem_id": "views-multi-step",
        "entities": ["Ann", "Bob"],
        "initial_state": [
            {"entity": "Ann", "quantity": {"value": 3, "unit": "hours"}},
            {"entity": "Bob", "quantity": {"value": 5, "unit": "apples"}},
        ],
        "operations": [
            {"actor": "Ann", "kind": "apply_rate",
             "operand": {"value": 12, "numerator_unit": "dollars", "denominator_unit": "hours"}},
            {"actor": "Bob", "kind": "add", "operand": {"value": 2, "unit": "apples"}},
            {"actor": "Bob", "kind": "multiply", "operand": {"value": 2, "unit": "boxes"}},
            {"actor": "Ann", "kind": "transfer", "operand": {"value": 5, "unit": "dollars"}, "target": "Bob"},
        ],
        "unknown": {"entity": None, "unit": "dollars"},
    }))


# --------------------------------------------------------------------- round trip


def test_lane_round_trip_is_not_vacuous() -> None:
    """Lanes with several steps, refusals and propagation are among the round-tripped problems."""
    graphs = [bind_math_problem_graph(p.values[0]) for p in LANE_PROBLEMS]
    assert any(eq.propagated_from is not None for bg in graphs for eq in bg.equations)


@pytest.mark.parametrize("problem", LANE_PROBLEMS)
def test_round_trip_over_lanes(problem: MathProblemGraph) -> None:
    bg = bind_math_problem_graph(problem)
    assert from_networkx(to_networkx(bg)) == bg


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bound_graphs())
def test_round_trip_over_generated_graphs(bg: SemanticSymbolicBindingGraph) -> None:
    assert from_networkx(to_networkx(bg)) == bg


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bound_graphs(names=hostile_names))
def test_round_trip_through_json_node_link(bg: SemanticSymbolicBindingGraph) -> None:
    data = json.dumps(nx.node_link_data(to_networkx(bg), edges="edges"))
    assert from_networkx(nx.node_link_graph(json.loads(data), edges="edges")) == bg


def test_round_trip_keeps_the_canonical_bytes() -> None:
    bg = _multi_step()
    assert from_networkx(to_networkx(bg)).to_canonical_string() == bg.to_canonical_string()


# --------------------------------------------------------------------- shape


def test_nodes_are_symbols_and_equations() -> None:
    bg = _multi_step()
    g = to_networkx(bg)
    kinds = {n: d["kind"] for n, d in g.nodes(data=True)}
    assert sorted(kinds.values()) == sorted(["symbol"] * len(bg.symbols) + ["equation"] * len(bg.equations))


def test_node_kinds_vocabulary_is_what_nodes_use() -> None:
    g = to_networkx(_multi_step())
    assert {d["kind"] for _n, d in g.nodes(data=True)} == NODE_KINDS


@pytest.mark.parametrize(("kind", "cls"), [("symbol", SymbolBinding), ("equation", BoundEquation)])
def test_nodes_carry_every_dataclass_field(kind: str, cls: type) -> None:
    g = to_networkx(_multi_step())
    names = {f.name for f in dataclasses.fields(cls)}
    for _node, attrs in g.nodes(data=True):
        if attrs["kind"] == kind:
            assert names <= set(attrs)


@pytest.mark.parametrize(("name", "cls"), [("facts", BoundFact), ("unknowns", BoundUnknown),
                                           ("constraints", BoundConstraint)])
def test_graph_collections_carry_every_field(name: str, cls: type) -> None:
    bg = _multi_step()
    g = to_networkx(bg)
    assert [set(item) for item in g.graph[name]] == [{f.name for f in dataclasses.fields(cls)}] * len(
        getattr(bg, name))


def test_edges_run_dependency_to_equation_to_lhs() -> None:
    bg = _multi_step()
    g = to_networkx(bg)
    for i, eq in enumerate(bg.equations):
        node = equation_node_id(i)
        assert set(g.predecessors(node)) == set(eq.dependencies)
        assert list(g.successors(node)) == [eq.lhs_symbol_id]


def test_edge_roles() -> None:
    g = to_networkx(_multi_step())
    for u, v, data in g.edges(data=True):
        assert data["role"] == ("dependency" if g.nodes[u]["kind"] == "symbol" else "lhs"), (u, v)


def test_graph_attributes_are_json() -> None:
    g = to_networkx(_multi_step())
    data = nx.node_link_data(g, edges="edges")
    assert json.loads(json.dumps(data)) == data


def test_graph_carries_the_content_hash() -> None:
    bg = _multi_step()
    assert to_networkx(bg).graph["content_hash"] == bg.content_hash


def test_spans_are_dicts_and_dependencies_sorted_lists() -> None:
    g = to_networkx(_multi_step())
    eq = g.nodes[equation_node_id(0)]
    assert eq["dependencies"] == sorted(eq["dependencies"])
    assert set(eq["source_span"]) == {"source_id", "start", "end", "text"}


def test_ancestors_of_the_answer_are_its_dependency_chain() -> None:
    bg = _multi_step()
    g = to_networkx(bg)
    chain = nx.ancestors(g, bg.unknowns[0].symbol_id)
    assert "op_000_result" in chain
    assert "op_001_result" not in chain  # the refused apples chain does not feed the dollars answer


def test_to_networkx_refuses_a_non_graph() -> None:
    with pytest.raises(BindingGraphError) as info:
        to_networkx("not a graph")  # type: ignore[arg-type]
    assert (info.value.reason, info.value.path) == ("invalid_field", "bg")


def test_every_field_type_is_decodable() -> None:
    """The decoder handles every field type the model uses (fails closed otherwise)."""
    samples = {str: "x", int: 1, str | None: None, frozenset[str]: ["a"],
               SourceSpanLink: {"source_id": "s", "start": 0, "end": 1, "text": "x"}}
    for cls in (SymbolBinding, BoundFact, BoundEquation, BoundUnknown, BoundConstraint, SourceSpanLink):
        for name, hint in typing.get_type_hints(cls).items():
            assert hint in samples, (cls.__name__, name, hint)
            _check_plain(samples[hint], hint, name)


# --------------------------------------------------------------------- symbol projection


def test_symbol_graph_has_only_symbols() -> None:
    bg = _multi_step()
    s = symbol_graph(bg)
    assert sorted(s.nodes) == sorted(sym.symbol_id for sym in bg.symbols)


def test_symbol_graph_has_one_edge_per_dependency() -> None:
    bg = _multi_step()
    s = symbol_graph(bg)
    assert s.number_of_edges() == sum(len(eq.dependencies) for eq in bg.equations)


def test_symbol_graph_edges_carry_kind_and_status() -> None:
    bg = _multi_step()
    s = symbol_graph(bg)
    for i, eq in enumerate(bg.equations):
        for dep in eq.dependencies:
            data = s.edges[dep, eq.lhs_symbol_id, equation_node_id(i)]
            assert (data["operation_kind"], data["admissibility_status"], data["refusal_reason"]) == (
                eq.operation_kind, eq.admissibility_status, eq.refusal_reason)


def test_symbol_graph_marks_the_target() -> None:
    bg = _multi_step()
    s = symbol_graph(bg)
    assert [n for n, t in s.nodes(data="is_target") if t] == [bg.unknowns[0].symbol_id]


# --------------------------------------------------------------------- refusals

Mutation = Callable[[Any], Any]


def _set_node(node: str, attr: str, value: object) -> Mutation:
    def mutate(g: Any) -> Any:
        g.nodes[node][attr] = value
        return g
    return mutate


def _del_node_attr(node: str, attr: str) -> Mutation:
    def mutate(g: Any) -> Any:
        del g.nodes[node][attr]
        return g
    return mutate


def _add_edge(u: str, v: str) -> Mutation:
    def mutate(g: Any) -> Any:
        g.add_edge(u, v)
        return g
    return mutate


def _remove_edge(u: str, v: str) -> Mutation:
    def mutate(g: Any) -> Any:
        g.remove_edge(u, v)
        return g
    return mutate


def _set_graph(name: str, value: object) -> Mutation:
    def mutate(g: Any) -> Any:
        g.graph[name] = value
        return g
    return mutate


def _edit_fact(field: str, value: object) -> Mutation:
    def mutate(g: Any) -> Any:
        g.graph["facts"][0][field] = value
        return g
    return mutate


def _cycle(g: Any) -> Any:
    """op_000_result now also depends on op_003_result, which depends on it."""
    node = equation_node_id(0)
    g.nodes[node]["dependencies"] = sorted([*g.nodes[node]["dependencies"], "op_003_result"])
    g.add_edge("op_003_result", node)
    return g


REFUSALS: list[Any] = [
    pytest.param(nx.Graph, "invalid_field", "G", id="undirected"),
    pytest.param(nx.MultiDiGraph, "invalid_field", "G", id="multigraph"),
    pytest.param(_del_node_attr("op_000_result", "kind"), "invalid_field", "G.nodes['op_000_result'].kind",
                 id="kind-missing"),
    pytest.param(_set_node("op_000_result", "kind", "widget"), "invalid_field", "G.nodes['op_000_result'].kind",
                 id="kind-unknown"),
    pytest.param(_del_node_attr("op_000_result", "unit"), "invalid_field", "G.nodes['op_000_result'].unit",
                 id="field-missing"),
    pytest.param(_set_node("op_000_result", "unit", 5), "invalid_field", "G.nodes['op_000_result'].unit",
                 id="field-wrong-type"),
    pytest.param(_set_node("op_000_result", "semantic_role", ["entity"]), "invalid_field",
                 "G.nodes['op_000_result'].semantic_role", id="role-unhashable"),
    pytest.param(_set_node("op_000_result", "semantic_role", "villain"), "unknown_role",
                 "G.nodes['op_000_result'].semantic_role", id="role-unknown"),
    pytest.param(_set_node("eq:000", "admissibility_status", "maybe"), "unknown_status",
                 "G.nodes['eq:000'].admissibility_status", id="status-unknown"),
    pytest.param(_set_node("eq:000", "refusal_reason", "unit_mismatch"), "refusal_reason_mismatch",
                 "G.nodes['eq:000'].refusal_reason", id="reason-on-admitted"),
    pytest.param(_set_node("op_000_result", "source_span", {"source_id": "s", "start": 4, "end": 2, "text": ""}),
                 "invalid_span", "G.nodes['op_000_result'].source_span", id="span-inverted"),
    pytest.param(_set_node("op_000_result", "source_span", {"source_id": "s", "start": 0, "end": 1, "text": "x",
                                                            "extra": 1}),
                 "invalid_field", "G.nodes['op_000_result'].source_span.extra", id="span-extra-key"),
    pytest.param(_set_node("op_000_result", "source_span", "p[0:3]"), "invalid_field",
                 "G.nodes['op_000_result'].source_span", id="span-not-dict"),
    pytest.param(_set_node("op_000_result", "symbol_id", "op_999_result"), "invalid_field",
                 "G.nodes['op_000_result'].symbol_id", id="symbol-id-mismatch"),
    pytest.param(_set_node("op_000_result", "index", 0), "invalid_field", "G.nodes['op_000_result'].index",
                 id="index-duplicate"),
    pytest.param(_set_node("op_000_result", "index", True), "invalid_field", "G.nodes['op_000_result'].index",
                 id="index-bool"),
    pytest.param(_set_node("eq:000", "dependencies", ["t0_ann_time", "t0_ann_time"]), "invalid_field",
                 "G.nodes['eq:000'].dependencies", id="dependency-twice"),
    pytest.param(_set_node("eq:000", "dependencies", "t0_ann_time"), "invalid_field",
                 "G.nodes['eq:000'].dependencies", id="dependencies-not-list"),
    pytest.param(_set_node("eq:000", "propagated_from", "t0_ann_time"), "refusal_reason_mismatch",
                 "G.nodes['eq:000'].propagated_from", id="propagated-on-admitted"),
    pytest.param(_set_node("eq:002", "propagated_from", "nobody"), "unknown_reference",
                 "G.nodes['eq:002'].propagated_from", id="propagated-unknown"),
    pytest.param(_add_edge("t0_ann_time", "op_000_result"), "invalid_field",
                 "G.edges[('t0_ann_time', 'op_000_result')]", id="symbol-to-symbol-edge"),
    pytest.param(_remove_edge("t0_ann_time", "eq:000"), "invalid_field", "G.edges[('t0_ann_time', 'eq:000')]",
                 id="dependency-edge-missing"),
    pytest.param(_remove_edge("eq:000", "op_000_result"), "invalid_field", "G.edges[('eq:000', 'op_000_result')]",
                 id="lhs-edge-missing"),
    pytest.param(_cycle, "circular_dependency", "G", id="cycle"),
    pytest.param(_set_graph("facts", {"a": 1}), "invalid_field", "G.graph['facts']", id="facts-not-list"),
    pytest.param(_edit_fact("symbol_id", "ghost"), "unknown_reference", "G.graph['facts'][0].symbol_id",
                 id="fact-unknown-symbol"),
    pytest.param(_edit_fact("value", ""), "invalid_field", "G.graph['facts'][0].value", id="fact-empty-value"),
    pytest.param(_set_graph("provenance", None), "invalid_field", "G.graph['provenance']", id="provenance"),
    pytest.param(_set_node("entity_ann", "name", "Annie"), "invalid_field", "G.graph['content_hash']",
                 id="hash-mismatch"),
]


@pytest.mark.parametrize(("mutate", "reason", "path"), REFUSALS)
def test_from_networkx_refuses(mutate: Mutation, reason: str, path: str) -> None:
    g = mutate(to_networkx(_multi_step()))
    with pytest.raises(BindingGraphError) as info:
        from_networkx(g)
    assert (info.value.reason, info.value.path) == (reason, path)


def test_refusal_reasons_are_in_the_closed_set() -> None:
    assert {p.values[1] for p in REFUSALS} <= BINDING_GRAPH_REASONS


def test_refuses_a_non_graph() -> None:
    with pytest.raises(BindingGraphError) as info:
        from_networkx({"nodes": []})
    assert (info.value.reason, info.value.path) == ("invalid_field", "G")


def test_edited_graph_rebuilds_without_the_hash_check() -> None:
    g = _set_node("entity_ann", "name", "Annie")(to_networkx(_multi_step()))
    assert from_networkx(g, check_hash=False).symbol("entity_ann").name == "Annie"


def test_analysis_attributes_are_ignored() -> None:
    bg = _multi_step()
    g = to_networkx(bg)
    for node, degree in g.degree():
        g.nodes[node]["degree"] = degree
    g.graph["note"] = "annotated"
    assert from_networkx(g) == bg


def test_node_order_comes_from_index_not_insertion() -> None:
    bg = _multi_step()
    g = to_networkx(bg)
    shuffled: nx.DiGraph[str] = nx.DiGraph()
    shuffled.graph.update(g.graph)
    shuffled.add_nodes_from(sorted(g.nodes(data=True), key=lambda t: str(t[0]), reverse=True))
    shuffled.add_edges_from(g.edges(data=True))
    assert from_networkx(shuffled) == bg
