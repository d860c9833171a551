"""check_solution: the verdict, its two families of findings, each at its step, and the formats it reads."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ssbg
from ssbg.checking import (
    COVERAGE_FINDINGS,
    ERROR_FINDINGS,
    FINDING_REASONS,
    VERDICT_STATUSES,
    Finding,
    Reference,
    Verdict,
    check_solution,
    read_reference,
    reference_findings,
)
from ssbg.checking import verdict as verdict_module
from ssbg.errors import (
    ADMISSIBILITY_REASONS,
    GROUNDING_REASONS,
    QUESTION_TARGET_REASONS,
    REFUSAL_REASONS,
    ProblemGraphError,
)
from ssbg.reading.readers import solutions as solutions_module
from ssbg.reading.readers.solutions import READING_NOTES, normalize_solution, read_solution

WENG = "Weng earns $12 an hour for babysitting. Yesterday she babysat for 5 hours. How much did she earn?"
SOUND = "She earned 12 * 5 = $<<12*5=60>>60.\nA: 60"


def reasons(v: Verdict) -> list[tuple[str, int | None]]:
    return [(f.reason, f.step) for f in v.findings]


# ------------------------------------------------------------------ vocabularies


def test_the_two_families_are_disjoint_and_closed() -> None:
    assert not ERROR_FINDINGS & COVERAGE_FINDINGS
    assert FINDING_REASONS == ERROR_FINDINGS | COVERAGE_FINDINGS


def test_the_kind_check_is_not_error_evidence_until_its_precision_is_shown() -> None:
    # ADR 0017/0019: the kind check's findings are notes (precision at the base rate without a reference)
    from ssbg.checking.verdict import NOTE_FINDINGS
    from ssbg.kinds import KIND_FINDINGS

    assert "count_kind_mismatch" not in FINDING_REASONS
    assert frozenset(KIND_FINDINGS) == NOTE_FINDINGS
    assert Finding("count_kind_mismatch").family == "note"


def test_a_kind_note_never_changes_the_verdict() -> None:
    q = "Cookies cost $2 per cookie. Ann buys 3 boxes. How much does she pay?"
    v = check_solution(q, "She pays 2 * 3 = $<<2*3=6>>6.\nA: 6")
    assert [(n.reason, n.step, n.family) for n in v.notes] == [("count_kind_mismatch", 0, "note")]
    assert v.status == "sound"
    assert "note:" in v.explain()
    assert v.steps[0].unit_proof == "apply_rate: [money/count[cookie],count[box]] -> money"
    with pytest.raises(ProblemGraphError):
        Verdict("unverifiable", "q", "s", v.notes, ())


def test_every_reading_note_is_a_finding() -> None:
    assert READING_NOTES <= FINDING_REASONS


@pytest.mark.parametrize("reason", sorted(REFUSAL_REASONS))
def test_every_equation_refusal_reason_has_a_finding(reason: str) -> None:
    assert verdict_module._FROM_EQUATION[reason] in FINDING_REASONS


def test_the_checker_maps_each_family_of_refusal_reasons_apart() -> None:
    # ADR 0024: ADR-0134's seven and a reading's outcomes, and a reading's outcome is never error evidence
    assert set(verdict_module._FROM_ADMISSIBILITY) == ADMISSIBILITY_REASONS
    assert set(verdict_module._FROM_GROUNDING) == GROUNDING_REASONS
    assert set(verdict_module._FROM_EQUATION) == REFUSAL_REASONS
    assert {verdict_module._FROM_GROUNDING[r] for r in GROUNDING_REASONS} <= COVERAGE_FINDINGS


def test_a_reading_refusal_in_a_solution_is_coverage_never_an_error() -> None:
    # "2 cars and 4 wheels": 8 wheels in all or per car, the words do not say
    v = check_solution("He has 2 cars and 4 wheels. How many wheels are there?", "2 * 4 = <<2*4=8>>8 wheels\n#### 8")
    assert v.status == "unverifiable"
    assert [(f.reason, f.family) for f in v.findings] == [("ambiguous_grounding", "coverage")]
    assert v.errors == ()


@pytest.mark.parametrize("reason", sorted(QUESTION_TARGET_REASONS))
def test_every_question_target_reason_has_a_finding_or_is_propagated(reason: str) -> None:
    found = verdict_module._FROM_TARGET[reason]
    assert found in FINDING_REASONS or (found is None and reason == "unresolved_upstream")


@pytest.mark.parametrize("reason", sorted(solutions_module._NOTE_OF))
def test_every_reason_a_formula_is_not_read_is_a_note(reason: str) -> None:
    assert solutions_module._NOTE_OF[reason] in READING_NOTES


def test_ambiguous_grounding_is_coverage_wherever_it_comes_from() -> None:
    # the grounding issue adds this refusal reason; the checker takes it as a reading limit, never as evidence
    assert "ambiguous_grounding" in COVERAGE_FINDINGS
    assert verdict_module._FROM_EQUATION["ambiguous_grounding"] == "ambiguous_grounding"
    assert verdict_module._FROM_TARGET["ambiguous_grounding"] == "ambiguous_grounding"


# ------------------------------------------------------------------ the verdict


@pytest.mark.parametrize(
    ("findings", "status"),
    [
        ((), "sound"),
        ((Finding("unknown_unit"),), "unverifiable"),
        ((Finding("unit_mismatch"),), "error"),
        ((Finding("unit_mismatch"), Finding("unknown_unit")), "error"),
        ((Finding("unit_mismatch", in_reference=True),), "unverifiable"),
    ],
)
def test_status_follows_the_families(findings: tuple[Finding, ...], status: str) -> None:
    assert Verdict(status, "q", "s", findings, ()).status == status


@pytest.mark.parametrize("status", VERDICT_STATUSES)
def test_a_status_the_findings_do_not_give_is_refused(status: str) -> None:
    findings = (Finding("unknown_unit"),) if status != "unverifiable" else ()
    with pytest.raises(ProblemGraphError) as info:
        Verdict(status, "q", "s", findings, ())
    assert info.value.path == "status"


@pytest.mark.parametrize(
    ("field", "value"),
    [("reason", "count_kind"), ("step", -1), ("span", (3, 1)), ("question_spans", [(0, 1)])],
)
def test_a_finding_validates_its_fields(field: str, value: object) -> None:
    with pytest.raises(ProblemGraphError) as info:
        Finding(**{"reason": "unit_mismatch", field: value})  # type: ignore[arg-type]
    assert info.value.reason == "invalid_value"


def test_a_sound_solution() -> None:
    v = check_solution(WENG, SOUND)
    assert (v.status, v.findings, v.answer) == ("sound", (), 60.0)
    assert [(s.index, s.line, s.status) for s in v.steps] == [(0, 1, "admitted")]
    assert v.steps[0].unit_proof == "apply_rate: [money/time,time] -> money"


def test_a_unit_mismatch_names_its_step_and_the_question_mentions() -> None:
    v = check_solution(WENG, "She earned 5 + 12 = $<<5+12=17>>17.\nA: 17")
    assert reasons(v) == [("unit_mismatch", 0)]
    f = v.findings[0]
    assert (f.family, f.line) == ("error", 1)
    assert v.solution[f.span[0] : f.span[1]] == "5 + 12 = $<<5+12=17>>17"  # type: ignore[index]
    assert sorted(WENG[a:b] for a, b in f.question_spans) == ["$12 an hour", "5 hours"]


def test_an_invented_number_is_error_evidence_at_its_step() -> None:
    v = check_solution(WENG, "She worked 5 + 3 = <<5+3=8>>8 hours.\nShe earned 12 * 8 = $<<12*8=96>>96.\nA: 96")
    assert reasons(v) == [("ungrounded_number", 0)]
    assert (v.findings[0].detail, v.findings[0].line) == ("3", 1)


def test_a_number_only_the_solution_states_is_not_grounded_when_checking() -> None:
    # corpus reading grounds "each has 2 legs" on the prose; a checked solution may not invent its own numbers
    q = "A farmer has 5 cows. How many dollars does he earn if he sells them for $100 each?"
    v = check_solution(q, "He sells 7 cows.\nHe earns 7 * 100 = $<<7*100=700>>700.\nA: 700")
    assert reasons(v) == [("ungrounded_number", 0)]


def test_an_ungrounded_number_is_one_finding_however_far_it_propagates() -> None:
    v = check_solution(WENG, "She worked 6 hours.\n12 * 6 = <<12*6=72>>72\n72 + 12 = <<72+12=84>>84\nA: 84")
    assert reasons(v) == [("ungrounded_number", 0)]
    assert [s.status for s in v.steps] == ["error", "propagated"]


@pytest.mark.parametrize(
    "solution",
    ["She earned 12 * 5 = $<<12*5=50>>50.\nA: 50", "She earned 12 * 5 = $50.\nA: 50",
     "She earned 12 * 5 = $<<12*5=60>>50.\nA: 50"],
    ids=["annotation", "prose", "written after the annotation"],
)
def test_a_stated_result_its_operation_does_not_give_is_an_arithmetic_error(solution: str) -> None:
    v = check_solution(WENG, solution)
    assert v.status == "error"
    assert [f.reason for f in v.errors] == ["arithmetic_error"]
    assert "gives 60, not 50" in v.errors[0].detail


@pytest.mark.parametrize(
    "solution",
    ["12 / 7 = <<12/7=1.7142857142857142>>1.71 dollars", "12 / 7 = 1.7 dollars", "12 / 7 = 1 dollar",
     "12 / 7 = 2 dollars", "5 - 12 = <<5-12=-7>>7 dollars", "2.20 + 5.40 = <<2.20+5.40=7.6000000000000005>>7.60",
     "4.20+9.45+1.35 = <<4.20+9.45+1.35=14.999999999999998>>14.99"],
)
def test_rounding_the_writing_allows_is_no_arithmetic_error(solution: str) -> None:
    v = check_solution("Ann has $12, $5, $4.20, $9.45, $1.35, $2.20, $5.40 and 7 friends. How much?", solution)
    assert "arithmetic_error" not in [f.reason for f in v.findings]


@pytest.mark.parametrize(
    "solution",
    ["She has 30 - 8 * 3 = 30 - 24 = 6 days.", "He paid $400 000 x 3/100 = $12 000.", "So 32/96 = 33.333...%"],
)
def test_a_prose_chain_or_a_split_number_is_no_slip(solution: str) -> None:
    v = check_solution("Ann has 30 days, 8 weeks and 3 hours, $400 000, 32 and 96. How many days?", solution)
    assert "arithmetic_error" not in [f.reason for f in v.findings]


def test_an_answer_in_another_dimension_is_an_expected_unit_mismatch() -> None:
    q = "A car drives at 60 miles per hour for 3 hours. How many hours does the trip take?"
    v = check_solution(q, "60 * 3 = <<60*3=180>>180 miles\nA: 180", min_evidence=0.5)
    assert reasons(v) == [("expected_unit_mismatch", 0)]
    assert [q[a:b] for a, b in v.findings[0].question_spans] == ["How many hours does the trip take?"]


def test_an_answer_the_last_step_does_not_give_leaves_the_target_unchecked() -> None:
    q = "A car drives at 60 miles per hour for 3 hours. How many hours does the trip take?"
    v = check_solution(q, "60 * 3 = <<60*3=180>>180 miles\nA: 3")
    assert reasons(v) == [("unbound_target", 0)]
    assert v.status == "unverifiable"


def test_an_unknown_unit_alone_is_unverifiable_never_error() -> None:
    q, s = "Ann has 3 apples and buys 4 apples. How many apples?", "3 + 4 = <<3+4=7>>7 apples\nA: 7"
    v = check_solution(q, s, pack="en_units_v1")  # apples are outside the seed pack
    assert v.status == "unverifiable"
    assert {f.reason for f in v.findings} <= COVERAGE_FINDINGS
    assert "unknown_unit" in {f.reason for f in v.findings}
    assert check_solution(q, s).status == "sound"  # the default pack counts apples (ADR 0017)


def test_an_unknown_unit_is_one_finding_and_its_dependents_propagate() -> None:
    q = "Ann has 3 apples and buys 4 apples. Each apple costs $2. How much in dollars?"
    v = check_solution(q, "3 + 4 = <<3+4=7>>7 apples\n7 * 2 = <<7*2=14>>14 dollars\nA: 14", pack="en_units_v1")
    assert [(f.reason, f.step) for f in v.findings if f.step is not None] == [("unknown_unit", 0)]
    assert [s.status for s in v.steps] == ["coverage", "propagated"]


def test_a_formula_not_read_is_coverage_and_its_result_is_no_invented_number() -> None:
    q = "A square garden has sides of 5 feet. Each square foot needs 2 pounds of soil. How many pounds of soil?"
    v = check_solution(q, "The area is 5^2 = <<5^2=25>>25 square feet.\n25 * 2 = <<25*2=50>>50 pounds\nA: 50")
    assert v.status == "unverifiable"
    assert reasons(v)[0] == ("unsupported_operation", 0)
    assert "ungrounded_number" not in {f.reason for f in v.findings}


def test_a_line_of_arithmetic_ssbg_did_not_read_is_coverage() -> None:
    v = check_solution(WENG, "She earned 12 * 5 = $<<12*5=60>>60.\nSo 60 = 5 * 12.\nA: 60")
    assert ("unread_line", None) in reasons(v)
    line = next(f for f in v.findings if f.reason == "unread_line")
    assert (line.line, v.status) == (2, "unverifiable")


@pytest.mark.parametrize(("question", "solution", "which"), [("", SOUND, "question"), (WENG, "  ", "solution")])
def test_empty_text_is_coverage(question: str, solution: str, which: str) -> None:
    v = check_solution(question, solution)
    assert (v.status, reasons(v), v.findings[0].detail) == ("unverifiable", [("empty_text", None)], which)


def test_no_arithmetic_is_coverage() -> None:
    v = check_solution(WENG, "She earned sixty dollars.")
    assert (v.status, reasons(v)) == ("unverifiable", [("no_equation", None)])


@pytest.mark.parametrize("bad", [None, 3, b"bytes", [1, 2]])
def test_what_is_not_text_refuses_with_a_typed_error(bad: object) -> None:
    with pytest.raises(ProblemGraphError) as info:
        check_solution(WENG, bad)  # type: ignore[arg-type]
    assert (info.value.reason, info.value.path) == ("wrong_type", "solution")


# ------------------------------------------------------------------ a reference


def test_a_finding_the_reference_shares_is_a_reading_limit() -> None:
    q = "Ann buys 2 books at $3. How many dollars does she spend?"
    solution = "Each book is 3 + 1 = <<3+1=4>>4 dollars.\n2 * 4 = <<2*4=8>>8\nA: 8"
    alone = check_solution(q, solution)
    assert alone.status == "error"
    shared = check_solution(q, solution, reference="Each book is 3 + 1 = <<3+1=4>>4 dollars.\n2 * 4 = 8\nA: 8")
    assert shared.status == "unverifiable"
    assert [(f.reason, f.in_reference, f.family) for f in shared.findings] == [("ungrounded_number", True, "coverage")]
    assert shared.reference_checked


def test_a_finding_the_reference_does_not_share_stays_evidence() -> None:
    v = check_solution(WENG, "She earned 12 * 6 = $<<12*6=72>>72.\nA: 72", reference=SOUND)
    assert (v.status, [f.in_reference for f in v.findings]) == ("error", [False])


def test_reference_findings_can_be_passed_once_for_many_solutions() -> None:
    shared = reference_findings(WENG, "She earned 12 * 6 = $<<12*6=72>>72.\nA: 72")
    a = check_solution(WENG, "She earned 12 * 6 = $<<12*6=72>>72.\nA: 72", reference=shared)
    b = check_solution(WENG, "She earned 12 * 6 = $<<12*6=72>>72.\nA: 72", reference="She earned 12 * 6 = $72.\nA: 72")
    assert a.findings == b.findings
    assert a.status == "unverifiable"


# ------------------------------------------------------------------ the policy: what ssbg cannot tell is coverage

CHICKENS = ("Wendi feeds each of her chickens three cups of feed every day. She has 20 chickens. "
            "How many cups of feed does she need every day?")
PER_CHICKEN = "3*20=<<3*20=60>>60 cups of feed per day.\nA: 60"
RUNNER = "Tom runs 6 km in 2 hours. How many km does he run per hour?"
TIMES = "6*2=<<6*2=12>>12\nA: 12"


def test_a_unit_mismatch_only_in_the_count_of_things_is_coverage_without_a_reference() -> None:
    # 'three cups' read as cups per day (the per-chicken reading ssbg cannot tell) times 20 chickens: the
    # units agree once the count of chickens is set aside, so the refusal may be ssbg's own reading
    v = check_solution(CHICKENS, PER_CHICKEN)
    assert v.status == "unverifiable"
    [f] = v.findings
    assert (f.reason, f.family, f.in_reference) == ("unit_mismatch", "coverage", False)
    assert "count of things" in f.could_not_tell
    assert "could not tell it from its own reading" in v.explain()
    assert f.to_dict()["could_not_tell"] == f.could_not_tell


def test_a_count_only_mismatch_is_evidence_unless_the_reference_reads_its_numbers_in_refused_steps() -> None:
    spans = check_solution(CHICKENS, PER_CHICKEN).findings[0].question_spans
    # at an ε above the stated unit's doubt (1 - STATED_UNIT_RELIABILITY), so that the count-only rule decides
    firm = check_solution(CHICKENS, PER_CHICKEN, reference=Reference(()), min_evidence=0.5)
    assert (firm.status, [f.family for f in firm.findings]) == ("error", ["error"])
    doubtful = check_solution(CHICKENS, PER_CHICKEN, reference=Reference((), refused_spans=frozenset(spans[:1])),
                              min_evidence=0.5)
    assert (doubtful.status, [bool(f.could_not_tell) for f in doubtful.findings]) == ("unverifiable", [True])


def test_a_unit_mismatch_in_more_than_the_count_stays_evidence_without_a_reference() -> None:
    v = check_solution(WENG, "She earned 12 + 5 = $<<12+5=17>>17.\nA: 17")
    assert (v.status, [(f.reason, f.could_not_tell) for f in v.findings]) == ("error", [("unit_mismatch", "")])


def test_an_answer_unit_mismatch_needs_a_reference() -> None:
    # without one, the asked unit is ssbg's reading of the question, right with ASKED_UNIT_RELIABILITY: the other
    # reading (any admitted unit answers) holds the rest, above the default ε
    alone = check_solution(RUNNER, TIMES)
    assert (alone.status, [(f.reason, f.would_be, f.family) for f in alone.findings]) == (
        "unverifiable", [("ambiguous_grounding", "expected_unit_mismatch", "coverage")])
    assert alone.findings[0].support == round(1 - verdict_module.ASKED_UNIT_RELIABILITY, 6)
    checked = check_solution(RUNNER, TIMES, reference="6/2=<<6/2=3>>3 km per hour\nA: 3")
    assert (checked.status, [(f.reason, f.family) for f in checked.findings]) == (
        "error", [("expected_unit_mismatch", "error")])


def test_a_step_that_computes_what_a_reference_step_computes_is_not_blamed() -> None:
    wrong_units = "She earned 12 + 5 = $<<12+5=17>>17.\nA: 17"
    assert check_solution(WENG, wrong_units, reference=SOUND).status == "error"
    same = Reference((), steps=frozenset({("add", (5.0, 12.0), 17.0)}))
    v = check_solution(WENG, wrong_units, reference=same)
    assert (v.status, [(f.reason, f.in_reference) for f in v.findings]) == ("unverifiable", [("unit_mismatch", True)])
    # the computation read from a reference solution: the same operation, operand values and stated result
    ref = read_reference(WENG, "She earned 5 + 12 = <<5+12=17>>17 somehow.\nA: 17")
    assert ("add", (5.0, 12.0), 17.0) in ref.steps
    assert check_solution(WENG, wrong_units, reference=ref).status == "unverifiable"


def test_an_ungrounded_number_the_reference_uses_or_writes_is_not_invented() -> None:
    invented = "She earned 12 * 6 = $<<12*6=72>>72.\nA: 72"
    assert check_solution(WENG, invented, reference=Reference((), numbers=frozenset({6.0}))).status == "unverifiable"
    assert check_solution(WENG, invented, reference=Reference((), numbers=frozenset({5.0}))).status == "error"
    # written in the reference's prose (with a thousands separator, too) counts as used
    ref = read_reference(WENG, "She earned 12 * 5 = $<<12*5=60>>60, not 6 hours' pay or $1 000.\nA: 60")
    assert {6.0, 1000.0} <= ref.numbers
    assert check_solution(WENG, invented, reference=ref).status == "unverifiable"


def test_an_arithmetic_slip_is_evidence_with_or_without_a_reference() -> None:
    slip = "She earned 12 * 5 = $<<12*5=70>>70.\nA: 70"
    assert [f.reason for f in check_solution(WENG, slip).errors] == ["arithmetic_error"]
    assert [f.reason for f in check_solution(WENG, slip, reference=SOUND).errors] == ["arithmetic_error"]


def test_a_finding_that_cannot_be_told_is_validated() -> None:
    with pytest.raises(ProblemGraphError):
        Finding("unit_mismatch", could_not_tell=1)  # type: ignore[arg-type]
    assert Finding("unit_mismatch", could_not_tell="why").family == "coverage"
    assert Finding("unit_mismatch").family == "error"


# ------------------------------------------------------------------ the formats


FORMATS = {
    "gsm8k annotations": "She earned 12 * 6 = $<<12*6=72>>72.\n#### 72",
    "model A: ending": "She earned 12 * 6 = $<<12*6=72>>72.\nA: 72",
    "prose arithmetic": "She earned 12 * 6 = $72.\nThe answer is 72.",
    "step lines": "Step 1: She earned 12 * 6 = $72.\nStep 2: The answer is $72.",
    "numbered lines and a boxed answer": "1. She earned 12 * 6 = $72.\n2. So the answer is \\boxed{72}.",
    "latex": "She earned \\(12 \\times 6 = \\$72\\).\n\\boxed{72}",
    "a JSON list of steps": json.dumps(["She earned 12 * 6 = $72.", "Answer: 72"]),
}


@pytest.mark.parametrize("solution", FORMATS.values(), ids=FORMATS.keys())
def test_every_format_reads_to_the_same_finding_and_answer(solution: str) -> None:
    v = check_solution(WENG, solution)
    assert (reasons(v), v.answer) == ([("ungrounded_number", 0)], 72.0)
    assert v.findings[0].line == 1


def test_a_list_of_step_strings_is_read_as_lines() -> None:
    v = check_solution(WENG, ["She earned 12 * 5 = $60.", "The answer is 60."])
    assert (v.status, v.solution) == ("sound", "She earned 12 * 5 = $60.\nThe answer is 60.")


def test_the_working_copy_keeps_every_offset() -> None:
    for solution in FORMATS.values():
        n = normalize_solution(solution)
        assert len(n.working) == len(n.text)
        assert [i for i, c in enumerate(n.text) if c == "\n"] == [i for i, c in enumerate(n.working) if c == "\n"]


def test_the_answer_line_is_not_read_as_a_step() -> None:
    r = read_solution(WENG, "She earned 12 * 5 = $<<12*5=60>>60.\nThe answer is 60 dollars.")
    assert (len(r.steps), r.answer, r.notes) == (1, 60.0, ())


# ------------------------------------------------------------------ explain and HTML


def test_explain_names_the_step_the_reason_and_the_family() -> None:
    text = check_solution(WENG, "She earned 5 + 12 = $<<5+12=17>>17.\nA: 17").explain()
    assert text.startswith("error:")
    assert "step 1 (line 1" in text
    assert "[unit_mismatch]" in text
    assert "'$12 an hour'" in text


def test_explain_says_a_shared_finding_is_a_reading_limit() -> None:
    v = check_solution(WENG, "12 * 6 = 72\nA: 72", reference="12 * 6 = 72\nA: 72")
    assert "reading limit" in v.explain()


def test_html_marks_the_offending_step_and_outlines_the_question_mentions() -> None:
    page = check_solution(WENG, "She earned 5 + 12 = $<<5+12=17>>17.\nA: 17")._repr_html_()
    assert 'data-status="error"' in page
    assert 'class="ssbg-step" data-step="0" data-status="error"' in page
    assert page.count("outline:2px solid #a4161a") >= 3  # the step and the two mentions


def test_html_escapes_everything() -> None:
    q = "Ann <script>alert(1)</script> earns $12 an hour for 5 hours. How much?"
    page = check_solution(q, "<b>12</b> * 5 = $<<12*5=60>>60 & more")._repr_html_()
    assert "<script>" not in page
    assert "<b>" not in page
    assert "&lt;script&gt;" in page
    assert "&amp; more" in page


def test_to_dict_is_plain_data() -> None:
    d = check_solution(WENG, "She earned 5 + 12 = $<<5+12=17>>17.\nA: 17").to_dict()
    assert json.loads(json.dumps(d)) == d
    assert d["findings"][0]["family"] == "error"


# ------------------------------------------------------------------ the root's lazy name


def test_check_solution_is_reachable_from_the_package_root() -> None:
    assert ssbg.check_solution is check_solution
    assert ssbg.Verdict is Verdict
    assert "check_solution" in dir(ssbg)


def test_an_unknown_root_attribute_still_raises_attribute_error() -> None:
    with pytest.raises(AttributeError):
        ssbg.no_such_name  # type: ignore[attr-defined]  # noqa: B018


# ------------------------------------------------------------------ no solution makes the checker raise

_PIECES = st.sampled_from(
    ["12", "5", "6", "0", "1,000", ".5", "1/2", "½", "3 1/2", "99999999999999999999999", "1e309", "%", "$", " ", "\n",
     "+", "-", "*", "/", "x", "=", "(", ")", "<<", ">>", "####", "A:", "Step 1:", "\\boxed{", "}", "\\times",
     "\\frac{1}{2}", "The answer is", "hours", "dollars", "apples", "per", "Let x be", "x", "**", "[", "]", '"', ",",
     "\u2013", "\u00f7", "\u00d7", "...", "_", "\t"]
)
_SOLUTIONS = st.one_of(st.text(max_size=200), st.lists(_PIECES, max_size=60).map("".join),
                       st.lists(st.lists(_PIECES, max_size=12).map("".join), max_size=6))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(solution=_SOLUTIONS, question=st.one_of(st.just(WENG), st.text(max_size=120)))
def test_no_solution_makes_the_checker_raise(solution: str | list[str], question: str) -> None:
    v = check_solution(question, solution)
    assert v.status in VERDICT_STATUSES
    assert all(f.reason in FINDING_REASONS for f in v.findings)
    assert isinstance(v.explain(), str)
    assert isinstance(v.html(), str)


def test_a_result_written_to_a_thousand_places_is_read_not_taken_for_a_slip() -> None:
    # Model outputs repeat a decimal until they are cut: the places past a double's precision say nothing more
    # (ssbg.numbers refuses a 1,000-character number; the reader reads its first 20 places).
    question = "A wire 4 feet long is cut into 12 equal pieces. How long is each piece?"
    third = "0." + "3" * 1000
    verdict = check_solution(question, f"Each piece is 4/12 = <<4/12={third}>>{third} feet.\n#### {third}")
    assert "arithmetic_error" not in {f.reason for f in verdict.findings}
    assert check_solution(question, "Each piece is 4/12 = <<4/12=0.5>>0.5 feet.\n#### 0.5").first_error is not None


# ------------------------------------------------------------------ robust refusal (ADR 0027)

BAGS = "Ann has 3 bags of 4 kg. How many kg?"
BAGS_SUM = "3 + 4 = <<3+4=7>>7 kg"


def test_a_mismatch_some_plausible_reading_admits_is_could_not_tell_naming_the_reading() -> None:
    v = check_solution(BAGS, BAGS_SUM, min_evidence=0.001)
    f = v.findings[0]
    assert (v.status, f.reason, f.would_be, f.family) == ("unverifiable", "ambiguous_grounding", "unit_mismatch",
                                                          "coverage")
    assert (f.support or 0.0) >= 0.001
    assert "P(admissible)" in f.detail
    assert "read as 'kg'" in f.detail


def test_a_mismatch_below_min_evidence_is_error_evidence_with_its_support() -> None:
    v = check_solution(BAGS, BAGS_SUM, min_evidence=0.5)
    f = v.findings[0]
    assert (v.status, f.reason, f.would_be) == ("error", "unit_mismatch", "")
    assert f.support is not None
    assert f.support < 0.5


@pytest.mark.parametrize("level", [0.001, 0.002, 0.01, 0.5, 1.0])
def test_status_at_another_min_evidence_is_the_status_checked_at_it(level: float) -> None:
    solutions = [BAGS_SUM, "3 * 4 = <<3*4=12>>12 kg", "3 + 9 = <<3+9=12>>12 kg", "4 - 3 = <<4-3=1>>1 kg"]
    for s in solutions:
        assert check_solution(BAGS, s).status_at(level) == check_solution(BAGS, s, min_evidence=level).status


@pytest.mark.parametrize("level", [0, -0.1, 1.5, "0.1", None])
def test_min_evidence_outside_0_1_is_refused(level: object) -> None:
    with pytest.raises(ProblemGraphError) as info:
        check_solution(BAGS, BAGS_SUM, min_evidence=level)  # type: ignore[arg-type]
    assert info.value.path == "min_evidence"


GLASSES = ("John likes to have a glass of water with breakfast, lunch and dinner. He does this for 5 days. How many "
           "glasses does he drink?")


def test_a_number_a_list_of_three_things_states_is_not_error_evidence() -> None:
    v = check_solution(GLASSES, "He drinks 3 * 5 = <<3*5=15>>15 glasses\nA: 15")
    f = v.findings[0]
    assert (v.status, f.reason, f.would_be) == ("unverifiable", "ambiguous_grounding", "ungrounded_number")
    assert "breakfast, lunch and dinner' read as 3 (items" in f.detail


def test_a_number_no_reading_grounds_stays_error_evidence() -> None:
    v = check_solution(GLASSES, "He drinks 4 * 5 = <<4*5=20>>20 glasses\nA: 20")
    assert [f.reason for f in v.errors] == ["ungrounded_number"]
    assert v.errors[0].support == 0.0


def test_would_be_is_only_a_reading_dependent_error_on_a_could_not_tell_finding() -> None:
    with pytest.raises(ProblemGraphError):
        Finding("unit_mismatch", would_be="unit_mismatch")
    with pytest.raises(ProblemGraphError):
        Finding("ambiguous_grounding", would_be="arithmetic_error")
    assert Finding("ambiguous_grounding", would_be="unit_mismatch", support=0.4).evidence_below() == 0.4


def test_a_verdict_refuses_error_evidence_its_min_evidence_does_not_allow() -> None:
    v = check_solution(BAGS, BAGS_SUM, min_evidence=0.5)
    with pytest.raises(ProblemGraphError):
        dataclasses.replace(v, min_evidence=0.001)


def test_an_arithmetic_slip_is_evidence_at_every_min_evidence() -> None:
    v = check_solution(BAGS, "3 * 4 = <<3*4=13>>13 kg")
    assert [f.reason for f in v.errors] == ["arithmetic_error"]
    assert (v.evidence_below, v.status_at(1e-9)) == (0.0, "error")


def test_every_implicit_rule_has_a_measured_rate() -> None:
    from ssbg.reading.implicit import IMPLICIT_RATES, IMPLICIT_RULES

    assert set(IMPLICIT_RATES) == {name for name, _ in IMPLICIT_RULES}
    assert all(0.0 < rate < 1.0 for rate in IMPLICIT_RATES.values())


def test_a_question_s_implicit_proposals_are_found_once_and_handed_out_as_new_lists() -> None:
    """Its solutions share one reading of the rules (memoized per question and pack); a caller's list is its own."""
    from ssbg.reading.implicit import _proposals, proposals

    question = "Ann and Bob share 10 apples. Both eat 3. How many each?"
    first = proposals(question)
    first.append(("mine", "mine", 1.0))
    hits = _proposals.cache_info().hits
    assert ("mine", "mine", 1.0) not in proposals(question)
    assert _proposals.cache_info().hits == hits + 1
    assert {rule for rule, _, _ in proposals(question)} >= {"named_people", "two_kinds"}


