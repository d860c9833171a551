"""Unit-aware equation admissibility (ADR-0134): the wrong-answer firewall.

:func:`check_admissibility` proves an equation dimensionally consistent over the
closed unit pack and returns a :class:`UnitProof`, or refuses with an
:class:`~ssbg.errors.AdmissibilityError` whose ``reason`` is one of
:data:`~ssbg.errors.ADMISSIBILITY_REASONS`.  Dispatch goes through the explicit
:data:`KIND_RULES` table and fails closed on an unknown kind.

Beyond ADR-0134: the lhs is checked when its symbol declares a unit; results
of upstream equations are read at their admitted unit; commensurable units of
different scale are admitted with a conversion note; a dependent of a refused
equation is refused too, and says which root-cause equation it inherits from
(:class:`EquationStamper`).

Examples
--------
>>> check_operation("apply_rate", ["dollars_per_hour", "hours"]).to_canonical_string()
'apply_rate: [money/time,time] -> money'
>>> check_operation("add", ["hours", "minutes"]).to_canonical_string()
'add: [time,time] -> time; convert minute->hour x1/60'
>>> check_operation("add", ["dollars", "hours"])
Traceback (most recent call last):
...
ssbg.errors.AdmissibilityError: unit_mismatch: add needs equal operand units, got money and time
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

from ssbg.errors import ADMISSIBILITY_REASONS, GROUNDING_REASONS, AdmissibilityError, BindingGraphError
from ssbg.model import BoundEquation, SourceSpanLink, SymbolBinding, _prebuilt_equation
from ssbg.units import (
    DIMENSIONLESS,
    ResolvedUnit,
    UnitPack,
    UnitVector,
    default_pack,
    unit_product,
    unit_quotient,
)

if TYPE_CHECKING:  # imported where a pack is read, not at `import ssbg` (ADR 0015: import time)
    from fractions import Fraction

__all__ = [
    "ADMISSIBILITY_REASONS",
    "KIND_RULES",
    "OPERATION_KINDS",
    "REFUSED_UNIT_PROOF",
    "EquationStamper",
    "Operand",
    "UnitProof",
    "check_admissibility",
    "check_operation",
    "clear_proof_cache",
]

REFUSED_UNIT_PROOF = "unverified"

OPERATION_KINDS: tuple[str, ...] = (
    "add",
    "subtract",
    "transfer",
    "multiply",
    "divide",
    "apply_rate",
    "compare_additive",
    "compare_multiplicative",
    "unit_partition",
    "fraction_portion",
)


@dataclass(frozen=True, slots=True)
class UnitProof:
    """Why an equation is admitted: its kind, the lhs unit and the operand units.

    ``operand_units`` are in the kind's role order (rate then base for
    ``apply_rate``, dividend then divisor for ``divide``, sorted dependency ids
    otherwise).  ``conversions`` notes commensurable units of different scale
    (``"hour->minute x60"``; ``x?`` when the pack fixes no scale).
    """

    operation_kind: str
    lhs_unit: UnitVector
    operand_units: tuple[UnitVector, ...]
    conversions: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        kind, units, notes = self.operation_kind, self.operand_units, self.conversions
        if (  # the common, valid proof in one expression; the checks below name the field that is wrong
            type(kind) is str
            and kind in KIND_RULES
            and type(self.lhs_unit) is UnitVector
            and type(units) is tuple
            and all(type(u) is UnitVector for u in units)
            and type(notes) is tuple
            and all(type(n) is str and n and not n.isspace() for n in notes)
        ):
            return
        if type(kind) is not str or kind not in KIND_RULES:
            raise _invalid("operation_kind", f"must be one of {list(OPERATION_KINDS)}", kind)
        if type(self.lhs_unit) is not UnitVector:
            raise _invalid("lhs_unit", "must be a UnitVector", self.lhs_unit)
        if type(units) is not tuple or not all(type(u) is UnitVector for u in units):
            raise _invalid("operand_units", "must be a tuple of UnitVector", units)
        raise _invalid("conversions", "must be a tuple of non-empty str", notes)

    def to_canonical_string(self) -> str:
        operands = ",".join(map(UnitVector.to_canonical_string, self.operand_units))
        text = f"{self.operation_kind}: [{operands}] -> {self.lhs_unit.to_canonical_string()}"
        if self.conversions:
            text += "; convert " + ", ".join(self.conversions)
        return text

    def __str__(self) -> str:
        return self.to_canonical_string()


def _invalid(name: str, what: str, value: object) -> BindingGraphError:
    return BindingGraphError(
        f"UnitProof '{name}' {what} (got {type(value).__name__} {value!r})"[:300],
        reason="invalid_field",
        path=name,
        detail=repr(value)[:80],
    )


class Operand(NamedTuple):
    """One dependency of an equation, as a rule sees it (an internal, immutable record)."""

    symbol_id: str
    role: str
    unit: ResolvedUnit | None  # None: a pure number (only where a rule allows it)


def _refuse(
    reason: str, message: str, *, detail: str | None = None, offending_unit: str | None = None
) -> AdmissibilityError:
    return _Refusal(reason, message, detail, offending_unit).error()


class _Refusal(NamedTuple):
    """A refusal found by :func:`_prove` itself, as a record: :class:`EquationStamper` stores it on the
    equation without raising and catching (the costly part of a refusal); :func:`check_admissibility`
    raises it as the :class:`~ssbg.errors.AdmissibilityError` it describes."""

    reason: str
    message: str
    detail: str | None = None
    offending_unit: str | None = None

    @property
    def text(self) -> str:
        """The message of the :class:`~ssbg.errors.AdmissibilityError` it describes (``reason: message``)."""
        return f"{self.reason}: {self.message}"

    def error(self) -> AdmissibilityError:
        return AdmissibilityError(self.text, reason=self.reason, detail=self.detail, offending_unit=self.offending_unit)

    @classmethod
    def of(cls, error: AdmissibilityError) -> _Refusal:
        """The record a rule's refusal was raised from (:func:`_refuse`): ``error()`` gives it back."""
        return cls(error.reason, error.message.removeprefix(f"{error.reason}: "), error.detail, error.offending_unit)


