"""Formulas into steps (ssbg.corpus.arith): parsing, solving for one unknown, grounding every operand."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ssbg.corpus.arith import (
    BinOp,
    Literal,
    TraceBuilder,
    find_question_span,
    isolate,
    parse_equation,
    parse_formula,
    parse_number,
)
from ssbg.corpus.mentions import extract_mentions
from ssbg.errors import ImportRefusal


def builder(text: str, solution: str | None = None) -> TraceBuilder:
    return TraceBuilder("p", "test", text, extract_mentions(text), solution=solution)


def sources(b: TraceBuilder) -> list[list[str]]:
    return [[o.source if o.constant is None else f"constant:{o.constant}" for o in s.operands] for s in b.steps]


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


@pytest.mark.parametrize("equation", ["(6.0*n)-5.0=(3.0*(13.0+n))+7.0", "65.0+(0.4*m)=0.6*m", "a+b=3"])
def test_an_unknown_twice_is_algebra(equation: str) -> None:
    with pytest.raises(ImportRefusal) as info:
        isolate(*parse_equation(equation), equation)
    assert info.value.reason == "unsupported_operation"


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 99), st.integers(1, 99), st.sampled_from("+-*/"), st.booleans())
def test_isolation_inverts_the_operation(a: int, b: int, op: str, unknown_left: bool) -> None:
    result = {"+": a + b, "-": a - b, "*": a * b, "/": a / b}[op]
    equation = f"X {op} {b} = {result!r}" if unknown_left else f"{a} {op} X = {result!r}"
    tree, _ = isolate(*parse_equation(equation), equation)
    assert tree.value == pytest.approx(a if unknown_left else b)  # type: ignore[union-attr]


def test_parse_number() -> None:
    assert (parse_number("1,000"), parse_number(".25"), parse_number("24.")) == (1000.0, 0.25, 24.0)


@pytest.mark.parametrize(
    ("text", "question"),
    [
        ("Ann has 3.5 apples. How many does she have?", "How many does she have?"),
        ("Ann paid $3.50. Find the change", "Find the change"),
        ("No question here.", None),
    ],
)
def test_question_span(text: str, question: str | None) -> None:
    span = find_question_span(text)
    assert (None if span is None else text[span[0] : span[1]]) == question


# ----------------------------------------------------------------- grounding


def test_chains_of_one_operator_are_one_step() -> None:
    b = builder("She had $100 and spent $50, $30 and $15.")
    b.add_formula("100-50-30-15=5")
    assert [(s.op, len(s.operands)) for s in b.steps] == [("subtract", 4)]


def test_sub_expressions_are_implicit_steps() -> None:
    b = builder("It has 2 rows of 3 chairs and 4 stools.")
    b.add_formula("2*3+4=10", unit="seats")
    assert [(s.op, s.implicit, s.unit, s.result) for s in b.steps] == [
        ("multiply", True, None, 6),
        ("add", False, "seats", 10),
    ]


def test_earlier_results_are_preferred_and_rounding_is_allowed() -> None:
    b = builder("Split 10 dollars among 3 friends, then 5 more friends.")
    b.add_formula("10/3=3.3333")
    b.add_formula("3.33*5=16.65")
    assert sources(b) == [["mention", "mention"], ["step", "mention"]]


def test_cued_constants_ground_implied_numbers() -> None:
    b = builder("He works 3 hours a day for a week.")
    b.add_formula("3*60=180")
    b.add_formula("180*7=1260")
    assert sources(b) == [["mention", "constant:minutes_per_hour"], ["step", "constant:days_per_week"]]


def test_a_number_without_any_ground_refuses() -> None:
    b = builder("Sam has 7 marbles.")
    with pytest.raises(ImportRefusal) as info:
        b.add_formula("7+9=16")
    assert (info.value.reason, info.value.detail, info.value.problem_id) == ("operand_not_found", "9", "p")


def test_a_fraction_written_in_the_formula_folds_into_its_mention() -> None:
    b = builder("He sprays 3/4 of his 48 trees.")
    b.add_formula("3/4*48=36")
    assert [(s.op, [o.text for o in s.operands]) for s in b.steps] == [("multiply", ["3/4", "48"])]


def test_percent_as_a_fraction_grounds_to_the_percent_mention() -> None:
    b = builder("A 20% tip on a $50 bill.")
    b.add_formula("50*.2=10")
    assert sources(b) == [["mention", "mention"]]


def test_a_percent_complement_is_an_implicit_difference() -> None:
    b = builder("It sold 40% of 250 muffins.")
    b.add_formula("250*.6=150")
    assert (b.steps[0].op, b.steps[0].implicit, b.steps[0].result) == ("subtract", True, 60)


def test_a_fraction_gives_its_denominator() -> None:
    b = builder("He spent one-third of his $600.")
    b.add_formula("600/3=200")
    assert sources(b) == [["mention", "constant:third"]]


def test_a_number_the_solution_states_grounds_but_not_one_it_restates() -> None:
    solution = "Each car has 4 wheels, so 12 x 4 = <<12*4=48>>48 wheels.\nThen 48 x 9 = <<48*9=432>>432."
    b = builder("There are 12 cars.", solution)
    b.add_formula("12*4=48", position=solution.index("<<"))
    assert sources(b) == [["mention", "mention"]]
    with pytest.raises(ImportRefusal):
        b.add_formula("48*9=432", position=solution.rindex("<<"))
    trace = b.build()
    assert [(m.text, m.source) for m in trace.mentions] == [("12 cars", "text"), ("4 wheels", "solution")]


def test_an_optional_formula_that_fails_leaves_no_trace() -> None:
    b = builder("Ann has 3 apples.")
    assert b.add_formula("3+5=8", optional=True) is False
    assert b.steps == []
    assert b.step_values == []


def test_gold_alignments_bind_by_position_not_by_value() -> None:
    text = "There were 5 cats and 5 dogs."
    b = builder(text)
    b.add_equation("X=(5.0+5.0)", aligned=[1, 0])
    assert [o.mention for o in b.steps[0].operands] == [1, 0]


def test_no_step_is_no_equation() -> None:
    b = builder("Ann has 3 apples.")
    b.add_formula("3=3")
    with pytest.raises(ImportRefusal) as info:
        b.build()
    assert info.value.reason == "no_equation"


def test_division_by_zero_refuses() -> None:
    b = builder("Ann has 3 apples and 0 pears.")
    with pytest.raises(ImportRefusal) as info:
        b.add_formula("3/0=1")
    assert info.value.reason == "unparseable_formula"
