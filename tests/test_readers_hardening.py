"""Hardening of every corpus reader (issue 17): numbers, text, sizes, encodings, file kinds, faults.

Each reader is attacked at its seam: a record with a number out of range, a lone surrogate, a
file in UTF-16 or behind a BOM, a FIFO, a device, a line too large to read whole, a damaged
element, and a failure injected into its reading stage; the good records around the bad ones
still read, and every bad one is a typed refusal naming ``file:line``.  Property tests write
files of good records mixed with hostile bytes and check the same.
"""

from __future__ import annotations

import json
import os
import threading
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ssbg.errors import IMPORT_REASONS, ImportRefusal
from ssbg.reading.readers import READERS, common, read_corpus, scan_corpus
from ssbg.reading.readers import asdiv as asdiv_reader
from ssbg.reading.readers import ssbg_jsonl as ssbg_reader
from ssbg.reading.records import CorpusRecord
from ssbg.stats.batch import run_batch
from tests.strategies import seam_settings
from tests.test_readers import GOOD_ARRAYS, _asdiv_problem
from tests.work import Calls

GSM8K_GOOD = {
    "question": "Ann has 3 apples. She buys 4 more apples. How many apples does she have?",
    "answer": "3 + 4 = <<3+4=7>>7\n#### 7",
}
SSBG_GOOD = {
    "problem_id": "p1",
    "entities": ["Ann"],
    "initial_state": [{"entity": "Ann", "quantity": {"value": 3, "unit": "hours"}}],
    "operations": [{"actor": "Ann", "kind": "add", "operand": {"value": 2, "unit": "hours"}}],
    "unknown": {"entity": "Ann", "unit": "hours"},
}
TEXT_FIELD = {"gsm8k": "question", "svamp": "Body", "mawps": "sQuestion", "cogcomp": "sQuestion"}
FORMATS = ("gsm8k", "svamp", "mawps", "cogcomp", "asdiv", "ssbg")
SUFFIX = {"gsm8k": "jsonl", "ssbg": "jsonl", "asdiv": "xml", "svamp": "json", "mawps": "json", "cogcomp": "json"}


def good_record(fmt: str, n: int) -> dict[str, Any]:
    """The ``n``-th good record of a JSON format (distinct ids)."""
    if fmt == "gsm8k":
        return dict(GSM8K_GOOD)
    if fmt == "ssbg":
        return dict(SSBG_GOOD, problem_id=f"p{n}")
    record = dict(GOOD_ARRAYS[fmt][0])
    record["ID" if fmt == "svamp" else "iIndex"] = f"x-{n}" if fmt == "svamp" else n
    return record


def corpus_file(tmp_path: Path, fmt: str, records: list[dict[str, Any] | str | bytes]) -> Path:
    """A file of ``fmt`` holding ``records`` one per line (a dict as JSON, ASDiv problems as XML text)."""
    path = tmp_path / f"{fmt}_case.{SUFFIX[fmt]}"
    parts = [r if isinstance(r, bytes) else (r if isinstance(r, str) else json.dumps(r)).encode() for r in records]
    if fmt in ("gsm8k", "ssbg"):
        path.write_bytes(b"".join(p + b"\n" for p in parts))
    elif fmt == "asdiv":
        path.write_bytes(b"<ProblemSet>\n" + b"".join(parts) + b"</ProblemSet>\n")
    else:
        path.write_bytes(b"[\n" + b",\n".join(parts) + b"\n]\n")
    return path


def read(fmt: str, path: Path) -> list[CorpusRecord]:
    return list(read_corpus(f"{fmt}={path}"))


def outcome(record: CorpusRecord) -> str:
    return "ok" if record.refusal is None else record.refusal.reason


def line_of(record: CorpusRecord) -> int:
    return int(record.source.rsplit(":", 1)[1])


# ------------------------------------------------------------ numbers (a field out of range names itself)

