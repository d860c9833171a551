"""The one way to forget the memos of every room (:func:`clear_lemma_cache`; tests use it)."""

from __future__ import annotations

from ssbg.reading.mentions.context_rates import _look_back_cues, _names_persons
from ssbg.reading.mentions.lemmas import _singular
from ssbg.reading.mentions.nouns import _COUNTED
from ssbg.reading.mentions.numbers import _STARTS_NUMBER, _num_value
from ssbg.reading.mentions.pack import _PACK_TEXTS, _unit_heads
from ssbg.reading.mentions.periods import _PERIODS
from ssbg.reading.mentions.prices import _LOTS


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
