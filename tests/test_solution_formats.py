"""Solution formats models and gold solutions write (issue 26), each drawn from the kind of text it came from."""

from __future__ import annotations

import pytest

from ssbg.checking.verdict import check_solution
from ssbg.reading.readers.gsm8k import gsm8k_trace, stated_unit
from ssbg.reading.readers.solutions import normalize_solution, read_solution

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
