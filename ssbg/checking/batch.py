"""Check a set of solutions: one verdict row per solution, and with labels the scores per solver.

:func:`check_solutions` reads records (a JSONL, JSON, CSV or Parquet file, a DataFrame, a
``datasets.Dataset`` or a list of dicts: :mod:`ssbg.reading.readers.tabular`) that hold a question
and one or more solutions, checks each with :func:`~ssbg.checking.verdict.check_solution`, and returns a
pandas DataFrame with one row per solution (:data:`VERDICT_COLUMNS`), in file order;
:func:`score_verdicts` turns a frame with labels into the per-solver scores
(:data:`SCORE_COLUMNS`).  ``ssbg check-solutions`` is the command over both.

Where the fields are (:class:`Fields`): a field path may be dotted (``175b_verification.solution``
reads ``record["175b_verification"]["solution"]``; a key that itself holds a dot is found
first).  A file may hold

- one solution per record (``--solution-field solution``), its solver named by a field
  (``--solver-field model``) or not at all; or
- several solvers side by side (``--solver-key 6b_finetuning --solver-key 175b_verification``):
  each key holds that solver's object, and the solution and label fields are read inside it
  (the dev file of model solutions is written so).

With ``reference_field`` the reference solution (the gold one, say) is checked once per record
(its verdict read as a :class:`~ssbg.checking.verdict.Reference`): findings of a solution it
shares are a reading limit (coverage, :func:`~ssbg.checking.verdict.check_solution`), and the reference is a
row of its own, solver :data:`REFERENCE_SOLVER`, labelled correct (a reference is taken to be
right: its ``error`` verdicts are the checker's false alarms on it).

A field (or solver key) that no record has is bad input: :class:`~ssbg.errors.ImportRefusal` naming
the fields the records have.  A record that cannot be read (not JSON, not UTF-8, too large, a field
missing or of the wrong type, an unreadable label) is a row of status ``refused`` with the import reason
(:data:`~ssbg.errors.IMPORT_REASONS`) and the field path, counted like any other; one bad record
never stops the run.  The record's own id is kept (``id_field``), else ``file:line``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ssbg.checking.verdict import (
    DEFAULT_MIN_EVIDENCE,
    VERDICT_STATUSES,
    Finding,
    Reference,
    Verdict,
    _check_min_evidence,
    check_solution,
)
from ssbg.errors import ImportRefusal
from ssbg.files import open_regular, read_regular
from ssbg.limits import size_refusal
from ssbg.reading.readers.common import RawRecord, decode_jsonl_line
from ssbg.units import UnitPack, corpus_pack, load_pack

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "REFERENCE_SOLVER",
    "ROW_STATUSES",
    "SCORE_COLUMNS",
    "SWEEP",
    "SWEEP_COLUMNS",
    "VERDICT_COLUMNS",
    "Fields",
    "SolverScore",
    "check_records",
    "check_solutions",
    "read_error_steps",
    "score_verdicts",
    "sweep_verdicts",
]

REFERENCE_SOLVER = "reference"
"""The solver name of the reference solution's own row."""

ROW_STATUSES: tuple[str, ...] = (*VERDICT_STATUSES, "refused")
"""A row's status: a verdict's, or ``refused`` for a record (or a solution field) that cannot be read."""

VERDICT_COLUMNS: tuple[str, ...] = (
    "id",  # the record's own id (id_field), else file:line
    "solver",  # the solver key or the solver field's value ("" without one; REFERENCE_SOLVER for the reference)
    "source",  # file:line
    "status",  # ROW_STATUSES
    "label",  # True: a correct solution, False: a wrong one, missing without labels
    "reference_checked",  # whether the solution was checked against a reference
    "n_error",  # error findings
    "n_coverage",  # coverage findings (those shared with the reference among them)
    "n_in_reference",  # findings the reference shares
    "n_steps",  # formulas the solution writes
    "first_error_reason",  # the error finding written first
    "first_error_step",  # its step, from 0 (Finding.step; Verdict.explain() says it from 1 and says so)
    "first_error_line",  # its line (from 1)
    "first_error_user_step",  # the user's step it is in (from 0: the list item, else the paragraph; ADR 0031)
    "error_reasons",  # every error finding's reason, ';'-joined, in order
    "coverage_reasons",  # every coverage finding's reason, ';'-joined, in order
    "refusal_reason",  # a refused row's import reason
    "refusal_detail",  # ... and the field path or what was wrong
    "note_reasons",  # the kind check's notes the reference does not share, ';'-joined, in order (no verdict change)
    "min_evidence",  # the ε the row was judged at (check_solution's min_evidence)
    "evidence_below",  # the ε above which the row is 'error' (Verdict.evidence_below; missing: at no ε)
)

SCORE_COLUMNS: tuple[str, ...] = (
    "solver",
    "solutions",
    "refused",
    "labelled",
    "wrong",
    "correct",
    "base_rate_pct",  # share of labelled solutions that are wrong
    "flagged",  # verdict error among labelled
    "precision_pct",  # wrong among flagged
    "recall_pct",  # flagged among wrong
    "false_alarm_pct",  # flagged among correct
    "lift",  # precision / base rate
    "sound_pct",
    "error_pct",
    "unverifiable_pct",
    "hand_read",  # flagged wrong solutions whose error step was read by hand
    "first_step_right",  # ... whose first flagged step is that step
    "first_step_right_pct",
)

