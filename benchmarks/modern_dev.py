"""The checker on solutions written as today's chat models write them (issue 34's development set).

Each record holds a GSM8K *train* problem and a solution a reader wrote in a modern style (inline or display
LaTeX, Markdown lists and headings, "Step k:" labels, chained equalities, a list of step strings, paragraphs):
``id``, ``question`` (or ``train_line``, its 1-based line in the GSM8K train file, and ``question_sha``, the first
16 hex digits of its SHA-256, as ``data/checking/modern_dev.gold.jsonl`` keeps it: the question is read from ``--train``
and checked), ``solution`` (a string, or a list of step strings), ``style``, ``is_correct``, ``answer``,
``first_error_step`` (the user's step of the first error, from 0: the list index, else the paragraph of the text
split on blank lines), ``error_kind`` and ``computations`` (how many ``... = number`` computations the writer
wrote).  Each solution is checked alone (no reference); labels are read only to score the verdicts.

Printed: the share of written computations read as steps (the steps read over ``computations``, each solution's
count capped at what it writes, and uncapped), the share of solutions with ``no_equation``, the ``unread_line``
findings counted, the verdict shares (all, per style), false alarms (``error`` on correct solutions), the share
of wrong ones flagged, and of the wrong ones flagged with a marked step, the share whose first error finding is
in that user's step (:attr:`ssbg.checking.verdict.Finding.user_step`).  Targets (issue 34): at least 95% read,
``no_equation`` at most 1%, false alarms at most 3%.

    .venv/bin/python benchmarks/modern_dev.py [FILE.jsonl ...] [--train ../shared/corpora/gsm8k/train.jsonl]
        [--dump OUT.jsonl] [--style STYLE]

(default file ``data/checking/modern_dev.gold.jsonl``).
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ssbg.checking.verdict import Verdict, check_solution
from ssbg.units import UnitPack, corpus_pack

DEFAULT_FILE = Path(__file__).resolve().parents[1] / "data" / "checking" / "modern_dev.gold.jsonl"
DEFAULT_TRAIN = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "gsm8k" / "train.jsonl"
TARGETS = {"read": 0.95, "no_equation": 0.01, "false_alarms": 0.03}


def records(paths: Sequence[Path], train: Path = DEFAULT_TRAIN) -> list[dict[str, Any]]:
    """The records of the files, in order, each with its question (from ``train`` by ``train_line`` where the record
    keeps none, checked against ``question_sha``); a line that is no record with the fields scored stops the run,
    named."""
    out: list[dict[str, Any]] = []
    questions: list[str] | None = None
    for path in paths:
        with path.open(encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    r = json.loads(line)
                except ValueError as exc:
                    raise SystemExit(f"{path}:{n}: not JSON ({exc})") from None
                if "question" not in r and "train_line" in r:
                    if questions is None:
                        with train.open(encoding="utf-8") as tf:
                            questions = [json.loads(t)["question"] for t in tf if t.strip()]
                    at = r["train_line"]
                    if not isinstance(at, int) or not 1 <= at <= len(questions):
                        raise SystemExit(f"{path}:{n}: train_line {at!r} is no line of {train}")
                    question = questions[at - 1]
                    if hashlib.sha256(question.encode("utf-8")).hexdigest()[:16] != r.get("question_sha"):
                        raise SystemExit(f"{path}:{n}: line {at} of {train} is not the question written to")
                    r = dict(r, question=question)
                missing = [k for k in ("id", "question", "solution", "is_correct", "computations") if k not in r]
                if missing:
                    raise SystemExit(f"{path}:{n}: missing {', '.join(missing)}")
                out.append(r)
    return out


def row(r: dict[str, Any], v: Verdict) -> dict[str, Any]:
    """What is scored of one verdict (the label fields beside it)."""
    first = v.first_error
    read = sum(s.status != "unread" for s in v.steps)
    return {
        "id": r["id"], "style": r.get("style", ""), "correct": bool(r["is_correct"]),
        "marked_step": r.get("first_error_step"), "computations": int(r["computations"]), "read": read,
        "status": v.status, "first_error": None if first is None else first.reason,
        "first_error_user_step": None if first is None else first.user_step,
        "no_equation": any(f.reason == "no_equation" for f in v.findings),
        "unread_line": sum(f.reason == "unread_line" for f in v.findings),
        "findings": [[f.reason, f.step, f.user_step, f.detail] for f in v.findings],
    }


def check(rs: Iterable[dict[str, Any]], pack: UnitPack) -> list[dict[str, Any]]:
    return [row(r, check_solution(r["question"], r["solution"], pack=pack)) for r in rs]


def _pct(a: int, b: int) -> str:
    return f"{a / b:6.1%} ({a}/{b})" if b else "   n/a"


def figures(rows: Sequence[dict[str, Any]]) -> list[str]:
    written = sum(x["computations"] for x in rows)
    capped = sum(min(x["read"], x["computations"]) for x in rows)
    read = sum(x["read"] for x in rows)
    correct = [x for x in rows if x["correct"]]
    wrong = [x for x in rows if not x["correct"]]
    flagged = [x for x in wrong if x["status"] == "error"]
    marked = [x for x in flagged if x["marked_step"] is not None]
    at_step = sum(x["first_error_user_step"] == x["marked_step"] for x in marked)
    statuses = collections.Counter(x["status"] for x in rows)
    return [
        f"  solutions {len(rows)} ({len(correct)} correct, {len(wrong)} wrong), computations written {written}",
        f"  computations read as steps {_pct(capped, written)} (target >= {TARGETS['read']:.0%}; "
        f"uncapped {read} steps read)",
        f"  no_equation {_pct(sum(x['no_equation'] for x in rows), len(rows))} (target <= "
        f"{TARGETS['no_equation']:.0%})",
        f"  unread_line findings {sum(x['unread_line'] for x in rows)} "
        f"(on {sum(x['unread_line'] > 0 for x in rows)} solutions)",
        "  verdicts " + ", ".join(f"{s} {_pct(statuses[s], len(rows))}" for s in ("sound", "error", "unverifiable")),
        f"  false alarms (error on correct) {_pct(sum(x['status'] == 'error' for x in correct), len(correct))} "
        f"(target <= {TARGETS['false_alarms']:.0%})",
        f"  wrong ones flagged {_pct(len(flagged), len(wrong))}",
        f"  flagged wrong with a marked step whose first error finding is at it {_pct(at_step, len(marked))}",
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", type=Path, default=[DEFAULT_FILE])
    ap.add_argument("--train", type=Path, default=DEFAULT_TRAIN, help="the GSM8K train file the records' lines index")
    ap.add_argument("--dump", type=Path, default=None, help="write every scored row as JSONL here")
    ap.add_argument("--style", default=None, help="score only the records of this style")
    args = ap.parse_args()
    rs = records(args.files, args.train)
    if args.style is not None:
        rs = [r for r in rs if r.get("style") == args.style]
    rows = check(rs, corpus_pack())
    if args.dump is not None:
        with args.dump.open("w", encoding="utf-8") as fh:
            fh.writelines(json.dumps(x, sort_keys=True) + "\n" for x in rows)
    print("all styles:")
    print("\n".join(figures(rows)))
    for style in sorted({x["style"] for x in rows}):
        part = [x for x in rows if x["style"] == style]
        written = sum(x["computations"] for x in part)
        capped = sum(min(x["read"], x["computations"]) for x in part)
        s = collections.Counter(x["status"] for x in part)
        fa = sum(x["status"] == "error" and x["correct"] for x in part)
        print(f"  {style:16} n {len(part):3}  read {_pct(capped, written)}  no_equation "
              f"{sum(x['no_equation'] for x in part):2}  unread_line {sum(x['unread_line'] for x in part):3}  "
              f"sound {s['sound']:3} error {s['error']:3} unverifiable {s['unverifiable']:3}  false alarms {fa}")


if __name__ == "__main__":
    main()
