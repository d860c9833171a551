"""Model-written solutions in the formats people have, read into a trace to check (issue 19).

A solution to check is not a corpus record: it may be wrong, and what it gets wrong is
the point.  This reader takes the formats model solutions come in and reads them with
the GSM8K reader's pieces (calculator annotations, prose arithmetic, stated units,
prose algebra), with three differences that checking needs:

- **The formats.** :func:`normalize_solution` accepts a string or a list of step
  strings (also a string holding a JSON list of strings); it finds the final answer
  (``#### N``, ``A: N``, ``The answer is N``, ``\\boxed{N}``, ``Answer: N``) and blanks,
  in a same-length working copy, what is markup rather than arithmetic: ``Step 1:`` and
  ``1.`` line labels, bullets, Markdown bold and headings, ``\\(`` ``\\)`` ``\\[`` ``\\]``,
  ``\\times``, ``\\cdot``, ``\\div``, ``\\text{...}`` (its words kept), ``1{,}200``,
  ``\\frac{a}{b}`` (as ``a/b`` or ``(a/b)``, nested up to 4 levels), and the answer line itself.
  Offsets into the working copy are offsets into the solution as shown; a span touching a
  rewritten region (a fraction, a LaTeX thousands separator) covers all of it (ADR 0031).
  The user's steps are the items of a list, else the paragraphs split on blank lines
  (:attr:`NormalizedSolution.user_steps`, counted from 0).
- **Chains.** ``a = b = c`` is a step per ``=``; a link whose right side goes on
  (``120 - 15 - 30 = 105 - 30 = 75``) is the operation it replaced (``120 - 15 = 105``).
- **Invented numbers are evidence.** A number only the solution's own prose states
  grounds nothing (:attr:`~ssbg.reading.grounding.GroundingState.solution_numbers` off).
  A number that nothing grounds does not refuse the solution: it is bound to its place in
  the solution, without a unit (the grounding state's ``last_resort``), and noted as
  ``ungrounded_number`` at its step, so later steps still read and a refusal it causes
  downstream is counted once, at its root.  A number that is the result of a formula
  ssbg could not read is noted as propagated from that formula, not as invented.
- **Slips are read, not skipped.** A stated result that its own operation does not give,
  within the rounding the writing allows (``<<2*8=24>>``, ``2*8 = 24``, or a result written
  after an annotation that differs from it), is noted as ``arithmetic_error``; the result
  the solution states is what later steps use.

What the reader could not read is noted too (coverage, never evidence):
``unparseable_formula``, ``unsupported_operation`` (algebra beyond one unknown,
remainders...), ``unread_line`` (a line with arithmetic, ``= 12``, that no step read),
``no_equation``, ``empty_text``, ``record_too_large``.

Examples
--------
>>> r = read_solution("Ann has 3 bags of 4 kg. How many kg does she have?", "3 * 4 = <<3*4=12>>12 kg\\nA: 12")
>>> [(s.index, s.line, s.formula) for s in r.steps], r.answer, r.notes
([(0, 1, '3*4=12')], 12.0, ())
>>> r = read_solution("Ann has 3 bags of 4 kg. How many kg does she have?", "3 * 5 = <<3*5=15>>15 kg\\nA: 15")
>>> [(n.reason, n.step, n.detail) for n in r.notes]
[('ungrounded_number', 0, '5')]
>>> r = read_solution("Ann has 3 bags of 4 kg. How many kg?", "Step 1: 3 * 4 = 13 kg\\nThe answer is 13.")
>>> [(n.reason, n.step, n.detail) for n in r.notes], r.answer
([('arithmetic_error', 0, '3 * 4 gives 12, not 13')], 13.0)
"""

from __future__ import annotations

import bisect
import functools
import itertools
import json
import math
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ssbg.errors import ImportRefusal, NumberError, ProblemGraphError
from ssbg.limits import size_refusal
from ssbg.numbers import one_step_values, parse_number
from ssbg.reading.formula import BinOp, Literal, parse_formula
from ssbg.reading.grounding import GroundingState, StepBuilder
from ssbg.reading.grounding.state import TextReadings
from ssbg.reading.grounding.trees import formula_literals
from ssbg.reading.learned.model import keeping_readings, readings_kept
from ssbg.reading.mentions import find_question_span
from ssbg.reading.problem_text import ProblemText, read_problem_text

# The GSM8K reader's pieces (this reader reads the same notations; see its docstring):
from ssbg.reading.readers.gsm8k import (
    _ANNOTATION,
    _BARE_ANNOTATION,
    _PROSE_EQUATION,
    _agrees,
    _prose_expression,
    _prose_formula,
    _ProseAlgebra,
    _stated_result,
    rate_context,
    stated_unit,
)
from ssbg.trace import Mention, Operand, Trace
from ssbg.units import UnitPack, default_pack

__all__ = [
    "CORPUS",
    "READING_NOTES",
    "NormalizedSolution",
    "ReadStep",
    "ReadingNote",
    "Said",
    "SolutionReading",
    "clear_question_cache",
    "gives",
    "normalize_solution",
    "read_solution",
    "said_units",
    "written_number",
    "written_numbers",
]

CORPUS = "solution"

READING_NOTES: frozenset[str] = frozenset(
    {
        "ungrounded_number",  # a number neither the question, an earlier step nor a cued constant states
        "arithmetic_error",  # a stated result its own operation does not give
        "unsupported_operation",  # algebra beyond one unknown, remainders, powers, ...
        "unparseable_formula",  # a formula that does not parse (or whose value is not a finite number)
        "unread_line",  # a line with arithmetic ("= 12"), or stating a number a later step uses, that no step read
        "no_equation",  # no arithmetic step at all
        "empty_text",  # an empty question or solution
        "record_too_large",  # beyond a cap of ssbg.limits (nothing read), or more formulas than grounding.MAX_FORMULAS
        "number_out_of_range",  # a number of the question too long or too large to read (ssbg.numbers)
        "ambiguous_grounding",  # a number the words do not bind to one mention (the grounding issue's refusal)
    }
)
"""What :func:`read_solution` notes besides the steps it reads (the checker sorts them into error
evidence and coverage, :mod:`ssbg.checking`)."""

# ------------------------------------------------------------------ formats

_NUM = r"-?(?:\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
# Final answers, as whole lines (blanked) or inside a line (only the marker is blanked).
_ANSWER_MARK = (
    r"(?:####|A:|(?:final\s+)?answer\s*:|(?:so\s+|therefore,?\s+|thus,?\s+)?the\s+(?:final\s+)?answer\s+is:?)"
)
_ANSWER_LINE = re.compile(
    rf"(?im)^[ \t]*{_ANSWER_MARK}[ \t]*\\?\$?[ \t]*(?:\\boxed\{{[ \t]*\\?\$?[ \t]*)?(?P<num>{_NUM})[ \t]*\}}?"
    rf"[ \t]*(?:%|[A-Za-z][\w ]{{0,30}})?[ \t]*[.!]?[ \t]*$"
)
_ANSWER_INLINE = re.compile(
    rf"(?i)(?:\\boxed\{{[ \t]*\\?\$?[ \t]*(?P<boxed>{_NUM})[ \t]*"
    rf"(?:\\text\{{[^{{}}\n]{{0,40}}\}}|[A-Za-z][A-Za-z ]{{0,30}})?\}}"
    rf"|the\s+(?:final\s+)?answer\s+is:?[ \t]*\\?\$?[ \t]*(?P<said>{_NUM}))"
)
# Markup blanked in the working copy (same length): line labels, bullets, bold, LaTeX delimiters and operators.
_LINE_LABEL = re.compile(
    r"(?im)^[ \t]*(?:(?:\*\*)?step[ \t]*\d+[ \t]*[:.)](?:\*\*)?|\d{1,2}[.)](?=[ \t])|[-*+\u2022](?=[ \t]))"
)
_HEADING = re.compile(r"(?m)^[ \t]*#{1,6}(?=[ \t])")  # "### Step 1: ...": a Markdown heading's marks
_BOLD = re.compile(r"(?<!\d)\*\*|\*\*(?!\d)")
_LATEX_SIGNS = {r"\times": "*", r"\cdot": "*", r"\ast": "*", r"\div": "/", r"\$": " $", r"\%": "%",
                r"\approx": "=", "\u2248": "=", "\u00b7": "*", "\u2212": "-"}
