"""Bind a :class:`~ssbg.problem.MathProblemGraph` into a binding graph (SPEC section 3).

State is threaded (docs/adr/0002-state-threading.md): every operation reads the
*current* symbol of each holding it touches (the latest result that wrote it,
else the initial fact), so a problem's equations form one connected, acyclic
chain, and each result symbol declares the unit of the holding it writes.
All ten kinds bind; each equation is checked by admissibility and stamped
admitted or refused; the adapter never raises on a well-formed graph.

Examples
--------
>>> from ssbg.problem import MathProblemGraph
>>> g = MathProblemGraph.from_dict({
...     "entities": ["Ann"],
...     "initial_state": [{"entity": "Ann", "quantity": {"value": 3, "unit": "hours"}}],
...     "operations": [{"actor": "Ann", "kind": "apply_rate",
...                     "operand": {"value": 12, "numerator_unit": "dollars", "denominator_unit": "hours"}}],
...     "unknown": {"entity": "Ann", "unit": "dollars"}})
>>> bg = bind_math_problem_graph(g)
>>> [(e.lhs_symbol_id, e.admissibility_status, e.unit_proof) for e in bg.equations]
[('op_000_result', 'admitted', 'apply_rate: [money/time,time] -> money')]
>>> (bg.unknowns[0].target_status, bg.unknowns[0].question_form)
('bound', 'count')
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NamedTuple

from ssbg.admissibility import EquationStamper
from ssbg.allocation import slugify
from ssbg.errors import ProblemGraphError, UnitAlgebraError
from ssbg.model import (
    STATE_INDEX_INITIAL,
    STATE_INDEX_TERMINAL,
    BoundEquation,
    BoundFact,
    BoundUnknown,
    SemanticSymbolicBindingGraph,
    SourceSpanLink,
    SymbolBinding,
)
from ssbg.problem import (
    Comparison,
    FractionPortion,
    MathProblemGraph,
    Operation,
    PartitionChunk,
    Quantity,
    Rate,
)
from ssbg.question import question_form_for, reconcile_target
from ssbg.units import UnitPack, default_pack, normalize_unit_text

__all__ = ["bind_math_problem_graph", "holding_key"]

INTRODUCED_BY = "ssbg.adapter.bind_math_problem_graph"


def _number_text(value: float) -> str:
    return repr(value)


def holding_key(unit: str, pack: UnitPack) -> str:
    """The key under which a holding in ``unit`` is threaded.

    A measure (money, time, length, ...) is one holding whatever its unit: the key
    is its dimension (``[money]`` for dollars and cents).  A count noun keeps its
    pack lemma (``boxes`` and ``children`` are different holdings); otherwise the
    normalized text, naively singularized (``apples`` -> ``apple``) so that an
    unknown unit is still one holding.  A unit that is no text, or a pack that
    is no :class:`~ssbg.units.UnitPack`, refuses (``UnitAlgebraError``).
    """
    if type(unit) is not str or not isinstance(pack, UnitPack):
        what, value = ("unit", unit) if type(unit) is not str else ("pack", pack)
        raise UnitAlgebraError(
            f"malformed_unit: holding_key needs a unit text and a UnitPack (got {type(value).__name__} {what})",
            reason="malformed_unit",
            path=what,
            detail=repr(value)[:80],
        )
    return _holding_key(unit, pack)


@functools.lru_cache(maxsize=1 << 14)
def _holding_key(unit: str, pack: UnitPack) -> str:
    try:
        resolved = pack.resolve(unit)
    except UnitAlgebraError:
        resolved = None
    if resolved is not None:
        dims = resolved.dimension
        if dims.count == 0 and not dims.is_dimensionless:
            return f"[{dims.to_canonical_string()}]"  # one holding of money, of time, ... whatever the unit
        return resolved.lemma
    else:
        key = normalize_unit_text(unit)
        for suffix, repl in (("ies", "y"), ("ches", "ch"), ("shes", "sh"), ("xes", "x"), ("ses", "s"), ("s", "")):
            if key.endswith(suffix) and len(key) > len(suffix) + 1 and not key.endswith("ss"):
                return key[: -len(suffix)] + repl
        return key


def _role_for_unit(unit: str, pack: UnitPack) -> str:
    try:
        resolved = pack.resolve(unit)
    except UnitAlgebraError:
        return "quantity"
    if resolved.is_rate:
        return "rate"
    dims = resolved.dimension.as_dict()
    if dims == {"time": 1}:
        return "duration"
    if dims == {"count": 1}:
        return "count"
    return "quantity"


@dataclass
class _Holding:
    symbol_id: str
    unit: str
    writer_kind: str | None = None  # kind of the equation that last wrote it
    writer_index: int | None = None


@dataclass
class _Builder:
    """Mutable scratch state of one binding run (never escapes the adapter)."""

    graph: MathProblemGraph
    pack: UnitPack
    source_id: str
    symbols: dict[str, SymbolBinding] = field(default_factory=dict)
    facts: list[BoundFact] = field(default_factory=list)
    equations: list[BoundEquation] = field(default_factory=list)
    entity_ids: dict[str, str] = field(default_factory=dict)
    holdings: dict[tuple[str, str], _Holding] = field(default_factory=dict)
    latest: dict[str, tuple[str, str]] = field(default_factory=dict)  # entity -> last written key
    keys: dict[str, str] = field(default_factory=dict)  # unit text -> holding key (memo for this run)
    spans: dict[str, SourceSpanLink] = field(default_factory=dict)  # path -> span (one per element)
    stamper: EquationStamper | None = None

    def span(self, path: str, text: str) -> SourceSpanLink:
        cached = self.spans.get(path)
        if cached is None:
            text = text if text else path
            cached = self.spans[path] = SourceSpanLink(f"{self.source_id}:{path}", 0, len(text), text)
        return cached

    def checker(self) -> EquationStamper:
        if self.stamper is None:
            self.stamper = EquationStamper(self.symbols, self.pack)
        return self.stamper

    def add_symbol(self, symbol: SymbolBinding) -> str:
        self.symbols[symbol.symbol_id] = symbol
        return symbol.symbol_id

    def literal(self, i: int, suffix: str, value: float, unit: str | None, role: str, path: str, text: str) -> str:
        sid = f"op_{i:03d}__{suffix}"
        span = self.span(path, text)
        self.add_symbol(SymbolBinding(sid, f"{suffix} of operation {i}", role, span, INTRODUCED_BY, unit=unit))
        self.facts.append(BoundFact(sid, _number_text(value), span, unit))
        return sid

    def key(self, unit: str) -> str:
        cached = self.keys.get(unit)
        if cached is None:
            cached = self.keys[unit] = holding_key(unit, self.pack)
        return cached

    def holding(self, entity: str, unit: str) -> _Holding | None:
        return self.holdings.get((entity, self.key(unit)))

    def latest_holding(self, entity: str) -> _Holding | None:
        key = self.latest.get(entity)
        return None if key is None else self.holdings[key]

    def write(self, entity: str, unit: str, sid: str, kind: str | None, index: int | None) -> None:
        key = (entity, self.key(unit))
        self.holdings[key] = _Holding(sid, unit, kind, index)
        self.latest[entity] = key


def _entity_symbols(b: _Builder) -> None:
    used: set[str] = set()
    for i, entity in enumerate(b.graph.entities):
        slug = slugify(entity) or f"e{i:03d}"
        sid = f"entity_{slug}"
        n = 1
        while sid in used:
            sid = f"entity_{slug}_{n:03d}"
            n += 1
        used.add(sid)
        b.entity_ids[entity] = sid
        b.add_symbol(
            SymbolBinding(sid, entity, "entity", b.span(f"$.entities[{i}]", entity), INTRODUCED_BY, entity=entity)
        )


def _initial_symbols(b: _Builder) -> None:
    for i, possession in enumerate(b.graph.initial_state):
        entity, q = possession.entity, possession.quantity
        existing = b.holding(entity, q.unit)
        if existing is not None and existing.unit == q.unit:
            continue  # the same possession listed twice (equal values; contradictions are refused earlier)
        unit_slug = slugify(b.key(q.unit)) or "unit"
        owner = b.entity_ids[entity].removeprefix("entity_")
        sid = f"t0_{owner}_{unit_slug}"
        n = 1
        while sid in b.symbols:
            sid = f"t0_{owner}_{unit_slug}_{n:03d}"
            n += 1
        path = f"$.initial_state[{i}]"
        span = b.span(path, f"{entity} has {_number_text(q.value)} {q.unit}")
        b.add_symbol(
            SymbolBinding(
                sid,
                f"{entity}'s {q.unit} (initially)",
                _role_for_unit(q.unit, b.pack),
                span,
                INTRODUCED_BY,
                entity=entity,
                unit=q.unit,
            )
        )
        b.facts.append(BoundFact(sid, _number_text(q.value), span, q.unit))
        if existing is None:
            b.write(entity, q.unit, sid, None, None)
            continue
        # A second possession of the same measure ("2 hours and 30 minutes"): the
        # holding is their sum, in the first possession's unit; nothing is dropped.
        total = f"{sid}_total"
        b.add_symbol(
            SymbolBinding(
                total,
                f"{entity}'s {existing.unit} in all (initially)",
                "total",
                span,
                INTRODUCED_BY,
                entity=entity,
                unit=existing.unit,
            )
        )
        b.equations.append(
            b.checker().stamp(total, f"{existing.symbol_id} + {sid}", (existing.symbol_id, sid), "add", span)
        )
        b.write(entity, existing.unit, total, None, None)


def _describe(op: Operation) -> str:
    o = op.operand
    if isinstance(o, Quantity):
        tail = f" to {op.target}" if op.target else ""
        return f"{op.actor} {op.kind} {_number_text(o.value)} {o.unit}{tail}"
    if isinstance(o, Rate):
        return f"{op.actor} {op.kind} {_number_text(o.value)} {o.numerator_unit} per {o.denominator_unit}"
    if isinstance(o, PartitionChunk):
        return f"{op.actor} {op.kind} into {o.result_unit} of {_number_text(o.value)} {o.unit}"
    if isinstance(o, FractionPortion):
        return f"{op.actor} {op.kind} {o.numerator}/{o.denominator} of {o.referent}"
    amount = f"{_number_text(o.delta.value)} {o.delta.unit}" if o.delta else _number_text(o.factor or 0)
    return f"{op.actor} has {amount} {o.direction} than {o.reference_actor}"


class _Step(NamedTuple):
    """What an operation's kind makes of it: the result's right-hand side, the symbols it reads, and
    the unit of the holding it writes (None: it writes none)."""

    rhs: str
    deps: list[str]
    write_unit: str | None


class _At(NamedTuple):
    """Where an operation stands: its index ``i``, its JSON path and the text that describes it."""

    i: int
    path: str
    text: str


def _deps(*symbols: str | None) -> list[str]:
    return [s for s in symbols if s is not None]


def _holding_id(h: _Holding | None) -> str | None:
    return None if h is None else h.symbol_id


def _unknown_to(pack: UnitPack, unit: str) -> bool:
    return isinstance(pack.lookup(unit), str)


def _holding_or_latest(b: _Builder, entity: str, unit: str) -> _Holding | None:
    """The entity's holding of ``unit``'s measure; when it has none and the pack does not know ``unit`` or the
    unit of the entity's latest holding, that latest holding.

    A unit the pack does not know (``hourz``) matches no holding of the measure meant (``hours``): taking the
    latest holding lets the check refuse the equation as ``unknown_unit``, naming the unit, where a missing
    operand would refuse it as ``operand_arity`` and name nothing (ADR 0020).
    """
    found = b.holding(entity, unit)
    if found is not None:
        return found
    latest = b.latest_holding(entity)
    if latest is not None and (_unknown_to(b.pack, unit) or _unknown_to(b.pack, latest.unit)):
        return latest
    return None


def _additive_step(b: _Builder, op: Operation, o: Quantity, at: _At) -> _Step:
    """add / subtract / transfer: the actor's holding of the operand's measure plus or minus it."""
    suffix = {"add": "addend", "subtract": "subtrahend", "transfer": "amount"}[op.kind]
    lit = b.literal(at.i, suffix, o.value, o.unit, "quantity", at.path, at.text)
    state = _holding_id(b.holding(op.actor, o.unit))
    return _Step(f"{state or '0'} {'+' if op.kind == 'add' else '-'} {lit}", _deps(state, lit), o.unit)


def _scaling_step(b: _Builder, op: Operation, o: Quantity, at: _At) -> _Step:
    """multiply / divide: the actor's latest holding scaled; dividing by a measure makes a per-unit holding."""
    multiply = op.kind == "multiply"
    lit = b.literal(at.i, "multiplicand" if multiply else "divisor", o.value, o.unit, "quantity", at.path, at.text)
    latest = b.latest_holding(op.actor)
    state = _holding_id(latest)
    write_unit = None if latest is None else latest.unit
    if not multiply and latest is not None and _has_dimension(o.unit, b.pack):
        # "60 dollars among 4 people", "120 miles in 2 hours": a new per-unit holding.
        write_unit = _per(latest.unit, o.unit, b.pack)
    return _Step(f"{state or '1'} {'*' if multiply else '/'} {lit}", _deps(state, lit), write_unit)


