"""Reader of GSM8K JSONL: ``{"question", "answer"}`` per line (Cobbe et al. 2021).

The answer is prose with calculator annotations ``<<48/2=24>>`` and a last line
``#### 72``.  Each annotation becomes the steps of one formula; the words right
after it state the result's unit (``>>24 clips in May``, ``$<<12/60=0.2>>0.2 per
minute``).  GSM8K has no ids: a problem is ``<file stem>-<line>``.

Examples
--------
>>> t = gsm8k_trace(
...     "Weng earns $12 an hour for babysitting. Yesterday, she just did 50 minutes of babysitting. "
...     "How much did she earn?",
...     "Weng earns 12/60 = $<<12/60=0.2>>0.2 per minute.\\nWorking 50 minutes, she earned 0.2 x 50 = "
...     "$<<0.2*50=10>>10.\\n#### 10", problem_id="train-2")
>>> [(s.op, s.unit) for s in t.steps], t.answer
([('divide', '$ per minute'), ('multiply', '$')], 10.0)
"""

from __future__ import annotations

import collections
import functools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from ssbg.errors import ImportRefusal, NumberError
from ssbg.numbers import number_or_none, parse_number
from ssbg.reading.formula import BinOp, parse_formula
from ssbg.reading.grounding import StepBuilder
from ssbg.reading.mentions import VULGAR_FRACTIONS, Token, angle_reading, find_question_span, tokenize, unit_after
from ssbg.reading.problem_text import read_problem_text
from ssbg.reading.readers.common import (
    RawRecord,
    StagedReader,
    decode_jsonl_line,
    numbers_of,
    refused_record,
    scan_jsonl,
    text_field,
)
from ssbg.reading.records import CorpusRecord
from ssbg.trace import Mention, Trace
from ssbg.units import UnitPack, default_pack

__all__ = [
    "CORPUS",
    "build_gsm8k_record",
    "gsm8k_problem_id",
    "gsm8k_trace",
    "rate_context",
    "read_gsm8k",
    "socratic_to_plain",
    "stated_unit",
]

CORPUS = "gsm8k"

