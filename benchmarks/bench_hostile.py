"""Hostile shapes of a checked record at 1x, 10x and 100x: reading and checking stay linear within the caps.

Issue 27 measured work that grew faster than its input (quadratic) in the checker, within the
size caps of the time: a question of ``5%`` repeated (``evidence.mention_context`` scanned its
sentence once per number), a chain of distinct annotated steps (the assignment matrix of
``plan_annotations``), unclosed annotations, lines of prose arithmetic, one step repeating one
operand, a long question; issue 38 a question of one short sentence repeated 1,600 times with 500
identical steps, grounded or not, and 1,200 distinct numbers with 500 distinct steps (the mention
candidates and the rules that derive a number, ADR 0033).  Each shape here is checked once by
``ssbg.check_solution`` in a fresh process (so its peak memory is its own) at three sizes: 100x is at
the cap that bounds it (:mod:`ssbg.limits`), 1x a hundredth of it.  The table gives, per shape and size: the characters
read (question + solution), the CPU seconds, the microseconds per character, the peak resident
memory of the process (MiB, ``ru_maxrss``; an empty check is about 93 MiB of interpreter,
numpy, scipy and packs), the verdict; per shape, the spread of the per-character cost over the
three sizes (largest over smallest: at 1x the check's fixed cost weighs most, so a falling cost
is that cost amortised), the same over the runs of at least 10 ms, and the largest rise of the
per-character cost from one size to a larger one (what grows faster than the input shows there).
Last, on this tree, the sizes issue 27 measured: each beyond a cap, refused unread.

Targets (issue 27): per-character cost flat within 3x (no rise past it); no shape within the caps over 2 s
or 300 MB on one core.

``--repo PATH`` runs the shapes against another source tree (``git archive <commit> | tar -x -C
PATH``): the same sizes on a tree before the caps show how the cost grew there (``--timeout`` cuts a
run off; a cut run shows as ``>`` its limit).

Run: ``python benchmarks/bench_hostile.py [--repo PATH] [--timeout S] [--shape NAME ...]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import figures

REPO = Path(__file__).resolve().parents[1]
TIME_TARGET_S = 2.0
MEMORY_TARGET_MB = 300.0
SPREAD_TARGET = 3.0
SCALES = (1, 10, 100)
FLOOR_S = 0.01  # below this, a figure per character is timer noise and the check's fixed cost

Shape = Callable[[int], tuple[str, str]]
SIMPLE_Q = "Ann has 3 apples and buys 4 more apples. How many apples?"


def percent(k: int) -> tuple[str, str]:
    """``5%`` repeated in one sentence of the question: 40 numbers at 1x (4,000 at 100x: the cap of numbers)."""
    return "Ann pays " + "5% " * (40 * k - 1) + "of her 40 apples. How many apples?", "5 + 5 = 10 apples"


def annotated(k: int) -> tuple[str, str]:
    """A chain of distinct annotated steps, each reading an earlier result and a question number: 5 steps at 1x
    (500 at 100x: the cap of formulas)."""
    lines, total = [], 2
    for i in range(5 * k):
        add = 3 if i % 2 else 2
        lines.append(f"She has {total} + {add} = <<{total}+{add}={total + add}>>{total + add} apples.")
        total += add
    return "Ann has 2 apples, then 3 more, then 2 more and so on. How many apples?", "\n".join(lines)


def unclosed(k: int) -> tuple[str, str]:
    """``<<1+1=2`` repeated on one line (never closed): 10 at 1x (1,000 at 100x: the cap of equals signs)."""
    return SIMPLE_Q, "<<1+1=2" * (10 * k)


def prose_lines(k: int) -> tuple[str, str]:
    """Lines of prose arithmetic ``i + 1 = i+1``: 5 at 1x (500 at 100x: the cap of formulas)."""
    return SIMPLE_Q, "\n".join(f"{i} + 1 = {i + 1}" for i in range(3, 3 + 5 * k))


def operands(k: int) -> tuple[str, str]:
    """One annotated step repeating one operand: 5 operands at 1x (500 at 100x: the cap of operands)."""
    n = 5 * k
    return SIMPLE_Q, f"{'+'.join(['3'] * n)} = <<{'+'.join(['3'] * n)}={3 * n}>>{3 * n} apples"


def long_question(k: int) -> tuple[str, str]:
    """A question of ordinary sentences, 200 characters at 1x (20,000 at 100x: the cap of a question's length)."""
    sentence = "Ann buys 3 apples for $2 each and gives 4 pears to Bob. "
    body = (sentence * (1 + 200 * k // len(sentence)))[: 200 * k - 24]
    return body + "How many apples has Ann?", "3 * 2 = <<3*2=6>>6 dollars"


def sentences_and_steps(k: int) -> tuple[str, str]:
    """Issue 38's record: a question of one short sentence repeated (16 at 1x, 1,600 at 100x: 19,212 characters,
    within the question's cap) and a solution of one annotated step repeated (5 at 1x, 500 at 100x), each
    literal with as many mentions of its value as the question has sentences."""
    return "It is 3 kg. " * (16 * k) + "How many kg?", "\n".join(["It is <<3+3=6>>6 kg"] * (5 * k))


def ungrounded_steps(k: int) -> tuple[str, str]:
    """The same question with a step whose numbers it never states, repeated (5 at 1x, 500 at 100x): every
    literal goes through every rule that derives a number, over every mention."""
    return "It is 3 kg. " * (16 * k) + "How many kg?", "\n".join(["6 + 6 = 12 kg"] * (5 * k))


def distinct_mentions(k: int) -> tuple[str, str]:
    """A question of sentences each stating another number (12 at 1x, 1,200 at 100x) and as many distinct
    ungrounded steps (5 at 1x, 500 at 100x): the derived rules' search by value, not by a scan."""
    question = "".join(f"It is {i} kg. " for i in range(1, 12 * k + 1)) + "How many kg?"
    return question, "\n".join(f"{i}.5 + {i}.5 = {2 * i + 1} kg" for i in range(1, 5 * k + 1))


# The sizes issue 27 measured on main, each beyond a cap now: refused unread (record_too_large), in milliseconds.
ISSUE_SIZES: dict[str, Callable[[], tuple[str, str]]] = {
    "5% x 8,000 (16 KB)": lambda: ("Ann pays " + "5% " * 8000 + "of 40 apples. How many?", "5 + 5 = 10"),
    "10,000 annotated steps": lambda: annotated(2000),
    "<<1+1=2 x 5,714 (40 KB)": lambda: (SIMPLE_Q, "<<1+1=2" * 5714),
    "40k prose lines (720 KB)": lambda: prose_lines(8000),
    "one step of 96k operands": lambda: operands(19200),
    "a 3.9 MB question": lambda: long_question(19500),
}

SHAPES: dict[str, Shape] = {
    "percent": percent, "annotated": annotated, "unclosed": unclosed, "prose_lines": prose_lines,
    "operands": operands, "long_question": long_question, "sentences_steps": sentences_and_steps,
    "ungrounded_steps": ungrounded_steps, "distinct_mentions": distinct_mentions,
}  # fmt: skip

_CHILD = """
import json, resource, sys, time
question, solution = json.loads(sys.stdin.read())
import ssbg
ssbg.check_solution("Ann has 2 apples and 2 pears. How many?", "2 + 2 = <<2+2=4>>4")  # imports (scipy), packs
start = time.process_time()
verdict = ssbg.check_solution(question, solution)
seconds = time.process_time() - start
reasons = sorted({f.reason for f in verdict.findings})
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": seconds, "peak_mb": peak, "status": verdict.status, "reasons": reasons}))
"""


def run_one(repo: Path, question: str, solution: str, timeout: float) -> dict[str, object]:
    """One check in a fresh process against the tree at ``repo`` (``PYTHONPATH``); cut off after ``timeout``."""
    env = {**os.environ, "PYTHONPATH": str(repo), "PYTHONHASHSEED": "0"}
    try:
        done = subprocess.run([sys.executable, "-c", _CHILD], input=json.dumps([question, solution]), env=env,
                              capture_output=True, text=True, timeout=timeout, check=False, cwd=repo)
    except subprocess.TimeoutExpired:
        return {"seconds": None, "peak_mb": None, "status": f"> {timeout:.0f} s", "reasons": []}
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["?"])[-1]
        return {"seconds": None, "peak_mb": None, "status": f"raised: {tail[:60]}", "reasons": []}
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", type=Path, default=REPO, help="source tree to run (default: this one)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before a run is cut off")
    parser.add_argument("--shape", action="append", choices=sorted(SHAPES), help="only these shapes")
    args = parser.parse_args()
    print(f"tree: {args.repo}")
    print(f"{'shape':<14} {'scale':>5} {'chars':>8} {'CPU s':>8} {'us/char':>8} {'peak MiB':>9}  verdict")
    worst_spread, worst_s, worst_mb = 0.0, 0.0, 0.0
    for name in args.shape or list(SHAPES):
        costs: list[float] = []
        every: list[float] = []
        for scale in SCALES:
            question, solution = SHAPES[name](scale)
            chars = len(question) + len(solution)
            r = run_one(args.repo, question, solution, args.timeout)
            seconds, peak = r["seconds"], r["peak_mb"]
            if isinstance(seconds, float) and isinstance(peak, float):
                per = 1e6 * seconds / chars
                every.append(per)
                if seconds >= FLOOR_S:
                    costs.append(per)
                worst_s, worst_mb = max(worst_s, seconds), max(worst_mb, peak)
                shown = f"{seconds:8.3f} {per:8.2f} {peak:9.0f}"
            else:
                shown = f"{'-':>8} {'-':>8} {'-':>9}"
            reasons = ",".join(r["reasons"]) if isinstance(r["reasons"], list) else ""  # type: ignore[arg-type]
            print(f"{name:<14} {scale:>4}x {chars:>8} {shown}  {r['status']} {reasons}".rstrip(), flush=True)
        if len(every) >= 2:
            rise = max(every[j] / every[i] for i in range(len(every)) for j in range(i + 1, len(every)))
            print(f"{'':<14} us/char: spread {max(every) / min(every):.2f}x over the sizes, "
                  f"{(max(costs) / min(costs)) if len(costs) >= 2 else 1.0:.2f}x over those >= {FLOOR_S * 1e3:.0f} ms; "
                  f"largest rise from a size to a larger one {rise:.2f}x")
            worst_spread = max(worst_spread, rise)
    if args.repo == REPO:
        import ssbg

        print("\nbeyond the caps (the sizes issue 27 measured on main), checked in this process:")
        ssbg.check_solution("Ann has 2 apples and 2 pears. How many?", "2 + 2 = <<2+2=4>>4")  # packs loaded
        for label, make in ISSUE_SIZES.items():
            question, solution = make()
            start = time.process_time()
            verdict = ssbg.check_solution(question, solution)
            ms = 1e3 * (time.process_time() - start)
            reasons = ",".join(f.reason for f in verdict.findings)
            print(f"  {label:<28} {len(question) + len(solution):>9} chars {ms:8.1f} ms  {verdict.status} {reasons}")
    print(f"\nworst: {worst_s:.3f} s (target <= {TIME_TARGET_S} s), {worst_mb:.0f} MiB peak "
          f"(target <= {MEMORY_TARGET_MB:.0f}), largest rise of us/char {worst_spread:.2f}x "
          f"(target <= {SPREAD_TARGET}x)")
    figures.figure("hostile", f"at most {worst_s:.2f} s and {worst_mb:.0f} MiB at the caps, per-character cost"
                              f" rising at most {worst_spread:.2f}x from a size to a larger one")
    figures.verdict("hostile", worst_s <= TIME_TARGET_S and worst_mb <= MEMORY_TARGET_MB
                    and worst_spread <= SPREAD_TARGET)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
