"""Worksheets for reading the first wrong step of model solutions by hand (``data/checking/README.md``).

The draw never looks at what ssbg flags: it is made from every *wrong* model solution of the dev file
(``is_correct`` false) not read before, sorted by (id, solver), with ``random.Random(seed).sample``. Each
worksheet shows the question, the gold solution and the model solution with its lines numbered from 1;
the reader writes one CSV row ``id,solver,line,note`` per solution.

    python tools/error_step_worksheets.py --dev ../shared/corpora/gsm8k_model_solutions/dev.jsonl \
        --read data/checking/first_error_steps_dev.csv --seed 25 --count 170 \
        --batches 0:100 70:170 --out /tmp/steps

Solutions ``70:100`` of the draw then fall in both batches: the second reading the agreement is counted on.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
from pathlib import Path

SOLVERS = ("6b_finetuning", "6b_verification", "175b_finetuning", "175b_verification")


def wrong_solutions(dev: Path, read: set[tuple[str, str]]) -> list[tuple[str, str, dict]]:
    """Every wrong model solution of the dev file not in ``read``, sorted by (id, solver)."""
    out = []
    for raw in dev.read_text(encoding="utf-8").splitlines():
        record = json.loads(raw)
        for solver in SOLVERS:
            key = (str(record["test_index"]), solver)
            if record[solver]["is_correct"] is False and key not in read:
                out.append((*key, record))
    return sorted(out, key=lambda item: (int(item[0]), item[1]))


def worksheet(number: int, item: tuple[str, str, dict]) -> str:
    ident, solver, record = item
    lines = record[solver]["solution"].split("\n")
    numbered = "\n".join(f"  {k:>2} | {text}" for k, text in enumerate(lines, start=1))
    return (f"=== #{number}  id={ident}  solver={solver}\nQUESTION:\n{record['question']}\n\n"
            f"GOLD SOLUTION:\n{record['ground_truth']}\n\nMODEL SOLUTION (lines numbered from 1):\n{numbered}\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dev", type=Path, required=True)
    parser.add_argument("--read", type=Path, required=True, help="the CSV of solutions already read")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--batches", nargs="+", required=True, help="START:STOP slices of the draw")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    with args.read.open(encoding="utf-8", newline="") as handle:
        read = {(row["id"], row["solver"]) for row in csv.DictReader(handle)}
    pool = wrong_solutions(args.dev, read)
    draw = random.Random(args.seed).sample(pool, args.count)  # noqa: S311 (a reproducible draw, not a secret)
    args.out.mkdir(parents=True, exist_ok=True)
    for k, spec in enumerate(args.batches):
        start, stop = (int(part) for part in spec.split(":"))
        sheets = [worksheet(n, draw[n]) for n in range(start, stop)]
        (args.out / f"batch_{k}.txt").write_text("\n".join(sheets), encoding="utf-8")
    print(f"{len(pool)} wrong solutions not read before; drew {args.count} with seed {args.seed}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