_LABEL_WORDS: Mapping[str, bool] = {
    "true": True, "false": False, "1": True, "0": False, "yes": True, "no": False,
    "correct": True, "incorrect": False, "right": True, "wrong": False,
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Fields:
    """Where a record's question, solutions, id, labels, reference and solver are (dotted paths)."""

    question: str
    solution: str
    id: str | None = None
    label: str | None = None
    reference: str | None = None
    solver: str | None = None  # a field whose value names the solver (one solution per record)
    solver_keys: tuple[str, ...] = ()  # keys each holding one solver's object (several per record)

    def __post_init__(self) -> None:
        for name in ("question", "solution"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"'{name}' must name a field (got {value!r})")
        if self.solver is not None and self.solver_keys:
            raise ValueError("name the solver by a field or by keys, not both")
        if not isinstance(self.solver_keys, tuple) or not all(isinstance(k, str) and k for k in self.solver_keys):
            raise ValueError("'solver_keys' must be a tuple of keys")


_MISSING = object()


def field_value(record: object, path: str) -> object:
    """The value at a dotted ``path`` of a record, or a sentinel when it has none (a key holding a dot first).

    >>> field_value({"a": {"b": 1}, "c.d": 2}, "a.b"), field_value({"a": {"b": 1}, "c.d": 2}, "c.d")
    (1, 2)
    """
    if not isinstance(record, dict):
        return _MISSING
    if path in record:
        return record[path]
    head, dot, rest = path.partition(".")
    while dot:
        if head in record:
            found = field_value(record[head], rest)
            if found is not _MISSING:
                return found
        more, dot, rest = rest.partition(".")
        head = f"{head}.{more}"
    return _MISSING


def _refusal(reason: str, message: str, detail: str) -> ImportRefusal:
    return ImportRefusal(message, reason=reason, detail=detail)


def _solution_text(record: object, path: str, what: str) -> str | list[str]:
    """A solution: text, or a list of step strings; ImportRefusal naming the path otherwise."""
    value = field_value(record, path)
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return value
    return _text(record, path, what)


def text_subfields(value: object, path: str, depth: int = 2) -> list[str]:
    """The dotted paths below ``path`` whose values are text, in the object ``value`` (``depth`` levels down).

    >>> text_subfields({"text": "3 + 4 = 7", "tokens": 9, "meta": {"raw": "..."}}, "llm_output")
    ['llm_output.text', 'llm_output.meta.raw']
    """
    if not isinstance(value, dict) or depth < 1:
        return []
    out = [f"{path}.{k}" for k, v in value.items() if isinstance(k, str) and isinstance(v, str)]
    for k, v in value.items():
        if isinstance(k, str) and isinstance(v, dict):
            out += text_subfields(v, f"{path}.{k}", depth - 1)
    return out[:8]


def did_you_mean(value: object, path: str) -> str | None:
    """What to say of a field that holds an object or a list where text is wanted: the sub-fields that hold
    text (``did you mean `llm_output.text`?``), or what the list holds; None for any other value."""
    subfields = text_subfields(value, path)
    if subfields:
        return "did you mean " + " or ".join(f"`{f}`" for f in subfields[:3]) + "?"
    if isinstance(value, dict):
        return f"it is an object with no text field (its fields: {', '.join(map(str, list(value)[:8])) or 'none'})"
    if isinstance(value, list):
        kinds = sorted({type(v).__name__ for v in value[:50]})
        return f"it is a list of {', '.join(kinds) or 'nothing'} (a solution may be a list of step strings)"
    return None


def _text(record: object, path: str, what: str) -> str:
    """A text field; ImportRefusal (``malformed_record``, ``empty_text``) naming the path otherwise."""
    value = field_value(record, path)
    if value is _MISSING:
        raise _refusal("malformed_record", f"the record has no {what} field '{path}'", path)
    if not isinstance(value, str):
        hint = did_you_mean(value, path)  # the detail says it too: a verdict row keeps the detail
        raise _refusal("malformed_record", f"the {what} field '{path}' must be text (got {type(value).__name__})"
                       + (f"; {hint}" if hint else ""), f"{path} ({hint})" if hint else path)
    if not value.strip():
        raise _refusal("empty_text", f"the {what} field '{path}' is empty", path)
    return value


def _label(record: object, path: str) -> bool:
    value = field_value(record, path)
    if isinstance(value, bool):
        return value
    if type(value) is int and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _LABEL_WORDS:
        return _LABEL_WORDS[value.strip().lower()]
    shown = "no such field" if value is _MISSING else repr(value)[:40]
    raise _refusal("malformed_record", f"the label field '{path}' must be true/false ({shown})", path)


def _record_id(record: object, path: str | None, fallback: str) -> str:
    """The record's id as its text: a string as it is, any other JSON value as JSON writes it (``1.5``,
    ``1e+308``, ``true``, ``[1, "a"]``, an int of any length); ``fallback`` (``file:line``) for none, a blank
    string or ``null``."""
    value = field_value(record, path) if path else _MISSING
    if value is _MISSING or value is None:
        return fallback
    if isinstance(value, str):
        return value if value.strip() else fallback
    text = _json_text(value)
    return fallback if text is None else text


def _json_text(value: object) -> str | None:
    """A JSON value as JSON text (an int past Python's 4,300-digit limit of int-to-text included); None for a
    value JSON cannot write."""
    import json

    if isinstance(value, int) and not isinstance(value, bool):
        return _int_text(value)
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, default=str)
    except (TypeError, ValueError, RecursionError):
        return None


