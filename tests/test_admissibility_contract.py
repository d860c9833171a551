"""The contract of ssbg.admissibility, field by field: every refusal's reason, ``detail`` and
``offending_unit`` (the tables and the unknown-unit leaderboard read these fields, never the message),
a message that starts with its reason and names what it refuses, the conversion notes of proofs, and
what :class:`EquationStamper` records.  Written against mutation testing (``make mutation``): each case
holds a behaviour a mutant of the module changed while the other tests still passed.
"""

from __future__ import annotations

from typing import Any

import pytest

from ssbg.admissibility import (
    REFUSED_UNIT_PROOF,
    EquationStamper,
    UnitProof,
    check_admissibility,
    check_operation,
)
from ssbg.errors import ADMISSIBILITY_REASONS, AdmissibilityError, BindingGraphError
from ssbg.model import BoundEquation, SourceSpanLink, SymbolBinding
from ssbg.units import DIMENSIONLESS, UnitVector, default_pack

SPAN = SourceSpanLink("p", 0, 1, "x")


def sym(sid: str, unit: str | None = None, role: str = "quantity") -> SymbolBinding:
    return SymbolBinding(sid, sid, role, SPAN, "test", unit=unit)


def equation(kind: str, ids: tuple[str, ...], rhs: str | None = None, lhs: str = "out") -> BoundEquation:
    return BoundEquation(lhs, rhs or " + ".join(ids) or "0", frozenset(ids), kind, REFUSED_UNIT_PROOF, "pending", SPAN)


def refusal(kind: str, operands: list[SymbolBinding], lhs: str | None = None, **kw: Any) -> AdmissibilityError:
    ids = tuple(s.symbol_id for s in operands)
    with pytest.raises(AdmissibilityError) as info:
        check_admissibility(equation(kind, ids, kw.pop("rhs", None)), symbols=[*operands, sym("out", lhs)], **kw)
    return info.value


