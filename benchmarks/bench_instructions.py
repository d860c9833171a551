"""Instructions per unseen GSM8K problem (valgrind callgrind): an import figure that does not move with the load.

Wall-clock rates on a shared machine move by up to 2x in a day, so ADR 0015 counts
instructions.  Each count is one Python process under callgrind that reads the first
``n`` (or ``2n``) problems of GSM8K train; subtracting the two counts removes the
start-up (interpreter, imports, the inflect engine), and what is left is the cost of
problems ``n``..``2n`` read after problems ``0``..``n``: lemma caches warm, caches keyed
by a problem's own text cold, as in one pass of ``bench_import.py`` over 7,473
problems.  The same pair is counted once more without ``bind_choosing``, which splits the
cost into reading (decode, mentions, grounding, the validated trace) and binding
(graph, admissibility, question target).  Two more pairs count what any reader pays
whatever its rules: decoding the same JSON lines, and building the same validated
values (``Mention``, ``Operand``, ``Step``, ``Trace``; ADR 0013) from fields already
read.  Counts are deterministic for one build of Python at ``PYTHONHASHSEED=0``.

The same problems are then timed natively, which gives the rate this machine runs this
work at now (``r`` instructions per second) and so the count 2,000 problems/s allows:
at most ``r / 2000`` per problem.

The base commit (``abtest.BASELINE`` or ``SSBG_BENCH_BASE``) is counted beside this checkout:
the GSM8K reading and binding above, and the core workloads of ``bench_binding.py`` and
``bench_units.py`` (``ab_worker.py``: binding the lanes and the hand-written graphs, each copy
its own problem, and ``check_operation``), each as the difference between three passes and one
(the first warms the pack and the memos), per problem or per check.
Run: ``python benchmarks/bench_instructions.py [--problems N] [--corpus PATH]``
(needs ``valgrind``: ``apt-get install valgrind``; skipped without it).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import abtest
from figures import figure, verdict

CORPUS = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpora" / "gsm8k" / "train.jsonl"
ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "benchmarks"

# Every child process starts alike: the readers imported, the inflect engine built.
PREAMBLE = """
import itertools, sys
from pathlib import Path
from ssbg.reading.mentions import lemmatize
from ssbg.reading.readers.gsm8k import read_gsm8k
try:
    from ssbg.reading.choosing import bind_choosing
except ImportError:  # a base tree before ADR 0035, whose bind_trace reconsidered as bind_choosing does
    from ssbg.trace import bind_trace as bind_choosing
lemmatize("apples")
"""
# What one counted process runs: argv is (corpus, problems, bind 0/1[, "rules"]): with "rules", the reading is
# the rules' alone (no learned model: ``ssbg.reading.learned.using(None)``), what the learned reader's cost is
# measured against.
CHILD = PREAMBLE + """
import contextlib
path, count, bind = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1"
rules = sys.argv[4:] == ["rules"]
if rules:
    from ssbg.reading.learned.model import using
with using(None) if rules else contextlib.nullcontext():
    for record in itertools.islice(read_gsm8k(path), count):
        if bind and record.payload is not None:
            bind_choosing(record.payload)
"""
# Checking: argv is (benchmarks folder, dev file, records): ``check_solution`` on each record's five solutions
# (bench_checking.solutions: four solvers' and the gold), its question read once and shared by them as
# ``check_solutions`` does; the pair (n, 2n) gives the cost per solution of records n..2n.
CHECK = PREAMBLE + """
sys.path.insert(0, sys.argv[1])
from bench_checking import solutions
from ssbg.checking import check_solution
for question, solution in solutions(Path(sys.argv[2]))[: 5 * int(sys.argv[3])]:
    check_solution(question, solution)
"""
DEV = ROOT / ".." / "shared" / "corpora" / "gsm8k_model_solutions" / "dev.jsonl"
CHECK_RECORDS = 60  # records 60..120 of the dev file: 300 solutions
# The same work timed natively: argv is (corpus, n); prints the process time of problems n..2n.
TIMED = PREAMBLE + """
import time
records, count = read_gsm8k(Path(sys.argv[1])), int(sys.argv[2])
for record in itertools.islice(records, count):
    if record.payload is not None:
        bind_choosing(record.payload)
start = time.process_time()
for record in itertools.islice(records, count):
    if record.payload is not None:
        bind_choosing(record.payload)
print(time.process_time() - start)
"""
# What any reader pays under ADR 0013 whatever its rules: decoding the JSON lines of problems
# n..2n and building their validated values (Mention, Operand, Step, Trace) from fields already
# read.  argv is (corpus, n, part): part "none" only prepares, "decode" and "build" do that part.
FLOOR = PREAMBLE + """
import dataclasses
from ssbg.jsontext import loads
from ssbg.trace import Mention, Operand, Step, Trace
path, count, part = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
lines = path.read_bytes().splitlines()[count : 2 * count]
records = itertools.islice(read_gsm8k(path), 2 * count)
traces = [r.payload for i, r in enumerate(records) if i >= count and r.payload is not None]
def fields(value):
    return tuple(getattr(value, f.name) for f in dataclasses.fields(value))
