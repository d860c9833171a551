"""The field checks and the JSON codec (``to_dict``'s data, the decoder) of :mod:`ssbg.trace`'s model, kept apart
so that the trace module holds the model and its binder.  It imports nothing of :mod:`ssbg.trace`: the trace's
classes are handed to the decoder (:class:`TraceTypes`), so the two modules form no import circle.

Every fault is a :class:`~ssbg.errors.ProblemGraphError` naming its field (or JSON) path.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from ssbg.constants import IMPLICIT_CONSTANTS
from ssbg.errors import NumberError, ProblemGraphError, shown
from ssbg.numbers import MAX_MAGNITUDE, check_json_number
from ssbg.problem import JsonDecoder

__all__ = [
    "TraceDecoder",
    "TraceTypes",
    "check_index",
    "check_number",
    "check_probability",
    "check_reference",
    "check_span",
    "check_text",
    "fail",
    "in_range",
    "is_unicode",
    "mention_dict",
    "operand_dict",
    "plain_operand",
    "step_dict",
    "trace_dict",
]


def fail(reason: str, message: str, path: str) -> ProblemGraphError:
    return ProblemGraphError(message, reason=reason, path=path)


def check_number(value: object, path: str) -> None:
    """A number within :mod:`ssbg.numbers`' bounds (an int or a float, never a bool)."""
    try:
        check_json_number(value, field=path)
    except NumberError as exc:
        reason = "wrong_type" if exc.reason == "not_a_number" else "invalid_value"
        what = "a number" if reason == "wrong_type" else f"a finite number of at most {MAX_MAGNITUDE:g} in magnitude"
        raise fail(reason, f"'{path}' must be {what} (got {exc.detail})", path) from None


_SURROGATE = re.compile("[\ud800-\udfff]")


