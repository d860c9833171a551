"""Put the re-read ``per`` labels of issue 36 in force in the gold files (data/gold/README.md).

The readers of the re-read (``data/gold/per_reread.gold.jsonl``: one line per problem, the labels that change under
GUIDE.md's word-decided ``per`` rule) wrote their changes beside the gold, not into it.  This tool rewrites
``gsm8k_train_alignments.gold.jsonl`` (both halves: the held-out half was re-read from the text like the rest) and
``gsm8k_train_annotations.gold.jsonl`` with them:

- a changed mention gets its new ``per`` (and ``unit`` where the reader changed it), its second denominator as
  ``per2`` when there is one, and ``reread`` ``{"by": reader, "was": old per}``: where the label came from;
- a mention the re-read gives a ``for_one`` cue (the words that say "one thing": "a refrigerator", "each") gets
  ``for_one_cue``, changed or not.

Every change is checked against the file before it is made: the mention must exist and carry the ``per`` the reader
says it had (or already the new one, with the same ``reread``: a second run changes nothing).  Records are written
back as they were read (``json.dumps``, ``ensure_ascii=False``, one per line, in order), so the tool is
deterministic and idempotent.  A record or change it cannot place stops it with ``file:line`` and writes nothing.

    python tools/apply_per_reread.py [--check]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

GOLD = Path(__file__).resolve().parents[1] / "data" / "gold"
REREAD = "per_reread.gold.jsonl"
TARGETS = {"alignments": "gsm8k_train_alignments.gold.jsonl", "annotations": "gsm8k_train_annotations.gold.jsonl"}


class RereadError(ValueError):
    """A re-read record that does not fit the gold file it names (``where``: file:line)."""


def _records(path: Path) -> list[dict[str, Any]]:
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RereadError(f"{path.name}:{n}: not JSON ({exc.msg})") from None
        if not isinstance(raw, dict):
            raise RereadError(f"{path.name}:{n}: not a JSON object")
        out.append(raw)
    return out


def _kind(per: object) -> str:
    return "null" if per is None else "a rate"


def _apply_one(record: dict[str, Any], reread: Mapping[str, Any], where: str, counts: Counter[str]) -> None:
    """The re-read ``reread`` applied to the gold ``record`` in place (checked first, see the module)."""
    by_id = {m["id"]: m for m in record["mentions"]}
    reader = reread.get("reader")
    for change in reread.get("changes", ()):
        m = by_id.get(change.get("mention"))
        if m is None or "skip" in m:
            raise RereadError(f"{where}: {record['problem_id']} has no quantity {change.get('mention')!r}")
        mark = {"by": reader, "was": change["old_per"]}
        if m.get("reread") == mark:  # applied by an earlier run
            counts["already applied"] += 1
            continue
        if m.get("per") != change["old_per"]:
            raise RereadError(
                f"{where}: {record['problem_id']} {m['id']} has per {m.get('per')!r}, the re-read says it had "
                f"{change['old_per']!r}"
            )
        m["per"] = change["new_per"]
        if change.get("new_unit"):
            m["unit"] = change["new_unit"]
        if change.get("per2"):
            m["per2"] = change["per2"]
        m["reread"] = mark
        counts["per changed" if change["old_per"] != change["new_per"] else "per2 added"] += 1
        counts[f"{_kind(change['old_per'])} -> {_kind(change['new_per'])}"] += 1
    for cue in reread.get("for_one", ()):
        m = by_id.get(cue.get("mention"))
        if m is None:
            raise RereadError(f"{where}: {record['problem_id']} has no mention {cue.get('mention')!r} (for_one)")
        if m.get("for_one_cue") != cue["cue"]:
            m["for_one_cue"] = cue["cue"]
            counts["for_one cues written"] += 1


def apply(gold: Path = GOLD) -> tuple[dict[str, str], Counter[str]]:
    """The new text of each gold file and the counts of what changed (nothing is written here)."""
    files = {key: _records(gold / name) for key, name in TARGETS.items()}
    index = {(key, r["problem_id"]): r for key, rows in files.items() for r in rows}
    counts: Counter[str] = Counter()
    seen: set[tuple[str, str]] = set()
    for n, reread in enumerate(_records(gold / REREAD), start=1):
        where = f"{REREAD}:{n}"
        key = (reread.get("file"), reread.get("problem_id"))
        record = index.get(key)  # type: ignore[arg-type]
        if record is None:
            raise RereadError(f"{where}: no gold record {key[1]!r} in the {key[0]!r} file")
        if key in seen:
            raise RereadError(f"{where}: {key[1]!r} re-read twice")
        seen.add(key)  # type: ignore[arg-type]
        _apply_one(record, reread, where, counts)
        counts["problems re-read"] += 1
    missing = sorted(pid for key, pid in index if (key, pid) not in seen)
    if missing:
        raise RereadError(f"{REREAD}: {len(missing)} gold problems were not re-read (first {missing[0]!r})")
    text = {
        TARGETS[key]: "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows) for key, rows in files.items()
    }
    return text, counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gold", type=Path, default=GOLD)
    parser.add_argument("--check", action="store_true", help="exit 1 if the gold files lack a re-read label")
    args = parser.parse_args(argv)
    try:
        text, counts = apply(args.gold)
    except RereadError as exc:
        print(f"apply_per_reread: {exc}", file=sys.stderr)
        return 2
    stale = [name for name, body in text.items() if (args.gold / name).read_text(encoding="utf-8") != body]
    for key in sorted(counts):
        print(f"{key}: {counts[key]}")
    if args.check:
        print("gold files carry the re-read labels" if not stale else f"not yet applied: {', '.join(stale)}")
        return 1 if stale else 0
    for name in stale:
        (args.gold / name).write_text(text[name], encoding="utf-8")
        print(f"wrote {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
