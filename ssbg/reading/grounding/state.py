"""The state of one problem's grounding (:class:`GroundingState`): the text, its mentions, the steps so
far and the mentions used, with the readings of the text the rules make on first need (a mention's
scaled value, the parts of a fraction it writes); and the signature of a rule (:data:`GroundingRule`)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ssbg.constants import IMPLICIT_CONSTANTS
from ssbg.reading.evidence import mention_context, words
from ssbg.reading.formula import Literal, close
from ssbg.reading.grounding.literals import _value_key, blank_annotations
from ssbg.reading.grounding.unit_words import _NO_WORDS, _unit_set, _unit_words
from ssbg.reading.mentions import pack_lookup
from ssbg.trace import Mention, Operand, Step
from ssbg.units import UnitPack


def _fraction_parts(value: float) -> tuple[int, int] | None:
    """``(numerator, denominator)`` of a simple fraction (denominator up to 12)."""
    whole = int(value)
    for den in range(2, 13):
        num = (value - whole) * den
        if abs(num - round(num)) < 1e-9 and round(num) > 0:
            return round(num) + whole * den, den
    return None


_MIXED = re.compile(r"\d+\s+\d+\s*/\s*\d+")

_PERCENT_RATE = re.compile(r"(?:%|percent) per ")

_SCALE_WORD = re.compile(r"(?i)\b(?:thousand|million|billion)\b")
_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9}


def _scale_word(text: str) -> re.Match[str] | None:
    """:data:`_SCALE_WORD` searched in ``text``; an ASCII text whose lower case holds none of the words is not
    (a text with other letters, which the pattern's case folding may match, always is)."""
    if text.isascii():
        low = text.lower()
        if "thousand" not in low and "million" not in low and "billion" not in low:
            return None
    return _SCALE_WORD.search(text)


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


def _scaled_value(m: Mention, pack: UnitPack) -> float | None:
    """A mention's value in its unit's scale, for dimensionless and count units (``20%`` -> 0.2)."""
    if m.unit is None:
        return None
    if _PERCENT_RATE.match(m.unit):  # "50% every year": a percentage per period scales as a percentage
        return float(m.value) / 100
    factor = _scale_factor(pack, m.unit)
    return None if factor is None else float(m.value) * factor


class TextReadings:
    """What the grounding rules read of a text and its mentions as extracted, whatever the solution: handed to
    every :class:`GroundingState` over the same text, mentions and pack (the solution reader reads a question once
    for all its solutions, :func:`~ssbg.reading.readers.solutions.read_solution`), each made on first need and
    never changed after."""

    def __init__(self, text: str, mentions: tuple[Mention, ...], pack: UnitPack) -> None:
        self.text = text
        self.mentions = mentions
        self.pack = pack
        self.by_value: dict[float, list[int]] = {}
        for i, m in enumerate(mentions):
            self.by_value.setdefault(_value_key(float(m.value)), []).append(i)
        self.readings: dict[str, tuple[Any, ...]] = {}  # the text's readings (GroundingState.text_reading)
        self.contexts: dict[Any, dict[str, float]] = {}  # the words around a mention as extracted, or a cue
        self.fraction_parts: dict[float, list[int]] | None = None  # of the mentions as extracted, on first need

    @functools.cached_property
    def scaled(self) -> tuple[float | None, ...]:
        """Each mention's value in its unit's scale (:func:`_scaled_value`)."""
        return tuple(_scaled_value(m, self.pack) for m in self.mentions)

    @functools.cached_property
    def by_scaled(self) -> dict[float, list[int]]:
        """The mentions by their scaled values (``20%`` under 0.2, ``129.9 million`` under 129.9)."""
        by_scaled: dict[float, list[int]] = {}
        for i, m in enumerate(self.mentions):
            scale = _scale_word(m.text)
            if scale is not None:  # "129.9 million voters" also stands for 129.9
                by_scaled.setdefault(_value_key(float(m.value) / _SCALES[scale.group().lower()]), []).append(i)
            scaled = self.scaled[i]
            if scaled is not None:
                by_scaled.setdefault(_value_key(scaled), []).append(i)
        return by_scaled


class GroundingState:
    """What the grounding rules of one problem read and extend.

    The problem's text, its mentions (a rule may widen or narrow one: ``half`` read
    as ``half an hour``), the pack and the worked solution; the steps so far and
    their values; the mentions used; the extra mentions operands point at
    (solution quotes, counted text mentions), by first use; where the formula
    being added stands.  Readings of the text the later rules need are made once,
    on first need.
    """

    def __init__(
        self,
        text: str,
        mentions: Sequence[Mention],
        pack: UnitPack,
        solution: str | None = None,
        shared: TextReadings | None = None,
    ) -> None:
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
        if shared is None or shared.pack is not pack or shared.text != text or shared.mentions != self.mentions:
            shared = TextReadings(text, self.mentions, pack)  # none handed over (or another text's): this state's own
        self.shared = shared  # what is read of the text and its mentions alone
        self.by_value: dict[float, list[int]] = self.shared.by_value
        self._blanked: str | None = None  # the solution with annotations blanked: see blanked_solution
        self._readings: dict[str, tuple[Any, ...]] = {}  # the later rules' readings of the text, on need
        self._of_mentions: dict[str, tuple[tuple[Mention, ...], tuple[Any, ...]]] = {}  # see of_mentions
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
        return self.shared.scaled

    @functools.cached_property
    def fraction_parts(self) -> dict[float, list[int]]:
        """The mentions by the parts of the fraction they write (``one-third``: 1 and 3; ``20%``: 1 and 5;
        ``4 1/2``: 4 and 1/2), read on first need; a mention widened later keeps the parts it had.  Of the
        mentions as given, read once for every state over them (:class:`TextReadings`)."""
        unchanged = self.mentions is self._extracted
        if unchanged and self.shared.fraction_parts is not None:
            return self.shared.fraction_parts
        out: dict[float, list[int]] = {}
        for i, m in enumerate(self.mentions):
            if m.kind == "quantity" and m.unit is None:
                continue
            for part in _parts_of(self, i):
                out.setdefault(part, []).append(i)
        if unchanged:
            self.shared.fraction_parts = out
        return out

    @functools.cached_property
    def by_scaled(self) -> dict[float, list[int]]:
        """The given mentions by their scaled values (``20%`` under 0.2, ``129.9 million`` under 129.9)."""
        return self.shared.by_scaled

    def scaled_value(self, m: Mention) -> float | None:
        """A mention's value in its unit's scale, for dimensionless and count units (``20%`` -> 0.2)."""
        return _scaled_value(m, self.pack)

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

    def text_reading(self, key: str, read: Callable[[], tuple[Any, ...]]) -> tuple[Any, ...]:
        """A reading of the text alone a later rule needs (``read()``, which reads nothing but the text and the
        pack), computed once for every state over the same text (:class:`TextReadings`)."""
        readings = self.shared.readings
        found = readings.get(key)
        if found is None:
            found = readings[key] = read()
        return found

    def of_mentions(self, key: str, read: Callable[[], tuple[Any, ...]]) -> tuple[Any, ...]:
        """What a later rule reads of the mentions alone (``read()``: which are percentages, which pairs say
        "two and a half", ...), computed once per state of :attr:`mentions` (a rule that widens or narrows a
        mention makes a new tuple): a rule tried for each ungrounded number scans these few, not every
        mention again (ADR 0033)."""
        found = self._of_mentions.get(key)
        if found is not None and found[0] is self.mentions:
            return found[1]
        value = read()
        self._of_mentions[key] = (self.mentions, value)
        return value

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
            shared = self.shared.contexts if i < len(self._extracted) and m is self._extracted[i] else None
            found = None if shared is None else shared.get(i)
            if found is None:
                found = mention_context(self.text, m.start, m.end, _unit_words(m.unit, m.lemma))
                if shared is not None:
                    shared[i] = found
            self._contexts[key] = found
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
            words_of_unit = tuple(sorted(unit))
            shared, cue = self.shared.contexts, ("cue", start, end, words_of_unit)
            found = shared.get(cue)
            if found is None:
                found = shared[cue] = mention_context(self.text, start, end, words_of_unit)
            self._contexts[key] = found
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


GroundingRule = Callable[[GroundingState, Literal, str | None], Operand | None]


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
