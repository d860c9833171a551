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
    "VULGAR_FRACTIONS",
    "ProblemText",
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
    "read_problem_text",
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
_NOT_UNITS = frozenset(
    _words(
        """money time distance length width height weight amount number total cost price value sum difference rest
        remainder way speed rate area volume age profit income budget change balance"""
    )
)
_AUXILIARIES = frozenset(_words("are were is was will would do does did can could should must have has had"))
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
    result = _inflect_engine().singular_noun(last)
    if not isinstance(result, str) or result == last or len(result) < 3:
        return None
    if last.endswith(("is", "us", "ss")) and result == last[:-1]:
        return None  # "tennis", "bonus", "class": a final s that is no plural
    return head + sep + result


def is_plural_noun(word: str) -> bool:
    """True when ``inflect`` reads ``word`` as a plural noun (function words never are).

    >>> is_plural_noun("cookies"), is_plural_noun("salty"), is_plural_noun("was")
    (True, False, False)
    """
    return _singular(word.lower()) is not None


def lemmatize(word: str) -> str:
    """The singular lemma of a noun, lower-cased (``inflect``; memoized).

    >>> lemmatize("Children"), lemmatize("boxes"), lemmatize("sheep")
    ('child', 'box', 'sheep')
    """
    low = word.lower()
    return _singular(low) or low


def clear_lemma_cache() -> None:
    """Forget memoized lemmas, pack lookups, number values and token classifications (tests use this)."""
    _singular.cache_clear()
    _PACK_TEXTS.clear()
    _unit_heads.cache_clear()
    _STARTS_NUMBER.clear()
    _num_value.cache_clear()
    _look_back_cues.cache_clear()


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
        numerator = 1 if tok.low in _A else _SMALL[tok.low]
        if numerator == 0:
            return None
        return numerator / _DENOMINATORS[toks[i + 1].low], i + 2
    return None


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
        if k < n and toks[k].low in _DENOMINATORS and toks[k - 1].low in _SMALL and value < 20:
            return None  # "three fourths" is read by _fraction_word; never reached
        return _Number(value, start, k, "quantity")
    if toks[j].low in _A and j + 1 < n and toks[j + 1].low in ("dozen", "pair", "couple"):
        if toks[j + 1].low == "couple":
            return _Number(2, start, j + 2, "quantity") if j + 2 < n and toks[j + 2].low == "of" else None
        return _Number(1, start, j + 1, "quantity")
    return None


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
    toks: Sequence[Token], j: int, value: float | int, *, plural_only: bool = False
) -> tuple[int, int] | None:
    """Index of the head noun after a number (skipping modifiers) and the next index.

    The first plural noun of the next few words; failing that (unless
    ``plural_only``), a lone word or the head of a two-word run after a ``1``.
    """
    n = len(toks)
    k = j
    skipped = 0
    while k < n and toks[k].low in _MODIFIERS and skipped < 2:
        k += 1
        skipped += 1
    run: list[int] = []
    while k < n and len(run) < 3 and toks[k].kind == "word" and toks[k].low not in _FUNCTION_WORDS:
        if toks[k].low.endswith(("'s", "\u2019s", "s'")) and k + 1 < n and toks[k + 1].kind == "word":
            k += 1  # "four children's tickets": the possessor is not the unit
            continue
        run.append(k)
        k += 1
    for idx in run:
        if toks[idx].text[0].isupper() and idx != run[0]:
            break
        if is_plural_noun(toks[idx].text):
            return (idx, idx + 1) if toks[idx].low not in _NOT_UNITS else None
    if plural_only or not run or any(toks[idx].low in _NOT_UNITS for idx in run):
        return None
    if value == 1 or len(run) == 1:
        head = run[-1] if len(run) <= 2 else run[0]
        if toks[head].text[0].isupper() and len(toks[head].text) > 1 and not toks[head].text.isupper():
            return None  # a name, not a unit
        return head, head + 1
    return None