NUMBER_CASES: list[tuple[str, Callable[[dict[str, Any]], object], str]] = [
    ("gsm8k", lambda r: r.update(question=r["question"].replace("3 apples", "1" + "0" * 400 + " apples")), "question"),
    ("gsm8k", lambda r: r.update(answer=r["answer"].replace("#### 7", "#### 1e400")), "answer"),
    ("gsm8k", lambda r: r.update(answer=r["answer"].replace("#### 7", "#### NaN")), "answer"),
    ("gsm8k", lambda r: r.update(answer="9" * 70 + " + 4 = <<" + "9" * 70 + "+4=7>>7\n#### 7"), "answer"),
    ("svamp", lambda r: r.update(Answer=float("nan")), "Answer"),
    ("svamp", lambda r: r.update(Answer=10**400), "Answer"),
    ("svamp", lambda r: r.update(Answer="1e400"), "Answer"),
    ("svamp", lambda r: r.update(Equation="( 3.0 + " + "9" * 400 + " )"), "Equation"),
    ("svamp", lambda r: r.update(Body=r["Body"].replace("3 apples", "9" * 400 + " apples")), "Body"),
    ("mawps", lambda r: r.update(lSolutions=[float("inf")]), "lSolutions"),
    ("mawps", lambda r: r.update(lSolutions=["1" * 300]), "lSolutions"),
    ("mawps", lambda r: r.update(lEquations=["X=(3.0+" + "4" * 100 + ")"]), "lEquations"),
    ("cogcomp", lambda r: r.update(quants=[3.0, 1e300]), "quants"),
    ("cogcomp", lambda r: r.update(lSolutions=[10**400]), "lSolutions"),
    ("cogcomp", lambda r: r.update(sQuestion=r["sQuestion"].replace("3.0", "3" * 200)), "sQuestion"),
]


@pytest.mark.parametrize(("fmt", "change", "field"), NUMBER_CASES)
def test_a_number_out_of_range_refuses_its_record_naming_file_line_and_field(
    tmp_path: Path, fmt: str, change: Callable[[dict[str, Any]], object], field: str
) -> None:
    bad = good_record(fmt, 1)
    change(bad)
    path = corpus_file(tmp_path, fmt, [good_record(fmt, 0), bad, good_record(fmt, 2)])
    got = read(fmt, path)
    assert [outcome(r) for r in got] == ["ok", "number_out_of_range", "ok"]
    refusal = got[1].refusal
    assert refusal is not None
    assert (refusal.path, refusal.detail) == (got[1].source, field)
    assert refusal.path == f"{path}:{3 if fmt in ('svamp', 'mawps', 'cogcomp') else 2}"


@pytest.mark.parametrize(
    ("formula", "answer", "reason"),
    [
        ("40-20=20..", "20 (apples)", "unparseable_formula"),  # the measured typo: a bare ValueError killed the run
        ("40-20=" + "2" * 100, "20 (apples)", "number_out_of_range"),
        ("40-" + "2" * 100 + "=20", "20 (apples)", "number_out_of_range"),
        ("40-20=20", "1" * 100 + " (apples)", "number_out_of_range"),
    ],
)
def test_asdiv_formula_and_answer_numbers(tmp_path: Path, formula: str, answer: str, reason: str) -> None:
    bad = _asdiv_problem("bad", formula=formula).replace("<Answer>7 (apples)</Answer>", f"<Answer>{answer}</Answer>")
    path = corpus_file(tmp_path, "asdiv", [_asdiv_problem("a"), bad, _asdiv_problem("b")])
    got = read("asdiv", path)
    assert [outcome(r) for r in got] == ["ok", reason, "ok"]
    assert got[1].refusal is not None
    assert got[1].refusal.path == f"{path}:{line_of(got[1])}"


