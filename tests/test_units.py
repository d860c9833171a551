"""ADR-0134 unit algebra: laws, canonical strings, closed-pack parsing."""

from __future__ import annotations

import builtins
import contextlib
import io
import pathlib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ssbg.errors import UnitAlgebraError
from ssbg.units import (
    BASE_DIMENSIONS,
    DIMENSIONLESS,
    UnitVector,
    clear_pack_cache,
    default_pack,
    parse_unit,
    resolve_unit,
    unit_inverse,
    unit_power,
    unit_product,
    unit_quotient,
    units_equal,
)

exponent = st.integers(min_value=-4, max_value=4)
vectors = st.builds(UnitVector, exponent, exponent, exponent, exponent, exponent, exponent)


def test_base_dimensions_are_fixed() -> None:
    assert BASE_DIMENSIONS == ("length", "time", "mass", "money", "count", "temperature")
    assert UnitVector._fields == BASE_DIMENSIONS


@given(vectors, vectors)
def test_product_commutes(a: UnitVector, b: UnitVector) -> None:
    assert unit_product(a, b) == unit_product(b, a)
    assert unit_product(a, b).to_canonical_string() == unit_product(b, a).to_canonical_string()


@given(vectors, vectors, vectors)
def test_product_associates(a: UnitVector, b: UnitVector, c: UnitVector) -> None:
    assert unit_product(unit_product(a, b), c) == unit_product(a, unit_product(b, c))


@given(vectors)
def test_dimensionless_is_the_identity(a: UnitVector) -> None:
    assert unit_product(a, DIMENSIONLESS) == a


@given(vectors)
def test_inverse_is_an_involution(a: UnitVector) -> None:
    assert unit_inverse(unit_inverse(a)) == a


@given(vectors)
def test_quotient_cancels(a: UnitVector) -> None:
    assert unit_quotient(a, a) == DIMENSIONLESS


@given(vectors, vectors)
def test_quotient_is_product_with_inverse(a: UnitVector, b: UnitVector) -> None:
    assert unit_quotient(a, b) == unit_product(a, unit_inverse(b))
    assert a / b == unit_quotient(a, b)
    assert a * b == unit_product(a, b)


@given(vectors, st.integers(-3, 3))
def test_power_is_repeated_product(a: UnitVector, n: int) -> None:
    expected = DIMENSIONLESS
    for _ in range(abs(n)):
        expected = unit_product(expected, a if n > 0 else unit_inverse(a))
    assert unit_power(a, n) == expected


@given(vectors, vectors)
def test_equality_is_symmetric(a: UnitVector, b: UnitVector) -> None:
    assert units_equal(a, b) == units_equal(b, a) == (a == b)


@given(vectors)
def test_canonical_string_is_injective_on_a_sample(a: UnitVector) -> None:
    text = a.to_canonical_string()
    assert (text == "dimensionless") == a.is_dimensionless
    assert "/" not in text or text.count("/") == 1


@pytest.mark.parametrize(
    ("vector", "text"),
    [
        (UnitVector(), "dimensionless"),
        (UnitVector(money=1), "money"),
        (UnitVector(money=1, time=-1), "money/time"),
        (UnitVector(time=-1), "1/time"),
        (UnitVector(length=3), "length^3"),
        (UnitVector(length=-2), "1/length^2"),
        (UnitVector(money=1, time=-1, count=-1), "money/time*count"),
        (UnitVector(length=1, mass=1, time=-2), "length*mass/time^2"),
    ],
)
def test_vector_canonical_strings(vector: UnitVector, text: str) -> None:
    assert vector.to_canonical_string() == text
    assert str(vector) == text


@pytest.mark.parametrize("bad", [(0, 0, 0, 0, 0, 0), "money", 3, None])
def test_algebra_refuses_non_vectors(bad: Any) -> None:
    with pytest.raises(UnitAlgebraError) as info:
        unit_product(bad, DIMENSIONLESS)
    assert info.value.reason == "malformed_unit"


