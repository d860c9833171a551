"""Solution formats models and gold solutions write (issue 26), each drawn from the kind of text it came from."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ssbg.checking.batch import check_solutions
from ssbg.checking.verdict import Finding, check_solution
from ssbg.errors import ProblemGraphError
from ssbg.limits import MAX_SOLUTION_CHARS
from ssbg.reading.readers import solutions
from ssbg.reading.readers.gsm8k import gsm8k_trace, stated_unit
from ssbg.reading.readers.solutions import normalize_solution, read_solution
from tests.strategies import seam_settings

REPO = Path(__file__).resolve().parents[1]

# GSM8K test 266's gold solution (the dev file of model solutions): thousands split by spaces, question too.
TAN_QUESTION = (
    "Mr. Tan sold his house for $400 000. He paid the transfer fees that amount to 3% of the selling price and "
    "also paid a brokerage fee that is 5% of the selling price. If he also paid $250 000 for the remaining loan "
    "amount of the house, how much is Mr. Tan's net proceeds from selling the house?"
)
TAN_GOLD = (
    "Mr. Tan paid $400 000 x 3/100 = $12 000 for the transfer fees.\n"
    "He paid $400 000 x 5/100 = $20 000 for the brokerage fee.\n"
    "So, Mr. Tan paid a total of $12 000 + $20 000 + $250 000 = $282 000 for the transfer, brokerage, and loan fees.\n"
    "Hence, Mr. Tan's net proceeds is $400 000 - $282 000 = $118 000.\n"
    "A: 118000"
)


def test_thousands_split_by_spaces_are_one_number() -> None:
    reading = read_solution(TAN_QUESTION, TAN_GOLD)
    assert [s.formula.split("=")[-1].strip() for s in reading.steps] == ["$12,000", "$20,000", "$282,000", "$118,000"]
    assert check_solution(TAN_QUESTION, TAN_GOLD).status == "sound"


def test_a_split_group_keeps_the_offsets_of_the_solution_as_shown() -> None:
    n = normalize_solution("It costs $17 500 in all.\nA: 17500")
    assert (len(n.working), n.working[10:16]) == (len(n.text), "17,500")


def test_a_number_before_a_hyphenated_word_is_not_a_thousands_group() -> None:
    assert "2 100-page" in normalize_solution("He read 2 100-page books.").working


# GSM8K gold writes arithmetic in words ("83 plus 91 equals <<83+91=174>>174"); models write it without annotations.
@pytest.mark.parametrize(
    ("question", "solution", "formula"),
    [
        ("Tim has 12 apples, 14 pears and 4 plums. How many fruits does he have?",
         "12 plus 14 plus 4 equals 30 fruits.\nThe answer is 30.", "12 + 14 + 4 = 30"),
        ("Sam buys 3 packs of 4 pens. How many pens does he have?", "3 times 4 is 12 pens.\n#### 12", "3 * 4 = 12"),
        ("Ann had 20 dollars and spent 8 dollars. How many dollars are left?",
         "20 minus 8 is equal to 12 dollars.\nA: 12", "20 - 8 = 12"),
    ],
)
def test_prose_arithmetic_in_words_is_read(question: str, solution: str, formula: str) -> None:
    assert [s.formula for s in read_solution(question, solution).steps] == [formula]


def test_a_wrong_sum_in_words_is_an_arithmetic_error() -> None:
    v = check_solution("Tim has 12 apples, 14 pears and 4 plums. How many fruits does he have?",
                       "12 plus 14 plus 4 equals 31 fruits.\nThe answer is 31.")
    assert [f.reason for f in v.errors] == ["arithmetic_error"]


@pytest.mark.parametrize(
    "question",
    [
        "Bob repairs 3 bikes on Monday and 5 bikes on Tuesday. On Wednesday he doesn't repair any. "
        "How many bikes did he repair?",
        "Bob repairs 3 bikes on Monday and 5 bikes on Tuesday. On Wednesday he repairs none. "
        "How many bikes did he repair?",
    ],
)
def test_a_zero_the_question_states_in_words_is_no_invented_number(question: str) -> None:
    v = check_solution(question, "3 + 5 + 0 = <<3+5+0=8>>8 bikes\n#### 8")
    assert [f.reason for f in v.findings if f.reason == "ungrounded_number"] == []


def test_a_zero_no_word_states_is_still_invented() -> None:
    v = check_solution("Bob repairs 3 bikes on Monday and 5 bikes on Tuesday. How many bikes did he repair?",
                       "3 + 5 + 0 = <<3+5+0=8>>8 bikes\n#### 8")
    assert [f.reason for f in v.errors] == ["ungrounded_number"]


# The 175B model writes a result with its unit after a slash ("$<<10*100=1000>>1000/day").
SLASH_QUESTION = ("A worker is paid $0.8 per task and spends $0.5 per task on fuel. She does 10 tasks. "
                  "How much does she keep?")
SLASH_SOLUTION = "She keeps 0.8-0.5=$<<0.8-0.5=0.3>>0.3/task\nShe keeps 10*0.3=$<<10*0.3=3>>3\n#### 3"


def test_a_result_with_its_unit_after_a_slash_is_read_whole() -> None:
    reading = read_solution(SLASH_QUESTION, SLASH_SOLUTION)
    assert [s.formula for s in reading.steps] == ["0.8-0.5=0.3", "10*0.3=3"]
    assert [n.reason for n in reading.notes] == []


def test_the_gsm8k_corpus_reader_reads_the_slash_result_too() -> None:
    trace = gsm8k_trace(SLASH_QUESTION, SLASH_SOLUTION, problem_id="t-1")
    assert [(s.result, s.unit) for s in trace.steps] == [(0.3, "$ per task"), (3.0, "$")]


# The result after an annotation or a prose "=" with its unit after a loose slash, or its "$" after ">>" or
# after the number (issue 24 item 6): the result is 0.3 and the next step's 0.3 is that result.
@pytest.mark.parametrize(
    ("written", "unit"),
    [
        ("0.8-0.5=$<<0.8-0.5=0.3>>0.3 / task", "$ per task"),
        ("0.8-0.5=$<<0.8-0.5=0.3>>0.3/ task", "$ per task"),
        ("0.8-0.5=<<0.8-0.5=0.3>>$0.30 per task", "$ per task"),
        ("0.8-0.5=<<0.8-0.5=0.3>>$0.30/task", "$ per task"),
        ("0.8-0.5=<<0.8-0.5=0.3>> $0.3 per task", "$ per task"),
        ("0.8-0.5=<<0.8-0.5=0.3>>0.3$/task", "$ per task"),
        ("0.8-0.5 = $0.3/ task", "$ per task"),
        ("0.8-0.5 = 0.3/ task", None),  # no "$": the slash says per what, not what is counted
        ("0.8-0.5 = 0.3 / task", None),
        ("0.8-0.5=<<0.8-0.5=0.3>>.3/task", None),
    ],
)
def test_a_result_with_a_loose_slash_or_a_dollar_is_read(written: str, unit: str | None) -> None:
    solution = f"She keeps {written}\nShe keeps 10*0.3=$<<10*0.3=3>>3\n#### 3"
    trace = gsm8k_trace(SLASH_QUESTION, solution, problem_id="t-1")
    assert [(s.result, s.unit) for s in trace.steps] == [(0.3, unit), (3.0, "$")]


@pytest.mark.parametrize(
    "written", ["0.8-0.5 = 0.3/ task", "0.8-0.5 = 0.3 / task", "0.8-0.5=<<0.8-0.5=0.3>>$0.30/task"]
)
def test_the_checker_reads_the_loose_slash_result_as_a_step(written: str) -> None:
    reading = read_solution(SLASH_QUESTION, f"She keeps {written}\nShe keeps 10*0.3=$<<10*0.3=3>>3\n#### 3")
    assert ([s.formula.replace(" ", "") for s in reading.steps], [n.reason for n in reading.notes]) == (
        ["0.8-0.5=0.3", "10*0.3=3"], [])


@pytest.mark.parametrize("after", [">>0.3 / 2 tasks", ">>0.3/2 tasks"])
def test_a_division_by_a_number_after_a_result_is_no_unit_slash(after: str) -> None:
    assert stated_unit(after, 2, "=$") == "$"


# MR-GSM8K and MetaMath write "Step k:" lists ending "The answer is: N" (also as a list of step strings).
@pytest.mark.parametrize(
    "solution",
    [
        "Step 1: Janet has 16 - 3 - 4 = 9 eggs left.\nStep 2: She makes 9 * 2 = 18 dollars.\nThe answer is: 18",
        ["Step 1: Janet has 16 - 3 - 4 = 9 eggs left.", "Step 2: She makes 9 * $2 = $18.", "The answer is: 18"],
    ],
)
def test_step_lists_ending_the_answer_is(solution: str | list[str]) -> None:
    reading = read_solution("Janet's ducks lay 16 eggs per day. She eats 3 for breakfast and bakes with 4. "
                            "She sells the rest at $2 per egg. How much does she make?", solution)
    assert (reading.answer, len(reading.steps), [s.line for s in reading.steps]) == (18.0, 2, [1, 2])


# MATH-style LaTeX inside prose: \frac, \times and \boxed within $...$.
def test_latex_inside_prose_is_read() -> None:
    q = "A pizza has 8 slices. Ann eats 3/4 of it. How many slices does she eat?"
    s = "She eats $\\frac{3}{4} \\times 8 = 6$ slices, so the answer is $\\boxed{6}$."
    reading = read_solution(q, s)
    assert ([st.formula for st in reading.steps], reading.answer) == (["(3/4) * 8 = 6"], 6.0)
    assert check_solution(q, s).status == "sound"


# ------------------------------------------------------------------ issue 34: the formats of today's chat models
# Each solution below is written as 2024 chat models write them (inline and display LaTeX, units inside math,
# Markdown lists, bold and headings, "Step k:" labels, chained equalities); every computation is a step whose span
# indexes the solution as given, and the user's steps (list items, else paragraphs) are named from 0.

BOOKS = "Ann packs 2 math books. Each math book weighs 2 pounds. How many pounds do the math books weigh?"
TOM = "Tom has 18 apples. He gives 1/3 of them to Sue. How many apples does Sue get?"
CLASSES = "A school has 5 grades with 5 classes each, and 8 art classes. How many classes are there?"
SHIRT = "A coat costs $1,200. It is on sale for 20% off. How much is the discount in dollars?"
PENS = "John has 2 boxes with 3 pens each. His sister gives him twice as many. How many pens does his sister give him?"
SUE = "Sue has 12 cookies and shares them equally among 4 friends. How many cookies does each friend get?"


def _steps(question: str, solution: str | list[str]) -> list[tuple[str, str]]:
    """Each read step's formula and the text of the solution as given that its span covers."""
    r = read_solution(question, solution)
    return [(s.formula, r.solution.text[s.start : s.end]) for s in r.steps if s.read]


