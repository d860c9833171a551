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

import functools
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from ssbg.admissibility import _BindingStamper
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
    _prebuilt_fact,
    _prebuilt_graph,
    _prebuilt_span,
    _prebuilt_symbol,
    _prebuilt_unknown,
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
from ssbg.question import question_form, reconcile_resolved
from ssbg.units import ResolvedUnit, UnitPack, UnitVector, default_pack, normalize_unit_text

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


_TIME = UnitVector(time=1)
_COUNT = UnitVector(count=1)


def _role_for_unit(resolved: ResolvedUnit | None) -> str:
    """The role of a symbol holding a unit: a rate, a duration, a count, or a quantity (also when the pack
    does not resolve it)."""
    if resolved is None:
        return "quantity"
    if resolved.is_rate:
        return "rate"
    dims = resolved.dimension
    if dims == _TIME:
        return "duration"
    if dims == _COUNT:
        return "count"
    return "quantity"


class _UnitReading(NamedTuple):
    """What the adapter reads of a unit text: its holding key, the role of a symbol in it, and what the pack
    resolves it to (None: not in the pack).  One per distinct (pack, text), memoized in the pack."""

    key: str
    role: str
    resolved: ResolvedUnit | None


_UNIT_READINGS = "ssbg.adapter.units"  # the name of the unit-reading memo of each pack (UnitPack.memo)


def _read_unit(unit: str, pack: UnitPack) -> _UnitReading:
    hit = pack.lookup(unit)
    resolved = hit if isinstance(hit, ResolvedUnit) else None
    return _UnitReading(holding_key(unit, pack), _role_for_unit(resolved), resolved)


_Holding = tuple[str, str, str | None, int | None]
"""A holding's current symbol, its unit, the kind of the equation that last wrote it and that operation's index
(a plain tuple: one is built per write)."""


class _OpLabels(NamedTuple):
    """The texts that name operation ``i``: its JSON path, the id prefix of its symbols (``op_007``) and the
    ends of its symbols' names (`` of operation 7``, `` after operation 7``)."""

    path: str
    prefix: str
    of: str
    after: str


@functools.lru_cache(maxsize=4096)
def _element_path(collection: str, i: int) -> str:
    """``$.<collection>[<i>]`` (memoized: formatting the index costs more than the lookup)."""
    return f"$.{collection}[{i}]"


@functools.lru_cache(maxsize=1024)
def _op_labels(i: int) -> _OpLabels:
    """Memoized: the same for every problem, and ``{i:03d}`` formatting costs more than the lookup."""
    return _OpLabels(f"$.operations[{i}]", f"op_{i:03d}", f" of operation {i}", f" after operation {i}")


class _Builder:
    """Mutable scratch state of one binding run (never escapes the adapter)."""

    __slots__ = ("entity_ids", "equations", "facts", "graph", "holdings", "latest", "pack", "source_id", "stamper",
                 "symbols", "units")  # fmt: skip

    def __init__(self, graph: MathProblemGraph, pack: UnitPack, source_id: str) -> None:
        self.graph = graph
        self.pack = pack
        self.source_id = source_id
        self.symbols: dict[str, SymbolBinding] = {}
        self.facts: list[BoundFact] = []
        self.equations: list[BoundEquation] = []
        self.entity_ids: dict[str, str] = {}
        self.holdings: dict[tuple[str, str], _Holding] = {}
        self.latest: dict[str, tuple[str, str]] = {}  # entity -> last written key
        self.units: dict[str, _UnitReading] = pack.memo(_UNIT_READINGS)  # unit text -> reading, for every run
        self.stamper = _BindingStamper(self.symbols, pack)

    def span(self, path: str, text: str) -> SourceSpanLink:
        """The span of one element of the problem (each element's path is its own source)."""
        text = text or path
        return _prebuilt_span(f"{self.source_id}:{path}", 0, len(text), text)

    def unit(self, text: str) -> _UnitReading:
        return self.units.get(text) or self._read(text)  # a reading is a non-empty tuple

    def _read(self, text: str) -> _UnitReading:
        if len(self.units) >= _MEMO_LIMIT:
            self.units.clear()
        reading = self.units[text] = _read_unit(text, self.pack)
        return reading

    def literal(self, i: int, suffix: str, value: float, unit: str | None, role: str, span: SourceSpanLink) -> str:
        """The symbol and fact of operation ``i``'s number: ``op_<i>__<suffix>``."""
        labels = _op_labels(i)
        sid = f"{labels.prefix}__{suffix}"
        self.symbols[sid] = _prebuilt_symbol(sid, suffix + labels.of, role, span, INTRODUCED_BY, None, unit)
        self.facts.append(_prebuilt_fact(sid, repr(value), span, unit))  # repr: _number_text
        return sid

    def holding(self, entity: str, unit: str) -> str | None:
        """The current symbol of ``entity``'s holding of ``unit``'s measure, if it has one."""
        h = self.holdings.get((entity, (self.units.get(unit) or self._read(unit)).key))
        return None if h is None else h[0]

    def holding_or_latest(self, entity: str, unit: str) -> str | None:
        """The entity's holding of ``unit``'s measure; when it has none and the pack does not know ``unit`` or
        the unit of the entity's latest holding, that latest holding.

        A unit the pack does not know (``hourz``) matches no holding of the measure meant (``hours``): taking
        the latest holding lets the check refuse the equation as ``unknown_unit``, naming the unit, where a
        missing operand would refuse it as ``operand_arity`` and name nothing (ADR 0020).
        """
        found = self.holding(entity, unit)
        if found is not None:
            return found
        latest = self.latest_holding(entity)
        if latest is not None and (self.unit(unit).resolved is None or self.unit(latest[1]).resolved is None):
            return latest[0]
        return None

    def latest_holding(self, entity: str) -> _Holding | None:
        key = self.latest.get(entity)
        return None if key is None else self.holdings[key]

    def write(self, entity: str, unit: str, sid: str, kind: str | None, index: int | None) -> None:
        key = (entity, (self.units.get(unit) or self._read(unit)).key)
        self.holdings[key] = (sid, unit, kind, index)
        self.latest[entity] = key

    def per(self, numerator: str, denominator: str) -> str:
        """The composite unit id ``<num>_per_<den>``, the denominator in its pack lemma when it has one."""
        resolved = self.unit(denominator).resolved
        return f"{numerator}_per_{denominator if resolved is None else resolved.lemma}"

    def has_dimension(self, unit: str) -> bool:
        resolved = self.unit(unit).resolved
        return resolved is not None and not resolved.dimension.is_dimensionless