_ANNOTATION = re.compile(r"<<([^<>]*)>>")
_FINAL = re.compile(r"^####\s*(.*)$", re.MULTILINE)
_NUMBER = r"(?:\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
# Arithmetic the prose writes without a calculator annotation: "a party of 1+1+4 = 6 people",
# "800 calories/rabbit * 2 rabbits = 1600 calories", "55(.20)=11", "(12+14)/2=13", or an
# expression whose result is a bare-number annotation ("5*7 = <<35=35>>35"). Unit words after a
# number are dropped; a number right before "(" multiplies it.
_OPERATOR = r"(?:[-+*/\u00d7\u2013\u00f7]|[xX](?=\s))"
_UNIT_WORD = r"(?:\s+(?![xX]\b|and\b|or\b|is\b|are\b|of\s+\d|times\b)[A-Za-z][A-Za-z'\u2019-]*(?:/[A-Za-z]+)?)"
_DECIMAL_DENOMINATORS = (2, 4, 5, 8, 10)  # a fraction over these is a short exact decimal ("1 1/2" is 1.5)
_MIXED_OR_VULGAR = rf"(?:\d+ \d+/\d+(?![\d/])|[{''.join(VULGAR_FRACTIONS)}])"
_OPERAND = rf"\$?(?:{_MIXED_OR_VULGAR}|{_NUMBER})(?:\s*%)?(?:/[A-Za-z]+{_UNIT_WORD}{{0,2}}|{_UNIT_WORD}{{0,5}})"
_GROUP = rf"\(\s*{_OPERAND}(?:\s*{_OPERATOR}\s*{_OPERAND})*\s*\)"
_ATOM = rf"(?:{_OPERAND}|{_GROUP})"
# At most this many operations in one prose equation (GSM8K writes up to about 15): each start
# position scans at most that far, so a long run of "1 apples + 1 apples + ..." without "=" costs
# linear time, not quadratic (a corrupt 4 MB record would take hours).
_MAX_PROSE_OPERANDS = 40
# The lookahead names the characters an equation can start with (a number, "$", "(", a vulgar
# fraction): the other positions fail at once instead of entering the expression.
_PROSE_EQUATION = re.compile(
    rf"(?=[\d$(.{''.join(VULGAR_FRACTIONS)}])"
    rf"(?<![\w.,$/_])(?P<expr>{_ATOM}(?:(?:\s*{_OPERATOR}\s*|(?=\())(?:{_ATOM})){{1,{_MAX_PROSE_OPERANDS}}})"
    rf"\s*=\s*(?P<blank>_*)\s*\$?\s*"
    rf"(?P<result>\d+ \d+/\d+(?![\d/])|\d+/\d+(?![\d/%]|\.\d)|{_NUMBER})(?![\d_]|/(?![ \t]*[A-Za-z]))(?P<pct>\s*%)?"
)
_EXPRESSION_TOKEN = re.compile(
    rf"{_MIXED_OR_VULGAR}|\d+/\d+(?![\d/%]|\.\d)|{_NUMBER}%?|/[A-Za-z]+|[-+*/()\u00d7\u2013\u00f7]|[xX](?![A-Za-z])|[A-Za-z][A-Za-z'\u2019-]*(?:/[A-Za-z]+)?"
)
_WRITTEN_FRACTION = re.compile(r"\d+/\d+")  # "3/4" in prose arithmetic: one number
# Vulgar fractions and mixed numbers the prose writes ("(\u00bd)*6", "8 x 1 1/2 = 12"): read as decimals.
_BARE_ANNOTATION = re.compile(rf"<<\s*{_NUMBER}\s*(?:=\s*{_NUMBER}\s*)?>>")
_ALGEBRA = re.compile(r"\b[Ll]et\s+[A-Za-z]\b|\b[A-Za-z]\s*=\s*\d|\b\d+[a-z]\b\s*[-+=]")
# An equation the prose of an algebra solution writes over a one-letter unknown ("x+x+4 = 120",
# "R + 2R - 7 = 98", "J + 9 = 3(J - 11)"): a run of numbers, single letters, operators and "=".
_EQUATION_RUN = re.compile(
    rf"(?:\$?{_NUMBER}%?|(?<![A-Za-z'\u2019])[A-Za-z](?![A-Za-z'\u2019])|[-+*/()=\u00d7\u00f7\u2212\u2013]|[ \t])+"
)
_TIMES_X = re.compile(r"(?<=[\d)])\s+[x\u00d7]\s+(?=[\d(])")  # "5 x 4" is a product even where x is the unknown
_JUXTAPOSED = re.compile(r"(?<=[\d)A-Za-z])\s*(?=[A-Za-z(])")  # "2x", "3(J - 11)", "10L": a product
_MAX_CHAIN = 6  # sides of one chain "a = b = c" (the prose writes up to four)
_MONOMIAL = re.compile(r"(?:\d+(?:\.\d+)?|\.\d+)\*[A-Za-z]")  # "6*x", "1.25*x": a product the prose names
_PRODUCT = re.compile(rf"(?<![\w.]){_MONOMIAL.pattern}(?![\w.])")  # one in a side, to stand for what it was made of
_SIGNS = str.maketrans({"\u00d7": "*", "\u00f7": "/", "\u2212": "-", "\u2013": "-", "$": None, ",": None})
# A result written after an annotation: "24 clips", "$0.30 per task" (its "$" after the ">>").
_RESULT = re.compile(
    r"\s*(?P<currency>\$?)[ \t]*(?P<num>-?(?:\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+))"
)
# What may stand between a result and the unit after its slash: "0.3 / task", "0.3/ task", "0.3$/task"
# (read as "0.3/task", the "$" as the currency); a division by a number ("0.3 / 2") is none.
_LOOSE_SLASH = re.compile(r"[ \t]*(?P<currency>\$?)[ \t]*/[ \t]*(?=[A-Za-z])")
_CURRENCY_AFTER = re.compile(r"[ \t]*\$(?=[ \t]+[A-Za-z])")  # "0.3 $ per task": the "$" is the currency


