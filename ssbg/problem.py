"""Input type 1: ``MathProblemGraph``, a state-change word problem (SPEC section 3).

Entities hold quantities; operations change them; one unknown asks for a
holding.  Every value validates at construction and refuses with a
:class:`~ssbg.errors.ProblemGraphError` naming the JSON path of the problem.
The JSON codec (:meth:`MathProblemGraph.to_dict` / :meth:`MathProblemGraph.from_dict`)
round-trips; canonical bytes are sorted-key compact JSON.

Examples
--------
>>> g = MathProblemGraph.from_dict({
...     "entities": ["Ann"],
...     "initial_state": [{"entity": "Ann", "quantity": {"value": 3, "unit": "hours"}}],
...     "operations": [{"actor": "Ann", "kind": "apply_rate",
...                     "operand": {"value": 12, "numerator_unit": "dollars", "denominator_unit": "hours"}}],
...     "unknown": {"entity": "Ann", "unit": "dollars"}})
>>> g.operations[0].kind
'apply_rate'
>>> MathProblemGraph.from_json(g.to_json()) == g
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ssbg import jsontext
from ssbg.errors import NumberError, ProblemGraphError, shown
from ssbg.numbers import MAX_MAGNITUDE, check_json_number

__all__ = [
    "COMPARISON_DIRECTIONS",
    "FRACTION_REFERENTS",
    "LANE_EXPECTED_KEY",
    "OPERAND_TYPES",
    "Comparison",
    "FractionPortion",
    "InitialPossession",
    "JsonDecoder",
    "MathProblemGraph",
    "Operand",
    "Operation",
    "PartitionChunk",
    "Quantity",
    "Rate",
    "Unknown",
    "iter_problem_graphs_jsonl",
]

FRACTION_REFERENTS: frozenset[str] = frozenset({"that", "it", "them", "rest", "the_rest"})
COMPARISON_DIRECTIONS: frozenset[str] = frozenset({"more", "fewer", "times", "fraction"})
_ADDITIVE_DIRECTIONS = frozenset({"more", "fewer"})

LANE_EXPECTED_KEY = "expected"
"""The one key a lane line (:mod:`ssbg.lanes`) carries beside its ``MathProblemGraph`` dict: the
expected shape of its binding.  It is not a field of the problem: the ssbg JSONL corpus reader drops it."""

Number = int | float


def _fail(reason: str, message: str, path: str) -> ProblemGraphError:
    return ProblemGraphError(message, reason=reason, path=path)


def _check_number(value: object, path: str, *, positive: bool = False) -> None:
    try:
        value = check_json_number(value, field=path)  # a number (not a bool), finite, within ssbg.numbers' bounds
    except NumberError as exc:
        reason = "wrong_type" if exc.reason == "not_a_number" else "invalid_value"
        what = "a number" if reason == "wrong_type" else f"a finite number of at most {MAX_MAGNITUDE:g} in magnitude"
        raise _fail(reason, f"'{path}' must be {what} (got {exc.detail})", path) from None
    if positive and value <= 0:
        raise _fail("invalid_value", f"'{path}' must be > 0 (got {shown(value)})", path)
    if not positive and value < 0:
        raise _fail("invalid_value", f"'{path}' must be >= 0 (got {shown(value)})", path)


def _check_text(value: object, path: str) -> None:
    if not isinstance(value, str):
        raise _fail("wrong_type", f"'{path}' must be a str (got {type(value).__name__})", path)
    if not value.strip():
        raise _fail("invalid_value", f"'{path}' must not be empty", path)
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise _fail("invalid_value", f"'{path}' holds a lone surrogate, not Unicode text", path) from None


def _check_int(value: object, path: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail("wrong_type", f"'{path}' must be an int (got {type(value).__name__})", path)
    if not 0 < value <= MAX_MAGNITUDE:
        raise _fail("invalid_value", f"'{path}' must be a positive int of at most {MAX_MAGNITUDE:g}", path)


@dataclass(frozen=True, slots=True)
class Quantity:
    """A non-negative amount in a unit (the unit is checked later, against a pack)."""

    value: Number
    unit: str

    def __post_init__(self) -> None:
        _check_number(self.value, "value")
        _check_text(self.unit, "unit")

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "unit": self.unit}


@dataclass(frozen=True, slots=True)
class Rate:
    """``value`` numerator units per one denominator unit (value > 0, units differ)."""

    value: Number
    numerator_unit: str
    denominator_unit: str

    def __post_init__(self) -> None:
        _check_number(self.value, "value", positive=True)
        _check_text(self.numerator_unit, "numerator_unit")
        _check_text(self.denominator_unit, "denominator_unit")
        if self.numerator_unit == self.denominator_unit:
            raise _fail("invalid_value", "a rate's numerator and denominator units must differ", "denominator_unit")

    @property
    def unit(self) -> str:
        """The composite unit id ``<num>_per_<den>``."""
        return f"{self.numerator_unit}_per_{self.denominator_unit}"

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "numerator_unit": self.numerator_unit, "denominator_unit": self.denominator_unit}


@dataclass(frozen=True, slots=True)
class PartitionChunk:
    """Chunks of ``value`` ``unit`` each, counted in ``result_unit`` ("bags of 6 cookies")."""

    value: Number
    unit: str
    result_unit: str

    def __post_init__(self) -> None:
        _check_number(self.value, "value", positive=True)
        _check_text(self.unit, "unit")
        _check_text(self.result_unit, "result_unit")
        if self.unit == self.result_unit:
            raise _fail("invalid_value", "a chunk's unit and result unit must differ", "result_unit")

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "unit": self.unit, "result_unit": self.result_unit}


@dataclass(frozen=True, slots=True)
class FractionPortion:
    """``numerator/denominator`` of the referent holding ("two thirds of them")."""

    numerator: int
    denominator: int
    referent: str

    def __post_init__(self) -> None:
        _check_int(self.numerator, "numerator")
        _check_int(self.denominator, "denominator")
        if type(self.referent) is not str or self.referent not in FRACTION_REFERENTS:
            raise _fail(
                "invalid_value",
                f"'referent' must be one of {sorted(FRACTION_REFERENTS)} (got {shown(self.referent)})",
                "referent",
            )

    def to_dict(self) -> dict[str, Any]:
        return {"numerator": self.numerator, "denominator": self.denominator, "referent": self.referent}


@dataclass(frozen=True, slots=True)
class Comparison:
    """The actor holds ``delta`` more/fewer, or ``factor`` times/fraction of, the reference's."""

    reference_actor: str
    direction: str
    delta: Quantity | None = None
    factor: Number | None = None

    def __post_init__(self) -> None:
        _check_text(self.reference_actor, "reference_actor")
        if type(self.direction) is not str or self.direction not in COMPARISON_DIRECTIONS:
            raise _fail(
                "invalid_value",
                f"'direction' must be one of {sorted(COMPARISON_DIRECTIONS)} (got {shown(self.direction)})",
                "direction",
            )
        if self.direction in _ADDITIVE_DIRECTIONS:
            if not isinstance(self.delta, Quantity):
                raise _fail("missing_field", f"a '{self.direction}' comparison needs a 'delta' Quantity", "delta")
            if self.factor is not None:
                raise _fail("unexpected_field", f"a '{self.direction}' comparison takes no 'factor'", "factor")
        else:
            if self.factor is None:
                raise _fail("missing_field", f"a '{self.direction}' comparison needs a 'factor'", "factor")
            _check_number(self.factor, "factor", positive=True)
            if self.delta is not None:
                raise _fail("unexpected_field", f"a '{self.direction}' comparison takes no 'delta'", "delta")

    @property
    def is_additive(self) -> bool:
        return self.direction in _ADDITIVE_DIRECTIONS

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"reference_actor": self.reference_actor, "direction": self.direction}
        if self.delta is not None:
            out["delta"] = self.delta.to_dict()
        if self.factor is not None:
            out["factor"] = self.factor
        return out


