"""Candidate readings of a question's mention: what it counts or measures, and per what (edge).

The proposers are generous: the scorer (:mod:`ssbg.reading.learned.model`), not they, decides.
For a mention of the text (a number and the unit the rules read beside it) they propose

- **units** (the numerator): the rules' reading and their second reading (``alt_unit``), every
  noun within a few words of the number in its sentence, the things the other mentions of the
  text count (an elided noun: "Sam has 5 more than Tom"), and none (a bare number);
- **pers** (the denominator of a rate): none, the rules' and second reading's, every noun of the
  number's sentence, and every noun of the text that follows ``a``/``an``/``each``/``every``/``per``
  (what one thing is: "a combo", "each tree").

A noun is a word the corpus pack names (:data:`~ssbg.units.CORPUS_PACK_NAME`: the units, the count
nouns and the measures), whatever pack the reading binds with, so the candidates do not change with the pack.

>>> from ssbg.reading.mentions import extract_mentions, tokenize
>>> text = "Each tree has 6 lemons. She picks 3 trees."
>>> m = extract_mentions(text)[0]
>>> toks = tokenize(text)
>>> sorted({c.lemma for c in unit_candidates(toks, m, extract_mentions(text), TextIndex.of(toks))} - {None})
['lemon', 'tree']
"""

from __future__ import annotations

import bisect
import functools
import itertools
import operator
from collections.abc import Sequence
from typing import NamedTuple

from ssbg.reading.mentions import NOT_UNITS, Token, lemmatize, pack_lookup, unit_lemma
from ssbg.trace import Mention
from ssbg.units import CORPUS_PACK_NAME, UnitPack, load_pack

__all__ = [
    "NOUN_PACK",
    "Neighbours",
    "PerCandidate",
    "TextIndex",
    "UnitCandidate",
    "category",
    "mention_tokens",
    "per_candidates",
    "reading_of",
    "sentence_bounds",
    "unit_candidates",
]

NOUN_PACK = CORPUS_PACK_NAME
"""The packs whose words are nouns to the proposers (the same whatever pack a reading binds with)."""

WINDOW_AFTER = 6  # words after a number that may name its unit
WINDOW_BEFORE = 4  # and before it ("a price of $5", "Tom's cats number 3")

_SENTENCE_END = frozenset({".", "?", "!", ";"})
_CUES = frozenset({"a", "an", "each", "every", "per"})
_NOT_NOUNS = frozenset(
    """a an the and or but of to in on at for with by from as than that this these those it its he she they
    them his her their our your my we you i me him us is are was were be been has have had do does did
    will would can could each every per more less fewer most least if then so how what which who when
    where all some any many much only just also too very both either half twice once one two three four
    five six seven eight nine ten left total times time rest other another same new old first second
    third last next""".split()  # noqa: SIM905 - a vocabulary reads better as words
)


class UnitCandidate(NamedTuple):
    """A reading of what a mention counts or measures (``lemma`` None: no unit, a bare number)."""

    lemma: str | None
    surface: str | None  # as the text writes it (the rules' surface for their readings)
    rule: bool  # the rules' reading
    alt: bool  # the rules' second reading
    parallel: bool  # what another mention counts
    previous: bool  # what the mention before it counts
    distance: int | None  # words from the number (negative: before it); None: not in its sentence's window
    after_of: bool  # "5 boxes of crayons": the noun follows an "of"


class PerCandidate(NamedTuple):
    """A reading of what a mention is per (``lemma`` None: a total, not a rate)."""

    lemma: str | None
    surface: str | None
    rule: bool
    alt: bool
    cue: str | None  # the word before the noun when it is a/an/each/every/per
    distance: int | None  # words from the number in its sentence (negative: before); None: another sentence
    in_mention: bool  # written inside the mention's own words ("$12 an hour")
    crossed: bool = False  # a clause break (a comma, "and", "but", ...) stands between it and the number
    head: bool = True  # the last noun of a run ("egg" of "duck egg"), not a modifier of the next


_NOT_NOUNS |= NOT_UNITS
_PERIODIC = {
    "daily": "day", "weekly": "week", "monthly": "month", "yearly": "year", "annual": "year", "annually": "year",
    "hourly": "hour", "nightly": "night",
}  # fmt: skip
_BREAKS = frozenset({",", "and", "but", "while", "so", "then", "if", "when", "or", "whereas"})
_CUE_PREPOSITIONS = frozenset({"for", "in", "of", "on", "from", "to"})


_INDEX = operator.itemgetter(0)  # a noun's token index: the bisect key of TextIndex.nouns


@functools.lru_cache(maxsize=1)
def _noun_pack() -> UnitPack:
    return load_pack(NOUN_PACK)


