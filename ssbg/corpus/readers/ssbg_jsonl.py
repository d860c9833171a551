"""Reader of ssbg JSONL: one ``MathProblemGraph`` (or trace, with ``steps``) per line."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from pathlib import Path

from ssbg.corpus.records import CorpusRecord
from ssbg.errors import ImportRefusal, SsbgError
from ssbg.lanes import LANE_EXPECTED_KEY
from ssbg.problem import MathProblemGraph

__all__ = ["MAX_LINE_BYTES", "read_ssbg_jsonl"]

MAX_LINE_BYTES = 4 * 1024 * 1024


def _refusal(reason: str, message: str, where: str, problem_id: str, detail: str | None = None) -> ImportRefusal:
    return ImportRefusal(message, reason=reason, path=where, detail=detail, problem_id=problem_id, corpus="ssbg")


def read_ssbg_jsonl(path: Path, *, corpus: str = "ssbg") -> Iterator[CorpusRecord]:
    """Stream records from a JSONL file of MathProblemGraphs or traces.

    Lines are read as bytes so that a non-UTF-8 line or an oversized line
    refuses alone (``encoding_error`` / ``record_too_large``) and reading goes on.
    A top-level ``expected`` key (an expected-shape lane line) is ignored.
    """
    with open(path, "rb") as handle:
        for lineno, raw in enumerate(handle, start=1):
            where = f"{path}:{lineno}"
            if not raw.strip():
                continue
            fallback_id = f"{path.name}:{lineno}"
            if len(raw) > MAX_LINE_BYTES:
                yield CorpusRecord(
                    corpus,
                    fallback_id,
                    where,
                    refusal=_refusal(
                        "record_too_large", f"line of {len(raw)} bytes exceeds {MAX_LINE_BYTES}", where, fallback_id
                    ),
                )
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield CorpusRecord(
                    corpus,
                    fallback_id,
                    where,
                    refusal=_refusal(
                        "encoding_error", f"not UTF-8: {exc.reason} at byte {exc.start}", where, fallback_id
                    ),
                )
                continue
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                yield CorpusRecord(
                    corpus,
                    fallback_id,
                    where,
                    refusal=_refusal(
                        "malformed_record", f"not JSON: {exc.msg} (column {exc.colno})", where, fallback_id
                    ),
                )
                continue
            if isinstance(data, dict) and LANE_EXPECTED_KEY in data:
                # A lane line (data/lanes/, ssbg.lanes) is a MathProblemGraph plus its expected shape.
                data = {k: v for k, v in data.items() if k != LANE_EXPECTED_KEY}
            pid = data.get("problem_id") if isinstance(data, dict) else None
            problem_id = pid if isinstance(pid, str) and pid.strip() else fallback_id
            try:
                if isinstance(data, dict) and "steps" in data:
                    trace_mod = importlib.import_module("ssbg.trace")
                    payload = trace_mod.Trace.from_dict(data, path=f"{where}:$")
                else:
                    payload = MathProblemGraph.from_dict(data, path=f"{where}:$")
            except SsbgError as exc:
                yield CorpusRecord(
                    corpus,
                    problem_id,
                    where,
                    refusal=_refusal("malformed_record", exc.message, exc.path or where, problem_id, detail=exc.reason),
                )
                continue
            text_field = data.get("text") if isinstance(data, dict) else None
            gold = getattr(payload, "gold_answer_unit", None)  # a trace may carry its corpus's gold unit
            yield CorpusRecord(
                corpus,
                problem_id,
                where,
                payload=payload,
                text=text_field if isinstance(text_field, str) else None,
                gold_answer_unit=gold if isinstance(gold, str) else None,
            )