_MEMO_LIMIT = 1 << 14  # readings a pack's memo holds before it starts afresh (bounded memory over any corpus)


def _entity_symbols(b: _Builder) -> None:
    used: set[str] = set()
    symbols = b.symbols
    for i, entity in enumerate(b.graph.entities):
        slug = slugify(entity) or f"e{i:03d}"
        sid = f"entity_{slug}"
        n = 1
        while sid in used:
            sid = f"entity_{slug}_{n:03d}"
            n += 1
        used.add(sid)
        b.entity_ids[entity] = sid
        span = b.span(_element_path("entities", i), entity)
        symbols[sid] = _prebuilt_symbol(sid, entity, "entity", span, INTRODUCED_BY, entity, None)


def _initial_symbols(b: _Builder) -> None:
    symbols, units = b.symbols, b.units
    for i, possession in enumerate(b.graph.initial_state):
        entity, q = possession.entity, possession.quantity
        unit = q.unit
        reading = units.get(unit) or b._read(unit)
        existing = b.holdings.get((entity, reading.key))
        if existing is not None and existing[1] == unit:
            continue  # the same possession listed twice (equal values; contradictions are refused earlier)
        unit_slug = slugify(reading.key) or "unit"
        owner = b.entity_ids[entity].removeprefix("entity_")
        sid = f"t0_{owner}_{unit_slug}"
        n = 1
        while sid in symbols:
            sid = f"t0_{owner}_{unit_slug}_{n:03d}"
            n += 1
        value = repr(q.value)  # _number_text
        span = b.span(_element_path("initial_state", i), f"{entity} has {value} {unit}")
        symbols[sid] = _prebuilt_symbol(
            sid, f"{entity}'s {unit} (initially)", reading.role, span, INTRODUCED_BY, entity, unit
        )
        b.facts.append(_prebuilt_fact(sid, value, span, unit))
        if existing is None:
            b.write(entity, unit, sid, None, None)
            continue
        # A second possession of the same measure ("2 hours and 30 minutes"): the
        # holding is their sum, in the first possession's unit; nothing is dropped.
        total = f"{sid}_total"
        first, first_unit = existing[0], existing[1]
        symbols[total] = _prebuilt_symbol(
            total, f"{entity}'s {first_unit} in all (initially)", "total", span, INTRODUCED_BY, entity, first_unit
        )
        b.equations.append(b.stamper.stamp(total, f"{first} + {sid}", (first, sid), "add", span))
        b.write(entity, first_unit, total, None, None)


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


Step = tuple[str, list[str], str | None]
"""What an operation's kind makes of it: the result's right-hand side, the symbols it reads (the holding it
starts from, when there is one, and its literal), and the unit of the holding it writes (None: it writes
none).  Each rule receives the builder, the operation, its operand, its index and its span."""


def _holding_id(h: _Holding | None) -> str | None:
    return None if h is None else h[0]


_ADDITIVE_SUFFIX: Mapping[str, str] = MappingProxyType({"add": "addend", "subtract": "subtrahend",
                                                         "transfer": "amount"})  # fmt: skip


