"""Shared plumbing of the corpus readers: bounded, tolerant streaming of JSONL and JSON arrays.

Every record comes out as a :class:`RawRecord`: either its parsed JSON value or
the reason it could not be read (``encoding_error``, ``record_too_large``,
``malformed_record``, ``unreadable_file``), with ``file:line``.  A bad record
never stops a file: a JSONL reader goes on at the next line; a JSON-array
reader resynchronises at the next element that starts an object (so a
truncated or damaged element refuses alone and the good ones still read).

Reading is bounded: only regular files are opened (a FIFO or a device refuses,
:func:`ssbg.files.open_regular`); a file in UTF-16 or UTF-32 refuses once with
that reason (a UTF-8 byte order mark is skipped); a JSONL line longer than
:data:`MAX_RECORD_BYTES` refuses before it is read whole; a JSON array is read
in blocks, so memory holds the current element and a block, never the file.

:class:`StagedReader` is the seam of fault isolation: whatever fails while one
record is read (a bug, an input no rule foresaw) becomes that record's typed
refusal, ``reader_error`` with ``file:line``, and the run goes on.

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

import codecs
import contextlib
import gzip
import io
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from ssbg import jsontext
from ssbg.errors import ImportRefusal, NumberError, SsbgError
from ssbg.files import open_regular, sniff_encoding
from ssbg.reading.records import CorpusRecord
from ssbg.trace import Trace
from ssbg.units import UnitPack, default_pack

__all__ = [
    "MAX_RECORD_BYTES",
    "RawRecord",
    "StagedReader",
    "decode_jsonl_line",
    "failed_record",
    "iter_json_array",
    "json_array_builder",
    "numbers_of",
    "open_corpus_file",
    "refused_record",
    "scan_jsonl",
    "text_field",
]

MAX_RECORD_BYTES = 4 * 1024 * 1024
"""A record (a JSONL line, a JSON-array element, an XML problem) larger than this refuses as ``record_too_large``."""

BLOCK_BYTES = 1 << 20
"""How much of a file a reader takes at a time."""


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


GZIP_MAGIC = b"\x1f\x8b"
"""The first bytes of a gzip stream: a file that starts with them is read decompressed, whatever its name."""


class _Gunzipped(gzip.GzipFile):
    """A gzip stream over an open file, closing the file with it."""

    def __init__(self, handle: BinaryIO) -> None:
        super().__init__(fileobj=handle, mode="rb")
        self._file = handle

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._file.close()


def open_corpus_file(path: Path) -> tuple[BinaryIO | None, RawRecord | None]:
    """Open a corpus file for reading, past a UTF-8 byte order mark: ``(handle, None)``, or ``(None, refusal)``
    when it cannot be read: not a regular file, refused by the file system (``unreadable_file``), or in
    UTF-16/UTF-32 (``encoding_error``, naming the encoding).  A gzip-compressed file (:data:`GZIP_MAGIC`, by its
    first bytes, whatever its name) is read decompressed, a block at a time; a damaged stream is
    ``unreadable_file`` where it is found."""
    try:
        handle: Any = open_regular(path)
    except OSError as exc:
        return None, RawRecord(path, 1, refusal=("unreadable_file", f"cannot read {path}: {exc.strerror or exc}"))
    try:
        if handle.peek(2)[:2] == GZIP_MAGIC:
            handle = io.BufferedReader(_Gunzipped(handle))
        head = handle.peek(4)[:4]
        skip, other = sniff_encoding(head)
        if other is not None:
            handle.close()
            return None, RawRecord(path, 1, refusal=("encoding_error", f"the file is in {other}; ssbg reads UTF-8"))
        handle.read(skip)
    except (OSError, EOFError) as exc:  # EOFError: a gzip stream cut short
        handle.close()
        why = getattr(exc, "strerror", None) or exc
        return None, RawRecord(path, 1, refusal=("unreadable_file", f"cannot read {path}: {why}"))
    return handle, None


def scan_jsonl(path: Path) -> Iterator[RawRecord]:
    """The cheap first stage of reading JSONL: each non-blank line as its raw bytes (``data``), with its number.

    A line longer than :data:`MAX_RECORD_BYTES` is refused (``record_too_large``) as soon as that many bytes
    are read, and the rest of it is skipped a block at a time: it is never held whole.
    """
    handle, refusal = open_corpus_file(path)
    if handle is None:
        yield refusal  # type: ignore[misc]
        return
    limit = MAX_RECORD_BYTES
    with handle:
        lineno = 0
        while True:
            try:
                raw = handle.readline(limit + 1)
            except (OSError, EOFError) as exc:  # EOFError: a gzip stream cut short
                why = getattr(exc, "strerror", None) or exc
                yield RawRecord(path, lineno + 1, refusal=("unreadable_file", f"cannot read: {why}"))
                return
            if not raw:
                return
            lineno += 1
            if len(raw) > limit and not raw.endswith(b"\n"):
                size = len(raw)
                while raw and not raw.endswith(b"\n"):
                    raw = handle.readline(BLOCK_BYTES)
                    size += len(raw)
                yield RawRecord(
                    path, lineno, refusal=("record_too_large", f"line of {size} bytes exceeds {limit}")
                )
            elif raw.strip():
                yield RawRecord(path, lineno, data=raw)


def decode_jsonl_line(raw: RawRecord) -> RawRecord:
    """Parse a line of :func:`scan_jsonl`: its JSON value, or why it cannot be read (size, UTF-8, JSON); a record
    whose data is not bytes is decoded already and comes back as it is."""
    if raw.refusal is not None or not isinstance(raw.data, bytes | bytearray):
        return raw  # refused, or a record read already (a row of a table, :mod:`~ssbg.reading.readers.tabular`)
    line = bytes(raw.data)
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
    except jsontext.UnencodableText as exc:
        return RawRecord(raw.path, raw.line, refusal=("encoding_error", f"not Unicode text: {exc.msg}"))
    except json.JSONDecodeError as exc:
        return RawRecord(raw.path, raw.line, refusal=("malformed_record", f"not JSON: {exc.msg} (column {exc.colno})"))


_BAD_BYTE = re.compile("[\udc80-\udcff]")
_WS = re.compile(r"[ \t\r\n]*")
# Where a damaged element's successor may start: after a comma, or at the start of a line indented no
# deeper than the damaged element (a JSON string holds no raw newline, so a cut string ends at one).
_NEXT_ELEMENT = re.compile(r",[ \t\r\n]*(?=\{)|\n([ \t]*)(?=\{)")


class _Window:
    """A file's text from the current element on, read a block at a time (memory: an element and a block).

    Offsets are into :attr:`text`; :meth:`forget` drops what lies before an offset and returns the
    offset's new value.  :meth:`line_of` counts lines incrementally (offsets asked for only grow).
    """

    def __init__(self, handle: BinaryIO) -> None:
        self._handle = handle
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="surrogateescape")
        self.text = ""
        self.eof = False
        self._mark = 0  # an offset whose line is known ...
        self._mark_line = 1  # ... and that line

    def more(self) -> bool:
        """Read a block; False at the end of the file."""
        if self.eof:
            return False
        data = self._handle.read(BLOCK_BYTES)
        if not data:
            self.text += self._decoder.decode(b"", final=True)
            self.eof = True
            return False
        self.text += self._decoder.decode(data)
        return True

    def has(self, pos: int, n: int = 1) -> bool:
        """Whether ``text[pos : pos + n]`` is there, reading blocks until it is (or the file ends)."""
        while len(self.text) < pos + n:
            if not self.more():
                return False
        return True

    def skip_ws(self, pos: int) -> int:
        """The first offset from ``pos`` that is not JSON whitespace (reading on as needed)."""
        while self.has(pos):
            pos = _WS.match(self.text, pos).end()  # type: ignore[union-attr]  # matches the empty string too
            if pos < len(self.text):
                return pos
            pos = self.forget(pos)
        return pos

    def line_of(self, pos: int) -> int:
        self._mark_line += self.text.count("\n", self._mark, pos)
        self._mark = pos
        return self._mark_line

    def forget(self, pos: int) -> int:
        """Drop the text before ``pos`` (once a block of it is consumed); ``pos``'s new offset."""
        if pos < BLOCK_BYTES:
            return pos
        self.line_of(pos)
        self.text = self.text[pos:]
        self._mark = 0
        return 0


