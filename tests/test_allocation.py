"""allocate_symbols: deterministic ids, collision suffixes, refusals."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ssbg.allocation import allocate_symbols, slugify
from ssbg.errors import BindingGraphError
from ssbg.model import SourceSpanLink, is_symbol_id

SPAN = SourceSpanLink("p", 0, 1, "x")


def alloc(phrases: Any, **kw: Any) -> tuple[str, ...]:
    fields: dict[str, Any] = {"source_span": SPAN, "introduced_by": "t", "semantic_role": "entity", "prefix": "ent"}
    fields.update(kw)
    return tuple(s.symbol_id for s in allocate_symbols(phrases, **fields))


def test_ids_follow_prefix_slug_index() -> None:
    assert alloc(["Alice", "Bob"]) == ("ent_alice_000", "ent_bob_000")


def test_collisions_get_increasing_suffixes_in_input_order() -> None:
    assert alloc(["Red apple", "red-apple", "RED APPLE"]) == (
        "ent_red_apple_000",
        "ent_red_apple_001",
        "ent_red_apple_002",
    )


@given(
    st.lists(
        st.text(alphabet="abcXYZ -_'é1", min_size=1, max_size=8).filter(lambda s: any(c.isalnum() for c in s)),
        min_size=1,
        max_size=8,
    )
)
def test_allocation_is_deterministic_and_ids_are_unique_identifiers(phrases: list[str]) -> None:
    first = alloc(phrases)
    assert first == alloc(list(phrases))
    assert len(set(first)) == len(first)
    assert all(is_symbol_id(i) for i in first)


@pytest.mark.parametrize(
    ("phrases", "kw", "reason"),
    [
        ([], {}, "allocation_refused"),
        ("Alice", {}, "allocation_refused"),
        ([""], {}, "allocation_refused"),
        (["   "], {}, "allocation_refused"),
        (["!!!"], {}, "allocation_refused"),
        ([3], {}, "allocation_refused"),
        (["a"], {"prefix": "Bad Prefix"}, "allocation_refused"),
        (["a"], {"prefix": "1x"}, "allocation_refused"),
        (["a"], {"semantic_role": "villain"}, "unknown_role"),
    ],
)
def test_refusals(phrases: Any, kw: dict[str, Any], reason: str) -> None:
    with pytest.raises(BindingGraphError) as info:
        alloc(phrases, **kw)
    assert info.value.reason == reason


def test_slugify_transliterates_and_collapses() -> None:
    assert slugify("  Café -- Crème ") == "cafe_creme"
    assert slugify("日本") == ""