@pytest.mark.parametrize(("question", "value", "rule", "proposed"), [
    ("Ann and Bob share 10 apples. How many each?", 2, "named_people", True),
    ("He has knives, forks, and spoons. How many kinds?", 3, "items", True),
    ("None of the cats came. How many came?", 0, "none", True),
    ("They eat rice every lunch and dinner. How many meals?", 2, "two_kinds", True),
    ("Each school sent a girls\u2019 team and a boys\u2019 team. How many teams?", 2, "two_kinds", True),
    ("Jack rides the elevator with 8 other adults. How many adults?", 9, "with_others", True),
    ("She washes 15 loose socks. How many socks?", 1, "one", True),
    ("Her grades were 90, 80, 70, and 100. What is her average?", 4, "items", True),
    ("He works half days on Friday, Saturday, and Sunday of a 7-day week. How many full days?", 4, "one_step", True),
    ("Sweetwater has a 10% off deal with free shipping. How much?", 0, "none", True),
    ("He has 5 apples and 3 pears. How many?", 2, "two_kinds", False),  # numbers, not two kinds of words
    ("Ann and ann came. How many?", 2, "two_kinds", False),  # the same word twice
    ("Jack rides with other adults. How many?", 1, "with_others", False),  # no number of others
    ("James sells a $500,000 house for 20% over market value. How much?", 1.2, "percent_change", True),
    ("The massager vibrates 60% faster. How many vibrations?", 1.6, "percent_change", True),
    ("The shirt is 25% off. How much is it?", 0.75, "percent_change", True),
    ("Overtime is paid at time and a half. How much?", 1.5, "percent_change", True),
    ("The shirt is 25% of the price. How much is it?", 0.75, "percent_change", False),  # a share, not a change
])  # fmt: skip
def test_an_implicit_rule_proposes_the_quantity_its_words_state_and_no_other(
    question: str, value: float, rule: str, proposed: bool
) -> None:
    from ssbg.reading.implicit import implicit_readings

    assert (rule in [r.rule for r in implicit_readings(question, value)]) is proposed