# (kind, operands, lhs unit, rhs) -> (reason, detail, offending_unit, words the message names)
Expected = tuple[str, str | None, str | None, tuple[str, ...]]
REFUSALS: list[tuple[str, list[SymbolBinding], str | None, str | None, Expected]] = [
    ("add", [sym("a", "dollars"), sym("b", "hours")], None, None,
     ("unit_mismatch", "a:money vs b:time", "hours", ("add", "money", "time"))),
    ("subtract", [sym("a", "dollars"), sym("b", None, "ratio")], None, None,
     ("unit_mismatch", "a:money vs b:dimensionless", None, ("subtract", "money", "dimensionless"))),
    ("add", [sym("a", "dollars"), sym("z")], None, None,
     ("unit_unbound", "z", None, ("z",))),
    ("add", [sym("a", "dollars"), sym("b", "dollars")], "hours", None,
     ("unit_mismatch", "lhs out", "hours", ("add", "money", "out", "'hours'", "time"))),
    ("add", [sym("a", "dollars")], "apples", None,
     ("unknown_unit", "unknown_unit: apples", "apples", ("'apples'", "en_units_v1"))),
    ("add", [sym("a", "apples")], None, None,
     ("unknown_unit", "unknown_unit: apples", "apples", ("'apples'", "en_units_v1"))),
    ("add", [sym("a", " ")], None, None,
     ("unknown_unit", "malformed_unit:  ", " ", ("' '",))),
    ("add", [], None, None, ("operand_arity", "0", None, ("add takes 1..n operands, got 0",))),
    ("compare_additive", [sym("a", "hours")], None, None,
     ("operand_arity", "1", None, ("compare_additive takes 2..n operands, got 1",))),
    ("divide", [sym("a", "miles")], None, None, ("operand_arity", "1", None, ("divide takes 2 operands, got 1",))),
    ("fraction_portion", [sym("h", "dollars")], None, None,
     ("operand_arity", "1", None, ("fraction_portion takes 2 operands, got 1",))),
    ("teleport", [sym("a", "dollars")], None, None,
     ("unknown_operation", "teleport", None, ("'teleport'", "apply_rate"))),
    ("divide", [sym("a", "miles"), sym("b", "hours")], None, "a + b",
     ("operand_arity", "a,b", None, ("divide", "__divisor"))),
    ("divide", [sym("a", "miles"), sym("b", "hours")], None, "a / c",
     ("operand_arity", "a,b", None, ("divide",))),
    ("divide", [sym("a__divisor", "miles"), sym("b__divisor", "hours")], None, None,
     ("operand_arity", "a__divisor,b__divisor", None, ("got 2 divisors",))),
    ("apply_rate", [sym("r", "dollars_per_hour"), sym("t", "hours")], None, None,
     ("rate_form_invalid", "r,t", None, ("apply_rate", "'rate'", "got 0"))),
    ("apply_rate", [sym("r", "dollars", "rate"), sym("t", "hours")], None, None,
     ("rate_form_invalid", "r", "dollars", ("apply_rate", "r", "'dollar'", "X per Y"))),
    ("apply_rate", [sym("r", "dollars_per_hour", "rate"), sym("t", "feet")], None, None,
     ("unit_mismatch", "r:money/time x t:length", "feet", ("apply_rate", "time", "length"))),
    ("apply_rate", [sym("r", "dollars_per_hour", "rate"), sym("t", None, "ratio")], None, None,
     ("unit_unbound", "t", None, ("apply_rate", "t"))),
    ("unit_partition", [sym("q", "hours"), sym("c", "item_per_bag", "rate")], None, None,
     ("unit_mismatch", "q:time / c", "hours", ("unit_partition", "count", "time"))),
    ("unit_partition", [sym("q", "items"), sym("c", "items", "rate")], None, None,
     ("rate_form_invalid", "c", "items", ("unit_partition", "c", "'item'"))),
    ("fraction_portion", [sym("h", "dollars"), sym("f", "hours", "ratio")], None, None,
     ("unit_mismatch", "f", "hours", ("fraction_portion", "f", "time"))),
    ("fraction_portion", [sym("h", "dollars"), sym("g", "dollars")], None, None,
     ("operand_arity", "g,h", None, ("fraction_portion", "2 operands", "0 ratio"))),
    ("compare_multiplicative", [sym("a", "dollars")], None, None,
     ("operand_arity", "a", None, ("compare_multiplicative", "a"))),
    ("compare_multiplicative", [sym("a", "dollars"), sym("b", "hours")], None, None,
     ("unit_mismatch", "a:money vs b:time", "hours", ("compare_multiplicative", "money", "time"))),
    ("compare_multiplicative", [sym("a", "dollars"), sym("b", None, "ratio"), sym("c", "dollars")], None, None,
     ("operand_arity", "a,b,c", None, ("compare_multiplicative", "3 operands", "1 ratio"))),
    ("multiply", [sym("a", "feet"), sym("b", "feet")], "feet", None,
     ("unit_mismatch", "lhs out", "feet", ("multiply", "length^2", "'feet'"))),
]


@pytest.mark.parametrize(("kind", "operands", "lhs", "rhs", "expected"), REFUSALS)
def test_a_refusal_carries_its_reason_detail_and_offending_unit(
    kind: str, operands: list[SymbolBinding], lhs: str | None, rhs: str | None, expected: tuple[Any, ...]
) -> None:
    exc = refusal(kind, operands, lhs, rhs=rhs)
    reason, detail, offending, words = expected
    assert (exc.reason, exc.detail, exc.offending_unit) == (reason, detail, offending)
    assert exc.message.startswith(f"{reason}: ")  # ADR-0134: "unknown_unit: ..."
    assert all(word in exc.message for word in words), exc.message


