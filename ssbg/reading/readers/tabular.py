"""Records from where researchers keep them: JSONL, JSON, CSV and Parquet files, DataFrames, lists, datasets.

Every source comes out as the same stream of :class:`~ssbg.reading.readers.common.RawRecord`
values, numbered from 1 in order, so that the same records give the same rows whatever their
form (ADR 0023):

- a path, whose format is its extension (``.jsonl``/``.ndjson`` and any other name: JSONL;
  ``.json``: a JSON array of objects; ``.csv``; ``.parquet``/``.pq``) or named before it
  (``parquet=PATH``, :data:`TABLE_FORMATS`); a JSONL line comes out as its bytes (decoded where
  it is read, so a bad line refuses alone), a row of the others as a dict;
- a pandas ``DataFrame``, a Hugging Face ``datasets.Dataset`` (or ``IterableDataset``), or any
  iterable of mappings (a list of dicts): each row or element a dict.

A record's number is its line in a JSONL file and its position (from 1) everywhere else, so a
JSONL file and the Parquet file written from it number their records alike; a record from
memory is ``NAME:N`` (the name a caller gives, else the split of a ``Dataset``, else
``dataframe`` / ``dataset`` / ``records``).

A CSV file is cut into records (a quoted field may hold line breaks) before a record is decoded or
parsed, so a record too large (:data:`~ssbg.reading.readers.common.MAX_RECORD_BYTES`, its bytes skipped
unheld), not UTF-8 or not CSV is its own refused row and the rows after it are read; no field limit but
that.  A Parquet file is read a row group at a time: a group pyarrow cannot read refuses its rows, the
others are read (ADR 0033).

Values are made plain: numpy scalars and arrays (what pandas holds) become Python numbers and
lists, and a missing value (``None``, ``NaN``, ``pd.NA``, an empty CSV cell) is no field at all,
so a column that a row leaves empty reads like a JSON record without that key.  A CSV cell is
text.  A flat row's dotted column (``6b_finetuning.solution``, as ``pandas.json_normalize`` writes
it) is the field of an object (:func:`nest`), so a flattened table reads like the nested JSONL.
Parquet needs pyarrow (``pip install ssbg[parquet]``); nothing here imports pandas, pyarrow or
datasets unless a source of theirs is read.

Examples
--------
>>> [(r.where, r.data) for r in scan_source([{"q": "a", "n": float("nan")}, {"q": "b"}], name="mine")]
[('mine:1', {'q': 'a'}), ('mine:2', {'q': 'b'})]
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO

from ssbg.errors import ImportRefusal
from ssbg.reading.readers.common import (
    BLOCK_BYTES,
    MAX_RECORD_BYTES,
    RawRecord,
    iter_json_array,
    open_corpus_file,
    scan_jsonl,
)

__all__ = [
    "TABLE_FORMATS",
    "count_records",
    "is_in_memory",
    "plain",
    "scan_source",
    "source_name",
    "split_format",
    "table_format",
]

TABLE_FORMATS: tuple[str, ...] = ("jsonl", "json", "csv", "parquet")
"""The file formats a source may be (``FORMAT=PATH`` names one; otherwise the extension does)."""

_EXTENSIONS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "json", ".csv": "csv", ".parquet": "parquet",
               ".pq": "parquet"}  # fmt: skip
PARQUET_BATCH_ROWS = 1024
"""Rows of a Parquet file converted at a time (memory holds a batch, never the file)."""


class _Absent:
    """A value that is no value (``None``, ``NaN``, ``pd.NA``): its field is dropped."""


_ABSENT = _Absent()


KNOWN_EXTENSIONS: tuple[str, ...] = (*_EXTENSIONS, ".xml")
"""The extensions of the files a reader reads (each also with ``.gz`` after it); ``.xml`` is ASDiv's."""

FILE_KINDS = ("JSONL (.jsonl, .ndjson), a JSON array (.json), CSV (.csv), Parquet (.parquet, .pq) or ASDiv XML "
              "(.xml), each also gzip-compressed (.gz)")
"""The files ssbg reads, as an error or a ``--help`` names them."""