def _vec(op: Operand) -> UnitVector:
    return DIMENSIONLESS if op.unit is None else op.unit.dimension


def _name(v: UnitVector) -> str:
    return v.to_canonical_string()


def _note(src: ResolvedUnit | None, dst: ResolvedUnit | None) -> str | None:
    """A conversion note when two commensurable units differ in scale."""
    if src is None or dst is None or src.lemma == dst.lemma:
        return None
    if src.ratio is None or dst.ratio is None:
        return f"{src.lemma}->{dst.lemma} x?"
    factor = src.ratio / dst.ratio
    return None if factor == 1 else f"{src.lemma}->{dst.lemma} x{factor}"


# A rule gets the operands (sorted by symbol id) and the rhs text; it returns
# the derived lhs unit, the operand units in role order, the resolved unit the
# lhs scale follows (for a conversion note against a declared lhs) and notes.
RuleResult = tuple[UnitVector, tuple[UnitVector, ...], ResolvedUnit | None, tuple[str, ...]]
Rule = Callable[[str, Sequence[Operand], str], RuleResult]


def _need_units(kind: str, ops: Sequence[Operand]) -> None:
    for op in ops:
        if op.unit is None and op.role != "ratio":  # a pure number (role ratio, no unit) is dimensionless
            _unit(kind, op)  # refuses


def _unit(kind: str, op: Operand) -> ResolvedUnit:
    if op.unit is None:
        raise _refuse("unit_unbound", f"{kind} operand {op.symbol_id} has no unit", detail=op.symbol_id)
    return op.unit


def _additive(kind: str, ops: Sequence[Operand], rhs: str) -> RuleResult:
    _need_units(kind, ops)
    first = ops[0]
    base = _vec(first)
    vectors = [base]
    for op in ops[1:]:
        vector = _vec(op)
        if vector != base:
            raise _refuse(
                "unit_mismatch",
                f"{kind} needs equal operand units, got {_name(base)} and {_name(vector)}",
                detail=f"{first.symbol_id}:{_name(base)} vs {op.symbol_id}:{_name(vector)}",
                offending_unit=op.unit.text if op.unit else None,
            )
        vectors.append(vector)
    notes = tuple(n for op in ops[1:] if (n := _note(op.unit, first.unit)) is not None)
    return base, tuple(vectors), first.unit, notes


def _multiply(kind: str, ops: Sequence[Operand], rhs: str) -> RuleResult:
    _need_units(kind, ops)
    result = DIMENSIONLESS
    for op in ops:
        result = unit_product(result, _vec(op))
    return result, tuple(_vec(o) for o in ops), _scaled(ops, result), ()


def _scaled(ops: Sequence[Operand], result: UnitVector) -> ResolvedUnit | None:
    """A synthetic resolved unit carrying the product's scale (for lhs notes)."""
    ratio: Fraction | None = None  # the product so far (the first factor alone: Fraction arithmetic is slow)
    scaled = True  # every unit so far has a scale
    lemmas = []
    for op in ops:
        unit = op.unit
        if unit is None:
            continue
        lemmas.append(unit.lemma)
        if scaled:
            scaled = unit.ratio is not None
            ratio = None if unit.ratio is None else unit.ratio if ratio is None else ratio * unit.ratio
    if scaled and ratio is None:  # no unit at all: the empty product
        from fractions import Fraction  # imported by the pack loader already; not at `import ssbg`

        ratio = Fraction(1)
    name = "*".join(lemmas)
    return ResolvedUnit(name, name, result, ratio, "composite")


def _split_divide(ops: Sequence[Operand], rhs: str) -> tuple[Operand, Operand]:
    divisors = [op for op in ops if op.symbol_id.endswith("__divisor")]
    if not divisors:
        # Fall back on the canonical rhs "dividend / divisor".
        left, sep, right = rhs.partition(" / ")
        by_id = {op.symbol_id: op for op in ops}
        if sep and left.strip() in by_id and right.strip() in by_id and left.strip() != right.strip():
            return by_id[left.strip()], by_id[right.strip()]
        raise _refuse(
            "operand_arity",
            "divide needs one dividend and one *__divisor operand (or rhs 'a / b')",
            detail=",".join(op.symbol_id for op in ops),
        )
    if len(divisors) != 1:  # two divisor literals: no dividend
        raise _refuse(
            "operand_arity",
            f"divide needs one dividend and one *__divisor operand (got {len(divisors)} divisors)",
            detail=",".join(op.symbol_id for op in ops),
        )
    divisor = divisors[0]
    (dividend,) = [op for op in ops if op is not divisor]
    return dividend, divisor


def _divide(kind: str, ops: Sequence[Operand], rhs: str) -> RuleResult:
    dividend, divisor = _split_divide(ops, rhs)
    _need_units(kind, (dividend, divisor))
    result = unit_quotient(_vec(dividend), _vec(divisor))
    scale = None
    if dividend.unit is not None and divisor.unit is not None:
        r1, r2 = dividend.unit.ratio, divisor.unit.ratio
        scale = ResolvedUnit(
            f"{dividend.unit.lemma}/{divisor.unit.lemma}",
            f"{dividend.unit.lemma}/{divisor.unit.lemma}",
            result,
            None if r1 is None or r2 is None else r1 / r2,
            "composite",
        )
    return result, (_vec(dividend), _vec(divisor)), scale, ()