def at(cls, name):
    return [f.name for f in dataclasses.fields(cls)].index(name)
OPERANDS, MENTIONS, STEPS = at(Step, "operands"), at(Trace, "mentions"), at(Trace, "steps")
plan = [([fields(m) for m in t.mentions], [(fields(s), [fields(o) for o in s.operands]) for s in t.steps], fields(t))
        for t in traces]
if part == "decode":
    for line in lines:
        loads(line)
elif part == "build":
    for mentions, steps, trace in plan:
        built_steps = []
        for step, operands in steps:
            step = list(step)
            step[OPERANDS] = tuple(Operand(*o) for o in operands)
            built_steps.append(Step(*step))
        trace = list(trace)
        trace[MENTIONS], trace[STEPS] = tuple(Mention(*m) for m in mentions), tuple(built_steps)
        Trace(*trace)
"""
# Every child runs one tree's ssbg (this checkout's unless told) with one hash seed (the counts are then
# deterministic).
CHILD_ENV = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(ROOT)}
_COLLECTED = re.compile(r"Collected : (\d+)")
# (task, problems or unit pairs, what one item is) of ab_worker.py, counted for the base and this checkout.
CORE = (("lanes", 740, "problem"), ("graphs", 340, "problem"), ("check", 2000, "check"))


def count_instructions(valgrind: str, program: str, *argv: str, tree: Path = ROOT) -> int:
    """Instructions callgrind counts for one ``python -c program *argv`` process (ssbg imported from ``tree``);
    ``program`` may instead be the path of a script."""
    command = [program] if program.endswith(".py") else ["-c", program]
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            [valgrind, "--tool=callgrind", f"--callgrind-out-file={tmp}/callgrind.out",
             sys.executable, *command, *argv],
            capture_output=True, text=True, check=False, cwd=tree,
            env={**CHILD_ENV, "PYTHONPATH": str(tree)},
        )  # fmt: skip
    found = _COLLECTED.search(out.stderr)
    if out.returncode != 0 or found is None:
        raise SystemExit(f"bench_instructions: callgrind run failed (exit {out.returncode}):\n{out.stderr[-2000:]}")
    return int(found.group(1))


def native_seconds(corpus: Path, problems: int) -> float:
    """Process time of problems ``n``..``2n`` read and bound natively after problems ``0``..``n`` (best of three
    processes: the machine's load moves)."""
    best = float("inf")
    for _ in range(3):
        out = subprocess.run(
            [sys.executable, "-c", TIMED, str(corpus), str(problems)], capture_output=True, text=True,
            check=False, cwd=ROOT, env=CHILD_ENV,
        )  # fmt: skip
        if out.returncode != 0:
            raise SystemExit(f"bench_instructions: timed run failed (exit {out.returncode}):\n{out.stderr[-2000:]}")
        best = min(best, float(out.stdout))
    return best


def core_counts(valgrind: str, trees: dict[str, Path]) -> dict[tuple[str, str], float]:
    """Instructions per item of each :data:`CORE` task on each tree: (3 passes - 1 pass) / (2 x items)."""
    program = str(HERE / "ab_worker.py")
    runs = [(side, task, size, passes) for side in trees for task, size, _ in CORE for passes in (1, 3)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        counts = list(pool.map(
            lambda run: count_instructions(valgrind, program, "--once", run[1], str(run[2]), str(run[3]),
                                           tree=trees[run[0]]), runs))  # fmt: skip
    got = dict(zip(runs, counts, strict=True))
    per = {"problem": 1, "check": 3}
    return {
        (side, task): (got[side, task, size, 3] - got[side, task, size, 1]) / (2 * size * per[item])
        for side in trees
        for task, size, item in CORE
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path, default=CORPUS.resolve())
    parser.add_argument("--problems", type=int, default=400, help="n: problems n..2n are counted (default 400)")
    args = parser.parse_args()
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        print("bench_instructions: valgrind not found (apt-get install valgrind); skipped")
        return
    n = max(1, args.problems)
    corpus = str(args.corpus)
    rev = abtest.base_revision()
    with abtest.checkout(rev) as old_tree:
        trees = {"old": old_tree, "new": ROOT}
        core = core_counts(valgrind, trees)
        print(f"core instructions per item, valgrind callgrind, old = {abtest.short(rev)}, new = this checkout")
        print(f"{'workload':44} {'old':>10} {'new':>10} {'old/new':>8}")
        for task, _size, item in CORE:
            old, new = core[("old", task)], core[("new", task)]
            print(f"{task + ' (per ' + item + ')':44} {old / 1e3:9.1f}k {new / 1e3:9.1f}k {old / new:7.2f}x")
        figure("instructions_core", "; ".join(
            f"{task} {core[('new', task)] / 1e3:.1f}k per {item} ({core[('old', task)] / 1e3:.1f}k,"
            f" {core[('old', task)] / core[('new', task)]:.2f}x)" for task, _size, item in CORE))
        if not args.corpus.is_file():
            print(f"bench_instructions: no corpus at {args.corpus}; GSM8K counts skipped")
            return
        runs = [(CHILD, corpus, str(n), "1"), (CHILD, corpus, str(2 * n), "1"), (CHILD, corpus, str(n), "0"),
                (CHILD, corpus, str(2 * n), "0"), (FLOOR, corpus, str(n), "none"), (FLOOR, corpus, str(n), "decode"),
                (FLOOR, corpus, str(n), "build"), (CHILD, corpus, str(n), "0", "rules"),
                (CHILD, corpus, str(2 * n), "0", "rules")]  # fmt: skip
        checking = DEV.is_file()
        if checking:
            dev = str(DEV.resolve())
            runs += [(CHECK, str(HERE), dev, str(records)) for records in (CHECK_RECORDS, 2 * CHECK_RECORDS)]
        old_runs = runs[:4]
        with ThreadPoolExecutor(max_workers=2) as pool:  # each run is its own process: two at a time on two cores
            counts = list(pool.map(lambda run: count_instructions(valgrind, *run), runs))
            old_counts = list(pool.map(lambda run: count_instructions(valgrind, *run, tree=old_tree), old_runs))
    old_total, old_reading = (old_counts[1] - old_counts[0]) / n, (old_counts[3] - old_counts[2]) / n
    total = (counts[1] - counts[0]) / n
    reading = (counts[3] - counts[2]) / n
    decode, build = (counts[5] - counts[4]) / n, (counts[6] - counts[4]) / n
    floor = decode + build + total - reading
    rules = (counts[8] - counts[7]) / n
    seconds = native_seconds(args.corpus, n)  # the same problems, not under valgrind
    rate = total * n / seconds  # instructions per second this machine runs this work at, now
    print(f"instructions per unseen problem over {args.corpus.name}, problems {n}..{2 * n} after 0..{n}")
    print(f"(valgrind callgrind, PYTHONHASHSEED=0, Python {sys.version.split()[0]})")
    print(f"{'':45} {'new':>8}   {'old':>8}")
    print(f"{'read (decode, mentions, grounding, trace)':>45} {reading / 1e6:8.2f} M {old_reading / 1e6:8.2f} M")
    print(f"{'bind (graph, admissibility, target)':>45} {(total - reading) / 1e6:8.2f} M"
          f" {(old_total - old_reading) / 1e6:8.2f} M")  # fmt: skip
    print(f"{'total':>45} {total / 1e6:8.2f} M {old_total / 1e6:8.2f} M")
    old_bind, bind = old_total - old_reading, total - reading
    figure("instructions_gsm8k", f"{total / 1e6:.2f} M per unseen problem (read {reading / 1e6:.2f} M, bind"
                                 f" {bind / 1e6:.2f} M); {abtest.short(rev)} in the same run {old_total / 1e6:.2f} M"
                                 f" (read {old_reading / 1e6:.2f} M, bind {old_bind / 1e6:.2f} M: binding"
                                 f" {old_bind / bind:.2f}x)")
    verdict("instructions_gsm8k", total <= 3.0e6)
    print(
        f"what any reader pays under ADR 0013: decoding {decode / 1e6:.2f} M + validated trace values"
        f" {build / 1e6:.2f} M + binding {(total - reading) / 1e6:.2f} M = {floor / 1e6:.2f} M;"
        f" the reading rules take the other {(total - floor) / 1e6:.2f} M"
    )
    print(
        f"the learned unit reader: reading with the rules alone {rules / 1e6:.2f} M per problem, with the shipped model"
        f" {reading / 1e6:.2f} M: the model's candidates, features and scores cost {(reading - rules) / 1e6:.2f} M"
    )
    figure("instructions_learned", f"reading {reading / 1e6:.2f} M per problem, {rules / 1e6:.2f} M with the rules"
                                   f" alone (the learned reader {(reading - rules) / 1e6:.2f} M)")
    if checking:
        solutions = 5 * CHECK_RECORDS
        check = (counts[10] - counts[9]) / solutions
        print(f"check_solution: {check / 1e6:.2f} M instructions per solution of records {CHECK_RECORDS}.."
              f"{2 * CHECK_RECORDS} of {DEV.name} ({solutions} solutions, each question read once for its five)")
        figure("instructions_checking", f"{check / 1e6:.2f} M per solution ({solutions} of the dev file, each"
                                        " question read once for its five solutions)")
        verdict("instructions_checking", check <= 1.5e6)
    print(
        f"this machine now: the same {n} problems take {seconds:.2f} s natively, best of 3"
        f" ({n / seconds:,.0f} problems/s, {rate / 1e9:.2f} G instructions/s);"
        f" at that rate 2,000 problems/s needs at most {rate / 2000 / 1e6:.2f} M instructions per problem"
    )


if __name__ == "__main__":
    main()
