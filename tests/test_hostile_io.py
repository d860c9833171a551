"""What comes in and what goes out, under attack (issue 38, ADR 0033): CSV and Parquet that lose no row, output
paths that never clobber, one output set per run, option values typed, work linear within the caps."""

from __future__ import annotations

import csv
import io
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ssbg.checking.batch import check_solutions
from ssbg.files import read_regular
from ssbg.reading.readers import tabular
from ssbg.reading.readers.common import MAX_RECORD_BYTES
from ssbg.reading.readers.tabular import scan_source
from tests.strategies import seam_settings
from tests.work import peak_bytes

Q = "Ann has 3 apples and buys 4 more apples. How many apples?"
S = "3 + 4 = 7 apples"


def _csv(path: Path, rows: list[dict[str, str]]) -> Path:
    buffer = io.StringIO(newline="")
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(buffer.getvalue(), encoding="utf-8", newline="")
    return path


def _scan(path: Path) -> list[tuple[int, Any, Any]]:
    return [(r.line, r.data, r.refusal and r.refusal[0]) for r in scan_source(path)]


# ------------------------------------------------------------------ CSV loses no row


def test_a_csv_field_past_pythons_default_limit_is_read_and_the_rows_after_it_too(tmp_path: Path) -> None:
    rows = [{"id": "a", "q": Q, "s": S}, {"id": "b", "q": "x" * 200_000, "s": S}, {"id": "c", "q": Q, "s": S}]
    path = _csv(tmp_path / "r.csv", rows)
    frame = check_solutions(path, question_field="q", solution_field="s", id_field="id", progress=False)
    assert frame[["id", "status"]].values.tolist() == [["a", "sound"], ["b", "refused"], ["c", "sound"]]
    assert frame["refusal_reason"].tolist()[1] == "record_too_large"  # the question's cap, not the CSV module's


def test_a_csv_record_past_the_record_cap_is_a_refused_row_and_the_rows_after_it_are_read(tmp_path: Path) -> None:
    big = "y" * (MAX_RECORD_BYTES + 10)
    rows = [{"q": Q, "s": S}, {"q": f"a\n{big}\nb", "s": S}, {"q": Q, "s": "5 + 1 = 6"}, {"q": big, "s": S},
            {"q": Q, "s": S}]
    got = _scan(_csv(tmp_path / "r.csv", rows))
    assert [(n, r) for n, _, r in got] == [(1, None), (2, "record_too_large"), (3, None), (4, "record_too_large"),
                                          (5, None)]
    assert got[2][1] == {"q": Q, "s": "5 + 1 = 6"}


