"""ADR-0132 data model: frozen/slotted values, refusal-first construction, integrity, cycles."""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ssbg.errors import BindingGraphError
from ssbg.model import (
    ADMISSIBILITY_STATUSES,
    QUESTION_FORMS,
    SEMANTIC_ROLES,
    BoundConstraint,
    BoundEquation,
    BoundFact,
    BoundUnknown,
    SemanticSymbolicBindingGraph,
    SourceSpanLink,
    SymbolBinding,
    _in_dependency_order,
)

SPAN = SourceSpanLink("p", 0, 3, "abc")


def sym(sid: str, role: str = "quantity", unit: str | None = None) -> SymbolBinding:
    return SymbolBinding(sid, sid, role, SPAN, "test", unit=unit)


def eq(lhs: str, deps: tuple[str, ...] = (), **kw: Any) -> BoundEquation:
    fields: dict[str, Any] = {
        "lhs_symbol_id": lhs,
        "rhs_canonical": " + ".join(deps) or "0",
        "dependencies": frozenset(deps),
        "operation_kind": "add",
        "unit_proof": "unverified",
        "admissibility_status": "pending",
        "source_span": SPAN,
    }
    fields.update(kw)
    return BoundEquation(**fields)


def graph(
    symbols: tuple[SymbolBinding, ...] = (), equations: tuple[BoundEquation, ...] = (), **kw: Any
) -> SemanticSymbolicBindingGraph:
    fields: dict[str, Any] = {
        "symbols": symbols,
        "facts": (),
        "equations": equations,
        "unknowns": (),
        "constraints": (),
        "provenance": "test",
    }
    fields.update(kw)
    return SemanticSymbolicBindingGraph(**fields)


VALUES = [
    SPAN,
    sym("a"),
    BoundFact("a", "3", SPAN, "dollars"),
    eq("a"),
    BoundUnknown("a", SPAN),
    BoundConstraint("a", "a > 0", SPAN),
    graph((sym("a"),)),
]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_values_are_frozen(value: object) -> None:
    field = dataclasses.fields(value)[0].name  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, field, getattr(value, field))


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_values_are_slotted(value: object) -> None:
    assert not hasattr(value, "__dict__")
    assert hasattr(type(value), "__slots__")


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_constructor_takes_the_fields_dataclasses_declares(value: object) -> None:
    # model._slot_init writes the constructor: the dataclass's parameters, in order, with its defaults
    params = list(inspect.signature(type(value).__init__).parameters.values())[1:]
    fields = dataclasses.fields(value)  # type: ignore[arg-type]
    empty = inspect.Parameter.empty
    assert [(p.name, p.default) for p in params] == [
        (f.name, empty if f.default is dataclasses.MISSING else f.default) for f in fields
    ]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_constructor_validates_every_value(value: object) -> None:
    # the constructor sets the fields, then __post_init__ refuses: a bad field never makes a value
    first = dataclasses.fields(value)[0].name  # type: ignore[arg-type]
    with pytest.raises(BindingGraphError):
        dataclasses.replace(value, **{first: 3.5})  # type: ignore[type-var]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_values_are_hash_and_equality_stable(value: object) -> None:
    twin = dataclasses.replace(value)  # type: ignore[type-var]
    assert twin == value
    assert hash(twin) == hash(value)


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (("", 0, 1, "a"), "invalid_field"),
        (("p", 1, 1, ""), "invalid_span"),
        (("p", 2, 1, "a"), "invalid_span"),
        (("p", -1, 1, "ab"), "invalid_span"),
        (("p", 0, 2, "abc"), "invalid_span"),
        (("p", True, 2, "ab"), "invalid_span"),
        (("p", 0.0, 2, "ab"), "invalid_span"),
    ],
)
def test_source_span_refuses_bad_intervals(args: tuple[Any, ...], reason: str) -> None:
    with pytest.raises(BindingGraphError) as info:
        SourceSpanLink(*args)
    assert info.value.reason == reason


