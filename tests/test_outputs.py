"""Outputs appear whole or not at all (issue 17): the report and its tables are one set.

Every file is written beside its target and renamed into place; the set is swapped in at the end
with SIGINT held off; a run that fails (a full disk, a read-only folder) or is interrupted leaves
the previous set byte for byte and no staged file; the output folders are checked before the run;
file-system errors are :class:`~ssbg.errors.OutputError`, exit 2, naming the path.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from ssbg import files
from ssbg.cli import EXIT_BAD_INPUT, EXIT_INTERRUPTED, main
from ssbg.errors import OutputError
from ssbg.files import OutputSet, atomic_write, check_writable
from ssbg.stats import report as report_mod
from ssbg.stats.report import write_report
from ssbg.stats.tables import SUMMARY_TABLES

REPO = Path(__file__).resolve().parents[1]
ROW = {
    "problem_id": "p1",
    "entities": ["Ann"],
    "initial_state": [{"entity": "Ann", "quantity": {"value": 3, "unit": "hours"}}],
    "operations": [{"actor": "Ann", "kind": "add", "operand": {"value": 2, "unit": "hours"}}],
    "unknown": {"entity": "Ann", "unit": "hours"},
}


def corpus(tmp_path: Path, n: int = 3) -> Path:
    path = tmp_path / "c.jsonl"
    path.write_text("".join(json.dumps(dict(ROW, problem_id=f"p{i}")) + "\n" for i in range(n)), encoding="utf-8")
    return path


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def staged_files(folder: Path) -> list[str]:
    return [p.name for p in folder.rglob(".*ssbg-*")]


def staged_tables(folder: Path) -> list[str]:
    """The new outputs being staged (not the folder's write probe, which comes first)."""
    return [p.name for p in folder.rglob(".*.ssbg-new-*")]


@pytest.fixture
def previous(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    """A folder holding a good previous report and its tables (two problems)."""
    out = tmp_path / "out"
    write_report([corpus(tmp_path, 2)], out / "report.html", progress=False, diagrams=False, parquet=False)
    return out, snapshot(out)


# ------------------------------------------------------------ the seam: OutputSet


def _stage_and_commit(folder: Path, names: str) -> None:
    with OutputSet() as out:
        for name in names:
            out.temp(folder / name).write_text(f"new {name}")
        out.commit()


def test_a_set_is_swapped_in_whole(tmp_path: Path) -> None:
    (tmp_path / "a").write_text("old a")
    with OutputSet() as out:
        out.temp(tmp_path / "a").write_text("new a")
        out.temp(tmp_path / "b").write_text("new b")
        assert snapshot(tmp_path)["a"] == b"old a"  # nothing visible before the commit
        out.commit()
    assert snapshot(tmp_path) == {"a": b"new a", "b": b"new b"}


def test_a_set_left_without_a_commit_leaves_the_targets_and_no_staged_file(tmp_path: Path) -> None:
    (tmp_path / "a").write_text("old a")

    def interrupted() -> None:
        with OutputSet() as out:
            out.temp(tmp_path / "a").write_text("half")
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        interrupted()
    assert snapshot(tmp_path) == {"a": b"old a"}


def test_a_rename_that_fails_puts_every_old_file_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in "abc":
        (tmp_path / name).write_text(f"old {name}")
    real = os.replace
    placed: list[str] = []

    def flaky(src: Any, dst: Any) -> None:
        if Path(dst).name == "c" and ".ssbg-new" in Path(src).name:
            raise OSError(errno.EIO, "Input/output error", str(dst))
        placed.append(Path(dst).name)
        real(src, dst)

    monkeypatch.setattr(files.os, "replace", flaky)
    with pytest.raises(OutputError) as info:
        _stage_and_commit(tmp_path, "abc")
    assert (info.value.reason, info.value.path) == ("write_failed", str(tmp_path / "c"))
    assert snapshot(tmp_path) == {"a": b"old a", "b": b"old b", "c": b"old c"}


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="no signal masks here")
def test_sigint_during_the_swap_is_delivered_after_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.replace

    def interrupted(src: Any, dst: Any) -> None:
        os.kill(os.getpid(), signal.SIGINT)  # held off until every file is in place
        real(src, dst)

    monkeypatch.setattr(files.os, "replace", interrupted)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # a suite started in the background ignores it
    try:
        with pytest.raises(KeyboardInterrupt):
            _stage_and_commit(tmp_path, "abc")
    finally:
        signal.signal(signal.SIGINT, previous)
    assert snapshot(tmp_path) == {"a": b"new a", "b": b"new b", "c": b"new c"}


def test_atomic_write_never_leaves_a_partial_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = atomic_write(tmp_path / "x.svg", "whole")
    monkeypatch.setattr(Path, "write_bytes", lambda self, data: (_ for _ in ()).throw(OSError(errno.ENOSPC, "full")))
    with pytest.raises(OutputError) as info:
        atomic_write(target, "new")
    assert (info.value.reason, target.read_text(), staged_files(tmp_path)) == ("no_space", "whole", [])


def test_check_writable_names_what_is_wrong(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(OutputError) as info:
        check_writable(tmp_path / "file")
    assert (info.value.reason, info.value.path) == ("not_a_directory", str(tmp_path / "file"))
    with pytest.raises(OutputError) as info:
        check_writable(tmp_path / "file" / "below")
    assert info.value.reason == "not_a_directory"
    assert check_writable(tmp_path / "new" / "deep") == tmp_path / "new" / "deep"


@pytest.mark.parametrize("anonymous", [True, False], ids=["O_TMPFILE", "named probe"])
def test_an_interrupted_write_probe_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, anonymous: bool
) -> None:
    """Ctrl-C while the folder is probed leaves no probe file in the user's folder."""
    if not anonymous:
        monkeypatch.delattr(os, "O_TMPFILE", raising=False)
    real_write, real_bytes = os.write, Path.write_bytes

    def interrupted_write(fd: int, data: bytes) -> int:
        raise KeyboardInterrupt

    def interrupted_bytes(self: Path, data: bytes) -> int:
        real_bytes(self, data)
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "write", interrupted_write)
    monkeypatch.setattr(Path, "write_bytes", interrupted_bytes)
    with pytest.raises(KeyboardInterrupt):
        check_writable(tmp_path / "out")
    monkeypatch.setattr(os, "write", real_write)
    assert list((tmp_path / "out").iterdir()) == []