@pytest.mark.parametrize(
    ("question", "solution", "expected"),
    [
        (TOM, "Sue gets \\( 1/3 \\times 18 = 6 \\) apples.", [("1/3 * 18 = 6", "1/3 \\times 18 = 6")]),
        (TOM, "Sue gets\n\\[\n\\frac{1}{3} \\times 18 = 6\n\\]\napples.",
         [("(1/3) * 18 = 6", "\\frac{1}{3} \\times 18 = 6")]),
        (TOM, "Sue gets \\( 18 \\cdot \\tfrac{1}{3} = 6 \\).", [("18 * (1/3) = 6", "18 \\cdot \\tfrac{1}{3} = 6")]),
        (SUE, "Each friend gets $\\dfrac{12}{4} = 3$ cookies.", [("12/4 = 3", "\\dfrac{12}{4} = 3")]),
        (SUE, "\\[ 12 \\div 4 = 3 \\]", [("12 / 4 = 3", "12 \\div 4 = 3")]),
        (SUE, "$$\n12 \\div 4 = 3\n$$", [("12 / 4 = 3", "12 \\div 4 = 3")]),
        (BOOKS, "\\[ 2 \\text{ books} \\times 2 \\text{ pounds/book} = 4 \\text{ pounds} \\]",
         [("2 books * 2 pounds/book = 4", "2 \\text{ books} \\times 2 \\text{ pounds/book} = 4")]),
        (SHIRT, "- **Discount:** \\( 20\\% \\times \\$1{,}200 = \\$240 \\)",
         [("20% * $1,200 = $240", "20\\% \\times \\$1{,}200 = \\$240")]),
        (SHIRT, "- Discount: \\( 20\\% \\times 1,200 = 240 \\) dollars",
         [("20% * 1,200 = 240", "20\\% \\times 1,200 = 240")]),
        (SHIRT, "20% of $1,200 = $240", [("20% * $1,200 = $240", "20% of $1,200 = $240")]),
        (TOM, "Sue gets 1/3 of 18 = 6 apples.", [("1/3 * 18 = 6", "1/3 of 18 = 6")]),
        (SHIRT, "- Discount: $1,200 \\times 0.2 = $240", [("$1,200 * 0.2 = $240", "$1,200 \\times 0.2 = $240")]),
        (SUE, "Each gets $12 \\div 4 = 3$ cookies.", [("12 / 4 = 3", "12 \\div 4 = 3")]),
    ],
)
def test_latex_markdown_and_units_in_math_are_steps_spanning_the_solution_as_given(
    question: str, solution: str, expected: list[tuple[str, str]]
) -> None:
    assert _steps(question, solution) == expected


