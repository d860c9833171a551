"""Corpus report benchmarks: GSM8K end to end, and streaming a generated corpus at growing sizes.

1. The report over GSM8K train (7,473 problems) with 2 jobs: wall time of
   :func:`ssbg.stats.report.write_report` (read, bind, check, tables, plots,
   drill-down diagrams, CSV/Parquet, HTML), and of its read-bind-check part.
   Target: <= 10 s.  Skipped when the development corpora are absent.
2. Streaming a generated JSONL of MathProblemGraphs (written to a temporary
   folder, never into the repository) at 100k, 300k and 1M problems with 2
   jobs: wall time, time per problem, and the peak resident memory of the
   driver process and of the largest worker.  Target: peak < 1 GiB and time
   linear in size.

Each measurement runs in a fresh process so that peak memory is its own.
Run: ``python benchmarks/bench_report.py [--sizes 100000 300000 1000000] [--jobs 2] [--skip-gsm8k]``.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from figures import figure, verdict

REPO = Path(__file__).resolve().parents[1]
CORPORA = (REPO / ".." / "shared" / "corpora").resolve()
GSM8K_TARGET_S = 10.0
MEMORY_TARGET_MIB = 1024.0

KNOWN = ("dollars", "hours", "minutes", "feet", "miles", "pounds", "cups", "days", "boxes", "people")
OPEN = ("apples", "marbles", "pencils", "stickers", "cookies", "books", "cards", "shells", "toys", "eggs",
        "flowers", "balloons", "crayons", "candies", "seashells", "tickets", "pages", "songs", "bricks", "stamps")
NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo")


def _operation(rng: random.Random, actor: str, other: str, unit: str) -> tuple[dict[str, object], str]:
    kind = rng.choice(("add", "subtract", "add", "transfer", "multiply", "divide", "apply_rate", "unit_partition",
                       "fraction_portion", "compare_additive"))
    value = rng.randint(1, 60)
    if kind in ("add", "subtract"):
        return {"actor": actor, "kind": kind, "operand": {"value": value, "unit": unit}}, unit
    if kind == "transfer":
        return {"actor": actor, "kind": kind, "operand": {"value": value, "unit": unit}, "target": other}, unit
    if kind in ("multiply", "divide"):
        return {"actor": actor, "kind": kind, "operand": {"value": rng.randint(2, 9), "unit": "item"}}, unit
    if kind == "apply_rate":
        num = rng.choice(KNOWN + OPEN)
        if num == unit:
            num = "dollars" if unit != "dollars" else "cents"
        return {"actor": actor, "kind": kind,
                "operand": {"value": value, "numerator_unit": num, "denominator_unit": unit}}, num
    if kind == "unit_partition":
        result = rng.choice(("boxes", "bags", "packs", "crates"))
        if result == unit:
            result = "piles"
        return {"actor": actor, "kind": kind, "operand": {"value": rng.randint(2, 12), "unit": unit,
                                                          "result_unit": result}}, result
    if kind == "fraction_portion":
        return {"actor": actor, "kind": kind, "operand": {"numerator": 1, "denominator": rng.randint(2, 5),
                                                          "referent": "them"}}, unit
    return {"actor": actor, "kind": kind, "operand": {"reference_actor": other, "direction": "more",
                                                      "delta": {"value": value, "unit": unit}}}, unit


def generate_problem(rng: random.Random, i: int) -> dict[str, object]:
    """One MathProblemGraph dict with text: 1-4 operations over known and open units."""
    actor, other = rng.sample(NAMES, 2)
    unit = rng.choice(KNOWN + OPEN)
    ops = []
    current = unit
    for _ in range(rng.randint(1, 4)):
        op, current = _operation(rng, actor, other, current)
        ops.append(op)
    start = rng.randint(1, 99)
    return {
        "problem_id": f"gen-{i:07d}",
        "text": f"{actor} has {start} {unit}. {other} helps. How many {current} does {actor} have?",
        "entities": [actor, other],
        "initial_state": [{"entity": actor, "quantity": {"value": start, "unit": unit}},
                          {"entity": other, "quantity": {"value": rng.randint(1, 99), "unit": unit}}],
        "operations": ops,
        "unknown": {"entity": actor, "unit": current},
    }


def generate_jsonl(path: Path, n: int, seed: int = 20240601) -> None:
    """Write ``n`` generated problems, one per line, with a bad line every 10,007 lines."""
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as f:
        for i in range(n):
            f.write(json.dumps(generate_problem(rng, i), separators=(",", ":")))
            f.write("\n")
            if i % 10_007 == 5:
                f.write("{this line is not JSON\n")


_CHILD = r"""
import json, multiprocessing, resource, sys, threading, time
import ssbg.stats.report as report
spec, out, jobs = sys.argv[1], sys.argv[2], int(sys.argv[3])
peaks = {}
done = threading.Event()
stamps = {}

