"""Old commit against this checkout in one run, on a shared machine whose speed moves (ADR 0015).

The old side is ``git archive`` of a base revision (its ``ssbg`` and ``packs``) unpacked into a
temporary folder; the new side is this working tree.  Each side runs in its own process
(``ab_worker.py``, ``PYTHONPATH`` naming its tree), and the two take turns pass by pass (old, new;
then new, old; ...), so that both see the same load.  A ratio is the median over the rounds of
old seconds / new seconds of adjacent passes; a rate is the best pass of a side.

The default base is :data:`BASELINE`, main without issue 28's speed work, so that ``make
bench`` keeps printing what that work bought; ``SSBG_BENCH_BASE=<rev>`` (or ``make bench
BENCH_BASE=<rev>``) compares against any other revision, such as ``main``.
"""

from __future__ import annotations

import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BASELINE = "b3605a6"
"""main as issue 28 (speed of reading, checking and binding; ADR 0013's amendment) started from it, so that
``make bench`` prints what that work bought.  Issue 21's figures in ADR 0015 are against d28d171."""


def base_revision() -> str:
    return os.environ.get("SSBG_BENCH_BASE") or BASELINE


def short(rev: str) -> str:
    out = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", rev], capture_output=True, text=True,
                         check=False)  # fmt: skip
    return out.stdout.strip() or rev


@contextmanager
def checkout(rev: str) -> Iterator[Path]:
    """``ssbg/`` and ``packs/`` of ``rev`` unpacked into a temporary folder (removed on exit)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev, "ssbg", "packs"],
                             capture_output=True, check=False)  # fmt: skip
    if archive.returncode != 0:
        raise SystemExit(f"abtest: cannot archive {rev!r}: {archive.stderr.decode(errors='replace').strip()}")
    with tempfile.TemporaryDirectory(prefix=f"ssbg-{rev}-") as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(tmp, filter="data")
        yield Path(tmp)


def side_env(tree: Path) -> dict[str, str]:
    """The environment of a process that imports ssbg from ``tree`` (bytecode caches written: warm from the
    second process on; one hash seed for both sides)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(tree)
    env["PYTHONHASHSEED"] = "0"
    return env


class Worker:
    """An ``ab_worker.py`` process importing ssbg from one tree."""

    def __init__(self, tree: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE / "ab_worker.py")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, env=side_env(tree), cwd=str(tree),
        )  # fmt: skip
        hello = self._read()
        if not str(hello.get("ssbg", "")).startswith(str(tree)):
            raise SystemExit(f"abtest: the worker for {tree} imported ssbg from {hello.get('ssbg')}")

    def _read(self) -> dict[str, object]:
        assert self.proc.stdout is not None  # noqa: S101 - a pipe we opened
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"abtest: worker exited (code {self.proc.wait()})")
        result: dict[str, object] = json.loads(line)
        return result

    def run(self, task: str, size: int) -> tuple[float, int]:
        assert self.proc.stdin is not None  # noqa: S101 - a pipe we opened
        self.proc.stdin.write(f"{task} {size}\n")
        self.proc.stdin.flush()
        answer = self._read()
        return float(answer["seconds"]), int(answer["items"])  # type: ignore[arg-type]

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


@dataclass
class Comparison:
    """Alternating passes of one task on both sides."""

    task: str
    size: int
    old: list[float] = field(default_factory=list)
    new: list[float] = field(default_factory=list)
    items: int = 0

    @property
    def ratio(self) -> float:
        """Median over rounds of old / new seconds: how many times faster the new side ran."""
        return statistics.median(o / n for o, n in zip(self.old, self.new, strict=True))

    def rate(self, side: str) -> float:
        """Items per second of the side's best pass."""
        return self.items / min(self.old if side == "old" else self.new)


@contextmanager
def workers(rev: str) -> Iterator[tuple[Worker, Worker]]:
    """An old worker (``rev``) and a new one (this checkout)."""
    with checkout(rev) as tree:
        old, new = Worker(tree), Worker(ROOT)
        try:
            yield old, new
        finally:
            old.close()
            new.close()


def compare(old: Worker, new: Worker, task: str, size: int, rounds: int) -> Comparison:
    result = Comparison(task, size)
    for r in range(rounds):
        order = ((old, result.old), (new, result.new)) if r % 2 == 0 else ((new, result.new), (old, result.old))
        for worker, times in order:
            seconds, result.items = worker.run(task, size)
            times.append(seconds)
    return result
