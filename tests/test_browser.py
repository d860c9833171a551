"""The corpus browser's plain functions: filters, problem choices, a problem's detail (no widgets here)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from ssbg.admissibility import OPERATION_KINDS
from ssbg.browser import (
    BROWSER_FILTERS,
    UNIT_COLUMNS,
    BrowserError,
    filter_equations,
    filter_options,
    index_records,
    problem_choices,
    problem_detail,
    unit_tokens,
)
from ssbg.errors import ImportRefusal, UnitAlgebraError
from ssbg.reading.records import CorpusRecord
from ssbg.units import default_pack

REPO = Path(__file__).resolve().parents[1]

LANES = REPO / "data" / "lanes"


@pytest.fixture(scope="module")
def lane_tables() -> Any:
    from ssbg.stats.batch import run_batch

    return run_batch([LANES], progress=False)


@pytest.fixture(scope="module")
def lane_records() -> dict[tuple[str, str], CorpusRecord]:
    return index_records([LANES])


def keys_of(frame: Any) -> set[tuple[str, str]]:
    return set(zip(frame["corpus"].astype(str), frame["problem_id"].astype(str), strict=True))


@pytest.mark.parametrize("column", ["corpus", "reason", "kind"])
def test_an_exact_filter_keeps_exactly_the_rows_with_that_value(lane_tables: Any, column: str) -> None:
    eq = lane_tables.equations
    for value in filter_options(eq)[column]:
        got = filter_equations(eq, **{column: value})
        assert got.index.tolist() == eq.index[eq[column].astype(object) == value].tolist()


@pytest.mark.parametrize("column", ["corpus", "reason", "kind", "unit"])
def test_a_blank_filter_is_no_filter(lane_tables: Any, column: str) -> None:
    eq = lane_tables.equations
    assert len(filter_equations(eq, **{column: "  "})) == len(eq)


def test_filters_combine_as_an_intersection(lane_tables: Any) -> None:
    eq = lane_tables.equations
    both = filter_equations(eq, reason="unknown_unit", kind="add")
    apart = set(filter_equations(eq, reason="unknown_unit").index) & set(filter_equations(eq, kind="add").index)
    assert set(both.index) == apart


@pytest.mark.parametrize("surface", ["dollars", "$", "Dollars"])
def test_every_surface_of_a_lemma_filters_the_same_rows(lane_tables: Any, surface: str) -> None:
    eq = lane_tables.equations
    assert filter_equations(eq, unit=surface).index.tolist() == filter_equations(eq, unit="dollar").index.tolist()


def test_every_row_the_unit_filter_keeps_lists_a_unit_of_that_lemma(lane_tables: Any) -> None:
    rows = filter_equations(lane_tables.equations, unit="$")
    pack = default_pack()

    def lemmas(row: Any) -> set[str]:
        out = set()
        for column in UNIT_COLUMNS:
            for token in unit_tokens(row[column]):
                try:
                    out.add(pack.resolve(token).lemma)
                except UnitAlgebraError:  # units outside the pack have no lemma
                    continue
        return out

    assert len(rows) > 0
    assert all("dollar" in lemmas(row) for _, row in rows.astype(object).iterrows())


def test_a_unit_outside_the_pack_matches_by_its_text(lane_tables: Any) -> None:
    rows = filter_equations(lane_tables.equations, unit="Widgets")
    assert {p for _, p in keys_of(rows)} == {"refusal-unknown-unit-propagates"}


def test_a_unit_nobody_wrote_matches_nothing(lane_tables: Any) -> None:
    assert filter_equations(lane_tables.equations, unit="<script>").empty


def test_a_filter_value_that_is_not_text_is_a_typed_error(lane_tables: Any) -> None:
    with pytest.raises(BrowserError) as info:
        filter_equations(lane_tables.equations, kind=3)  # type: ignore[arg-type]
    assert (info.value.reason, info.value.path) == ("invalid_filter", "kind")


def test_a_table_without_the_documented_columns_is_a_typed_error(lane_tables: Any) -> None:
    with pytest.raises(BrowserError) as info:
        filter_equations(lane_tables.equations.drop(columns=["offending_unit"]), unit="hours")
    assert (info.value.reason, info.value.detail) == ("missing_column", "offending_unit")


def test_filter_options_list_kinds_in_vocabulary_order(lane_tables: Any) -> None:
    kinds = filter_options(lane_tables.equations)["kind"]
    assert list(kinds) == [k for k in OPERATION_KINDS if k in kinds]


def test_filter_options_offer_only_values_that_find_rows(lane_tables: Any) -> None:
    eq = lane_tables.equations
    options = filter_options(eq)
    empty = [(f, v) for f in BROWSER_FILTERS for v in options[f] if filter_equations(eq, **{f: v}).empty]
    assert empty == []


def test_problem_choices_list_each_problem_once_in_table_order(lane_tables: Any) -> None:
    eq = lane_tables.equations
    keys = [key for _, key in problem_choices(eq)]
    first_seen = list(dict.fromkeys(zip(eq["corpus"].astype(str), eq["problem_id"].astype(str), strict=True)))
    assert keys == first_seen


def test_problem_choices_honour_the_limit(lane_tables: Any) -> None:
    assert len(problem_choices(lane_tables.equations, limit=3)) == 3


def test_problem_detail_shows_the_problems_equations_by_index(lane_tables: Any) -> None:
    eq = lane_tables.equations
    corpus, problem_id = problem_choices(filter_equations(eq, reason="unit_unbound"))[0][1]
    detail = problem_detail(corpus, problem_id, equations=eq)
    mine = eq[(eq["corpus"].astype(str) == corpus) & (eq["problem_id"].astype(str) == problem_id)]
    assert detail.equations["index"].tolist() == sorted(mine["index"].tolist())


def test_problem_detail_reads_the_problem_row(lane_tables: Any) -> None:
    detail = problem_detail("ssbg", "kind-multiply-refused", equations=lane_tables.equations,
                            problems=lane_tables.problems)
    assert detail.problem["outcome"] == "equation_refused"


def test_problem_detail_without_a_record_says_so(lane_tables: Any) -> None:
    detail = problem_detail("ssbg", "kind-add-refused", equations=lane_tables.equations)
    assert (detail.text_html, detail.diagram_svg, len(detail.notes)) == ("", "", 1)


def test_problem_detail_with_its_record_draws_the_diagram(lane_tables: Any, lane_records: Any) -> None:
    key = ("ssbg", "kind-add-refused")
    detail = problem_detail(*key, equations=lane_tables.equations, record=lane_records[key])
    assert (detail.diagram_svg.startswith("<svg"), detail.notes) == (True, ())


def test_problem_detail_with_its_record_highlights_the_text(lane_tables: Any, lane_records: Any) -> None:
    key = ("ssbg", "kind-add-refused")
    detail = problem_detail(*key, equations=lane_tables.equations, record=lane_records[key])
    assert "Ben" in detail.text_html


def test_problem_detail_escapes_hostile_problem_text(lane_tables: Any, lane_records: Any) -> None:
    key = ("ssbg", "kind-add-refused")
    hostile = replace(lane_records[key], text='<script>alert("x")</script> Ben has 4 apples & {more}')
    page = problem_detail(*key, equations=lane_tables.equations, record=hostile).to_html()
    assert "<script" not in page


def test_problem_detail_of_an_import_refusal_names_its_reason(lane_tables: Any) -> None:
    refusal = ImportRefusal("bad", reason="malformed_record", problem_id="x", corpus="c")
    record = CorpusRecord("c", "x", "c.jsonl:1", refusal=refusal)
    detail = problem_detail("c", "x", equations=lane_tables.equations, record=record)
    assert detail.notes[0].startswith("import refused [malformed_record]")


def test_index_records_keeps_only_the_asked_keys() -> None:
    assert set(index_records([LANES], keys=[("ssbg", "kind-add-refused")])) == {("ssbg", "kind-add-refused")}


def test_every_table_problem_has_a_record(lane_tables: Any, lane_records: Any) -> None:
    assert keys_of(lane_tables.problems) <= set(lane_records)


def test_index_records_stops_reading_once_every_key_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    from ssbg.stats import batch

    read: list[str] = []
    records = [CorpusRecord("c", p, f"c.jsonl:{i}", payload=object()) for i, p in enumerate(["a", "b", "c"], 1)]

    def fake_iter(specs: Any, **_: Any) -> Any:
        for record in records:
            read.append(record.problem_id)
            yield record

    monkeypatch.setattr(batch, "iter_records", fake_iter)
    index_records(["c.jsonl"], keys=[("c", "b")])
    assert read == ["a", "b"]


WENG = "Weng earns $12 an hour. She worked 50 minutes. How much did she earn?"


def trace_record(text: str = WENG) -> CorpusRecord:
    from ssbg.trace import Trace

    start = text.index("$12 an hour")
    minutes = text.index("50 minutes")
    trace = Trace.from_dict(
        {
            "problem_id": "w1",
            "corpus": "example",
            "text": text,
            "mentions": [
                {"start": start, "end": start + 11, "text": "$12 an hour", "value": 12, "unit": "$ per hour"},
                {"start": minutes, "end": minutes + 10, "text": "50 minutes", "value": 50, "unit": "minutes"},
            ],
            "steps": [
                {"op": "divide", "operands": [{"mention": 0}, {"constant": "minutes_per_hour"}], "result": 0.2},
                {"op": "multiply", "operands": [{"step": 0}, {"mention": 1}], "result": 10, "unit": "$"},
            ],
        }
    )
    return CorpusRecord("example", "w1", "example.jsonl:1", payload=trace, text=text)


def test_a_trace_problem_has_its_mentions_highlighted(lane_tables: Any) -> None:
    detail = problem_detail("example", "w1", equations=lane_tables.equations, record=trace_record())
    assert detail.text_html.count('class="ssbg-mention"') >= 2


def test_a_trace_problem_is_bound_and_drawn(lane_tables: Any) -> None:
    detail = problem_detail("example", "w1", equations=lane_tables.equations, record=trace_record())
    assert (detail.diagram_svg.startswith("<svg"), detail.text, detail.notes) == (True, WENG, ())


def test_hostile_trace_text_is_escaped(lane_tables: Any) -> None:
    record = trace_record("<script>x()</script> " + WENG)
    page = problem_detail("example", "w1", equations=lane_tables.equations, record=record).to_html()
    assert ("<script" in page, "&lt;script&gt;" in page) == (False, True)


def test_a_refused_record_shows_its_text_and_reason(lane_tables: Any) -> None:
    refusal = ImportRefusal("no equation", reason="no_equation", problem_id="x", corpus="c")
    record = CorpusRecord("c", "x", "c.jsonl:1", refusal=refusal, text="Ann has <3> cats.")
    detail = problem_detail("c", "x", equations=lane_tables.equations, record=record)
    assert ("Ann has &lt;3&gt; cats." in detail.text_html, "no_equation" in detail.text_html) == (True, True)
