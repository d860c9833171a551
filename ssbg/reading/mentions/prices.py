"""Prices: the thing a sum of money is the price of (``tickets cost $5``, ``$3 for a pie``, a fare)."""

from __future__ import annotations

from collections.abc import Sequence

from ssbg.reading.mentions.lemmas import is_plural_noun, lemmatize
from ssbg.reading.mentions.nouns import _compound_head, _counted, _noun_at, _noun_run
from ssbg.reading.mentions.numbers import _is_part
from ssbg.reading.mentions.pack import _PackTexts
from ssbg.reading.mentions.tokens import Token, _words
from ssbg.reading.mentions.vocabulary import (
    _A,
    _DETERMINERS,
    _FUNCTION_WORDS,
    _RATE_PREPOSITIONS,
    _SENTENCE_END,
    _SMALL,
    _SUBJECT_PRONOUNS,
    _TENS,
)

_PRICE_VERBS = frozenset(_words("cost costs is was are were for at sells sell priced"))


def _price_before(toks: Sequence[Token], i: int, look: _PackTexts) -> str | None:
    """The ``Y`` of a price: ``Cappuccinos cost $2``, ``a pair of shoes which costs $50``,
    ``the cost of a kilogram is $2``, ``The regular ticket costs $9``: ``a Y`` before the verb
    (:func:`_one_priced`), else a fare (:func:`_fare_before`), else a plural subject
    (:func:`_things_priced`); no number between, and never what a purchase cost (``buys ... vegetables
    for €11``)."""
    k = i - 1
    if k < 0 or toks[k].low not in _PRICE_VERBS:
        return None
    for j in range(k - 1, max(-1, k - 7), -1):
        tok = toks[j]
        if tok.kind == "num" or tok.text in _SENTENCE_END or tok.low in _SMALL:
            break
        if tok.low in _A and j + 1 < k and toks[j + 1].kind == "word" and toks[j + 1].low not in _FUNCTION_WORDS:
            return _one_priced(toks, j, k, look)
    subject = _priced_noun(toks, k)
    if subject is not None and toks[k].low == "for" and _bought_before(toks, subject):
        return None  # "He buys a roast for €17 and vegetables for €11": what a purchase cost
    return _fare_before(toks, k) or (None if subject is None else _things_priced(toks, subject))


def _one_priced(toks: Sequence[Token], j: int, k: int, look: _PackTexts) -> str | None:
    """The ``Y`` of ``a Y`` (at ``j``) before the price verb at ``k``, when a price of one ``Y`` is a rate:
    ``Y`` a pack unit (``a pair of shoes costs $50``), after ``cost of``/``price of`` (``the price of a
    ticket is $5``), or a thing the text counts several of (``a ticket costs $5`` ... ``4 tickets``); never
    the price of a part (``One-half of a pound of mangoes costs $0.60``) nor of one purchase (``a trumpet
    for $149``)."""
    if j >= 2 and toks[j - 1].low == "of" and _is_part(toks[j - 2]):
        return None
    head = _noun_at(toks, j + 1)
    if head is None or head >= k:
        return None
    unit_noun = look.lookup(toks[head].text) is not None
    if not unit_noun:
        head = _compound_head(toks, head, k)  # "a single layer cake slice is $4": the slice
    priced = j >= 2 and toks[j - 1].low == "of" and toks[j - 2].low in ("cost", "price")
    several = lemmatize(toks[head].text) in _counted(toks).several
    return toks[head].text if unit_noun or priced or several else None


def _things_priced(toks: Sequence[Token], subject: int) -> str | None:
    """The plural noun at ``subject`` a price is each one's (``iced teas cost $3``), unless the words say
    one lot: a count before it, the lot of ``X of`` (``the first pair of shoes for $40``), or a lot named
    earlier (``a pair of soccer shoes ... the shoes cost $92``)."""
    if not is_plural_noun(toks[subject].text):
        return None
    before = toks[subject - 1] if subject > 0 else None
    if before is not None and (before.kind == "num" or before.low in _SMALL or before.low in _TENS):
        return None
    if before is not None and before.low == "of" and subject >= 2 and toks[subject - 2].kind == "word":
        return None
    if before is not None and before.low in _DETERMINERS and lemmatize(toks[subject].text) in _lots(toks):
        return None
    return lemmatize(toks[subject].text)


_BUYING = frozenset(
    _words("buy buys bought buying purchase purchases purchased purchasing pay pays paid spend spends spent")
)


# Things whose price is always one person's or one use's: "The regular ticket costs $9".
_FARES = frozenset(_words("ticket admission fare toll entry entrance pass"))


def _fare_before(toks: Sequence[Token], k: int) -> str | None:
    """A ticket's price is per ticket: ``The regular ticket costs $9``, ``the ticket for children is $2
    less`` (the noun before the price verb, or before its preposition phrase)."""
    for j in range(k - 1, max(-1, k - 5), -1):
        tok = toks[j]
        if tok.kind != "word" or tok.text in _SENTENCE_END:
            return None
        if tok.low in _FARES:
            return tok.text
        if tok.low not in _RATE_PREPOSITIONS and tok.low not in _DETERMINERS and j != k - 1:
            return None
    return None


def _bought_before(toks: Sequence[Token], subject: int) -> bool:
    """Whether a verb of buying comes earlier in the sentence of the noun at ``subject`` (at most 12 words)."""
    for j in range(subject - 1, max(-1, subject - 13), -1):
        if toks[j].text in _SENTENCE_END:
            return False
        if toks[j].low in _BUYING:
            return True
    return False


def _priced_noun(toks: Sequence[Token], k: int) -> int | None:
    """The noun a price verb at ``k`` prices: the word before it (``iced teas cost``, ``pens which cost``),
    or past a prepositional phrase to the thing sold (``sells the wands to her friends for $5``)."""
    subject = k - 1
    if subject >= 0 and toks[subject].low in ("which", "that"):
        subject -= 1
    if subject >= 1 and toks[subject - 1].low in _SUBJECT_PRONOUNS:
        return None  # "the bicycle she wants costs $80": a verb, not the thing priced
    if toks[k].low != "for":
        return subject if subject >= 0 and toks[subject].kind == "word" else None  # "price for adults is $26"
    for _hop in range(2):
        if subject < 0 or toks[subject].kind != "word":
            return None
        j = subject - 1
        while j >= 0 and toks[j].low in _DETERMINERS:
            j -= 1
        if j < 0 or toks[j].low not in _RATE_PREPOSITIONS:
            return subject
        subject = j - 1  # "to her friends": the noun before the preposition
    return subject if subject >= 0 and toks[subject].kind == "word" else None


def _lots(toks: Sequence[Token]) -> frozenset[str]:
    """The lemmas of the nouns a text introduces as the content of one lot: ``a pair of soccer shoes``,
    ``one box of pencils`` (memoized by the tokens' identity: one pass)."""
    key = id(toks)
    found = _LOTS.get(key)
    if found is not None and found[0] is toks:
        return found[1]
    nouns: set[str] = set()
    n = len(toks)
    for i in range(2, n - 1):
        if toks[i].low != "of" or toks[i - 2].low not in ("a", "an", "one") or toks[i - 1].kind != "word":
            continue
        head = _noun_run(toks, i + 1, 2, plural_only=True)
        if head is not None:
            nouns.add(lemmatize(toks[head[0]].text))
    result = frozenset(nouns)
    _LOTS.clear()
    _LOTS[key] = (toks, result)
    return result


_LOTS: dict[int, tuple[Sequence[Token], frozenset[str]]] = {}