def test_several_computations_in_one_paragraph_are_several_steps() -> None:
    s = "First, 5 * 5 = 25 classes. Adding the art classes, 25 + 8 = 33 classes.\n\n#### 33"
    assert _steps(CLASSES, s) == [("5 * 5 = 25", "5 * 5 = 25"), ("25 + 8 = 33", "25 + 8 = 33")]
    assert check_solution(CLASSES, s).status == "sound"


@pytest.mark.parametrize(
    ("solution", "expected"),
    [  # each "=" pair of a chain is a computation; a right side that goes on gives the operation it replaced
        ("\\( 2 \\times 3 = 6 \\times 2 = 12 \\)",
         [("2 * 3 = 6", "2 \\times 3 = 6"), ("6 * 2 = 12", "6 \\times 2 = 12")]),
        ("Let \\( x \\) be his sister's pens: \\( x = 2 \\times 3 \\times 2 = 12 \\).",
         [("2 * 3 * 2 = 12", "2 \\times 3 \\times 2 = 12")]),
        ("\\( 2 \\times 3 \\times 2 = 6 \\times 2 = 12 \\)",
         [("2*3 = 6", "2 \\times 3"), ("6 * 2 = 12", "6 \\times 2 = 12")]),
        ("\\[ \\text{Pens} = 2 \\times 3 + 2 \\times 3 = 6 + 6 = 12 \\]",  # one step per term the right side replaced
         [("2*3 = 6", "2 \\times 3"), ("2*3 = 6", "2 \\times 3"), ("6 + 6 = 12", "6 + 6 = 12")]),
    ],
)
def test_chained_equalities_are_read_link_by_link(solution: str, expected: list[tuple[str, str]]) -> None:
    assert _steps(PENS, solution) == expected