def _int_text(value: int) -> str:
    """The decimal digits of an int of any length (pieces of 4,000 digits each, within Python's limit)."""
    if value < 0:
        return "-" + _int_text(-value)
    piece = 10**4000
    parts: list[str] = []
    while value >= piece:
        value, low = divmod(value, piece)
        parts.append(str(low).zfill(4000))
    return str(value) + "".join(reversed(parts))


def _refused_row(
    rid: str, solver: str, source: str, exc: ImportRefusal, min_evidence: float = DEFAULT_MIN_EVIDENCE
) -> tuple[Any, ...]:
    row: dict[str, Any] = dict.fromkeys(VERDICT_COLUMNS)
    row.update(id=rid, solver=solver, source=source, status="refused", reference_checked=False,
               n_error=0, n_coverage=0, n_in_reference=0, n_steps=0,
               refusal_reason=exc.reason, refusal_detail=exc.detail or exc.message, min_evidence=min_evidence)
    return tuple(row[c] for c in VERDICT_COLUMNS)


def _verdict_row(rid: str, solver: str, source: str, verdict: Verdict, label: bool | None) -> tuple[Any, ...]:
    unread = _unread(verdict)
    if unread is not None:  # nothing of it was read: a refused row, as a corpus report refuses the record
        return _refused_row(rid, solver, source, _refusal(unread.reason, unread.detail, unread.detail),
                            verdict.min_evidence)
    first = verdict.first_error
    errors = [f.reason for f in verdict.errors]
    coverage = [f.reason for f in verdict.coverage]
    return (
        rid, solver, source, verdict.status, label, verdict.reference_checked,
        len(errors), len(coverage), sum(f.in_reference for f in verdict.findings), len(verdict.steps),
        None if first is None else first.reason,
        None if first is None else first.step,
        None if first is None else first.line,
        None if first is None else first.user_step,
        ";".join(errors) or None, ";".join(coverage) or None,
        None, None,
        ";".join(f.reason for f in verdict.notes if not f.in_reference) or None,
        verdict.min_evidence, verdict.evidence_below,
    )


@functools.lru_cache(maxsize=8)
def _pack_for(spec: str | Path | None) -> UnitPack:
    """The pack a worker checks with, loaded once per process (an immutable value); None: the corpus pack."""
    return corpus_pack() if spec is None else load_pack(spec)


@dataclass(frozen=True, slots=True)
class _Solution:
    solver: str
    text: str | list[str] | None
    label: bool | None
    refusal: ImportRefusal | None = None


def _solutions(data: object, fields: Fields) -> list[_Solution]:
    """The solutions of a record (one per solver key, or the one the record holds), each read or refused."""
    out: list[_Solution] = []
    if fields.solver_keys:
        for key in fields.solver_keys:
            holder = field_value(data, key)
            if isinstance(holder, str | list):  # the key holds the solution itself
                holder = {fields.solution: holder}
            out.append(_one(holder, fields, key))
        return out
    solver = ""
    if fields.solver is not None:
        name = field_value(data, fields.solver)
        if not isinstance(name, str | int) or isinstance(name, bool) or not str(name).strip():
            refusal = _refusal("malformed_record", f"the solver field '{fields.solver}' must name the solver",
                               fields.solver)
            return [_Solution("", None, None, refusal)]
        solver = str(name)
    return [_one(data, fields, solver)]


def _one(holder: object, fields: Fields, solver: str) -> _Solution:
    try:
        text = _solution_text(holder, fields.solution, "solution")
        label = None if fields.label is None else _label(holder, fields.label)
    except ImportRefusal as exc:
        return _Solution(solver, None, None, exc)
    return _Solution(solver, text, label)


@dataclass(frozen=True, slots=True)
class _Seen:
    """What a batch's records hold: the field paths of :class:`Fields` found in some record, and the keys
    the records have (top level, and inside each solver key's object), to name when a field names nothing."""

    found: frozenset[str] = frozenset()
    keys: frozenset[str] = frozenset()
    records: int = 0  # records that decoded to an object
    textual: frozenset[str] = frozenset()  # the text fields' paths found holding text (or a list of steps)
    hints: tuple[tuple[str, str], ...] = ()  # (path, what to say) of a text field found holding no text

    def __or__(self, other: _Seen) -> _Seen:
        hints = self.hints + tuple(h for h in other.hints if h[0] not in {p for p, _ in self.hints})
        return _Seen(self.found | other.found, self.keys | other.keys, self.records + other.records,
                     self.textual | other.textual, hints)


_MAX_KEYS_SEEN = 64  # keys kept per batch to name in an error (a record of thousands of keys is named in part)


def _paths(fields: Fields) -> list[tuple[str, str]]:
    """(what, path) of every field a record is read at; a solver key's solution and label as ``key.path``."""
    out = [("question", fields.question)]
    out += [(what, path) for what, path in (("id", fields.id), ("reference", fields.reference),
                                             ("solver", fields.solver)) if path is not None]
    if not fields.solver_keys:
        out.append(("solution", fields.solution))
        out += [("label", fields.label)] if fields.label is not None else []
    for key in fields.solver_keys:
        out += [("solver key", key), ("solution", f"{key}.{fields.solution}")]
        out += [("label", f"{key}.{fields.label}")] if fields.label is not None else []
    return out


