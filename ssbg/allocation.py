"""Deterministic symbol allocation (ADR-0132).

Symbol ids follow ``{prefix}_{slug}_{index:03d}``; equal slugs are told apart by
the index, counted per slug in input order, so the same input always gives the
same, byte-equal output.

Examples
--------
>>> from ssbg.model import SourceSpanLink
>>> span = SourceSpanLink("p", 0, 6, "apples")
>>> [s.symbol_id for s in allocate_symbols(["red apple", "Red apple!", "pear"],
...     source_span=span, introduced_by="doc", semantic_role="quantity", prefix="q")]
['q_red_apple_000', 'q_red_apple_001', 'q_pear_000']
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable

from ssbg.errors import BindingGraphError
from ssbg.model import SEMANTIC_ROLES, SourceSpanLink, SymbolBinding, is_symbol_id

__all__ = ["allocate_symbols", "slugify"]

_NON_WORD = re.compile(r"[^a-z0-9]+")


def slugify(text: str) -> str:
    """Lower-case ASCII slug of ``text``: runs of other characters become ``_``.

    Returns ``""`` when nothing alphanumeric is left.

    >>> slugify("Mr. O'Neil's  café")
    'mr_o_neil_s_cafe'
    """
    if type(text) is not str:  # checked before the memo hashes it
        raise BindingGraphError(
            f"'text' must be a str (got {type(text).__name__})", reason="invalid_field", path="text",
            detail=repr(text)[:80],
        )
    return _slugify(text)


@functools.lru_cache(maxsize=1 << 14)
def _slugify(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return _NON_WORD.sub("_", ascii_text.lower()).strip("_")


def _refuse(message: str, path: str, detail: object) -> BindingGraphError:
    return BindingGraphError(message, reason="allocation_refused", path=path, detail=repr(detail))


def allocate_symbols(
    noun_phrases: Iterable[str],
    *,
    source_span: SourceSpanLink,
    introduced_by: str,
    semantic_role: str,
    prefix: str,
) -> tuple[SymbolBinding, ...]:
    """Allocate one :class:`SymbolBinding` per noun phrase, deterministically.

    Refuses (``BindingGraphError`` with reason ``allocation_refused`` or the
    model's own reason) an empty phrase list, a phrase that is not a non-empty
    string or has no alphanumeric character, a prefix that is not a lower-case
    identifier, and anything the model itself refuses.
    """
    if isinstance(noun_phrases, str | bytes) or not isinstance(noun_phrases, Iterable):
        raise _refuse("'noun_phrases' must be an iterable of str", "noun_phrases", noun_phrases)
    phrases = tuple(noun_phrases)
    if not phrases:
        raise _refuse("'noun_phrases' must not be empty", "noun_phrases", phrases)
    if not (isinstance(prefix, str) and prefix == slugify(prefix) and is_symbol_id(prefix)):
        raise _refuse(f"'prefix' must be a lower-case identifier slug (got {prefix!r})", "prefix", prefix)
    if type(semantic_role) is not str or semantic_role not in SEMANTIC_ROLES:
        raise BindingGraphError(
            f"'semantic_role' must be one of {sorted(SEMANTIC_ROLES)} (got {semantic_role!r})",
            reason="unknown_role",
            path="semantic_role",
            detail=repr(semantic_role),
        )
    counts: dict[str, int] = {}
    out: list[SymbolBinding] = []
    for i, phrase in enumerate(phrases):
        path = f"noun_phrases[{i}]"
        if not isinstance(phrase, str) or not phrase.strip():
            raise _refuse(f"'{path}' must be a non-empty str (got {phrase!r})", path, phrase)
        slug = slugify(phrase)
        if not slug:
            raise _refuse(f"'{path}' has no letter or digit to name a symbol (got {phrase!r})", path, phrase)
        index = counts.get(slug, 0)
        counts[slug] = index + 1
        out.append(
            SymbolBinding(
                symbol_id=f"{prefix}_{slug}_{index:03d}",
                name=phrase.strip(),
                semantic_role=semantic_role,
                source_span=source_span,
                introduced_by=introduced_by,
            )
        )
    return tuple(out)