def _rate_step(b: _Builder, op: Operation, o: Rate, at: _At) -> _Step:
    """apply_rate: the rate times the actor's holding of its denominator."""
    lit = b.literal(at.i, "rate", o.value, _per(o.numerator_unit, o.denominator_unit, b.pack), "rate", at.path,
                    at.text)
    state = _holding_id(_holding_or_latest(b, op.actor, o.denominator_unit))
    return _Step(f"{lit} * {state or '?'}", _deps(state, lit), o.numerator_unit)


def _partition_step(b: _Builder, op: Operation, o: PartitionChunk, at: _At) -> _Step:
    """unit_partition: the actor's holding divided into chunks of the operand's size."""
    lit = b.literal(at.i, "chunk", o.value, _per(o.unit, o.result_unit, b.pack), "rate", at.path, at.text)
    state = _holding_id(_holding_or_latest(b, op.actor, o.unit))
    return _Step(f"{state or '?'} / {lit}", _deps(state, lit), o.result_unit)


def _fraction_step(b: _Builder, op: Operation, o: FractionPortion, at: _At) -> _Step:
    """fraction_portion: a fraction of the actor's latest holding."""
    lit = b.literal(at.i, "fraction", o.numerator / o.denominator, None, "ratio", at.path, at.text)
    latest = b.latest_holding(op.actor)
    state = _holding_id(latest)
    return _Step(f"{lit} * {state or '?'}", _deps(state, lit), None if latest is None else latest.unit)