_LATEX = re.compile(
    r"\\(?:times|cdot|ast|div|approx)(?![A-Za-z])|\\[()\[\]]|\\boxed\{|\\[$%]|\\(?:left|right)(?![A-Za-z])"
    r"|\\(?:q?quad|displaystyle)(?![A-Za-z])|\\[,;:! ](?!\d)|\\(?:begin|end)\{[A-Za-z*]{1,20}\}|&|\\\\(?=\s|$)"
    "|[\u2248\u00b7\u2212]"
)
# "\text{ books}", "\mathrm{kg}": the command and its braces are markup, the words inside are the prose's
_TEXT_COMMAND = re.compile(
    r"\\(?:boxed|text|textbf|textit|textrm|mathrm|mathbf|mathit|mbox|operatorname)[ \t]*\{([^{}\n]*)\}"
)
# "1{,}200", "1\,200": a LaTeX thousands separator, rewritten as "1,200" (the number's place kept, padded after)
_LATEX_THOUSANDS = re.compile(
    r"(?<![\d.])\d{1,3}(?:(?:\{,\}|\\,|,)\d{3})*(?:\{,\}|\\,)\d{3}(?:(?:\{,\}|\\,|,)\d{3})*(?!\d)"
)
# "\frac{a}{b}", "\dfrac", "\tfrac": innermost first (no brace inside), at most _FRAC_DEPTH levels deep
_FRAC = re.compile(r"\\[dt]?frac[ \t]*\{([^{}\n]*)\}[ \t]*\{([^{}\n]*)\}")
_FRAC_DEPTH = 4
# "2 (food)": a word label after a number and a space; ".1(Number of Minutes)" (no space) multiplies an unknown
_LABEL_IN_PARENS = re.compile(r"(?<=\d)[ \t]+\([A-Za-z][A-Za-z' -]{0,30}\)(?=[ \t]*[-+*/=\u00d7\u00f7])")
_PERCENT_OF = re.compile(r"(?:(?<=\d%)|(?<![\d./])\d{1,4}/\d{1,4})[ \t]+(of)(?=[ \t]+\$?\d)")
_LABEL_OPENS = re.compile(r"[ \t]\([A-Za-z]")  # what _LABEL_IN_PARENS needs
_OF_NUMBER = re.compile(r"of[ \t]+\$?\d")  # what _PERCENT_OF needs (and a "%" or a "/" before)
_SIGNS = frozenset("*/+-\u00d7\u00f7^")
_PLAIN_NUMBER = re.compile(r"[ \t]*\d+(?:\.\d+)?[ \t]*")
# "$\frac{3}{4} \times 8 = 6$", "$25 + 8 = 33$": dollar signs that delimit LaTeX math (a command inside, or an
# equation between a "$" before a digit and a "$" right after one), not dollars ("$15 \times 4 = $60": a "$" before
# a number opens no math)
# "$$ 3 \times 5 = 15 $$": a pair around math without a dollar (but "\$") or an annotation inside ("= $$<<16+27=43>>43":
# money)
_DISPLAY_DOLLARS = re.compile(r"(?<![\\$])\$\$((?:[^$<]|(?<=\\)\$){1,2000}?)(?<!\\)\$\$")
_MATH_DOLLARS = re.compile(
    r"(?<!\\)\$(?=[^$\n]*\\(?:[dt]?frac|times|cdot|div|boxed|text|approx|left|right)(?![A-Za-z]))[^$\n]*(?<!\\)\$(?!\d|\.\d)"
    r"|(?<![\w$\\])\$(?=[\d(\\])[^$\n]*?=[^$\n]*?\d\$(?![\w$])"
)
_DIGIT_DOLLAR = re.compile(r"\d\$")  # what _MATH_DOLLARS needs without a backslash: a "$" right after a digit
# "$350 000", "17 500", "1 000 000": digit groups split by a space (or a no-break or thin space), read as
# "350,000" (same length); not a group followed by "-" or a word ("2 100-page books": two numbers)
SPLIT_THOUSANDS = re.compile(r"(?<![\d.,])\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\d\w-]|,\d)")
_SPLIT_GROUP = re.compile(r"\d[ \u00a0\u202f]\d\d\d")  # what SPLIT_THOUSANDS needs
# Arithmetic in words: "12 plus 14 plus 4 equals 30", "5 times 3 is equal to 15" (signs written over the words)
_WORD_SIGNS = {"plus": "+", "minus": "-", "times": "*", "multiplied by": "*", "divided by": "/"}
_NOT_A_UNIT_WORD = r"(?!plus\b|minus\b|times\b|multiplied\b|divided\b|equals?\b|is\b)"
_WORD_NUMBER = rf"\$?\d[\d,]*(?:\.\d+)?%?(?:[ \t]+{_NOT_A_UNIT_WORD}[A-Za-z]+){{0,2}}"
_WORD_OPERATOR = r"(?:plus|minus|times|multiplied[ \t]+by|divided[ \t]+by)"
_WORD_CHAIN = re.compile(
    rf"(?i)(?<![\w.,$]){_WORD_NUMBER}(?:[ \t]+{_WORD_OPERATOR}[ \t]+{_WORD_NUMBER})+"
    rf"[ \t]+(?:equals?|is[ \t]+equal[ \t]+to|makes|gives|is)(?=[ \t]+\$?[ \t]*(?:\d|<<))"
)
_WORD_SIGN = re.compile(rf"(?i)(?<=[ \t]){_WORD_OPERATOR}(?=[ \t])|(?:equals?|is[ \t]+equal[ \t]+to|makes|gives|is)$")


@dataclass(frozen=True, slots=True)
class NormalizedSolution:
    """A solution as shown (``text``), its same-length working copy (markup and the answer line
    blanked), and the final answer it states (its value and its span in ``text``).

    ``rewritten`` are the regions of ``text`` the working copy rewrote rather than blanked (``\\frac{a}{b}``
    as ``a/b``, ``1{,}200`` as ``1,200``): inside one, a working offset is not the same character of
    ``text``, so a span that touches one is widened to cover it (:meth:`widen`).  ``user_steps`` are the
    spans of the user's steps in ``text`` (ADR 0031): the items of a list of steps, else the paragraphs of
    a string (split on blank lines, empty ones skipped); :meth:`user_step` counts them from 0.
    """

    text: str
    working: str
    answer: float | None = None
    answer_span: tuple[int, int] | None = None
    rewritten: tuple[tuple[int, int], ...] = ()
    user_steps: tuple[tuple[int, int], ...] = ()

    def widen(self, start: int, end: int) -> tuple[int, int]:
        """``(start, end)`` widened to cover every rewritten region it overlaps (an offset map that is the
        identity outside them)."""
        for a, b in self.rewritten:
            if a < end and start < b:
                start, end = min(start, a), max(end, b)
        return start, end

    def user_step(self, offset: int | None) -> int | None:
        """The index (from 0) of the user's step holding ``offset`` of ``text`` (a blank line between
        paragraphs counts with the paragraph before it); None for None or before the first step."""
        if offset is None or not self.user_steps:
            return None
        k = bisect.bisect_right([a for a, _ in self.user_steps], offset) - 1
        return k if k >= 0 else 0


def _blank(chars: list[str], start: int, end: int, fill: str = "") -> None:
    """Overwrite ``chars[start:end]`` with ``fill`` padded by spaces (newlines kept)."""
    for k in range(start, end):
        chars[k] = "\n" if chars[k] == "\n" else " "
    for k, c in enumerate(fill[: end - start]):
        chars[start + k] = c


def _steps_of(solution: str | Sequence[str]) -> list[str] | None:
    """The user's steps when the solution is a list of them (or a string holding a JSON list of strings)."""
    if not isinstance(solution, str):
        return list(solution)
    stripped = solution.strip()
    if stripped.startswith("[") and stripped.endswith("]"):
        try:
            steps = json.loads(stripped)
        except ValueError:
            return None
        if isinstance(steps, list) and steps and all(isinstance(s, str) for s in steps):
            return steps
    return None


def _as_text(solution: str | Sequence[str]) -> str:
    """A solution as one string: a list of steps (or a JSON list of strings) one per line."""
    steps = _steps_of(solution)
    if steps is None:
        return solution if isinstance(solution, str) else "\n".join(solution)
    return "\n".join(steps)


_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")  # a blank line (or several) between two paragraphs


def _user_steps(solution: str | Sequence[str], text: str) -> tuple[tuple[int, int], ...]:
    """The spans in ``text`` of the user's steps: each item of a list (joined by newlines), else each
    non-empty paragraph (ProcessBench's convention: paragraphs split on blank lines)."""
    steps = _steps_of(solution)
    out: list[tuple[int, int]] = []
    if steps is not None:
        at = 0
        for step in steps:
            out.append((at, at + len(step)))
            at += len(step) + 1
        return tuple(out)
    at = 0
    for m in _PARAGRAPH_BREAK.finditer(text):
        if text[at : m.start()].strip():
            out.append((at, m.start()))
        at = m.end()
    if text[at:].strip() or not out:
        out.append((at, len(text)))
    return tuple(out)


def _answer_value(text: str) -> float | None:
    """A final answer's value, or None for one outside :mod:`ssbg.numbers`' bounds (no answer to compare)."""
    try:
        return parse_number(text)
    except NumberError:
        return None


# Blanked before the final answer is looked for: bold, math delimiters, "\text{" and its brace
_ANSWER_MARKUP = re.compile(r"(?<!\d)\*\*|\*\*(?!\d)|\\[()\[\]]|\\(?:text|textbf|mathrm|mathbf)\{|(?<=\d)\}(?=\s*\})")


