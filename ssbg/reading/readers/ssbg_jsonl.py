"""Reader of ssbg JSONL: one ``MathProblemGraph`` (or trace, with ``steps``) per line."""

from __future__ import annotations

import importlib

from ssbg.errors import ImportRefusal, SsbgError
from ssbg.problem import LANE_EXPECTED_KEY, MathProblemGraph
from ssbg.reading.readers.common import MAX_RECORD_BYTES, RawRecord, StagedReader, decode_jsonl_line, scan_jsonl
from ssbg.reading.records import CorpusRecord
from ssbg.units import UnitPack

__all__ = ["CORPUS", "MAX_LINE_BYTES", "build_ssbg_record", "read_ssbg_jsonl"]

CORPUS = "ssbg"
MAX_LINE_BYTES = MAX_RECORD_BYTES


def _refusal(reason: str, message: str, where: str, problem_id: str, detail: str | None = None) -> ImportRefusal:
    return ImportRefusal(message, reason=reason, path=where, detail=detail, problem_id=problem_id, corpus=CORPUS)


def build_ssbg_record(raw: RawRecord, pack: UnitPack | None = None) -> CorpusRecord:
    """One line of ssbg JSONL (the bytes :func:`~ssbg.reading.readers.common.scan_jsonl` read) into a record.

    A non-UTF-8 or oversized line refuses alone (``encoding_error`` /
    ``record_too_large``); a top-level ``expected`` key (an expected-shape lane
    line) is ignored.  ``pack`` is unused: the payload is decoded, not extracted.
    """
    where = raw.where
    fallback_id = f"{raw.path.name}:{raw.line}"
    decoded = decode_jsonl_line(raw)
    if decoded.refusal is not None:
        reason, message = decoded.refusal
        return CorpusRecord(CORPUS, fallback_id, where, refusal=_refusal(reason, message, where, fallback_id))
    data = decoded.data
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
        return CorpusRecord(
            CORPUS,
            problem_id,
            where,
            refusal=_refusal("malformed_record", exc.message, exc.path or where, problem_id, detail=exc.reason),
        )
    text_field = data.get("text") if isinstance(data, dict) else None
    gold = getattr(payload, "gold_answer_unit", None)  # a trace may carry its corpus's gold unit
    return CorpusRecord(
        CORPUS,
        problem_id,
        where,
        payload=payload,
        text=text_field if isinstance(text_field, str) else None,
        gold_answer_unit=gold if isinstance(gold, str) else None,
    )


read_ssbg_jsonl = StagedReader(scan_jsonl, build_ssbg_record, CORPUS)
"""Stream records from a JSONL file of MathProblemGraphs or traces (lines read as bytes: a bad line refuses alone)."""