def test_a_step_left_unsaid_grounds_a_number_only_as_probably_as_such_readings_are_the_golds() -> None:
    from ssbg.reading.implicit import IMPLICIT_RATES, implicit_readings

    found = implicit_readings("There are five phones on a plan, one of them the main phone. How many others?", 4)
    assert [(r.rule, r.words) for r in found] == [("one_step", "5 - 1 (a step left unsaid)")]
    assert found[0].probability == IMPLICIT_RATES["one_step"]


@pytest.mark.parametrize(
    ("question", "line"),
    [  # each from a GSM8K train gold solution the checker once called an arithmetic error (issue 25)
        ("Anna spent 1/4 of her money and has $24 left. How much did she have?",
         "Combining like terms, we get X*2 - $40 = $250."),
        ("Alyssa ate some nuggets. How many?", "100/5 = 5A/5 or 20 = A."),
        ("There were 240 students. How many don't read novels?",
         "240 students \u2013 (40 students + 84 students + 100 students) = 240 students \u2013 224 students = 16."),
        ("How many trees?", "3*30 = 30 + M trees."),
        ("Bea sells lemonade. How much?", "She spends 50 cents because $1 / 2 = 50 cents"),
        ("What percentage are bobby pins?", "9 teaspoons / 21 teaspoons * 100% = 42.857 which rounds to 43%"),
        ("When does he leave?", "0900-0130 = 0730 hours"),
        ("How many cups?", "Each drink uses 1.5 cups because 1 and 1/4 cup + 1/4 cup = 1.5 cups"),
        ("How old is Juwan?", "Juwan is 1/3 of Solomon = 66/3 = 22"),
        ("Nikita scored 11 more than half of 278. How many?", "Nikita = (1/2) 278 + 11 = 150 points"),
    ],
)
def test_prose_that_is_no_computation_is_not_called_a_slip(question: str, line: str) -> None:
    v = check_solution(question, line + "\nA: 1")
    assert "arithmetic_error" not in [f.reason for f in v.findings]


