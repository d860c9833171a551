"""One side of an old-against-new benchmark (see ``abtest.py``): times core workloads of whichever ssbg is importable.

The parent starts one worker per side with ``PYTHONPATH`` naming that side's source tree, then
sends it one command per line (``<task> <size>``); the worker answers one JSON line per command:
the CPU seconds one pass over the workload took and how many items it holds.  Workloads are built
once per (task, size) from this checkout's data, so both sides time the same inputs.

Tasks (every problem of a replica gets its own ``problem_id``, so nothing keyed by a problem's own
text can be served from a cache filled by an earlier copy):

- ``lanes N``: ``bind_math_problem_graph`` over the lanes of ``data/lanes`` replicated to N problems;
- ``graphs N``: the same over the hand-written graphs of ``benchmarks/graphs.jsonl``;
- ``check N``: ``check_operation`` on the first N unit pairs of ``bench_units.py``, three kinds each (add,
  multiply, divide), a refusal caught as the caller would;
- ``trace N`` / ``trace_refused N``: ``bind_choosing`` of one trace of N chained steps (each adds a mention
  to the step before), admitted throughout, or refused at its first step so that every later step
  inherits the refusal;
- ``chain N``: ``bind_math_problem_graph`` of one problem of N chained operations on one holding.

Run by ``abtest.py``; ``python ab_worker.py --once <task> <size> <passes>`` runs a task ``passes`` times
and exits (for callgrind: the difference of two counts is the cost of the extra passes).
"""

from __future__ import annotations

import contextlib
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LANES = HERE.parent / "data" / "lanes"
GRAPHS = HERE / "graphs.jsonl"


def _records(paths: list[Path]) -> list[dict[str, Any]]:
    records = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                data = json.loads(line)
                data.pop("expected", None)  # a lane's expected shape is not part of the problem
                records.append(data)
    return records


def _replicated(records: list[dict[str, Any]], size: int) -> list[Any]:
    from ssbg.problem import MathProblemGraph

    out = []
    for n in range(size):
        data = dict(records[n % len(records)])
        data["problem_id"] = f"{data.get('problem_id', 'p')}-r{n // len(records)}"
        out.append(MathProblemGraph.from_dict(data))
    return out


def _bind_all(problems: list[Any]) -> Callable[[], int]:
    from ssbg.adapter import bind_math_problem_graph

    def run() -> int:
        for problem in problems:
            bind_math_problem_graph(problem)
        return len(problems)

    return run


def _checks(size: int) -> Callable[[], int]:
    """The check_operation row of ``bench_units.py``: its unit texts, its seeded pairs."""
    from bench_units import UNITS, draw_pairs

    from ssbg.admissibility import check_operation
    from ssbg.errors import AdmissibilityError

    pairs = [(UNITS[i][0], UNITS[j][0]) for i, j in draw_pairs(size)]

    def run() -> int:
        for a, b in pairs:
            for kind in ("add", "multiply", "divide"):
                with contextlib.suppress(AdmissibilityError):
                    check_operation(kind, [a, b])
        return 3 * len(pairs)

    return run


def chained_trace(steps: int, *, refused: bool = False) -> Any:
    """A trace of ``steps`` steps, each adding the first mention to the step before (refused: the first
    step adds dollars to hours, and every later step inherits that refusal)."""
    from ssbg.trace import Trace

    second = "3 hours" if refused else "3 dollars"
    text = f"Ann has 5 dollars and {second}. How many dollars does Ann have?"
    mentions = [
        {"start": 8, "end": 17, "text": "5 dollars", "value": 5, "unit": "dollars"},
        {"start": 22, "end": 22 + len(second), "text": second, "value": 3, "unit": second.split()[1]},
    ]
    chain = [{"op": "add", "operands": [{"mention": 0}, {"mention": 1}]}]
    chain += [{"op": "add", "operands": [{"step": i - 1}, {"mention": 0}]} for i in range(1, steps)]
    return Trace.from_dict({"problem_id": f"chain-{steps}", "corpus": "bench", "text": text, "mentions": mentions,
                            "steps": chain})  # fmt: skip


def _bind_trace(trace: Any) -> Callable[[], int]:
    try:
        from ssbg.reading.choosing import bind_choosing
    except ImportError:  # a base tree before ADR 0035, whose bind_trace reconsidered as bind_choosing does
        from ssbg.trace import bind_trace as bind_choosing

    def run() -> int:
        bind_choosing(trace)
        return len(trace.steps)

    return run


def _chained_problem(operations: int) -> list[Any]:
    kinds = ({"kind": "add", "operand": {"value": 3, "unit": "dollars"}},
             {"kind": "subtract", "operand": {"value": 2, "unit": "dollars"}})  # fmt: skip
    data = {
        "problem_id": f"chain-{operations}",
        "entities": ["Ann"],
        "initial_state": [{"entity": "Ann", "quantity": {"value": 50, "unit": "dollars"}}],
        "operations": [{"actor": "Ann", **kinds[i % 2]} for i in range(operations)],
        "unknown": {"entity": "Ann", "unit": "dollars"},
    }
    return _replicated([data], 1)


def workload(task: str, size: int) -> Callable[[], int]:
    """The timed pass of one task (built once; the caller times calls of it)."""
    if task == "lanes":
        return _bind_all(_replicated(_records(sorted(LANES.glob("*.jsonl"))), size))
    if task == "graphs":
        return _bind_all(_replicated(_records([GRAPHS]), size))
    if task == "check":
        return _checks(size)
    if task in ("trace", "trace_refused"):
        return _bind_trace(chained_trace(size, refused=task == "trace_refused"))
    if task == "chain":
        return _bind_all(_chained_problem(size))
    raise SystemExit(f"ab_worker: unknown task {task!r}")


def serve() -> None:
    """Answer ``<task> <size>`` lines with ``{"seconds": s, "items": n}`` until stdin closes."""
    import ssbg

    print(json.dumps({"ssbg": ssbg.__file__}), flush=True)
    built: dict[tuple[str, int], Callable[[], int]] = {}
    for line in sys.stdin:
        task, size = line.split()
        run = built.get((task, int(size)))
        if run is None:
            run = built[task, int(size)] = workload(task, int(size))
            run()  # warm: the pack is read, memos filled as a long run has them
        start = time.process_time()
        items = run()
        print(json.dumps({"seconds": time.process_time() - start, "items": items}), flush=True)


def once(task: str, size: int, passes: int) -> None:
    run = workload(task, size)
    for _ in range(passes):
        run()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--once"]:
        once(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        serve()