def _noun_at(toks: Sequence[Token], j: int) -> int | None:
    """The index of the content word at ``j`` (after modifiers: ``each additional minute``), or None."""
    n = len(toks)
    while j + 1 < n and toks[j].low in _MODIFIERS and toks[j + 1].kind == "word":
        j += 1
    low = toks[j].low if j < n else ""
    if (
        j < n
        and toks[j].kind == "word"
        and (low not in _FUNCTION_WORDS or low == "time")
        and low not in _SMALL
        and low not in _TENS
    ):
        return j
    return None


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


def _noun_rate(toks: Sequence[Token], j: int) -> _Rate:
    """The rate whose ``Y`` is the content word at ``j`` (after modifiers)."""
    head = _noun_at(toks, j)
    return None if head is None else (toks[head].text, head + 1)


def _rate_of(toks: Sequence[Token], k: int, look: _PackTexts) -> _Rate:
    """``2 cups of vegetables per day``, ``3 bags of apples each``: a rate after the noun ``of`` names."""
    n = len(toks)
    if k + 1 >= n or toks[k + 1].kind != "word" or toks[k + 1].low in _FUNCTION_WORDS:
        return None
    for j in (k + 2, k + 3):
        if j < n and toks[j].kind == "word" and toks[j].low in ("per", "each", "every", "a", "an"):
            return _rate_suffix(toks, j, look)
        if j >= n or toks[j].kind != "word" or toks[j].low in _FUNCTION_WORDS:
            break
    return None


def _rate_per(toks: Sequence[Token], k: int, look: _PackTexts) -> _Rate:
    """``per hour``, ``per a day``, ``per each box``."""
    if k + 1 >= len(toks):
        return None
    return _noun_rate(toks, k + 2 if toks[k + 1].low in _A or toks[k + 1].low == "each" else k + 1)


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
    """``in each Y``, ``for every Y``, ``at per Y``: a preposition before the rate word."""
    n = len(toks)
    if k + 1 < n and toks[k + 1].low in ("each", "every", "per"):
        return _noun_rate(toks, k + 2)
    return None


def _rate_to(toks: Sequence[Token], k: int, look: _PackTexts) -> _Rate:
    """``to each Y`` (a preposition), or ``4 hours to install each window``: a verb between."""
    n = len(toks)
    if k + 1 < n and toks[k + 1].low in ("each", "every", "per"):
        return _noun_rate(toks, k + 2)
    if k + 2 < n and toks[k + 1].kind == "word" and toks[k + 2].low in ("each", "every"):
        return _noun_rate(toks, k + 3)
    return None


