"""Grounding: what each number of a solution's formulas stands for, and the trace steps they make (edge).

:func:`~ssbg.reading.formula.parse_formula` reads a corpus formula into a tree;
:class:`StepBuilder` flattens trees into :class:`~ssbg.trace.Step` values (a
chain of one operator is one step, ``a - b - c``; every other operator a step of
its own; sub-expressions become implicit steps) and grounds each number with
:func:`ground` (ADR 0018):

1. a gold alignment, where the corpus gives one (CogComp);
2. else the literal's **candidates** compete: every earlier step with its value
   (never one of the formula's own sub-steps; a literal with decimals also matches a
   result it rounds), every text mention with its value, every place the words of a
   constant with its value occur (``60`` and "an hour"), every mention whose unit
   scales to it (``20%`` for ``0.2``), a constant the solution's words cue.  Each
   proposer of :data:`CANDIDATE_RULES` gives its candidates with a prior (the order
   ADR 0004 ranked them in); the words add their evidence
   (:mod:`ssbg.reading.evidence`): the unit words the literal's twin carries in the
   line's prose (``4 * $3``), and the words the line shares with each candidate's.  A
   formula's numbers are chosen together (:func:`plan_formula`: one mention for two
   numbers costs :data:`REUSE_PENALTY`), a GSM8K solution's annotations all at once
   (:func:`plan_solution`, an assignment where a mention's first use earns
   :data:`COVER_BONUS`).  Units never take part.  Two readings within
   :data:`TIE_MARGIN` are a tie: the operand records the other as its ``alternative``,
   and every operand records why it was chosen;
3. else the first rule of :data:`GROUNDING_RULES` that derives the number from what
   the text states without writing it: the complement of a percentage (``.8`` for
   ``20%``), a part of a fraction, a number the solution's prose states, a list the
   text counts (``Monday to Thursday`` for 4), a conversion of a mention by a cued
   constant (``two weeks`` x 7), ``k + 1`` parts of "k times as many", a fallback
   constant (``every other``, ``parents``), the persons the text names as a divisor,
   ``n + 1`` with ``self``, ``two and a half``, ``every 6 months``, a number-word measure
   (``a fifty-dollar bill``), ``1 hour 30 minutes``.

A rule is a function of the problem's :class:`GroundingState` (the text, its
mentions, the steps so far, the mentions used), the literal and the operation it
is an operand of.  A number nothing explains refuses the record with
:class:`~ssbg.errors.ImportRefusal` reason ``operand_not_found``; nothing is guessed.

The rules and the choice live in rooms of this package; a room imports only rooms below it in this
order (``tests/test_layering.py`` checks it, ADR 0025): ``unit_words``, ``literals``, ``state``,
``candidates``, ``scoring``, ``choice``, ``formula_plan``, ``solution_plan``, ``derived``,
``ground_literal``, ``trees``, ``renumbering``, ``steps``.  This module only gathers the public
names.

Examples
--------
>>> from ssbg.reading.mentions import extract_mentions
>>> text = "Weng earns $12 an hour. She worked 50 minutes. How much did she earn?"
>>> b = StepBuilder("w1", "example", text, extract_mentions(text))
>>> b.add_formula("12/60=0.2", unit="$ per minute"), b.add_formula("0.2*50=10", unit="$")
(True, True)
>>> [(s.op, [o.source for o in s.operands]) for s in b.build().steps]
[('divide', ['mention', 'constant']), ('multiply', ['step', 'mention'])]
>>> [name for name, _ in CANDIDATE_RULES]
['earlier_step', 'text_mention', 'cued_constant', 'scaled_mention', 'solution_cue', 'self', 'fraction_part']
"""

from __future__ import annotations

from ssbg.reading.grounding.candidates import CANDIDATE_RULES, Candidate, CandidateRule, Reading
from ssbg.reading.grounding.choice import TIE_MARGIN
from ssbg.reading.grounding.derived import GROUNDING_RULES
from ssbg.reading.grounding.formula_plan import REUSE_PENALTY, plan_formula
from ssbg.reading.grounding.ground_literal import ground
from ssbg.reading.grounding.literals import blank_annotations as blank_annotations
from ssbg.reading.grounding.scoring import OBSERVERS as OBSERVERS
from ssbg.reading.grounding.solution_plan import COVER_BONUS, plan_solution
from ssbg.reading.grounding.solution_plan import MAX_PLAN_CELLS as MAX_PLAN_CELLS
from ssbg.reading.grounding.state import GroundingRule, GroundingState
from ssbg.reading.grounding.steps import MAX_FORMULAS, StepBuilder

__all__ = [
    "CANDIDATE_RULES",
    "COVER_BONUS",
    "GROUNDING_RULES",
    "MAX_FORMULAS",
    "REUSE_PENALTY",
    "TIE_MARGIN",
    "Candidate",
    "CandidateRule",
    "GroundingRule",
    "GroundingState",
    "Reading",
    "StepBuilder",
    "ground",
    "plan_formula",
    "plan_solution",
]
