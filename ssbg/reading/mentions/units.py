"""Units: the unit written after a number (:func:`unit_after`): a percentage or a multiplier, a
hyphenated or a pack unit, an open count noun, a container, then a rate by the context rules.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ssbg.reading.mentions.context_rates import _CONTEXT_RATES, _Context
from ssbg.reading.mentions.lemmas import _head_lemma, _singular, is_plural_noun, lemmatize
from ssbg.reading.mentions.nouns import _noun_run, _verbish
from ssbg.reading.mentions.numbers import _adjacent
from ssbg.reading.mentions.pack import _pack_texts, _pack_unit, _PackTexts, _period
from ssbg.reading.mentions.rates import _items_rate, _rate_suffix
from ssbg.reading.mentions.tokens import Token, _words
from ssbg.reading.mentions.vocabulary import (
    _A,
    _COUNT,
    _DETERMINERS,
    _FUNCTION_WORDS,
    _MONEY,
    _NO_UNIT,
    _NOT_UNITS,
    _PERCENT_UNITS,
    _SENTENCE_END,
    _TIME,
)
from ssbg.units import UnitPack, default_pack

_MULTIPLIER_FOLLOWERS = frozenset(
    _words(
        """as more less fewer the that what his her their its my your our bigger larger longer taller heavier
        older faster higher greater smaller shorter lighter younger slower lower cheaper many much"""
    )
)


@dataclass(frozen=True, slots=True)
class _Unit:
    unit: str | None
    next: int  # index of the token after the unit (and rate)
    kind: str = "quantity"


def _container_before(toks: Sequence[Token], i: int) -> str | None:
    """The container of ``bags of 5 apples`` / ``groups of 2``: a count noun right before ``of N``."""
    if i < 2 or toks[i - 1].low != "of" or (i + 1 < len(toks) and toks[i + 1].low == "of"):
        return None  # "the contents of one of the bags": one bag, not a content per bag
    noun = toks[i - 2]
    if noun.kind != "word" or noun.low in _FUNCTION_WORDS or noun.low in _NOT_UNITS:
        return None
    if i >= 3 and toks[i - 3].low == "the":
        return None  # "the ages of 3 children": what the things have, not a container
    if not is_plural_noun(noun.text):  # "cases of 12 boxes" (but "a group of 12 adults" is one group)
        return None
    for tok in itertools.islice(toks, i + 1, None):  # to the sentence's end: read once per container
        if tok.text in _SENTENCE_END:
            break
        if tok.low == "respectively":
            return None  # "two transfers of $90 and $60 respectively": each value is one transfer's
    return lemmatize(noun.text)


def unit_after(
    toks: Sequence[Token],
    j: int,
    text: str,
    value: float | int,
    *,
    currency: str | None = None,
    number_end: int | None = None,
    pack: UnitPack | None = None,
    clause_start: int | None = None,
    kind_hint: str = "quantity",
) -> tuple[str | None, int, str]:
    """Read the unit written after a number whose tokens end before index ``j``.

    Returns ``(unit as written or None, next token index, kind)``; ``kind`` is
    ``multiplier`` for ``N times as ...``.  ``clause_start`` (the number's first
    token index) enables the ``each Y`` look-back.
    """
    look = _pack_texts(default_pack() if pack is None else pack)
    return _unit_after(toks, j, text, value, look, currency, number_end, clause_start, kind_hint)


def _unit_after(
    toks: Sequence[Token],
    j: int,
    text: str,
    value: float | int,
    look: _PackTexts,
    currency: str | None,
    number_end: int | None,
    clause_start: int | None,
    kind_hint: str,
) -> tuple[str | None, int, str]:
    """:func:`unit_after` over the pack's memoized reads: the unit written after the number, then
    what makes it a rate (:func:`_rate_of_unit`), or for a number without one the rate it counts items by."""
    if currency is None:
        glued = number_end is not None and j < len(toks) and toks[j].start == number_end
        written = _written_unit(toks, j, text, value, look, glued, kind_hint)
        if written.kind == "multiplier":
            return None, written.next, "multiplier"
    else:
        written = _Unit(currency, j)
    container = _container_before(toks, clause_start) if clause_start is not None else None
    if written.unit is None:
        return _items_rate(toks, j, look, container, kind_hint)
    return _rate_of_unit(toks, written.unit, written.next, text, look, currency, container, clause_start, value)


def _written_unit(
    toks: Sequence[Token], k: int, text: str, value: float | int, look: _PackTexts, glued: bool, kind_hint: str
) -> _Unit:
    """The unit words right after a number at token ``k``, in this order: a percent sign or word, ``N
    times`` (a multiplier before ``as``/``more``...), a hyphenated unit (``120-page``), the longest pack
    unit, else the noun after it (:func:`_noun_unit`).  ``_Unit(None, k)`` when there is none."""
    n = len(toks)
    if k >= n:
        return _Unit(None, k)
    tok = toks[k]
    marked = _percent_or_times(toks, k)
    if marked is not None:
        return marked
    if tok.text == "-" and glued and k + 1 < n and toks[k + 1].kind == "word" and _adjacent(tok, toks[k + 1]):
        return _Unit(toks[k + 1].text.split("-")[0], k + 2)
    packed = _pack_unit(toks, k, text, look, glued=glued)
    if packed is not None:
        return _Unit(*packed)
    return _noun_unit(toks, k, text, value, look, kind_hint)


def _percent_or_times(toks: Sequence[Token], k: int) -> _Unit | None:
    """``%``, ``percent``, ``pct``, ``per cent``; ``times`` (a pure multiplier in ``N times as many``)."""
    n = len(toks)
    tok = toks[k]
    if tok.text == "%":
        return _Unit("%", k + 1)
    if tok.low in ("percent", "pct"):
        return _Unit(tok.text, k + 1)
    if tok.low == "per" and k + 1 < n and toks[k + 1].low == "cent":
        return _Unit("per cent", k + 2)
    if tok.low == "times":
        if k + 1 < n and _multiplies(toks, k):
            return _Unit(None, k + 1, "multiplier")
        return _Unit(tok.text, k + 1)
    return None


def _multiplies(toks: Sequence[Token], k: int) -> bool:
    """Whether the ``times`` at ``k`` multiplies what follows: ``3 times as many``, ``2 times Nada's
    house``, ``2 times Sam``, ``than 2 times``; not a count of times (``8 times last month``)."""
    nxt = toks[k + 1]
    if nxt.low in _MULTIPLIER_FOLLOWERS or nxt.low.endswith(("'s", "\u2019s")):
        return True
    if nxt.kind == "word" and nxt.text[0].isupper() and len(nxt.text) > 1:
        return True  # "4 times Ann's age", "3 times Bob": a person's quantity
    return k >= 2 and toks[k - 2].low in ("than", "plus", "minus")


def _noun_unit(
    toks: Sequence[Token], k: int, text: str, value: float | int, look: _PackTexts, kind_hint: str
) -> _Unit:
    """The noun a number counts, after ``of`` when one follows (``0.6 of an hour``: a part of one unit;
    ``12 of the cookies``; never ``of them``): a pack unit there, else the head of the noun run."""
    n = len(toks)
    start = k
    if toks[k].low == "of" and k + 2 < n and toks[k + 1].low in _A:
        start = k + 2  # "0.6 of an hour", "3/4 of a pound": a part of one unit
    elif toks[k].low == "of" and k + 1 < n and kind_hint != "fraction":
        if toks[k + 1].low == "them":
            return _Unit(None, k)
        start = k + 2 if toks[k + 1].low in _DETERMINERS else k + 1
    packed = _pack_unit(toks, start, text, look, glued=False) if start != k else None
    if packed is not None:
        return _Unit(*packed)
    head = _noun_run(toks, start, value, plural_only=kind_hint == "fraction", partitive=start != k)
    return _Unit(None, k) if head is None else _Unit(toks[head[0]].text, head[1])


def _rate_of_unit(
    toks: Sequence[Token],
    unit: str,
    k: int,
    text: str,
    look: _PackTexts,
    currency: str | None,
    container: str | None,
    clause_start: int | None,
    value: float | int,
) -> tuple[str, int, str]:
    """A unit read at ``k`` made a rate, in this order: by a container before the number (``cases of 12
    boxes``), a compound (``$20 bills``), a rate written after it (:func:`_rate_suffix`), else the first
    rate its context gives (:data:`_CONTEXT_RATES`); else the unit as it is."""
    if container is not None and lemmatize(container) != _head_lemma(unit) and " per " not in unit:
        return f"{unit} per {container}", k, "quantity"  # "cases of 12 boxes": 12 boxes per case
    compound = _compound_noun(toks, k, unit, look, currency)
    if compound is not None:
        return f"{unit} per {compound[0]}", compound[1], "quantity"
    rate = None if _floating_after(toks, k, look) else _rate_suffix(toks, k, look)
    if rate is not None:
        return f"{unit} per {rate[0]}", rate[1], "quantity"
    resolved = look.lookup(unit) or _NO_UNIT
    if " per " in unit or resolved.is_rate:
        return unit, k, "quantity"  # "2 gallons per minute": a rate already, never a rate of a rate
    context = _Context(toks, text, look, unit, k, clause_start, currency, value)
    head = _head_lemma(unit)
    for _name, rule in _CONTEXT_RATES:
        per = rule(context)
        if per is not None and lemmatize(per) != head:  # never a rate of the unit itself
            return f"{unit} per {per}", k, "quantity"
    return unit, k, "quantity"


def _floating_after(toks: Sequence[Token], k: int, look: _PackTexts) -> bool:
    """Whether the ``each`` at ``k``, right after a number's unit, floats after it before a verb with its
    object (``Two of the hoses each deliver water``): the word after it is no period, and a content word
    follows that word (``5 apples each day``, ``2 points each game.`` are rates)."""
    n = len(toks)
    if k + 2 >= n or toks[k].low != "each" or toks[k + 1].kind != "word":
        return False
    word, after = toks[k + 1], toks[k + 2]
    if word.low in _FUNCTION_WORDS or _period(look, word.text) is not None:
        return False
    return after.kind == "word" and after.low not in _FUNCTION_WORDS


def _compound_noun(
    toks: Sequence[Token], k: int, unit: str, look: _PackTexts, currency: str | None
) -> tuple[str, int] | None:
    """``200 mL bottles``, ``5-pound bags``, ``$20 bills``: a measure written singular before a plural
    count noun is the measure of each (a rate per that noun)."""
    if k >= len(toks):
        return None
    if currency is None:
        period = _period_compound(toks, k, unit, look)
        if period is not None:
            return period
    tok = toks[k]
    if tok.kind != "word" or tok.low in _FUNCTION_WORDS or tok.low in _NOT_UNITS or not is_plural_noun(tok.text):
        return None
    if _verbish(tok.low):
        return None  # "1 inch equals 5 pages"
    if unit in _PERCENT_UNITS:
        return None  # "60% boys": a share of the boys, not a percentage per boy
    if currency is None:
        hit = look.lookup(unit)
        if hit is None or hit.dimension == _COUNT or hit.is_rate or _singular(unit.rsplit(maxsplit=1)[-1]):
            return None  # a count, a rate, or a plural unit ("3 pounds apples" is not a compound)
        measure = look.lookup(tok.text)
        if measure is not None and measure.dimension != _COUNT:
            return None  # "5 feet inches": two measures (but "2 $4 gallons of milk" is a price per gallon)
    elif (measure := look.lookup(tok.text)) is not None and measure.dimension == _MONEY:
        return None  # "$20 dollars": money written twice
    return lemmatize(tok.text), k + 1


def _period_compound(toks: Sequence[Token], k: int, unit: str, look: _PackTexts) -> tuple[str, int] | None:
    """``8 hour days``, ``a 5 day work week``, ``a 30 day month``: a time written singular before a longer
    period (one modifier between) is a time per that period."""
    hit = look.lookup(unit)
    if hit is None or hit.dimension != _TIME or hit.is_rate or hit.ratio is None or _singular(unit.lower()):
        return None
    for j in (k, k + 1):
        if j >= len(toks) or toks[j].kind != "word":
            return None
        period = look.lookup(toks[j].text)
        if period is not None and period.dimension == _TIME and not period.is_rate:
            longer = period.ratio is not None and period.ratio > hit.ratio
            return (lemmatize(toks[j].text), j + 1) if longer else None
        if toks[j].low in _FUNCTION_WORDS:
            return None
    return None


# ------------------------------------------------------------------ the degrees of an angle (ADR 0026)

ANGLE_UNIT = "angle degrees"
"""The unit a ``degrees`` of an angle is read as: the measures pack's dimensionless ``angle_degree``."""

