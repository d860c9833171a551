"""ADR-0134's kinds table, row by row, at its edges, on inputs the adapter never builds.

Each row is tested with the fewest dependencies it allows, one fewer, a dependency
without the role the row names, an operand of unknown scale, an upstream result in
place of a declared unit, and the lhs declared and not.  Where ssbg departs from the
row on purpose (ADR 0002), the test says so and pins the departure that
``check_admissibility``'s docstring states.
"""

from __future__ import annotations

import pytest

from ssbg.admissibility import REFUSED_UNIT_PROOF, UnitProof, check_admissibility, check_operation
from ssbg.errors import AdmissibilityError, BindingGraphError
from ssbg.model import BoundEquation, SourceSpanLink, SymbolBinding
from ssbg.units import DIMENSIONLESS, UnitVector

SPAN = SourceSpanLink("p", 0, 1, "x")
MONEY, TIME, COUNT, LENGTH = UnitVector(money=1), UnitVector(time=1), UnitVector(count=1), UnitVector(length=1)


def sym(sid: str, unit: str | None = None, role: str = "quantity") -> SymbolBinding:
    return SymbolBinding(sid, sid, role, SPAN, "test", unit=unit)


def check(
    kind: str,
    operands: list[SymbolBinding],
    *,
    lhs: str | None = None,
    rhs: str | None = None,
    upstream: dict[str, UnitVector] | None = None,
) -> UnitProof:
    ids = tuple(s.symbol_id for s in operands)
    eq = BoundEquation("out", rhs or " + ".join(ids) or "0", frozenset(ids), kind, REFUSED_UNIT_PROOF, "pending", SPAN)
    return check_admissibility(eq, symbols=[*operands, sym("out", lhs)], upstream_units=upstream)


def reason(kind: str, operands: list[SymbolBinding], **kw: object) -> str:
    with pytest.raises(AdmissibilityError) as info:
        check(kind, operands, **kw)  # type: ignore[arg-type]
    return info.value.reason


# ------------------------------------------------------------ add / subtract / transfer / compare_additive


@pytest.mark.parametrize("kind", ["add", "subtract", "transfer"])
def test_additive_rows_admit_their_fewest_one_dependency(kind: str) -> None:
    proof = check(kind, [sym("a", "dollars")], lhs="dollars")
    assert (proof.lhs_unit, proof.operand_units) == (MONEY, (MONEY,))


@pytest.mark.parametrize("kind", ["add", "subtract", "transfer", "compare_additive"])
def test_additive_rows_with_no_dependency_have_no_unit_for_the_lhs(kind: str) -> None:
    assert reason(kind, []) == "operand_arity"


@pytest.mark.parametrize("kind", ["add", "subtract", "transfer", "compare_additive"])
def test_additive_rows_need_one_unit_for_every_dependency(kind: str) -> None:
    assert reason(kind, [sym("a", "dollars"), sym("b", "dollars"), sym("c", "hours")]) == "unit_mismatch"


@pytest.mark.parametrize("kind", ["add", "subtract", "transfer", "compare_additive"])
def test_additive_rows_check_a_declared_lhs(kind: str) -> None:
    assert reason(kind, [sym("a", "hours"), sym("b", "minutes")], lhs="dollars") == "unit_mismatch"
    assert check(kind, [sym("a", "hours"), sym("b", "minutes")], lhs="minutes").lhs_unit == TIME


def test_compare_additive_departs_from_the_row_with_one_dependency() -> None:
    # ADR 0002: the reference's holding and the delta; a delta alone (the reference holds nothing) refuses
    assert reason("compare_additive", [sym("a", "dollars")]) == "operand_arity"