def test_an_integer_past_the_digit_limit_in_a_jsonl_record(tmp_path: Path) -> None:
    bad = json.dumps(dict(SSBG_GOOD, problem_id="big"))[:-1] + ', "n": ' + "7" * 5000 + "}"
    path = corpus_file(tmp_path, "ssbg", [SSBG_GOOD, bad, dict(SSBG_GOOD, problem_id="p3")])
    assert [outcome(r) for r in read("ssbg", path)] == ["ok", "malformed_record", "ok"]
    value = json.dumps(SSBG_GOOD).replace('"value": 3', '"value": ' + "7" * 5000)
    path = corpus_file(tmp_path, "ssbg", [value, SSBG_GOOD])
    got = read("ssbg", path)
    assert [outcome(r) for r in got] == ["malformed_record", "ok"]
    assert got[0].refusal is not None
    assert got[0].refusal.detail == "invalid_value"


# ------------------------------------------------------------ text (refused at import, never at write time)


@pytest.mark.parametrize("fmt", ["gsm8k", "svamp", "mawps", "cogcomp", "ssbg"])
def test_a_lone_surrogate_is_refused_at_import(tmp_path: Path, fmt: str) -> None:
    bad = good_record(fmt, 1)
    if fmt == "ssbg":
        bad["text"] = "Ann \ud800"
    else:
        bad[TEXT_FIELD[fmt]] += " \udfff"
    path = corpus_file(tmp_path, fmt, [good_record(fmt, 0), json.dumps(bad), good_record(fmt, 2)])
    got = read(fmt, path)
    assert [outcome(r) for r in got] == ["ok", "encoding_error", "ok"]


def test_a_report_over_a_lone_surrogate_is_written_whole(tmp_path: Path) -> None:
    from ssbg.stats.report import write_report

    bad = dict(GSM8K_GOOD, question=GSM8K_GOOD["question"] + " \ud800")
    path = corpus_file(tmp_path, "gsm8k", [GSM8K_GOOD, json.dumps(bad)])
    result = write_report([f"gsm8k={path}"], tmp_path / "out" / "report.html", progress=False, diagrams=False)
    page = result.html_path.read_text(encoding="utf-8")
    assert "encoding_error" in page
    assert page.endswith("</html>\n")


def test_an_xml_character_reference_to_a_surrogate_is_malformed(tmp_path: Path) -> None:
    bad = _asdiv_problem("bad", body="Ann has 3 &#xD800; apples and buys 4 apples.")
    path = corpus_file(tmp_path, "asdiv", [bad, _asdiv_problem("ok")])
    assert [outcome(r) for r in read("asdiv", path)] == ["malformed_record", "ok"]


# ------------------------------------------------------------ encodings (read, or refused with the reason)


