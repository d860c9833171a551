"""The scorer and the decision: a conditional-logit model over candidate readings (edge, ADR 0021).

Each candidate of a factor (a mention's unit; its per) gets ``score = Σ weight[f] · value[f]`` over its
features (:mod:`ssbg.reading.learned.features`); a factor's probabilities are the softmax of its
scores divided by the factor's temperature (fitted out of fold: the calibration).  A reading is a
unit and a per; its probability is the product of the two, renormalized over the readings that make
sense (a per differs from its unit; a bare number is per nothing).

The weights are plain JSON shipped in the wheel (``reader.json``), written by ``make train``
(:mod:`ssbg.stats.train_reader`) and read here without numpy: reading imports no training library
and reads no file but the package's own.  The model loads on the first reading, not at ``import ssbg``.

:func:`read_units` gives each quantity mention of a question its most probable reading and, as its
second reading (``alt_unit``, ADR 0018), the runner-up when that is at least :data:`ALT_MIN` probable.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import hashlib
import itertools
import json
import math
import operator
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any, NamedTuple

from ssbg.reading.learned.features import MentionContext, per_features, unit_features
from ssbg.reading.learned.proposals import Neighbours, TextIndex, per_candidates, reading_of, unit_candidates
from ssbg.reading.mentions import Token, unit_lemma
from ssbg.trace import Mention, UnitReadingChoice
from ssbg.units import UnitPack

__all__ = [
    "ALT_MIN",
    "MODEL_FILE",
    "N_BEST",
    "Model",
    "UnitReading",
    "keeping_readings",
    "load_model",
    "mention_readings",
    "read_units",
    "readings_kept",
    "using",
]

MODEL_FILE = "reader.json"
"""The shipped model's file name inside the package ``ssbg.reading.learned``."""

FORMAT = "ssbg-learned-reader/1"

_ZEROS = itertools.repeat(0.0)  # the weight of a feature the model does not know

ALT_MIN = 0.2
"""The probability from which the runner-up reading of a mention is kept as its second reading."""

N_BEST = 3
"""How many readings are kept per mention (:func:`mention_readings`) and per operand (the grounding scorer's
sources): the few most probable, with their probabilities, for the checker's robust refusal (ADR 0027).  On the
gold set's dev half the third reading holds 2.6% of the mass on average and the fourth 0.9%."""


@dataclass(frozen=True)
class Model:
    """Weights per factor, each factor's temperature, and the manifest of how the model was made."""

    weights: Mapping[str, Mapping[str, float]]
    temperature: Mapping[str, float]
    manifest: Mapping[str, Any]

    @staticmethod
    def from_dict(raw: Mapping[str, Any]) -> Model:
        if raw.get("format") != FORMAT:
            from ssbg.errors import PackError

            found = raw.get("format")
            raise PackError(f"the reading model's format is {found!r}, not {FORMAT!r}", reason="manifest_invalid")
        factors = raw["factors"]
        return Model(
            {name: dict(f["weights"]) for name, f in factors.items()},
            {name: float(f["temperature"]) for name, f in factors.items()},
            dict(raw.get("manifest", {})),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "factors": {
                name: {"temperature": self.temperature[name], "weights": dict(sorted(self.weights[name].items()))}
                for name in sorted(self.weights)
            },
            "manifest": dict(self.manifest),
        }

    def probabilities(self, factor: str, features: Sequence[Mapping[str, float]]) -> list[float]:
        """The softmax of the candidates' scores (a factor with no weights: uniform)."""
        w = self.weights.get(factor, {})
        t = self.temperature.get(factor, 1.0)
        get = w.get  # each feature's weight times its value, summed in the features' order (as written)
        scores = [sum(map(operator.mul, map(get, f, _ZEROS), f.values())) / t for f in features]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        total = sum(exps)
        return [e / total for e in exps]

    def trained_on(self, question: str) -> bool:
        """Whether this model was trained on a problem with this question (by checksum)."""
        return question_checksum(question) in self._training

    @functools.cached_property
    def _training(self) -> frozenset[str]:
        return frozenset(self.manifest.get("training_questions", ()))


def question_checksum(question: str) -> str:
    """The first 16 hex digits of sha256 of a question: how the manifest knows its training problems."""
    return hashlib.sha256(question.encode("utf-8")).hexdigest()[:16]


@functools.lru_cache(maxsize=1)
def load_model() -> Model | None:
    """The shipped model (None when the package has none: reading is then the rules' alone)."""
    path = resources.files("ssbg.reading.learned").joinpath(MODEL_FILE)
    if not path.is_file():
        return None
    return Model.from_dict(json.loads(path.read_text(encoding="utf-8")))


_SHIPPED = object()  # no override: the shipped model
_OVERRIDE: contextvars.ContextVar[Model | object | None] = contextvars.ContextVar("ssbg_reader_model", default=_SHIPPED)


@contextlib.contextmanager
def using(model: Model | None) -> Iterator[None]:
    """Read with ``model`` instead of the shipped one (None: the rules alone) inside the block: how
    training scores a fold with a model that never saw it (per thread and task: a context variable)."""
    token = _OVERRIDE.set(model)
    try:
        yield
    finally:
        _OVERRIDE.reset(token)


