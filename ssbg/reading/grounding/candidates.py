"""The candidates of a literal (:class:`Candidate`, each a :class:`Reading` with a prior) and the
proposers that give them, in :data:`CANDIDATE_RULES`: earlier steps, text mentions, cued constants,
scaled mentions, the solution's cue words, the parts of a fraction."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from ssbg.reading.cues import KNOWLEDGE_CONSTANTS, SELF_COMPANION_CUE, find_cue_occurrences, find_cues
from ssbg.reading.formula import Literal, close
from ssbg.reading.grounding.literals import _value_key
from ssbg.reading.grounding.state import GroundingState, _is_fraction_part
from ssbg.trace import Operand, SourceReading


def _decimals(text: str) -> int:
    _, dot, frac = text.rstrip("%").partition(".")
    return len(frac) if dot else 0


_MULTIPLIERS = frozenset({"twice", "thrice", "quadruple", "both", "round_trip"})
_DIVISORS = frozenset({"half", "third", "quarter", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"})


_PART_OF_A_WHOLE = re.compile(r"(?<![\d.])0?\.\d|/\s*100(?!\d)|%|\d\s*/\s*\(?\d")  # 0.3, /100, 1/6 beside a 1


# ============================================================================ candidates
#
# The ordinary readings of a literal compete: every earlier step, text mention, cued constant and scaled
# mention with its value is a candidate.  Each proposer below gives its candidates with a prior (the order
# ADR 0004 ranked them in: the solution's own results first, then what the text states, then what it only
# implies); ground() adds the evidence of the words (ssbg.reading.evidence) and takes the best, recording a
# tie.  The rules after them (GROUNDING_RULES) are tried, first answer wins, only for a literal that has no
# candidate: they derive numbers the text states without writing them.


Readings = tuple[SourceReading, ...]


class Reading(NamedTuple):
    """The fields of the operand a candidate would be (:class:`~ssbg.trace.Operand`'s first five, in its
    order): the operand is built only for the candidate chosen, with where and why (a validated value
    costs; most candidates lose)."""

    mention: int | None = None
    step: int | None = None
    constant: str | None = None
    cue: tuple[int, int] | None = None
    text: str | None = None

    def operand(
        self, at: int | None, why: str | None = None, alternative: Operand | None = None, readings: Readings = ()
    ) -> Operand:
        """The operand this reading is, written at ``at``, chosen for ``why`` (with its n-best ``readings``)."""
        return Operand(self.mention, self.step, self.constant, self.cue, self.text, at, why, alternative, readings)


class Candidate(NamedTuple):
    """One reading of a literal: the operand it would be (``reading``), what it points at (``key``), its
    prior, a label for ``why``, and what its words are read from (``source``: see
    :meth:`GroundingState.candidate_words`; read only when the literal has two candidates or more)."""

    reading: Reading
    key: tuple[Any, ...]
    prior: float
    label: str
    source: tuple[Any, ...]


CandidateRule = Callable[[GroundingState, Literal, str | None], list[Candidate]]


def _step_candidates(g: GroundingState, lit: Literal, op: str | None) -> list[Candidate]:
    """'24/4' after '48/2=24': 24 is the result of the earlier step (the most recent first)."""
    # Never one of the formula's own steps; a literal with decimals also stands for a result it rounds
    # ("3.33" for 3.3333), "60%" for a result of 60 percent.  While a solution is planned
    # (plan_solution), the results are those its annotations state, by offset.
    value, text = lit.value, lit.text
    places = _decimals(text) if "." in text else 0
    tolerance = 0.5 * 10 ** (-places) + 1e-9 if places else 0.0
    percent = text.endswith("%")
    out: list[Candidate] = []
    virtual, steps, values = g.virtual, g.steps, g.step_values
    unit: str | None
    at: int | None
    for i in range(len(virtual) if virtual is not None else g.own_steps_from)[::-1]:  # the latest first
        if virtual is not None:
            at, r, unit = virtual[i]
        else:
            r, at, unit = values[i], None, None  # the step's fields are read only for a candidate
        exact = r == value or abs(r - value) <= 1e-9 * max(1.0, abs(r), abs(value))
        if not (exact or (places and abs(r - value) <= tolerance)) and not (
            percent and (steps[i].unit if virtual is None else unit) == "%" and close(r, value * 100)
        ):
            continue
        if virtual is None:
            unit, at = steps[i].unit, steps[i].at
        prior = 2.6 - 0.05 * min(len(out), 10) - (0.0 if exact else 0.02)
        key = ("at", at) if virtual is not None else ("step", i)
        out.append(Candidate(Reading(step=i, text=text), key, prior, f"step {i}", ("result", key, unit, at)))
        if len(out) == MAX_CANDIDATES:  # the latest ones (ADR 0033)
            break
    return out


def _mention_candidates(g: GroundingState, lit: Literal, op: str | None) -> list[Candidate]:
    """'48/2' where the text says '48 apples': 48 is that mention (an unused one first)."""
    return _mentions_by(g, lit, g.by_value.get(_value_key(lit.value)), 2.0, "mention")


def _scaled_candidates(g: GroundingState, lit: Literal, op: str | None) -> list[Candidate]:
    """'0.2*50' where the text says '20%': 0.2 is the 20% (``half a dozen`` for 6, ``1.5 million`` for 1.5)."""
    exact = g.by_value.get(_value_key(lit.value)) or ()
    found = [i for i in g.by_scaled.get(_value_key(lit.value), ()) if i not in exact]
    return _mentions_by(g, lit, found, 1.2, "scaled mention")


MAX_CANDIDATES = 32
"""The most candidates one proposer gives a literal: the first unused mentions of its value and the first used
ones (:data:`MAX_CANDIDATES` each), the latest earlier results.  A question of GSM8K states at most 19 numbers,
so no real literal has more and no reading of one changes; a question stating one number 2,000 times (within
the caps) is read in work linear in its size, not in the product of its mentions and the solution's numbers
(ADR 0033)."""


def _first_mentions(g: GroundingState, found: Sequence[int]) -> Sequence[int]:
    """``found`` (a value's mentions, in text order) once each, or past :data:`MAX_CANDIDATES` the first
    :data:`MAX_CANDIDATES` unused and used ones, in text order."""
    if len(found) <= MAX_CANDIDATES:
        return list(dict.fromkeys(found))
    fresh: dict[int, None] = {}
    used: dict[int, None] = {}
    for i in found:
        into = used if i in g.used else fresh
        if len(into) < MAX_CANDIDATES:
            into[i] = None
        elif len(fresh) >= MAX_CANDIDATES and len(used) >= MAX_CANDIDATES:
            break
    return sorted({**fresh, **used})


def _mentions_by(
    g: GroundingState, lit: Literal, found: Sequence[int] | None, prior: float, label: str
) -> list[Candidate]:
    if not found:
        return []
    out: list[Candidate] = []
    for rank, i in enumerate(_first_mentions(g, found)):
        p = prior - (1.0 if i in g.used else 0.0) - 0.01 * rank
        reading = Reading(mention=i, text=lit.text)
        out.append(Candidate(reading, ("mention", i), p, f"{label} {g.mentions[i].text!r}", ("mention", i)))
    return out


_KNOWLEDGE_DISCOUNT = 0.4  # a fact of the world (a dog's 4 legs) weighs below a scaled mention (1.2): ADR 0037


def _solution_says(g: GroundingState, cid: str, value: float) -> bool:
    """Whether the solution's own words cue constant ``cid`` (it states that fact: its number grounds)."""
    return g.solution is not None and any(c.constant_id == cid for c in find_cues(g.blanked_solution, value))


def _a_whole(g: GroundingState, op: str | None) -> bool:
    """Whether a 1 may be the whole: in a difference or a quotient, or beside a part of a whole (``1 + 0.3``)."""
    return op in ("subtract", "divide") or _PART_OF_A_WHOLE.search(g.formula_text) is not None


def _self_span(g: GroundingState) -> tuple[int, int] | None:
    """The words that cue ``self``: its own ('including him', '3 other people'), else a group named with a
    possessive ('his 3 friends'); None."""
    cue = next((c for c in find_cues(g.text, 1, fallback=True) if c.constant_id == "self"), None)
    if cue is not None:
        return cue.start, cue.end
    hit = SELF_COMPANION_CUE.search(g.text)
    return None if hit is None else (hit.start(), hit.end())


def _self_counted(g: GroundingState, lit: Literal, op: str | None) -> bool:
    """Whether a 1 is added where the text counts a person with their group and no part of a whole is near:
    the whole a solution's words cue ('12/4' in its prose) is then no candidate, the person is (issue 36)."""
    return lit.value == 1 and op == "add" and not _a_whole(g, op) and _self_span(g) is not None


def _self_candidates(g: GroundingState, lit: Literal, op: str | None) -> list[Candidate]:
    """'3+1' with 'Greg and his 3 friends': 1 is Greg himself (the constant ``self``, cued by the group he
    names with a possessive or by 'including him', '3 other people'), a candidate the scorer weighs."""
    if lit.value != 1 or op != "add":
        return []
    span = _self_span(g)
    if span is None:
        return []
    reading = Reading(constant="self", cue=span, text=lit.text)
    label = f"constant self (cue {g.text[span[0] : span[1]]!r})"
    return [Candidate(reading, ("constant", "self", span[0]), 1.5, label, ("cue", span[0], span[1], "self"))]


def _cued_candidates(g: GroundingState, lit: Literal, op: str | None) -> list[Candidate]:
    """'48/2' after 'half as many': 2 is the constant half (a multiplier preferred in a product, a divisor
    in a quotient; each place the cue words occur is a candidate of its own)."""
    cues = find_cue_occurrences(g.text, lit.value)
    if not cues:
        return []
    preferred = _MULTIPLIERS if op == "multiply" else _DIVISORS if op == "divide" else frozenset()
    out: list[Candidate] = []
    ranks: dict[str, int] = {}
    for cue in cues:
        cid = cue.constant_id
        if cid == "whole" and not _a_whole(g, op):
            continue  # the whole of a complement (1 - 1/4), an increase (1 + 0.3) or a job (1/4 hours), not a count
        if any(
            m.start <= cue.start and cue.end <= m.end and m.kind != "quantity" and _is_fraction_part(g, i, lit.value)
            for i, m in enumerate(g.mentions)
        ):
            continue  # "One-third": the fraction mention itself is the candidate (its part), not its word
        if cid in KNOWLEDGE_CONSTANTS and _solution_says(g, cid, lit.value):
            continue  # "Each bicycle has 2 wheels" in the solution: the number it states, not the fact again
        rank = ranks[cid] = ranks.get(cid, -1) + 1
        prior = 1.5 + (0.2 if cid in preferred else 0.0) - 0.01 * rank - 0.02 * len(ranks)
        if cid in KNOWLEDGE_CONSTANTS:
            prior -= _KNOWLEDGE_DISCOUNT
        reading = Reading(constant=cid, cue=(cue.start, cue.end), text=lit.text)
        label = f"constant {cid} (cue {g.text[cue.start : cue.end]!r})"
        out.append(Candidate(reading, ("constant", cid, cue.start), prior, label, ("cue", cue.start, cue.end, cid)))
    return out


def _solution_cued_candidates(g: GroundingState, lit: Literal, op: str | None) -> list[Candidate]:
    """'3*2' where the solution says 'He does this twice a day': 2 is the constant twice (no cue span)."""
    if g.solution is None:
        return []
    # a fact of the world the solution words ("Each car has 4 wheels") it states itself: its number, not a constant
    cues = [
        c
        for c in find_cues(g.blanked_solution, lit.value)
        if c.constant_id not in KNOWLEDGE_CONSTANTS and (c.constant_id != "whole" or not _self_counted(g, lit, op))
    ]
    if not cues:
        return []
    cid, start, end = cues[0].constant_id, cues[0].start, cues[0].end
    label = f"constant {cid} (the solution's words)"
    return [Candidate(Reading(constant=cid, text=lit.text), ("constant", cid), 0.8, label, ("said", start, end, cid))]


def _fraction_part_candidates(g: GroundingState, lit: Literal, op: str | None) -> list[Candidate]:
    """'60/3' with 'one-third of them': 3 is the denominator of the fraction mention (the 5 of '20%' too)."""
    return _mentions_by(g, lit, g.fraction_parts.get(lit.value), 1.6, "part of")


CANDIDATE_RULES: tuple[tuple[str, CandidateRule], ...] = (
    ("earlier_step", _step_candidates),
    ("text_mention", _mention_candidates),
    ("cued_constant", _cued_candidates),
    ("scaled_mention", _scaled_candidates),
    ("solution_cue", _solution_cued_candidates),
    ("self", _self_candidates),
    ("fraction_part", _fraction_part_candidates),
)
"""The proposers of a literal's ordinary readings, each with a one-line example; :func:`ground` weighs them."""