@pytest.mark.parametrize("kind", ["add", "multiply"])
def test_a_pure_number_operand_is_dimensionless(kind: str) -> None:
    ratio = sym("r", None, "ratio")
    assert check(kind, [ratio, sym("s", None, "ratio")]).lhs_unit == DIMENSIONLESS
    if kind == "add":  # a pure number added to dollars is a mismatch, never dollars
        assert reason(kind, [ratio, sym("a", "dollars")]) == "unit_mismatch"
    else:  # a pure number times dollars is dollars
        assert check(kind, [ratio, sym("a", "dollars")]).lhs_unit == MONEY


@pytest.mark.parametrize("kind", ["add", "multiply", "apply_rate"])
def test_an_operand_without_unit_or_ratio_role_is_unbound(kind: str) -> None:
    rate = sym("r", "dollars_per_hour", "rate") if kind == "apply_rate" else sym("r", "dollars")
    assert reason(kind, [rate, sym("z")]) == "unit_unbound"


# ------------------------------------------------------------ compare_multiplicative


def test_compare_multiplicative_as_adr_0134_binds_it_has_no_dependency_and_a_dimensionless_lhs() -> None:
    assert check("compare_multiplicative", []).to_canonical_string() == "compare_multiplicative: [] -> dimensionless"
    assert check("compare_multiplicative", [], lhs="%").lhs_unit == DIMENSIONLESS
    assert reason("compare_multiplicative", [], lhs="dollars") == "unit_mismatch"


def test_compare_multiplicative_dependency_units_cancel() -> None:
    proof = check("compare_multiplicative", [sym("a", "dollars"), sym("b", "cents")])
    assert (proof.lhs_unit, proof.operand_units) == (DIMENSIONLESS, (MONEY, MONEY))
    assert reason("compare_multiplicative", [sym("a", "dollars"), sym("b", "hours")]) == "unit_mismatch"
    assert reason("compare_multiplicative", [sym("a", "dollars"), sym("b", "dollars")], lhs="dollars") == (
        "unit_mismatch"
    )


def test_compare_multiplicative_units_that_do_not_cancel_name_both_and_the_offending_unit() -> None:
    with pytest.raises(AdmissibilityError) as info:
        check("compare_multiplicative", [sym("a", "dollars"), sym("b", "hours")])
    assert info.value.detail == "a:money vs b:time"
    assert info.value.offending_unit == "hours"


def test_compare_multiplicative_one_dependency_has_nothing_to_cancel_against() -> None:
    assert reason("compare_multiplicative", [sym("a", "dollars")]) == "operand_arity"


def test_compare_multiplicative_threaded_shape_departs_from_the_row() -> None:
    # ADR 0002: factor x reference; the lhs is the reference's unit, not dimensionless
    proof = check("compare_multiplicative", [sym("f", None, "ratio"), sym("h", "pounds")], lhs="pounds")
    assert (proof.lhs_unit, proof.operand_units) == (UnitVector(mass=1), (UnitVector(mass=1), DIMENSIONLESS))
    assert reason("compare_multiplicative", [sym("f", None, "ratio")]) == "operand_arity"
    assert reason("compare_multiplicative", [sym("f", "hours", "ratio"), sym("h", "pounds")]) == "unit_mismatch"
    two_factors = [sym("f", None, "ratio"), sym("g", None, "ratio")]
    assert reason("compare_multiplicative", two_factors) == "operand_arity"


# ------------------------------------------------------------ multiply


def test_multiply_lhs_is_the_product_of_any_number_of_dependencies() -> None:
    cube = [sym("a", "feet"), sym("b", "feet"), sym("c", "feet")]
    assert check("multiply", cube).lhs_unit == UnitVector(length=3)
    assert reason("multiply", cube, lhs="feet") == "unit_mismatch"


def test_multiply_with_one_dependency_departs_from_the_row() -> None:
    # ADR 0002: a multiply that found no holding binds with its literal alone and must refuse
    assert reason("multiply", [sym("a", "dollars")]) == "operand_arity"


# ------------------------------------------------------------ divide


