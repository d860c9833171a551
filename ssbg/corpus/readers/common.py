"""Shared plumbing of the corpus readers: tolerant streaming of JSONL and JSON arrays.

Every record comes out as a :class:`RawRecord`: either its parsed JSON value or
the reason it could not be read (``encoding_error``, ``record_too_large``,
``malformed_record``), with ``file:line``.  A bad record never stops a file:
a JSONL reader goes on at the next line; a JSON-array reader resynchronises at
the next element that starts an object (so a truncated or damaged element
refuses alone and the good ones still read).

Examples
--------
>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as d:
...     p = pathlib.Path(d, "a.json")
...     _ = p.write_bytes(b'[{"a": 1},\\n {"a": oops},\\n {"a": 3}]')
...     [(r.line, r.refusal[0] if r.refusal else r.data) for r in iter_json_array(p)]
[(1, {'a': 1}), (2, 'malformed_record'), (3, {'a': 3})]
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ssbg.corpus.readers.ssbg_jsonl import MAX_LINE_BYTES
from ssbg.corpus.records import CorpusRecord
from ssbg.errors import ImportRefusal
from ssbg.trace import Trace
from ssbg.units import UnitPack, default_pack

__all__ = ["MAX_RECORD_BYTES", "RawRecord", "iter_json_array", "iter_jsonl", "refused_record", "text_field"]

MAX_RECORD_BYTES = MAX_LINE_BYTES
"""A record (a JSONL line, a JSON-array element, an XML problem) larger than this refuses as ``record_too_large``."""


@dataclass(frozen=True, slots=True)
class RawRecord:
    """One record of a file: its JSON value, or ``refusal = (reason, message)``."""

    path: Path
    line: int
    data: Any = None
    refusal: tuple[str, str] | None = None

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


def iter_jsonl(path: Path) -> Iterator[RawRecord]:
    """Stream a JSONL file line by line (blank lines skipped), reading bytes so one bad line refuses alone."""
    with open(path, "rb") as handle:
        for lineno, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            if len(raw) > MAX_RECORD_BYTES:
                yield RawRecord(
                    path, lineno, refusal=("record_too_large", f"line of {len(raw)} bytes exceeds {MAX_RECORD_BYTES}")
                )
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield RawRecord(
                    path, lineno, refusal=("encoding_error", f"not UTF-8: {exc.reason} at byte {exc.start}")
                )
                continue
            try:
                yield RawRecord(path, lineno, data=json.loads(text))
            except json.JSONDecodeError as exc:
                yield RawRecord(path, lineno, refusal=("malformed_record", f"not JSON: {exc.msg} (column {exc.colno})"))


_NEWLINE = re.compile("\n")
_NEXT_OBJECT = re.compile(r",\s*(?=\{)")
_BAD_BYTE = re.compile("[\udc80-\udcff]")
_DECODER = json.JSONDecoder()


def iter_json_array(path: Path) -> Iterator[RawRecord]:
    """Stream the elements of a file holding one JSON array of objects.

    Bytes that are not UTF-8 make only the element holding them refuse
    (``encoding_error``); an element that does not parse refuses
    (``malformed_record``) and reading resumes at the next ``, {``; a file that
    is not an array at all refuses once, at line 1.
    """
    raw = path.read_bytes()
    text = raw.decode("utf-8", errors="surrogateescape")
    newlines = [m.start() for m in _NEWLINE.finditer(text)]

    def line_of(offset: int) -> int:
        return bisect.bisect_right(newlines, offset - 1) + 1

    pos = _skip_ws(text, 0)
    if pos >= len(text) or text[pos] != "[":
        yield RawRecord(path, 1, refusal=("malformed_record", "the file is not a JSON array"))
        return
    pos = _skip_ws(text, pos + 1)
    if pos < len(text) and text[pos] == "]":
        return
    while pos < len(text):
        start = pos
        try:
            value, end = _DECODER.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            yield RawRecord(
                path,
                line_of(start),
                refusal=("malformed_record", f"element is not JSON: {exc.msg} (line {exc.lineno})"),
            )
            resync = _NEXT_OBJECT.search(text, max(exc.pos, start + 1))
            if resync is None:
                return
            pos = _skip_ws(text, resync.end())
            continue
        if end - start > MAX_RECORD_BYTES:
            yield RawRecord(
                path,
                line_of(start),
                refusal=("record_too_large", f"element of {end - start} characters exceeds {MAX_RECORD_BYTES}"),
            )
        elif _BAD_BYTE.search(text, start, end) is not None:
            yield RawRecord(path, line_of(start), refusal=("encoding_error", "element holds bytes that are not UTF-8"))
        else:
            yield RawRecord(path, line_of(start), data=value)
        pos = _skip_ws(text, end)
        if pos < len(text) and text[pos] == ",":
            pos = _skip_ws(text, pos + 1)
        elif pos < len(text) and text[pos] == "]":
            return
        elif pos < len(text):
            yield RawRecord(path, line_of(pos), refusal=("malformed_record", "expected ',' or ']' between elements"))
            resync = _NEXT_OBJECT.search(text, pos)
            if resync is None:
                return
            pos = _skip_ws(text, resync.end())


def _skip_ws(text: str, pos: int) -> int:
    n = len(text)
    while pos < n and text[pos] in " \t\r\n":
        pos += 1
    return pos


def refused_record(
    corpus: str,
    problem_id: str,
    where: str,
    reason: str,
    message: str,
    *,
    detail: str | None = None,
    text: str | None = None,
) -> CorpusRecord:
    """A :class:`CorpusRecord` carrying an :class:`ImportRefusal`."""
    refusal = ImportRefusal(message, reason=reason, path=where, detail=detail, problem_id=problem_id, corpus=corpus)
    return CorpusRecord(corpus, problem_id, where, refusal=refusal, text=text)


def record_id(data: object, key: str) -> str | None:
    """A record's id field as text (an int or a non-blank str), or None."""
    value = data.get(key) if isinstance(data, dict) else None
    if isinstance(value, bool) or not isinstance(value, int | str) or not str(value).strip():
        return None
    return str(value)


def read_json_array_traces(
    path: Path,
    corpus: str,
    *,
    id_key: str,
    text_key: str,
    build: Callable[[dict[str, Any], str, UnitPack], Trace],
) -> Iterator[CorpusRecord]:
    """The reading loop of the JSON-array corpora (SVAMP, MAWPS, CogComp).

    Each element becomes a record carrying ``build(data, where, pack)``'s trace
    and its gold answer unit, or an :class:`ImportRefusal` at ``file:line``
    (with the problem text when the element has one); reading goes on.
    """
    pack = default_pack()
    for raw in iter_json_array(path):
        fallback = f"{path.name}:{raw.line}"
        if raw.refusal is not None:
            yield refused_record(corpus, fallback, raw.where, *raw.refusal)
            continue
        data = raw.data
        problem_id = record_id(data, id_key) or fallback
        try:
            if not isinstance(data, dict):
                raise ImportRefusal(
                    f"a record must be a JSON object (got {type(data).__name__})", reason="malformed_record"
                )
            trace = build(data, raw.where, pack)
        except ImportRefusal as exc:
            text = data.get(text_key) if isinstance(data, dict) else None
            yield refused_record(
                corpus,
                problem_id,
                raw.where,
                exc.reason,
                exc.message,
                detail=exc.detail,
                text=text if isinstance(text, str) else None,
            )
            continue
        yield CorpusRecord(
            corpus, problem_id, raw.where, payload=trace, text=trace.text, gold_answer_unit=trace.gold_answer_unit
        )


def text_field(data: dict[str, Any], name: str) -> str:
    """A required string field of a record; ``ImportRefusal`` (``malformed_record`` / ``empty_text``) otherwise."""
    if name not in data:
        raise ImportRefusal(f"record has no '{name}' field", reason="malformed_record", detail=name)
    value = data[name]
    if not isinstance(value, str):
        raise ImportRefusal(
            f"'{name}' must be a string (got {type(value).__name__})", reason="malformed_record", detail=name
        )
    if not value.strip():
        raise ImportRefusal(f"'{name}' is empty", reason="empty_text", detail=name)
    return value
