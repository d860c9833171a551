"""What is counted (ADR 0017 part 2): counted nouns in proofs, the kind check, apart from admissibility."""

from __future__ import annotations

import pytest

from ssbg.kinds import (
    GENERIC_COUNTS,
    KIND_FINDINGS,
    KIND_MEMBERS,
    Counted,
    counted_unit,
    is_kind_of,
    read_kinds,
)
from ssbg.reading.readers.gsm8k import gsm8k_trace
from ssbg.trace import bind_trace
from ssbg.units import UnitVector, corpus_pack, default_pack

PACK = corpus_pack()


@pytest.mark.parametrize(("text", "written"), [
    ("cookies", "count[cookie]"),
    ("dollars per cookie", "money/count[cookie]"),
    ("cookies per box", "count[cookie]/count[box]"),
    ("dollars per hour", "money/time"),
    ("dozen", "count"),  # a multiplier: a count of no one thing
    ("children", "count[child]"),
])
def test_a_unit_text_names_what_it_counts(text: str, written: str) -> None:
    counted = counted_unit(text, PACK)
    assert counted is not None
    assert str(counted) == written
    assert counted.vector == PACK.resolve(text).dimension  # the six-dimension unit is the pack's


def test_without_a_counted_noun_the_form_is_the_vectors() -> None:
    vector = UnitVector(money=1, time=-1, count=-1)
    assert str(Counted(vector)) == vector.to_canonical_string()
    assert str(Counted(UnitVector(count=2), (("box", 1), ("cookie", 1)))) == "count[box]*count[cookie]"
    assert str(Counted(UnitVector(), (("box", -1), ("cookie", 1)))) == "count[cookie]/count[box]"


def test_kinds_are_listed_and_transitive() -> None:
    assert is_kind_of("hen", "animal")  # hen -> bird -> animal
    assert is_kind_of("cookie", "item")  # generic both ways
    assert is_kind_of("item", "cookie")
    assert not is_kind_of("person", "child")  # the listed direction only
    assert GENERIC_COUNTS.isdisjoint(KIND_MEMBERS)


def _bind(question: str, solution: str) -> tuple[list[str], list[tuple[str, str, tuple[str, ...]]]]:
    graph = bind_trace(gsm8k_trace(question, solution, problem_id="t", pack=PACK), pack=PACK)
    reading = read_kinds(graph, PACK)
    assert [eq.admissibility_status for eq in graph.equations] == ["admitted"] * len(graph.equations)
    return list(reading.proofs), [(f.finding, f.where, f.nouns) for f in reading.findings]


def test_a_rate_per_one_thing_applied_to_a_count_of_another_is_a_finding_not_a_refusal() -> None:
    proofs, findings = _bind("Cookies cost $2 per cookie. Ann buys 3 boxes. How much does she pay?",
                             "She pays 2*3 = $<<2*3=6>>6.\n#### 6")
    assert proofs == ["apply_rate: [money/count[cookie],count[box]] -> money"]
    assert findings == [("count_kind_mismatch", "equation", ("cookie", "box"))]


def test_the_same_thing_or_a_kind_of_it_is_no_finding() -> None:
    proofs, findings = _bind("Apples cost $2 per fruit. Ann buys 3 apples. How much does she pay?",
                             "She pays 2*3 = $<<2*3=6>>6.\n#### 6")
    assert findings == []
    assert proofs == ["apply_rate: [money/count[fruit],count[apple]] -> money"]


def test_a_sum_of_different_kinds_is_admitted_and_noted() -> None:
    proofs, findings = _bind("A class has 12 boys and 15 girls. How many children are in the class?",
                             "12 + 15 = <<12+15=27>>27\n#### 27")
    assert proofs == ["add: [count[boy],count[girl]] -> count"]
    assert findings == [("mixed_kinds", "equation", ("boy", "girl"))]


def test_a_question_answered_by_a_count_of_another_thing_is_a_finding() -> None:
    _, findings = _bind("Ann has 3 boxes with 4 cookies in each box. How many boxes does she have?",
                        "3*4 = <<3*4=12>>12 cookies\n#### 12")
    assert ("count_kind_mismatch", "target", ("box", "cookie")) in findings


def test_dividing_counts_forms_a_rate() -> None:
    proofs, findings = _bind("Ann shares 24 cookies among 3 boxes. How many cookies are in each box?",
                             "24/3 = <<24/3=8>>8\n#### 8")
    assert proofs == ["divide: [count[cookie],count[box]] -> count[cookie]/count[box]"]
    assert [f for f in findings if f[0] == "count_kind_mismatch" and f[1] == "equation"] == []


def test_with_en_units_v1_nothing_it_does_not_list_is_named() -> None:
    trace = gsm8k_trace("Ann has 3 hours and 2 more hours. How many hours?", "3+2 = <<3+2=5>>5 hours\n#### 5",
                        problem_id="h")
    graph = bind_trace(trace)
    assert read_kinds(graph, default_pack()).proofs == tuple(eq.unit_proof for eq in graph.equations)


def test_findings_use_the_closed_vocabulary_and_are_deterministic() -> None:
    question, solution = "Cookies cost $2 per cookie. Ann buys 3 boxes. How much does she pay?", "2*3 = $<<2*3=6>>6"
    graph = bind_trace(gsm8k_trace(question, solution, problem_id="t", pack=PACK), pack=PACK)
    first, again = read_kinds(graph, PACK), read_kinds(graph, PACK)
    assert first == again
    assert {f.finding for f in first.findings} <= set(KIND_FINDINGS)
    assert first.graph(graph).equations[0].unit_proof == first.proofs[0]
    assert first.graph(graph).equations[0].admissibility_status == graph.equations[0].admissibility_status