def iter_json_array(path: Path) -> Iterator[RawRecord]:
    """Stream the elements of a file holding one JSON array of objects.

    Bytes that are not UTF-8 make only the element holding them refuse
    (``encoding_error``); an element that does not parse refuses
    (``malformed_record``) and reading resumes at the next ``, {`` or at the next
    line that starts an object no deeper than it; an element longer than
    :data:`MAX_RECORD_BYTES` refuses (``record_too_large``) and reading resumes
    after it; a file that is not an array at all refuses once, at line 1.  The
    file is read a block at a time: memory holds an element and a block.
    """
    handle, refusal = open_corpus_file(path)
    if handle is None:
        yield refusal  # type: ignore[misc]
        return
    with handle:
        try:
            yield from _array_elements(path, _Window(handle))
        except OSError as exc:
            yield RawRecord(path, 1, refusal=("unreadable_file", f"cannot read {path}: {exc.strerror or exc}"))


def _array_elements(path: Path, w: _Window) -> Iterator[RawRecord]:
    pos = w.skip_ws(0)
    if not w.has(pos) or w.text[pos] != "[":
        yield RawRecord(path, 1, refusal=("malformed_record", "the file is not a JSON array"))
        return
    pos = w.skip_ws(pos + 1)
    if w.has(pos) and w.text[pos] == "]":
        return
    while w.has(pos):
        pos = w.forget(pos)
        start = pos
        line = w.line_of(start)
        element = _element(w, start, line)
        if isinstance(element, _Damaged):
            yield RawRecord(path, line, refusal=element.refusal)
            if element.resume is None:
                return
            if not element.whole:
                pos = w.skip_ws(element.resume)
                continue
            end = element.resume
        else:
            value, end = element
            if _BAD_BYTE.search(w.text, start, end) is not None:
                yield RawRecord(path, line, refusal=("encoding_error", "element holds bytes that are not UTF-8"))
            else:
                yield RawRecord(path, line, data=value)
        pos = w.skip_ws(end)
        if not w.has(pos):
            return
        if w.text[pos] == ",":
            pos = w.skip_ws(pos + 1)
        elif w.text[pos] == "]":
            return
        else:
            yield RawRecord(path, w.line_of(pos), refusal=("malformed_record", "expected ',' or ']' between elements"))
            resume = _resync(w, pos, pos)
            if resume is None:
                return
            pos = w.skip_ws(resume)


