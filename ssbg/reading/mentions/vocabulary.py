"""The closed word lists that several rooms read (number words, function words, determiners, ...).

A list that only one room reads lives in that room; the ones here are shared, defined once.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ssbg.reading.mentions.tokens import _words
from ssbg.units import DIMENSIONLESS, ResolvedUnit, UnitVector

_SMALL: dict[str, int] = {
    w: i
    for i, w in enumerate(
        _words(
            "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
            "sixteen seventeen eighteen nineteen"
        )
    )
}
_TENS: dict[str, int] = {
    w: 10 * (i + 2) for i, w in enumerate(_words("twenty thirty forty fifty sixty seventy eighty ninety"))
}
_CURRENCY_SYMBOLS = frozenset({"$", "£", "€", "¥"})
# Fractions written as one character, as (numerator, denominator): "½ of them", "(½)*6".
VULGAR_FRACTIONS: Mapping[str, tuple[int, int]] = MappingProxyType({
    "\u00bd": (1, 2), "\u00bc": (1, 4), "\u00be": (3, 4), "\u2153": (1, 3), "\u2154": (2, 3),
})
_SENTENCE_END = frozenset({".", "?", "!", ";"})

# Closed-class words (determiners, pronouns, prepositions, conjunctions,
# auxiliaries, adverbs of time and degree) that never name a unit.
_FUNCTION_WORDS = frozenset(
    _words(
        """a an the and or but nor of to in on at for with by from as than that this these those it its he she they
        them his her hers their theirs our ours your yours my mine we you i me him us is are was were be been being
        has have had do does did will would can could should shall may might must each every per more less fewer
        most least if then so how what which who whom whose when where while after before left today yesterday
        tomorrow now ago old later earlier all some any many much only just also too very already still both either
        neither into onto over under about around up down out off altogether total together instead there here away
        back again not no yes plus minus times time until since during between among through across against within
        else
        without alone extra additional other another same different whole full empty new remaining leftover
        spare such own few several enough half twice double triple once"""
    )
)
# Words that may sit between a number and its noun ("5 more apples").
_MODIFIERS = frozenset(
    _words(
        """more fewer less extra additional other full whole empty different equal identical same remaining
        leftover spare new used big small large little old young red blue green white black yellow"""
    )
)
# Nouns that name a dimension or an aggregate, not a unit ("half of the money").
NOT_UNITS = _NOT_UNITS = frozenset(
    _words(
        """money time distance length width height weight amount number total cost price value sum difference rest
        remainder way speed rate area volume age profit income budget change balance savings earnings winnings
        proceeds needs"""
    )
)
_AUXILIARIES = frozenset(_words("are were is was will would do does did can could should must have has had"))
_SUBJECT_PRONOUNS = frozenset(_words("i you he she it we they who"))
_DETERMINERS = frozenset(_words("the his her their its my your our these those them"))
_RATE_PREPOSITIONS = frozenset({"in", "on", "for", "at", "into", "inside", "to", "from", "with"})
_A = frozenset({"a", "an"})
_STOPS = _SENTENCE_END | {","}


_ONE_THING_PREPOSITIONS = frozenset(_words("in on for into"))


_PERIODIC = {
    "hourly": "hour", "daily": "day", "nightly": "night", "weekly": "week", "monthly": "month",
    "yearly": "year", "annual": "year", "annually": "year",
}  # fmt: skip


_PERSONS_PRONOUNS = frozenset({"they", "we"})


_PERCENT_UNITS = frozenset({"%", "percent", "per cent", "pct"})  # the units a percentage is written with


_NO_UNIT = ResolvedUnit("", "", DIMENSIONLESS, None, "lemma")
_CLAUSE_BREAKS = frozenset(_words("and or but if when while than because so"))


# Verbs that give a measure of the thing before them: "a bag weighs 5 kg", "one batch requires 2 cups".
_BEARING = frozenset(
    _words(
        """cost costs weigh weighs hold holds contain contains require requires need needs take takes use uses
        has have measure measures make makes produce produces feed feeds serve serves call calls fit fits
        carry carries pay pays charge charges earn earns get gets give gives yield yields is are"""
    )
)
_HEDGES = frozenset(_words("up to about around only exactly roughly nearly almost just at least most"))


# Dimensions the rules test a unit for: count, and length, time, mass, money (periods, prices, questions).
_COUNT = UnitVector(count=1)
_LENGTH, _TIME, _MASS, _MONEY = UnitVector(length=1), UnitVector(time=1), UnitVector(mass=1), UnitVector(money=1)