# ------------------------------------------------------------ the report


def test_a_report_replaces_the_previous_set_whole(tmp_path: Path, previous: tuple[Path, dict[str, bytes]]) -> None:
    out, before = previous
    write_report([corpus(tmp_path, 3)], out / "report.html", progress=False, diagrams=False, parquet=False)
    after = snapshot(out)
    assert sorted(after) == sorted(before)
    assert after["report_tables/problems.csv"].count(b"\n") == 4  # three problems now, not two
    assert staged_files(out) == []


@pytest.mark.parametrize("when", [1, 5, 2 + len(SUMMARY_TABLES), "page"])
def test_an_interruption_while_writing_leaves_the_previous_set(
    tmp_path: Path, previous: tuple[Path, dict[str, bytes]], monkeypatch: pytest.MonkeyPatch, when: int | str
) -> None:
    out, before = previous
    real = report_mod._write_csv
    count = [0]

    def interrupted(frame: Any, path: Path) -> None:
        count[0] += 1
        if count[0] == when:
            raise KeyboardInterrupt
        real(frame, path)

    def page(*a: Any, **k: Any) -> str:  # every table staged, the page not yet
        raise KeyboardInterrupt

    monkeypatch.setattr(report_mod, "_write_csv", interrupted)
    if when == "page":
        monkeypatch.setattr(report_mod, "_page", page)
    with pytest.raises(KeyboardInterrupt):
        write_report([corpus(tmp_path, 3)], out / "report.html", progress=False, diagrams=False, parquet=False)
    assert snapshot(out) == before
    assert staged_files(out) == []