def _latex(chars: list[str], rewritten: list[tuple[int, int]]) -> None:
    """LaTeX math as prose arithmetic, in place and same length: text commands unwrapped, thousands
    separators, operators and delimiters, then fractions innermost first (at most :data:`_FRAC_DEPTH`
    levels: each level one linear pass, so a nested-fraction bomb costs ``_FRAC_DEPTH`` passes).

    Each pass runs only on a text holding what its pattern needs (a 2021 solution's dollars need none of
    them but the math-dollar test), and the working string is joined again only after a pass that ran."""
    working = "".join(chars)
    if "\\" not in working and "$" not in working and not any(c in working for c in "\u2248\u00b7\u2212&"):
        return
    working = _math_dollars(chars, working)
    if "\\" not in working and "{,}" not in working and not any(c in working for c in "\u2248\u00b7\u2212&"):
        return  # the passes below each need a backslash, a "{,}" or one of these signs
    working = _latex_commands(chars, working, rewritten)
    for m in _LATEX.finditer(working):
        _blank(chars, m.start(), m.end(), _LATEX_SIGNS.get(m.group(), ""))
    _fractions(chars, rewritten)


def _math_dollars(chars: list[str], working: str) -> str:
    """Dollar signs that delimit math blanked ("$$ ... $$" always, "$ ... $" when it holds math); the text after."""
    if "$$" in working:
        for m in _DISPLAY_DOLLARS.finditer(working):  # "$$ ... $$": display math, never money
            _blank(chars, m.start(), m.start(1))
            _blank(chars, m.end(1), m.end())
        working = "".join(chars)
    if "$" in working and ("\\" in working or _DIGIT_DOLLAR.search(working)):  # what _MATH_DOLLARS needs
        for m in _MATH_DOLLARS.finditer(working):
            _blank(chars, m.start(), m.start() + 1)
            _blank(chars, m.end() - 1, m.end())
        working = "".join(chars)
    return working


def _latex_commands(chars: list[str], working: str, rewritten: list[tuple[int, int]]) -> str:
    """``\\text{...}`` and its kin unwrapped (two levels deep) and LaTeX thousands separators as commas; the text
    after."""
    for _ in range(2):  # "\\boxed{\\text{7455}}": one level inside another
        for m in _TEXT_COMMAND.finditer(working):
            # the words moved to where the command starts: "\\$16/\\text{hour}" reads "$16/hour", and a unit
            # after a slash joins the number before it ("\\$500 \\text{/month}" reads "$500/month")
            start = m.start()
            before = working[max(0, start - 20) : start].rstrip(" \t")
            if m.group(1).startswith("/") and before[-1:].isdigit():
                start -= start - max(0, start - 20) - len(before)
            _blank(chars, start, m.end(), m.group(1))
            rewritten.append((start, m.end()))
        working = "".join(chars)
    if "{,}" in working or "\\," in working:  # what a LaTeX thousands separator needs
        for m in _LATEX_THOUSANDS.finditer(working):
            digits = re.sub(r"\{,\}|\\,", ",", m.group())
            _blank(chars, m.start(), m.end(), digits)
            rewritten.append((m.start(), m.end()))
        working = "".join(chars)
    return working


def _fractions(chars: list[str], rewritten: list[tuple[int, int]]) -> None:
    """``\\frac{a}{b}`` as ``a/b`` (parenthesised where arithmetic around it needs it), innermost first, at most
    :data:`_FRAC_DEPTH` levels."""
    for _ in range(_FRAC_DEPTH):
        working = "".join(chars)
        if "frac" not in working:
            break
        found = list(_FRAC.finditer(working))
        if not found:
            break
        for m in found:
            top, bottom = " ".join(m.group(1).split()), " ".join(m.group(2).split())
            before = working[max(0, m.start() - 40) : m.start()].rstrip()[-1:]
            after = working[m.end() : m.end() + 40].lstrip()[:1]
            if _PLAIN_NUMBER.fullmatch(m.group(1)) and _PLAIN_NUMBER.fullmatch(m.group(2)):
                # "(3/4) * 8" inside arithmetic; "12/4 = 3", "= 1/2" alone and "(1 + 1/3)" inside parentheses as
                # prose writes a fraction (the prose reader reads no parentheses inside parentheses)
                inside = before == "(" or after == ")"
                signed = (before in _SIGNS or after in _SIGNS) and not inside
                fill = f"({top}/{bottom})" if signed else f"{top}/{bottom}"
            else:
                fill = f"({top})/({bottom})" if before != "/" else f"(({top})/({bottom}))"[: m.end() - m.start()]
            _blank(chars, m.start(), m.end(), fill)
            rewritten.append((m.start(), m.end()))


def _answer_probe(text: str) -> str:
    """``text`` as the answer patterns read it: "1{,}200" as "1,200" (padded after), bold and math delimiters
    blanked (the same length)."""
    probe = text
    if "*" in text or "\\" in text:
        if "{,}" in text or "\\," in text:
            probe = _LATEX_THOUSANDS.sub(lambda m: re.sub(r"\{,\}|\\,", ",", m.group()).ljust(len(m.group())), text)
        if "**" in probe or "\\" in probe or "}" in probe:
            probe = _ANSWER_MARKUP.sub(lambda m: " " * len(m.group()), probe)
    return probe


def _blank_markup(chars: list[str], text: str, may_hold: Callable[..., bool]) -> None:
    """Bold, heading marks and line labels blanked in ``chars``, thousands split by spaces joined, a word chain's
    operators written as signs; each pass only on a text holding what its pattern needs."""
    if "**" in text:
        for m in _BOLD.finditer(text):
            _blank(chars, m.start(), m.end())
    if "#" in text:  # a Markdown heading's marks (the pattern needs one): no pass over the others
        for m in _HEADING.finditer("".join(chars)):
            _blank(chars, m.start(), m.end())
    for m in _LINE_LABEL.finditer("".join(chars)):
        _blank(chars, m.start(), m.end())
    if _SPLIT_GROUP.search(text):
        for m in SPLIT_THOUSANDS.finditer(text):
            chars[m.start() : m.end()] = _joined_thousands(m.group())
    if may_hold("plus", "minus", "times", "multiplied", "divided"):  # a word chain's operator
        for m in _WORD_CHAIN.finditer(text):
            for w in _WORD_SIGN.finditer(m.group()):
                word = " ".join(w.group().lower().split())
                _blank(chars, m.start() + w.start(), m.start() + w.end(), _WORD_SIGNS.get(word, "="))


def _blank_words_of_numbers(chars: list[str]) -> None:
    """Words naming a number blanked ("7 + 2 (food) + 3 (gas) = 12") and a part of a number written as a product
    ("90% of 60 = 54", "1/3 of 18 = 6"), after the LaTeX pass."""
    working = "".join(chars)
    if "(" in working and _LABEL_OPENS.search(working):
        for m in _LABEL_IN_PARENS.finditer(working):
            _blank(chars, m.start(), m.end())
    if ("%" in working or "/" in working) and _OF_NUMBER.search(working):
        for m in _PERCENT_OF.finditer(working):
            _blank(chars, m.start(1), m.end(1), "*")


def normalize_solution(solution: str | Sequence[str]) -> NormalizedSolution:
    """The shown text, working copy and final answer of a solution in any of the formats above.

    >>> n = normalize_solution(["Step 1: 9 \\\\times 2 = 18", "The answer is \\\\boxed{18}."])
    >>> n.text.splitlines()[0], n.working.splitlines()[0].split(), n.answer, n.user_steps
    ('Step 1: 9 \\\\times 2 = 18', ['9', '*', '2', '=', '18'], 18.0, ((0, 23), (24, 49)))
    """
    text = _as_text(solution)
    chars = list(text)
    rewritten: list[tuple[int, int]] = []
    # Each pass below runs only on a text holding what its pattern needs (the words of an ASCII text looked up
    # in its lower case; a text with other letters, which the patterns' case folding may match, takes every pass).
    lower = text.lower() if text.isascii() else None

    def may_hold(*words: str) -> bool:
        return lower is None or any(w in lower for w in words)

    probe = _answer_probe(text)
    answer: float | None = None
    answer_span: tuple[int, int] | None = None
    lines = list(_ANSWER_LINE.finditer(probe)) if "####" in text or may_hold("a:", "answer") else []
    if lines:  # the last answer line: blanked whole, its number is the answer
        m = lines[-1]
        answer, answer_span = _answer_value(m.group("num")), (m.start("num"), m.end("num"))
        _blank(chars, m.start(), m.end())
    _blank_markup(chars, text, may_hold)
    if answer is None and may_hold("boxed", "answer"):
        inline = list(_ANSWER_INLINE.finditer(probe))
        if inline:
            m = inline[-1]
            group = "boxed" if m.group("boxed") is not None else "said"
            answer, answer_span = _answer_value(m.group(group)), (m.start(group), m.end(group))
    _latex(chars, rewritten)
    _blank_words_of_numbers(chars)
    if answer is None or not math.isfinite(answer):
        answer, answer_span = None, None
    return NormalizedSolution(text, "".join(chars), answer, answer_span, tuple(rewritten),
                              _user_steps(solution, text))


# ------------------------------------------------------------------ what the reading gives


