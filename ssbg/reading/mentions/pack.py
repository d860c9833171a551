"""The unit pack as the rules read it: memoized lookups, unit lemmas, a unit the pack lists after a
number, and the periods (``day``, ``week``) a rate may be per.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ssbg.reading.mentions.lemmas import lemmatize
from ssbg.reading.mentions.tokens import Token, _words
from ssbg.reading.mentions.vocabulary import _FUNCTION_WORDS, _STOPS, _TIME
from ssbg.units import DIMENSIONLESS, ResolvedUnit, UnitPack, default_pack


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


# Words of a part of a day: "every morning" is once a day.
_DAY_PARTS = frozenset(_words("morning mornings evening evenings afternoon afternoons night nights weekday weekdays"))


def _period(look: _PackTexts, word: str) -> str | None:
    """A word naming a period of time as a rate's ``Y`` (``day``, ``week``; ``morning`` is a day)."""
    if word.lower() in _DAY_PARTS:
        return "day"
    hit = look.lookup(word)
    return word if hit is not None and hit.dimension == _TIME and hit.denominator == DIMENSIONLESS else None
