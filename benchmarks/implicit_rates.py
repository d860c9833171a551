"""How often an unwritten quantity a question states is a number its gold solution uses (ADR 0027).

For every GSM8K train problem (development data) and every reading the rules of
:data:`ssbg.reading.implicit.IMPLICIT_RULES` propose for its question, of a value the question does not write
(in digits or as a number word), whether a calculator annotation of the gold solution uses that value as an
operand.  The share per rule is :data:`ssbg.reading.implicit.IMPLICIT_RATES`, the probability the checker gives
such a reading of a number nothing else grounds.  Last, the rate of a step the solution leaves unsaid
(:data:`ssbg.reading.implicit.UNSAID_STEP_RATE`): before each annotation of a gold solution, of the values one
step of an earlier result and another known number gives (not themselves known), the share the annotation uses.

    .venv/bin/python benchmarks/implicit_rates.py [--corpus ../shared/corpora/gsm8k/train.jsonl]
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import re
from pathlib import Path

from ssbg.reading.implicit import IMPLICIT_RULES, proposals, unsaid_values
from ssbg.units import corpus_pack

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "gsm8k" / "train.jsonl"
_ANNOTATION = re.compile(r"<<([^=<>]*)=")
_ANNOTATED = re.compile(r"<<([^=<>]*)=([^<>]*)>>")
_NUMBER = re.compile(r"\d+(?:\.\d+)?|\.\d+")
_NAMES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
_WORDS = {w: float(i) for i, w in enumerate(_NAMES)} | {"dozen": 12.0, "half": 0.5}


def written(question: str) -> set[float]:
    """The values a question writes: digits (thousands separators dropped) and number words."""
    plain = re.sub(r"(?<=\d),(?=\d{3})", "", question)
    found = {float(x) for x in _NUMBER.findall(plain)}
    found |= {v for w, v in _WORDS.items() if re.search(rf"(?i)(?<![a-z]){w}(?![a-z])", question)}
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=DEFAULT)
    args = ap.parse_args()
    pack = corpus_pack()
    fired: collections.Counter[str] = collections.Counter()
    used: collections.Counter[str] = collections.Counter()
    with args.corpus.open(encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            operands = {float(x) for e in _ANNOTATION.findall(r["answer"]) for x in _NUMBER.findall(e)}
            known = written(r["question"])
            seen: set[tuple[str, float]] = set()
            for name, _words, value in proposals(r["question"], pack):
                if value in known or (name, value) in seen:
                    continue
                seen.add((name, value))
                fired[name] += 1
                used[name] += value in operands
            results: list[float] = []
            for expr, result in _ANNOTATED.findall(r["answer"]):
                ops = {round(float(x), 9) for x in _NUMBER.findall(expr)}
                offered = {round(v, 9) for v in unsaid_values(r["question"], results)}
                fired["unsaid_step"] += len(offered)
                used["unsaid_step"] += len(offered & ops)
                with contextlib.suppress(ValueError):
                    results.append(float(result.replace(",", "")))
    for name in [n for n, _rule in IMPLICIT_RULES] + ["unsaid_step"]:
        n = fired[name]
        print(f"{name:24} {used[name]:5} of {n:5} used by the gold solution: {used[name] / n if n else 0:.4f}")


if __name__ == "__main__":
    main()
