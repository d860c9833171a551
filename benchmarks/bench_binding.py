"""MathProblemGraph binding throughput (problems/s, one core): the base commit against this checkout, in one run.

Each problem goes through the whole core: bind_math_problem_graph (symbols, facts, state
threading, admissibility of every equation, the question target).  Two problem sets: the lanes
of ``data/lanes`` and the hand-written graphs of ``benchmarks/graphs.jsonl`` (every operation
kind, admitted and refused, every question form), each replicated to ``--problems`` problems
with a distinct ``problem_id`` per copy.  The old side (``abtest.BASELINE`` or
``SSBG_BENCH_BASE``) and the new one run in separate processes and take turns pass by pass;
the ratio is the median over the rounds (ADR 0015).
Run: ``python benchmarks/bench_binding.py [--problems N] [--rounds R]``.
"""

from __future__ import annotations

import argparse

import abtest
from bench_import import reference_seconds  # one machine-speed yardstick for every benchmark
from figures import figure, rate, verdict

TARGET = 1.5  # issue 28: at least 1.5x main before it (abtest.BASELINE) on both sets, per problem



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--problems", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    rev = abtest.base_revision()
    rows = []
    with abtest.workers(rev) as (old, new):
        for task, label in (("lanes", "lanes (data/lanes)"), ("graphs", "hand-written graphs")):
            rows.append((label, abtest.compare(old, new, task, args.problems, args.rounds)))
    print(f"binding throughput, {args.problems:,} problems per pass, {args.rounds} alternating rounds:"
          f" old = {abtest.short(rev)}, new = this checkout")  # fmt: skip
    print(f"{'problem set':24} {'old problems/s':>15} {'new problems/s':>15} {'new/old':>8} {'target':>7}")
    for label, c in rows:
        print(f"{label:24} {c.rate('old'):15,.0f} {c.rate('new'):15,.0f} {c.ratio:7.2f}x {TARGET:6.1f}x")
    reference = reference_seconds()
    print(f"machine reference: a 5M-step Python loop takes {reference:.2f} s of CPU on this core now")
    (_, lanes), (_, graphs) = rows
    figure("binding", f"lanes {rate(lanes.rate('new'))} problems/s, {lanes.ratio:.2f}x {abtest.short(rev)} in the"
                      f" same run ({rate(lanes.rate('old'))}/s); hand-written graphs {rate(graphs.rate('new'))}/s,"
                      f" {graphs.ratio:.2f}x ({rate(graphs.rate('old'))}/s); reference loop {reference:.2f} s")
    verdict("binding", min(lanes.ratio, graphs.ratio) >= TARGET)


if __name__ == "__main__":
    main()