def _seen(data: object, fields: Fields) -> _Seen:
    if not isinstance(data, dict):
        return _Seen()
    found = {path for _, path in _paths(fields) if field_value(data, path) is not _MISSING}
    textual: set[str] = set()
    hints: list[tuple[str, str]] = []
    for what, path in _paths(fields):
        if what not in ("question", "solution", "reference") or path not in found:
            continue
        value = field_value(data, path)
        if isinstance(value, str) or (isinstance(value, list) and value and all(isinstance(v, str) for v in value)):
            textual.add(path)
        elif (hint := did_you_mean(value, path)) is not None:
            hints.append((path, f"the {what} field '{path}' holds {type(value).__name__}, not text: {hint}"))
    keys = set(list(data)[:_MAX_KEYS_SEEN])
    for key in fields.solver_keys:
        holder = field_value(data, key)
        if isinstance(holder, str | list):  # the key holds the solution itself
            found.add(f"{key}.{fields.solution}")
        elif isinstance(holder, dict):
            keys.update(f"{key}.{k}" for k in list(holder)[:_MAX_KEYS_SEEN])
    return _Seen(frozenset(found), frozenset(keys), 1, frozenset(textual), tuple(hints))


@dataclass(frozen=True, slots=True)
class _CheckWork:
    """A picklable unit of work: raw records in, verdict rows out (in order), and what the records hold."""

    fields: Fields
    pack: str | Path | None
    min_evidence: float = DEFAULT_MIN_EVIDENCE

    def __call__(self, batch: Sequence[RawRecord]) -> tuple[tuple[tuple[Any, ...], ...], _Seen]:
        pack = _pack_for(self.pack)
        rows: list[tuple[Any, ...]] = []
        seen = _Seen()
        for raw in batch:
            rows.extend(check_records(raw, self.fields, pack, min_evidence=self.min_evidence))
            decoded = decode_jsonl_line(raw)
            if decoded.refusal is None:
                seen = seen | _seen(decoded.data, self.fields)
        return tuple(rows), seen

    def warm(self) -> None:
        """Check one small solution against a reference: the pack, the readers and the learned reader loaded
        (the process pool calls it before its workers start)."""
        check_solution(_WARM_QUESTION, _WARM_SOLUTION, pack=_pack_for(self.pack), reference=_WARM_SOLUTION)


_WARM_QUESTION = "Ann buys 3 boxes of 12 pencils for $2 each. How much does she pay?"
_WARM_SOLUTION = "She pays 3 * 2 = $<<3*2=6>>6 for 3 * 12 = <<3*12=36>>36 pencils.\n#### 6"


def check_fields_named(seen: _Seen, fields: Fields, source: str) -> None:
    """Refuse fields (or solver keys) that name nothing in any record, and text fields that hold an object or a
    list in every record that has them (naming the sub-fields that hold text): bad input, not a row of refusals
    each.

    Raises
    ------
    ImportRefusal
        ``malformed_record`` naming the first such field (its path as ``detail``) and the keys the records have.
    """
    if not seen.records:
        return  # no record read as an object: nothing to say what the records hold
    for path, said in seen.hints:
        if path not in seen.textual:  # an object (or a list) in every record that has it: the path is wrong
            raise ImportRefusal(f"in no record of {source} is the field '{path}' text; {said}",
                                reason="malformed_record", path=source, detail=path)
    for what, path in _paths(fields):
        holder = path.partition(".")[0] if what in ("solution", "label") and fields.solver_keys else None
        if path in seen.found or (holder is not None and holder not in seen.found):
            continue  # found, or inside a solver key that is itself missing (named first)
        keys = sorted(seen.keys)
        shown = ", ".join(keys[:40]) + (", ..." if len(keys) > 40 else "")
        raise ImportRefusal(
            f"no record of {source} has the {what if what == 'solver key' else what + ' field'} '{path}'; the "
            f"records have: {shown or '(no fields)'}",
            reason="malformed_record", path=source, detail=path,
        )


def _solver_names(fields: Fields) -> list[str]:
    names = list(fields.solver_keys) or [""]
    return [*names, REFERENCE_SOLVER] if fields.reference is not None else names


def check_records(
    raw: RawRecord, fields: Fields, pack: UnitPack, *, min_evidence: float = DEFAULT_MIN_EVIDENCE
) -> list[tuple[Any, ...]]:
    """The verdict rows of one record (a JSONL line of :func:`~ssbg.reading.readers.common.scan_jsonl`, or a
    row of :func:`~ssbg.reading.readers.tabular.scan_source`): never raises.

    Whatever fails in one record is its rows' typed refusal, counted like any other row: a line that does
    not decode, a field missing or of the wrong type, a text beyond a cap of :mod:`ssbg.limits`
    (``record_too_large``, before it is read), a question number out of range (``number_out_of_range``),
    and anything unexpected (``reader_error``, naming the exception: a bug, but one record's).
    """
    fallback = f"{raw.path.name}:{raw.line}"
    try:
        return _record_rows(raw, fields, pack, fallback, min_evidence)
    except Exception as exc:  # noqa: BLE001 - fault isolation: one record never stops a run (ADR 0011, 0022)
        refusal = _refusal("reader_error", f"checking the record failed: {type(exc).__name__}: {exc}"[:300],
                           type(exc).__name__)
        return [_refused_row(fallback, s, raw.where, refusal, min_evidence) for s in _solver_names(fields)]