def _split_rate(kind: str, ops: Sequence[Operand]) -> tuple[ResolvedUnit, ResolvedUnit, Operand, Operand]:
    rates = [op for op in ops if op.role == "rate"]
    if len(rates) != 1:  # two operands (the arity is checked first), but not one rate and one other
        raise _refuse(
            "rate_form_invalid",
            f"{kind} needs exactly one operand with role 'rate' (got {len(rates)})",
            detail=",".join(op.symbol_id for op in ops),
        )
    rate = rates[0]
    (other,) = [op for op in ops if op is not rate]
    rate_unit, other_unit = _unit(kind, rate), _unit(kind, other)
    if not rate_unit.is_rate:
        raise _refuse(
            "rate_form_invalid",
            f"{kind} rate {rate.symbol_id} has unit {rate_unit.lemma!r}, which is not 'X per Y'",
            detail=rate.symbol_id,
            offending_unit=rate_unit.text,
        )
    return rate_unit, other_unit, rate, other


def _apply_rate(kind: str, ops: Sequence[Operand], rhs: str) -> RuleResult:
    ru, bu, rate, base = _split_rate(kind, ops)
    if bu.dimension != ru.denominator:
        raise _refuse(
            "unit_mismatch",
            f"apply_rate needs the base in the rate's denominator {_name(ru.denominator)}, got {_name(bu.dimension)}",
            detail=f"{rate.symbol_id}:{_name(ru.dimension)} x {base.symbol_id}:{_name(bu.dimension)}",
            offending_unit=bu.text,
        )
    ratio = None if ru.ratio is None or bu.ratio is None else ru.ratio * bu.ratio
    scale = ResolvedUnit(f"{ru.lemma}*{bu.lemma}", f"{ru.lemma}*{bu.lemma}", ru.numerator, ratio, "composite")
    return ru.numerator, (ru.dimension, bu.dimension), scale, ()


def _unit_partition(kind: str, ops: Sequence[Operand], rhs: str) -> RuleResult:
    cu, qu, chunk, quantity = _split_rate(kind, ops)
    if qu.dimension != cu.numerator:
        raise _refuse(
            "unit_mismatch",
            f"unit_partition needs the quantity in the chunk's numerator {_name(cu.numerator)}, "
            f"got {_name(qu.dimension)}",
            detail=f"{quantity.symbol_id}:{_name(qu.dimension)} / {chunk.symbol_id}",
            offending_unit=qu.text,
        )
    return cu.denominator, (qu.dimension, cu.dimension), None, ()


def _compare_multiplicative(kind: str, ops: Sequence[Operand], rhs: str) -> RuleResult:
    """ssbg's threaded shape (ADR 0002: a ``ratio`` factor times the reference's holding) when a dependency
    has the role ``ratio``; else ADR-0134's row as written: the dependencies' units cancel (they are one
    unit, so any ratio of two is dimensionless; vacuously so for none, as the reference adapter binds the
    kind) and the lhs is dimensionless."""
    if any(op.role == "ratio" for op in ops):
        return _fractional(kind, ops, rhs)
    if len(ops) == 1:
        raise _refuse(
            "operand_arity",
            f"{kind} compares two quantities (or none, as ADR-0134 binds it); got one, {ops[0].symbol_id}",
            detail=ops[0].symbol_id,
        )
    _need_units(kind, ops)
    base = _vec(ops[0]) if ops else DIMENSIONLESS
    for op in ops[1:]:
        if _vec(op) != base:
            raise _refuse(
                "unit_mismatch",
                f"{kind} needs units that cancel, got {_name(base)} and {_name(_vec(op))}",
                detail=f"{ops[0].symbol_id}:{_name(base)} vs {op.symbol_id}:{_name(_vec(op))}",
                offending_unit=op.unit.text if op.unit else None,
            )
    return DIMENSIONLESS, tuple(_vec(op) for op in ops), None, ()


def _fractional(kind: str, ops: Sequence[Operand], rhs: str) -> RuleResult:
    """fraction_portion / compare_multiplicative: a pure factor times a holding."""
    factors = [op for op in ops if op.role == "ratio"]
    if len(factors) != 1 or len(ops) != 2:
        raise _refuse(
            "operand_arity",
            f"{kind} needs one 'ratio' factor and one holding (got {len(ops)} operands, {len(factors)} ratio)",
            detail=",".join(op.symbol_id for op in ops),
        )
    factor = factors[0]
    (holding,) = [op for op in ops if op is not factor]
    _need_units(kind, (holding,))
    if _vec(factor) != DIMENSIONLESS:
        raise _refuse(
            "unit_mismatch",
            f"{kind} factor {factor.symbol_id} must be dimensionless, got {_name(_vec(factor))}",
            detail=factor.symbol_id,
            offending_unit=factor.unit.text if factor.unit else None,
        )
    # The compared holdings' units cancel: lhs / holding is dimensionless.
    return _vec(holding), (_vec(holding), DIMENSIONLESS), holding.unit, ()


_ARITY: Mapping[str, tuple[int, int | None]] = MappingProxyType(
    {
        "add": (1, None),
        "subtract": (1, None),
        "transfer": (1, None),
        "compare_additive": (2, None),  # the reference's holding and the delta
        "multiply": (2, None),
        "divide": (2, 2),
        "apply_rate": (2, 2),
        "unit_partition": (2, 2),
        "fraction_portion": (2, 2),
        "compare_multiplicative": (0, None),  # ADR-0134's shape has none; ssbg's two (the rule checks which)
    }
)

KIND_RULES: Mapping[str, Rule] = MappingProxyType(
    {
        "add": _additive,
        "subtract": _additive,
        "transfer": _additive,
        "compare_additive": _additive,
        "multiply": _multiply,
        "divide": _divide,
        "apply_rate": _apply_rate,
        "unit_partition": _unit_partition,
        "fraction_portion": _fractional,
        "compare_multiplicative": _compare_multiplicative,
    }
)


