"""A formula's numbers chosen together (:func:`plan_formula`): the highest total score, one mention read
for two numbers costing :data:`REUSE_PENALTY`."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from ssbg.reading.formula import Literal
from ssbg.reading.grounding.candidates import CANDIDATE_RULES, Candidate
from ssbg.reading.grounding.scoring import _scored
from ssbg.reading.grounding.state import GroundingState

REUSE_PENALTY = 1.5
"""What using one mention for two numbers of one formula costs in :func:`plan_formula` (``12*12`` may be
one quantity squared, but two same-valued mentions are usually two quantities)."""

_MAX_JOINT = 4096  # readings a formula's joint choice weighs at most; beyond, each number takes its best


def plan_formula(g: GroundingState, items: Sequence[tuple[Literal, str | None]]) -> None:
    """Choose the readings of a formula's numbers together: the highest total score, where one mention
    read for two numbers costs :data:`REUSE_PENALTY` (``2 x $2`` for 2 cartons at $2 each).  The choice
    is kept on the state for :func:`ground`; numbers with no candidate are left to the later rules."""
    options: list[tuple[int, list[tuple[float, Candidate, str]]]] = []
    for lit, op in items:
        at = g.literal_at(lit)
        if at is not None and (at in g.plan or at in g.planned_scores):
            continue  # the solution's plan weighed it already
        candidates: list[Candidate] = []
        for _name, propose in CANDIDATE_RULES:
            candidates.extend(propose(g, lit, op))
        if candidates:
            scored = _scored(g, lit, candidates, op)
            g.scores[id(lit)] = scored
            options.append((id(lit), scored[:4]))
    g.scored_over = g.mentions
    mentioned = sum(1 for _, scored in options if any(c.key[0] == "mention" for _, c, _ in scored))
    if mentioned < 2:
        return
    size = 1
    for _, scored in options:
        size *= len(scored)
    if size > _MAX_JOINT:
        return
    best_total, best_pick = float("-inf"), None
    for pick in itertools.product(*(range(len(scored)) for _, scored in options)):
        total = 0.0
        seen: set[tuple[Any, ...]] = set()
        for (_, scored), k in zip(options, pick, strict=True):
            score, c, _why = scored[k]
            total += score
            if c.key[0] == "mention":
                if c.key in seen:
                    total -= REUSE_PENALTY
                seen.add(c.key)
        if total > best_total + 1e-9:
            best_total, best_pick = total, pick
    if best_pick is not None:
        for (lit_id, scored), k in zip(options, best_pick, strict=True):
            g.formula_plan[lit_id] = scored[k][1].key
