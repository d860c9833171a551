"""Context rates: the rules that read a rate's ``per`` from the context of a number with a unit, each
a function of one :class:`_Context`, tried in the order of :data:`_CONTEXT_RATES`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from ssbg.reading.mentions.bearers import _bearer_before, _relative_bearer
from ssbg.reading.mentions.clauses import _each_before
from ssbg.reading.mentions.lemmas import is_plural_noun, lemmatize
from ssbg.reading.mentions.nouns import _compound_head, _counted, _noun_run
from ssbg.reading.mentions.numbers import _number_at
from ssbg.reading.mentions.pack import _pack_unit, _PackTexts, _period
from ssbg.reading.mentions.periods import _duration_at, _periodic_before, _sentence_periods
from ssbg.reading.mentions.prices import _price_before
from ssbg.reading.mentions.rates import _noun_rate, _rate_after_list, _rate_later
from ssbg.reading.mentions.tokens import Token, _words
from ssbg.reading.mentions.vocabulary import (
    _A,
    _BEARING,
    _CLAUSE_BREAKS,
    _DETERMINERS,
    _HEDGES,
    _NO_UNIT,
    _PERCENT_UNITS,
    _PERIODIC,
    _PERSONS_PRONOUNS,
    _SMALL,
    _STOPS,
    _TENS,
    _TIME,
)


class _Context(NamedTuple):
    """What a context rule reads about a number with a unit: the text's tokens, the unit and the index
    ``k`` after it, the number's first token ``start`` (None: no look-back), its currency and value."""

    toks: Sequence[Token]
    text: str
    look: _PackTexts
    unit: str
    k: int
    start: int | None
    currency: str | None
    value: float | int


def _listed_rate(c: _Context) -> str | None:
    """``7 women and 3 men at each table``: the rate that closes the number's list."""
    return _rate_after_list(c.toks, c.k, c.look)


def _each_rate(c: _Context) -> str | None:
    """``Each box holds 5 crayons``: an ``each Y`` earlier in the clause (:func:`_each_before`)."""
    if c.start is None or c.unit in _PERCENT_UNITS or not _look_back_cues(c.text).each:
        return None  # most texts have no cue word: their tokens are not scanned back
    at = _each_before(c.toks, c.start)
    if at is None:
        return None
    word = c.toks[at].text
    if word.lower() in _PERSONS_PRONOUNS:
        return "person" if _names_persons(c.text) else None
    if _duration_at(c.toks, c.start) and _period(c.look, word) is None and c.look.lookup(c.unit) is not None:
        return None  # "Each loan will be paid over 20 years": a duration, not per loan (but per day, "Each day")
    return lemmatize(word) if is_plural_noun(word) else word


def _periodic_rate(c: _Context) -> str | None:
    """``a daily budget of 88 dollars``: a rate word earlier in the clause (:func:`_periodic_before`)."""
    if c.start is None or c.unit in _PERCENT_UNITS or not _look_back_cues(c.text).periodic:
        return None
    if _duration_at(c.toks, c.start) and (c.look.lookup(c.unit) or _NO_UNIT).dimension == _TIME:
        return None  # "paid in monthly installments over 20 years": a duration
    return _periodic_before(c.toks, c.start)


def _price_rate(c: _Context) -> str | None:
    """``Cappuccinos cost $2``: money that is the price of a thing (:func:`_price_before`)."""
    if c.start is None or c.currency is None:
        return None
    return _price_before(c.toks, c.start, c.look)


def _bearer_rate(c: _Context) -> str | None:
    """``One batch of cookies requires 2 cups``: the thing a bearing verb gives the measure of."""
    if c.start is None or c.unit in _PERCENT_UNITS:
        return None
    return _bearer_before(c.toks, c.start, c.look) or _relative_bearer(c.toks, c.start)


_MEASURING = frozenset(_words("measure measures weigh weighs"))


def _measured_rate(c: _Context) -> str | None:
    """``the trees she wants to plant will measure 1.5 feet wide``: what things (``the`` + a plural noun,
    no number before it) measure or weigh is each one's (a relative clause may come between)."""
    if c.start is None or c.currency is not None:
        return None
    toks = c.toks
    k = c.start - 1
    while k >= 0 and (toks[k].low in _HEDGES or toks[k].low in ("will", "would", "can", "could", "each")):
        k -= 1
    if k < 2 or toks[k].low not in _MEASURING:
        return None
    for j in range(k - 1, max(0, k - 8), -1):
        tok = toks[j]
        if tok.kind == "num" or tok.text in _STOPS or tok.low in _SMALL or tok.low in _TENS:
            return None
        if tok.kind == "word" and is_plural_noun(tok.text) and toks[j - 1].low in _DETERMINERS | {"these"}:
            return lemmatize(tok.text)
    return None


def _later_rate(c: _Context) -> str | None:
    """``he drove 8 hours each day``: a rate word later in the clause (:func:`_rate_later`)."""
    return None if c.unit in _PERCENT_UNITS else _rate_later(c.toks, c.k, c.look)


def _block_rate(c: _Context) -> str | None:
    """``$1 per 30 texts``, ``$.50 for every 6 minutes``: a rate per a block of ``N Y`` is per ``Y`` (the
    ``N`` stays a mention of its own; a ``1`` is the rate's other side: ``1 page every 30 minutes``)."""
    toks, k = c.toks, c.k
    if (c.value == 1 and c.currency is None) or k + 2 >= len(toks):
        return None
    if toks[k].low == "for" and toks[k + 1].low == "every":
        k += 1
    if toks[k].low not in ("per", "every"):
        return None
    number = _number_at(toks, k + 1)
    if number is None or number.kind != "quantity" or number.currency is not None or number.next >= len(toks):
        return None
    packed = _pack_unit(toks, number.next, c.text, c.look, glued=False)
    if packed is not None:
        return packed[0]
    head = _noun_run(toks, number.next, 2, plural_only=True)
    return None if head is None else lemmatize(toks[head[0]].text)