def _additive_comparison_step(b: _Builder, op: Operation, o: Comparison, at: _At) -> _Step:
    """compare_additive: the reference's holding of the delta's measure plus or minus the delta."""
    delta = o.delta
    if delta is None:  # pragma: no cover - Operation validated an additive comparison's delta
        raise ProblemGraphError("an additive comparison needs a delta", reason="missing_field", path=at.path)
    lit = b.literal(at.i, "delta", delta.value, delta.unit, "difference", at.path, at.text)
    state = _holding_id(_holding_or_latest(b, o.reference_actor, delta.unit))
    return _Step(f"{state or '0'} {'+' if o.direction == 'more' else '-'} {lit}", _deps(state, lit), delta.unit)


def _multiplicative_comparison_step(b: _Builder, op: Operation, o: Comparison, at: _At) -> _Step:
    """compare_multiplicative: a factor times the reference's latest holding."""
    lit = b.literal(at.i, "factor", o.factor or 0.0, None, "ratio", at.path, at.text)
    ref = b.latest_holding(o.reference_actor)
    state = _holding_id(ref)
    return _Step(f"{lit} * {state or '?'}", _deps(state, lit), None if ref is None else ref.unit)


# kind -> (what the kind makes of the operation, the role of its result).  Operation has checked that
# the operand is the kind's type (problem.OPERAND_TYPES), so each rule receives the operand it reads.
_OPERATION_RULES: Mapping[str, tuple[Callable[[_Builder, Operation, Any, _At], _Step], str]] = MappingProxyType(
    {
        "add": (_additive_step, "total"),
        "subtract": (_additive_step, "difference"),
        "transfer": (_additive_step, "quantity"),
        "multiply": (_scaling_step, "quantity"),
        "divide": (_scaling_step, "quantity"),
        "apply_rate": (_rate_step, "total"),
        "compare_additive": (_additive_comparison_step, "quantity"),
        "compare_multiplicative": (_multiplicative_comparison_step, "quantity"),
        "unit_partition": (_partition_step, "count"),
        "fraction_portion": (_fraction_step, "quantity"),
    }
)