@pytest.mark.parametrize(("kind", "operands", "lhs", "rhs", "expected"), REFUSALS)
def test_the_stamper_records_the_same_refusal(
    kind: str, operands: list[SymbolBinding], lhs: str | None, rhs: str | None, expected: tuple[Any, ...]
) -> None:
    ids = tuple(s.symbol_id for s in operands)
    stamper = EquationStamper({s.symbol_id: s for s in [*operands, sym("out", lhs)]})
    stamped = stamper.stamp("out", rhs or " + ".join(ids) or "0", ids, kind, SPAN)
    reason, detail, offending, _words = expected
    assert (stamped.admissibility_status, stamped.refusal_reason) == ("refused", reason)
    assert (stamped.refusal_detail, stamped.offending_unit, stamped.propagated_from) == (detail, offending, None)
    assert stamped.unit_proof == REFUSED_UNIT_PROOF
    assert (stamper.root_of, stamper.admitted, stamper.proofs) == ({"out": "out"}, {}, {})
    assert not stamper.admits("out", rhs or " + ".join(ids) or "0", ids, kind)


def test_an_unknown_symbol_names_itself() -> None:
    for eq, missing in ((equation("add", ("a",), lhs="ghost"), "ghost"), (equation("add", ("a", "b")), "b")):
        with pytest.raises(AdmissibilityError) as info:
            check_admissibility(eq, symbols={"a": sym("a", "dollars"), "out": sym("out")})
        assert (info.value.reason, info.value.detail, info.value.offending_unit) == ("unknown_symbol", missing, None)
        assert info.value.message == f"unknown_symbol: symbol {missing!r} is not bound"


# ------------------------------------------------------------ arguments that are not what they should be


def test_an_equation_that_is_not_one() -> None:
    with pytest.raises(AdmissibilityError) as info:
        check_admissibility("add", symbols={})  # type: ignore[arg-type]
    assert (info.value.reason, info.value.message) == ("unknown_operation",
                                                       "unknown_operation: expected a BoundEquation (got str)")


def test_a_pack_that_is_not_one() -> None:
    with pytest.raises(AdmissibilityError) as info:
        check_admissibility(equation("add", ("a",)), symbols=[sym("a", "hours"), sym("out")], pack="en")  # type: ignore[arg-type]
    assert info.value.reason == "unknown_unit"
    assert info.value.message == "unknown_unit: 'pack' must be a UnitPack (got str)"


def test_symbols_that_are_not_bindings() -> None:
    cases = [([1], "'symbols' must hold SymbolBinding values (got int)", None),
             (7, "'symbols' must be a mapping or an iterable (got int)", None),
             ({"a": 1}, "'symbols' must map each id to its SymbolBinding (got int at 'a')", "'a'")]
    for symbols, message, detail in cases:
        with pytest.raises(AdmissibilityError) as info:
            check_admissibility(equation("add", ("a",)), symbols=symbols)  # type: ignore[arg-type]
        assert (info.value.reason, info.value.message, info.value.detail) == (
            "unknown_symbol", f"unknown_symbol: {message}", detail
        )


def test_upstream_units_that_are_not_vectors() -> None:
    with pytest.raises(AdmissibilityError) as info:
        check_admissibility(equation("add", ("a",)), symbols=[sym("a"), sym("out")], upstream_units={"a": "time"})  # type: ignore[dict-item]
    assert info.value.message == "unit_unbound: 'upstream_units' must map symbol ids to UnitVector values"


def test_a_pack_given_is_the_pack_used(tmp_path: Any) -> None:
    from ssbg.units import compose, load_pack

    both = compose(default_pack(), load_pack("en_counts_v1"))
    assert check_operation("add", ["cookies", "cookies"], pack=both).lhs_unit == UnitVector(count=1)
    with pytest.raises(AdmissibilityError):
        check_operation("add", ["cookies", "cookies"])
    eq = equation("add", ("a",))
    assert check_admissibility(eq, symbols=[sym("a", "cookies"), sym("out")], pack=both).lhs_unit == UnitVector(count=1)


