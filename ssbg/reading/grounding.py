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
['earlier_step', 'text_mention', 'cued_constant', 'scaled_mention', 'solution_cue', 'fraction_part']
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import operator
import re
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple

from ssbg.constants import IMPLICIT_CONSTANTS
from ssbg.errors import ImportRefusal, ProblemGraphError
from ssbg.numbers import check_magnitude, number_or_none, parse_number
from ssbg.reading.counting import compound_measures, counted_mentions, listed_items, named_items
from ssbg.reading.cues import FALLBACK_CONSTANTS, SELF_COMPANION_CUE, find_cue_occurrences, find_cues
from ssbg.reading.evidence import mention_context, overlap, prose_twins, words
from ssbg.reading.formula import (
    BinOp,
    Literal,
    Node,
    Unity,
    Var,
    close,
    isolate,
    parse_equation,
    parse_formula,
)
from ssbg.reading.learned.model import N_BEST, current_model, readings_kept
from ssbg.reading.learned.operands import operand_features
from ssbg.reading.mentions import mention_at, pack_lookup, worded_mentions
from ssbg.trace import Mention, Operand, SourceReading, Step, Trace
from ssbg.units import UnitPack, default_pack

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

MAX_FORMULAS = 500  # formulas one record may try (GSM8K solutions have up to about 30)


def _value_key(value: float) -> float:
    """The key a mention is found under by value: ``round(value, 9)``; a whole number is its own key
    (rounding returns it unchanged, at many times the cost of the test)."""
    return value if value.is_integer() else round(value, 9)


def _decimals(text: str) -> int:
    _, dot, frac = text.rstrip("%").partition(".")
    return len(frac) if dot else 0


def _fraction_parts(value: float) -> tuple[int, int] | None:
    """``(numerator, denominator)`` of a simple fraction (denominator up to 12)."""
    whole = int(value)
    for den in range(2, 13):
        num = (value - whole) * den
        if abs(num - round(num)) < 1e-9 and round(num) > 0:
            return round(num) + whole * den, den
    return None


_APPLY: dict[str, Callable[[float, float], float]] = {
    "add": operator.add,
    "subtract": operator.sub,
    "multiply": operator.mul,
    "divide": operator.truediv,
}

