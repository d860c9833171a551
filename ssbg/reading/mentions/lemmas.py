"""Lemmas: a noun's singular and whether a word is a plural noun, read with ``inflect``.

``inflect`` is imported on first use with typeguard's decorator made the identity (ADR 0012).
"""

from __future__ import annotations

import functools
from typing import Any

from ssbg.reading.mentions.tokens import _words
from ssbg.reading.mentions.vocabulary import _FUNCTION_WORDS


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


@functools.lru_cache(maxsize=4096)
def _invariant_plural(low: str) -> bool:
    """A noun whose plural is itself, so that it counts after any number (``3 fish``, ``12 sheep``).

    >>> _invariant_plural("fish"), _invariant_plural("take")
    (True, False)
    """
    if len(low) < 3 or low in _FUNCTION_WORDS or not low.isalpha():
        return False
    return bool(_inflect_engine().plural_noun(low) == low)


def _head_lemma(unit: str) -> str:
    """The lemma of a unit's last word (``book`` for ``story books``)."""
    return lemmatize(unit.rsplit(maxsplit=1)[-1])
