"""The playground's plain functions: evaluate, operand rows, completion, HTML (no widgets here)."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ssbg.admissibility import OPERATION_KINDS, REFUSED_UNIT_PROOF, check_operation
from ssbg.errors import ADMISSIBILITY_REASONS, PACK_REASONS, AdmissibilityError, ImportRefusal, UnitAlgebraError
from ssbg.interactive import (
    BROWSER_FILTERS,
    KIND_EXAMPLES,
    OPERAND_STATUSES,
    PLAYGROUND_STATUSES,
    UNIT_COLUMNS,
    BrowserError,
    complete_unit,
    evaluate,
    filter_equations,
    filter_options,
    index_records,
    load_playground_pack,
    operand_roles,
    problem_choices,
    problem_detail,
    resolve_operand,
    suggest_units,
    unit_tokens,
)
from ssbg.reading.records import CorpusRecord
from ssbg.units import default_pack, resolve_unit

REPO = Path(__file__).resolve().parents[1]

# One playground input per admissibility reason it can produce: (kind, units, lhs_unit, offending unit).
# unknown_symbol is absent on purpose: check_operation binds every symbol it names, so typed units
# cannot produce it (test_evaluate_never_raises_and_agrees_with_check_operation draws inputs to show it).
REFUSAL_CASES: dict[str, tuple[str, list[str | None], str | None, str | None]] = {
    "unit_mismatch": ("add", ["dollars", "hours"], None, "hours"),
    "unknown_unit": ("add", ["apples", "apples"], None, "apples"),
    "unit_unbound": ("add", ["hours", None], None, None),
    "unknown_operation": ("teleport", ["hours", "hours"], None, None),
    "operand_arity": ("divide", ["miles", "hours", "hours"], None, None),
    "rate_form_invalid": ("apply_rate", ["dollars", "hours"], None, "dollars"),
}
UNREACHABLE_FROM_TEXT = frozenset({"unknown_symbol"})

HOSTILE_TEXTS = (
    "<script>alert(1)</script>",
    'say "hi" & <b>bye</b>',
    "{braces}",
    "back\\slash",
    "new\nline",
    "été",
    "x" * 500,
    "dollars_per_",
    "per",
    "\u200b",
)


def test_examples_cover_every_operation_kind() -> None:
    assert set(KIND_EXAMPLES) == set(OPERATION_KINDS)


@pytest.mark.parametrize("kind", OPERATION_KINDS)
def test_each_kind_example_is_admitted_with_the_proof_of_check_operation(kind: str) -> None:
    units = KIND_EXAMPLES[kind]
    result = evaluate(kind, units)
    assert (result.status, result.proof) == ("admitted", check_operation(kind, list(units)).to_canonical_string())


@pytest.mark.parametrize("kind", OPERATION_KINDS)
def test_operand_roles_label_every_operand(kind: str) -> None:
    assert len(operand_roles(kind, 3)) == 3


def test_operand_roles_follow_the_check_operation_order() -> None:
    assert operand_roles("divide", 2) == ("dividend", "divisor")


def test_refusal_cases_cover_every_reason_reachable_from_text() -> None:
    assert set(REFUSAL_CASES) == ADMISSIBILITY_REASONS - UNREACHABLE_FROM_TEXT


@pytest.mark.parametrize("reason", sorted(REFUSAL_CASES))
def test_each_refusal_reason_comes_back_as_a_result(reason: str) -> None:
    kind, units, lhs, _ = REFUSAL_CASES[reason]
    result = evaluate(kind, units, lhs_unit=lhs)
    assert (result.status, result.refused_by, result.reason, result.proof) == (
        "refused",
        "admissibility",
        reason,
        REFUSED_UNIT_PROOF,
    )


@pytest.mark.parametrize("reason", sorted(REFUSAL_CASES))
def test_each_refusal_keeps_the_fields_of_the_typed_error(reason: str) -> None:
    kind, units, lhs, offending = REFUSAL_CASES[reason]
    with pytest.raises(AdmissibilityError) as info:
        check_operation(kind, units, lhs_unit=lhs)
    result = evaluate(kind, units, lhs_unit=lhs)
    assert (result.detail, result.offending_unit, result.message) == (
        info.value.detail,
        offending,
        info.value.message,
    )


@pytest.mark.parametrize("reason", sorted(REFUSAL_CASES))
def test_each_refusal_reason_is_shown_in_the_html(reason: str) -> None:
    kind, units, lhs, _ = REFUSAL_CASES[reason]
    assert f'data-reason="{reason}"' in evaluate(kind, units, lhs_unit=lhs).to_html()


def test_a_declared_lhs_of_another_dimension_is_refused_naming_it() -> None:
    result = evaluate("divide", ["miles", "hours"], lhs_unit="dollars")
    assert (result.reason, result.offending_unit) == ("unit_mismatch", "dollars")


def test_a_declared_lhs_of_the_derived_dimension_is_admitted_with_its_row() -> None:
    result = evaluate("divide", ["miles", "hours"], lhs_unit="mph")
    assert (result.status, result.lhs is not None and result.lhs.lemma) == ("admitted", "mile_per_hour")


def test_commensurable_units_of_another_scale_get_a_conversion_note() -> None:
    assert evaluate("add", ["hours", "minutes"]).notes == ("conversion needed: minute->hour x1/60",)


def test_a_declared_lhs_of_another_scale_gets_a_conversion_note() -> None:
    assert evaluate("add", ["hours", "hours"], lhs_unit="minutes").notes == ("conversion needed: hour->minute x60",)


def test_equal_units_need_no_conversion_note() -> None:
    assert evaluate("add", ["hours", "hours"]).notes == ()


def test_a_unit_without_fixed_scale_says_so_in_its_note() -> None:
    (note,) = evaluate("add", ["boxes", "dozen"]).notes
    assert note.startswith("conversion needed: dozen->box (the pack fixes no scale")


def test_a_blank_factor_is_a_pure_number_and_says_so() -> None:
    result = evaluate("fraction_portion", ["boxes", "  "])
    assert (result.status, result.units, result.operands[1].status) == ("admitted", ("boxes", None), "no_unit")


def test_an_unknown_unit_gets_close_pack_entries_as_a_hint() -> None:
    (note,) = evaluate("add", ["dolars", "dollars"]).notes
    assert "dollar" in note.split("close entries: ")[1].split(", ")


def test_operand_rows_show_vector_exponents_and_ratio() -> None:
    row = evaluate("apply_rate", ["dollars_per_hour", "hours"]).operands[0]
    assert (row.role, row.lemma, row.vector, row.exponents, row.ratio) == (
        "rate",
        "dollar_per_hour",
        "money/time",
        (("time", -1), ("money", 1)),
        "5/3",
    )


def test_operand_rows_are_shown_for_a_refusal_too() -> None:
    rows = evaluate("add", ["dollars", "apples"]).operands
    assert [(r.status, r.reason) for r in rows] == [("resolved", None), ("unresolved", "unknown_unit")]


@pytest.mark.parametrize(
    ("text", "status"), [("hours", "resolved"), ("apples", "unresolved"), (None, "no_unit"), (7, "unresolved")]
)
def test_resolve_operand_never_raises(text: object, status: str) -> None:
    row = resolve_operand(1, "operand", text)
    assert (row.status, row.status in OPERAND_STATUSES) == (status, True)


def test_resolve_operand_agrees_with_resolve_unit() -> None:
    unit = resolve_unit("square feet")
    row = resolve_operand(1, "operand", "square feet")
    assert (row.lemma, row.via, row.vector) == (unit.lemma, unit.via, unit.dimension.to_canonical_string())


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_hostile_text_is_refused_not_raised(text: str) -> None:
    result = evaluate("add", ["hours", text])
    assert (result.status, result.refused_by) == ("refused", "admissibility")


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_hostile_text_is_escaped_in_the_html(text: str) -> None:
    page = evaluate("add", ["hours", text], lhs_unit=text).to_html()
    assert "<script" not in page
    assert "<b>" not in page


@pytest.mark.parametrize(
    ("kind", "units", "lhs", "reason"),
    [
        (None, ["hours"], None, "unknown_operation"),
        (["add"], ["hours"], None, "unknown_operation"),
        ("add", "hours", None, "operand_arity"),
        ("add", None, None, "operand_arity"),
        ("add", [3, "hours"], None, "unknown_unit"),
        ("add", ["hours", "hours"], 42, "unknown_unit"),
        ("add", [], None, "operand_arity"),
    ],
)
def test_values_that_are_not_text_are_refused_with_a_reason(kind: Any, units: Any, lhs: Any, reason: str) -> None:
    assert evaluate(kind, units, lhs_unit=lhs).reason == reason


def test_a_missing_pack_is_a_pack_refusal() -> None:
    result = evaluate("add", ["hours", "hours"], pack="no/such/pack")
    assert (result.status, result.refused_by, result.reason) == ("refused", "pack", "pack_missing")


def test_a_corrupt_pack_is_a_pack_refusal(tmp_path: Path) -> None:
    folder = tmp_path / "broken_pack"
    shutil.copytree(REPO / "packs" / "en_units_v1", folder)
    with (folder / "lexicon.jsonl").open("a", encoding="utf-8") as lexicon:
        lexicon.write('{"lemma": "oops"}\n')
    result = evaluate("add", ["hours", "hours"], pack=str(folder))
    assert (result.refused_by, result.reason in PACK_REASONS, result.reason) == ("pack", True, "checksum_mismatch")


def test_a_pack_folder_loads_and_is_named_in_the_result(tmp_path: Path) -> None:
    folder = tmp_path / "copy"
    shutil.copytree(REPO / "packs" / "en_units_v1", folder)
    result = evaluate("add", ["hours", "minutes"], pack=folder)
    assert (result.status, result.pack) == ("admitted", "en_units_v1")


def test_a_blank_pack_text_is_the_default_pack() -> None:
    assert load_playground_pack(" ") is default_pack()


def test_complete_unit_lists_pack_entries_by_prefix() -> None:
    assert complete_unit("hou") == ("hour", "hours")


def test_every_completion_of_the_pack_resolves() -> None:
    pack = default_pack()
    for text in complete_unit(""):
        pack.resolve(text)


def test_complete_unit_completes_the_denominator_of_a_composite() -> None:
    money = resolve_unit("dollars").dimension
    numerators = {resolve_unit(h).numerator for h in complete_unit("dollars per mi")}
    assert numerators == {money}


def test_complete_unit_honours_the_limit() -> None:
    assert len(complete_unit("", limit=5)) == 5


def test_suggest_units_is_empty_for_empty_text() -> None:
    assert suggest_units("") == ()


def test_summary_of_an_admitted_result_is_its_proof() -> None:
    assert evaluate("divide", ["miles", "hours"]).summary() == "admitted: divide: [length,time] -> length/time"


def test_to_text_lists_each_operand() -> None:
    text = evaluate("apply_rate", ["dollars_per_hour", "hours"]).to_text()
    assert len(text.splitlines()) == 3


pack_texts = st.sampled_from(complete_unit(""))
typed_units = st.one_of(st.none(), pack_texts, st.text(max_size=30), st.sampled_from(HOSTILE_TEXTS))


@settings(max_examples=300, deadline=None)
@given(
    kind=st.one_of(st.sampled_from(OPERATION_KINDS), st.text(max_size=12)),
    units=st.lists(typed_units, max_size=5),
    lhs=st.one_of(st.none(), pack_texts, st.text(max_size=10)),
)
def test_evaluate_never_raises_and_agrees_with_check_operation(
    kind: str, units: list[str | None], lhs: str | None
) -> None:
    result = evaluate(kind, units, lhs_unit=lhs)
    cleaned = [u.strip() or None if isinstance(u, str) else u for u in units]
    cleaned_lhs = (lhs.strip() or None) if lhs is not None else None
    try:
        expected = ("admitted", check_operation(kind, cleaned, lhs_unit=cleaned_lhs).to_canonical_string(), None)
    except AdmissibilityError as exc:
        expected = ("refused", REFUSED_UNIT_PROOF, exc.reason)
    assert (result.status, result.proof, result.reason) == expected


@settings(max_examples=200, deadline=None)
@given(kind=st.sampled_from(OPERATION_KINDS), units=st.lists(typed_units, max_size=5))
def test_typed_units_never_produce_an_unreachable_reason(kind: str, units: list[str | None]) -> None:
    result = evaluate(kind, units)
    assert (result.status in PLAYGROUND_STATUSES, result.reason in UNREACHABLE_FROM_TEXT) == (True, False)


# ============================================================================= the corpus browser's functions

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
    detail = problem_detail("ssbg", "kind-add-refused", equations=lane_tables.equations, problems=lane_tables.problems)
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

    def fake_iter(specs: Any) -> Any:
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
