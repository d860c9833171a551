"""The checker's figures on the labelled dev file, per half of its problems (issue 19's honest measurement).

The dev file's problems are split in two halves by a hash of the question text::

    half(question) = "A" if int(sha256(question.encode("utf-8")).hexdigest(), 16) % 2 == 0 else "B"

Policy changes are tuned on half A only; every figure is reported on half B (and on the whole file,
saying A was the tuning half).  Each model solution is checked with the gold solution as its reference
and, with ``--alone``, without one (the issue-25 figures are the latter); each gold solution alone (no
reference).  The verdicts never see a label: ``is_correct`` is read only to score them.

``--min-evidence EPS`` checks at ε (ADR 0027; default the checker's); ``--sweep`` also prints, per half,
precision, recall, false alarms and MCC at each ε of :data:`ssbg.checking.batch.SWEEP` (from the same
verdicts: a row is ``error`` at ε iff its ``evidence_below < ε``) and the ε the choice rule picks on half A
(the highest precision of ``error`` on model solutions without the reference).  ``--error-steps CSV``
adds, per solver, the share of flagged wrong solutions whose first error finding is on the hand-read first wrong line.

    .venv/bin/python benchmarks/checker_halves.py [--corpus PATH] [--pack SPEC] [--dump OUT.jsonl] [--alone]
        [--min-evidence EPS] [--sweep] [--error-steps data/checking/first_error_steps_dev.csv]
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from ssbg.checking.batch import SWEEP, read_error_steps
from ssbg.checking.verdict import DEFAULT_MIN_EVIDENCE, Verdict, check_solution, read_reference
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
        "first_line": None if first is None else first.line,
        "evidence_below": v.evidence_below,
        "errors": sorted({f.reason for f in v.errors}),
        "findings": [f.to_dict() for f in v.findings],
    }


def verdict_rows(
    rows: Iterable[dict[str, Any]], pack: UnitPack, alone: bool = False, min_evidence: float = DEFAULT_MIN_EVIDENCE
) -> Iterator[dict[str, Any]]:
    for r in rows:
        q, gold, h = r["question"], r["ground_truth"], half(r["question"])
        yield _row("gold", r["test_index"], h, "reference", True,
                   check_solution(q, gold, pack=pack, min_evidence=min_evidence))
        shared = read_reference(q, gold, pack=pack)
        for s in SOLVERS:
            v = check_solution(q, r[s]["solution"], pack=pack, reference=shared, min_evidence=min_evidence)
            yield _row("model", r["test_index"], h, s, bool(r[s]["is_correct"]), v)
            if alone:
                v = check_solution(q, r[s]["solution"], pack=pack, min_evidence=min_evidence)
                yield _row("alone", r["test_index"], h, s, bool(r[s]["is_correct"]), v)


def _pct(a: int, b: int) -> str:
    return f"{a / b:6.1%}" if b else "   n/a"


def _flagged(r: dict[str, Any], level: float | None) -> bool:
    """Whether a row is ``error`` at ε ``level`` (None: as checked)."""
    if level is None:
        return bool(r["status"] == "error")
    return r["evidence_below"] is not None and r["evidence_below"] < level


def _mcc(tp: int, fp: int, fn: int, tn: int) -> float:
    d = math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    return (tp * tn - fp * fn) / d if d else 0.0


def scores(rows: Sequence[dict[str, Any]], kind: str, level: float | None = None) -> dict[str, float]:
    """Precision, recall, false alarms (correct model solutions and gold), MCC and the unverifiable share of the
    model rows of ``kind`` (``model``: with the reference, ``alone``: without) at ε ``level``."""
    model = [r for r in rows if r["kind"] == kind]
    gold = [r for r in rows if r["kind"] == "gold"]
    tp = sum(_flagged(r, level) and not r["correct"] for r in model)
    fp = sum(_flagged(r, level) and r["correct"] for r in model)
    wrong = sum(not r["correct"] for r in model)
    right = len(model) - wrong
    unverifiable = sum(not _flagged(r, level) and r["status"] != "sound" for r in model)
    return {
        "precision": tp / (tp + fp) if tp + fp else math.nan, "recall": tp / wrong if wrong else math.nan,
        "false_alarms": fp / right if right else math.nan,
        "gold_false_alarms": sum(_flagged(r, level) for r in gold) / len(gold) if gold else math.nan,
        "mcc": _mcc(tp, fp, wrong - tp, right - fp), "unverifiable": unverifiable / len(model) if model else math.nan,
        "flagged": tp + fp,
    }


def choose_min_evidence(rows: Sequence[dict[str, Any]], levels: Sequence[float] = SWEEP) -> float:
    """The ε of ``levels`` with the highest precision of ``error`` on model solutions without the reference (ties: the
    larger ε, which flags more): ``error`` is to mean an error first (issue 25); recall is reported, not bought."""
    kind = "alone" if any(r["kind"] == "alone" for r in rows) else "model"
    scored = [(level, scores(rows, kind, level)) for level in levels]
    return max(scored, key=lambda x: (round(x[1]["precision"], 6), x[0]))[0]


def sweep_lines(rows: Sequence[dict[str, Any]], levels: Sequence[float] = SWEEP) -> list[str]:
    out = []
    for kind, said in (("alone", "without the reference"), ("model", "with the reference")):
        if not any(r["kind"] == kind for r in rows):
            continue
        out.append(f"  sweep of ε, model solutions {said} (gold false alarms: gold checked alone):")
        for level in levels:
            s = scores(rows, kind, level)
            out.append(f"    ε={level:<6} precision {s['precision']:6.1%}  recall {s['recall']:6.1%}  false alarms "
                       f"{s['false_alarms']:6.1%}  gold {s['gold_false_alarms']:6.1%}  MCC {s['mcc']:.3f}  "
                       f"unverifiable {s['unverifiable']:6.1%}")
    return out


def first_step_lines(rows: Sequence[dict[str, Any]], steps: Mapping[tuple[str, str], int]) -> list[str]:
    """Per solver (and all), of the flagged wrong solutions read by hand, those whose first error finding is on
    the hand-read first wrong line."""
    out = []
    for kind, said in (("alone", "without the reference"), ("model", "with the reference")):
        mine = [r for r in rows if r["kind"] == kind and r["status"] == "error" and not r["correct"]
                and (str(r["id"]), r["solver"]) in steps]
        if not mine and not any(r["kind"] == kind for r in rows):
            continue
        parts = []
        for solver in (*SOLVERS, None):
            got = [r for r in mine if solver is None or r["solver"] == solver]
            right = sum(r["first_line"] == steps[(str(r["id"]), r["solver"])] for r in got)
            parts.append(f"{solver or 'all'} {right}/{len(got)}" + (f" ({right / len(got):.0%})" if got else ""))
        out.append(f"  first error finding on the hand-read first wrong line ({said}): " + ", ".join(parts))
    return out


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
    ap.add_argument("--min-evidence", type=float, default=DEFAULT_MIN_EVIDENCE, help="ε (default the checker's)")
    ap.add_argument("--sweep", action="store_true", help="also score each ε of the sweep and the choice on half A")
    ap.add_argument("--error-steps", type=Path, default=None, help="hand-read first wrong lines (CSV)")
    args = ap.parse_args()
    steps = read_error_steps(args.error_steps) if args.error_steps is not None else {}
    pack = corpus_pack() if args.pack is None else load_pack(args.pack)
    with args.corpus.open(encoding="utf-8") as fh:
        records = [json.loads(line) for line in fh if line.strip()]
    if args.tuning:
        records = [r for r in records if half(r["question"]) == "A"]
    rows = list(verdict_rows(records, pack, args.alone, args.min_evidence))
    print(f"min_evidence (ε) {args.min_evidence}")
    if args.sweep:
        tuning = [r for r in rows if r["half"] == "A"]
        print(f"ε the choice rule picks on half A: {choose_min_evidence(tuning)} (the checker's default "
              f"{DEFAULT_MIN_EVIDENCE})")
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
        lone = [r for r in part if r["kind"] == "alone"]
        if lone:
            s = scores(part, "alone")
            print(f"  without the reference: MCC {s['mcc']:.3f}; with it: MCC {scores(part, 'model')['mcc']:.3f}")
        if steps:
            print("\n".join(first_step_lines(part, steps)))
        if args.sweep:
            print("\n".join(sweep_lines(part)))


if __name__ == "__main__":
    main()
