"""The binding-graph data model (ADR-0132).

Frozen, slotted dataclasses whose collections are tuples or frozensets.  Every
value validates itself at construction through :func:`_refusal` and refuses
with a typed :class:`~ssbg.errors.BindingGraphError`; nothing is coerced.  The
one exception is the binders' own path (``_prebuilt_*``, ADR 0013's amendment):
values built from fields the binder has validated, guarded by a test that
rebuilds every graph it binds through these constructors.

Examples
--------
>>> span = SourceSpanLink("p1", 0, 5, "Alice")
>>> alice = SymbolBinding("entity_alice", "Alice", "entity", span, "example")
>>> g = SemanticSymbolicBindingGraph((alice,), (), (), (), (), "example")
>>> g.to_canonical_string().splitlines()[1]
'symbol entity_alice name="Alice" role=entity entity=- unit=- span=p1[0:5]"Alice" by="example"'
"""

from __future__ import annotations

import dataclasses
import functools
import json
import keyword
from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, TypeVar

from ssbg.errors import REFUSAL_REASONS, BindingGraphError, shown

__all__ = [
    "ADMISSIBILITY_STATUSES",
    "QUESTION_FORMS",
    "SEMANTIC_ROLES",
    "STATE_INDEX_INITIAL",
    "STATE_INDEX_TERMINAL",
    "TARGET_STATUSES",
    "BoundConstraint",
    "BoundEquation",
    "BoundFact",
    "BoundUnknown",
    "SemanticSymbolicBindingGraph",
    "SourceSpanLink",
    "SymbolBinding",
    "is_symbol_id",
]

SEMANTIC_ROLES: frozenset[str] = frozenset(
    {"entity", "quantity", "rate", "duration", "count", "total", "difference", "ratio", "unknown"}
)
ADMISSIBILITY_STATUSES: frozenset[str] = frozenset({"admitted", "pending", "refused"})
QUESTION_FORMS: frozenset[str] = frozenset({"count", "rate", "total", "difference", "ratio", "identity"})
TARGET_STATUSES: frozenset[str] = frozenset({"bound", "refused", "pending"})
_UNREFUSED: frozenset[str] = frozenset({"admitted", "pending"})
STATE_INDEX_INITIAL = "initial"
STATE_INDEX_TERMINAL = "terminal"
_FIXED_STATE_INDICES: frozenset[str] = frozenset({STATE_INDEX_INITIAL, STATE_INDEX_TERMINAL})
_UNREFUSED_TARGETS: frozenset[str] = frozenset({"bound", "pending"})


def _refusal(reason: str, message: str, *, path: str, detail: object = None) -> BindingGraphError:
    """The one validation helper: build the typed refusal (callers check first, so
    that messages are only formatted on failure)."""
    return BindingGraphError(message, reason=reason, path=path, detail=None if detail is None else repr(detail))


def _nonempty_str(value: object, path: str) -> None:
    if not (isinstance(value, str) and value != ""):
        raise _refusal("invalid_field", f"'{path}' must be a non-empty str (got {shown(value)})", path=path,
                       detail=value)


def _optional_str(value: object, path: str) -> None:
    if value is not None:
        _nonempty_str(value, path)


def is_symbol_id(value: object) -> bool:
    """True when ``value`` is a usable symbol id: a non-keyword Python identifier."""
    return isinstance(value, str) and _is_identifier(value)


_is_str: Callable[[object], bool] = str.__instancecheck__  # isinstance(value, str), as a C callable for map()


@functools.lru_cache(maxsize=1 << 16)
def _is_identifier(value: str) -> bool:
    return value.isidentifier() and not keyword.iskeyword(value)


def _symbol_id(value: object, path: str) -> None:
    _nonempty_str(value, path)
    if not _is_identifier(value):  # _nonempty_str refused non-str values
        raise _refusal(
            "invalid_identifier", f"'{path}' must be a Python identifier (got {shown(value)})", path=path, detail=value
        )


def _instance(value: object, cls: type, path: str) -> None:
    if not (isinstance(value, cls)):
        raise _refusal("invalid_field", f"'{path}' must be a {cls.__name__} (got {type(value).__name__})", path=path)


_Value = TypeVar("_Value")