def _record_rows(
    raw: RawRecord, fields: Fields, pack: UnitPack, fallback: str, min_evidence: float
) -> list[tuple[Any, ...]]:
    source = raw.where
    decoded = decode_jsonl_line(raw)
    if decoded.refusal is not None:
        exc = _refusal(decoded.refusal[0], decoded.refusal[1], decoded.refusal[1])
        rid = _record_id(raw.data, fields.id, fallback) if isinstance(raw.data, dict) else fallback  # _sendable's
        return [_refused_row(rid, s, source, exc, min_evidence) for s in _solver_names(fields)]
    data = decoded.data
    rid = _record_id(data, fields.id, fallback)
    try:
        if not isinstance(data, dict):
            raise _refusal("malformed_record", f"a record must be a JSON object (got {type(data).__name__})", "$")
        question = _text(data, fields.question, "question")
        too_large = size_refusal(question)
        if too_large is not None:
            raise too_large
    except ImportRefusal as exc:
        return [_refused_row(rid, s, source, exc, min_evidence) for s in _solver_names(fields)]
    shared: Reference | None = None
    rows: list[tuple[Any, ...]] = []
    ref_row: tuple[Any, ...] | None = None
    if fields.reference is not None:
        try:
            reference = _solution_text(data, fields.reference, "reference")
            too_large = size_refusal(question, reference, solution_field=fields.reference)
            if too_large is not None:
                raise too_large
        except ImportRefusal as exc:  # the reference's own row is refused; the solutions are checked without it
            ref_row = _refused_row(rid, REFERENCE_SOLVER, source, exc, min_evidence)
        else:
            ref_verdict = check_solution(question, reference, pack=pack, min_evidence=min_evidence)
            ref_row = _verdict_row(rid, REFERENCE_SOLVER, source, ref_verdict, True)
            if _unread(ref_verdict) is None:
                shared = Reference.from_verdict(ref_verdict)
    for s in _solutions(data, fields):
        refusal = s.refusal
        if refusal is None and s.text is not None:
            refusal = size_refusal(question, s.text, solution_field=fields.solution)
        if refusal is not None or s.text is None:
            rows.append(_refused_row(rid, s.solver, source, refusal or _refusal("malformed_record", "?", "?"),
                                     min_evidence))
            continue
        verdict = check_solution(question, s.text, pack=pack, reference=shared, min_evidence=min_evidence)
        rows.append(_verdict_row(rid, s.solver, source, verdict, s.label))
    if ref_row is not None:
        rows.append(ref_row)
    return rows


def _unread(verdict: Verdict) -> Finding | None:
    """The finding that says a text of the record was not read at all (a cap, a number out of range), if any."""
    if verdict.trace is not None:
        return None
    for f in verdict.findings:
        if f.step is None and f.reason in _UNREAD:
            return f
    return None


_UNREAD = frozenset({"number_out_of_range", "record_too_large"})


def verdicts_frame(rows: Sequence[tuple[Any, ...]]) -> pd.DataFrame:
    """The verdict rows as a DataFrame with the columns of :data:`VERDICT_COLUMNS` (typed)."""
    import pandas as pd

    frame = pd.DataFrame.from_records(list(rows), columns=list(VERDICT_COLUMNS))
    for name in ("id", "solver", "source", "first_error_reason", "error_reasons", "coverage_reasons",
                 "refusal_reason", "refusal_detail", "note_reasons"):
        frame[name] = frame[name].astype("string")
    for name in ("n_error", "n_coverage", "n_in_reference", "n_steps"):
        frame[name] = frame[name].astype("int64")
    for name in ("first_error_step", "first_error_line", "first_error_user_step"):
        frame[name] = frame[name].astype("Int64")
    for name in ("min_evidence", "evidence_below"):
        frame[name] = frame[name].astype("float64")
    for name in ("label", "reference_checked"):
        frame[name] = frame[name].astype("boolean")
    frame["status"] = pd.Categorical(frame["status"], categories=list(ROW_STATUSES))
    return frame


def _count_lines(path: Path) -> int | None:
    """The lines of a file (for the progress bar), a block at a time: a line is never held whole; None for a
    gzip-compressed file (its total is not known without decompressing it)."""
    from ssbg.reading.readers.common import GZIP_MAGIC

    count = 0
    try:
        with open_regular(path) as handle:  # a FIFO or a device is refused (the scan counts it), never read
            if handle.peek(2)[:2] == GZIP_MAGIC:  # type: ignore[attr-defined]
                return None
            while block := handle.read(1 << 20):
                count += block.count(b"\n")
    except OSError:
        return 0
    return count


