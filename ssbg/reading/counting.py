"""Quantities a text writes without a digit: lists it enumerates and ``a``/``an`` + noun (edge).

A solution may use a number the problem states only by listing things: ``Monday,
Wednesday and Friday`` are 3 days, ``Monday to Thursday`` 4, ``Sally, Jenny and
Moses`` 3 people, ``Travis and his brother`` 2; or by an article: ``a ferret`` is
1 ferret, ``next year`` 1 year.  Each such quantity becomes a text
:class:`~ssbg.trace.Mention` over the words that state it, with the unit they
imply (``days``, ``months``, ``people``, the noun), so that it takes part in
dimensional analysis like any written number.

The rules are closed lists, tried only for a number the importer cannot ground
otherwise (see :class:`ssbg.reading.grounding.StepBuilder`):

- a list of weekday or month names joined by commas and ``and``/``or``, or a
  range ``X to|through|until|- Y`` (inclusive, wrapping after Sunday/December);
- a list of persons: capitalized names or kin words (``his brother``, ``her
  mom``), at least two, joined by commas and ``and``;
- ``a``/``an``/``one``/``single`` + the unit after it (read by
  :func:`~ssbg.reading.mentions.unit_after`), and ``next``/``last``/``previous`` +
  a calendar unit; ``no`` + the unit after it (0), and ``¼`` (a fraction).

Three more readings serve the importer's last rules: :func:`named_items` (the persons
and weekdays a text names, once each), :func:`listed_items` (``third and fourth``,
``knives, forks, and spoons``) and :func:`compound_measures` (``a fifty-dollar bill``,
``half an hour``).

Examples
--------
>>> [(m.text, m.value, m.unit) for m in counted_mentions("On Monday, Wednesday and Friday, Ann and Bob walk.")]
[('Monday, Wednesday and Friday', 3, 'days'), ('Ann and Bob', 2, 'people')]
>>> [(m.text, m.value, m.unit) for m in counted_mentions("He owns a ferret. He drives from Monday to Thursday.")]
[('a ferret', 1, 'ferret'), ('Monday to Thursday', 4, 'days')]
"""

from __future__ import annotations

import re

from ssbg.reading.mentions import VULGAR_FRACTIONS, tokenize, unit_after, unit_lemma
from ssbg.trace import Mention
from ssbg.units import UnitPack, default_pack

__all__ = ["compound_measures", "counted_mentions", "listed_items", "named_items"]

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


# In a list, a weekday may be abbreviated ("Monday, Wed, and Friday").
_DAY_OR_ABBR = rf"(?:{_DAY}|(?:Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun)\.?(?![A-Za-z]))"
_DAY_LIST = _calendar_list(_DAY_OR_ABBR)
_MONTH_LIST = _calendar_list(_MONTH)
_DAY_NAME = re.compile(_DAY)
_DAY_OR_ABBR_NAME = re.compile(_DAY_OR_ABBR)
_MONTH_NAME = re.compile(_MONTH)

