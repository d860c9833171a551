"""Quantities a text writes without a digit: lists it enumerates and ``a``/``an`` + noun (edge).

A solution may use a number the problem states only by listing things: ``Monday,
Wednesday and Friday`` are 3 days, ``Monday to Thursday`` 4, ``Sally, Jenny and
Moses`` 3 people, ``Travis and his brother`` 2; or by an article: ``a ferret`` is
1 ferret, ``next year`` 1 year.  Each such quantity becomes a text
:class:`~ssbg.trace.Mention` over the words that state it, with the unit they
imply (``days``, ``months``, ``people``, the noun), so that it takes part in
dimensional analysis like any written number.

The rules are closed lists, tried only for a number the importer cannot ground
otherwise (see :class:`ssbg.corpus.arith.TraceBuilder`):

- a list of weekday or month names joined by commas and ``and``/``or``, or a
  range ``X to|through|until|- Y`` (inclusive, wrapping after Sunday/December);
- a list of persons: capitalized names or kin words (``his brother``, ``her
  mom``), at least two, joined by commas and ``and``;
- ``a``/``an``/``one``/``single`` + the unit after it (read by
  :func:`~ssbg.corpus.mentions.unit_after`), and ``next``/``last``/``previous`` +
  a calendar unit.

Examples
--------
>>> [(m.text, m.value, m.unit) for m in counted_mentions("On Monday, Wednesday and Friday, Ann and Bob walk.")]
[('Monday, Wednesday and Friday', 3, 'days'), ('Ann and Bob', 2, 'people')]
>>> [(m.text, m.value, m.unit) for m in counted_mentions("He owns a ferret. He drives from Monday to Thursday.")]
[('a ferret', 1, 'ferret'), ('Monday to Thursday', 4, 'days')]
"""

from __future__ import annotations

import re

from ssbg.corpus.mentions import tokenize, unit_after, unit_lemma
from ssbg.trace import Mention
from ssbg.units import UnitPack, default_pack

__all__ = ["counted_mentions"]

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_DAY = r"(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?"
# "May" and "March" are also words: a month list needs a capital and at least one other month.
_MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
_LIST_JOIN = r"(?:\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+)"
_RANGE_JOIN = r"\s*(?:to|through|thru|till|until|-|\u2013)\s*"


def _calendar_list(name: str) -> re.Pattern[str]:
    return re.compile(
        rf"(?<![A-Za-z])(?P<range>{name}{_RANGE_JOIN}{name})(?![A-Za-z])"
        rf"|(?<![A-Za-z])(?P<list>{name}(?:{_LIST_JOIN}{name})+)(?![A-Za-z])"
    )


_DAY_LIST = _calendar_list(_DAY)
_MONTH_LIST = _calendar_list(_MONTH)
_DAY_NAME = re.compile(_DAY)
_MONTH_NAME = re.compile(_MONTH)

_KIN = (
    r"(?:(?:older|younger|little|big|baby|best|twin|new)\s+)?"
    r"(?:brother|sister|wife|husband|mother|father|mom|mum|dad|son|daughter|friend|cousin|uncle|aunt|"
    r"grandmother|grandfather|grandma|grandpa|neighbou?r|boss|coach|teacher|partner|roommate|"
    r"girlfriend|boyfriend|fianc[e\u00e9]e?|nephew|niece|classmate|coworker|colleague)"
)
# Capitalized words that start sentences or name things other than persons.
_NOT_NAMES = frozenset(
    {
        "a", "an", "the", "if", "when", "then", "after", "before", "how", "what", "each", "every", "she", "he",
        "they", "it", "this", "that", "there", "in", "on", "at", "of", "for", "with", "and", "or", "but", "so",
        "his", "her", "their", "mr", "mrs", "ms", "dr", "both", "all", "some", "one", "two", "three", "while",
        "since", "because", "during", "last", "next", "today", "tomorrow", "yesterday", "christmas",
        "easter", "halloween", "i", "we", "you", "my", "our", "your", "is", "are", "was", "were",
        *_WEEKDAYS, *_MONTHS,
    }
)  # fmt: skip
_PERSON = rf"(?:(?:(?:[Hh]is|[Hh]er|[Tt]heir|[Mm]y|[Yy]our)\s+)?{_KIN}(?![A-Za-z])|[A-Z][a-z]+(?![A-Za-z'\u2019]))"
_PERSON_LIST = re.compile(rf"(?<![A-Za-z])(?P<list>{_PERSON}(?:\s*,\s*{_PERSON})*\s*,?\s+and\s+{_PERSON})")
_PERSON_ITEM = re.compile(_PERSON)