def _operation(b: _Builder, i: int, op: Operation) -> None:
    stamper = b.checker()
    path = f"$.operations[{i}]"
    text = _describe(op)
    span = b.span(path, text)
    kind, actor = op.kind, op.actor
    if kind not in _OPERATION_RULES:  # pragma: no cover - Operation validated the kind
        raise ProblemGraphError(f"unknown operation kind {kind!r}", reason="unknown_operation", path=f"{path}.kind")
    rule, role = _OPERATION_RULES[kind]
    step = rule(b, op, op.operand, _At(i, path, text))
    result = f"op_{i:03d}_result"
    b.add_symbol(
        SymbolBinding(
            result,
            f"{actor}'s {step.write_unit or 'holding'} after operation {i}",
            role,
            span,
            INTRODUCED_BY,
            entity=actor,
            unit=step.write_unit,
        )
    )
    b.equations.append(stamper.stamp(result, step.rhs, step.deps, kind, span))
    if step.write_unit is not None:
        b.write(actor, step.write_unit, result, kind, i)
    if kind == "transfer":
        _received(b, i, op, span)


def _received(b: _Builder, i: int, op: Operation, span: SourceSpanLink) -> None:
    """The second equation of a transfer: the target's holding plus the amount."""
    o, target = op.operand, op.target
    if not isinstance(o, Quantity) or target is None:  # pragma: no cover - Operation validated a transfer
        raise ProblemGraphError("a transfer needs a quantity and a target", reason="missing_field", path="target")
    received = f"op_{i:03d}_received"
    target_state = _holding_id(b.holding(target, o.unit))
    lit = f"op_{i:03d}__amount"
    b.add_symbol(
        SymbolBinding(
            received,
            f"{target}'s {o.unit} after operation {i}",
            "total",
            span,
            INTRODUCED_BY,
            entity=target,
            unit=o.unit,
        )
    )
    deps = _deps(target_state, lit)
    b.equations.append(b.checker().stamp(received, f"{target_state or '0'} + {lit}", deps, op.kind, span))
    b.write(target, o.unit, received, "add", i)