_MULTIPLIERS = frozenset({"twice", "thrice", "quadruple", "both", "round_trip"})
_DIVISORS = frozenset({"half", "third", "quarter", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"})
_MIXED = re.compile(r"\d+\s+\d+\s*/\s*\d+")
# Words of an increase: "100% + p" is read for a percentage only where the text has one.
_INCREASE = re.compile(
    r"(?i)(?<![a-z])(?:more|increas\w*|rais\w*|rise[sn]?|rose|higher|bump\w*|mark(?:s|ed)?[- ]?up|interest|tax|"
    r"tips?|grow\w*|grew|gain\w*|profit\w*|return\w*|larger|bigger|longer|taller|extra|premium|inflation|up)(?![a-z])"
)


# Conversion constants "x_per_y" as (id, value, x, y): "2 weeks" x 7 days_per_week is 14 days.
def _conversion_table(*, fallback: bool) -> tuple[tuple[str, float, str, str], ...]:
    """(constant id, factor, numerator unit, denominator unit) of the ``X_per_Y`` constants: the ordinary
    ones, or the fallback ones whose cue names both units (month lengths convert no mention)."""
    return tuple(
        (c.constant_id, float(c.value), c.unit.partition("_per_")[0], c.unit.partition("_per_")[2])
        for c in IMPLICIT_CONSTANTS.values()
        if c.unit is not None
        and c.unit.count("_per_") == 1
        and (c.constant_id in FALLBACK_CONSTANTS) == fallback
        and not c.unit.endswith("_per_item")
        and not (fallback and c.unit == "day_per_month")
    )


_CONVERSIONS = _conversion_table(fallback=False)
# tried by the cued conversion rule only after every ordinary conversion
_CUED_CONVERSIONS = _conversion_table(fallback=True)
# Words of a total shared by parts ("twice as many ... in total", "combined", "share").
_SHARED = re.compile(r"(?i)(?<![a-z])(?:total|combined?|together|altogether|sum|in all|shared?|split|between)(?![a-z])")
# Words of an average or an equal share: a divisor may then count the persons (or weekdays) the text names.
_AVERAGE = re.compile(
    r"(?i)(?<![a-z])(?:average|mean|share[ds]?|sharing|equal(?:ly)?|even(?:ly)?|split|divide[ds]?|each)(?![a-z])"
)
_PLURALS = {"dollar": r"\$|dollars?", "foot": r"foot|feet"}  # a target unit as the text may write it
_EVERY = re.compile(r"(?i)(?<![a-z])every\s+$")
_FRACTION_RESULT = re.compile(r"(\d+)/(\d+)")
_PERCENT_RATE = re.compile(r"(?:%|percent) per ")
_COMPANION_LEMMAS = frozenset(
    {
        "friend",
        "sibling",
        "brother",
        "sister",
        "cousin",
        "classmate",
        "child",
        "kid",
        "teammate",
        "coworker",
        "roommate",
    }
)
_WRITTEN_FRACTION = re.compile(r"\d\s*/\s*\d")  # "2/5 times", "1/2 cup": a fraction the text writes
# The numbers of a formula in the order parse_formula numbers them (a name's digits are not one).
_PART_OF_A_WHOLE = re.compile(r"(?<![\d.])0?\.\d|/\s*100(?!\d)|%|\d\s*/\s*\(?\d")  # 0.3, /100, 1/6 beside a 1
_FIRST_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+\.?\d*|\.\d+")
_LITERAL_IN_FORMULA = re.compile(r"(?<![A-Za-z_\d.,])(?:\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+\.?\d*|\.\d+)")


def _equation_offsets(equation: str) -> tuple[int, ...] | None:
    """The offsets of an equation's numbers as :func:`~ssbg.reading.formula.parse_equation` numbers them:
    each side from 0, so only an equation whose numbers are on one side has them (``X=(54.0-28.0)``)."""
    left, eq, right = equation.partition("=")
    on_left = [m.start() for m in _LITERAL_IN_FORMULA.finditer(left)]
    on_right = [len(left) + len(eq) + m.start() for m in _LITERAL_IN_FORMULA.finditer(right)]
    if on_left and on_right:
        return None
    return tuple(on_left or on_right)


def _literal_value(text: str) -> float:
    return float(text.replace(",", ""))


_ANNOTATION = re.compile(r"<<[^<>]*>>")
_SCALE_WORD = re.compile(r"(?i)\b(?:thousand|million|billion)\b")
_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
_OPERATOR_BEFORE = re.compile(r"(?:[-+*/=(\u00d7\u00f7]|\bx)\s*\$?\s*$")
_OPERATOR_AFTER = re.compile(
    r"^\s*(?:%\s*)?(?:[=)_]|(?:[-+*/\u00d7\u00f7]|x\b)\s*[$(\d.]|\*\s*[A-Za-z](?![A-Za-z])|[A-Za-z](?![A-Za-z])\s*[-+*/=)]|\()"
)  # "10*x = 80", "2x + 4", "3(J - 11)": a coefficient of an algebra solution is arithmetic too


def _in_arithmetic(text: str, start: int, end: int) -> bool:
    """True for a number the prose writes inside arithmetic (``48/2 = ``, ``= 24``): a restated
    formula grounds nothing; only a number stated in words ("everyone has 2 legs") may."""
    return bool(_OPERATOR_BEFORE.search(text, max(0, start - 4), start)) or bool(
        _OPERATOR_AFTER.match(text[end : end + 4])
    )


_PROSE_NUMBER = re.compile(r"(?<![\w.,])(?P<cur>\$)?(?P<num>\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)")


def blank_annotations(solution: str) -> str:
    """The solution with every ``<<...>>`` annotation overwritten by ``_`` (offsets kept)."""
    return _ANNOTATION.sub(lambda m: "_" * len(m.group()), solution)


@functools.lru_cache(maxsize=65_536)
def _scale_factor(pack: UnitPack, unit: str) -> float | None:
    """The ratio of a dimensionless or count unit to its base (``percent``: 0.01), None for others and 1."""
    resolved = pack_lookup(pack, unit)
    if (
        resolved is None
        or resolved.ratio is None
        or resolved.ratio == 1
        or resolved.dimension.as_dict() not in ({}, {"count": 1})
    ):
        return None
    return float(resolved.ratio)


class GroundingState:
    """What the grounding rules of one problem read and extend.

    The problem's text, its mentions (a rule may widen or narrow one: ``half`` read
    as ``half an hour``), the pack and the worked solution; the steps so far and
    their values; the mentions used; the extra mentions operands point at
    (solution quotes, counted text mentions), by first use; where the formula
    being added stands.  Readings of the text the later rules need are made once,
    on first need.
    """

    def __init__(self, text: str, mentions: Sequence[Mention], pack: UnitPack, solution: str | None = None) -> None:
        self.text = text
        self.mentions = tuple(mentions)
        self.pack = pack
        self.solution = solution
        self.steps: list[Step] = []
        self.step_values: list[float] = []
        self.used: set[int] = set()
        self.quoted: list[Mention] = []  # extra mentions operands point at (solution quotes, counts), by first use
        self.position: int | None = None  # offset in the solution of the formula being added
        self.own_steps_from = 0  # the steps of the formula being added start here: none of its numbers is one of them
        self.aligned: Sequence[int | None] | None = None  # gold alignments of the equation being added, by position
        self.prose: tuple[tuple[int, float], ...] | None = None  # numbers of the solution prose, on first need
        self.prose_words: tuple[tuple[int, float], ...] | None = None
        self.counted_clear_of: tuple[tuple[int, int], ...] | None = None  # spans counted mentions keep clear of
        self._extracted = self.mentions  # as given (a rule may later widen or narrow one of self.mentions)
        self.by_value: dict[float, list[int]] = {}
        for i, m in enumerate(self.mentions):
            self.by_value.setdefault(_value_key(float(m.value)), []).append(i)
        self._blanked: str | None = None  # the solution with annotations blanked: see blanked_solution
        self._readings: dict[str, tuple[Any, ...]] = {}  # the later rules' readings of the text, on need
        # Where the formula being added was read: the offset of its text in the solution (or equation),
        # and the offset of each of its numbers there (None when the formula was rewritten from prose).
        self.formula_at: int | None = None
        self.formula_text = ""  # the formula being added, as written
        self.literal_offsets: tuple[int, ...] | None = None
        self.twins: tuple[tuple[str, ...], ...] = ()  # unit words of each literal's twin in the line's prose
        self.step_at: dict[int, int] = {}  # a formula's offset -> its top step (the steps a plan names)
        self.formula_plan: dict[int, tuple[Any, ...]] = {}  # id of a literal -> the reading its formula chose
        self.plan: dict[int, tuple[Any, ...]] = {}  # offset of a literal -> the reading plan_solution chose
        # offset of a literal -> its value and scored readings as the plan weighed them (reused when it is added)
        self.planned_scores: dict[int, tuple[float, list[tuple[float, Any, str]]]] = {}
        self.virtual: list[tuple[int, float, str | None]] | None = None  # annotations' results while planning
        self.scores: dict[int, list[tuple[float, Any, str]]] = {}  # id of a literal -> its scored readings
        self.scored_over: tuple[Mention, ...] | None = None  # the mentions as they were when scores were read
        self._contexts: dict[tuple[Any, ...], dict[str, float]] = {}
        self._line_words: dict[int | None, tuple[str, ...]] = {}  # a line's words, by the offset of its formula
        self._candidate_words: dict[tuple[Any, ...], tuple[Mapping[str, float], frozenset[str]]] = {}
        # Checking a solution (issue 19, ssbg.checking): a number only the solution's own prose states grounds
        # nothing (an invented number is evidence), and what no rule explains goes to ``last_resort`` (the
        # checker records it as a finding) instead of refusing the record.  Corpus reading keeps the defaults.
        self.solution_numbers = True  # False: the rule solution_number is off
        self.last_resort: GroundingRule | None = None

    @functools.cached_property
    def scaled(self) -> tuple[float | None, ...]:
        """Each given mention's value in its unit's scale (:meth:`scaled_value`), read on first need."""
        return tuple(self.scaled_value(m) for m in self._extracted)

    @functools.cached_property
    def fraction_parts(self) -> dict[float, list[int]]:
        """The mentions by the parts of the fraction they write (``one-third``: 1 and 3; ``20%``: 1 and 5;
        ``4 1/2``: 4 and 1/2), read on first need; a mention widened later keeps the parts it had."""
        out: dict[float, list[int]] = {}
        for i, m in enumerate(self.mentions):
            if m.kind == "quantity" and m.unit is None:
                continue
            for part in _parts_of(self, i):
                out.setdefault(part, []).append(i)
        return out

    @functools.cached_property
    def by_scaled(self) -> dict[float, list[int]]:
        """The given mentions by their scaled values (``20%`` under 0.2, ``129.9 million`` under 129.9)."""
        by_scaled: dict[float, list[int]] = {}
        for i, m in enumerate(self._extracted):
            scale = _SCALE_WORD.search(m.text)
            if scale is not None:  # "129.9 million voters" also stands for 129.9
                by_scaled.setdefault(_value_key(float(m.value) / _SCALES[scale.group().lower()]), []).append(i)
            scaled = self.scaled[i]
            if scaled is not None:
                by_scaled.setdefault(_value_key(scaled), []).append(i)
        return by_scaled

    def scaled_value(self, m: Mention) -> float | None:
        """A mention's value in its unit's scale, for dimensionless and count units (``20%`` -> 0.2)."""
        if m.unit is None:
            return None
        if _PERCENT_RATE.match(m.unit):  # "50% every year": a percentage per period scales as a percentage
            return float(m.value) / 100
        factor = _scale_factor(self.pack, m.unit)
        return None if factor is None else float(m.value) * factor

    def push(self, step: Step, value: float) -> int:
        """Append a step and its value: its index."""
        self.steps.append(step)
        self.step_values.append(value)
        return len(self.steps) - 1

    def extra_mention(self, mention: Mention) -> int | None:
        """The operand index of an extra mention (a solution quote or a counted text mention), added on
        first use; None when it overlaps another extra text mention."""
        for k, other in enumerate(self.quoted):
            if other.source == mention.source and other.start == mention.start and other.end == mention.end:
                return len(self.mentions) + k
            if other.source == mention.source == "text" and other.start < mention.end and mention.start < other.end:
                return None
        self.quoted.append(mention)
        return len(self.mentions) + len(self.quoted) - 1

    def reading(self, key: str, read: Callable[[], tuple[Any, ...]]) -> tuple[Any, ...]:
        """A reading of the text a later rule needs (``read()``), computed once per problem."""
        found = self._readings.get(key)
        if found is None:
            found = self._readings[key] = read()
        return found

    @property
    def blanked_solution(self) -> str:
        """The solution with its annotations blanked (:func:`blank_annotations`, computed once); ``""`` without one."""
        if self._blanked is None:
            self._blanked = "" if self.solution is None else blank_annotations(self.solution)
        return self._blanked

    def solution_line(self) -> str:
        """The line of the solution holding the formula being added (annotations blanked), or ``""``."""
        if self.solution is None or self.position is None:
            return ""
        blanked = self.blanked_solution
        start = blanked.rfind("\n", 0, self.position) + 1
        end = blanked.find("\n", self.position)
        return blanked[start : end if end >= 0 else len(blanked)]

    def literal_at(self, lit: Literal) -> int | None:
        """Where a literal of the formula being added is written (its offset in the solution), if known."""
        offsets = self.literal_offsets
        if offsets is None or self.formula_at is None or not 0 <= lit.position < len(offsets):
            return None
        return self.formula_at + offsets[lit.position]

    def line_words(self) -> tuple[str, ...]:
        """The content words of the solution line of the formula being added (annotations blanked)."""
        found = self._line_words.get(self.position)
        if found is None:
            found = self._line_words[self.position] = tuple(dict.fromkeys(words(self.solution_line())))
        return found

    def mention_context(self, i: int) -> dict[str, float]:
        """The words that say what mention ``i`` is (:func:`~ssbg.reading.evidence.mention_context`)."""
        key = ("mention", i)
        found = self._contexts.get(key)
        if found is None:
            m = self.mentions[i]
            found = self._contexts[key] = mention_context(self.text, m.start, m.end, _unit_words(m.unit, m.lemma))
        return found

    def clear_contexts(self) -> None:
        """Forget the words read for lines and results (a plan reads them with other steps in place)."""
        for key in [k for k in self._contexts if k[0] in ("at", "step")]:
            del self._contexts[key]
        self._line_words.clear()
        self._candidate_words.clear()

    def candidate_words(self, source: tuple[Any, ...]) -> tuple[Mapping[str, float], frozenset[str]]:
        """The words that say what a candidate is (word -> weight) and those that name its unit, from its
        ``source``: a mention, an earlier result, a constant's cue in the text or in the solution."""
        found = self._candidate_words.get(source)
        if found is not None:
            return found
        kind = source[0]
        if kind == "mention":
            m = self.mentions[source[1]]
            unit = _unit_set(m.unit, m.lemma)
            context: Mapping[str, float] = self.mention_context(source[1]) if self.solution is not None else _NO_WORDS
        elif kind == "result":
            _kind, key, unit_text, at = source
            unit = _unit_set(unit_text, None)
            context = self.result_context(key, unit_text, at) if self.solution is not None else _NO_WORDS
        else:
            _kind, start, end, cid = source
            where = self.text if kind == "cue" else self.blanked_solution
            unit = frozenset((*words(where, start, end), *_unit_words(IMPLICIT_CONSTANTS[cid].unit, cid)))
            if kind == "said":
                context = dict.fromkeys(unit, 2.0)
            else:
                context = self.cue_context(start, end, unit) if self.solution is not None else _NO_WORDS
        found = self._candidate_words[source] = (context, unit)
        return found

    def cue_context(self, start: int, end: int, unit: frozenset[str]) -> dict[str, float]:
        """The words around a constant's cue, as :meth:`mention_context` gives them for a mention."""
        key = ("cue", start)
        found = self._contexts.get(key)
        if found is None:
            found = self._contexts[key] = mention_context(self.text, start, end, tuple(sorted(unit)))
        return found

    def step_context(self, i: int) -> dict[str, float]:
        """The words that say what step ``i``'s result is: its stated unit, the words of its solution line."""
        step = self.steps[i]
        return self.result_context(("step", i), step.unit, step.at)

    def result_context(self, key: tuple[Any, ...], unit: str | None, at: int | None) -> dict[str, float]:
        """The words that say what a result stated with ``unit`` by the formula at ``at`` is."""
        found = self._contexts.get(key)
        if found is None:
            found = {}
            if at is not None and self.solution is not None:
                blanked = self.blanked_solution
                start = blanked.rfind("\n", 0, at) + 1
                here = -1 if self.position is None else blanked.rfind("\n", 0, self.position) + 1
                if start != here:  # the words of another line (a result on the literal's own line has none)
                    end = blanked.find("\n", at)
                    for w in words(blanked, start, end if end >= 0 else len(blanked)):
                        found[w] = 0.5
            for w in _unit_words(unit, None):
                found[w] = 2.0
            self._contexts[key] = found
        return found


# ============================================================================ the rules
#
# Each rule: (state, literal, the operation the literal is an operand of) -> an operand, or None.  The
# docstring is one example; comments say more.  The order is GROUNDING_RULES's, at the end.

GroundingRule = Callable[[GroundingState, Literal, str | None], Operand | None]


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


def _implicit(g: GroundingState, kind: str, operands: tuple[Operand, ...], value: float, lit: Literal) -> Operand:
    """An implicit step ``kind`` of ``operands`` whose result is ``value``, added to the state: the operand
    of the literal it explains."""
    return Operand(step=g.push(Step(kind, operands, value, None, None, True), value), text=lit.text)


# ============================================================================ candidates
#
# The ordinary readings of a literal compete: every earlier step, text mention, cued constant and scaled
# mention with its value is a candidate.  Each proposer below gives its candidates with a prior (the order
# ADR 0004 ranked them in: the solution's own results first, then what the text states, then what it only
# implies); ground() adds the evidence of the words (ssbg.reading.evidence) and takes the best, recording a
# tie.  The rules after them (GROUNDING_RULES) are tried, first answer wins, only for a literal that has no
# candidate: they derive numbers the text states without writing them.


class Reading(NamedTuple):
    """The fields of the operand a candidate would be (:class:`~ssbg.trace.Operand`'s first five, in its
    order): the operand is built only for the candidate chosen, with where and why (a validated value
    costs; most candidates lose)."""

    mention: int | None = None
    step: int | None = None
    constant: str | None = None
    cue: tuple[int, int] | None = None
    text: str | None = None

    def operand(self, at: int | None, why: str | None = None, alternative: Operand | None = None) -> Operand:
        """The operand this reading is, written at ``at``, chosen for ``why``."""
        return Operand(self.mention, self.step, self.constant, self.cue, self.text, at, why, alternative)


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

_NO_WORDS: Mapping[str, float] = MappingProxyType({})


@functools.lru_cache(maxsize=8192)
def _unit_words(unit: str | None, lemma: str | None) -> tuple[str, ...]:
    """The words that name a unit (``$ per hour`` and ``dollar_per_hour``: dollar, hour; memoized)."""
    out: list[str] = []
    for named in (unit, lemma):
        if named:
            for w in words(named.replace("_", " ")):
                if w not in out and w != "per":
                    out.append(w)
    return tuple(out)


@functools.lru_cache(maxsize=8192)
def _unit_set(unit: str | None, lemma: str | None) -> frozenset[str]:
    return frozenset(_unit_words(unit, lemma))


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
    return out


def _mention_candidates(g: GroundingState, lit: Literal, op: str | None) -> list[Candidate]:
    """'48/2' where the text says '48 apples': 48 is that mention (an unused one first)."""
    return _mentions_by(g, lit, g.by_value.get(_value_key(lit.value)), 2.0, "mention")


def _scaled_candidates(g: GroundingState, lit: Literal, op: str | None) -> list[Candidate]:
    """'0.2*50' where the text says '20%': 0.2 is the 20% (``half a dozen`` for 6, ``1.5 million`` for 1.5)."""
    exact = g.by_value.get(_value_key(lit.value)) or ()
    found = [i for i in g.by_scaled.get(_value_key(lit.value), ()) if i not in exact]
    return _mentions_by(g, lit, found, 1.2, "scaled mention")


def _mentions_by(
    g: GroundingState, lit: Literal, found: Sequence[int] | None, prior: float, label: str
) -> list[Candidate]:
    if not found:
        return []
    out: list[Candidate] = []
    for rank, i in enumerate(dict.fromkeys(found)):
        p = prior - (1.0 if i in g.used else 0.0) - 0.01 * rank
        reading = Reading(mention=i, text=lit.text)
        out.append(Candidate(reading, ("mention", i), p, f"{label} {g.mentions[i].text!r}", ("mention", i)))
    return out


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
        if cid == "whole" and op not in ("subtract", "divide") and not _PART_OF_A_WHOLE.search(g.formula_text):
            continue  # the whole of a complement (1 - 1/4), an increase (1 + 0.3) or a job (1/4 hours), not a count
        if any(
            m.start <= cue.start and cue.end <= m.end and m.kind != "quantity" and _is_fraction_part(g, i, lit.value)
            for i, m in enumerate(g.mentions)
        ):
            continue  # "One-third": the fraction mention itself is the candidate (its part), not its word
        rank = ranks[cid] = ranks.get(cid, -1) + 1
        prior = 1.5 + (0.2 if cid in preferred else 0.0) - 0.01 * rank - 0.02 * len(ranks)
        reading = Reading(constant=cid, cue=(cue.start, cue.end), text=lit.text)
        label = f"constant {cid} (cue {g.text[cue.start : cue.end]!r})"
        out.append(Candidate(reading, ("constant", cid, cue.start), prior, label, ("cue", cue.start, cue.end, cid)))
    return out


def _solution_cued_candidates(g: GroundingState, lit: Literal, op: str | None) -> list[Candidate]:
    """'3*2' where the solution says 'He does this twice a day': 2 is the constant twice (no cue span)."""
    if g.solution is None:
        return []
    cues = find_cues(g.blanked_solution, lit.value)
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
    ("fraction_part", _fraction_part_candidates),
)
"""The proposers of a literal's ordinary readings, each with a one-line example; :func:`ground` weighs them."""

_W_TWIN = 2.0  # a twin written with the candidate's unit word
_W_MISMATCH = 1.0  # a twin written with another unit word
_W_OVERLAP = 0.5  # per weighted word the line shares with the candidate's words

TIE_MARGIN = 0.3
"""Two readings whose scores differ by less than this are a tie: the operand records both (ADR 0018)."""


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
    chosen_operand = best.reading.operand(at, note, alternative)
    if not readings_kept():
        return chosen_operand
    return dataclasses.replace(chosen_operand, readings=_source_readings(scored, target, at))


def _source_readings(
    scored: Sequence[tuple[float, Candidate, str]], chosen: tuple[Any, ...], at: int | None
) -> tuple[SourceReading, ...]:
    """The :data:`N_BEST` most probable sources of a literal (the chosen one among them) with their probabilities:
    the softmax of the scores over the distinct things they point at, divided by the scorer's temperature (ADR
    0021's calibration; 1 for the rules' scores).  What the checker weighs (ADR 0027), never what is chosen."""
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


def _percent_complement(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'.8*50' with '20% off': 0.8 is the implicit step 100% - 20%."""
    # Or 100% + p for a text that speaks of an increase ("1.2" or "120" for "a 20% raise").
    value = lit.value
    rising: bool | None = None
    for i, m in enumerate(g.mentions):
        scaled = g.scaled[i]
        is_percent = m.unit is not None and scaled is not None and close(scaled * 100, float(m.value))
        if not is_percent:
            continue
        p = float(m.value)
        if close(100 - p, value) or close(1 - p / 100, value):
            kind, rest = "subtract", 100 - p
        elif close(100 + p, value) or close(1 + p / 100, value):
            if rising is None:
                rising = _INCREASE.search(g.text) is not None
            if not rising:
                continue
            kind, rest = "add", 100 + p
        else:
            continue
        cue = find_cues(g.text, 100)
        whole = Operand(constant="percent", cue=(cue[0].start, cue[0].end) if cue else None)
        return _implicit(g, kind, (whole, Operand(mention=i)), rest, lit)
    return None


def _is_fraction_part(g: GroundingState, i: int, value: float) -> bool:
    """Whether ``value`` is a part of mention ``i``: the numerator or denominator of a fraction (``3`` of
    ``one-third``), of a percentage (the 5 of ``20%``: 1/5), or a part of a mixed number (``4 1/2 pound
    steaks`` read as 4 steaks of 1/2 pound)."""
    return value > 0 and any(close(value, part) for part in _parts_of(g, i))


def _parts_of(g: GroundingState, i: int) -> tuple[float, ...]:
    """The parts mention ``i`` writes (see :func:`_is_fraction_part`), or ``()``."""
    m = g.mentions[i]
    scaled = g.scaled[i] if i < len(g.scaled) else None
    mixed: tuple[float, ...] = ()
    if (m.kind == "fraction" and m.unit is None) or _MIXED.match(m.text):
        fraction = float(m.value)
        if _MIXED.match(m.text):
            mixed = (float(int(fraction)), fraction - int(fraction))
    elif scaled is not None and m.unit is not None and close(scaled * 100, float(m.value)) and scaled < 1:
        fraction = scaled
    else:
        return ()
    parts = _fraction_parts(fraction)
    return mixed if parts is None else (*mixed, float(parts[0]), float(parts[1]))


def _solution_number(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'2*3' where the solution says 'each has 2 legs': 2 is that number of the prose."""
    # Outside the annotations and outside arithmetic (a restated formula grounds nothing), nearest
    # before the formula; digits first, then number words ("two, 21 and 42").
    value = lit.value
    if g.solution is None or not g.solution_numbers:
        return None
    blanked = g.blanked_solution
    if g.prose is None:
        g.prose = tuple(
            (m.start("cur") if m.group("cur") else m.start("num"), parse_number(m.group("num")))
            for m in _PROSE_NUMBER.finditer(blanked)
            if not _in_arithmetic(blanked, m.start(), m.end())
        )
    hits = [start for start, v in g.prose if close(v, value)]
    if not hits:
        if g.prose_words is None:  # "two, 21 and 42": numbers the prose writes in words (read on need)
            g.prose_words = tuple(
                (m.start, float(m.value))
                for m in worded_mentions(blanked, pack=g.pack)
                if not _in_arithmetic(blanked, m.start, m.end)
            )
        hits = [start for start, v in g.prose_words if close(v, value)]
    if not hits:
        return None
    where = g.position if g.position is not None else len(g.solution)
    before = [start for start in hits if start < where]
    chosen = before[-1] if before else hits[0]
    for k, quoted in enumerate(g.quoted):
        if quoted.start == chosen and quoted.source == "solution":
            return Operand(mention=len(g.mentions) + k, text=lit.text)
    mention = mention_at(blanked, chosen, pack=g.pack, source="solution")
    if mention is None or not close(float(mention.value), value):
        return None
    index = g.extra_mention(mention)
    return None if index is None else Operand(mention=index, text=lit.text)


def _counted_mention(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'3*8' with 'Monday, Wednesday and Friday': 3 days the text lists (counting.counted_mentions)."""
    # "Travis and his brother" for 2.  A 1 read from "a"/"an" counts only when the solution's line of the
    # formula names its noun ("His ferret will need 1 * 4" for "a ferret").
    value = lit.value
    if g.counted_clear_of is None:  # the text mentions as they are at the first need
        g.counted_clear_of = tuple((m.start, m.end) for m in g.mentions)
    taken = g.counted_clear_of
    # the article readings give only 1 and 0: for another value they are left unread
    articles = close(value, 1) or close(value, 0)
    counted = g.reading(
        "counted" if articles else "counted_without_articles",
        lambda: tuple(
            c
            for c in counted_mentions(g.text, pack=g.pack, articles=articles)
            if not any(a < c.end and c.start < b for a, b in taken)
        ),
    )
    line: str | None = None
    for c in counted:
        if not close(float(c.value), value):
            continue
        if value in (0, 1):
            if line is None:
                line = g.solution_line()
            noun = (c.lemma or "").rpartition("_")[2]
            if not noun or not re.search(rf"(?i)(?<![A-Za-z]){re.escape(noun)}", line):
                continue
        index = g.extra_mention(c)
        if index is not None:
            return Operand(mention=index, text=lit.text)
    return None


def _fraction_complement(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'2/3*60' with 'a third ... the rest': 2/3 is the implicit step 1 - 1/3."""
    # Only where the text has words of a whole or a rest (the whole constant's cue).
    value = lit.value
    for i, m in enumerate(g.mentions):
        if m.kind == "fraction" and 0 < float(m.value) < 1 and close(1 - float(m.value), value):
            cue = find_cues(g.text, 1)
            whole = next((c for c in cue if c.constant_id == "whole"), None)
            if whole is None:
                return None
            rest = 1 - float(m.value)
            operands = (Operand(constant="whole", cue=(whole.start, whole.end)), Operand(mention=i))
            return _implicit(g, "subtract", operands, rest, lit)
    return None


def _cued_conversion(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'14*3' with 'two weeks' and 'days': 14 is the implicit step 2 x 7 (days_per_week)."""
    # A mention converted by a cued conversion constant into a unit the text or the formula's line
    # names ("25 cents" / 100 for 0.25 where it says "dollar" or "$"); the fallback conversions last.
    value = lit.value
    where = ""
    for conversions, fallback in ((_CONVERSIONS, False), (_CUED_CONVERSIONS, True)):
        for i, m in enumerate(g.mentions):
            if m.lemma is None or m.kind != "quantity":
                continue
            head = m.lemma.partition("_per_")[0]
            a = float(m.value)
            for cid, factor, num, den in conversions:
                if head == den and close(a * factor, value):
                    kind, target = "multiply", num
                elif head == num and close(a / factor, value):
                    kind, target = "divide", den
                else:
                    continue
                if not where:
                    where = g.text + "\n" + g.solution_line()
                said = _PLURALS.get(target) or rf"{re.escape(target)}(?:e?s)?"
                if not re.search(rf"(?i)(?<![A-Za-z])(?:{said})(?![A-Za-z])", where):
                    continue
                cues = find_cues(g.text, factor, fallback=fallback)
                cue = next((c for c in cues if c.constant_id == cid), None)
                if cue is None:
                    continue
                operands = (Operand(mention=i), Operand(constant=cid, cue=(cue.start, cue.end)))
                return _implicit(g, kind, operands, value, lit)
    return None


def _parts_of_a_multiple(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'180/3' with 'twice as many ... 180 in total': 3 is the implicit step 2 + 1 (parts of the whole)."""
    value = lit.value
    if value < 2 or not value.is_integer() or not _SHARED.search(g.text):
        return None
    k = value - 1
    multiplier: Operand | None = None
    for i, m in enumerate(g.mentions):
        if m.kind == "multiplier" and close(float(m.value), k):
            multiplier = Operand(mention=i)
            break
    else:
        cue = next((c for c in find_cues(g.text, k) if c.constant_id in _MULTIPLIERS), None)
        if cue is not None:
            multiplier = Operand(constant=cue.constant_id, cue=(cue.start, cue.end))
    if multiplier is None:
        return None
    return _implicit(g, "add", (multiplier, Operand(constant="one_part")), value, lit)


def _self_cue(g: GroundingState, *, companions: bool) -> tuple[int, int] | None:
    """The span of the words that cue ``self``: its own cue words, or (``companions``) a group named
    with a possessive (``her 2 siblings``)."""
    cue = next((c for c in find_cues(g.text, 1, fallback=True) if c.constant_id == "self"), None)
    if cue is not None:
        return cue.start, cue.end
    hit = SELF_COMPANION_CUE.search(g.text) if companions else None
    return None if hit is None else (hit.start(), hit.end())


def _fallback_constant(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'30/2' with 'every other day': 2 is the fallback constant every_other."""
    # Or self for a 1 in a sum of persons whose owner a possessive group leaves out ("Kath takes her
    # 2 siblings"); fallback cue words are too common to compete with the rules before.
    value = lit.value
    late = find_cues(g.text, value, fallback=True)
    if late:
        return Operand(constant=late[0].constant_id, cue=(late[0].start, late[0].end), text=lit.text)
    if value == 1 and op == "add":
        span = _self_cue(g, companions=True)
        if span is not None:
            return Operand(constant="self", cue=span, text=lit.text)
    return None


def _named_total(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'18/3' with 'Mark, Peter and John share equally': 3 is the implicit sum 1 + 1 + 1 of the persons."""
    # Each person (or weekday: "12 miles on Monday, 18 on Tuesday, 21 on Wednesday" averages over 3)
    # once, as a divisor, where the text speaks of an average or an equal share; before that a count
    # listed as one mention ("knives, forks, and spoons").
    value = lit.value
    if value < 2 or not value.is_integer() or not _AVERAGE.search(g.text):
        return None
    taken = [(m.start, m.end) for m in g.mentions]
    # "knives, forks, and spoons": a count as one mention
    for listed in g.reading("listed", lambda: listed_items(g.text)):
        if close(float(listed.value), value) and not any(a < listed.end and listed.start < b for a, b in taken):
            index = g.extra_mention(listed)
            if index is not None:
                return Operand(mention=index, text=lit.text)
    if op != "divide":
        return None
    for group in g.reading("named", lambda: named_items(g.text)):
        items = [c for c in group if not any(a < c.end and c.start < b for a, b in taken)]
        if len(items) != value or len(items) != len(group):
            continue
        if any(
            q.source == "text" and q.start < c.end and c.start < q.end and (q.start, q.end) != (c.start, c.end)
            for q in g.quoted
            for c in items
        ):
            continue  # an item overlaps another extra mention: adding some and not others would leave them
        operands = tuple(Operand(mention=i) for c in items if (i := g.extra_mention(c)) is not None)
        return _implicit(g, "add", operands, value, lit)
    return None


def _with_self(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'5*3' with 'him and his 4 friends': 5 is the implicit sum 4 + 1 (self)."""
    value = lit.value
    if value < 2 or not value.is_integer():
        return None
    for i, m in enumerate(g.mentions):
        if m.lemma not in _COMPANION_LEMMAS or not close(float(m.value), value - 1):
            continue
        cue = _self_cue(g, companions=True)
        if cue is None:
            return None
        operands = (Operand(mention=i), Operand(constant="self", cue=cue))
        return _implicit(g, "add", operands, value, lit)
    return None


def _and_a_half(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'2.5*12' with 'two and a half dozen': 2.5 is the implicit sum 2 + 0.5."""
    # The number takes the half's unit when it has none.
    value = lit.value
    for i, (a, b) in enumerate(itertools.pairwise(g.mentions)):
        if (
            not close(float(b.value), 0.5)
            or not close(float(a.value) + 0.5, value)
            or not re.fullmatch(r"\s+and\s+", g.text[a.end : b.start])
            or not re.match(r"(?i)(?:a\s+)?half\b", b.text)
            or (a.unit is not None and a.unit != b.unit)
        ):
            continue
        if a.unit is None and b.unit is not None:
            g.mentions = (*g.mentions[:i], dataclasses.replace(a, unit=b.unit, lemma=b.lemma), *g.mentions[i + 1 :])
        operands = (Operand(mention=i), Operand(mention=i + 1))
        return _implicit(g, "add", operands, value, lit)
    return None


def _times_per_period(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'2*50' with 'every 6 months' and 'a year': 2 is the implicit step 12 / 6 (months_per_year)."""
    # A cued conversion constant over the mention, where the text or the formula's line names the longer unit.
    value = lit.value
    where = ""
    for i, m in enumerate(g.mentions):
        a = float(m.value)
        if m.lemma is None or a <= 0 or not _EVERY.search(g.text, max(0, m.start - 8), m.start):
            continue
        for cid, factor, num, den in _CONVERSIONS:
            if m.lemma != num or not close(factor / a, value):
                continue
            where = where or g.text + "\n" + g.solution_line()
            said = _PLURALS.get(den) or rf"{re.escape(den)}(?:e?s)?"
            if not re.search(rf"(?i)(?<![A-Za-z])(?:{said})(?![A-Za-z])", where):
                continue
            cue = next((c for c in find_cues(g.text, factor) if c.constant_id == cid), None)
            if cue is None:
                continue
            operands = (Operand(constant=cid, cue=(cue.start, cue.end)), Operand(mention=i))
            return _implicit(g, "divide", operands, value, lit)
    return None


def _number_word_measure(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'50-20' with 'a fifty-dollar bill': 50 is the measure the number word writes (counting.compound_measures)."""
    # "6 thirty-minute programs" for 30.  Inside a text mention ("one fifty-dollar bill") the mention is
    # narrowed to the words before it ("one"), which keep their value and unit; "half" before "an hour"
    # widens to "half an hour", converted to minutes by minutes_per_hour for 30.
    value = lit.value
    for c in g.reading("compound", lambda: compound_measures(g.text, pack=g.pack)):
        minutes = c.unit == "hour" and close(float(c.value) * 60, value)  # "half an hour" for 30 minutes
        if not close(float(c.value), value) and not minutes:
            continue
        inside = next((i for i, m in enumerate(g.mentions) if m.start < c.end and c.start < m.end), None)
        index: int | None
        if inside is not None:
            m = g.mentions[inside]
            if m.start == c.start and m.end <= c.end and close(float(m.value), float(c.value)):
                widened = dataclasses.replace(m, end=c.end, text=c.text, unit=c.unit, lemma=c.lemma, kind=c.kind)
                g.mentions = (*g.mentions[:inside], widened, *g.mentions[inside + 1 :])
                index = inside  # "half" read as "half an hour"
            else:
                head = g.text[m.start : c.start].rstrip(" ,")
                if not head or not m.start < c.start or c.end > m.end:
                    continue
                if any(q.source == "text" and q.start < c.end and c.start < q.end for q in g.quoted):
                    continue
                narrowed = Mention(m.start, m.start + len(head), head, m.value, m.unit, m.lemma, m.kind, m.source)
                g.mentions = (*g.mentions[:inside], narrowed, *g.mentions[inside + 1 :])
                index = g.extra_mention(c)
        else:
            index = g.extra_mention(c)
        if index is None:
            continue
        if not minutes or close(float(c.value), value):
            return Operand(mention=index, text=lit.text)
        cue = next((k for k in find_cues(g.text, 60) if k.constant_id == "minutes_per_hour"), None)
        if cue is None:
            continue
        operands = (Operand(mention=index), Operand(constant="minutes_per_hour", cue=(cue.start, cue.end)))
        return _implicit(g, "multiply", operands, value, lit)
    return None


def _hours_and_minutes(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'90/3' with '1 hour 30 minutes': 90 is the implicit steps 1 x 60 + 30 (or 1.5 as 1 + 30 / 60)."""
    value = lit.value
    for i, (a, b) in enumerate(itertools.pairwise(g.mentions)):
        if a.lemma not in ("hour", "hr") or (b.lemma or "").partition("_per_")[0] != "minute":
            continue
        if not re.fullmatch(r"\s*(?:and\s+)?", g.text[a.end : b.start]):
            continue
        h, mins = float(a.value), float(b.value)
        cue = next((k for k in find_cues(g.text, 60) if k.constant_id == "minutes_per_hour"), None)
        if cue is None:
            return None
        per_hour = Operand(constant="minutes_per_hour", cue=(cue.start, cue.end))
        if close(h * 60 + mins, value):
            first = g.push(Step("multiply", (Operand(mention=i), per_hour), h * 60, None, None, True), h * 60)
            return _implicit(g, "add", (Operand(step=first), Operand(mention=i + 1)), value, lit)
        if close(h + mins / 60, value):
            part = mins / 60
            first = g.push(Step("divide", (Operand(mention=i + 1), per_hour), part, None, None, True), part)
            return _implicit(g, "add", (Operand(mention=i), Operand(step=first)), value, lit)
    return None


GROUNDING_RULES: tuple[tuple[str, GroundingRule], ...] = (
    ("percent_complement", _percent_complement),
    ("solution_number", _solution_number),
    ("counted_mention", _counted_mention),
    ("fraction_complement", _fraction_complement),
    ("cued_conversion", _cued_conversion),
    ("parts_of_a_multiple", _parts_of_a_multiple),
    ("fallback_constant", _fallback_constant),
    ("named_total", _named_total),
    ("with_self", _with_self),
    ("and_a_half", _and_a_half),
    ("times_per_period", _times_per_period),
    ("number_word_measure", _number_word_measure),
    ("hours_and_minutes", _hours_and_minutes),
)
"""The rules that derive a number the text states without writing it, in the order :func:`ground` tries
them for a literal with no candidate (ADR 0004): the first answer wins."""


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


def _contested(g: GroundingState, formulas: Sequence[tuple[int, int | None, str, str | None]]) -> bool:
    """Whether a solution's numbers contend for the text's mentions, so that choosing them one by one could
    differ from choosing them at once: a value two mentions could give, a value a mention and an earlier
    result could give, or a mention two numbers could take where a constant's words could give it too.
    Only then is the solution planned at once (the plan reads every number's words: it costs)."""
    takers: dict[float, int] = {}
    results: set[float] = set()
    for _position, _at, formula, _unit in formulas:
        expr, eq, stated = formula.rpartition("=")
        for m in _LITERAL_IN_FORMULA.finditer(expr if eq else formula):
            value = _value_key(_literal_value(m.group()))
            givers = len(g.by_value.get(value, ())) + len(g.by_scaled.get(value, ()))
            givers += len(g.fraction_parts.get(value, ()))
            if givers > 1 or (givers and value in results):
                return True
            if givers:
                takers[value] = takers.get(value, 0) + 1
                if takers[value] > 1 and find_cue_occurrences(g.text, value):
                    return True
        written = _FIRST_NUMBER.search(stated) if eq else None
        if written is not None:
            results.add(_value_key(_literal_value(written.group())))
    return False


COVER_BONUS = 0.5
"""What reading a mention for the first time in a solution is worth in :func:`plan_solution`: a worked
solution uses what the problem states (a result of the same value does not hide an unused mention)."""


def plan_solution(g: GroundingState, rows: Sequence[tuple[int, Sequence[tuple[float, Candidate, str]]]]) -> None:
    """Choose the readings of every number of a solution at once (ADR 0018): the highest total score where
    each mention's first reading earns :data:`COVER_BONUS` and each further one costs
    :data:`REUSE_PENALTY`, solved as an assignment (``scipy.optimize.linear_sum_assignment``, with a
    column per use of each mention).  ``rows`` are the numbers (by offset) and their scored readings;
    the choice is kept on the state, by offset, for :func:`ground`.

    The matrix has a row per number and a column per use of a mention and per row: past
    :data:`MAX_PLAN_CELLS` cells (never for a corpus record; a hostile solution of thousands of
    numbers, issue 27) it is solved per connected component (rows that share no mention share
    nothing), and a component still past it is left unplanned (its numbers grounded one at a time,
    as an uncontested solution's are)."""
    mentions = _mention_uses(rows)
    if not mentions:
        return
    if len(rows) * (sum(mentions.values()) + len(rows)) <= MAX_PLAN_CELLS:
        _assign(g, rows, mentions)
        return
    for part in _components(rows):
        uses = _mention_uses(part)
        if uses and len(part) * (sum(uses.values()) + len(part)) <= MAX_PLAN_CELLS:
            _assign(g, part, uses)


MAX_PLAN_CELLS = 1_000_000
"""The largest assignment matrix :func:`plan_solution` solves at once (8 MB of costs)."""

_Rows = Sequence[tuple[int, Sequence[tuple[float, Candidate, str]]]]


def _mention_uses(rows: _Rows) -> dict[tuple[Any, ...], int]:
    """How many rows may read each mention."""
    mentions: dict[tuple[Any, ...], int] = {}
    for _at, scored in rows:
        for _score, c, _why in scored:
            if c.key[0] == "mention":
                mentions[c.key] = mentions.get(c.key, 0) + 1
    return mentions


def _components(rows: _Rows) -> list[list[tuple[int, Sequence[tuple[float, Candidate, str]]]]]:
    """The rows in groups that share a mention (each in the rows' order; groups by their first row)."""
    parent = list(range(len(rows)))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    owner: dict[tuple[Any, ...], int] = {}
    for r, (_at, scored) in enumerate(rows):
        for _score, c, _why in scored:
            if c.key[0] == "mention":
                other = owner.setdefault(c.key, r)
                a, b = root(r), root(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    groups: dict[int, list[tuple[int, Sequence[tuple[float, Candidate, str]]]]] = {}
    for r, row in enumerate(rows):
        groups.setdefault(root(r), []).append(row)
    return list(groups.values())


def _assign(g: GroundingState, rows: _Rows, mentions: Mapping[tuple[Any, ...], int]) -> None:
    """:func:`plan_solution`'s assignment over ``rows`` (``mentions``: their mentions' uses)."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    columns: list[tuple[tuple[Any, ...] | None, int]] = []  # (mention key, use) or (None, row) for a row's own
    first: dict[tuple[Any, ...], int] = {}  # a mention's first column (its uses follow)
    for mention_key, uses in sorted(mentions.items()):
        first[mention_key] = len(columns)
        columns.extend((mention_key, u) for u in range(uses))
    columns.extend((None, r) for r in range(len(rows)))
    big = 1e6
    cost = np.full((len(rows), len(columns)), big)
    own: list[tuple[Any, ...] | None] = []
    for r, (_at, scored) in enumerate(rows):
        best_other = next(((score, c) for score, c, _ in scored if c.key[0] != "mention"), None)
        own.append(None if best_other is None else best_other[1].key)
        by_key = {c.key: score for score, c, _ in scored}
        for key, score in by_key.items():  # the cells of the mentions it may read (every other stays big)
            if key in first:
                for use in range(mentions[key]):
                    cost[r, first[key] + use] = -(score + (COVER_BONUS if use == 0 else -REUSE_PENALTY * use))
        if best_other is not None:
            cost[r, len(columns) - len(rows) + r] = -best_other[0]
    picked_rows, picked_cols = linear_sum_assignment(cost)
    for r, col in zip(picked_rows.tolist(), picked_cols.tolist(), strict=True):
        if cost[r, col] >= big:
            continue
        key, _use = columns[col]
        chosen = key if key is not None else own[r]
        if chosen is not None:
            g.plan[rows[r][0]] = chosen


# ============================================================================ steps


def _renumbered(o: Operand, rank: Mapping[int, int]) -> Operand:
    """An operand (and its alternative and readings) pointing at mentions by their final numbers."""
    if o.readings:
        readings = tuple(r._replace(operand=_renumbered(r.operand, rank)) for r in o.readings)
        o = dataclasses.replace(o, readings=readings)
    alternative = o.alternative
    if alternative is not None and alternative.mention is not None:
        alternative = dataclasses.replace(alternative, mention=rank[alternative.mention])
    if o.mention is None:
        return o if alternative is o.alternative else dataclasses.replace(o, alternative=alternative)
    return dataclasses.replace(o, mention=rank[o.mention], alternative=alternative)


def _chain(node: BinOp) -> list[Node]:
    """The operands a step of ``node`` takes: a chain of one additive operator flattened (``a - b - c``)."""
    if node.op not in ("add", "subtract"):
        return [node.left, node.right]
    items: list[Node] = []
    cur: Node = node
    while isinstance(cur, BinOp) and cur.op == node.op:
        items.append(cur.right)
        cur = cur.left
    items.append(cur)
    items.reverse()
    return items


def _literals(node: BinOp) -> list[tuple[Literal, str | None]]:
    """The numbers of a formula with the operation each is an operand of, in the order steps ground them."""
    out: list[tuple[Literal, str | None]] = []
    for item in _chain(node):
        if isinstance(item, Literal):
            out.append((item, node.op))
        elif isinstance(item, BinOp):
            out.extend(_literals(item))
    return out


class StepBuilder:
    """Accumulates the steps of one problem's solution and builds its :class:`~ssbg.trace.Trace`.

    Every method that cannot ground or parse raises
    :class:`~ssbg.errors.ImportRefusal` (its ``problem_id``, ``corpus`` and
    ``path`` filled in), so a reader turns it into a refused record.  What each
    number stands for is :func:`ground`'s answer over :attr:`state`.

    ``solution`` is the corpus's worked solution, when it has one: a number that
    neither the text, an earlier step nor a cued constant explains may still be
    one the solution's prose states ("everyone has 2 legs"); it then grounds to a
    mention of source ``solution`` (real offsets into the solution, annotations
    excluded).
    """

    def __init__(
        self,
        problem_id: str,
        corpus: str,
        text: str,
        mentions: Sequence[Mention],
        *,
        question_span: tuple[int, int] | None = None,
        answer_unit: str | None = None,
        gold_answer_unit: str | None = None,
        answer: float | None = None,
        solution: str | None = None,
        where: str | None = None,
        pack: UnitPack | None = None,
    ) -> None:
        self.problem_id = problem_id
        self.corpus = corpus
        self.question_span = question_span
        self.answer_unit = answer_unit
        self.gold_answer_unit = gold_answer_unit
        self.answer = answer
        self.where = where
        self.state = GroundingState(text, mentions, default_pack() if pack is None else pack, solution)
        self._formulas = 0  # formulas tried (MAX_FORMULAS bounds a corrupt record's work)
        self._entered: dict[tuple[Any, ...], tuple[tuple[int, ...], tuple[tuple[str, ...], ...]]] = {}
        self._fraction_results: set[str] = set()  # results stated as fractions ("= 8/3"), as written

    @property
    def steps(self) -> list[Step]:
        """The steps so far."""
        return self.state.steps

    @property
    def step_values(self) -> list[float]:
        """The value of each step so far."""
        return self.state.step_values

    @property
    def blanked_solution(self) -> str:
        """The solution with its annotations blanked (:func:`blank_annotations`); ``""`` without one."""
        return self.state.blanked_solution

    def refusal(self, reason: str, message: str, detail: str | None = None) -> ImportRefusal:
        """An :class:`ImportRefusal` about this problem."""
        return ImportRefusal(
            message, reason=reason, path=self.where, detail=detail, problem_id=self.problem_id, corpus=self.corpus
        )

    def merge(self, a: Literal, b: Literal) -> Literal | None:
        """Fold ``a/b`` into one literal when a fraction or percent mention has that value."""
        if b.value == 0:
            return None
        value = a.value / b.value
        if f"{a.text}/{b.text}" in self._fraction_results:
            return Literal(f"{a.text}/{b.text}", value, None, a.position)  # "8/3", an earlier result written so
        percent = b.value == 100  # "20/100" for a mention of 20%
        scales = self.state.scaled if percent else ()
        for i, m in enumerate(self.state.mentions):
            if m.kind == "fraction" and 0 < float(m.value) < 1 and close(1 - float(m.value), value):
                return Literal(f"{a.text}/{b.text}", value, None, a.position)  # "2/3" for the rest of "a third"
            if (close(float(m.value), value) and (m.kind == "fraction" or _WRITTEN_FRACTION.search(m.text))) or (
                percent
                and (scaled := scales[i]) is not None
                and close(scaled, value)
                and close(float(m.value), a.value)
            ):
                return Literal(f"{a.text}/{b.text}", value, None, a.position)
        return None

    def _emit(
        self,
        node: BinOp,
        formula: str,
        top: bool,
        result: float | None,
        unit: str | None,
        at: int | None = None,
        per: tuple[str, ...] = (),
    ) -> tuple[int, float]:
        """Append the step of ``node`` (after the implicit steps of its sub-expressions): its index and value.
        The top step states ``result``, ``unit``, where its formula is written (``at``) and ``per``.

        A chain of one additive operator is one step (``a - b - c``); every other operator is a step of
        its own.  The value is computed from the operands' values as they are emitted, in the order
        :attr:`BinOp.value` computes it, so each sub-tree is evaluated once.
        """
        op = node.op
        items = _chain(node)
        operands: list[Operand] = []
        values: list[float] = []
        for item in items:
            if isinstance(item, Literal):
                operands.append(ground(self.state, item, op))
                values.append(item.value)
            elif isinstance(item, BinOp):
                index, value = self._emit(item, formula, False, None, None)
                operands.append(Operand(step=index))
                values.append(value)
            elif isinstance(item, Unity):  # the lone unknown's coefficient in an equation solved by collecting terms
                operands.append(Operand(constant="unknown_itself", text=item.name))
                values.append(1.0)
            else:
                raise self.refusal("unsupported_operation", f"the unknown {item.name} is not isolated", formula)
        apply = _APPLY[op]
        value = values[0]
        try:
            for right in values[1:]:
                value = apply(value, right)
        except ZeroDivisionError:
            raise self.refusal("unparseable_formula", f"division by zero in {formula!r}", detail=formula) from None
        stated = check_magnitude(result if top and result is not None else value)  # 1e15 * 1e15 refuses
        if top:
            step = Step(op, tuple(operands), stated, unit, formula, False, at, per)
        else:
            step = Step(op, tuple(operands), stated, None, formula, True)
        return self.state.push(step, stated), value

    def add_formula(
        self,
        formula: str,
        *,
        unit: str | None = None,
        position: int | None = None,
        optional: bool = False,
        at: int | None = None,
        per: tuple[str, ...] = (),
    ) -> bool:
        """Parse ``formula`` (``expr`` or ``expr=result``) and append its steps.

        ``position`` is the formula's offset in the solution (to pick the nearest
        number the prose states); ``at`` is where the formula's own text starts there,
        when the solution writes it verbatim (an annotation's body): each operand then
        records its literal's offset, and the words of the line are evidence for it.
        ``per`` are the units the context of the stated ``unit`` makes it a rate of
        (:attr:`~ssbg.trace.Step.per`).  An ``optional`` formula (one read from un-annotated prose) that cannot be
        grounded adds nothing and returns False instead of refusing.  A formula
        that is a single number adds no step.

        Raises
        ------
        ImportRefusal
            ``unparseable_formula`` / ``operand_not_found`` (unless ``optional``).
        """
        expr, eq, stated = formula.rpartition("=")
        if not eq:
            expr, stated = formula, ""
        result: float | None = None
        written = stated.strip()
        fraction = _FRACTION_RESULT.fullmatch(written) if "/" in written else None
        if fraction is not None:  # "= 2/3": a result the prose writes as a fraction, later written so again
            denominator = parse_number(fraction.group(2))
            if denominator == 0:
                raise self.refusal("unparseable_formula", f"division by zero in {formula!r}", detail=formula)
            result = parse_number(fraction.group(1)) / denominator
            self._fraction_results.add(fraction.group())
        elif written:
            result = number_or_none(written.rstrip("%"))  # a number out of range refuses the record
            if result is None:
                if optional:
                    return False
                raise self.refusal("unparseable_formula", f"result {stated!r} is not a number", formula) from None
        saved = self._saved() if optional else None
        g = self.state
        self._enter(expr, position, at)
        try:
            tree = parse_formula(expr, merge=self.merge)
            self.add_tree(tree, formula=formula.strip(), result=result, unit=unit, at=at, per=per)
        except ImportRefusal:
            if saved is None:
                raise
            self._restore(saved)
            return False
        finally:
            g.position = g.formula_at = g.literal_offsets = None
            g.twins = ()
        return True

    def _enter(self, expr: str, position: int | None, at: int | None) -> None:
        """Set the state for a formula whose expression ``expr`` is written at ``at`` in the solution."""
        g = self.state
        g.position = position
        g.formula_text = expr
        if at is not None:
            g.formula_at = at
            key = (position, at, expr)
            entered = self._entered.get(key)
            if entered is None:
                found = list(_LITERAL_IN_FORMULA.finditer(expr))
                twins: tuple[tuple[str, ...], ...] = ()
                if position is not None and g.solution is not None:
                    line_start = g.blanked_solution.rfind("\n", 0, position) + 1
                    values = tuple(_literal_value(m.group()) for m in found)
                    twins = prose_twins(g.blanked_solution[line_start:position], values)
                entered = self._entered[key] = (tuple(m.start() for m in found), twins)
            g.literal_offsets, g.twins = entered

    def plan_annotations(self, formulas: Sequence[tuple[int, int | None, str, str | None]]) -> None:
        """Plan the readings of every number of a solution at once (:func:`plan_solution`).

        ``formulas`` are the solution's formulas in order: ``(position, at, formula, stated unit)``, ``at``
        the offset of an annotation's body (None for arithmetic read from the prose, whose numbers are
        grounded when added but whose results the plan counts on).  A formula that does not parse is
        left out (adding it refuses later, as it would anyway).
        """
        g = self.state
        if not _contested(g, formulas):
            return  # every number has at most one mention to take, used once: the plan would change nothing
        rows: list[tuple[int, list[tuple[float, Candidate, str]]]] = []
        g.virtual = []
        try:
            for position, at, formula, unit in formulas:
                expr, eq, stated = formula.rpartition("=")
                if not eq:
                    expr, stated = formula, ""
                self._enter(expr, position, at)
                try:
                    tree = parse_formula(expr, merge=self.merge)
                    if not isinstance(tree, BinOp):
                        continue
                    value = parse_number(stated.strip().rstrip("%")) if stated.strip() else tree.value
                except (ImportRefusal, ValueError, ZeroDivisionError):
                    continue
                if at is not None:
                    for lit, op in _literals(tree):
                        where = g.literal_at(lit)
                        if where is None:
                            continue
                        candidates: list[Candidate] = []
                        for _name, propose in CANDIDATE_RULES:
                            candidates.extend(propose(g, lit, op))
                        if candidates:
                            scored = _scored(g, lit, candidates, op)
                            g.planned_scores[where] = (lit.value, scored)
                            rows.append((where, scored[:6]))
                g.virtual.append((position, value, unit))
        finally:
            g.virtual = None
            g.position = g.formula_at = g.literal_offsets = None
            g.twins = ()
            g.clear_contexts()
        plan_solution(g, rows)

    def _saved(self) -> tuple[int, set[int], int]:
        return len(self.state.steps), set(self.state.used), len(self.state.quoted)

    def _restore(self, saved: tuple[int, set[int], int]) -> None:
        """Undo the steps and extra mentions added since :meth:`_saved` (a formula that did not ground)."""
        g = self.state
        del g.steps[saved[0] :], g.step_values[saved[0] :], g.quoted[saved[2] :]
        for position in [p for p, top in g.step_at.items() if top >= saved[0]]:
            del g.step_at[position]
        g.used = saved[1]

    def add_solved(self, equation: str, *, position: int | None = None) -> tuple[str, float] | None:
        """Append the steps that solve an equation over one unknown the solution's prose writes
        (``x + x + 4 = 120`` gives ``(120 - 4) / (1 + 1)``, see :func:`~ssbg.reading.formula.isolate`),
        when every number in it grounds: (the unknown's name, its value).  An equation that does not
        ground, has no unknown or two, or only restates a value (``x = 25``) adds nothing and gives None.

        >>> from ssbg.reading.mentions import extract_mentions
        >>> text = "There were 120 guests, 4 more men than women. How many women?"
        >>> b = StepBuilder("a1", "example", text, extract_mentions(text))
        >>> b.add_solved("x + x + 4 = 120"), b.add_solved("x = 58")
        (('x', 58.0), None)
        >>> [(s.op, [o.source for o in s.operands]) for s in b.build().steps]
        [('subtract', ['mention', 'mention']), ('add', ['constant', 'constant']), ('divide', ['step', 'step'])]
        """
        saved = self._saved()
        self.state.position = position
        try:
            tree, name = isolate(*parse_equation(equation, merge=self.merge), equation)
            if name is None or not isinstance(tree, BinOp):
                return None
            value = tree.value
            self.add_tree(tree, formula=equation.strip())
        except (ImportRefusal, ZeroDivisionError):
            self._restore(saved)
            return None
        finally:
            self.state.position = None
        return name, value

    def add_equation(
        self, equation: str, *, result: float | None = None, aligned: Sequence[int | None] | None = None
    ) -> str | None:
        """Append the steps of an equation over at most one unknown, solved by inverting operations.

        ``X=(27.0*16.0)``, ``41 + X = 87`` and ``25000.0-(1500.0*8.0)=money`` all
        give arithmetic steps; an unknown that occurs twice is algebra and refuses
        (``unsupported_operation``).  ``aligned`` maps each number of the
        equation, by its order in the text, to a mention (gold alignments).
        Returns the unknown's name, or None when the equation has none.
        """
        g = self.state
        try:
            left, right = parse_equation(equation, merge=None if aligned is not None else self.merge)
            tree, name = isolate(left, right, equation)
            g.aligned = aligned
            g.formula_at, g.literal_offsets, g.formula_text = 0, _equation_offsets(equation), equation
            self.add_tree(tree, formula=equation.strip(), result=result)
        except ImportRefusal as exc:
            if exc.problem_id is None:
                raise self.refusal(exc.reason, exc.message, exc.detail) from None
            raise
        finally:
            g.aligned = g.formula_at = g.literal_offsets = None
        return name

    def add_tree(
        self,
        node: Node,
        *,
        formula: str,
        result: float | None = None,
        unit: str | None = None,
        at: int | None = None,
        per: tuple[str, ...] = (),
    ) -> None:
        """Append the steps of a parsed formula (its root step states ``result`` and ``unit``).

        A number of the formula never grounds as one of the formula's own sub-steps: in
        ``10*2 + 20`` the ``20`` is a number written, not the ``10*2`` beside it.  After
        :data:`MAX_FORMULAS` formulas a record refuses as ``record_too_large`` (grounding looks
        back over earlier steps and the prose, so a corrupt record of thousands would take
        quadratic time; optional prose formulas past the bound are skipped).
        """
        self._formulas += 1
        if self._formulas > MAX_FORMULAS:
            raise self.refusal("record_too_large", f"more than {MAX_FORMULAS} formulas", formula)
        self.state.own_steps_from = len(self.state.steps)
        try:
            if isinstance(node, BinOp):  # a formula that is one number adds no step
                plan_formula(self.state, _literals(node))
                top, _ = self._emit(node, formula, True, result, unit, at, per)
                position = self.state.position
                if position is not None:
                    self.state.step_at[position] = top

            elif isinstance(node, Var):
                raise self.refusal("unsupported_operation", f"the unknown {node.name} is not isolated", formula)
        except ImportRefusal as exc:
            if exc.problem_id is None:
                raise self.refusal(exc.reason, exc.message, exc.detail) from None
            raise
        finally:
            self.state.own_steps_from = len(self.state.steps)
            self.state.formula_plan.clear()
            self.state.scores.clear()

    def build(self) -> Trace:
        """The trace; ``no_equation`` when no formula produced a step."""
        g = self.state
        if not g.steps:
            raise self.refusal("no_equation", "no arithmetic step in the solution")
        answer_unit = self.answer_unit
        steps = tuple(g.steps)
        mentions = g.mentions
        quotes_solution = any(m.source == "solution" for m in g.quoted)
        if g.quoted:  # extra mentions join the text's (by offset) or follow them (the solution's)
            base = len(g.mentions)
            extra = [(m.source != "text", m.start, base + k) for k, m in enumerate(g.quoted)]
            order = sorted([(False, m.start, i) for i, m in enumerate(g.mentions)] + extra)
            rank = {old: new for new, (_, _, old) in enumerate(order)}
            every = (*g.mentions, *g.quoted)
            mentions = tuple(every[old] for _, _, old in order)
            steps = tuple(
                dataclasses.replace(step, operands=tuple(_renumbered(o, rank) for o in step.operands)) for step in steps
            )
        try:
            return Trace(
                self.problem_id,
                self.corpus,
                g.text,
                mentions,
                steps,
                question_span=self.question_span,
                answer_unit=answer_unit,
                gold_answer_unit=self.gold_answer_unit,
                answer=self.answer,
                solution=g.solution if quotes_solution else None,
            )
        except ProblemGraphError as exc:
            raise self.refusal("malformed_record", exc.message, exc.path) from None