def _sendable(raw: RawRecord, *, id_field: str | None) -> RawRecord:
    """``raw``, or when it cannot be pickled to a worker process (a lock, a lambda, an open file among a record in
    memory's values) its ``malformed_record`` refusal, keeping its id: that record's rows, not the run's end."""
    import pickle

    try:
        pickle.dumps(raw, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # noqa: BLE001 - any value: TypeError, PicklingError, AttributeError, RecursionError
        why = f"a value of the record cannot be sent to a worker process ({type(exc).__name__}: {exc})"[:300]
        rid = None if id_field is None else _record_id(raw.data, id_field, "")
        return RawRecord(raw.path, raw.line, data={id_field: rid} if rid else None, refusal=("malformed_record", why))
    return raw


def _batched(items: Iterator[RawRecord], size: int, question: str) -> Iterator[list[RawRecord]]:
    """Batches of ``size`` records, each grown past it while the next record asks the same question (the
    ``question`` field), up to :data:`_MAX_GROWTH` times ``size``: a question's solutions side by side in
    a file are checked in one worker, which reads the question once for all of them."""
    batch: list[RawRecord] = []
    asked: object = _MISSING  # the question of the batch's last record, read once the batch is full
    for item in items:
        full = len(batch) >= size
        if full and (asked is _MISSING or len(batch) >= _MAX_GROWTH * size or _question(item, question) != asked):
            yield batch
            batch, asked = [], _MISSING
        batch.append(item)
        if len(batch) == size:
            asked = _question(item, question)
    if batch:
        yield batch


_MAX_GROWTH = 8  # a batch holds at most this many times its size, however many solutions share a question


def _question(raw: RawRecord, path: str) -> object:
    """The question text of a record (decoded for this alone, at a batch's end), or a sentinel for none."""
    decoded = decode_jsonl_line(raw)
    value = _MISSING if decoded.refusal is not None else field_value(decoded.data, path)
    return value if isinstance(value, str) else _MISSING


def check_solutions(
    data: object,
    *,
    question_field: str,
    solution_field: str,
    id_field: str | None = None,
    label_field: str | None = None,
    reference_field: str | None = None,
    solver_field: str | None = None,
    solver_keys: Sequence[str] = (),
    pack: str | Path | None = None,
    jobs: int = 1,
    engine: str = "local",
    progress: bool = True,
    limit: int | None = None,
    batch_size: int = 32,
    source_name: str | None = None,
    min_evidence: float = DEFAULT_MIN_EVIDENCE,
) -> pd.DataFrame:
    """Check every solution of a set of records: one row per solution (:data:`VERDICT_COLUMNS`), in order.

    The Python twin of ``ssbg check-solutions`` (see the module docstring for the fields).  ``data`` is a
    path (JSONL, JSON, CSV or Parquet by its extension, or ``FORMAT=PATH``), a pandas DataFrame, a
    ``datasets.Dataset`` or an iterable of mappings (:mod:`ssbg.reading.readers.tabular`): the same records
    give the same rows whatever their form, ``source`` being ``NAME:N`` (a file's path, else ``source_name``,
    a Dataset's split or the kind of object) and ``N`` the record's line or position from 1; a DataFrame's rows
    keep its index (each solution the index of its record's row, repeated per solver).  The rows are
    the same whatever ``jobs`` and ``engine`` (``local``: this process or a process pool; ``dask``).
    ``min_evidence`` is ε (:func:`~ssbg.checking.verdict.check_solution`); each row keeps it and the ε above
    which it would be ``error`` (``evidence_below``), so :func:`sweep_verdicts` scores other ε from the rows.

    Raises
    ------
    ImportRefusal
        ``unreadable_file`` when ``data`` is a path that names no file; ``malformed_record`` when a field (or
        a solver key) names nothing in any record, naming the fields the records have.
    ValueError
        For fields that name nothing, ``jobs < 1`` or an unknown engine.

    Examples
    --------
    >>> q = "Ann has 3 bags of 4 kg. How many kg does she have?"
    >>> rows = [{"id": "a1", "q": q, "m": {"s": "3 * 4 = 12 kg", "ok": True}}, {"id": "a2", "m": {"s": "3"}}]
    >>> df = check_solutions(rows, question_field="q", solution_field="s", id_field="id", label_field="ok",
    ...                      solver_keys=["m"], progress=False)
    >>> df[["id", "source", "status", "label", "refusal_reason"]].values.tolist()
    [['a1', 'records:1', 'sound', True, <NA>], ['a2', 'records:2', 'refused', <NA>, 'malformed_record']]
    """
    from ssbg.reading.readers.tabular import count_records, missing_file, scan_source, split_format
    from ssbg.reading.readers.tabular import source_name as name_of
    from ssbg.stats.batch import ENGINES, map_batches

    if not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"'jobs' must be an int >= 1 (got {jobs!r})")
    if engine not in ENGINES:
        raise ValueError(f"'engine' must be one of {list(ENGINES)} (got {engine!r})")
    _check_min_evidence(min_evidence)
    fields = Fields(question_field, solution_field, id_field, label_field, reference_field, solver_field,
                    tuple(solver_keys))
    if isinstance(data, str | Path):
        file = split_format(data)[1]
        if not file.is_file():
            raise missing_file(file)
    pack_spec = pack  # a Path stays a Path: a folder given by path (str() would make "mine" a pack's name)
    _pack_for(pack_spec)  # fail early, in this process, on a bad pack
    records: Iterator[RawRecord] = scan_source(data, name=source_name)
    if (jobs > 1 or engine != "local") and not isinstance(data, str | Path):
        records = map(functools.partial(_sendable, id_field=id_field), records)  # records in memory may hold any
        # value: one that cannot be sent to a worker is its own refused row
    if limit is not None:
        records = (r for k, r in enumerate(records) if k < limit)
    rows: list[tuple[Any, ...]] = []
    seen = _Seen()
    jsonl = isinstance(data, str | Path) and split_format(data)[0] == "jsonl"
    known = _count_lines(split_format(data)[1]) if jsonl else None  # type: ignore[arg-type]
    total = count_records(data) if known is None else known
    bar = _progress(progress, total if limit is None or total is None else min(limit, total))
    try:
        batches = _batched(records, batch_size, fields.question)
        work = _CheckWork(fields, pack_spec, min_evidence)
        for n, (chunk, chunk_seen) in map_batches(batches, work, jobs=jobs, engine=engine):
            rows.extend(chunk)
            seen = seen | chunk_seen
            if bar is not None:
                bar.update(n)
    finally:
        if bar is not None:
            bar.close()
    check_fields_named(seen, fields, name_of(data, source_name))
    frame = verdicts_frame(rows)
    frame.attrs["min_evidence"] = min_evidence
    if type(data).__name__ == "DataFrame" and hasattr(data, "index"):  # a DataFrame's rows keep its index
        frame.index = data.index[[int(s.rpartition(":")[2]) - 1 for s in frame["source"]]]
    return frame


