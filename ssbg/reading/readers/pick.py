"""One record of a corpus file, picked by the id the report and its tables print or by its line.

``ssbg bind`` and ``ssbg render`` take a corpus spec (``FORMAT=PATH`` or a path, any format
:func:`~ssbg.reading.readers.read_corpus` reads) and ``--id`` or ``--line``; :func:`pick_record`
finds the record, and :func:`draw_command` is the command line that draws a problem of a report's
tables (the ``draw_command`` column of ``problems.csv``, the drill-down cards).

An id matches a record whose ``problem_id`` is the id; failing that, a bare number ``N`` (or
``NAME-N``) matches the one record whose id ends in ``-N`` or ``:N`` (``2`` is ``train-2``).  A
number matching several records is ambiguous: the error names them and their lines.  A reader
that knows a record's id without building it (:attr:`StagedReader.quick_id`, GSM8K's
``<stem>-<line>``) builds only the record picked.

Examples
--------
>>> r = pick_record("data/samples/gsm8k_sample.jsonl", problem_id="2")
>>> r.corpus, r.problem_id, r.source
('gsm8k', 'gsm8k_sample-2', 'data/samples/gsm8k_sample.jsonl:2')
>>> draw_command("gsm8k", "data/samples/gsm8k_sample.jsonl:2", "gsm8k_sample-2")
'ssbg render gsm8k=data/samples/gsm8k_sample.jsonl --id gsm8k_sample-2 -o gsm8k_sample-2.svg'
"""

from __future__ import annotations

import functools
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

from ssbg.errors import ProblemGraphError
from ssbg.reading.readers import READERS, PendingRecord, StagedReader, scan_corpus
from ssbg.reading.records import CorpusRecord
from ssbg.units import CORPUS_PACK_NAME, DEFAULT_PACK_NAME, UnitPack, corpus_pack

__all__ = ["draw_command", "pick_record", "text_corpus"]

_SHOWN = 8  # ids named in an error


def text_corpus(fmt: str) -> bool:
    """Whether records of format ``fmt`` are read from a problem's text (every format but ``ssbg``, whose
    records are hand-written graphs): those are bound with the corpus pack, the hand-written with
    ``en_units_v1`` (as ``report`` and ``check`` do)."""
    return fmt != "ssbg"


def _loose(wanted: str) -> re.Pattern[str] | None:
    """A bare number ``N`` matches ids ending in ``-N`` or ``:N``; None for an id that is no bare number."""
    return re.compile(rf"(?:^|[-:]){re.escape(wanted)}$") if wanted.isdigit() else None


def _candidates(spec: str, pack: UnitPack) -> Iterator[tuple[str | None, int, CorpusRecord | PendingRecord]]:
    """(id or None when only a build says it, line, item) for every record of the spec, in order."""
    for item in scan_corpus(spec):
        if isinstance(item, PendingRecord):
            reader = READERS.get(item.fmt)
            quick = reader.quick_id if isinstance(reader, StagedReader) else None
            if quick is not None and item.raw.refusal is None:
                yield quick(item.raw), item.raw.line, item
            else:
                yield None, item.raw.line, item
        else:
            yield item.problem_id, _line_of(item.source), item


def _line_of(source: str) -> int:
    tail = source.rpartition(":")[2].lstrip("#")
    return int(tail) if tail.isdigit() else -1


def _built(item: CorpusRecord | PendingRecord, pack: UnitPack) -> CorpusRecord:
    return item.build(pack) if isinstance(item, PendingRecord) else item


def pick_record(
    spec: str | Path, *, problem_id: str | None = None, line: int | None = None, pack: UnitPack | None = None
) -> CorpusRecord:
    """The record of a corpus spec with id ``problem_id`` (see the module docstring) or at line ``line`` (the
    ``N`` of its ``source``, ``path:N``), read with ``pack`` (default :func:`~ssbg.units.corpus_pack`).
    With neither, the spec must hold one record.

    Raises
    ------
    ProblemGraphError
        ``invalid_value`` when no record, or more than one, is picked (naming the spec's ids and lines);
    ImportRefusal
        The reader's refusals of the spec itself (an unknown format, no such file).
    """
    p = corpus_pack() if pack is None else pack
    text = str(spec)
    loose = _loose(problem_id) if problem_id is not None else None
    exact: list[CorpusRecord] = []
    near: list[CorpusRecord] = []
    seen: list[str] = []
    count = 0
    for quick, number, item in _candidates(text, p):
        count += 1
        if line is not None:
            if number == line:
                return _built(item, p)
            continue
        if problem_id is None:  # one record, or an error naming the first few
            if count <= _SHOWN:
                first = _built(item, p)
                seen.append(first.problem_id)
                exact.append(first)
            continue
        if quick is not None and quick != problem_id and not (loose and loose.search(quick)):
            if len(seen) < _SHOWN:
                seen.append(quick)
            continue
        record = _built(item, p)
        if record.problem_id == problem_id:
            exact.append(record)
        elif loose is not None and loose.search(record.problem_id):
            near.append(record)
        elif len(seen) < _SHOWN:
            seen.append(record.problem_id)
    if problem_id is None and line is None and count == 1:
        return exact[0]
    found = [] if problem_id is None else exact or near
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        shown = ", ".join(f"{r.problem_id} (--line {_line_of(r.source)})" for r in found[:_SHOWN])
        raise ProblemGraphError(f"{len(found)} records of {text} are {problem_id!r}: {shown}; pick one with --line",
                            reason="invalid_value", path=text, detail=problem_id)
    what = (f"no record at line {line}" if line is not None else "no record picked" if problem_id is None
            else f"no record {problem_id!r}")
    named = f" (ids: {', '.join(seen)}{', ...' if count > len(seen) else ''})" if seen else ""
    raise ProblemGraphError(f"{what} in {text}: it holds {count}; name one with --id ID{named} or --line N",
                            reason="invalid_value", path=text, detail=problem_id or str(line))


def draw_command(corpus: str, source: str, problem_id: str, *, run_pack: str | None = None, by_line: bool = False
                 ) -> str | None:
    """The shell command that draws a problem of a report (``ssbg render FORMAT=PATH --id ID -o ID.svg``, or
    ``--line N`` with ``by_line``, where its id is not unique in its corpus); None for a record of no file
    (records in memory) or of no known format.  ``run_pack`` is the name of the pack the run bound with:
    given as ``--pack`` where it is not the one ``render`` uses for the format by default (the corpus pack for
    a text, ``en_units_v1`` for a hand-written problem), so that the drawing is the report's."""
    path, sep, number = source.rpartition(":")
    number = number.lstrip("#")
    if not sep or corpus not in READERS or not number.isdigit() or not _is_file(path):
        return None
    pick = f"--line {number}" if by_line else f"--id {shlex.quote(problem_id)}"
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", problem_id).strip("._") or "problem"
    default = CORPUS_PACK_NAME if text_corpus(corpus) else DEFAULT_PACK_NAME
    extra = f" --pack {shlex.quote(run_pack)}" if run_pack and run_pack != default else ""
    return f"ssbg render {shlex.quote(f'{corpus}={path}')} {pick}{extra} -o {name}.svg"


@functools.lru_cache(maxsize=64)
def _is_file(path: str) -> bool:
    return Path(path).is_file()