def is_unicode(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8 (no lone surrogate): checked when text is imported."""
    return text.isascii() or _SURROGATE.search(text) is None


def check_text(value: object, path: str, *, optional: bool = False) -> None:
    if value is None and optional:
        return
    if type(value) is str and value and not value.isspace() and is_unicode(value):
        return
    if not isinstance(value, str):
        raise fail("wrong_type", f"'{path}' must be a str (got {type(value).__name__})", path)
    if not value.strip():
        raise fail("invalid_value", f"'{path}' must not be empty", path)
    if not is_unicode(value):
        raise fail("invalid_value", f"'{path}' holds a lone surrogate, not Unicode text", path)


def in_range(value: float) -> bool:
    return -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE  # False for NaN


def plain_operand(o: Any, reading_type: type[Any]) -> bool:
    """Whether an :class:`~ssbg.trace.Operand` is valid in one of the common shapes, checked in one pass: an index
    (a mention or an earlier step) or a known constant with at most a ``(start, end)`` cue, a literal, no
    alternative, its n-best sources (``reading_type``'s, each an operand of its own class with no alternative or
    readings, and a probability).  False says only that the field checks must name what is wrong, if anything."""
    return (
        _plain_pointer(o.mention, o.step, o.constant, o.cue)
        and _plain_text(o.text)
        and (o.at is None or (type(o.at) is int and o.at >= 0))
        and _plain_text(o.why)
        and o.alternative is None
        and type(o.readings) is tuple
        and (not o.readings or _plain_readings(o.readings, type(o), reading_type))
    )


def _plain_pointer(mention: object, step: object, constant: object, cue: object) -> bool:
    """Exactly one of a mention index, a step index or a known constant; a cue only on a constant."""
    if constant is None:
        return cue is None and (
            (type(mention) is int and mention >= 0 and step is None)
            or (type(step) is int and step >= 0 and mention is None)
        )
    return (
        mention is None
        and step is None
        and type(constant) is str
        and constant in IMPLICIT_CONSTANTS
        and (cue is None or (type(cue) is tuple and len(cue) == 2 and type(cue[0]) is int and type(cue[1]) is int
                             and 0 <= cue[0] < cue[1]))
    )  # fmt: skip


def _plain_text(text: object) -> bool:
    """None, or text that is not blank and can be written as UTF-8."""
    return text is None or (type(text) is str and bool(text) and not text.isspace() and is_unicode(text))


def _plain_readings(readings: tuple[Any, ...], operand_type: type[Any], reading_type: type[Any]) -> bool:
    """Each a ``reading_type`` of an ``operand_type`` with no alternative or readings, and a probability."""
    for r in readings:
        if type(r) is not reading_type:
            return False
        source, p = r.operand, r.probability
        if type(source) is not operand_type or source.alternative is not None or source.readings:
            return False
        if not ((type(p) is float or type(p) is int) and 0.0 <= p <= 1.0):
            return False
    return True


def check_index(value: object, path: str) -> int:
    if type(value) is int and value >= 0:  # the common case, first
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail("wrong_type", f"'{path}' must be an int (got {type(value).__name__})", path)
    if value < 0:
        raise fail("invalid_value", f"'{path}' must be >= 0 (got {shown(value)})", path)
    return value


def check_probability(value: object, path: str) -> None:
    if not (type(value) is float or type(value) is int) or not 0.0 <= value <= 1.0:
        raise fail("invalid_value", f"'{path}' must be a probability in [0, 1] (got {shown(value)})", path)


def check_reference(o: Any, i: int, j: int, count: int, size: int) -> None:
    """An operand of step ``i`` resolves: a mention in range, an earlier step, a cue inside the text."""
    if o.mention is not None and o.mention >= count:
        raise fail("invalid_value", f"mention {o.mention} does not exist", f"$.steps[{i}].operands[{j}].mention")
    if o.step is not None and o.step >= i:
        raise fail("invalid_value", f"step {o.step} is not an earlier step", f"$.steps[{i}].operands[{j}].step")
    if o.cue is not None and o.cue[1] > size:
        raise fail("invalid_value", f"cue {list(o.cue)} lies outside the text", f"$.steps[{i}].operands[{j}].cue")


def check_span(value: object, size: int, path: str) -> None:
    """A ``(start, end)`` pair inside a text of ``size`` characters (a trace's question span)."""
    if not (isinstance(value, tuple) and len(value) == 2):
        raise fail("wrong_type", f"'{path.rpartition('.')[2]}' must be a (start, end) pair", path)
    start = check_index(value[0], f"{path}[0]")
    end = check_index(value[1], f"{path}[1]")
    if not start < end <= size:
        raise fail("invalid_value", f"question span {list(value)} is not inside the text", path)


def mention_dict(mention: Any) -> dict[str, Any]:
    """The plain JSON data of a mention (its ``to_dict``)."""
    out: dict[str, Any] = {"start": mention.start, "end": mention.end, "text": mention.text, "value": mention.value}
    if mention.unit is not None:
        out["unit"] = mention.unit
    if mention.lemma is not None:
        out["lemma"] = mention.lemma
    if mention.kind != "quantity":
        out["kind"] = mention.kind
    if mention.source != "text":
        out["source"] = mention.source
    if mention.alt_unit is not None:
        out["alt_unit"] = mention.alt_unit
    if mention.readings:
        out["readings"] = [[r.unit, r.probability] for r in mention.readings]
    return out


def operand_dict(operand: Any) -> dict[str, Any]:
    """The plain JSON data of an operand (its ``to_dict``)."""
    out: dict[str, Any] = {}
    if operand.mention is not None:
        out["mention"] = operand.mention
    elif operand.step is not None:
        out["step"] = operand.step
    else:
        out["constant"] = operand.constant
        if operand.cue is not None:
            out["cue"] = list(operand.cue)
    if operand.text is not None:
        out["text"] = operand.text
    if operand.at is not None:
        out["at"] = operand.at
    if operand.why is not None:
        out["why"] = operand.why
    if operand.alternative is not None:
        out["alternative"] = operand_dict(operand.alternative)
    if operand.readings:
        out["readings"] = [{"operand": operand_dict(r.operand), "probability": r.probability} for r in operand.readings]
    return out


def step_dict(step: Any) -> dict[str, Any]:
    """The plain JSON data of a step (its ``to_dict``)."""
    out: dict[str, Any] = {"op": step.op, "operands": [operand_dict(o) for o in step.operands]}
    for name in ("result", "unit", "formula", "at"):
        value = getattr(step, name)
        if value is not None:
            out[name] = value
    if step.implicit:
        out["implicit"] = True
    if step.per:
        out["per"] = list(step.per)
    return out


def trace_dict(trace: Any) -> dict[str, Any]:
    """The plain JSON data of a trace (its ``to_dict``)."""
    out: dict[str, Any] = {
        "problem_id": trace.problem_id,
        "corpus": trace.corpus,
        "text": trace.text,
        "mentions": [mention_dict(m) for m in trace.mentions],
        "steps": [step_dict(s) for s in trace.steps],
    }
    if trace.question_span is not None:
        out["question_span"] = list(trace.question_span)
    for name in ("answer_unit", "gold_answer_unit", "answer", "solution"):
        value = getattr(trace, name)
        if value is not None:
            out[name] = value
    return out


class TraceTypes(NamedTuple):
    """The classes :class:`TraceDecoder` builds (:mod:`ssbg.trace`'s)."""

    trace: type[Any]
    mention: type[Any]
    operand: type[Any]
    step: type[Any]
    unit_reading: type[Any]
    source_reading: type[Any]


_TRACE_FIELDS = ("problem_id", "corpus", "text", "mentions", "steps")
_TRACE_OPTIONAL = ("question_span", "answer_unit", "gold_answer_unit", "answer", "solution")
_MENTION_FIELDS = ("start", "end", "text", "value")
_MENTION_OPTIONAL = ("unit", "lemma", "kind", "source", "alt_unit", "readings")
_STEP_FIELDS = ("op", "operands")
_STEP_OPTIONAL = ("result", "unit", "formula", "implicit", "at", "per")
_OPERAND_OPTIONAL = ("mention", "step", "constant", "cue", "text", "at", "why", "alternative", "readings")


class TraceDecoder(JsonDecoder):
    """Reads plain JSON data into the trace dataclasses (``types``), keeping the JSON path for errors."""

    def __init__(self, root: str, types: TraceTypes) -> None:
        super().__init__(root)
        self.types = types

    def at(self, sub: str) -> str:
        """A path under this decoder's root (``$.steps[0]`` -> ``<root>.steps[0]``)."""
        return sub.replace("$", self.root, 1) if sub.startswith("$") else sub

    def pair(self, data: object, path: str) -> tuple[int, int] | None:
        if data is None:
            return None
        items = self.array(data, path)
        if len(items) != 2:
            raise fail("invalid_value", f"'{path}' must be a [start, end] pair", path)
        return (check_index(items[0], f"{path}[0]"), check_index(items[1], f"{path}[1]"))

    def build(self, cls: type[Any], path: str, **kwargs: Any) -> Any:
        """Construct, re-rooting the dataclass's own field error at ``path``."""
        try:
            return cls(**kwargs)
        except ProblemGraphError as exc:
            sub = exc.path or ""
            full = self.at(sub) if sub.startswith("$") else f"{path}.{sub}" if sub else path
            raise ProblemGraphError(exc.message, reason=exc.reason, path=full, detail=exc.detail) from None

    def mention(self, data: object, path: str) -> Any:
        d = dict(self.obj(data, path, _MENTION_FIELDS, _MENTION_OPTIONAL))
        if "readings" in d:
            pairs = [self.array(item, f"{path}.readings[{k}]") for k, item in
                     enumerate(self.array(d["readings"], f"{path}.readings"))]
            for k, pair in enumerate(pairs):
                if len(pair) != 2:
                    raise fail("invalid_value", "a reading is a [unit, probability] pair", f"{path}.readings[{k}]")
            d["readings"] = tuple(self.types.unit_reading(u, p) for u, p in pairs)
        return self.build(self.types.mention, path, **d)

    def operand(self, data: object, path: str) -> Any:
        d = dict(self.obj(data, path, (), _OPERAND_OPTIONAL))
        if "cue" in d:
            d["cue"] = self.pair(d["cue"], f"{path}.cue")
        if "alternative" in d:
            d["alternative"] = self.operand(d["alternative"], f"{path}.alternative")
        if "readings" in d:
            items = []
            for k, item in enumerate(self.array(d["readings"], f"{path}.readings")):
                r = self.obj(item, f"{path}.readings[{k}]", ("operand", "probability"), ())
                items.append(self.types.source_reading(self.operand(r["operand"], f"{path}.readings[{k}].operand"),
                                           r["probability"]))
            d["readings"] = tuple(items)
        return self.build(self.types.operand, path, **d)

    def step(self, data: object, path: str) -> Any:
        d = dict(self.obj(data, path, _STEP_FIELDS, _STEP_OPTIONAL))
        d["operands"] = tuple(
            self.operand(item, f"{path}.operands[{j}]") for j, item in enumerate(self.array(d["operands"], path))
        )
        if "per" in d:
            d["per"] = tuple(self.array(d["per"], f"{path}.per"))
        return self.build(self.types.step, path, **d)

    def trace(self, data: object) -> Any:
        root = self.root
        d = dict(self.obj(data, root, _TRACE_FIELDS, _TRACE_OPTIONAL))
        d["mentions"] = tuple(
            self.mention(item, f"{root}.mentions[{i}]")
            for i, item in enumerate(self.array(d["mentions"], f"{root}.mentions"))
        )
        d["steps"] = tuple(
            self.step(item, f"{root}.steps[{i}]") for i, item in enumerate(self.array(d["steps"], f"{root}.steps"))
        )
        if "question_span" in d:
            d["question_span"] = self.pair(d["question_span"], f"{root}.question_span")
        return self.build(self.types.trace, root, **d)
