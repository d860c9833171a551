"""Tidy tables and summaries: dtypes, counts that add up, and the honest coverage curve."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ssbg.stats.batch import run_batch
from ssbg.stats.rows import EQUATION_COLUMNS, PROBLEM_COLUMNS, BatchChunk
from ssbg.stats.tables import (
    ALL_CORPORA,
    EQUATION_DTYPES,
    ERROR_EVIDENCE_REASONS,
    PROBLEM_DTYPES,
    SUMMARY_TABLES,
    TableAccumulator,
    admission_by_kind,
    answer_unit_agreement_table,
    bad_lines,
    corpus_overview,
    equations_frame,
    import_refusals,
    pack_coverage_curve,
    problems_frame,
    refusal_reasons,
    summarize,
    unknown_unit_leaderboard,
)
from tests.test_batch import mixed_corpus, write_jsonl


def eq(pid: str, index: int, status: str = "refused", reason: str | None = "unknown_unit", *,
       root: bool = True, blocking: str | None = "apples", fixable: bool = True, corpus: str = "c",
       kind: str = "add", propagated_from: str | None = None) -> tuple[Any, ...]:
    """One equation row; only the fields the summaries read vary."""
    refused = status == "refused"
    return (corpus, pid, index, f"r{index}", kind, status, reason if refused else None, refused and root,
            propagated_from, None, "-", None, blocking if refused else None, blocking if refused else None,
            refused and fixable, "unverified", "text", 0, 4,
            0.0 if refused and reason in ERROR_EVIDENCE_REASONS else None)


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = write_jsonl(tmp_path_factory.mktemp("mixed") / "c.jsonl", mixed_corpus(120))
    return run_batch([path], progress=False)


# --------------------------------------------------------------------------- the tidy tables


@pytest.mark.parametrize(("frame_name", "column"), [
    *[("problems", c) for c in PROBLEM_COLUMNS], *[("equations", c) for c in EQUATION_COLUMNS]])
def test_columns_have_their_declared_dtypes(mixed: Any, frame_name: str, column: str) -> None:
    frame = getattr(mixed, frame_name)
    spec = (PROBLEM_DTYPES if frame_name == "problems" else EQUATION_DTYPES)[column]
    dtype = str(frame[column].dtype)
    expected = "category" if spec == "category" or isinstance(spec, tuple) else spec
    assert dtype == expected


@pytest.mark.parametrize("column", [c for c, s in EQUATION_DTYPES.items() if isinstance(s, tuple)])
def test_closed_vocabularies_keep_their_order_as_categories(mixed: Any, column: str) -> None:
    spec = EQUATION_DTYPES[column]
    assert isinstance(spec, tuple)
    assert list(mixed.equations[column].cat.categories)[: len(spec)] == list(spec)


def test_accumulator_chunking_does_not_change_the_frames(mixed: Any) -> None:
    problems = [tuple(r) for r in mixed.problems.astype(object).where(mixed.problems.notna(), None).itertuples(
        index=False, name=None)]
    equations = [tuple(r) for r in mixed.equations.astype(object).where(mixed.equations.notna(), None).itertuples(
        index=False, name=None)]
    small = TableAccumulator(chunk_rows=7)
    for i in range(0, max(len(problems), len(equations)), 5):
        small.add(BatchChunk(tuple(problems[i:i + 5]), tuple(equations[i:i + 5]), ()))
    p, e = small.result()
    assert p.equals(mixed.problems)
    assert e.equals(mixed.equations)


def test_accumulator_frames_equal_the_frames_of_all_rows(mixed: Any) -> None:
    def rows_of(frame: pd.DataFrame) -> list[tuple[Any, ...]]:
        plain = frame.astype(object).where(frame.notna(), None)
        return [tuple(r) for r in plain.itertuples(index=False, name=None)]

    assert problems_frame(rows_of(mixed.problems)).equals(mixed.problems)
    assert equations_frame(rows_of(mixed.equations)).equals(mixed.equations)


def test_empty_tables_keep_their_columns() -> None:
    assert (list(problems_frame([]).columns), list(equations_frame([]).columns)) == (
        list(PROBLEM_COLUMNS), list(EQUATION_COLUMNS))


# --------------------------------------------------------------------------- summaries that add up


def test_refusal_reasons_split_root_and_propagated(mixed: Any) -> None:
    table = refusal_reasons(mixed.equations)
    whole = table[table["corpus"] == ALL_CORPORA]
    refused = mixed.equations[mixed.equations["status"] == "refused"]
    assert (int(whole["root_cause"].sum()), int(whole["propagated"].sum())) == (
        int(refused["root_cause"].sum()), int((~refused["root_cause"]).sum()))


def test_refusal_shares_of_refusals_sum_to_100(mixed: Any) -> None:
    table = refusal_reasons(mixed.equations, total=False)
    assert table.groupby("corpus")["share_of_refusals_pct"].sum().round(0).tolist() == [100.0]


def test_overview_counts_every_record_once(mixed: Any) -> None:
    row = corpus_overview(mixed.problems, mixed.equations).iloc[-1]
    outcomes = ["import_refused", "bind_failed", "equation_refused", "target_refused", "admitted"]
    assert (row["corpus"], int(row[outcomes].sum())) == (ALL_CORPORA, len(mixed.problems))


def test_bad_lines_list_exactly_the_unreadable_records(mixed: Any) -> None:
    table = bad_lines(mixed.problems)
    expected = mixed.problems.loc[mixed.problems["import_status"] == "refused", "source"].tolist()
    assert table["source"].tolist() == expected


def test_import_refusals_count_records(mixed: Any) -> None:
    table = import_refusals(mixed.problems, total=False)
    assert int(table["records"].sum()) == int((mixed.problems["import_status"] == "refused").sum())


def test_admission_by_kind_adds_up(mixed: Any) -> None:
    table = admission_by_kind(mixed.equations, total=False)
    assert (table["admitted"] + table["refused"] == table["equations"]).all()
    assert int(table["equations"].sum()) == len(mixed.equations)


def test_answer_units_cover_every_problem(mixed: Any) -> None:
    table = answer_unit_agreement_table(mixed.problems, total=False)
    assert int(table["problems"].sum()) == len(mixed.problems)


def test_summarize_returns_every_table(mixed: Any) -> None:
    assert tuple(summarize(mixed.problems, mixed.equations).tables()) == SUMMARY_TABLES


# --------------------------------------------------------------------------- unknown units and coverage


def test_leaderboard_groups_singular_and_plural() -> None:
    frame = equations_frame([eq("p1", 0, blocking="apples"), eq("p2", 0, blocking="apple"),
                             eq("p3", 0, blocking="apples")])
    board = unknown_unit_leaderboard(frame)
    assert board[["unit_key", "unit", "surfaces", "root_refusals", "problems"]].values.tolist() == [
        ["apple", "apples", "apple;apples", 3, 3]]


@pytest.mark.parametrize("storage", ["arrow", "python"])
def test_leaderboard_counts_problems_examples_and_corpora(storage: str) -> None:
    rows = [eq("p1", 0, blocking="apples"), eq("p1", 1, "admitted"), eq("p1", 2, blocking="apples;pears"),
            eq("p2", 0, blocking="pears", corpus="d"), eq("p3", 0, blocking="apples"), eq("p4", 0, blocking="apples"),
            eq("p5", 0, blocking="apples", corpus="d")]
    frame = equations_frame(rows)
    if storage == "python":
        frame["problem_id"] = frame["problem_id"].astype(object)
    board = unknown_unit_leaderboard(frame, examples=3)
    assert board[["unit", "refusals_blocked", "problems", "corpora", "example_problems"]].values.tolist() == [
        ["apples", 5, 4, "c;d", "c:p1;d:p5;c:p3"],  # a problem of each corpus first
        ["pears", 2, 2, "c;d", "c:p1;d:p2"],
    ]
    # a caller's filtered frame (refused rows only) still tells problems apart
    refused = frame[frame["status"] == "refused"]
    assert unknown_unit_leaderboard(refused)["problems"].tolist() == [4, 2]


def test_leaderboard_examples_come_from_every_corpus_that_has_the_unit() -> None:
    rows = [eq(f"a{i}", 0, blocking="cookies", corpus="gsm8k") for i in range(5)]
    rows += [eq("b1", 0, blocking="cookie", corpus="asdiv"), eq("c1", 0, blocking="cookies", corpus="svamp")]
    board = unknown_unit_leaderboard(equations_frame(rows), examples=4)
    assert board[["unit_key", "corpora", "example_problems"]].values.tolist() == [
        ["cookie", "asdiv;gsm8k;svamp", "asdiv:b1;gsm8k:a0;svamp:c1;gsm8k:a1"]]


def test_leaderboard_ranks_by_root_causes_then_name() -> None:
    frame = equations_frame([eq("p1", 0, blocking="widgets"), eq("p2", 0, blocking="apples"),
                             eq("p3", 0, blocking="widgets"),
                             eq("p3", 1, reason="unit_unbound", root=False, blocking="widgets", propagated_from="r0")])
    board = unknown_unit_leaderboard(frame)
    assert board[["rank", "unit", "root_refusals", "refusals_blocked"]].values.tolist() == [
        [1, "widgets", 2, 3], [2, "apples", 1, 1]]


def test_coverage_needs_every_unit_of_a_refusal() -> None:
    # widgets ranks first, apples second; the refusal needing both disappears only at k=2.
    frame = equations_frame([eq("p1", 0, blocking="widgets"), eq("p2", 0, blocking="widgets"),
                             eq("p3", 0, blocking="apples;widgets")])
    curve = pack_coverage_curve(frame, total=False)
    assert curve[["k", "unit", "removed"]].values.tolist()[1:] == [[1, "widgets", 2], [2, "apples", 3]]


def test_coverage_propagated_refusals_follow_their_root() -> None:
    frame = equations_frame([eq("p1", 0, blocking="apples"),
                             eq("p1", 1, reason="unit_unbound", root=False, blocking="apples", propagated_from="r0")])
    assert pack_coverage_curve(frame, total=False)["removed"].tolist() == [0, 2]


def test_coverage_never_removes_unfixable_refusals() -> None:
    frame = equations_frame([eq("p1", 0, blocking="apples"),
                             eq("p2", 0, reason="unit_mismatch", blocking="apples", fixable=False)])
    curve = pack_coverage_curve(frame, total=False)
    assert (curve["removed"].tolist(), curve["remaining"].tolist()[-1]) == ([0, 1], 1)


def test_coverage_max_k_cuts_the_curve() -> None:
    frame = equations_frame([eq(f"p{i}", 0, blocking=f"thing{i}s") for i in range(8)])
    assert pack_coverage_curve(frame, max_k=3, total=False)["k"].tolist() == [0, 1, 2, 3]


@st.composite
def refusal_rows(draw: st.DrawFn) -> list[tuple[Any, ...]]:
    units = ["apples", "widgets", "clips", "pens"]
    out: list[tuple[Any, ...]] = []
    for i in range(draw(st.integers(0, 25))):
        status = draw(st.sampled_from(["admitted", "refused"]))
        need = draw(st.lists(st.sampled_from(units), min_size=1, max_size=3, unique=True))
        fixable = draw(st.booleans())
        out.append(eq(f"p{i}", 0, status, "unknown_unit" if fixable else "unit_mismatch",
                      blocking=";".join(sorted(need)), fixable=fixable, corpus=draw(st.sampled_from("ab"))))
    return out


@settings(max_examples=60, deadline=None)
@given(refusal_rows())
def test_coverage_curve_laws(rows_: list[tuple[Any, ...]]) -> None:
    frame = equations_frame(rows_)
    curve = pack_coverage_curve(frame, max_k=None)
    for _scope, sub in curve.groupby("corpus"):
        removed = sub["removed"].tolist()
        assert removed[0] == 0
        assert removed == sorted(removed)  # adding units never brings a refusal back
        scope_rows = frame if _scope == ALL_CORPORA else frame[frame["corpus"] == _scope]
        fixable = int((scope_rows["pack_fixable"] & (scope_rows["status"] == "refused")).sum())
        assert removed[-1] == fixable  # with every unit added, exactly the fixable refusals go


def test_summaries_of_an_empty_run_are_empty_not_errors() -> None:
    s = summarize(problems_frame([]), equations_frame([]))
    assert all(len(t) == 0 for t in s.tables().values())


def test_summary_csvs_are_deterministic(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "c.jsonl", [*mixed_corpus(50), json.dumps({"x": 1})])
    first = summarize(*_tables(path))
    second = summarize(*_tables(path))
    assert all(first.tables()[n].to_csv(index=False) == second.tables()[n].to_csv(index=False)
               for n in SUMMARY_TABLES)


def _tables(path: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    r = run_batch([path], progress=False)
    return r.problems, r.equations


def test_freed_heap_pages_go_back_to_the_system_on_glibc() -> None:
    # the 1M-problem report stays under 1 GiB because the driver trims the C heap after each flushed
    # chunk (903 MiB measured, 1,023 MiB without); on glibc Linux, where CI runs, the call must be live
    import platform

    from ssbg.stats.tables import _malloc_trim, release_freed_memory

    if platform.system() == "Linux" and platform.libc_ver()[0] == "glibc":
        assert _malloc_trim() is not None
    release_freed_memory()  # and a no-op elsewhere, never an error


def test_leaderboard_examples_name_problems_by_their_own_ids() -> None:
    from pathlib import Path

    from ssbg.stats.batch import run_batch

    samples = Path(__file__).resolve().parents[1] / "data" / "samples"
    run = run_batch([samples], progress=False, pack="en_units_v1")  # the samples' nouns are all unknown to it
    board = unknown_unit_leaderboard(run.equations, pack=run.unit_pack)
    examples = [e for cell in board["example_problems"] for e in cell.split(";")]
    assert any(e.startswith("asdiv:asdiv-s-") for e in examples)
    assert not [e for e in examples if ".xml:" in e or ".json:" in e]
    assert "cooky" not in board["unit_key"].tolist()


def test_refused_problems_split_into_a_dimension_error_found_and_could_not_tell(tmp_path: Path) -> None:
    rows = [
        ("Ann has 3 apples and buys 4 apples. How many apples does she have?", "She has 3+4=<<3+4=7>>7 apples."),
        ("Ann works 3 hours and is paid $4. How much is that?", "It is 3+4=$<<3+4=7>>7."),  # hours + dollars
        ("Ann has 3 flurbs and finds 4 flurbs. How many flurbs does she have?", "She has 3+4=<<3+4=7>>7 flurbs."),
    ]
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps({"question": q, "answer": a + "\n#### 7"}) + "\n" for q, a in rows))
    batch = run_batch([f"gsm8k={path}"], progress=False)
    row = corpus_overview(batch.problems, batch.equations).iloc[-1]
    assert (row["admitted"], row["refused_error"], row["refused_could_not_tell"]) == (1, 1, 1)
    assert (row["problems_error_pct"], row["problems_could_not_tell_pct"]) == (33.33, 33.33)
    assert "unit_mismatch" in ERROR_EVIDENCE_REASONS
    assert "unknown_unit" not in ERROR_EVIDENCE_REASONS


def test_refused_problems_are_all_in_one_of_the_two(mixed: Any) -> None:
    row = corpus_overview(mixed.problems, mixed.equations).iloc[-1]
    assert int(row["refused_error"]) + int(row["refused_could_not_tell"]) == int(row["equation_refused"]) + int(
        row["target_refused"])


# --------------------------------------------------------------------------- the two families of refusals (ADR 0024)


def test_the_reason_vocabulary_is_adr_0134s_seven_then_the_reading_outcomes() -> None:
    from ssbg.errors import ADMISSIBILITY_REASONS, GROUNDING_REASONS

    assert EQUATION_DTYPES["reason"] == (*sorted(ADMISSIBILITY_REASONS), *sorted(GROUNDING_REASONS))


def test_no_reading_outcome_is_error_evidence() -> None:
    from ssbg.errors import ADMISSIBILITY_REASONS, GROUNDING_REASONS, QUESTION_TARGET_REASONS

    assert not ERROR_EVIDENCE_REASONS & GROUNDING_REASONS
    assert ERROR_EVIDENCE_REASONS <= ADMISSIBILITY_REASONS | QUESTION_TARGET_REASONS


def test_refusal_reasons_name_the_family_and_keep_the_families_apart() -> None:
    rows = [eq("p1", 0, reason="unit_mismatch", blocking=None, fixable=False),
            *(eq(f"g{i}", 0, reason="ambiguous_grounding", blocking=None, fixable=False) for i in range(3)),
            eq("p2", 0), eq("p2", 1, reason="unit_unbound", root=False, propagated_from="r0")]
    table = refusal_reasons(equations_frame(rows), total=False)
    assert table[["reason", "family", "refused"]].values.tolist() == [
        ["unit_mismatch", "admissibility", 1], ["unit_unbound", "admissibility", 1],
        ["unknown_unit", "admissibility", 1], ["ambiguous_grounding", "grounding", 3]]  # the most, yet after
    assert list(refusal_reasons(equations_frame([])).columns)[:3] == ["corpus", "reason", "family"]


def test_the_refusal_plot_shows_a_reading_outcome_as_could_not_tell() -> None:
    from ssbg.stats.plots import plot_refusal_reasons

    rows = [eq("p1", 0, reason="unit_mismatch", blocking=None, fixable=False),
            eq("g1", 0, reason="ambiguous_grounding", blocking=None, fixable=False)]
    svg = plot_refusal_reasons(refusal_reasons(equations_frame(rows))).svg
    assert "ambiguous_grounding (could not tell)" in svg
    assert svg.index("unit_mismatch") < svg.index("ambiguous_grounding (could not tell)")  # legend: errors first