@pytest.mark.parametrize(
    ("kwargs", "reason", "path"),
    [
        ({"symbol_id": "1abc"}, "invalid_identifier", "symbol_id"),
        ({"symbol_id": "has space"}, "invalid_identifier", "symbol_id"),
        ({"symbol_id": "class"}, "invalid_identifier", "symbol_id"),
        ({"symbol_id": ""}, "invalid_field", "symbol_id"),
        ({"name": ""}, "invalid_field", "name"),
        ({"semantic_role": "hero"}, "unknown_role", "semantic_role"),
        ({"introduced_by": ""}, "invalid_field", "introduced_by"),
        ({"unit": ""}, "invalid_field", "unit"),
        ({"entity": ""}, "invalid_field", "entity"),
        ({"source_span": "abc"}, "invalid_field", "source_span"),
    ],
)
def test_symbol_binding_refusals(kwargs: dict[str, Any], reason: str, path: str) -> None:
    fields: dict[str, Any] = {
        "symbol_id": "a",
        "name": "a",
        "semantic_role": "quantity",
        "source_span": SPAN,
        "introduced_by": "t",
    }
    fields.update(kwargs)
    with pytest.raises(BindingGraphError) as info:
        SymbolBinding(**fields)
    assert (info.value.reason, info.value.path) == (reason, path)


@pytest.mark.parametrize("role", sorted(SEMANTIC_ROLES))
def test_every_semantic_role_is_accepted(role: str) -> None:
    assert sym("x", role).semantic_role == role


def test_semantic_roles_are_the_closed_adr_vocabulary() -> None:
    assert {
        "entity",
        "quantity",
        "rate",
        "duration",
        "count",
        "total",
        "difference",
        "ratio",
        "unknown",
    } == SEMANTIC_ROLES


def test_admissibility_statuses_are_the_closed_adr_vocabulary() -> None:
    assert {"admitted", "pending", "refused"} == ADMISSIBILITY_STATUSES


@pytest.mark.parametrize("status", sorted(ADMISSIBILITY_STATUSES - {"refused"}))
def test_refusal_reason_is_spurious_unless_refused(status: str) -> None:
    with pytest.raises(BindingGraphError) as info:
        eq("a", admissibility_status=status, refusal_reason="unit_mismatch")
    assert info.value.reason == "refusal_reason_mismatch"


def test_refusal_reason_is_required_when_refused() -> None:
    with pytest.raises(BindingGraphError) as info:
        eq("a", admissibility_status="refused")
    assert info.value.reason == "refusal_reason_mismatch"


@pytest.mark.parametrize("field", ["refusal_detail", "offending_unit", "propagated_from"])
def test_refusal_extras_only_on_refused_equations(field: str) -> None:
    with pytest.raises(BindingGraphError) as info:
        eq("a", admissibility_status="admitted", **{field: "x"})
    assert info.value.reason == "refusal_reason_mismatch"


def test_unknown_status_refused() -> None:
    with pytest.raises(BindingGraphError) as info:
        eq("a", admissibility_status="maybe")
    assert info.value.reason == "unknown_status"


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"dependencies": {"a"}}, "invalid_field"),
        ({"dependencies": frozenset({"not an id"})}, "invalid_identifier"),
        ({"rhs_canonical": ""}, "invalid_field"),
        ({"unit_proof": ""}, "invalid_field"),
        ({"operation_kind": ""}, "invalid_field"),
        ({"lhs_symbol_id": "x-y"}, "invalid_identifier"),
    ],
)
def test_equation_field_refusals(kwargs: dict[str, Any], reason: str) -> None:
    with pytest.raises(BindingGraphError) as info:
        eq("a", **kwargs)
    assert info.value.reason == reason


def test_root_cause_flag() -> None:
    root = eq("a", admissibility_status="refused", refusal_reason="unknown_unit")
    propagated = eq("a", admissibility_status="refused", refusal_reason="unit_unbound", propagated_from="b")
    assert root.is_root_cause
    assert not propagated.is_root_cause
    assert not eq("a", admissibility_status="admitted").is_root_cause


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"state_index": "later"}, "invalid_field"),
        ({"question_form": "essay"}, "invalid_field"),
        ({"target_status": "refused"}, "refusal_reason_mismatch"),
        ({"target_status": "bound", "target_refusal_reason": "unbound_target"}, "refusal_reason_mismatch"),
        ({"target_status": "done"}, "unknown_status"),
        ({"resolved_by": "1x"}, "invalid_identifier"),
    ],
)
def test_unknown_refusals(kwargs: dict[str, Any], reason: str) -> None:
    with pytest.raises(BindingGraphError) as info:
        BoundUnknown("a", SPAN, **kwargs)
    assert info.value.reason == reason


