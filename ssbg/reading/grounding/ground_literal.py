"""One literal grounded (:func:`ground`): a gold alignment where the corpus gives one, else the chosen
candidate, else the first derived rule that explains it, else ``operand_not_found``."""

from __future__ import annotations

import dataclasses

from ssbg.errors import ImportRefusal
from ssbg.reading.formula import Literal
from ssbg.reading.grounding.candidates import CANDIDATE_RULES, Candidate
from ssbg.reading.grounding.choice import _as_added, _choose
from ssbg.reading.grounding.derived import GROUNDING_RULES
from ssbg.reading.grounding.state import GroundingState
from ssbg.trace import Operand


def _gold_alignment(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'X=(27.0*16.0)' aligned to the text by the corpus: 27.0 is the mention its position names."""
    by_position = g.aligned
    if by_position is None:
        return None
    if not 0 <= lit.position < len(by_position):
        raise ImportRefusal(f"no gold alignment for {lit.text}", reason="operand_not_found", detail=lit.text)
    return _used_mention(g, by_position[lit.position], lit)


def _used_mention(g: GroundingState, i: int | None, lit: Literal) -> Operand | None:
    """The operand of the given mention ``i`` (None: there is none), which is now used."""
    if i is None:
        return None
    g.used.add(i)
    return Operand(mention=i, text=lit.text)


def ground(g: GroundingState, lit: Literal, op: str | None = None) -> Operand:
    """Ground one literal: a gold alignment where the corpus gives one; else the best of its candidates
    (:data:`CANDIDATE_RULES`, weighed by :func:`_choose`); else the first rule of :data:`GROUNDING_RULES`
    that derives it.  The operand records where the literal is written (``at``) and why it was chosen.

    ``op`` is the operation the literal is an operand of (a constant may be preferred by it).

    Raises
    ------
    ImportRefusal
        ``operand_not_found`` when nothing explains the number (or a gold alignment misses it); the
        refusal names no problem: :class:`StepBuilder` fills that in.
    """
    aligned = _gold_alignment(g, lit, op)
    if aligned is not None:
        return dataclasses.replace(aligned, at=g.literal_at(lit), why="the corpus's alignment")
    at = g.literal_at(lit)
    planned = g.planned_scores.pop(at, None) if at is not None else None
    if planned is not None and planned[0] == lit.value:
        scored = _as_added(g, planned[1])
        if scored:
            return _choose(g, lit, [], scored)
    if id(lit) in g.scores and g.mentions is g.scored_over:
        # plan_formula read its candidates over the same mentions (a rule may widen or narrow one), so they
        # are there still; _choose takes the scores it read
        return _choose(g, lit, [])
    candidates: list[Candidate] = []
    for _name, propose in CANDIDATE_RULES:
        candidates.extend(propose(g, lit, op))
    if candidates:
        return _choose(g, lit, candidates, op=op)
    for name, rule in GROUNDING_RULES:
        operand = rule(g, lit, op)
        if operand is not None:
            return dataclasses.replace(operand, at=g.literal_at(lit), why=name.replace("_", " "))
    if g.last_resort is not None and (operand := g.last_resort(g, lit, op)) is not None:  # issue 19: a checker's
        return dataclasses.replace(operand, at=g.literal_at(lit), why="nothing states it")
    raise ImportRefusal(
        f"{lit.text} is neither in the text, an earlier step, a cued constant nor the solution",
        reason="operand_not_found",
        detail=lit.text,
    )
