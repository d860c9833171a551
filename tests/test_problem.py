"""MathProblemGraph: validation with JSON paths, and the JSON codec."""

from __future__ import annotations

import contextlib
import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ssbg.errors import ProblemGraphError
from ssbg.problem import (
    Comparison,
    FractionPortion,
    MathProblemGraph,
    Operation,
    PartitionChunk,
    Quantity,
    Rate,
    iter_problem_graphs_jsonl,
)
from tests.strategies import problem_graphs

BASE: dict[str, Any] = {
    "entities": ["Ann", "Bob"],
    "initial_state": [{"entity": "Ann", "quantity": {"value": 5, "unit": "dollars"}}],
    "operations": [
        {"actor": "Ann", "kind": "transfer", "target": "Bob", "operand": {"value": 2, "unit": "dollars"}},
        {
            "actor": "Bob",
            "kind": "compare_multiplicative",
            "operand": {"reference_actor": "Ann", "direction": "times", "factor": 2},
        },
    ],
    "unknown": {"entity": "Bob", "unit": "dollars"},
}


def mutated(path: list[Any], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


@given(problem_graphs())
@settings(max_examples=150)
def test_json_round_trip(g: MathProblemGraph) -> None:
    assert MathProblemGraph.from_dict(g.to_dict()) == g
    assert MathProblemGraph.from_json(g.to_json()) == g
    assert MathProblemGraph.from_json(g.to_json()).to_json() == g.to_json()


@given(problem_graphs())
@settings(max_examples=50)
def test_canonical_bytes_are_sorted_compact_json(g: MathProblemGraph) -> None:
    data = g.canonical_bytes()
    assert data == json.dumps(json.loads(data), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


BAD = [
    ([], ["entities"], KeyError, "missing_field", "$.entities"),
    ([], ["extra"], 1, "unexpected_field", "$.extra"),
    ([], ["entities"], "Ann", "wrong_type", "$.entities"),
    ([], ["entities"], [], "invalid_value", "$.entities"),
    ([], ["entities", 1], "Ann", "duplicate_entity", "$.entities[1]"),
    ([], ["entities", 1], 7, "wrong_type", "$.entities[1]"),
    ([], ["entities", 1], "  ", "invalid_value", "$.entities[1]"),
    ([], ["initial_state", 0, "entity"], "Cy", "unknown_entity", "$.initial_state[0].entity"),
    ([], ["initial_state", 0, "quantity", "value"], -1, "invalid_value", "$.initial_state[0].quantity.value"),
    ([], ["initial_state", 0, "quantity", "value"], "5", "wrong_type", "$.initial_state[0].quantity.value"),
    ([], ["initial_state", 0, "quantity", "value"], True, "wrong_type", "$.initial_state[0].quantity.value"),
    ([], ["initial_state", 0, "quantity", "value"], float("nan"), "invalid_value", "$.initial_state[0].quantity.value"),
    ([], ["initial_state", 0, "quantity", "unit"], "", "invalid_value", "$.initial_state[0].quantity.unit"),
    ([], ["initial_state", 0, "quantity"], KeyError, "missing_field", "$.initial_state[0].quantity"),
    ([], ["operations", 0, "kind"], "teleport", "unknown_operation", "$.operations[0].kind"),
    ([], ["operations", 0, "target"], "Ann", "invalid_value", "$.operations[0].target"),
    ([], ["operations", 0, "target"], KeyError, "missing_field", "$.operations[0].target"),
    ([], ["operations", 0, "target"], "Zed", "unknown_entity", "$.operations[0].target"),
    ([], ["operations", 0, "actor"], "Zed", "unknown_entity", "$.operations[0].actor"),
    ([], ["operations", 0, "operand"], {"value": 2}, "missing_field", "$.operations[0].operand.unit"),
    ([], ["operations", 0, "operand"], [2, "dollars"], "wrong_type", "$.operations[0].operand"),
    (
        [],
        ["operations", 1, "operand", "reference_actor"],
        "Bob",
        "invalid_value",
        "$.operations[1].operand.reference_actor",
    ),
    (
        [],
        ["operations", 1, "operand", "reference_actor"],
        "Zed",
        "unknown_entity",
        "$.operations[1].operand.reference_actor",
    ),
    ([], ["operations", 1, "operand", "direction"], "more", "missing_field", "$.operations[1].operand.delta"),
    ([], ["operations", 1, "operand", "direction"], "sideways", "invalid_value", "$.operations[1].operand.direction"),
    ([], ["operations", 1, "operand", "factor"], 0, "invalid_value", "$.operations[1].operand.factor"),
    ([], ["operations", 1, "operand", "factor"], KeyError, "missing_field", "$.operations[1].operand.factor"),
    ([], ["unknown", "entity"], "Zed", "unknown_entity", "$.unknown.entity"),
    ([], ["unknown", "unit"], KeyError, "missing_field", "$.unknown.unit"),
    ([], ["unknown"], None, "wrong_type", "$.unknown"),
    ([], ["operations"], {}, "wrong_type", "$.operations"),
]


@pytest.mark.parametrize(("_", "path", "value", "reason", "json_path"), BAD)
def test_from_dict_names_the_json_path(_: Any, path: list[Any], value: Any, reason: str, json_path: str) -> None:
    with pytest.raises(ProblemGraphError) as info:
        MathProblemGraph.from_dict(mutated(path, value))
    assert (info.value.reason, info.value.path) == (reason, json_path)


def test_contradictory_initial_possessions() -> None:
    data = copy.deepcopy(BASE)
    data["initial_state"].append({"entity": "Ann", "quantity": {"value": 6, "unit": "dollars"}})
    with pytest.raises(ProblemGraphError) as info:
        MathProblemGraph.from_dict(data)
    assert (info.value.reason, info.value.path) == ("contradictory_possession", "$.initial_state[1]")


def test_equal_repeated_possession_is_accepted() -> None:
    data = copy.deepcopy(BASE)
    data["initial_state"].append({"entity": "Ann", "quantity": {"value": 5, "unit": "dollars"}})
    assert len(MathProblemGraph.from_dict(data).initial_state) == 2


@pytest.mark.parametrize(
    ("kind", "operand"),
    [
        ("add", {"value": 1, "numerator_unit": "a", "denominator_unit": "b"}),
        ("apply_rate", {"value": 1, "unit": "dollars"}),
        ("unit_partition", {"value": 1, "unit": "dollars"}),
        ("fraction_portion", {"value": 1, "unit": "dollars"}),
        ("compare_additive", {"value": 1, "unit": "dollars"}),
    ],
)
def test_operand_shape_is_fixed_by_kind(kind: str, operand: dict[str, Any]) -> None:
    data = mutated(["operations", 0], {"actor": "Ann", "kind": kind, "operand": operand})
    with pytest.raises(ProblemGraphError) as info:
        MathProblemGraph.from_dict(data)
    assert info.value.reason in {"missing_field", "unexpected_field"}
    assert info.value.path is not None
    assert info.value.path.startswith("$.operations[0].operand")


@pytest.mark.parametrize(
    ("build", "reason"),
    [
        (lambda: Rate(0, "dollars", "hours"), "invalid_value"),
        (lambda: Rate(3, "hours", "hours"), "invalid_value"),
        (lambda: PartitionChunk(6, "cookies", "cookies"), "invalid_value"),
        (lambda: PartitionChunk(-6, "cookies", "bags"), "invalid_value"),
        (lambda: FractionPortion(0, 3, "them"), "invalid_value"),
        (lambda: FractionPortion(1, 3, "those"), "invalid_value"),
        (lambda: FractionPortion(1.5, 3, "it"), "wrong_type"),
        (lambda: Comparison("Bob", "more", factor=2), "missing_field"),
        (lambda: Comparison("Bob", "times", delta=Quantity(1, "x"), factor=2), "unexpected_field"),
        (lambda: Comparison("Bob", "more", delta=Quantity(1, "x"), factor=2), "unexpected_field"),
        (lambda: Operation("Ann", "add", Quantity(1, "x"), target="Bob"), "unexpected_field"),
        (lambda: Operation("Ann", "compare_additive", Comparison("Bob", "times", factor=2)), "operand_kind_mismatch"),
        (
            lambda: Operation("Ann", "compare_multiplicative", Comparison("Bob", "fewer", delta=Quantity(1, "x"))),
            "operand_kind_mismatch",
        ),
        (lambda: Operation("Ann", "add", Rate(1, "a", "b")), "operand_kind_mismatch"),
        (lambda: MathProblemGraph(["Ann"], (), (), None), "wrong_type"),  # type: ignore[arg-type]
    ],
)
def test_direct_construction_refuses(build: Any, reason: str) -> None:
    with pytest.raises(ProblemGraphError) as info:
        build()
    assert info.value.reason == reason


@pytest.mark.parametrize("text", ["", "{", "[1,", "nul", b"\xff\xfe", "[" * 100_000])
def test_from_json_refuses_malformed_text(text: Any) -> None:
    with pytest.raises(ProblemGraphError) as info:
        MathProblemGraph.from_json(text)
    assert info.value.reason == "malformed_json"


def test_jsonl_iteration_names_source_and_line() -> None:
    good = json.dumps(BASE)
    lines = [good, "", good, "{oops"]
    it = iter_problem_graphs_jsonl(lines, source="x.jsonl")
    assert next(it).entities == ("Ann", "Bob")
    assert next(it).entities == ("Ann", "Bob")
    with pytest.raises(ProblemGraphError) as info:
        next(it)
    assert info.value.path == "x.jsonl:4:$"


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
        lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c, max_size=4),
        max_leaves=12,
    )
)
@settings(max_examples=300)
def test_arbitrary_json_never_raises_a_bare_exception(data: Any) -> None:
    try:
        MathProblemGraph.from_dict(data)
    except ProblemGraphError as exc:
        assert exc.path is not None
        assert exc.path.startswith("$")


@given(
    st.dictionaries(
        st.sampled_from(["entities", "initial_state", "operations", "unknown", "problem_id", "text"]),
        st.recursive(
            st.none() | st.integers() | st.text(max_size=4),
            lambda c: (
                st.lists(c, max_size=3)
                | st.dictionaries(
                    st.sampled_from(["entity", "quantity", "value", "unit", "actor", "kind", "operand", "target"]),
                    c,
                    max_size=4,
                )
            ),
            max_leaves=10,
        ),
    )
)
@settings(max_examples=300)
def test_near_miss_json_never_raises_a_bare_exception(data: Any) -> None:
    with contextlib.suppress(ProblemGraphError):
        MathProblemGraph.from_dict(data)


def test_lone_surrogates_are_refused_at_input() -> None:
    data = copy.deepcopy(BASE)
    data["entities"][0] = "A\ud800"
    with pytest.raises(ProblemGraphError) as info:
        MathProblemGraph.from_dict(data)
    assert (info.value.reason, info.value.path) == ("invalid_value", "$.entities[0]")