def _slot_init(cls: type[_Value]) -> type[_Value]:
    """Give a frozen, slotted dataclass the constructor :func:`dataclasses.dataclass` writes for it, with each
    slot filled through its descriptor instead of ``object.__setattr__``.

    Same parameters (names, order, defaults), same order of work: every field is set, then
    ``__post_init__`` validates the value (ADR 0013: no value exists that skipped it).  What changes
    is the cost of a field: the dataclass constructor calls ``object.__setattr__(self, "name", value)``,
    which looks ``name`` up through the class and repacks its arguments on every call; here the slot's
    ``__set__`` is bound once, when the class is made (about a third of a value's construction;
    ADR 0015).  The generated source is small and checked by ``tests/test_model.py``.
    """
    namespace: dict[str, Any] = {}
    params = []
    body = []
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]  # a dataclass, as the decorator order says
        namespace[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        body.append(f"    _set_{f.name}(self, {f.name})")
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body) + "\n    self.__post_init__()\n"
    exec(source, namespace)  # noqa: S102 - source built here from the class's own field names, as dataclasses does
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


def _prebuilt(cls: type[_Value]) -> Callable[..., _Value]:
    """The binders' constructor of ``cls`` from fields they have already validated: no ``__post_init__``
    (ADR 0013's amendment; never for public construction, which always validates).

    Every field is positional and required, in the class's field order.  The value is made as an instance
    of a plain slotted class with the same slots, its fields stored as an ordinary object's are (the
    interpreter's fast slot store, where a frozen class's constructor pays a C call per field), and then
    given its class: ``__class__`` assignment, which CPython allows only between classes of the same
    layout and slots (it refuses otherwise), so the result is a value of ``cls`` field for field.  About a
    third of the validated constructor's cost.  ``tests/test_unchecked_binding.py`` rebuilds every value
    the binders make of the lanes, the hand-written graphs and a corpus sample through the validating
    constructors and finds them equal; that test is the condition of this path.
    """
    names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]  # a dataclass, as the caller says
    if tuple(names) != tuple(getattr(cls, "__slots__", ())):  # pragma: no cover - every model class is slotted
        raise TypeError(f"{cls.__name__}: a prebuilt value needs slots in field order")
    fill = type(f"_{cls.__name__}Fill", (), {"__slots__": tuple(names), "__module__": cls.__module__})
    namespace: dict[str, Any] = {"_fill": fill, "_cls": cls}
    body = "".join(f"    self.{name} = {name}\n" for name in names)
    source = f"def new({', '.join(names)}):\n    self = _fill()\n{body}    self.__class__ = _cls\n    return self\n"
    exec(source, namespace)  # noqa: S102 - source built here from the class's own field names, as _slot_init
    new: Callable[..., _Value] = namespace["new"]
    new.__qualname__ = new.__name__ = f"_prebuilt_{cls.__name__}"
    new.__module__ = cls.__module__
    new.__doc__ = f"A {cls.__name__} from fields a binder has validated (ADR 0013 amendment): no checks."
    return new


def _q(text: str | None) -> str:
    """Quote text for canonical strings: JSON escapes keep one item per line."""
    return "-" if text is None else json.dumps(text, ensure_ascii=False)


@_slot_init
@dataclass(frozen=True, slots=True)
class SourceSpanLink:
    """A half-open span ``[start, end)`` of a source text, with the covered text."""

    source_id: str
    start: int
    end: int
    text: str

    def __post_init__(self) -> None:
        # Fast path for the common, valid value; _validate gives the precise refusal.
        if (
            type(self.source_id) is str
            and self.source_id
            and type(self.start) is int
            and type(self.end) is int
            and 0 <= self.start < self.end
            and type(self.text) is str
            and len(self.text) == self.end - self.start
        ):
            return
        self._validate()

    def _validate(self) -> None:
        _nonempty_str(self.source_id, "source_span.source_id")
        for name in ("start", "end"):
            value = getattr(self, name)
            if not (isinstance(value, int) and not isinstance(value, bool)):
                raise _refusal(
                    "invalid_span",
                    f"'source_span.{name}' must be an int (got {shown(value)})",
                    path=f"source_span.{name}",
                    detail=value,
                )
        if not 0 <= self.start < self.end:
            raise _refusal(
                "invalid_span",
                f"source span must satisfy 0 <= start < end (got [{self.start}, {self.end}))",
                path="source_span",
                detail=(self.start, self.end),
            )
        if not (isinstance(self.text, str) and len(self.text) == self.end - self.start):
            raise _refusal(
                "invalid_span",
                f"source span text must have length end - start = {self.end - self.start} (got {shown(self.text)})",
                path="source_span.text",
                detail=self.text,
            )

    def to_canonical_string(self) -> str:
        return f"{self.source_id}[{self.start}:{self.end}]{_q(self.text)}"


