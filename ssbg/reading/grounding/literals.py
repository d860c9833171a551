"""The numbers a solution writes, as grounding finds them: a value's lookup key, the literals of a
formula in the order :func:`~ssbg.reading.formula.parse_formula` numbers them, and the solution with
its ``<<...>>`` annotations blanked."""

from __future__ import annotations

import re


def _value_key(value: float) -> float:
    """The key a mention is found under by value: ``round(value, 9)``; a whole number is its own key
    (rounding returns it unchanged, at many times the cost of the test)."""
    return value if value.is_integer() else round(value, 9)


# The numbers of a formula in the order parse_formula numbers them (a name's digits are not one).
_LITERAL_IN_FORMULA = re.compile(r"(?<![A-Za-z_\d.,])(?:\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+\.?\d*|\.\d+)")


def _literal_value(text: str) -> float:
    return float(text.replace(",", ""))


_ANNOTATION = re.compile(r"<<[^<>]*>>")


def blank_annotations(solution: str) -> str:
    """The solution with every ``<<...>>`` annotation overwritten by ``_`` (offsets kept)."""
    return _ANNOTATION.sub(lambda m: "_" * len(m.group()), solution)