_PERIODS = "second|minute|hour|day|night|week|weekend|month|year|semester|season"
# Both case-blind in effect: each pattern is written in lower case and searched in a text lower-cased (an
# ASCII text, whose offsets lower-casing keeps), or case-blind in another (no case folding per character).
_PERIOD_RATE = (
    rf"(?<![a-z])(?:per|a|an|each|every|one)\s+({_PERIODS})s?(?![a-z])"
    r"|(?<![a-z])(hourly|daily|nightly|weekly|monthly|yearly|annually|annual)(?![a-z])"
)
_ADVERBS = {"hourly": "hour", "daily": "day", "nightly": "night", "weekly": "week", "monthly": "month",
            "yearly": "year", "annually": "year", "annual": "year"}  # fmt: skip
_EACH = r"(?<![a-z])(?:each|per|apiece|a piece|every)(?![a-z])"
# Every match of _PERIOD_RATE holds one of these ("hourly" holds "hour"), every match of _EACH one of those:
# a text of none is not searched (the look-behind at a pattern's start runs it at every offset).
_PERIOD_KEYS = (*_PERIODS.split("|"), "daily", "annual")
_EACH_KEYS = ("each", "per", "piece", "every")


class _CaseBlind:
    """A pattern written in lower case, searched case-blind: in the lower-cased text where that is ASCII,
    else with case folding; a text holding none of ``keys`` (lower case) is not searched at all."""

    def __init__(self, pattern: str, keys: tuple[str, ...]) -> None:
        self.lower, self.folding, self.keys = re.compile(pattern), re.compile(pattern, re.IGNORECASE), keys

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """The matches (their groups lower-cased where the text is ASCII)."""
        if not text.isascii():
            return self.folding.finditer(text)
        lowered = text.lower()
        return self.lower.finditer(lowered) if any(map(lowered.__contains__, self.keys)) else iter(())

    def search(self, text: str) -> bool:
        """Whether the text has a match."""
        return next(self.finditer(text), None) is not None


_PERIOD_RATES = _CaseBlind(_PERIOD_RATE, _PERIOD_KEYS)
_EACHES = _CaseBlind(_EACH, _EACH_KEYS)


def rate_context(line: str, text: str, question: str = "") -> tuple[str, ...]:
    """The units a result's context makes it a rate of (:attr:`~ssbg.trace.Step.per`): the periods its
    solution line, then the question (the problem's time frame), then the rest of the text names as a
    denominator (``a week``, ``per day``, ``monthly``), and ``item`` where any says ``each`` or ``per``.

    >>> rate_context("He makes 8 x 5 = 40 hours.", "He works 8 hours a day, 5 days a week.", "How many a week?")
    ('week', 'day')
    >>> rate_context("That is $20 x 15% = $3 off.", "Shirts are $20 each.")
    ('item',)
    """
    out = list(_periods(line))
    for unit in _text_rate_context(text, question):
        if unit not in out:
            out.append(unit)
    if "item" not in out and _EACHES.search(line):
        out.append("item")
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def _periods(where: str) -> tuple[str, ...]:
    """The periods ``where`` names as a rate's denominator, in order (memoized: a text asks once)."""
    out: list[str] = []
    for m in _PERIOD_RATES.finditer(where):
        unit = (m.group(1) or _ADVERBS[m.group(2).lower()]).lower()
        if unit not in out:
            out.append(unit)
    return tuple(out)


@functools.lru_cache(maxsize=1024)
def _text_rate_context(text: str, question: str) -> tuple[str, ...]:
    """The question's periods, then the text's, then ``item`` where the text says ``each`` or ``per``."""
    out = list(_periods(question))
    out.extend(unit for unit in _periods(text) if unit not in out)
    if _EACHES.search(text):
        out.append("item")
    return tuple(out)


_TOKEN_WINDOW = 256  # characters that hold 8 tokens of any prose a solution writes after a result