@_slot_init
@dataclass(frozen=True, slots=True)
class SymbolBinding:
    """A symbol: a stable id, a readable name, a role, and the words it came from."""

    symbol_id: str
    name: str
    semantic_role: str
    source_span: SourceSpanLink
    introduced_by: str
    entity: str | None = None
    unit: str | None = None

    def __post_init__(self) -> None:
        # Fast path for the common, valid value; _validate gives the precise refusal.
        if (
            type(self.symbol_id) is str
            and _is_identifier(self.symbol_id)
            and type(self.name) is str
            and self.name
            and type(self.semantic_role) is str
            and self.semantic_role in SEMANTIC_ROLES
            and type(self.source_span) is SourceSpanLink
            and type(self.introduced_by) is str
            and self.introduced_by
            and (self.entity is None or (type(self.entity) is str and self.entity))
            and (self.unit is None or (type(self.unit) is str and self.unit))
        ):
            return
        self._validate()

    def _validate(self) -> None:
        _symbol_id(self.symbol_id, "symbol_id")
        _nonempty_str(self.name, "name")
        if type(self.semantic_role) is not str or self.semantic_role not in SEMANTIC_ROLES:
            raise _refusal(
                "unknown_role",
                f"'semantic_role' must be one of {sorted(SEMANTIC_ROLES)} (got {shown(self.semantic_role)})",
                path="semantic_role",
                detail=self.semantic_role,
            )
        _instance(self.source_span, SourceSpanLink, "source_span")
        _nonempty_str(self.introduced_by, "introduced_by")
        _optional_str(self.entity, "entity")
        _optional_str(self.unit, "unit")

    def to_canonical_string(self) -> str:
        return (
            f"symbol {self.symbol_id} name={_q(self.name)} role={self.semantic_role} "
            f"entity={_q(self.entity)} unit={_q(self.unit)} "
            f"span={self.source_span.to_canonical_string()} by={_q(self.introduced_by)}"
        )


@_slot_init
@dataclass(frozen=True, slots=True)
class BoundFact:
    """``symbol_id = value [unit]`` lifted from language; ``value`` is the number's text."""

    symbol_id: str
    value: str
    source_span: SourceSpanLink
    unit: str | None = None

    def __post_init__(self) -> None:
        # Fast path for the common, valid value; _validate gives the precise refusal.
        if (
            type(self.symbol_id) is str
            and _is_identifier(self.symbol_id)
            and type(self.value) is str
            and self.value
            and type(self.source_span) is SourceSpanLink
            and (self.unit is None or (type(self.unit) is str and self.unit))
        ):
            return
        self._validate()

    def _validate(self) -> None:
        _symbol_id(self.symbol_id, "symbol_id")
        _nonempty_str(self.value, "value")
        _instance(self.source_span, SourceSpanLink, "source_span")
        _optional_str(self.unit, "unit")

    def to_canonical_string(self) -> str:
        return (
            f"fact {self.symbol_id} = {_q(self.value)} unit={_q(self.unit)} "
            f"span={self.source_span.to_canonical_string()}"
        )