_KEEP: contextvars.ContextVar[bool] = contextvars.ContextVar("ssbg_keep_readings", default=False)


@contextlib.contextmanager
def keeping_readings(keep: bool = True) -> Iterator[None]:
    """Inside the block, reading keeps each mention's and each operand's n-best readings (:data:`N_BEST`) with
    their probabilities on the trace (``Mention.readings``, ``Operand.readings``); what is chosen is the same.
    Outside it (the default) traces carry none, so corpus traces and graphs are byte-identical (ADR 0027)."""
    token = _KEEP.set(keep)
    try:
        yield
    finally:
        _KEEP.reset(token)


def readings_kept() -> bool:
    """Whether reading keeps the n-best readings here (:func:`keeping_readings`)."""
    return _KEEP.get()


def current_model() -> Model | None:
    """The model reading uses here: the one :func:`using` set, else the shipped one."""
    found = _OVERRIDE.get()
    return load_model() if found is _SHIPPED else found  # type: ignore[return-value]


class UnitReading(NamedTuple):
    """One reading of a mention: what it counts or measures, per what, and how probable it is."""

    unit: str | None  # lemma
    unit_surface: str | None
    per: str | None
    per_surface: str | None
    probability: float
    rule: bool  # the rules' own reading

    def unit_text(self) -> str | None:
        """The unit as a reader writes it (``$ per combo``), or None for a bare number."""
        if self.unit is None:
            return None
        surface = self.unit_surface or self.unit.replace("_", " ")
        if self.per is None:
            return surface
        return f"{surface} per {self.per_surface or self.per.replace('_', ' ')}"


def mention_readings(
    toks: Sequence[Token],
    m: Mention,
    mentions: Sequence[Mention],
    index: TextIndex,
    model: Model,
    neighbours: Neighbours | None = None,
) -> list[UnitReading]:
    """The :data:`N_BEST` most probable readings of a mention, best first (the rules' reading wins ties)."""
    units = unit_candidates(toks, m, mentions, index, neighbours)
    pers = per_candidates(toks, m, index)
    ctx = MentionContext.of(toks, m, index)
    rnum, _, rule_per, _ = reading_of(m)
    pu = model.probabilities("unit", [unit_features(c, ctx) for c in units])
    pp = model.probabilities("per", [per_features(c, ctx, rnum) for c in pers])
    masses: list[float] = []
    ranked: list[tuple[float, bool, int, int]] = []  # (-probability, not the rules' reading, i, j): best first
    for i, u in enumerate(units):
        qu, unit, rule = pu[i], u.lemma, u.rule
        for j, p in enumerate(pers):
            per = p.lemma
            if per is not None and (unit is None or per == unit):
                continue  # a per differs from its unit; a bare number is per nothing
            q = qu * pp[j]
            masses.append(q)
            ranked.append((-q, not (rule and per == rule_per), i, j))
    total = sum(masses) or 1.0
    ranked.sort()
    out = []
    for q, _, i, j in ranked[:N_BEST]:
        u, p = units[i], pers[j]
        out.append(UnitReading(u.lemma, u.surface, p.lemma, p.surface, -q / total, u.rule and p.lemma == rule_per))
    return out


def _applied(m: Mention, readings: Sequence[UnitReading], pack: UnitPack) -> Mention:
    best = readings[0]
    unit = m.unit if best.rule else best.unit_text()
    lemma = m.lemma if best.rule else (None if unit is None else unit_lemma(unit, pack))
    alt = None
    if unit is not None and len(readings) > 1 and readings[1].probability >= ALT_MIN:
        second = m.unit if readings[1].rule else readings[1].unit_text()
        if second is not None and second != unit:
            alt = second
    kept: tuple[UnitReadingChoice, ...] = ()
    if readings_kept():
        mass: dict[str | None, float] = {}
        for r in readings:  # two readings may write one unit (the rules' and the model's): one reading, summed
            text = m.unit if r.rule else r.unit_text()
            mass[text] = mass.get(text, 0.0) + r.probability
        if unit not in mass:  # the rules' reading stood (kept as chosen)
            mass = {unit: readings[0].probability, **mass}
        kept = tuple(UnitReadingChoice(u, round(q, 6)) for u, q in mass.items())
    if unit == m.unit and lemma == m.lemma and alt == m.alt_unit and not kept:
        return m
    return replace(m, unit=unit, lemma=lemma, alt_unit=alt, readings=kept)


def read_units(toks: Sequence[Token], mentions: Sequence[Mention], pack: UnitPack) -> tuple[Mention, ...]:
    """Each quantity mention of a question with its most probable unit reading (see the module)."""
    model = current_model()
    if model is None or not mentions:
        return tuple(mentions)
    index = TextIndex.of(toks)
    neighbours = Neighbours.of(mentions)
    out = []
    for m in mentions:
        if m.source != "text" or m.kind != "quantity" or not toks:
            out.append(m)
            continue
        out.append(_applied(m, mention_readings(toks, m, mentions, index, model, neighbours), pack))
    return tuple(out)
