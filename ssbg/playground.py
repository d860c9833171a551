"""The admissibility playground's logic, as plain functions and values.

:class:`ssbg.widgets.AdmissibilityPlayground` wires ipywidgets controls to the
functions here and does nothing else; tests and notebooks call these functions
directly.  This module never imports ipywidgets (an edge module: see
:mod:`ssbg`); the corpus browser's logic is :mod:`ssbg.browser`.

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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType

from ssbg.admissibility import REFUSED_UNIT_PROOF, UnitProof, check_operation
from ssbg.errors import AdmissibilityError, PackError, UnitAlgebraError
from ssbg.outputs import html_text
from ssbg.units import ResolvedUnit, UnitPack, default_pack, load_pack, normalize_unit_text, resolve_unit

__all__ = [
    "KIND_EXAMPLES",
    "OPERAND_SLOTS",
    "OPERAND_STATUSES",
    "PLAYGROUND_STATUSES",
    "OperandRow",
    "PlaygroundResult",
    "complete_unit",
    "evaluate",
    "load_playground_pack",
    "operand_roles",
    "resolve_operand",
    "suggest_units",
    "unknown_unit_hint",
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

    A text is a shipped pack's name or a folder by path (``./mine``), loaded with :func:`ssbg.units.load_pack`.

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


def _closest(key: str, pack: UnitPack, limit: int) -> tuple[str, ...]:
    """Pack units sharing the longest prefix (at most 12 characters, at least 2) with a normalized text."""
    for size in range(min(len(key), 12), 1, -1):
        hits = pack.completions(key[:size], limit)
        if hits:
            return hits
    return ()


def _rate_sides(key: str, pack: UnitPack) -> tuple[str, str] | None:
    """A normalized ``X_per_Y`` text split at the ``_per_`` whose one side the pack knows and the other not."""
    head, sep, tail = key.rpartition("_per_")
    if not (sep and head and tail):
        return None
    known = [not isinstance(pack.lookup(side), str) for side in (head, tail)]
    return (head, tail) if known[0] != known[1] else None


def suggest_units(text: str, pack: UnitPack | None = None, limit: int = 5) -> tuple[str, ...]:
    """Pack units that share the longest possible prefix with ``text`` (for a refusal hint).

    In a rate whose one side the pack knows (``dollars_per_hourz``), the other
    side is completed and the rate rebuilt around it.

    >>> suggest_units("dolars")
    ('dollar', 'dollar_per_hour', 'dollar_per_item', 'dollars', 'dollars an hour')
    >>> suggest_units("dollars per hourz")
    ('dollars_per_hour', 'dollars_per_hours')
    >>> suggest_units("")
    ()
    """
    p = default_pack() if pack is None else pack
    key = normalize_unit_text(text) if isinstance(text, str) else ""
    sides = _rate_sides(key, p)
    if sides is None:
        return _closest(key, p, limit)
    head, tail = sides
    if isinstance(p.lookup(tail), str):
        return tuple(f"{head}_per_{c}" for c in _closest(tail, p, limit) if not p.resolve(c).is_rate)
    return tuple(f"{c}_per_{tail}" for c in _closest(head, p, limit) if not p.resolve(c).is_rate)


def unknown_unit_hint(unit: str, pack: UnitPack | None = None) -> str | None:
    """A one-line hint for a unit the pack does not know: the unknown word and the pack's close entries.

    ``None`` for a unit the pack knows.  The playground shows it under a refusal
    and the ``ssbg`` command prints it (one function for both).

    >>> unknown_unit_hint("dollars_per_hourz")
    "'hourz' (in 'dollars_per_hourz') is not in pack en_units_v1; close entries: dollars_per_hour, dollars_per_hours"
    >>> unknown_unit_hint("qwzx")
    "'qwzx' is not in pack en_units_v1; no close entry"
    >>> unknown_unit_hint("hours") is None
    True
    """
    p = default_pack() if pack is None else pack
    if not isinstance(unit, str) or not unit.strip() or not isinstance(p.lookup(unit), str):
        return None
    sides = _rate_sides(normalize_unit_text(unit), p)
    unknown = None if sides is None else next(side for side in sides if isinstance(p.lookup(side), str))
    named = repr(unit) if unknown is None else f"{unknown!r} (in {unit!r})"
    hints = suggest_units(unit, p)
    return f"{named} is not in pack {p.name}; " + (f"close entries: {', '.join(hints)}" if hints else "no close entry")


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
    if pack is not None and offending and any(r.status == "unresolved" and r.text == offending for r in rows):
        hint = unknown_unit_hint(offending, pack)
        if hint is not None and suggest_units(offending, pack):
            notes.append(hint)
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
    return html_text("" if value is None else value)  # escaped, bidirectional controls shown (ssbg.outputs)


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