_ARTICLE = re.compile(r"(?<![A-Za-z])(?:[Aa]n?|[Oo]ne|[Ss]ingle)(?=\s+[A-Za-z])")
_ADJACENT_PERIOD = re.compile(
    r"(?<![A-Za-z])(?:[Nn]ext|[Ll]ast|[Pp]revious|[Ff]ollowing)\s+(?P<unit>year|month|week|day|hour|minute)(?![A-Za-z])"
)


def _span_count(names: list[str], table: tuple[str, ...], is_range: bool) -> int | None:
    """How many calendar items a list or an inclusive range names (None when one repeats)."""
    idx = [table.index(n.lower().rstrip("s") if n.lower().rstrip("s") in table else n.lower()) for n in names]
    if is_range:
        a, b = idx
        return (b - a) % len(table) + 1 if a != b else None
    return len(idx) if len(set(idx)) == len(idx) else None


def _calendar(text: str) -> list[Mention]:
    out: list[Mention] = []
    for pattern, name, table, unit in (
        (_DAY_LIST, _DAY_NAME, _WEEKDAYS, "days"),
        (_MONTH_LIST, _MONTH_NAME, _MONTHS, "months"),
    ):
        for m in pattern.finditer(text):
            span = m.group("range") or m.group("list")
            count = _span_count(name.findall(span), table, m.group("range") is not None)
            if count is not None and count > 1:
                out.append(Mention(m.start(), m.end(), span, count, unit, unit[:-1], "quantity"))
    return out


def _persons(text: str) -> list[Mention]:
    out: list[Mention] = []
    for m in _PERSON_LIST.finditer(text):
        items = _PERSON_ITEM.findall(m.group("list"))
        if len(items) < 2 or any(item.lower() in _NOT_NAMES or _DAY_NAME.fullmatch(item) for item in items):
            continue
        out.append(Mention(m.start(), m.end(), m.group(), len(items), "people", "person", "quantity"))
    return out


def _articles(text: str, pack: UnitPack) -> list[Mention]:
    out: list[Mention] = []
    for m in _ARTICLE.finditer(text):
        toks = tokenize(text, m.start(), min(len(text), m.start() + 80), limit=8)
        if len(toks) < 2 or toks[0].start != m.start():
            continue
        unit, k, kind = unit_after(toks, 1, text, 1, number_end=toks[0].end, pack=pack)
        if unit is None or kind != "quantity" or unit == "%":
            continue
        end = toks[k - 1].end
        out.append(Mention(m.start(), end, text[m.start() : end], 1, unit, unit_lemma(unit, pack), "quantity"))
    for m in _ADJACENT_PERIOD.finditer(text):
        unit = m.group("unit")
        out.append(Mention(m.start(), m.end(), m.group(), 1, unit, unit_lemma(unit, pack), "quantity"))
    return out


def counted_mentions(text: str, *, pack: UnitPack | None = None) -> tuple[Mention, ...]:
    """Every quantity ``text`` states by a list or an article, sorted by offset (they may overlap).

    >>> [(m.text, m.value) for m in counted_mentions("She has a husband. Her brother and sister came.")]
    [('a husband', 1), ('Her brother and sister', 2)]
    """
    p = default_pack() if pack is None else pack
    found = [*_calendar(text), *_persons(text), *_articles(text, p)]
    return tuple(sorted(found, key=lambda m: (m.start, m.end)))
