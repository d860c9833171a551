"""Checking throughput: solutions/s through ``check_solution`` (one core), and the dev file through the command.

1. ``ssbg.check_solution`` over the 3,300 solutions of the dev file of model solutions (2,640
   model-written, 660 gold), one core, process time, in a warm process: the readers imported,
   the inflect engine built and the lemma caches filled by a first pass (``cold``); the best of
   the later passes is the steady state.  Each pass starts with an empty question cache
   (``clear_question_cache``), so every question is read once per pass as a new one would be;
   each question has five solutions, which share its reading.  Target: >= 600 solutions/s.
2. ``ssbg check-solutions`` over the whole file with ``--jobs 2``, as a user runs it (a fresh
   process, wall time, start-up included): the four solvers, the gold solution as the reference,
   the scores.  Target: <= 10 s.

Run: ``python benchmarks/bench_checking.py [--dev PATH] [--passes N] [--skip-command]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_import import reference_seconds  # one machine-speed yardstick for every benchmark
from figures import figure, verdict

REPO = Path(__file__).resolve().parents[1]
DEV = (REPO / ".." / "shared" / "corpora" / "gsm8k_model_solutions" / "dev.jsonl").resolve()
SOLVERS = ("6b_finetuning", "6b_verification", "175b_finetuning", "175b_verification")
RATE_TARGET = 600.0
COMMAND_TARGET_S = 10.0


def solutions(path: Path) -> list[tuple[str, str]]:
    """(question, solution) of every model and gold solution, in file order."""
    out: list[tuple[str, str]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        out.extend((record["question"], record[s]["solution"]) for s in SOLVERS)
        out.append((record["question"], record["ground_truth"]))
    return out


def one_pass(pairs: list[tuple[str, str]]) -> tuple[float, dict[str, int]]:
    from ssbg.checking import check_solution
    from ssbg.reading.readers.solutions import clear_question_cache

    clear_question_cache()
    counts: dict[str, int] = {}
    start = time.process_time()
    for question, solution in pairs:
        status = check_solution(question, solution).status
        counts[status] = counts.get(status, 0) + 1
    return time.process_time() - start, counts



def command_seconds(path: Path, jobs: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        args = [sys.executable, "-m", "ssbg.cli", "check-solutions", str(path), "--question-field", "question",
                "--solution-field", "solution", "--label-field", "is_correct", "--id-field", "test_index",
                "--solver-key", ",".join(SOLVERS), "--reference-field", "ground_truth", "--no-progress",
                "-o", str(Path(tmp) / "verdicts.csv"), "--jobs", str(jobs)]
        start = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True, cwd=REPO)
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dev", type=Path, default=DEV)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--skip-command", action="store_true")
    args = parser.parse_args()
    if not args.dev.is_file():
        print(f"bench_checking: no dev file at {args.dev}; skipped")
        return
    pairs = solutions(args.dev)
    print(f"checking throughput over {args.dev.name}: {len(pairs):,} solutions (one core, process time)")
    reference = reference_seconds()
    print(f"machine reference: a 5,000,000-step Python loop takes {reference:.2f} s")
    start = time.process_time()
    from ssbg.reading.mentions import lemmatize

    lemmatize("apples")  # imports the readers and builds the inflect engine
    print(f"one-off: importing the checker and the inflect engine took {time.process_time() - start:.2f} s")
    print(f"{'pass':>8} {'seconds':>8} {'solutions/s':>12}  verdicts")
    best = None
    for n in range(1, max(2, args.passes) + 1):
        seconds, counts = one_pass(pairs)
        rate = len(pairs) / seconds
        label = "cold" if n == 1 else f"warm {n - 1}"
        shown = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        print(f"{label:>8} {seconds:8.2f} {rate:12,.0f}  {shown}")
        if n > 1:
            best = rate if best is None else max(best, rate)
    print(f"steady state: {best:,.0f} solutions/s (target >= {RATE_TARGET:,.0f})")
    figure("checking", f"{best:,.0f} solutions/s over the {len(pairs):,} of the dev file (reference loop"
                       f" {reference:.2f} s)")
    if args.skip_command:
        verdict("checking", best is not None and best >= RATE_TARGET)
        return
    walls = {}
    for jobs in (1, 2):
        seconds = walls[jobs] = command_seconds(args.dev, jobs)
        target = f" (target <= {COMMAND_TARGET_S:.0f} s)" if jobs == 2 else ""
        print(f"ssbg check-solutions, the whole file with the reference, --jobs {jobs}: {seconds:.2f} s wall{target}")
    figure("check_solutions", f"the whole file with the reference through `ssbg check-solutions` in {walls[2]:.1f} s"
                              f" wall with --jobs 2, {walls[1]:.1f} s with --jobs 1")
    verdict("checking", best is not None and best >= RATE_TARGET and walls[2] <= COMMAND_TARGET_S)


if __name__ == "__main__":
    main()
