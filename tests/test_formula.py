"""Formulas as corpora write them (ssbg.reading.formula): parsing, solving for one unknown."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ssbg.errors import ImportRefusal
from ssbg.reading.formula import BinOp, Literal, isolate, parse_equation, parse_formula, parse_number

# ----------------------------------------------------------------- parsing


@pytest.mark.parametrize(
    ("formula", "value"),
    [
        ("48/2", 24),
        ("100-50-30-15", 5),
        ("2*(3+4)", 14),
        ("1,000+.5", 1000.5),
        ("20%*50", 10),
        ("-3+5", 2),
        ("((2)+(3))", 5),
        ("3 \u00d7 4", 12),
    ],
)
def test_formulas_evaluate(formula: str, value: float) -> None:
    node = parse_formula(formula)
    assert isinstance(node, BinOp)
    assert node.value == pytest.approx(value)


@pytest.mark.parametrize(
    ("formula", "reason"),
    [
        ("2 +", "unparseable_formula"),
        ("(2+3", "unparseable_formula"),
        ("2 $ 3", "unparseable_formula"),
        ("17//5", "unsupported_operation"),
        ("17%5", "unsupported_operation"),
        ("2^3", "unsupported_operation"),
        ("x+3", "unsupported_operation"),
        ("2 3", "unparseable_formula"),
    ],
)
def test_bad_formulas_refuse_with_a_reason(formula: str, reason: str) -> None:
    with pytest.raises(ImportRefusal) as info:
        parse_formula(formula)
    assert info.value.reason == reason


def test_deep_nesting_refuses_instead_of_recursing() -> None:
    with pytest.raises(ImportRefusal) as info:
        parse_formula("(" * 60 + "1" + ")" * 60)
    assert info.value.reason == "unparseable_formula"


def test_inline_unit_tags_ride_on_their_numbers() -> None:
    node = parse_formula("3(hour)*60(min/hour)")
    assert isinstance(node, BinOp)
    assert isinstance(node.right, Literal)
    assert node.right.unit == "min/hour"


def test_numbers_keep_their_order_of_appearance() -> None:
    node = parse_formula("7 - 2 * 3")
    assert isinstance(node, BinOp)
    product = node.right
    assert isinstance(product, BinOp)
    numbers = [node.left, product.left, product.right]
    assert [n.position for n in numbers if isinstance(n, Literal)] == [0, 1, 2]


@pytest.mark.parametrize(
    ("equation", "name", "value"),
    [
        ("X=(27.0*16.0)", "X", 432),
        ("56*9=x", "x", 504),
        ("41 + X = 87", "X", 46),
        ("56 - X = 22", "X", 34),
        ("(25*96)=x*12", "x", 200),
        ("12*.01*paycheck=72.0", "paycheck", 600),
        ("36.0/50.0=kg/60.0", "kg", 43.2),
        ("4.0+(5.0*x)=29.0", "x", 5),
        ("0.8 - 0.1", None, 0.7),
    ],
)
def test_equations_are_solved_for_their_one_unknown(equation: str, name: str | None, value: float) -> None:
    tree, unknown = isolate(*parse_equation(equation), equation)
    assert unknown == name
    assert tree.value == pytest.approx(value)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("equation", "value", "shown"),
    [
        ("x + 2*x + 4 = 40", 12, "((40 - 4) / (x + 2))"),
        ("J + 9 = 3*(J - 11)", 21, "(((3 * 11) + 9) / (3 - J))"),
        ("(6.0*n)-5.0=(3.0*(13.0+n))+7.0", 17, "((((3.0 * 13.0) + 7.0) + 5.0) / (6.0 - 3.0))"),
        ("65.0+(0.4*m)=0.6*m", 325, "(65.0 / (0.6 - 0.4))"),
        ("c+((12.0*c)*0.01)=84.0", 75, "(84.0 / (c + (0.01 * 12.0)))"),
        ("x/2 + x/3 = 10", 12, "(10 / ((x / 2) + (x / 3)))"),
    ],
)
def test_an_unknown_written_more_than_once_is_solved_by_collecting_terms(
    equation: str, value: float, shown: str
) -> None:
    tree, _ = isolate(*parse_equation(equation), equation)
    assert tree.value == pytest.approx(value)  # type: ignore[union-attr]
    assert show(tree) == shown  # every number as written; a lone unknown's coefficient shows as its name


def show(node: object) -> str:
    if isinstance(node, BinOp):
        sign = {"add": "+", "subtract": "-", "multiply": "*", "divide": "/"}[node.op]
        return f"({show(node.left)} {sign} {show(node.right)})"
    if isinstance(node, Literal):
        return node.text
    return str(node.name)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("equation", "why"),
    [
        ("a+b=3", "two unknowns"),
        ("(7.0*n)+4.0=(3.0*n)-20.0", "would be negative"),
        ("40/(60+w) + 40/(60-w) = 1.5", "divides by the unknown"),
        ("x*x + x = 12", "multiplies the unknown by itself"),
        ("3*x + 2 = 3*x + 2", "sums to zero"),
    ],
)
def test_equations_beyond_collecting_terms_are_algebra(equation: str, why: str) -> None:
    with pytest.raises(ImportRefusal) as info:
        isolate(*parse_equation(equation), equation)
    assert info.value.reason == "unsupported_operation"
    assert why in info.value.message


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 99), st.integers(1, 99), st.sampled_from("+-*/"), st.booleans())
def test_isolation_inverts_the_operation(a: int, b: int, op: str, unknown_left: bool) -> None:
    result = {"+": a + b, "-": a - b, "*": a * b, "/": a / b}[op]
    equation = f"X {op} {b} = {result!r}" if unknown_left else f"{a} {op} X = {result!r}"
    tree, _ = isolate(*parse_equation(equation), equation)
    assert tree.value == pytest.approx(a if unknown_left else b)  # type: ignore[union-attr]


def test_parse_number() -> None:
    assert (parse_number("1,000"), parse_number(".25"), parse_number("24.")) == (1000.0, 0.25, 24.0)


@settings(max_examples=120, deadline=None)
@given(
    st.integers(1, 20), st.integers(0, 50), st.integers(1, 20), st.integers(0, 50), st.integers(1, 40), st.booleans()
)
def test_collecting_terms_solves_every_linear_equation_with_a_positive_solution(
    a: int, b: int, c: int, d: int, x: int, grouped: bool
) -> None:
    # a*x + b + x = c*x + d + k (or c*(x + d) + k), with k chosen so that x solves it
    right = f"{c}*(x + {d})" if grouped else f"{c}*x + {d}"
    right_value = c * (x + d) if grouped else c * x + d
    k = a * x + b + x - right_value
    equation = f"{a}*x + {b} + x = {right} + {k}" if k >= 0 else f"{a}*x + {b} + x + {-k} = {right}"
    if a + 1 == c:  # the unknown cancels: no solution to collect
        with pytest.raises(ImportRefusal):
            isolate(*parse_equation(equation), equation)
        return
    tree, name = isolate(*parse_equation(equation), equation)
    assert name == "x"
    assert tree.value == pytest.approx(x)  # type: ignore[union-attr]
