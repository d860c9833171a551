"""Question targets (phase 4): bind the unknown to the equation that answers it.

The question's expected unit is reconciled with the admitted unit of the
resolving equation.  A target that cannot be bound is refused with a reason
from :data:`~ssbg.errors.QUESTION_TARGET_REASONS`, recorded on the
:class:`~ssbg.model.BoundUnknown` (``target_status == "refused"``) so the corpus
statistics count it like any other refusal.

Examples
--------
>>> from ssbg.model import SourceSpanLink
>>> from ssbg.units import parse_unit
>>> span = SourceSpanLink("q", 0, 1, "?")
>>> t = reconcile_target("unknown_x", span, "dollars", resolved_by="op_000_result",
...                      admitted_unit=parse_unit("cents"))
>>> (t.target_status, t.resolved_unit)
('bound', 'money')
>>> reconcile_target("unknown_x", span, "hours", resolved_by="op_000_result",
...                  admitted_unit=parse_unit("cents")).target_refusal_reason
'expected_unit_mismatch'
"""

from __future__ import annotations

from collections.abc import Callable

from ssbg.errors import QUESTION_TARGET_REASONS, BindingGraphError
from ssbg.model import STATE_INDEX_TERMINAL, BoundUnknown, SourceSpanLink
from ssbg.units import ResolvedUnit, UnitPack, UnitVector, default_pack

__all__ = ["QUESTION_TARGET_REASONS", "question_form_for", "reconcile_target"]

# Kind of the equation that last wrote the asked-for holding -> question form.
_FORM_BY_KIND = {
    "add": "count",
    "multiply": "count",
    "apply_rate": "count",
    "unit_partition": "count",
    "transfer": "difference",
    "subtract": "difference",
    "compare_additive": "difference",
    "divide": "ratio",
    "compare_multiplicative": "ratio",
    "fraction_portion": "ratio",
}


def question_form_for(
    resolving_kind: str | None,
    *,
    expected: UnitVector | None = None,
    is_total: bool = False,
    expected_is_rate: bool = False,
) -> str:
    """Infer the question form from what resolves the question.

    ``identity`` when no operation touches the holding; ``rate`` when the asked
    unit is a rate; ``total`` when holdings are summed; otherwise by the kind of
    the resolving equation (``difference`` for take-aways and comparisons,
    ``ratio`` for divisions and portions, ``count`` for the rest).
    """
    return question_form(resolving_kind, is_total, expected_is_rate)


def question_form(resolving_kind: str | None, is_total: bool, expected_is_rate: bool) -> str:
    """:func:`question_form_for`, positional, for the binders' hot path."""
    if expected_is_rate:
        return "rate"
    if is_total:
        return "total"
    if resolving_kind is None:
        return "identity"
    if type(resolving_kind) is not str:
        raise BindingGraphError(
            f"'resolving_kind' must be an operation kind or None (got {type(resolving_kind).__name__})",
            reason="invalid_field",
            path="resolving_kind",
            detail=repr(resolving_kind)[:80],
        )
    return _FORM_BY_KIND.get(resolving_kind, "count")


def _refused(
    symbol_id: str,
    span: SourceSpanLink,
    expected: str | None,
    reason: str,
    detail: str,
    state_index: str,
    question_form: str,
    resolved_by: str | None = None,
    resolved_unit: str | None = None,
    build: Callable[..., BoundUnknown] = BoundUnknown,
) -> BoundUnknown:
    if reason not in QUESTION_TARGET_REASONS:
        raise ValueError(f"unknown question-target reason {reason!r}")
    return build(
        symbol_id, span, expected, state_index, question_form, resolved_by, resolved_unit, "refused", reason, detail
    )


def _check_arguments(
    expected_unit: object, admitted_unit: object, refused_upstream: object, ambiguous: object, pack: object
) -> None:
    """The arguments of :func:`reconcile_target` that it reads itself, checked before it hashes or joins them."""
    checks = (
        ("expected_unit", expected_unit, expected_unit is None or type(expected_unit) is str),
        ("admitted_unit", admitted_unit, admitted_unit is None or type(admitted_unit) is UnitVector),
        ("refused_upstream", refused_upstream, type(refused_upstream) is bool),
        ("ambiguous", ambiguous, type(ambiguous) is tuple and all(type(a) is str for a in ambiguous)),
        ("pack", pack, pack is None or isinstance(pack, UnitPack)),
    )
    for name, value, ok in checks:
        if not ok:
            raise BindingGraphError(
                f"reconcile_target: '{name}' has the wrong type ({type(value).__name__})",
                reason="invalid_field",
                path=name,
            )


