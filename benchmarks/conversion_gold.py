"""How often the value check of conversions (ADR 0030) finds a slip in GSM8K train gold solutions.

Gold solutions are correct, so every slip is a misreading of ssbg's (or a slip of the gold). Prints the problems
read, the steps whose scale is pinned and checked, the problems with a slip, and those whose slip is evidence at ε
(support below it); ``--show`` prints each slip with its problem.

    .venv/bin/python benchmarks/conversion_gold.py [--corpus ../shared/corpora/gsm8k/train.jsonl] [--show]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ssbg.checking import conversions
from ssbg.checking.verdict import DEFAULT_MIN_EVIDENCE, STATED_UNIT_RELIABILITY
from ssbg.reading.choosing import BoundTrace
from ssbg.reading.learned.model import keeping_readings
from ssbg.reading.readers.solutions import read_solution
from ssbg.units import corpus_pack

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "gsm8k" / "train.jsonl"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=DEFAULT)
    ap.add_argument("--min-evidence", type=float, default=DEFAULT_MIN_EVIDENCE)
    ap.add_argument("--show", action="store_true")
    args = ap.parse_args()
    pack = corpus_pack()
    problems = checked = with_slip = as_evidence = 0
    with args.corpus.open(encoding="utf-8") as fh:
        for line_no, line in enumerate(fh, start=1):
            record = json.loads(line)
            problems += 1
            with keeping_readings():
                reading = read_solution(record["question"], record["answer"].replace("####", "A:"), pack=pack)
            if reading.trace is None:
                continue
            graph = BoundTrace(reading.trace, pack=pack, stated=STATED_UNIT_RELIABILITY).graph
            slips, pinned = conversions.scan_conversions(reading, graph, pack)
            checked += pinned
            if not slips:
                continue
            with_slip += 1
            as_evidence += any(s.support < args.min_evidence for s in slips)
            if args.show:
                print(f"--- line {line_no}: {record['question'][:200]}")
                for s in slips:
                    print(f"    step {s.step}, support {s.support}: {s.sentence()}")
    print(f"{problems} gold solutions read; {checked} steps with a pinned conversion checked by value; "
          f"a slip in {with_slip} problems ({with_slip / max(problems, 1):.2%}), evidence at eps {args.min_evidence} "
          f"in {as_evidence} ({as_evidence / max(problems, 1):.2%})")


if __name__ == "__main__":
    main()
