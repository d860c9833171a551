"""How often a correct solution's stated units are the units its steps give (ADR 0027).

The unit a solution states for a step (``>>24 clips``) and the unit a question asks for are readings of
words by rules that give no probability.  On GSM8K train gold solutions (development data; correct by
construction), read and bound as the checker reads a solution (:func:`ssbg.reading.readers.solutions.read_solution`):

- of the steps that state a unit and whose operands' units combine (root causes only), the share whose
  stated unit is the one the operands give: :data:`ssbg.checking.verdict.STATED_UNIT_RELIABILITY`;
- of the solutions whose last step is admitted and whose question's asked unit is in the pack, the share
  whose answer has the asked unit: :data:`ssbg.checking.verdict.ASKED_UNIT_RELIABILITY`.

The checker weighs the other reading (the stated or asked unit is not the result's) with the complement.

    .venv/bin/python benchmarks/stated_units.py [--corpus ../shared/corpora/gsm8k/train.jsonl] [--limit N]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ssbg.reading.choosing import bind_choosing
from ssbg.reading.readers.solutions import read_solution
from ssbg.units import corpus_pack

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "gsm8k" / "train.jsonl"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=DEFAULT)
    ap.add_argument("--limit", type=int, default=None)
    args = ap.parse_args()
    pack = corpus_pack()
    stated = kept = asked = answered = 0
    with args.corpus.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            if args.limit is not None and n >= args.limit:
                break
            r = json.loads(line)
            trace = read_solution(r["question"], r["answer"], pack=pack).trace
            if trace is None:
                continue
            graph = bind_choosing(trace, pack=pack)
            by_lhs = {e.lhs_symbol_id: e for e in graph.equations}
            for i, step in enumerate(trace.steps):
                eq = by_lhs.get(f"step_{i:03d}")
                if eq is None or step.unit is None or (not eq.is_root_cause and eq.admissibility_status == "refused"):
                    continue
                if eq.admissibility_status == "admitted":
                    stated += 1
                    kept += 1
                elif eq.refusal_reason == "unit_mismatch" and (eq.refusal_detail or "").startswith("lhs"):
                    stated += 1
            target = graph.unknowns[0]
            expected = trace.gold_answer_unit if trace.gold_answer_unit is not None else trace.answer_unit
            if expected is None or isinstance(pack.lookup(expected), str):
                continue
            if target.target_status == "bound":
                asked += 1
                answered += 1
            elif target.target_refusal_reason == "expected_unit_mismatch":
                asked += 1
    print(f"stated units the step gives: {kept} of {stated} ({kept / stated:.3f})")
    print(f"answers with the asked unit: {answered} of {asked} ({answered / asked:.3f})")


if __name__ == "__main__":
    main()