def test_a_chain_whose_sides_differ_in_one_operation_reads_it() -> None:
    q = "Nico read 51 pages in three days: 20 on Monday and 12 on Tuesday. How many pages did he read on Wednesday?"
    s = "So \\( x = 51 - (20 + 12) = 51 - 32 = 19 \\) pages."
    assert [f for f, _ in _steps(q, s)] == ["20+12 = 32", "51 - 32 = 19"]
    assert check_solution(q, s).status == "sound"


def test_a_chain_restating_a_percentage_is_no_computation() -> None:
    s = "\\[ 20\\% \\text{ of } \\$1,200 = 0.2 \\times 1,200 = \\$240 \\]"
    r = read_solution(SHIRT, s)
    assert [s.formula for s in r.steps] == ["0.2 * 1,200 = $240"]
    assert [n.reason for n in r.notes] == []


@pytest.mark.parametrize(
    ("solution", "answer"),
    [
        ("Sue gets 6 apples.\n\n**\\boxed{$7455}**", 7455.0),
        ("The answer is \\(\\boxed{6}\\).", 6.0),
        ("**Answer:** 6", 6.0),
        ("**Final Answer:** \\(\\boxed{6}\\)", 6.0),
        ("So Sue gets \\( \\boxed{6 \\text{ apples}} \\).", 6.0),
        ("### Final answer\nThe answer is $\\boxed{1{,}200}$.", 1200.0),
    ],
)
def test_boxed_and_bold_final_answers_are_found(solution: str, answer: float) -> None:
    n = normalize_solution(solution)
    assert n.answer == answer
    assert "boxed" not in n.working
    assert "**" not in n.working


