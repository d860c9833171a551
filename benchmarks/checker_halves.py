"""The checker's figures on the labelled dev file, per half of its problems (issue 19's honest measurement).

The dev file's problems are split in two halves by a hash of the question text::

    half(question) = "A" if int(sha256(question.encode("utf-8")).hexdigest(), 16) % 2 == 0 else "B"

Policy changes are tuned on half A only; every figure is reported on half B (and on the whole file,
saying A was the tuning half).  Each model solution is checked with the gold solution as its reference;
each gold solution alone (no reference).  The verdicts never see a label: ``is_correct`` is read only
to score them.

    .venv/bin/python benchmarks/checker_halves.py [--corpus PATH] [--pack SPEC] [--dump OUT.jsonl] [--alone]
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ssbg.checking.verdict import Verdict, check_solution, read_reference
from ssbg.units import UnitPack, corpus_pack, load_pack

SOLVERS = ("6b_finetuning", "6b_verification", "175b_finetuning", "175b_verification")
DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "gsm8k_model_solutions" / "dev.jsonl"


def half(question: str) -> str:
    """``A`` (the tuning half) or ``B`` (the reported half), by the SHA-256 of the question text."""
    return "A" if int(hashlib.sha256(question.encode("utf-8")).hexdigest(), 16) % 2 == 0 else "B"


def _row(kind: str, rid: object, h: str, solver: str, label: bool, v: Verdict) -> dict[str, Any]:
    first = v.first_error
    return {
        "id": rid, "half": h, "solver": solver, "kind": kind, "correct": label, "status": v.status,
        "first_error": None if first is None else first.reason,
        "errors": sorted({f.reason for f in v.errors}),
        "findings": [f.to_dict() for f in v.findings],
    }


def verdict_rows(rows: Iterable[dict[str, Any]], pack: UnitPack, alone: bool = False) -> Iterator[dict[str, Any]]:
    for r in rows:
        q, gold, h = r["question"], r["ground_truth"], half(r["question"])
        yield _row("gold", r["test_index"], h, "reference", True, check_solution(q, gold, pack=pack))
        shared = read_reference(q, gold, pack=pack)
        for s in SOLVERS:
            v = check_solution(q, r[s]["solution"], pack=pack, reference=shared)
            yield _row("model", r["test_index"], h, s, bool(r[s]["is_correct"]), v)
            if alone:
                v = check_solution(q, r[s]["solution"], pack=pack)
                yield _row("alone", r["test_index"], h, s, bool(r[s]["is_correct"]), v)


def _pct(a: int, b: int) -> str:
    return f"{a / b:6.1%}" if b else "   n/a"


def figures(rows: list[dict[str, Any]]) -> list[str]:
    model = [r for r in rows if r["kind"] == "model"]
    gold = [r for r in rows if r["kind"] == "gold"]
    wrong = [r for r in model if not r["correct"]]
    right = [r for r in model if r["correct"]]
    tp = sum(r["status"] == "error" for r in wrong)
    fp = sum(r["status"] == "error" for r in right)
    gfa = sum(r["status"] == "error" for r in gold)
    unv = sum(r["status"] == "unverifiable" for r in model)
    gunv = sum(r["status"] == "unverifiable" for r in gold)
    out = [
        f"  precision of error   {_pct(tp, tp + fp)}  ({tp} of {tp + fp} flagged model solutions are wrong)",
        f"  recall               {_pct(tp, len(wrong))}  ({tp} of {len(wrong)} wrong model solutions)",
        f"  false alarms correct {_pct(fp, len(right))}  ({fp} of {len(right)} correct model solutions)",
        f"  false alarms gold    {_pct(gfa, len(gold))}  ({gfa} of {len(gold)} gold solutions, no reference)",
        f"  unverifiable model   {_pct(unv, len(model))}  ({unv} of {len(model)} model solutions)",
        f"  unverifiable gold    {_pct(gunv, len(gold))}  ({gunv} of {len(gold)} gold solutions)",
    ]
    by_reason: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for r in model:
        for reason in r["errors"]:
            by_reason[reason]["wrong" if not r["correct"] else "correct"] += 1
    for r in gold:
        for reason in r["errors"]:
            by_reason[reason]["gold"] += 1
    lone = [r for r in rows if r["kind"] == "alone"]
    if lone:
        a_tp = sum(r["status"] == "error" and not r["correct"] for r in lone)
        a_fp = sum(r["status"] == "error" and r["correct"] for r in lone)
        a_w = sum(not r["correct"] for r in lone)
        out.append(f"  model solutions checked without the reference: precision {_pct(a_tp, a_tp + a_fp)} "
                   f"({a_tp}/{a_tp + a_fp}), recall {_pct(a_tp, a_w)} ({a_tp}/{a_w}), false alarms "
                   f"{_pct(a_fp, len(lone) - a_w)} ({a_fp}/{len(lone) - a_w}), unverifiable "
                   f"{_pct(sum(r['status'] == 'unverifiable' for r in lone), len(lone))}")
    for reason in sorted(by_reason):
        c = by_reason[reason]
        out.append(f"    {reason:24} on wrong {c['wrong']:4}  correct {c['correct']:3}  gold {c['gold']:3}  "
                   f"precision {_pct(c['wrong'], c['wrong'] + c['correct'])}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--pack", default=None, help="a pack spec (default: the checker's, the corpus pack)")
    ap.add_argument("--dump", type=Path, default=None, help="write every verdict row as JSONL here")
    ap.add_argument("--alone", action="store_true", help="also check each model solution without the reference")
    ap.add_argument("--tuning", action="store_true", help="check and print half A only (while tuning)")
    args = ap.parse_args()
    pack = corpus_pack() if args.pack is None else load_pack(args.pack)
    with args.corpus.open(encoding="utf-8") as fh:
        records = [json.loads(line) for line in fh if line.strip()]
    if args.tuning:
        records = [r for r in records if half(r["question"]) == "A"]
    rows = list(verdict_rows(records, pack, args.alone))
    if args.dump is not None:
        with args.dump.open("w", encoding="utf-8") as fh:
            fh.writelines(json.dumps(r, sort_keys=True) + "\n" for r in rows)
    for name, part in (("half B (reported; never tuned on)", [r for r in rows if r["half"] == "B"]),
                       ("half A (tuning)", [r for r in rows if r["half"] == "A"]),
                       ("whole file (half A was the tuning half)", rows)):
        problems = len({r["id"] for r in part})
        if not problems:
            continue
        print(f"{name}: {problems} problems")
        print("\n".join(figures(part)))


if __name__ == "__main__":
    main()