@functools.lru_cache(maxsize=65536)
def category(word: str) -> str:
    """What kind of unit a word names in the shipped packs: ``money``, ``time``, ``length``, ``area``,
    ``volume``, ``mass``, ``temperature``, ``count``, ``percent``, ``rate``, ``other`` or ``unknown``.

    >>> category("dollars"), category("hours"), category("lemons"), category("quickly")
    ('money', 'time', 'count', 'unknown')
    """
    hit = pack_lookup(_noun_pack(), word)
    if hit is None:
        return "unknown"
    if hit.is_rate:
        return "rate"
    d = hit.dimension
    if hit.lemma == "percent":
        return "percent"
    named = [(d.money, "money"), (d.time, "time"), (d.mass, "mass"), (d.temperature, "temperature"), (d.count, "count")]
    for exponent, name in named:
        if exponent == 1 and sum(map(abs, d)) == 1:
            return name
    if d.length in (1, 2, 3) and sum(map(abs, d)) == d.length:
        return ("length", "area", "volume")[d.length - 1]
    return "other"


@functools.lru_cache(maxsize=65536)
def _noun_of(low: str) -> str | None:
    """The lemma of a word (lower-cased) that names a unit or a counted thing, else None."""
    if low in _NOT_NOUNS or len(low) < 2 or category(low) == "unknown":
        return None
    hit = pack_lookup(_noun_pack(), low)
    return hit.lemma if hit is not None else lemmatize(low)


def sentence_bounds(index: TextIndex, i: int) -> tuple[int, int]:
    """The token range ``[lo, hi)`` of the sentence holding token ``i``."""
    return index.sentence[i] if i < len(index.sentence) else (i, i)


def mention_tokens(index: TextIndex, m: Mention) -> tuple[int, int]:
    """The token range ``[first, last]`` of a mention (its number is at ``first``)."""
    first = min(bisect.bisect_right(index.ends, m.start), len(index.ends) - 1)
    last = max(first, bisect.bisect_left(index.starts, m.end) - 1)
    return first, last


def reading_of(m: Mention, alt: bool = False) -> tuple[str | None, str | None, str | None, str | None]:
    """(unit lemma, unit surface, per lemma, per surface) of a mention's rule reading (or second)."""
    return _reading(m.alt_unit, None) if alt else _reading(m.unit, m.lemma)


@functools.lru_cache(maxsize=65536)
def _reading(unit: str | None, lemma: str | None) -> tuple[str | None, str | None, str | None, str | None]:
    """:func:`reading_of` of a unit as written and its lemma (None: the unit's own), memoized: every proposer
    asks it of each mention, and of the mentions around each."""
    if unit is None:
        return None, None, None, None
    num, sep, den = unit.partition(" per ")
    lemma = lemma or _lemma_of(unit)
    lnum, lsep, lden = lemma.partition("_per_")
    if not lsep:
        return lemma, num.strip() or None, None, None
    if sep:
        return lnum, num.strip() or None, lden, den.strip() or None
    return lnum, lnum.replace("_", " "), lden, lden.replace("_", " ")  # "mph": mile per hour


def _lemma_of(text: str) -> str:
    return unit_lemma(text.strip(), _noun_pack()) or text


def unit_candidates(
    toks: Sequence[Token],
    m: Mention,
    mentions: Sequence[Mention],
    index: TextIndex,
    neighbours: Neighbours | None = None,
) -> list[UnitCandidate]:
    """Every unit reading proposed for ``m`` (deduplicated by lemma; the rules' first).  ``neighbours``
    is ``Neighbours.of(mentions)``, found once when a caller reads every mention of a text."""
    near = Neighbours.of(mentions) if neighbours is None else neighbours
    first, last = mention_tokens(index, m)
    lo, hi = sentence_bounds(index, first)
    out: dict[str | None, UnitCandidate] = {}

    def add(c: UnitCandidate) -> None:
        old = out.get(c.lemma)
        if old is None:
            out[c.lemma] = c
            return
        near = old.distance if old.distance is not None else c.distance
        if old.distance is not None and c.distance is not None:
            near = old.distance if abs(old.distance) <= abs(c.distance) else c.distance
        out[c.lemma] = UnitCandidate(
            old.lemma, old.surface or c.surface, old.rule or c.rule, old.alt or c.alt, old.parallel or c.parallel,
            old.previous or c.previous, near, old.after_of or c.after_of,
        )  # fmt: skip

    rnum, rsurf, _rden, _ = reading_of(m)
    if rnum is not None:
        add(UnitCandidate(rnum, rsurf, True, False, False, False, None, False))
    if m.alt_unit is not None:
        anum, asurf, _aden, _ = reading_of(m, alt=True)
        if anum is not None:
            add(UnitCandidate(anum, asurf, False, True, False, False, None, False))
    window = index.nouns
    at = bisect.bisect_left(window, max(lo, first - WINDOW_BEFORE), key=_INDEX)
    for j, lemma, _cue, _head in window[at : bisect.bisect_left(window, min(hi, last + 1 + WINDOW_AFTER), key=_INDEX)]:
        if first <= j <= last and toks[j].kind == "num":
            continue
        distance = j - last if j > last else j - first if j < first else 0
        of = j > 0 and toks[j - 1].low == "of"
        add(UnitCandidate(lemma, toks[j].text, False, False, False, False, distance, of))
    before = near.before(m)
    for other, (onum, osurf) in near.around_units(m):
        add(UnitCandidate(onum, osurf, False, False, True, other is before, None, False))
    add(UnitCandidate(None, None, False, False, False, False, None, False))
    return list(out.values())