def _unknown(b: _Builder) -> BoundUnknown:
    u = b.graph.unknown
    stamper = b.checker()
    key = b.key(u.unit)
    who = b.entity_ids[u.entity].removeprefix("entity_") if u.entity is not None else "total"
    sid = f"unknown_{who}_{slugify(key) or 'unit'}"
    label = f"how many {u.unit} does {u.entity} have?" if u.entity else f"how many {u.unit} in total?"
    span = b.span("$.unknown", label)
    b.add_symbol(SymbolBinding(sid, label, "unknown", span, INTRODUCED_BY, entity=u.entity, unit=u.unit))
    try:
        expected = b.pack.resolve(u.unit)
        expected_is_rate = expected.is_rate
        dimension = expected.dimension
    except UnitAlgebraError:
        expected_is_rate, dimension = False, None
    holders = [(e, h) for (e, k), h in b.holdings.items() if k == key and (u.entity is None or e == u.entity)]
    ambiguous: tuple[str, ...] = ()
    if not holders and dimension is not None:
        same_dim = [
            (e, h)
            for (e, _k), h in b.holdings.items()
            if (u.entity is None or e == u.entity) and _dimension_of(h.unit, b.pack) == dimension
        ]
        if len(same_dim) == 1:
            holders = same_dim
        elif len(same_dim) > 1:
            ambiguous = tuple(sorted(h.symbol_id for _e, h in same_dim))
    resolved_by: str | None = None
    kind: str | None = None
    is_total = False
    state_index = STATE_INDEX_INITIAL
    if len(holders) == 1:
        h = holders[0][1]
        resolved_by, kind = h.symbol_id, h.writer_kind
        state_index = STATE_INDEX_INITIAL if h.writer_index is None else STATE_INDEX_TERMINAL
    elif len(holders) > 1:
        # "How many in total?": the unknown is the sum of the holders' current symbols.
        deps = sorted(h.symbol_id for _e, h in holders)
        b.equations.append(stamper.stamp(sid, " + ".join(deps), deps, "add", span))
        resolved_by, kind, is_total = sid, "add", True
        state_index = STATE_INDEX_TERMINAL
    refused = resolved_by is not None and resolved_by in stamper.root_of
    admitted = stamper.admitted.get(resolved_by) if resolved_by is not None else None
    if admitted is None and resolved_by is not None and not refused:
        # An initial fact: its unit is its own declared unit.
        sym = b.symbols[resolved_by]
        try:
            admitted = b.pack.resolve(sym.unit).dimension if sym.unit else None
        except UnitAlgebraError:
            refused = True
    form = question_form_for(kind, is_total=is_total, expected_is_rate=expected_is_rate)
    return reconcile_target(
        sid,
        span,
        u.unit,
        resolved_by=resolved_by,
        admitted_unit=admitted,
        refused_upstream=refused,
        state_index=state_index,
        question_form=form,
        ambiguous=ambiguous,
        pack=b.pack,
    )