@pytest.mark.parametrize(
    ("args", "reason", "detail", "offending", "message"),
    [
        (("add", "hours"), "operand_arity", None, None, "'operand_units' must be a sequence of unit texts"),
        (("add", 3), "operand_arity", None, None, "'operand_units' must be a sequence of unit texts"),
        (("sum", ["hours"]), "unknown_operation", "sum", None, "operation kind 'sum' is not one of"),
        (("add", ["hours", 3]), "unknown_unit", None, "3", "operand 1 must be a unit text (got 3)"),
        (("add", ["hours", " "]), "unknown_unit", None, "' '", "operand 1 must be a unit text (got ' ')"),
    ],
)
def test_check_operation_names_a_bad_argument(
    args: tuple[Any, ...], reason: str, detail: str | None, offending: str | None, message: str
) -> None:
    with pytest.raises(AdmissibilityError) as info:
        check_operation(*args)
    assert (info.value.reason, info.value.detail, info.value.offending_unit) == (reason, detail, offending)
    assert info.value.message.startswith(f"{reason}: {message}")


@pytest.mark.parametrize("lhs", [3, " ", ""])
def test_check_operation_names_a_bad_lhs(lhs: object) -> None:
    with pytest.raises(AdmissibilityError) as info:
        check_operation("add", ["hours"], lhs_unit=lhs)  # type: ignore[arg-type]
    assert (info.value.reason, info.value.offending_unit) == ("unknown_unit", repr(lhs))
    assert info.value.message == f"unknown_unit: lhs unit must be a unit text (got {lhs!r})"


def test_check_operation_divides_its_first_operand_by_its_second() -> None:
    assert check_operation("divide", ["miles", "hours"]).lhs_unit == UnitVector(length=1, time=-1)
    assert check_operation("divide", ["hours", "miles"]).lhs_unit == UnitVector(length=-1, time=1)


def test_check_operation_three_operands_of_divide_is_arity() -> None:
    with pytest.raises(AdmissibilityError) as info:
        check_operation("divide", ["miles", "hours", "hours"])
    assert (info.value.reason, info.value.detail) == ("operand_arity", "3")


def test_check_operation_reads_a_rate_role_for_apply_rate_and_unit_partition() -> None:
    assert str(check_operation("apply_rate", ["dollars per hour", "hours"])) == "apply_rate: [money/time,time] -> money"
    assert str(check_operation("unit_partition", ["items", "items per bag"])) == (
        "unit_partition: [count,dimensionless] -> count"
    )


# ------------------------------------------------------------ proofs and their conversion notes


@pytest.mark.parametrize(
    ("kind", "units", "lhs", "proof"),
    [
        ("add", ["hours", "minutes"], None, "add: [time,time] -> time; convert minute->hour x1/60"),
        ("add", ["hours", "minutes"], "minutes",
         "add: [time,time] -> time; convert minute->hour x1/60, hour->minute x60"),
        ("add", ["hours", "hours"], "hours", "add: [time,time] -> time"),
        ("add", ["boxes", "crates"], None, "add: [count,count] -> count; convert crate->box x?"),
        ("multiply", ["feet", "feet"], "square yards",
         "multiply: [length,length] -> length^2; convert foot*foot->square_yard x1/9"),
        ("multiply", ["feet", "yards", "inches"], None, "multiply: [length,length,length] -> length^3"),
        ("multiply", ["yards", "yards"], "square feet",
         "multiply: [length,length] -> length^2; convert yard*yard->square_foot x9"),
        ("multiply", ["feet", "boxes"], None, "multiply: [length,count] -> length*count"),  # a box has no scale
        ("multiply", ["dollars", "hours"], None, "multiply: [money,time] -> time*money"),
        ("multiply", ["boxes", "dollar per box"], "cents", "multiply: [count,money/count] -> money"),
        ("divide", ["miles", "hours"], "feet per minute",
         "divide: [length,time] -> length/time; convert mile/hour->foot_per_minute x88"),
        ("divide", ["boxes", "hours"], "boxes per minute", "divide: [count,time] -> count/time"),
        ("apply_rate", ["dollars per hour", "minutes"], "cents",
         "apply_rate: [money/time,time] -> money; convert dollar_per_hour*minute->cent x5/3"),
        ("apply_rate", ["boxes per hour", "minutes"], "boxes", "apply_rate: [count/time,time] -> count"),
        ("compare_multiplicative", ["pounds", None], "ounces",
         "compare_multiplicative: [mass,dimensionless] -> mass; convert pound->ounce x16"),
        ("fraction_portion", ["dollars", "half"], "cents",
         "fraction_portion: [money,dimensionless] -> money; convert dollar->cent x100"),
    ],
)
def test_proofs_and_their_conversion_notes(kind: str, units: list[str | None], lhs: str | None, proof: str) -> None:
    assert check_operation(kind, units, lhs_unit=lhs).to_canonical_string() == proof


