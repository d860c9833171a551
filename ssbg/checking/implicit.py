"""Plausible readings of a number nothing grounds: the quantities a question states without writing them (ADR 0027).

A checked solution's number that neither the question, an earlier step nor a cued constant states is an
``ungrounded_number`` finding.  It is error evidence only when no plausible reading grounds it: the question
may state it without a digit — two named people, "both", "an ounce", a list of three things, "lunch and dinner",
"8 other adults" and the one doing it, a "loose" sock — or leave a step
unsaid (five phones, one of them the main one: four others).  Each rule of
:data:`IMPLICIT_RULES` proposes such readings of a question (a value and the words that state it); its
probability, :data:`IMPLICIT_RATES`, is how often a reading of that rule with a value the question does not
write is a number the gold solution uses, measured on GSM8K train (development data; never a test question):
``python benchmarks/implicit_rates.py``.

>>> [(r.rule, r.words) for r in implicit_readings("Ann and Bob share a pizza. How many slices each?", 2)]
[('two_kinds', 'Ann and Bob'), ('named_people', 'Ann, Bob'), ('counted', 'Ann and Bob')]
>>> [(r.rule, r.words, r.probability) for r in implicit_readings("Both boys eat. How many?", 2)]
[('both', 'Both', 0.37)]
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import NamedTuple

from ssbg.numbers import one_step_results
from ssbg.reading.counting import counted_mentions, listed_items, named_items
from ssbg.units import UnitPack

__all__ = ["IMPLICIT_RATES", "IMPLICIT_RULES", "UNSAID_STEP_RATE", "ImplicitReading", "implicit_readings", "proposals",
           "unsaid_step", "unsaid_values"]


class ImplicitReading(NamedTuple):
    """A reading that grounds a number the question states without writing it: the rule, the words, the value and
    how probable such a reading is (:data:`IMPLICIT_RATES`)."""

    rule: str
    words: str
    value: float
    probability: float


_BOTH = re.compile(r"(?i)(?<![a-z])(?:both|pair|couple|twins|either)(?![a-z])")
_NONE = re.compile(r"(?i)(?<![a-z])(?:none|nothing|no one|nobody|zero|free)(?![a-z])")


def _named_people(question: str, pack: UnitPack | None) -> list[tuple[str, float]]:
    """The persons a question names, counted: "Ann and Bob share a pizza" is 2 people."""
    persons = named_items(question)[0]
    return [(", ".join(m.text for m in persons), float(len(persons)))] if len(persons) >= 2 else []


def _both(question: str, pack: UnitPack | None) -> list[tuple[str, float]]:
    """A pair named as such: "both", "a pair", "a couple", "twins" are 2."""
    return [(m.group(), 2.0) for m in _BOTH.finditer(question)][:1]


def _none(question: str, pack: UnitPack | None) -> list[tuple[str, float]]:
    """Nothing named in words: "none", "nobody", "free shipping" are 0."""
    return [(m.group(), 0.0) for m in _NONE.finditer(question)][:1]


def _listed(question: str, pack: UnitPack | None) -> list[tuple[str, float]]:
    """A list of things, counted: "knives, forks, and spoons" are 3 (:func:`~ssbg.reading.counting.listed_items`)."""
    return [(m.text, float(m.value)) for m in listed_items(question)]


_AND = re.compile(r"(?i)(?<=[a-z'\u2019])\s+and\s+(?=[a-z])")
_WORD = re.compile(r"[A-Za-z]+(?:['\u2019]s?)?")
_ARTICLES = frozenset({"a", "an", "the", "every", "each", "his", "her", "their", "my", "some"})


_STOP = frozenset(
    {"and", "or", "the", "then", "he", "she", "it", "they", "we", "i", "you", "is", "are", "was", "were", "has",
     "have", "had", "to", "of", "in", "on", "at", "for", "with", "so", "if", "that", "this", "his", "her", "their",
     "its", "my", "some", "each", "every", "all", "also", "but", "how", "many", "much", "what", "more", "less"}
)  # fmt: skip


def _side(words: list[str]) -> list[str]:
    """A conjunct's words without its leading articles and determiners ("every lunch" is "lunch")."""
    while words and words[0].lower() in _ARTICLES:
        words = words[1:]
    return words


def _two_kinds(question: str, pack: UnitPack | None) -> list[tuple[str, float]]:
    """Two things joined by "and": "lunch and dinner" are 2 meals, "a girls' team and a boys' team" 2 teams; the
    words around a conjunction are no parse, so the rule proposes 2 for the first pair of plain words (up to three
    words each, articles dropped) that are neither the same nor function words."""
    for m in _AND.finditer(question):
        head = question[max(0, m.start() - 40) : m.start()].rsplit(",", maxsplit=1)[-1]
        before = _WORD.findall(head)[-3:]
        after = _WORD.findall(question[m.end() : m.end() + 40].split(",", maxsplit=1)[0])[:3]
        a = _side(before[-2:] if len(before) > 1 and before[-2].lower() not in _STOP else before[-1:])
        b = _side(after)[:1]
        if a and b and a[-1].lower() != b[-1].lower() and not {a[-1].lower(), b[-1].lower()} & _STOP:
            return [(f"{' '.join(a)} and {' '.join(after[: after.index(b[0]) + 1])}", 2.0)]
    return []