def test_power_refuses_a_non_int_exponent() -> None:
    with pytest.raises(UnitAlgebraError):
        unit_power(DIMENSIONLESS, 1.5)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("dollar", "money"),
        ("dollars", "money"),
        ("$", "money"),
        ("cents", "money"),
        ("¢", "money"),
        ("feet", "length"),
        ("foot", "length"),
        ("ft", "length"),
        ("inches", "length"),
        ("km", "length"),
        ("people", "count"),
        ("children", "count"),
        ("geese", "count"),
        ("knives", "count"),
        ("boxes", "count"),
        ("batches", "count"),
        ("dozen", "count"),
        ("hours", "time"),
        ("hrs", "time"),
        ("centuries", "time"),
        ("pounds", "mass"),
        ("kg", "mass"),
        ("cups", "length^3"),
        ("gallons", "length^3"),
        ("liters", "length^3"),
        ("square feet", "length^2"),
        ("Square  Feet", "length^2"),
        ("sq ft", "length^2"),
        ("acres", "length^2"),
        ("mph", "length/time"),
        ("miles per hour", "length/time"),
        ("km/h", "length/time"),
        ("%", "dimensionless"),
        ("percent", "dimensionless"),
        ("three-quarters", "dimensionless"),
        ("Fahrenheit", "temperature"),
        ("°C", "temperature"),
        ("hertz", "1/time"),
        ("dollars_per_hour", "money/time"),
        ("dollar_per_item", "money/count"),
        ("pound_per_cubic_foot", "mass/length^3"),
        ("dollars per hour", "money/time"),
        ("cents_per_minute", "money/time"),
        ("feet_per_second", "length/time"),
        ("miles_per_gallon", "1/length^2"),
        ("dollar_per_hour_per_day", "money/time^2"),
    ],
)
def test_parse_unit_resolves_pack_units(text: str, expected: str) -> None:
    assert parse_unit(text).to_canonical_string() == expected


@pytest.mark.parametrize(
    "text",
    [
        "apples",
        "widgets",
        "clips",
        "glasses",
        "dollars_per_apple",
        "apple_per_hour",
        "per",
        "_per_",
        "dollars per",
        "smoots",
        "ftt",
    ],
)
def test_open_nouns_and_unknowns_refuse(text: str) -> None:
    with pytest.raises(UnitAlgebraError) as info:
        parse_unit(text)
    assert info.value.reason == "unknown_unit"
    assert info.value.message.startswith("unknown_unit: ")


@pytest.mark.parametrize("text", ["", "   ", "x" * 500])
def test_malformed_unit_text_refuses(text: str) -> None:
    with pytest.raises(UnitAlgebraError) as info:
        parse_unit(text)
    assert info.value.reason == "malformed_unit"


@pytest.mark.parametrize("bad", [None, 3, b"dollars", ["dollars"]])
def test_non_string_unit_refuses(bad: Any) -> None:
    with pytest.raises(UnitAlgebraError) as info:
        parse_unit(bad)
    assert info.value.reason == "malformed_unit"


@pytest.mark.parametrize(
    ("text", "via", "lemma"),
    [
        ("foot", "lemma", "foot"),
        ("feet", "surface", "foot"),
        ("ft", "surface", "foot"),
        ("dollars_per_apple_x", None, None),
        ("dollars_per_hour", "surface", "dollar_per_hour"),
        ("cents_per_minute", "composite", "cent_per_minute"),
        ("crates", "surface", "crate"),
        ("dozens", "surface", "dozen"),
        ("Boxes", "surface", "box"),
    ],
)
def test_resolution_path(text: str, via: str | None, lemma: str | None) -> None:
    if via is None:
        with pytest.raises(UnitAlgebraError):
            resolve_unit(text)
        return
    resolved = resolve_unit(text)
    assert (resolved.via, resolved.lemma) == (via, lemma)


