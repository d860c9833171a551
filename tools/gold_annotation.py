"""Worksheets, a form validator and the assembler of hand-written gold alignments (data/gold/GUIDE.md).

The readers who annotate never run ssbg: they read a worksheet (the question with the number tokens a
plain scan finds marked ``[nK ...]``, the answer with each calculator annotation's literals listed), write
one JSON line per problem in the short form of the guide, and run ``validate`` on their file, which checks
the *form* only (every token once, every literal once, names that exist, words that occur in the text).
``assemble`` then adds the spans and offsets of the gold file (``data/gold/README.md``), checking every
record against the corpus line it was written for (its sha).

    python tools/gold_annotation.py worksheets --train ../shared/corpora/gsm8k/train.jsonl \
        --first 300 --count 1500 --batches 6 --second 25 --out /tmp/annot
    python3 /tmp/annot/validate.py /tmp/annot/batch_0.json /tmp/annot/out_0.jsonl
    python tools/gold_annotation.py assemble --train ... --batch /tmp/annot/batch_0.json OUT_0.jsonl ...

The draw continues the gold sample's permutation (seed 20261201, ``ssbg.stats.alignment.draw_sample``):
positions ``first .. first + count - 1`` of the same order, so no problem of the first 300 is drawn again.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from ssbg.constants import IMPLICIT_CONSTANTS  # noqa: E402 - the names a reader may use
from ssbg.stats.alignment import (  # noqa: E402 - the mechanical scan of the gold set
    SAMPLE_SEED,
    annotation_literals,
    draw_sample,
    number_tokens,
    repeated_value,
)

VALIDATOR = HERE / "gold_validate.py"


def _sha(question: str, answer: str) -> str:
    return hashlib.sha256(f"{question}\x00{answer}".encode()).hexdigest()[:16]


def _record(line: int, position: int, train_lines: list[str]) -> dict[str, Any]:
    raw = json.loads(train_lines[line - 1])
    question, answer = raw["question"], raw["answer"]
    tokens = [{"id": f"n{k}", "span": [s, e], "text": t} for k, (s, e, t) in enumerate(number_tokens(question))]
    steps = [
        {"index": i, "annotation": body, "at": at, "literals": [{"at": o, "text": t} for o, t in lits]}
        for i, (at, body, lits) in enumerate(annotation_literals(answer))
    ]
    return {
        "problem_id": f"train-{line}", "line": line, "sha": _sha(question, answer), "position": position,
        "question": question, "answer": answer, "tokens": tokens, "steps": steps,
    }  # fmt: skip


def _sheet(rec: dict[str, Any], role: str) -> str:
    q = rec["question"]
    out, last = [], 0
    for t in rec["tokens"]:
        s, e = t["span"]
        out.append(q[last:s] + f"[{t['id']} {q[s:e]}]")
        last = e
    out.append(q[last:])
    lines = [f"== {rec['problem_id']} (position {rec['position']}{', ' + role if role else ''})"]
    lines.append("QUESTION: " + "".join(out))
    lines.append("ANSWER:")
    by_line: dict[int, list[dict[str, Any]]] = {}
    answer = rec["answer"]
    starts = [0]
    for k, ch in enumerate(answer):
        if ch == "\n":
            starts.append(k + 1)
    for step in rec["steps"]:
        row = max(i for i, s in enumerate(starts) if s <= step["at"])
        by_line.setdefault(row, []).append(step)
    for row, text in enumerate(answer.split("\n")):
        lines.append("  " + text)
        for step in by_line.get(row, []):
            lits = "  ".join(f"s{step['index']}.l{j}={lit['text']}" for j, lit in enumerate(step["literals"]))
            lines.append(f"    step {step['index']}: {step['annotation']}      literals: {lits or '(none)'}")
    return "\n".join(lines) + "\n"


def worksheets(args: argparse.Namespace) -> int:
    train = Path(args.train)
    order = draw_sample(train, seed=SAMPLE_SEED, size=args.first + args.count)[args.first :]
    train_lines = train.read_text(encoding="utf-8").splitlines()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    records = [_record(line, args.first + k, train_lines) for k, line in enumerate(order)]
    n = args.batches
    primary = [records[k::n] for k in range(n)]
    for k in range(n):
        # a second, independent reading of `second` problems of the next batch, spread over its first half
        other = primary[(k + 1) % n]
        seconds = other[: 2 * args.second : 2][: args.second]
        items: list[tuple[dict[str, Any], str]] = []
        mine = list(primary[k])
        step = max(1, len(mine) // (2 * max(1, len(seconds))))
        for j, rec in enumerate(mine):
            items.append((rec, ""))
            if j % step == step - 1 and seconds:
                items.append((seconds.pop(0), "second reading"))
        items.extend((rec, "second reading") for rec in seconds)
        batch = {
            "batch": k,
            "constants": sorted(IMPLICIT_CONSTANTS),
            "problems": [dict(rec, role=role or "first") for rec, role in items],
        }
        (out / f"batch_{k}.json").write_text(json.dumps(batch, ensure_ascii=False), encoding="utf-8")
        (out / f"worksheet_{k}.txt").write_text(
            "".join(_sheet(rec, role) + "\n" for rec, role in items), encoding="utf-8"
        )
    shutil.copy(VALIDATOR, out / "validate.py")
    print(f"{len(records)} problems in {n} batches, {n * args.second} read twice -> {out}")
    return 0


def _find(haystack: str, words: str, occurrence: int, where: str) -> list[int]:
    start = -1
    for _ in range(occurrence):
        start = haystack.find(words, start + 1)
        if start < 0:
            raise SystemExit(f"{where}: the words {words!r} (occurrence {occurrence}) are not in the text")
    return [start, start + len(words)]


def _ref(raw: dict[str, Any], rec: dict[str, Any], where: str) -> dict[str, Any]:
    out = dict(raw)
    if "constant" in raw and raw.get("cue"):
        out["cue_span"] = _find(rec["question"], raw["cue"], int(raw.get("cue_occurrence", 1)), where)
    if "derived" in raw:
        out["span"] = _find(rec["question"], raw["derived"], int(raw.get("occurrence", 1)), where)
    if "solution" in raw:
        out["span"] = _find(rec["answer"], raw["solution"], int(raw.get("occurrence", 1)), where)
    return out


def assemble_one(rec: dict[str, Any], ann: dict[str, Any], split: str) -> dict[str, Any]:
    """One short-form annotation as a gold record (spans, offsets, the corpus line's sha)."""
    where = rec["problem_id"]
    tokens = {t["id"]: t for t in rec["tokens"]}
    mentions = []
    for m in ann["mentions"]:
        t = tokens[m["id"]]
        row: dict[str, Any] = {"id": m["id"], "span": t["span"], "text": t["text"], "value": m.get("value")}
        if "skip" in m:
            row["skip"] = m["skip"]
        else:
            row["unit"], row["per"] = m.get("unit"), m.get("per")
        if m.get("note"):
            row["note"] = m["note"]
        mentions.append(row)
    steps = []
    for step, written in zip(rec["steps"], ann["steps"], strict=True):
        operands = []
        for j, (lit, ref) in enumerate(zip(step["literals"], written["operands"], strict=True)):
            w = f"{where}.s{step['index']}.l{j}"
            op = {"literal": lit["text"], "at": lit["at"], **_ref(ref, rec, w)}
            if "also" in ref:
                op["also"] = [_ref(a, rec, w + ".also") for a in ref["also"]]
            operands.append(op)
        steps.append({"index": step["index"], "annotation": step["annotation"], "operands": operands})
    answer = ann.get("answer") or {"unit": None, "per": None}
    return {
        "problem_id": rec["problem_id"], "line": rec["line"], "sha": rec["sha"], "position": rec["position"],
        "split": split, "repeated_value": repeated_value(rec["question"], rec["answer"]),
        "annotator": ann.get("annotator", ""), "mentions": mentions, "steps": steps,
        "answer_unit": {"unit": answer.get("unit"), "per": answer.get("per")}, "notes": ann.get("notes", ""),
    }  # fmt: skip


def assemble(args: argparse.Namespace) -> int:
    train_lines = Path(args.train).read_text(encoding="utf-8").splitlines()
    first: list[dict[str, Any]] = []
    second: list[dict[str, Any]] = []
    for batch_path, ann_path in zip(args.batch, args.annotations, strict=True):
        batch = json.loads(Path(batch_path).read_text(encoding="utf-8"))
        by_id = {p["problem_id"]: p for p in batch["problems"]}  # a problem is in a batch once
        for line in Path(ann_path).read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            ann = json.loads(line)
            rec = by_id.get(ann["problem_id"])
            if rec is None:
                raise SystemExit(f"{ann_path}: {ann['problem_id']} is not in {batch_path}")
            role = "second" if rec["role"] == "second reading" else "first"
            raw = json.loads(train_lines[rec["line"] - 1])
            if _sha(raw["question"], raw["answer"]) != rec["sha"]:
                raise SystemExit(f"{rec['problem_id']}: the corpus line changed since the worksheet was made")
            (second if role == "second" else first).append(assemble_one(rec, ann, args.split))
    for path, rows in ((args.out, first), (args.second_out, second)):
        rows.sort(key=lambda r: r["position"])
        Path(path).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        print(f"{len(rows)} records -> {path}")
    return 0


def _ref_key(ref: dict[str, Any]) -> tuple[Any, ...]:
    for kind in ("mention", "step", "derived", "solution"):
        if kind in ref:
            return (kind, tuple(ref["span"]) if kind in ("derived", "solution") else ref[kind])
    if "constant" in ref:
        return ("constant", ref["constant"], ref.get("value"))
    return ("none",)


def _same_ref(a: dict[str, Any], b: dict[str, Any], *, ties: bool) -> bool:
    if ties:
        left = {_ref_key(a), *(_ref_key(x) for x in a.get("also", ()))}
        right = {_ref_key(b), *(_ref_key(x) for x in b.get("also", ()))}
        return bool(left & right) or _spans_meet(a, b)
    return _ref_key(a) == _ref_key(b) or _spans_meet(a, b)


def _spans_meet(a: dict[str, Any], b: dict[str, Any]) -> bool:
    sa, sb = a.get("span"), b.get("span")
    same_kind = ("derived" in a and "derived" in b) or ("solution" in a and "solution" in b)
    return bool(same_kind and sa and sb and sa[0] < sb[1] and sb[0] < sa[1])


def _noun(word: str | None) -> str | None:
    if word is None:
        return None
    w = word.lower().replace("-", "").replace(" ", "")
    for suffix, repl in (("ies", "y"), ("ves", "f"), ("ches", "ch"), ("shes", "sh"), ("s", "")):
        if w.endswith(suffix) and len(w) > len(suffix) + 2 and not w.endswith("ss"):
            return w[: -len(suffix)] + repl
    return w


def agreement(args: argparse.Namespace) -> int:
    """Operands and question units on which a first and a second reading agree (per problem both read)."""
    first = {r["problem_id"]: r for r in map(json.loads, Path(args.first).read_text(encoding="utf-8").splitlines())}
    second = [json.loads(line) for line in Path(args.second).read_text(encoding="utf-8").splitlines() if line]
    ops = ops_tied = ops_strict = units = units_same = 0
    disagreements: list[str] = []
    for b in second:
        a = first.get(b["problem_id"])
        if a is None:
            continue
        for sa, sb in zip(a["steps"], b["steps"], strict=True):
            for j, (oa, ob) in enumerate(zip(sa["operands"], sb["operands"], strict=True)):
                ops += 1
                ops_tied += _same_ref(oa, ob, ties=True)
                ops_strict += _same_ref(oa, ob, ties=False)
                if not _same_ref(oa, ob, ties=True):
                    disagreements.append(f"{b['problem_id']} s{sa['index']}.l{j}: {_ref_key(oa)} vs {_ref_key(ob)}")
        for ma, mb in zip(a["mentions"], b["mentions"], strict=True):
            if "skip" in ma and "skip" in mb:
                continue
            units += 1
            same = "skip" not in ma and "skip" not in mb and _noun(ma.get("unit")) == _noun(mb.get("unit"))
            same = same and _noun(ma.get("per")) == _noun(mb.get("per"))
            units_same += same
            if not same:
                disagreements.append(
                    f"{b['problem_id']} {ma['id']} {ma.get('text')!r}: {ma.get('unit', 'skip')}/{ma.get('per')} "
                    f"vs {mb.get('unit', 'skip')}/{mb.get('per')}"
                )
    problems = sum(1 for b in second if b["problem_id"] in first)
    print(f"problems read twice: {problems}")
    print(f"operands: {ops_tied}/{ops} agree ({ops_tied / max(1, ops):.1%}); {ops_strict} ({ops_strict / max(1, ops):.1%}) when a tie does not count")
    print(f"question units: {units_same}/{units} agree ({units_same / max(1, units):.1%})")
    if args.list:
        print("\n".join(disagreements))
    return 0


def adjudicate(args: argparse.Namespace) -> int:
    """Apply an adjudicator's decisions to the first readings: "second" takes the second reader's reading,
    "tie" keeps the first and adds the second as an equally supported reading (an operand's ``also``) or a
    note (a question token), "first" keeps the first.  Each changed record says so in ``adjudicated``."""
    path = Path(args.first)
    first = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    second = {r["problem_id"]: r for r in map(json.loads, Path(args.second).read_text(encoding="utf-8").splitlines())}
    by_id = {r["problem_id"]: r for r in first}
    counts: dict[str, int] = {}
    for line in Path(args.decisions).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        d = json.loads(line)
        counts[d["decision"]] = counts.get(d["decision"], 0) + 1
        a, b, where = by_id[d["problem_id"]], second[d["problem_id"]], d["where"]
        if d["decision"] == "first":
            continue
        if where.startswith("s"):
            step, lit = (int(x) for x in where[1:].split(".l"))
            oa, ob = a["steps"][step]["operands"][lit], b["steps"][step]["operands"][lit]
            if d["decision"] == "second":
                a["steps"][step]["operands"][lit] = ob
            else:
                extra = {k: v for k, v in ob.items() if k not in ("literal", "at", "also")}
                oa.setdefault("also", []).append(extra)
        else:
            k = next(i for i, m in enumerate(a["mentions"]) if m["id"] == where)
            if d["decision"] == "second":
                a["mentions"][k] = b["mentions"][k]
            else:
                mb = b["mentions"][k]
                a["mentions"][k]["note"] = f"tie with {mb.get('unit', 'skip')}/{mb.get('per')} (adjudicated)"
        note = f"{where}: {d['decision']} reader's reading ({d['why']})"
        a["adjudicated"] = f"{a['adjudicated']}; {note}" if a.get("adjudicated") else note
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in first), encoding="utf-8")
    print(", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("worksheets")
    w.add_argument("--train", required=True)
    w.add_argument("--first", type=int, default=300)
    w.add_argument("--count", type=int, default=1500)
    w.add_argument("--batches", type=int, default=6)
    w.add_argument("--second", type=int, default=25)
    w.add_argument("--out", required=True)
    w.set_defaults(run=worksheets)
    a = sub.add_parser("assemble")
    a.add_argument("--train", required=True)
    a.add_argument("--batch", action="append", required=True)
    a.add_argument("--split", default="train")
    a.add_argument("--out", required=True)
    a.add_argument("--second-out", required=True)
    a.add_argument("annotations", nargs="+")
    a.set_defaults(run=assemble)
    g = sub.add_parser("agreement")
    g.add_argument("first")
    g.add_argument("second")
    g.add_argument("--list", action="store_true")
    g.set_defaults(run=agreement)
    j = sub.add_parser("adjudicate")
    j.add_argument("first")
    j.add_argument("second")
    j.add_argument("decisions")
    j.set_defaults(run=adjudicate)
    args = parser.parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    raise SystemExit(main())
