"""The number seam (ssbg.numbers, ssbg.jsontext): every number that enters is read one way, within bounds.

Property tests attack the parser with generated text and JSON values; regression tests pin the
measured failures of issue 17 (a 400-digit number, ``1e400``, ``NaN``, an integer past Python's digit
limit, a pack ratio of ``1e99999999``).
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ssbg import jsontext
from ssbg.errors import NUMBER_REASONS, NumberError
from ssbg.numbers import (
    MAX_MAGNITUDE,
    MAX_NUMBER_CHARS,
    check_json_number,
    check_magnitude,
    number_or_none,
    parse_number,
    parse_ratio,
)
from tests.strategies import hostile_json, seam_settings
from tests.work import peak_bytes

NUMBER_TEXT = st.one_of(
    st.text(max_size=80),
    st.from_regex(r"[+-]?[0-9,]{0,90}(\.[0-9]{0,20})?([eE][+-]?[0-9]{1,10})?", fullmatch=True),
    st.sampled_from(["nan", "NaN", "inf", "-Infinity", "1e400", "9" * 400, "1_000", " 12 ", "24.", ".5", "1,000"]),
)


@seam_settings(300)
@given(NUMBER_TEXT)
def test_parse_number_gives_a_bounded_float_or_a_typed_refusal(text: str) -> None:
    try:
        value = parse_number(text, field="f")
    except NumberError as exc:
        assert (exc.reason in NUMBER_REASONS, exc.path) == (True, "f")
    else:
        assert type(value) is float
        assert math.isfinite(value)
        assert abs(value) <= MAX_MAGNITUDE


@seam_settings(200)
@given(st.floats(min_value=-MAX_MAGNITUDE, max_value=MAX_MAGNITUDE, allow_nan=False))
def test_parse_number_reads_back_what_repr_writes(value: float) -> None:
    assert parse_number(repr(value)) == value


@seam_settings(200)
@given(NUMBER_TEXT)
def test_number_or_none_is_parse_number_with_none_for_what_is_no_number(text: str) -> None:
    try:
        expected: float | str | None = parse_number(text)
    except NumberError as exc:
        expected = None if exc.reason == "not_a_number" else "out of range"
    try:
        got: float | str | None = number_or_none(text)
    except NumberError as exc:
        assert exc.reason == "number_out_of_range"
        got = "out of range"
    assert got == expected


@seam_settings(300)
@given(hostile_json)
def test_check_json_number_admits_only_bounded_ints_and_floats(value: object) -> None:
    try:
        got = check_json_number(value, field="$.x")
    except NumberError as exc:
        assert exc.path == "$.x"
        assert exc.reason == ("number_out_of_range" if type(value) in (int, float) else "not_a_number")
    else:
        assert got is value
        assert type(value) in (int, float)
        assert abs(value) <= MAX_MAGNITUDE


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("9" * 400, "number_out_of_range"),
        ("1e400", "number_out_of_range"),
        ("NaN", "number_out_of_range"),
        ("-inf", "number_out_of_range"),
        ("1" * (MAX_NUMBER_CHARS + 1), "number_out_of_range"),
        ("1e16", "number_out_of_range"),
        ("20..", "not_a_number"),
        ("a dozen", "not_a_number"),
        ("", "not_a_number"),
    ],
)
def test_measured_failures_are_typed_refusals(text: str, reason: str) -> None:
    with pytest.raises(NumberError) as info:
        parse_number(text, field="Answer")
    assert (info.value.reason, info.value.path) == (reason, "Answer")


def test_a_number_is_read_as_corpora_write_it() -> None:
    assert [parse_number(t) for t in ("1,000", ".25", "24.", "-3", "1e3", " 7 ")] == [1000.0, 0.25, 24.0, -3.0, 1e3, 7]


@pytest.mark.parametrize("value", [10**15, -(10**15), 1e15, 0, 0.0, -0.5])
def test_the_bound_is_inclusive(value: float) -> None:
    assert check_magnitude(value) == value
    assert check_json_number(value) == value


@pytest.mark.parametrize("value", [10**15 + 1, 10**4000, float("nan"), float("inf"), 1.0000001e15])
def test_past_the_bound_refuses(value: float) -> None:
    with pytest.raises(NumberError) as info:
        check_json_number(value)
    assert info.value.reason == "number_out_of_range"


# ------------------------------------------------------------ pack ratios


@pytest.mark.parametrize("text", ["1e99999999", "1e-99999999", "9" * 100, "1/0", "-1", "1,000", "1_0", " 1", "x"])
def test_a_ratio_out_of_its_grammar_or_bounds_refuses_at_once(text: str) -> None:
    def refused() -> None:
        with pytest.raises(NumberError):
            parse_ratio(text)

    _, peak = peak_bytes(refused)
    assert peak < 64 * 1024  # 1e99999999 used to build a ten-million-digit integer (4 MiB)


@pytest.mark.parametrize(
    ("text", "ratio"),
    [("5280", Fraction(5280)), ("1/12", Fraction(1, 12)), ("0.01", Fraction(1, 100)), ("1e3/7", Fraction(1000, 7))],
)
def test_a_ratio_as_packs_write_it(text: str, ratio: Fraction) -> None:
    assert parse_ratio(text) == ratio


@seam_settings(200)
@given(st.text(max_size=40) | st.from_regex(r"[0-9.eE+-]{1,12}(/[0-9.eE+-]{1,12})?", fullmatch=True))
def test_parse_ratio_gives_a_fraction_or_a_typed_refusal(text: str) -> None:
    try:
        ratio = parse_ratio(text)
    except NumberError as exc:
        assert exc.reason in NUMBER_REASONS
    else:
        assert isinstance(ratio, Fraction)


# ------------------------------------------------------------ JSON


def test_an_integer_past_the_digit_limit_decodes_as_infinite_not_a_bare_value_error() -> None:
    assert jsontext.loads('{"n": ' + "1" * 5000 + "}") == {"n": math.inf}
    assert jsontext.loads(b'{"n": -' + b"1" * 5000 + b"}") == {"n": -math.inf}
    value, end = jsontext.raw_decode('[{"n": ' + "2" * 5000 + "}]", 1)
    assert (value, end) == ({"n": math.inf}, 5008)


@pytest.mark.parametrize("text", ['"\\ud800"', '{"a": ["x\\udc00"]}', '{"\\udbff": 1}'])
def test_a_lone_surrogate_escape_is_unencodable_text(text: str) -> None:
    with pytest.raises(jsontext.UnencodableText):
        jsontext.loads(text)


def test_a_surrogate_pair_is_one_character() -> None:
    assert jsontext.loads('"\\ud83d\\ude00"') == "\U0001f600"


@seam_settings(300)
@given(hostile_json)
def test_jsontext_reads_back_any_json_or_refuses_it_typed(value: object) -> None:
    text = json.dumps(value)  # NaN and Infinity as Python writes them
    try:
        back = jsontext.loads(text)
    except json.JSONDecodeError:
        assert any(isinstance(s, str) and any("\ud800" <= c <= "\udfff" for c in s) for s in _strings(value))
    else:
        assert json.dumps(back) == json.dumps(_long_ints_as_inf(value))


def _strings(value: object) -> list[object]:
    if isinstance(value, dict):
        return [*value.keys(), *(s for v in value.values() for s in _strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value]


def _long_ints_as_inf(value: object) -> object:
    if isinstance(value, dict):
        return {k: _long_ints_as_inf(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_long_ints_as_inf(v) for v in value]
    if type(value) is int and len(str(abs(value))) > 4000:
        return math.copysign(math.inf, value)
    return value


def test_a_long_text_is_read_without_being_memoized() -> None:
    from ssbg.numbers import _read_short

    _read_short.cache_clear()
    with pytest.raises(NumberError) as info:
        parse_number("7" * 100_000)
    assert info.value.reason == "number_out_of_range"
    assert parse_number(" " * 500 + "12" + " " * 500) == 12.0  # a number among blanks is still a number
    assert _read_short.cache_info().currsize == 1  # "12" only: the 100,000 digits were never kept