_KIN = (
    r"(?:(?:older|younger|little|big|baby|best|twin|new)\s+)?"
    r"(?:brother|sister|wife|husband|mother|father|mom|mum|dad|son|daughter|friend|cousin|uncle|aunt|"
    r"grandmother|grandfather|grandma|grandpa|neighbou?r|boss|coach|teacher|partner|roommate|"
    r"girlfriend|boyfriend|fianc[e\u00e9]e?|nephew|niece|classmate|coworker|colleague|(?:grand)?parents)"
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
_PERSON = (
    rf"(?:(?:(?:[Hh]is|[Hh]er|[Tt]heir|[Mm]y|[Yy]our)\s+)?{_KIN}(?![A-Za-z])|[A-Z][a-z]+(?![A-Za-z'\u2019])"
    r"|(?:him|her|my|your)self(?![A-Za-z]))"
)
_PERSON_LIST = re.compile(rf"(?<![A-Za-z])(?P<list>{_PERSON}(?:\s*,\s*{_PERSON})*\s*,?\s+and\s+{_PERSON})")
_PERSON_ITEM = re.compile(_PERSON)

_ARTICLE = re.compile(r"(?<![A-Za-z])(?:[Aa]n?|[Oo]ne|[Ss]ingle)(?=\s+[A-Za-z])")
_VULGAR = re.compile(f"[{''.join(VULGAR_FRACTIONS)}]")


def _vulgar_value(char: str) -> float:
    num, den = VULGAR_FRACTIONS[char]
    return num / den
_NONE = re.compile(r"(?<![A-Za-z])(?:[Nn]o|[Zz]ero)(?=\s+[A-Za-z])")
_ADJACENT_PERIOD = re.compile(
    r"(?<![A-Za-z])(?:[Nn]ext|[Ll]ast|[Pp]revious|[Ff]ollowing)\s+(?P<unit>year|month|week|day|hour|minute)(?![A-Za-z])"
)


def _span_count(names: list[str], table: tuple[str, ...], is_range: bool) -> int | None:
    """How many calendar items a list or an inclusive range names (None when one repeats)."""
    idx = [next(i for i, t in enumerate(table) if t[:3] == n[:3].lower()) for n in names]  # "Wed", "Mondays"
    if is_range:
        a, b = idx
        return (b - a) % len(table) + 1 if a != b else None
    return len(idx) if len(set(idx)) == len(idx) else None


def _calendar(text: str) -> list[Mention]:
    out: list[Mention] = []
    for pattern, name, table, unit in (
        (_DAY_LIST, _DAY_OR_ABBR_NAME, _WEEKDAYS, "days"),
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
        count = sum(2 if item.lower().endswith("parents") else 1 for item in items)  # "his parents" are 2
        out.append(Mention(m.start(), m.end(), m.group(), count, "people", "person", "quantity"))
    return out


def _word_quantity(text: str, start: int, value: int, pack: UnitPack) -> Mention | None:
    """The quantity a word at ``start`` stands for with the unit read after it (``a ferret`` 1,
    ``no stripes`` 0), or None when no unit follows."""
    toks = tokenize(text, start, min(len(text), start + 80), limit=8)
    if len(toks) < 2 or toks[0].start != start:
        return None
    unit, k, kind = unit_after(toks, 1, text, value, number_end=toks[0].end, pack=pack)
    if unit is None or kind != "quantity" or unit == "%":
        return None
    end = toks[k - 1].end
    return Mention(start, end, text[start:end], value, unit, unit_lemma(unit, pack), "quantity")


def _fractions(text: str) -> list[Mention]:
    """``\u00bc of them``: fractions written as one character."""
    return [
        Mention(m.start(), m.end(), m.group(), _vulgar_value(m.group()), None, None, "fraction")
        for m in _VULGAR.finditer(text)
    ]


def _articles(text: str, pack: UnitPack) -> list[Mention]:
    """The quantities of 1 and 0 a word before a unit states (``a ferret``, ``no stripes``, ``next year``)."""
    out = [q for m in _ARTICLE.finditer(text) if (q := _word_quantity(text, m.start(), 1, pack)) is not None]
    out.extend(  # "six hats with no stripes": 0 stripes
        q for m in _NONE.finditer(text) if (q := _word_quantity(text, m.start(), 0, pack)) is not None
    )
    for m in _ADJACENT_PERIOD.finditer(text):
        unit = m.group("unit")
        out.append(Mention(m.start(), m.end(), m.group(), 1, unit, unit_lemma(unit, pack), "quantity"))
    return out


# A name: a capitalized word that is not a function word, a weekday or a month, with a title before it or
# not, and neither part of a longer proper noun ("Lake Tahoe") nor a word the text also writes in lower case.
_NAME = re.compile(r"(?<![A-Za-z'\u2019.])(?:(?:Mr|Mrs|Ms|Dr)\.?\s+)?(?P<name>[A-Z][a-z]+)(?![A-Za-z])(?!\s+[A-Z])")
# "Lake Tahoe", "an Airbnb" (a capitalized word before a name is a function word when in _NOT_NAMES: "If Aang")
_NOT_AFTER = re.compile(r"(?:(?P<cap>[A-Z][a-z]*)|(?<![A-Za-z])(?:[Aa]n?|[Tt]he|at|in|from))\s+$")
_WEEKDAY_WORD = re.compile(rf"(?<![A-Za-z]){_DAY}(?![A-Za-z])")


def named_items(text: str) -> tuple[tuple[Mention, ...], tuple[Mention, ...]]:
    """The persons a text names and the weekdays it names, each once (its first occurrence), as
    1-person / 1-day mentions: ``Mark has 30 candies, Peter has 25 and John 35`` names 3 persons.

    >>> [[m.text for m in group] for group in named_items("Mr. Bernard is 3 times as old as Luke. On Monday he ran.")]
    [['Mr. Bernard', 'Luke'], ['Monday']]
    """
    persons: dict[str, Mention] = {}
    for m in _NAME.finditer(text):
        name = m.group("name")
        key = name.lower()
        before = _NOT_AFTER.search(text, max(0, m.start() - 12), m.start())
        if before is not None and (before.group("cap") is None or before.group("cap").lower() not in _NOT_NAMES):
            continue
        if key in persons or key in _NOT_NAMES or _DAY_NAME.fullmatch(name) or _MONTH_NAME.fullmatch(name):
            continue
        if re.search(rf"(?<![A-Za-z]){key}(?![A-Za-z])", text):
            continue  # the word is also written in lower case: not a name
        persons[key] = Mention(m.start(), m.end(), m.group(), 1, "person", "person", "quantity")
    days: dict[str, Mention] = {}
    for m in _WEEKDAY_WORD.finditer(text):
        key = m.group().lower().rstrip("s")
        if key not in days:
            days[key] = Mention(m.start(), m.end(), m.group(), 1, "day", "day", "quantity")
    return tuple(persons.values()), tuple(days.values())


_ORDINAL = r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last)"
_ORDINAL_LIST = re.compile(
    rf"(?<![A-Za-z])(?P<list>{_ORDINAL}(?:\s*,\s*{_ORDINAL})*,?\s+(?:and|or)\s+{_ORDINAL})(?![A-Za-z])", re.IGNORECASE
)
# Three or more plain words in a list ("knives, forks, and spoons", "green, blue, yellow, or red").
_WORD_LIST = re.compile(r"(?<![\w'\u2019-])(?P<list>[a-z]+(?:\s*,\s*[a-z]+)+\s*,?\s+(?:and|or)\s+[a-z]+)(?![\w-])")
_LIST_STOP = frozenset(
    {"a", "an", "the", "and", "or", "but", "then", "he", "she", "it", "they", "we", "i", "you", "is", "are", "was",
     "were", "has", "have", "had", "to", "of", "in", "on", "at", "for", "with", "so", "if", "that", "this", "his",
     "her", "their", "its", "my", "some", "each", "every", "all", "also"}
)  # fmt: skip


# Two kinds an equal share names ("split evenly between chocolate and vanilla", "an equal number of
# clownfish and blowfish"), and one person someone shares with ("splits the cost with his brother": 2).
_PAIR = re.compile(
    r"(?i)(?<![a-z])(?:between|(?:equal|even|same) (?:number|amount)s? of)\s+(?:the\s+)?"
    r"(?P<list>[a-z]+\s+and\s+[a-z]+)(?![\w-])"
)
_SHARED_WITH = re.compile(
    rf"(?i)(?<![a-z])(?:split|shar|divid)\w*\b[^.?!]*?\b(?P<list>with\s+(?:his|her|their|my)\s+{_KIN})(?![A-Za-z])"
)


def listed_items(text: str) -> tuple[Mention, ...]:
    """Counts a text writes as a list of words: ordinals (``the third and fourth week`` are 2) and three
    or more plain words joined by commas and ``and``/``or`` (``knives, forks, and spoons`` are 3).  The
    count is a pure number (no unit): it counts the listed kinds.

    >>> [(m.text, m.value) for m in listed_items("An equal number of knives, forks, and spoons.")]
    [('knives, forks, and spoons', 3)]
    >>> [(m.text, m.value) for m in listed_items("He sold the same in the third and fourth week.")]
    [('third and fourth', 2)]
    >>> [(m.text, m.value) for m in listed_items("He splits the cost with his brother.")]
    [('with his brother', 2)]
    """
    out: list[Mention] = []
    for m in _ORDINAL_LIST.finditer(text):
        items = re.findall(_ORDINAL, m.group("list"), re.IGNORECASE)
        if len({i.lower() for i in items}) == len(items):
            out.append(Mention(m.start(), m.end(), m.group(), len(items), None, None, "quantity"))
    for m in _PAIR.finditer(text):
        a, _, b = m.group("list").split()
        if a.lower() != b.lower() and a.lower() not in _LIST_STOP and b.lower() not in _LIST_STOP:
            out.append(Mention(m.start("list"), m.end("list"), m.group("list"), 2, None, None, "quantity"))
    out.extend(  # one person shared with: "his brother", not "his parents"
        Mention(m.start("list"), m.end("list"), m.group("list"), 2, "people", "person", "quantity")
        for m in _SHARED_WITH.finditer(text)
        if not m.group("list").lower().endswith("s")
    )
    for m in _WORD_LIST.finditer(text):
        items = [w for w in re.split(r"\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+", m.group("list").rstrip(",")) if w]
        if len(items) < 3 or any(w in _LIST_STOP for w in items) or len(set(items)) != len(items):
            continue
        out.append(Mention(m.start(), m.end(), m.group(), len(items), None, None, "quantity"))
    return tuple(out)


_UNITS_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_TEENS = ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_WORD_VALUES: dict[str, int] = {
    **{w: i + 1 for i, w in enumerate(_UNITS_WORDS)},
    **{w: i + 10 for i, w in enumerate(_TEENS)},
    **{w: 20 + 10 * i for i, w in enumerate(_TENS)},
}
# A measure written as a modifier: "a fifty-dollar bill", "6 thirty-minute programs", "four twenty pounds dumbbells".
_COMPOUND = re.compile(
    rf"(?<![\w-])(?P<num>(?:{'|'.join(_TENS)})(?:-(?:{'|'.join(_UNITS_WORDS)}))?|{'|'.join(_TEENS + _UNITS_WORDS)})"
    r"[- ](?P<unit>dollar|pound|minute|hour|day|week|month|year|ounce|inch|foot|mile|gallon|meter)s?(?![\w-])",
    re.IGNORECASE,
)

_HALF_HOUR = re.compile(r"(?<![\w-])[Hh]alf(?:-| an? )hour(?![\w-])")


def compound_measures(text: str, *, pack: UnitPack | None = None) -> tuple[Mention, ...]:
    """Measures a number word writes as a modifier before a noun (``a fifty-dollar bill`` is $50,
    ``6 thirty-minute programs`` 30 minutes each), as mentions of the number and its unit.

    >>> [(m.text, m.value, m.unit) for m in compound_measures("He pays a twenty-dollar bill for 6 two-hour games.")]
    [('twenty-dollar', 20, '$'), ('two-hour', 2, 'hour')]
    >>> [(m.text, m.value, m.unit) for m in compound_measures("a half-hour show")]
    [('half-hour', 0.5, 'hour')]
    """
    p = default_pack() if pack is None else pack
    out = [Mention(m.start(), m.end(), m.group(), 0.5, "hour", "hour", "quantity") for m in _HALF_HOUR.finditer(text)]
    for m in _COMPOUND.finditer(text):
        tens, _, ones = m.group("num").lower().partition("-")
        value = _WORD_VALUES[tens] + (_WORD_VALUES[ones] if ones else 0)
        unit = m.group("unit").lower()
        unit = "$" if unit == "dollar" else unit
        out.append(Mention(m.start(), m.end(), m.group(), value, unit, unit_lemma(unit, p), "quantity"))
    return tuple(out)


def counted_mentions(text: str, *, pack: UnitPack | None = None, articles: bool = True) -> tuple[Mention, ...]:
    """Every quantity ``text`` states by a list or an article, sorted by offset (they may overlap).

    ``articles=False`` leaves out the quantities of 1 and 0 a word before a unit states (``a ferret``,
    ``no stripes``, ``next year``): the costliest reading (a unit read after every article), of no use
    to a caller looking for another value.

    >>> [(m.text, m.value) for m in counted_mentions("She has a husband. Her brother and sister came.")]
    [('a husband', 1), ('Her brother and sister', 2)]
    >>> [(m.text, m.value) for m in counted_mentions("She has a husband. Her brother and sister came.", articles=False)]
    [('Her brother and sister', 2)]
    """
    p = default_pack() if pack is None else pack
    found = [*_calendar(text), *_persons(text), *_fractions(text)]
    if articles:
        found.extend(_articles(text, p))
    return tuple(sorted(found, key=lambda m: (m.start, m.end)))
