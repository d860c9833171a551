"""Every public core entry point answers malformed input with its layer's typed error.

None lets a bare KeyError/TypeError/AttributeError escape.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import ssbg
from ssbg.errors import (
    AdmissibilityError,
    BindingGraphError,
    PackError,
    ProblemGraphError,
    SsbgError,
    UnitAlgebraError,
)

SPAN = ssbg.SourceSpanLink("p", 0, 1, "x")

CASES: list[tuple[str, Callable[[], Any], type[SsbgError]]] = [
    ("parse_unit(None)", lambda: ssbg.parse_unit(None), UnitAlgebraError),  # type: ignore[arg-type]
    ("parse_unit(3)", lambda: ssbg.parse_unit(3), UnitAlgebraError),  # type: ignore[arg-type]
    ("parse_unit('')", lambda: ssbg.parse_unit(""), UnitAlgebraError),
    ("parse_unit(pack=str)", lambda: ssbg.parse_unit("feet", "en_units_v1"), UnitAlgebraError),  # type: ignore[arg-type]
    ("resolve_unit([])", lambda: ssbg.resolve_unit([]), UnitAlgebraError),  # type: ignore[arg-type]
    ("unit_product(str)", lambda: ssbg.unit_product("a", ssbg.DIMENSIONLESS), UnitAlgebraError),  # type: ignore[arg-type]
    ("unit_inverse(None)", lambda: ssbg.unit_inverse(None), UnitAlgebraError),  # type: ignore[arg-type]
    ("unit_quotient(tuple)", lambda: ssbg.unit_quotient(ssbg.DIMENSIONLESS, (1,)), UnitAlgebraError),  # type: ignore[arg-type]
    ("units_equal(int)", lambda: ssbg.units_equal(1, 1), UnitAlgebraError),  # type: ignore[arg-type]
    ("load_pack(missing)", lambda: ssbg.load_pack("nope"), PackError),
    ("check_operation(kind=None)", lambda: ssbg.check_operation(None, ["a"]), AdmissibilityError),  # type: ignore[arg-type]
    ("check_operation(units=None)", lambda: ssbg.check_operation("add", None), AdmissibilityError),  # type: ignore[arg-type]
    ("check_operation(units=[{}])", lambda: ssbg.check_operation("add", [{}]), AdmissibilityError),
    ("check_admissibility(None)", lambda: ssbg.check_admissibility(None, symbols={}), AdmissibilityError),  # type: ignore[arg-type]
    (
        "check_admissibility(symbols=[1])",
        lambda: ssbg.check_admissibility(
            ssbg.BoundEquation("a", "b", frozenset({"b"}), "add", "unverified", "pending", SPAN), symbols=[1]
        ),
        AdmissibilityError,
    ),  # type: ignore[list-item]
    (
        "check_admissibility(pack=1)",
        lambda: ssbg.check_admissibility(
            ssbg.BoundEquation("a", "b", frozenset({"b"}), "add", "unverified", "pending", SPAN), symbols={}, pack=1
        ),
        AdmissibilityError,
    ),  # type: ignore[arg-type]
    ("SourceSpanLink(text=None)", lambda: ssbg.SourceSpanLink("p", 0, 1, None), BindingGraphError),  # type: ignore[arg-type]
    ("SymbolBinding(span=None)", lambda: ssbg.SymbolBinding("a", "a", "entity", None, "t"), BindingGraphError),  # type: ignore[arg-type]
    ("BoundFact(value=3)", lambda: ssbg.BoundFact("a", 3, SPAN), BindingGraphError),  # type: ignore[arg-type]
    (
        "BoundEquation(deps=list)",
        lambda: ssbg.BoundEquation("a", "b", ["b"], "add", "p", "pending", SPAN),
        BindingGraphError,
    ),  # type: ignore[arg-type]
    ("BoundUnknown(span=str)", lambda: ssbg.BoundUnknown("a", "span"), BindingGraphError),  # type: ignore[arg-type]
    ("graph(provenance=None)", lambda: ssbg.SemanticSymbolicBindingGraph((), (), (), (), (), None), BindingGraphError),  # type: ignore[arg-type]
    ("graph(symbols=None)", lambda: ssbg.SemanticSymbolicBindingGraph(None, (), (), (), (), "p"), BindingGraphError),  # type: ignore[arg-type]
    (
        "allocate_symbols(None)",
        lambda: ssbg.allocate_symbols([None], source_span=SPAN, introduced_by="t", semantic_role="entity", prefix="e"),
        BindingGraphError,
    ),  # type: ignore[list-item]
    ("MathProblemGraph.from_dict(None)", lambda: ssbg.MathProblemGraph.from_dict(None), ProblemGraphError),
    ("MathProblemGraph.from_dict('x')", lambda: ssbg.MathProblemGraph.from_dict("x"), ProblemGraphError),
    ("MathProblemGraph.from_json(None)", lambda: ssbg.MathProblemGraph.from_json(None), ProblemGraphError),  # type: ignore[arg-type]
    ("Quantity(None, 'x')", lambda: ssbg.Quantity(None, "x"), ProblemGraphError),  # type: ignore[arg-type]
    ("Quantity(1, None)", lambda: ssbg.Quantity(1, None), ProblemGraphError),  # type: ignore[arg-type]
    ("Rate('1','a','b')", lambda: ssbg.Rate("1", "a", "b"), ProblemGraphError),  # type: ignore[arg-type]
    ("Unknown(unit=[])", lambda: ssbg.Unknown([]), ProblemGraphError),  # type: ignore[arg-type]
    ("Operation(kind=None)", lambda: ssbg.Operation("a", None, ssbg.Quantity(1, "x")), ProblemGraphError),  # type: ignore[arg-type]
    ("InitialPossession(quantity=1)", lambda: ssbg.InitialPossession("a", 1), ProblemGraphError),  # type: ignore[arg-type]
    ("bind_math_problem_graph(dict)", lambda: ssbg.bind_math_problem_graph({}), ProblemGraphError),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("name", "call", "error"), CASES, ids=[c[0] for c in CASES])
def test_malformed_input_raises_the_typed_error_of_its_layer(
    name: str, call: Callable[[], Any], error: type[SsbgError]
) -> None:
    with pytest.raises(error) as info:
        call()
    assert info.value.reason in type(info.value).REASONS
    assert not isinstance(info.value, (KeyError, TypeError, AttributeError))