def _first_tokens(line: str, start: int, stop: int, limit: int) -> tuple[Token, ...]:
    """``tokenize(line, start, stop, limit=limit)``, reading a window of the line first: a token is decided by
    the characters up to one past its end, so when the window's first ``limit`` tokens end before its edge
    they are the line's; else the whole line is read, as before.  A line of one long chunk (``<<1+1=2``
    repeated) is otherwise read whole for each of its results (issue 27: quadratic)."""
    cut = min(stop, start + _TOKEN_WINDOW)
    if cut < stop:
        toks = tokenize(line, start, cut, limit=limit)
        if len(toks) == limit and toks[-1].end < cut:
            return toks
    return tokenize(line, start, stop, limit=limit)


def stated_unit(
    line: str, end: int, before: str = "", *, pack: UnitPack | None = None, about: str = ""
) -> str | None:
    """The unit the prose states for a result written at ``line[end:]`` (right after an annotation).

    ``before`` is the text just before the annotation (a ``$`` there is the currency); ``about`` the problem's
    text, whose angle words make a stated ``degrees`` an angle's (:func:`~ssbg.reading.mentions.angle_reading`).

    >>> stated_unit(">>24 clips in May.", 2), stated_unit(">>0.2 per minute", 2, "= $")
    ('clips', '$ per minute')

    Memoized (a pure function of its arguments and the pack): the solution reader asks it of each annotation
    once to plan the solution and once to read the step.
    """
    return _stated_unit(line, end, before, default_pack() if pack is None else pack, about)


@functools.lru_cache(maxsize=1024)
def _stated_unit(line: str, end: int, before: str, pack: UnitPack, about: str) -> str | None:
    """:func:`stated_unit` of a resolved pack."""
    m = _RESULT.match(line, end)
    if m is None:
        return None
    currency = "$" if m.group("currency") or before.rstrip().endswith("$") else None
    start, stop = m.start("num"), line.find("\n", m.start("num"))
    stop = len(line) if stop < 0 else stop
    loose = _LOOSE_SLASH.match(line, m.end()) or _CURRENCY_AFTER.match(line, m.end())
    if loose is not None and loose.group(0) != "/":
        # read the result as if written "0.3/task" ("0.3 per task" for "0.3 $ per task"): a copy of the
        # number and a bounded window after it, so a long line is not copied for each of its results
        currency = "$" if "$" in loose.group(0) else currency
        joint = "/" if "/" in loose.group(0) else ""
        line = line[start : m.end()] + joint + line[loose.end() : min(stop, loose.end() + _TOKEN_WINDOW)]
        start, stop = 0, len(line)
        m = _RESULT.match(line)  # the number just copied
        if m is None:
            return None
    if line[m.end() : m.end() + 1] in ("", ".", ",", ";", ":", "!", "?", ")", "\n"):
        return currency  # nothing written after the number
    toks = _first_tokens(line, start, stop, 8)
    if not toks or toks[0].kind != "num":
        return None
    try:
        value = parse_number(m.group("num"))
    except NumberError:
        return None  # a result of a thousand places (a model output cut mid-number): no unit read after it
    unit, _next, kind = unit_after(toks, 1, line, value, currency=currency, number_end=toks[0].end, pack=pack)
    if unit is not None and unit.startswith("items per ") and line[m.end() : m.end() + 1] == "/":
        return None  # "0.3/task" with no "$": the slash states the per, not what is counted (not "items")
    if kind != "quantity":
        return None
    return angle_reading(unit, about, pack=pack) if about else unit


def _mixed_value(piece: str) -> str | None:
    """A vulgar fraction as ``(1/2)``, a mixed number ``1 1/2`` as the decimal it is (None when that is
    not a short exact decimal, or the fraction is not proper)."""
    if piece in VULGAR_FRACTIONS:
        num, den = VULGAR_FRACTIONS[piece]
        return f"{num / den:g}" if den in _DECIMAL_DENOMINATORS else f"({num}/{den})"
    whole, _, fraction = piece.partition(" ")
    num_text, _, den_text = fraction.strip().partition("/")
    top, bottom = parse_number(num_text), parse_number(den_text)  # bounded: a 400-digit part refuses
    if not 0 < top < bottom or bottom not in _DECIMAL_DENOMINATORS:
        return None
    return f"{parse_number(whole) + top / bottom:g}"


