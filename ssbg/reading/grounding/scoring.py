"""The score of each candidate (:func:`_scored`): the learned operand scorer's where a model is loaded,
else the prior plus the evidence of the words (a twin's unit word, the words the line shares); the
features it reads, and the :data:`OBSERVERS` training reads them through."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ssbg.reading.evidence import overlap
from ssbg.reading.formula import Literal
from ssbg.reading.grounding.candidates import Candidate
from ssbg.reading.grounding.state import GroundingState
from ssbg.reading.grounding.unit_words import _NO_WORDS
from ssbg.reading.learned.model import current_model
from ssbg.reading.learned.operands import operand_features

_W_TWIN = 2.0  # a twin written with the candidate's unit word
_W_MISMATCH = 1.0  # a twin written with another unit word
_W_OVERLAP = 0.5  # per weighted word the line shares with the candidate's words


def _evidence(g: GroundingState, lit: Literal, c: Candidate) -> tuple[float, str, int, float]:
    """What the words of the solution say for a candidate: its twin's unit words, then the line's words.
    Returns the hand-weighed score, why, the twin's say (+1 its unit, -1 another, 0 none) and the
    weighted words the line shares (the learned scorer's features)."""
    score = 0.0
    why = ""
    said = 0
    common = 0.0
    twin = g.twins[lit.position] if 0 <= lit.position < len(g.twins) else ()
    named = [w for w in twin if w]
    context, unit = g.candidate_words(c.source)
    if named and unit:
        hit = next((w for w in named if w in unit), None)
        if hit is not None:
            score += _W_TWIN
            why = f"written {hit!r}"
            said = 1
        else:
            score -= _W_MISMATCH
            why = f"written {named[0]!r}"
            said = -1
    if context:
        line = g.line_words()
        common = overlap(line, context)
        if common:
            score += _W_OVERLAP * common
            shared = sorted((w for w in line if w in context), key=lambda w: (-context[w], w))[:2]  # line: no repeats
            why = f"{why}, " if why else why
            why += "line says " + "/".join(shared)
    return score, why, said, common


OBSERVERS: list[Callable[[GroundingState, Literal, Sequence[Candidate], Sequence[Mapping[str, float]]], None]] = []
"""Called with every literal's candidates and their features as they are scored (training reads them)."""


def _features(
    g: GroundingState, lit: Literal, candidates: Sequence[Candidate], op: str | None, *, featured: bool = True
) -> list[tuple[Mapping[str, float], str, float]]:
    """Each candidate's learned-scorer features (none unless ``featured``: only a scorer or the training
    reads them), why, and hand-weighed evidence."""
    out: list[tuple[Mapping[str, float], str, float]] = []
    steps_seen = 0
    for rank, c in enumerate(candidates):
        evidence, why, said, common = _evidence(g, lit, c) if g.solution is not None else (0.0, "", 0, 0.0)
        kind = "step" if c.key[0] in ("at", "step") else c.key[0]
        recency = None
        if kind == "step":
            recency = steps_seen
            steps_seen += 1
        features = _NO_WORDS if not featured else operand_features(
            kind, c.label, c.prior, rank=rank, n=len(candidates), used=kind == "mention" and c.key[1] in g.used,
            twin=said, overlap=common, op=op, recency=recency, constant=c.key[1] if kind == "constant" else None,
            hand=c.prior + evidence,
        )  # fmt: skip
        out.append((features, why, evidence))
    return out


def _scored(
    g: GroundingState, lit: Literal, candidates: Sequence[Candidate], op: str | None = None
) -> list[tuple[float, Candidate, str]]:
    """Each candidate with its score and why, best first (the proposers' order breaks a tie of scores).
    The score is the learned scorer's (:mod:`ssbg.reading.learned`) where a model is loaded, else the
    prior plus the evidence of the words.  A lone candidate needs no words."""
    if len(candidates) == 1 and not OBSERVERS:
        return [(candidates[0].prior, candidates[0], "")]
    model = current_model()
    weights = None if model is None else model.weights.get("operand")
    rows = _features(g, lit, candidates, op, featured=bool(weights or OBSERVERS))
    for observe in OBSERVERS:
        observe(g, lit, candidates, [f for f, _, _ in rows])
    if len(candidates) == 1:
        return [(candidates[0].prior, candidates[0], "")]
    out = []
    for c, (features, why, evidence) in zip(candidates, rows, strict=True):
        score = sum(weights.get(k, 0.0) * v for k, v in features.items()) if weights else c.prior + evidence
        out.append((score, c, why))
    order = sorted(range(len(out)), key=lambda k: (-out[k][0], k))
    return [out[k] for k in order]