def test_ratios_are_exact_rationals() -> None:
    from fractions import Fraction

    assert resolve_unit("hour").ratio == Fraction(60)
    assert resolve_unit("inch").ratio == Fraction(1, 12)
    assert resolve_unit("dollars_per_hour").ratio == Fraction(5, 3)
    assert resolve_unit("cents_per_minute").ratio == Fraction(1)
    assert resolve_unit("box").ratio is None
    assert resolve_unit("euro").ratio is None


def test_rate_parts() -> None:
    r = resolve_unit("item_per_box")
    assert r.is_rate
    assert (r.numerator, r.denominator) == (UnitVector(count=1), UnitVector(count=1))
    assert r.dimension == DIMENSIONLESS
    assert resolve_unit("mph").denominator == UnitVector(time=1)
    assert not resolve_unit("dollar").is_rate


def test_no_io_after_the_first_lookup(monkeypatch: pytest.MonkeyPatch) -> None:
    clear_pack_cache()
    parse_unit("dollars")  # warm-up reads the pack once

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("I/O after warm-up")

    monkeypatch.setattr(builtins, "open", refuse)
    monkeypatch.setattr(io, "open", refuse)
    monkeypatch.setattr(pathlib.Path, "read_bytes", refuse)
    monkeypatch.setattr(pathlib.Path, "read_text", refuse)
    for text in ("feet", "dollars_per_hour", "apples_x", "square feet", "people"):
        with contextlib.suppress(UnitAlgebraError):
            parse_unit(text)
    assert parse_unit("hours") == UnitVector(time=1)


def test_default_pack_is_memoized_and_clearable() -> None:
    first = default_pack()
    assert default_pack() is first
    clear_pack_cache()
    second = default_pack()
    assert second is not first
    assert second == first


def test_pack_tables_are_read_only() -> None:
    pack = default_pack()
    with pytest.raises(TypeError):
        pack.entries["x"] = pack.entries["foot"]  # type: ignore[index]


def test_completions() -> None:
    hits = default_pack().completions("squ")
    assert "square_foot" in hits
    assert hits == tuple(sorted(hits))
    assert len(default_pack().completions("", limit=5)) == 5


def test_depluralization_is_conservative_and_closed() -> None:
    assert resolve_unit("containers").lemma == "container"
    assert resolve_unit("bunches").lemma == "bunch"
    assert resolve_unit("centuries").lemma == "century"
    with pytest.raises(UnitAlgebraError):
        resolve_unit("glass")  # nothing to strip and not in the pack


@pytest.mark.parametrize(
    ("text", "lemma", "dimension"),
    [
        ("hours_per_miles_per_hour", "hour_per_mile_per_hour", "time^2/length"),
        ("dollar_per_hour_per_day", "dollar_per_hour_per_day", "money/time^2"),
        ("miles per hour per second", "mile_per_hour_per_second", "length/time^2"),
        ("minutes_per_mph", "minute_per_mile_per_hour", "time^2/length"),
    ],
)
def test_a_listed_unit_is_never_split(text: str, lemma: str, dimension: str) -> None:
    resolved = resolve_unit(text)
    assert (resolved.lemma, resolved.dimension.to_canonical_string()) == (lemma, dimension)


@pytest.mark.parametrize("text", ["hours", "$ per hour", "square feet", "miles_per_hour", "apples", "  ", "x" * 300])
def test_lookup_gives_what_resolve_gives(text: str) -> None:
    pack = default_pack()
    hit = pack.lookup(text)
    try:
        resolved = pack.resolve(text)
    except UnitAlgebraError as exc:
        assert hit == exc.reason
    else:
        assert hit == resolved


@pytest.mark.parametrize("text", [None, 3, ["hours"]])
def test_lookup_of_a_non_string_is_malformed(text: object) -> None:
    assert default_pack().lookup(text) == "malformed_unit"
