"""Numbers: digits, number words, fractions and scales read at a token, and where a number may start."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from ssbg.numbers import parse_number
from ssbg.reading.mentions.lemmas import is_plural_noun
from ssbg.reading.mentions.nouns import _noun_run
from ssbg.reading.mentions.tokens import _TOKEN_LOW, Token, _words
from ssbg.reading.mentions.vocabulary import (
    _A,
    _CURRENCY_SYMBOLS,
    _DETERMINERS,
    _MODIFIERS,
    _SENTENCE_END,
    _SMALL,
    _TENS,
)

_SCALES: dict[str, int] = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}
_DENOMINATORS: dict[str, int] = {
    "half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fourth": 4, "fourths": 4,
    "fifth": 5, "fifths": 5, "sixth": 6, "sixths": 6, "seventh": 7, "sevenths": 7, "eighth": 8, "eighths": 8,
    "ninth": 9, "ninths": 9, "tenth": 10, "tenths": 10,
}  # fmt: skip




class _Number(NamedTuple):
    """A number read at a token (a NamedTuple: built for every candidate, cheaper than a frozen dataclass)."""

    value: float | int
    start: int  # char offset of the first token (currency symbol included)
    next: int  # index of the token after the number
    kind: str  # quantity / fraction
    currency: str | None = None


@functools.lru_cache(maxsize=65536)
def _num_value(text: str) -> float | int:
    """The value of a number token (``1,000`` is 1000, ``2.0`` stays a float; memoized); a
    :class:`~ssbg.errors.NumberError` for one out of range (:mod:`ssbg.numbers`)."""
    value = parse_number(text)
    return int(value) if "." not in text and value.is_integer() else value


def _word_number(toks: Sequence[Token], i: int) -> tuple[int, int] | None:
    """A cardinal written in words starting at token ``i``: (value, next index)."""
    total = 0
    current = 0
    j = i
    seen = False
    if toks[j].low in _A and j + 1 < len(toks) and toks[j + 1].low in _SCALES:  # "a hundred"
        current = 1
        j += 1
    while j < len(toks):
        tok = toks[j]
        if tok.kind != "word":
            break
        parts = tok.low.split("-")
        if len(parts) == 2 and parts[0] in _TENS and parts[1] in _SMALL and 0 < _SMALL[parts[1]] < 10:
            current += _TENS[parts[0]] + _SMALL[parts[1]]
        elif len(parts) == 1 and tok.low in _SMALL:
            current += _SMALL[tok.low]
        elif len(parts) == 1 and tok.low in _TENS:
            current += _TENS[tok.low]
        elif tok.low in _SCALES and (seen or current):
            scale = _SCALES[tok.low]
            if scale == 100:
                current = (current or 1) * 100
            else:
                total += (current or 1) * scale
                current = 0
        elif (
            tok.low == "and"
            and seen
            and j + 1 < len(toks)
            and (toks[j + 1].low in _SMALL or toks[j + 1].low.split("-")[0] in _TENS)
            and toks[j - 1].low in _SCALES
        ):
            pass
        else:
            break
        seen = True
        j += 1
    if not seen:
        return None
    return total + current, j


def _fraction_word(toks: Sequence[Token], i: int) -> tuple[float, int] | None:
    """``half``, ``a third``, ``two-thirds``, ``three fourths``: (value, next index)."""
    tok = toks[i]
    if tok.kind != "word":
        return None
    parts = tok.low.split("-")
    if len(parts) == 2 and parts[1] in _DENOMINATORS and (parts[0] in _SMALL or parts[0] in _A):
        numerator = 1 if parts[0] in _A else _SMALL[parts[0]]
        return numerator / _DENOMINATORS[parts[1]], i + 1
    if tok.low in ("half",):
        return 0.5, i + 1
    if (tok.low in _SMALL or tok.low in _A) and i + 1 < len(toks) and toks[i + 1].low in _DENOMINATORS:
        if _coins(toks, i + 1):
            return None  # "two quarters and a dime": coins, counted
        numerator = 1 if tok.low in _A else _SMALL[tok.low]
        if numerator == 0:
            return None
        return numerator / _DENOMINATORS[toks[i + 1].low], i + 2
    return None


# What may follow a coin's name ("two quarters and a dime", "found a quarter."), never a fraction's ("a
# quarter of the pie", "a quarter cup", "three quarters full").
_AFTER_COINS = frozenset({*_SENTENCE_END, ",", *_words("and or in into to from each for on")})


def _coins(toks: Sequence[Token], j: int) -> bool:
    """Whether the ``quarter``/``quarters`` at ``j`` names coins: the words after it are those after a
    coin's name (:data:`_AFTER_COINS`), or the text's end.

    >>> from ssbg.reading.mentions.tokens import tokenize
    >>> _coins(tokenize("two quarters and a dime"), 1), _coins(tokenize("a quarter of it"), 1)
    (True, False)
    """
    if toks[j].low not in ("quarter", "quarters"):
        return False
    return j + 1 >= len(toks) or toks[j + 1].low in _AFTER_COINS


def _adjacent(a: Token, b: Token) -> bool:
    return a.end == b.start


def _number_at(toks: Sequence[Token], i: int) -> _Number | None:
    """Read a number (with currency symbol, fraction, scale word) starting at token ``i``."""
    tok = toks[i]
    if tok.text in _CURRENCY_SYMBOLS and i + 1 < len(toks) and toks[i + 1].kind == "num":
        return _digits_at(toks, i + 1, tok.start, tok.text)
    if tok.kind == "num":
        return _digits_at(toks, i, tok.start, None)
    if tok.kind != "word":
        return None
    return _words_at(toks, i)


def _digits_at(toks: Sequence[Token], j: int, start: int, currency: str | None) -> _Number | None:
    """A number written in digits at token ``j`` (``start``: where its mention starts, at a currency
    symbol if it has one): a mixed number or a fraction, else a number with its scale word."""
    if currency is None:
        written = _mixed_number(toks, j, start)
        if written is None:
            written = _digit_fraction(toks, j, start)
        if written is not None:
            return written
    return _scaled_number(toks, j, start, currency)


def _mixed_number(toks: Sequence[Token], j: int, start: int) -> _Number | None:
    """``1 1/2``: a whole number and a fraction of whole numbers written beside it."""
    if j + 1 >= len(toks) or toks[j + 1].kind != "num" or "." in toks[j + 1].text:
        return None
    fraction = _digit_fraction(toks, j + 1, start)
    if fraction is None or "." in toks[j + 3].text:
        return None
    return _Number(_num_value(toks[j].text) + fraction.value, start, fraction.next, "fraction", None)


def _digit_fraction(toks: Sequence[Token], j: int, start: int) -> _Number | None:
    """``3/4``: a fraction written in digits, no space around the slash."""
    n = len(toks)
    if not (
        j + 2 < n
        and toks[j + 1].text == "/"
        and toks[j + 2].kind == "num"
        and _adjacent(toks[j], toks[j + 1])
        and _adjacent(toks[j + 1], toks[j + 2])
        and _num_value(toks[j + 2].text) != 0
    ):
        return None
    return _Number(_num_value(toks[j].text) / _num_value(toks[j + 2].text), start, j + 3, "fraction")


def _scaled_number(toks: Sequence[Token], j: int, start: int, currency: str | None) -> _Number:
    """A number in digits with its scale word (``1.5 million``; ``hundred`` not before ``and``), or a
    decimal below 1 before ``of``/``off`` read as a part (``0.75 of a line``)."""
    n = len(toks)
    value: float | int = _num_value(toks[j].text)
    j += 1
    scale = toks[j].low if j < n else ""
    if (scale in _SCALES and scale != "hundred") or (scale == "hundred" and j + 1 < n and toks[j + 1].low != "and"):
        value = value * _SCALES[scale]
        value = int(value) if float(value).is_integer() else value
        j += 1
    elif currency is None and 0 < value < 1 and scale in ("of", "off"):
        return _Number(value, start, j, "fraction")  # "0.75 of a line", "0.25 off": a part, as 3/4 of it is
    return _Number(value, start, j, "quantity", currency)


def _words_at(toks: Sequence[Token], j: int) -> _Number | None:
    """A number written in words at token ``j``: a fraction word (``two-thirds``, ``half``), a number
    word (``twenty-five``, ``a hundred``), or ``a dozen`` / ``a pair`` / ``a couple of``."""
    n = len(toks)
    start = toks[j].start
    fraction = _fraction_word(toks, j)
    if fraction is not None:
        return _Number(fraction[0], start, fraction[1], "fraction")
    words = _word_number(toks, j)
    if words is not None:
        value, k = words
        if k < n and toks[k].low in _DENOMINATORS and toks[k - 1].low in _SMALL and value < 20 and not _coins(toks, k):
            return None  # "three fourths" is read by _fraction_word; never reached
        return _Number(value, start, k, "quantity")
    if toks[j].low == "both":
        at = _both_counts(toks, j)
        return None if at is None else _Number(2, start, at, "quantity")
    if toks[j].low in _A and j + 1 < n and (toks[j + 1].low in ("dozen", "pair", "couple") or _coins(toks, j + 1)):
        if toks[j + 1].low == "couple":
            return _Number(2, start, j + 2, "quantity") if j + 2 < n and toks[j + 2].low == "of" else None
        return _Number(1, start, j + 1, "quantity")
    return None


def _both_counts(toks: Sequence[Token], j: int) -> int | None:
    """Where the noun of a ``both`` at ``j`` that counts two things starts: ``both teams``, ``both his
    parents``, ``both of the boxes``, ``both of them``; None for ``both apples and pears`` (a
    coordination: two kinds, not two things) or a ``both`` with no noun after it."""
    n = len(toks)
    k = j + 1
    if k < n and toks[k].low == "of":
        return k  # "both of them", "both of the boxes": the unit reads the partitive
    if k < n and toks[k].low in _DETERMINERS and toks[k].low != "them":
        k += 1
    head = _noun_run(toks, k, 2, plural_only=True)
    if head is None or (head[1] < n and toks[head[1]].low in ("and", "or")):
        return None
    if not all(tok.low in _MODIFIERS or is_plural_noun(tok.text) for tok in toks[k : head[0]]):
        return None  # "both owe equal amounts": a verb, not the noun, follows
    return k


def _is_part(tok: Token) -> bool:
    """A fraction word or number: ``half``, ``One-half``, ``third``, ``0.5``."""
    return tok.low.rpartition("-")[2] in _DENOMINATORS or (tok.kind == "num" and _num_value(tok.text) < 1)


_NUMBER_WORDS = frozenset({*_SMALL, *_TENS, *_DENOMINATORS, "both"})
_AFTER_A = frozenset({*_SCALES, *_DENOMINATORS, "dozen", "pair", "couple"})
_NUMBER_OR_A = _NUMBER_WORDS | _A


def _negative(toks: Sequence[Token], i: int) -> bool:
    """A ``-`` glued before the number at ``i`` that is a sign, not a hyphen or a minus between numbers."""
    if i == 0 or toks[i].kind != "num" or toks[i - 1].text != "-" or toks[i - 1].end != toks[i].start:
        return False
    if i == 1:
        return True
    before = toks[i - 2]
    return (before.end < toks[i - 1].start and before.kind != "num") or before.text in ("(", ",", "=")


def _may_start_number(low: str) -> bool:
    """Whether a token, lower-cased, may start a number: digits (``12``, ``.5``), a currency symbol, a
    number word (``twenty``, ``twenty-five``, ``two-thirds``) or ``a`` / ``an`` (a number only before a
    scale word or a denominator: :func:`_candidates` reads the next token)."""
    first = low[:1]
    if first.isdecimal() or (first == "." and len(low) > 1):  # a number token; a lone "." is a symbol
        return True
    return low in _CURRENCY_SYMBOLS or low.partition("-")[0] in _NUMBER_OR_A or low == "both"


class _TextMemo(dict[str, bool]):
    """A memo of a predicate on texts.  A plain ``dict`` underneath, so that ``map`` reads it from C
    with no Python call on a hit (cheaper than an ``lru_cache``); emptied past ``maxsize`` entries."""

    def __init__(self, predicate: Callable[[str], bool], maxsize: int = 65536) -> None:
        super().__init__()
        self.predicate = predicate
        self.maxsize = maxsize

    def __missing__(self, text: str) -> bool:
        if len(self) >= self.maxsize:
            self.clear()
        value = self[text] = self.predicate(text)
        return value


_STARTS_NUMBER = _TextMemo(_may_start_number)


def _candidates(toks: Sequence[Token]) -> list[int]:
    """Indices of the tokens a number may start at (digits, currency, number words, ``a`` + scale).

    Each distinct token text is classified once (memoized); the scan over the tokens stays in C.
    """
    last = len(toks) - 1
    return [
        i
        for i in itertools.compress(range(len(toks)), map(_STARTS_NUMBER.__getitem__, map(_TOKEN_LOW, toks)))
        if toks[i].low not in _A or (i < last and toks[i + 1].low.partition("-")[0] in _AFTER_A)
    ]


_LETTERS = re.compile(r"[a-z]+")


def _may_have_number_words(text: str) -> bool:
    """False only when no token of ``text`` can start a number in words (a cheap filter: one regex and
    set intersections instead of tokens)."""
    low = text.lower()
    words = set(_LETTERS.findall(low))
    if not words.isdisjoint(_NUMBER_WORDS):
        return True
    return not words.isdisjoint(_A) and (not words.isdisjoint(_AFTER_A) or "a-" in low or "an-" in low)