def base_suffix(path: str | Path) -> str:
    """A file's extension past a ``.gz`` (``train.jsonl.gz``: ``.jsonl``), lower case."""
    name = Path(path).name.lower()
    return Path(name.removesuffix(".gz")).suffix


def table_format(path: str | Path) -> str:
    """The format of a file by its extension (:data:`TABLE_FORMATS`, past a ``.gz``); ``jsonl`` for any other name.

    >>> table_format("dev.parquet"), table_format("a.csv.gz"), table_format("x.json"), table_format("dev.jsonl")
    ('parquet', 'csv', 'json', 'jsonl')
    """
    return _EXTENSIONS.get(base_suffix(path), "jsonl")


def unknown_extension(path: str | Path) -> ImportRefusal | None:
    """The error for a regular file whose extension no reader knows (a ``.tsv``, a ``.txt``, a ``README.md``),
    listing the formats; None for a known extension, and for what is no regular file (its reader refuses it).

    >>> unknown_extension("data/samples/README.md").message  # doctest: +ELLIPSIS
    "ssbg reads no '.md' file; it reads JSONL (.jsonl, .ndjson), a JSON array (.json), ..."
    >>> unknown_extension("data/samples/gsm8k_sample.jsonl") is None
    True
    """
    suffix = base_suffix(path)
    if suffix in KNOWN_EXTENSIONS or not Path(path).is_file():
        return None
    return ImportRefusal(f"ssbg reads no '{suffix or '(no extension)'}' file; it reads {FILE_KINDS} "
                         "(rename a file of one of these to its extension; check-solutions also takes jsonl=PATH, "
                         "csv=PATH, ...)",
                         reason="malformed_record", path=str(path), detail=suffix or "(no extension)")


def split_format(spec: str | Path) -> tuple[str, Path]:
    """``FORMAT=PATH`` (a format of :data:`TABLE_FORMATS`) or a bare path: ``(format, path)``; a bare path to a file
    whose extension no reader knows is refused (:func:`unknown_extension`).

    >>> split_format("parquet=out/verdicts.bin"), split_format("data/a=b.csv")
    (('parquet', PosixPath('out/verdicts.bin')), ('csv', PosixPath('data/a=b.csv')))
    """
    text = str(spec)
    fmt, sep, rest = text.partition("=")
    if sep and fmt in TABLE_FORMATS:
        return fmt, Path(rest)
    refusal = unknown_extension(text)
    if refusal is not None:
        raise refusal
    return table_format(text), Path(text)


def is_in_memory(data: object) -> bool:
    """Whether ``data`` is records in memory (a DataFrame, a Dataset, an iterable of mappings), not a path."""
    return not isinstance(data, str | bytes | Path) and (
        _is_frame(data) or _is_dataset(data) or isinstance(data, Iterable)
    )


def _is_frame(data: object) -> bool:
    return type(data).__name__ == "DataFrame" and hasattr(data, "iloc") and hasattr(data, "columns")


def _is_dataset(data: object) -> bool:
    return type(data).__module__.startswith("datasets") and type(data).__name__ in ("Dataset", "IterableDataset")


def _splits(data: object) -> list[str] | None:
    """The split names of a ``datasets.DatasetDict`` (or ``IterableDatasetDict``); None for anything else."""
    if type(data).__name__ in ("DatasetDict", "IterableDatasetDict") and isinstance(data, Mapping):
        return [str(k) for k in data]
    return None


def source_name(data: object, name: str | None = None) -> str:
    """How a source's records are named (``NAME:N``): ``name``, a path as given, a Dataset's split, or its kind."""
    if name:
        return name
    if isinstance(data, str | Path):
        return str(split_format(data)[1])
    if _is_dataset(data):
        split = getattr(data, "split", None)
        return str(split) if split else "dataset"
    return "dataframe" if _is_frame(data) else "records"


