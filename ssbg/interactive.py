"""The logic behind the interactive widgets, as plain functions and values.

:mod:`ssbg.widgets` wires ipywidgets controls to the functions here and does
nothing else; tests and notebooks call these functions directly.  This module
never imports ipywidgets, and imports pandas only inside the corpus-browser
functions that need it (an edge module: see :mod:`ssbg`).

The admissibility playground evaluates one operation on unit texts typed by a
person.  :func:`evaluate` never raises for bad text: a unit outside the pack,
a malformed unit, a wrong operand count, an unknown kind or a pack that does
not load all come back as a refused :class:`PlaygroundResult` that carries the
typed error's ``reason``, ``detail`` and offending unit.

Examples
--------
>>> evaluate("apply_rate", ["dollars_per_hour", "hours"]).proof
'apply_rate: [money/time,time] -> money'
>>> refused = evaluate("add", ["dollars", "hours"])
>>> refused.status, refused.reason, refused.offending_unit
('refused', 'unit_mismatch', 'hours')
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from ssbg.admissibility import OPERATION_KINDS, REFUSED_UNIT_PROOF, UnitProof, check_operation
from ssbg.errors import AdmissibilityError, PackError, SsbgError, UnitAlgebraError
from ssbg.model import SemanticSymbolicBindingGraph
from ssbg.reading.records import CorpusRecord
from ssbg.units import ResolvedUnit, UnitPack, default_pack, load_pack, normalize_unit_text, resolve_unit

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "BROWSER_FILTERS",
    "BROWSER_REASONS",
    "DETAIL_COLUMNS",
    "KIND_EXAMPLES",
    "OPERAND_SLOTS",
    "OPERAND_STATUSES",
    "PLAYGROUND_STATUSES",
    "UNIT_COLUMNS",
    "BrowserError",
    "OperandRow",
    "PlaygroundResult",
    "ProblemDetail",
    "complete_unit",
    "evaluate",
    "filter_equations",
    "filter_options",
    "index_records",
    "load_playground_pack",
    "operand_roles",
    "problem_choices",
    "problem_detail",
    "resolve_operand",
    "suggest_units",
    "unit_tokens",
]

PLAYGROUND_STATUSES: tuple[str, ...] = ("admitted", "refused")
"""What :attr:`PlaygroundResult.status` can be."""

OPERAND_STATUSES: tuple[str, ...] = ("resolved", "unresolved", "no_unit")
"""What :attr:`OperandRow.status` can be: a unit the pack resolves, one it refuses, or no unit at all."""

OPERAND_SLOTS = 4
"""The most operands the playground widget offers (enough to show every arity refusal)."""

# Display labels of the operands, in the order ssbg.admissibility.check_operation
# reads them; kinds not listed take any number of interchangeable operands.
_ROLE_LABELS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "apply_rate": ("rate", "base"),
        "unit_partition": ("quantity", "chunk rate"),
        "divide": ("dividend", "divisor"),
        "fraction_portion": ("holding", "factor"),
        "compare_multiplicative": ("holding", "factor"),
    }
)

KIND_EXAMPLES: Mapping[str, tuple[str | None, ...]] = MappingProxyType(
    {
        "add": ("hours", "minutes"),
        "subtract": ("dollars", "cents"),
        "transfer": ("boxes", "boxes"),
        "multiply": ("feet", "feet"),
        "divide": ("miles", "hours"),
        "apply_rate": ("dollars_per_hour", "hours"),
        "compare_additive": ("pounds", "ounces"),
        "compare_multiplicative": ("dollars", None),
        "unit_partition": ("liters", "liters_per_bottle"),
        "fraction_portion": ("liters", "half"),
    }
)
"""One admitted operand list per operation kind (``None``: a pure number)."""


def operand_roles(kind: str, count: int) -> tuple[str, ...]:
    """Labels of ``count`` operands of ``kind``, in the order the check reads them.

    Operands beyond what a fixed-arity kind takes are labelled ``extra``.

    >>> operand_roles("apply_rate", 3)
    ('rate', 'base', 'extra')
    >>> operand_roles("add", 2)
    ('operand', 'operand')
    """
    labels = _ROLE_LABELS.get(kind)
    if labels is None:
        return ("operand",) * max(count, 0)
    return tuple(labels[i] if i < len(labels) else "extra" for i in range(max(count, 0)))


# ----------------------------------------------------------------------------- packs and completion


def load_playground_pack(pack: UnitPack | str | Path | None) -> UnitPack:
    """The pack a playground uses: blank or ``None`` is ``en_units_v1``.

    A text is a pack name or folder, loaded with :func:`ssbg.units.load_pack`.

    Raises
    ------
    PackError
        When the named pack does not exist or does not validate (its ``reason``
        and ``path`` say which file and line).

    >>> load_playground_pack("  ").name
    'en_units_v1'
    >>> load_playground_pack("no/such/pack")
    Traceback (most recent call last):
    ...
    ssbg.errors.PackError: no unit pack folder at no/such/pack (at no/such/pack)
    """
    if isinstance(pack, UnitPack):
        return pack
    if pack is None or (isinstance(pack, str) and not pack.strip()):
        return default_pack()
    if isinstance(pack, str | Path):
        return load_pack(pack.strip() if isinstance(pack, str) else pack)
    raise PackError(
        f"'pack' must be a UnitPack, a pack name or a folder (got {type(pack).__name__})",
        reason="pack_missing",
        path="pack",
        detail=repr(pack),
    )


def complete_unit(prefix: str, pack: UnitPack | None = None, limit: int | None = None) -> tuple[str, ...]:
    """Unit texts of ``pack`` that complete ``prefix``, sorted.

    Completes a composite rate too: after ``X_per_`` (or ``X per ``) the
    denominator is completed from the pack's units that are not rates.

    >>> complete_unit("hou")
    ('hour', 'hours')
    >>> complete_unit("dollars_per_ho")
    ('dollars_per_hour', 'dollars_per_hours')
    """
    p = default_pack() if pack is None else pack
    text = prefix if isinstance(prefix, str) else ""
    for sep in ("_per_", " per "):
        head, found, tail = text.rpartition(sep)
        if found and head.strip():
            plain = (c for c in p.completions(tail) if not p.resolve(c).is_rate)  # no rate of a rate
            return tuple(head + found + c for c in plain)[:limit]
    return p.completions(text, limit)


def suggest_units(text: str, pack: UnitPack | None = None, limit: int = 5) -> tuple[str, ...]:
    """Pack units that share the longest possible prefix with ``text`` (for a refusal hint).

    >>> suggest_units("dolars")
    ('dollar', 'dollar_per_hour', 'dollar_per_item', 'dollars', 'dollars an hour')
    >>> suggest_units("")
    ()
    """
    p = default_pack() if pack is None else pack
    key = normalize_unit_text(text) if isinstance(text, str) else ""
    for size in range(min(len(key), 12), 1, -1):
        hits = p.completions(key[:size], limit)
        if hits:
            return hits
    return ()


# ----------------------------------------------------------------------------- operand rows


@dataclass(frozen=True, slots=True)
class OperandRow:
    """How one operand (or the declared lhs) resolves in the pack.

    Attributes
    ----------
    position
        1-based operand position; ``0`` for the declared lhs.
    role
        The operand's label (:func:`operand_roles`) or ``"lhs"``.
    text
        The unit text as typed (``None``: no unit).
    status
        One of :data:`OPERAND_STATUSES`.
    lemma, via
        The pack lemma (or composite of lemmas) and how it was found.
    vector
        Canonical string of the dimension vector (``money/time``).
    exponents
        Non-zero exponents by base dimension, in base order.
    ratio
        Size in the pack's coherent base units (``"5/3"``); ``None`` when the
        pack fixes no scale or the unit did not resolve.
    reason, detail
        Why the unit did not resolve (a :data:`~ssbg.errors.UNIT_ALGEBRA_REASONS` reason).
    """

    position: int
    role: str
    text: str | None
    status: str
    lemma: str | None = None
    via: str | None = None
    vector: str | None = None
    exponents: tuple[tuple[str, int], ...] = ()
    ratio: str | None = None
    reason: str | None = None
    detail: str | None = None


def _resolved_row(position: int, role: str, text: str, unit: ResolvedUnit) -> OperandRow:
    return OperandRow(
        position,
        role,
        text,
        "resolved",
        lemma=unit.lemma,
        via=unit.via,
        vector=unit.dimension.to_canonical_string(),
        exponents=tuple(unit.dimension.as_dict().items()),
        ratio=None if unit.ratio is None else str(unit.ratio),
    )


def resolve_operand(position: int, role: str, text: object, pack: UnitPack | None = None) -> OperandRow:
    """Resolve one typed unit into an :class:`OperandRow` (never raises).

    >>> resolve_operand(1, "rate", "dollars_per_hour").vector
    'money/time'
    >>> resolve_operand(2, "base", "apples").reason
    'unknown_unit'
    >>> resolve_operand(2, "factor", None).status
    'no_unit'
    """
    if text is None:
        return OperandRow(position, role, None, "no_unit")
    shown = text if isinstance(text, str) else repr(text)
    try:
        unit = resolve_unit(text, pack)  # type: ignore[arg-type]  # refuses a non-str with a typed error
    except UnitAlgebraError as exc:
        return OperandRow(position, role, shown, "unresolved", reason=exc.reason, detail=exc.detail)
    return _resolved_row(position, role, shown, unit)


# ----------------------------------------------------------------------------- the result


@dataclass(frozen=True, slots=True)
class PlaygroundResult:
    """What the playground shows for one operation: the proof or the typed refusal.

    Attributes
    ----------
    kind, units, lhs_unit
        The inputs (units after blank texts became ``None``).
    pack
        Name of the pack used (or the pack text that failed to load).
    status
        ``"admitted"`` or ``"refused"`` (:data:`PLAYGROUND_STATUSES`).
    proof
        ``UnitProof.to_canonical_string()`` when admitted, else
        :data:`~ssbg.admissibility.REFUSED_UNIT_PROOF`.
    lhs_vector
        Canonical string of the derived lhs unit when admitted.
    refused_by
        ``"admissibility"`` or ``"pack"`` when refused.
    reason, detail, offending_unit, message
        The typed refusal's fields (read from the error, never from its text).
    operands
        One :class:`OperandRow` per operand.
    lhs
        The declared lhs unit's row, when one was declared.
    notes
        Conversion notes, pure-number notes and pack suggestions.
    """

    kind: str
    units: tuple[str | None, ...]
    lhs_unit: str | None
    pack: str
    status: str
    proof: str
    lhs_vector: str | None = None
    refused_by: str | None = None
    reason: str | None = None
    detail: str | None = None
    offending_unit: str | None = None
    message: str | None = None
    operands: tuple[OperandRow, ...] = ()
    lhs: OperandRow | None = None
    notes: tuple[str, ...] = ()

    @property
    def admitted(self) -> bool:
        return self.status == "admitted"

    def summary(self) -> str:
        """One line: the proof, or the refusal reason and its offending unit.

        >>> evaluate("divide", ["miles", "hours"]).summary()
        'admitted: divide: [length,time] -> length/time'
        >>> evaluate("add", ["apples", "hours"]).summary()
        "refused [unknown_unit] offending unit 'apples'"
        """
        if self.admitted:
            return f"admitted: {self.proof}"
        offending = f" offending unit {self.offending_unit!r}" if self.offending_unit else ""
        return f"refused [{self.reason}]{offending}"

    def to_text(self) -> str:
        """A plain-text view: summary, refusal fields, one line per operand, notes."""
        lines = [self.summary()]
        if not self.admitted:
            lines.append(f"  refused by {self.refused_by}: {self.message}")
            if self.detail:
                lines.append(f"  detail: {self.detail}")
        lines.extend("  " + _row_text(row) for row in (*self.operands, *((self.lhs,) if self.lhs else ())))
        lines.extend(f"  note: {n}" for n in self.notes)
        return "\n".join(lines)

    def to_html(self) -> str:
        """A self-contained HTML fragment; every typed text is escaped."""
        return _result_html(self)

    def _repr_html_(self) -> str:
        return self.to_html()

    def __str__(self) -> str:
        return self.to_text()


def _row_text(row: OperandRow) -> str:
    label = f"{row.role} {row.text!r}" if row.text is not None else f"{row.role} (no unit)"
    if row.status == "resolved":
        ratio = "no fixed scale" if row.ratio is None else f"ratio {row.ratio}"
        return f"{label} -> {row.lemma} [{row.via}] {row.vector}, {ratio}"
    if row.status == "no_unit":
        return f"{label} -> a pure number"
    return f"{label} -> not resolved [{row.reason}]"


def _notes(
    proof: UnitProof | None, rows: Sequence[OperandRow], offending: str | None, pack: UnitPack | None
) -> tuple[str, ...]:
    notes: list[str] = []
    if proof is not None:
        for conversion in proof.conversions:
            source, _, factor = conversion.partition(" ")
            if factor == "x?":
                notes.append(f"conversion needed: {source} (the pack fixes no scale for one of them)")
            else:
                notes.append(f"conversion needed: {source} {factor}")
    notes.extend(
        f"operand {r.position} ({r.role}) has no unit: read as a pure number" for r in rows if r.status == "no_unit"
    )
    if pack is not None and offending:
        hints = suggest_units(offending, pack)
        if any(r.status == "unresolved" and r.text == offending for r in rows) and hints:
            notes.append(f"{offending!r} is not in pack {pack.name}; close entries: {', '.join(hints)}")
    return tuple(notes)


def _clean(unit: object) -> object:
    """Blank text means no unit; anything else is passed on for the check to judge."""
    if isinstance(unit, str):
        return unit.strip() or None
    return unit


def evaluate(
    kind: str,
    units: Sequence[str | None],
    lhs_unit: str | None = None,
    pack: UnitPack | str | Path | None = None,
) -> PlaygroundResult:
    """Check one operation on typed unit texts; a refusal is a result, not an exception.

    Parameters
    ----------
    kind
        One of :data:`~ssbg.admissibility.OPERATION_KINDS`.
    units
        Operand unit texts in the kind's order (:func:`operand_roles`); blank
        or ``None`` is an operand without a unit.
    lhs_unit
        A declared result unit, checked against the derived one (blank: none).
    pack
        A loaded pack, a pack name or folder, or ``None`` for ``en_units_v1``.

    Returns
    -------
    PlaygroundResult
        Admitted with the unit proof, or refused with the typed reason.

    Examples
    --------
    >>> r = evaluate("add", ["hours", "minutes"])
    >>> r.proof, r.notes
    ('add: [time,time] -> time; convert minute->hour x1/60', ('conversion needed: minute->hour x1/60',))
    >>> evaluate("apply_rate", ["dollars", "hours"]).reason
    'rate_form_invalid'
    >>> evaluate("divide", ["miles", "hours"], lhs_unit="dollars").reason
    'unit_mismatch'
    """
    shown_kind = kind if isinstance(kind, str) else repr(kind)
    cleaned_lhs = _clean(lhs_unit)
    sequence = not isinstance(units, str) and isinstance(units, Sequence)
    cleaned = tuple(_clean(u) for u in units) if sequence else ()
    inputs = PlaygroundResult(
        kind=shown_kind,
        units=tuple(None if u is None else u if isinstance(u, str) else repr(u) for u in cleaned),
        lhs_unit=None if cleaned_lhs is None else str(cleaned_lhs),
        pack=str(pack),
        status="refused",
        proof=REFUSED_UNIT_PROOF,
    )
    try:
        loaded = load_playground_pack(pack)
    except PackError as exc:
        return replace(inputs, refused_by="pack", reason=exc.reason, detail=exc.path or exc.detail, message=exc.message)
    roles = operand_roles(shown_kind, len(cleaned))
    rows = tuple(resolve_operand(i + 1, roles[i], u, loaded) for i, u in enumerate(cleaned))
    lhs_row = None if cleaned_lhs is None else resolve_operand(0, "lhs", cleaned_lhs, loaded)
    inputs = replace(inputs, pack=loaded.name, operands=rows, lhs=lhs_row)
    try:
        proof = _check(kind, list(cleaned) if sequence else units, cleaned_lhs, loaded)
    except AdmissibilityError as exc:
        every_row = (*rows, *((lhs_row,) if lhs_row else ()))
        return replace(
            inputs,
            refused_by="admissibility",
            reason=exc.reason,
            detail=exc.detail,
            offending_unit=exc.offending_unit,
            message=exc.message,
            notes=_notes(None, every_row, exc.offending_unit, loaded),
        )
    return replace(
        inputs,
        status="admitted",
        proof=proof.to_canonical_string(),
        lhs_vector=proof.lhs_unit.to_canonical_string(),
        notes=_notes(proof, rows, None, loaded),
    )


def _check(kind: object, units: object, lhs_unit: object, pack: UnitPack) -> UnitProof:
    """check_operation on values typed by a person; it refuses what is not text with a typed error."""
    if not isinstance(kind, str):
        raise AdmissibilityError(
            f"unknown_operation: operation kind must be a str (got {type(kind).__name__})",
            reason="unknown_operation",
            detail=repr(kind),
        )
    return check_operation(kind, units, lhs_unit=lhs_unit, pack=pack)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- HTML

_STATUS_COLOURS: Mapping[str, str] = MappingProxyType({"admitted": "#1a7f37", "refused": "#b42318"})

_TABLE_STYLE = "border-collapse:collapse;font-size:12px;margin-top:6px"
_CELL_STYLE = "border:1px solid #d0d7de;padding:2px 6px;text-align:left"


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _row_html(row: OperandRow) -> str:
    cells = (
        row.role,
        "(no unit)" if row.text is None else row.text,
        row.lemma or ("pure number" if row.status == "no_unit" else f"not resolved: {row.reason}"),
        row.via or "",
        row.vector or "",
        " ".join(f"{d}^{e}" for d, e in row.exponents),
        row.ratio or ("" if row.status != "resolved" else "no fixed scale"),
    )
    tds = "".join(f'<td style="{_CELL_STYLE}">{_e(c)}</td>' for c in cells)
    return f'<tr class="ssbg-operand" data-status="{_e(row.status)}">{tds}</tr>'


def _result_html(result: PlaygroundResult) -> str:
    colour = _STATUS_COLOURS.get(result.status, "#57606a")
    parts = [
        f'<div class="ssbg-playground-result" data-status="{_e(result.status)}" '
        f'data-reason="{_e(result.reason)}" style="font-family:sans-serif;font-size:13px">',
        f'<div><span class="ssbg-status" style="color:#fff;background:{colour};padding:1px 6px;'
        f'border-radius:3px">{_e(result.status)}</span> <code>{_e(result.kind)}</code> '
        f"over pack <code>{_e(result.pack)}</code></div>",
    ]
    if result.admitted:
        parts.append(f'<div>unit proof: <code class="ssbg-proof">{_e(result.proof)}</code></div>')
    else:
        parts.append(
            f'<div>refused by {_e(result.refused_by)}: <code class="ssbg-reason">{_e(result.reason)}</code></div>'
            f'<div class="ssbg-message">{_e(result.message)}</div>'
        )
        if result.detail:
            parts.append(f'<div>detail: <code class="ssbg-detail">{_e(result.detail)}</code></div>')
        if result.offending_unit:
            parts.append(f'<div>offending unit: <code class="ssbg-offending">{_e(result.offending_unit)}</code></div>')
    rows = (*result.operands, *((result.lhs,) if result.lhs else ()))
    if rows:
        head = "".join(
            f'<th style="{_CELL_STYLE}">{h}</th>'
            for h in ("role", "typed", "lemma", "via", "vector", "exponents", "ratio")
        )
        body = "".join(_row_html(r) for r in rows)
        parts.append(f'<table style="{_TABLE_STYLE}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>')
    if result.notes:
        items = "".join(f'<li class="ssbg-note">{_e(n)}</li>' for n in result.notes)
        parts.append(f'<ul style="margin:4px 0">{items}</ul>')
    parts.append("</div>")
    return "".join(parts)


# ============================================================================= the corpus browser

BROWSER_REASONS: frozenset[str] = frozenset(
    {
        "missing_column",  # a table lacks a documented column of ssbg.stats.rows
        "invalid_filter",  # a filter value that is not text
    }
)

BROWSER_FILTERS: tuple[str, ...] = ("corpus", "reason", "kind", "unit")
"""The filters of :func:`filter_equations`, in the order the browser shows them."""

UNIT_COLUMNS: tuple[str, ...] = ("lhs_unit", "operand_units", "offending_unit", "unknown_units", "blocking_units")
"""Equation-table columns a unit filter searches (``;``-separated unit lists)."""

DETAIL_COLUMNS: tuple[str, ...] = (
    "index",
    "kind",
    "status",
    "reason",
    "root_cause",
    "propagated_from",
    "lhs_unit",
    "operand_units",
    "offending_unit",
    "unit_proof",
    "span_text",
)
"""Equation-table columns a problem's detail shows."""

