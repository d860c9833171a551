"""Corpus readers: each streams :class:`~ssbg.corpus.records.CorpusRecord` values.

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
from pathlib import Path

from ssbg.corpus.readers.asdiv import read_asdiv
from ssbg.corpus.readers.cogcomp import read_cogcomp
from ssbg.corpus.readers.gsm8k import read_gsm8k
from ssbg.corpus.readers.mawps import read_mawps
from ssbg.corpus.readers.ssbg_jsonl import read_ssbg_jsonl
from ssbg.corpus.readers.svamp import read_svamp
from ssbg.corpus.records import CorpusRecord
from ssbg.errors import ImportRefusal

__all__ = ["READERS", "Reader", "guess_format", "parse_corpus_spec", "read_corpus", "register_reader"]

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
    """Add a format to :data:`READERS` (readers of this package register at import)."""
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
    return fmt, path


def read_corpus(spec: str | Path, *, limit: int | None = None) -> Iterator[CorpusRecord]:
    """Stream the records of a corpus (imported or refused), at most ``limit`` of them.

    A folder spec reads every ``*.jsonl`` / ``*.json`` / ``*.xml`` file below it,
    sorted; without an explicit ``FORMAT=``, each file's format is guessed from
    its own name.
    """
    fmt, path = parse_corpus_spec(spec)
    explicit = str(spec).partition("=")[0] in READERS and "=" in str(spec)
    files = sorted(p for p in path.rglob("*") if p.suffix in (".jsonl", ".json", ".xml")) if path.is_dir() else [path]
    count = 0
    for f in files:
        reader = READERS[fmt if explicit or not path.is_dir() else guess_format(f)]
        for record in reader(f):
            if limit is not None and count >= limit:
                return
            count += 1
            yield record
