"""``--jobs 2`` against ``--jobs 1``: ``ssbg check-solutions`` and ``ssbg report`` as a user runs them.

Each run is a fresh ``ssbg`` process (start-up, the pool, the outputs written), one job count after
the other in alternating order (1, 2; then 2, 1; ...), so both see the same load.  The ratio is the
median over the rounds of ``--jobs 1`` wall seconds / ``--jobs 2`` wall seconds of adjacent runs (above 1:
two jobs are faster); the CPU seconds of each run (its process and its workers) say what the second
worker costs in work (start-up, pickling, cold caches).  The outputs of both job counts are compared
byte for byte.

Inputs (``--corpora``, default ``../shared/corpora``):

- ``dev``: the dev file of model solutions (660 records of a question, four solvers' solutions and the
  gold reference: 3,300 solutions), the command of the README;
- ``flat``: the same solutions one per record (a ``solver`` field; the gold solution a solver of its
  own): 3,300 records in which each question's solutions are adjacent, to be kept together in one batch;
- ``report``: ``ssbg report`` over MAWPS (2,373 problems).

Then, in this process, what a worker's start costs and what crosses the pipe: the pool's start and its
warm-up, and the pickled bytes and the pickling time of a batch of records and of its verdict rows.
Run: ``python benchmarks/bench_jobs.py [--rounds R] [--only dev,flat,report]``.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import pickle
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from figures import figure, verdict

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"
SOLVERS = ("6b_finetuning", "6b_verification", "175b_finetuning", "175b_verification")
TARGET = 1.6  # issue 28: --jobs 2 at least 1.6x --jobs 1 on the dev file (two cores)


SSBG = (sys.executable, "-m", "ssbg.cli")  # this Python's ssbg (PYTHONPATH may name another tree's)


def dev_command(dev: Path, out: Path, jobs: int) -> list[str]:
    keys = [arg for key in SOLVERS for arg in ("--solver-key", key)]
    return [*SSBG, "check-solutions", str(dev), "--question-field", "question", "--solution-field", "solution",
            "--label-field", "is_correct", "--id-field", "test_index", *keys, "--reference-field", "ground_truth",
            "-o", str(out / "verdicts.csv"), "--jobs", str(jobs), "--no-progress"]  # fmt: skip


def write_flat(dev: Path, path: Path) -> int:
    """The dev file's solutions one per record, each question's solutions adjacent; the record count."""
    count = 0
    with dev.open(encoding="utf-8") as lines, path.open("w", encoding="utf-8") as out:
        for line in lines:
            record = json.loads(line)
            solutions = [(key, record[key]["solution"], record[key]["is_correct"]) for key in SOLVERS]
            solutions.append(("gold", record["ground_truth"], True))
            for solver, solution, label in solutions:
                row = {"id": f"{record['test_index']}-{solver}", "question": record["question"], "solver": solver,
                       "solution": solution, "is_correct": label}  # fmt: skip
                out.write(json.dumps(row) + "\n")
                count += 1
    return count


def flat_command(flat: Path, out: Path, jobs: int) -> list[str]:
    return [*SSBG, "check-solutions", str(flat), "--question-field", "question", "--solution-field", "solution",
            "--label-field", "is_correct", "--id-field", "id", "--solver-field", "solver",
            "-o", str(out / "verdicts.csv"), "--jobs", str(jobs), "--no-progress"]  # fmt: skip


def report_command(corpus: Path, out: Path, jobs: int) -> list[str]:
    return [*SSBG, "report", f"mawps={corpus}", "-o", str(out / "report.html"), "--csv-dir", str(out / "tables"),
            "--jobs", str(jobs), "--no-progress", "--no-diagrams"]  # fmt: skip


TREE = [ROOT]  # the source tree whose ssbg the commands run (--tree)


def timed(command: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its children) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=TREE[0],
                            env={**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(TREE[0])})  # fmt: skip
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode not in (0, 1):
        raise SystemExit(f"bench_jobs: {' '.join(command)} failed ({result.returncode}):\n{result.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def same_outputs(a: Path, b: Path) -> bool:
    """Whether two output folders hold the same files with the same bytes (the HTML reports aside: they name
    their own run)."""
    files_a = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file() and p.suffix != ".html")
    files_b = sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file() and p.suffix != ".html")
    return files_a == files_b and all(filecmp.cmp(a / f, b / f, shallow=False) for f in files_a)


@dataclass(frozen=True)
class Row:
    name: str
    short: str
    wall_1: float  # best run
    wall_2: float
    cpu_1: float  # median run, the process and its workers
    cpu_2: float
    ratio: float  # median of adjacent runs, jobs 1 / jobs 2
    identical: bool


def compare(name: str, short: str, build: Callable[[Path, int], list[str]], rounds: int) -> Row:
    """Alternating rounds of ``--jobs 1`` and ``--jobs 2``: their walls, CPU and the median ratio."""
    walls: dict[int, list[float]] = {1: [], 2: []}
    cpus: dict[int, list[float]] = {1: [], 2: []}
    with tempfile.TemporaryDirectory() as tmp:
        outs = {jobs: Path(tmp) / f"jobs{jobs}" for jobs in (1, 2)}
        for r in range(rounds):
            for jobs in (1, 2) if r % 2 == 0 else (2, 1):
                outs[jobs].mkdir(exist_ok=True)
                wall, cpu = timed(build(outs[jobs], jobs))
                walls[jobs].append(wall)
                cpus[jobs].append(cpu)
        identical = same_outputs(outs[1], outs[2])
    ratio = statistics.median(one / two for one, two in zip(walls[1], walls[2], strict=True))
    return Row(name, short, min(walls[1]), min(walls[2]), statistics.median(cpus[1]), statistics.median(cpus[2]),
               ratio, identical)


def _size(batch: list[object], full_keys: frozenset[tuple[str, str, str]] = frozenset()) -> int:
    return len(batch)


def pipe_costs(dev: Path) -> str:
    """What crosses the pipe for one batch of the dev file, and what starting a warm pool costs."""
    import ssbg.stats.batch as pool_module
    from ssbg.checking.batch import Fields, _CheckWork
    from ssbg.reading.readers.tabular import scan_source

    fields = Fields("question", "solution", "test_index", "is_correct", "ground_truth", None, SOLVERS)
    records = list(scan_source(dev))[:32]
    work = _CheckWork(fields, None)
    start = time.process_time()
    warm_up = getattr(pool_module, "_warm", None)  # absent from a base tree before issue 28
    if warm_up is not None:
        warm_up(work)
    warm = time.process_time() - start
    start = time.perf_counter()
    sent = pickle.dumps((work, records))
    rows = work(records)
    back = pickle.dumps(rows)
    pickle.loads(back)  # noqa: S301 - the bytes pickled just above
    pickling = time.perf_counter() - start
    start = time.perf_counter()
    for _ in pool_module._pool_chunks(iter([records[:1], records[1:2]]), _size, 2, frozenset):
        pass
    pool = time.perf_counter() - start
    return (f"a batch of 32 dev records: {len(sent) / 1024:.0f} KiB sent, {len(back) / 1024:.0f} KiB of rows back"
            f" (pickled, checked and unpickled in {pickling:.2f} s wall); warming a worker's caches in the parent"
            f" before the fork {warm:.2f} s CPU; a pool of 2 started, two tiny batches, shut down: {pool:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpora", type=Path, default=CORPORA)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--only", default="dev,flat,report")
    parser.add_argument("--tree", type=Path, default=ROOT, help="run another tree's ssbg (a checkout of a base)")
    args = parser.parse_args()
    TREE[0] = args.tree.resolve()
    dev = args.corpora / "gsm8k_model_solutions" / "dev.jsonl"
    mawps = args.corpora / "mawps" / "mwptoolkit" / "mawps_source.json"
    if not dev.is_file():
        print(f"bench_jobs: no dev file at {dev}; skipped")
        return
    wanted = set(args.only.split(","))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        flat = Path(tmp) / "flat.jsonl"
        flat_records = write_flat(dev, flat)
        if "dev" in wanted:
            rows.append(compare("check-solutions, dev file (660 records, 3,300 solutions)", "dev file",
                                lambda out, jobs: dev_command(dev, out, jobs), args.rounds))  # fmt: skip
        if "flat" in wanted:
            rows.append(compare(f"check-solutions, one solution per record ({flat_records:,} records)", "one a record",
                                lambda out, jobs: flat_command(flat, out, jobs), args.rounds))  # fmt: skip
        if "report" in wanted and mawps.is_file():
            rows.append(compare("report, MAWPS (2,373 problems)", "report of MAWPS",
                                lambda out, jobs: report_command(mawps, out, jobs), args.rounds))  # fmt: skip
    load = os.getloadavg()[0]
    print(f"--jobs 2 against --jobs 1, fresh processes, {args.rounds} alternating rounds (load average {load:.1f}"
          f" on {os.cpu_count()} cores)")  # fmt: skip
    print(f"{'workload':58} {'jobs 1 s':>9} {'jobs 2 s':>9} {'CPU 1 s':>8} {'CPU 2 s':>8} {'1/2':>6} {'same':>5}")
    for row in rows:
        print(f"{row.name:58} {row.wall_1:9.2f} {row.wall_2:9.2f} {row.cpu_1:8.2f} {row.cpu_2:8.2f}"
              f" {row.ratio:5.2f}x {'yes' if row.identical else 'NO':>5}")
    print(f"(wall: best run; CPU: median, the process and its workers; 1/2: median ratio of adjacent runs;"
          f" target {TARGET}x on the dev file with two free cores)")  # fmt: skip
    print(pipe_costs(dev))
    if rows:
        figure("jobs", "; ".join(f"{row.short} {row.ratio:.2f}x ({row.wall_1:.1f} s / {row.wall_2:.1f} s; outputs"
                                 f" {'identical' if row.identical else 'DIFFERENT'})" for row in rows)
               + f"; load average {load:.1f} on {os.cpu_count()} cores")
        dev_ok = all(row.ratio >= TARGET for row in rows if row.short == "dev file")
        verdict("jobs", dev_ok and all(row.ratio >= 1 and row.identical for row in rows))


if __name__ == "__main__":
    main()