class Neighbours(NamedTuple):
    """The text mentions of a reading in order, found once: where each stands, the one before it that
    reads a unit (what an elided noun may be), and what each counts when that is a noun of the packs."""

    text: tuple[Mention, ...]
    position: dict[int, int]  # id of a mention -> its place in ``text``
    previous: tuple[Mention | None, ...]
    units: tuple[tuple[Mention, tuple[str, str | None]], ...]  # (mention, its unit lemma and surface)
    unit_at: tuple[int, ...]  # place in ``text`` -> how many of ``units`` stand before it

    @staticmethod
    def of(mentions: Sequence[Mention]) -> Neighbours:
        text = tuple(o for o in mentions if o.source == "text")
        previous: list[Mention | None] = []
        units: list[tuple[Mention, tuple[str, str | None]]] = []
        unit_at: list[int] = []
        before: Mention | None = None
        for o in text:
            previous.append(before)
            if o.unit is not None:
                before = o
            unit_at.append(len(units))
            onum, osurf, _, _ = reading_of(o)
            if onum is not None and category(onum.replace("_", " ")) != "unknown":
                units.append((o, (onum, osurf)))
        unit_at.append(len(units))
        return Neighbours(text, {id(o): k for k, o in enumerate(text)}, tuple(previous), tuple(units), tuple(unit_at))

    def around_units(self, m: Mention) -> tuple[tuple[Mention, tuple[str, str | None]], ...]:
        """The text mentions nearest ``m`` (at most :data:`MAX_PARALLEL` either side; the first ones for a
        mention not of the text) whose rules' reading is a noun of the packs, each with that unit (lemma and
        surface), in order: what ``m`` may count as they do."""
        k = self.position.get(id(m))
        at = self.unit_at
        if k is None:
            return self.units[: at[min(MAX_PARALLEL, len(self.text))]]
        return (
            self.units[at[max(0, k - MAX_PARALLEL)] : at[k]]
            + self.units[at[k + 1] : at[min(k + 1 + MAX_PARALLEL, len(self.text))]]
        )

    def before(self, m: Mention) -> Mention | None:
        k = self.position.get(id(m))
        return None if k is None else self.previous[k]


MAX_PARALLEL = 6


def _surface(toks: Sequence[Token], j: int, lemma: str, cue: str | None) -> str:
    """How a per noun is written in a unit: as the text writes it, or its lemma for a word that is not
    the noun ("daily" is per day, "per $10" per dollar)."""
    return lemma if cue == "periodic" or toks[j].kind != "word" else toks[j].text


def _cue(toks: Sequence[Token], j: int) -> str | None:
    """The cue word of the noun at ``j``: ``per``, ``each``, ``a`` ... right before it (or before up to
    three modifiers), ``prep_each`` for "for each"/"in each", ``each_after`` for a noun an "each" follows
    ("the 11 players each take"); None."""
    before = toks[j - 1].low if j > 0 else ""
    cue = before if before in _CUES else None
    k = j - 2
    while cue is None and k >= max(0, j - 4) and toks[k + 1].kind == "word" and toks[k + 1].low not in _BREAKS:
        if toks[k].low in _CUES:
            cue = toks[k].low  # "each small task", "a fried chicken", "per fresh duck egg"
            break
        k -= 1
    k = k - 1 if cue is not None and before not in _CUES else j - 2
    if cue in ("each", "every") and k >= 0 and toks[k].low in _CUE_PREPOSITIONS:
        return "prep_each"
    if cue is None and j + 1 < len(toks) and toks[j + 1].low == "each":
        return "each_after"
    return cue


