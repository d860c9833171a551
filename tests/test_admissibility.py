"""ADR-0134 admissibility: the kinds table, each rule admitted and refused, proofs, lhs checks, propagation."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ssbg.admissibility import (
    KIND_RULES,
    OPERATION_KINDS,
    REFUSED_UNIT_PROOF,
    EquationStamper,
    UnitProof,
    _memoized_proof,
    check_admissibility,
    check_operation,
    clear_proof_cache,
)
from ssbg.errors import ADMISSIBILITY_REASONS, AdmissibilityError
from ssbg.model import BoundEquation, SourceSpanLink, SymbolBinding
from ssbg.units import DIMENSIONLESS, UnitPack, UnitVector, default_pack

SPAN = SourceSpanLink("p", 0, 1, "x")


def sym(sid: str, unit: str | None = None, role: str = "quantity") -> SymbolBinding:
    return SymbolBinding(sid, sid, role, SPAN, "test", unit=unit)


def shell(lhs: str, deps: tuple[str, ...], kind: str, rhs: str | None = None) -> BoundEquation:
    return BoundEquation(
        lhs, rhs or " + ".join(deps) or "0", frozenset(deps), kind, REFUSED_UNIT_PROOF, "pending", SPAN
    )


def refusal(kind: str, units: list[Any], **kw: Any) -> AdmissibilityError:
    with pytest.raises(AdmissibilityError) as info:
        check_operation(kind, units, **kw)
    return info.value


def test_operation_kinds_are_the_ten_of_the_spec() -> None:
    assert set(OPERATION_KINDS) == {
        "add",
        "subtract",
        "transfer",
        "multiply",
        "divide",
        "apply_rate",
        "compare_additive",
        "compare_multiplicative",
        "unit_partition",
        "fraction_portion",
    }


@pytest.mark.parametrize("kind", OPERATION_KINDS)
def test_every_kind_has_a_rule(kind: str) -> None:
    assert kind in KIND_RULES


def test_the_table_has_no_rule_outside_the_vocabulary() -> None:
    assert set(KIND_RULES) == set(OPERATION_KINDS)


ADMITTED = [
    ("add", ["dollars", "dollars"], None, "add: [money,money] -> money"),
    ("add", ["people", "children"], None, "add: [count,count] -> count"),
    ("subtract", ["feet", "ft"], None, "subtract: [length,length] -> length"),
    ("transfer", ["boxes", "boxes"], None, "transfer: [count,count] -> count"),
    ("compare_additive", ["hours", "hours"], None, "compare_additive: [time,time] -> time"),
    ("multiply", ["feet", "feet"], "square feet", "multiply: [length,length] -> length^2"),
    ("multiply", ["dollar_per_hour", "hours"], None, "multiply: [money/time,time] -> money"),
    ("divide", ["miles", "hours"], "mph", "divide: [length,time] -> length/time"),
    ("divide", ["dollars", "%"], None, "divide: [money,dimensionless] -> money; convert dollar/percent->? x?"),
    ("apply_rate", ["dollars_per_hour", "hours"], "dollars", "apply_rate: [money/time,time] -> money"),
    ("apply_rate", ["mph", "hours"], "miles", "apply_rate: [length/time,time] -> length"),
    ("apply_rate", ["item_per_box", "boxes"], "items", "apply_rate: [dimensionless,count] -> count"),
    ("unit_partition", ["items", "item_per_bag"], "bags", "unit_partition: [count,dimensionless] -> count"),
    ("unit_partition", ["feet", "foot_per_hour"], None, "unit_partition: [length,length/time] -> time"),
    ("fraction_portion", ["dollars", None], None, "fraction_portion: [money,dimensionless] -> money"),
    ("fraction_portion", ["people", "half"], "people", "fraction_portion: [count,dimensionless] -> count"),
    ("compare_multiplicative", ["pounds", None], None, "compare_multiplicative: [mass,dimensionless] -> mass"),
    ("compare_multiplicative", ["pounds", "%"], "pounds", "compare_multiplicative: [mass,dimensionless] -> mass"),
]


@pytest.mark.parametrize(("kind", "units", "lhs", "proof"), [a for a in ADMITTED if "->? x?" not in a[3]])
def test_admitted_examples(kind: str, units: list[Any], lhs: str | None, proof: str) -> None:
    assert check_operation(kind, units, lhs_unit=lhs).to_canonical_string() == proof


REFUSED = [
    ("add", ["dollars", "hours"], None, "unit_mismatch"),
    ("subtract", ["feet", "pounds"], None, "unit_mismatch"),
    ("transfer", ["boxes", "dollars"], None, "unit_mismatch"),
    ("compare_additive", ["hours", "feet"], None, "unit_mismatch"),
    ("add", ["dollars", "dollars"], "hours", "unit_mismatch"),
    ("multiply", ["feet", "feet"], "feet", "unit_mismatch"),
    ("divide", ["miles", "hours"], "hours", "unit_mismatch"),
    ("apply_rate", ["dollars_per_hour", "feet"], None, "unit_mismatch"),
    ("apply_rate", ["dollars_per_hour", "hours"], "feet", "unit_mismatch"),
    ("apply_rate", ["dollars", "hours"], None, "rate_form_invalid"),
    ("unit_partition", ["hours", "item_per_bag"], None, "unit_mismatch"),
    ("unit_partition", ["items", "bags"], None, "rate_form_invalid"),
    ("fraction_portion", ["dollars", "hours"], None, "unit_mismatch"),
    ("compare_multiplicative", ["pounds", "feet"], None, "unit_mismatch"),
    ("add", ["apples", "apples"], None, "unknown_unit"),
    ("multiply", ["widgets", "dollars"], None, "unknown_unit"),
    ("apply_rate", ["dollars_per_apple", "apples"], None, "unknown_unit"),
    ("add", ["dollars", "dollars"], "clips", "unknown_unit"),
    ("add", [], None, "operand_arity"),
    ("multiply", ["dollars"], None, "operand_arity"),
    ("divide", ["dollars", "hours", "feet"], None, "operand_arity"),
    ("apply_rate", ["dollars_per_hour"], None, "operand_arity"),
    ("fraction_portion", ["dollars", None, None], None, "operand_arity"),
    ("add", ["dollars", None], None, "unit_unbound"),
    ("teleport", ["dollars"], None, "unknown_operation"),
]


@pytest.mark.parametrize(("kind", "units", "lhs", "reason"), REFUSED)
def test_refused_examples(kind: str, units: list[Any], lhs: str | None, reason: str) -> None:
    assert refusal(kind, units, lhs_unit=lhs).reason == reason


def test_every_reason_is_reachable_through_check_admissibility() -> None:
    seen = {r for *_, r in REFUSED}
    symbols = {"a": sym("a", "dollars"), "lhs": sym("lhs")}
    with pytest.raises(AdmissibilityError) as info:
        check_admissibility(shell("lhs", ("a", "ghost"), "add"), symbols=symbols)
    seen.add(info.value.reason)
    assert seen == ADMISSIBILITY_REASONS  # ADR-0134's seven; a reading's outcomes are binding's (ADR 0024)


def test_unknown_unit_names_the_offending_unit() -> None:
    assert refusal("add", ["dollars", "marbles"]).offending_unit == "marbles"


def test_unknown_symbol_for_the_lhs() -> None:
    with pytest.raises(AdmissibilityError) as info:
        check_admissibility(shell("nobody", ("a",), "add"), symbols={"a": sym("a", "dollars")})
    assert (info.value.reason, info.value.detail) == ("unknown_symbol", "nobody")


def test_symbols_may_be_an_iterable() -> None:
    proof = check_admissibility(shell("c", ("a", "b"), "add"), symbols=[sym("a", "feet"), sym("b", "inches"), sym("c")])
    assert proof.lhs_unit == UnitVector(length=1)


def test_divide_needs_a_divisor_literal_or_an_ordered_rhs() -> None:
    symbols = {"a": sym("a", "miles"), "b": sym("b", "hours"), "c": sym("c")}
    with pytest.raises(AdmissibilityError) as info:
        check_admissibility(shell("c", ("a", "b"), "divide", rhs="a + b"), symbols=symbols)
    assert info.value.reason == "operand_arity"
    by_rhs = check_admissibility(shell("c", ("a", "b"), "divide", rhs="b / a"), symbols=symbols)
    assert by_rhs.lhs_unit == UnitVector(time=1, length=-1)


def test_apply_rate_needs_exactly_one_rate_role() -> None:
    # two operands (the arity of the row), but the rate lacks its role: ADR-0134's "dep with
    # semantic_role='rate' carries X/Y" does not hold, so the rate's form is invalid
    symbols = {"r": sym("r", "mph"), "t": sym("t", "hours"), "d": sym("d")}
    with pytest.raises(AdmissibilityError) as info:
        check_admissibility(shell("d", ("r", "t"), "apply_rate"), symbols=symbols)
    assert info.value.reason == "rate_form_invalid"


def test_upstream_units_feed_unitless_results() -> None:
    symbols = {"up": sym("up"), "x": sym("x", "dollars"), "out": sym("out")}
    eq = shell("out", ("up", "x"), "add")
    with pytest.raises(AdmissibilityError) as info:
        check_admissibility(eq, symbols=symbols)
    assert info.value.reason == "unit_unbound"
    proof = check_admissibility(eq, symbols=symbols, upstream_units={"up": UnitVector(money=1)})
    assert proof.lhs_unit == UnitVector(money=1)


def test_undeclared_lhs_records_the_derived_unit() -> None:
    assert check_operation("multiply", ["feet", "pounds"]).lhs_unit == UnitVector(length=1, mass=1)


@pytest.mark.parametrize(
    ("kind", "units", "lhs", "note"),
    [
        ("add", ["hours", "minutes"], None, "minute->hour x1/60"),
        ("add", ["dollars", "cents"], None, "cent->dollar x1/100"),
        ("add", ["dozen", "item"], None, "item->dozen x1/12"),
        ("add", ["box", "item"], None, "item->box x?"),
        ("add", ["euros", "dollars"], None, "dollar->euro x?"),
        ("apply_rate", ["dollars_per_hour", "minutes"], "dollars", "dollar_per_hour*minute->dollar x1/60"),
        ("divide", ["miles", "minutes"], "mph", "mile/minute->mile_per_hour x60"),
    ],
)
def test_conversion_notes(kind: str, units: list[str], lhs: str | None, note: str) -> None:
    proof = check_operation(kind, units, lhs_unit=lhs)
    assert note in proof.conversions
    assert proof.to_canonical_string().endswith("; convert " + ", ".join(proof.conversions))


@pytest.mark.parametrize(
    ("kind", "units"),
    [("add", ["hours", "hrs"]), ("apply_rate", ["dollars_per_hour", "hours"]), ("add", ["people", "children"])],
)
def test_no_note_when_scales_agree(kind: str, units: list[str]) -> None:
    assert check_operation(kind, units).conversions == ()


def test_proof_canonical_string_format() -> None:
    proof = UnitProof("apply_rate", UnitVector(money=1), (UnitVector(money=1, time=-1), UnitVector(time=1)))
    assert proof.to_canonical_string() == "apply_rate: [money/time,time] -> money"
    assert str(proof) == proof.to_canonical_string()


def test_operand_order_of_symmetric_kinds_follows_sorted_ids() -> None:
    symbols = {"b": sym("b", "feet"), "a": sym("a", "feet"), "z": sym("z")}
    one = check_admissibility(shell("z", ("b", "a"), "add"), symbols=symbols)
    two = check_admissibility(shell("z", ("a", "b"), "add"), symbols=symbols)
    assert one == two


def test_check_operation_refuses_malformed_arguments() -> None:
    assert refusal("add", "dollars").reason == "operand_arity"  # type: ignore[arg-type]
    assert refusal("add", ["dollars", ""]).reason == "unknown_unit"
    assert refusal("add", ["dollars", 3]).reason == "unknown_unit"
    assert refusal("add", ["dollars"], lhs_unit="").reason == "unknown_unit"


def test_check_admissibility_refuses_a_non_equation() -> None:
    with pytest.raises(AdmissibilityError) as info:
        check_admissibility("x = 1", symbols={})  # type: ignore[arg-type]
    assert info.value.reason == "unknown_operation"


def test_pure_ratio_operand_is_dimensionless_only_for_ratio_roles() -> None:
    symbols = {"f": sym("f", None, "ratio"), "q": sym("q", "feet"), "out": sym("out")}
    proof = check_admissibility(shell("out", ("f", "q"), "fraction_portion"), symbols=symbols)
    assert proof.operand_units == (UnitVector(length=1), DIMENSIONLESS)


class TestStamper:
    def setup_method(self) -> None:
        self.symbols = {
            "a": sym("a", "apples"),
            "b": sym("b", "dollars"),
            "r1": sym("r1"),
            "r2": sym("r2"),
            "r3": sym("r3"),
            "c": sym("c", "dollars"),
        }
        self.stamper = EquationStamper(self.symbols)

    def test_admitted_results_feed_downstream(self) -> None:
        first = self.stamper.stamp("r1", "b + c", ("b", "c"), "add", SPAN)
        second = self.stamper.stamp("r2", "r1 + c", ("r1", "c"), "add", SPAN)
        assert (first.admissibility_status, second.admissibility_status) == ("admitted", "admitted")
        assert self.stamper.admitted["r2"] == UnitVector(money=1)

    def test_refusals_propagate_to_the_root_cause(self) -> None:
        root = self.stamper.stamp("r1", "a + a", ("a",), "add", SPAN)
        mid = self.stamper.stamp("r2", "r1 + b", ("r1", "b"), "add", SPAN)
        leaf = self.stamper.stamp("r3", "r2 + b", ("r2", "b"), "add", SPAN)
        assert (root.refusal_reason, root.is_root_cause, root.offending_unit) == ("unknown_unit", True, "apples")
        assert (mid.refusal_reason, mid.propagated_from) == ("unit_unbound", "r1")
        assert (leaf.refusal_reason, leaf.propagated_from) == ("unit_unbound", "r1")
        assert leaf.unit_proof == REFUSED_UNIT_PROOF

    def test_stamper_never_raises_on_unknown_kinds(self) -> None:
        out = self.stamper.stamp("r1", "b", ("b",), "levitate", SPAN)
        assert out.refusal_reason == "unknown_operation"



_UNITS = (None, "feet", "dollars", "dollars per hour", "hours", "minutes", "apples", "%", "parsecs")


@settings(max_examples=300, deadline=None)
@given(
    kind=st.sampled_from(sorted(KIND_RULES)),
    operands=st.lists(
        st.tuples(st.sampled_from(_UNITS), st.sampled_from(("quantity", "rate", "ratio"))), min_size=1, max_size=3
    ),
    lhs_unit=st.sampled_from(_UNITS),
)
@example(kind="multiply", operands=[("feet", "quantity"), ("dollars", "quantity")], lhs_unit=None)
@example(kind="apply_rate", operands=[("hours", "quantity"), ("dollars per hour", "rate")], lhs_unit="dollars")
@example(kind="subtract", operands=[("feet", "quantity"), ("dollars", "quantity")], lhs_unit="feet")
def test_memoized_proofs_never_change_a_verdict(
    kind: str, operands: list[tuple[str | None, str]], lhs_unit: str | None
) -> None:
    """An equation stamped through the proof memo (primed by the same units and roles under other ids), or
    through the refusal memo (the same equation again), gets the proof, status and refusal fields that the
    kind's rule gives it with the memos switched off."""

    def verdict(ids: list[str]) -> tuple[str, str, str | None, str | None, str | None]:
        symbols = {sid: sym(sid, unit, role) for sid, (unit, role) in zip(ids, operands, strict=True)}
        symbols["out"] = sym("out", lhs_unit)
        rhs = " / ".join(ids) if kind == "divide" else " + ".join(ids)
        eq = EquationStamper(symbols).stamp("out", rhs, ids, kind, SPAN)
        return eq.unit_proof, eq.admissibility_status, eq.refusal_reason, eq.refusal_detail, eq.offending_unit

    ids = [f"s{i}" for i in range(len(operands))]
    no_memo = mock.patch.object(UnitPack, "memo", return_value={})  # no proof known beforehand
    with mock.patch("ssbg.admissibility._memoized_proof", return_value=None), no_memo:
        direct = verdict(ids)
    verdict([f"t{i}" for i in range(len(operands))])  # primes the proof memo
    assert verdict(ids) == direct
    assert verdict(ids) == direct  # a refusal now comes from the refusal memo