def _progress(enabled: bool, total: int | None) -> Any:
    if not enabled:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, unit=" records", desc="ssbg check-solutions", dynamic_ncols=True)


# ------------------------------------------------------------------ scores


MAX_ERROR_STEPS_BYTES = 16 * 1024 * 1024
"""The largest error-steps file :func:`read_error_steps` reads (the hand-read file of the dev set is 2 KB)."""


_MAX_LINE_DIGITS = 9  # a line number of a solution (its cap: MAX_SOLUTION_CHARS characters)


def read_error_steps(path: str | Path) -> dict[tuple[str, str], int]:
    """Hand-read error steps: a CSV with columns ``id``, ``solver``, ``line`` (and a free ``note``), the line
    (from 1) where each solution's first error is, as a person reading it judged; ``(id, solver) -> line``.

    Raises
    ------
    ImportRefusal
        ``malformed_record`` naming ``file:line`` for a file without those columns or a row whose line is no
        positive integer; ``unreadable_file`` for no file, a FIFO, a device, or a file larger than
        :data:`MAX_ERROR_STEPS_BYTES` (found after reading that many bytes, never the whole).
    """
    import csv
    import io

    file = Path(path)
    out: dict[tuple[str, str], int] = {}
    try:  # a regular file of at most MAX_ERROR_STEPS_BYTES: a FIFO would block, /dev/zero never end
        text = read_regular(file, MAX_ERROR_STEPS_BYTES).decode("utf-8")
        rows = list(csv.DictReader(io.StringIO(text, newline="")))
    except OSError as exc:
        raise ImportRefusal(f"cannot read the error steps: {exc.strerror or exc}", reason="unreadable_file",
                            path=str(file)) from None
    except (UnicodeDecodeError, csv.Error) as exc:
        raise ImportRefusal(f"cannot read the error steps: {exc}", reason="malformed_record", path=str(file)) from None
    for number, row in enumerate(rows, start=2):
        line = (row.get("line") or "").strip()
        number_ok = line.isascii() and line.isdigit() and len(line) <= _MAX_LINE_DIGITS and int(line) >= 1
        if not number_ok or not (row.get("id") or "").strip() or row.get("solver") is None:
            raise ImportRefusal("an error step is a row of id, solver and line (from 1)", reason="malformed_record",
                                path=f"{file}:{number}")
        out[(row["id"].strip(), row["solver"].strip())] = int(line)
    return out


@dataclass(frozen=True, slots=True)
class SolverScore:
    """The scores of one solver (a row of :func:`score_verdicts`); percentages are None without their base."""

    solver: str
    solutions: int
    refused: int
    labelled: int
    wrong: int
    correct: int
    flagged: int
    flagged_wrong: int
    sound: int
    error: int
    unverifiable: int
    hand_read: int = 0
    first_step_right: int = 0

    def row(self) -> tuple[Any, ...]:
        checked = self.solutions - self.refused
        base = _pct(self.wrong, self.labelled)
        precision = _pct(self.flagged_wrong, self.flagged)
        lift = None if precision is None or not base else round(precision / base, 2)
        return (
            self.solver, self.solutions, self.refused, self.labelled, self.wrong, self.correct, base, self.flagged,
            precision, _pct(self.flagged_wrong, self.wrong), _pct(self.flagged - self.flagged_wrong, self.correct),
            lift, _pct(self.sound, checked), _pct(self.error, checked), _pct(self.unverifiable, checked),
            self.hand_read, self.first_step_right, _pct(self.first_step_right, self.hand_read),
        )


def _pct(part: int, whole: int) -> float | None:
    return None if whole == 0 else round(100.0 * part / whole, 1)


def _score(solver: str, frame: pd.DataFrame, error_steps: Mapping[tuple[str, str], int]) -> SolverScore:
    status = frame["status"].astype(str)
    label = frame["label"]
    labelled = label.notna() & (status != "refused")
    wrong = labelled & (label == False)  # noqa: E712 - a nullable boolean column
    flagged = labelled & (status == "error")
    hand = right = 0
    for rid, name, line in frame.loc[flagged & wrong, ["id", "solver", "first_error_line"]].itertuples(index=False):
        truth = error_steps.get((str(rid), str(name)))
        if truth is not None:
            hand += 1
            right += int(line is not None and not _missing(line) and int(line) == truth)
    return SolverScore(
        solver, len(frame), int((status == "refused").sum()), int(labelled.sum()), int(wrong.sum()),
        int((labelled & ~wrong).sum()), int(flagged.sum()), int((flagged & wrong).sum()),
        int((status == "sound").sum()), int((status == "error").sum()), int((status == "unverifiable").sum()),
        hand, right,
    )


def _missing(value: object) -> bool:
    try:
        return bool(value is None or (isinstance(value, float) and math.isnan(value)) or str(value) == "<NA>")
    except (TypeError, ValueError):  # pragma: no cover - pandas' NA in a boolean context
        return True