# The word after a unit -> how a rate reads from it.
_RATE_WORDS: Mapping[str, Callable[[Sequence[Token], int, _PackTexts], _Rate]] = MappingProxyType(
    {
        "of": _rate_of,
        "per": _rate_per,
        **dict.fromkeys(_A, _rate_a),
        **dict.fromkeys(("each", "apiece", "every"), _rate_each),
        **dict.fromkeys(_RATE_PREPOSITIONS - {"to"}, _rate_in_each),
        "to": _rate_to,
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

    ``each of ...`` is not read: in "each of the 6 lambs" the number is the group itself.
    """
    k = i - 1
    listed = i > 0 and toks[i - 1].low in ("and", ",")  # "6 parrots and 2 parakeets": one list
    while k >= 0:
        tok = toks[k]
        if tok.text in _SENTENCE_END:
            return None
        if tok.kind == "num":
            if not listed:
                return None
            listed = False
        elif tok.low in ("each", "every") and k + 1 < i:
            j = k + 1
            while j < i - 1 and toks[j].low in _MODIFIERS:
                j += 1  # "each additional minute"
            nxt = toks[j]
            if nxt.kind == "word" and nxt.low not in _FUNCTION_WORDS:
                return j
            return None
        k -= 1
    return None


_PERIODIC = {
    "hourly": "hour", "daily": "day", "nightly": "night", "weekly": "week", "monthly": "month",
    "yearly": "year", "annual": "year", "annually": "year",
}  # fmt: skip


_PRICE_VERBS = frozenset(_words("cost costs is was are were for at sells sell priced"))


def _price_before(toks: Sequence[Token], i: int, look: _PackTexts) -> str | None:
    """The ``Y`` of a price: ``Cappuccinos cost $2``, ``a pair of shoes which costs $50``,
    ``the cost of a kilogram is $2``: ``a Y`` before the verb when Y is a pack unit or follows
    ``cost of``/``price of``, else a plural subject; no number between."""
    k = i - 1
    if k < 0 or toks[k].low not in _PRICE_VERBS:
        return None
    for j in range(k - 1, max(-1, k - 7), -1):
        tok = toks[j]
        if tok.kind == "num" or tok.text in _SENTENCE_END or tok.low in _SMALL:
            break
        if tok.low in _A and j + 1 < k and toks[j + 1].kind == "word" and toks[j + 1].low not in _FUNCTION_WORDS:
            unit_noun = look.lookup(toks[j + 1].text) is not None
            priced = j >= 2 and toks[j - 1].low == "of" and toks[j - 2].low in ("cost", "price")
            # "a pair of shoes costs $50", "the price of a ticket is $5" (but "a trumpet for $149" is one purchase)
            return toks[j + 1].text if unit_noun or priced else None
    subject = k - 1
    if subject >= 0 and toks[subject].low in ("which", "that"):
        subject -= 1
    if subject >= 0 and toks[subject].kind == "word" and is_plural_noun(toks[subject].text):
        before = toks[subject - 1] if subject > 0 else None
        if before is None or (before.kind != "num" and before.low not in _SMALL and before.low not in _TENS):
            return lemmatize(toks[subject].text)  # "iced teas cost $3"
    return None


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
            return period
        k -= 1
    return None


_PERCENT_UNITS = frozenset({"%", "percent", "per cent", "pct"})  # the units a percentage is written with


def _container_before(toks: Sequence[Token], i: int) -> str | None:
    """The container of ``bags of 5 apples`` / ``groups of 2``: a count noun right before ``of N``."""
    if i < 2 or toks[i - 1].low != "of":
        return None
    noun = toks[i - 2]
    if noun.kind != "word" or noun.low in _FUNCTION_WORDS or noun.low in _NOT_UNITS:
        return None
    if is_plural_noun(noun.text):  # "cases of 12 boxes" (but "a group of 12 adults" is one group)
        return lemmatize(noun.text)
    return None


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
    return _rate_of_unit(toks, written.unit, written.next, text, look, currency, container, clause_start)


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
        if k + 1 < n and toks[k + 1].low in _MULTIPLIER_FOLLOWERS:
            return _Unit(None, k + 1, "multiplier")
        return _Unit(tok.text, k + 1)
    return None


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
    head = _noun_run(toks, start, value, plural_only=kind_hint == "fraction")
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
) -> tuple[str, int, str]:
    """A unit read at ``k`` made a rate, in this order: by a container before the number (``cases of 12
    boxes``), a rate after it (:func:`_rate_suffix`), a rate closing its list, a rate earlier in its
    clause (:func:`_clause_rate`); else the unit as it is."""
    if container is not None and lemmatize(container) != _head_lemma(unit) and " per " not in unit:
        return f"{unit} per {container}", k, "quantity"  # "cases of 12 boxes": 12 boxes per case
    compound = _compound_noun(toks, k, unit, look, currency)
    if compound is not None:
        return f"{unit} per {compound[0]}", compound[1], "quantity"
    rate = _rate_suffix(toks, k, look)
    if rate is not None:
        return f"{unit} per {rate[0]}", rate[1], "quantity"
    per = _rate_after_list(toks, k, look)
    if per is None and clause_start is not None and unit not in _PERCENT_UNITS:
        per = _clause_rate(toks, text, unit, look, currency, clause_start)
    if per is None and unit not in _PERCENT_UNITS:
        per = _rate_later(toks, k, look)
    if per is not None and lemmatize(per) == _head_lemma(unit):
        per = None
    return (unit, k, "quantity") if per is None else (f"{unit} per {per}", k, "quantity")


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
    tok = toks[k]
    if tok.kind != "word" or tok.low in _FUNCTION_WORDS or tok.low in _NOT_UNITS or not is_plural_noun(tok.text):
        return None
    if currency is None:
        hit = look.lookup(unit)
        if hit is None or hit.dimension == _COUNT or hit.is_rate or _singular(unit.rsplit(maxsplit=1)[-1]):
            return None  # a count, a rate, or a plural unit ("3 pounds apples" is not a compound)
    measure = look.lookup(tok.text)
    if measure is not None and measure.dimension != _COUNT:
        return None  # "5 feet inches": two measures
    return lemmatize(tok.text), k + 1


def _clause_rate(
    toks: Sequence[Token], text: str, unit: str, look: _PackTexts, currency: str | None, clause_start: int
) -> str | None:
    """The ``Y`` a clause sets before its number: an earlier ``each Y`` (``Each book shelf had 15 books``:
    the compound's head), a rate word (``a daily budget of``), or for money a price (``Cappuccinos cost``);
    never the unit itself."""
    cues = _look_back_cues(text)  # most texts have no cue word: their tokens are not scanned back
    at = _each_before(toks, clause_start) if cues.each else None
    each = None if at is None else toks[at].text
    if at is not None and at + 1 < clause_start and lemmatize(toks[at].text) == _head_lemma(unit):
        after = toks[at + 1]  # "Each book shelf had 15 books": the compound's head
        each = after.text if after.kind == "word" and after.low not in _FUNCTION_WORDS else None
    if each is None and cues.periodic:
        each = _periodic_before(toks, clause_start)
    if each is None and currency is not None:
        each = _price_before(toks, clause_start, look)
    if each is None:
        each = _bearer_before(toks, clause_start, look) or _relative_bearer(toks, clause_start)
    return each if each is not None and lemmatize(each) != _head_lemma(unit) else None


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
            head = _noun_at(toks, j + 1)
            if head is None or head >= k or toks[head].low in _NOT_UNITS:
                return None
            period = _period(look, toks[head].text)
            if period is not None:
                return period
            if tok.low not in ("each", "every") and lemmatize(toks[head].text) not in _counted_nouns(toks):
                return None
            return toks[head].text
    return None


def _counted_nouns(toks: Sequence[Token]) -> frozenset[str]:
    """The lemmas of the nouns a text counts: after a number (a modifier between), ``how many``, ``each``,
    ``every`` or ``per`` (memoized by the tokens' identity for the text being read)."""
    key = id(toks)
    found = _COUNTED.get(key)
    if found is not None and found[0] is toks:
        return found[1]
    nouns: set[str] = set()
    n = len(toks)
    for i, tok in enumerate(toks):
        counting = tok.kind == "num" or tok.low in _SMALL or tok.low in _TENS or tok.low in ("each", "every", "per")
        if not counting and not (tok.low == "many" and i > 0 and toks[i - 1].low == "how"):
            continue
        j = i + 1
        while j < n and toks[j].low in _MODIFIERS:
            j += 1
        if j < n and toks[j].kind == "word" and toks[j].low not in _FUNCTION_WORDS:
            nouns.add(lemmatize(toks[j].text))
            if j + 1 < n and toks[j + 1].kind == "word" and toks[j + 1].low not in _FUNCTION_WORDS:
                nouns.add(lemmatize(toks[j + 1].text))  # "3 chocolate bars"
    result = frozenset(nouns)
    _COUNTED.clear()
    _COUNTED[key] = (toks, result)
    return result


_COUNTED: dict[int, tuple[Sequence[Token], frozenset[str]]] = {}


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


_EACH_CUES = ("each", "every")


@functools.lru_cache(maxsize=16)
def _look_back_cues(text: str) -> _Cues:
    """Which look-back rules may apply in ``text`` (memoized: every number of a text asks).

    A token's lower-cased text is a substring of the lower-cased text, so a cue word missing from the
    latter is in no token: :func:`_each_before` and :func:`_periodic_before` need not scan for it.
    """
    low = text.lower()
    return _Cues(any(map(low.__contains__, _EACH_CUES)), any(map(low.__contains__, _PERIODIC)))


_NUMBER_WORDS = frozenset({*_SMALL, *_TENS, *_DENOMINATORS})
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
    return low in _CURRENCY_SYMBOLS or low.partition("-")[0] in _NUMBER_OR_A


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
            unit = _elided_unit(toks, i, k, out, look)
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
    toks: Sequence[Token], i: int, k: int, before: Sequence[Mention], look: _PackTexts
) -> str | None:
    """The unit a bare number (tokens ``i`` to ``k``) leaves to its sentence: ``7 more than 4 times the
    number of Oreos`` (the noun the comparison names), ``12 of them`` and ``5 more than Sam`` (the unit
    of the nearest quantity before, in this sentence or the one before; not a rate or a percentage).
    ``the 3 of them`` / ``all 3 of them`` are the persons of the story, not things: no unit."""
    n = len(toks)
    if k + 1 >= n:
        return None
    first, second = toks[k].low, toks[k + 1].low
    if first in _COMPARATIVES and second == "than":
        for j in range(k + 2, min(n - 2, k + 12)):
            if toks[j].text in _SENTENCE_END or toks[j].text == ",":
                break
            if toks[j].low in ("number", "amount") and toks[j + 1].low == "of" and toks[j + 2].kind == "word":
                noun = toks[j + 2].text
                if is_plural_noun(noun) or look.lookup(noun) is not None:
                    return noun
                break
    elif first == "of" and second == "them":
        if i > 0 and toks[i - 1].low in ("the", "all"):
            return None
    elif not _ends_clause(toks, i, k):
        return None
    return _unit_before(toks, k, before, look, partitive=first == "of" or first not in _COMPARATIVES)


def _unit_before(
    toks: Sequence[Token], k: int, before: Sequence[Mention], look: _PackTexts, *, partitive: bool
) -> str | None:
    """The unit of the nearest quantity before token ``k``, in its sentence or the one before: for a
    ``partitive`` reading ("12 of them", "Carla caught 8") a thing counted, the ``Y`` of a rate per thing
    included ("2-pound packages ... 3 of them" are packages); never a percentage."""
    ends = [t.end for t in toks[:k] if t.text in _SENTENCE_END]
    since = ends[-2] if len(ends) >= 2 else 0
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
    """A plural count noun (``students``, ``boxes``), not a measure (``hours``, ``$``, ``pound``)."""
    if not is_plural_noun(unit.rsplit(maxsplit=1)[-1]):
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


class ProblemText(NamedTuple):
    """What a reader takes from a problem's text: its mentions and its question's answer unit."""

    mentions: tuple[Mention, ...]
    answer_unit: str | None


def read_problem_text(
    text: str, question_span: tuple[int, int] | None, *, pack: UnitPack | None = None
) -> ProblemText:
    """The mentions of ``text`` and the unit its question (``question_span``) states or asks, from one
    tokenization: what every corpus reader reads before grounding a solution.

    >>> text = "Sam ran 3 miles. How far did he run?"
    >>> read_problem_text(text, (17, len(text)))
    ProblemText(mentions=(Mention(start=8, end=15, text='3 miles', value=3, unit='miles', lemma='mile', \
kind='quantity', source='text', alt_unit=None),), answer_unit='miles')
    """
    toks = tokenize(text)
    mentions = extract_mentions(text, pack=pack, tokens=toks)
    if question_span is None:
        return ProblemText(mentions, None)
    return ProblemText(mentions, question_unit(text, *question_span, pack=pack, tokens=toks, mentions=mentions))


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
    head = _noun_run(toks, j, 2)
    return None if head is None else (toks[head[0]].text, head[1])


def _with_question_rate(toks: Sequence[Token], unit: str, k: int, look: _PackTexts) -> str:
    """``unit`` with the rate the rest of its clause writes (``miles per hour``), else ``unit``."""
    n = len(toks)
    for m in range(k, n):
        if toks[m].low in _CLAUSE_OPENERS:
            break  # "pounds of hamburger that costs 1.60 dollars per pound", "if each pig needs 3 gallons"
        if toks[m].low == "each" and m + 1 < n and toks[m + 1].low == "of":
            continue  # "will each of you have saved": each person, not a rate
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