def _symbol_table(symbols: object) -> Mapping[str, SymbolBinding]:
    """The symbols by id; what is not a SymbolBinding (or a key that is not its id) refuses."""
    if type(symbols) is dict or isinstance(symbols, Mapping):  # the exact-type test first: the usual case is cheap
        for key, value in symbols.items():
            if type(value) is not SymbolBinding or value.symbol_id != key:
                raise _refuse(
                    "unknown_symbol",
                    f"'symbols' must map each id to its SymbolBinding (got {type(value).__name__} at {key!r})",
                    detail=repr(key)[:80],
                )
        return symbols
    if isinstance(symbols, str | bytes) or not isinstance(symbols, Iterable):
        raise _refuse("unknown_symbol", f"'symbols' must be a mapping or an iterable (got {type(symbols).__name__})")
    table: dict[str, SymbolBinding] = {}
    for s in symbols:
        if not isinstance(s, SymbolBinding):
            raise _refuse("unknown_symbol", f"'symbols' must hold SymbolBinding values (got {type(s).__name__})")
        table[s.symbol_id] = s
    return table


def _upstream_table(upstream: object) -> Mapping[str, UnitVector]:
    """The admitted upstream units by id; what is not a UnitVector by a str id refuses."""
    if upstream is None:
        return {}
    if not isinstance(upstream, Mapping) or not all(
        type(k) is str and type(v) is UnitVector for k, v in upstream.items()
    ):
        raise _refuse("unit_unbound", "'upstream_units' must map symbol ids to UnitVector values")
    return upstream


def _unknown_unit(text: str, reason: str, pack: UnitPack) -> _Refusal:
    return _Refusal("unknown_unit", f"unit {text!r} is not in pack {pack.name}", f"{reason}: {text}", text)


@functools.lru_cache(maxsize=4096)
def _upstream_unit(vec: UnitVector) -> ResolvedUnit:
    """An upstream result's admitted vector as a resolved unit (memoized: both are immutable)."""
    name = vec.to_canonical_string()
    return ResolvedUnit(
        name,
        name,
        vec,
        None,
        "upstream",
        UnitVector(*(max(e, 0) for e in vec)),
        UnitVector(*(max(-e, 0) for e in vec)),
    )


_new_operand = tuple.__new__  # skips the generated NamedTuple constructor on the hot path


Signature = tuple[tuple[str, str | UnitVector | None], ...]
"""The operands of an equation as its proof reads them: (role, unit text or upstream unit) in sorted-id order."""

ProofMemo = dict[tuple[str, Signature, str | None], tuple[UnitProof, str] | None]
"""Proofs by (kind, signature, lhs unit text); None: the rule refuses (the caller refuses naming the symbols)."""

RefusalMemo = dict[
    tuple[str, tuple[tuple[str, str, str | UnitVector | None], ...], str, str, str | None], "_Refusal"
]
"""A rule's refusals by (kind, operands as (id, role, unit) in sorted-id order, rhs, lhs id, lhs unit text):
what the rule raised, as a record (a pure function of these and the pack)."""

_REFUSALS = "ssbg.admissibility.refusals"  # the name of the refusal memo of each pack (UnitPack.memo)

_PROOFS = "ssbg.admissibility.proofs"  # the name of the proof memo of each pack (UnitPack.memo)
_MEMO_LIMIT = 1 << 14  # entries a memo holds before it starts afresh (bounded memory over any corpus)


def check_admissibility(
    equation: BoundEquation,
    *,
    symbols: Mapping[str, SymbolBinding] | Iterable[SymbolBinding],
    pack: UnitPack | None = None,
    upstream_units: Mapping[str, UnitVector] | None = None,
) -> UnitProof:
    """Prove ``equation`` dimensionally admissible or refuse with a typed reason.

    The kinds table of ADR-0134, row by row, as this function reads it on any
    input (also one the adapter never builds):

    ``add`` / ``subtract`` / ``transfer`` / ``compare_additive``
        every dependency has one unit (a pure ``ratio`` operand with no unit is
        dimensionless) and the lhs is that unit.  At least one dependency:
        with none there is no unit for the lhs (``operand_arity``).
    ``compare_multiplicative``
        ADR-0134's row as written when no dependency has the role ``ratio``:
        the dependencies' units cancel (they are one unit; none at all, as
        ADR-0134's adapter binds the kind, cancel vacuously) and the lhs is
        dimensionless; one dependency alone has nothing to cancel against
        (``operand_arity``).
    ``multiply``
        the lhs is the product of the dependencies' units.
    ``divide``
        one dividend and one ``*__divisor`` literal (two divisors:
        ``operand_arity``); the lhs is their quotient.
    ``apply_rate``
        two dependencies, one with the role ``rate`` carrying ``X/Y`` (a rate
        whose unit is not ``X/Y``, or two operands without exactly one
        ``rate`` role, is ``rate_form_invalid``), the other carrying ``Y``; the
        lhs is ``X``.  The rate may be an upstream result (its admitted unit).

    Where ssbg departs from the table on purpose (ADR 0002, the threaded
    adapter; ADR 0003, traces), and why:

    - ``compare_additive`` takes two dependencies at least (the reference's
      holding and the delta), and ``multiply`` two: the adapter binds an
      operation that finds no holding to read with its literal alone, and
      that equation must refuse (``operand_arity``) rather than be admitted
      as the literal's own unit.
    - ``compare_multiplicative`` with a ``ratio`` dependency is the threaded
      comparison: exactly that factor (dimensionless) and the reference's
      holding, and the lhs is the holding's unit (``factor x reference``),
      not dimensionless: the actor's holding is a quantity, not a ratio.
    - ``divide`` with no ``*__divisor`` literal reads the dividend and the
      divisor from the rhs ``a / b`` (a trace's division has no synthesized
      literal); anything else is ``operand_arity``.
    - ``unit_partition`` and ``fraction_portion`` are kinds of ssbg's own
      (SPEC section 3) with rules of their own.
    - The lhs is checked when its symbol declares a unit, commensurable units
      of another scale are admitted with a conversion note, and a dependency
      with no unit reads its upstream result's admitted unit.

    Parameters
    ----------
    equation
        The equation to check; only its lhs, dependencies, kind and rhs are read.
    symbols
        The symbols it may reference (a mapping by id or an iterable of
        :class:`~ssbg.model.SymbolBinding`).
    pack
        The unit pack (``en_units_v1`` when None).
    upstream_units
        Admitted units of upstream results by symbol id, used for a dependency
        that declares no unit of its own.

    Raises
    ------
    AdmissibilityError
        ``unknown_operation``, ``unknown_symbol``, ``operand_arity``,
        ``unknown_unit``, ``unit_unbound``, ``rate_form_invalid`` or
        ``unit_mismatch`` (also when a declared lhs unit differs from the
        derived one).
    """
    if not isinstance(equation, BoundEquation):
        raise _refuse("unknown_operation", f"expected a BoundEquation (got {type(equation).__name__})")
    p = default_pack() if pack is None else pack
    if not isinstance(p, UnitPack):
        raise _refuse("unknown_unit", f"'pack' must be a UnitPack (got {type(p).__name__})")
    proved = _prove(
        equation.lhs_symbol_id,
        equation.dependencies,
        equation.operation_kind,
        equation.rhs_canonical,
        _symbol_table(symbols),
        p,
        _upstream_table(upstream_units),
        p.memo(_PROOFS),
        p.memo(_REFUSALS),
    )
    if isinstance(proved, _Refusal):
        raise proved.error()
    return proved[0]


