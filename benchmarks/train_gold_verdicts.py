"""How often the checker calls a GSM8K train gold solution an error, out of fold (issue 25).

Every GSM8K train problem whose question the shipped reader was not trained on
(:meth:`ssbg.reading.learned.model.Model.trained_on`: the gold files' problems are its training data), its gold
solution checked alone at ε (``--min-evidence``, default the checker's).  Gold solutions are correct, so every
``error`` verdict is a false alarm.

    .venv/bin/python benchmarks/train_gold_verdicts.py [--corpus ../shared/corpora/gsm8k/train.jsonl]
        [--min-evidence EPS] [--limit N]
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path

from ssbg.checking.verdict import DEFAULT_MIN_EVIDENCE, check_solution
from ssbg.reading.learned.model import load_model
from ssbg.units import corpus_pack

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "gsm8k" / "train.jsonl"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=DEFAULT)
    ap.add_argument("--min-evidence", type=float, default=DEFAULT_MIN_EVIDENCE)
    ap.add_argument("--limit", type=int, default=None)
    args = ap.parse_args()
    pack = corpus_pack()
    model = load_model()
    status: collections.Counter[str] = collections.Counter()
    first: collections.Counter[str] = collections.Counter()
    skipped = 0
    with args.corpus.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            if args.limit is not None and n >= args.limit:
                break
            r = json.loads(line)
            if model is not None and model.trained_on(r["question"]):
                skipped += 1
                continue
            v = check_solution(r["question"], r["answer"], pack=pack, min_evidence=args.min_evidence)
            status[v.status] += 1
            if v.first_error is not None:
                first[v.first_error.reason] += 1
    total = sum(status.values())
    print(f"GSM8K train gold solutions out of fold: {total} (skipped {skipped} the reader was trained on), "
          f"ε {args.min_evidence}")
    for name in ("error", "unverifiable", "sound"):
        print(f"  {name:12} {status[name]:5}  {status[name] / total:6.1%}")
    print("  first error finding: " + ", ".join(f"{k} {v}" for k, v in first.most_common()))


if __name__ == "__main__":
    main()