_OTHERS = re.compile(
    r"(?i)(?<![\w.])(?P<n>\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+other(?![a-z])"
)


def _with_others(question: str, pack: UnitPack | None) -> list[tuple[str, float]]:
    """Someone with others: "Jack rides with 8 other adults" are 9 adults, the 8 and Jack himself."""
    out = []
    for m in _OTHERS.finditer(question):
        n = m.group("n").lower()
        out.append((m.group(), (float(n) if n.isdigit() else _NUMBER_WORDS[n]) + 1.0))
    return out[:2]


_ONE = re.compile(r"(?i)(?<![a-z])(?:each|every|per|an?|himself|herself|itself|themselves|loose|single)(?![a-z])")


def _one(question: str, pack: UnitPack | None) -> list[tuple[str, float]]:
    """One of a thing, or the identity a step multiplies by: "15 loose socks" are 15 * 1 socks, "each" is 1."""
    m = _ONE.search(question)
    return [] if m is None else [(m.group(), 1.0)]


_ITEM = r"[^\s,.;:?!][^,.;:?!]{0,40}?"
_ITEMS = re.compile(rf"(?<![\w'\u2019])(?P<list>{_ITEM}(?:\s*,\s*{_ITEM})+\s*,?\s+and\s+{_ITEM})(?=[,.;:?!]|$)")