def test_headings_step_labels_and_bullets_are_markup() -> None:
    s = ("### Step 1: Apples per share\nStep 1: \\( 18 \\div 3 = 6 \\)\n\n"
         "### Step 2: Sue's share\n- **Sue:** 6 apples\n\n**Answer:** 6")
    n = normalize_solution(s)
    assert "#" not in n.working
    assert "Step" not in n.working
    assert "**" not in n.working
    assert "-" not in n.working
    assert _steps(TOM, s) == [("18 / 3 = 6", "18 \\div 3 = 6")]


def test_a_computation_the_reader_cannot_parse_is_a_counted_unread_line() -> None:
    q = "Ben has 36 pairs of socks and donates two-thirds of them. How many pairs does he donate?"
    s = "He donates \\( 36 \\cdot \\dfrac{2}{3} = 12 \\cdot 2 = 24 \\) pairs."  # the sides differ in two places
    v = check_solution(q, s)
    assert [f.reason for f in v.findings if f.reason == "unread_line"] == ["unread_line"]
    assert [s.formula for s in v.steps] == ["12 * 2 = 24"]


def test_a_nested_fraction_is_read_to_its_depth() -> None:
    n = normalize_solution("\\( \\frac{\\frac{12}{2}}{3} = 2 \\)")
    assert n.working.split() == ["(6)/(3)", "=", "2"] or n.working.split() == ["(12/2)/(3)", "=", "2"]
    assert n.rewritten
    assert all(0 <= a < b <= len(n.text) for a, b in n.rewritten)


def test_a_span_touching_a_rewritten_region_covers_all_of_it() -> None:
    s = "Each friend gets \\( 12 \\div 4 = \\frac{12}{4} \\)."
    r = read_solution(SUE, s)
    (step,) = r.steps
    assert r.solution.text[step.start : step.end] == "12 \\div 4 = \\frac{12}{4}"


# ------------------------------------------------------------------ the user's steps (issue 34, item 3)

WRONG_PARAGRAPHS = (
    "Tom has 18 apples.\n\n"
    "He gives a third to Sue: \\( 18 \\times \\frac{1}{3} = 6 \\) apples.\n\n"
    "Then Sue eats 2, so she has \\( 6 - 2 = 5 \\) apples.\n\n"
    "The answer is \\(\\boxed{5}\\)."
)


def test_paragraphs_split_on_blank_lines_are_the_users_steps() -> None:
    n = normalize_solution(WRONG_PARAGRAPHS)
    assert [n.text[a:b].split()[0] for a, b in n.user_steps] == ["Tom", "He", "Then", "The"]
    assert n.user_step(n.text.index("6 - 2")) == 2
    assert n.user_step(0) == 0
    assert normalize_solution("a\n\n\n\n  \n\nb").user_steps == ((0, 1), (9, 10))  # runs of blank lines: one break