@dataclass(frozen=True, slots=True)
class _Damaged:
    refusal: tuple[str, str]
    resume: int | None  # where to read on (None: nowhere)
    whole: bool = False  # resume is the element's own end (it is well-formed, only too large)


def _element(w: _Window, start: int, line: int) -> tuple[Any, int] | _Damaged:
    """The element at ``start`` and its end, or why it cannot be read and where to read on.

    The element is decoded from what is read so far; a failure with less than a record's worth read
    reads more and tries again, so an element is only called damaged when it is (or is too large).
    """
    limit = MAX_RECORD_BYTES
    while True:
        try:
            value, end = jsontext.raw_decode(w.text, start)
        except jsontext.UnencodableText as exc:
            return _Damaged(("encoding_error", f"element is not Unicode text: {exc.msg}"), _resync(w, start, start + 1))
        except json.JSONDecodeError as exc:
            if len(w.text) - start <= limit and w.more():
                continue  # the element may go on past what is read
            where = line + w.text.count("\n", start, exc.pos)
            if not w.eof or len(w.text) - start > limit:
                extent = _extent(w, start, limit)
                if extent is not None:
                    end, size = extent
                    return _Damaged(("record_too_large", f"element of {size} characters exceeds {limit}"), end, True)
            return _Damaged(
                ("malformed_record", f"element is not JSON: {exc.msg} (line {where})"),
                _resync(w, start, max(exc.pos, start + 1)),
            )
        if end == len(w.text) and w.more():
            continue  # a number may go on past what is read
        if end - start > limit:
            return _Damaged(("record_too_large", f"element of {end - start} characters exceeds {limit}"), end, True)
        return value, end


_STRUCTURE = re.compile(r'["{}\[\]]')
_IN_STRING = re.compile(r'["\\\x00-\x1f]')


def _extent(w: _Window, start: int, limit: int) -> tuple[int, int] | None:
    """``(end, size)`` of an element at ``start`` larger than ``limit``, found by its brackets and strings
    alone (the text it has passed is dropped: memory stays a block); None when the element is no larger, or
    damaged (a control character in a string, a stray bracket) within its first ``limit`` characters."""
    depth = 0
    pos = start
    passed = 0  # characters of the element dropped from the window
    in_string = False
    while True:
        if not w.has(pos):
            return None
        text = w.text
        m = (_IN_STRING if in_string else _STRUCTURE).search(text, pos)
        new = len(text) if m is None else m.end()
        if passed + new - start > limit + 1:  # past a record's worth: forget what is passed
            kept = w.forget(new)
            passed += new - kept
            new = kept
        pos = new
        if m is None:
            continue
        ch = m.group()
        size = passed + pos - start
        if in_string:
            if ch == "\\":
                pos += 1
            elif ch == '"':
                in_string = False
            else:  # a raw control character: a cut string
                return (pos, size) if size > limit else None
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            depth += 1
        else:
            depth -= 1
            if depth <= 0:
                return (pos, size) if depth == 0 and size > limit else None


