"""The choice of one literal's reading (:func:`_choose`): the joint plan's where one was made, else the
best score, with a reading within :data:`TIE_MARGIN` recorded as its alternative; and the readings a
solution's plan weighed, as the literal is added (:func:`_as_added`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ssbg.reading.formula import Literal
from ssbg.reading.grounding.candidates import Candidate
from ssbg.reading.grounding.scoring import _scored
from ssbg.reading.grounding.state import GroundingState
from ssbg.reading.learned.model import N_BEST, current_model, readings_kept
from ssbg.trace import Operand, SourceReading

TIE_MARGIN = 0.3
"""Two readings whose scores differ by less than this are a tie: the operand records both (ADR 0018)."""


def _as_added(g: GroundingState, scored: list[tuple[float, Candidate, str]]) -> list[tuple[float, Candidate, str]]:
    """The readings a plan weighed, as the literal is added: an annotation's result becomes the step its
    formula became (a result whose formula made no step is dropped), a mention used since costs its reuse."""
    out: list[tuple[float, Candidate, str]] = []
    for score, c, why in scored:
        if c.key[0] == "at":
            step = g.step_at.get(c.key[1])
            if step is None or step >= g.own_steps_from:
                continue
            c = c._replace(reading=c.reading._replace(step=step), key=("step", step))  # noqa: PLW2901
        elif c.key[0] == "mention" and c.key[1] in g.used:
            score -= 1.0  # noqa: PLW2901 - the reuse the plan priced by its columns
        out.append((score, c, why))
    order = sorted(range(len(out)), key=lambda k: (-out[k][0], k))
    return [out[k] for k in order]


def _choose(
    g: GroundingState,
    lit: Literal,
    candidates: list[Candidate],
    prescored: list[tuple[float, Candidate, str]] | None = None,
    op: str | None = None,
) -> Operand:
    """The reading the formula's joint choice made (:func:`plan_formula`), else the best-scored one; the
    best other reading is its alternative when their scores tie (within :data:`TIE_MARGIN`)."""
    at = g.literal_at(lit)
    scored = prescored or g.scores.pop(id(lit), None) or _scored(g, lit, candidates, op)
    planned = g.formula_plan.get(id(lit))
    if planned is None and at is not None and at in g.plan:
        planned = g.plan[at]
        if planned[0] == "at":  # an annotation's result: the step its formula became
            planned = ("step", g.step_at.get(planned[1], -1))
    chosen = next((item for item in scored if item[1].key == planned), scored[0]) if planned else scored[0]
    score, best, why = chosen
    target = best.key[:2]
    runner = next((item for item in scored if item[1].key[:2] != target), None)
    note = best.label + (f" ({why})" if why else "")
    if chosen is not scored[0] and scored[0][1].key[:2] != target:
        note += f"; chosen with the formula's other numbers over {scored[0][1].label}"
    alternative = None
    if runner is not None and abs(score - runner[0]) < TIE_MARGIN:
        alternative = runner[1].reading.operand(at)
        note += f"; tie with {runner[1].label}"
    if best.key[0] == "mention":
        g.used.add(best.key[1])
    readings = _source_readings(scored, target, at) if readings_kept() else ()
    return best.reading.operand(at, note, alternative, readings)  # built once, its readings with it


def _source_readings(
    scored: Sequence[tuple[float, Candidate, str]], chosen: tuple[Any, ...], at: int | None
) -> tuple[SourceReading, ...]:
    """The :data:`N_BEST` most probable sources of a literal (the chosen one among them) with their probabilities:
    the softmax of the scores over the distinct things they point at, divided by the scorer's temperature (ADR
    0021's calibration; 1 for the rules' scores).  What the checker weighs (ADR 0027), never what is chosen."""
    first = scored[0][1]
    if all(c.key[:2] == first.key[:2] for _, c, _ in scored):  # one thing (3 literals in 4): all its probability
        return (SourceReading(first.reading.operand(at), 1.0),)
    model = current_model()
    t = model.temperature.get("operand", 1.0) if model is not None and model.weights.get("operand") else 1.0
    best: dict[tuple[Any, ...], tuple[float, Candidate]] = {}
    for score, c, _ in scored:  # one thing proposed twice (a mention and its scaled reading) keeps its best score
        if c.key[:2] not in best or score > best[c.key[:2]][0]:
            best[c.key[:2]] = (score, c)
    top = max(score for score, _ in best.values())
    weight = {key: math.exp((score - top) / t) for key, (score, _) in best.items()}
    total = sum(weight.values())
    ranked = sorted(best, key=lambda key: -weight[key])
    kept = ranked[:N_BEST] if chosen in ranked[:N_BEST] else [chosen, *ranked[: N_BEST - 1]]
    return tuple(
        SourceReading(best[key][1].reading.operand(at), round(weight[key] / total, 6))
        for key in sorted(kept, key=lambda key: (key != chosen, -weight[key]))
    )
