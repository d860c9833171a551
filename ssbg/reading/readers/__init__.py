"""Corpus readers: each streams :class:`~ssbg.reading.records.CorpusRecord` values.

:func:`read_corpus` takes a corpus spec, ``FORMAT=PATH`` or a bare ``PATH`` whose
format is guessed from its name, and dispatches through :data:`READERS`
(format name -> reader).  Every reader survives bad input: a record that
cannot be read becomes a record carrying an
:class:`~ssbg.errors.ImportRefusal` with ``file:line``; the good ones still read.

Examples
--------
>>> from pathlib import Path
>>> lanes = sorted(Path("data/lanes").glob("*.jsonl"))  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ssbg.errors import ImportRefusal
from ssbg.reading.readers.asdiv import read_asdiv
from ssbg.reading.readers.cogcomp import read_cogcomp
from ssbg.reading.readers.common import RawRecord, StagedReader, failed_record
from ssbg.reading.readers.gsm8k import read_gsm8k
from ssbg.reading.readers.mawps import read_mawps
from ssbg.reading.readers.ssbg_jsonl import read_ssbg_jsonl
from ssbg.reading.readers.svamp import read_svamp
from ssbg.reading.readers.tabular import (
    is_in_memory,
    missing_file,
    scan_source,
    source_name,
    table_format,
    unknown_extension,
)
from ssbg.reading.records import CorpusRecord
from ssbg.units import UnitPack, default_pack

__all__ = [
    "READERS",
    "SHIPPED_FORMATS",
    "PendingRecord",
    "Reader",
    "RecordSource",
    "StagedReader",
    "as_spec",
    "count_corpus_records",
    "guess_format",
    "parse_corpus_spec",
    "read_corpus",
    "register_reader",
    "scan_corpus",
]

Reader = Callable[[Path], Iterator[CorpusRecord]]

READERS: dict[str, Reader] = {
    "ssbg": read_ssbg_jsonl,
    "gsm8k": read_gsm8k,
    "svamp": read_svamp,
    "mawps": read_mawps,
    "cogcomp": read_cogcomp,
    "asdiv": read_asdiv,
}


SHIPPED_FORMATS: frozenset[str] = frozenset(READERS)
"""The formats ssbg ships a reader of: their files are known by extension (a file named otherwise is bad input,
:func:`~ssbg.reading.readers.tabular.unknown_extension`); a reader registered later reads any file it is given."""


def register_reader(name: str, reader: Reader) -> None:
    """Add a format to :data:`READERS` (readers of this package register at import).

    A plain reader (a function of a path) reads in the process that streams the
    corpus; a :class:`~ssbg.reading.readers.common.StagedReader` lets batch
    engines run its costly stage in their workers.
    """
    READERS[name] = reader


def guess_format(path: Path) -> str:
    """Guess a corpus format from a path's name; ``ssbg`` for other ``.jsonl`` files."""
    name = str(path).lower()
    for fmt in ("gsm8k", "svamp", "mawps", "cogcomp", "asdiv"):
        if fmt in name and fmt in READERS:
            return fmt
    if name.endswith(".xml") and "asdiv" in READERS:
        return "asdiv"
    return "ssbg"


@dataclass(frozen=True)
class RecordSource:
    """Corpus records in memory: a pandas DataFrame, a ``datasets.Dataset`` or an iterable of mappings, read in
    ``fmt`` (a format of :data:`READERS` whose reader builds a record from its fields: every one but ``asdiv``),
    its records named ``NAME:N`` (``name``, else a Dataset's split, else ``dataframe`` / ``records``; a GSM8K
    problem is ``NAME-N`` as from a file ``NAME.jsonl``).  ``(fmt, data)`` is the same spec.

    >>> rows = [{"question": "Ann has 3 apples and buys 4 more. How many apples does she have?",
    ...          "answer": "3 + 4 = <<3+4=7>>7 apples\\n#### 7"}]
    >>> [(r.problem_id, r.refusal) for r in read_corpus(RecordSource(rows, "gsm8k", name="train"))]
    [('train-1', None)]
    """

    data: Any
    fmt: str = "ssbg"
    name: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.fmt, str) or self.fmt not in READERS:
            raise ImportRefusal(f"unknown corpus format {self.fmt!r}; known: {sorted(READERS)}",
                                reason="malformed_record", detail=str(self.fmt)[:80])
        if not is_in_memory(self.data):
            raise ImportRefusal(f"a RecordSource holds records in memory (got {type(self.data).__name__}); "
                                "give a path as a spec of its own", reason="malformed_record", detail="data")

    @property
    def label(self) -> str:
        """How the source's records are named (``NAME`` of ``NAME:N``)."""
        return source_name(self.data, self.name)

    def __str__(self) -> str:
        return f"{self.fmt}=<{self.label}>"


