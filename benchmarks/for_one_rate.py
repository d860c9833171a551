"""How often a GSM8K train gold solution uses a quantity read as a rate as the amount of one thing (issue 36).

GUIDE.md's rule: ``per`` is decided by the words ("the cash price of a refrigerator was $8000" is dollars per
refrigerator), and where a solution spends such an amount once, the hand label keeps the rate and records the words
that say one (``for_one_cue``).  Over the hand-read GSM8K train problems outside the gold set's held-out half (the
training annotations and the gold set's dev half), of the rate-labelled quantities a gold solution's step uses, the
share labelled "for one" is :data:`ssbg.reading.choosing.FOR_ONE_RATE`, the probability the checker's weighing gives
that reading (``reading_mass``).

    .venv/bin/python benchmarks/for_one_rate.py
"""

from __future__ import annotations

import json
from pathlib import Path

GOLD = Path(__file__).resolve().parents[1] / "data" / "gold"
FILES = ("gsm8k_train_annotations.gold.jsonl", "gsm8k_train_alignments.gold.jsonl")


def count(files: tuple[str, ...] = FILES, gold: Path = GOLD) -> tuple[int, int]:
    """(rate-labelled quantities a gold step uses, those labelled "for one"), the held-out half left out."""
    rates = ones = 0
    for name in files:
        with (gold / name).open(encoding="utf-8") as f:
            for line in f:
                record = json.loads(line)
                if record.get("split") == "heldout":
                    continue
                used = {o.get("mention") for s in record["steps"] for o in s["operands"]}
                for m in record["mentions"]:
                    if m.get("skip") or not m.get("per") or m["id"] not in used:
                        continue
                    rates += 1
                    ones += bool(m.get("for_one_cue"))
    return rates, ones


def main() -> None:
    rates, ones = count()
    print(f"for one: {ones} of {rates} rate-labelled quantities a gold step uses ({ones / rates:.3f})")


if __name__ == "__main__":
    main()