@pytest.mark.parametrize("form", sorted(QUESTION_FORMS))
def test_every_question_form_is_accepted(form: str) -> None:
    assert BoundUnknown("a", SPAN, question_form=form).question_form == form


@pytest.mark.parametrize("index", ["initial", "terminal", "0", "12"])
def test_state_indices(index: str) -> None:
    assert BoundUnknown("a", SPAN, state_index=index).state_index == index


def test_fact_and_constraint_refusals() -> None:
    with pytest.raises(BindingGraphError):
        BoundFact("a", "", SPAN)
    with pytest.raises(BindingGraphError):
        BoundConstraint("a", "", SPAN)


@pytest.mark.parametrize("collection", ["symbols", "facts", "equations", "unknowns", "constraints"])
def test_graph_rejects_lists(collection: str) -> None:
    with pytest.raises(BindingGraphError) as info:
        graph(**{collection: []})
    assert (info.value.reason, info.value.path) == ("invalid_field", collection)


def test_graph_rejects_wrong_member_types() -> None:
    with pytest.raises(BindingGraphError) as info:
        graph(symbols=(SPAN,))  # type: ignore[arg-type]
    assert info.value.path == "symbols[0]"


def test_graph_rejects_duplicate_symbols() -> None:
    with pytest.raises(BindingGraphError) as info:
        graph((sym("a"), sym("a")))
    assert (info.value.reason, info.value.path) == ("duplicate_symbol", "symbols[1].symbol_id")


@pytest.mark.parametrize(
    ("kwargs", "path"),
    [
        ({"facts": (BoundFact("zz", "1", SPAN),)}, "facts[0].symbol_id"),
        ({"equations": (eq("zz"),)}, "equations[0].lhs_symbol_id"),
        ({"equations": (eq("a", ("zz",)),)}, "equations[0].dependencies"),
        ({"unknowns": (BoundUnknown("zz", SPAN),)}, "unknowns[0].symbol_id"),
        ({"unknowns": (BoundUnknown("a", SPAN, resolved_by="zz"),)}, "unknowns[0].resolved_by"),
        ({"constraints": (BoundConstraint("zz", "zz > 0", SPAN),)}, "constraints[0].symbol_id"),
        (
            {
                "equations": (
                    eq("a", admissibility_status="refused", refusal_reason="unit_unbound", propagated_from="zz"),
                )
            },
            "equations[0].propagated_from",
        ),
    ],
)
def test_graph_referential_integrity(kwargs: dict[str, Any], path: str) -> None:
    with pytest.raises(BindingGraphError) as info:
        graph((sym("a"),), **kwargs)
    assert (info.value.reason, info.value.path) == ("unknown_reference", path)


def test_graph_refuses_a_cycle_and_names_it() -> None:
    symbols = (sym("a"), sym("b"), sym("c"))
    with pytest.raises(BindingGraphError) as info:
        graph(symbols, (eq("a", ("b",)), eq("b", ("c",)), eq("c", ("a",))))
    assert info.value.reason == "circular_dependency"
    assert info.value.detail == repr(["a", "b", "c", "a"])


def test_graph_refuses_a_self_loop() -> None:
    with pytest.raises(BindingGraphError) as info:
        graph((sym("a"),), (eq("a", ("a",)),))
    assert info.value.reason == "circular_dependency"


def test_graph_accepts_a_diamond() -> None:
    symbols = (sym("a"), sym("b"), sym("c"), sym("d"))
    g = graph(symbols, (eq("b", ("a",)), eq("c", ("a",)), eq("d", ("b", "c"))))
    assert len(g.equations) == 3


def test_canonical_string_sorts_dependencies_and_keeps_caller_order() -> None:
    symbols = (sym("z"), sym("a"), sym("m"))
    g = graph(symbols, (eq("z", ("m", "a")),))
    lines = g.to_canonical_string().splitlines()
    assert [line.split()[1] for line in lines[1:4]] == ["z", "a", "m"]
    assert "deps=[a,m]" in lines[4]