def test_divide_takes_the_divisor_literal_whatever_the_ids_sort_as() -> None:
    proof = check("divide", [sym("a__divisor", "hours"), sym("z", "miles")], rhs="nonsense")
    assert (proof.lhs_unit, proof.operand_units) == (UnitVector(length=1, time=-1), (LENGTH, TIME))


def test_divide_with_two_divisor_literals_has_no_dividend() -> None:
    operands = [sym("a__divisor", "miles"), sym("b__divisor", "hours")]
    assert reason("divide", operands, rhs="a__divisor / b__divisor") == "operand_arity"


def test_divide_without_a_divisor_literal_reads_the_rhs_or_refuses() -> None:
    operands = [sym("a", "miles"), sym("b", "hours")]
    assert check("divide", operands, rhs="a / b").lhs_unit == UnitVector(length=1, time=-1)
    assert reason("divide", operands, rhs="a / a") == "operand_arity"
    assert reason("divide", operands, rhs="a * b") == "operand_arity"


@pytest.mark.parametrize("count", [1, 3])
def test_divide_takes_exactly_two_dependencies(count: int) -> None:
    operands = [sym(f"d{i}", "miles") for i in range(count - 1)] + [sym("x__divisor", "hours")]
    assert reason("divide", operands) == "operand_arity"


def test_divide_checks_a_declared_lhs_and_notes_no_scale_it_cannot_know() -> None:
    operands = [sym("a", "boxes"), sym("b__divisor", "hours")]
    assert reason("divide", operands, lhs="hours") == "unit_mismatch"
    assert check("divide", operands, lhs="boxes per minute").conversions == ()  # a box has no fixed size


# ------------------------------------------------------------ apply_rate


def test_apply_rate_row_as_written() -> None:
    proof = check("apply_rate", [sym("r", "dollars_per_hour", "rate"), sym("t", "minutes")], lhs="cents")
    assert (proof.lhs_unit, proof.operand_units) == (MONEY, (UnitVector(money=1, time=-1), TIME))
    assert proof.conversions == ("dollar_per_hour*minute->cent x5/3",)


@pytest.mark.parametrize("count", [1, 3])
def test_apply_rate_takes_exactly_two_dependencies(count: int) -> None:
    operands = [sym("r", "dollars_per_hour", "rate")] + [sym(f"t{i}", "hours") for i in range(count - 1)]
    assert reason("apply_rate", operands) == "operand_arity"


def test_apply_rate_a_rate_operand_without_its_role_is_no_rate_form() -> None:
    assert reason("apply_rate", [sym("r", "dollars_per_hour"), sym("t", "hours")]) == "rate_form_invalid"


def test_apply_rate_two_rate_roles_are_no_rate_form() -> None:
    operands = [sym("r", "dollars_per_hour", "rate"), sym("s", "hours_per_day", "rate")]
    assert reason("apply_rate", operands) == "rate_form_invalid"


def test_apply_rate_a_rate_role_whose_unit_is_not_x_per_y() -> None:
    assert reason("apply_rate", [sym("r", "dollars", "rate"), sym("t", "hours")]) == "rate_form_invalid"


def test_apply_rate_the_other_operand_carries_the_denominator() -> None:
    assert reason("apply_rate", [sym("r", "dollars_per_hour", "rate"), sym("t", "feet")]) == "unit_mismatch"
    assert reason("apply_rate", [sym("r", "dollars_per_hour", "rate"), sym("t", "hours")], lhs="hours") == (
        "unit_mismatch"
    )


def test_apply_rate_with_an_operand_of_unknown_scale() -> None:
    # boxes per hour x hours: a box has no fixed size, so no conversion note can be made, and none is
    for lhs in (None, "boxes", "items"):
        proof = check("apply_rate", [sym("r", "boxes per hour", "rate"), sym("t", "minutes")], lhs=lhs)
        assert (proof.lhs_unit, proof.conversions) == (COUNT, ())
    proof = check("apply_rate", [sym("r", "dollars per box", "rate"), sym("n", "boxes")], lhs="cents")
    assert (proof.lhs_unit, proof.conversions) == (MONEY, ())


