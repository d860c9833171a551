"""Worksheets for the modern development set of solutions (issue 34, ``data/checking/modern_dev.gold.jsonl``).

The problems are GSM8K train problems that no gold file holds: positions 1800.. of the gold draw's
permutation (``ssbg.stats.alignment.draw_sample`` with its seed; positions 0-299 are the gold set, whose odd
half is held out, and 300-1799 the training annotations). Each worksheet gives a writer the question, its
gold solution and final answer, a style to write in and whether to write it right or wrong (and, if wrong,
the kind of error to prefer). The writers never run ssbg: they write from the text.

    python tools/modern_solution_worksheets.py --train ../shared/corpora/gsm8k/train.jsonl \
        --count 330 --batches 0:110 110:220 220:330 --conversions 45 --out /tmp/modern
"""

from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path

from ssbg.stats.alignment import draw_sample

FIRST = 1800  # the positions before it are the gold set and the training annotations
STYLES = (
    "latex_inline",  # \( 1/3 \times 18 = 6 \) inside sentences
    "latex_display",  # \[ ... \] on lines of their own, \text{...} units inside math
    "markdown_list",  # - **Total weight:** 2 x 4 = 8 pounds, headings, bold
    "step_labels",  # Step 1: ..., Step 2: ...
    "paragraphs",  # several computations in one paragraph, blank lines between paragraphs
    "chained",  # chained equalities a = b = c, \cdot, \dfrac, \div
    "list_of_steps",  # the solution given as a JSON list of step strings
)
ERRORS = ("forgotten_conversion", "wrong_operation", "copied_number", "misread_question", "arithmetic_slip")


def worksheets(train: Path, count: int, seed: int = 34) -> list[dict[str, object]]:
    lines = draw_sample(train, size=FIRST + count)[FIRST:]
    texts = train.read_text(encoding="utf-8").splitlines()
    rng = random.Random(seed)  # noqa: S311 - a reproducible assignment
    out = []
    for k, line in enumerate(lines):
        record = json.loads(texts[line - 1])
        wrong = rng.random() < 0.42
        out.append({
            "id": f"modern-{k:04d}",
            "train_line": line,
            "question": record["question"],
            "gold_solution": record["answer"],
            "gold_answer": record["answer"].rsplit("####", 1)[-1].strip(),
            "style": STYLES[k % len(STYLES)],
            "write": "wrong" if wrong else "right",
            "prefer_error": ERRORS[rng.randrange(len(ERRORS))] if wrong else None,
        })
    return out


_CONVERSION = re.compile(
    r"\b(minutes?|hours?|seconds?|cents?|inch(es)?|feet|foot|yards?|quarts?|gallons?|ounces?|pounds?|days?|weeks?)\b.*"
    r"\b(minutes?|hours?|seconds?|cents?|inch(es)?|feet|foot|yards?|quarts?|gallons?|ounces?|pounds?|days?|weeks?)\b",
    re.IGNORECASE | re.DOTALL,
)
_FACTOR = re.compile(r"<<[^>]*\b(60|100|12|3|4|16|7|24)\b[^>]*>>")


def conversion_worksheets(train: Path, first: int, count: int, seed: int = 3434) -> list[dict[str, object]]:
    """Problems after ``first`` whose text names two units a conversion links and whose gold uses a factor.

    A forgotten conversion needs a problem that has one: these are written two thirds wrong (a forgotten or
    inverted conversion) and one third right.
    """
    lines = draw_sample(train, size=first + 2000)[first:]
    texts = train.read_text(encoding="utf-8").splitlines()
    rng = random.Random(seed)  # noqa: S311 - a reproducible assignment
    out: list[dict[str, object]] = []
    for line in lines:
        record = json.loads(texts[line - 1])
        names = {m.group(0).lower().rstrip("s") for m in re.finditer(_CONVERSION.pattern.split(".*")[0], record["question"], re.I)}
        if len(names) < 2 or not _FACTOR.search(record["answer"]):
            continue
        k = len(out)
        out.append({
            "id": f"modern-c{k:03d}",
            "train_line": line,
            "question": record["question"],
            "gold_solution": record["answer"],
            "gold_answer": record["answer"].rsplit("####", 1)[-1].strip(),
            "style": STYLES[rng.randrange(len(STYLES))],
            "write": "right" if k % 3 == 2 else "wrong",
            "prefer_error": None if k % 3 == 2 else "forgotten_conversion",
        })
        if len(out) == count:
            break
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=Path, required=True)
    parser.add_argument("--count", type=int, default=330)
    parser.add_argument("--batches", nargs="+", default=["0:330"])
    parser.add_argument("--conversions", type=int, default=0, help="a batch of problems with a conversion")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    sheets = worksheets(args.train, args.count)
    args.out.mkdir(parents=True, exist_ok=True)
    for batch in args.batches:
        a, b = (int(x) for x in batch.split(":"))
        path = args.out / f"worksheets_{a:03d}_{b:03d}.jsonl"
        with path.open("w", encoding="utf-8") as f:
            for sheet in sheets[a:b]:
                f.write(json.dumps(sheet, ensure_ascii=False) + "\n")
        print(path, b - a)
    if args.conversions:
        path = args.out / "worksheets_conversions.jsonl"
        with path.open("w", encoding="utf-8") as f:
            for sheet in conversion_worksheets(args.train, FIRST + args.count, args.conversions):
                f.write(json.dumps(sheet, ensure_ascii=False) + "\n")
        print(path, args.conversions)


if __name__ == "__main__":
    main()
