"""Clauses: where a clause opens, the noun an ``each``/``every`` earlier in the clause counts per
(``Each box holds 5 crayons``), and a floating subject (``they each have 3``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ssbg.reading.mentions.lemmas import is_plural_noun
from ssbg.reading.mentions.nouns import _adverb, _compound_head, _verb_at, _verbish
from ssbg.reading.mentions.tokens import Token, _words
from ssbg.reading.mentions.vocabulary import (
    _A,
    _AUXILIARIES,
    _FUNCTION_WORDS,
    _MODIFIERS,
    _PERSONS_PRONOUNS,
    _SENTENCE_END,
    _SMALL,
    _SUBJECT_PRONOUNS,
    _TENS,
)


def _each_before(toks: Sequence[Token], i: int) -> int | None:
    """The index of the ``Y`` of an ``each Y`` / ``every Y`` earlier in the clause, with no number between.

    ``each of ...`` is not read: in "each of the 6 lambs" the number is the group itself.  In a list
    (``6 parrots and 2 parakeets``) an ``each Y`` before the first number is shared; one after it is the
    earlier number's own (``60 blisters on each arm and 80 blisters``).  ``Y`` is the head of a compound
    (``Each bicycle wheel has``); an ``each`` that floats after its noun (``macaroons, each weighing``,
    ``the men each bought``) gives that noun (:func:`_each_noun`).
    """
    k = i - 1
    listed = i > 0 and toks[i - 1].low in ("and", ",")  # "6 parrots and 2 parakeets": one list
    passed = False
    while k >= 0:
        tok = toks[k]
        if tok.text in _SENTENCE_END:
            return None
        if tok.kind == "num" or tok.low in _SMALL or tok.low in _TENS:
            if not listed:
                return None
            listed, passed = False, True
        elif tok.low in _CLAUSE_JOINS and _clause_opens(toks, k):
            return None  # "every Tuesday and Thursday, and he delivers 3 dozen": another clause
        elif tok.low in ("each", "every") and k + 1 < i:
            if listed:
                return None
            at = _each_noun(toks, k, i)
            # "10 pigs, which each need 4 gallons, and 20 ducks": a floating each is its own clause's
            return None if at is not None and at < k and passed else at
        k -= 1
    return None


_NEW_SUBJECTS = frozenset({*_SUBJECT_PRONOUNS, *_AUXILIARIES, "then"})
_CLAUSE_JOINS = frozenset({",", "and", "but", "so"})
_CLAUSE_STARTS = frozenset(_words("and but so then how what if when which"))


def _clause_opens(toks: Sequence[Token], k: int) -> bool:
    """Whether a new clause starts at the conjunction at ``k``: ``, and``, ``and he``, ``and will``,
    ``but then`` (a list of things, ``6 parrots and 2 parakeets``, is one clause)."""
    tok = toks[k]
    if k + 1 >= len(toks):
        return False
    nxt = toks[k + 1]
    if tok.text == ",":
        return nxt.low in _CLAUSE_STARTS
    return tok.low in ("and", "but", "so") and (nxt.low in _NEW_SUBJECTS or _verbish(nxt.low))


def _each_noun(toks: Sequence[Token], k: int, i: int) -> int | None:
    """The noun of the ``each`` at ``k`` (before the number at ``i``): the head of the compound after it
    (``each bicycle wheel`` -> wheel), or the plural noun before a floating ``each`` (``12 macaroons, each
    weighing``, ``two men each bought``); None before a number word (``for every five feet``)."""
    j = k + 1
    while j < i - 1 and toks[j].low in _MODIFIERS:
        j += 1  # "each additional minute"
    while j < i - 1 and _adverb(toks[j].low):
        j += 1  # "two rackets that were each originally marked"
    nxt = toks[j]
    if nxt.kind != "word" or nxt.low in _SMALL or nxt.low in _TENS:
        return None
    if _verb_at(toks, j) or (k > 0 and toks[k - 1].text == ",") or _floats(toks, k, j):
        return _floating_subject(toks, k)
    if nxt.low in _FUNCTION_WORDS:
        return None
    return _compound_head(toks, j, i - 1)


_FLOATING_SKIPS = frozenset({",", "that", "which", "who", "with", *_words("are were is was have had will would can")})


def _floats(toks: Sequence[Token], k: int, j: int) -> bool:
    """Whether the ``each`` at ``k`` floats after its noun: a relative, a pronoun or a plural noun before
    it, and a number or an article after the word at ``j`` (``10 pigs, which each need 4 gallons``)."""
    if k == 0 or j + 1 >= len(toks):
        return False
    before, after = toks[k - 1], toks[j + 1]
    if toks[j].low in _FUNCTION_WORDS:
        return False  # "4 stickers each to 3 friends"
    if not (after.kind == "num" or after.low in _SMALL or after.low in _TENS or after.low in _A):
        return False
    return before.low in ("which", "that", "who", "they", "we") or is_plural_noun(before.text)


def _floating_subject(toks: Sequence[Token], k: int) -> int | None:
    """The plural noun an ``each`` at ``k`` floats after (commas, relatives and auxiliaries between):
    ``12 macaroons, each weighing``, ``the men each bought``, ``6 bags of beans that each weighed`` (the
    container of ``X of Y``)."""
    j = k - 1
    while j >= 0 and k - j <= 3 and toks[j].low in _FLOATING_SKIPS:
        j -= 1
    if j < 0 or toks[j].kind != "word":
        return None
    if toks[j].low in _PERSONS_PRONOUNS:
        return j  # "they were each given a discount of $14": persons, when the text names persons
    for back in (2, 3):  # "4 bags of flour each weighing", "bags of coffee beans that each weighed": the bags
        if j >= back and toks[j - back + 1].low == "of" and is_plural_noun(toks[j - back].text):
            return j - back
    return j if is_plural_noun(toks[j].text) else None