class TextIndex(NamedTuple):
    """What every mention of a text reads, found once: its nouns ``(token index, lemma, cue, head)`` in
    order, the first noun of each lemma a cue word precedes (its index and the per it proposes to a number of
    another sentence), each token's sentence, the tokens' offsets and lower-cased texts, and how many clause
    breaks stand before each token."""

    nouns: tuple[tuple[int, str, str | None, bool], ...]
    cued: tuple[tuple[int, PerCandidate], ...]
    sentence: tuple[tuple[int, int], ...]
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    breaks: tuple[int, ...]  # breaks[j]: the tokens of toks[:j] that are clause breaks (:data:`_BREAKS`)
    lows: tuple[str, ...]  # each token's lower-cased text

    @staticmethod
    def of(toks: Sequence[Token]) -> TextIndex:
        n = len(toks)
        if n == 0:
            return TextIndex((), (), (), (), (), (0,), ())
        kinds, texts, starts, ends, lows = zip(*toks, strict=True)  # the tokens' fields, each a tuple
        sentence: list[tuple[int, int]] = []
        lo = 0
        for j in itertools.compress(range(n), map(_SENTENCE_END.__contains__, texts)):
            sentence.extend([(lo, j)] * (j + 1 - len(sentence)))
            lo = j + 1
        if len(sentence) < n:  # the last sentence has no end mark
            sentence.extend([(lo, n)] * (n - len(sentence)))
        nouns: list[tuple[int, str, str | None, bool]] = []
        cued: dict[str, tuple[int, PerCandidate]] = {}
        lemmas = [_noun_of(low) if kind == "word" else None for kind, low in zip(kinds, lows, strict=True)]
        for j, lemma in enumerate(lemmas):
            if lemma is None:
                periodic = _PERIODIC.get(lows[j])
                if periodic is not None:
                    nouns.append((j, periodic, "periodic", True))
                elif texts[j] == "$" and j > 0 and lows[j - 1] == "per":
                    nouns.append((j, "dollar", "per", True))  # "50 points per $10 spent"
                continue
            cue = _cue(toks, j)
            head = j + 1 >= n or lemmas[j + 1] is None  # the last noun of a run: "duck egg"
            nouns.append((j, lemma, cue, head))
            if cue is not None and lemma not in cued and len(cued) < MAX_CUED:
                surface = _surface(toks, j, lemma, cue)
                cued[lemma] = (j, PerCandidate(lemma, surface, False, False, cue, None, False, False, head))
        breaks = tuple(itertools.accumulate(map(_BREAKS.__contains__, lows), initial=0))
        return TextIndex(tuple(nouns), tuple(cued.values()), tuple(sentence), starts, ends, breaks, lows)


PER_WINDOW = 25  # words either side of a number whose nouns it may be per (its sentence only)
MAX_CUED = 30  # distinct cued nouns of other sentences a number may be per


def per_candidates(toks: Sequence[Token], m: Mention, nouns: TextIndex) -> list[PerCandidate]:
    """Every per reading proposed for ``m`` (deduplicated by lemma; none first)."""
    first, last = mention_tokens(nouns, m)
    lo, hi = sentence_bounds(nouns, first)
    lo, hi = max(lo, first - PER_WINDOW), min(hi, last + 1 + PER_WINDOW)
    out: dict[str | None, PerCandidate] = {None: PerCandidate(None, None, False, False, None, None, False)}

    def add(c: PerCandidate) -> None:
        old = out.get(c.lemma)
        if old is None:
            out[c.lemma] = c
            return
        distance, cue, in_mention, crossed = old.distance, old.cue, old.in_mention, old.crossed
        if c.distance is not None and (distance is None or abs(c.distance) < abs(distance)):  # the nearer's place
            distance, cue, in_mention, crossed = c.distance, c.cue or cue, c.in_mention or in_mention, c.crossed
        out[c.lemma] = PerCandidate(
            old.lemma, old.surface or c.surface, old.rule or c.rule, old.alt or c.alt, cue or c.cue, distance,
            in_mention, crossed, old.head,
        )  # fmt: skip

    _rnum, _, rden, rdsurf = reading_of(m)
    if rden is not None:
        add(PerCandidate(rden, rdsurf, True, False, None, None, False))
    else:
        out[None] = out[None]._replace(rule=True)
    if m.alt_unit is not None:
        _anum, _, aden, adsurf = reading_of(m, alt=True)
        if aden is not None:
            add(PerCandidate(aden, adsurf, False, True, None, None, False))
        else:
            out[None] = out[None]._replace(alt=True)
    at, breaks = bisect.bisect_left(nouns.nouns, lo, key=_INDEX), nouns.breaks
    for j, lemma, cue, head in nouns.nouns[at : bisect.bisect_left(nouns.nouns, hi, key=_INDEX)]:
        if first <= j <= last and toks[j].kind == "num":
            continue
        distance = j - last if j > last else j - first
        # a clause break between the noun and the number: among toks[j + 1 : first] or toks[last + 1 : j]
        crossed = (breaks[first] - breaks[j + 1] if j < first else breaks[j] - breaks[last + 1]) > 0
        surface = _surface(toks, j, lemma, cue)
        add(PerCandidate(lemma, surface, False, False, cue, distance, first <= j <= last, crossed, head))
    for j, cued in nouns.cued:
        if not lo <= j < hi:
            add(cued)
    return list(out.values())