@pytest.mark.parametrize(
    "line",
    ["Jerry took 2*8 = 24 hours fixing the counter.", "He caught 200*.55=100 pounds more salmon.",
     "13 marbles + 4 marbles + 16 marbles = 45 marbles"],
)
def test_a_prose_slip_is_still_one(line: str) -> None:
    v = check_solution("Jerry has 2 jobs of 8 hours, 200 pounds of fish at .55, 13, 4 and 16 marbles. How many?",
                       line + "\nA: 1")
    assert "arithmetic_error" in [f.reason for f in v.errors]


def test_a_result_a_declined_prose_equation_states_is_no_invented_number_later() -> None:
    q = "The shop loses 5 thousand dollars a day. How much does it lose in three days and then 2 more?"
    v = check_solution(q, "The losses are 5 * 3 = $15,000.\nThen 15000 + 2 = <<15000+2=15002>>15002\nA: 15002")
    assert [f.reason for f in v.errors] == []


def test_a_number_an_earlier_line_states_in_prose_is_no_invented_number() -> None:
    q = "A box has 48 donuts. The secretary takes 4. How many are left if half are then eaten?"
    v = check_solution(q, "The secretary takes 4 more, leaving 44 donuts.\nHalf are eaten: 44/2 = <<44/2=22>>22\nA: 22")
    assert [f.reason for f in v.errors] == []
    assert "unread_line" in [f.reason for f in v.findings]
    invented = check_solution(q, "The secretary takes 4 more.\nHalf are eaten: 44/2 = <<44/2=22>>22\nA: 22")
    assert "ungrounded_number" in [f.reason for f in invented.findings]


def test_a_number_one_unwritten_step_of_earlier_results_gives_is_could_not_tell_at_its_measured_rate() -> None:
    from ssbg.reading.implicit import UNSAID_STEP_RATE

    q = "Clementine baked 72 cookies. Jake baked twice as many. Tory baked half as many as both combined. How many?"
    unsaid = "Jake baked 72 x 2 = <<72*2=144>>144 cookies.\nTory baked 216 / 2 = <<216/2=108>>108 cookies.\nA: 108"
    v = check_solution(q, unsaid)
    assert v.errors == ()
    assert [(f.reason, f.support) for f in v.findings] == [("ambiguous_grounding", UNSAID_STEP_RATE)]
    assert "144 + 72 (a step the solution leaves unsaid)" in v.findings[0].detail
    invented = check_solution(q, unsaid.replace("216 / 2 = <<216/2=108>>108", "217 / 2 = <<217/2=108.5>>108.5"))
    assert [f.reason for f in invented.errors] == ["ungrounded_number"]
