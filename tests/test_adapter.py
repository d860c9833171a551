"""bind_math_problem_graph: state threading, all ten kinds, never raising, question targets."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings

from ssbg.adapter import _OPERATION_RULES, bind_math_problem_graph, holding_key
from ssbg.admissibility import OPERATION_KINDS, REFUSED_UNIT_PROOF
from ssbg.errors import ProblemGraphError
from ssbg.model import SemanticSymbolicBindingGraph
from ssbg.problem import MathProblemGraph
from ssbg.units import default_pack
from tests.strategies import problem_graphs


def problem(
    ops: list[dict[str, Any]],
    initial: list[tuple[str, float, str]] | None = None,
    unknown: dict[str, Any] | None = None,
    entities: tuple[str, ...] = ("Ann", "Bob"),
) -> MathProblemGraph:
    return MathProblemGraph.from_dict(
        {
            "entities": list(entities),
            "initial_state": [{"entity": e, "quantity": {"value": v, "unit": u}} for e, v, u in (initial or [])],
            "operations": ops,
            "unknown": unknown or {"entity": "Ann", "unit": "dollars"},
        }
    )


def eqs(bg: SemanticSymbolicBindingGraph) -> dict[str, Any]:
    return {e.lhs_symbol_id: e for e in bg.equations}


def test_multi_step_chain_threads_state() -> None:
    g = problem(
        [
            {"actor": "Ann", "kind": "add", "operand": {"value": 5, "unit": "dollars"}},
            {"actor": "Ann", "kind": "subtract", "operand": {"value": 2, "unit": "dollars"}},
            {"actor": "Ann", "kind": "add", "operand": {"value": 50, "unit": "cents"}},
        ],
        initial=[("Ann", 10, "dollars")],
    )
    e = eqs(bind_math_problem_graph(g))
    assert e["op_000_result"].dependencies == frozenset({"t0_ann_money", "op_000__addend"})
    assert e["op_001_result"].dependencies == frozenset({"op_000_result", "op_001__subtrahend"})
    assert e["op_002_result"].dependencies == frozenset({"op_001_result", "op_002__addend"})
    assert "cent->dollar x1/100" in e["op_002_result"].unit_proof


def _undirected_components(bg: SemanticSymbolicBindingGraph) -> int:
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for eq in bg.equations:
        for dep in eq.dependencies:
            parent[find(dep)] = find(eq.lhs_symbol_id)
        find(eq.lhs_symbol_id)
    return len({find(x) for x in parent})


def test_one_entity_problem_is_one_connected_chain() -> None:
    g = problem(
        [
            {
                "actor": "Ann",
                "kind": "apply_rate",
                "operand": {"value": 12, "numerator_unit": "dollars", "denominator_unit": "hours"},
            },
            {"actor": "Ann", "kind": "subtract", "operand": {"value": 5, "unit": "dollars"}},
            {"actor": "Ann", "kind": "multiply", "operand": {"value": 50, "unit": "percent"}},
            {
                "actor": "Ann",
                "kind": "fraction_portion",
                "operand": {"numerator": 1, "denominator": 3, "referent": "rest"},
            },
        ],
        initial=[("Ann", 8, "hours")],
    )
    bg = bind_math_problem_graph(g)
    assert _undirected_components(bg) == 1
    assert all(e.admissibility_status == "admitted" for e in bg.equations)


def test_transfer_binds_giver_and_receiver() -> None:
    g = problem(
        [{"actor": "Ann", "kind": "transfer", "target": "Bob", "operand": {"value": 3, "unit": "boxes"}}],
        initial=[("Ann", 10, "boxes"), ("Bob", 1, "boxes")],
        unknown={"entity": "Bob", "unit": "boxes"},
    )
    bg = bind_math_problem_graph(g)
    e = eqs(bg)
    assert e["op_000_result"].dependencies == frozenset({"t0_ann_box", "op_000__amount"})
    assert e["op_000_received"].dependencies == frozenset({"t0_bob_box", "op_000__amount"})
    assert {x.operation_kind for x in bg.equations} == {"transfer"}
    assert bg.unknowns[0].resolved_by == "op_000_received"


def test_result_symbols_carry_the_unit_of_their_holding() -> None:
    g = problem(
        [{"actor": "Ann", "kind": "unit_partition", "operand": {"value": 6, "unit": "items", "result_unit": "boxes"}}],
        initial=[("Ann", 30, "items")],
        unknown={"entity": "Ann", "unit": "boxes"},
    )
    bg = bind_math_problem_graph(g)
    assert bg.symbol("op_000_result").unit == "boxes"
    assert bg.equations[0].admissibility_status == "admitted"
    assert bg.unknowns[0].target_status == "bound"


def test_unknown_units_refuse_and_propagate_as_one_root_cause() -> None:
    g = problem(
        [
            {"actor": "Ann", "kind": "add", "operand": {"value": 3, "unit": "apples"}},
            {"actor": "Ann", "kind": "multiply", "operand": {"value": 50, "unit": "percent"}},
            {
                "actor": "Ann",
                "kind": "fraction_portion",
                "operand": {"numerator": 1, "denominator": 2, "referent": "it"},
            },
        ],
        initial=[("Ann", 4, "apples")],
        unknown={"entity": "Ann", "unit": "apples"},
    )
    bg = bind_math_problem_graph(g)
    roots = [e for e in bg.equations if e.is_root_cause]
    assert [(e.lhs_symbol_id, e.refusal_reason, e.offending_unit) for e in roots] == [
        ("op_000_result", "unknown_unit", "apples")
    ]
    assert [e.propagated_from for e in bg.equations[1:]] == ["op_000_result", "op_000_result"]
    assert all(e.unit_proof == REFUSED_UNIT_PROOF for e in bg.equations)
    assert bg.unknowns[0].target_refusal_reason == "unknown_expected_unit"


@pytest.mark.parametrize("kind", OPERATION_KINDS)
def test_every_kind_binds_admitted(kind: str) -> None:
    operand: dict[str, Any] = {
        "add": {"value": 1, "unit": "dollars"},
        "subtract": {"value": 1, "unit": "dollars"},
        "transfer": {"value": 1, "unit": "dollars"},
        "multiply": {"value": 50, "unit": "percent"},
        "divide": {"value": 2, "unit": "half"},
        "apply_rate": {"value": 3, "numerator_unit": "dollars", "denominator_unit": "hours"},
        "compare_additive": {"reference_actor": "Bob", "direction": "more", "delta": {"value": 2, "unit": "dollars"}},
        "compare_multiplicative": {"reference_actor": "Bob", "direction": "times", "factor": 3},
        "unit_partition": {"value": 4, "unit": "dollars", "result_unit": "hours"},
        "fraction_portion": {"numerator": 2, "denominator": 3, "referent": "them"},
    }[kind]
    op: dict[str, Any] = {"actor": "Ann", "kind": kind, "operand": operand}
    if kind == "transfer":
        op["target"] = "Bob"
    initial = [("Ann", 10, "dollars"), ("Ann", 5, "hours"), ("Bob", 7, "dollars")]
    bg = bind_math_problem_graph(problem([op], initial=initial))
    assert bg.equations[0].operation_kind == kind
    assert bg.equations[0].admissibility_status == "admitted", bg.equations[0]


@pytest.mark.parametrize(
    ("op", "reason"),
    [
        ({"actor": "Ann", "kind": "add", "operand": {"value": 1, "unit": "widgets"}}, "unknown_unit"),
        ({"actor": "Ann", "kind": "multiply", "operand": {"value": 3, "unit": "hours"}}, "unit_mismatch"),
        ({"actor": "Bob", "kind": "multiply", "operand": {"value": 3, "unit": "percent"}}, "operand_arity"),
        (
            {
                "actor": "Ann",
                "kind": "apply_rate",
                "operand": {"value": 3, "numerator_unit": "apples", "denominator_unit": "hours"},
            },
            "unknown_unit",
        ),
        (
            {
                "actor": "Ann",
                "kind": "apply_rate",
                "operand": {"value": 3, "numerator_unit": "dollars", "denominator_unit": "feet"},
            },
            "operand_arity",
        ),
        (
            {
                "actor": "Ann",
                "kind": "unit_partition",
                "operand": {"value": 3, "unit": "hours", "result_unit": "crayons"},
            },
            "unknown_unit",
        ),
        ({"actor": "Ann", "kind": "divide", "operand": {"value": 3, "unit": "friends"}}, "unknown_unit"),
        (
            {
                "actor": "Ann",
                "kind": "compare_additive",
                "operand": {"reference_actor": "Bob", "direction": "more", "delta": {"value": 2, "unit": "dollars"}},
            },
            "operand_arity",
        ),
    ],
)
def test_refused_operations_are_stamped_not_raised(op: dict[str, Any], reason: str) -> None:
    bg = bind_math_problem_graph(problem([op], initial=[("Ann", 10, "dollars"), ("Ann", 10, "hours")]))
    assert (bg.equations[0].admissibility_status, bg.equations[0].refusal_reason) == ("refused", reason)


def test_total_question_sums_the_holders() -> None:
    g = problem([], initial=[("Ann", 3, "boxes"), ("Bob", 4, "boxes")], unknown={"entity": None, "unit": "boxes"})
    bg = bind_math_problem_graph(g)
    (total,) = bg.equations
    assert total.lhs_symbol_id == bg.unknowns[0].symbol_id
    assert total.dependencies == frozenset({"t0_ann_box", "t0_bob_box"})
    assert (bg.unknowns[0].question_form, bg.unknowns[0].target_status) == ("total", "bound")


@pytest.mark.parametrize(
    ("initial", "ops", "unknown", "status", "reason", "form"),
    [
        ([("Ann", 3, "dollars")], [], {"entity": "Ann", "unit": "cents"}, "bound", None, "identity"),
        ([("Ann", 3, "hours")], [], {"entity": "Ann", "unit": "dollars"}, "refused", "unbound_target", "identity"),
        (
            [("Ann", 3, "boxes"), ("Ann", 2, "bags")],
            [],
            {"entity": "Ann", "unit": "items"},
            "refused",
            "ambiguous_target",
            "identity",
        ),
        ([("Ann", 3, "dollars")], [], {"entity": "Ann", "unit": "marbles"}, "refused", "unbound_target", "identity"),
        (
            [("Ann", 3, "marbles")],
            [],
            {"entity": "Ann", "unit": "marbles"},
            "refused",
            "unknown_expected_unit",
            "identity",
        ),
        (
            [("Ann", 3, "dollars")],
            [{"actor": "Ann", "kind": "multiply", "operand": {"value": 2, "unit": "hours"}}],
            {"entity": "Ann", "unit": "dollars"},
            "refused",
            "unresolved_upstream",
            "count",
        ),
        (
            [("Ann", 3, "hours")],
            [
                {
                    "actor": "Ann",
                    "kind": "apply_rate",
                    "operand": {"value": 9, "numerator_unit": "dollars", "denominator_unit": "hours"},
                }
            ],
            {"entity": "Ann", "unit": "dollars_per_hour"},
            "refused",
            "unbound_target",
            "rate",
        ),
    ],
)
def test_question_targets(
    initial: list[Any], ops: list[Any], unknown: dict[str, Any], status: str, reason: str | None, form: str
) -> None:
    target = bind_math_problem_graph(problem(ops, initial=initial, unknown=unknown)).unknowns[0]
    assert (target.target_status, target.target_refusal_reason, target.question_form) == (status, reason, form)


def test_state_index_initial_vs_terminal() -> None:
    untouched = problem(
        [{"actor": "Bob", "kind": "add", "operand": {"value": 1, "unit": "dollars"}}], initial=[("Ann", 3, "dollars")]
    )
    touched = problem(
        [{"actor": "Ann", "kind": "add", "operand": {"value": 1, "unit": "dollars"}}], initial=[("Ann", 3, "dollars")]
    )
    assert bind_math_problem_graph(untouched).unknowns[0].state_index == "initial"
    assert bind_math_problem_graph(touched).unknowns[0].state_index == "terminal"


@pytest.mark.parametrize(
    ("unit", "key"),
    [
        ("dollars", "[money]"),
        ("cents", "[money]"),
        ("hrs", "[time]"),
        ("boxes", "box"),
        ("people", "person"),
        ("apples", "apple"),
        ("Cherries", "cherry"),
        ("boxes of tea", "boxes_of_tea"),
    ],
)
def test_holding_keys(unit: str, key: str) -> None:
    assert holding_key(unit, default_pack()) == key


@given(problem_graphs())
@settings(max_examples=200, deadline=None)
def test_adapter_never_raises_and_never_leaves_pending(g: MathProblemGraph) -> None:
    bg = bind_math_problem_graph(g)
    assert all(e.admissibility_status in {"admitted", "refused"} for e in bg.equations)
    assert all(e.lhs_symbol_id.startswith(("op_", "unknown_", "t0_")) for e in bg.equations)
    assert len(bg.unknowns) == 1
    assert bg.unknowns[0].target_status in {"bound", "refused"}


@given(problem_graphs())
@settings(max_examples=100, deadline=None)
def test_binding_is_deterministic(g: MathProblemGraph) -> None:
    assert bind_math_problem_graph(g).to_canonical_string() == bind_math_problem_graph(g).to_canonical_string()


def test_non_problem_input_is_a_typed_error() -> None:
    with pytest.raises(ProblemGraphError) as info:
        bind_math_problem_graph({"entities": []})  # type: ignore[arg-type]
    assert info.value.reason == "wrong_type"


def test_divide_by_a_dimension_writes_a_per_unit_holding() -> None:
    g = problem(
        [{"actor": "Ann", "kind": "divide", "operand": {"value": 4, "unit": "people"}}],
        initial=[("Ann", 60, "dollars")],
        unknown={"entity": "Ann", "unit": "dollars_per_person"},
    )
    bg = bind_math_problem_graph(g)
    assert bg.symbol("op_000_result").unit == "dollars_per_person"
    assert bg.equations[0].unit_proof == "divide: [money,count] -> money/count"
    assert (bg.unknowns[0].target_status, bg.unknowns[0].question_form) == ("bound", "rate")


def test_divide_by_a_pure_factor_keeps_the_holding() -> None:
    g = problem(
        [{"actor": "Ann", "kind": "divide", "operand": {"value": 2, "unit": "half"}}], initial=[("Ann", 60, "dollars")]
    )
    assert bind_math_problem_graph(g).symbol("op_000_result").unit == "dollars"


def test_two_initial_possessions_of_one_measure_are_summed() -> None:
    g = problem([], initial=[("Ann", 2, "hours"), ("Ann", 30, "minutes")], unknown={"entity": "Ann", "unit": "minutes"})
    bg = bind_math_problem_graph(g)
    (total,) = bg.equations
    assert total.dependencies == frozenset({"t0_ann_time", "t0_ann_time_001"})
    assert total.unit_proof == "add: [time,time] -> time; convert minute->hour x1/60"
    assert bg.unknowns[0].resolved_by == total.lhs_symbol_id
    assert len(bg.facts) == 2


def test_every_operation_kind_has_a_binding_rule() -> None:
    # the adapter dispatches on the kind through one table, as admissibility does (STYLE rule 5)
    assert set(_OPERATION_RULES) == set(OPERATION_KINDS)


# A misspelled unit anywhere in a problem comes back as unknown_unit naming it (issue 20, ADR 0020).
_TYPO_BASE: dict[str, Any] = {
    "entities": ["Ann", "Bob"],
    "initial_state": [{"entity": "Ann", "quantity": {"value": 6, "unit": "hours"}},
                      {"entity": "Bob", "quantity": {"value": 9, "unit": "dollars"}}],
    "unknown": {"entity": "Ann", "unit": "dollars"},
}
_RATE = {"actor": "Ann", "kind": "apply_rate", "operand": {"value": 12, "numerator_unit": "dollars",
                                                            "denominator_unit": "hours"}}


def _typo(where: str) -> dict[str, Any]:
    rate = {**_RATE, "operand": dict(_RATE["operand"])}
    initial = [dict(p, quantity=dict(p["quantity"])) for p in _TYPO_BASE["initial_state"]]
    ops: list[dict[str, Any]] = [rate]
    if where == "denominator_unit":
        rate["operand"]["denominator_unit"] = "hourz"
    elif where == "numerator_unit":
        rate["operand"]["numerator_unit"] = "dollarz"
    elif where == "initial_state":
        initial[0]["quantity"]["unit"] = "hourz"
    else:
        kind, operand = {
            "add": ("add", {"value": 2, "unit": "dollarz"}),
            "multiply": ("multiply", {"value": 2, "unit": "dollarz"}),
            "divide": ("divide", {"value": 2, "unit": "hourz"}),
            "transfer": ("transfer", {"value": 2, "unit": "dollarz"}),
            "partition_unit": ("unit_partition", {"value": 2, "unit": "dollarz", "result_unit": "bags"}),
            "partition_result": ("unit_partition", {"value": 2, "unit": "dollars", "result_unit": "bagz"}),
            "comparison_delta": ("compare_additive", {"reference_actor": "Bob", "direction": "more",
                                                      "delta": {"value": 2, "unit": "dollarz"}}),
        }[where]
        actor = "Ann" if kind == "compare_additive" else "Bob"
        ops = [{"actor": actor, "kind": kind, "operand": operand, **({"target": "Ann"} if kind == "transfer" else {})}]
    return {**_TYPO_BASE, "initial_state": initial, "operations": ops}


@pytest.mark.parametrize("where", ["denominator_unit", "numerator_unit", "initial_state", "add", "multiply", "divide",
                                   "transfer", "partition_unit", "partition_result", "comparison_delta"])
def test_a_misspelled_unit_anywhere_is_refused_as_unknown_unit_naming_it(where: str) -> None:
    graph = bind_math_problem_graph(MathProblemGraph.from_dict(_typo(where)))
    roots = [e for e in graph.equations if e.admissibility_status == "refused" and e.is_root_cause]
    assert roots
    assert {e.refusal_reason for e in roots} == {"unknown_unit"}
    assert all(e.offending_unit is not None and "z" in e.offending_unit for e in roots)


def test_a_misspelled_question_unit_is_named_in_the_unbound_target() -> None:
    graph = bind_math_problem_graph(MathProblemGraph.from_dict({**_typo("add"), "unknown": {"entity": "Ann",
                                                                                            "unit": "dollarz"}}))
    target = graph.unknowns[0]
    assert target.target_refusal_reason == "unbound_target"  # ADR 0010's order: unbound before unknown unit
    assert "'dollarz' is not in pack" in (target.target_refusal_detail or "")


def test_a_missing_operand_of_known_units_is_still_an_arity_refusal() -> None:
    graph = problem([_RATE], initial=[("Ann", 3, "dollars")])  # no hours at all: nothing misspelled
    assert graph is not None
    eq = bind_math_problem_graph(graph).equations[0]
    assert (eq.refusal_reason, eq.refusal_detail) == ("operand_arity", "1")
