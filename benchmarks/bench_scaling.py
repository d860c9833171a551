"""Binding time per step over chains of 1 to 65,536 steps: linear work shows as a flat column.

Three chains (``ab_worker.py`` builds them): a trace whose every step adds a mention to the step
before, admitted throughout; the same trace refused at its first step, so that every later step
inherits the refusal (``EquationStamper``'s refusal propagation: issue 17 measured 436 s for 64k of
them before issue 21); and a MathProblemGraph of chained operations on one holding.  Each figure is
the CPU time of one bind divided by its steps (small chains are bound repeatedly, at least 4,096 steps
per figure; best of three).  The last column binds the refused chain with the base commit
(``abtest.BASELINE`` or ``SSBG_BENCH_BASE``) up to 8k steps, where its quadratic growth is plain.

The binder's own time per step is flat from 1k steps on (within this machine's noise and the memory
hierarchy's): the column "trace less GC vs 1k".  From about 8k steps CPython's full garbage
collections, which walk every object alive (the trace's own and the graph's), add a share that grows
until it is amortized constant per object (it levels off past 100k steps; ADR 0015): the column
"of it GC".
Run: ``python benchmarks/bench_scaling.py [--max-steps N]``.
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable

import abtest
from ab_worker import workload
from figures import figure, verdict

OLD_MAX = 8192


class _Collections:
    """CPU seconds spent in the garbage collector (``gc.callbacks``) while it is installed."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._start = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.process_time()
        else:
            self.seconds += time.process_time() - self._start


def per_step(run: Callable[[], int], steps: int) -> tuple[float, float]:
    """Microseconds of CPU per step, and of them the garbage collector's: the best of three passes, each at
    least 4,096 steps bound."""
    copies = max(1, 4096 // steps)
    best = (float("inf"), 0.0)
    for _ in range(3):
        collections = _Collections()
        gc.callbacks.append(collections)
        start = time.process_time()
        try:
            for _ in range(copies):
                run()
        finally:
            gc.callbacks.remove(collections)
        best = min(best, (time.process_time() - start, collections.seconds))
    return best[0] / (copies * steps) * 1e6, best[1] / (copies * steps) * 1e6


def label(steps: int) -> str:
    return f"{steps // 1024}k" if steps >= 1024 else str(steps)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max-steps", type=int, default=65_536)
    args = parser.parse_args()
    sizes = [1 << k for k in range(args.max_steps.bit_length()) if 1 << k <= args.max_steps]
    rev = abtest.base_revision()
    print(f"binding time per step (us of CPU) of chains of n steps; old = {abtest.short(rev)}, refused chain,"
          f" up to {OLD_MAX:,} steps")  # fmt: skip
    print(f"{'steps':>6} {'trace':>8} {'of it GC':>9} {'refused':>8} {'graph':>8} {'trace less GC vs 1k':>20}"
          f" {'old refused':>12}")  # fmt: skip
    at_1k = None
    seen: dict[int, tuple[float, float, str]] = {}
    with abtest.workers(rev) as (old, _new):
        for n in sizes:
            trace, collecting = per_step(workload("trace", n), n)
            refused, _ = per_step(workload("trace_refused", n), n)
            graph, _ = per_step(workload("chain", n), n)
            at_1k = trace - collecting if n == 1024 else at_1k
            versus = f"{(trace - collecting) / at_1k:19.2f}x" if at_1k is not None else f"{'':20}"
            before = ""
            if 1024 <= n <= OLD_MAX:
                seconds, steps = old.run("trace_refused", n)
                before = f"{seconds / steps * 1e6:12.1f}"
            print(f"{label(n):>6} {trace:8.2f} {collecting:9.2f} {refused:8.2f} {graph:8.2f} {versus} {before}",
                  flush=True)  # fmt: skip
            seen[n] = (trace, collecting, before.strip())
    if 1024 in seen and sizes[-1] > 1024:
        last = sizes[-1]
        (trace_1k, gc_1k, old_1k), (trace_last, gc_last, _) = seen[1024], seen[last]
        figure("scaling", f"{trace_1k:.1f} us per step at 1k steps, {trace_last:.1f} at {label(last)}, of which the"
                          f" collector {gc_1k:.1f} and {gc_last:.1f}; the binder's own time"
                          f" {(trace_last - gc_last) / (trace_1k - gc_1k):.2f}x from 1k to {label(last)}"
                          f" ({abtest.short(rev)}, refused chain at 1k: {old_1k} us per step)")
        verdict("scaling", (trace_last - gc_last) / (trace_1k - gc_1k) <= 2)


if __name__ == "__main__":
    main()