def test_a_full_disk_is_a_typed_error_naming_the_file_and_leaves_the_previous_set(
    tmp_path: Path, previous: tuple[Path, dict[str, bytes]], monkeypatch: pytest.MonkeyPatch
) -> None:
    out, before = previous

    def full(frame: Any, path: Path) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(report_mod, "_write_csv", full)
    with pytest.raises(OutputError) as info:
        write_report([corpus(tmp_path, 3)], out / "report.html", progress=False, diagrams=False, parquet=False)
    assert (info.value.reason, info.value.path) == ("no_space", str(out / "report_tables" / "problems.csv"))
    assert snapshot(out) == before


def test_tables_of_an_earlier_parquet_run_do_not_outlive_it(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    out = tmp_path / "out"
    write_report([corpus(tmp_path)], out / "r.html", progress=False, diagrams=False, parquet=True)
    assert any(p.suffix == ".parquet" for p in (out / "r_tables").iterdir())
    write_report([corpus(tmp_path)], out / "r.html", progress=False, diagrams=False, parquet=False)
    assert not any(p.suffix == ".parquet" for p in (out / "r_tables").iterdir())


# ------------------------------------------------------------ the command line


def _report_args(tmp_path: Path, *extra: str) -> list[str]:
    return ["report", str(corpus(tmp_path)), "--no-progress", "--no-diagrams", *extra]


def test_output_naming_a_folder_is_exit_2_before_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(report_mod, "run_batch", lambda *a, **k: pytest.fail("the run started"))
    (tmp_path / "folder").mkdir()
    assert main(_report_args(tmp_path, "-o", str(tmp_path / "folder"))) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert f"OutputError [is_a_directory] at {tmp_path / 'folder'}" in err


def test_tables_folder_that_is_a_file_is_exit_2_before_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(report_mod, "run_batch", lambda *a, **k: pytest.fail("the run started"))
    (tmp_path / "tables").write_text("not a folder")
    code = main(_report_args(tmp_path, "-o", str(tmp_path / "r.html"), "--csv-dir", str(tmp_path / "tables")))
    assert code == EXIT_BAD_INPUT
    assert "OutputError [not_a_directory]" in capsys.readouterr().err


def test_a_read_only_folder_is_exit_2_before_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(report_mod, "run_batch", lambda *a, **k: pytest.fail("the run started"))
    try:  # /sys is a read-only file system on Linux, even for root (chmod would not stop root)
        check_writable("/sys/ssbg-probe")
    except OutputError:
        pass
    else:  # pragma: no cover - a writable /sys
        pytest.skip("no read-only file system here")
    assert main(_report_args(tmp_path, "-o", "/sys/ssbg-probe/r.html")) == EXIT_BAD_INPUT
    assert "OutputError [" in capsys.readouterr().err


def test_an_interrupted_command_exits_130(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*a: Any, **k: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(report_mod, "run_batch", interrupted)
    assert main(_report_args(tmp_path, "-o", str(tmp_path / "r.html"))) == EXIT_INTERRUPTED


_SLOW_WRITER = """
import signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)  # as a terminal delivers it, even in the background
from ssbg.stats import report
real = report._write_csv
def slow(frame, path):
    real(frame, path)
    time.sleep(0.3)
report._write_csv = slow
from ssbg.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.slow
def test_a_real_sigint_while_writing_leaves_the_previous_set(
    tmp_path: Path, previous: tuple[Path, dict[str, bytes]]
) -> None:
    out, before = previous
    args = ["report", str(corpus(tmp_path, 3)), "-o", str(out / "report.html"), "--no-progress", "--no-diagrams"]
    child = subprocess.Popen([sys.executable, "-c", _SLOW_WRITER, *args], cwd=REPO, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not staged_tables(out) and time.monotonic() < deadline:  # the tables are being staged
        time.sleep(0.02)
    assert staged_tables(out), "the child never started writing"
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert child.returncode == EXIT_INTERRUPTED, err.decode()
    assert snapshot(out) == before
    assert staged_files(out) == []
