"""Check the *form* of a reader's gold annotations against their batch (data/gold/GUIDE.md).

    python3 validate.py BATCH.json ANNOTATIONS.jsonl

Standard library only: it imports nothing of ssbg and judges no reading, only that each line is a JSON
object naming a problem of the batch, that every number token appears exactly once, every literal of
every annotation has one reference of a known kind, the names and words it cites exist, and that the
counts add up.  Prints one line per problem it cannot accept and a summary; exit 1 if any.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

KINDS = ("mention", "step", "constant", "derived", "solution", "none")


def _occurs(text: str, words: str, occurrence: int) -> bool:
    start = -1
    for _ in range(occurrence):
        start = text.find(words, start + 1)
        if start < 0:
            return False
    return True


def _check_ref(ref: Any, p: dict[str, Any], index: int, constants: set[str], where: str) -> list[str]:
    if not isinstance(ref, dict):
        return [f"{where}: a reference must be an object"]
    kinds = [k for k in KINDS if k in ref]
    if len(kinds) != 1:
        return [f"{where}: name exactly one of {KINDS} (got {sorted(ref)})"]
    kind, target = kinds[0], ref[kinds[0]]
    errors = []
    if kind == "mention" and target not in {t["id"] for t in p["tokens"]}:
        errors.append(f"{where}: no token {target!r}")
    if kind == "step" and not (type(target) is int and 0 <= target < index):
        errors.append(f"{where}: step must be an earlier annotation's index (< {index}), got {target!r}")
    if kind == "constant":
        if target == "other":
            if not isinstance(ref.get("value"), int | float) or not ref.get("meaning"):
                errors.append(f"{where}: an 'other' constant needs a numeric 'value' and a 'meaning'")
        elif target not in constants:
            errors.append(f"{where}: unknown constant {target!r}")
        cue = ref.get("cue")
        if cue is not None and not (isinstance(cue, str) and _occurs(p["question"], cue, int(ref.get("cue_occurrence", 1)))):
            errors.append(f"{where}: cue {cue!r} is not in the question (occurrence {ref.get('cue_occurrence', 1)})")
    if kind == "derived":
        if not (isinstance(target, str) and _occurs(p["question"], target, int(ref.get("occurrence", 1)))):
            errors.append(f"{where}: derived words {target!r} are not in the question")
        if not ref.get("how"):
            errors.append(f"{where}: a derived reference needs 'how'")
    if kind == "solution" and not (
        isinstance(target, str) and _occurs(p["answer"], target, int(ref.get("occurrence", 1)))
    ):
        errors.append(f"{where}: solution words {target!r} are not in the answer")
    if kind == "none" and not (isinstance(target, str) and target):
        errors.append(f"{where}: 'none' needs a reason")
    for k, also in enumerate(ref.get("also", ())):
        errors += _check_ref(also, p, index, constants, f"{where}.also[{k}]")
    return errors


def _unit(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value == value.strip().lower() and 0 < len(value) <= 40)


def check(ann: Any, batch: dict[str, Any], constants: set[str]) -> list[str]:
    if not isinstance(ann, dict) or "problem_id" not in ann:
        return ["not an object with a problem_id"]
    pid = ann["problem_id"]
    p = batch.get(pid)
    if p is None:
        return [f"{pid}: not in this batch"]
    errors = []
    ids = [m.get("id") for m in ann.get("mentions", []) if isinstance(m, dict)]
    want = [t["id"] for t in p["tokens"]]
    if ids != want:
        errors.append(f"{pid}: mentions must be exactly the tokens {want} in order (got {ids})")
    for m in ann.get("mentions", []):
        if not isinstance(m, dict):
            errors.append(f"{pid}: a mention must be an object")
            continue
        w = f"{pid}.{m.get('id')}"
        if "skip" in m:
            if not (isinstance(m["skip"], str) and m["skip"]):
                errors.append(f"{w}: 'skip' needs a reason")
            continue
        if not isinstance(m.get("value"), int | float) or isinstance(m.get("value"), bool):
            errors.append(f"{w}: 'value' must be a number")
        if "unit" not in m or "per" not in m:
            errors.append(f"{w}: write both 'unit' and 'per' (null where none), or 'skip'")
        elif not (_unit(m["unit"]) and _unit(m["per"])):
            errors.append(f"{w}: unit and per are lowercase words or null (got {m['unit']!r}, {m['per']!r})")
    steps = ann.get("steps", [])
    if not isinstance(steps, list) or len(steps) != len(p["steps"]):
        errors.append(f"{pid}: {len(p['steps'])} annotations need {len(p['steps'])} steps (got {len(steps) if isinstance(steps, list) else steps!r})")
        return errors
    for want_step, step in zip(p["steps"], steps, strict=True):
        i = want_step["index"]
        if not isinstance(step, dict) or step.get("index") != i:
            errors.append(f"{pid}: step {i} must have index {i}")
            continue
        ops = step.get("operands", [])
        if not isinstance(ops, list) or len(ops) != len(want_step["literals"]):
            errors.append(f"{pid}.s{i}: {len(want_step['literals'])} literals need as many operands")
            continue
        for j, ref in enumerate(ops):
            errors += _check_ref(ref, p, i, constants, f"{pid}.s{i}.l{j}")
    answer = ann.get("answer")
    if not isinstance(answer, dict) or not (_unit(answer.get("unit")) and _unit(answer.get("per"))):
        errors.append(f"{pid}: 'answer' must be {{'unit': ..., 'per': ...}}")
    role = "second" if p["role"] == "second reading" else "first"
    if ann.get("role", "first") != role:
        errors.append(f"{pid}: this problem is a {p['role']}: write \"role\": \"{role}\"")
    return errors


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    raw = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    batch = {p["problem_id"]: p for p in raw["problems"]}
    constants = set(raw["constants"])
    seen: set[str] = set()
    bad = 0
    lines = Path(argv[1]).read_text(encoding="utf-8").splitlines() if Path(argv[1]).exists() else []
    for k, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            ann = json.loads(line)
        except json.JSONDecodeError as exc:
            print(f"line {k}: not JSON ({exc.msg})")
            bad += 1
            continue
        errors = check(ann, batch, constants)
        pid = ann.get("problem_id") if isinstance(ann, dict) else None
        if pid in seen:
            errors.append(f"{pid}: written twice")
        seen.add(str(pid))
        for e in errors:
            print(f"line {k}: {e}")
        bad += bool(errors)
    todo = [pid for pid in batch if pid not in seen]
    print(f"{len(seen)} written, {bad} with errors, {len(todo)} to go" + (f" (next: {todo[0]})" if todo else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