def test_a_pure_number_in_a_product_leaves_the_scale_to_the_units() -> None:
    # a ratio operand (no unit) sorts first and is skipped: the scale is the dollar's, noted against cents
    operands = [sym("a", None, "ratio"), sym("b", "dollars")]
    proof = check_admissibility(equation("multiply", ("a", "b")), symbols=[*operands, sym("out", "cents")])
    assert proof.conversions == ("dollar->cent x100",)
    assert proof.operand_units == (DIMENSIONLESS, UnitVector(money=1))


def test_a_division_by_a_pure_number_has_no_scale_to_note() -> None:
    operands = [sym("a", "dollars"), sym("b__divisor", None, "ratio")]
    proof = check_admissibility(equation("divide", ("a", "b__divisor")), symbols=[*operands, sym("out", "cents")])
    assert (proof.lhs_unit, proof.conversions) == (UnitVector(money=1), ())


def test_a_division_by_the_rhs_order_reads_the_rhs_from_the_left() -> None:
    operands = [sym("a", "miles"), sym("b", "hours")]
    proof = check_admissibility(equation("divide", ("a", "b"), rhs="b / a"), symbols=[*operands, sym("out")])
    assert proof.operand_units == (UnitVector(time=1), UnitVector(length=1))


def test_a_proof_lists_the_operands_in_sorted_id_order() -> None:
    operands = [sym("b", "hours"), sym("a", "minutes")]
    proof = check_admissibility(equation("add", ("b", "a")), symbols=[*operands, sym("out")])
    assert proof.to_canonical_string() == "add: [time,time] -> time; convert hour->minute x60"


def test_a_proof_str_is_its_canonical_string() -> None:
    proof = UnitProof("add", UnitVector(money=1), (UnitVector(money=1),), ("cent->dollar x1/100",))
    assert str(proof) == proof.to_canonical_string() == "add: [money] -> money; convert cent->dollar x1/100"
    assert UnitProof("add", DIMENSIONLESS, ()).to_canonical_string() == "add: [] -> dimensionless"


@pytest.mark.parametrize(
    ("args", "field", "detail", "got"),
    [
        (("x", DIMENSIONLESS, ()), "operation_kind", "'x'", "str"),
        (("add", None, ()), "lhs_unit", "None", "NoneType"),
        (("add", DIMENSIONLESS, None), "operand_units", "None", "NoneType"),
        (("add", DIMENSIONLESS, (), (" ",)), "conversions", "(' ',)", "tuple"),
    ],
)
def test_a_unit_proof_refusal_names_the_field_and_the_value(
    args: tuple[Any, ...], field: str, detail: str, got: str
) -> None:
    with pytest.raises(BindingGraphError) as info:
        UnitProof(*args)
    assert (info.value.reason, info.value.path, info.value.detail) == ("invalid_field", field, detail)
    assert info.value.message.startswith(f"UnitProof '{field}' must be")
    assert f"(got {got} {detail})" in info.value.message


# ------------------------------------------------------------ the stamper