def test_a_finding_names_the_users_step_in_the_api_and_in_words() -> None:
    q = "Tom has 18 apples. He gives 1/3 of them to Sue. Sue eats 2 of them. How many apples does Sue have left?"
    v = check_solution(q, WRONG_PARAGRAPHS)
    first = v.first_error
    assert first is not None
    assert (first.reason, first.step, first.user_step) == ("arithmetic_error", 1, 2)
    assert first.to_dict()["user_step"] == 2
    assert [s.user_step for s in v.steps] == [1, 2]
    assert "step 2, in the user's step 2 counted from 0, (line 5: '6 - 2 = 5')" in v.explain()
    assert 'data-user-step="2"' in v.html()


def test_a_list_of_steps_is_indexed_by_the_list() -> None:
    q = "Tom has 18 apples. He gives 1/3 of them to Sue. Sue eats 2 of them. How many apples does Sue have left?"
    steps = ["Tom gives Sue \\( 18 \\times \\frac{1}{3} = 6 \\) apples.\n\nShe eats 2.", "\\( 6 - 2 = 5 \\)",
             "**Answer:** 5"]
    v = check_solution(q, steps)
    assert v.first_error is not None
    assert v.first_error.user_step == 1
    assert check_solution(q, json.dumps(steps)).first_error.user_step == 1  # type: ignore[union-attr]


def test_one_paragraph_is_user_step_0_and_explain_does_not_say_it() -> None:
    v = check_solution(TOM, "18 / 3 = 7 apples.\nThe answer is 7.")
    assert v.first_error is not None
    assert v.first_error.user_step == 0
    assert "user's step" not in v.explain()


def test_the_verdict_table_has_the_first_errors_user_step(tmp_path: Path) -> None:
    q = "Tom has 18 apples. He gives 1/3 of them to Sue. Sue eats 2 of them. How many apples does Sue have left?"
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps({"question": q, "solution": WRONG_PARAGRAPHS}) + "\n"
                    + json.dumps({"question": TOM, "solution": "18 / 3 = 6 apples.\nThe answer is 6."}) + "\n",
                    encoding="utf-8")
    frame = check_solutions(path, question_field="question", solution_field="solution")
    assert frame["first_error_user_step"].tolist() == [2, pd.NA]
    assert str(frame["first_error_user_step"].dtype) == "Int64"


# ------------------------------------------------------------------ hostile LaTeX stays bounded


def test_a_fraction_bomb_costs_at_most_frac_depth_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = solutions._FRAC

    class Counting:
        def finditer(self, text: str) -> Any:
            calls.append(len(text))
            return real.finditer(text)

    monkeypatch.setattr(solutions, "_FRAC", Counting())
    depth = 3_000  # 3,000 nested fractions: 30,000 characters, within MAX_SOLUTION_CHARS
    bomb = "\\( " + "\\frac{" * depth + "1" + "}{2}" * depth + " = 1 \\)"
    assert len(bomb) < MAX_SOLUTION_CHARS
    v = check_solution(TOM, bomb)
    assert v.status in ("unverifiable", "error", "sound")
    assert len(calls) <= solutions._FRAC_DEPTH


@seam_settings(60)
@given(st.lists(st.sampled_from(["\\frac{", "\\dfrac{", "}{", "}", "{", "{,}", "\\,", "\\text{", "\\times", "\\div",
                                 "\\(", "\\)", "\\[", "\\]", "$", "\\$", "\\%", "**", "### ", "\n\n", "\n- ", " = ",
                                 " + ", "12", "3", "1,200", "Step 1: ", "\\boxed{", "&", "\\\\", "(", ")", " x"]),
                max_size=40).map("".join))
