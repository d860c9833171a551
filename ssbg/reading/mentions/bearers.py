"""Bearers: the thing a measure belongs to when a verb of bearing links them (``a bag weighs 5 kg``,
``boxes that hold 12 eggs``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ssbg.reading.mentions.lemmas import is_plural_noun, lemmatize
from ssbg.reading.mentions.nouns import _compound_head, _counted_nouns, _noun_at
from ssbg.reading.mentions.numbers import _is_part
from ssbg.reading.mentions.pack import _PackTexts, _period
from ssbg.reading.mentions.tokens import Token, _words
from ssbg.reading.mentions.vocabulary import _BEARING, _CLAUSE_BREAKS, _HEDGES, _NOT_UNITS, _STOPS


def _bearer_before(toks: Sequence[Token], i: int, look: _PackTexts) -> str | None:
    """``One batch of cookies requires 2 cups``, ``each bag weighs 5 kg``, ``a pack has 12 pens``: the
    ``Y`` of a measure of one thing, ``a``/``an``/``one``/``each``/``every`` + noun before a bearing verb
    right before the number (auxiliaries and hedges between), no number between; and a thing the text
    counts (``3 batches``, ``how many bags``), for "a pool holds 3,600 gallons" is the pool's whole."""
    k = i - 1
    while k >= 0 and (toks[k].low in _HEDGES or toks[k].low in ("can", "could", "will", "would", "should", "does")):
        k -= 1
    if k < 1 or toks[k].low not in _BEARING:
        return None
    for j in range(k - 1, max(-1, k - 7), -1):
        tok = toks[j]
        if tok.kind == "num" or tok.text in _STOPS or tok.low in _CLAUSE_BREAKS:
            return None
        if tok.low in ("a", "an", "one", "each", "every") and j + 1 < k:
            if j >= 2 and toks[j - 1].low == "of" and _is_part(toks[j - 2]):
                return None  # "One-half of a pound of mangoes costs $0.60": the measure of the part
            head = _noun_at(toks, j + 1)
            if head is None or head >= k or toks[head].low in _NOT_UNITS:
                return None
            head = _compound_head(toks, head, k)  # "One ham sandwich requires": the sandwich
            period = _period(look, toks[head].text)
            if period is not None:
                return period
            if tok.low not in ("each", "every") and lemmatize(toks[head].text) not in _counted_nouns(toks):
                return None
            return toks[head].text
    return None


_RELATIVES = frozenset(_words("that which who containing holding weighing with"))


def _relative_bearer(toks: Sequence[Token], i: int) -> str | None:
    """``6 cans of soda that have 12 ounces``, ``4 bags of nails, each of which weighs 5kg``, ``30 boxes
    containing 40 packs``: the ``Y`` a relative clause right before the number gives its measure to."""
    k = i - 1
    while k >= 0 and (toks[k].low in _HEDGES or toks[k].low in _BEARING or toks[k].low in ("each", "can", "will")):
        k -= 1
    if k >= 2 and toks[k].low == "which" and toks[k - 1].low == "of" and toks[k - 2].low == "each":
        k -= 2  # ", each of which weighs"
        while k >= 1 and toks[k - 1].text == ",":
            k -= 1
    elif k < 1 or toks[k].low not in _RELATIVES or (k == i - 1 and toks[k].low in ("that", "which", "who")):
        return None
    j = k - 1
    if j >= 0 and toks[j].text == ",":
        j -= 1
    if j >= 2 and toks[j - 1].low == "of" and toks[j].kind == "word":
        j -= 2  # "6 cans of soda that ...": the container, not its content
    if j >= 1 and toks[j].kind == "word" and is_plural_noun(toks[j].text) and toks[j - 1].kind == "num":
        return lemmatize(toks[j].text)
    return None