def _prove(
    lhs_id: str,
    dependencies: frozenset[str],
    kind: str,
    rhs: str,
    table: Mapping[str, SymbolBinding],
    p: UnitPack,
    upstream: Mapping[str, UnitVector],
    memo: ProofMemo,
    refusals: RefusalMemo,
    *,
    explain: bool = True,
) -> tuple[UnitProof, str] | _Refusal:
    """The checks of :func:`check_admissibility` on validated parts: the proof and its canonical string.

    The refusals it finds itself come back as a :class:`_Refusal` record; a kind's rule raises its own.
    An equation whose operands' (role, unit) and lhs unit have been proved before (``memo``, the pack's)
    gets that proof at once: the checks below gave it for the same kind, roles, unit texts and pack, and
    would give it again.  Without ``explain`` (a trial that asks only whether it admits), an equation its
    operands' (role, unit) in role order refuse is :data:`_REFUSED_BY_UNITS` at once: the rule reads the
    symbol ids only to tell a dividend from a divisor (role order already does) and to name them in its
    message, so with the ids it would refuse as well.
    """
    ordered_deps = sorted(dependencies)
    known = _known_proof(lhs_id, ordered_deps, kind, rhs, table, upstream, memo) if kind in _MEMO_KINDS else _UNKNOWN
    if not isinstance(known, _Unknown):
        if known is not None:
            return known
        if not explain:  # its operands' units in role order were refused before: the checks below refuse again
            return _REFUSED_BY_UNITS
    if kind not in KIND_RULES:
        return _Refusal(
            "unknown_operation", f"operation kind {kind!r} is not one of {list(OPERATION_KINDS)}", detail=kind
        )
    if lhs_id not in table:
        return _Refusal("unknown_symbol", f"symbol {lhs_id!r} is not bound", detail=lhs_id)
    for sid in ordered_deps:
        if sid not in table:
            return _Refusal("unknown_symbol", f"symbol {sid!r} is not bound", detail=sid)
    low, high = _ARITY[kind]
    n = len(dependencies)
    if n < low or (high is not None and n > high):
        want = f"{low}" if low == high else f"{low}..{high or 'n'}"
        return _Refusal("operand_arity", f"{kind} takes {want} operands, got {n}", detail=str(n))
    lookup = p.lookup
    signature: list[tuple[str, str | UnitVector | None]] = []  # (role, unit text or upstream unit) per operand
    for sid in ordered_deps:
        sym = table[sid]
        unit = sym.unit
        if unit is not None:
            hit = lookup(unit)
            if isinstance(hit, str):
                return _unknown_unit(unit, hit, p)
            signature.append((sym.semantic_role, unit))
        elif sid in upstream:
            signature.append((sym.semantic_role, upstream[sid]))
        elif sym.semantic_role == "ratio":
            signature.append((sym.semantic_role, None))  # a pure number
        else:
            return _Refusal("unit_unbound", f"operand {sid} has no unit and no admitted upstream unit", detail=sid)
    lhs_unit = table[lhs_id].unit
    ordered = _in_role_order(kind, ordered_deps, rhs, signature)
    if ordered is not None:
        proved = _memoized_proof(kind, ordered, lhs_unit, p, memo)
        if proved is not None:
            return proved
        if not explain:
            return _REFUSED_BY_UNITS
    # A refusal (its message names the symbols): the rule reads the operands themselves.
    named = (kind, tuple((sid, *entry) for sid, entry in zip(ordered_deps, signature, strict=True)), rhs, lhs_id,
             lhs_unit)  # fmt: skip
    refused = refusals.get(named)
    if refused is not None:
        return refused
    operands = [
        _new_operand(Operand, (sid, role, _operand_unit(source, p)))
        for sid, (role, source) in zip(ordered_deps, signature, strict=True)
    ]
    try:
        proof = _derive(kind, operands, rhs, lhs_id, lhs_unit, p)
    except AdmissibilityError as exc:  # the rule's refusal, as the record it was raised from
        proof = _Refusal.of(exc)
    if isinstance(proof, _Refusal):
        if len(refusals) >= _MEMO_LIMIT:
            refusals.clear()
        refusals[named] = proof
        return proof
    return proof, proof.to_canonical_string()