def test_canonical_string_escapes_newlines_so_items_stay_one_per_line() -> None:
    span = SourceSpanLink("p", 0, 3, "a\nb")
    g = graph((SymbolBinding("a", "x\ny", "entity", span, "t"),))
    assert len(g.to_canonical_string().splitlines()) == 2


def test_content_hash_is_sha256_of_canonical_string() -> None:
    import hashlib

    g = graph((sym("a"),))
    assert g.content_hash == hashlib.sha256(g.to_canonical_string().encode()).hexdigest()
    assert graph((sym("b"),)).content_hash != g.content_hash


def test_symbol_lookup() -> None:
    g = graph((sym("a"),))
    assert g.symbol("a").symbol_id == "a"
    with pytest.raises(BindingGraphError) as info:
        g.symbol("b")
    assert info.value.reason == "unknown_reference"


def test_summary_counts() -> None:
    g = graph((sym("a"), sym("b")), (eq("b", ("a",), admissibility_status="admitted"),))
    assert g.summary()["statuses"] == {"admitted": 1}


_IDS = st.sampled_from(("a", "b", "c", "d"))
_REFERENCES = st.sampled_from(("a", "b", "c", "d", "z"))  # "z" is never a symbol


@st.composite
def _raw_graph_fields(draw: st.DrawFn) -> dict[str, Any]:
    """Fields of a graph that may break any of its invariants: duplicate or unknown ids, cycles, equations out
    of order, a member of the wrong type, a list instead of a tuple."""
    ids = draw(st.just(["a", "b", "c", "d"]) | st.lists(_IDS, max_size=4))  # all four: every reference resolves
    symbols: list[object] = [sym(sid) for sid in ids]
    facts: list[object] = [BoundFact(sid, "1", SPAN) for sid in draw(st.lists(_REFERENCES, max_size=2))]
    equations: list[object] = []
    shapes = st.tuples(_IDS, st.sets(_REFERENCES, max_size=2), st.none() | _REFERENCES)
    for lhs, deps, upstream in draw(st.lists(shapes, max_size=3)):
        refused = {"refusal_reason": "unit_unbound", "propagated_from": upstream, "admissibility_status": "refused"}
        equations.append(eq(lhs, tuple(sorted(deps)), **(refused if upstream else {})))
    targets = draw(st.lists(st.tuples(_REFERENCES, st.none() | _REFERENCES), max_size=1))
    unknowns: list[object] = [BoundUnknown(sid, SPAN, resolved_by=by) for sid, by in targets]
    constraints: list[object] = [BoundConstraint(sid, "x > 0", SPAN) for sid in draw(st.lists(_REFERENCES, max_size=1))]
    fields: dict[str, Any] = {"symbols": symbols, "facts": facts, "equations": equations, "unknowns": unknowns,
                              "constraints": constraints}  # fmt: skip
    for name in draw(st.sets(st.sampled_from(sorted(fields)), max_size=1)):  # a member of the wrong type
        fields[name].insert(draw(st.integers(0, len(fields[name]))), SPAN)
    shape = draw(st.sampled_from((tuple, tuple, tuple, list)))
    return {name: shape(value) for name, value in fields.items()} | {"provenance": draw(st.sampled_from(("t", "")))}


def _unchecked_graph(fields: dict[str, Any]) -> SemanticSymbolicBindingGraph:
    """A graph value whose fields were never checked (tests only: to run the checks themselves on it)."""
    graph = object.__new__(SemanticSymbolicBindingGraph)
    for name, value in fields.items():
        getattr(SemanticSymbolicBindingGraph, name).__set__(graph, value)
    return graph


@given(_raw_graph_fields())
@settings(max_examples=400)
def test_the_graph_fast_check_passes_only_what_the_full_checks_pass(fields: dict[str, Any]) -> None:
    # _holds is the one-pass common case of _validate: whatever it passes, the checks in order pass too;
    # whatever they pass in dependency order, it passes (so the fast path is the one taken)
    graph = _unchecked_graph(fields)
    try:
        graph._validate()
        valid = True
    except BindingGraphError:
        valid = False
    in_order = valid and _in_dependency_order(fields["equations"])
    assert graph._holds() == in_order
