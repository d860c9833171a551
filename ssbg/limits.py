"""The size caps of a checked record, in one place (core): what ``check_solution``, ``check_solutions`` and
``ssbg check-solutions`` read at most, and how a record beyond them is refused before any reading.

A record within every cap is read in work linear in its size (``benchmarks/bench_hostile.py``:
about 2 s and 300 MB at most on one core, ADR 0022); a record beyond one is refused as
``record_too_large`` naming the cap, before a word of it is read.  Every count below is one pass over
the text, so the refusal itself is linear.

================================  ==========  =============================================================
cap                               value       counted as
================================  ==========  =============================================================
:data:`MAX_QUESTION_CHARS`        20,000      characters of the question
:data:`MAX_SOLUTION_CHARS`        40,000      characters of a solution (of its steps together, for a list)
:data:`MAX_STEPS`                 1,000       equals signs of a solution (a step writes one; an annotated
                                              line, ``a + b = <<a+b=c>>c``, two)
:data:`MAX_NUMBERS`               4,000       numbers (runs of digits) of a question, or of a solution
:data:`MAX_OPERANDS`              500         numbers of one step: between two equals signs or line breaks
================================  ==========  =============================================================

GSM8K train's longest question has 985 characters and 19 numbers, its longest solution 1,228 characters,
89 numbers and 21 equals signs, its most numbers in one step 23; the dev file of model solutions (3,300
solutions) at most 1,571 characters, 102 numbers, 25 equals signs and 17 numbers in a step: every cap is
twenty times or more what real records hold.

>>> size_refusal("Ann has 3 apples. How many?", "3 + 4 = 7") is None
True
>>> r = size_refusal("Ann has 3 apples. How many?", "1+" * 600 + "1 = 601")
>>> r.reason, r.detail
('record_too_large', 'solution: a step of 601 numbers, more than 500 (MAX_OPERANDS)')
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ssbg.errors import ImportRefusal

__all__ = [
    "CAPS",
    "MAX_NUMBERS",
    "MAX_OPERANDS",
    "MAX_QUESTION_CHARS",
    "MAX_SOLUTION_CHARS",
    "MAX_STEPS",
    "caps_help",
    "size_refusal",
]

MAX_QUESTION_CHARS = 20_000
"""Characters of a question."""

MAX_SOLUTION_CHARS = 40_000
"""Characters of a solution (its steps together, for a list of steps)."""

MAX_STEPS = 1_000
"""Equals signs of a solution: a step writes one (an annotated line two)."""

MAX_NUMBERS = 4_000
"""Numbers (runs of digits) of a question, or of a solution."""

MAX_OPERANDS = 500
"""Numbers of one step of a solution (between two equals signs or line breaks)."""

CAPS: tuple[tuple[str, int, str], ...] = (
    ("MAX_QUESTION_CHARS", MAX_QUESTION_CHARS, "characters of the question"),
    ("MAX_SOLUTION_CHARS", MAX_SOLUTION_CHARS, "characters of a solution"),
    ("MAX_STEPS", MAX_STEPS, "equals signs of a solution (a step writes one, an annotated line two)"),
    ("MAX_NUMBERS", MAX_NUMBERS, "numbers of a question or of a solution"),
    ("MAX_OPERANDS", MAX_OPERANDS, "numbers of one step"),
)
"""Every cap: (name, value, what it counts), in the order ``--help`` states them."""

_DIGITS = re.compile(r"\d+")
_STEP_BREAK = re.compile(r"[=\n]")


def caps_help() -> str:
    """The caps as one sentence, for a command's ``--help``."""
    said = "; ".join(f"{value:,} {what}" for _name, value, what in CAPS)
    return f"A record beyond a cap is refused as record_too_large before it is read: at most {said}."


def _refuse(field: str, what: str, count: int, cap: str, value: int) -> ImportRefusal:
    detail = f"{field}: {what} {count:,}, more than {value:,} ({cap})"
    return ImportRefusal(f"the {field} is larger than ssbg reads ({detail})", reason="record_too_large",
                         detail=detail)


def _text_refusal(field: str, text: str, max_chars: str, limit: int) -> ImportRefusal | None:
    if len(text) > limit:
        return _refuse(field, "characters", len(text), max_chars, limit)
    numbers = sum(1 for _ in _DIGITS.finditer(text)) if len(text) > MAX_NUMBERS else 0  # a run is a character at least
    if numbers > MAX_NUMBERS:
        return _refuse(field, "numbers", numbers, "MAX_NUMBERS", MAX_NUMBERS)
    return None


def _solution_refusal(field: str, text: str) -> ImportRefusal | None:
    found = _text_refusal(field, text, "MAX_SOLUTION_CHARS", MAX_SOLUTION_CHARS)
    if found is not None:
        return found
    equals = text.count("=")
    if equals > MAX_STEPS:
        return _refuse(field, "equals signs", equals, "MAX_STEPS", MAX_STEPS)
    for piece in _STEP_BREAK.split(text) if len(text) > MAX_OPERANDS else ():
        if len(piece) > MAX_OPERANDS:  # fewer characters than the cap cannot hold more numbers than it
            numbers = sum(1 for _ in _DIGITS.finditer(piece))
            if numbers > MAX_OPERANDS:
                detail = f"{field}: a step of {numbers:,} numbers, more than {MAX_OPERANDS:,} (MAX_OPERANDS)"
                return ImportRefusal(f"the {field} is larger than ssbg reads ({detail})", reason="record_too_large",
                                     detail=detail)
    return None


def size_refusal(
    question: str, solution: str | Sequence[str] | None = None, *, solution_field: str = "solution"
) -> ImportRefusal | None:
    """The ``record_too_large`` refusal of a question and solution beyond a cap (None within every cap); its
    ``detail`` names the field, the count and the cap.  Texts only: anything else is the caller's to type."""
    found = _text_refusal("question", question, "MAX_QUESTION_CHARS", MAX_QUESTION_CHARS)
    if found is not None or solution is None:
        return found
    if isinstance(solution, str):
        return _solution_refusal(solution_field, solution)
    total = sum(len(s) for s in solution)
    if total > MAX_SOLUTION_CHARS:
        return _refuse(solution_field, "characters", total, "MAX_SOLUTION_CHARS", MAX_SOLUTION_CHARS)
    return _solution_refusal(solution_field, "\n".join(solution))
