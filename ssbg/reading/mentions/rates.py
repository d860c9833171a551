"""Rates written after a unit: ``N X per Y``, ``$N an hour``, ``N X each``, ``N X in each Y``,
``N X a day``, ``N X to a Y``, and the table of the words that start one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType

from ssbg.reading.mentions.lemmas import lemmatize
from ssbg.reading.mentions.nouns import _compound_head, _counted, _noun_at
from ssbg.reading.mentions.pack import _PackTexts, _period
from ssbg.reading.mentions.tokens import Token
from ssbg.reading.mentions.vocabulary import (
    _A,
    _CLAUSE_BREAKS,
    _FUNCTION_WORDS,
    _ONE_THING_PREPOSITIONS,
    _PERIODIC,
    _RATE_PREPOSITIONS,
    _STOPS,
)

_Rate = tuple[str, int] | None  # the Y of a rate as written, and the index after it


def _rate_suffix(toks: Sequence[Token], k: int, look: _PackTexts) -> _Rate:
    """The ``Y`` of a rate written after a unit, and the index after it.

    ``/Y``, ``per Y``, ``an hour`` (a pack unit), ``each``, ``each Y``, ``in each Y``,
    ``to install each Y``, ``N cups of vegetables per day``: the word at ``k`` picks the
    reading (:data:`_RATE_WORDS`), whose answer is final.
    """
    n = len(toks)
    if k + 1 < n and toks[k].text == "/" and toks[k + 1].kind == "word" and toks[k].end == toks[k + 1].start:
        return toks[k + 1].text, k + 2  # "80 miles/hour", "$2/cappuccino"
    if k >= n or toks[k].kind != "word":
        return None
    reading = _RATE_WORDS.get(toks[k].low)
    return None if reading is None else reading(toks, k, look)


def _noun_rate(toks: Sequence[Token], j: int, look: _PackTexts | None = None) -> _Rate:
    """The rate whose ``Y`` is the content word at ``j`` (after modifiers), or with the pack a unit of
    two or three words there (``per square foot``)."""
    if look is not None:
        for width in (3, 2):
            words = toks[j : j + width]
            if (
                len(words) == width
                and all(t.kind == "word" and t.low != "per" for t in words)  # no rate of a rate
                and look.may_be_unit(words[0].low)
            ):
                written = " ".join(t.text for t in words)
                if look.lookup(written) is not None:
                    return written, j + width
    head = _noun_at(toks, j)
    return None if head is None else (toks[head].text, head + 1)


def _rate_of(toks: Sequence[Token], k: int, look: _PackTexts) -> _Rate:
    """``2 cups of vegetables per day``, ``3 bags of apples each``: a rate after the noun ``of`` names."""
    n = len(toks)
    if k + 1 >= n or toks[k + 1].kind != "word" or toks[k + 1].low in _FUNCTION_WORDS:
        return None
    for j in (k + 2, k + 3):
        if j < n and toks[j].kind == "word" and (toks[j].low in _OF_RATE_WORDS):
            return _rate_suffix(toks, j, look)
        if j >= n or toks[j].kind != "word" or toks[j].low in _FUNCTION_WORDS:
            break
    return None


_OF_RATE_WORDS = frozenset({"per", "each", "every", "a", "an", "in", "on", "for"})  # "5 rows of cookies on a tray"


def _rate_per(toks: Sequence[Token], k: int, look: _PackTexts) -> _Rate:
    """``per hour``, ``per a day``, ``per each box``."""
    if k + 1 >= len(toks):
        return None
    return _noun_rate(toks, k + 2 if toks[k + 1].low in _A or toks[k + 1].low == "each" else k + 1, look)


def _rate_a(toks: Sequence[Token], k: int, look: _PackTexts) -> _Rate:
    """``$12 an hour``, ``$5 a pound`` (a pack unit not followed by ``of``), ``a piece``, ``a person``."""
    n = len(toks)
    nxt = toks[k + 1] if k + 1 < n else None
    if nxt is None or nxt.kind != "word":
        return None
    after = toks[k + 2].low if k + 2 < n else ""
    if look.lookup(nxt.text) is not None and after != "of" and nxt.low not in _FUNCTION_WORDS:
        return nxt.text, k + 2
    if nxt.low in ("piece", "person", "head"):
        return ("item" if nxt.low == "piece" else nxt.text), k + 2
    return None


def _rate_each(toks: Sequence[Token], k: int, look: _PackTexts) -> _Rate:
    """``$2 each.`` (``apiece``): a price of one item; ``each Y`` / ``every Y``: a rate per ``Y``."""
    n = len(toks)
    low = toks[k].low
    nxt = toks[k + 1] if k + 1 < n else None
    alone = nxt is None or nxt.kind != "word" or (nxt.low in _FUNCTION_WORDS and nxt.low != "time")
    if low != "every" and alone:
        return "item", k + 1
    if low != "apiece" and nxt is not None:
        return _noun_rate(toks, k + 1)
    return None


def _rate_in_each(toks: Sequence[Token], k: int, look: _PackTexts) -> _Rate:
    """``in each Y``, ``for every Y``, ``at per Y``: a preposition before the rate word; ``in one Y``; and
    ``for a Y`` / ``on a Y`` when the text counts several Y (``$120 for a filling`` with "two fillings")."""
    n = len(toks)
    if k + 1 >= n:
        return None
    nxt = toks[k + 1].low
    if nxt in ("each", "every", "per") or (nxt == "one" and toks[k].low in _ONE_THING_PREPOSITIONS):
        return _noun_rate(toks, k + 2, look)
    if nxt in _A and toks[k].low in _ONE_THING_PREPOSITIONS:
        rate = _noun_rate(toks, k + 2, look)
        if rate is not None and " " not in rate[0]:
            head = _compound_head(toks, rate[1] - 1, n)
            rate = toks[head].text, head + 1
        if rate is not None and lemmatize(rate[0].rpartition(" ")[2]) in _counted(toks).several:
            return rate
    return None


def _rate_to(toks: Sequence[Token], k: int, look: _PackTexts) -> _Rate:
    """``to each Y`` (a preposition), or ``4 hours to install each window``: a verb between."""
    n = len(toks)
    if k + 1 < n and toks[k + 1].low in ("each", "every", "per"):
        return _noun_rate(toks, k + 2)
    if k + 2 < n and toks[k + 1].kind == "word" and toks[k + 2].low in ("each", "every"):
        return _noun_rate(toks, k + 3)
    return None


def _rate_periodic(toks: Sequence[Token], k: int, look: _PackTexts) -> _Rate:
    """``5 miles daily``, ``a 450-mile monthly drive``: a periodic word right after the unit."""
    return _PERIODIC[toks[k].low], k + 1


# The word after a unit -> how a rate reads from it.
_RATE_WORDS: Mapping[str, Callable[[Sequence[Token], int, _PackTexts], _Rate]] = MappingProxyType(
    {
        "of": _rate_of,
        "per": _rate_per,
        **dict.fromkeys(_A, _rate_a),
        **dict.fromkeys(("each", "apiece", "every"), _rate_each),
        **dict.fromkeys(_RATE_PREPOSITIONS - {"to"}, _rate_in_each),
        "to": _rate_to,
        **dict.fromkeys(_PERIODIC, _rate_periodic),
    }
)


def _rate_after_list(toks: Sequence[Token], k: int, look: _PackTexts) -> str | None:
    """The rate that closes a list: the ``at each table`` of ``7 women and 3 men at each table``."""
    n = len(toks)
    if k + 1 >= n or toks[k].low not in ("and", ",") or toks[k + 1].kind != "num":
        return None
    for j in range(k + 2, min(n, k + 6)):
        if toks[j].kind != "word":
            return None
        rate = _rate_suffix(toks, j, look)
        if rate is not None:
            return rate[0]
    return None


def _items_rate(
    toks: Sequence[Token], j: int, look: _PackTexts, container: str | None, kind_hint: str
) -> tuple[str | None, int, str]:
    """A number without a unit: ``groups of 2`` and ``5 in each cage`` count items per ``Y``."""
    if kind_hint == "fraction":
        return None, j, "quantity"
    if container is not None:
        return f"items per {container}", j, "quantity"
    rate = _rate_suffix(toks, j, look)
    if rate is not None and toks[j].low not in _A:
        return f"items per {rate[0]}", rate[1], "quantity"
    return None, j, "quantity"


def _rate_later(toks: Sequence[Token], k: int, look: _PackTexts) -> str | None:
    """``6 packs of tuna fish are sold per hour``, ``he drove 8 hours each day``, ``reads 20 pages of it
    every morning``: a rate word later in the clause (``per Y``, ``each Y``, ``every Y``, ``a`` + a period),
    with no number, comma or conjunction between (``each of`` is a group, not a rate)."""
    n = len(toks)
    for j in range(k, min(n, k + 9)):
        tok = toks[j]
        if tok.kind == "num" or tok.text in _STOPS or tok.low in _CLAUSE_BREAKS:
            return None
        if tok.low in ("per", "each", "every") and j + 1 < n and toks[j + 1].low != "of":
            if tok.low == "each" and j > 0 and toks[j - 1].low in ("which", "that", "who", "they", "we"):
                return None  # "3 gardens that each measure 16 feet": the each floats after the gardens
            head = _noun_at(toks, j + 1)
            if head is None:
                return None
            return _period(look, toks[head].text) or toks[head].text
        if tok.low in _A and j + 1 < n and toks[j + 1].kind == "word" and (j + 2 >= n or toks[j + 2].low != "of"):
            period = _period(look, toks[j + 1].text)
            if period is not None:
                return period
    return None