def watch():  # each worker's own peak resident set (VmHWM), sampled while the pool lives
    while not done.is_set():
        for child in multiprocessing.active_children():
            try:
                with open(f"/proc/{child.pid}/status") as f:
                    for line in f:
                        if line.startswith("VmHWM"):
                            peaks[child.pid] = max(peaks.get(child.pid, 0), int(line.split()[1]))
            except OSError:
                pass
        time.sleep(0.2)

run_batch = report.run_batch
def timed_batch(*args, **kwargs):  # the read-bind-check part of write_report, timed
    try:
        return run_batch(*args, **kwargs)
    finally:
        stamps["bound"] = time.perf_counter()
        done.set()
report.run_batch = timed_batch

threading.Thread(target=watch, daemon=True).start()
start = time.perf_counter()
result = report.write_report([spec], out + "/report.html", csv_dir=out + "/tables", jobs=jobs, progress=False)
elapsed = time.perf_counter() - start
print(json.dumps({
    "seconds": elapsed,
    "bind_seconds": stamps["bound"] - start,
    "problems": len(result.batch.problems),
    "equations": len(result.batch.equations),
    "driver_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "worker_mib": max(peaks.values(), default=0) / 1024,
}))
"""


def measure(spec: str, jobs: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="ssbg-bench-out-") as out:
        done = subprocess.run([sys.executable, "-c", _CHILD, spec, out, str(jobs)], check=True,
                              capture_output=True, text=True, cwd=REPO)
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="*", default=[100_000, 300_000, 1_000_000])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--skip-gsm8k", action="store_true")
    args = parser.parse_args()
    failures = 0

    gsm8k = CORPORA / "gsm8k" / "train.jsonl"
    if args.skip_gsm8k:
        print("GSM8K end to end: skipped (--skip-gsm8k)")
    elif not gsm8k.is_file():
        print(f"GSM8K end to end: skipped, no corpus at {gsm8k}")
    else:
        r = measure(f"gsm8k={gsm8k}", args.jobs)
        ok = r["seconds"] <= GSM8K_TARGET_S
        failures += not ok
        print(f"{'benchmark':<28}{'problems':>10}{'equations':>11}{'seconds':>9}{'of which bind':>15}"
              f"{'target':>9}{'driver MiB':>12}  ok")
        print(f"{'GSM8K train report, ' + str(args.jobs) + ' jobs':<28}{r['problems']:>10,}{r['equations']:>11,}"
              f"{r['seconds']:>9.2f}{r['bind_seconds']:>15.2f}{'<= 10':>9}{r['driver_mib']:>12.0f}"
              f"  {'yes' if ok else 'NO'}")
        print()
        figure("report", f"{r['seconds']:.1f} s for {r['problems']:,} problems with {args.jobs} jobs"
                         f" (of which binding {r['bind_seconds']:.1f} s), driver {r['driver_mib']:.0f} MiB")
        verdict("report", ok)

    if args.sizes:
        print(f"{'streaming generated JSONL':<28}{'problems':>10}{'equations':>11}{'seconds':>9}{'us/problem':>11}"
              f"{'driver MiB':>12}{'worker MiB':>12}  ok")
        per: list[float] = []
        too_big = 0  # the memory target's own count: the GSM8K time above must not make it say "no"
        with tempfile.TemporaryDirectory(prefix="ssbg-bench-") as tmp:
            for n in args.sizes:
                path = Path(tmp) / f"generated_{n}.jsonl"
                generate_jsonl(path, n)
                r = measure(f"ssbg={path}", args.jobs)
                path.unlink()
                us = 1e6 * r["seconds"] / r["problems"]
                per.append(us)
                ok = max(r["driver_mib"], r["worker_mib"]) < MEMORY_TARGET_MIB
                too_big += not ok
                failures += not ok
                print(f"{'  ' + format(n, ',') + ' problems':<28}{r['problems']:>10,}{r['equations']:>11,}"
                      f"{r['seconds']:>9.1f}{us:>11.0f}{r['driver_mib']:>12.0f}{r['worker_mib']:>12.0f}"
                      f"  {'yes' if ok else 'NO'}")
        if len(per) > 1:
            spread = max(per) / min(per)
            print(f"time per problem varies by x{spread:.2f} across sizes (linear when close to 1)")
            figure("streaming", " / ".join(f"{n:,}" for n in args.sizes) + " problems: "
                   + " / ".join(f"{us * n / 1e6:.0f} s" for us, n in zip(per, args.sizes, strict=True))
                   + f", time per problem within x{spread:.2f}; driver and workers under"
                   f" {MEMORY_TARGET_MIB:,} MiB: {'yes' if not too_big else 'no'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