@dataclass(frozen=True, slots=True)
class ReadStep:
    """One formula the solution writes: an annotation ``<<3*4=12>>`` or a prose equation ``3 * 4 = 12``.

    ``index`` counts the solution's formulas from 0; ``line`` is 1-based; ``start``/``end`` the
    characters of the solution it spans (a restated expression before an annotation included);
    ``trace_steps`` the range of :attr:`SolutionReading.trace` steps it became (empty when it
    could not be read).
    """

    index: int
    line: int
    start: int
    end: int
    formula: str
    trace_steps: tuple[int, int]

    @property
    def read(self) -> bool:
        """Whether the formula became steps of the trace."""
        return self.trace_steps[1] > self.trace_steps[0]


@dataclass(frozen=True, slots=True)
class ReadingNote:
    """Something the reader found besides the steps: a reason of :data:`READING_NOTES`, the
    step it is at (None for a whole-solution note), its line and characters, and a detail (the
    number, the formula, what its operation gives)."""

    reason: str
    step: int | None
    line: int | None
    start: int | None
    end: int | None
    detail: str


@dataclass(frozen=True)
class SolutionReading:
    """What :func:`read_solution` read: the normalized solution, the trace (None when no step was
    read), the steps with where they are, the notes, and for each solution mention of the trace
    that stands for a number nothing grounds, the note it belongs to."""

    solution: NormalizedSolution
    trace: Trace | None
    steps: tuple[ReadStep, ...]
    notes: tuple[ReadingNote, ...]
    placeholders: tuple[tuple[int, int], ...] = ()  # (trace mention index, note index)

    @property
    def answer(self) -> float | None:
        """The final answer the solution states."""
        return self.solution.answer

    def owner(self) -> tuple[int | None, ...]:
        """The read step each trace step belongs to (by trace step index)."""
        if self.trace is None:
            return ()
        owners: list[int | None] = [None] * len(self.trace.steps)
        for s in self.steps:
            for k in range(*s.trace_steps):
                owners[k] = s.index
        return tuple(owners)


# ------------------------------------------------------------------ units written after a number


_SAID = re.compile(r"(?<![\d.,])(\d[\d,]*(?:\.\d+)?|\.\d+)\s*(?:\\text\{\s*)?([A-Za-z]+)(?:\s+([A-Za-z]+))?")


Said = dict[float, list[tuple[int, object, Fraction]]]
"""The units a text writes right after a number, by the number's value: (where, dimension, scale)."""


def said_units(text: str, pack: UnitPack) -> Said:
    """The units a text writes right after a number (``6 feet``, ``1 kg of food``, ``2 \\text{ hours}``), by
    value: each as (its offset, dimension, scale), for the units the pack knows with a scale (one pass)."""
    out: Said = {}
    for m in _SAID.finditer(text):
        try:
            value = float(m.group(1).replace(",", ""))
        except ValueError:
            continue
        for words in ((m.group(2), m.group(3)), (m.group(2), None)):
            phrase = " ".join(w for w in words if w)
            hit = pack.lookup(phrase)
            if not isinstance(hit, str) and hit.ratio is not None:
                out.setdefault(value, []).append((m.start(), hit.dimension, hit.ratio))
                break
    return out


_WRITTEN_NUMBER = re.compile(r"\d{1,3}(?:[ ,]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+")
_SPLIT_THOUSANDS = re.compile(r"(?<=\d)[ ,](?=\d{3}\b)")


def written_numbers(text: str) -> frozenset[float]:
    """Every number a text writes (``400 000``, ``3,000``, ``50%``, ``.5``), as values rounded to 6 places: what a
    reference solution uses or writes, which the checker compares another solution's numbers with (ADR 0019).

    >>> sorted(written_numbers("He paid 3,000 + 400 000 = 403,000, 50% of .5"))
    [0.5, 50.0, 3000.0, 400000.0, 403000.0]
    """
    return frozenset(n for n in map(written_number, _WRITTEN_NUMBER.findall(text)) if n is not None)


def written_number(text: str) -> float | None:
    """One number as a solution or a finding's detail writes it (``400 000``, ``3,000``, ``50%``), rounded to 6
    places; None when ``text`` is not one."""
    try:
        return round(float(parse_number(_SPLIT_THOUSANDS.sub("", text.strip().rstrip("%").strip()))), 6)
    except ValueError:  # NumberError is one
        return None


# ------------------------------------------------------------------ arithmetic


_PLACES_READ = 20
"""Decimal places of a written result that :func:`gives` reads (a double holds about 17 significant digits)."""
_LONG_PLACES = re.compile(rf"(\.\d{{{_PLACES_READ}}})\d+")  # the places past them, cut


def gives(value: float, written: str) -> bool:
    """Whether an operation's ``value`` gives the result as ``written``, within the rounding the writing
    allows: rounded, truncated or rounded up at its last written place, its magnitude (``75-160=-85``
    written ``85``), or as a percentage (``0.6`` written ``60%``).

    >>> gives(16, "16"), gives(6.6667, "6.67"), gives(17.14, "17"), gives(6.6667, "6.6"), gives(16, "24")
    (True, True, True, True, False)
    >>> gives(0.6, "60%"), gives(-85, "85"), gives(2, "2.5"), gives(4 / 12, "0." + "3" * 1500)
    (True, True, False, True)
    """
    percent = written.rstrip().endswith("%")
    number = written.rstrip().rstrip("%").strip().lstrip("$").strip()
    if len(number) > _PLACES_READ + 1:  # "0.3333…" of 1,500 places: those past a double's say nothing more
        number = _LONG_PLACES.sub(r"\1", number)
    try:
        stated = parse_number(number)
    except ValueError:
        return False
    _, dot, places = number.partition(".")
    scale = 10.0 ** min(len(places) if dot else 0, 15)  # places past a double's precision say nothing more
    candidates = [value, abs(value)] + ([value * 100, abs(value) * 100] if percent else [])
    return any(_rounds_to(v, stated, scale) for v in candidates)


def _rounds_to(value: float, stated: float, scale: float) -> bool:
    """``stated`` is ``value`` rounded, truncated or rounded up at ``1 / scale`` (or equal to it within ``1e-9``)."""
    if not math.isfinite(value):
        return False
    if abs(value - stated) <= 1e-9 * max(1.0, abs(value)):
        return True
    x, target = value * scale, stated * scale
    if not math.isfinite(x) or not math.isfinite(target):
        return False
    return any(abs(k - target) < 1e-6 for k in (math.floor(x + 1e-9), math.ceil(x - 1e-9), round(x)))


# The result written after an annotation; "0.3/task" is 0.3 with its unit after a slash, "3/4" a fraction
_WRITTEN = re.compile(rf"[ \t]*\$?[ \t]*(?P<num>{_NUM})(?!\d|/[ \t]*[\d.])(?P<pct>[ \t]*%)?")
_ARITHMETIC = re.compile(r"[\d)%][ \t]*=[ \t]*\$?[ \t]*\(?[ \t]*-?\.?\d")  # "= 12" after a number: arithmetic


def _formula_value(expr: str) -> float | None:
    """The value of a formula's expression, or None when it does not parse to a finite number."""
    try:
        tree = parse_formula(expr)
        value = tree.value if isinstance(tree, BinOp | Literal) else None
    except (ImportRefusal, ValueError, ZeroDivisionError, OverflowError, RecursionError):
        return None
    return value if value is not None and math.isfinite(value) else None


# ------------------------------------------------------------------ the reader


@functools.lru_cache(maxsize=256)
def _question(
    question: str, pack: UnitPack, keep: bool
) -> tuple[tuple[int, int] | None, ProblemText, TextReadings]:
    """A question's span, mentions and answer unit (memoized: every solution of one question reads them;
    all immutable values), and what grounding reads of the question alone (:class:`TextReadings`, made on
    first need and handed to the grounding of each solution); ``keep``: with the n-best unit readings
    (:func:`~ssbg.reading.learned.model.keeping_readings`)."""
    span = find_question_span(question)
    with keeping_readings(keep):
        read = read_problem_text(question, span, pack=pack)
    return span, read, TextReadings(question, read.mentions, pack)


def clear_question_cache() -> None:
    """Forget the questions :func:`read_solution` has read (tests use this)."""
    _question.cache_clear()


# A zero the question states in words: "none of them", "nothing", "doesn't repair any", "did not buy any"
_ZERO_WORDS = re.compile(
    r"(?i)\b(?:none|nothing|zero)\b|(?:n't|\bnot)[ \t]+(?:[A-Za-z]+[ \t]+){0,2}?any\b(?![ \t]+more\b)"
)


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