@_slot_init
@dataclass(frozen=True, slots=True)
class BoundEquation:
    """``lhs := rhs`` with its dependencies, kind, unit proof and admissibility.

    ``refusal_reason`` is required iff ``admissibility_status == "refused"``, and is one of
    :data:`~ssbg.errors.REFUSAL_REASONS`: ADR-0134's seven (dimensional analysis) or a reading's outcome
    (:data:`~ssbg.errors.GROUNDING_REASONS`, ADR 0024).  Beyond ADR-0132, a refused equation may say what it refused
    (``refusal_detail``, ``offending_unit``) and, when it was refused only because an
    upstream equation was, which one (``propagated_from``: that equation's lhs).
    """

    lhs_symbol_id: str
    rhs_canonical: str
    dependencies: frozenset[str]
    operation_kind: str
    unit_proof: str
    admissibility_status: str
    source_span: SourceSpanLink
    refusal_reason: str | None = None
    refusal_detail: str | None = None
    offending_unit: str | None = None
    propagated_from: str | None = None

    def __post_init__(self) -> None:
        # Fast path for the common, valid values (admitted or pending, and refused with its reason);
        # _validate gives the precise refusal.
        status = self.admissibility_status
        if type(status) is str and status in _UNREFUSED:
            refusal_fields_valid = (
                self.refusal_reason is None
                and self.refusal_detail is None
                and self.offending_unit is None
                and self.propagated_from is None
            )
        else:
            reason, detail, offending, upstream = (
                self.refusal_reason,
                self.refusal_detail,
                self.offending_unit,
                self.propagated_from,
            )
            refusal_fields_valid = (
                status == "refused"
                and type(reason) is str
                and reason in REFUSAL_REASONS
                and (detail is None or (type(detail) is str and detail != ""))
                and (offending is None or (type(offending) is str and offending != ""))
                and (upstream is None or (type(upstream) is str and _is_identifier(upstream)))
            )
        if (
            refusal_fields_valid
            and type(self.lhs_symbol_id) is str
            and _is_identifier(self.lhs_symbol_id)
            and type(self.rhs_canonical) is str
            and self.rhs_canonical
            and type(self.dependencies) is frozenset
            and all(map(_is_str, self.dependencies))  # two C loops, no generator frame; str first,
            and all(map(_is_identifier, self.dependencies))  # as _is_identifier calls str methods
            and type(self.operation_kind) is str
            and self.operation_kind
            and type(self.unit_proof) is str
            and self.unit_proof
            and type(self.source_span) is SourceSpanLink
        ):
            return
        self._validate()

    def _validate(self) -> None:
        _symbol_id(self.lhs_symbol_id, "lhs_symbol_id")
        _nonempty_str(self.rhs_canonical, "rhs_canonical")
        _instance(self.dependencies, frozenset, "dependencies")
        for dep in self.dependencies:
            _symbol_id(dep, "dependencies[]")
        _nonempty_str(self.operation_kind, "operation_kind")
        _nonempty_str(self.unit_proof, "unit_proof")
        if type(self.admissibility_status) is not str or self.admissibility_status not in ADMISSIBILITY_STATUSES:
            raise _refusal(
                "unknown_status",
                f"'admissibility_status' must be one of {sorted(ADMISSIBILITY_STATUSES)} "
                f"(got {shown(self.admissibility_status)})",
                path="admissibility_status",
                detail=self.admissibility_status,
            )
        _instance(self.source_span, SourceSpanLink, "source_span")
        refused = self.admissibility_status == "refused"
        if not ((self.refusal_reason is not None) == refused):
            raise _refusal(
                "refusal_reason_mismatch",
                "'refusal_reason' is required iff admissibility_status is 'refused' "
                f"(status {shown(self.admissibility_status)}, reason {shown(self.refusal_reason)})",
                path="refusal_reason",
                detail=self.refusal_reason,
            )
        _optional_str(self.refusal_reason, "refusal_reason")
        if self.refusal_reason is not None and self.refusal_reason not in REFUSAL_REASONS:
            raise _refusal(
                "unknown_refusal_reason",
                f"'refusal_reason' must be one of {sorted(REFUSAL_REASONS)} (got {self.refusal_reason!r})",
                path="refusal_reason",
                detail=self.refusal_reason,
            )
        for name in ("refusal_detail", "offending_unit", "propagated_from"):
            value = getattr(self, name)
            _optional_str(value, name)
            if not (value is None or refused):
                raise _refusal(
                    "refusal_reason_mismatch",
                    f"'{name}' is only meaningful on a refused equation",
                    path=name,
                    detail=value,
                )
        if self.propagated_from is not None:
            _symbol_id(self.propagated_from, "propagated_from")

    @property
    def is_root_cause(self) -> bool:
        """True for a refusal of its own, False for an admitted or propagated one."""
        return self.admissibility_status == "refused" and self.propagated_from is None

    def to_canonical_string(self) -> str:
        deps = ",".join(sorted(self.dependencies))
        line = (
            f"equation {self.lhs_symbol_id} := {_q(self.rhs_canonical)} deps=[{deps}] "
            f"kind={self.operation_kind} status={self.admissibility_status} "
            f"proof={_q(self.unit_proof)}"
        )
        if self.refusal_reason is not None:
            line += (
                f" reason={self.refusal_reason} detail={_q(self.refusal_detail)} "
                f"offending={_q(self.offending_unit)} from={self.propagated_from or '-'}"
            )
        return f"{line} span={self.source_span.to_canonical_string()}"