def test_any_latex_gives_a_verdict_with_spans_inside_the_solution(solution: str) -> None:
    v = check_solution(TOM, solution)
    assert v.status in ("sound", "error", "unverifiable")
    for s in v.steps:
        assert 0 <= s.start <= s.end <= len(v.solution)
    for f in v.findings:
        assert f.span is None or 0 <= f.span[0] <= f.span[1] <= len(v.solution)
        assert f.user_step is None or 0 <= f.user_step < max(1, len(v.user_steps))


def test_the_modern_dev_benchmark_scores_a_file(tmp_path: Path) -> None:
    """``benchmarks/modern_dev.py`` on three records: a correct paragraph solution, a wrong one with its marked user
    step, and a correct list of steps; every figure it prints is counted from them."""
    q = "Tom has 18 apples. He gives 1/3 of them to Sue. Sue eats 2 of them. How many apples does Sue have left?"
    records = [
        {"id": "r1", "question": q, "style": "paragraphs", "is_correct": True, "first_error_step": None,
         "computations": 2, "solution": WRONG_PARAGRAPHS.replace("= 5", "= 4").replace("{5}", "{4}")},
        {"id": "r2", "question": q, "style": "paragraphs", "is_correct": False, "first_error_step": 2,
         "computations": 2, "solution": WRONG_PARAGRAPHS},
        {"id": "r3", "question": TOM, "style": "list_of_steps", "is_correct": True, "first_error_step": None,
         "computations": 1, "solution": ["Sue gets \\( 18 \\div 3 = 6 \\) apples.", "**Answer:** 6"]},
    ]
    path = tmp_path / "modern.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    out = subprocess.run([sys.executable, str(REPO / "benchmarks" / "modern_dev.py"), str(path)],
                         capture_output=True, text=True, check=True, cwd=REPO).stdout
    assert "computations read as steps 100.0% (5/5)" in out
    assert "no_equation   0.0% (0/3)" in out
    assert "false alarms (error on correct)   0.0% (0/2)" in out
    assert "wrong ones flagged 100.0% (1/1)" in out
    assert "first error finding is at it 100.0% (1/1)" in out


@pytest.mark.parametrize("value", [-1, 1.0, "2", True])
def test_a_user_step_that_is_no_index_is_a_typed_error(value: object) -> None:
    with pytest.raises(ProblemGraphError) as err:
        Finding("arithmetic_error", user_step=value)  # type: ignore[arg-type]
    assert err.value.path == "user_step"


def test_user_steps_that_are_no_spans_are_a_typed_error() -> None:
    v = check_solution(TOM, "18 / 3 = 6 apples.")
    with pytest.raises(ProblemGraphError) as err:
        dataclasses.replace(v, user_steps=((3, 1),))
    assert err.value.path == "user_steps[0]"


def test_the_modern_dev_benchmark_reads_the_question_by_its_train_line_and_checks_it(tmp_path: Path) -> None:
    train = tmp_path / "train.jsonl"
    train.write_text(json.dumps({"question": "Other?", "answer": "#### 1"}) + "\n"
                     + json.dumps({"question": TOM, "answer": "#### 6"}) + "\n", encoding="utf-8")
    sha = hashlib.sha256(TOM.encode("utf-8")).hexdigest()[:16]
    record = {"id": "r", "train_line": 2, "question_sha": sha, "style": "paragraphs", "is_correct": True,
              "first_error_step": None, "computations": 1, "solution": "18 / 3 = 6 apples.\n\nThe answer is 6."}
    path = tmp_path / "modern.jsonl"
    run = [sys.executable, str(REPO / "benchmarks" / "modern_dev.py"), str(path), "--train", str(train)]
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    out = subprocess.run(run, capture_output=True, text=True, check=True, cwd=REPO).stdout
    assert "computations read as steps 100.0% (1/1)" in out
    path.write_text(json.dumps(dict(record, train_line=1)) + "\n", encoding="utf-8")
    failed = subprocess.run(run, capture_output=True, text=True, check=False, cwd=REPO)
    assert failed.returncode != 0
    assert f"{path}:1: line 1 of {train} is not the question written to" in failed.stderr