_REFUSED_BY_UNITS = _Refusal("unit_mismatch", "the operands' units in role order refuse it (no symbol named)")
"""What :func:`_prove` gives a trial (``explain=False``) its operands' units refuse; never stamped on an equation."""


class _Unknown:
    """What :func:`_known_proof` gives when the memo cannot answer (None is a memoized refusal)."""


_UNKNOWN = _Unknown()


def _known_proof(
    lhs_id: str,
    ordered_deps: list[str],
    kind: str,
    rhs: str,
    table: Mapping[str, SymbolBinding],
    upstream: Mapping[str, UnitVector],
    memo: ProofMemo,
) -> tuple[UnitProof, str] | _Unknown | None:
    """The proof :func:`_prove` gave before to an equation of this kind whose operands have the same (role,
    unit) and whose lhs declares the same unit, if it did (None: its operands' units in role order refused it):
    its checks would give it again (same kind, roles, unit texts and pack).  :data:`_UNKNOWN` when the memo has
    neither, or a symbol is missing or has no unit."""
    lhs = table.get(lhs_id)
    if lhs is None:
        return _UNKNOWN
    seen: list[tuple[str, str | UnitVector | None]] = []
    for sid in ordered_deps:
        sym = table.get(sid)
        if sym is None:
            return _UNKNOWN
        if sym.unit is not None:
            seen.append((sym.semantic_role, sym.unit))
        elif sid in upstream:
            seen.append((sym.semantic_role, upstream[sid]))
        elif sym.semantic_role == "ratio":
            seen.append((sym.semantic_role, None))
        else:
            return _UNKNOWN
    in_order = _in_role_order(kind, ordered_deps, rhs, seen)
    return _UNKNOWN if in_order is None else memo.get((kind, in_order, lhs.unit), _UNKNOWN)


def _operand_unit(source: str | UnitVector | None, p: UnitPack) -> ResolvedUnit | None:
    """An operand's resolved unit from its signature entry: a unit text the pack knows, an upstream unit, or None."""
    if source is None:
        return None
    if isinstance(source, str):
        return p.resolve(source)  # a text _prove found in the pack
    return _upstream_unit(source)


def _derive(
    kind: str, operands: Sequence[Operand], rhs: str, lhs_id: str, lhs_unit: str | None, p: UnitPack
) -> UnitProof | _Refusal:
    """Apply the kind's rule (which raises its refusals) and check the unit the lhs declares."""
    derived, ordered, scale, notes = KIND_RULES[kind](kind, operands, rhs)
    if lhs_unit is not None:
        declared = p.lookup(lhs_unit)
        if isinstance(declared, str):
            return _unknown_unit(lhs_unit, declared, p)
        if declared.dimension != derived:
            return _Refusal(
                "unit_mismatch",
                f"{kind} derives {_name(derived)} but lhs {lhs_id} declares {lhs_unit!r} ({_name(declared.dimension)})",
                detail=f"lhs {lhs_id}",
                offending_unit=lhs_unit,
            )
        note = (
            _note(scale, declared)
            if scale is not None and scale.ratio is not None and declared.ratio is not None
            else None
        )
        if note is not None and note not in notes:
            notes = (*notes, note)
    return UnitProof(kind, derived, ordered, notes)


_MEMO_KINDS: frozenset[str] = frozenset(KIND_RULES)
"""Kinds whose rule, when it admits, reads only the operands' roles and units in role order: sorted-id
order, and for ``divide`` dividend then divisor (told apart by ids and the rhs: :func:`_divide_order`)."""


def _in_role_order(
    kind: str, ids: list[str], rhs: str, signature: list[tuple[str, str | UnitVector | None]]
) -> Signature | None:
    """The signature in the order the kind's rule reads it (None: a divide whose dividend and divisor the
    ids and rhs do not tell apart; its rule refuses it)."""
    if kind != "divide":
        return tuple(signature)
    order = _divide_order(ids, rhs)
    return None if order is None else (signature[order[0]], signature[order[1]])


def _divide_order(ids: list[str], rhs: str) -> tuple[int, int] | None:
    """The positions of the dividend and the divisor among two operand ids, as :func:`_split_divide` tells
    them apart (the one ``*__divisor`` id, else the rhs ``dividend / divisor``); None otherwise."""
    if len(ids) != 2:
        return None
    divisors = [i for i, sid in enumerate(ids) if sid.endswith("__divisor")]
    if divisors:  # two divisor literals leave no dividend: the rule refuses (operand_arity)
        return (1 - divisors[0], divisors[0]) if len(divisors) == 1 else None
    left, sep, right = rhs.partition(" / ")
    left, right = left.strip(), right.strip()
    if sep and left in ids and right in ids and left != right:
        return ids.index(left), ids.index(right)
    return None


def _memoized_proof(
    kind: str, signature: Signature, lhs_unit: str | None, p: UnitPack, memo: ProofMemo
) -> tuple[UnitProof, str] | None:
    """:func:`_proof_by_units`, memoized in ``memo``, the pack's (a pure function of immutable values; no hash
    of the pack per lookup).  :func:`clear_proof_cache` or ``UnitPack.clear_cache`` forget it."""
    key = (kind, signature, lhs_unit)
    try:
        return memo[key]
    except KeyError:
        if len(memo) >= _MEMO_LIMIT:
            memo.clear()
        proved = memo[key] = _proof_by_units(kind, signature, lhs_unit, p)
        return proved