CorpusSpec = str | Path | RecordSource


def as_spec(spec: object) -> CorpusSpec:
    """A spec as :func:`scan_corpus` reads it: a path or ``FORMAT=PATH`` as it is; ``(FORMAT, data)`` and records
    in memory (read as ``ssbg`` records) as a :class:`RecordSource`."""
    if isinstance(spec, str | Path | RecordSource):
        return spec
    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str) and not isinstance(spec[1], str | Path):
        return RecordSource(spec[1], spec[0])
    return RecordSource(spec)


def parse_corpus_spec(spec: str | Path) -> tuple[str, Path]:
    """Split ``FORMAT=PATH`` (or a bare path) into ``(format, path)``.

    Raises :class:`~ssbg.errors.ImportRefusal`: ``malformed_record`` for an unknown format, ``unreadable_file``
    (``no such file``) for a path that names nothing.
    """
    text = str(spec)
    fmt, sep, rest = text.partition("=")
    if sep and fmt in READERS:
        path = Path(rest)
    elif sep and "/" not in fmt and "." not in fmt:
        raise ImportRefusal(
            f"unknown corpus format {fmt!r}; known: {sorted(READERS)}",
            reason="malformed_record",
            path=text,
            detail=fmt,
        )
    else:
        path = Path(text)
        fmt = guess_format(path)
    if not path.exists():
        raise missing_file(path)
    return fmt, path  # a FIFO or a device is a file its reader refuses (unreadable_file), counted like any record


@dataclass(frozen=True, slots=True)
class PendingRecord:
    """A record scanned but not yet built: the first stage of a two-stage read (ADR 0007).

    It holds the reader's format name and its :class:`RawRecord` (a JSONL
    line's bytes, a JSON-array element, an XML chunk), so it pickles cheaply to
    a worker process, which builds it with :meth:`build`.
    """

    fmt: str
    raw: RawRecord

    def build(self, pack: UnitPack | None = None) -> CorpusRecord:
        """The record this raw record reads as (a payload or a typed refusal)."""
        reader = READERS.get(self.fmt)
        if not isinstance(reader, StagedReader):
            refusal = ImportRefusal(
                f"no two-stage reader {self.fmt!r} in this process", reason="malformed_record", path=self.raw.where
            )
            return CorpusRecord(self.fmt, f"{self.raw.path.name}:{self.raw.line}", self.raw.where, refusal=refusal)
        return reader.read(self.raw, default_pack() if pack is None else pack)


_TABLE_SUFFIXES = (".csv", ".parquet", ".pq")  # read as tables (a row per record) by any reader that builds from fields


def _corpus_files(spec: str | Path) -> Iterator[tuple[str, Path]]:
    fmt, path = parse_corpus_spec(spec)
    explicit = str(spec).partition("=")[0] in READERS and "=" in str(spec)
    if not path.is_dir():
        # a .tsv read as JSONL would be a file of refused records; a reader registered later reads its own files
        refusal = unknown_extension(path) if fmt in SHIPPED_FORMATS else None
        if refusal is not None:
            raise refusal
        yield fmt, path
        return
    for f in sorted(p for p in path.rglob("*") if p.suffix in (".jsonl", ".json", ".xml", *_TABLE_SUFFIXES)):
        if f.suffix in _TABLE_SUFFIXES and not explicit and guess_format(f) == "ssbg":
            continue  # a table of a folder is a corpus only where its name says which (or FORMAT= does)
        yield (fmt if explicit else guess_format(f)), f