def test_one_bad_byte_refuses_its_own_csv_record_only(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_bytes(f"q,s\n{Q},{S}\n{Q} caf\xe9,{S}\n{Q},\"{S}\"\n".encode("latin-1"))
    got = _scan(path)
    assert [(n, r) for n, _, r in got] == [(1, None), (2, "encoding_error"), (3, None)]
    assert got[2][1] == {"q": Q, "s": S}


def test_csv_quoting_reads_as_pythons_csv_module_reads_it(tmp_path: Path) -> None:
    text = ('q,s,n\n"two\nlines, and ""quotes""",5"" tall,\n\nplain,"a, b"\r\n" spaced",x"y"z,3\n'
            '"last\r\nrow",\xe9,"trailing"\n')
    path = tmp_path / "r.csv"
    path.write_text(text, encoding="utf-8", newline="")
    want = [{k: v for k, v in row.items() if v} for row in csv.DictReader(io.StringIO(text, newline=""))]
    assert [d for _, d, _ in _scan(path)] == want


def test_a_csv_of_one_endless_line_is_read_in_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    with path.open("wb") as f:
        f.write(b"q,s\n")
        for _ in range(40):
            f.write(b"z" * (1 << 20))
    tracemalloc.start()
    try:
        got = _scan(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [(n, r) for n, _, r in got] == [(1, "record_too_large")]
    assert peak < 3 * MAX_RECORD_BYTES  # 40 MB of file, never held whole


# ------------------------------------------------------------------ Parquet read by row group


def test_a_small_file_read_under_a_large_cap_holds_its_size_not_the_cap(tmp_path: Path) -> None:
    small = tmp_path / "small.json"
    small.write_bytes(b"{}" * 512)
    data, peak = peak_bytes(lambda: read_regular(small, 64 << 20))
    assert data == b"{}" * 512
    assert peak < 64 * 1024  # a buffer of the 64 MiB cap was reserved for a 1 KiB file
    for size, cap in ((10, 10), (11, 10), (0, 10)):
        (tmp_path / "f").write_bytes(b"x" * size)
        if size > cap:
            with pytest.raises(OSError, match="larger than 10 bytes"):
                read_regular(tmp_path / "f", cap)
        else:
            assert read_regular(tmp_path / "f", cap) == b"x" * size


def test_a_corrupt_parquet_row_group_is_a_counted_refusal_of_its_rows(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    rows = [{"q": f"Ann has {i} apples and buys 1 more apple. How many apples?", "s": f"{i} + 1 = {i + 1} apples"}
            for i in range(1, 31)]
    path = tmp_path / "r.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path, row_group_size=10)
    column = pq.ParquetFile(path).metadata.row_group(1).column(0)
    data = bytearray(path.read_bytes())
    data[column.data_page_offset : column.data_page_offset + column.total_compressed_size] = (
        b"\xab" * column.total_compressed_size)
    path.write_bytes(bytes(data))
    frame = check_solutions(path, question_field="q", solution_field="s", progress=False)
    assert len(frame) == 30
    refused = frame[frame["status"] == "refused"]
    assert refused["source"].tolist() == [f"{path}:{n}" for n in range(11, 21)]
    assert set(refused["refusal_reason"]) == {"malformed_record"}
    assert "row group 2 of 3" in refused["refusal_detail"].tolist()[0]
    assert (frame["status"] != "refused").sum() == 20


@given(st.lists(st.lists(st.text(alphabet='ab ,"\n\r\xe9', max_size=8), min_size=1, max_size=4), min_size=1,
                max_size=6), st.integers(1, 7))
@seam_settings(200)
def test_any_csv_reads_as_the_csv_module_reads_it_whatever_the_block_size(
    table: list[list[str]], block: int
) -> None:
    buffer = io.StringIO(newline="")
    csv.writer(buffer, lineterminator="\n").writerows(table)
    text = buffer.getvalue()
    raw = io.BytesIO(text.encode("utf-8"))
    old = tabular.BLOCK_BYTES
    tabular.BLOCK_BYTES = block
    try:
        got = [row for record in tabular._csv_records(raw) for row in tabular._csv_rows(record)]  # type: ignore[union-attr]
    finally:
        tabular.BLOCK_BYTES = old
    assert got == list(csv.reader(io.StringIO(text, newline="")))


def test_a_csv_header_that_cannot_be_read_is_one_refusal(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_bytes(b"q\xff,s\n" + f"{Q},{S}\n".encode())
    assert _scan(path) == [(1, None, "encoding_error")]


# ------------------------------------------------------------------ output paths checked before a record is read


def _records(tmp_path: Path) -> Path:
    path = tmp_path / "in.csv"
    return _csv(path, [{"q": Q, "s": S}, {"q": Q, "s": "3 + 5 = 8 apples"}])


def _run(path: Path | str, *more: str) -> list[str]:
    return ["check-solutions", str(path), "--question-field", "q", "--solution-field", "s", "--no-progress", *more]


def _device(path: Path) -> Path:
    """A character device node of our own (the null device's numbers), never the system's ``/dev/null``: code that
    replaces a device by a file (what these tests catch) replaces this one."""
    import os
    import stat

    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, AttributeError):
        pytest.skip("no device nodes can be made here (not root)")
    return path


@pytest.fixture
def never_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading a record fails the test: an output path is judged before any record is read."""

    def refuse(*_args: object, **_kwargs: object) -> Any:
        raise AssertionError("a record was read")

    monkeypatch.setattr(tabular, "scan_source", refuse)


@pytest.mark.usefixtures("never_read")
@pytest.mark.parametrize(
    ("case", "reason"),
    [("o is the input", "output_is_input"), ("html is o", "outputs_collide"), ("html is the input", "output_is_input"),
     ("o is a folder", "is_a_directory"), ("html is a folder", "is_a_directory"),
     ("o is not .csv", "wrong_suffix"), ("html is not .html", "wrong_suffix"),
     ("html is a fifo", "not_a_regular_file"), ("html is a device", "not_a_regular_file"),
     ("html is the error steps", "output_is_input"), ("o names the input by a link", "output_is_input")],
)
def test_a_bad_output_path_is_exit_2_before_a_record_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, reason: str
) -> None:
    import os

    from ssbg.cli import main

    records = _records(tmp_path)
    before = records.read_bytes()
    steps = tmp_path / "steps.csv"
    steps.write_text("id,solver,line\n", encoding="utf-8")
    out, html = tmp_path / "v.csv", tmp_path / "v.html"
    if case == "o is the input":
        out = records
    elif case == "html is o":
        html = out
    elif case == "html is the input":
        html = records
    elif case == "o is a folder":
        out.mkdir()
    elif case == "html is a folder":
        html.mkdir()
    elif case == "o is not .csv":
        out = tmp_path / "v.txt"
    elif case == "html is not .html":
        html = tmp_path / "v.csv.txt"
    elif case == "html is a fifo":
        html = tmp_path / "fifo.html"
        os.mkfifo(html)
    elif case == "html is a device":
        html = _device(tmp_path / "null.html")
    elif case == "html is the error steps":
        html = steps
    elif case == "o names the input by a link":
        out = tmp_path / "link.csv"
        out.symlink_to(records)
    code = main(_run(records, "-o", str(out), "--html", str(html), "--error-steps", str(steps)))
    err = capsys.readouterr().err
    assert (code, f"[{reason}]" in err) == (2, True), err
    assert records.read_bytes() == before
    assert steps.read_text(encoding="utf-8") == "id,solver,line\n"
    assert not (tmp_path / "v.csv").is_file()
    assert not (tmp_path / "v.pack.csv").exists()
    if case == "html is a fifo":
        assert html.is_fifo()


def test_the_path_written_is_the_path_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ssbg.cli import main

    records = _records(tmp_path)
    (tmp_path / "v.csv").write_text("mine\n", encoding="utf-8")
    assert main(_run(records, "-o", str(tmp_path / "v.txt"))) == 2
    assert (tmp_path / "v.csv").read_text(encoding="utf-8") == "mine\n"
    assert not (tmp_path / "v.txt").exists()
    assert main(_run(records, "-o", str(tmp_path / "w.csv"))) == 0
    assert f"verdicts: {tmp_path / 'w.csv'}" in capsys.readouterr().out


@pytest.mark.parametrize("case", ["fifo", "device", "corpus file"])
def test_a_report_onto_a_fifo_a_device_or_its_corpus_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    import os

    from ssbg.cli import main

    corpus = tmp_path / "train.jsonl"
    corpus.write_text('{"question": "Ann has 3 apples. How many?", "answer": "3 * 1 = 3\\n#### 3"}\n',
                      encoding="utf-8")
    before = corpus.read_bytes()
    html = {"fifo": tmp_path / "r.html", "device": tmp_path / "null.html", "corpus file": corpus}[case]
    if case == "fifo":
        os.mkfifo(html)
    if case == "device":
        _device(html)
    code = main(["report", f"gsm8k={corpus}", "-o", str(html), "--no-progress", "--no-diagrams"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "[not_a_regular_file]" in err or "[output_is_input]" in err
    assert corpus.read_bytes() == before
    assert case != "fifo" or html.is_fifo()


# ------------------------------------------------------------------ one output set per run


def _set(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.name.startswith("v.") and p.is_file()}


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def _labelled(tmp_path: Path, answer: int) -> Path:
    path = tmp_path / "in.jsonl"
    path.write_text(f'{{"q": "{Q}", "s": "3 + 4 = {answer} apples", "ok": true}}\n', encoding="utf-8")
    return path


def _set_args(records: Path, folder: Path) -> list[str]:
    return _run(records, "--label-field", "ok", "-o", str(folder / "v.csv"), "--html", str(folder / "v.html"))


def test_a_second_run_on_a_set_being_written_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ssbg.cli import main
    from ssbg.files import OutputLock

    records = _labelled(tmp_path, 7)
    out = tmp_path / "out"
    out.mkdir()
    with OutputLock(out / "v.csv"):  # another run holds the set
        assert main(_set_args(records, out)) == 2
    assert "[output_locked]" in capsys.readouterr().err
    assert _set(out) == {}
    assert main(_set_args(records, out)) == 0  # the lock is gone with its run
    assert _leftovers(out) == []


_KILLED_IN_COMMIT = """
import os, signal, sys
import ssbg.files as files
real, count = os.replace, [0]
def replace(src, dst):
    real(src, dst)
    if files.in_commit():
        count[0] += 1
        if count[0] == int(sys.argv[1]):
            os.kill(os.getpid(), signal.SIGKILL)
files.os.replace = replace
from ssbg.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("kill_at", [1, 2, 5, 7, 8, 12, 13])  # the journal, then 6 files moved aside, 6 put in place
def test_sigkill_inside_the_commit_leaves_the_old_set_or_the_new_one_after_the_next_run(
    tmp_path: Path, kill_at: int
) -> None:
    import subprocess
    import sys

    from ssbg.cli import main
    from ssbg.files import OutputLock

    repo = Path(__file__).resolve().parents[1]
    out, fresh = tmp_path / "out", tmp_path / "fresh"
    out.mkdir()
    fresh.mkdir()
    records = _labelled(tmp_path, 7)
    assert main(_set_args(records, out)) == 0
    old = _set(out)
    records = _labelled(tmp_path, 8)
    assert main(_set_args(records, fresh)) == 0
    new = {name: data.replace(str(fresh).encode(), str(out).encode()) for name, data in _set(fresh).items()}
    child = subprocess.run([sys.executable, "-c", _KILLED_IN_COMMIT, str(kill_at), *_set_args(records, out)],
                           cwd=repo, capture_output=True, check=False)
    assert child.returncode == -9, child.stderr.decode()
    assert any(name.endswith(".ssbg.journal") for name in _leftovers(out))
    with OutputLock(out / "v.csv", [out / n for n in old]) as lock:
        assert _set(out) == (new if kill_at == 13 else old)  # rolled forward once every new file was in place
        assert lock.note is not None
    assert _leftovers(out) == []


_KILLED_WRITING = """
import os, signal, sys
from ssbg.stats import report
def killed(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)
real = report._write_csv
def write(frame, path):
    real(frame, path)
    killed()
report._write_csv = write
from ssbg.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_files_a_killed_run_staged_are_cleaned_by_the_next_run(tmp_path: Path) -> None:
    import subprocess
    import sys

    from ssbg.cli import main

    repo = Path(__file__).resolve().parents[1]
    out = tmp_path / "out"
    out.mkdir()
    records = _labelled(tmp_path, 7)
    child = subprocess.run([sys.executable, "-c", _KILLED_WRITING, *_set_args(records, out)], cwd=repo,
                           capture_output=True, check=False)
    assert child.returncode == -9, child.stderr.decode()
    assert any(".ssbg-new-" in name for name in _leftovers(out))
    assert main(_set_args(records, out)) == 0
    assert _leftovers(out) == []


_INTERRUPTED_IN_COMMIT = """
import os, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
import ssbg.files as files
real = os.replace
def replace(src, dst):
    real(src, dst)
    if files.in_commit():
        os.kill(os.getpid(), signal.SIG{0})
files.os.replace = replace
from ssbg.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize(("sig", "code"), [("INT", 130), ("TERM", 143)])
def test_a_signal_inside_the_commit_says_the_new_set_is_in_place(tmp_path: Path, sig: str, code: int) -> None:
    import subprocess
    import sys

    repo = Path(__file__).resolve().parents[1]
    out = tmp_path / "out"
    out.mkdir()
    records = _labelled(tmp_path, 7)
    child = subprocess.run([sys.executable, "-c", _INTERRUPTED_IN_COMMIT.format(sig), *_set_args(records, out)],
                           cwd=repo, capture_output=True, check=False)
    err = child.stderr.decode()
    assert child.returncode == code, err
    assert "no output was replaced" not in err
    assert "the new outputs are in place" in err
    assert {"v.csv", "v.html", "v.scores.csv"} <= set(_set(out))
    assert _leftovers(out) == []


def test_a_second_report_on_a_page_being_written_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ssbg.cli import main
    from ssbg.files import OutputLock

    corpus = tmp_path / "train.jsonl"
    corpus.write_text('{"question": "Ann has 3 apples. How many?", "answer": "3 * 1 = 3\\n#### 3"}\n',
                      encoding="utf-8")
    page = tmp_path / "out" / "r.html"
    page.parent.mkdir()
    with OutputLock(page):
        assert main(["report", f"gsm8k={corpus}", "-o", str(page), "--no-progress", "--no-diagrams"]) == 2
    assert "[output_locked]" in capsys.readouterr().err
    assert sorted(p.name for p in page.parent.iterdir()) == []


# ------------------------------------------------------------------ every option value typed


@pytest.mark.parametrize("line", ["\u00b2", "\u0663", "9" * 5000, "0"],
                         ids=["superscript two", "arabic three", "5000 digits", "0"])
def test_an_error_steps_line_that_is_no_ascii_positive_integer_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str
) -> None:
    from ssbg.cli import main

    steps = tmp_path / "steps.csv"
    steps.write_text(f"id,solver,line\na,,1\nb,,{line}\n", encoding="utf-8")
    code = main(_run(_records(tmp_path), "-o", str(tmp_path / "v.csv"), "--error-steps", str(steps)))
    err = capsys.readouterr().err
    assert code == 2
    assert f"ImportRefusal [malformed_record] at {steps}:3" in err


@pytest.mark.parametrize("option", ["--question-field", "--solution-field", "--id-field", "--label-field",
                                    "--reference-field", "--solver-field", "--solver-key", "-o", "--html",
                                    "--error-steps"])
@pytest.mark.parametrize("value", ["", "   "])
def test_a_blank_field_option_is_exit_2_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str
) -> None:
    from ssbg.cli import main

    args = ["check-solutions", str(_records(tmp_path)), "--question-field", "q", "--solution-field", "s",
            "-o", str(tmp_path / "v.csv"), "--no-progress", option, value]
    with pytest.raises(SystemExit) as info:
        main(args)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}" in err
    assert "must name a field" in err or "must name a file" in err