def _proof_by_units(
    kind: str, signature: Signature, lhs_unit: str | None, p: UnitPack
) -> tuple[UnitProof, str] | None:
    """The proof and its canonical string for an equation of ``kind``, from its operands' (role, unit) in
    role order (:func:`_in_role_order`) and the unit its lhs declares; None when it refuses (the caller
    then refuses naming the symbols).
    """
    names = _DIVIDE_NAMES if kind == "divide" else [f"operand_{i}" for i in range(len(signature))]
    operands = [
        _new_operand(Operand, (name, role, _operand_unit(source, p)))
        for name, (role, source) in zip(names, signature, strict=True)
    ]
    try:
        proof = _derive(kind, operands, "", "lhs", lhs_unit, p)
    except AdmissibilityError:
        return None
    return None if isinstance(proof, _Refusal) else (proof, proof.to_canonical_string())


_DIVIDE_NAMES = ("operand_0", "operand_1__divisor")  # a dividend and a divisor, as _split_divide tells them apart


def clear_proof_cache(pack: UnitPack | None = None) -> None:
    """Forget the memoized proofs of ``pack`` (the default pack when None) and the upstream units (tests use
    this; ``UnitPack.clear_cache`` forgets a pack's unit lookups and proofs together)."""
    p = default_pack() if pack is None else pack
    p.memo(_PROOFS).clear()
    p.memo(_REFUSALS).clear()
    _upstream_unit.cache_clear()
    _operation_equation.cache_clear()


class EquationStamper:
    """Checks equations in order and stamps them admitted or refused (never raises for a refusal: only
    :meth:`refuse` given a reason outside :data:`~ssbg.errors.GROUNDING_REASONS`, a caller's bug, raises).

    Keeps the admitted unit of every admitted lhs (read by downstream
    equations) and the root cause of every refusal, so that a dependent of a
    refused equation is refused as ``unit_unbound`` with ``propagated_from``
    naming the root-cause equation's lhs.
    """

    _equation: Callable[..., BoundEquation] = BoundEquation  # every stamped equation validated (ADR 0013)

    def __init__(self, symbols: Mapping[str, SymbolBinding], pack: UnitPack | None = None) -> None:
        self.symbols = symbols
        self.pack = default_pack() if pack is None else pack
        self.admitted: dict[str, UnitVector] = {}
        self.proofs: dict[str, UnitProof] = {}
        self.root_of: dict[str, str] = {}
        self.memo: ProofMemo = self.pack.memo(_PROOFS)
        self.refusals: RefusalMemo = self.pack.memo(_REFUSALS)

    def stamp(
        self,
        lhs: str,
        rhs: str,
        dependencies: Iterable[str],
        kind: str,
        span: SourceSpanLink,
    ) -> BoundEquation:
        deps = frozenset(dependencies)
        root_of = self.root_of
        # The refused dependencies, found by walking the few dependencies: deps.isdisjoint(root_of) and
        # deps.intersection(root_of) walk root_of (a dict, not a set), which made a chain of n refused
        # steps cost n^2.
        refused = [dep for dep in deps if dep in root_of] if root_of else None
        if refused:
            first = min(refused)  # the first refused dependency in sorted order
            root = root_of[first]
            root_of[lhs] = root
            return self._equation(
                lhs,
                rhs,
                deps,
                kind,
                REFUSED_UNIT_PROOF,
                "refused",
                span,
                "unit_unbound",
                f"depends on refused {first}",
                None,
                root,
            )
        try:
            proved = _prove(lhs, deps, kind, rhs, self.symbols, self.pack, self.admitted, self.memo, self.refusals)
        except AdmissibilityError as exc:  # a rule's refusal
            return self._refused(lhs, rhs, deps, kind, span, exc.reason, exc.detail or exc.message, exc.offending_unit)
        if isinstance(proved, _Refusal):  # the detail, else the message its AdmissibilityError would carry
            detail = proved.detail or proved.text
            return self._refused(lhs, rhs, deps, kind, span, proved.reason, detail, proved.offending_unit)
        proof, text = proved
        self.admitted[lhs] = proof.lhs_unit
        self.proofs[lhs] = proof
        return self._equation(lhs, rhs, deps, kind, text, "admitted", span, None, None, None, None)

    def admits(self, lhs: str, rhs: str, dependencies: Iterable[str], kind: str) -> bool:
        """Whether the equation would be admitted now, recording nothing: a trial of another reading."""
        return self._tried(lhs, rhs, dependencies, kind) is not None

    def derives(self, lhs: str, rhs: str, dependencies: Iterable[str], kind: str) -> UnitVector | None:
        """The unit the equation's lhs would be admitted with now (None: it would be refused), recording nothing:
        a trial of another reading that asks what unit it gives (what :meth:`stamp`, then :meth:`retract`, leave
        in :attr:`admitted` between them, without building the equation or the words of a refusal)."""
        proved = self._tried(lhs, rhs, dependencies, kind)
        return None if proved is None else proved[0].lhs_unit

    def _tried(
        self, lhs: str, rhs: str, dependencies: Iterable[str], kind: str
    ) -> tuple[UnitProof, str] | None:
        """The proof the equation would be admitted with now (None: refused), recording nothing."""
        deps = frozenset(dependencies)
        root_of = self.root_of
        if root_of and any(dep in root_of for dep in deps):  # walk the few dependencies, never the refusals
            return None
        try:
            proved = _prove(lhs, deps, kind, rhs, self.symbols, self.pack, self.admitted, self.memo, self.refusals,
                            explain=False)
        except AdmissibilityError:
            return None
        return None if isinstance(proved, _Refusal) else proved

    def retract(self, lhs: str) -> None:
        """Forget what stamping ``lhs`` recorded, so that it can be stamped again under another reading."""
        self.root_of.pop(lhs, None)
        self.admitted.pop(lhs, None)
        self.proofs.pop(lhs, None)

    def refuse(
        self, lhs: str, rhs: str, dependencies: Iterable[str], kind: str, span: SourceSpanLink, reason: str, detail: str
    ) -> BoundEquation:
        """Stamp a root-cause refusal a caller established by reading: ``reason`` is one of
        :data:`~ssbg.errors.GROUNDING_REASONS` (``ambiguous_grounding``: ADR 0018, ADR 0024), never one of
        ADR-0134's seven, which only dimensional analysis gives (:meth:`stamp`)."""
        if reason not in GROUNDING_REASONS:
            raise BindingGraphError(
                f"a reading's refusal has a reason of {sorted(GROUNDING_REASONS)} (got {reason!r}); "
                "ADR-0134's reasons come from dimensional analysis (stamp)",
                reason="unknown_refusal_reason",
                path="refusal_reason",
                detail=str(reason)[:80],
            )
        return self._refused(lhs, rhs, frozenset(dependencies), kind, span, reason, detail, None)

    def _refused(
        self,
        lhs: str,
        rhs: str,
        deps: frozenset[str],
        kind: str,
        span: SourceSpanLink,
        reason: str,
        detail: str,
        offending_unit: str | None,
    ) -> BoundEquation:
        """A root-cause refusal: recorded as its own root, stamped on the equation."""
        self.root_of[lhs] = lhs
        return self._equation(
            lhs, rhs, deps, kind, REFUSED_UNIT_PROOF, "refused", span, reason, detail, offending_unit, None
        )