class _Reader:
    """Scratch state of one :func:`read_solution` run (never escapes it)."""

    def __init__(self, builder: StepBuilder, solution: NormalizedSolution, pack: UnitPack) -> None:
        self.builder = builder
        self.solution = solution
        self.working = solution.working
        self.pack = pack
        self.blanked = builder.blanked_solution
        self.algebra = _ProseAlgebra(builder, self.blanked, self.working)
        self.steps: list[ReadStep] = []
        self.notes: list[ReadingNote] = []
        self.placeholders: list[tuple[Mention, int]] = []  # committed: (mention, note index)
        self.pending: list[tuple[Mention, str, int | None, str]] = []  # (mention, reason, cause note, literal)
        self.unread: list[tuple[float, int]] = []  # results of formulas not read, with their note
        self.restated: dict[int, int] = {}  # annotation start -> start of the expression the prose restates before it
        self.spans = _Spans(len(self.working))  # where read formulas are (an unread line lies outside them)
        self._numbers: tuple[list[int], list[float]] | None = None  # the prose numbers of working: starts, values
        self._places: dict[str, list[int]] = {}  # a literal's text -> where working writes it (stated_before)
        self._open: dict[str, int] = {}  # a literal's text -> its first place not covered by a span yet
        self._placed: list[tuple[int, int]] = []  # the placeholders' spans, sorted (literal_span)
        self._placed_width = 0  # the widest of them
        self.step_span: tuple[int, int] = (0, 0)  # the formula being added
        self.contexts: dict[int, tuple[str, ...]] = {}  # a line's start -> the units its results may be rates of
        self.claims: dict[int, int] = {}  # a line's start -> its note, where its prose states a number used later

    # -------------------------------------------------------------- notes and steps

    def note(self, reason: str, step: int | None, start: int | None, end: int | None, detail: str) -> int:
        line = None if start is None else _line_of(self.solution.text, start)
        self.notes.append(ReadingNote(reason, step, line, start, end, detail))
        return len(self.notes) - 1

    def new_step(self, start: int, end: int, formula: str, first: int) -> ReadStep:
        start, end = self.solution.widen(start, end)  # "\\frac{1}{3}" read as "1/3": the whole of it
        step = ReadStep(len(self.steps), _line_of(self.solution.text, start), start, end, formula,
                        (first, len(self.builder.steps)))
        self.steps.append(step)
        self.spans.append((start, end))
        return step

    # -------------------------------------------------------------- the last resort

    def last_resort(self, g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
        """A number nothing grounds: bound to its place in the solution without a unit, and noted."""
        zero = _ZERO_WORDS.search(g.text) if lit.value == 0 else None
        if zero is not None:  # "none", "doesn't repair any": the question states the zero in words
            index = g.extra_mention(Mention(zero.start(), zero.end(), zero.group(), 0, source="text"))
            if index is not None:
                return Operand(mention=index, text=lit.text)
        start, end = self.literal_span(lit)
        mention = Mention(start, end, self.working[start:end], lit.value, source="solution")
        index = g.extra_mention(mention)
        if index is None:
            return None
        cause = next((n for value, n in self.unread if _same_number(value, lit.value, lit.text)), None)
        if cause is None:
            cause = self.stated_before(g, lit)
        reason = "propagated" if cause is not None else (
            "unsupported_operation" if self.algebra.present else "ungrounded_number"
        )
        self.pending.append((mention, reason, cause, lit.text))
        return Operand(mention=index, text=lit.text)

    def stated_before(self, g: GroundingState, lit: Literal) -> int | None:
        """The note of an earlier line whose prose states the number as the result of a step it leaves unwritten
        ("The secretary takes 4 more, leaving 44 donuts." then "44/2 = 22": 48 - 4), outside every formula read:
        noted as an unread line (coverage); None when no earlier line states it, or when no one step of the
        numbers known before it gives it ("He sells 7 cows." of 5 cows invents the 7).  The number is then not
        invented at the step that uses it: whether the line's claim is right, no step read tells."""
        if not lit.text or not lit.text[0].isdigit():
            return None
        lo = self.working.rfind("\n", 0, self.step_span[0]) + 1
        known = [float(m.value) for m in g.mentions[:_MAX_KNOWN]] + list(g.step_values[-_MAX_KNOWN:])
        known += self._numbers_before(lo)
        if not _one_step_gives(lit.value, [v for v in known if not _same_number(v, lit.value, lit.text)]):
            return None
        answer = self.solution.answer_span
        places = self._places.get(lit.text)
        if places is None:  # found once per text: a line break ends every match, so those before lo are the same
            pattern = rf"(?<![\d.,]){re.escape(lit.text)}(?!\d|[.,]\d)"
            places = self._places[lit.text] = [m.start() for m in re.finditer(pattern, self.working)]
        first, stop = self._open.get(lit.text, 0), bisect.bisect_left(places, lo)
        while first < stop and (self.spans.covers(places[first]) or (answer is not None
                                                                       and answer[0] <= places[first] < answer[1])):
            first += 1  # spans are only ever added: a place covered now stays covered, and is passed once
        self._open[lit.text] = first
        for at in places[first:stop]:
            start = self.working.rfind("\n", 0, at) + 1
            if start not in self.claims:
                end = self.working.find("\n", at)
                end = len(self.working) if end < 0 else end
                self.claims[start] = self.note("unread_line", None, start, end, self.solution.text[start:end].strip())
                self.spans.append((start, end))
            return self.claims[start]
        return None

    def _numbers_before(self, lo: int) -> list[float]:
        """The last :data:`_MAX_KNOWN` prose numbers of working before offset ``lo`` (a line's start): found once,
        not once per literal (what ``_PROSE_NUMBER.finditer(working, 0, lo)`` gives, a line break ending each)."""
        if self._numbers is None:
            found = list(_PROSE_NUMBER.finditer(self.working))
            self._numbers = [n.start() for n in found], [float(n.group().replace(",", "")) for n in found]
        starts, values = self._numbers
        k = bisect.bisect_left(starts, lo)
        return values[max(0, k - _MAX_KNOWN) : k]

    def _placed_near(self, lo: int, hi: int) -> set[tuple[int, int]]:
        """The placeholders' spans that may overlap ``lo..hi`` (every one that does; a few that do not): found by
        their start, not by a scan of every placeholder of the solution (ADR 0033)."""
        first = bisect.bisect_left(self._placed, (lo - self._placed_width, -1))
        last = bisect.bisect_left(self._placed, (hi + 1, -1))
        return set(self._placed[first:last])

    def literal_span(self, lit: Literal) -> tuple[int, int]:
        """Where a literal of the formula being added is written (the formula itself when it is not found)."""
        lo, hi = self.step_span
        taken = {(m.start, m.end) for m, *_ in self.pending} | self._placed_near(lo, hi)
        found = [(k, k + len(lit.text)) for k in _find_all(self.working, lit.text, lo, hi)] if lit.text else []
        free = [s for s in found if not any(a < s[1] and s[0] < b and (a, b) != s for a, b in taken)]
        if free:
            return next((s for s in free if s not in taken), free[0])
        # not written as such (prose the reader rewrote): the formula, or a placeholder already inside it
        return next(((a, b) for a, b in sorted(taken) if a < hi and lo < b), (lo, hi))

    # -------------------------------------------------------------- adding a formula

    def add(
        self, formula: str, unit: str | None, position: int, span: tuple[int, int], at: int | None = None
    ) -> tuple[int, str | None]:
        """Append a formula's steps (grounded, else with the numbers nothing grounds noted): (first trace step,
        the reason it could not be read at all, or None).  ``at`` is where the formula's text is written
        (an annotation's body): its numbers' words are then evidence for what they stand for (ADR 0018)."""
        b = self.builder
        first = len(b.steps)
        self.step_span = span
        per = self.rate_context(position) if unit is not None else ()
        reason = self._try(formula, unit, position, at, per)
        if reason == "operand_not_found" and self.algebra.present and self.algebra.solve_before(position):
            reason = self._try(formula, unit, position, at, per)
        if reason == "operand_not_found":
            b.state.last_resort = self.last_resort
            try:
                reason = self._try(formula, unit, position, at, per)
            finally:
                b.state.last_resort = None
        if reason is not None:
            self.pending.clear()
        return first, reason

    def stated_unit(self, m: re.Match[str]) -> str | None:
        """The unit the prose states after an annotation (its ``$`` before it, the words after it)."""
        return stated_unit(self.working, m.end(), self.working[max(0, m.start() - 3) : m.start()], pack=self.pack,
                           about=self.builder.state.text)

    def rate_context(self, position: int) -> tuple[str, ...]:
        """The units a result stated on the line at ``position`` may be a rate of (the GSM8K reader's rule)."""
        start = self.blanked.rfind("\n", 0, position) + 1
        found = self.contexts.get(start)
        if found is None:
            end = self.blanked.find("\n", position)
            g = self.builder.state
            span = self.builder.question_span
            asked = g.text[span[0] : span[1]] if span is not None else ""
            found = self.contexts[start] = rate_context(self.blanked[start : end if end >= 0 else None], g.text, asked)
        return found

    def _try(
        self, formula: str, unit: str | None, position: int, at: int | None = None, per: tuple[str, ...] = ()
    ) -> str | None:
        """One attempt: None when the formula's steps were added, else why not (the state is as before)."""
        b = self.builder
        saved = b._saved()  # the builder's own undo, for a formula tried again
        self.pending.clear()
        try:
            b.add_formula(formula, unit=unit, position=position, at=at, per=per)
        except ImportRefusal as exc:
            b._restore(saved)
            return exc.reason
        except (ProblemGraphError, NumberError, ZeroDivisionError, OverflowError):
            # a value the trace refuses (a result that is not a finite number), a number out of ssbg.numbers'
            # bounds, a division by zero
            b._restore(saved)
            return "unparseable_formula"
        return None

    def commit(self, step: ReadStep) -> None:
        """The numbers the last resort bound for ``step``: one note per reason, the placeholders kept."""
        by_reason: dict[str, int] = {}
        for mention, reason, unread, literal in self.pending:
            if unread is None and reason not in by_reason:
                by_reason[reason] = self.note(reason, step.index, step.start, step.end, literal)
            self.placeholders.append((mention, by_reason[reason] if unread is None else unread))
            bisect.insort(self._placed, (mention.start, mention.end))
            self._placed_width = max(self._placed_width, mention.end - mention.start)
        self.pending.clear()

    def unread_formula(self, reason: str, step: ReadStep, detail: str, results: Sequence[float]) -> None:
        """A formula not read: noted (coverage), and its results remembered so that a later step using one
        is not taken for an invented number."""
        note = self.note(_NOTE_OF.get(reason, "unparseable_formula"), step.index, step.start, step.end, detail)
        self.unread.extend((r, note) for r in results)

    def formula_value(self, expr: str) -> float | None:
        """:func:`_formula_value` (the value of ``expr`` as written, no fraction folded) from the tree the builder
        keeps for adding it (:meth:`~ssbg.reading.grounding.StepBuilder.parse`), not a parse of its own: parsed
        again only where that tree folded a fraction (``7*1/3`` folded is ``7*(1/3)``, another last place) or did
        not parse."""
        try:
            tree = self.builder.parse(expr)
            if isinstance(tree, Literal) and "/" not in tree.text:
                value: float | None = tree.value
            elif isinstance(tree, BinOp) and not any("/" in lit.text for lit, _ in formula_literals(tree)):
                value = tree.value
            else:
                return _formula_value(expr)
        except (ImportRefusal, ValueError, ZeroDivisionError, OverflowError, RecursionError):
            return _formula_value(expr)
        return value if value is not None and math.isfinite(value) else None

    # -------------------------------------------------------------- annotations and prose

    def annotation(self, m: re.Match[str]) -> None:
        body = m.group(1)
        if len(body) > _PLACES_READ + 1:  # "3/440=0.0068181818…" of 1,000 places: 20 are read
            body = _LONG_PLACES.sub(r"\1", body)
        expr, eq, stated = body.rpartition("=")
        if not eq:
            expr, stated = body, ""
        written = _WRITTEN.match(self.working, m.end())
        written_text = None if written is None else written.group("num") + (written.group("pct") or "").strip()
        value = self.formula_value(expr)
        stated_value = _number(stated)
        slips: list[str] = []
        if value is not None and stated.strip() and not gives(value, stated.strip()):
            slips.append(stated.strip())
        if (  # the result written after the annotation: what its operation, or the annotation's result, gives
            value is not None
            and written_text is not None
            and not gives(value, written_text)
            and not (stated_value is not None and gives(stated_value, written_text))
            and not ("." in written_text and stated.strip().startswith(written_text))  # "=14.999999999999998>>14.99"
        ):
            slips.append(written_text)
        formula = body
        carried = None if written is None or written.group("pct") else _number(written.group("num"))
        if carried is not None and stated_value is not None and carried != stated_value and stated.strip() not in slips:
            # the result as the prose writes it is what later steps use ("=-28>>28", "=17.142857142857142>>17")
            formula = f"{expr}={written.group('num')}"  # type: ignore[union-attr]
        start = self.restated.get(m.start()) or _restated_start(self.working, m.start())
        end = written.end("num") if written is not None else m.end()
        unit = self.stated_unit(m)
        first, reason = self.add(formula, unit, m.start(), (m.start(1), m.end(1)), at=m.start(1))
        step = self.new_step(start, end, body.strip(), first)
        if reason is not None:
            results = [v for v in (_number(stated), _number(written_text or "")) if v is not None]
            self.unread_formula(reason, step, body.strip(), results)
            return
        self.commit(step)
        if slips and value is not None:
            shown = expr.strip()
            self.note("arithmetic_error", step.index, step.start, step.end,
                      f"{shown} gives {_shown(value)}, not {slips[0]}")

    def prose(self, m: re.Match[str]) -> None:
        if m.group("blank") and not _BARE_ANNOTATION.fullmatch(self.working, m.start("blank"), m.end("blank")):
            self.restated[m.start("blank")] = m.start()  # "16 - 3 = <<16-3=13>>13": the annotation is the step
            return
        formula = _prose_formula(m, self.working)
        slip: str | None = None
        if formula is None and self.chain(m):
            return
        if formula is None:
            unread = _unread_prose(m)
            if unread is not None:
                self.unread_prose(m, unread)
                return
            read = _prose_slip(m)
            if read is None:
                return
            formula, slip = read
        unit = stated_unit(self.blanked, m.start("result"), "$" if "$" in m.group() else "", pack=self.pack,
                           about=self.builder.state.text)
        start, end = m.start(), m.end("pct") if m.group("pct") else m.end("result")
        first, reason = self.add(formula, unit, m.start(), (m.start("expr"), m.end("expr")))
        step = self.new_step(start, end, " ".join(self.working[start:end].split()), first)
        if reason is not None:
            stated = _number(formula.rpartition("=")[2].rstrip("%"))
            self.unread_formula(reason, step, formula, [] if stated is None else [stated])
            return
        self.commit(step)
        if slip is not None:
            self.note("arithmetic_error", step.index, step.start, step.end, slip)

    def chain(self, m: re.Match[str]) -> bool:
        """A link of a chain of equalities whose right side goes on (``120 - 15 - 30 = 105 - 30 = 75``): the one
        operation the right side replaced by its result (``120 - 15 = 105``) read as a step, when the sides are
        equal and differ only there; a right side that only restates a number (``90% * 60 = 0.90 * 60``) is no
        computation (its span is covered, no step).  False when it is no such link (the caller reads it as
        before: a step, a slip or an unread line); the next link (``105 - 30 = 75``) is found by the loop."""
        text = m.string
        eol = text.find("\n", m.end())
        eol = len(text) if eol < 0 else eol
        nxt = text.find("=", m.start("result"), min(eol, m.start("result") + 400))
        if nxt < 0 or not _CHAIN_RIGHT.fullmatch(text, m.start("result"), nxt):
            return False
        left, right = _prose_expression(m.group("expr")), _prose_expression(text[m.start("result") : nxt])
        if left is None or right is None:
            return False
        found = _replaced(left, right)
        if found is None:
            return False
        self.spans.append((m.start(), len(text[:nxt].rstrip())))  # the link is read (a restatement: no step)
        if "<<" in self.working[nxt:eol]:
            return True  # "$35 x (52 x 2) = $35 x 104 = $<<35*52*2=3640>>": the annotation is the step of the chain
        at = m.start()
        for operation, result in found:
            if operation is None:
                continue
            formula = f"{operation}={result}"
            # the step spans its operation on the left side (the whole left side when it is not found there): the
            # next link ("105 - 30 = 75") has its own span after it
            start, end = _operation_span(text, operation, at, m.end("expr")) or (m.start(), m.end("expr"))
            at = max(at, end)
            first, reason = self.add(formula, None, m.start(), (m.start("expr"), m.end("expr")))
            step = self.new_step(start, end, f"{operation} = {result}", first)
            if reason is not None:
                self.unread_formula(reason, step, formula, [v for v in (_number(result),) if v is not None])
                continue
            self.commit(step)
        return True

    def unread_prose(self, m: re.Match[str], result: float) -> None:
        """A prose equation that is no computation to read (:func:`_unread_prose`): its line noted (coverage) and
        its result remembered, so that a later step using it is not taken for an invented number."""
        lo = self.solution.text.rfind("\n", 0, m.start()) + 1
        hi = self.solution.text.find("\n", m.start())
        hi = len(self.solution.text) if hi < 0 else hi
        if self.spans.covers(m.start()):
            return
        note = self.note("unread_line", None, lo, hi, self.solution.text[lo:hi].strip())
        self.spans.append((lo, hi))
        self.unread.append((result, note))

    def unread_lines(self) -> None:
        """A line with arithmetic (``= 12`` after a number) that no step read: coverage."""
        seen: set[int] = set()
        answer = self.solution.answer_span
        for m in _ARITHMETIC.finditer(self.blanked):
            at = m.start()
            if self.spans.covers(at) or (answer is not None and answer[0] <= at < answer[1]):
                continue
            line = _line_of(self.solution.text, at)
            if line in seen:
                continue
            seen.add(line)
            lo = self.solution.text.rfind("\n", 0, at) + 1
            hi = self.solution.text.find("\n", at)
            hi = len(self.solution.text) if hi < 0 else hi
            self.note("unread_line", None, lo, hi, self.solution.text[lo:hi].strip())

    def run(self) -> None:
        events: list[tuple[int, int, re.Match[str]]] = [(m.start(), 1, m) for m in _ANNOTATION.finditer(self.working)]
        at = 0
        while (found := _PROSE_EQUATION.search(self.blanked, at)) is not None:
            events.append((found.start(), 0, found))  # before an annotation at the same place: it may restate it
            at = found.end("expr")
        events.sort(key=lambda e: (e[0], e[1]))
        annotations = [m for _at, is_annotation, m in events if is_annotation]
        # every annotation's numbers chosen at once (ADR 0018)
        self.builder.plan_annotations([(m.start(), m.start(1), m.group(1), self.stated_unit(m)) for m in annotations])
        for _position, is_annotation, m in events:
            if self.notes and self.notes[-1].reason == "record_too_large":
                break  # the builder takes no more formulas (grounding.MAX_FORMULAS): the rest is not read
            if is_annotation:
                self.annotation(m)
            else:
                self.prose(m)
        self.unread_lines()


_NOTE_OF = {  # why a formula was not read -> its note
    "unparseable_formula": "unparseable_formula",
    "unsupported_operation": "unsupported_operation",
    "record_too_large": "record_too_large",
    "ambiguous_grounding": "ambiguous_grounding",
    "operand_not_found": "unsupported_operation",
    "malformed_record": "unparseable_formula",
}


# "16 - 3 = $<<16-3=13>>13": the expression the prose writes before an annotation (a run of numbers and operators)
_SIGN = r"+\-*/x\u00d7\u00f7\u2013"
_RESTATED = re.compile(rf"[\d$(][\d$.,()% \t{_SIGN}]*?[{_SIGN}][\d$.,()% \t{_SIGN}]*=[ \t]*\$?[ \t]*$")


def _restated_start(text: str, at: int) -> int:
    """Where the expression the prose restates right before an annotation at ``at`` starts (``at`` without one)."""
    line_start = text.rfind("\n", 0, at) + 1
    m = _RESTATED.search(text, max(line_start, at - 200), at)
    return at if m is None else m.start()


def _number(text: str) -> float | None:
    try:
        value = parse_number(text.strip().lstrip("$").rstrip("%").strip())
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _shown(value: float) -> str:
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else f"{value:.6g}"


class _Spans:
    """Where the read formulas and the noted lines of a solution are: ``append((start, end))`` marks them,
    ``covers(at)`` tells in one look whether an offset lies inside one (a scan of every span per offset grew
    with the product of a solution's steps and its numbers, ADR 0033)."""

    def __init__(self, size: int) -> None:
        self._mask = bytearray(size + 1)
        self._spans: list[tuple[int, int]] = []

    def append(self, span: tuple[int, int]) -> None:
        start, end = span
        self._spans.append(span)
        if end > len(self._mask):
            self._mask.extend(bytes(end - len(self._mask)))
        if end > start >= 0:
            self._mask[start:end] = b"\x01" * (end - start)

    def covers(self, at: int) -> bool:
        return 0 <= at < len(self._mask) and bool(self._mask[at])

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(self._spans)

    def __len__(self) -> int:
        return len(self._spans)


_PROSE_NUMBER = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\d.,])\d+(?:\.\d+)?")
_MAX_KNOWN = 16  # numbers of each source a prose claim may be one step of (bounded work per literal)