def reconcile_target(
    symbol_id: str,
    question_span: SourceSpanLink,
    expected_unit: str | None,
    *,
    resolved_by: str | None,
    admitted_unit: UnitVector | None,
    refused_upstream: bool = False,
    state_index: str = STATE_INDEX_TERMINAL,
    question_form: str = "identity",
    ambiguous: tuple[str, ...] = (),
    pack: UnitPack | None = None,
) -> BoundUnknown:
    """Build the :class:`BoundUnknown` for a question, bound or refused.

    Order of checks: an ambiguous target, an unbound one, an expected unit
    outside the pack, a refused resolving equation, then the unit itself.
    Arguments of the wrong type refuse (``BindingGraphError``, ``invalid_field``);
    the fields of the target are checked by :class:`~ssbg.model.BoundUnknown`.
    """
    _check_arguments(expected_unit, admitted_unit, refused_upstream, ambiguous, pack)
    p = default_pack() if pack is None else pack
    hit = None if expected_unit is None else p.lookup(expected_unit)  # what resolve gives, without raising
    expected = hit if isinstance(hit, ResolvedUnit) else None
    return reconcile_resolved(
        symbol_id, question_span, expected_unit, expected, resolved_by, admitted_unit, refused_upstream, state_index,
        question_form, ambiguous, p.name,
    )  # fmt: skip


def reconcile_resolved(
    symbol_id: str,
    question_span: SourceSpanLink,
    expected_unit: str | None,
    expected: ResolvedUnit | None,
    resolved_by: str | None,
    admitted_unit: UnitVector | None,
    refused_upstream: bool,
    state_index: str,
    question_form: str,
    ambiguous: tuple[str, ...],
    pack_name: str,
    build: Callable[..., BoundUnknown] = BoundUnknown,
) -> BoundUnknown:
    """:func:`reconcile_target` for a binder that has already resolved the expected unit (``expected``: what
    the pack resolves ``expected_unit`` to, None when it does not); positional, for the binding hot path.
    ``build`` makes the value: :class:`~ssbg.model.BoundUnknown` (validated), or a binder's prebuilt
    constructor for the fields it has validated (ADR 0013 amendment)."""
    if ambiguous:
        detail = "candidates: " + ", ".join(ambiguous)
        return _refused(
            symbol_id, question_span, expected_unit, "ambiguous_target", detail, state_index, question_form, None,
            None, build,
        )  # fmt: skip
    if resolved_by is None:
        unknown = expected_unit is not None and expected is None
        return _refused(
            symbol_id, question_span, expected_unit, "unbound_target",
            "nothing in the problem produces the asked-for holding"
            + (f" ({expected_unit!r} is not in pack {pack_name})" if unknown else ""),  # a typo is named (ADR 0020)
            state_index, question_form, None, None, build,
        )  # fmt: skip
    if expected_unit is not None and expected is None:
        return _refused(
            symbol_id, question_span, expected_unit, "unknown_expected_unit",
            f"{expected_unit!r} is not in pack {pack_name}", state_index, question_form, resolved_by, None, build,
        )  # fmt: skip
    if refused_upstream or admitted_unit is None:
        return _refused(
            symbol_id, question_span, expected_unit, "unresolved_upstream", f"{resolved_by} was refused",
            state_index, question_form, resolved_by, None, build,
        )  # fmt: skip
    resolved_unit = admitted_unit.to_canonical_string()
    if expected is not None and expected.dimension != admitted_unit:
        return _refused(
            symbol_id, question_span, expected_unit, "expected_unit_mismatch",
            f"asks for {expected.dimension.to_canonical_string()}, {resolved_by} gives {resolved_unit}",
            state_index, question_form, resolved_by, resolved_unit, build,
        )  # fmt: skip
    return build(
        symbol_id, question_span, expected_unit, state_index, question_form, resolved_by, resolved_unit, "bound",
        None, None,
    )  # fmt: skip