def test_clear_proof_cache_empties_the_memo() -> None:
    symbols = {"a": sym("a", "feet"), "b": sym("b", "feet"), "out": sym("out")}
    signature = (("quantity", "feet"), ("quantity", "feet"))
    EquationStamper(symbols).stamp("out", "a + b", ("a", "b"), "add", SPAN)
    memo = default_pack().memo("ssbg.admissibility.proofs")
    with mock.patch("ssbg.admissibility._proof_by_units", return_value=None) as rule:
        assert _memoized_proof("add", signature, None, default_pack(), memo) is not None  # from the memo
        clear_proof_cache()
        assert _memoized_proof("add", signature, None, default_pack(), memo) is None  # the rule again
    assert rule.call_count == 1


class _CountingDict(dict[str, str]):
    """A dict that counts how often it is walked (each walk is a full pass over it)."""

    walks = 0

    def __iter__(self) -> Any:
        _CountingDict.walks += 1
        return super().__iter__()


def test_stamping_a_refused_chain_never_walks_the_refusals() -> None:
    # Each dependent of a refused equation looks its few dependencies up among the refusals; walking
    # every refusal per step made a chain of n refused steps cost n^2 (64k steps: 436 s).
    symbols = {"a": sym("a", "dollars"), "b": sym("b", "hours")}
    symbols.update({f"s{i}": sym(f"s{i}") for i in range(200)})
    stamper = EquationStamper(symbols)
    stamper.root_of = _CountingDict()
    _CountingDict.walks = 0
    first = stamper.stamp("s0", "a + b", ("a", "b"), "add", SPAN)
    chain = [stamper.stamp(f"s{i}", f"s{i - 1} + a", (f"s{i - 1}", "a"), "add", SPAN) for i in range(1, 200)]
    assert first.refusal_reason == "unit_mismatch"
    assert {(eq.refusal_reason, eq.propagated_from) for eq in chain} == {("unit_unbound", "s0")}
    assert _CountingDict.walks == 0