# A text about angles: a triangle's or a polygon's angles, a turn, a rotation, a circle's degrees.
_ANGLE_CUE = re.compile(
    r"(?i)(?<![a-z])(?:angles?|triangles?|turn(?:s|ed|ing)?|rotat(?:e|es|ed|ing|ion|ions)|(?:counter-?)?clockwise|"
    r"circles?|polygons?|pentagons?|hexagons?|octagons?|protractors?|acute|obtuse|supplementary|complementary|"
    r"vertex|vertices|spin(?:s|ning)?|spun)(?![a-z])"
)
# A text about temperature: then "degrees" stays en_units_v1's temperature, angle words or not.
_TEMPERATURE_CUE = re.compile(
    r"(?i)(?<![a-z])(?:temperatures?|fahrenheit|celsius|centigrade|thermometers?|thermostats?|hot|hotter|cold|colder|"
    r"warm\w*|cool\w*|heat\w*|ovens?|bak(?:e|es|ed|ing)|weather|fever|freez\w*|boil\w*|melt\w*|degrees? [FC])(?![a-z])"
    r"|°\s*[FC]"
)


def angle_reading(unit: str | None, text: str, *, pack: UnitPack | None = None) -> str | None:
    """``unit`` as the degrees of an angle (:data:`ANGLE_UNIT`) when it is ``degrees`` and ``text`` is about angles
    and not temperature, with a pack that has the angle's degree (the corpus pack); else ``unit`` as it is.

    >>> from ssbg.units import corpus_pack
    >>> angle_reading("degrees", "He turned 90 degrees.", pack=corpus_pack())
    'angle degrees'
    >>> angle_reading("degrees", "The oven is at 350 degrees.", pack=corpus_pack())
    'degrees'
    """
    return _angle_reading(unit, text, _pack_texts(default_pack() if pack is None else pack))


def _angle_reading(unit: str | None, text: str, look: _PackTexts) -> str | None:
    """``degrees`` (or ``°``) as the degrees of an angle where the text is about angles and not about temperature,
    and the pack has the angle's degree (``en_measures_v1``): ``turned 90 degrees``, a triangle's angles; any other
    unit as it is.  ``degrees`` alone stays en_units_v1's temperature (ADR 0026)."""
    if unit is None or look.unit_lemma(unit) != "degree" or look.lookup(ANGLE_UNIT) is None:
        return unit
    if _TEMPERATURE_CUE.search(text) or not _ANGLE_CUE.search(text):
        return unit
    return ANGLE_UNIT