def _one_step_gives(value: float, known: list[float]) -> bool:
    """Whether one sum, difference, product or quotient of two known numbers gives ``value``."""
    tolerance = 1e-9 * max(1.0, abs(value))
    return any(abs(r - value) <= tolerance for i, a in enumerate(known) for b in known[i + 1 :]
               for r in one_step_values(a, b))


def _same_number(value: float, literal: float, text: str) -> bool:
    """A literal stands for a remembered result: equal, or the result as the literal rounds it."""
    return gives(value, text) if "." in text else abs(value - literal) <= 1e-9 * max(1.0, abs(value))


def _find_all(text: str, needle: str, lo: int, hi: int) -> list[int]:
    out: list[int] = []
    at = text.find(needle, lo, hi)
    while at >= 0:
        out.append(at)
        at = text.find(needle, at + 1, hi)
    return out


_SPLIT_THOUSANDS_BEFORE = re.compile(r"\d[ \u00a0]$")
_NOT_A_RESULT = re.compile(r"[ \t]*(?:[-+*/x\u00d7\u00f7][ \t]*\$?[\d(.]|[ \u00a0]\d{3}(?!\d)|\.\.\.|\u2026|[.,]\d)")
# A prose equation that is no computation to call a slip (issue 25: each was a false alarm on GSM8K train gold).
# Before it on its line: an operator ("X*2 - $40 = $250", "M + 4 + 2 = 8": a larger expression, often over an
# unknown), a whole number and "and" ("1 and 1/4 cup"), a clock's colon ("6:00+18 hours"), a factor in
# parentheses it multiplies ("(1/2) 278 + 11 = 150").
_CONTINUED_BEFORE = re.compile(r"(?:[-+*/\u00d7\u00f7\u2013]|\d[ \t]+and|\d:|\d\))[ \t]*$")
# After its result: a letter joined to it ("= 5A/5", "= 3S + 1"), a clock ("= 00:00"), or more arithmetic past
# the result's unit words ("= 240 students \u2013 224 students", "= 30 + M trees", "= 24/Y", "= $15/shirt * 10").
_CONTINUED_AFTER = re.compile(
    r"[A-Za-z](?![A-Za-z])|:\d|(?:/[A-Za-z]+)?(?:[ \t]+[A-Za-z]+){0,4}[ \t]*[-+*/x\u00d7\u00f7\u2013][ \t]*"
    r"(?:\$?[\d(.]|[B-HJ-Zb-z](?![A-Za-z]))"
)
_LEADING_ZERO = re.compile(r"(?<![\d.,])0\d")  # "0900 - 0130 = 0730": times of day, not numbers
_OF = re.compile(r"(?<![A-Za-z])of(?![A-Za-z])")  # "1/3 of Solomon = 66/3": a fraction of an unstated value
# A result in another unit than its operands ("$1 / 2 = 50 cents", "5 * 3 = $15,000" for 5 thousand dollars):
# the ratios of the conversions such prose makes.
_CONVERSIONS = (100, 1000, 60, 3600, 24, 16, 12)
_WORD_AFTER = re.compile(r"[ \t]+[A-Za-z]")