_KEY_COLUMNS: tuple[str, ...] = ("corpus", "problem_id")
_UNIT_SEPARATOR = ";"


class BrowserError(SsbgError, ValueError):
    """A table or filter the corpus browser cannot use; ``reason`` is one of :data:`BROWSER_REASONS`."""

    REASONS = BROWSER_REASONS


def _require_columns(frame: pd.DataFrame, columns: Sequence[str], what: str) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise BrowserError(
            f"the {what} table lacks column(s) {missing} (see ssbg.stats.rows)",
            reason="missing_column",
            path=what,
            detail=",".join(missing),
        )


def _filter_value(value: object, name: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise BrowserError(
            f"filter '{name}' must be a str or None (got {type(value).__name__})",
            reason="invalid_filter",
            path=name,
            detail=repr(value),
        )
    return value.strip() or None


def unit_tokens(cell: object) -> tuple[str, ...]:
    """The unit texts of one table cell (``"dollars;hours"`` -> both; empty and missing -> none).

    >>> unit_tokens("dollars;-;hours")
    ('dollars', 'hours')
    >>> unit_tokens(None)
    ()
    """
    if not isinstance(cell, str):
        return ()
    return tuple(t for t in (p.strip() for p in cell.split(_UNIT_SEPARATOR)) if t and t != "-")


def _unit_key(text: str, pack: UnitPack) -> str:
    """What two unit texts must share to match: the pack lemma, else the normalized text."""
    try:
        return "lemma:" + pack.resolve(text).lemma
    except UnitAlgebraError:
        return "text:" + normalize_unit_text(text)


def _column_values(frame: pd.DataFrame, column: str) -> list[object]:
    return [v for v in frame[column].astype("object").unique().tolist() if isinstance(v, str)]


def filter_equations(
    equations: pd.DataFrame,
    *,
    corpus: str | None = None,
    reason: str | None = None,
    kind: str | None = None,
    unit: str | None = None,
    pack: UnitPack | None = None,
) -> pd.DataFrame:
    """The rows of an equation table that pass every given filter (blank or ``None``: no filter).

    Parameters
    ----------
    equations
        An equation table with the columns of ``ssbg.stats.rows.EQUATION_COLUMNS``.
    corpus, reason, kind
        Exact values of the ``corpus``, ``reason`` and ``kind`` columns.
    unit
        A unit text; a row matches when any of :data:`UNIT_COLUMNS` lists a
        unit with the same pack lemma (``dollar`` finds ``dollars`` and ``$``),
        or, for units outside the pack, the same normalized text.
    pack
        The pack that decides lemmas (``en_units_v1`` when None).

    Raises
    ------
    BrowserError
        ``missing_column`` when the table lacks a column a filter reads;
        ``invalid_filter`` for a filter value that is not text.

    Examples
    --------
    >>> import pandas as pd
    >>> eq = pd.DataFrame({"corpus": ["a", "a", "b"], "problem_id": ["p1", "p2", "p3"],
    ...     "reason": [None, "unknown_unit", "unit_mismatch"], "kind": ["add", "add", "divide"],
    ...     "lhs_unit": ["dollars", "apples", "hours"], "operand_units": ["$;dollars", "apples;apples", "miles;hours"],
    ...     "offending_unit": [None, "apples", "hours"], "unknown_units": [None, "apple", None],
    ...     "blocking_units": [None, "apple", None]})
    >>> filter_equations(eq, unit="dollar")["problem_id"].tolist()
    ['p1']
    >>> filter_equations(eq, corpus="a", reason="unknown_unit")["problem_id"].tolist()
    ['p2']
    """
    wanted = {
        name: _filter_value(value, name) for name, value in (("corpus", corpus), ("reason", reason), ("kind", kind))
    }
    unit_text = _filter_value(unit, "unit")
    _require_columns(equations, [name for name, value in wanted.items() if value is not None], "equations")
    mask = [True] * len(equations)
    for name, value in wanted.items():
        if value is not None:
            hits = (equations[name].astype("object") == value).tolist()
            mask = [m and h for m, h in zip(mask, hits, strict=True)]
    if unit_text is not None:
        _require_columns(equations, UNIT_COLUMNS, "equations")
        p = default_pack() if pack is None else pack
        key = _unit_key(unit_text, p)
        for_column = []
        for column in UNIT_COLUMNS:
            matching = {
                v for v in _column_values(equations, column) if any(_unit_key(t, p) == key for t in unit_tokens(v))
            }
            for_column.append(equations[column].astype("object").isin(matching).tolist())
        unit_hits = [any(row) for row in zip(*for_column, strict=True)]
        mask = [m and h for m, h in zip(mask, unit_hits, strict=True)]
    return equations[mask]


def filter_options(equations: pd.DataFrame) -> dict[str, tuple[str, ...]]:
    """The values each browser filter can take in this table, in a stable order.

    Corpora and units sorted; reasons sorted; kinds in ``OPERATION_KINDS`` order.

    Raises
    ------
    BrowserError
        ``missing_column`` when the table lacks a column of :data:`BROWSER_FILTERS`.

    Examples
    --------
    >>> import pandas as pd
    >>> eq = pd.DataFrame({"corpus": ["b", "a"], "reason": [None, "unit_mismatch"], "kind": ["divide", "add"],
    ...     "lhs_unit": ["hours", None], "operand_units": ["miles;hours", "dollars;hours"],
    ...     "offending_unit": [None, "hours"], "unknown_units": [None, None], "blocking_units": [None, None]})
    >>> options = filter_options(eq)
    >>> options["kind"], options["unit"]
    (('add', 'divide'), ('dollars', 'hours', 'miles'))
    """
    _require_columns(equations, ("corpus", "reason", "kind", *UNIT_COLUMNS), "equations")
    kinds = set(_column_values(equations, "kind"))
    units = {t for column in UNIT_COLUMNS for v in _column_values(equations, column) for t in unit_tokens(v)}
    return {
        "corpus": tuple(sorted(str(v) for v in _column_values(equations, "corpus"))),
        "reason": tuple(sorted(str(v) for v in _column_values(equations, "reason"))),
        "kind": tuple(k for k in OPERATION_KINDS if k in kinds)
        + tuple(sorted(str(k) for k in kinds - set(OPERATION_KINDS))),
        "unit": tuple(sorted(units)),
    }


def problem_choices(equations: pd.DataFrame, limit: int | None = None) -> tuple[tuple[str, tuple[str, str]], ...]:
    """One ``(label, (corpus, problem_id))`` per problem of a (filtered) equation table, in table order.

    The label counts the problem's rows in the (filtered) table and how many of them are refused.

    >>> import pandas as pd
    >>> eq = pd.DataFrame({"corpus": ["c", "c", "c"], "problem_id": ["p1", "p1", "p2"],
    ...     "status": ["admitted", "refused", "admitted"]})
    >>> problem_choices(eq)
    (('c / p1 (2 matching, 1 refused)', ('c', 'p1')), ('c / p2 (1 matching, 0 refused)', ('c', 'p2')))
    """
    _require_columns(equations, (*_KEY_COLUMNS, "status"), "equations")
    counts: dict[tuple[str, str], list[int]] = {}
    corpora = equations["corpus"].astype("object").tolist()
    ids = equations["problem_id"].astype("object").tolist()
    statuses = equations["status"].astype("object").tolist()
    for c, p, s in zip(corpora, ids, statuses, strict=True):
        tally = counts.setdefault((str(c), str(p)), [0, 0])
        tally[0] += 1
        tally[1] += s == "refused"
    out = []
    for (c, p), (n, refused) in counts.items():
        out.append((f"{c} / {p} ({n} matching, {refused} refused)", (c, p)))
    return tuple(out[:limit])


def index_records(
    specs: Sequence[str | Path], *, keys: Iterable[tuple[str, str]] | None = None
) -> dict[tuple[str, str], CorpusRecord]:
    """Read corpus records by ``(corpus, problem_id)`` (only ``keys`` when given), first one wins.

    Reading stops as soon as every asked-for key is found.

    Raises
    ------
    ImportRefusal
        ``malformed_record`` for a spec that names no corpus (from
        :func:`ssbg.stats.batch.iter_records`).
    """
    from ssbg.stats.batch import iter_records

    wanted = None if keys is None else set(keys)
    found: dict[tuple[str, str], CorpusRecord] = {}
    for record in iter_records(specs):
        key = (record.corpus, record.problem_id)
        if key not in found and (wanted is None or key in wanted):
            found[key] = record
            if wanted is not None and len(found) == len(wanted):
                break  # every asked-for record is in: stop reading
    return found


@dataclass(frozen=True, slots=True, eq=False)  # eq: a DataFrame has no truth value
class ProblemDetail:
    """What the browser shows for one problem: text, diagram, equations, and why anything is missing.

    Attributes
    ----------
    corpus, problem_id
        Which problem.
    text
        The problem text when the record has one.
    text_html
        The text with its mentions highlighted (empty without text).
    diagram_svg
        The equation diagram as SVG (empty when it cannot be drawn).
    equations
        The problem's rows of the equation table (:data:`DETAIL_COLUMNS`), by index.
    problem
        The problem's row of the problem table (empty without one).
    notes
        Why a part is missing (import refusal, bind error, no record, no ``dot``).
    """

    corpus: str
    problem_id: str
    text: str | None
    text_html: str
    diagram_svg: str
    equations: pd.DataFrame
    problem: Mapping[str, object]
    notes: tuple[str, ...] = ()

    def to_html(self) -> str:
        """A self-contained HTML fragment: heading, problem facts, text, diagram, equations, notes."""
        return _detail_html(self)

    def _repr_html_(self) -> str:
        return self.to_html()

    def __repr__(self) -> str:
        return (
            f"ProblemDetail(corpus={self.corpus!r}, problem_id={self.problem_id!r}, equations={len(self.equations)}, "
            f"text={self.text is not None}, diagram={bool(self.diagram_svg)}, notes={self.notes!r})"
        )


def _plain(value: object) -> object:
    """A table cell as a plain Python value (missing -> None)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    item = getattr(value, "item", None)
    return item() if callable(item) else value


def _problem_row(problems: pd.DataFrame | None, corpus: str, problem_id: str) -> dict[str, object]:
    if problems is None:
        return {}
    _require_columns(problems, _KEY_COLUMNS, "problems")
    hit = problems[
        (problems["corpus"].astype("object") == corpus) & (problems["problem_id"].astype("object") == problem_id)
    ]
    if hit.empty:
        return {}
    return {str(k): _plain(v) for k, v in hit.iloc[0].to_dict().items()}


def _bind(record: CorpusRecord | None, pack: UnitPack | None, notes: list[str]) -> SemanticSymbolicBindingGraph | None:
    from ssbg.stats.batch import bind_payload

    if record is None:
        notes.append("no corpus record for this problem: pass its records to see its text and diagram")
        return None
    if record.refusal is not None:
        notes.append(f"import refused [{record.refusal.reason}]: {record.refusal.detail or record.refusal.message}")
        return None
    try:
        return bind_payload(record.payload, pack=pack)
    except SsbgError as exc:
        notes.append(f"binding failed [{exc.reason}]: {exc.detail or exc.message}")
        return None


def _diagram_svg(graph: SemanticSymbolicBindingGraph | None, notes: list[str]) -> str:
    from ssbg.views import RenderError, render

    if graph is None:
        return ""
    try:
        svg = render(graph, view="equations", proofs=True).svg
    except RenderError as exc:
        notes.append(f"no diagram [{exc.reason}]: {exc.message}")
        return ""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else svg


def _text_html(record: CorpusRecord | None, graph: SemanticSymbolicBindingGraph | None, pack: UnitPack | None) -> str:
    """The problem text with its quantities highlighted, escaped.

    A trace (and a refused record's text, with its reason) goes through the
    text view, which marks every mention by its unit's dimension and symbol; a
    MathProblemGraph's symbols carry no offsets into its text, so its text is
    shown escaped, with only the facts whose spans do point into it marked.
    """
    from ssbg.reading.textview import render_text
    from ssbg.trace import Trace

    if record is None:
        return ""
    if isinstance(record.payload, Trace) or (record.refusal is not None and record.text):
        return render_text(record, graph=graph, pack=pack).html
    if not record.text:
        return ""
    from ssbg.stats.report import highlight_text

    return highlight_text(record.text, graph)


def _record_text(record: CorpusRecord | None) -> str | None:
    if record is None:
        return None
    text = getattr(record.payload, "text", None) if record.text is None else record.text
    return text if isinstance(text, str) else None


def problem_detail(
    corpus: str,
    problem_id: str,
    *,
    equations: pd.DataFrame,
    problems: pd.DataFrame | None = None,
    record: CorpusRecord | None = None,
    pack: UnitPack | None = None,
) -> ProblemDetail:
    """Everything the browser shows for one problem; a missing part is a note, not an exception.

    Parameters
    ----------
    corpus, problem_id
        Which problem.
    equations
        The equation table (its rows for this problem are shown).
    problems
        The problem table (its row gives outcome, question form and answer units).
    record
        The problem's corpus record (:func:`index_records`): its text is
        highlighted and its payload bound again to draw the diagram.
    pack
        The pack to bind with (the one the tables were built with; ``en_units_v1`` when None).

    Raises
    ------
    BrowserError
        ``missing_column`` when a table lacks a documented column.
    """
    _require_columns(equations, (*_KEY_COLUMNS, *DETAIL_COLUMNS), "equations")
    mine = equations[
        (equations["corpus"].astype("object") == corpus) & (equations["problem_id"].astype("object") == problem_id)
    ]
    rows = mine.sort_values("index", kind="stable")[list(DETAIL_COLUMNS)].reset_index(drop=True)
    notes: list[str] = []
    graph = _bind(record, pack, notes)
    return ProblemDetail(
        corpus=corpus,
        problem_id=problem_id,
        text=_record_text(record),
        text_html=_text_html(record, graph, pack),
        diagram_svg=_diagram_svg(graph, notes),
        equations=rows,
        problem=_problem_row(problems, corpus, problem_id),
        notes=tuple(notes),
    )


_PROBLEM_FACTS: tuple[str, ...] = (
    "outcome",
    "question_form",
    "target_status",
    "target_reason",
    "predicted_answer_unit",
    "gold_answer_unit",
    "source",
)


# Graphviz sizes its SVG in points; scale it down to the output's width instead of scrolling sideways.
_FIT_SVG = "<style>.ssbg-diagram svg{max-width:100%;height:auto}</style>"


def _detail_html(detail: ProblemDetail) -> str:
    parts = [
        f'<div class="ssbg-problem-detail" data-corpus="{_e(detail.corpus)}" data-problem="{_e(detail.problem_id)}" '
        'style="font-family:sans-serif;font-size:13px">',
        f'<h4 style="margin:4px 0">{_e(detail.corpus)} / {_e(detail.problem_id)}</h4>',
    ]
    facts = [(k, detail.problem[k]) for k in _PROBLEM_FACTS if detail.problem.get(k) is not None]
    if facts:
        items = "; ".join(f"{_e(k)}: <code>{_e(v)}</code>" for k, v in facts)
        parts.append(f'<div class="ssbg-problem-facts">{items}</div>')
    if detail.text_html:
        parts.append(f'<div class="ssbg-problem-text">{detail.text_html}</div>')
    if detail.diagram_svg:
        parts.append(_FIT_SVG + f'<div class="ssbg-diagram">{detail.diagram_svg}</div>')
    if len(detail.equations):
        table = detail.equations.to_html(index=False, na_rep="", escape=True, border=0)
        parts.append(f'<div class="ssbg-equations" style="overflow-x:auto">{table}</div>')
    else:
        parts.append('<div class="ssbg-equations">no equations in the table for this problem</div>')
    parts.extend(f'<div class="ssbg-note">{_e(n)}</div>' for n in detail.notes)
    parts.append("</div>")
    return "".join(parts)
