"""GUIDE.md's "for one" in binding (issue 36): a quantity read as a rate ``X per T`` that a solution uses as the
amount of one T is read so through an explicit step, its cue the words that say one T, never silently."""

from __future__ import annotations

from typing import Any

import pytest

from ssbg.reading.choosing import FOR_ONE_RATE, bind_choosing, reading_mass
from ssbg.trace import Trace, bind_trace
from ssbg.units import corpus_pack
from ssbg.views.dot import to_dot

PACK = corpus_pack()


def _trace(text: str, quantities: list[tuple[str, float, str]], steps: list[dict[str, Any]], **extra: Any) -> Trace:
    mentions = []
    for words, value, unit in quantities:
        start = text.index(words)
        mentions.append({"start": start, "end": start + len(words), "text": words, "value": value, "unit": unit})
    return Trace.from_dict({"problem_id": "p", "corpus": "example", "text": text, "mentions": mentions,
                            "steps": steps, **extra})  # fmt: skip


REFRIGERATOR = (
    "The cash price of a refrigerator was $8000. Samantha wanted to buy the refrigerator but pay in installments. "
    "If she paid a deposit of $3000, how much money would she have paid?"
)


def _refrigerator(text: str = REFRIGERATOR) -> Trace:
    return _trace(
        text,
        [("$8000", 8000, "dollars per refrigerator"), ("$3000", 3000, "dollars")],
        [{"op": "subtract", "operands": [{"mention": 0}, {"mention": 1}], "result": 5000, "unit": "dollars"}],
    )


def test_a_price_of_one_thing_spent_once_is_read_for_one_with_its_cue() -> None:
    trace = _refrigerator()
    assert bind_trace(trace, pack=PACK).equations[0].refusal_reason == "unit_mismatch"  # the core: as read
    graph = bind_choosing(trace, pack=PACK)
    first = graph.equations[0]
    assert first.admissibility_status == "admitted"
    assert first.unit_proof.endswith(
        "q_dollar_per_refrigerator_000 'dollars per refrigerator' for one refrigerator (cue 'a refrigerator')"
    )
    one = "q_dollar_per_refrigerator_000_for_one_refrigerator"
    assert one in first.dependencies
    symbol = next(s for s in graph.symbols if s.symbol_id == one)  # the explicit step, drawn from its cue
    assert (symbol.unit, symbol.source_span.text) == ("dollars", "a refrigerator")
    assert symbol.name.endswith("(for one refrigerator, said by 'a refrigerator')")  # as the drawing labels it
    assert "for one refrigerator, said by" in to_dot(graph).replace('<BR ALIGN="LEFT"/>', "")
    start = REFRIGERATOR.index("a refrigerator")
    assert (symbol.source_span.start, symbol.source_span.end) == (start, start + len("a refrigerator"))
    assert any(f.symbol_id == one and f.value == "8000" for f in graph.facts)


def test_a_bucket_of_popcorn_and_a_drink_both_read_for_one() -> None:
    text = "At the movies, a bucket of popcorn costs $10 and a drink costs $3. How much does Jenna spend?"
    trace = _trace(
        text,
        [("$10", 10, "dollars per bucket"), ("$3", 3, "dollars per drink")],
        [{"op": "add", "operands": [{"mention": 0}, {"mention": 1}], "result": 13, "unit": "dollars"}],
    )
    first = bind_choosing(trace, pack=PACK).equations[0]
    assert first.admissibility_status == "admitted"
    assert "for one bucket (cue 'a bucket')" in first.unit_proof
    assert "for one drink (cue 'a drink')" in first.unit_proof


def test_a_rate_no_word_says_one_of_is_ambiguous_not_a_mismatch() -> None:
    text = "Refrigerators sold at $8000. Samantha paid a deposit of $3000. How much more did she pay?"
    first = bind_choosing(_refrigerator(text), pack=PACK).equations[0]
    assert (first.admissibility_status, first.refusal_reason) == ("refused", "ambiguous_grounding")
    assert "read for one refrigerator admits it; no word says one refrigerator" in (first.refusal_detail or "")


def test_a_rate_the_step_uses_as_a_rate_is_not_read_for_one() -> None:
    text = "A bucket of popcorn costs $10. How much do 3 buckets cost?"
    trace = _trace(
        text,
        [("$10", 10, "dollars per bucket"), ("3 buckets", 3, "buckets")],
        [{"op": "multiply", "operands": [{"mention": 0}, {"mention": 1}], "result": 30, "unit": "dollars"}],
    )
    first = bind_choosing(trace, pack=PACK).equations[0]
    assert first.admissibility_status == "admitted"
    assert "for one" not in first.unit_proof


def test_the_answer_asked_in_the_amount_reads_the_last_step_for_one() -> None:
    text = (
        "A book has 2 chapters. The first chapter is 48 pages long. The second chapter is 11 pages long. "
        "How many pages does the book have?"
    )
    trace = _trace(
        text,
        [("48 pages", 48, "pages per chapter"), ("11 pages", 11, "pages per chapter")],
        [{"op": "add", "operands": [{"mention": 0}, {"mention": 1}], "result": 59}],
        answer_unit="pages",
    )
    assert bind_trace(trace, pack=PACK).unknowns[0].target_refusal_reason == "expected_unit_mismatch"
    graph = bind_choosing(trace, pack=PACK)
    assert graph.unknowns[0].target_refusal_reason is None
    assert graph.equations[0].unit_proof.count("for one chapter (cue 'chapter')") == 2


def test_the_reading_for_one_is_weighed_by_its_measured_rate() -> None:
    """A refused step whose one admitting reading reads a cued rate for one weighs FOR_ONE_RATE (of the gold
    solutions' rate-labelled quantities, the share used for one: benchmarks/for_one_rate.py)."""
    text = "John saves $25 every month for 2 years. He spends $400. How many dollars are left?"
    trace = Trace.from_dict({
        "problem_id": "chain", "corpus": "example", "text": text,
        "mentions": [
            {"start": 11, "end": 26, "text": "$25 every month", "value": 25, "unit": "$ per month"},
            {"start": 31, "end": 38, "text": "2 years", "value": 2, "unit": "years per month"},
            {"start": 50, "end": 54, "text": "$400", "value": 400, "unit": "$"},
        ],
        "steps": [
            {"op": "multiply", "operands": [{"constant": "months_per_year"}, {"mention": 1}]},
            {"op": "multiply", "operands": [{"mention": 0}, {"step": 0}]},
            {"op": "subtract", "operands": [{"step": 1}, {"mention": 2}]},
        ],
    })  # fmt: skip
    mass = reading_mass(trace, pack=PACK)[2]
    assert mass.mass == FOR_ONE_RATE
    assert mass.best is not None
    assert "'$25 every month' for one month (cue 'every month')" in mass.best


def test_binding_for_one_is_deterministic() -> None:
    assert bind_choosing(_refrigerator(), pack=PACK) == bind_choosing(_refrigerator(), pack=PACK)


def test_the_rate_is_the_one_measured_on_the_hand_read_gold(monkeypatch: pytest.MonkeyPatch) -> None:
    """FOR_ONE_RATE is what ``benchmarks/for_one_rate.py`` measures (551 of 2,048), not a number chosen by hand."""
    from pathlib import Path

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import for_one_rate  # type: ignore[import-not-found, unused-ignore]

    rates, ones = for_one_rate.count()
    assert (ones, rates) == (551, 2048)
    assert round(ones / rates, 3) == FOR_ONE_RATE