Operand = Quantity | Rate | PartitionChunk | FractionPortion | Comparison

OPERAND_TYPES: Mapping[str, type] = {
    "add": Quantity,
    "subtract": Quantity,
    "transfer": Quantity,
    "multiply": Quantity,
    "divide": Quantity,
    "apply_rate": Rate,
    "compare_additive": Comparison,
    "compare_multiplicative": Comparison,
    "unit_partition": PartitionChunk,
    "fraction_portion": FractionPortion,
}


@dataclass(frozen=True, slots=True)
class InitialPossession:
    """``entity`` holds ``quantity`` before any operation."""

    entity: str
    quantity: Quantity

    def __post_init__(self) -> None:
        _check_text(self.entity, "entity")
        if not isinstance(self.quantity, Quantity):
            raise _fail("wrong_type", "'quantity' must be a Quantity", "quantity")

    def to_dict(self) -> dict[str, Any]:
        return {"entity": self.entity, "quantity": self.quantity.to_dict()}


@dataclass(frozen=True, slots=True)
class Operation:
    """``actor`` performs ``kind`` with ``operand`` (``target`` only for ``transfer``)."""

    actor: str
    kind: str
    operand: Operand
    target: str | None = None

    def __post_init__(self) -> None:
        _check_text(self.actor, "actor")
        if not isinstance(self.kind, str) or self.kind not in OPERAND_TYPES:
            raise _fail(
                "unknown_operation", f"'kind' must be one of {sorted(OPERAND_TYPES)} (got {shown(self.kind)})", "kind"
            )
        want = OPERAND_TYPES[self.kind]
        if not isinstance(self.operand, want):
            raise _fail(
                "operand_kind_mismatch",
                f"a '{self.kind}' operation takes a {want.__name__} operand (got {type(self.operand).__name__})",
                "operand",
            )
        if self.kind == "transfer":
            if self.target is None:
                raise _fail("missing_field", "a transfer needs a 'target'", "target")
            _check_text(self.target, "target")
            if self.target == self.actor:
                raise _fail("invalid_value", "a transfer's target must differ from its actor", "target")
        elif self.target is not None:
            raise _fail("unexpected_field", f"a '{self.kind}' operation takes no 'target'", "target")
        if self.kind.startswith("compare_"):
            comparison = self.operand
            if isinstance(comparison, Comparison):
                if comparison.is_additive != (self.kind == "compare_additive"):
                    raise _fail(
                        "operand_kind_mismatch",
                        f"a '{self.kind}' operation cannot take a '{comparison.direction}' comparison",
                        "operand.direction",
                    )
                if comparison.reference_actor == self.actor:
                    raise _fail(
                        "invalid_value",
                        "a comparison's reference actor must differ from the actor",
                        "operand.reference_actor",
                    )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"actor": self.actor, "kind": self.kind, "operand": self.operand.to_dict()}
        if self.target is not None:
            out["target"] = self.target
        return out