def plain(value: object) -> object:
    """A value as JSON would hold it: numpy scalars and arrays as Python numbers and lists, mappings and
    sequences plain all the way down, a missing value (None, NaN, pd.NA, NaT) as :data:`_ABSENT`.

    >>> plain({"a": [1, float("nan")], "b": None}), plain(float("nan")) is _ABSENT
    ({'a': [1, None]}, True)
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return _ABSENT
    if isinstance(value, str | bool | int | float):
        return value
    if isinstance(value, Mapping):
        out = {str(k): plain(v) for k, v in value.items()}
        return {k: v for k, v in out.items() if v is not _ABSENT}
    module = type(value).__module__
    if module.startswith(("numpy", "pandas")):
        if hasattr(value, "tolist") and bool(getattr(value, "ndim", False)):  # an array (a list column read by pandas)
            return [None if v is _ABSENT else v for v in (plain(x) for x in value.tolist())]
        if type(value).__name__ in ("NAType", "NaTType"):
            return _ABSENT
        if hasattr(value, "item"):  # a numpy scalar
            return plain(value.item())
    if isinstance(value, list | tuple):
        return [None if v is _ABSENT else v for v in (plain(x) for x in value)]
    return value


def nest(row: Mapping[str, Any]) -> dict[str, Any]:
    """A flat row's dotted columns as nested fields (``a.b`` is the field ``b`` of ``a``, as
    ``pandas.json_normalize`` and a CSV written from it flatten them); a column whose prefix is itself a
    column, or holds a value that is not an object, stays as it is.

    >>> nest({"id": 1, "m.solution": "3 * 4 = 12", "m.ok": True, "x.y": 2, "x": 3})
    {'id': 1, 'm': {'solution': '3 * 4 = 12', 'ok': True}, 'x.y': 2, 'x': 3}
    """
    out: dict[str, Any] = {}
    for key, value in row.items():
        head, dot, rest = key.partition(".")
        if not dot or not head or not rest or head in row:
            out[key] = value
            continue
        holder = out.setdefault(head, {})
        if isinstance(holder, dict):
            holder[rest] = value
        else:  # pragma: no cover - head in row is caught above
            out[key] = value
    return {k: nest(v) if isinstance(v, dict) and k not in row else v for k, v in out.items()}


def _record(path: Path, number: int, row: object) -> RawRecord:
    if not isinstance(row, Mapping):
        return RawRecord(path, number, refusal=("malformed_record",
                                                f"a record must be a mapping of fields (got {type(row).__name__})"))
    data = plain(row)
    return RawRecord(path, number, data=nest(data))  # type: ignore[arg-type]


def _frame_rows(frame: Any) -> Iterator[Mapping[str, Any]]:
    for start in range(0, len(frame), PARQUET_BATCH_ROWS):
        yield from frame.iloc[start : start + PARQUET_BATCH_ROWS].to_dict(orient="records")


def scan_source(data: object, *, name: str | None = None) -> Iterator[RawRecord]:
    """The records of a source (a path or records in memory, see the module docstring), in order.

    A file's records are read lazily (a JSONL line, a JSON-array element, a CSV row, a Parquet batch
    at a time); records in memory are read as they are iterated.

    Raises
    ------
    ImportRefusal
        ``unreadable_file`` for a path that is no file (naming it: ``no such file``), ``malformed_record``
        for a Parquet file without pyarrow installed or that pyarrow cannot read, or for a value that is
        neither a path nor records.
    """
    if isinstance(data, str | Path):
        fmt, path = split_format(data)
        yield from _scan_file(fmt, path)
        return
    where = Path(source_name(data, name))
    splits = _splits(data)
    if splits is not None:
        raise ImportRefusal(f"a {type(data).__name__} holds splits ({', '.join(splits) or 'none'}): pick a split, "
                            f"data[{(splits or ['train'])[0]!r}]", reason="malformed_record", path=str(where),
                            detail="pick a split")
    if _is_frame(data):
        rows: Iterable[object] = _frame_rows(data)
    elif _is_dataset(data) or (isinstance(data, Iterable) and not isinstance(data, bytes | Mapping)):
        rows = data  # type: ignore[assignment]
    else:
        raise ImportRefusal(f"records must be a path, a DataFrame, a Dataset or an iterable of mappings "
                            f"(got {type(data).__name__})", reason="malformed_record", path=str(where))
    for number, row in enumerate(rows, start=1):
        yield _record(where, number, row)


def missing_file(path: Path) -> ImportRefusal:
    """The error for a path that names nothing: it says so, plainly."""
    what = "a folder, not a file" if path.is_dir() else "no such file"
    return ImportRefusal(what, reason="unreadable_file", path=str(path), detail=what)


def _scan_file(fmt: str, path: Path) -> Iterator[RawRecord]:
    if not path.is_file() and not path.exists():
        raise missing_file(path)
    if path.is_dir():
        raise missing_file(path)
    if fmt == "jsonl":
        yield from scan_jsonl(path)
    elif fmt == "json":
        yield from iter_json_array(path)
    elif fmt == "csv":
        yield from _scan_csv(path)
    else:
        yield from _scan_parquet(path)


# The states of a CSV field as Python's csv module reads it (its default dialect, strict=False): at a field's
# start, inside an unquoted field, inside a quoted field, just after a quote inside a quoted field.
_START, _FIELD, _QUOTED, _QUOTE = range(4)
_AFTER_TEXT = (_FIELD, _FIELD, _QUOTED, _FIELD)  # any character but a quote or a comma (a line break among them)
_AFTER_QUOTE = (_QUOTED, _FIELD, _QUOTE, _QUOTED)  # a quote: opens a field, is text, closes, or is doubled
_AFTER_COMMA = (_START, _START, _QUOTED, _START)
_CSV_TOKENS = re.compile(rb'[",]')


def _csv_state(chunk: bytes, state: int) -> int:
    """The field state after ``chunk`` (bytes: a quote, a comma and a line break are one byte in UTF-8 and
    never part of another character) from ``state``; any split of a text into chunks gives the same state."""
    if b'"' not in chunk and state != _QUOTE:
        if state == _QUOTED:
            return _QUOTED
        return _START if chunk.endswith(b",") else _FIELD
    pos = 0
    for match in _CSV_TOKENS.finditer(chunk):
        at = match.start()
        if at > pos:
            state = _AFTER_TEXT[state]
        state = (_AFTER_QUOTE if chunk[at] == 0x22 else _AFTER_COMMA)[state]
        pos = at + 1
    return _AFTER_TEXT[state] if len(chunk) > pos else state


def _csv_records(handle: BinaryIO) -> Iterator[bytes | int]:
    """Each CSV record's bytes (the header, a row: a quoted field may hold line breaks), read a block at a time;
    for a record larger than :data:`~ssbg.reading.readers.common.MAX_RECORD_BYTES`, its size (its bytes are
    skipped as they are read, never held).  ``OSError`` as the file system raises it."""
    parts: list[bytes] = []
    size = 0
    state = _START
    while True:
        chunk = handle.readline(BLOCK_BYTES)
        if not chunk:
            break
        size += len(chunk)
        state = _csv_state(chunk, state)
        if size <= MAX_RECORD_BYTES:
            parts.append(chunk)
        else:
            parts.clear()
        if chunk.endswith(b"\n") and state != _QUOTED:
            yield b"".join(parts) if size <= MAX_RECORD_BYTES else size
            parts, size, state = [], 0, _START
    if size:  # the last record, without a line break
        yield b"".join(parts) if size <= MAX_RECORD_BYTES else size


def _csv_rows(record: bytes | int) -> list[list[str]] | tuple[str, str]:
    """The rows of one record of :func:`_csv_records` (none for a blank line; more for lines a lone carriage
    return ends), or ``(reason, message)`` when it cannot be read: too large, not UTF-8, not CSV."""
    if isinstance(record, int):
        return "record_too_large", f"a CSV record of {record:,} bytes exceeds {MAX_RECORD_BYTES:,}"
    try:
        text = record.decode("utf-8")
    except UnicodeDecodeError as exc:
        return "encoding_error", f"not UTF-8: {exc.reason} at byte {exc.start} of the record"
    limit = csv.field_size_limit()
    try:
        if len(text) > limit:  # a field is bounded by its record, which MAX_RECORD_BYTES bounds
            csv.field_size_limit(len(text))
        return list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as exc:
        return "malformed_record", f"not CSV: {exc}"
    finally:
        csv.field_size_limit(limit)


def _scan_csv(path: Path) -> Iterator[RawRecord]:
    """CSV rows (a header line, then one record per row) as dicts of their non-empty cells.

    The file is split into records before it is decoded or parsed (:func:`_csv_records`, which follows the
    quotes as the csv module does), so a record too large, not UTF-8 or not CSV is its own refused row and the
    rows after it are read; memory holds one record, never the file; no field limit but the record's.
    """
    handle, refusal = open_corpus_file(path)
    if handle is None:
        yield refusal  # type: ignore[misc]
        return
    header: list[str] | None = None
    number = 0
    with handle:
        records = _csv_records(handle)
        while True:
            try:
                record = next(records, None)
            except OSError as exc:
                yield RawRecord(path, number + 1, refusal=("unreadable_file", f"cannot read: {exc.strerror or exc}"))
                return
            if record is None:
                return
            rows = _csv_rows(record)
            if isinstance(rows, tuple):
                if header is None:
                    yield RawRecord(path, 1, refusal=(rows[0], f"the header cannot be read: {rows[1]}"))
                    return
                number += 1
                yield RawRecord(path, number, refusal=rows)
                continue
            for row in rows:
                if not row:
                    continue
                if header is None:
                    header = row
                    continue
                number += 1
                yield _csv_row(path, number, header, row)


def _csv_row(path: Path, number: int, header: list[str], row: list[str]) -> RawRecord:
    if len(row) > len(header):  # more cells than the header names
        return RawRecord(path, number, refusal=("malformed_record",
                                                f"row has {len(row)} cells; the header names {len(header)}"))
    cells = dict(zip(header, row, strict=False))
    return RawRecord(path, number, data=nest({k: v for k, v in cells.items() if v}))


def _pyarrow_parquet(path: Path) -> Any:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise ImportRefusal(f"{path}: reading Parquet needs pyarrow (pip install 'ssbg[parquet]')",
                            reason="malformed_record", path=str(path), detail="pyarrow") from None
    return pq


def _scan_parquet(path: Path) -> Iterator[RawRecord]:
    """A Parquet file's rows, a row group at a time (a batch of rows in memory): a row group pyarrow cannot
    read (a corrupt page) is a ``malformed_record`` refusal of each of its rows not yet read, naming the group,
    and the other groups are read."""
    pq = _pyarrow_parquet(path)
    from pyarrow.lib import ArrowException

    try:
        file = pq.ParquetFile(path)
        groups = [file.metadata.row_group(g).num_rows for g in range(file.metadata.num_row_groups)]
    except (OSError, ValueError, ArrowException) as exc:  # pyarrow's ArrowInvalid is a ValueError
        raise ImportRefusal(f"{path} is not a Parquet file pyarrow reads: {exc}", reason="malformed_record",
                            path=str(path), detail="parquet") from None
    number = 0
    with file:
        for group, size in enumerate(groups):
            end = number + size
            batches = file.iter_batches(batch_size=PARQUET_BATCH_ROWS, row_groups=[group])
            while True:
                try:
                    batch = next(batches, None)
                    rows = None if batch is None else batch.to_pylist()
                except (OSError, ValueError, ArrowException) as exc:
                    message = f"row group {group + 1} of {len(groups)} cannot be read: {exc}".strip()[:300]
                    for k in range(number + 1, end + 1):
                        yield RawRecord(path, k, refusal=("malformed_record", message))
                    number = end
                    break
                if rows is None:
                    break
                for row in rows:
                    number += 1
                    yield _record(path, number, row)


def count_records(data: object) -> int | None:
    """How many records a source holds when that is known without reading them (a progress bar's total)."""
    if isinstance(data, str | Path):
        fmt, path = split_format(data)
        if fmt == "parquet" and path.is_file():
            try:
                return int(_pyarrow_parquet(path).ParquetFile(path).metadata.num_rows)
            except (ImportRefusal, OSError, ValueError):
                return None
        return None
    try:
        return len(data)  # type: ignore[arg-type]
    except TypeError:
        return None