def _per(numerator: str, denominator: str, pack: UnitPack) -> str:
    """The composite unit id ``<num>_per_<den>``, the denominator in its pack lemma when it has one."""
    with contextlib.suppress(UnitAlgebraError):
        denominator = pack.resolve(denominator).lemma
    return f"{numerator}_per_{denominator}"


def _has_dimension(unit: str, pack: UnitPack) -> bool:
    try:
        return not pack.resolve(unit).dimension.is_dimensionless
    except UnitAlgebraError:
        return False


def _dimension_of(unit: str, pack: UnitPack) -> object:
    try:
        return pack.resolve(unit).dimension
    except UnitAlgebraError:
        return None


def bind_math_problem_graph(graph: MathProblemGraph, *, pack: UnitPack | None = None) -> SemanticSymbolicBindingGraph:
    """Bind a problem: symbols, facts, one checked equation per operation, the question target.

    ``transfer`` binds two equations (the giver's and the receiver's new
    holdings); a question about the total of several holders binds one
    summing equation.  Pure and deterministic.

    Raises
    ------
    ProblemGraphError
        When ``graph`` is not a ``MathProblemGraph`` (malformed input never
        reaches the binding step: build it with ``MathProblemGraph.from_dict``).
    """
    if not isinstance(graph, MathProblemGraph):
        raise ProblemGraphError(
            f"bind_math_problem_graph needs a MathProblemGraph (got {type(graph).__name__})",
            reason="wrong_type",
            path="$",
        )
    p = default_pack() if pack is None else pack
    b = _Builder(graph, p, graph.problem_id or "mpg")
    _entity_symbols(b)
    _initial_symbols(b)
    for i, op in enumerate(graph.operations):
        _operation(b, i, op)
    unknown = _unknown(b)
    return SemanticSymbolicBindingGraph(
        symbols=tuple(b.symbols.values()),
        facts=tuple(b.facts),
        equations=tuple(b.equations),
        unknowns=(unknown,),
        constraints=(),
        provenance=f"{INTRODUCED_BY} pack={p.name}@{p.version} problem={graph.problem_id or '-'}",
    )