class _BindingStamper(EquationStamper):
    """The binders' stamper (``ssbg.adapter``, ``ssbg.trace``): the same checks and records, its equations
    built from the fields it has checked without validating them again (ADR 0013's amendment; guarded by
    ``tests/test_unchecked_binding.py``).  Callers pass the ids, texts, kinds and spans they built
    themselves; anything else uses :class:`EquationStamper`."""

    _equation = staticmethod(_prebuilt_equation)


_PLAYGROUND_SPAN = SourceSpanLink("check_operation", 0, 1, "?")


# Kinds whose every operand may be a pure number (``None``: '-' in the shell, a blank in the playground).
_PURE_NUMBER_KINDS = frozenset({"multiply", "divide"})


def _operand_roles(kind: str, n: int) -> list[str]:
    if kind in ("apply_rate", "unit_partition"):
        return ["rate", "quantity"] if kind == "apply_rate" else ["quantity", "rate"]
    if kind in ("fraction_portion", "compare_multiplicative"):
        return ["quantity", "ratio"]
    return ["quantity"] * n


def check_operation(
    kind: str,
    operand_units: Sequence[str | None],
    *,
    lhs_unit: str | None = None,
    pack: UnitPack | None = None,
) -> UnitProof:
    """Check one operation on bare unit texts (the shell's and the playground's path).

    Operand order: ``apply_rate`` [rate, base]; ``unit_partition`` [quantity,
    chunk rate]; ``divide`` [dividend, divisor]; ``fraction_portion`` and
    ``compare_multiplicative`` [holding, factor] (factor ``None`` = a pure
    number); other kinds any order.  Any operand of ``multiply`` and
    ``divide`` may be ``None``, a pure number (``dollars * 3``).
    """
    if not (type(operand_units) is list or type(operand_units) is tuple) and (
        isinstance(operand_units, str) or not isinstance(operand_units, Sequence)
    ):
        raise _refuse("operand_arity", "'operand_units' must be a sequence of unit texts")
    if type(kind) is not str or kind not in KIND_RULES:
        raise _refuse(
            "unknown_operation", f"operation kind {kind!r} is not one of {list(OPERATION_KINDS)}", detail=str(kind)
        )
    for i, unit in enumerate(operand_units):
        if unit is not None and (not isinstance(unit, str) or not unit.strip()):
            raise _refuse("unknown_unit", f"operand {i} must be a unit text (got {unit!r})", offending_unit=repr(unit))
    if lhs_unit is not None and (not isinstance(lhs_unit, str) or not lhs_unit.strip()):
        raise _refuse("unknown_unit", f"lhs unit must be a unit text (got {lhs_unit!r})", offending_unit=repr(lhs_unit))
    symbols, eq = _operation_equation(kind, tuple(operand_units), lhs_unit)
    return check_admissibility(eq, symbols=symbols, pack=pack)


@functools.lru_cache(maxsize=4096)
def _operation_equation(
    kind: str, operand_units: tuple[str | None, ...], lhs_unit: str | None
) -> tuple[Mapping[str, SymbolBinding], BoundEquation]:
    """The symbols (by id, read-only) and the pending equation :func:`check_operation` checks: built and
    validated once per distinct (kind, operand units, lhs unit), as any value (ADR 0013), then reused
    (memoized: immutable values; the check itself runs on every call)."""
    roles = _operand_roles(kind, len(operand_units))
    symbols: dict[str, SymbolBinding] = {}
    ids: list[str] = []
    for i, unit in enumerate(operand_units):
        sid = f"op_{i}" if not (kind == "divide" and i == 1) else f"op_{i}__divisor"
        role = "ratio" if unit is None and kind in _PURE_NUMBER_KINDS else roles[i] if i < len(roles) else "quantity"
        symbols[sid] = SymbolBinding(sid, sid, role, _PLAYGROUND_SPAN, "check_operation", unit=unit)
        ids.append(sid)
    symbols["lhs"] = SymbolBinding("lhs", "lhs", "quantity", _PLAYGROUND_SPAN, "check_operation", unit=lhs_unit)
    rhs = f" {'/' if kind == 'divide' else '+'} ".join(ids) or "0"
    eq = BoundEquation("lhs", rhs, frozenset(ids), kind, REFUSED_UNIT_PROOF, "pending", _PLAYGROUND_SPAN)
    return MappingProxyType(symbols), eq