@dataclass(frozen=True, slots=True)
class Unknown:
    """The question: ``entity``'s holding in ``unit`` (``entity`` None: total over all holders)."""

    unit: str
    entity: str | None = None

    def __post_init__(self) -> None:
        if self.entity is not None:
            _check_text(self.entity, "entity")
        _check_text(self.unit, "unit")

    def to_dict(self) -> dict[str, Any]:
        return {"entity": self.entity, "unit": self.unit}


@dataclass(frozen=True, slots=True)
class MathProblemGraph:
    """A state-change problem: entities, initial holdings, operations, one unknown."""

    entities: tuple[str, ...]
    initial_state: tuple[InitialPossession, ...]
    operations: tuple[Operation, ...]
    unknown: Unknown
    problem_id: str | None = None
    text: str | None = None

    def __post_init__(self) -> None:
        for name in ("entities", "initial_state", "operations"):
            if not isinstance(getattr(self, name), tuple):
                raise _fail("wrong_type", f"'{name}' must be a tuple", f"$.{name}")
        if not self.entities:
            raise _fail("invalid_value", "'entities' must not be empty", "$.entities")
        seen: set[str] = set()
        for i, entity in enumerate(self.entities):
            _check_text(entity, f"$.entities[{i}]")
            if entity in seen:
                raise _fail("duplicate_entity", f"entity {shown(entity)} is listed twice", f"$.entities[{i}]")
            seen.add(entity)

        def known(name: str | None, path: str) -> None:
            if name is not None and name not in seen:
                raise _fail("unknown_entity", f"{path} names unknown entity {shown(name)}", path)

        holdings: dict[tuple[str, str], Number] = {}
        for i, possession in enumerate(self.initial_state):
            if not isinstance(possession, InitialPossession):
                raise _fail("wrong_type", "must be an InitialPossession", f"$.initial_state[{i}]")
            known(possession.entity, f"$.initial_state[{i}].entity")
            key = (possession.entity, possession.quantity.unit)
            if key in holdings and holdings[key] != possession.quantity.value:
                raise _fail(
                    "contradictory_possession",
                    f"{shown(possession.entity)} holds {holdings[key]} and {possession.quantity.value} "
                    f"{shown(possession.quantity.unit)} initially",
                    f"$.initial_state[{i}]",
                )
            holdings[key] = possession.quantity.value
        for i, op in enumerate(self.operations):
            if not isinstance(op, Operation):
                raise _fail("wrong_type", "must be an Operation", f"$.operations[{i}]")
            known(op.actor, f"$.operations[{i}].actor")
            known(op.target, f"$.operations[{i}].target")
            if isinstance(op.operand, Comparison):
                known(op.operand.reference_actor, f"$.operations[{i}].operand.reference_actor")
        if not isinstance(self.unknown, Unknown):
            raise _fail("wrong_type", "'unknown' must be an Unknown", "$.unknown")
        known(self.unknown.entity, "$.unknown.entity")
        if self.problem_id is not None:
            _check_text(self.problem_id, "$.problem_id")
        if self.text is not None:
            _check_text(self.text, "$.text")

    # ------------------------------------------------------------------ JSON

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "entities": list(self.entities),
            "initial_state": [p.to_dict() for p in self.initial_state],
            "operations": [o.to_dict() for o in self.operations],
            "unknown": self.unknown.to_dict(),
        }
        if self.problem_id is not None:
            out["problem_id"] = self.problem_id
        if self.text is not None:
            out["text"] = self.text
        return out

    def to_json(self) -> str:
        """Canonical JSON: sorted keys, compact separators, UTF-8 text kept."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def canonical_bytes(self) -> bytes:
        return self.to_json().encode("utf-8")

    @classmethod
    def from_json(cls, text: str | bytes, *, path: str = "$") -> MathProblemGraph:
        """Parse JSON text; malformed JSON refuses with reason ``malformed_json``."""
        return cls.from_dict(JsonDecoder.loads(text, path), path=path)

    @classmethod
    def from_dict(cls, data: object, *, path: str = "$") -> MathProblemGraph:
        """Build from plain JSON data; every failure names its JSON path."""
        return _Decoder(path).problem(data)


class JsonDecoder:
    """Checks plain JSON data shape by shape, naming the JSON path of any fault.

    Shared by the input types' codecs (``MathProblemGraph``, ``Trace``); every
    fault is a :class:`~ssbg.errors.ProblemGraphError`.
    """

    def __init__(self, root: str) -> None:
        self.root = root

    @staticmethod
    def loads(text: str | bytes, path: str) -> object:
        """Parse JSON text; anything that is not JSON refuses with reason ``malformed_json``."""
        try:
            return jsontext.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError, TypeError) as exc:
            raise _fail("malformed_json", f"not valid JSON: {exc}", path) from None

    def obj(self, data: object, path: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise _fail("wrong_type", f"'{path}' must be an object (got {type(data).__name__})", path)
        for key in required:
            if key not in data:
                raise _fail("missing_field", f"'{path}' needs field '{key}'", f"{path}.{key}")
        extra = sorted(str(k) for k in set(data) - set(required) - set(optional))
        if extra:
            raise _fail("unexpected_field", f"'{path}' has unexpected field(s) {extra}", f"{path}.{extra[0]}")
        return data

    def array(self, data: object, path: str) -> list[Any]:
        if not isinstance(data, list):
            raise _fail("wrong_type", f"'{path}' must be an array (got {type(data).__name__})", path)
        return data


class _Decoder(JsonDecoder):
    """Reads plain JSON data into the MathProblemGraph dataclasses."""

    def build(self, cls: type[Any], path: str, **kwargs: Any) -> Any:
        """Construct, re-rooting the dataclass's own field error at ``path``."""
        try:
            return cls(**kwargs)
        except ProblemGraphError as exc:
            sub = exc.path or ""
            full = sub if sub.startswith("$") else f"{path}.{sub}" if sub else path
            raise ProblemGraphError(exc.message, reason=exc.reason, path=full, detail=exc.detail) from None

    def quantity(self, data: object, path: str) -> Quantity:
        d = self.obj(data, path, ("value", "unit"))
        result: Quantity = self.build(Quantity, path, value=d["value"], unit=d["unit"])
        return result

    def operand(self, kind: str, data: object, path: str) -> Operand:
        want = OPERAND_TYPES[kind]
        if want is Quantity:
            return self.quantity(data, path)
        if want is Rate:
            d = self.obj(data, path, ("value", "numerator_unit", "denominator_unit"))
            rate: Rate = self.build(Rate, path, **d)
            return rate
        if want is PartitionChunk:
            d = self.obj(data, path, ("value", "unit", "result_unit"))
            chunk: PartitionChunk = self.build(PartitionChunk, path, **d)
            return chunk
        if want is FractionPortion:
            d = self.obj(data, path, ("numerator", "denominator", "referent"))
            portion: FractionPortion = self.build(FractionPortion, path, **d)
            return portion
        d = self.obj(data, path, ("reference_actor", "direction"), ("delta", "factor"))
        delta = self.quantity(d["delta"], f"{path}.delta") if d.get("delta") is not None else None
        comparison: Comparison = self.build(
            Comparison,
            path,
            reference_actor=d["reference_actor"],
            direction=d["direction"],
            delta=delta,
            factor=d.get("factor"),
        )
        return comparison

    def operation(self, data: object, path: str) -> Operation:
        d = self.obj(data, path, ("actor", "kind", "operand"), ("target",))
        kind = d["kind"]
        if not isinstance(kind, str) or kind not in OPERAND_TYPES:
            raise _fail(
                "unknown_operation", f"'kind' must be one of {sorted(OPERAND_TYPES)} (got {shown(kind)})",
                f"{path}.kind",
            )
        operand = self.operand(kind, d["operand"], f"{path}.operand")
        op: Operation = self.build(
            Operation, path, actor=d["actor"], kind=kind, operand=operand, target=d.get("target")
        )
        return op

    def problem(self, data: object) -> MathProblemGraph:
        root = self.root
        d = self.obj(data, root, ("entities", "initial_state", "operations", "unknown"), ("problem_id", "text"))
        entities = self.array(d["entities"], f"{root}.entities")
        for i, e in enumerate(entities):
            _check_text_at(e, f"{root}.entities[{i}]")
        initial = []
        for i, item in enumerate(self.array(d["initial_state"], f"{root}.initial_state")):
            p = f"{root}.initial_state[{i}]"
            row = self.obj(item, p, ("entity", "quantity"))
            initial.append(
                self.build(
                    InitialPossession, p, entity=row["entity"], quantity=self.quantity(row["quantity"], f"{p}.quantity")
                )
            )
        operations = [
            self.operation(item, f"{root}.operations[{i}]")
            for i, item in enumerate(self.array(d["operations"], f"{root}.operations"))
        ]
        u = self.obj(d["unknown"], f"{root}.unknown", ("unit",), ("entity",))
        unknown = self.build(Unknown, f"{root}.unknown", unit=u["unit"], entity=u.get("entity"))
        try:
            return MathProblemGraph(
                tuple(entities),
                tuple(initial),
                tuple(operations),
                unknown,
                problem_id=d.get("problem_id"),
                text=d.get("text"),
            )
        except ProblemGraphError as exc:
            where = (exc.path or "$").replace("$", root, 1)
            raise ProblemGraphError(exc.message, reason=exc.reason, path=where, detail=exc.detail) from None


def _check_text_at(value: object, path: str) -> None:
    _check_text(value, path)


def iter_problem_graphs_jsonl(
    lines: Iterator[str] | list[str], *, source: str = "<jsonl>"
) -> Iterator[MathProblemGraph]:
    """Parse MathProblemGraph JSON lines; a bad line refuses with ``source:line`` in its path.

    Blank lines are skipped.  Use the corpus readers for refusal-counting reads.
    """
    for lineno, line in enumerate(lines, start=1):
        if line.strip():
            yield MathProblemGraph.from_json(line, path=f"{source}:{lineno}:$")
