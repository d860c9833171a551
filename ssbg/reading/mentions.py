"""Rule-based, explainable extraction of quantity mentions from English problem text (edge).

A mention is a number in the text with the unit written around it.  The rules,
tried in this order at every number:

- numbers as digits (``1,000``, ``2.5``, ``.5``), as words (``twenty-five``,
  ``a hundred``), as fractions (``3/4``, ``1 1/2``, ``two-thirds``, ``half``),
  with a scale word (``1.5 million``);
- a currency symbol before the number (``$12``, ``£5``) or a currency word after it;
- a percentage (``20%``, ``20 percent``);
- ``N times as ...`` as a pure multiplier;
- a hyphenated unit (``a 120-page book``, ``a 5-year-old``);
- a unit the pack lists, up to three words (``square feet``, ``miles per hour``);
- otherwise an open count noun: the first plural noun among the next few words,
  skipping modifiers (``26 salty cookies``, ``48 of her friends``); plurals are
  recognised and lemmatized with ``inflect``, not a hand-written table;
- then a rate: ``N X per Y``, ``$N an hour``, ``N X each``, ``N X in each Y``, or
  an ``each Y`` earlier in the same clause (``Each box holds 5 crayons``).

The unit is kept as written (``"$ per hour"``, ``"clips"``); its lemma comes from
the pack when the pack resolves it (``dollar_per_hour``), else from ``inflect``
(``clip``).  A unit outside the pack is kept, so that binding refuses it as
``unknown_unit`` naming the noun.

Examples
--------
>>> [(m.text, m.value, m.unit, m.lemma) for m in extract_mentions("Weng earns $12 an hour for 50 minutes.")]
[('$12 an hour', 12, '$ per hour', 'dollar_per_hour'), ('50 minutes', 50, 'minutes', 'minute')]
>>> [(m.text, m.unit, m.lemma) for m in extract_mentions("Paco had 26 salty cookies and twenty-five pies.")]
[('26 salty cookies', 'cookies', 'cookie'), ('twenty-five pies', 'pies', 'pie')]
>>> [(m.text, m.value, m.kind) for m in extract_mentions("She ate two-thirds of it, 3 times as many as 20%.")]
[('two-thirds', 0.6666666666666666, 'fraction'), ('3 times', 3, 'multiplier'), ('20%', 20, 'quantity')]
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import itertools
import operator
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NamedTuple

from ssbg.numbers import check_magnitude, parse_number
from ssbg.trace import Mention
from ssbg.units import DIMENSIONLESS, ResolvedUnit, UnitPack, UnitVector, default_pack

__all__ = [
    "NOT_UNITS",
    "VULGAR_FRACTIONS",
    "Token",
    "asked_unit",
    "clear_lemma_cache",
    "extract_mentions",
    "find_question_span",
    "is_plural_noun",
    "lemmatize",
    "mention_at",
    "pack_lookup",
    "question_unit",
    "tokenize",
    "unit_after",
    "unit_lemma",
    "worded_mentions",
]

# The tokens of a whitespace-separated chunk of the text (no token spans whitespace): every
# character of a chunk starts a token, so the offsets follow from the lengths (``findall`` makes no
# match objects).
_TOKEN = re.compile(
    r"(\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"  # numbers: 1,000.5  12  .5
    r"|([A-Za-z]+(?:[-'\u2019][A-Za-z]+)*)"  # words, with inner hyphens and apostrophes
    r"|([^\sA-Za-z\d])"  # one symbol
)


class Token(NamedTuple):
    """One token of a text: ``kind`` is ``num``, ``word`` or ``sym``; ``low`` is the lower-cased text."""

    kind: str
    text: str
    start: int
    end: int
    low: str


def tokenize(text: str, start: int = 0, end: int | None = None, *, limit: int | None = None) -> tuple[Token, ...]:
    """Numbers, words (with inner hyphens and apostrophes) and single symbols, with offsets.

    Reads ``text[start:end]`` (offsets stay those of ``text``), at most ``limit`` tokens.

    >>> [t.text for t in tokenize("A 120-page book costs $1,000.50!")]
    ['A', '120', '-', 'page', 'book', 'costs', '$', '1,000.50', '!']
    """
    new = tuple.__new__  # NamedTuple's own constructor is a Python function: too slow for every token
    out: list[Token] = []
    add = out.append
    stop_at = len(text) if end is None else end
    span = text if start == 0 and stop_at == len(text) else text[start:stop_at]
    # str.split and the token regex agree on whitespace (both read str.isspace).  Nine chunks in ten
    # are a plain word, a word before one punctuation mark or digits: those are read without the regex.
    # With a limit, a long line stays cheap: ``limit`` chunks hold at least ``limit`` tokens.
    chunks = span.split() if limit is None else span.split(None, limit)[:limit]
    find = text.find
    pos = start
    for chunk in chunks:
        pos = find(chunk, pos)  # only whitespace lies between the previous chunk and this one
        stop = pos + len(chunk)
        if chunk.isascii() and chunk.isalpha():
            add(new(Token, ("word", chunk, pos, stop, chunk.lower())))
        elif chunk.isascii() and chunk[:-1].isalpha() and not chunk[-1].isalnum():  # "clips." "May,"
            word, mark = chunk[:-1], chunk[-1]
            add(new(Token, ("word", word, pos, stop - 1, word.lower())))
            add(new(Token, ("sym", mark, stop - 1, stop, mark)))  # ASCII punctuation has no case
        elif chunk.isdecimal():  # what the regex's \d reads
            add(new(Token, ("num", chunk, pos, stop, chunk)))
        else:
            for num, word, sym in _TOKEN.findall(text, pos, stop):
                if word:
                    end_at = pos + len(word)
                    add(new(Token, ("word", word, pos, end_at, word.lower())))
                elif num:
                    end_at = pos + len(num)
                    add(new(Token, ("num", num, pos, end_at, num)))  # digits, "," and "." have no case
                else:
                    end_at = pos + 1
                    add(new(Token, ("sym", sym, pos, end_at, sym.lower())))
                pos = end_at
        pos = stop
    if limit is not None:
        del out[limit:]
    return tuple(out)


# ----------------------------------------------------------------- vocabularies


def _words(text: str) -> tuple[str, ...]:
    """The words of a vocabulary written as one string (easier to read than a long list)."""
    return tuple(text.split())


_SMALL: dict[str, int] = {
    w: i
    for i, w in enumerate(
        _words(
            "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
            "sixteen seventeen eighteen nineteen"
        )
    )
}
_TENS: dict[str, int] = {
    w: 10 * (i + 2) for i, w in enumerate(_words("twenty thirty forty fifty sixty seventy eighty ninety"))
}
_SCALES: dict[str, int] = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}
_DENOMINATORS: dict[str, int] = {
    "half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fourth": 4, "fourths": 4,
    "fifth": 5, "fifths": 5, "sixth": 6, "sixths": 6, "seventh": 7, "sevenths": 7, "eighth": 8, "eighths": 8,
    "ninth": 9, "ninths": 9, "tenth": 10, "tenths": 10,
}  # fmt: skip
_CURRENCY_SYMBOLS = frozenset({"$", "£", "€", "¥"})
# Fractions written as one character, as (numerator, denominator): "½ of them", "(½)*6".
VULGAR_FRACTIONS: Mapping[str, tuple[int, int]] = MappingProxyType({
    "\u00bd": (1, 2), "\u00bc": (1, 4), "\u00be": (3, 4), "\u2153": (1, 3), "\u2154": (2, 3),
})
_SENTENCE_END = frozenset({".", "?", "!", ";"})

# Closed-class words (determiners, pronouns, prepositions, conjunctions,
# auxiliaries, adverbs of time and degree) that never name a unit.
_FUNCTION_WORDS = frozenset(
    _words(
        """a an the and or but nor of to in on at for with by from as than that this these those it its he she they
        them his her hers their theirs our ours your yours my mine we you i me him us is are was were be been being
        has have had do does did will would can could should shall may might must each every per more less fewer
        most least if then so how what which who whom whose when where while after before left today yesterday
        tomorrow now ago old later earlier all some any many much only just also too very already still both either
        neither into onto over under about around up down out off altogether total together instead there here away
        back again not no yes plus minus times time until since during between among through across against within
        else
        without alone extra additional other another same different whole full empty new remaining leftover
        spare such own few several enough half twice double triple once"""
    )
)
# Words that may sit between a number and its noun ("5 more apples").
_MODIFIERS = frozenset(
    _words(
        """more fewer less extra additional other full whole empty different equal identical same remaining
        leftover spare new used big small large little old young red blue green white black yellow"""
    )
)
# Nouns that name a dimension or an aggregate, not a unit ("half of the money").
NOT_UNITS = _NOT_UNITS = frozenset(
    _words(
        """money time distance length width height weight amount number total cost price value sum difference rest
        remainder way speed rate area volume age profit income budget change balance savings earnings winnings
        proceeds needs"""
    )
)
_AUXILIARIES = frozenset(_words("are were is was will would do does did can could should must have has had"))
_SUBJECT_PRONOUNS = frozenset(_words("i you he she it we they who"))
_DETERMINERS = frozenset(_words("the his her their its my your our these those them"))
_MULTIPLIER_FOLLOWERS = frozenset(
    _words(
        """as more less fewer the that what his her their its my your our bigger larger longer taller heavier
        older faster higher greater smaller shorter lighter younger slower lower cheaper many much"""
    )
)
_RATE_PREPOSITIONS = frozenset({"in", "on", "for", "at", "into", "inside", "to", "from", "with"})
_A = frozenset({"a", "an"})
_CONVERTING = frozenset(_words("convert express write rewrite change round"))


# ------------------------------------------------------------------ lemmas


def _unchecked(target: Any = None, **_options: Any) -> Any:
    """Stands in for ``typeguard.typechecked`` while ``inflect`` imports (see :func:`_inflect_engine`)."""
    return _unchecked if target is None else target


@functools.lru_cache(maxsize=1)
def _inflect_engine() -> Any:
    """The ``inflect`` engine, imported on first use (ADR 0012).

    ``inflect`` decorates its methods with ``typeguard.typechecked``, which
    re-compiles each of them at import: about 3 s per process, paid again by
    every worker and every CLI call.  The checks only guard inflect's own
    arguments (we always pass a non-empty ``str``), so the decorator is made the
    identity for the duration of the import, as ``python -O`` does, and restored
    right after.  An ``inflect`` imported earlier by someone else is used as is.
    """
    import sys

    if "inflect" not in sys.modules:
        import typeguard

        checked = typeguard.typechecked
        typeguard.typechecked = _unchecked
        try:
            import inflect  # the optional corpus dependency, imported where it is needed
        finally:
            typeguard.typechecked = checked
    import inflect

    return inflect.engine()


@functools.lru_cache(maxsize=65536)
def _singular(word: str) -> str | None:
    if len(word) < 3 or word in _FUNCTION_WORDS or (not word.isalpha() and "-" not in word):
        return None
    head, sep, last = word.rpartition("-")
    for plural, singular in _IRREGULAR_ENDINGS:
        if last.endswith(plural) and len(last) > len(plural):
            return head + sep + last[: -len(plural)] + singular  # "grandchildren", "policewomen"
    if last.endswith("men") and last[:-3] in _MEN_COMPOUNDS:
        return head + sep + last[:-3] + "man"  # "firemen" (but "ramen", "specimen" are no plurals)
    result = _inflect_engine().singular_noun(last)
    if not isinstance(result, str) or result == last or len(head + sep + result) < 3:
        return None  # ("push-ups" is "push-up")
    if last.endswith(("is", "us", "ss")) and result == last[:-1]:
        return None  # "tennis", "bonus", "class": a final s that is no plural
    if last in _NOT_PLURAL:
        return None
    return head + sep + result


def _acronym_plural(word: str) -> bool:
    """An acronym in the plural: ``TVs``, ``DVDs`` (too short for ``inflect``'s reading)."""
    return len(word) >= 3 and word[-1] == "s" and word[:-1].isalpha() and word[:-1].isupper()


# Irregular plurals that end a compound, which inflect does not read ("grandchildren", "policewomen").
_IRREGULAR_ENDINGS = (("children", "child"), ("women", "woman"), ("people", "person"))
_MEN_COMPOUNDS = frozenset(
    _words(
        """fire police business sales fisher chair gentle snow crafts work line cave post milk mail camera sea
        horse door repair sports noble country fresh garbage delivery fore middle"""
    )
)
# Nouns in -as that inflect reads as plurals of nothing.
_NOT_PLURAL = frozenset(_words("christmas canvas atlas texas kansas arkansas alias bias pancreas overseas"))


def is_plural_noun(word: str) -> bool:
    """True when ``inflect`` reads ``word`` as a plural noun (function words never are), or it is an
    acronym's plural (``TVs``).

    >>> is_plural_noun("cookies"), is_plural_noun("salty"), is_plural_noun("was"), is_plural_noun("TVs")
    (True, False, False, True)
    """
    return _singular(word.lower()) is not None or _acronym_plural(word)


def lemmatize(word: str) -> str:
    """The singular lemma of a noun, lower-cased (``inflect``; memoized; ``TVs`` is ``tv``).

    >>> lemmatize("Children"), lemmatize("boxes"), lemmatize("sheep"), lemmatize("TVs")
    ('child', 'box', 'sheep', 'tv')
    """
    low = word.lower()
    return _singular(low) or (low[:-1] if _acronym_plural(word) else low)


def clear_lemma_cache() -> None:
    """Forget memoized lemmas, pack lookups, number values and token classifications (tests use this)."""
    _singular.cache_clear()
    _PACK_TEXTS.clear()
    _unit_heads.cache_clear()
    _STARTS_NUMBER.clear()
    _num_value.cache_clear()
    _look_back_cues.cache_clear()
    _names_persons.cache_clear()
    _COUNTED.clear()
    _PERIODS.clear()
    _LOTS.clear()


def pack_lookup(pack: UnitPack, text: str) -> ResolvedUnit | None:
    """``pack.resolve(text)``, or None when the pack does not resolve it (memoized).

    >>> from ssbg.units import default_pack
    >>> pack_lookup(default_pack(), "hours").lemma, pack_lookup(default_pack(), "apples")
    ('hour', None)
    """
    return _pack_texts(pack).lookup(text)


def unit_lemma(unit: str, pack: UnitPack | None = None) -> str:
    """The lemma of a unit as written: the pack's lemma when it resolves, else ``inflect``'s (memoized).

    >>> unit_lemma("$ per hour"), unit_lemma("eggs per box"), unit_lemma("salty cookies")
    ('dollar_per_hour', 'egg_per_box', 'salty_cookie')
    """
    return _pack_texts(default_pack() if pack is None else pack).unit_lemma(unit)


@dataclass(frozen=True, slots=True)
class _PackTexts:
    """The memoized reads of one pack, each keyed by a text alone (see :func:`_pack_texts`)."""

    pack: UnitPack
    lookup: Callable[[str], ResolvedUnit | None]  # what :func:`pack_lookup` returns
    may_be_unit: Callable[[str], bool]  # whether a lower-cased word may start a unit of the pack
    unit_lemma: Callable[[str], str]  # what :func:`unit_lemma` returns


# id(pack) -> the memoized reads of that pack.  Each entry holds its pack, so no other object can
# take the id while the entry lives: keyed by identity, a lookup needs no hash of the pack.
_PACK_TEXTS: dict[int, _PackTexts] = {}
_MAX_PACKS = 8


def _pack_texts(pack: UnitPack) -> _PackTexts:
    """The memoized reads of ``pack``: fetched once per call of a reader, then looked up by text.

    A memo keyed by ``(pack, text)`` would hash the pack on every lookup, and ``UnitPack.__hash__``
    runs in Python: it costs more than the lookup.  :func:`clear_lemma_cache` forgets them.
    """
    texts = _PACK_TEXTS.get(id(pack))
    if texts is None:
        if len(_PACK_TEXTS) >= _MAX_PACKS:
            _PACK_TEXTS.clear()
        lookup = functools.lru_cache(maxsize=65536)(functools.partial(_resolve, pack))
        may_be_unit = functools.lru_cache(maxsize=65536)(functools.partial(_may_be_unit, _unit_heads(pack)))
        lemma = functools.lru_cache(maxsize=65536)(functools.partial(_unit_lemma, lookup))
        texts = _PACK_TEXTS[id(pack)] = _PackTexts(pack, lookup, may_be_unit, lemma)
    return texts


def _resolve(pack: UnitPack, text: str) -> ResolvedUnit | None:
    hit = pack.lookup(text)
    return hit if isinstance(hit, ResolvedUnit) else None


def _unit_lemma(lookup: Callable[[str], ResolvedUnit | None], unit: str) -> str:
    hit = lookup(unit)
    if hit is not None:
        return hit.lemma
    parts = [part.strip() for part in unit.split(" per ")]
    out = []
    for part in parts:
        words = part.split()
        if not words:
            continue
        known = lookup(part)
        if known is not None:
            out.append(known.lemma)
            continue
        words[-1] = lemmatize(words[-1])
        out.append("_".join(w.lower() for w in words))
    return "_per_".join(out)


# ----------------------------------------------------------------- scanning


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


@dataclass(frozen=True, slots=True)
class _Unit:
    unit: str | None
    next: int  # index of the token after the unit (and rate)
    kind: str = "quantity"


@functools.lru_cache(maxsize=8)
def _unit_heads(pack: UnitPack) -> frozenset[str]:
    """The first words of every unit text the pack lists (a cheap filter before a lookup)."""
    heads: set[str] = set()
    for key in (*pack.entries, *pack.surfaces, *pack.folded):
        heads.add(key.lower().replace("_", " ").split(" ")[0])
    return frozenset(heads)


def _may_be_unit(heads: frozenset[str], low: str) -> bool:
    if low in heads:
        return True
    return any(low[: -len(suffix)] + repl in heads for suffix, repl in _PLURAL_ENDINGS if low.endswith(suffix))


_PLURAL_ENDINGS = (("ies", "y"), ("es", ""), ("s", ""))
_STOPS = _SENTENCE_END | {","}


def _pack_unit(
    toks: Sequence[Token], j: int, text: str, look: _PackTexts, *, glued: bool
) -> tuple[str, int] | None:
    """The longest pack unit of 1-3 tokens starting at ``j``: (text as written, next index)."""
    n = len(toks)
    if j >= n or not look.may_be_unit(toks[j].low):
        return None
    stop = min(n, j + 3)  # a unit never spans a sentence end or a comma
    for k in range(j, stop):
        if toks[k].text in _STOPS:
            stop = k
            break
    for width in (3, 2, 1):
        if j + width > stop:
            continue
        first, last = toks[j], toks[j + width - 1]
        if (first.kind == "sym" and first.text not in ("%", "¢", "°")) or last.kind == "sym":
            continue
        written = text[first.start : last.end]
        if width == 1 and len(written) == 1 and not glued and written not in ("%", "¢", "°"):
            continue  # single letters ("m", "s", "g") only glued to the number
        if width == 1 and first.low in _FUNCTION_WORDS:
            continue
        hit = look.lookup(written)
        if (hit is not None and hit.via != "depluralized") or (hit is not None and width == 1):
            return written, j + width
    return None


def _noun_run(
    toks: Sequence[Token],
    j: int,
    value: float | int,
    *,
    plural_only: bool = False,
    partitive: bool = False,
    lone: bool = False,
) -> tuple[int, int] | None:
    """Index of the head noun after a number (skipping modifiers) and the next index.

    The first plural noun of the next few words (past a capitalized modifier: ``60 Christmas presents``);
    failing that (unless ``plural_only``), a lone word or the head of a two-word run after a ``1``, and a
    lone word after another number only when its plural is itself (``3 fish``, not ``the two take``);
    after ``of the`` (``partitive``) the first word (``26 of the blowfish stay``); with ``lone`` any lone
    word (a question's ``how many emus``).  The run stops at a verb (:func:`_run_verb`: ``One ham
    sandwich requires``).
    """
    if partitive:
        value = 0  # "one of the brown bags": the noun is plural
    run = _run_words(toks, j, value)
    for at, idx in enumerate(run):
        if toks[idx].text[0].isupper() and idx != run[0]:
            break
        if value == 1 and at == 0 and is_plural_noun(toks[idx].text) and toks[j - 1].low == "one":
            return None  # "one exceeds the other": a pronoun and its verb
        if is_plural_noun(toks[idx].text):
            if at + 1 < len(run) and toks[idx].text[0].isupper() and is_plural_noun(toks[run[at + 1]].text):
                continue  # "60 Christmas presents": a name before the noun
            return (idx, idx + 1) if toks[idx].low not in _NOT_UNITS else None
    if plural_only or not run or any(toks[idx].low in _NOT_UNITS for idx in run):
        return None
    if value == 1 or partitive or (len(run) == 1 and (lone or _invariant_plural(toks[run[0]].low))):
        head = run[0] if partitive else run[-1]  # "one mini tissue box": the compound's head
        if toks[head].text[0].isupper() and len(toks[head].text) > 1 and not toks[head].text.isupper():
            return None  # a name, not a unit
        return head, head + 1
    return None


def _run_words(toks: Sequence[Token], j: int, value: float | int) -> list[int]:
    """The indices of the (at most three) content words after a number at ``j``: past two modifiers or
    participles (``5 more apples``, ``one grilled cheese sandwich``) and possessors (``four children's
    tickets``), up to a function word or a verb (:func:`_run_verb`)."""
    n = len(toks)
    k = j
    skipped = 0
    while k < n and skipped < 2 and (
        toks[k].low in _MODIFIERS or (_participle(toks[k].low) and k + 1 < n and toks[k + 1].kind == "word")
    ):
        k += 1
        skipped += 1
    run: list[int] = []
    while k < n and len(run) < 3 and toks[k].kind == "word" and toks[k].low not in _FUNCTION_WORDS:
        if toks[k].low.endswith(("n't", "n\u2019t")):
            break  # "how many don't eat": a verb
        if toks[k].low.endswith(("'s", "\u2019s", "s'")) and k + 1 < n and toks[k + 1].kind == "word":
            k += 1  # "four children's tickets": the possessor is not the unit
            continue
        if (run and _run_verb(toks, run[-1], k, value)) or (not run and _verb_at(toks, k)):
            break  # "One ham sandwich requires", "each one selling for $2"
        run.append(k)
        k += 1
    return run


def _run_verb(toks: Sequence[Token], last: int, k: int, value: float | int) -> bool:
    """Whether the word at ``k``, after the run's word at ``last``, is a verb that ends the noun run:
    a bearing verb, a past tense or an adverb (``3 pens cost``, ``2 boys bought``); after a 1, a name or,
    after one singular noun, a word in ``-s`` (``One ham sandwich requires``, ``one day Sam``)."""
    low = toks[k].low
    if low in _BEARING or _verbish(low) or _adverb(low):
        return True
    if value == 1 and toks[k].text[0].isupper() and not toks[last].text[0].isupper():
        return True  # "one day Sam": a name after the noun
    return value == 1 and is_plural_noun(toks[k].text) and not is_plural_noun(toks[last].text)


_ADVERB_ENDINGS = ("ally", "ently", "antly", "ously", "ively", "edly", "ately", "ctly", "omly", "ularly", "etely")


def _adverb(low: str) -> bool:
    """An adverb in ``-ly`` (``normally``, ``currently``, ``exactly``), never a unit (``family``,
    ``butterfly`` and ``supply`` are nouns).

    >>> _adverb("normally"), _adverb("exactly"), _adverb("family"), _adverb("supply")
    (True, True, False, False)
    """
    return low.endswith(_ADVERB_ENDINGS)


@functools.lru_cache(maxsize=4096)
def _invariant_plural(low: str) -> bool:
    """A noun whose plural is itself, so that it counts after any number (``3 fish``, ``12 sheep``).

    >>> _invariant_plural("fish"), _invariant_plural("take")
    (True, False)
    """
    if len(low) < 3 or low in _FUNCTION_WORDS or not low.isalpha():
        return False
    return bool(_inflect_engine().plural_noun(low) == low)


def _noun_at(toks: Sequence[Token], j: int) -> int | None:
    """The index of the content word at ``j`` (after modifiers: ``each additional minute``), or None:
    never a number word or a verb (``they each bought``: :func:`_verbish`)."""
    n = len(toks)
    while j + 1 < n and (toks[j].low in _MODIFIERS or _participle(toks[j].low)) and toks[j + 1].kind == "word":
        j += 1  # "each additional minute", "one grilled cheese sandwich"
    low = toks[j].low if j < n else ""
    if (
        j < n
        and toks[j].kind == "word"
        and (low not in _FUNCTION_WORDS or low == "time")
        and low not in _SMALL
        and low not in _TENS
        and not _verb_at(toks, j)
        and not _adverb(low)
    ):
        return j
    return None


_OBJECT_STARTS = frozenset({*_A, "the"})


def _verb_at(toks: Sequence[Token], j: int) -> bool:
    """Whether the word at ``j`` is a verb: :func:`_verbish`, or a word in ``-ing`` before a number or an
    article (``each weighing 30 pounds``, ``each containing 15``; but ``each serving has``)."""
    low = toks[j].low
    if _verbish(low):
        return True
    if not low.endswith("ing") or j + 1 >= len(toks):
        return False
    nxt = toks[j + 1]
    return nxt.kind == "num" or nxt.low in _SMALL or nxt.low in _TENS or nxt.low in _OBJECT_STARTS


# Verbs in the past and verbs of having, that a noun never is: "the two men each bought 30 apples".
_VERBS = frozenset(
    _words(
        """bought got took taken gave given paid spent ate eaten made sold sent kept won lost found held brought
        caught drove driven rode ran wrote written grew grown threw received earned get gets give gives earn
        earns weigh weighs hold holds contain contains require requires take takes receive receives eat eats
        buy buys sell sells spend spends costs need needs having selling arrive arrives exceed exceeds consisting
        containing weighing holding costing measuring equals equal deliver delivers fell"""
    )
)


def _participle(low: str) -> bool:
    """A word in ``-ed`` (a participle used as an adjective: ``grilled cheese``), never a noun."""
    return len(low) > 4 and low.endswith("ed") and not low.endswith("eed") and low != "hundred"


def _verbish(low: str) -> bool:
    """A lower-cased word that is a verb, never a noun: ``bought``, ``given``, ``grilled`` (``-ed``).

    >>> _verbish("bought"), _verbish("grilled"), _verbish("seed"), _verbish("hundred"), _verbish("box")
    (True, True, False, False, False)
    """
    return low in _VERBS or _participle(low)


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


_ONE_THING_PREPOSITIONS = frozenset(_words("in on for into"))


def _rate_to(toks: Sequence[Token], k: int, look: _PackTexts) -> _Rate:
    """``to each Y`` (a preposition), or ``4 hours to install each window``: a verb between."""
    n = len(toks)
    if k + 1 < n and toks[k + 1].low in ("each", "every", "per"):
        return _noun_rate(toks, k + 2)
    if k + 2 < n and toks[k + 1].kind == "word" and toks[k + 2].low in ("each", "every"):
        return _noun_rate(toks, k + 3)
    return None


_PERIODIC = {
    "hourly": "hour", "daily": "day", "nightly": "night", "weekly": "week", "monthly": "month",
    "yearly": "year", "annual": "year", "annually": "year",
}  # fmt: skip


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


def _compound_head(toks: Sequence[Token], j: int, stop: int) -> int:
    """The head of a singular compound starting at the noun ``j`` (before index ``stop``): ``bicycle
    wheel`` of "Each bicycle wheel has", ``sandwich`` of "One ham sandwich requires"; it ends at a
    function word, a verb, a name, or a plural-looking word (after a singular noun, a verb: ``holds``)."""
    while (
        j + 1 < stop
        and toks[j + 1].kind == "word"
        and toks[j + 1].low not in _FUNCTION_WORDS
        and toks[j + 1].low not in _BEARING
        and not _verbish(toks[j + 1].low)
        and not _adverb(toks[j + 1].low)
        and not toks[j + 1].text[0].isupper()
        and not is_plural_noun(toks[j + 1].text)
    ):
        j += 1  # "each pair normally cost" stops at the adverb
    return j


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


_PERSONS_PRONOUNS = frozenset({"they", "we"})


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


def _is_part(tok: Token) -> bool:
    """A fraction word or number: ``half``, ``One-half``, ``third``, ``0.5``."""
    return tok.low.rpartition("-")[2] in _DENOMINATORS or (tok.kind == "num" and _num_value(tok.text) < 1)


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


_PERCENT_UNITS = frozenset({"%", "percent", "per cent", "pct"})  # the units a percentage is written with


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


_NO_UNIT = ResolvedUnit("", "", DIMENSIONLESS, None, "lemma")


_DURATION_PREPOSITIONS = frozenset(_words("for over during within lasting after"))


def _duration_at(toks: Sequence[Token], i: int) -> bool:
    """Whether the number at ``i`` is written as a duration: ``for 2 weeks``, ``over 20 years``."""
    return i > 0 and toks[i - 1].low in _DURATION_PREPOSITIONS


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


# Words of a part of a day: "every morning" is once a day.
_DAY_PARTS = frozenset(_words("morning mornings evening evenings afternoon afternoons night nights weekday weekdays"))
_CLAUSE_BREAKS = frozenset(_words("and or but if when while than because so"))
_TIME = UnitVector(time=1)


def _period(look: _PackTexts, word: str) -> str | None:
    """A word naming a period of time as a rate's ``Y`` (``day``, ``week``; ``morning`` is a day)."""
    if word.lower() in _DAY_PARTS:
        return "day"
    hit = look.lookup(word)
    return word if hit is not None and hit.dimension == _TIME and hit.denominator == DIMENSIONLESS else None


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


# Verbs that give a measure of the thing before them: "a bag weighs 5 kg", "one batch requires 2 cups".
_BEARING = frozenset(
    _words(
        """cost costs weigh weighs hold holds contain contains require requires need needs take takes use uses
        has have measure measures make makes produce produces feed feeds serve serves call calls fit fits
        carry carries pay pays charge charges earn earns get gets give gives yield yields is are"""
    )
)
_HEDGES = frozenset(_words("up to about around only exactly roughly nearly almost just at least most"))


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


class _Counted(NamedTuple):
    """The lemmas of the nouns a text counts (:func:`_counted`)."""

    any: frozenset[str]  # after any number, ``how many``, ``each``, ``every`` or ``per``
    several: frozenset[str]  # after a number other than one, or ``how many``: the text has several of them


def _counted_nouns(toks: Sequence[Token]) -> frozenset[str]:
    """The lemmas of the nouns a text counts: after a number (a modifier between), ``how many``, ``each``,
    ``every`` or ``per``."""
    return _counted(toks).any


def _counted(toks: Sequence[Token]) -> _Counted:
    """The nouns a text counts, and those it has several of (memoized by the tokens' identity for the
    text being read: one pass over its tokens)."""
    key = id(toks)
    found = _COUNTED.get(key)
    if found is not None and found[0] is toks:
        return found[1]
    nouns: set[str] = set()
    several: set[str] = set()
    n = len(toks)
    for i, tok in enumerate(toks):
        counting = tok.kind == "num" or tok.low in _SMALL or tok.low in _TENS or tok.low in ("each", "every", "per")
        many = tok.low == "many" and i > 0 and toks[i - 1].low == "how"
        if not counting and not many:
            continue
        j = i + 1
        while j < n and toks[j].low in _MODIFIERS:
            j += 1
        if j < n and toks[j].kind == "word" and toks[j].low not in _FUNCTION_WORDS:
            words = [lemmatize(toks[j].text)]
            if j + 1 < n and toks[j + 1].kind == "word" and toks[j + 1].low not in _FUNCTION_WORDS:
                words.append(lemmatize(toks[j + 1].text))  # "3 chocolate bars"
            nouns.update(words)
            if many or (tok.kind == "num" and tok.text not in ("1", "1.0")) or tok.low in _TENS or (
                tok.low in _SMALL and _SMALL[tok.low] > 1
            ):
                several.update(words)
    result = _Counted(frozenset(nouns), frozenset(several))
    _COUNTED.clear()
    _COUNTED[key] = (toks, result)
    return result


_COUNTED: dict[int, tuple[Sequence[Token], _Counted]] = {}


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


def _head_lemma(unit: str) -> str:
    """The lemma of a unit's last word (``book`` for ``story books``)."""
    return lemmatize(unit.rsplit(maxsplit=1)[-1])


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


_NUMBER_WORDS = frozenset({*_SMALL, *_TENS, *_DENOMINATORS, "both"})
_AFTER_A = frozenset({*_SCALES, *_DENOMINATORS, "dozen", "pair", "couple"})
_NUMBER_OR_A = _NUMBER_WORDS | _A
# A token's fields read from C (itemgetter: like attrgetter on a NamedTuple, but cheaper).
_TOKEN_LOW = operator.itemgetter(Token._fields.index("low"))
_TOKEN_START = operator.itemgetter(Token._fields.index("start"))
_TOKEN_END = operator.itemgetter(Token._fields.index("end"))


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


def extract_mentions(
    text: str, *, pack: UnitPack | None = None, tokens: Sequence[Token] | None = None
) -> tuple[Mention, ...]:
    """Every quantity mention in ``text``, sorted by offset, non-overlapping.

    Parameters
    ----------
    text
        The problem text.
    pack
        The unit pack used to recognise units and lemmas (``en_units_v1`` when None).
    tokens
        ``tokenize(text)``, when the caller has it already.
    """
    look = _pack_texts(default_pack() if pack is None else pack)
    toks = tokenize(text) if tokens is None else tokens
    out: list[Mention] = []
    n = len(toks)
    i = 0
    for candidate in _candidates(toks):
        if candidate < i:
            continue
        i = candidate
        number = _number_at(toks, i)
        if number is None:
            continue
        if _negative(toks, i) and (not out or out[-1].end <= toks[i - 1].start):
            number = number._replace(value=-number.value, start=toks[i - 1].start)
        last = toks[number.next - 1]
        if (
            number.currency is None
            and number.next < n
            and toks[number.next].text in ("¢", *_CURRENCY_SYMBOLS)
            and _adjacent(last, toks[number.next])
        ):
            unit: str | None = toks[number.next].text  # "50¢", "600$"
            k = number.next + 1
            kind = "quantity"
        else:
            unit, k, kind = _unit_after(
                toks, number.next, text, number.value, look, number.currency, last.end, i, number.kind
            )
        if unit is None and kind == "quantity" and number.kind == "quantity":
            unit = _elided_unit(toks, i, k, out, look, text)
        out.append(_mention(text, toks, number, unit, k, kind, look))
        i = k
    return tuple(_second_readings(text, out, look)) if out else ()


_COMPARATIVES = frozenset({"more", "less", "fewer"})
_ADJACENT_RATE = re.compile(r"(?i)/|\bper\b|\ban?\s+\w+$|\beach\b|\bevery\b|\bapiece\b")
_ONE_THING = re.compile(r"(?i)(?<![a-z])(?:a|an|one|each|every|per)\s+(?:[a-z]+\s+){0,2}?([a-z]+)(?![a-z])")
_TEXT_PERIOD = re.compile(
    r"(?i)(?<![a-z])(?:per|a|an|each|every)\s+(second|minute|hour|day|night|week|month|year)s?(?![a-z])"
    r"|(?<![a-z])(hourly|daily|nightly|weekly|monthly|yearly|annually)(?![a-z])"
)


def _second_readings(text: str, mentions: list[Mention], look: _PackTexts) -> list[Mention]:
    """Give a mention the second unit reading its words support as well (ADR 0018): binding reports a
    refusal only its first reading makes as ``ambiguous_grounding``, not as a unit mismatch.

    - A total of money or of a measure in a sentence about one thing (``a``/``one``/``each`` + a noun:
      "a bucket and 2 sides for $12.00") may be that thing's price or measure: ``$ per bucket``.
    - A duration in a text that counts time by a period (``a day``, ``weekly``) may be per that period:
      "a 10-hour shift" in a text of days is ``hours per day``.
    - A rate read from its clause rather than from words beside it (``for 2 weeks`` after "each day")
      may be the total its unit names: ``weeks``.
    """
    out: list[Mention] = []
    for m in mentions:
        unit = m.unit
        if unit is None or m.kind != "quantity" or m.source != "text" or unit in _PERCENT_UNITS:
            out.append(m)
            continue
        hit = look.lookup(unit)
        second: str | None = None
        if " per " in unit:
            if not _ADJACENT_RATE.search(m.text):
                second = unit.partition(" per ")[0]
        elif hit is not None and hit.dimension != _COUNT and not hit.is_rate:
            start, end = _sentence_of(text, m.start)
            if hit.dimension == _TIME:
                period = _TEXT_PERIOD.search(text)
                name = None if period is None else (period.group(1) or _PERIODIC[period.group(2).lower()])
                if name is not None and lemmatize(name) != _head_lemma(unit):
                    second = f"{unit} per {name}"
            else:
                for thing in _ONE_THING.finditer(text, start, end):
                    noun = thing.group(1)
                    if noun.lower() not in _FUNCTION_WORDS and lemmatize(noun) != _head_lemma(unit) and _period(
                        look, noun
                    ) is None and noun.lower() not in _NOT_UNITS:
                        second = f"{unit} per {noun}"
                        break
        if second is not None and second != unit and look.lookup(second) is not None:
            out.append(dataclasses.replace(m, alt_unit=second))
        else:
            out.append(m)
    return out


def _sentence_of(text: str, at: int) -> tuple[int, int]:
    start = max(text.rfind(".", 0, at), text.rfind("?", 0, at), text.rfind("!", 0, at)) + 1
    ends = [e for e in (text.find(".", at), text.find("?", at), text.find("!", at)) if e >= 0]
    return start, min(ends) if ends else len(text)


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


_COUNT = UnitVector(count=1)
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


def worded_mentions(text: str, *, pack: UnitPack | None = None) -> tuple[Mention, ...]:
    """The mentions whose number is written in words (``two``, ``a dozen``, ``half``), read line by line.

    What :func:`extract_mentions` finds starting with a letter, at the cost of the
    lines that have a number word: a worked solution writes most of its numbers
    in digits, and reading every one of them with its unit to keep a few words
    would cost ten times more.

    >>> [(m.text, m.value) for m in worded_mentions("48/2 = 24 clips.\\nShe sold two dozen.\\n#### 72")]
    [('two dozen', 2)]
    """
    p = default_pack() if pack is None else pack
    out: list[Mention] = []
    if not _may_have_number_words(text):
        return ()
    start = 0
    size = len(text)
    while start < size:
        stop = text.find("\n", start)
        stop = size if stop < 0 else stop
        if _may_have_number_words(text[start:stop]):
            toks = tokenize(text, start, stop)
            if any(toks[i].kind == "word" for i in _candidates(toks)):
                out.extend(m for m in extract_mentions(text, pack=p, tokens=toks) if m.text[:1].isalpha())
        start = stop + 1
    return tuple(out)


_LETTERS = re.compile(r"[a-z]+")


def _may_have_number_words(text: str) -> bool:
    """False only when no token of ``text`` can start a number in words (a cheap filter: one regex and
    set intersections instead of tokens)."""
    low = text.lower()
    words = set(_LETTERS.findall(low))
    if not words.isdisjoint(_NUMBER_WORDS):
        return True
    return not words.isdisjoint(_A) and (not words.isdisjoint(_AFTER_A) or "a-" in low or "an-" in low)


def _mention(
    text: str,
    toks: Sequence[Token],
    number: _Number,
    unit: str | None,
    k: int,
    kind: str,
    look: _PackTexts,
    source: str = "text",
) -> Mention:
    """The mention from a number token run to its unit (``toks[k - 1]`` is the last token)."""
    if kind == "quantity" and number.kind == "fraction" and unit is None:
        kind = "fraction"
    end = toks[k - 1].end
    lemma = look.unit_lemma(unit) if unit is not None else None
    value = check_magnitude(number.value)  # "a million million million": scaled past what ssbg holds
    return Mention(number.start, end, text[number.start : end], value, unit, lemma, kind, source)


def mention_at(text: str, start: int, *, pack: UnitPack | None = None, source: str = "text") -> Mention | None:
    """The mention whose number starts at ``text[start]`` (a digit or a currency symbol), or None.

    Reads only a short window; no ``each Y`` look-back.

    >>> mention_at("so everyone has 2 legs.", 16)
    Mention(start=16, end=22, text='2 legs', value=2, unit='legs', lemma='leg', kind='quantity', source='text', \
alt_unit=None)
    """
    look = _pack_texts(default_pack() if pack is None else pack)
    toks = tokenize(text, start, min(len(text), start + 120), limit=14)
    if not toks or toks[0].start != start:
        return None
    number = _number_at(toks, 0)
    if number is None:
        return None
    last = toks[number.next - 1]
    unit, k, kind = _unit_after(
        toks, number.next, text, number.value, look, number.currency, last.end, None, number.kind
    )
    return _mention(text, toks, number, unit, k, kind, look, source)


_PERCENT_ASKED = frozenset({"percent", "percentage"})


# Words that open a clause of its own after the asked unit: a rate in it is not the answer's.
_CLAUSE_OPENERS = frozenset({"that", "which", "who", "whose", "if", "when", "since", "because"})


def question_unit(
    text: str,
    start: int = 0,
    end: int | None = None,
    *,
    pack: UnitPack | None = None,
    tokens: Sequence[Token] | None = None,
    mentions: Sequence[Mention] | None = None,
) -> str | None:
    """The answer unit a question states (``How many clips ...`` -> ``clips``), or None.

    Reads ``how many <noun>`` (with a rate when the question says ``each Y`` /
    ``per Y``), ``how much <pack unit>``, an ``in <pack unit>`` that closes the
    question or stands between commas (``, in dollars ,``), also as a rate
    (``in miles per hour``, ``in clients per hour``), and a closing ``to`` /
    ``as`` ``(a) <pack unit>`` (``Convert 0.176 to a percent.``), and ``what
    percent`` / ``what percentage`` (``percent``).  Dimension words (``money``,
    ``time``) are not units: they give None.  With the problem's ``mentions``, a
    question that states no unit but asks a dimension by its wh-word (``How far``)
    takes the text's one unit of that dimension (:func:`asked_unit`).

    >>> question_unit("How many oranges must go in each box?")
    'oranges per box'
    >>> question_unit("How long will it take, in minutes?")
    'minutes'
    >>> question_unit("At what rate, in clients per hour, do they work?")
    'clients per hour'
    >>> question_unit("How much money does she have?") is None
    True
    >>> question_unit("For what number of minutes will each of the plans cost the same?")
    'minutes'
    """
    look = _pack_texts(default_pack() if pack is None else pack)
    toks = _span_tokens(text, start, end, tokens)  # the question's tokens, sliced once for both readings
    stated = _stated_unit(text, toks, look)
    if stated is not None or mentions is None:
        return stated
    return _asked_unit(toks, mentions, look)


_ASKS = re.compile(r"(?i)(how|what|find|calculate|determine|compute|convert|express|give)\b")


def _sentence_start(text: str, end: int) -> int:
    """Where the sentence that ends at ``end`` starts: after the last run of ``.``, ``!`` or ``?`` before
    it that a space (or the end of the text) follows, else at 0.  Searched backwards with ``str.rfind``:
    a question is most often the last sentence, and a scan of the whole text would cost more."""
    hi = end - 1  # a terminator at hi - 1 or before ends a sentence before ``end``
    while True:
        k = max(text.rfind(".", 0, hi), text.rfind("!", 0, hi), text.rfind("?", 0, hi))
        if k < 0:
            return 0
        if text[k + 1].isspace():
            return k + 1
        hi = k  # "$3.50": not followed by a space, so the sentence goes on


def find_question_span(text: str) -> tuple[int, int] | None:
    """The span of a text's question: its last sentence ending in ``?`` (or starting with How/What/Find).

    A full stop inside a number (``$3.50``) ends no sentence.

    >>> t = "Ann has 3.5 apples. How many does she have?"
    >>> t[slice(*find_question_span(t))]
    'How many does she have?'
    """
    asked: tuple[int, int] | None = None
    end = len(text.rstrip())
    while end > 0:  # the sentences from the last one back
        first = _sentence_start(text, end)
        chunk = text[first:end]
        begin = first + len(chunk) - len(chunk.lstrip())
        if begin < end:
            if text[end - 1] == "?":
                return begin, end
            if asked is None and _ASKS.match(text, begin):
                asked = (begin, end)
        end = first
    return asked


def _span_tokens(text: str, start: int, end: int | None, tokens: Sequence[Token] | None) -> Sequence[Token]:
    """The tokens of ``text[start:end]``: taken from ``tokens`` when the caller has them."""
    stop = len(text) if end is None else end
    if tokens is None:
        return tokenize(text, start, stop)
    lo = bisect.bisect_left(tokens, start, key=_TOKEN_START)  # the offsets grow: two searches, no scan
    return tokens[lo : bisect.bisect_right(tokens, stop, lo, key=_TOKEN_END)]


def _stated_unit(text: str, toks: Sequence[Token], look: _PackTexts) -> str | None:
    """The unit a question (its tokens ``toks`` of ``text``) writes out (see :func:`question_unit`):
    the first of :data:`_STATED_READINGS` that reads one.  A reading's ``""`` is final: the question
    states that it asks no unit (``how many times``)."""
    for reading in _STATED_READINGS:
        unit = reading(text, toks, look)
        if unit is not None:
            return unit or None
    return None


def _how_many_unit(text: str, toks: Sequence[Token], look: _PackTexts) -> str | None:
    """``How many apples``, ``how much money``, ``for what number of minutes``, with the rate that
    follows in the question (``how many miles per hour``)."""
    for i in range(len(toks) - 1):
        asked = _how_many_at(toks, i)
        if asked is None:
            continue
        written = _asked_noun(text, toks, *asked, look)
        if written is None:
            continue
        unit, k = written
        if unit.lower() in ("times", "time"):
            return ""
        return _with_question_rate(toks, unit, k, look)
    return None


def _how_many_at(toks: Sequence[Token], i: int) -> tuple[bool, int] | None:
    """``how many`` / ``how much`` (or ``what number of``, a how-many) at ``i``: (many, the index after)."""
    if toks[i].low == "how" and toks[i + 1].low in ("many", "much"):
        return toks[i + 1].low == "many", i + 2
    if toks[i].low == "what" and i + 2 < len(toks) and toks[i + 1].low == "number" and toks[i + 2].low == "of":
        return True, i + 3  # "For what number of minutes ...": how many minutes
    return None


def _asked_noun(text: str, toks: Sequence[Token], many: bool, j: int, look: _PackTexts) -> tuple[str, int] | None:
    """The unit after ``how many`` (a pack unit, else a plural noun run; ``how many are cats``) or after
    ``how much`` (a pack unit after modifiers), and the index after it."""
    n = len(toks)
    if not many:
        while j < n and toks[j].low in _MODIFIERS:
            j += 1
        return _pack_unit(toks, j, text, look, glued=False)
    if j + 1 < n and toks[j].low in _AUXILIARIES and is_plural_noun(toks[j + 1].text):
        j += 1  # "how many are cats?"
    packed = _pack_unit(toks, j, text, look, glued=False)
    if packed is not None:
        return packed
    head = _noun_run(toks, j, 2, lone=True)
    return None if head is None else (toks[head[0]].text, head[1])


_NOT_ASKED_RATES = frozenset({"one", "a", "an"})


def _with_question_rate(toks: Sequence[Token], unit: str, k: int, look: _PackTexts) -> str:
    """``unit`` with the rate the rest of its clause writes (``miles per hour``), else ``unit``."""
    n = len(toks)
    for m in range(k, n):
        if toks[m].low in _CLAUSE_OPENERS:
            break  # "pounds of hamburger that costs 1.60 dollars per pound", "if each pig needs 3 gallons"
        if toks[m].low == "each" and m + 1 < n and toks[m + 1].low == "of":
            continue  # "will each of you have saved": each person, not a rate
        if m + 1 < n and toks[m].low in _ONE_THING_PREPOSITIONS and toks[m + 1].low in _NOT_ASKED_RATES:
            continue  # "how many miles in one day": a question asks the total of that one day
        if m > k and toks[m].low in _PERIODIC:
            continue  # "how many weeks of daily tea": a periodic word of another noun
        rate = _rate_suffix(toks, m, look)
        if rate is not None and (toks[m].low not in _A or m == k):
            return f"{unit} per {rate[0]}"
    return unit


def _closing_unit(text: str, toks: Sequence[Token], look: _PackTexts) -> str | None:
    """A unit that closes the question after ``in`` / ``as`` (``How far is it in miles?``), or after
    ``to`` in a conversion (``Convert 0.176 to a percent.``); ``, in clients per hour,`` set off by commas."""
    for i in range(len(toks) - 2):
        unit = _closing_unit_at(text, toks, i, look)
        if unit is not None:
            return unit
    return None


def _closing_unit_at(text: str, toks: Sequence[Token], i: int, look: _PackTexts) -> str | None:
    """:func:`_closing_unit` at the ``in`` / ``to`` / ``as`` of token ``i``."""
    n = len(toks)
    low = toks[i].low
    if low not in ("in", "to", "as") or (low == "to" and not any(t.low in _CONVERTING for t in toks[:i])):
        return None  # "to <unit>" only in a conversion ("Convert 0.176 to a percent."), not "add to a cup"
    j = i + 2 if low != "in" and toks[i + 1].low in _A else i + 1
    packed = _pack_unit(toks, j, text, look, glued=False)
    aside = low == "in" and i > 0 and toks[i - 1].text == ","
    open_noun = packed is None and aside and j + 1 < n and toks[j + 1].low == "per"
    if open_noun and is_plural_noun(toks[j].text) and lemmatize(toks[j].text) not in _NOT_UNITS:
        packed = toks[j].text, j + 1  # ", in clients per hour": an open noun, only as a rate set off by a comma
    if packed is None:
        return None
    unit, k = packed
    rate = _rate_suffix(toks, k, look) if k < n and toks[k].low == "per" else None
    if rate is not None:
        unit, k = f"{unit} per {rate[0]}", rate[1]
    elif open_noun:
        return None
    closes = k == n - 1 and toks[k].text in ("?", ".")
    return unit if closes or (aside and k < n and toks[k].text in (",", "?", ".")) else None


def _percent_asked(text: str, toks: Sequence[Token], look: _PackTexts) -> str | None:
    """``What percent(age) of the students passed?``"""
    for i in range(len(toks) - 1):
        if toks[i].low in ("what", "which") and toks[i + 1].low in _PERCENT_ASKED:
            return "percent"
    return None


# The readings of a unit a question writes out, in the order they are tried.
_STATED_READINGS: tuple[Callable[[str, Sequence[Token], _PackTexts], str | None], ...] = (
    _how_many_unit,
    _closing_unit,
    _percent_asked,
)


# A question that asks a dimension by its wh-word states no unit ("How far did she run?"): the
# unit is the one the text uses for that dimension.  "how long" asks a time only with a verb of
# duration ("How long will it take"); "How long is the rope?" may ask a length and is left alone.
_LENGTH, _TIME, _MASS, _MONEY = UnitVector(length=1), UnitVector(time=1), UnitVector(mass=1), UnitVector(money=1)
_ASKED_DIMENSION: Mapping[str, UnitVector] = MappingProxyType({
    "far": _LENGTH, "tall": _LENGTH, "high": _LENGTH, "deep": _LENGTH, "wide": _LENGTH,
    "heavy": _MASS, "old": _TIME, "fast": UnitVector(length=1, time=-1),
})  # fmt: skip
_WEIGH = frozenset(_words("weigh weighs weighed"))
_DURATION = frozenset(_words("take takes took taken last lasts lasted"))
_PAYING = frozenset(_words("""money cost costs spend spends spent pay pays paid earn earns earned worth profit
    charge charges charged owe owes owed"""))
_EACH = frozenset(_words("each every apiece"))  # a rate of what is asked: "how far will each member run"
_ONE = frozenset(_words("per a an one"))  # money for one of something is a price: "how much does a ticket cost"


def asked_unit(
    text: str,
    mentions: Sequence[Mention],
    start: int = 0,
    end: int | None = None,
    *,
    pack: UnitPack | None = None,
    tokens: Sequence[Token] | None = None,
) -> str | None:
    """The unit a question asks for by its wh-word alone, as the text writes it, or None.

    ``how far / tall / high / deep / wide`` ask a length, ``how heavy`` and ``how much ... weigh``
    a mass, ``how old`` a time (an age), ``how fast`` a speed, ``how long`` with ``take`` or
    ``last`` a time, ``how much`` with ``money``, ``cost``, ``spend``, ``pay``, ``earn`` ... a sum
    of money.  The answer is in the one unit of that dimension the mentions use (compared by
    lemma, so ``1 mile ... 3 miles`` is one unit); with none or several, None: the question does
    not say which.  A question of ``each`` / ``every`` asks a rate of the dimension, and one of
    money with ``per``, ``a``, ``an`` or ``one`` may ask a price: both are left alone.

    >>> text = "If 500 sheets of paper weigh 7 pounds, how much do 2 sheets weigh?"
    >>> asked_unit(text, extract_mentions(text), text.index("how"))
    'pounds'
    >>> text = "She ran 3 miles and then 2 kilometers. How far did she run?"
    >>> asked_unit(text, extract_mentions(text), text.index("How")) is None
    True
    """
    look = _pack_texts(default_pack() if pack is None else pack)
    return _asked_unit(_span_tokens(text, start, end, tokens), mentions, look)


def _asked_unit(toks: Sequence[Token], mentions: Sequence[Mention], look: _PackTexts) -> str | None:
    """:func:`asked_unit` over the question's own tokens ``toks``."""
    lows = [t.low for t in toks]
    if any(w in _EACH for w in lows):
        return None
    wanted: UnitVector | None = None
    for i in range(len(lows) - 1):
        if lows[i] != "how":
            continue
        nxt, rest = lows[i + 1], lows[i + 2 :]
        if nxt in _ASKED_DIMENSION:
            wanted = _ASKED_DIMENSION[nxt]
        elif nxt == "much" and any(w in _WEIGH for w in rest):
            wanted = _MASS
        elif nxt == "much" and any(w in _PAYING for w in rest) and not any(w in _ONE for w in lows):
            wanted = _MONEY
        elif nxt == "long" and any(w in _DURATION for w in rest):
            wanted = _TIME
        if wanted is not None:
            break
    if wanted is None:
        return None
    found: dict[str, str] = {}  # lemma -> the unit as first written
    for m in mentions:
        if m.unit is None:
            continue
        resolved = look.lookup(m.unit)
        if resolved is not None and resolved.dimension == wanted:
            found.setdefault(resolved.lemma, m.unit)
    return next(iter(found.values())) if len(found) == 1 else None
