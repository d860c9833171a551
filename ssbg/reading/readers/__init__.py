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

from ssbg.errors import ImportRefusal
from ssbg.reading.readers.asdiv import read_asdiv
from ssbg.reading.readers.cogcomp import read_cogcomp
from ssbg.reading.readers.common import RawRecord, StagedReader, failed_record
from ssbg.reading.readers.gsm8k import read_gsm8k
from ssbg.reading.readers.mawps import read_mawps
from ssbg.reading.readers.ssbg_jsonl import read_ssbg_jsonl
from ssbg.reading.readers.svamp import read_svamp
from ssbg.reading.records import CorpusRecord
from ssbg.units import UnitPack, default_pack

__all__ = [
    "READERS",
    "PendingRecord",
    "Reader",
    "StagedReader",
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


def parse_corpus_spec(spec: str | Path) -> tuple[str, Path]:
    """Split ``FORMAT=PATH`` (or a bare path) into ``(format, path)``.

    Raises :class:`~ssbg.errors.ImportRefusal` (``malformed_record``) for an
    unknown format or a missing path.
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
        raise ImportRefusal(f"no corpus at {path}", reason="malformed_record", path=str(path))
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


def _corpus_files(spec: str | Path) -> Iterator[tuple[str, Path]]:
    fmt, path = parse_corpus_spec(spec)
    explicit = str(spec).partition("=")[0] in READERS and "=" in str(spec)
    if not path.is_dir():
        yield fmt, path
        return
    for f in sorted(p for p in path.rglob("*") if p.suffix in (".jsonl", ".json", ".xml")):
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


def scan_corpus(spec: str | Path, *, limit: int | None = None) -> Iterator[CorpusRecord | PendingRecord]:
    """Stream a corpus's records in order, leaving the costly reading stage to the consumer.

    A format with a :class:`~ssbg.reading.readers.common.StagedReader` yields
    :class:`PendingRecord` values (build them with ``.build(pack)``, anywhere);
    a plain reader's records come out read.  ``limit`` as in :func:`read_corpus`.
    """
    count = 0
    for fmt, f in _corpus_files(spec):
        reader = READERS[fmt]
        items: Iterator[CorpusRecord | PendingRecord] = (
            (PendingRecord(fmt, raw) for raw in reader.scan_records(f))
            if isinstance(reader, StagedReader)
            else _isolated(fmt, f, reader)
        )
        for item in items:
            if limit is not None and count >= limit:
                return
            count += 1
            yield item


def read_corpus(spec: str | Path, *, limit: int | None = None) -> Iterator[CorpusRecord]:
    """Stream the records of a corpus (imported or refused), at most ``limit`` of them.

    A folder spec reads every ``*.jsonl`` / ``*.json`` / ``*.xml`` file below it,
    sorted; without an explicit ``FORMAT=``, each file's format is guessed from
    its own name.
    """
    pack = default_pack()
    for item in scan_corpus(spec, limit=limit):
        yield item.build(pack) if isinstance(item, PendingRecord) else item