def _prose_formula(m: re.Match[str], answer: str) -> str | None:
    """The formula of a prose equation (unit words dropped, ``x`` as ``*``, ``55(.2)`` as ``55*(.2)``),
    or None when it is not one to read: its result is an annotation that computes something itself,
    or the prose's arithmetic is wrong (``2*8 = 24``: a slip, not a step)."""
    if m.group("blank") and not _BARE_ANNOTATION.fullmatch(answer, m.start("blank"), m.end("blank")):
        return None  # "3 x 4 = <<3*4=12>>12": the annotation is the step
    expr = _prose_expression(m.group("expr"))
    if expr is None:
        return None
    try:
        tree = parse_formula(expr)
        value = tree.value if isinstance(tree, BinOp) else None
        stated = _stated_result(m.group("result"))
    except (ImportRefusal, ValueError, ZeroDivisionError):
        return None
    if stated is None or value is None:
        return None
    written, result = stated
    percent = bool(m.group("pct")) and "%" in expr  # "40% + 20% = 60%": percentages compute as fractions
    if not _agrees(value, result, written, percent):
        return None
    return f"{expr}={written}{'%' if percent else ''}"


def _prose_expression(prose: str) -> str | None:
    """The formula prose arithmetic writes (:func:`_formula_piece` for each token), with the prose's own
    spacing when nothing was dropped; None when a token makes it no formula to read."""
    pieces: list[str] = []
    for piece in _EXPRESSION_TOKEN.findall(prose):
        if not _formula_piece(pieces, piece):
            return None
    expr = "".join(pieces)
    plain = re.sub(r"[xX\u00d7]", "*", prose.replace("$", ""))
    return plain.strip() if plain.replace(" ", "") == expr else expr  # nothing dropped: keep the spacing


def _formula_piece(pieces: list[str], piece: str) -> bool:
    """Append what one token of prose arithmetic is in a formula; False when it cannot be one."""
    if piece in ("x", "X", "\u00d7"):
        pieces.append("*")
    elif piece in ("\u2013", "\u00f7"):
        pieces.append("-" if piece == "\u2013" else "/")  # an en dash, a division sign
    elif piece[0].isalpha() or (piece[0] == "/" and len(piece) > 1):
        pass  # a unit word: "800 calories/rabbit", "$1.85/bottle"
    elif _WRITTEN_FRACTION.fullmatch(piece) or piece in VULGAR_FRACTIONS or " " in piece:
        if pieces and pieces[-1] not in "+-*/(":
            return False
        # a written fraction is one number ("60 / 3/4" is 60 / (3/4)); a mixed number or "½" its value
        number = f"({piece})" if _WRITTEN_FRACTION.fullmatch(piece) else _mixed_value(piece)
        if number is None:
            return False
        pieces.append(number)
    else:
        if piece == "(" and pieces and pieces[-1] not in "+-*/(":
            pieces.append("*")  # "55(.20)": juxtaposition multiplies
        pieces.append(piece)
    return True


def _stated_result(written: str) -> tuple[str, float] | None:
    """The result a prose equation states, as it will be written in the formula and as a value:
    ``= 1 1/2 square feet`` as 1.5, ``= 2/3`` as a fraction (ValueError when it is no number)."""
    if " " in written:  # "= 1 1/2 square feet"
        mixed = _mixed_value(written)
        if mixed is None:
            return None
        written = mixed
    num, slash, den = written.partition("/")
    return written, parse_number(num) / parse_number(den) if slash else parse_number(written)


def _agrees(value: float, result: float, written: str, percent: bool) -> bool:
    """The formula's value is the stated result, to the places it is written with."""
    places = (9 if "/" in written else len(written.partition(".")[2])) + (2 if percent else 0)
    scale = 100 if percent else 1
    return abs(value - result / scale) <= max(
        1e-9 * max(1.0, abs(result / scale)), 0.5 * 10 ** (-places) + 1e-9 if places else 1e-9
    )