def _prose_slip(m: re.Match[str]) -> tuple[str, str] | None:
    """A prose equation whose stated result its own operation does not give (``2*8 = 24``): the formula
    with the stated result (what later steps use) and what its operation gives instead; None when it is
    no formula to read (the GSM8K reader's own test, :func:`~ssbg.reading.readers.gsm8k._prose_formula`,
    skips both)."""
    text = m.string
    # "$400 000 x 3": "000 x 3" is no formula; "= 30 - 24 = 6", "= $12 000", "= 33.333...%": not the whole result
    if _SPLIT_THOUSANDS_BEFORE.search(text, max(0, m.start() - 2), m.start()) or _NOT_A_RESULT.match(text, m.end()):
        return None
    expr = _prose_expression(m.group("expr"))
    if expr is None:
        return None
    value = _formula_value(expr)
    try:
        stated = _stated_result(m.group("result"))
    except (ValueError, ZeroDivisionError):
        return None
    if value is None or stated is None:
        return None
    written, result = stated
    percent = bool(m.group("pct")) and "%" in expr
    if _agrees(value, result, written, percent) or gives(value, written + ("%" if m.group("pct") else "")):
        return None  # it agrees: _prose_formula declined it for another reason
    formula = f"{expr}={written}{'%' if percent else ''}"
    return formula, f"{m.group('expr').strip()} gives {_shown(value)}, not {m.group('result')}"


# The right side of a link of a chain (up to the next "="): numbers, operators, parentheses, unit words
_CHAIN_RIGHT = re.compile(r"[ \t]*[\d$.(][\w$.,%() \t*/+\-\u00d7\u00f7\u2013']*")
_CHAIN_TOKEN = re.compile(r"(?:\d[\d,]*(?:\.\d+)?|\.\d+)%?|[-+*/()]")


def _replaced(left: str, right: str) -> list[tuple[str | None, str]] | None:
    """The operations of ``left`` that ``right`` replaced by their results, with those results, when both sides
    have the same value: one operation where the sides differ only there (``"5*16+4"``, ``"80+4"`` give
    ``[("5*16", "80")]``), else one per term where they have the same terms (``"3*2+5*1"``, ``"6+5"`` give
    ``[("3*2", "6"), ("5*1", "5")]``); ``(None, number)`` for a number ``right`` only restates (``"90%*60"``,
    ``"0.90*60"``); None otherwise."""
    a, b = _CHAIN_TOKEN.findall(left), _CHAIN_TOKEN.findall(right)
    if "".join(a) != left.replace(" ", "") or "".join(b) != right.replace(" ", ""):
        return None  # a token the link does not read (a letter, a written fraction): not one to rewrite
    va, vb = _formula_value(left), _formula_value(right)
    if va is None or vb is None or abs(va - vb) > 1e-9 * max(1.0, abs(va)):
        return None
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    # the shared ends may reach into the replaced part ("7.5*(1+1/3)", "7.5*(4/3)" share "/3)"): a few shorter
    for h, t in itertools.product(range(head, max(-1, head - 5), -1), range(tail, max(-1, tail - 5), -1)):
        found = _replaced_at(a[h : len(a) - t], b[h : len(b) - t])
        if found is not None:
            return [found]
    terms_a, terms_b = _terms(a), _terms(b)
    if terms_a is None or terms_b is None or terms_a[1] != terms_b[1] or len(terms_a[0]) != len(terms_b[0]):
        return None
    out: list[tuple[str | None, str]] = []
    for x, y in zip(terms_a[0], terms_b[0], strict=True):
        if x == y:
            continue
        found = _replaced_at(x, y)
        if found is None:
            return None
        out.append(found)
    return out or None