@_slot_init
@dataclass(frozen=True, slots=True)
class BoundUnknown:
    """A question target bound to a known symbol (ADR-0132), with phase-4 fields.

    ``state_index`` is ``"initial"``, ``"terminal"`` or an operation index as a
    decimal string; ``question_form`` is one of :data:`QUESTION_FORMS`;
    ``resolved_by`` names the lhs of the equation that answers the question and
    ``resolved_unit`` its admitted unit (canonical vector string).  A target that
    cannot be bound has ``target_status == "refused"`` and a reason from
    :data:`~ssbg.errors.QUESTION_TARGET_REASONS`.
    """

    symbol_id: str
    question_span: SourceSpanLink
    expected_unit: str | None = None
    state_index: str = STATE_INDEX_TERMINAL
    question_form: str = "identity"
    resolved_by: str | None = None
    resolved_unit: str | None = None
    target_status: str = "pending"
    target_refusal_reason: str | None = None
    target_refusal_detail: str | None = None

    def __post_init__(self) -> None:
        # Fast path for the common, valid value; _validate gives the precise refusal.
        if (
            type(self.symbol_id) is str
            and _is_identifier(self.symbol_id)
            and type(self.question_span) is SourceSpanLink
            and (self.expected_unit is None or (type(self.expected_unit) is str and self.expected_unit))
            and type(self.state_index) is str
            and self.state_index in _FIXED_STATE_INDICES
            and type(self.question_form) is str
            and self.question_form in QUESTION_FORMS
            and (self.resolved_by is None or (type(self.resolved_by) is str and _is_identifier(self.resolved_by)))
            and (self.resolved_unit is None or (type(self.resolved_unit) is str and self.resolved_unit))
            and (
                (
                    type(self.target_status) is str
                    and self.target_status in _UNREFUSED_TARGETS
                    and self.target_refusal_reason is None
                    and self.target_refusal_detail is None
                )
                or (  # refused with its reason (and perhaps a detail)
                    self.target_status == "refused"
                    and type(self.target_refusal_reason) is str
                    and self.target_refusal_reason != ""
                    and (
                        self.target_refusal_detail is None
                        or (type(self.target_refusal_detail) is str and self.target_refusal_detail != "")
                    )
                )
            )
        ):
            return
        self._validate()

    def _validate(self) -> None:
        _symbol_id(self.symbol_id, "symbol_id")
        _instance(self.question_span, SourceSpanLink, "question_span")
        _optional_str(self.expected_unit, "expected_unit")
        if not (
            self.state_index in (STATE_INDEX_INITIAL, STATE_INDEX_TERMINAL)
            or (isinstance(self.state_index, str) and self.state_index.isdigit())
        ):
            raise _refusal(
                "invalid_field",
                f"'state_index' must be 'initial', 'terminal' or a decimal index (got {shown(self.state_index)})",
                path="state_index",
                detail=self.state_index,
            )
        if type(self.question_form) is not str or self.question_form not in QUESTION_FORMS:
            raise _refusal(
                "invalid_field",
                f"'question_form' must be one of {sorted(QUESTION_FORMS)} (got {shown(self.question_form)})",
                path="question_form",
                detail=self.question_form,
            )
        if self.resolved_by is not None:
            _symbol_id(self.resolved_by, "resolved_by")
        _optional_str(self.resolved_unit, "resolved_unit")
        if type(self.target_status) is not str or self.target_status not in TARGET_STATUSES:
            raise _refusal(
                "unknown_status",
                f"'target_status' must be one of {sorted(TARGET_STATUSES)} (got {shown(self.target_status)})",
                path="target_status",
                detail=self.target_status,
            )
        if not ((self.target_refusal_reason is not None) == (self.target_status == "refused")):
            raise _refusal(
                "refusal_reason_mismatch",
                "'target_refusal_reason' is required iff target_status is 'refused'",
                path="target_refusal_reason",
                detail=self.target_refusal_reason,
            )
        _optional_str(self.target_refusal_reason, "target_refusal_reason")
        _optional_str(self.target_refusal_detail, "target_refusal_detail")

    def to_canonical_string(self) -> str:
        line = (
            f"unknown {self.symbol_id} expected={_q(self.expected_unit)} "
            f"state={self.state_index} form={self.question_form} "
            f"resolved_by={self.resolved_by or '-'} resolved_unit={_q(self.resolved_unit)} "
            f"target={self.target_status}"
        )
        if self.target_refusal_reason is not None:
            line += f" reason={self.target_refusal_reason} detail={_q(self.target_refusal_detail)}"
        return f"{line} span={self.question_span.to_canonical_string()}"


@_slot_init
@dataclass(frozen=True, slots=True)
class BoundConstraint:
    """A canonical-string predicate over one symbol."""

    symbol_id: str
    predicate: str
    source_span: SourceSpanLink

    def __post_init__(self) -> None:
        _symbol_id(self.symbol_id, "symbol_id")
        _nonempty_str(self.predicate, "predicate")
        _instance(self.source_span, SourceSpanLink, "source_span")

    def to_canonical_string(self) -> str:
        return f"constraint {self.symbol_id} {_q(self.predicate)} span={self.source_span.to_canonical_string()}"


def _find_cycle(equations: tuple[BoundEquation, ...]) -> list[str] | None:
    """Return one dependency cycle (lhs -> dependency edges) or ``None``.

    A linear-time topological pass answers the common case; only a graph that
    has a cycle pays for the iterative depth-first search, run in sorted order
    so that the reported cycle is deterministic.
    """
    if _in_dependency_order(equations):
        return None
    edges: dict[str, set[str]] = {}
    for eq in equations:
        edges.setdefault(eq.lhs_symbol_id, set()).update(eq.dependencies)
    if _is_acyclic(edges):
        return None
    white, grey, black = 0, 1, 2
    colour: dict[str, int] = {}
    for root in sorted(edges):
        if colour.get(root, white) != white:
            continue
        stack: list[tuple[str, list[str]]] = [(root, sorted(edges.get(root, ())))]
        path = [root]
        colour[root] = grey
        while stack:
            node, todo = stack[-1]
            if not todo:
                stack.pop()
                path.pop()
                colour[node] = black
                continue
            nxt = todo.pop(0)
            state = colour.get(nxt, white)
            if state == grey:
                return [*path[path.index(nxt) :], nxt]
            if state == white:
                colour[nxt] = grey
                path.append(nxt)
                stack.append((nxt, sorted(edges.get(nxt, ()))))
    return None


