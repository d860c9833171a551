"""Periods: a period written before a number (``every day she runs 5 miles``), the adverbials of a
sentence that make a rate per period, and a duration phrase (``for 3 hours``).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import NamedTuple

from ssbg.reading.mentions.pack import _PackTexts, _period
from ssbg.reading.mentions.tokens import _TOKEN_LOW, Token, _words
from ssbg.reading.mentions.vocabulary import _PERIODIC, _SENTENCE_END, _SMALL, _TENS


def _periodic_before(toks: Sequence[Token], i: int) -> str | None:
    """``a daily budget of 88 dollars`` / ``his hourly rate is 28 dollars``: the period of a rate word
    earlier in the clause, with no number between."""
    k = i - 1
    while k >= 0 and i - k <= 8:
        tok = toks[k]
        if tok.kind == "num" or tok.text in _SENTENCE_END or tok.text == ",":
            return None
        period = _PERIODIC.get(tok.low)
        if period is not None:
            if any(t.kind == "num" for t in toks[max(0, k - 3) : k]):
                return None  # "his 450-mile monthly driving ... his three cars": the earlier number's rate
            return period
        k -= 1
    return None


_DURATION_PREPOSITIONS = frozenset(_words("for over during within lasting after"))


def _duration_at(toks: Sequence[Token], i: int) -> bool:
    """Whether the number at ``i`` is written as a duration: ``for 2 weeks``, ``over 20 years``."""
    return i > 0 and toks[i - 1].low in _DURATION_PREPOSITIONS


class _Adverbial(NamedTuple):
    """A period adverbial that scopes a whole sentence: numbers from ``lo`` to ``hi`` (token indices) are per
    ``period``."""

    lo: int
    hi: int
    period: str


def _sentence_periods(toks: Sequence[Token], look: _PackTexts) -> tuple[_Adverbial, ...]:
    """The sentence-wide period adverbials of a text (memoized by the tokens' identity): ``Every day for 30
    days he picks 4 apples`` (before the sentence's first number: the numbers after it) and ``a 1.5-mile walk
    in the morning and another in the evening, every day,`` (set off by commas: the numbers before it).
    Only the sentences of an ``each``/``every`` + period are read."""
    key = id(toks)
    found = _PERIODS.get(key)
    if found is not None and found[0] is toks:
        return found[1]
    out: list[_Adverbial] = []
    n = len(toks)
    for i in itertools.compress(range(n), map(_EACH_WORDS.__contains__, map(_TOKEN_LOW, toks))):
        if i + 1 >= n or toks[i + 1].kind != "word":
            continue
        period = _period(look, toks[i + 1].text)
        if period is None:
            continue
        start, numbered = i, False
        while start > 0 and toks[start - 1].text not in _SENTENCE_END:
            start -= 1
            numbered = numbered or toks[start].kind == "num" or toks[start].low in _SMALL or toks[start].low in _TENS
        after = toks[i + 2].text if i + 2 < n else "."
        if not numbered:
            end = next((j for j in range(i + 2, n) if toks[j].text in _SENTENCE_END), n)
            out.append(_Adverbial(i + 2, end, period))
        elif toks[i - 1].text == "," and (after == "," or after in _SENTENCE_END):
            out.append(_Adverbial(start, i, period))
    result = tuple(out)
    _PERIODS.clear()
    _PERIODS[key] = (toks, result)
    return result


_EACH_WORDS = frozenset({"each", "every"})
_PERIODS: dict[int, tuple[Sequence[Token], tuple[_Adverbial, ...]]] = {}