def _resync(w: _Window, start: int, search_from: int) -> int | None:
    """Where the element after a damaged one (at ``start``) starts: the next ``, {``, or the next line that
    starts with ``{`` indented no deeper than the damaged element, from ``search_from``; None at the end."""
    column = start - w.text.rfind("\n", 0, start) - 1
    pos = search_from
    while True:
        for m in _NEXT_ELEMENT.finditer(w.text, pos):
            if m.group(1) is None or len(m.group(1)) <= column:
                return m.end()
        keep = max(pos, len(w.text) - 64)  # a match may straddle the block boundary
        if not w.more():
            return None
        pos = w.forget(keep)


@contextlib.contextmanager
def numbers_of(field: str, *, not_a_number: str = "malformed_record") -> Iterator[None]:
    """The numbers read inside the block belong to the record's ``field``: one that is out of range refuses
    the record as ``number_out_of_range``, one that is no number with the reason ``not_a_number`` names, both
    with the field as ``detail`` (the reader adds ``file:line``).

    >>> from ssbg.numbers import parse_number
    >>> with numbers_of("Answer"):
    ...     parse_number("1e400")
    Traceback (most recent call last):
    ...
    ssbg.errors.ImportRefusal: Answer: number_out_of_range: '1e400' is not a finite number of at most 1e+15
    """
    try:
        yield
    except NumberError as exc:
        reason = "number_out_of_range" if exc.reason == "number_out_of_range" else not_a_number
        raise ImportRefusal(f"{field}: {exc.message}", reason=reason, detail=field) from None


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
    in, one :class:`CorpusRecord` out (a payload or a typed refusal); it is a
    pure function, so a batch engine may run it anywhere (ADR 0007).  Calling
    the reader runs both stages in this process.

    Callers go through :meth:`scan_records` and :meth:`read`, the seam of fault
    isolation: a failure inside one record's build (whatever it raises) is that
    record's refusal (``reader_error``, or the reason of a typed error), and a
    scan that fails ends its file with one refusal, never the run.
    """

    scan: Callable[[Path], Iterator[RawRecord]]
    build: Callable[[RawRecord, UnitPack], CorpusRecord]
    corpus: str
    quick_id: Callable[[RawRecord], str] | None = None
    """The id :attr:`build` gives a raw record, without building it (None: only a build says): how
    ``ssbg render --id`` finds a problem of a large file without reading every one."""

    def __call__(self, path: Path | str) -> Iterator[CorpusRecord]:
        pack = default_pack()
        for raw in self.scan_records(Path(path)):
            yield self.read(raw, pack)

    def scan_records(self, path: Path | str) -> Iterator[RawRecord]:
        """:attr:`scan`, with a failure in it turned into a last refused record of the file (``path`` a
        :class:`~pathlib.Path` or a string)."""
        path = Path(path)
        records = self.scan(path)
        line = 0
        while True:
            try:
                raw = next(records)
            except StopIteration:
                return
            except OSError as exc:
                why = exc.strerror or exc
                yield RawRecord(path, line + 1, refusal=("unreadable_file", f"cannot read {path}: {why}"))
                return
            except Exception as exc:  # noqa: BLE001 - the seam: one failure ends this file, not the run
                yield RawRecord(path, line + 1, refusal=("reader_error", f"reading stopped: {_failure(exc)}"))
                return
            line = raw.line
            yield raw

    def read(self, raw: RawRecord, pack: UnitPack) -> CorpusRecord:
        """:attr:`build`, with any failure turned into the record's typed refusal at ``file:line``."""
        try:
            return self.build(raw, pack)
        except Exception as exc:  # noqa: BLE001 - the seam: one record's failure is that record's refusal
            return failed_record(self.corpus, raw, exc)


def _failure(exc: BaseException) -> str:
    what = f"{type(exc).__name__} [{exc.reason}]" if isinstance(exc, SsbgError) else type(exc).__name__
    text = str(exc)
    return f"{what}: {text[:300]}" if text else what


def failed_record(corpus: str, raw: RawRecord, exc: BaseException) -> CorpusRecord:
    """The refusal of a record whose reading failed with ``exc``: an :class:`ImportRefusal` keeps its reason,
    a number out of range is ``number_out_of_range``, anything else ``reader_error`` naming the failure."""
    fallback = f"{raw.path.name}:{raw.line}"
    if isinstance(exc, ImportRefusal):
        return refused_record(corpus, exc.problem_id or fallback, raw.where, exc.reason, exc.message, detail=exc.detail)
    if isinstance(exc, NumberError) and exc.reason == "number_out_of_range":
        return refused_record(corpus, fallback, raw.where, "number_out_of_range", exc.message, detail=exc.path)
    detail = f"{type(exc).__name__}.{exc.reason}" if isinstance(exc, SsbgError) else type(exc).__name__
    return refused_record(corpus, fallback, raw.where, "reader_error", f"ssbg failed on this record: {_failure(exc)}",
                          detail=detail)


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