def _in_dependency_order(equations: tuple[BoundEquation, ...]) -> bool:
    """True when every lhs is distinct and no equation depends on its own lhs or a later one:
    then every edge points to an earlier equation and there is no cycle (the order binders emit)."""
    later = set(map(_LHS_SYMBOL_ID, equations))
    if len(later) != len(equations):
        return False
    for eq in equations:
        if not eq.dependencies.isdisjoint(later):
            return False
        later.discard(eq.lhs_symbol_id)
    return True


def _is_acyclic(edges: dict[str, set[str]]) -> bool:
    """Kahn's algorithm over the lhs nodes (only an lhs can sit on a cycle)."""
    pending = {node: len(deps & edges.keys()) for node, deps in edges.items()}
    users: dict[str, list[str]] = {}
    for node, deps in edges.items():
        for dep in deps & edges.keys():
            users.setdefault(dep, []).append(node)
    ready = [node for node, count in pending.items() if count == 0]
    done = 0
    while ready:
        node = ready.pop()
        done += 1
        for user in users.get(node, ()):
            pending[user] -= 1
            if pending[user] == 0:
                ready.append(user)
    return done == len(edges)


@_slot_init
@dataclass(frozen=True, slots=True)
class SemanticSymbolicBindingGraph:
    """The binding graph: symbols, facts, equations, unknowns, constraints, provenance.

    Construction enforces ADR-0132's cross-collection invariants (unique symbol
    ids, every reference resolves, tuples only) and refuses dependency cycles
    with reason ``circular_dependency``.
    """

    symbols: tuple[SymbolBinding, ...]
    facts: tuple[BoundFact, ...]
    equations: tuple[BoundEquation, ...]
    unknowns: tuple[BoundUnknown, ...]
    constraints: tuple[BoundConstraint, ...]
    provenance: str

    def __post_init__(self) -> None:
        if not self._holds():  # the common, valid graph in one pass per collection; _validate names the fault
            self._validate()

    def _holds(self) -> bool:
        """True when every check of :meth:`_validate` passes and the equations are in dependency order.

        One loop per collection, each item checked where it is read (its type, its references); a
        graph of a few values costs a fraction of what building a C-level iterator per check did.
        """
        known = self._symbol_ids()
        return known is not None and self._references_hold(known)

    def _symbol_ids(self) -> set[str] | None:
        """The symbol ids, when every collection is a tuple, the provenance a text and the symbols
        ``SymbolBinding`` values with distinct ids; None otherwise."""
        if not (
            type(self.symbols) is tuple
            and type(self.facts) is tuple
            and type(self.equations) is tuple
            and type(self.unknowns) is tuple
            and type(self.constraints) is tuple
            and type(self.provenance) is str
            and self.provenance
        ):
            return None
        symbols: tuple[object, ...] = self.symbols  # what it may hold before the checks (a caller may pass anything)
        known: set[str] = set()
        for symbol in symbols:
            if not isinstance(symbol, SymbolBinding):
                return None
            known.add(symbol.symbol_id)
        return known if len(known) == len(symbols) else None

    def _references_hold(self, known: set[str]) -> bool:
        """Every other member is of its type and references only ``known`` ids; every dependency on an
        equation is on an earlier one (so there is no cycle)."""
        facts: tuple[object, ...] = self.facts
        equations: tuple[object, ...] = self.equations
        unknowns: tuple[object, ...] = self.unknowns
        constraints: tuple[object, ...] = self.constraints
        for fact in facts:
            if not (isinstance(fact, BoundFact) and fact.symbol_id in known):
                return False
        later: set[str] = set()  # the lhs of this equation and the ones after it
        for eq in equations:
            if not isinstance(eq, BoundEquation):
                return False
            later.add(eq.lhs_symbol_id)
        if len(later) != len(equations):
            return False
        for eq in self.equations:  # every one a BoundEquation now
            deps, upstream = eq.dependencies, eq.propagated_from
            if not (
                eq.lhs_symbol_id in known
                and known.issuperset(deps)
                and deps.isdisjoint(later)
                and (upstream is None or upstream in known)
            ):
                return False
            later.discard(eq.lhs_symbol_id)
        for unknown in unknowns:
            if not (
                isinstance(unknown, BoundUnknown)
                and unknown.symbol_id in known
                and (unknown.resolved_by is None or unknown.resolved_by in known)
            ):
                return False
        for constraint in constraints:
            if not (isinstance(constraint, BoundConstraint) and constraint.symbol_id in known):
                return False
        return True

    def _validate(self) -> None:
        """The checks in their order, each refusing with its own reason and path."""
        self._check_members()
        symbols, facts, equations, unknowns, constraints = (
            self.symbols, self.facts, self.equations, self.unknowns, self.constraints
        )  # fmt: skip
        known = set(map(_SYMBOL_ID, symbols))
        if len(known) != len(symbols):
            seen: set[str] = set()
            for i, symbol in enumerate(self.symbols):
                if symbol.symbol_id in seen:
                    raise _refusal(
                        "duplicate_symbol",
                        f"symbol id {shown(symbol.symbol_id)} appears twice",
                        path=f"symbols[{i}].symbol_id",
                        detail=symbol.symbol_id,
                    )
                seen.add(symbol.symbol_id)
        # Every reference, gathered by C-level maps; None (no propagated_from or resolved_by) is dropped.
        referenced: set[str | None] = set(map(_SYMBOL_ID, facts))
        referenced.update(
            map(_LHS_SYMBOL_ID, equations), map(_PROPAGATED_FROM, equations), *map(_DEPENDENCIES, equations)
        )
        referenced.update(map(_SYMBOL_ID, unknowns), map(_RESOLVED_BY, unknowns), map(_SYMBOL_ID, constraints))
        referenced.discard(None)
        if not referenced <= known:
            self._explain_reference(known)
        cycle = _find_cycle(equations)
        if cycle is not None:
            raise _refusal(
                "circular_dependency",
                f"equations form a dependency cycle: {' -> '.join(cycle)}",
                path="equations",
                detail=cycle,
            )

    def _check_members(self) -> None:
        """Refuse the first collection that is not a tuple of its members, or a bad provenance."""
        for name, cls, is_member in _GRAPH_MEMBERS:
            value = getattr(self, name)
            if not isinstance(value, tuple):
                raise _refusal("invalid_field", f"'{name}' must be a tuple (got {type(value).__name__})", path=name)
            if not all(map(is_member, value)):  # one pass in C for the common case; the loop names the item
                for i, item in enumerate(value):
                    _instance(item, cls, f"{name}[{i}]")
        _nonempty_str(self.provenance, "provenance")

    def _explain_reference(self, known: set[str]) -> None:
        """Name the first reference (in collection order) to an unknown symbol."""
        references: list[tuple[str | None, str]] = []
        for i, fact in enumerate(self.facts):
            references.append((fact.symbol_id, f"facts[{i}].symbol_id"))
        for i, eq in enumerate(self.equations):
            references.append((eq.lhs_symbol_id, f"equations[{i}].lhs_symbol_id"))
            references.extend((dep, f"equations[{i}].dependencies") for dep in sorted(eq.dependencies))
            references.append((eq.propagated_from, f"equations[{i}].propagated_from"))
        for i, unknown in enumerate(self.unknowns):
            references.append((unknown.symbol_id, f"unknowns[{i}].symbol_id"))
            references.append((unknown.resolved_by, f"unknowns[{i}].resolved_by"))
        for i, constraint in enumerate(self.constraints):
            references.append((constraint.symbol_id, f"constraints[{i}].symbol_id"))
        for symbol_id, path in references:
            if symbol_id is not None and symbol_id not in known:
                raise _refusal(
                    "unknown_reference",
                    f"'{path}' references unknown symbol {shown(symbol_id)}",
                    path=path,
                    detail=symbol_id,
                )

    def symbol(self, symbol_id: str) -> SymbolBinding:
        """The symbol with ``symbol_id``; raises ``BindingGraphError`` when absent."""
        for symbol in self.symbols:
            if symbol.symbol_id == symbol_id:
                return symbol
        raise BindingGraphError(
            f"no symbol {shown(symbol_id)} in this graph",
            reason="unknown_reference",
            path="symbols",
            detail=symbol_id,
        )

    def to_canonical_string(self) -> str:
        """One line per item in the caller's order; dependencies sorted.

        Byte-equal across runs, processes and ``PYTHONHASHSEED`` values.
        """
        lines: list[str] = [f"provenance {_q(self.provenance)}"]
        lines.extend(s.to_canonical_string() for s in self.symbols)
        lines.extend(f.to_canonical_string() for f in self.facts)
        lines.extend(e.to_canonical_string() for e in self.equations)
        lines.extend(u.to_canonical_string() for u in self.unknowns)
        lines.extend(c.to_canonical_string() for c in self.constraints)
        return "\n".join(lines) + "\n"

    @property
    def content_hash(self) -> str:
        """sha256 hex digest of the canonical string, for corpus joins."""
        # surrogatepass: a lone surrogate in a directly built value hashes deterministically
        # instead of raising (input types refuse such text earlier).
        import hashlib  # not at `import ssbg` (ADR 0015: import time)

        return hashlib.sha256(self.to_canonical_string().encode("utf-8", "surrogatepass")).hexdigest()

    def summary(self) -> dict[str, Any]:
        """Counts by collection and by admissibility status (plain dict)."""
        statuses: dict[str, int] = {}
        for eq in self.equations:
            statuses[eq.admissibility_status] = statuses.get(eq.admissibility_status, 0) + 1
        return {
            "symbols": len(self.symbols),
            "facts": len(self.facts),
            "equations": len(self.equations),
            "unknowns": len(self.unknowns),
            "constraints": len(self.constraints),
            "statuses": dict(sorted(statuses.items())),
        }


