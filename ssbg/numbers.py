"""Every number that enters ssbg, read one way (core): the one seam with bounds.

A number comes in written (a problem text, a corpus formula, an answer field,
a pack ratio) or already parsed (a JSON value).  Either way it goes through
this module, which holds it to the same bounds:

- at most :data:`MAX_NUMBER_CHARS` characters as written (a 400-digit number
  is not a quantity of a word problem, and reading one costs its length);
- finite, and at most :data:`MAX_MAGNITUDE` in absolute value: beyond 10**15 a
  float no longer holds every integer exactly (2**53 is about 9.007e15), and
  arithmetic over a few such numbers overflows to infinity;
- a JSON number is an ``int`` or a ``float``, never a ``bool``.

What is outside refuses with a :class:`~ssbg.errors.NumberError`:
``not_a_number`` (text that is no number, a JSON value of another type) or
``number_out_of_range`` (too long, too large, NaN or infinite).  Its ``path``
names the field when the caller gives one; a reader turns it into an
:class:`~ssbg.errors.ImportRefusal` naming ``file:line`` and the field.

Examples
--------
>>> parse_number("1,000.5"), parse_number(".5"), parse_number("24.")
(1000.5, 0.5, 24.0)
>>> parse_number("1e400", field="Answer")
Traceback (most recent call last):
...
ssbg.errors.NumberError: number_out_of_range: '1e400' is not a finite number of at most 1e+15 (at Answer)
>>> number_or_none("a dozen") is None
True
>>> check_json_number(True, field="$.answer")
Traceback (most recent call last):
...
ssbg.errors.NumberError: not_a_number: expected a number (got bool) (at $.answer)
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from ssbg.errors import NumberError

if TYPE_CHECKING:  # imported where a ratio is read, not at `import ssbg` (ADR 0015: import time)
    from fractions import Fraction

__all__ = [
    "MAX_MAGNITUDE",
    "MAX_NUMBER_CHARS",
    "check_json_number",
    "check_magnitude",
    "number_or_none",
    "one_step_results",
    "one_step_values",
    "parse_number",
    "parse_ratio",
]

MAX_NUMBER_CHARS = 64
"""The longest number ssbg reads as written (signs, digits, separators, exponent)."""

MAX_MAGNITUDE = 10**15
"""The largest absolute value ssbg holds (every integer up to it is exact as a float)."""

_LIMIT = float(MAX_MAGNITUDE)
_RATIO_PART = re.compile(r"\d+(?:\.\d+)?(?:[eE][+-]?\d{1,2})?")  # a two-digit exponent at most: Fraction builds 10**exp


def _out_of_range(shown: str, field: str | None) -> NumberError:
    return NumberError(
        f"number_out_of_range: {shown} is not a finite number of at most {_LIMIT:g}",
        reason="number_out_of_range",
        path=field,
        detail=shown[:80],
    )


def _not_a_number(shown: str, field: str | None) -> NumberError:
    return NumberError(f"not_a_number: {shown} is not a number", reason="not_a_number", path=field, detail=shown[:80])


def _read(text: str) -> float | str:
    """The value of a written number, or the reason it refuses.

    Thousands separators are dropped and the rest is read as :func:`float` reads it
    (``1,000``, ``.5``, ``24.``, ``-3``, ``1e3``); ``nan`` and ``inf`` read as numbers out of range.
    A text far longer than a number is refused before the memo keeps it.
    """
    if len(text) > 4 * MAX_NUMBER_CHARS:
        clean = text.replace(",", "").strip()
        if len(clean) > MAX_NUMBER_CHARS:
            return "number_out_of_range" if _looks_numeric(clean) else "not_a_number"
        text = clean  # a number among blanks: the memo keeps the number only
    return _read_short(text)


@functools.lru_cache(maxsize=65_536)
def _read_short(text: str) -> float | str:
    """:func:`_read` of a text of bounded length (memoized: corpora repeat their numbers)."""
    clean = text.replace(",", "").strip()
    if len(clean) > MAX_NUMBER_CHARS:
        return "number_out_of_range" if _looks_numeric(clean) else "not_a_number"
    try:
        value = float(clean)
    except ValueError:
        return "not_a_number"
    if -_LIMIT <= value <= _LIMIT:  # False for NaN too
        return value
    return "number_out_of_range"


def _looks_numeric(text: str) -> bool:
    """Whether a text too long to read is written like a number (digits, sign, point, exponent)."""
    return text.lstrip("+-").replace(".", "").replace("e", "").replace("E", "").replace("_", "").isdigit()


def parse_number(text: str, *, field: str | None = None) -> float:
    """A number as written (``1,000``, ``.5``, ``24.``, ``-3``, ``1e3``), within the bounds.

    Raises
    ------
    NumberError
        ``not_a_number`` for text that is no number; ``number_out_of_range`` for
        one longer than :data:`MAX_NUMBER_CHARS`, beyond :data:`MAX_MAGNITUDE`,
        NaN or infinite.  ``path`` is ``field``.
    """
    if type(text) is not str:
        raise _not_a_number(f"a {type(text).__name__}", field)
    value = _read(text)
    if type(value) is float:
        return value
    if value == "not_a_number":
        raise _not_a_number(repr(text[:80]), field)
    raise _out_of_range(repr(text[:80]), field)


def number_or_none(text: str, *, field: str | None = None) -> float | None:
    """:func:`parse_number`, or None for text that is no number (a number out of range still refuses)."""
    if type(text) is not str:
        return None
    value = _read(text)
    if type(value) is float:
        return value
    if value == "not_a_number":
        return None
    raise _out_of_range(repr(text[:80]), field)


def check_magnitude(value: float, *, field: str | None = None) -> float:
    """``value`` when it is finite and at most :data:`MAX_MAGNITUDE` in absolute value (a computed or
    scaled number: ``1.5 million``, a step's result); :class:`~ssbg.errors.NumberError` otherwise."""
    if -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE:  # an int is compared exactly, never converted
        return value
    raise _out_of_range(repr(value), field)


def check_json_number(value: object, *, field: str | None = None) -> int | float:
    """A JSON number (an ``int`` or ``float``, not a ``bool``) within the bounds.

    An integer is compared exactly (a 400-digit one is never converted to a float).
    """
    kind = type(value)
    if kind is int or kind is float:
        if -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE:  # type: ignore[operator]
            return value  # type: ignore[return-value]
        raise _out_of_range(_shown(value), field)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise NumberError(
            f"not_a_number: expected a number (got {kind.__name__})",
            reason="not_a_number",
            path=field,
            detail=kind.__name__,
        )
    return check_json_number(int(value) if isinstance(value, int) else float(value), field=field)


def _shown(value: object) -> str:
    """A number as an error message shows it (the first digits of a huge integer)."""
    if isinstance(value, int) and abs(value) >= 10**80:
        return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
    return repr(value)


def parse_ratio(text: str, *, field: str | None = None) -> Fraction:
    """A positive rational as a pack writes a unit's ratio: ``"5280"``, ``"1/12"``, ``"0.01"``.

    Each side is a written number within the bounds (:func:`parse_number`), so
    ``"1e99999999"`` refuses at once instead of building a ten-million-digit integer.

    >>> parse_ratio("25000/127")
    Fraction(25000, 127)
    """
    if type(text) is not str:
        raise _not_a_number(f"a {type(text).__name__}", field)
    num, slash, den = text.partition("/")
    parts = (num, den) if slash else (num,)
    for part in parts:
        if _RATIO_PART.fullmatch(part) is None:
            raise _not_a_number(repr(text[:80]), field)
        parse_number(part, field=field)  # refuses a side out of range before Fraction builds its integers
    from fractions import Fraction  # where a pack is read, not at `import ssbg` (ADR 0015: import time)

    try:
        return Fraction(num) / Fraction(den) if slash else Fraction(num)
    except ZeroDivisionError:
        raise _not_a_number(repr(text[:80]), field) from None


def one_step_results(a: float, b: float) -> list[tuple[float, str]]:
    """The results of one sum, difference (the larger less the smaller), product or quotient (the larger by the
    smaller, when that is not 0) of two numbers, each as it is said (``12 + 5``, ``12 - 5``, ``12 * 5``,
    ``12 / 5``): the steps a solution may leave unwritten."""
    large, small = max(a, b), min(a, b)
    said = (f"{a:g} + {b:g}", f"{large:g} - {small:g}", f"{a:g} * {b:g}", f"{large:g} / {small:g}")
    return list(zip(one_step_values(a, b), said, strict=False))  # no quotient by 0: the values stop first


def one_step_values(a: float, b: float) -> tuple[float, ...]:
    """The values of :func:`one_step_results`, without the words (what a test of a value among them reads: the
    words of every pair of a solution's known numbers were built and thrown away)."""
    large, small = max(a, b), min(a, b)
    return (a + b, large - small, a * b, large / small) if small else (a + b, large - small, a * b)