def _items(question: str, pack: UnitPack | None) -> list[tuple[str, float]]:
    """The items of a list, whatever they are: "grades of 90, 80, 70, and 100" are 4 grades, "25 milk, 25 dark,
    25 almond and 25 white bars" 4 kinds (a list of plain words is :func:`_listed`'s)."""
    out = []
    for sentence in re.split(r"(?<=[.?!])\s+", question):
        if "," not in sentence or "and" not in sentence:
            continue  # a list of _ITEMS needs a comma and an "and"
        for m in _ITEMS.finditer(sentence):
            parts = [p for p in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", m.group("list")) if p.strip()]
            if len(parts) >= 3:
                first = " ".join(parts[0].split()[-3:])
                out.append((f"{first}, {', '.join(parts[1:-1])} and {parts[-1].strip()}", float(len(parts))))
    return out


def _counted(question: str, pack: UnitPack | None) -> list[tuple[str, float]]:
    """A quantity an article, a calendar word or a family states: "an ounce" is 1, "a week" 7 days
    (:func:`~ssbg.reading.counting.counted_mentions`)."""
    return [(m.text, float(m.value)) for m in counted_mentions(question, pack=pack)]


_DIGITS = re.compile(r"(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?(?![\w.])")
_NUMBER_WORDS = {w: float(i) for i, w in enumerate(
    ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"))}
_NUMBER_WORD = re.compile(r"(?i)(?<![a-z-])(" + "|".join(_NUMBER_WORDS) + r")(?![a-z-])")
_WEEK = re.compile(r"(?i)(?<![a-z])(?:week|weekly)(?![a-z])")
_MAX_WRITTEN = 12  # numbers the one-step rule combines (a longer question has too many pairs to mean much)


def _written(question: str) -> list[float]:
    """The numbers a question writes (digits, number words up to twelve), in order, once each."""
    return list(_written_once(question))


@functools.lru_cache(maxsize=64)  # asked for each step of a solution: a question is read once (ADR 0033)
def _written_once(question: str) -> tuple[float, ...]:
    found = [float(m.group().replace(",", "")) for m in _DIGITS.finditer(question)]
    found += [_NUMBER_WORDS[m.group(1).lower()] for m in _NUMBER_WORD.finditer(question)]
    return tuple(dict.fromkeys(found))


def _one_step(question: str, pack: UnitPack | None) -> list[tuple[str, float]]:
    """A step left unsaid: the sum, difference, product or quotient of two numbers the question writes (the counts of
    its lists among them, and a week's 7 when it speaks of weeks): "five phones ... the main phone" leaves 5 - 1 = 4
    additional ones."""
    values = _written(question)[:_MAX_WRITTEN]
    values += [v for _, v in _listed(question, pack) + _items(question, pack) if v not in values]
    if _WEEK.search(question):
        values.append(7.0)
    out: dict[float, str] = {}
    for i, a in enumerate(values):
        for b in values[i + 1 :]:
            for v, said in one_step_results(a, b):
                if v > 0 and v not in out:
                    out[v] = said
    return [(f"{said} (a step left unsaid)", v) for v, said in out.items()]


_UP = r"more|over|faster|longer|higher|taller|bigger|greater|larger|heavier|extra|above|increase[sd]?|markup|raise|up"
_DOWN = (r"less|fewer|off|cheaper|slower|shorter|smaller|lower|lighter|below|discount(?:ed)?|decrease[sd]?|"
         r"reduction|down|sale")
_PERCENT_CHANGE = re.compile(
    rf"(?i)(?<![\w.])(?P<p>\d+(?:\.\d+)?)\s*(?:%|percent)\s+(?:(?P<up>{_UP})|(?P<down>{_DOWN}))(?![a-z])"
)
_TIME_AND_A_HALF = re.compile(r"(?i)time(?:-|\s+)and(?:-|\s+)a(?:-|\s+)half|\+\s*1/2\s+(?:your|his|her|the)")


def _percent_change(question: str, pack: UnitPack | None) -> list[tuple[str, float]]:
    """A change by a percentage, as the factor a step multiplies by: "20% over market value" is 1.2, "60% faster"
    1.6, "25% off" 0.75; "time and a half" is 1.5."""
    out = []
    for m in _PERCENT_CHANGE.finditer(question):
        p = float(m.group("p")) / 100
        out.append((m.group(), round(1 + p if m.group("up") else 1 - p, 10)))
    out += [(m.group(), 1.5) for m in _TIME_AND_A_HALF.finditer(question)][:1]
    return out


IMPLICIT_RULES: tuple[tuple[str, Callable[[str, UnitPack | None], list[tuple[str, float]]]], ...] = (
    ("named_people", _named_people),
    ("both", _both),
    ("none", _none),
    ("listed", _listed),
    ("items", _items),
    ("counted", _counted),
    ("two_kinds", _two_kinds),
    ("with_others", _with_others),
    ("one", _one),
    ("one_step", _one_step),
    ("percent_change", _percent_change),
)
"""The proposers of a question's unwritten quantities, in order, each a pure function of the question."""

IMPLICIT_RATES: Mapping[str, float] = MappingProxyType(
    {
        "named_people": 0.28,  # 374 of 1,354
        "both": 0.37,  # 71 of 190
        "none": 0.03,  # 2 of 59
        "listed": 0.38,  # 34 of 90
        "items": 0.16,  # 137 of 851
        "counted": 0.11,  # 404 of 3,754
        "two_kinds": 0.36,  # 622 of 1,746
        "with_others": 0.35,  # 8 of 23
        "one": 0.05,  # 215 of 4,305
        "one_step": 0.065,  # 7,886 of 120,991
        "percent_change": 0.11,  # 31 of 280
    }
)
"""Per rule, the share of its readings (of a value the question does not write in digits) that the gold solution
uses, on GSM8K train (``python benchmarks/implicit_rates.py``): the probability the checker gives such a reading."""


def proposals(question: str, pack: UnitPack | None = None) -> list[tuple[str, str, float]]:
    """Every reading the rules propose for a question: (rule, words, value), in the rules' order."""
    return list(_proposals(question, pack))


@functools.lru_cache(maxsize=256)
def _proposals(question: str, pack: UnitPack | None) -> tuple[tuple[str, str, float], ...]:
    # a question's five solutions ask for its proposals again for each number they do not ground
    return tuple((name, words, value) for name, rule in IMPLICIT_RULES for words, value in rule(question, pack))


def implicit_readings(question: str, value: float, pack: UnitPack | None = None) -> list[ImplicitReading]:
    """The readings that ground ``value`` in ``question`` without its writing it, the most probable first (one per
    rule)."""
    out: dict[str, ImplicitReading] = {}
    for name, words, v in proposals(question, pack):
        if abs(v - value) < 1e-9 and name not in out:
            out[name] = ImplicitReading(name, words, v, IMPLICIT_RATES[name])
    return sorted(out.values(), key=lambda r: -r.probability)


UNSAID_STEP_RATE = 0.0031
"""The probability of a step the solution leaves unsaid: of the values one sum, difference, product or quotient of
an earlier result and another known number (the question's or an earlier result) gives, the share the gold
solution's next annotation uses, on GSM8K train: 1,314 of 423,723 (``python benchmarks/implicit_rates.py``)."""


def unsaid_values(question: str, results: Sequence[float]) -> dict[float, str]:
    """The values one step of an earlier result and another known number (the question's or an earlier result)
    gives, other than the known numbers themselves, each with how it is said (the first way found)."""
    earlier = list(dict.fromkeys(results))[-_MAX_WRITTEN:]
    known = earlier + [v for v in _written(question)[:_MAX_WRITTEN] if v not in earlier]
    out: dict[float, str] = {}
    for i, a in enumerate(earlier):
        for b in known[i + 1 :]:
            for v, said in one_step_results(a, b):
                if v > 0 and v not in out and v not in known:
                    out[v] = said
    return out


def unsaid_step(question: str, results: Sequence[float], value: float) -> ImplicitReading | None:
    """A number one unwritten step of an earlier result gives ("Tory baked 216 / 2" after 72 and 144 cookies: 72 +
    144), weighed :data:`UNSAID_STEP_RATE`; None when no such step gives it."""
    tolerance = 1e-9 * max(1.0, abs(value))
    for v, said in unsaid_values(question, results).items():
        if abs(v - value) <= tolerance:
            return ImplicitReading("unsaid_step", f"{said} (a step the solution leaves unsaid)", v, UNSAID_STEP_RATE)
    return None