def _file_bytes(fmt: str, tmp_path: Path) -> bytes:
    if fmt == "asdiv":
        return corpus_file(tmp_path, fmt, [_asdiv_problem("a"), _asdiv_problem("b")]).read_bytes()
    return corpus_file(tmp_path, fmt, [good_record(fmt, 0), good_record(fmt, 1)]).read_bytes()


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    ("codec", "name"),
    [("utf-16", "UTF-16"), ("utf-16-le", "UTF-16"), ("utf-16-be", "UTF-16"), ("utf-32", "UTF-32")],
)
def test_a_file_in_utf16_or_utf32_is_refused_with_its_encoding_never_read_as_empty(
    tmp_path: Path, fmt: str, codec: str, name: str
) -> None:
    path = tmp_path / f"{fmt}_wide.{SUFFIX[fmt]}"
    path.write_bytes(_file_bytes(fmt, tmp_path).decode("utf-8").encode(codec))
    got = read(fmt, path)
    assert [(outcome(r), line_of(r)) for r in got] == [("encoding_error", 1)]
    assert got[0].refusal is not None
    assert name in got[0].refusal.message


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_utf8_file_behind_a_byte_order_mark_is_read(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / f"{fmt}_bom.{SUFFIX[fmt]}"
    path.write_bytes(b"\xef\xbb\xbf" + _file_bytes(fmt, tmp_path))
    assert [outcome(r) for r in read(fmt, path)] == ["ok", "ok"]


# ------------------------------------------------------------ file kinds (regular files only, nothing blocks)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_device_is_refused_before_a_byte_is_read(fmt: str) -> None:
    got = _finishes(lambda: list(read_corpus(f"{fmt}=/dev/zero")))  # it ended in MemoryError
    assert [(outcome(r), r.source) for r in got] == [("unreadable_file", "/dev/zero:1")]  # type: ignore[attr-defined]


def _finishes(call: Callable[[], object], seconds: float = 10.0) -> object:
    out: list[object] = []
    worker = threading.Thread(target=lambda: out.append(call()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), "the reader blocked"
    return out[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_fifo_never_blocks(tmp_path: Path, fmt: str) -> None:
    fifo = tmp_path / f"{fmt}_pipe.{SUFFIX[fmt]}"
    os.mkfifo(fifo)
    reader = READERS[fmt]
    assert isinstance(reader, common.StagedReader)
    scanned = _finishes(lambda: list(reader.scan_records(fifo)))
    assert [r.refusal[0] for r in scanned] == ["unreadable_file"]  # type: ignore[attr-defined, index]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_in_a_corpus_folder_is_bad_input_naming_it_not_a_hang(tmp_path: Path) -> None:
    corpus_file(tmp_path, "gsm8k", [GSM8K_GOOD])
    os.mkfifo(tmp_path / "gsm8k_pipe.jsonl")

    def run() -> object:
        try:
            run_batch([tmp_path], progress=False)
        except ImportRefusal as exc:  # a file none of whose records reads is bad input (ADR 0020)
            return exc
        return None

    refusal = _finishes(run)
    assert isinstance(refusal, ImportRefusal)
    assert refusal.path == str(tmp_path / "gsm8k_pipe.jsonl")
    assert "not a regular file (a FIFO)" in refusal.message


# ------------------------------------------------------------ sizes (linear, bounded memory)


class _SpyHandle:
    """A file handle that records the size of every chunk it hands out."""

    def __init__(self, handle: Any, sizes: list[int]) -> None:
        self._handle, self._sizes = handle, sizes

    def __getattr__(self, name: str) -> Any:
        return getattr(self._handle, name)

    def __enter__(self) -> _SpyHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self._handle.close()

    def read(self, n: int = -1) -> bytes:
        data: bytes = self._handle.read(n)
        self._sizes.append(len(data))
        return data

    def readline(self, n: int = -1) -> bytes:
        data: bytes = self._handle.readline(n)
        self._sizes.append(len(data))
        return data


@pytest.mark.parametrize("fmt", ["gsm8k", "ssbg"])
def test_a_line_too_large_is_refused_before_it_is_read_whole(
    tmp_path: Path, fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(common, "MAX_RECORD_BYTES", 1000)
    monkeypatch.setattr(common, "BLOCK_BYTES", 4096)
    sizes: list[int] = []
    real = common.open_regular
    monkeypatch.setattr(common, "open_regular", lambda p: _SpyHandle(real(p), sizes))
    huge = json.dumps(dict(good_record(fmt, 1), text="x" * 300_000))
    path = corpus_file(tmp_path, fmt, [good_record(fmt, 0), huge, good_record(fmt, 2)])
    got = read(fmt, path)
    assert [(outcome(r), line_of(r)) for r in got] == [("ok", 1), ("record_too_large", 2), ("ok", 3)]
    assert max(sizes) <= 4096  # never the 300 KB line at once


def test_a_json_array_of_twenty_mib_of_newlines_reads_in_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "svamp_newlines.json"
    with path.open("wb") as f:
        f.write(b"[")
        for _ in range(20):
            f.write(b"\n" * (1 << 20))
        f.write(json.dumps(good_record("svamp", 0)).encode() + b"]")
    tracemalloc.start()
    try:
        got = list(common.iter_json_array(path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [(r.line, r.refusal) for r in got] == [(20 * (1 << 20) + 1, None)]
    assert peak < 12 * (1 << 20)  # a block and its text, not the 20 MiB file (it took 853 MB)


def test_a_json_array_element_too_large_is_skipped_in_bounded_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(common, "MAX_RECORD_BYTES", 10_000)
    monkeypatch.setattr(common, "BLOCK_BYTES", 4096)
    huge = {"ID": "big", "Body": "x" * 2_000_000, "nested": [{"a": "]}"}, "\\"]}
    path = corpus_file(tmp_path, "svamp", [good_record("svamp", 0), huge, good_record("svamp", 2)])
    tracemalloc.start()
    try:
        got = read("svamp", path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [(outcome(r), line_of(r)) for r in got] == [("ok", 2), ("record_too_large", 3), ("ok", 4)]
    assert peak < 1_500_000  # the 2 MB element is never held whole


def test_an_asdiv_file_of_twenty_mib_between_problems_scans_in_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "asdiv_padded.xml"
    with path.open("wb") as f:
        f.write(b"<ProblemSet>\n" + _asdiv_problem("a").encode() + b"<!-- ")
        for _ in range(10):
            f.write(b"x" * (1 << 20))  # a 10 MiB comment
        f.write(b" -->\n")
        for _ in range(10):
            f.write(b" " * (1 << 20))  # and 10 MiB of blanks
        f.write(_asdiv_problem("b").encode() + b"</ProblemSet>\n")
    tracemalloc.start()
    try:
        scanned = list(asdiv_reader.scan_asdiv(path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [r.refusal for r in scanned] == [None, None]
    assert peak < 8 * (1 << 20)  # a block or two, not the 20 MiB file


def test_thirty_two_thousand_unclosed_problem_tags_scan_in_linear_time(tmp_path: Path) -> None:
    path = tmp_path / "asdiv_unclosed.xml"
    path.write_bytes(b"<ProblemSet>\n" + b"<Problem ID='x'>\n" * 32_000 + _asdiv_problem("ok").encode())
    with Calls() as counted:
        scanned = list(asdiv_reader.scan_asdiv(path))
    assert counted.count < 20 * 32_000  # 13 calls a tag today; it took more than 120 s
    assert [r.refusal[0] if r.refusal else "ok" for r in scanned] == ["malformed_record"] * 32_000 + ["ok"]


@pytest.mark.parametrize("fmt", ["svamp", "asdiv", "gsm8k"])
def test_reading_work_grows_linearly_with_the_file(tmp_path: Path, fmt: str) -> None:
    def work(n: int) -> int:
        if fmt == "asdiv":
            path = corpus_file(tmp_path, fmt, [_asdiv_problem(f"p{i}") for i in range(n)])
        else:
            path = corpus_file(tmp_path, fmt, [good_record(fmt, i) for i in range(n)])
        reader = READERS[fmt]
        assert isinstance(reader, common.StagedReader)
        with Calls() as counted:
            count = sum(1 for _ in reader.scan_records(path))
        assert count == n
        return counted.count

    small, large = work(2_000), work(16_000)
    assert large < 8 * small * 1.1  # 8 times the records: far from the 64 times of a quadratic scan


# ------------------------------------------------------------ damaged records do not swallow the next


def test_a_json_array_element_cut_mid_string_does_not_swallow_the_next(tmp_path: Path) -> None:
    good = [json.dumps(good_record("svamp", i)) for i in range(3)]
    cut = good[1][: good[1].index("apples") + 3]  # ... "Body": "Ann has 3 app
    path = tmp_path / "svamp_cut.json"
    path.write_text("[\n  " + good[0] + ",\n  " + cut + "\n  " + good[2] + "\n]\n", encoding="utf-8")
    got = read("svamp", path)
    assert [(outcome(r), line_of(r)) for r in got] == [("ok", 2), ("malformed_record", 3), ("ok", 4)]


def test_a_problem_tag_inside_an_xml_comment_or_cdata_does_not_swallow_the_next(tmp_path: Path) -> None:
    text = (
        "<!-- an old problem: <Problem ID='gone'> -->\n"
        + _asdiv_problem("a")
        + "<![CDATA[ <Problem ID='text'> ]]>\n"
        + _asdiv_problem("b")
        + "<!-- <Problem ID='x'><Body>y</Body></Problem> -->\n"
        + _asdiv_problem("c")
    )
    path = corpus_file(tmp_path, "asdiv", [text])
    assert [(r.problem_id, outcome(r)) for r in read("asdiv", path)] == [("a", "ok"), ("b", "ok"), ("c", "ok")]


def test_an_unclosed_problem_does_not_swallow_the_next(tmp_path: Path) -> None:
    path = corpus_file(tmp_path, "asdiv", ["<Problem ID='cut'>\n<Body>Ann has", _asdiv_problem("b")])
    got = read("asdiv", path)
    assert [(outcome(r), line_of(r)) for r in got] == [("malformed_record", 2), ("ok", 3)]


# ------------------------------------------------------------ a failure injected into each reader


def _boom(*_args: object, **_kw: object) -> Any:
    raise RuntimeError("injected failure")


def _inject(fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make reading the record whose text says "Boris" fail inside the reader's costly stage."""
    if fmt == "ssbg":
        real_graph = ssbg_reader.MathProblemGraph

        class Failing:
            @staticmethod
            def from_dict(data: Any, path: str = "$") -> Any:
                return _boom() if data.get("problem_id") == "boris" else real_graph.from_dict(data, path=path)

        monkeypatch.setattr(ssbg_reader, "MathProblemGraph", Failing)
        return
    module = __import__(f"ssbg.reading.readers.{fmt}", fromlist=["read_problem_text"])
    real = module.read_problem_text
    monkeypatch.setattr(
        module, "read_problem_text", lambda text, *a, **k: _boom() if "Boris" in text else real(text, *a, **k)
    )


def _corpus_with_boris(tmp_path: Path, fmt: str) -> Path:
    if fmt == "asdiv":
        body = "Boris has 3 apples and buys 4 apples."
        problems = [_asdiv_problem("a"), _asdiv_problem("boris", body=body), _asdiv_problem("c")]
        return corpus_file(tmp_path, fmt, problems)
    bad = good_record(fmt, 1)
    if fmt == "ssbg":
        bad["problem_id"] = "boris"
    else:
        bad[TEXT_FIELD[fmt]] = bad[TEXT_FIELD[fmt]].replace("Ann", "Boris")
    return corpus_file(tmp_path, fmt, [good_record(fmt, 0), bad, good_record(fmt, 2)])


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_failure_inside_one_record_is_that_records_refusal_and_the_report_lists_every_good_problem(
    tmp_path: Path, fmt: str, jobs: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ssbg.stats.report import write_report

    _inject(fmt, monkeypatch)
    path = _corpus_with_boris(tmp_path, fmt)
    result = write_report([f"{fmt}={path}"], tmp_path / "r" / "report.html", jobs=jobs, progress=False,
                          diagrams=False, parquet=False)
    problems = result.batch.problems
    assert list(problems["import_status"].astype(str)) == ["imported", "refused", "imported"]
    failed = problems.iloc[1]
    assert (failed["import_reason"], failed["import_path"]) == ("reader_error", failed["source"])
    assert failed["import_detail"] == "RuntimeError"
    assert "reader_error" in result.html_path.read_text(encoding="utf-8")


def test_a_scan_that_fails_ends_its_file_not_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = corpus_file(tmp_path, "gsm8k", [GSM8K_GOOD, GSM8K_GOOD, GSM8K_GOOD])
    second = tmp_path / "gsm8k_second.jsonl"
    second.write_text(json.dumps(GSM8K_GOOD) + "\n", encoding="utf-8")
    real = common.scan_jsonl

    def failing(path: Path) -> Iterator[common.RawRecord]:
        for raw in real(path):
            if path == first and raw.line == 2:
                raise RuntimeError("the disk went away")
            yield raw

    reader = READERS["gsm8k"]
    assert isinstance(reader, common.StagedReader)
    monkeypatch.setitem(READERS, "gsm8k", common.StagedReader(failing, reader.build, "gsm8k"))
    got = [item.build() if not isinstance(item, CorpusRecord) else item for spec in (first, second)
           for item in scan_corpus(f"gsm8k={spec}")]
    assert [(outcome(r), line_of(r)) for r in got] == [("ok", 1), ("reader_error", 2), ("ok", 1)]


def test_a_plain_reader_that_fails_ends_its_file_not_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def plain(path: Path) -> Iterator[CorpusRecord]:
        yield CorpusRecord("plain", "one", f"{path}:1", refusal=ImportRefusal("x", reason="empty_text"))
        raise KeyError("a bug")

    monkeypatch.setitem(READERS, "plain", plain)
    path = tmp_path / "x.jsonl"
    path.write_text("{}\n", encoding="utf-8")
    got = list(read_corpus(f"plain={path}"))
    assert [outcome(r) for r in got] == ["empty_text", "reader_error"]


def test_a_binding_failure_is_that_records_outcome(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ssbg.stats import batch

    real = batch.bind_payload
    monkeypatch.setattr(
        batch, "bind_payload", lambda payload, **kw: _boom() if payload.problem_id == "p1" else real(payload, **kw)
    )
    path = corpus_file(tmp_path, "ssbg", [dict(SSBG_GOOD, problem_id=f"p{i}") for i in range(3)])
    problems = run_batch([f"ssbg={path}"], progress=False).problems
    assert list(problems["outcome"].astype(str)) == ["admitted", "bind_failed", "admitted"]
    assert problems["bind_error"].astype(str).iloc[1] == "RuntimeError.unexpected"


# ------------------------------------------------------------ properties: any bytes, every reader

GARBAGE = st.one_of(
    st.binary(max_size=60),
    st.sampled_from(
        [b'{"a": "cut', b"{", b"]", b"[[[[", b"\xff\xfe", b"<Problem>", b"<!--", b"</Problem>", b"\x00\x00",
         b'"\\ud800"', b"9" * 500, b"NaN", b"\xef\xbb\xbf", b",", b"\n\n"]
    ),
)


@seam_settings(25)
@given(data=st.data())
@pytest.mark.parametrize("fmt", FORMATS)
def test_any_bytes_around_good_records_never_stop_a_reader(tmp_path_factory: Any, fmt: str, data: Any) -> None:
    tmp_path = tmp_path_factory.mktemp(fmt)
    garbage = data.draw(st.lists(GARBAGE, max_size=4))
    if fmt == "asdiv":
        goods = [_asdiv_problem(f"good{i}").encode() for i in range(2)]
    else:
        goods = [json.dumps(good_record(fmt, 100 + i)).encode() for i in range(2)]
    parts = [goods[0], *garbage, goods[1]] if data.draw(st.booleans()) else [*garbage, *goods]
    path = corpus_file(tmp_path, fmt, parts)  # type: ignore[arg-type]
    got = read(fmt, path)
    for record in got:
        assert isinstance(record, CorpusRecord)
        if record.refusal is not None:
            assert record.refusal.reason in IMPORT_REASONS
            assert record.refusal.path.startswith(record.source)
            assert record.source.startswith(f"{path}:")
    assert sum(1 for r in got if r.refusal is None) <= 2


def test_report_over_a_device_is_exit_2_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ssbg.cli import main

    code = _finishes(lambda: main(["report", "gsm8k=/dev/zero", "-o", str(tmp_path / "r.html"), "--no-progress"]))
    assert code == 2  # it ended in MemoryError
    assert "ImportRefusal [malformed_record] at /dev/zero" in capsys.readouterr().err