def test_the_stamper_records_admitted_units_and_proofs_and_threads_them() -> None:
    symbols = {s.symbol_id: s for s in [sym("r", "dollars per hour", "rate"), sym("t", "hours"), sym("x"),
                                         sym("y", "cents"), sym("z")]}
    stamper = EquationStamper(symbols)
    first = stamper.stamp("x", "r * t", ("r", "t"), "apply_rate", SPAN)
    assert (first.admissibility_status, first.unit_proof) == ("admitted", "apply_rate: [money/time,time] -> money")
    assert (stamper.admitted, str(stamper.proofs["x"])) == ({"x": UnitVector(money=1)}, first.unit_proof)
    assert (first.refusal_reason, first.refusal_detail, first.offending_unit, first.propagated_from) == (None,) * 4
    second = stamper.stamp("z", "x + y", ("x", "y"), "add", SPAN)  # reads x at its admitted unit (no scale)
    assert (second.admissibility_status, second.unit_proof) == (
        "admitted", "add: [money,money] -> money; convert cent->money x?"
    )
    assert stamper.root_of == {}


def test_a_dependent_of_a_refused_equation_is_refused_naming_its_root() -> None:
    symbols = {s.symbol_id: s for s in [sym("a", "dollars"), sym("b", "hours"), sym("c", "dollars"), sym("x"),
                                         sym("y"), sym("w"), sym("v")]}
    stamper = EquationStamper(symbols)
    root = stamper.stamp("x", "a + b", ("a", "b"), "add", SPAN)
    assert (root.refusal_reason, root.propagated_from, stamper.root_of) == ("unit_mismatch", None, {"x": "x"})
    child = stamper.stamp("y", "x + c", ("c", "x"), "add", SPAN)
    assert (child.refusal_reason, child.refusal_detail) == ("unit_unbound", "depends on refused x")
    assert (child.propagated_from, child.offending_unit, child.unit_proof) == ("x", None, REFUSED_UNIT_PROOF)
    grandchild = stamper.stamp("w", "y + x", ("x", "y"), "add", SPAN)
    assert (grandchild.refusal_detail, grandchild.propagated_from) == ("depends on refused x", "x")
    assert stamper.root_of == {"x": "x", "y": "x", "w": "x"}
    assert not stamper.admits("v", "w", ("w",), "add")
    stamper.retract("x")
    assert "x" not in stamper.root_of


def test_a_rule_refusal_without_detail_stamps_its_message() -> None:
    symbols = {"a": sym("a", "dollars"), "out": sym("out")}
    stamped = EquationStamper(symbols).stamp("out", "a", ("a",), "teleport", SPAN)
    assert (stamped.refusal_reason, stamped.refusal_detail) == ("unknown_operation", "teleport")


def test_admits_records_nothing_and_retract_forgets() -> None:
    symbols = {s.symbol_id: s for s in [sym("a", "hours"), sym("b", "minutes"), sym("x"), sym("y", "feet")]}
    stamper = EquationStamper(symbols, default_pack())
    assert stamper.admits("x", "a + b", ("a", "b"), "add")
    assert not stamper.admits("x", "a + y", ("a", "y"), "add")
    assert (stamper.admitted, stamper.proofs, stamper.root_of) == ({}, {}, {})
    stamper.stamp("x", "a + b", ("a", "b"), "add", SPAN)
    stamper.retract("x")
    assert (stamper.admitted, stamper.proofs, stamper.root_of) == ({}, {}, {})


def test_refuse_stamps_a_root_cause_a_caller_established() -> None:
    stamper = EquationStamper({"a": sym("a", "hours"), "x": sym("x")})
    stamped = stamper.refuse("x", "a", ("a",), "add", SPAN, "ambiguous_grounding", "two mentions of 3")
    assert (stamped.refusal_reason, stamped.refusal_detail, stamped.offending_unit) == (
        "ambiguous_grounding", "two mentions of 3", None
    )
    assert stamper.root_of == {"x": "x"}


