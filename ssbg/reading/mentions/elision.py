"""Elision: the unit of a bare number that the text leaves out (``5 apples and 3 more``), read from a
parallel phrase by the rules of :data:`_ELISIONS`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from ssbg.reading.mentions.lemmas import _invariant_plural, is_plural_noun
from ssbg.reading.mentions.nouns import _noun_run
from ssbg.reading.mentions.pack import _pack_unit, _PackTexts
from ssbg.reading.mentions.tokens import Token, _words
from ssbg.reading.mentions.vocabulary import (
    _A,
    _COUNT,
    _CURRENCY_SYMBOLS,
    _DETERMINERS,
    _FUNCTION_WORDS,
    _NOT_UNITS,
    _PERCENT_UNITS,
    _RATE_PREPOSITIONS,
    _SENTENCE_END,
)
from ssbg.trace import Mention

_COMPARATIVES = frozenset({"more", "less", "fewer"})


def _elided_unit(
    toks: Sequence[Token], i: int, k: int, before: Sequence[Mention], look: _PackTexts, text: str
) -> str | None:
    """The unit a bare number (tokens ``i`` to ``k``) leaves to its sentence: the first answer of
    :data:`_ELISIONS` (``""``: the words say it has none)."""
    if k >= len(toks):
        return None
    e = _Elision(toks, i, k, before, look, text)
    for _name, rule in _ELISIONS:
        unit = rule(e)
        if unit is not None:
            return unit or None
    return None


class _Elision(NamedTuple):
    """A bare number (tokens ``i`` to ``k``) and the mentions read before it."""

    toks: Sequence[Token]
    i: int
    k: int
    before: Sequence[Mention]
    look: _PackTexts
    text: str


def _compared_noun(e: _Elision) -> str | None:
    """``7 more than 4 times the number of Oreos``, ``15 more than three times the pages``, ``5 fewer than
    twice as many students``, ``12 plus two times the number of sodas``: the noun the comparison names."""
    toks, k = e.toks, e.k
    n = len(toks)
    if k + 1 >= n or not (
        (toks[k].low in _COMPARATIVES and toks[k + 1].low == "than") or toks[k].low in ("plus", "minus")
    ):
        return None
    for j in range(k + 1, min(n - 2, k + 12)):
        tok, nxt = toks[j], toks[j + 1]
        if tok.text in _SENTENCE_END or tok.text == ",":
            break
        if tok.low in ("number", "amount") and nxt.low == "of" and toks[j + 2].kind == "word":
            noun = toks[j + 2].text
            return noun if is_plural_noun(noun) or e.look.lookup(noun) is not None else None
        if tok.low in ("the", "many") and toks[j - 1].low in ("times", "as", "twice") and nxt.kind == "word":
            if nxt.low in ("number", "amount"):
                continue
            head = _noun_run(toks, j + 1, 2, plural_only=True)  # "times the pages", "as many tennis balls"
            return None if head is None else toks[head[0]].text
    return _as_many_before(toks, e.i)


def _as_many_before(toks: Sequence[Token], i: int) -> str | None:
    """The noun of an ``as many X`` earlier in the sentence (``twice as many tennis balls as Frodo, who has 8
    more than Lily``), with no number between."""
    for j in range(i - 1, max(0, i - 20), -1):
        tok = toks[j]
        if tok.text in _SENTENCE_END or tok.kind == "num":
            return None
        if tok.low == "many" and toks[j - 1].low == "as" and j + 1 < i:
            head = _noun_run(toks, j + 1, 2, plural_only=True)
            return None if head is None or head[0] >= i else toks[head[0]].text
    return None


def _them(e: _Elision) -> str | None:
    """``12 of them``: the things of the quantity before; ``the 3 of them`` / ``all 3 of them`` are the
    persons of the story, not things: no unit."""
    toks, i, k = e.toks, e.i, e.k
    if k + 1 >= len(toks) or toks[k].low != "of" or toks[k + 1].low != "them":
        return None
    if i > 0 and toks[i - 1].low in ("the", "all"):
        return ""
    return _unit_before(toks, k, e.before, e.look, partitive=True) or ""


def _compared(e: _Elision) -> str | None:
    """``5 more than Sam``: the unit of the nearest quantity before (a measure or money too)."""
    toks, k = e.toks, e.k
    if k + 1 >= len(toks) or toks[k].low not in _COMPARATIVES or toks[k + 1].low != "than":
        return None
    return _unit_before(toks, k, e.before, e.look, partitive=False) or ""


def _dimension(e: _Elision) -> str | None:
    """``8*7 feet``, ``12 by 9 meters``, ``6 x 4 inches``: a dimension takes the unit written after the next."""
    toks, k = e.toks, e.k
    if k + 2 >= len(toks) or toks[k].low not in ("by", "x", "*", "\u00d7") or toks[k + 1].kind != "num":
        return None
    packed = _pack_unit(toks, k + 2, e.text, e.look, glued=toks[k + 1].end == toks[k + 2].start)
    return None if packed is None else packed[0]


def _counted_measures(e: _Elision) -> str | None:
    """``two $20 bills``, ``three 5-pound bags``: a number before a measure of each counts the things."""
    toks, k = e.toks, e.k
    n = len(toks)
    j = k + 1 if k < n and toks[k].text in _CURRENCY_SYMBOLS else k
    if j >= n or toks[j].kind != "num":
        return None
    j += 1
    if j + 1 < n and toks[j].text == "-" and toks[j + 1].kind == "word":
        j += 2  # "5-pound"
    if (
        j < n
        and toks[j].kind == "word"
        and is_plural_noun(toks[j].text)
        and toks[j].low not in _NOT_UNITS
        and (e.look.lookup(toks[j].text) is None or toks[k].text in _CURRENCY_SYMBOLS or j > k + 1)
    ):
        return toks[j].text  # a count noun, or a measure only after a currency or a hyphenated measure
    return None


def _clause_end(e: _Elision) -> str | None:
    """``and Carla caught 8.``: a bare number that ends its clause after a verb counts the things of the
    quantity before it (:func:`_ends_clause`)."""
    if not _ends_clause(e.toks, e.i, e.k):
        return None
    return _unit_before(e.toks, e.k, e.before, e.look, partitive=True)


_COPULAS = frozenset(_words("is are was were numbered totaled totalled"))


def _relative_count(e: _Elision) -> str | None:
    """``the remaining apples, which were 230``: a relative clause gives the number to the noun before it."""
    toks, i = e.toks, e.i
    if i < 3 or toks[i - 1].low not in _COPULAS or toks[i - 2].low not in ("which", "that"):
        return None
    j = i - 4 if toks[i - 3].text == "," else i - 3
    if j < 0 or toks[j].kind != "word" or not is_plural_noun(toks[j].text) or e.look.lookup(toks[j].text) is not None:
        return None
    return toks[j].text


def _shared_out(e: _Elision) -> str | None:
    """``3 magic wands, one for herself and two for her friends``: numbers that share out the count before
    them (after a comma or ``and``, before a preposition) count its things."""
    toks, i, k = e.toks, e.i, e.k
    if i == 0 or toks[i - 1].text not in (",", "and") or toks[k].low not in _SHARED_BY:
        return None
    unit = _unit_before(toks, i, e.before, e.look, partitive=True, sentence_only=True)
    return unit if unit is not None and " per " not in unit else None


_SHARED_BY = frozenset(_words("for to from with in on at"))


def _one_which(e: _Elision) -> str | None:
    """``Each figure is worth $15, except for one which is worth $20``: a ``one`` a relative clause follows
    is one of the things counted before it in its sentence."""
    toks, i, k = e.toks, e.i, e.k
    if toks[i].low != "one" or k != i + 1 or toks[k].low not in ("which", "that", "who"):
        return None
    return _unit_before(toks, i, e.before, e.look, partitive=True, sentence_only=True)


_NOT_A_VERB = frozenset(
    {*_DETERMINERS, *_RATE_PREPOSITIONS, *_COMPARATIVES, *_A, "of", "times", "percent", "and", "or"}
)


def _part_of_group(e: _Elision) -> str | None:
    """``60% of the citizens own a pet, half own a dog and 30 own a cat``: a number that is the subject of
    a verb after a conjunction counts the group an ``of the X`` names earlier in its sentence."""
    toks, i, k = e.toks, e.i, e.k
    if i == 0 or toks[i - 1].low not in ("and", "while", "but", ",") or toks[k].kind != "word":
        return None
    if toks[k].low in _NOT_A_VERB or is_plural_noun(toks[k].text):
        return None
    for j in range(i - 2, max(0, i - 25), -1):
        if toks[j].text in _SENTENCE_END:
            return None
        if toks[j - 1].low != "of" or toks[j].low not in _DETERMINERS:
            continue
        noun = j + 2 if j + 2 < i and toks[j + 1].kind == "num" else j + 1  # "Of the 30 boys, 12 play"
        if noun < i and is_plural_noun(toks[noun].text):
            return toks[noun].text if e.look.lookup(toks[noun].text) is None else None
    return None


# How a bare number takes the unit its sentence leaves out, in this order; the first answer wins.
_ELISIONS: tuple[tuple[str, Callable[[_Elision], str | None]], ...] = (
    ("compared noun", _compared_noun),
    ("them", _them),
    ("compared", _compared),
    ("dimension", _dimension),
    ("counted measures", _counted_measures),
    ("relative count", _relative_count),
    ("one which", _one_which),
    ("shared out", _shared_out),
    ("part of a group", _part_of_group),
    ("clause end", _clause_end),
)


def _unit_before(
    toks: Sequence[Token],
    k: int,
    before: Sequence[Mention],
    look: _PackTexts,
    *,
    partitive: bool,
    sentence_only: bool = False,
) -> str | None:
    """The unit of the nearest quantity before token ``k``, in its sentence or the one before (or only in
    its sentence): for a ``partitive`` reading ("12 of them", "Carla caught 8") a thing counted, the ``Y``
    of a rate per thing included ("2-pound packages ... 3 of them" are packages); never a percentage."""
    since, back = 0, 1 if sentence_only else 2
    for j in range(k - 1, -1, -1):  # back to the start of this sentence, or the one before
        if toks[j].text in _SENTENCE_END:
            back -= 1
            if back == 0:
                since = toks[j].end
                break
    for m in reversed(before):
        if m.start < since:
            break
        unit = m.unit
        if unit is None or m.kind != "quantity" or unit in _PERCENT_UNITS:
            continue
        if " per " in unit:
            thing = unit.rpartition(" per ")[2]
            counted = look.lookup(thing)
            if partitive and thing not in ("item", "items") and (counted is None or counted.dimension == _COUNT):
                return thing
            continue
        if partitive and not _countable(unit, look):
            continue  # "a part for $80 ... 7 of them": them are things, not money
        return unit
    return None
_NOT_COUNTED_AFTER = frozenset(_words("is was are were be been am age aged of at to by from under over about"))


def _ends_clause(toks: Sequence[Token], i: int, k: int) -> bool:
    """Whether a bare number ends its clause after a verb (``and Carla caught 8.``): it then counts the
    things of the quantity before it; never after ``is``/``of``/``age`` (an age, a score) or at the
    sentence's start."""
    if i == 0 or toks[i - 1].kind != "word" or toks[i - 1].low in _NOT_COUNTED_AFTER:
        return False
    if toks[i - 1].low in _FUNCTION_WORDS:
        return False
    return toks[k].text in _SENTENCE_END or toks[k].text == "," or toks[k].low in ("and", "or")


def _countable(unit: str, look: _PackTexts) -> bool:
    """A plural count noun (``students``, ``boxes``, ``fish``), not a measure (``hours``, ``$``, ``pound``)."""
    last = unit.rsplit(maxsplit=1)[-1]
    if not is_plural_noun(last) and not _invariant_plural(last.lower()):
        return False
    resolved = look.lookup(unit)
    return resolved is None or resolved.dimension == _COUNT