_SYMBOL_ID = attrgetter("symbol_id")
_LHS_SYMBOL_ID = attrgetter("lhs_symbol_id")
_DEPENDENCIES = attrgetter("dependencies")
_PROPAGATED_FROM = attrgetter("propagated_from")
_RESOLVED_BY = attrgetter("resolved_by")

# (field, member class, isinstance(item, class) as a C callable for map()).
_GRAPH_MEMBERS: tuple[tuple[str, type, Callable[[object], bool]], ...] = tuple(
    (name, cls, cls.__instancecheck__)
    for name, cls in (
        ("symbols", SymbolBinding),
        ("facts", BoundFact),
        ("equations", BoundEquation),
        ("unknowns", BoundUnknown),
        ("constraints", BoundConstraint),
    )
)

# The binders' constructors (ADR 0013 amendment): the same fields, positional and all given, no checks.  Only
# ssbg.adapter, ssbg.trace (and ssbg.reading.choosing, which extends its binder), ssbg.admissibility's binding
# stamper and ssbg.question's binder path use them;
# tests/test_unchecked_binding.py is their guard.
_prebuilt_span: Callable[[str, int, int, str], SourceSpanLink] = _prebuilt(SourceSpanLink)
_prebuilt_symbol: Callable[[str, str, str, SourceSpanLink, str, str | None, str | None], SymbolBinding] = (
    _prebuilt(SymbolBinding)
)
_prebuilt_fact: Callable[[str, str, SourceSpanLink, str | None], BoundFact] = _prebuilt(BoundFact)
_prebuilt_equation: Callable[
    [str, str, frozenset[str], str, str, str, SourceSpanLink, str | None, str | None, str | None, str | None],
    BoundEquation,
] = _prebuilt(BoundEquation)
_prebuilt_unknown: Callable[
    [str, SourceSpanLink, str | None, str, str, str | None, str | None, str, str | None, str | None], BoundUnknown
] = _prebuilt(BoundUnknown)
_prebuilt_graph: Callable[
    [
        tuple[SymbolBinding, ...],
        tuple[BoundFact, ...],
        tuple[BoundEquation, ...],
        tuple[BoundUnknown, ...],
        tuple[BoundConstraint, ...],
        str,
    ],
    SemanticSymbolicBindingGraph,
] = _prebuilt(SemanticSymbolicBindingGraph)

_PREBUILT: dict[type, tuple[Callable[..., Any], tuple[str, ...]]] = {
    cls: (new, tuple(f.name for f in dataclasses.fields(cls)))
    for cls, new in (
        (SourceSpanLink, _prebuilt_span),
        (SymbolBinding, _prebuilt_symbol),
        (BoundFact, _prebuilt_fact),
        (BoundEquation, _prebuilt_equation),
        (BoundUnknown, _prebuilt_unknown),
        (SemanticSymbolicBindingGraph, _prebuilt_graph),
    )
}


def _prebuilt_replace(value: _Value, **changes: Any) -> _Value:
    """:func:`dataclasses.replace` for a binder: ``value`` with ``changes``, the changed fields made by the binder
    from what it has validated, built without validating again (ADR 0013 amendment).  A name that is no field of
    the value refuses (``TypeError``, as ``replace`` does)."""
    new, names = _PREBUILT[type(value)]
    unknown = changes.keys() - set(names)
    if unknown:
        raise TypeError(f"{type(value).__name__} has no field {sorted(unknown)[0]!r}")
    made: _Value = new(*[changes[name] if name in changes else getattr(value, name) for name in names])
    return made