def _terms(tokens: list[str]) -> tuple[list[list[str]], list[str]] | None:
    """The terms of an expression at its lowest precedence outside parentheses, and the operators between them
    (``3*2+5*1``: ``[3*2, 5*1]``, ``[+]``; without a sum or difference, its factors); None for one term."""
    for ops in ("+-", "*/"):
        terms: list[list[str]] = [[]]
        between: list[str] = []
        depth = 0
        for t in tokens:
            depth += (t == "(") - (t == ")")
            if depth == 0 and t in ops and terms[-1]:  # a sign with no term before it is the number's
                between.append(t)
                terms.append([])
            else:
                terms[-1].append(t)
        if between and all(terms):
            return terms, between
    return None


_TEXT_NUMBER = re.compile(r"(?<![\d.,])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")


def _operation_span(text: str, operation: str, start: int, end: int) -> tuple[int, int] | None:
    """Where the numbers of ``operation`` are written in ``text[start:end]``, in order: from its first number to
    its last (a closing parenthesis right after it included); None when they are not all found there."""
    numbers = [n.replace(",", "") for n in _CHAIN_TOKEN.findall(operation) if n[0].isdigit() or n[0] == "."]
    first = last = None
    at = start
    for n in numbers:
        n = n.rstrip("%")  # noqa: PLW2901
        found = next((x for x in _TEXT_NUMBER.finditer(text, at, end) if x.group().replace(",", "") == n), None)
        if found is None:
            return None
        first = found.start() if first is None else first
        last, at = found.end(), found.end()
    if first is None or last is None:
        return None
    return first, last


def _replaced_at(middle: list[str], number: list[str]) -> tuple[str | None, str] | None:
    """:func:`_replaced` for one choice of the shared ends: the tokens of the left side between them, and of the
    right side (one number, or a written fraction in parentheses)."""
    if len(number) == 5 and number[0] == "(" and number[2] == "/" and number[4] == ")":
        number = ["".join(number[1:4])]  # "7.5 * (1 + 1/3) = 7.5 * 4/3": a written fraction is one number
    if len(number) != 1 or not middle or not (number[0][0].isdigit() or number[0][0] == "."):
        return None
    stated = _formula_value(number[0])
    if len(middle) == 1:
        value = _formula_value(middle[0].replace("%", "/100"))
        same = value is not None and stated is not None and abs(value - stated) <= 1e-9 * max(1.0, abs(value))
        return (None, number[0]) if same else None
    operation = "".join(middle)
    if operation.startswith("(") and operation.endswith(")"):
        operation = operation[1:-1]
    if operation.count("(") != operation.count(")") or operation[0] in "*/+)" or operation[-1] in "*/+-(":
        return None
    value = _formula_value(operation)
    if value is None or stated is None:
        return None
    return (operation, number[0]) if abs(value - stated) <= 1e-9 * max(1.0, abs(value)) else None


def _unread_prose(m: re.Match[str]) -> float | None:
    """The result of a prose equation the GSM8K reader declined that is no computation to read or to call a slip
    (None when it may be one): part of a larger expression (:data:`_CONTINUED_BEFORE`, :data:`_CONTINUED_AFTER`),
    over lines, a fraction "of" something unstated, times of day, or one whose stated result its expression gives
    under another reading the prose allows (:func:`_another_reading_agrees`)."""
    text, prose = m.string, m.group("expr")
    try:
        stated = _stated_result(m.group("result"))
    except (ValueError, ZeroDivisionError, NumberError):
        return None
    if stated is None:
        return None
    line_start = text.rfind("\n", 0, m.start()) + 1
    if (
        _CONTINUED_BEFORE.search(text, max(line_start, m.start() - 12), m.start())
        or _CONTINUED_AFTER.match(text, m.end())
        or "\n" in prose
        or _OF.search(prose)
        or _LEADING_ZERO.search(prose + " " + m.group("result"))
    ):
        return stated[1]
    expr = _prose_expression(prose)
    value = None if expr is None else _formula_value(expr)
    if expr is None or value is None or not _another_reading_agrees(expr, value, stated[1], stated[0], m):
        return None
    return stated[1]


def _another_reading_agrees(expr: str, value: float, result: float, written: str, m: re.Match[str]) -> bool:
    """Whether the stated result is what the expression gives under a reading the prose allows: a percentage
    written as its number ("3/21 * 100% = 14.28", "$7500/75% = $100"), or a result in another unit than the
    operands, stated with a unit or a currency ("$1 / 2 = 50 cents")."""
    if "%" in expr and not m.group("pct"):
        whole = _formula_value(expr.replace("%", ""))
        as_written = whole is not None and _agrees(whole, result, written, False)
        if as_written or _agrees(value * 100, result, written, False):
            return True
    text = m.string
    with_unit = "$" in text[m.start("result") - 2 : m.start("result")] or _WORD_AFTER.match(text, m.end())
    if with_unit and value and result:
        ratio = max(abs(result / value), abs(value / result))
        return any(abs(ratio - k) <= 1e-9 * k for k in _CONVERSIONS)
    return False


def _joined_thousands(text: str) -> str:
    """``text`` with digit groups split by spaces joined by commas (:data:`SPLIT_THOUSANDS`, same length)."""
    if not _SPLIT_GROUP.search(text):
        return text  # no digit group split by a space (what the pattern needs)
    return SPLIT_THOUSANDS.sub(lambda m: re.sub(r"[ \u00a0\u202f]", ",", m.group()), text)


def read_solution(
    question: str,
    solution: str | Sequence[str],
    *,
    pack: UnitPack | None = None,
    problem_id: str = "solution",
) -> SolutionReading:
    """Read a solution to ``question`` for checking: its steps, what they stand for, and the notes.

    Never raises on strings: what cannot be read is a note.

    Raises
    ------
    ProblemGraphError
        ``wrong_type`` when ``question`` is not a string or ``solution`` neither a string nor a
        sequence of strings.
    """
    if not isinstance(question, str):
        raise ProblemGraphError(f"'question' must be a str (got {type(question).__name__})",
                                reason="wrong_type", path="question")
    if not isinstance(solution, str) and not (
        isinstance(solution, Sequence) and all(isinstance(s, str) for s in solution)
    ):
        raise ProblemGraphError(f"'solution' must be a str or a list of str (got {type(solution).__name__})",
                                reason="wrong_type", path="solution")
    p = default_pack() if pack is None else pack
    too_large = size_refusal(question, solution)
    if too_large is not None:  # refused before any reading: the caps bound the work (ssbg.limits)
        shown = solution if isinstance(solution, str) else "\n".join(solution)
        note = ReadingNote("record_too_large", None, None, None, None, too_large.detail or too_large.message)
        return SolutionReading(NormalizedSolution(shown, shown), None, (), (note,))
    normalized = normalize_solution(solution)
    if not question.strip() or not normalized.text.strip():
        which = "question" if not question.strip() else "solution"
        note = ReadingNote("empty_text", None, None, None, None, which)
        return SolutionReading(normalized, None, (), (note,))
    question = _joined_thousands(question)  # "$400 000" as "$400,000" (same length: the offsets hold)
    try:
        span, read, shared = _question(question, p, readings_kept())
    except NumberError as exc:  # a number past ssbg.numbers' bounds: the question cannot be read
        note = ReadingNote("number_out_of_range", None, None, None, None, f"question: {exc.detail or exc.message}")
        return SolutionReading(normalized, None, (), (note,))
    builder = StepBuilder(problem_id, CORPUS, question, read.mentions, question_span=span,
                          answer_unit=read.answer_unit, answer=normalized.answer, solution=normalized.working, pack=p,
                          shared=shared)
    builder.state.solution_numbers = False
    reader = _Reader(builder, normalized, p)
    reader.run()
    try:
        trace = builder.build()
    except ImportRefusal as exc:
        if exc.reason != "no_equation":
            raise  # pragma: no cover - build refuses only an empty trace (and a trace it made wrong: a bug)
        reader.note("no_equation", None, None, None, "no arithmetic step in the solution")
        return SolutionReading(normalized, None, tuple(reader.steps), tuple(reader.notes))
    placeholders = _placeholder_indices(trace, reader.placeholders)
    return SolutionReading(normalized, trace, tuple(reader.steps), tuple(reader.notes), placeholders)


def _placeholder_indices(trace: Trace, placeholders: Sequence[tuple[Mention, int]]) -> tuple[tuple[int, int], ...]:
    """(trace mention index, note index) of the solution mentions the last resort made (build re-sorts mentions)."""
    if not placeholders:
        return ()
    where = {(m.start, m.end): i for i, m in enumerate(trace.mentions) if m.source == "solution"}
    return tuple(sorted({(where[(m.start, m.end)], note) for m, note in placeholders if (m.start, m.end) in where}))