_PURPOSE_VERBS = frozenset(_words("make makes making bake build fill cover sew knit produce feed paint cook prepare"))


def _purpose_rate(c: _Context) -> str | None:
    """``18 inches of nylon to make a dog collar``, ``3 grams of sand to fill one square inch``: a measure
    for making one thing (``a`` Y when the text counts several Y, ``one``/``each`` Y always)."""
    if not _look_back_cues(c.text).purpose:
        return None
    toks, n = c.toks, len(c.toks)
    for j in range(c.k, min(n - 3, c.k + 6)):
        tok = toks[j]
        if tok.kind == "num" or tok.text in _STOPS or tok.low in _CLAUSE_BREAKS:
            return None
        if tok.low != "to" or toks[j + 1].low not in _PURPOSE_VERBS:
            continue
        article = toks[j + 2].low
        if article not in ("a", "an", "one", "each", "every"):
            return None
        rate = _noun_rate(toks, j + 3, c.look)
        if rate is None:
            return None
        if " " not in rate[0]:
            rate = (toks[_compound_head(toks, rate[1] - 1, n)].text, 0)
        if article in _A and lemmatize(rate[0].rpartition(" ")[2]) not in _counted(toks).several:
            return None  # "$20 to make a cake": one cake, unless the text makes several
        return rate[0]
    return None


_BATCHES = frozenset(_words("recipe batch load trip lap round"))


def _batch_rate(c: _Context) -> str | None:
    """``Her recipe makes enough batter for 3 loaves``, ``The recipe calls for 1 banana``: what a recipe or
    a batch (a thing made again and again) yields or needs is per that recipe."""
    if c.start is None or not _look_back_cues(c.text).batch:
        return None
    toks = c.toks
    bearing = False
    for j in range(c.start - 1, max(-1, c.start - 9), -1):
        tok = toks[j]
        if tok.kind == "num" or tok.text in _STOPS or tok.low in _CLAUSE_BREAKS:
            return None
        bearing = bearing or tok.low in _BEARING
        if tok.low in _BATCHES:
            return tok.text if bearing and j + 1 < c.start and toks[j + 1].low in _BEARING else None
    return None


def _sentence_rate(c: _Context) -> str | None:
    """``On each day Jade drove 8 hours``, ``a 1.5-mile walk ..., every day,``: a period adverbial that scopes
    its sentence (:func:`_sentence_periods`) makes its numbers rates, never a time as long as the period
    (``for 30 days``), a thing's measure (``a book of 300 pages``) nor a percentage."""
    if c.start is None or c.unit in _PERCENT_UNITS or not _look_back_cues(c.text).each:
        return None
    if c.start > 0 and c.toks[c.start - 1].low == "of":
        return None  # "Every week she reads a book of 300 pages": the book's measure
    for adverbial in _sentence_periods(c.toks, c.look):
        if adverbial.lo <= c.start < adverbial.hi:
            hit = c.look.lookup(c.unit)
            period = c.look.lookup(adverbial.period)
            if (
                hit is not None
                and period is not None
                and hit.dimension == _TIME
                and (hit.ratio is None or period.ratio is None or hit.ratio >= period.ratio)
            ):
                return None  # "for 5 hours every hour": no time per a period as long
            return adverbial.period
    return None


# The rates a number's context gives its unit, tried in this order; the first answer wins.
_CONTEXT_RATES: tuple[tuple[str, Callable[[_Context], str | None]], ...] = (
    ("list", _listed_rate),
    ("block", _block_rate),
    ("each", _each_rate),
    ("periodic", _periodic_rate),
    ("price", _price_rate),
    ("bearer", _bearer_rate),
    ("measured", _measured_rate),
    ("batch", _batch_rate),
    ("later", _later_rate),
    ("purpose", _purpose_rate),
    ("sentence", _sentence_rate),
)


class _Cues(NamedTuple):
    each: bool  # the text may write "each" or "every"
    periodic: bool  # the text may write "daily", "hourly", ...
    batch: bool  # the text may write "recipe", "batch", ...
    purpose: bool  # the text may write "to make", "to fill", ...


_EACH_CUES = ("each", "every")


@functools.lru_cache(maxsize=16)
def _look_back_cues(text: str) -> _Cues:
    """Which look-back rules may apply in ``text`` (memoized: every number of a text asks).

    A token's lower-cased text is a substring of the lower-cased text, so a cue word missing from the
    latter is in no token: :func:`_each_before` and :func:`_periodic_before` need not scan for it.
    """
    low = text.lower()
    return _Cues(
        any(map(low.__contains__, _EACH_CUES)),
        any(map(low.__contains__, _PERIODIC)),
        any(map(low.__contains__, _BATCHES)),
        "to " in low and any(map(low.__contains__, _PURPOSE_VERBS)),
    )


@functools.lru_cache(maxsize=16)
def _names_persons(text: str) -> bool:
    """Whether ``text`` names persons ("Ali and Leila"): its "they" are persons (read on need: few ask)."""
    return _NAMED_PAIR.search(text) is not None


_NAMED_PAIR = re.compile(r"\b[A-Z][a-z]+,? and [A-Z][a-z]+\b")
