"""Corpus import throughput (problems/s, one core): read + trace + bind + admissibility over GSM8K train.

Each problem goes through the whole corpus path: the JSONL line is decoded,
mentions are extracted from the question, every calculator annotation is
parsed and grounded into a trace (ssbg.reading.readers.gsm8k), and the trace is
bound with every equation checked by admissibility and the question target
reconciled (ssbg.reading.choosing.bind_choosing).  Refused records count as problems too.

The one-off cost of importing the readers (``inflect`` builds its engine at
import) is printed apart; the first pass starts with empty lemma caches, the
best of the later passes is the steady state.
Run: ``python benchmarks/bench_import.py [--corpus PATH] [--passes N]``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from figures import figure, verdict

CORPUS = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpora" / "gsm8k" / "train.jsonl"


def one_pass(path: Path) -> tuple[int, int, int, float, float]:
    """(problems, imported, equations, seconds reading, seconds binding) of one pass."""
    from ssbg.reading.choosing import bind_choosing
    from ssbg.reading.readers.gsm8k import read_gsm8k

    problems = imported = equations = 0
    read_s = bind_s = 0.0
    clock = time.process_time
    start = clock()
    for record in read_gsm8k(path):
        got = clock()
        read_s += got - start
        problems += 1
        if record.payload is not None:
            imported += 1
            equations += len(bind_choosing(record.payload).equations)
        start = clock()
        bind_s += start - got
    return problems, imported, equations, read_s, bind_s


def reference_seconds() -> float:
    """Process time of a fixed pure-Python loop: how fast this machine runs Python, to compare runs across machines."""
    start = time.process_time()
    total = 0
    for i in range(5_000_000):
        total += i
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path, default=CORPUS.resolve())
    parser.add_argument("--passes", type=int, default=3)
    args = parser.parse_args()
    if not args.corpus.is_file():
        print(f"bench_import: no corpus at {args.corpus}; skipped")
        return
    start = time.process_time()
    from ssbg.reading.mentions import lemmatize

    lemmatize("apples")  # imports inflect and builds its engine
    setup = time.process_time() - start
    print(f"corpus import throughput over {args.corpus.name} (one core, process time)")
    reference = reference_seconds()
    print(f"machine reference: a 5,000,000-step Python loop takes {reference:.2f} s")
    print(f"one-off: importing the readers and the inflect engine took {setup:.2f} s")
    print(
        f"{'pass':>10} {'problems':>9} {'imported':>9} {'equations':>10} {'read s':>8} {'bind s':>8} {'problems/s':>11}"
    )
    best = None
    for n in range(1, max(1, args.passes) + 1):
        problems, imported, equations, read_s, bind_s = one_pass(args.corpus)
        rate = problems / (read_s + bind_s)
        label = "cold" if n == 1 else f"warm {n - 1}"
        print(f"{label:>10} {problems:9,} {imported:9,} {equations:10,} {read_s:8.2f} {bind_s:8.2f} {rate:11,.0f}")
        if n > 1:
            best = rate if best is None else max(best, rate)
    if best is not None:
        print(f"steady state: {best:,.0f} problems/s (target >= 2,000)")
        figure("import", f"{best:,.0f} problems/s (reference loop {reference:.2f} s)")
        verdict("import", best >= 2000)


if __name__ == "__main__":
    main()
