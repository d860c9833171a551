"""The trace input type (ssbg.trace): validation, JSON codec, and bind_trace; the implicit constants; and the reading
side's choosing and weighing of a trace's readings (ssbg.reading.choosing, ADR 0018, 0027, 0035)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ssbg.admissibility import check_operation
from ssbg.constants import IMPLICIT_CONSTANTS, SOURCES, constants_with_value
from ssbg.errors import ProblemGraphError
from ssbg.model import SemanticSymbolicBindingGraph
from ssbg.reading.choosing import answer_mass, bind_choosing, reading_mass, step_units
from ssbg.reading.cues import CUE_PATTERNS, EQUATION_CONSTANTS, KNOWLEDGE_CONSTANTS, find_cues
from ssbg.trace import (
    MENTION_KINDS,
    MENTION_SOURCES,
    OPERAND_SOURCES,
    STEP_OPS,
    Operand,
    SourceReading,
    Trace,
    TraceBinder,
    bind_trace,
)
from ssbg.trace_json import plain_operand
from ssbg.units import UnitVector, corpus_pack, default_pack, load_pack

WENG = "Weng earns $12 an hour. She worked 50 minutes. How much did she earn?"


def weng() -> dict[str, Any]:
    return {
        "problem_id": "w1",
        "corpus": "example",
        "text": WENG,
        "question_span": [47, 69],
        "mentions": [
            {
                "start": 11,
                "end": 22,
                "text": "$12 an hour",
                "value": 12,
                "unit": "$ per hour",
                "lemma": "dollar_per_hour",
            },
            {"start": 35, "end": 45, "text": "50 minutes", "value": 50, "unit": "minutes", "lemma": "minute"},
        ],
        "steps": [
            {
                "op": "divide",
                "operands": [{"mention": 0}, {"constant": "minutes_per_hour", "cue": [18, 22]}],
                "result": 0.2,
                "unit": "$ per minute",
                "formula": "12/60=0.2",
            },
            {"op": "multiply", "operands": [{"step": 0}, {"mention": 1}], "result": 10, "unit": "$"},
        ],
        "answer": 10,
    }


def simple(
    text: str, mentions: list[tuple[int, int, float, str | None]], steps: list[dict[str, Any]], **extra: Any
) -> Trace:
    """A trace over ``text`` whose mentions are (start, end, value, unit)."""
    return Trace.from_dict(
        {
            "problem_id": "t",
            "corpus": "test",
            "text": text,
            "mentions": [
                {"start": a, "end": b, "text": text[a:b], "value": v, **({"unit": u} if u else {})}
                for a, b, v, u in mentions
            ],
            "steps": steps,
            **extra,
        }
    )


# ----------------------------------------------------------------- vocabularies


def test_vocabularies_are_closed_and_small() -> None:
    assert {"add", "subtract", "multiply", "divide"} == STEP_OPS
    assert {"quantity", "multiplier", "fraction"} == MENTION_KINDS
    assert tuple(MENTION_SOURCES) == ("text", "solution")
    assert tuple(OPERAND_SOURCES) == ("mention", "step", "constant")


@pytest.mark.parametrize("cid", sorted(IMPLICIT_CONSTANTS))
def test_every_constant_unit_resolves_in_the_pack(cid: str) -> None:
    # a fact of the world counts things (a dog's legs, the US states): its nouns are the corpus pack's count nouns
    unit = IMPLICIT_CONSTANTS[cid].unit
    pack = corpus_pack() if cid in KNOWLEDGE_CONSTANTS or cid == "us_states" else default_pack()
    assert unit is None or pack.resolve(unit).dimension is not None


@pytest.mark.parametrize("cid", sorted(IMPLICIT_CONSTANTS))
def test_every_constant_says_where_its_fact_comes_from(cid: str) -> None:
    assert IMPLICIT_CONSTANTS[cid].source in SOURCES


@pytest.mark.parametrize("cid", sorted(IMPLICIT_CONSTANTS))
def test_every_constant_has_a_cue_pattern_or_is_implied_by_an_equation(cid: str) -> None:
    assert (cid in CUE_PATTERNS) != (cid in EQUATION_CONSTANTS)


def test_cue_patterns_name_only_known_constants() -> None:
    assert set(CUE_PATTERNS) <= set(IMPLICIT_CONSTANTS)


@pytest.mark.parametrize(
    ("cid", "proof"),
    [
        ("minutes_per_hour", "divide: [money/time,dimensionless] -> money/time"),
        ("days_per_week", "divide: [money/time,dimensionless] -> money/time"),
        ("percent", "divide: [money/time,dimensionless] -> money/time"),
    ],
)
def test_rate_and_percent_constants_are_dimensionless_ratios(cid: str, proof: str) -> None:
    unit = IMPLICIT_CONSTANTS[cid].unit
    assert unit is not None
    assert check_operation("divide", ["dollars_per_hour", unit]).to_canonical_string() == proof


def test_constants_with_value_lists_each_constant_of_that_value() -> None:
    assert {c.constant_id for c in constants_with_value(60)} == {"seconds_per_minute", "minutes_per_hour"}


def test_cues_are_found_only_where_the_text_has_the_words() -> None:
    assert [c.constant_id for c in find_cues("It takes 3 hours.", 60)] == ["minutes_per_hour"]
    assert find_cues("It takes 3 apples.", 60) == ()


# ----------------------------------------------------------------- codec


def test_json_round_trip_is_exact() -> None:
    t = Trace.from_dict(weng())
    assert Trace.from_json(t.to_json()) == t
    assert json.loads(t.to_json()) == t.to_dict()


def test_canonical_json_has_sorted_keys() -> None:
    text = Trace.from_dict(weng()).to_json()
    assert text == json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def test_question_property_is_the_question_span_text() -> None:
    assert Trace.from_dict(weng()).question == "How much did she earn?"


def test_malformed_json_is_a_typed_error() -> None:
    with pytest.raises(ProblemGraphError) as info:
        Trace.from_json("{not json")
    assert info.value.reason == "malformed_json"


def _broken(path: list[Any], value: Any) -> dict[str, Any]:
    data = weng()
    node: Any = data
    for key in path[:-1]:
        node = node[key]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "reason", "where"),
    [
        (["text"], KeyError, "missing_field", "$.text"),
        (["text"], 3, "wrong_type", "$.text"),
        (["text"], "   ", "invalid_value", "$.text"),
        (["steps"], [], "invalid_value", "$.steps"),
        (["steps"], "x", "wrong_type", "$.steps"),
        (["mentions", 0, "text"], "$13 an hour", "invalid_value", "$.mentions[0].text"),
        (["mentions", 0, "end"], 10, "invalid_value", "$.mentions[0].end"),
        (["mentions", 0, "value"], "12", "wrong_type", "$.mentions[0].value"),
        (["mentions", 0, "value"], float("nan"), "invalid_value", "$.mentions[0].value"),
        (["mentions", 0, "kind"], "guess", "invalid_value", "$.mentions[0].kind"),
        (["steps", 0, "op"], "modulo", "unknown_operation", "$.steps[0].op"),
        (["steps", 0, "operands"], [{"mention": 0}], "invalid_value", "$.steps[0].operands"),
        (["steps", 0, "operands", 0], {"mention": 0, "step": 1}, "invalid_value", "$.steps[0].operands[0].operand"),
        (["steps", 0, "operands", 0], {"mention": 9}, "invalid_value", "$.steps[0].operands[0].mention"),
        (["steps", 0, "operands", 0], {"step": 0}, "invalid_value", "$.steps[0].operands[0].step"),
        (["steps", 0, "operands", 1], {"constant": "pi"}, "invalid_value", "$.steps[0].operands[1].constant"),
        (
            ["steps", 0, "operands", 1],
            {"constant": "percent", "cue": [5, 500]},
            "invalid_value",
            "$.steps[0].operands[1].cue",
        ),
        (["steps", 0, "operands", 0], {"mention": 0, "cue": [1, 2]}, "unexpected_field", "$.steps[0].operands[0].cue"),
        (["steps", 0, "colour"], "red", "unexpected_field", "$.steps[0].colour"),
        (["question_span"], [60, 900], "invalid_value", "$.question_span"),
    ],
)
def test_malformed_traces_refuse_with_reason_and_json_path(
    path: list[Any], value: Any, reason: str, where: str
) -> None:
    with pytest.raises(ProblemGraphError) as info:
        Trace.from_dict(_broken(path, value))
    assert (info.value.reason, info.value.path) == (reason, where)


def test_overlapping_mentions_refuse() -> None:
    data = weng()
    data["mentions"][1] = {"start": 15, "end": 22, "text": WENG[15:22], "value": 1}
    with pytest.raises(ProblemGraphError) as info:
        Trace.from_dict(data)
    assert info.value.path == "$.mentions[1].start"


def test_a_solution_mention_needs_the_solution() -> None:
    data = weng()
    data["mentions"].append({"start": 0, "end": 1, "text": "2", "value": 2, "source": "solution"})
    with pytest.raises(ProblemGraphError) as info:
        Trace.from_dict(data)
    assert info.value.reason == "missing_field"
    data["solution"] = "2 legs"
    assert Trace.from_dict(data).mentions[-1].source == "solution"


def test_decoder_paths_are_rooted_where_the_caller_says() -> None:
    with pytest.raises(ProblemGraphError) as info:
        Trace.from_dict(_broken(["steps", 0, "op"], "pow"), path="corpus.jsonl:7:$")
    assert info.value.path == "corpus.jsonl:7:$.steps[0].op"


# ----------------------------------------------------------------- binding


def test_symbols_of_mentions_span_the_problem_text() -> None:
    t = Trace.from_dict(weng())
    g = bind_trace(t)
    for symbol in g.symbols:
        link = symbol.source_span
        if link.source_id == "w1":
            assert WENG[link.start : link.end] == link.text


def test_weng_binds_as_dollars_per_hour_over_minutes_per_hour() -> None:
    g = bind_trace(Trace.from_dict(weng()))
    assert [(e.operation_kind, e.admissibility_status, e.unit_proof) for e in g.equations] == [
        ("divide", "admitted", "divide: [money/time,dimensionless] -> money/time"),
        ("apply_rate", "admitted", "apply_rate: [money/time,time] -> money"),
    ]


def test_constant_symbol_spans_its_cue_words() -> None:
    g = bind_trace(Trace.from_dict(weng()))
    assert g.symbol("c_minutes_per_hour").source_span.text == "hour"


def test_a_constant_without_cue_spans_its_description() -> None:
    data = weng()
    del data["steps"][0]["operands"][1]["cue"]
    link = bind_trace(Trace.from_dict(data)).symbol("c_minutes_per_hour").source_span
    assert (link.source_id, link.text) == ("w1:constants", "60 minutes per hour")


def test_question_target_binds_to_the_last_step() -> None:
    unknown = bind_trace(Trace.from_dict(weng())).unknowns[0]
    assert (unknown.resolved_by, unknown.target_status, unknown.resolved_unit) == ("step_001", "bound", "money")


def test_gold_answer_unit_wins_over_the_stated_one() -> None:
    data = weng()
    data["answer_unit"] = "dollars"
    data["gold_answer_unit"] = "hours"
    unknown = bind_trace(Trace.from_dict(data)).unknowns[0]
    assert (unknown.expected_unit, unknown.target_refusal_reason) == ("hours", "expected_unit_mismatch")


def test_a_stated_unit_the_pack_lacks_refuses_that_step_and_its_dependents() -> None:
    data = weng()
    data["steps"][0]["unit"] = "widgets"
    eqs = bind_trace(Trace.from_dict(data)).equations
    assert (eqs[0].refusal_reason, eqs[0].offending_unit) == ("unknown_unit", "widgets")
    assert (eqs[1].refusal_reason, eqs[1].propagated_from) == ("unit_unbound", "step_000")


def test_a_stated_unit_of_another_dimension_is_a_mismatch() -> None:
    data = weng()
    data["steps"][1]["unit"] = "hours"
    assert bind_trace(Trace.from_dict(data)).equations[1].refusal_reason == "unit_mismatch"


def test_pure_numbers_are_dimensionless_in_every_op() -> None:
    text = "A cake costs $12. She buys half of it, then 1/4 more."
    t = simple(
        text,
        [(13, 16, 12, "$"), (46, 49, 0.25, None)],
        [
            {"op": "divide", "operands": [{"mention": 0}, {"constant": "half"}]},
            {"op": "subtract", "operands": [{"constant": "whole"}, {"mention": 1}]},
            {"op": "multiply", "operands": [{"step": 0}, {"step": 1}]},
        ],
    )
    data = t.to_dict()
    data["mentions"][1]["kind"] = "fraction"
    eqs = bind_trace(Trace.from_dict(data)).equations
    assert [(e.admissibility_status, e.unit_proof.split(" -> ")[-1]) for e in eqs] == [
        ("admitted", "money"),
        ("admitted", "dimensionless"),
        ("admitted", "money"),
    ]


def test_a_bare_number_without_unit_is_unbound() -> None:
    t = simple(
        "She has 5 and 3 dollars.",
        [(8, 9, 5, None), (14, 23, 3, "dollars")],
        [{"op": "add", "operands": [{"mention": 0}, {"mention": 1}]}],
    )
    assert bind_trace(t).equations[0].refusal_reason == "unit_unbound"


def test_apply_rate_is_decided_from_the_operand_units() -> None:
    t = simple(
        "60 miles per hour for 3 hours",
        [(0, 17, 60, "miles per hour"), (22, 29, 3, "hours")],
        [{"op": "multiply", "operands": [{"mention": 1}, {"mention": 0}]}],
    )
    eq = bind_trace(t).equations[0]
    assert (eq.operation_kind, eq.unit_proof) == ("apply_rate", "apply_rate: [length/time,time] -> length")


def test_a_rate_constant_in_a_difference_is_an_amount_of_its_numerator() -> None:
    t = simple(
        "She read on 5 days of the week.",
        [(12, 18, 5, "days")],
        [{"op": "subtract", "operands": [{"constant": "days_per_week"}, {"mention": 0}]}],
    )
    g = bind_trace(t)
    assert g.symbol("c_days_per_week_amount").unit == "day"
    assert g.equations[0].unit_proof == "subtract: [time,time] -> time"


def test_an_operand_used_twice_gets_a_second_symbol() -> None:
    t = simple(
        "A square of 12 feet",
        [(12, 19, 12, "feet")],
        [{"op": "multiply", "operands": [{"mention": 0}, {"mention": 0}]}],
    )
    eq = bind_trace(t).equations[0]
    assert (eq.admissibility_status, eq.unit_proof) == ("admitted", "multiply: [length,length] -> length^2")


def test_a_step_result_used_twice_is_copied_by_an_identity_equation() -> None:
    t = simple(
        "12 feet and 3 feet",
        [(0, 7, 12, "feet"), (12, 18, 3, "feet")],
        [
            {"op": "add", "operands": [{"mention": 0}, {"mention": 1}]},
            {"op": "multiply", "operands": [{"step": 0}, {"step": 0}]},
        ],
    )
    eqs = bind_trace(t).equations
    assert [e.lhs_symbol_id for e in eqs] == ["step_000", "step_000_again_001", "step_001"]
    assert eqs[-1].unit_proof == "multiply: [length,length] -> length^2"


def test_solution_mentions_span_the_solution() -> None:
    solution = "Each car has 4 wheels, so 12 x 4 = <<12*4=48>>48."
    data = {
        "problem_id": "cars",
        "corpus": "test",
        "text": "There are 12 cars.",
        "solution": solution,
        "mentions": [
            {"start": 10, "end": 17, "text": "12 cars", "value": 12, "unit": "cars"},
            {"start": 13, "end": 21, "text": "4 wheels", "value": 4, "unit": "wheels", "source": "solution"},
        ],
        "steps": [{"op": "multiply", "operands": [{"mention": 0}, {"mention": 1}]}],
    }
    symbol = bind_trace(Trace.from_dict(data)).symbol("s_wheels_000")
    assert (symbol.source_span.source_id, symbol.source_span.text) == ("cars:solution", "4 wheels")


def test_step_units_are_the_admitted_units() -> None:
    assert step_units(Trace.from_dict(weng())) == (UnitVector(money=1, time=-1), UnitVector(money=1))


def test_binding_is_deterministic() -> None:
    t = Trace.from_dict(weng())
    assert bind_trace(t).to_canonical_string() == bind_trace(copy.deepcopy(t)).to_canonical_string()


def test_bind_trace_refuses_what_is_not_a_trace() -> None:
    with pytest.raises(ProblemGraphError) as info:
        bind_trace(weng())  # type: ignore[arg-type]
    assert info.value.reason == "wrong_type"


# ----------------------------------------------------------------- properties

UNITS = ("$", "dollars", "hours", "minutes", "miles per hour", "apples", "percent", "feet", None)


@st.composite
def traces(draw: st.DrawFn) -> Trace:
    n = draw(st.integers(min_value=1, max_value=5))
    mentions, parts, pos = [], [], 0
    for i in range(n):
        unit = draw(st.sampled_from(UNITS))
        word = f"{i + 1} {unit or 'things'}"
        parts.append(word)
        mentions.append(
            {
                "start": pos,
                "end": pos + len(word),
                "text": word,
                "value": i + 1,
                **({"unit": unit} if unit else {}),
                **({"kind": draw(st.sampled_from(["quantity", "fraction"]))} if unit is None else {}),
            }
        )
        pos += len(word) + 2
    text = ", ".join(parts)
    steps: list[dict[str, Any]] = []
    for i in range(draw(st.integers(min_value=1, max_value=4))):
        op = draw(st.sampled_from(sorted(STEP_OPS)))
        sources = [{"mention": draw(st.integers(0, n - 1))} for _ in range(2)]
        if i and draw(st.booleans()):
            sources[0] = {"step": draw(st.integers(0, i - 1))}
        if draw(st.booleans()):
            sources[1] = {"constant": draw(st.sampled_from(sorted(IMPLICIT_CONSTANTS)))}
        unit = draw(st.sampled_from(UNITS))
        steps.append({"op": op, "operands": sources, **({"unit": unit} if unit else {})})
    return Trace.from_dict(
        {
            "problem_id": "h",
            "corpus": "hypothesis",
            "text": text,
            "mentions": mentions,
            "steps": steps,
            "gold_answer_unit": draw(st.sampled_from(UNITS[:-1])),
        }
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(traces())
def test_round_trip_law(trace: Trace) -> None:
    assert Trace.from_json(trace.to_json()) == trace


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(traces())
def test_bind_trace_never_raises_and_stamps_every_step(trace: Trace) -> None:
    g = bind_trace(trace)
    assert isinstance(g, SemanticSymbolicBindingGraph)
    steps = [e for e in g.equations if "_again_" not in e.lhs_symbol_id]
    assert len(steps) == len(trace.steps)
    assert {e.admissibility_status for e in g.equations} <= {"admitted", "refused"}


class _CountingFacts(list[Any]):
    """A fact list that counts the facts read back from it."""

    reads = 0

    def __iter__(self) -> Any:
        _CountingFacts.reads += len(self)
        return super().__iter__()

    def __getitem__(self, index: Any) -> Any:
        got = super().__getitem__(index)
        _CountingFacts.reads += len(got) if isinstance(index, slice) else 1
        return got


def test_aliasing_reads_each_fact_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # an operand used twice in a step gets an alias with a copy of its fact; finding that fact by a scan of
    # every fact made a trace of n squared mentions cost n^2
    n = 200
    words = [f"{i + 1} apples" for i in range(n)]
    starts = [sum(len(w) + 1 for w in words[:i]) for i in range(n)]
    mentions = [{"start": s, "end": s + len(w), "text": w, "value": i + 1, "unit": "apples"}
                for i, (s, w) in enumerate(zip(starts, words, strict=True))]  # fmt: skip
    steps = [{"op": "multiply", "operands": [{"mention": i}, {"mention": i}]} for i in range(n)]
    trace = Trace.from_dict(
        {"problem_id": "p", "corpus": "example", "text": " ".join(words), "mentions": mentions, "steps": steps}
    )
    init = TraceBinder.__init__

    def counting_init(self: TraceBinder, *args: Any) -> None:
        init(self, *args)
        self.facts = _CountingFacts()

    monkeypatch.setattr(TraceBinder, "__init__", counting_init)
    _CountingFacts.reads = 0
    graph = bind_trace(trace)
    assert sum("_again_" in f.symbol_id for f in graph.facts) == n
    assert _CountingFacts.reads <= 4 * len(graph.facts)


# ------------------------------------------------------------------ reading again a mismatch (ADR 0018)

WORK = "He works 8 hours a day, 5 days a week. How many hours does he work a week?"


def _work_trace(*, per: list[str], alternative: dict[str, Any] | None = None, alt_unit: str | None = None) -> Trace:
    hours: dict[str, Any] = {"start": 9, "end": 22, "text": "8 hours a day", "value": 8, "unit": "hours per day"}
    if alt_unit is not None:
        hours = {**hours, "alt_unit": alt_unit}
    second: dict[str, Any] = {"mention": 1}
    if alternative is not None:
        second = {**second, "alternative": alternative}
    step: dict[str, Any] = {"op": "multiply", "operands": [{"mention": 0}, second], "result": 40, "unit": "hours"}
    if per:
        step["per"] = per
    return Trace.from_dict(
        {
            "problem_id": "w",
            "corpus": "example",
            "text": WORK,
            "mentions": [hours, {"start": 24, "end": 37, "text": "5 days a week", "value": 5, "unit": "days per week"}],
            "steps": [step, {"op": "add", "operands": [{"step": 0}, {"mention": 0}]}],
        }
    )


def test_a_stated_unit_that_drops_a_denominator_its_context_supplies_is_that_rate_noted() -> None:
    bound = bind_choosing(_work_trace(per=["week"]))
    first = bound.equations[0]
    assert first.admissibility_status == "admitted"
    assert "stated 'hours' read as 'hours per week'" in first.unit_proof


def test_without_such_context_the_stated_unit_is_a_mismatch() -> None:
    first = bind_choosing(_work_trace(per=[])).equations[0]
    assert (first.admissibility_status, first.refusal_reason) == ("refused", "unit_mismatch")


def test_a_mismatch_a_tied_reading_would_not_make_is_ambiguous_grounding() -> None:
    # the 5 is tied between "5 days a week" and "5 days off": with the second, 8 h/day x 5 days is hours
    text = WORK + " He has 5 days off."
    data = _work_trace(per=[]).to_dict()
    data["text"] = text
    off = {"start": len(WORK) + 8, "end": len(WORK) + 14, "text": "5 days", "value": 5, "unit": "days"}
    data["mentions"].append(off)
    data["steps"][0]["operands"][1]["alternative"] = {"mention": 2}
    bound = bind_choosing(Trace.from_dict(data))
    first, second = bound.equations[0], bound.equations[1]
    assert (first.refusal_reason, first.propagated_from) == ("ambiguous_grounding", None)
    assert "tie" in (first.refusal_detail or "")
    assert (second.refusal_reason, second.propagated_from) == ("unit_unbound", "step_000")


def test_a_mismatch_a_second_unit_reading_would_not_make_is_ambiguous_grounding() -> None:
    first = bind_choosing(_work_trace(per=[], alt_unit="hours")).equations[0]
    assert first.refusal_reason == "ambiguous_grounding"
    assert "read as 'hours'" in (first.refusal_detail or "")


def test_the_new_fields_round_trip_through_json() -> None:
    t = _work_trace(per=["week", "day"], alternative={"mention": 0, "why": "tie"}, alt_unit="hours")
    again = Trace.from_json(t.to_json())
    assert again == t
    assert again.steps[0].per == ("week", "day")
    assert again.mentions[0].alt_unit == "hours"


@pytest.mark.parametrize(
    ("operand", "path"),
    [
        ({"mention": 0, "alternative": {"mention": 0}}, "alternative"),
        ({"mention": 0, "alternative": {"mention": 1, "alternative": {"mention": 0}}}, "alternative"),
        ({"mention": 0, "at": -1}, "at"),
        ({"mention": 0, "why": " "}, "why"),
    ],
)
def test_malformed_new_operand_fields_refuse_with_their_path(operand: dict[str, Any], path: str) -> None:
    data = _work_trace(per=[]).to_dict()
    data["steps"][0]["operands"][0] = operand
    with pytest.raises(ProblemGraphError) as info:
        Trace.from_dict(data)
    assert (info.value.path or "").endswith(path)


def _cars_trace(text: str, cars: tuple[int, int], wheels: tuple[int, int]) -> Trace:
    """2 cars times 4 wheels, stated as wheels: the 4 is per car only if one reads it so."""
    return Trace.from_dict(
        {
            "problem_id": "cars",
            "corpus": "example",
            "text": text,
            "mentions": [
                {"start": cars[0], "end": cars[1], "text": text[cars[0] : cars[1]], "value": 2, "unit": "cars"},
                {"start": wheels[0], "end": wheels[1], "text": text[wheels[0] : wheels[1]], "value": 4,
                 "unit": "wheels"},
            ],
            "steps": [{"op": "multiply", "operands": [{"mention": 0}, {"mention": 1}], "unit": "wheels"}],
        }
    )  # fmt: skip


CARS_PACK = "en_units_v1+en_counts_v1"


def test_a_product_the_text_says_is_per_thing_is_read_so_and_noted() -> None:
    text = "He has 2 cars. Each car has 4 wheels. How many wheels are there?"
    bound = bind_choosing(_cars_trace(text, (7, 13), (28, 36)), pack=load_pack(CARS_PACK))
    first = bound.equations[0]
    assert first.admissibility_status == "admitted"
    assert "read as 'wheels per car' (the text says per thing)" in (first.unit_proof or "")
    read_as = next(s for s in bound.symbols if s.symbol_id.endswith("_per_car"))
    assert (read_as.unit, read_as.semantic_role) == ("wheels per car", "rate")
    assert read_as.symbol_id in first.dependencies
    assert any(f.symbol_id == read_as.symbol_id for f in bound.facts)  # its value stays a fact


def test_a_product_the_text_leaves_open_is_ambiguous_grounding_not_a_mismatch() -> None:
    # "2 cars and 4 wheels": a total or per car, the words do not say
    text = "He has 2 cars and 4 wheels. How many wheels are there?"
    bound = bind_choosing(_cars_trace(text, (7, 13), (18, 26)), pack=load_pack(CARS_PACK))
    first = bound.equations[0]
    assert (first.refusal_reason, first.propagated_from) == ("ambiguous_grounding", None)
    assert "read as 'wheels per car' admits it" in (first.refusal_detail or "")
    assert not any(s.symbol_id.endswith("_per_car") for s in bound.symbols)  # a trial leaves nothing behind


def test_a_product_no_per_thing_reading_admits_stays_a_mismatch() -> None:
    # 2 cars x 4 hours stated as dollars: no factor read per thing gives money
    text = "He has 2 cars. Each car takes 4 hours. How much is it?"
    data = _cars_trace(text, (7, 13), (30, 37)).to_dict()
    data["mentions"][1].update(text="4 hours", unit="hours")
    data["steps"][0]["unit"] = "$"
    first = bind_choosing(Trace.from_dict(data), pack=load_pack(CARS_PACK)).equations[0]
    assert first.refusal_reason == "unit_mismatch"


def _divide_trace(text: str, spans: tuple[tuple[int, int], tuple[int, int]], units: tuple[str, str], stated: str,
                  values: tuple[int, int]) -> Trace:
    mentions = [{"start": a, "end": b, "text": text[a:b], "value": v, "unit": u}
                for (a, b), u, v in zip(spans, units, values, strict=True)]
    return Trace.from_dict({"problem_id": "d", "corpus": "example", "text": text, "mentions": mentions,
                            "steps": [{"op": "divide", "operands": [{"mention": 0}, {"mention": 1}], "unit": stated}]})


def test_a_quotient_whose_divisor_the_text_says_is_per_the_stated_thing_is_read_so() -> None:
    # 12 towels / 4 towels = 3 loads: "4 towels for one load" is 4 towels per load
    text = "She has 12 towels. The machine fits 4 towels for one load. How many loads?"
    trace = _divide_trace(text, ((8, 17), (36, 44)), ("towels", "towels"), "loads", (12, 4))
    first = bind_choosing(trace, pack=load_pack(CARS_PACK)).equations[0]
    assert first.admissibility_status == "admitted"
    assert "read as 'towels per load' (the text says per thing)" in (first.unit_proof or "")


def test_a_quotient_shared_among_counted_things_states_its_unit_per_thing() -> None:
    # $40 / 8 toys = $5: $5 per toy, as divided
    text = "The toys cost $40 in all. She has 8 toys. How much is one toy?"
    trace = _divide_trace(text, ((14, 17), (34, 40)), ("$", "toys"), "$", (40, 8))
    first = bind_choosing(trace, pack=load_pack(CARS_PACK)).equations[0]
    assert first.admissibility_status == "admitted"
    assert "stated '$' read as '$ per toy' (its divisor)" in (first.unit_proof or "")
    # counts shared among counts are not: 24 cookies / 4 friends per friend is a pure number no sum could use
    text = "She shares 24 cookies among 4 friends. How many cookies does each get?"
    cookies = _divide_trace(text, ((11, 21), (28, 37)), ("cookies", "friends"), "cookies", (24, 4))
    assert bind_choosing(cookies, pack=load_pack(CARS_PACK)).equations[0].refusal_reason == "unit_mismatch"


def test_a_step_result_read_per_thing_is_ambiguous_grounding_never_admitted() -> None:
    # 3 + 4 = 7 berries, then 7 * 5 birds = 35 berries: the 7 is per bird, which no word of a result says
    text = "Each bird eats 3 berries at dawn and 4 berries at dusk. There are 5 birds. How many berries do they eat?"
    data = {
        "problem_id": "berries", "corpus": "example", "text": text,
        "mentions": [{"start": 15, "end": 24, "text": "3 berries", "value": 3, "unit": "berries"},
                     {"start": 37, "end": 46, "text": "4 berries", "value": 4, "unit": "berries"},
                     {"start": 66, "end": 73, "text": "5 birds", "value": 5, "unit": "birds"}],
        "steps": [{"op": "add", "operands": [{"mention": 0}, {"mention": 1}], "unit": "berries"},
                  {"op": "multiply", "operands": [{"step": 0}, {"mention": 2}], "unit": "berries"}],
    }  # fmt: skip
    second = bind_choosing(Trace.from_dict(data), pack=load_pack(CARS_PACK)).equations[1]
    assert second.refusal_reason == "ambiguous_grounding"
    assert second.refusal_detail == "operand step_000 read as 'berries per bird' admits it"


# ------------------------------------------------------------------ n-best readings (ADR 0027)

_BAGS = {
    "problem_id": "p", "corpus": "example", "text": "a 3 kg bag and 4 apples",
    "mentions": [{"start": 2, "end": 6, "text": "3 kg", "value": 3, "unit": "kg"},
                 {"start": 15, "end": 23, "text": "4 apples", "value": 4, "unit": "apples",
                  "readings": [["apples", 0.7], ["kg", 0.3]]}],
    "steps": [{"op": "add", "operands": [{"mention": 0}, {"mention": 1, "readings": [
        {"operand": {"mention": 1}, "probability": 0.9}, {"operand": {"mention": 0}, "probability": 0.1}]}]}],
}


def test_readings_round_trip_through_json() -> None:
    t = Trace.from_dict(_BAGS)
    assert Trace.from_json(t.to_json()) == t


def test_readings_do_not_change_the_bound_graph() -> None:
    plain = copy.deepcopy(_BAGS)
    del plain["mentions"][1]["readings"]
    del plain["steps"][0]["operands"][1]["readings"]
    pack = load_pack("en_units_v1+en_counts_v1")
    with_readings = bind_trace(Trace.from_dict(_BAGS), pack=pack).to_canonical_string()
    assert with_readings == bind_trace(Trace.from_dict(plain), pack=pack).to_canonical_string()


@pytest.mark.parametrize("probability", [-0.1, 1.5, "0.5"])
def test_a_reading_probability_outside_0_1_is_refused(probability: object) -> None:
    data = copy.deepcopy(_BAGS)
    data["mentions"][1]["readings"][0][1] = probability
    with pytest.raises(ProblemGraphError) as info:
        Trace.from_dict(data)
    assert info.value.path == "$.mentions[1].readings[0].probability"


@pytest.mark.parametrize(
    ("fields", "reason", "path"),
    [
        ({"mention": 1, "readings": (SourceReading(Operand(step=0), 1.5),)}, "invalid_value",
         "readings[0].probability"),
        ({"mention": 1, "readings": ((Operand(step=0), 0.5),)}, "wrong_type", "readings[0]"),
        ({"mention": 1, "readings": ("step 0",)}, "wrong_type", "readings[0]"),
        ({"mention": 1, "readings": [SourceReading(Operand(step=0), 0.5)]}, "wrong_type", "readings"),
        ({"constant": "minutes_per_hour", "cue": (5, 2)}, "invalid_value", "cue"),
        ({"constant": "minutes_per_hour", "cue": (True, 2)}, "wrong_type", "cue[0]"),
        ({"constant": "no_such_constant"}, "invalid_value", "constant"),
        ({"mention": 1, "constant": "minutes_per_hour"}, "invalid_value", "operand"),
        ({"mention": 1, "text": "3\ud800"}, "invalid_value", "text"),
        ({"step": 0, "why": "\udfff why"}, "invalid_value", "why"),
        ({"mention": 1, "readings": []}, "wrong_type", "readings"),
    ],
)
def test_what_the_one_pass_check_of_an_operand_does_not_pass_the_field_checks_name(
    fields: dict[str, Any], reason: str, path: str
) -> None:
    """An operand with sources or a cued constant is checked in one pass (``trace_json.plain_operand``); whatever
    that pass does not accept goes through the field checks, which name the field (ADR 0035, cost of checking)."""
    ok = Operand(mention=1, text="3", readings=(SourceReading(Operand(step=0), 0.6),
                                                SourceReading(Operand(constant="minutes_per_hour"), 0.4)))
    assert plain_operand(ok, SourceReading)
    assert plain_operand(Operand(constant="minutes_per_hour", cue=(2, 5)), SourceReading)
    with pytest.raises(ProblemGraphError) as info:
        Operand(**fields)
    assert (info.value.reason, info.value.path) == (reason, path)


def test_a_source_reading_has_no_readings_of_its_own() -> None:
    inner = Operand(mention=0)
    nested = Operand(mention=1, readings=(SourceReading(inner, 1.0),))
    with pytest.raises(ProblemGraphError) as info:
        Operand(mention=1, readings=(SourceReading(nested, 1.0),))
    assert info.value.path == "readings[0]"


def test_reading_mass_weighs_sources_and_units_together() -> None:
    """4 apples read as kg (0.3 of its unit) or the literal read as '3 kg' (0.1 of its source) admit the sum:
    0.9 * 0.3 + 0.1 = 0.37 of the combinations; the unit check picks none of them."""
    m = reading_mass(Trace.from_dict(_BAGS), pack=load_pack("en_units_v1+en_counts_v1"))[0]
    assert (round(m.mass, 3), m.readings) == (0.37, 3)


def test_reading_mass_is_empty_for_an_admitted_trace() -> None:
    data = copy.deepcopy(_BAGS)
    data["mentions"][1]["unit"] = "kg"
    data["mentions"][1]["readings"] = [["kg", 0.7], ["apples", 0.3]]
    assert reading_mass(Trace.from_dict(data), pack=load_pack("en_units_v1+en_counts_v1")) == {}


def test_a_stated_unit_is_weighed_as_a_reading_when_its_probability_is_given() -> None:
    data = copy.deepcopy(_BAGS)
    data["mentions"][1]["unit"] = "kg"
    del data["mentions"][1]["readings"]
    del data["steps"][0]["operands"][1]["readings"]
    data["steps"][0]["unit"] = "apples"  # 3 kg + 4 kg stated as apples: refused at its stated unit only
    t = Trace.from_dict(data)
    pack = load_pack("en_units_v1+en_counts_v1")
    assert reading_mass(t, pack=pack)[0].mass == 0.0
    m = reading_mass(t, pack=pack, stated=0.9)[0]
    assert (round(m.mass, 6), m.best) == (0.1, "the stated 'apples' not the result's unit")


def test_answer_mass_weighs_the_asked_unit_as_a_reading() -> None:
    data = copy.deepcopy(_BAGS)
    data["mentions"][1]["unit"] = "kg"
    del data["mentions"][1]["readings"]
    del data["steps"][0]["operands"][1]["readings"]
    data["answer_unit"] = "apples"
    t = Trace.from_dict(data)
    pack = load_pack("en_units_v1+en_counts_v1")
    assert bind_trace(t, pack=pack).unknowns[0].target_refusal_reason == "expected_unit_mismatch"
    assert answer_mass(t, pack=pack) == answer_mass(t, pack=pack, asked=1.0)
    assert answer_mass(t, pack=pack, asked=1.0).mass == 0.0  # type: ignore[union-attr]
    assert round(answer_mass(t, pack=pack, asked=0.8).mass, 6) == 0.2  # type: ignore[union-attr]


def test_reading_mass_weighs_a_pure_number_as_it_is() -> None:
    t = Trace.from_dict({
        "problem_id": "p", "corpus": "example", "text": "3/4 of a 8 kg bag",
        "mentions": [{"start": 0, "end": 3, "text": "3/4", "value": 0.75, "kind": "fraction"},
                     {"start": 9, "end": 13, "text": "8 kg", "value": 8, "unit": "kg"}],
        "steps": [{"op": "multiply", "operands": [{"mention": 0}, {"mention": 1}], "unit": "apples"}]})
    m = reading_mass(t, pack=load_pack("en_units_v1+en_counts_v1"), stated=0.9)[0]
    assert (round(m.mass, 6), m.readings) == (0.1, 1)


_CHAIN = {  # "12 months a year, 2 years": 2 years read as 'years per month' (0.6) or 'years' (0.4); then $25 a month
    "problem_id": "chain",
    "corpus": "example",
    "text": "John saves $25 every month for 2 years. He spends $400. How many dollars are left?",
    "mentions": [
        {"start": 11, "end": 26, "text": "$25 every month", "value": 25, "unit": "$ per month"},
        {"start": 31, "end": 38, "text": "2 years", "value": 2, "unit": "years per month",
         "readings": [["years per month", 0.6], ["years", 0.4]]},
        {"start": 50, "end": 54, "text": "$400", "value": 400, "unit": "$"},
    ],
    "steps": [
        {"op": "multiply", "operands": [{"constant": "months_per_year"}, {"mention": 1}]},
        {"op": "multiply", "operands": [{"mention": 0}, {"step": 0}]},
        {"op": "subtract", "operands": [{"step": 1}, {"mention": 2}]},
    ],
}


def test_reading_mass_weighs_the_readings_of_the_steps_a_refused_step_uses() -> None:
    """Step 2 is refused ($ per month - $) under the chosen readings; '2 years' read as 'years' makes step 0 a time,
    step 1 money and step 2 admitted: its mass is that reading's share of step 0's admitted readings (joint
    weighing, ADR 0027), named with the step it goes through."""
    t = Trace.from_dict(_CHAIN)
    pack = load_pack("en_units_v1+en_counts_v1")
    assert [u is None for u in step_units(t, pack=pack)] == [False, False, True]
    m = reading_mass(t, pack=pack)[2]
    assert round(m.mass, 6) == 0.4
    assert m.best is not None
    assert "the result of step 0" in m.best
    assert "'2 years' read as 'years'" in m.best


def test_joint_weighing_leaves_a_step_whose_operands_have_no_other_reading_at_zero() -> None:
    data = copy.deepcopy(_CHAIN)
    del data["mentions"][1]["readings"]
    assert reading_mass(Trace.from_dict(data), pack=load_pack("en_units_v1+en_counts_v1"))[2].mass == 0.0