def prose_equations(blanked: str) -> list[tuple[int, str]]:
    """The equations over one-letter unknowns that a solution's prose writes, as (offset, ``a=b``).

    A chain ``C + 2C = 3C = 24`` gives its first side with each later one, then the later sides
    pairwise (the first pair that grounds is the one used); ``2x`` and ``3(J - 11)`` are products,
    and a letter written in both cases in one chain is one unknown.  A product a chain names
    (``2*3*x = 6x``, ``x + 0.25x = 1.25x``) stands for that chain's first side in later equations,
    so that ``6x`` is read as the ``2*3*x`` the prose made it of, not as a number of its own.

    >>> [e for _, e in prose_equations("In all, C + 2C = 3C = 24 cans. So 2 x 12 = ____ and x = 5.")]
    ['C+2*C=3*C', 'C+2*C=24', '3*C=24', 'x=5']
    >>> [e for _, e in prose_equations("Davey has 3 * 2x = 6x. So x + 6x = 28.")]
    ['3*2*x=6*x', 'x+(3*2*x)=28']
    """
    out: list[tuple[int, str]] = []
    named: dict[str, str] = {}  # "6*x" -> "(3*2*x)"
    for run in _EQUATION_RUN.finditer(blanked):
        text = run.group()
        letters = {c for c in text if c.isalpha()}
        if "=" not in text or not letters or not any(c.isdigit() for c in text):
            continue
        text = _JUXTAPOSED.sub("*", _TIMES_X.sub(" * ", text).translate(_SIGNS))
        if len({c.lower() for c in letters}) == 1:  # "J + 9 = 3(j - 11)"
            text = re.sub(r"[A-Za-z]", min(letters), text)
        sides = ["".join(side.split()) for side in text.split("=")]
        if len(sides) > _MAX_CHAIN:
            continue  # "a b c d = 1 a b c d = 1 ...": not one equation's chain (and its pairs would be quadratic)
        if named:
            sides = [_PRODUCT.sub(lambda m: named.get(m.group(), m.group()), side) for side in sides]
        for side in sides[1:]:
            if sides[0] and _MONOMIAL.fullmatch(side) and side not in named:
                named[side] = f"({sides[0]})"
        for lo, hi in [(0, k) for k in range(1, len(sides))] + [
            (i, j) for i in range(1, len(sides)) for j in range(i + 1, len(sides))
        ]:
            if sides[lo] and sides[hi] and all(sides[k] for k in range(lo, hi + 1)):
                out.append((run.start(), f"{sides[lo]}={sides[hi]}"))
    return out


class _ProseAlgebra:
    """The equations an algebra solution's prose writes (:func:`prose_equations`), solved on need:
    only where a formula has a number nothing else grounds, so other solutions read as before."""

    def __init__(self, builder: StepBuilder, blanked: str, answer: str) -> None:
        self._builder, self._blanked, self._answer = builder, blanked, answer
        self._equations: collections.deque[tuple[int, str]] | None = None
        self._solved: set[str] = set()

    @functools.cached_property
    def present(self) -> bool:
        """Whether the solution names an unknown (read on need: most solutions never ask)."""
        return _ALGEBRA.search(self._answer) is not None

    def solve_before(self, until: int) -> bool:
        """Add the steps of the equations before offset ``until`` not tried yet, one solution per
        unknown (the first equation that grounds): True if any was added."""
        if not self.present:
            return False
        if self._equations is None:
            self._equations = collections.deque(prose_equations(self._blanked))
        added = False
        while self._equations and self._equations[0][0] < until:
            position, equation = self._equations.popleft()
            if self._solved.intersection(c for c in equation if c.isalpha()):
                continue
            found = self._builder.add_solved(equation, position=position)
            if found is not None:
                self._solved.add(found[0])
                added = True
        return added


_SOCRATIC = " ** "  # GSM8K's Socratic form: "How many clips did she sell in May? ** Natalia sold ..."