def _isolated(fmt: str, path: Path, reader: Reader) -> Iterator[CorpusRecord]:
    """A plain reader's records; a failure inside it ends its file with one refused record, not the run."""
    records = iter(reader(path))
    line = 0
    while True:
        try:
            record = next(records)
        except StopIteration:
            return
        except Exception as exc:  # noqa: BLE001 - the seam of a plain reader: its file stops, the run goes on
            yield failed_record(fmt, RawRecord(path, line + 1), exc)
            return
        line += 1
        yield record


def _table_reader(fmt: str, where: str) -> StagedReader:
    """The staged reader of ``fmt`` for records read as tables or from memory (fields, not a file's text)."""
    reader = READERS.get(fmt)
    if not isinstance(reader, StagedReader) or fmt == "asdiv":
        raise ImportRefusal(f"the {fmt} reader reads its own files only, not a table or records in memory",
                            reason="malformed_record", path=where, detail=fmt)
    return reader


def _items(fmt: str, f: Path) -> Iterator[CorpusRecord | PendingRecord]:
    if table_format(f) in ("csv", "parquet"):  # by its extension past a .gz
        _table_reader(fmt, str(f))
        return (PendingRecord(fmt, raw) for raw in scan_source(f))
    reader = READERS[fmt]
    if isinstance(reader, StagedReader):
        return (PendingRecord(fmt, raw) for raw in reader.scan_records(f))
    return _isolated(fmt, f, reader)


def _sources(spec: object) -> Iterator[tuple[str, Iterator[CorpusRecord | PendingRecord]]]:
    source = as_spec(spec)
    if isinstance(source, RecordSource):
        _table_reader(source.fmt, str(source))
        yield source.fmt, (PendingRecord(source.fmt, raw) for raw in scan_source(source.data, name=source.label))
        return
    for fmt, f in _corpus_files(source):
        yield fmt, _items(fmt, f)


def count_corpus_records(spec: object) -> int | None:
    """About how many records a spec holds, for a progress bar's total and time left: the rows of records in
    memory or of a Parquet file, the non-blank lines of a JSONL file (gzip-compressed too) and of a CSV file
    less its header; None where only reading them says (a JSON array, XML, a folder).  Cheap: no record is
    decoded."""
    from ssbg.reading.readers.common import open_corpus_file
    from ssbg.reading.readers.tabular import base_suffix, count_records

    source = as_spec(spec)
    if isinstance(source, RecordSource):
        return count_records(source.data)
    try:
        _fmt, path = parse_corpus_spec(source)
    except ImportRefusal:
        return None
    kind = table_format(path)
    if not path.is_file() or base_suffix(path) in (".json", ".xml"):
        return None
    if kind == "parquet":
        return count_records(f"parquet={path}")
    handle, _refusal = open_corpus_file(path)
    if handle is None:
        return None
    try:
        with handle:
            lines = sum(1 for line in handle if line.strip())
    except (OSError, EOFError):
        return None
    return max(lines - 1, 0) if kind == "csv" else lines


def scan_corpus(spec: object, *, limit: int | None = None) -> Iterator[CorpusRecord | PendingRecord]:
    """Stream a corpus's records in order, leaving the costly reading stage to the consumer.

    ``spec`` is ``FORMAT=PATH`` or a path (a ``.csv`` or ``.parquet`` file is read a row per record), or records
    in memory (a :class:`RecordSource`, ``(FORMAT, data)``, or a DataFrame, Dataset or list of dicts read as
    ``ssbg`` records).  A format with a :class:`~ssbg.reading.readers.common.StagedReader` yields
    :class:`PendingRecord` values (build them with ``.build(pack)``, anywhere);
    a plain reader's records come out read.  ``limit`` as in :func:`read_corpus`.
    """
    count = 0
    for _fmt, items in _sources(spec):
        for item in items:
            if limit is not None and count >= limit:
                return
            count += 1
            yield item


def read_corpus(spec: object, *, limit: int | None = None) -> Iterator[CorpusRecord]:
    """Stream the records of a corpus (imported or refused), at most ``limit`` of them.

    A folder spec reads every ``*.jsonl`` / ``*.json`` / ``*.xml`` file below it,
    sorted; without an explicit ``FORMAT=``, each file's format is guessed from
    its own name.
    """
    pack = default_pack()
    for item in scan_corpus(spec, limit=limit):
        yield item.build(pack) if isinstance(item, PendingRecord) else item