def score_verdicts(
    frame: pd.DataFrame, *, error_steps: Mapping[tuple[str, str], int] | None = None
) -> pd.DataFrame:
    """Per solver (file order), then ``all solvers`` (every solver but the reference): how many, the
    base rate of wrong ones, precision and recall of verdict ``error`` on wrong ones, its false-alarm
    rate on correct ones, its lift over the base rate, the shares of each verdict, and among flagged
    wrong solutions read by hand (``error_steps``, :func:`read_error_steps`) how many have their first
    flagged step where the error is (:data:`SCORE_COLUMNS`).

    >>> import pandas as pd
    >>> f = verdicts_frame([("1", "m", "f:1", "error", False, False, 1, 0, 0, 1, "unit_mismatch", 0, 1, 0,
    ...                      "unit_mismatch", None, None, None, None, 0.001, 0.0),
    ...                     ("2", "m", "f:2", "sound", True, False, 0, 0, 0, 1, None, None, None, None, None,
    ...                      None, None, None, None, 0.001, None)])
    >>> s = score_verdicts(f, error_steps={("1", "m"): 1})
    >>> columns = ["solver", "precision_pct", "recall_pct", "false_alarm_pct", "first_step_right"]
    >>> print(s[columns].to_string(index=False))
    solver  precision_pct  recall_pct  false_alarm_pct  first_step_right
         m          100.0       100.0              0.0                 1
    """
    import pandas as pd

    steps = error_steps or {}
    names = list(dict.fromkeys(frame["solver"].astype(str)))
    scores = [_score(name, frame[frame["solver"].astype(str) == name], steps) for name in names]
    models = frame[frame["solver"].astype(str) != REFERENCE_SOLVER]
    if len([n for n in names if n != REFERENCE_SOLVER]) > 1:
        whole = _score("all solvers", models, steps)
        scores.append(whole)
    return pd.DataFrame.from_records([s.row() for s in scores], columns=list(SCORE_COLUMNS))


SWEEP: tuple[float, ...] = (0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)
"""The ε :func:`sweep_verdicts` scores by default (``ssbg check-solutions --sweep``)."""

SWEEP_COLUMNS: tuple[str, ...] = (
    "min_evidence", "solver", "labelled", "flagged", "precision_pct", "recall_pct", "false_alarm_pct", "mcc",
    "error_pct", "unverifiable_pct",
)


def _mcc(tp: int, fp: int, fn: int, tn: int) -> float | None:
    denominator = math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    return None if denominator == 0 else round((tp * tn - fp * fn) / denominator, 3)


def sweep_verdicts(frame: pd.DataFrame, levels: Sequence[float] = SWEEP) -> pd.DataFrame:
    """Per ε of ``levels`` and per solver (then ``all solvers``, the reference apart): the verdicts the rows give at
    that ε (``error`` iff ``evidence_below < ε``: no row is checked again), scored against the labels as
    :func:`score_verdicts` scores them, with Matthews' correlation (:data:`SWEEP_COLUMNS`).  What a risk-coverage
    curve plots: ``error_pct`` is the share flagged (coverage of the error decision), 100 - ``precision_pct`` its
    risk.

    >>> f = verdicts_frame([("1", "m", "f:1", "error", False, False, 1, 0, 0, 1, "unit_mismatch", 0, 1, 0,
    ...                      "unit_mismatch", None, None, None, None, 0.001, 0.2),
    ...                     ("2", "m", "f:2", "unverifiable", True, False, 0, 1, 0, 1, None, None, None, None,
    ...                      None, "ambiguous_grounding", None, None, None, 0.001, 0.5)])
    >>> s = sweep_verdicts(f, [0.1, 0.3, 1.0])
    >>> s[["min_evidence", "precision_pct", "recall_pct"]].values.tolist(), s["flagged"].tolist()
    ([[0.1, nan, 0.0], [0.3, 100.0, 100.0], [1.0, 50.0, 100.0]], [0, 1, 2])
    """
    import pandas as pd

    for level in levels:
        _check_min_evidence(level)
    names = list(dict.fromkeys(frame["solver"].astype(str)))
    groups = [(n, frame[frame["solver"].astype(str) == n]) for n in names]
    if len([n for n in names if n != REFERENCE_SOLVER]) > 1:
        groups.append(("all solvers", frame[frame["solver"].astype(str) != REFERENCE_SOLVER]))
    out: list[tuple[Any, ...]] = []
    for level in levels:
        for name, part in groups:
            status = part["status"].astype(str)
            checked = status != "refused"
            label = part["label"]
            labelled = label.notna() & checked
            wrong = labelled & (label == False)  # noqa: E712 - a nullable boolean column
            below = part["evidence_below"]
            flagged = checked & below.notna() & (below < level)
            tp = int((flagged & wrong).sum())
            fp = int((flagged & labelled & ~wrong).sum())
            n_wrong, n_correct = int(wrong.sum()), int((labelled & ~wrong).sum())
            n = int(checked.sum())
            unverifiable = int((checked & ~flagged & (status != "sound")).sum())
            out.append((
                level, name, int(labelled.sum()), tp + fp, _pct(tp, tp + fp), _pct(tp, n_wrong), _pct(fp, n_correct),
                _mcc(tp, fp, n_wrong - tp, n_correct - fp), _pct(int(flagged.sum()), n), _pct(unverifiable, n),
            ))
    sweep = pd.DataFrame.from_records(out, columns=list(SWEEP_COLUMNS))
    return sweep.astype({"precision_pct": "float64", "recall_pct": "float64", "false_alarm_pct": "float64",
                         "mcc": "float64", "error_pct": "float64", "unverifiable_pct": "float64"})