def socratic_to_plain(answer: str) -> str:
    """The plain GSM8K solution of a Socratic one: each line's sub-question (up to ``" ** "``) dropped.

    The Socratic file is the plain one with a sub-question before each step; the sub-question's words and
    numbers are the question's, not the solution's, so the solution is read without them.  A plain
    solution (no ``" ** "``: GSM8K's prose and annotations never write ``**``) comes back as it is.

    >>> socratic_to_plain("Sub-question 1: What is x? ** 2*x=80 so x = <<80/2=40>>40\\n#### 40")
    '2*x=80 so x = <<80/2=40>>40\\n#### 40'
    """
    if _SOCRATIC not in answer:
        return answer
    return "\n".join(line.partition(_SOCRATIC)[2] if _SOCRATIC in line else line for line in answer.split("\n"))


class _Reading(NamedTuple):
    """One formula of a solution as read from its text: where, the match, whether it is prose, the
    formula to parse (None: prose that is not a step) and the unit stated after it."""

    position: int
    match: re.Match[str]
    prose: bool
    formula: str | None
    unit: str | None


def _readings(answer: str, blanked: str, pack: UnitPack, question: str = "") -> list[_Reading]:
    """The annotations and the prose arithmetic of a solution, in order, each with its stated unit."""
    events: list[tuple[int, re.Match[str], bool]] = [(m.start(), m, False) for m in _ANNOTATION.finditer(answer)]
    at = 0
    while (found := _PROSE_EQUATION.search(blanked, at)) is not None:  # "a = b = c": b may start the next one
        events.append((found.start(), found, True))
        at = found.end("expr")
    events.sort(key=lambda e: e[0])
    out: list[_Reading] = []
    for position, m, prose in events:
        if prose:
            formula = _prose_formula(m, answer)
            unit = None if formula is None else stated_unit(
                blanked, m.start("result"), "$" if "$" in m.group() else "", pack=pack, about=question
            )  # fmt: skip
        else:
            before = answer[max(0, m.start() - 3) : m.start()]
            formula, unit = m.group(1), stated_unit(answer, m.end(), before, pack=pack, about=question)
        out.append(_Reading(position, m, prose, formula, unit))
    return out


def _add_annotation(
    builder: StepBuilder, algebra: _ProseAlgebra, r: _Reading, formula: str, per: tuple[str, ...]
) -> None:
    """Add an annotation's steps; a number no rule grounds in a solution that solves an equation ("Let x
    be ...", "2x = 58") is looked for among the prose's equations before it (solved, their numbers grounded
    like any operand), and the formula tried again; one they do not explain refuses as algebra."""
    at = r.match.start(1)
    try:
        builder.add_formula(formula, unit=r.unit, position=r.position, at=at, per=per)
        return
    except ImportRefusal as exc:
        if exc.reason != "operand_not_found" or not algebra.present:
            raise
        failure = exc
    if algebra.solve_before(r.position):
        try:
            builder.add_formula(formula, unit=r.unit, position=r.position, at=at, per=per)
            return
        except ImportRefusal as again:
            if again.reason != "operand_not_found":
                raise
            failure = again
    raise builder.refusal(
        "unsupported_operation", f"the solution is algebra (it names an unknown): {failure.message}", failure.detail
    ) from None


def gsm8k_trace(
    question: str, answer: str, *, problem_id: str, where: str | None = None, pack: UnitPack | None = None
) -> Trace:
    """Read one GSM8K problem (plain or Socratic form) into a trace; ``ImportRefusal`` when it cannot be."""
    p = default_pack() if pack is None else pack
    answer = socratic_to_plain(answer)
    final = _FINAL.search(answer)
    gold: float | None = None
    if final is not None:
        with numbers_of("answer"):
            gold = number_or_none(final.group(1))
    span = find_question_span(question)
    with numbers_of("question"):
        mentions, answer_unit = read_problem_text(question, span, pack=p)
    with numbers_of("answer", not_a_number="unparseable_formula"):
        return _solution_trace(question, answer, problem_id, where, p, gold, span, mentions, answer_unit)


