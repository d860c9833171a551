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
from typing import Any, Protocol

from ssbg import jsontext
from ssbg.errors import ImportRefusal
from ssbg.reading.records import CorpusRecord
from ssbg.trace import Trace
from ssbg.units import UnitPack, default_pack

__all__ = [
    "MAX_RECORD_BYTES",
    "RawRecord",
    "StagedReader",
    "decode_jsonl_line",
    "iter_json_array",
    "json_array_builder",
    "refused_record",
    "scan_jsonl",
    "text_field",
]

MAX_RECORD_BYTES = 4 * 1024 * 1024
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


def scan_jsonl(path: Path) -> Iterator[RawRecord]:
    """The cheap first stage of reading JSONL: each non-blank line as its raw bytes (``data``), with its number."""
    with open(path, "rb") as handle:
        for lineno, raw in enumerate(handle, start=1):
            if raw.strip():
                yield RawRecord(path, lineno, data=raw)


def decode_jsonl_line(raw: RawRecord) -> RawRecord:
    """Parse a line of :func:`scan_jsonl`: its JSON value, or why it cannot be read (size, UTF-8, JSON)."""
    line: bytes = raw.data
    if len(line) > MAX_RECORD_BYTES:
        return RawRecord(
            raw.path,
            raw.line,
            refusal=("record_too_large", f"line of {len(line)} bytes exceeds {MAX_RECORD_BYTES}"),
        )
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return RawRecord(raw.path, raw.line, refusal=("encoding_error", f"not UTF-8: {exc.reason} at byte {exc.start}"))
    try:
        return RawRecord(raw.path, raw.line, data=jsontext.loads(text))
    except json.JSONDecodeError as exc:
        return RawRecord(raw.path, raw.line, refusal=("malformed_record", f"not JSON: {exc.msg} (column {exc.colno})"))


_NEWLINE = re.compile("\n")
_NEXT_OBJECT = re.compile(r",\s*(?=\{)")
_BAD_BYTE = re.compile("[\udc80-\udcff]")


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
            value, end = jsontext.raw_decode(text, pos)
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
    gold_answer_unit: str | None = None,
) -> CorpusRecord:
    """A :class:`CorpusRecord` carrying an :class:`ImportRefusal` (and the gold answer unit the record states,
    so that a refused problem with a gold unit is not counted as one without)."""
    refusal = ImportRefusal(message, reason=reason, path=where, detail=detail, problem_id=problem_id, corpus=corpus)
    return CorpusRecord(corpus, problem_id, where, refusal=refusal, text=text, gold_answer_unit=gold_answer_unit)


def record_id(data: object, key: str) -> str | None:
    """A record's id field as text (an int or a non-blank str), or None."""
    value = data.get(key) if isinstance(data, dict) else None
    if isinstance(value, bool) or not isinstance(value, int | str) or not str(value).strip():
        return None
    return str(value)


@dataclass(frozen=True, slots=True)
class StagedReader:
    """A corpus reader in two stages, so that the costly one can run in worker processes.

    ``scan(path)`` is the cheap stage: it streams a file's raw records in order
    (a JSONL line's bytes, a JSON-array element, an XML chunk), each a
    :class:`RawRecord`.  ``build(raw, pack)`` is the costly stage: one raw record
    in, one :class:`CorpusRecord` out (a payload or a typed refusal, never an
    exception); it is a pure function, so a batch engine may run it anywhere
    (ADR 0007).  Calling the reader runs both stages in this process.
    """

    scan: Callable[[Path], Iterator[RawRecord]]
    build: Callable[[RawRecord, UnitPack], CorpusRecord]

    def __call__(self, path: Path) -> Iterator[CorpusRecord]:
        pack = default_pack()
        for raw in self.scan(path):
            yield self.build(raw, pack)


class TraceReader(Protocol):
    """A corpus's record reader: ``svamp_trace(data, where=..., pack=...)`` and its kin."""

    def __call__(self, data: dict[str, Any], *, where: str | None = None, pack: UnitPack | None = None) -> Trace: ...


def json_array_builder(
    corpus: str,
    *,
    id_key: str,
    text_key: str,
    trace: TraceReader,
) -> Callable[[RawRecord, UnitPack], CorpusRecord]:
    """The build stage of the JSON-array corpora (SVAMP, MAWPS, CogComp).

    An element of :func:`iter_json_array` becomes a record carrying
    ``trace(data, where=..., pack=...)`` and its gold answer unit, or an
    :class:`ImportRefusal` at ``file:line`` (with the problem text when the
    element has one).
    """

    def build(raw: RawRecord, pack: UnitPack) -> CorpusRecord:
        fallback = f"{raw.path.name}:{raw.line}"
        if raw.refusal is not None:
            return refused_record(corpus, fallback, raw.where, *raw.refusal)
        data = raw.data
        problem_id = record_id(data, id_key) or fallback
        try:
            if not isinstance(data, dict):
                raise ImportRefusal(
                    f"a record must be a JSON object (got {type(data).__name__})", reason="malformed_record"
                )
            built = trace(data, where=raw.where, pack=pack)
        except ImportRefusal as exc:
            text = data.get(text_key) if isinstance(data, dict) else None
            return refused_record(
                corpus,
                problem_id,
                raw.where,
                exc.reason,
                exc.message,
                detail=exc.detail,
                text=text if isinstance(text, str) else None,
            )
        return CorpusRecord(
            corpus, problem_id, raw.where, payload=built, text=built.text, gold_answer_unit=built.gold_answer_unit
        )

    return build


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
