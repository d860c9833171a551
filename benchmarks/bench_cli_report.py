"""The GSM8K report as a user runs it: ``ssbg report gsm8k=.../train.jsonl --jobs 2``, start-up included.

``bench_report.py`` times :func:`ssbg.stats.report.write_report` inside a process that has imported
ssbg already; a user types the command and waits for the interpreter, the imports, the pool, the
run, the figures, the drill-down diagrams and every output written.  This times that: the command
as the README shows it (with ``-o`` to a temporary folder and ``--no-progress``, which only leaves
the bar out), each run a fresh ``python -m ssbg.cli`` process (what the ``ssbg`` script runs), and
beside it ``ssbg --version``, the start-up alone.  The figure is the median wall time of the rounds
(default 3), with the fastest and slowest, and the load average the first round started under.
Target: the in-process row's, <= 10 s.  Skipped when the development corpora are absent.

Run: ``python benchmarks/bench_cli_report.py [--rounds R] [--jobs N]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from figures import figure, verdict

ROOT = Path(__file__).resolve().parents[1]
CORPORA = (ROOT / ".." / "shared" / "corpora").resolve()
TARGET_S = 10.0
SSBG = (sys.executable, "-m", "ssbg.cli")  # this Python's ssbg, from this tree (PYTHONPATH below)


def wall(command: list[str]) -> float:
    """Seconds from the start of a fresh process to its end; the command must succeed."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT, env=env)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"bench_cli_report: {' '.join(command)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    train = CORPORA / "gsm8k" / "train.jsonl"
    if not train.is_file():
        print(f"GSM8K report from the command line: skipped, no corpus at {train}")
        return 0
    problems = sum(1 for line in train.open(encoding="utf-8") if line.strip())
    load = os.getloadavg()[0]
    startups = [wall([*SSBG, "--version"]) for _ in range(5)]
    runs: list[float] = []
    with tempfile.TemporaryDirectory(prefix="ssbg-bench-cli-") as tmp:
        for r in range(args.rounds):
            out = Path(tmp) / f"round{r}"
            runs.append(wall([*SSBG, "report", f"gsm8k={train}", "--jobs", str(args.jobs), "-o",
                              str(out / "report.html"), "--no-progress"]))
    median = statistics.median(runs)
    startup = statistics.median(startups)
    ok = median <= TARGET_S
    print(f"{'command':<60}{'median s':>10}{'min':>8}{'max':>8}")
    print(f"{'ssbg report gsm8k=.../train.jsonl --jobs ' + str(args.jobs):<60}{median:>10.1f}{min(runs):>8.1f}"
          f"{max(runs):>8.1f}")
    print(f"{'ssbg --version (start-up alone)':<60}{startup:>10.2f}{min(startups):>8.2f}{max(startups):>8.2f}")
    print()
    processes = f"{args.rounds} fresh process{'es' if args.rounds != 1 else ''}"
    figure("cli_report", f"`ssbg report gsm8k=.../train.jsonl --jobs {args.jobs}` {median:.1f} s wall for {problems:,} "
           f"problems, start-up, drawings and every output included (median of {processes}, "
           f"{min(runs):.1f} to {max(runs):.1f} s; start-up alone, `ssbg --version`, {startup:.2f} s; load "
           f"{load:.1f} when it began)")
    verdict("cli_report", ok)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