def _solution_trace(
    question: str,
    answer: str,
    problem_id: str,
    where: str | None,
    p: UnitPack,
    gold: float | None,
    span: tuple[int, int] | None,
    mentions: tuple[Mention, ...],
    answer_unit: str | None,
) -> Trace:
    """The steps of a GSM8K solution over the question's mentions, as :func:`gsm8k_trace` reads them."""
    builder = StepBuilder(
        problem_id,
        CORPUS,
        question,
        mentions,
        question_span=span,
        answer_unit=answer_unit,
        answer=gold,
        solution=answer,
        where=where,
        pack=p,
    )
    blanked = builder.blanked_solution  # the builder reads the same prose when it grounds
    readings = _readings(answer, blanked, p, question)
    builder.plan_annotations(
        [(r.position, None if r.prose else r.match.start(1), r.formula, r.unit) for r in readings if r.formula]
    )
    algebra = _ProseAlgebra(builder, blanked, answer)
    asked = question[span[0] : span[1]] if span is not None else ""
    lines: dict[int, tuple[str, ...]] = {}  # a line's words are read once for the units its results may be rates of
    for r in readings:
        if r.formula is None:
            continue
        per: tuple[str, ...] = ()
        if r.unit is not None:
            start = blanked.rfind("\n", 0, r.position) + 1
            if start not in lines:
                end = blanked.find("\n", r.position)
                lines[start] = rate_context(blanked[start : end if end >= 0 else len(blanked)], question, asked)
            per = lines[start]
        if not r.prose:
            _add_annotation(builder, algebra, r, r.formula, per)
        elif not builder.add_formula(
            r.formula, unit=r.unit, position=r.position, optional=True, per=per
        ) and algebra.solve_before(r.position):  # "7+4(9)=43" over the x = 9 of an equation written before
            builder.add_formula(r.formula, unit=r.unit, position=r.position, optional=True, per=per)
    # no annotation: the prose's equations are the solution only if they reach its answer
    if (
        not builder.steps
        and algebra.present
        and not (
            algebra.solve_before(len(blanked))
            and (gold is None or abs(builder.step_values[-1] - gold) <= 1e-9 * max(1.0, abs(gold)))
        )
    ):
        raise builder.refusal("unsupported_operation", "the solution is algebra (it names an unknown)", "algebra")
    return builder.build()


def gsm8k_problem_id(raw: RawRecord) -> str:
    """A GSM8K record's id: its file's stem and its line (``train-2``), as the report's tables print it."""
    name = raw.path.name.removesuffix(".gz")  # train.jsonl.gz is train-N too
    return f"{Path(name).stem}-{raw.line}"


def build_gsm8k_record(raw: RawRecord, pack: UnitPack) -> CorpusRecord:
    """One GSM8K line (bytes read by :func:`~ssbg.reading.readers.common.scan_jsonl`) into a trace or a refusal."""
    pid = gsm8k_problem_id(raw)
    decoded = decode_jsonl_line(raw)
    if decoded.refusal is not None:
        return refused_record(CORPUS, pid, raw.where, *decoded.refusal)
    data = decoded.data
    text: str | None = None
    try:
        if not isinstance(data, dict):
            raise ImportRefusal(
                f"a record must be a JSON object (got {type(data).__name__})", reason="malformed_record"
            )
        question = text_field(data, "question")
        text = question
        answer = text_field(data, "answer")
        trace = gsm8k_trace(question, answer, problem_id=pid, where=raw.where, pack=pack)
    except ImportRefusal as exc:
        return refused_record(CORPUS, pid, raw.where, exc.reason, exc.message, detail=exc.detail, text=text)
    return CorpusRecord(CORPUS, pid, raw.where, payload=trace, text=question)


read_gsm8k = StagedReader(scan_jsonl, build_gsm8k_record, CORPUS, quick_id=gsm8k_problem_id)
"""Stream GSM8K records: a trace per problem, or a typed refusal with ``file:line``."""
