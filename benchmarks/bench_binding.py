"""MathProblemGraph binding throughput (problems/s, one core) over the lanes replicated to >= 10,000 problems.

Each problem goes through the whole core: bind_math_problem_graph (symbols,
facts, state threading, admissibility of every equation, the question target).
Run: ``python benchmarks/bench_binding.py [--problems N]``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from ssbg.adapter import bind_math_problem_graph
from ssbg.problem import MathProblemGraph

LANES = Path(__file__).resolve().parents[1] / "data" / "lanes"


def load_lane_problems() -> list[MathProblemGraph]:
    problems = []
    for path in sorted(LANES.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                data = json.loads(line)
                data.pop("expected", None)
                problems.append(MathProblemGraph.from_dict(data))
    return problems


def reference_seconds() -> float:
    """CPU seconds of a fixed 5,000,000-step Python loop: how fast this core is right now."""
    start = time.process_time()
    total = 0
    for i in range(5_000_000):
        total += i
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--problems", type=int, default=10_000)
    args = parser.parse_args()
    lanes = load_lane_problems()
    corpus = (lanes * (args.problems // len(lanes) + 1))[: args.problems]
    for g in lanes:
        bind_math_problem_graph(g)  # warm the pack cache
    best = float("inf")
    equations = 0
    for _ in range(3):
        start = time.process_time()
        equations = sum(len(bind_math_problem_graph(g).equations) for g in corpus)
        best = min(best, time.process_time() - start)
    print(f"binding throughput: {len(lanes)} lane problems replicated to {len(corpus):,}")
    print(f"{'problems/s':>12} {'equations/s':>12} {'seconds':>8}")
    print(f"{len(corpus) / best:12,.0f} {equations / best:12,.0f} {best:8.3f}")
    print(f"machine reference: a 5M-step Python loop takes {reference_seconds():.2f} s of CPU on this core now")


if __name__ == "__main__":
    main()
