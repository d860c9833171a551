"""The words that name a unit (``$ per hour``: dollar, hour), memoized, and the empty word table."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType

from ssbg.reading.evidence import words

_NO_WORDS: Mapping[str, float] = MappingProxyType({})


@functools.lru_cache(maxsize=8192)
def _unit_words(unit: str | None, lemma: str | None) -> tuple[str, ...]:
    """The words that name a unit (``$ per hour`` and ``dollar_per_hour``: dollar, hour; memoized)."""
    out: list[str] = []
    for named in (unit, lemma):
        if named:
            for w in words(named.replace("_", " ")):
                if w not in out and w != "per":
                    out.append(w)
    return tuple(out)


@functools.lru_cache(maxsize=8192)
def _unit_set(unit: str | None, lemma: str | None) -> frozenset[str]:
    return frozenset(_unit_words(unit, lemma))
