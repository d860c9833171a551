"""Corpus readers: the hand-written samples of every format, and every reader against corrupted input."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ssbg.errors import IMPORT_REASONS, ImportRefusal
from ssbg.reading.readers import READERS, guess_format, parse_corpus_spec, read_corpus
from ssbg.reading.readers.common import MAX_RECORD_BYTES, iter_json_array
from ssbg.reading.readers.gsm8k import gsm8k_trace
from ssbg.reading.records import CorpusRecord
from ssbg.trace import Trace, bind_trace
from tests.conftest import BACKGROUND, CORPORA, run_job

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "samples"
HUGE = "x" * (MAX_RECORD_BYTES + 10)  # more than the largest record a reader accepts (a "10 MB line")

SAMPLE_FILES = {
    "gsm8k": "gsm8k_sample.jsonl",
    "svamp": "svamp_sample.json",
    "mawps": "mawps_sample.json",
    "cogcomp": "cogcomp_sample.json",
    "asdiv": "asdiv_sample.xml",
}


def records(fmt: str, path: Path) -> list[CorpusRecord]:
    return list(READERS[fmt](path))


def outcome(record: CorpusRecord) -> str:
    return "ok" if record.refusal is None else record.refusal.reason


# ----------------------------------------------------------------- registry


def test_every_format_is_registered() -> None:
    assert set(READERS) == {"ssbg", "gsm8k", "svamp", "mawps", "cogcomp", "asdiv"}


@pytest.mark.parametrize(("fmt", "name"), sorted(SAMPLE_FILES.items()))
def test_formats_are_guessed_from_file_names(fmt: str, name: str) -> None:
    assert guess_format(SAMPLES / name) == fmt


def test_unknown_format_in_a_spec_is_a_typed_refusal() -> None:
    with pytest.raises(ImportRefusal) as info:
        parse_corpus_spec(f"bogus={SAMPLES / 'svamp_sample.json'}")
    assert info.value.reason == "malformed_record"


def test_read_corpus_reads_a_folder_of_every_format() -> None:
    by_corpus = Counter(r.corpus for r in read_corpus(SAMPLES))
    assert set(by_corpus) >= set(SAMPLE_FILES)


def test_read_corpus_limit() -> None:
    assert len(list(read_corpus(SAMPLES / "gsm8k_sample.jsonl", limit=3))) == 3


# ----------------------------------------------------------------- samples


@pytest.mark.parametrize("fmt", sorted(SAMPLE_FILES))
def test_each_sample_has_at_least_twelve_problems(fmt: str) -> None:
    assert len(records(fmt, SAMPLES / SAMPLE_FILES[fmt])) >= 12


@pytest.mark.parametrize("fmt", sorted(SAMPLE_FILES))
def test_every_sample_record_is_a_bindable_trace_or_a_typed_refusal(fmt: str) -> None:
    for record in records(fmt, SAMPLES / SAMPLE_FILES[fmt]):
        assert record.corpus == fmt
        if record.refusal is not None:
            assert record.refusal.reason in IMPORT_REASONS
            assert record.refusal.problem_id == record.problem_id
            assert record.refusal.path is not None
            assert ":" in record.refusal.path
        else:
            assert isinstance(record.payload, Trace)
            assert len(bind_trace(record.payload).equations) >= len(record.payload.steps)


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        (
            "gsm8k",
            {
                "gsm8k_sample-12": "unsupported_operation",
                "gsm8k_sample-13": "unparseable_formula",
                "gsm8k_sample-14": "operand_not_found",
            },
        ),
        ("svamp", {"s-12": "no_equation", "s-13": "operand_not_found"}),
        ("mawps", {"107": "unsupported_operation", "111": "no_equation", "112": "unparseable_formula"}),
        ("cogcomp", {}),
        (
            "asdiv",
            {
                "asdiv-s-07": "unsupported_operation",
                "asdiv-s-08": "unsupported_operation",
                "asdiv-s-09": "unsupported_operation",
                "asdiv-s-10": "unsupported_operation",
                "asdiv-s-11": "unsupported_operation",
                "asdiv-s-14": "no_equation",
            },
        ),
    ],
)
def test_sample_refusals_are_exactly_the_intended_ones(fmt: str, expected: dict[str, str]) -> None:
    refused = {r.problem_id: outcome(r) for r in records(fmt, SAMPLES / SAMPLE_FILES[fmt]) if r.refusal is not None}
    assert refused == expected


def _bound(fmt: str, pid: str) -> Any:
    record = next(r for r in records(fmt, SAMPLES / SAMPLE_FILES[fmt]) if r.problem_id == pid)
    return bind_trace(record.payload)


@pytest.mark.parametrize(
    ("fmt", "pid", "kinds"),
    [
        ("gsm8k", "gsm8k_sample-1", [("divide", "admitted"), ("apply_rate", "admitted")]),
        ("gsm8k", "gsm8k_sample-8", [("apply_rate", "admitted"), ("apply_rate", "admitted")]),
        ("gsm8k", "gsm8k_sample-11", [("divide", "refused")]),
        # algebra: s + s + 4 = 20 solved as (20 - 4) / (1 + 1), then the solution's own 16/2 and 8 + 4
        ("gsm8k", "gsm8k_sample-16", [("subtract", "admitted"), ("add", "admitted")] + [("divide", "admitted")] * 2
         + [("add", "admitted")]),
        ("svamp", "s-11", [("apply_rate", "admitted")]),
        ("mawps", "102", [("divide", "admitted")]),
        ("asdiv", "asdiv-s-04", [("apply_rate", "admitted")]),
    ],
)
def test_sample_equations(fmt: str, pid: str, kinds: list[tuple[str, str]]) -> None:
    assert [(e.operation_kind, e.admissibility_status) for e in _bound(fmt, pid).equations] == kinds


def test_gsm8k_states_step_units_from_the_prose() -> None:
    record = records("gsm8k", SAMPLES / "gsm8k_sample.jsonl")[0]
    assert [s.unit for s in record.payload.steps] == ["$ per minute", "$"]


def test_gsm8k_reads_unannotated_prose_arithmetic_as_steps() -> None:
    record = next(r for r in records("gsm8k", SAMPLES / "gsm8k_sample.jsonl") if r.problem_id == "gsm8k_sample-10")
    assert [s.formula for s in record.payload.steps] == ["3 + 4=7", "2*5=10", "7+10=17"]
    assert [s.implicit for s in record.payload.steps] == [False, False, False]


def test_gsm8k_grounds_a_number_the_solution_states_in_words() -> None:
    record = next(r for r in records("gsm8k", SAMPLES / "gsm8k_sample.jsonl") if r.problem_id == "gsm8k_sample-9")
    quoted = [m for m in record.payload.mentions if m.source == "solution"]
    assert [m.text for m in quoted] == ["4 wheels", "2 wheels"]


def test_gsm8k_percent_complement_is_an_implicit_step() -> None:
    record = next(r for r in records("gsm8k", SAMPLES / "gsm8k_sample.jsonl") if r.problem_id == "gsm8k_sample-3")
    first = record.payload.steps[0]
    assert (first.op, first.implicit, first.operands[0].constant) == ("subtract", True, "percent")


def test_mawps_named_unknown_is_the_gold_answer_unit() -> None:
    gold = {r.problem_id: r.gold_answer_unit for r in records("mawps", SAMPLES / "mawps_sample.json")}
    assert (gold["102"], gold["101"], gold["106"]) == ("hours", None, "cost")


def test_mawps_unknown_in_the_middle_is_solved_by_inverting() -> None:
    record = next(r for r in records("mawps", SAMPLES / "mawps_sample.json") if r.problem_id == "104")
    step = record.payload.steps[0]
    assert (step.op, [record.payload.mentions[o.mention].value for o in step.operands]) == ("subtract", [46, 19])


def test_cogcomp_binds_through_the_gold_alignments() -> None:
    record = next(r for r in records("cogcomp", SAMPLES / "cogcomp_sample.json") if r.problem_id == "2")
    step = record.payload.steps[0]
    assert [record.payload.mentions[o.mention].text for o in step.operands] == ["31.0 bikes", "18.0 bikes"]


def test_asdiv_answer_unit_is_gold_and_result_tags_are_stated_units() -> None:
    record = next(r for r in records("asdiv", SAMPLES / "asdiv_sample.xml") if r.problem_id == "asdiv-s-04")
    assert (record.gold_answer_unit, record.payload.steps[-1].unit) == ("minutes", "min")


def test_ssbg_jsonl_reads_traces_back() -> None:
    traces = [r.payload for r in records("gsm8k", SAMPLES / "gsm8k_sample.jsonl") if r.payload is not None]
    assert traces
    assert [Trace.from_json(t.to_json()) for t in traces] == traces


def test_ssbg_jsonl_reader_reads_a_trace_file(tmp_path: Path) -> None:
    traces = [r.payload for r in records("svamp", SAMPLES / "svamp_sample.json") if r.payload is not None]
    path = tmp_path / "traces.jsonl"
    path.write_text("".join(t.to_json() + "\n" for t in traces), encoding="utf-8")
    assert [r.payload for r in read_corpus(f"ssbg={path}")] == traces


# ----------------------------------------------------------------- corrupted input

GOOD_GSM8K = {
    "question": "Ann has 3 apples and buys 4 apples. How many apples does she have?",
    "answer": "She has 3 + 4 = <<3+4=7>>7 apples.\n#### 7",
}


def _gsm8k_lines() -> list[tuple[bytes, str]]:
    good = json.dumps(GOOD_GSM8K).encode()
    return [
        (good, "ok"),
        (b'{"question": "Ann has 3 app', "malformed_record"),  # truncated JSON
        (json.dumps({"question": 5, "answer": "x"}).encode(), "malformed_record"),  # wrong type
        (json.dumps({"question": "Ann has 3 apples."}).encode(), "malformed_record"),  # missing field
        (json.dumps({"question": "   ", "answer": "<<1+1=2>>"}).encode(), "empty_text"),
        (json.dumps({"question": HUGE, "answer": "x"}).encode(), "record_too_large"),
        (b'{"question": "caf\xe9 \xff", "answer": "x"}', "encoding_error"),
        (b"[1, 2, 3]", "malformed_record"),
        (b"[" * 100_000, "malformed_record"),  # nested deeper than the decoder's stack
        # a formula (or an algebra equation) thousands of operations long: refused, not a RecursionError
        (json.dumps({"question": "Ann has 5 pens.", "answer": "<<" + "1-1+" * 1500 + "1=1>>1"}).encode(),
         "unparseable_formula"),
        (json.dumps({"question": "Ann has 5 pens.", "answer": "Let x be it. x+x" + "+1" * 3000 + "=5\n<<9/2=4.5>>"}
                    ).encode(), "unsupported_operation"),
        (good, "ok"),
    ]


def test_gsm8k_survives_corrupted_lines(tmp_path: Path) -> None:
    lines = _gsm8k_lines()
    path = tmp_path / "gsm8k_bad.jsonl"
    path.write_bytes(b"\n".join(line for line, _ in lines) + b"\n")
    got = records("gsm8k", path)
    assert [outcome(r) for r in got] == [want for _, want in lines]
    for lineno, record in enumerate(got, start=1):
        assert record.source == f"{path}:{lineno}"
        if record.refusal is not None:
            assert record.refusal.path == f"{path}:{lineno}"


def _array_corpus(fmt: str, good: dict[str, Any], text_field: str) -> tuple[bytes, list[tuple[int, str]]]:
    """A JSON array with one bad element of each kind between good ones; (bytes, [(line, outcome)])."""
    wrong_type = dict(good, **{text_field: 42})
    missing = {k: v for k, v in good.items() if k != text_field}
    empty = dict(good, **{text_field: "  "})
    huge = dict(good, **{text_field: HUGE})
    parts: list[tuple[bytes, str]] = [
        (json.dumps(good).encode(), "ok"),
        (json.dumps(wrong_type).encode(), "malformed_record"),
        (json.dumps(missing).encode(), "malformed_record"),
        (json.dumps(empty).encode(), "empty_text"),
        (json.dumps(huge).encode(), "record_too_large"),
        (json.dumps(good).encode().replace(b"has", b"h\xffs", 1), "encoding_error"),
        (b'{"broken": tru', "malformed_record"),
        (json.dumps(good).encode(), "ok"),
        (b"[" * 100_000, "malformed_record"),  # nested deeper than the decoder's stack
        (json.dumps(good).encode(), "ok"),
    ]
    body = b"[\n" + b",\n".join(p for p, _ in parts) + b"\n]\n"
    return body, [(i + 2, want) for i, (_, want) in enumerate(parts)]


GOOD_ARRAYS: dict[str, tuple[dict[str, Any], str]] = {
    "svamp": (
        {
            "ID": "x-1",
            "Body": "Ann has 3 apples and buys 4 apples.",
            "Question": "How many apples?",
            "Equation": "( 3.0 + 4.0 )",
            "Answer": 7.0,
            "Type": "Addition",
        },
        "Body",
    ),
    "mawps": (
        {
            "iIndex": 1,
            "sQuestion": "Ann has 3 apples and buys 4 apples. How many apples does she have?",
            "lEquations": ["X=(3.0+4.0)"],
            "lSolutions": [7.0],
        },
        "sQuestion",
    ),
    "cogcomp": (
        {
            "iIndex": 1,
            "sQuestion": "Ann has 3.0 apples and buys 4.0 apples . How many apples ?",
            "quants": [3.0, 4.0],
            "lAlignments": [0, 1],
            "lEquations": ["X=(3.0+4.0)"],
            "lSolutions": [7.0],
            "rates": [],
        },
        "sQuestion",
    ),
}


@pytest.mark.parametrize("fmt", sorted(GOOD_ARRAYS))
def test_json_array_readers_survive_corrupted_elements(fmt: str, tmp_path: Path) -> None:
    good, field = GOOD_ARRAYS[fmt]
    body, expected = _array_corpus(fmt, good, field)
    path = tmp_path / f"{fmt}_bad.json"
    path.write_bytes(body)
    got = records(fmt, path)
    assert [(int(r.source.rsplit(":", 1)[1]), outcome(r)) for r in got] == expected
    assert all(r.refusal.path == r.source for r in got if r.refusal is not None)


@pytest.mark.parametrize("fmt", sorted(GOOD_ARRAYS))
def test_a_truncated_array_keeps_its_good_elements(fmt: str, tmp_path: Path) -> None:
    good, _ = GOOD_ARRAYS[fmt]
    text = "[\n" + json.dumps(good) + ",\n" + json.dumps(good)
    path = tmp_path / f"{fmt}_cut.json"
    path.write_text(text[:-15], encoding="utf-8")
    assert [outcome(r) for r in records(fmt, path)] == ["ok", "malformed_record"]


@pytest.mark.parametrize("fmt", sorted(GOOD_ARRAYS))
def test_a_file_that_is_not_an_array_refuses_once(fmt: str, tmp_path: Path) -> None:
    path = tmp_path / f"{fmt}_obj.json"
    path.write_text('{"not": "an array"}', encoding="utf-8")
    got = records(fmt, path)
    assert [(outcome(r), r.source) for r in got] == [("malformed_record", f"{path}:1")]


@pytest.mark.parametrize("fmt", sorted(GOOD_ARRAYS))
def test_an_empty_array_has_no_records(fmt: str, tmp_path: Path) -> None:
    path = tmp_path / f"{fmt}_empty.json"
    path.write_text("[ ]", encoding="utf-8")
    assert records(fmt, path) == []


def test_json_array_elements_are_streamed_with_their_lines(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text('[{"a": 1},\n\n {"a": 2}]', encoding="utf-8")
    assert [(r.line, r.data) for r in iter_json_array(path)] == [(1, {"a": 1}), (3, {"a": 2})]


def _asdiv_problem(
    pid: str,
    body: str = "Ann has 3 apples and buys 4 apples.",
    question: str = "How many apples?",
    formula: str = "3+4=7",
) -> str:
    return (
        f'<Problem ID="{pid}">\n<Body>{body}</Body>\n<Question>{question}</Question>\n'
        f"<Solution-Type>Addition</Solution-Type>\n<Answer>7 (apples)</Answer>\n<Formula>{formula}</Formula>\n"
        f"</Problem>\n"
    )


def test_asdiv_survives_corrupted_problems(tmp_path: Path) -> None:
    parts = [
        (_asdiv_problem("ok-1").encode(), "ok"),
        (b'<Problem ID="bad-xml">\n<Body>Ann <b>has</Body>\n</Problem>\n', "malformed_record"),
        (
            _asdiv_problem("no-body").replace("<Body>Ann has 3 apples and buys 4 apples.</Body>", "").encode(),
            "malformed_record",
        ),
        (_asdiv_problem("empty-q", question="  ").encode(), "empty_text"),
        (_asdiv_problem("huge", body=HUGE).encode(), "record_too_large"),
        (_asdiv_problem("bytes").encode().replace(b"Ann", b"\xffnn"), "encoding_error"),
        (_asdiv_problem("ok-2").encode(), "ok"),
        (b'<Problem ID="cut">\n<Body>Ann has', "malformed_record"),
    ]
    path = tmp_path / "asdiv_bad.xml"
    head = b"<ProblemSet>\n"
    path.write_bytes(head + b"".join(p for p, _ in parts))
    got = records("asdiv", path)
    assert [outcome(r) for r in got] == [want for _, want in parts]
    lines = [1 + 1 + sum(p.count(b"\n") for p, _ in parts[:i]) for i in range(len(parts))]
    assert [int(r.source.rsplit(":", 1)[1]) for r in got] == lines


def test_asdiv_never_expands_a_dtd(tmp_path: Path) -> None:
    path = tmp_path / "asdiv_dtd.xml"
    path.write_text(
        '<!DOCTYPE x [<!ENTITY a "aaaa">]>\n<ProblemSet>\n' + _asdiv_problem("p1") + "</ProblemSet>\n", encoding="utf-8"
    )
    assert [outcome(r) for r in records("asdiv", path)] == ["malformed_record"]


@pytest.mark.parametrize(
    ("solution_type", "answer", "formula", "reason"),
    [
        ("LCM", "12 (minutes)", "LCM(4,6)=12", "unsupported_operation"),
        ("Addition", "3 r 1", "7/2=3 r 1", "unsupported_operation"),
        ("Addition", "7 (apples)", "max(3,7)=7", "unsupported_operation"),
        ("Addition", "7 (apples)", "3++4=7", "unparseable_formula"),
        ("Addition", "7 (apples)", "3+4=seven", "unparseable_formula"),
        ("Addition", "7 (apples)", "3+5=8", "operand_not_found"),
    ],
)
def test_asdiv_refuses_what_is_not_plain_arithmetic(
    solution_type: str, answer: str, formula: str, reason: str, tmp_path: Path
) -> None:
    xml = _asdiv_problem("p", formula=formula).replace("Addition", solution_type).replace("7 (apples)", answer)
    path = tmp_path / "asdiv_one.xml"
    path.write_text(xml, encoding="utf-8")
    assert [outcome(r) for r in records("asdiv", path)] == [reason]


@pytest.mark.parametrize("fmt", sorted(READERS))
def test_every_reader_reads_an_empty_file_as_no_records_or_one_refusal(fmt: str, tmp_path: Path) -> None:
    path = tmp_path / f"{fmt}_empty.txt"
    path.write_bytes(b"")
    got = list(READERS[fmt](path))
    assert len(got) <= 1
    assert all(r.refusal is not None and r.refusal.reason == "malformed_record" for r in got)


def test_ssbg_jsonl_keeps_a_traces_gold_answer_unit(tmp_path: Path) -> None:
    traces = [r.payload for r in records("mawps", SAMPLES / "mawps_sample.json") if r.payload is not None]
    path = tmp_path / "traces.jsonl"
    path.write_text("".join(t.to_json() + "\n" for t in traces), encoding="utf-8")
    got = {r.problem_id: r.gold_answer_unit for r in read_corpus(f"ssbg={path}")}
    assert (got["102"], got["101"]) == ("hours", None)


# ----------------------------------------------------------------- two-stage reading (ADR 0007)


def _fingerprint(r: CorpusRecord) -> tuple[Any, ...]:
    refusal = None if r.refusal is None else (r.refusal.reason, r.refusal.message, r.refusal.path, r.refusal.detail)
    return (r.corpus, r.problem_id, r.source, r.payload, refusal, r.text, r.gold_answer_unit)


@pytest.mark.parametrize("name", [*sorted(SAMPLE_FILES.values()), "../lanes"])
def test_scanning_then_building_reads_what_the_reader_reads(name: str) -> None:
    from ssbg.reading.readers import PendingRecord, scan_corpus

    spec = SAMPLES / name
    items = list(scan_corpus(spec))
    assert items
    assert all(isinstance(i, PendingRecord) for i in items)  # every built-in format is two-stage
    built = [i.build() if isinstance(i, PendingRecord) else i for i in items]
    assert [_fingerprint(r) for r in built] == [_fingerprint(r) for r in read_corpus(spec)]


def test_a_pending_record_pickles_as_its_raw_line_and_builds_the_same(tmp_path: Path) -> None:
    import pickle

    from ssbg.reading.readers import PendingRecord, scan_corpus

    path = tmp_path / "gsm8k_bad.jsonl"
    good = SAMPLES.joinpath("gsm8k_sample.jsonl").read_bytes().splitlines()[0]
    path.write_bytes(good + b"\n{oops\n\xff\xfe\n")
    items = list(scan_corpus(f"gsm8k={path}"))
    assert all(isinstance(i, PendingRecord) for i in items)
    blob = pickle.dumps(items[0])
    assert len(blob) < len(good) + 300  # the line's bytes, not a parsed trace
    assert _fingerprint(pickle.loads(blob).build()) == _fingerprint(items[0].build())
    assert [outcome(i.build()) for i in items if isinstance(i, PendingRecord)] == [
        "ok",
        "malformed_record",
        "encoding_error",
    ]


def test_a_plain_reader_still_reads_and_a_pending_record_of_an_unknown_format_refuses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ssbg.reading.readers import PendingRecord, register_reader, scan_corpus
    from ssbg.reading.readers.common import RawRecord

    def read_lines(path: Path) -> Any:
        for n, line in enumerate(path.read_text().splitlines(), start=1):
            refusal = ImportRefusal("a one-stage reader", reason="no_equation", path=f"{path}:{n}")
            yield CorpusRecord("lines", line, f"{path}:{n}", refusal=refusal)

    monkeypatch.setitem(READERS, "lines", read_lines)
    register_reader("lines", read_lines)
    path = tmp_path / "x.txt"
    path.write_text("a\nb\n")
    items = list(scan_corpus(f"lines={path}"))
    assert [(type(i).__name__, i.problem_id) for i in items] == [("CorpusRecord", "a"), ("CorpusRecord", "b")]
    orphan = PendingRecord("lines", RawRecord(path, 1, data=b"a"))
    refused = orphan.build()
    assert refused.refusal is not None
    assert refused.refusal.reason == "malformed_record"
    assert refused.source == f"{path}:1"


@pytest.mark.parametrize(
    ("solution", "formula"),
    [
        (
            "He gets 800 calories/rabbit * 2 rabbits = 1600 calories.\nSo 1600 - 100 = <<1600-100=1500>>1500.",
            "800*2=1600",
        ),
        ("Male ants: 55(.20)=11\nFemale: 55-11=<<55-11=44>>44", "55*(.20)=11"),
        ("In 7 weeks 5*7 = <<35=35>>35 die.\nLeft: 35+5 = <<35+5=40>>40", "5*7=35"),
    ],
)
def test_gsm8k_reads_prose_arithmetic_with_units_juxtaposition_and_bare_results(solution: str, formula: str) -> None:
    trace = gsm8k_trace(
        "He has 800 calories/rabbit and 2 rabbits, 55 ants with .20 males, 5 die for 7 weeks, 100 left.",
        solution + "\n#### 1",
        problem_id="p",
    )
    assert trace.steps[0].formula == formula


def test_gsm8k_skips_prose_arithmetic_that_is_wrong() -> None:
    trace = gsm8k_trace(
        "Jerry took 8 hours and 3 times as long.",
        "He took 2*8 = 24 hours.\nSo 8*3 = <<8*3=24>>24.\n#### 24",
        problem_id="p",
    )
    assert [s.formula for s in trace.steps] == ["8*3=24"]


@pytest.mark.parametrize(
    ("question", "solution", "formulas"),
    [
        (  # an en dash subtracts; words between numbers are units
            "He had 16 fish; 6 were eaten and 2 were returned. He has 2 tanks.",
            "16 fish \u2013 6 were eaten \u2013 2 returned = 8 fish.\nPer tank: 8/2 = <<8/2=4>>4.\n#### 4",
            ["16-6-2=8", "8/2=4"],
        ),
        (  # "/bottle" after a price is its unit, and so is "/month" after a result
            "She sells 60 bottles at $1.85 per bottle and earns $500 per week for 4 weeks a month.",
            "Sales: $1.85/bottle * 60 bottles = $111\nPay: $500/week * 4 weeks/month = $2000/month\n"
            "Total: 111+2000 = <<111+2000=2111>>2111\n#### 2111",
            ["1.85*60=111", "500*4=2000", "111+2000=2111"],
        ),
        (  # "a = b = c": the middle number starts the next equation
            "He buys 3 boxes of 4 pens, for 2 days.",
            "Pens: 3 * 4 = 12 * 2 = 24 pens.\nSo 24 + 3 = <<24+3=27>>27.\n#### 27",
            ["3 * 4=12", "12 * 2=24", "24+3=27"],
        ),
        (  # a mixed number and a vulgar fraction are numbers
            "8 people eat 1 1/2 rolls each; there are 40 rolls. Of 24 toys, \u00bc are cars.",
            "They eat 8 x 1 1/2 = 12 rolls.\nCars: \u00bc * 24 = 6\nLeft: 40-12 = <<40-12=28>>28\n#### 28",
            ["8*1.5=12", "0.25*24=6", "40-12=28"],
        ),
        (  # a written fraction after an operator is one number, and a result may be a fraction
            "A glass holds 6 ounces and is 4/5 full. There are 10 glasses.",
            "Each glass has 6 x 4/5 = 24/5 ounces.\nAll: 24/5 x 10 = <<24/5*10=48>>48 ounces.\n#### 48",
            ["6*(4/5)=24/5", "24/5*10=48"],
        ),
    ],
)
def test_gsm8k_reads_prose_arithmetic_with_dashes_rates_chains_and_fractions(
    question: str, solution: str, formulas: list[str]
) -> None:
    trace = gsm8k_trace(question, solution, problem_id="p")
    assert [s.formula for s in trace.steps if not s.implicit] == formulas


def test_gsm8k_reads_a_sum_of_percentages_as_a_percentage() -> None:
    trace = gsm8k_trace(
        "40% of the 200 balls are red and 20% are blue.",
        "Red or blue: 40% + 20% = 60%\nSo 60*200/100 = <<60*200/100=120>>120 balls.\n#### 120",
        problem_id="p",
    )
    first = trace.steps[0]
    assert (first.formula, first.result, first.unit) == ("40% + 20%=60%", 60, "%")
    assert trace.steps[1].operands[0].step == 0


def test_gsm8k_solves_the_equation_an_algebra_solution_writes() -> None:
    question = "Ann has twice as much money as Bo. Together they have $36. How much money does Ann have?"
    solution = ("Let x be the money Bo has. Then x + 2x = 36, so 3x = 36 and x = 12.\n"
                "Ann has 2 * 12 = $<<2*12=24>>24.\n#### 24")
    trace = gsm8k_trace(question, solution, problem_id="alg")
    shown = [(s.op, [o.constant or o.source for o in s.operands], s.result) for s in trace.steps]
    assert shown == [
        ("add", ["unknown_itself", "twice"], 3),  # x + 2x: the lone x counts once
        ("divide", ["mention", "step"], 12),  # 36 pens / 3
        ("multiply", ["twice", "step"], 24),
    ]
    graph = bind_trace(trace)
    assert [e.admissibility_status for e in graph.equations] == ["admitted"] * 3


def test_gsm8k_substitutes_a_product_the_prose_named() -> None:
    question = ("Tom has some marbles. Sue has 3 times as many as Tom, and Kim twice as many as Sue. "
                "Together they have 60 marbles. How many marbles does Tom have?")
    solution = ("Let t be Tom's marbles. Sue has 3t and Kim has 2 * 3t = 6t.\nt + 3t + 6t = 60\n10t = 60\n"
                "t = <<60/10=6>>6\n#### 6")
    trace = gsm8k_trace(question, solution, problem_id="sub")
    assert trace.steps[-1].formula == "60/10=6"
    assert trace.steps[-1].operands[1].step is not None  # the 10 is the sum 1 + 3 + 2*3, not a number of its own


def test_gsm8k_an_operand_algebra_does_not_explain_is_an_unsupported_operation() -> None:
    question = ("Bo has some pens. Ann has 3 times as many and Cy as many as Ann. Together they have 63 pens. "
                "How many pens does Bo have?")
    # "7x": the coefficient is written in the prose only (arithmetic, never a grounding mention)
    solution = "Let x be the number of pens Bo has. So 7x = 63.\nBo has 63 / 7 = <<63/7=9>>9 pens.\n#### 9"
    with pytest.raises(ImportRefusal) as info:
        gsm8k_trace(question, solution, problem_id="alg")
    assert info.value.reason == "unsupported_operation"
    assert info.value.detail == "7"
    # without algebra in the solution, the same missing number stays operand_not_found
    with pytest.raises(ImportRefusal) as plain:
        gsm8k_trace(question, "Bo has 63 / 7 = <<63/7=9>>9 pens.\n#### 9", problem_id="plain")
    assert plain.value.reason == "operand_not_found"


def test_gsm8k_prose_arithmetic_over_a_solved_unknown_is_read() -> None:
    question = "James has 7 more than 4 times the Oreos Jordan has. There are 52 Oreos in all. How many has James?"
    solution = "Let x be the Oreos Jordan has.\nTotal: 7+4x+x=52\n5x=45\nx = 9\nJames has 7+4(9)=43 Oreos\n#### 43"
    trace = gsm8k_trace(question, solution, problem_id="oreo")
    assert [s.result for s in trace.steps][-3:] == [9, 36, 43]  # (52 - 7) / (4 + 1), then 7 + 4*9


def test_gsm8k_converts_a_mention_by_a_constant_cued_by_both_units() -> None:
    question = "Six gallons of juice fill 12 jugs. How many pints are in one jug?"
    solution = "6 gallons = 48 pints\n48/12 = <<48/12=4>>4 pints\n#### 4"
    trace = gsm8k_trace(question, solution, problem_id="pints")
    first = trace.steps[0]
    assert (first.op, first.implicit, first.operands[1].constant) == ("multiply", True, "pints_per_gallon")
    assert trace.mentions[first.operands[0].mention].text == "Six gallons"


def test_gsm8k_a_record_of_thousands_of_formulas_refuses_as_too_large() -> None:
    # grounding looks back over earlier steps and the prose: past MAX_FORMULAS a record is corrupt,
    # not a reason to spend quadratic time on it
    from ssbg.reading.grounding import MAX_FORMULAS

    question = "Ann has 1 pen and 2 cups. How many?"
    for solution in ("<<1+2=3>>3 " * (MAX_FORMULAS + 5), "5 + 7 = 12. " * (MAX_FORMULAS + 5) + "<<1*2=2>>2"):
        with pytest.raises(ImportRefusal) as info:
            gsm8k_trace(question, solution + "\n#### 2", problem_id="big")
        assert info.value.reason == "record_too_large"
    trace = gsm8k_trace(question, "<<1+2=3>>3 " * (MAX_FORMULAS - 1) + "\n#### 3", problem_id="fits")
    assert len(trace.steps) == MAX_FORMULAS - 1


def test_mawps_a_record_of_thousands_of_equations_refuses_before_reading() -> None:
    from ssbg.reading.grounding import MAX_FORMULAS
    from ssbg.reading.readers.mawps import mawps_trace

    record = {"iIndex": 7, "sQuestion": "Ann has 1 pen. How many?", "lEquations": ["X=1+2"] * (MAX_FORMULAS + 1)}
    with pytest.raises(ImportRefusal) as info:
        mawps_trace(record)
    assert (info.value.reason, info.value.detail) == ("record_too_large", "lEquations")


def test_gsm8k_prose_equations_stay_linear_on_long_runs() -> None:
    from ssbg.reading.readers.gsm8k import prose_equations

    # one run of 2,000 "=" is no chain, and 2,000 named products are looked up, not rescanned
    assert prose_equations("Let x be. " + "a b c d = 1 " * 2000) == []
    many = prose_equations("Let x be. " + "".join(f"x+1 = {i}x. " for i in range(1, 2000)))
    assert len(many) == 1999
    assert many[1][1] == "x+1=2*x"


@pytest.mark.parametrize("solution_type", ["Sequential-Operation", "Number-Operation", "Multiplication",
                                           "Common-Division", "TVQ-Final"])
def test_asdiv_solution_types_match_whole_words_not_substrings(solution_type: str, tmp_path: Path) -> None:
    xml = _asdiv_problem("p").replace("Addition", solution_type)
    path = tmp_path / "asdiv_one.xml"
    path.write_text(xml, encoding="utf-8")
    assert [outcome(r) for r in records("asdiv", path)] == ["ok"]  # "ratio" is not a word of "Sequential-Operation"


@pytest.mark.parametrize("solution_type", ["Ratio", "GCD", "Floor-Division", "Ceil-Division", "Algebra-1",
                                           "Set-Operation", "Number-Pattern", "Comparison", "remainder"])
def test_asdiv_solution_types_outside_arithmetic_are_refused(solution_type: str, tmp_path: Path) -> None:
    xml = _asdiv_problem("p").replace("Addition", solution_type)
    path = tmp_path / "asdiv_one.xml"
    path.write_text(xml, encoding="utf-8")
    assert [outcome(r) for r in records("asdiv", path)] == ["unsupported_operation"]


def test_an_asdiv_problem_refused_at_import_keeps_its_gold_unit(tmp_path: Path) -> None:
    path = tmp_path / "asdiv_one.xml"
    path.write_text(_asdiv_problem("p").replace("Addition", "GCD"), encoding="utf-8")
    (record,) = records("asdiv", path)
    assert (record.refusal is not None, record.gold_answer_unit) == (True, "apples")


# --------------------------------------------------------------------------- GSM8K's Socratic form


def _socratic(answer: str) -> str:
    """A GSM8K solution in the Socratic form: a sub-question, with words and numbers of its own, before each step."""
    return "\n".join(
        line if line.startswith("####") or not line.strip() else f"Sub-question {i}: What is step {i} of 2? ** {line}"
        for i, line in enumerate(answer.split("\n"), start=1)
    )


_ALGEBRA_QUESTION = ("Ben bought 2 big boxes and 4 small boxes for $40 total. If a big box costs $8, how much does "
                     "a small box cost?")
_ALGEBRA_SOLUTION = ("Let s be the price of a small box\n2*8+4*s=40\n16+4*s=40\n4*s=40-16=24\n"
                     "s=<<24/4=6>>6 dollars\n#### 6")


def test_a_socratic_solution_reads_as_its_plain_form() -> None:
    question = _ALGEBRA_QUESTION
    plain = gsm8k_trace(question, _ALGEBRA_SOLUTION, problem_id="p")
    assert gsm8k_trace(question, _socratic(_ALGEBRA_SOLUTION), problem_id="p") == plain


def socratic_differences(train: Path) -> list[tuple[int, str, str]]:
    """The GSM8K train problems whose Socratic form reads otherwise than their plain one (line, both readings)."""
    differ: list[tuple[int, str, str]] = []
    for n, line in enumerate(train.read_text(encoding="utf-8").splitlines(), start=1):
        data = json.loads(line)
        results = []
        for answer in (data["answer"], _socratic(data["answer"])):
            try:
                results.append(repr(gsm8k_trace(data["question"], answer, problem_id=f"train-{n}")))
            except ImportRefusal as exc:
                results.append(exc.reason)
        if results[0] != results[1]:
            differ.append((n, results[0][:40], results[1][:40]))
    return differ


_SOCRATIC_JOB = (
    "import json, sys; from pathlib import Path; from tests.test_readers import socratic_differences; "
    "print(json.dumps(socratic_differences(Path(sys.argv[1]))))"
)


def _socratic_job() -> list[list[object]]:
    """:func:`socratic_differences` over GSM8K train in a process of its own (15,000 readings, the suite's longest
    in-process test), so that it runs on the second core beside the other tests (tests/conftest.py, Background)."""
    out = run_job(["-c", _SOCRATIC_JOB, str(CORPORA / "gsm8k" / "train.jsonl")], "reading GSM8K train's Socratic form")
    differences: list[list[object]] = json.loads(out)
    return differences


def background_jobs(item: pytest.Item) -> list[tuple[object, Callable[[], list[list[object]]]]]:
    if item.name == "test_every_gsm8k_train_problem_reads_the_same_in_its_socratic_form" and CORPORA.is_dir():
        return [("socratic", _socratic_job)]
    return []


@pytest.mark.corpora
@pytest.mark.slow
def test_every_gsm8k_train_problem_reads_the_same_in_its_socratic_form(corpora: Path) -> None:
    assert BACKGROUND.result("socratic", _socratic_job) == []


@pytest.mark.parametrize("fmt", sorted(SAMPLE_FILES))
def test_a_reader_takes_a_path_as_a_string_too(fmt: str) -> None:
    """``read_gsm8k("train.jsonl")`` read the file, not a bare AttributeError on ``str.name``."""
    path = SAMPLES / SAMPLE_FILES[fmt]
    as_text = list(READERS[fmt](str(path)))  # type: ignore[arg-type]  # the registry's type says Path; a str reads too
    assert [r.problem_id for r in as_text] == [r.problem_id for r in records(fmt, path)]