def _additive_step(b: _Builder, op: Operation, o: Quantity, i: int, span: SourceSpanLink) -> Step:
    """add / subtract / transfer: the actor's holding of the operand's measure plus or minus it."""
    lit = b.literal(i, _ADDITIVE_SUFFIX[op.kind], o.value, o.unit, "quantity", span)
    state = b.holding(op.actor, o.unit)
    if state is None:
        return f"0 {'+' if op.kind == 'add' else '-'} {lit}", [lit], o.unit
    return f"{state} {'+' if op.kind == 'add' else '-'} {lit}", [state, lit], o.unit


def _scaling_step(b: _Builder, op: Operation, o: Quantity, i: int, span: SourceSpanLink) -> Step:
    """multiply / divide: the actor's latest holding scaled; dividing by a measure makes a per-unit holding."""
    multiply = op.kind == "multiply"
    lit = b.literal(i, "multiplicand" if multiply else "divisor", o.value, o.unit, "quantity", span)
    latest = b.latest_holding(op.actor)
    state = _holding_id(latest)
    write_unit = None if latest is None else latest[1]
    if not multiply and latest is not None and b.has_dimension(o.unit):
        # "60 dollars among 4 people", "120 miles in 2 hours": a new per-unit holding.
        write_unit = b.per(latest[1], o.unit)
    return f"{state or '1'} {'*' if multiply else '/'} {lit}", [lit] if state is None else [state, lit], write_unit


def _rate_step(b: _Builder, op: Operation, o: Rate, i: int, span: SourceSpanLink) -> Step:
    """apply_rate: the rate times the actor's holding of its denominator."""
    lit = b.literal(i, "rate", o.value, b.per(o.numerator_unit, o.denominator_unit), "rate", span)
    state = b.holding_or_latest(op.actor, o.denominator_unit)
    return f"{lit} * {state or '?'}", [lit] if state is None else [state, lit], o.numerator_unit


def _partition_step(b: _Builder, op: Operation, o: PartitionChunk, i: int, span: SourceSpanLink) -> Step:
    """unit_partition: the actor's holding divided into chunks of the operand's size."""
    lit = b.literal(i, "chunk", o.value, b.per(o.unit, o.result_unit), "rate", span)
    state = b.holding_or_latest(op.actor, o.unit)
    return f"{state or '?'} / {lit}", [lit] if state is None else [state, lit], o.result_unit


def _fraction_step(b: _Builder, op: Operation, o: FractionPortion, i: int, span: SourceSpanLink) -> Step:
    """fraction_portion: a fraction of the actor's latest holding."""
    lit = b.literal(i, "fraction", o.numerator / o.denominator, None, "ratio", span)
    latest = b.latest_holding(op.actor)
    state = _holding_id(latest)
    return f"{lit} * {state or '?'}", [lit] if state is None else [state, lit], None if latest is None else latest[1]


def _additive_comparison_step(b: _Builder, op: Operation, o: Comparison, i: int, span: SourceSpanLink) -> Step:
    """compare_additive: the reference's holding of the delta's measure plus or minus the delta."""
    delta = o.delta
    if delta is None:  # pragma: no cover - Operation validated an additive comparison's delta
        raise ProblemGraphError("an additive comparison needs a delta", reason="missing_field", path="operand")
    lit = b.literal(i, "delta", delta.value, delta.unit, "difference", span)
    state = b.holding_or_latest(o.reference_actor, delta.unit)
    rhs = f"{state or '0'} {'+' if o.direction == 'more' else '-'} {lit}"
    return rhs, [lit] if state is None else [state, lit], delta.unit


def _multiplicative_comparison_step(
    b: _Builder, op: Operation, o: Comparison, i: int, span: SourceSpanLink
) -> Step:
    """compare_multiplicative: a factor times the reference's latest holding."""
    lit = b.literal(i, "factor", o.factor or 0.0, None, "ratio", span)
    ref = b.latest_holding(o.reference_actor)
    state = _holding_id(ref)
    return f"{lit} * {state or '?'}", [lit] if state is None else [state, lit], None if ref is None else ref[1]