@pytest.mark.parametrize("exponent", [17, -17, 10**4299, -(10**4299)],
                         ids=["17", "-17", "4300 digits", "-4300 digits"])
def test_a_pack_exponent_past_the_bound_refuses_at_load(tmp_path: Path, exponent: int) -> None:
    import hashlib
    import json
    import shutil

    from ssbg.errors import PackError
    from ssbg.units import load_pack

    pack = tmp_path / "pack"
    shutil.copytree(Path(__file__).resolve().parents[1] / "packs" / "en_units_v1", pack)
    rows = (pack / "lexicon.jsonl").read_text(encoding="utf-8").splitlines()
    rows[1] = json.dumps({**json.loads(rows[1]), "dimension": {"length": exponent}})
    data = ("\n".join(rows) + "\n").encode()
    (pack / "lexicon.jsonl").write_bytes(data)
    manifest = json.loads((pack / "manifest.json").read_text(encoding="utf-8"))
    manifest.update(sha256=hashlib.sha256(data).hexdigest(), rows=len(rows))
    (pack / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(PackError) as info:
        load_pack(pack)
    assert (info.value.reason, info.value.path) == ("malformed_row", f"{pack / 'lexicon.jsonl'}:2")


# ------------------------------------------------------------------ work linear within the caps


def _repeated_grounded(k: int) -> tuple[str, str]:
    """The issue's record: a question of short sentences repeated, a solution of identical steps."""
    return "It is 3 kg. " * (16 * k) + "How many kg?", "\n".join(["It is <<3+3=6>>6 kg"] * (5 * k))


def _repeated_ungrounded(k: int) -> tuple[str, str]:
    return "It is 3 kg. " * (16 * k) + "How many kg?", "\n".join(["6 + 6 = 12 kg"] * (5 * k))


def _distinct(k: int) -> tuple[str, str]:
    question = "".join(f"It is {i} kg. " for i in range(1, 12 * k + 1)) + "How many kg?"
    return question, "\n".join(f"{i}.5 + {i}.5 = {2 * i + 1} kg" for i in range(1, 5 * k + 1))


def _calls(question: str, solution: str) -> int:
    """The Python function calls one check makes (a count, not a time: the same on every machine)."""
    import sys

    from ssbg.checking.verdict import check_solution

    count = [0]

    def profile(_frame: object, event: str, _arg: object) -> None:
        if event == "call":
            count[0] += 1

    sys.setprofile(profile)
    try:
        check_solution(question, solution)
    finally:
        sys.setprofile(None)
    return count[0]


@pytest.mark.parametrize("shape", [_repeated_grounded, _repeated_ungrounded, _distinct])
def test_a_record_twice_as_large_costs_about_twice_the_calls(shape: Any) -> None:
    from ssbg.checking.verdict import check_solution

    check_solution(*shape(1))  # packs and models loaded
    small, large = _calls(*shape(8)), _calls(*shape(16))
    assert large / small < 2.6, (small, large)  # quadratic work gave 3.3-3.9 (issue 38)


def test_a_folder_pack_named_many_times_is_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from ssbg import units

    pack = tmp_path / "mine"
    shutil.copytree(Path(__file__).resolve().parents[1] / "packs" / "en_units_v1", pack)
    parsed = [0]
    real = units._parse_row

    def counted(raw: str, where: str) -> Any:
        parsed[0] += 1
        return real(raw, where)

    monkeypatch.setattr(units, "_parse_row", counted)
    units.clear_pack_cache()
    (tmp_path / "x").mkdir()
    once = units.load_pack(pack)
    rows = parsed[0]
    monkeypatch.chdir(tmp_path)
    many = units.load_pack("+".join(["./mine"] * 200 + ["./x/../mine"]))
    assert parsed[0] == rows  # the same folder and checksum: read once
    assert many.checksum == once.checksum
    lexicon = pack / "lexicon.jsonl"
    lexicon.write_bytes(lexicon.read_bytes() + b"\n")  # a changed lexicon is read again (and refused: checksum)
    with pytest.raises(units.PackError):
        units.load_pack(pack)


def _pid(batch: Any) -> tuple[int, ...]:
    import os

    return tuple(os.getpid() for _ in batch)


def test_jobs_are_capped_at_the_batches_and_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    import concurrent.futures
    import os

    from ssbg.stats.batch import map_batches

    asked: list[int] = []
    real = concurrent.futures.ProcessPoolExecutor

    def pool(*args: Any, max_workers: int, **kwargs: Any) -> Any:
        asked.append(max_workers)
        return real(*args, max_workers=max_workers, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", pool)
    rows = list(map_batches([[1], [2], [3]], _pid, jobs=48))
    assert [n for n, _ in rows] == [1, 1, 1]
    assert len(asked) == 1
    assert asked[0] <= min(3, len(os.sched_getaffinity(0)))


# ------------------------------------------------------------------ one record never stops a run; ids kept


def test_a_record_that_cannot_be_sent_to_a_worker_is_a_refused_row(tmp_path: Path) -> None:
    import threading

    records: list[dict[str, Any]] = [{"id": f"r{k}", "q": f"{Q} ({k})", "s": S} for k in range(6)]  # 6 batches
    records[3]["extra"] = threading.Lock()  # no pickle
    frame = check_solutions(records, question_field="q", solution_field="s", id_field="id", jobs=2, batch_size=1,
                            progress=False)
    assert frame["id"].tolist() == [f"r{k}" for k in range(6)]
    assert frame["status"].tolist() == ["sound"] * 3 + ["refused"] + ["sound"] * 2
    assert frame["refusal_reason"].tolist()[3] == "malformed_record"
    assert "cannot be sent to a worker" in frame["refusal_detail"].tolist()[3]


def test_ids_of_any_json_type_are_kept_as_their_text() -> None:
    import pandas as pd

    ids: list[Any] = [1.5, 1e308, 10**5000, True, [1, "a"], {"k": 2}, 7, "x7"]
    records = [{"id": value, "q": Q, "s": S} for value in ids]
    frame = check_solutions(records, question_field="q", solution_field="s", id_field="id", progress=False)
    got = frame["id"].tolist()
    assert got[:2] == ["1.5", "1e+308"]
    assert got[2] == "1" + "0" * 5000
    assert got[3:] == ["true", '[1, "a"]', '{"k": 2}', "7", "x7"]
    floats = pd.DataFrame({"id": [0.1, 2.5], "q": [Q, Q], "s": [S, S]})
    assert check_solutions(floats, question_field="q", solution_field="s", id_field="id",
                           progress=False)["id"].tolist() == ["0.1", "2.5"]