@pytest.mark.parametrize("reason", [*sorted(ADMISSIBILITY_REASONS), "no_such_reason"])
def test_refuse_stamps_only_a_reading_outcome(reason: str) -> None:
    # ADR 0024: ADR-0134's seven come from dimensional analysis (stamp), a caller's refusal from reading
    stamper = EquationStamper({"a": sym("a", "hours"), "x": sym("x")})
    with pytest.raises(BindingGraphError) as info:
        stamper.refuse("x", "a", ("a",), "add", SPAN, reason, "why")
    assert (info.value.reason, info.value.path) == ("unknown_refusal_reason", "refusal_reason")
    assert stamper.root_of == {}


# ------------------------------------------------------------ the rules, called through the public KIND_RULES


@pytest.mark.parametrize("kind", ["add", "multiply", "divide", "fraction_portion", "compare_multiplicative"])
def test_a_rule_refuses_an_operand_with_no_unit_unless_it_is_a_pure_number(kind: str) -> None:
    from ssbg.admissibility import KIND_RULES, Operand

    hours = default_pack().resolve("hours")
    bare = Operand("z", "quantity", None)
    partner = Operand("f", "ratio", None) if kind in ("fraction_portion", "compare_multiplicative") else Operand(
        "a", "quantity", hours
    )
    operands = sorted([partner, bare], key=lambda op: op.symbol_id)
    with pytest.raises(AdmissibilityError) as info:
        KIND_RULES[kind](kind, operands, "a / z" if kind == "divide" else "")
    assert (info.value.reason, info.value.detail) == ("unit_unbound", "z")
    assert info.value.message == f"unit_unbound: {kind} operand z has no unit"


@pytest.mark.parametrize(("kind", "units", "proof"), [
    ("multiply", [None, "dollars"], "multiply: [dimensionless,money] -> money"),
    ("divide", ["dollars", None], "divide: [money,dimensionless] -> money"),
    ("divide", [None, "hours"], "divide: [dimensionless,time] -> 1/time"),
])
def test_check_operation_reads_a_blank_operand_of_a_product_or_quotient_as_a_pure_number(
    kind: str, units: list[str | None], proof: str
) -> None:
    assert check_operation(kind, units).to_canonical_string() == proof


def test_check_operation_a_blank_operand_of_a_sum_has_no_unit() -> None:
    with pytest.raises(AdmissibilityError) as info:
        check_operation("add", ["dollars", None])
    assert (info.value.reason, info.value.detail) == ("unit_unbound", "op_1")


def test_long_values_are_cut_in_refusals() -> None:
    with pytest.raises(BindingGraphError) as info:
        UnitProof("k" * 500, DIMENSIONLESS, ())
    assert (len(info.value.message), len(info.value.detail or "")) == (300, 80)
    key = "s" * 200
    with pytest.raises(AdmissibilityError) as info2:
        check_admissibility(equation("add", ("a",)), symbols={key: sym("a")})
    assert len(info2.value.detail or "") == 80


@pytest.mark.parametrize(("args", "field", "detail"), [
    (("add", (0, 0, 0, 1, 0, 0), ()), "lhs_unit", "(0, 0, 0, 1, 0, 0)"),
    (("add", DIMENSIONLESS, [DIMENSIONLESS]), "operand_units", repr([DIMENSIONLESS])),
])
def test_a_unit_proof_refusal_shows_the_value_it_refused(args: tuple[Any, ...], field: str, detail: str) -> None:
    with pytest.raises(BindingGraphError) as info:
        UnitProof(*args)
    assert (info.value.path, info.value.detail) == (field, detail[:80])
    assert "UnitVector" in info.value.message


def test_the_stamper_binds_over_the_pack_it_is_given() -> None:
    from ssbg.units import compose, load_pack

    both = compose(default_pack(), load_pack("en_counts_v1"))
    symbols = {"a": sym("a", "cookies"), "b": sym("b", "cookies"), "x": sym("x")}
    assert EquationStamper(symbols, both).stamp("x", "a + b", ("a", "b"), "add", SPAN).admissibility_status == (
        "admitted"
    )
    assert EquationStamper(symbols).stamp("x", "a + b", ("a", "b"), "add", SPAN).refusal_reason == "unknown_unit"