# kind -> (what the kind makes of the operation, the role of its result).  Operation has checked that
# the operand is the kind's type (problem.OPERAND_TYPES), so each rule receives the operand it reads.
_OPERATION_RULES: Mapping[str, tuple[Callable[[_Builder, Operation, Any, int, SourceSpanLink], Step], str]] = (
    MappingProxyType(
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
)


def _operation(b: _Builder, i: int, op: Operation) -> None:
    labels = _op_labels(i)
    span = b.span(labels.path, _describe(op))
    kind, actor = op.kind, op.actor
    if kind not in _OPERATION_RULES:  # pragma: no cover - Operation validated the kind
        raise ProblemGraphError(f"unknown operation kind {kind!r}", reason="unknown_operation", path="kind")
    rule, role = _OPERATION_RULES[kind]
    rhs, deps, write_unit = rule(b, op, op.operand, i, span)
    result = labels.prefix + "_result"
    name = f"{actor}'s {write_unit or 'holding'}{labels.after}"
    b.symbols[result] = _prebuilt_symbol(result, name, role, span, INTRODUCED_BY, actor, write_unit)
    b.equations.append(b.stamper.stamp(result, rhs, deps, kind, span))
    if write_unit is not None:
        b.write(actor, write_unit, result, kind, i)
    if kind == "transfer":
        _received(b, i, op, span)


def _received(b: _Builder, i: int, op: Operation, span: SourceSpanLink) -> None:
    """The second equation of a transfer: the target's holding plus the amount."""
    o, target = op.operand, op.target
    if not isinstance(o, Quantity) or target is None:  # pragma: no cover - Operation validated a transfer
        raise ProblemGraphError("a transfer needs a quantity and a target", reason="missing_field", path="target")
    labels = _op_labels(i)
    received = labels.prefix + "_received"
    target_state = b.holding(target, o.unit)
    lit = labels.prefix + "__amount"
    b.symbols[received] = _prebuilt_symbol(
        received, f"{target}'s {o.unit}{labels.after}", "total", span, INTRODUCED_BY, target, o.unit
    )
    deps = [lit] if target_state is None else [target_state, lit]
    b.equations.append(b.stamper.stamp(received, f"{target_state or '0'} + {lit}", deps, op.kind, span))
    b.write(target, o.unit, received, "add", i)


def _unknown(b: _Builder) -> BoundUnknown:
    u = b.graph.unknown
    stamper = b.stamper
    reading = b.unit(u.unit)
    key = reading.key
    who = b.entity_ids[u.entity].removeprefix("entity_") if u.entity is not None else "total"
    sid = f"unknown_{who}_{slugify(key) or 'unit'}"
    label = f"how many {u.unit} does {u.entity} have?" if u.entity else f"how many {u.unit} in total?"
    span = b.span("$.unknown", label)
    b.symbols[sid] = _prebuilt_symbol(sid, label, "unknown", span, INTRODUCED_BY, u.entity, u.unit)
    expected = reading.resolved
    holders = []  # the holdings of the asked-for key (of the asked-for entity, when the question names one)
    for (e, k), h in b.holdings.items():
        if k == key and (u.entity is None or e == u.entity):
            holders.append((e, h))
    ambiguous: tuple[str, ...] = ()
    if not holders and expected is not None:
        dimension = expected.dimension
        same_dim = [
            (e, h)
            for (e, _k), h in b.holdings.items()
            if (u.entity is None or e == u.entity) and _dimension_of(b.unit(h[1])) == dimension
        ]
        if len(same_dim) == 1:
            holders = same_dim
        elif len(same_dim) > 1:
            ambiguous = tuple(sorted(h[0] for _e, h in same_dim))
    resolved_by: str | None = None
    kind: str | None = None
    is_total = False
    state_index = STATE_INDEX_INITIAL
    if len(holders) == 1:
        resolved_by, _unit, kind, writer_index = holders[0][1]
        state_index = STATE_INDEX_INITIAL if writer_index is None else STATE_INDEX_TERMINAL
    elif len(holders) > 1:
        # "How many in total?": the unknown is the sum of the holders' current symbols.
        deps = sorted(h[0] for _e, h in holders)
        b.equations.append(stamper.stamp(sid, " + ".join(deps), deps, "add", span))
        resolved_by, kind, is_total = sid, "add", True
        state_index = STATE_INDEX_TERMINAL
    refused = resolved_by is not None and resolved_by in stamper.root_of
    admitted = stamper.admitted.get(resolved_by) if resolved_by is not None else None
    if admitted is None and resolved_by is not None and not refused:
        # An initial fact: its unit is its own declared unit.
        unit = b.symbols[resolved_by].unit
        if unit:
            declared = b.unit(unit).resolved
            if declared is None:
                refused = True
            else:
                admitted = declared.dimension
    form = question_form(kind, is_total, expected is not None and expected.is_rate)
    return reconcile_resolved(
        sid, span, u.unit, expected, resolved_by, admitted, refused, state_index, form, ambiguous, b.pack.name,
        _prebuilt_unknown,
    )  # fmt: skip


def _dimension_of(reading: _UnitReading) -> UnitVector | None:
    return None if reading.resolved is None else reading.resolved.dimension


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
    return _prebuilt_graph(
        tuple(b.symbols.values()),
        tuple(b.facts),
        tuple(b.equations),
        (unknown,),
        (),
        f"{INTRODUCED_BY} pack={p.citation} problem={graph.problem_id or '-'}",
    )
