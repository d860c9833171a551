"""Batch binding: the per-problem function, its rows, and the three engines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ssbg.errors import ImportRefusal
from ssbg.problem import MathProblemGraph
from ssbg.reading.records import CorpusRecord
from ssbg.stats.batch import (
    analyse_record,
    analyse_records,
    answer_unit_agreement,
    bind_payload,
    expand_specs,
    run_batch,
    unknown_unit_parts,
)
from ssbg.stats.rows import ANSWER_UNIT_AGREEMENTS, EQUATION_COLUMNS, PROBLEM_COLUMNS, PROBLEM_OUTCOMES, unit_key
from ssbg.trace import Trace
from ssbg.units import default_pack
from tests.strategies import problem_graphs


def problem(pid: str, unit: str = "dollars", ops: list[dict[str, Any]] | None = None,
            asked: str | None = None, text: str | None = None) -> dict[str, Any]:
    """A MathProblemGraph dict: Ann holds 5 ``unit`` and the operations act on her."""
    return {
        "problem_id": pid,
        "text": text if text is not None else f"Ann has 5 {unit}.",
        "entities": ["Ann", "Bo"],
        "initial_state": [{"entity": "Ann", "quantity": {"value": 5, "unit": unit}}],
        "operations": ops if ops is not None else [{"actor": "Ann", "kind": "add",
                                                    "operand": {"value": 2, "unit": unit}}],
        "unknown": {"entity": "Ann", "unit": asked or unit},
    }


def rate(num: str, den: str, value: float = 3) -> dict[str, Any]:
    return {"actor": "Ann", "kind": "apply_rate",
            "operand": {"value": value, "numerator_unit": num, "denominator_unit": den}}


def mixed_corpus(n: int) -> list[str]:
    """JSONL lines: admitted, unknown-unit chains, mismatches, and bad lines, deterministic.

    ``flurbs`` and ``quoggs`` are in no pack (unknown with any pack); ``pencils`` is a count noun
    of the corpus pack (unknown with ``en_units_v1`` alone)."""
    lines: list[str] = []
    units = ["dollars", "flurbs", "hours", "quoggs", "pencils", "feet"]
    for i in range(n):
        unit = units[i % len(units)]
        other = units[(i // len(units)) % len(units)]
        ops = [{"actor": "Ann", "kind": "add", "operand": {"value": i % 7 + 1, "unit": unit}}]
        if other != unit:
            ops.append(rate(other, unit))
        if i % 5 == 0:
            ops.append({"actor": "Ann", "kind": "add", "operand": {"value": 1, "unit": "hours"}})
        lines.append(json.dumps(problem(f"m{i:04d}", unit, ops, text=f"Ann has 5 {unit} <script>x</script> #{i}")))
        if i % 17 == 3:
            lines.append("{not json")
        if i % 23 == 4:
            lines.append(json.dumps({"problem_id": f"bad{i}", "entities": []}))
    return lines


def write_jsonl(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def record_of(data: dict[str, Any], corpus: str = "t") -> CorpusRecord:
    g = MathProblemGraph.from_dict(data)
    return CorpusRecord(corpus, data["problem_id"], f"{corpus}.jsonl:1", payload=g, text=data.get("text"))


def rows(analysis: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return (dict(zip(PROBLEM_COLUMNS, analysis.problem, strict=True)),
            [dict(zip(EQUATION_COLUMNS, r, strict=True)) for r in analysis.equations])


# --------------------------------------------------------------------------- outcomes


OUTCOME_CASES: dict[str, CorpusRecord] = {
    "admitted": record_of(problem("a")),
    "equation_refused": record_of(problem("e", "zorbles")),  # in no pack
    "target_refused": record_of(problem("t", "dollars", asked="hours")),
    "import_refused": CorpusRecord("t", "i", "t.jsonl:9", refusal=ImportRefusal(
        "not JSON", reason="malformed_record", path="t.jsonl:9", problem_id="i", corpus="t")),
    "bind_failed": record_of(problem("b")),
}


@pytest.mark.parametrize("outcome", PROBLEM_OUTCOMES)
def test_every_outcome_is_reachable(outcome: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if outcome == "bind_failed":  # a well-formed graph never fails to bind: make binding raise a typed error
        from ssbg.errors import BindingGraphError
        from ssbg.stats import batch

        def explode(payload: object, *, pack: object = None) -> object:
            raise BindingGraphError("cycle", reason="circular_dependency")

        monkeypatch.setattr(batch, "bind_payload", explode)
    prob, _ = rows(analyse_record(OUTCOME_CASES[outcome]))
    assert prob["outcome"] == outcome


def test_bind_failure_names_the_error_type_and_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    from ssbg.errors import BindingGraphError
    from ssbg.stats import batch

    def explode(payload: object, *, pack: object = None) -> object:
        raise BindingGraphError("cycle", reason="circular_dependency")

    monkeypatch.setattr(batch, "bind_payload", explode)
    prob, eqs = rows(analyse_record(OUTCOME_CASES["admitted"]))
    assert (prob["bind_error"], eqs) == ("BindingGraphError.circular_dependency", [])


def test_an_unknown_payload_type_is_an_import_refusal() -> None:
    prob, _ = rows(analyse_record(CorpusRecord("t", "o", "t.jsonl:3", payload=object())))
    assert (prob["outcome"], prob["import_reason"]) == ("import_refused", "malformed_record")


def test_import_refusal_row_keeps_reason_path_and_message() -> None:
    prob, eqs = rows(analyse_record(OUTCOME_CASES["import_refused"]))
    assert (prob["import_reason"], prob["import_path"], prob["import_message"], eqs) == (
        "malformed_record", "t.jsonl:9", "not JSON", [])


def test_bind_payload_refuses_an_unknown_payload_with_a_typed_error() -> None:
    with pytest.raises(ImportRefusal) as info:
        bind_payload(42)
    assert info.value.reason == "malformed_record"


def test_trace_payloads_dispatch_to_bind_trace() -> None:
    text = "Ann has 3 apples and buys 2 apples. How many apples?"
    t = Trace.from_dict({
        "problem_id": "tr1", "corpus": "demo", "text": text,
        "mentions": [{"start": 8, "end": 16, "text": "3 apples", "value": 3, "unit": "apples"},
                     {"start": 26, "end": 34, "text": "2 apples", "value": 2, "unit": "apples"}],
        "steps": [{"op": "add", "operands": [{"mention": 0}, {"mention": 1}], "result": 5}],
        "gold_answer_unit": "apples"})
    prob, eqs = rows(analyse_record(CorpusRecord("demo", "tr1", "demo:1", payload=t), pack=default_pack()))
    assert ([e["lhs"] for e in eqs], eqs[0]["unknown_units"], eqs[0]["reason"]) == (
        ["step_000"], "apples", "unknown_unit")
    # the trace states no answer unit (no question unit, no stated step unit): nothing is predicted, the
    # gold is not a prediction
    assert (prob["gold_answer_unit"], prob["predicted_answer_unit"], prob["answer_unit_agreement"]) == (
        "apples", None, "no_prediction")
    asked = Trace.from_dict({**t.to_dict(), "answer_unit": "apples"})
    prob, _ = rows(analyse_record(CorpusRecord("demo", "tr1", "demo:1", payload=asked), pack=default_pack()))
    assert (prob["predicted_answer_unit"], prob["answer_unit_agreement"]) == ("apples", "agree")
    # with the corpus pack (the default) apples are counts: the same trace is admitted
    _, eqs = rows(analyse_record(CorpusRecord("demo", "tr1", "demo:1", payload=t)))
    assert (eqs[0]["status"], eqs[0]["unit_proof"]) == ("admitted", "add: [count[apple],count[apple]] -> count[apple]")


# --------------------------------------------------------------------------- equation rows


def test_propagated_refusal_needs_its_roots_units() -> None:
    data = problem("p", "apples", [{"actor": "Ann", "kind": "add", "operand": {"value": 2, "unit": "apples"}},
                                   rate("dollars", "apples")])
    _, eqs = rows(analyse_record(record_of(data), pack=default_pack()))
    root, prop = eqs
    assert (root["root_cause"], root["blocking_units"], root["pack_fixable"]) == (True, "apples", True)
    assert (prop["root_cause"], prop["propagated_from"], prop["reason"]) == (False, root["lhs"], "unit_unbound")
    assert (prop["blocking_units"], prop["pack_fixable"]) == ("apples", True)


def test_propagated_refusal_adds_its_own_unknown_units() -> None:
    data = problem("p", "apples", [{"actor": "Ann", "kind": "add", "operand": {"value": 2, "unit": "apples"}},
                                   rate("widgets", "apples")])
    _, eqs = rows(analyse_record(record_of(data), pack=default_pack()))
    assert eqs[1]["blocking_units"] == "apples;widgets"


def test_propagated_trace_step_inherits_the_units_of_its_root() -> None:
    # Step symbols declare no unit, so the second step's own operands hold no unknown unit:
    # what blocks it is only its root's "apples".
    text = "Ann has 3 apples and buys 2 apples. She packs them in 4 boxes."
    t = Trace.from_dict({
        "problem_id": "tr2", "corpus": "demo", "text": text,
        "mentions": [{"start": 8, "end": 16, "text": "3 apples", "value": 3, "unit": "apples"},
                     {"start": 26, "end": 34, "text": "2 apples", "value": 2, "unit": "apples"},
                     {"start": 54, "end": 61, "text": "4 boxes", "value": 4, "unit": "boxes"}],
        "steps": [{"op": "add", "operands": [{"mention": 0}, {"mention": 1}], "result": 5},
                  {"op": "multiply", "operands": [{"step": 0}, {"mention": 2}], "result": 20}]})
    _, eqs = rows(analyse_record(CorpusRecord("demo", "tr2", "demo:2", payload=t), pack=default_pack()))
    assert [(e["root_cause"], e["unknown_units"], e["blocking_units"], e["pack_fixable"]) for e in eqs] == [
        (True, "apples", "apples", True), (False, None, "apples", True)]


def test_mismatch_root_is_not_pack_fixable_nor_its_dependents() -> None:
    data = problem("p", "dollars", [{"actor": "Ann", "kind": "add", "operand": {"value": 2, "unit": "hours"}},
                                    {"actor": "Ann", "kind": "add", "operand": {"value": 2, "unit": "apples"}}])
    _, eqs = rows(analyse_record(record_of(data), pack=default_pack()))
    refused = [e for e in eqs if e["status"] == "refused"]
    assert refused
    assert not any(e["pack_fixable"] for e in refused if e["reason"] != "unknown_unit")


def test_admitted_rows_carry_no_refusal_fields() -> None:
    _, eqs = rows(analyse_record(record_of(problem("a"))))
    assert [(e["reason"], e["blocking_units"], e["pack_fixable"], e["root_cause"]) for e in eqs] == [
        (None, None, False, False)]


@pytest.mark.parametrize(("unit", "parts"), [
    ("dollars", ()),
    ("apples", ("apples",)),
    ("dollars_per_apples", ("apples",)),
    ("apples per widget", ("apples", "widget")),
    ("miles per hour", ()),
    (None, ()),
])
def test_unknown_unit_parts(unit: str | None, parts: tuple[str, ...]) -> None:
    assert unknown_unit_parts(unit, default_pack()) == parts


@pytest.mark.parametrize(("part", "key"), [("apples", "apple"), ("apple", "apple"), ("boxes", "box"),
                                         ("cookies", "cookie"), ("cookie", "cookie"), ("times", "times"),
                                         ("candies", "candy"), ("red_apples", "red_apple"), ("children", "child")])
def test_unit_key_groups_plurals(part: str, key: str) -> None:
    assert unit_key(part) == key


AGREEMENT_CASES = {
    "agree": ("dollars", "dollar"),
    "same_dimension": ("cents", "dollars"),
    "disagree": ("hours", "apples"),
    "no_prediction": (None, "apples"),
    "no_gold": ("apples", None),
}


@pytest.mark.parametrize("agreement", ANSWER_UNIT_AGREEMENTS)
def test_answer_unit_agreement_vocabulary(agreement: str) -> None:
    predicted, gold = AGREEMENT_CASES[agreement]
    assert answer_unit_agreement(predicted, gold) == agreement


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problem_graphs())
def test_rows_agree_with_the_graph(g: MathProblemGraph) -> None:
    record = CorpusRecord("h", g.problem_id or "x", "h:1", payload=g)
    a = analyse_record(record)
    prob, eqs = rows(a)
    assert a.graph is not None
    assert (prob["n_equations"], len(eqs)) == (len(a.graph.equations), len(a.graph.equations))
    assert prob["n_refused"] == prob["n_root_cause"] + prob["n_propagated"]
    assert prob["n_refused"] == sum(e["status"] == "refused" for e in eqs)
    for e in eqs:
        own = set((e["unknown_units"] or "").split(";")) - {""}
        blocking = set((e["blocking_units"] or "").split(";")) - {""}
        assert e["status"] != "refused" or own <= blocking
        assert not e["pack_fixable"] or (e["status"] == "refused" and blocking)


# --------------------------------------------------------------------------- batches and engines


def test_analyse_records_keeps_the_first_drilldowns_per_key() -> None:
    records = [record_of(problem(f"e{i}", "zorbles")) for i in range(6)]
    chunk = analyse_records(records, samples_per_reason=2)
    equation_drills = [d.problem_id for d in chunk.drilldowns if d.kind == "equation"]
    assert equation_drills == ["e0", "e1"]


def test_analyse_records_sends_nothing_for_a_full_key() -> None:
    records = [record_of(problem(f"e{i}", "zorbles")) for i in range(3)]
    full = {d.key for d in analyse_records(records).drilldowns if d.kind == "equation"}
    assert full
    chunk = analyse_records(records, samples_per_reason=2, full_keys=full)
    assert not [d for d in chunk.drilldowns if d.key in full]
    assert len(chunk.problems) == 3  # the rows are all there


def test_expand_specs_reads_a_folder_file_by_file(tmp_path: Path) -> None:
    write_jsonl(tmp_path / "b.jsonl", [json.dumps(problem("b"))])
    write_jsonl(tmp_path / "a.jsonl", [json.dumps(problem("a"))])
    (tmp_path / "README.md").write_text("not a corpus")
    (tmp_path / "notes.json").write_text("{}")
    assert expand_specs([tmp_path]) == [f"ssbg={tmp_path / 'a.jsonl'}", f"ssbg={tmp_path / 'b.jsonl'}"]


def test_expand_specs_refuses_a_missing_path(tmp_path: Path) -> None:
    with pytest.raises(ImportRefusal) as info:
        expand_specs([tmp_path / "absent.jsonl"])
    assert (info.value.reason, info.value.detail) == ("unreadable_file", "no such file")


@pytest.mark.parametrize(("kwargs", "name"), [({"jobs": 0}, "jobs"), ({"engine": "spark"}, "engine"),
                                              ({"batch_size": 0}, "batch_size")])
def test_run_batch_rejects_bad_settings(tmp_path: Path, kwargs: dict[str, Any], name: str) -> None:
    path = write_jsonl(tmp_path / "c.jsonl", [json.dumps(problem("a"))])
    with pytest.raises(ValueError, match=name):
        run_batch([path], progress=False, **kwargs)


def test_bad_lines_are_counted_and_good_problems_all_present(tmp_path: Path) -> None:
    lines = mixed_corpus(40)
    path = write_jsonl(tmp_path / "c.jsonl", lines)
    r = run_batch([path], progress=False)
    good = {json.loads(x)["problem_id"] for x in lines if x.startswith("{\"problem_id\": \"m")}
    imported = set(r.problems.loc[r.problems["import_status"] == "imported", "problem_id"])
    refused = r.problems[r.problems["import_status"] == "refused"]
    assert (imported, len(refused), len(r.problems)) == (good, len(lines) - len(good), len(lines))


def test_limit_applies_per_spec(tmp_path: Path) -> None:
    a = write_jsonl(tmp_path / "a.jsonl", [json.dumps(problem(f"a{i}")) for i in range(5)])
    b = write_jsonl(tmp_path / "b.jsonl", [json.dumps(problem(f"b{i}")) for i in range(5)])
    r = run_batch([a, b], progress=False, limit=2)
    assert r.problems["problem_id"].tolist() == ["a0", "a1", "b0", "b1"]


@pytest.mark.slow
@pytest.mark.parametrize(("jobs", "engine"), [(2, "local"), (1, "dask"), (2, "dask")])
def test_engines_give_the_same_tables(tmp_path: Path, jobs: int, engine: str) -> None:
    path = write_jsonl(tmp_path / "c.jsonl", mixed_corpus(300))
    reference = run_batch([path], progress=False, batch_size=16)
    other = run_batch([path], progress=False, batch_size=16, jobs=jobs, engine=engine)
    assert reference.problems.equals(other.problems)
    assert reference.equations.equals(other.equations)
    assert [(*d.key, d.problem_id) for d in reference.drilldowns] == [
        (*d.key, d.problem_id) for d in other.drilldowns]


def test_batch_size_does_not_change_the_tables(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "c.jsonl", mixed_corpus(60))
    small = run_batch([path], progress=False, batch_size=7)
    large = run_batch([path], progress=False, batch_size=1000)
    assert small.problems.equals(large.problems)
    assert small.equations.equals(large.equations)
    # later batches skip keys the run already holds enough of: the kept drill-downs are the same
    assert [(*d.key, d.problem_id) for d in small.drilldowns] == [(*d.key, d.problem_id) for d in large.drilldowns]


def test_an_unloadable_pack_fails_before_any_work(tmp_path: Path) -> None:
    from ssbg.errors import PackError

    path = write_jsonl(tmp_path / "c.jsonl", [json.dumps(problem("a"))])
    with pytest.raises(PackError) as info:
        run_batch([path], progress=False, pack=tmp_path / "no_pack")
    assert info.value.reason == "pack_missing"


@pytest.mark.parametrize("size", [0, 1, 5])
def test_progress_bar_path_gives_the_same_rows(tmp_path: Path, size: int) -> None:
    path = write_jsonl(tmp_path / "c.jsonl", [json.dumps(problem(f"p{i}")) for i in range(size)] or [""])
    quiet = run_batch([path], progress=False)
    loud = run_batch([path], progress=True)
    assert quiet.problems.equals(loud.problems)


def test_the_pack_is_a_value_two_packs_two_answers(tmp_path: Path) -> None:
    import shutil

    from ssbg.units import _pack_dir

    pack_dir = tmp_path / "pack"
    shutil.copytree(_pack_dir("en_units_v1"), pack_dir)
    path = write_jsonl(tmp_path / "c.jsonl", [json.dumps(problem("a", "dollars"))])
    r = run_batch([path], progress=False, pack=pack_dir)
    assert r.pack.startswith("en_units_v1@")
    assert r.problems["outcome"].tolist() == ["admitted"]


@given(st.lists(st.sampled_from(["apples", "dollars", "hours", "pencils"]), min_size=1, max_size=4))
@settings(max_examples=25, deadline=None)
def test_analysis_is_deterministic(units: list[str]) -> None:
    ops = [{"actor": "Ann", "kind": "add", "operand": {"value": 1, "unit": u}} for u in units]
    record = record_of(problem("d", units[0], ops))
    assert analyse_record(record).problem == analyse_record(record).problem
    assert analyse_record(record).equations == analyse_record(record).equations


# --------------------------------------------------------------------------- a prediction never reads the gold

_REPO = Path(__file__).resolve().parents[1]


def _without_gold(record: CorpusRecord) -> CorpusRecord:
    """The same record with its gold answer unit removed (from the record and from its trace)."""
    from dataclasses import replace

    payload = record.payload
    if isinstance(payload, Trace):
        payload = replace(payload, gold_answer_unit=None)
    return replace(record, payload=payload, gold_answer_unit=None)


def _predictions(records: list[CorpusRecord]) -> list[tuple[str, object, object]]:
    column = PROBLEM_COLUMNS.index("predicted_answer_unit")
    return [(r.problem_id, analyse_record(r).problem[column], r.gold_answer_unit) for r in records]


def _assert_gold_blind(records: list[CorpusRecord]) -> None:
    with_gold = _predictions(records)
    without = _predictions([_without_gold(r) for r in records])
    assert any(gold for _, _, gold in with_gold)  # the records do carry gold units
    assert [(pid, predicted) for pid, predicted, _ in with_gold] == [(pid, predicted) for pid, predicted, _ in without]


@pytest.mark.parametrize("sample", ["asdiv_sample.xml", "mawps_sample.json"])
def test_the_predicted_answer_unit_is_unchanged_when_the_gold_is_removed(sample: str) -> None:
    from ssbg.reading.readers import read_corpus

    _assert_gold_blind(list(read_corpus(_REPO / "data" / "samples" / sample)))


def test_a_prediction_is_not_the_gold_where_the_question_asks_another_unit() -> None:
    from ssbg.reading.readers.asdiv import asdiv_trace

    trace = asdiv_trace("a-1", "Ann has 7 red apples and 2 green apples.", "How many apples does she have?",
                        "Addition", "9 (fruits)", "7+2=9")
    record = CorpusRecord("asdiv", "a-1", "a.xml:1", payload=trace, gold_answer_unit="fruits")
    row = dict(zip(PROBLEM_COLUMNS, analyse_record(record, pack=default_pack()).problem, strict=True))
    assert (row["predicted_answer_unit"], row["gold_answer_unit"], row["answer_unit_agreement"]) == \
        ("apples", "fruits", "disagree")
    # with the count nouns both are counts: the same dimension, not the same unit
    row = dict(zip(PROBLEM_COLUMNS, analyse_record(record).problem, strict=True))
    assert row["answer_unit_agreement"] == "same_dimension"


def test_no_gold_means_no_gold_not_refused_at_import() -> None:
    refusal = ImportRefusal("not arithmetic", reason="unsupported_operation")
    row = dict(zip(PROBLEM_COLUMNS, analyse_record(CorpusRecord("asdiv", "a-2", "a.xml:9", refusal=refusal,
                                                                gold_answer_unit="apples")).problem, strict=True))
    assert (row["outcome"], row["gold_answer_unit"], row["answer_unit_agreement"]) == \
        ("import_refused", "apples", "no_prediction")


@pytest.mark.corpora
def test_no_mawps_prediction_reads_the_gold(corpora: Path) -> None:
    from ssbg.reading.readers import read_corpus

    _assert_gold_blind(list(read_corpus(f"mawps={corpora / 'mawps' / 'mwptoolkit' / 'mawps_source.json'}")))