def test_apply_rate_reads_a_rate_from_an_upstream_equation() -> None:
    upstream = {"r": UnitVector(money=1, time=-1)}
    proof = check("apply_rate", [sym("r", None, "rate"), sym("t", "hours")], lhs="dollars", upstream=upstream)
    assert (proof.lhs_unit, proof.operand_units) == (MONEY, (UnitVector(money=1, time=-1), TIME))
    not_a_rate = {"r": MONEY}
    assert reason("apply_rate", [sym("r", None, "rate"), sym("t", "hours")], upstream=not_a_rate) == (
        "rate_form_invalid"
    )
    assert reason("apply_rate", [sym("r", None, "rate"), sym("t", "hours")]) == "unit_unbound"


def test_apply_rate_upstream_base_in_the_denominator() -> None:
    upstream = {"t": TIME}
    assert check("apply_rate", [sym("r", "mph", "rate"), sym("t")], upstream=upstream).lhs_unit == LENGTH


# ------------------------------------------------------------ the vocabulary and the arguments


def test_an_unknown_kind_or_a_kind_that_is_no_text_is_unknown_operation() -> None:
    for kind in ("teleport", ["add"], None, 3):
        with pytest.raises(AdmissibilityError) as info:
            check_operation(kind, ["dollars", "dollars"])  # type: ignore[arg-type]
        assert info.value.reason == "unknown_operation"


@pytest.mark.parametrize(
    "symbols",
    [{"a": 1}, {"a": None}, {"b": SymbolBinding("a", "a", "quantity", SPAN, "t")}, 7, "a", None],
)
def test_symbols_that_are_not_symbol_bindings_refuse(symbols: object) -> None:
    eq = BoundEquation("a", "a", frozenset({"a"}), "add", REFUSED_UNIT_PROOF, "pending", SPAN)
    with pytest.raises(AdmissibilityError) as info:
        check_admissibility(eq, symbols=symbols)  # type: ignore[arg-type]
    assert info.value.reason == "unknown_symbol"


@pytest.mark.parametrize("upstream", [{"a": (0, 1)}, {"a": "money"}, {1: MONEY}, [("a", MONEY)]])
def test_upstream_units_that_are_not_unit_vectors_refuse(upstream: object) -> None:
    eq = BoundEquation("out", "a", frozenset({"a"}), "add", REFUSED_UNIT_PROOF, "pending", SPAN)
    with pytest.raises(AdmissibilityError) as info:
        check_admissibility(eq, symbols=[sym("a"), sym("out")], upstream_units=upstream)  # type: ignore[arg-type]
    assert info.value.reason == "unit_unbound"


# ------------------------------------------------------------ UnitProof validates at construction (ADR 0013)


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (("", MONEY, ()), "operation_kind"),
        (("teleport", MONEY, ()), "operation_kind"),
        ((["add"], MONEY, ()), "operation_kind"),
        (("add", (0, 0, 0, 1, 0, 0), ()), "lhs_unit"),
        (("add", MONEY, [MONEY]), "operand_units"),
        (("add", MONEY, ("money",)), "operand_units"),
        (("add", MONEY, (MONEY,), ["x"]), "conversions"),
        (("add", MONEY, (MONEY,), ("",)), "conversions"),
        (("add", MONEY, (MONEY,), (3,)), "conversions"),
    ],
)
def test_unit_proof_refuses_an_invalid_field(args: tuple[object, ...], field: str) -> None:
    with pytest.raises(BindingGraphError) as info:
        UnitProof(*args)  # type: ignore[arg-type]
    assert (info.value.reason, info.value.path) == ("invalid_field", field)


def test_unit_proof_accepts_a_valid_proof() -> None:
    assert str(UnitProof("add", MONEY, (MONEY, MONEY), ("cent->dollar x1/100",))) == (
        "add: [money,money] -> money; convert cent->dollar x1/100"
    )
