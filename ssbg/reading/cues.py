"""Find the words that cue an implicit constant in a problem text (edge).

The constants themselves (value, unit) are core data in
:data:`ssbg.constants.IMPLICIT_CONSTANTS`.  This module says which words in a
text justify using one: ``60`` may stand for ``minutes_per_hour`` only when the
text speaks of hours or minutes, ``100`` for ``percent`` only when it has a
percentage.  A number that no mention, earlier step or cued constant explains
is not guessed: the importer refuses it (``operand_not_found``).

Examples
--------
>>> text = "Weng earns $12 an hour. She worked 50 minutes."
>>> [(c.constant_id, text[c.start:c.end]) for c in find_cues(text, 60)]
[('minutes_per_hour', 'hour')]
>>> find_cues("She has 3 apples.", 60)
()
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ssbg.constants import IMPLICIT_CONSTANTS

__all__ = [
    "CUE_PATTERNS",
    "EQUATION_CONSTANTS",
    "FALLBACK_CONSTANTS",
    "KNOWLEDGE_CONSTANTS",
    "SELF_COMPANION_CUE",
    "Cue",
    "find_cue_occurrences",
    "find_cues",
]


@dataclass(frozen=True, slots=True)
class _Spec:
    """A cue pattern before it is compiled: its source and flags, and the lower-case strings one of which every
    match contains (None: not known).  A text none of them occurs in (lower-cased) is not searched: most
    texts have no cue of most constants, and a search with a look-behind at its start runs the whole pattern
    at every offset."""

    source: str
    flags: int = 0
    keys: tuple[str, ...] | None = None

    @property
    def case_blind(self) -> bool:
        return bool(self.flags & re.IGNORECASE) or self.source.startswith("(?i)")

    def compiled(self) -> re.Pattern[str]:
        return re.compile(self.source, self.flags)

    def without_folding(self) -> re.Pattern[str] | None:
        """A case-blind pattern (written in lower case) as a case-sensitive one, to search a lower-cased text
        with: the same matches at the same offsets, without folding the case of every character it reads."""
        if not self.case_blind:
            return None
        return re.compile(self.source.removeprefix("(?i)"), self.flags & ~re.IGNORECASE)


_LITERAL_START = re.compile(r"[A-Za-z0-9 '-]*")


def _rx(source: str, flags: int = 0) -> _Spec:
    """A pattern as :func:`re.compile` takes it, not compiled yet; no keys."""
    return _Spec(source, flags)


def _gated(pattern: _Spec, *keys: str) -> _Spec:
    """``pattern``, every match of which contains one of ``keys`` (lower case)."""
    return _Spec(pattern.source, pattern.flags, keys)


def _words(*alternatives: str) -> _Spec:
    """The alternatives as whole words, in any case; each one's plain start is its key (``hours?`` has
    ``hour``; an alternative that starts with a group or an escape has none, and so has the pattern)."""
    keys: list[str] = []
    for alternative in alternatives:
        start = _LITERAL_START.match(alternative).group()  # type: ignore[union-attr]  # matches ""
        if alternative[len(start) : len(start) + 1] in ("?", "*", "{"):
            start = start[:-1]  # "hours?": the "s" may be absent
        depth = 0
        for char in alternative:  # "a|b" is two alternatives, not one
            depth += (char == "(") - (char == ")")
            if char == "|" and depth == 0:
                start = ""
        keys.append(start.lower())
    source = r"(?<![A-Za-z])(?:" + "|".join(alternatives) + r")(?![A-Za-z])"
    return _Spec(source, re.IGNORECASE, None if "" in keys else tuple(keys))


# Persons one goes with: the owner of "her 3 friends" is one person more.
_COMPANIONS = (
    r"(?:friends?|siblings?|brothers?|sisters?|cousins?|classmates?|children|kids|teammates?|coworkers?|"
    r"parents|family|grandparents|roommates?)"
)

# A rectangle ("rectangular", "12 yard by 9 yard") and the words of going around it.
_RECTANGLE = r"(?:rectang(?:le|les|ular)|\d[\d.]*[- ](?:[a-z]+[- ])?by[- ]\d)"
_AROUND = r"(?:perimeter|fenc\w*|around|border)"

# A group named with a possessive ("her 2 siblings", "with 4 friends", "Ben has two brothers") leaves out
# its owner: the words cue ``self`` for the owner, but only in a sum of persons or as the "+ 1" of n + 1
# (ssbg.reading.grounding), since "his friend" alone says nothing about a 1 in a product.
SELF_COMPANION_CUE: re.Pattern[str] = re.compile(
    r"(?i)(?<![a-z])(?:(?:his|her|their|my)\s+(?:[\w-]+\s+){0,2}|with\s+(?:[\w-]+\s+){1,2}"
    rf"|(?:has|have|had)\s+(?:[\w-]+\s+){{0,2}}){_COMPANIONS}(?![a-z])"
)

def _both(things: str, having: str, *keys: str) -> _Spec:
    """A thing and what it has, both named in a text in either order ("3 dogs ... how many legs"): a match
    is the first of the two words, searched only in a text that holds one of ``keys`` (``having`` needs one)."""
    thing, has = rf"(?<![a-z])(?:{things})(?![a-z])", rf"(?<![a-z])(?:{having})(?![a-z])"
    return _gated(_rx(rf"(?i){thing}(?=[\s\S]*{has})|{has}(?=[\s\S]*{thing})"), *keys)


_LEGS = r"legs?"
_WHEELS = r"wheels?|wheeled"
_BILLS = r"bills?|notes?|cash"


# Constant id -> the words that cue it, in order of preference among constants of
# equal value (the first constant whose cue occurs in the text wins); compiled below (CUE_PATTERNS).
_SPECS: Mapping[str, _Spec] = MappingProxyType(
    {
        "percent": _gated(
            _rx(r"%|(?<![A-Za-z])(?:percent(?:age)?s?|per cent)(?![A-Za-z])", re.IGNORECASE),
            "%",
            "percent",
            "per cent",
        ),
        "percent_scale": _gated(
            _rx(r"%|(?<![A-Za-z])(?:percent(?:age)?s?|per cent)(?![A-Za-z])", re.IGNORECASE),
            "%",
            "percent",
            "per cent",
        ),
        "half": _words(r"half", r"halves", r"halved", r"halfway"),
        "twice": _words(r"twice", r"double[sd]?", r"two times", r"2 times", r"doubling"),
        "both": _words(r"both", r"couples?", r"twins", r"pairs? of"),
        "thrice": _words(r"thrice", r"triple[sd]?", r"three times", r"3 times", r"tripling"),
        "quadruple": _words(r"quadruple[sd]?", r"four times", r"4 times"),
        "third": _words(r"thirds?"),
        "quarter": _words(r"quarters?", r"fourths?"),
        "fifth": _words(r"fifths?"),
        "sixth": _words(r"sixths?"),
        "seventh": _words(r"sevenths?"),
        "eighth": _words(r"eighths?"),
        "ninth": _words(r"ninths?"),
        "tenth": _words(r"tenths?"),
        "round_trip": _words(
            r"round[- ]trips?",
            r"and back",
            r"back and forth",
            r"both ways",
            r"there and back",
            r"return trip",
            r"to and from",
            r"each way",
            r"the same way",
        ),
        "items_per_dozen": _words(r"dozens?"),
        "items_per_pair": _words(r"pairs?"),
        "seconds_per_minute": _words(r"seconds?", r"secs?"),
        "minutes_per_hour": _words(r"hours?", r"hourly", r"minutes?", r"mins?", r"hrs?"),
        "hours_per_day": _words(r"days?", r"daily", r"overnight", r"hours? a day"),
        "days_per_week": _words(r"weeks?", r"weekly", r"fortnights?"),
        "weekdays_per_week": _words(
            r"weekdays?",
            r"work(?:ing)?\s?days?",
            r"school\s?days?",
            r"business days?",
            r"monday (?:through|to|-) friday",
            r"school\s?weeks?",
            r"work\s?weeks?",
            r"five-day weeks?",
        ),
        "weekend_days_per_week": _words(r"weekends?"),
        "days_per_month": _words(r"months?", r"monthly"),
        # month names are capitalized ("May", not "may"): case-sensitive
        "days_in_31_day_month": _gated(
            _rx(r"(?<![A-Za-z])(?:January|March|May|July|August|October|December)(?![A-Za-z])"),
            *["january", "march", "may", "july", "august", "october", "december"],
        ),
        "days_in_30_day_month": _gated(
            _rx(r"(?<![A-Za-z])(?:April|June|September|November)(?![A-Za-z])"),
            *["april", "june", "september", "november"],
        ),
        "days_in_february": _gated(_rx(r"(?<![A-Za-z])February(?![A-Za-z])"), "february"),
        # a conversion between two units the text both names: the key is one both branches need
        "seconds_per_hour": _gated(
            _rx(
                r"(?i)(?<![a-z])(?:seconds?|secs?)(?![a-z])(?=[\s\S]*(?<![a-z])(?:hours?|hrs?)(?![a-z]))"
                r"|(?<![a-z])(?:hours?|hrs?)(?![a-z])(?=[\s\S]*(?<![a-z])(?:seconds?|secs?)(?![a-z]))"
            ),
            "sec",
        ),
        "minutes_per_day": _gated(
            _rx(
                r"(?i)(?<![a-z])minutes?(?![a-z])(?=[\s\S]*(?<![a-z])(?:days?|daily)(?![a-z]))"
                r"|(?<![a-z])(?:days?|daily)(?![a-z])(?=[\s\S]*(?<![a-z])minutes?(?![a-z]))"
            ),
            "minute",
        ),
        "hours_per_week": _gated(
            _rx(
                r"(?i)(?<![a-z])hours?(?![a-z])(?=[\s\S]*(?<![a-z])weeks?(?![a-z]))"
                r"|(?<![a-z])weeks?(?![a-z])(?=[\s\S]*(?<![a-z])hours?(?![a-z]))"
            ),
            "week",
        ),
        "weeks_per_month": _words(r"months?", r"monthly"),
        "days_per_year": _words(r"years?", r"yearly", r"annual(?:ly)?"),
        "weeks_per_year": _words(r"years?", r"yearly", r"annual(?:ly)?"),
        "months_per_year": _words(r"years?", r"yearly", r"annual(?:ly)?", r"months?", r"monthly"),
        "years_per_decade": _words(r"decades?"),
        "years_per_century": _words(r"centur(?:y|ies)"),
        "dollars_per_cent": _words(r"cents?", r"\u00a2"),
        "penny_in_dollars": _words(r"penn(?:y|ies)"),
        "nickel_in_cents": _words(r"nickels?"),
        "nickel_in_dollars": _words(r"nickels?"),
        "dime_in_cents": _words(r"dimes?"),
        "dime_in_dollars": _words(r"dimes?"),
        "quarter_in_cents": _words(r"quarters?"),
        "quarter_in_dollars": _words(r"quarters?"),
        "half_dollar_in_cents": _words(r"half[- ]dollars?"),
        "half_dollar_in_dollars": _words(r"half[- ]dollars?"),
        "cents_per_dollar": _words(r"cents?", r"penn(?:y|ies)", r"nickels?", r"dimes?", r"quarters?"),
        "inches_per_foot": _words(r"inch(?:es)?", r"foot", r"feet"),
        "feet_per_yard": _words(r"yards?"),
        "feet_per_mile": _words(r"miles?"),
        "millimeters_per_centimeter": _words(r"millimet(?:er|re)s?", r"mm"),
        "centimeters_per_meter": _words(r"centimet(?:er|re)s?", r"cm"),
        "meters_per_kilometer": _words(r"kilomet(?:er|re)s?", r"km"),
        "ounces_per_pound": _words(r"ounces?", r"oz"),
        "pounds_per_ton": _words(r"tons?"),
        "grams_per_kilogram": _words(r"kilo(?:gram)?s?", r"kg"),
        "milligrams_per_gram": _words(r"milligrams?", r"mg"),
        "milliliters_per_liter": _words(r"millilit(?:er|re)s?", r"ml", r"lit(?:er|re)s?"),
        "quarts_per_gallon": _words(r"quarts?", r"gallons?"),
        "pints_per_quart": _words(r"pints?"),
        "cups_per_pint": _words(r"pints?"),
        "cups_per_quart": _words(r"quarts?"),
        "cups_per_gallon": _words(r"gallons?"),
        # a conversion between two units the text both names ("4.5 gallons ... how many pints")
        "pints_per_gallon": _gated(
            _rx(
                r"(?i)(?<![a-z])pints?(?![a-z])(?=[\s\S]*(?<![a-z])gallons?(?![a-z]))"
                r"|(?<![a-z])gallons?(?![a-z])(?=[\s\S]*(?<![a-z])pints?(?![a-z]))"
            ),
            "pint",
        ),
        "tablespoons_per_cup": _gated(
            _rx(
                r"(?i)(?<![a-z])tablespoons?(?![a-z])(?=[\s\S]*(?<![a-z])cups?(?![a-z]))"
                r"|(?<![a-z])cups?(?![a-z])(?=[\s\S]*(?<![a-z])tablespoons?(?![a-z]))"
            ),
            "tablespoon",
        ),
        "teaspoons_per_tablespoon": _gated(
            _rx(
                r"(?i)(?<![a-z])teaspoons?(?![a-z])(?=[\s\S]*(?<![a-z])tablespoons?(?![a-z]))"
                r"|(?<![a-z])tablespoons?(?![a-z])(?=[\s\S]*(?<![a-z])teaspoons?(?![a-z]))"
            ),
            "teaspoon",
        ),
        # shapes: a square fence has 4 sides ("square feet" is an area unit, not a square)
        "square_sides": _gated(
            _rx(
                r"(?i)(?<![a-z])squares?(?![a-z])(?!\s+(?:feet|foot|inch(?:es)?|met(?:er|re)s?|yards?|miles?|units?|"
                r"centimet(?:er|re)s?|kilomet(?:er|re)s?|km|cm|m|ft|in|yd)(?![a-z]))"
            ),
            "square",
        ),
        "rectangle_pairs": _gated(
            _rx(
                rf"(?i)(?<![a-z]){_RECTANGLE}(?![a-z])(?=[\s\S]*(?<![a-z]){_AROUND}(?![a-z]))"
                rf"|(?<![a-z]){_AROUND}(?![a-z])(?=[\s\S]*(?<![a-z]){_RECTANGLE}(?![a-z]))"
            ),
            "perimeter",
            "fenc",
            "around",
            "border",
        ),
        "diameter_per_radius": _gated(
            _rx(
                r"(?i)(?<![a-z])radius(?![a-z])(?=[\s\S]*(?<![a-z])diameter(?![a-z]))"
                r"|(?<![a-z])diameter(?![a-z])(?=[\s\S]*(?<![a-z])radius(?![a-z]))"
            ),
            "radius",
        ),
        "two_sides": _words(
            r"(?:on )?(?:each|either|both) (?:opposite )?sides? of (?:the|a) (?:road|street|sheet|page|paper)"
        ),
        "hundred": _words(r"hundreds?"),
        "thousand": _words(r"thousands?"),
        "million": _words(r"millions?"),
        # world knowledge (issue 36): the thing and what it has, both named
        "legs_per_person": _both(r"people|persons?|m[ae]n|wom[ae]n|boys?|girls?|child(?:ren)?|kids?|humans?|"
                                 r"students?|players?|friends?|dancers?", _LEGS, "leg"),
        "legs_per_chicken": _both(r"chickens?|hens?|roosters?", _LEGS, "leg"),
        "legs_per_duck": _both(r"ducks?|geese|goose|swans?", _LEGS, "leg"),
        "legs_per_bird": _both(r"birds?|turkeys?|ostrich(?:es)?|pigeons?|parrots?|flamingos?|penguins?", _LEGS, "leg"),
        "legs_per_dog": _both(r"dogs?|puppies|puppy", _LEGS, "leg"),
        "legs_per_cat": _both(r"cats?|kittens?", _LEGS, "leg"),
        "legs_per_horse": _both(r"horses?|ponies|pony|donkeys?|zebras?", _LEGS, "leg"),
        "legs_per_cow": _both(r"cows?|cattle|bulls?|calf|calves", _LEGS, "leg"),
        "legs_per_pig": _both(r"pigs?|piglets?|hogs?", _LEGS, "leg"),
        "legs_per_sheep": _both(r"sheep|lambs?", _LEGS, "leg"),
        "legs_per_goat": _both(r"goats?", _LEGS, "leg"),
        "legs_per_table": _both(r"tables?", _LEGS, "leg"),
        "legs_per_chair": _both(r"chairs?|stools?", _LEGS, "leg"),
        "legs_per_insect": _both(r"insects?|ants?|bees?|beetles?|flies|ladybugs?|grasshoppers?|butterfl(?:y|ies)",
                                 _LEGS, "leg"),
        "legs_per_spider": _both(r"spiders?|octopus(?:es)?", _LEGS, "leg"),
        "wheels_per_bicycle": _both(r"bicycles?|bikes?", _WHEELS, "wheel"),
        "wheels_per_motorcycle": _both(r"motorcycles?|motorbikes?|scooters?", _WHEELS, "wheel"),
        "wheels_per_tricycle": _both(r"tricycles?|trikes?", _WHEELS, "wheel"),
        "wheels_per_car": _both(r"cars?|vehicles?|wagons?|skateboards?|roller skates?", _WHEELS, "wheel"),
        "letters_per_alphabet": _words(r"alphabets?"),
        "us_states": _gated(
            _rx(r"(?i)(?<![a-z])(?:united|u\.s\.|american|all(?: the)?|every|each|50|fifty) states?(?![a-z])"),
            "state",
        ),
        "twins": _words(r"twins?"),
        "triplets": _words(r"triplets?"),
        "quadruplets": _words(r"quadruplets?", r"quads"),
        "quintuplets": _words(r"quintuplets?"),
        "sextuplets": _words(r"sextuplets?"),
        "septuplets": _words(r"septuplets?"),
        "octuplets": _words(r"octuplets?"),
        "twenty_dollar_bill": _words(r"twenties", r"twenty[- ]dollar bills?"),
        "ten_dollar_bill": _both(r"tens", _BILLS, "ten"),
        "five_dollar_bill": _gated(
            _rx(r"(?i)(?<![a-z])fivers?(?![a-z])|(?<![a-z])fives(?![a-z])(?=[\s\S]*(?<![a-z])(?:bills?|notes?|cash)(?![a-z]))"
                r"|(?<![a-z])(?:bills?|notes?|cash)(?![a-z])(?=[\s\S]*(?<![a-z])fives(?![a-z]))"),
            "five",
        ),
        "score": _gated(
            _rx(r"(?i)(?<![a-z])(?:(?:a|one|two|three|four|five|six) score(?= (?:of|and|years))|fourscore|"
                r"threescore)(?![a-z])"),
            "score",
        ),
        "bakers_dozen": _words(r"baker'?s'? dozens?"),
        "cards_per_deck": _words(r"decks? of (?:playing )?cards", r"card decks?"),
        "triangle_sides": _words(r"triang(?:le|les|ular)"),
        "pentagon_sides": _words(r"pentagon(?:s|al)?"),
        "hexagon_sides": _words(r"hexagon(?:s|al)?"),
        "octagon_sides": _words(r"octagon(?:s|al)?"),
        "ounces_per_cup": _both(r"cups?", r"ounces?|oz", "ounc", "oz"),
        "ounces_per_gallon": _both(r"gallons?", r"ounces?|oz", "ounc", "oz"),
        "inches_per_yard": _both(r"yards?", r"inch(?:es)?", "inch"),
        "yards_per_mile": _both(r"miles?", r"yards?", "yard"),
        "every_other": _words(r"every other", r"every second", r"alternate"),
        "buy_one_get_one": _words(r"buy (?:one|1),? get (?:one|1)", r"bogo"),
        "parents": _words(r"parents", r"grandparents"),
        "one_part": _words(r"times", r"twice", r"thrice", r"double", r"triple"),
        "self": _words(
            r"others?",
            r"including",
            r"himself",
            r"herself",
            r"myself",
            r"yourself",
            r"along with",
            r"together with",
        ),
        "whole": _rx(
            r"%|(?<![A-Za-z])(?:percent|per cent|half|halves|thirds?|quarters?|fourths?|fifths?|sixths?|sevenths?|"
            r"eighths?|ninths?|tenths?|fraction|rest|remaining|remainder|left|whole|entire)(?![A-Za-z])"
            r"|\d+\s*/\s*\d+"
            # a job done at a rate ("can paint the house in 4 hours"): the whole job is 1
            r"|(?<![A-Za-z])can\s+(?:[\w'-]+\s+){1,6}?in\s+(?:\d+(?:\.\d+)?|an?|one)\s+(?:hours?|minutes?|days?)(?![A-Za-z])",
            re.IGNORECASE,
        ),
    }
)


# Constants tried only when no other rule grounds a number (ssbg.reading.grounding): their cue words
# are common enough that they must not pre-empt a mention, a step or a cue of the main table.
FALLBACK_CONSTANTS: frozenset[str] = frozenset(
    {
        "every_other",
        "buy_one_get_one",
        "parents",
        "one_part",
        "self",
        "days_in_31_day_month",
        "days_in_30_day_month",
        "days_in_february",
        "seconds_per_hour",
        "minutes_per_day",
        "hours_per_week",
        "pints_per_gallon",
        "tablespoons_per_cup",
        "teaspoons_per_tablespoon",
        "square_sides",
        "rectangle_pairs",
        "diameter_per_radius",
        "two_sides",
        "us_states",
        "score",
        "triangle_sides",
        "pentagon_sides",
        "hexagon_sides",
        "octagon_sides",
        "ounces_per_gallon",
        "inches_per_yard",
        "yards_per_mile",
    }
)

# World knowledge (issue 36): ordinary constants, weighed as candidates below what the text writes (a mention,
# a scaled mention), since their cue words ("legs", "cars") say what a thing has, not that a number is meant.
KNOWLEDGE_CONSTANTS: frozenset[str] = frozenset(
    cid for cid in IMPLICIT_CONSTANTS if cid.startswith(("legs_per_", "wheels_per_"))
) | frozenset(
    {
        "letters_per_alphabet", "twins", "triplets", "quadruplets", "quintuplets", "sextuplets", "septuplets",
        "octuplets", "twenty_dollar_bill", "ten_dollar_bill", "five_dollar_bill", "bakers_dozen", "cards_per_deck",
        "ounces_per_cup",
    }
)  # fmt: skip

# Constants no words of a text cue: the form of an equation implies them (ssbg.reading.formula.isolate,
# a lone unknown's coefficient 1 where the equation collects terms), so find_cues never offers them.
EQUATION_CONSTANTS: frozenset[str] = frozenset({"unknown_itself"})

_BY_VALUE: Mapping[float, tuple[str, ...]] = MappingProxyType(
    {
        value: tuple(cid for cid in _SPECS if IMPLICIT_CONSTANTS[cid].value == value)
        for value in sorted({c.value for c in IMPLICIT_CONSTANTS.values()})
    }
)


_GATES: Mapping[str, tuple[str, ...] | None] = MappingProxyType({cid: spec.keys for cid, spec in _SPECS.items()})


def _may_occur(cid: str, lowered: str | None) -> bool:
    """Whether constant ``cid``'s cue words may occur in a text, lower-cased (and folded: :func:`_lowered`;
    None: always searched)."""
    keys = _GATES[cid]
    return keys is None or lowered is None or any(map(lowered.__contains__, keys))


# Each case-blind pattern's case-sensitive twin, what an ASCII text is searched with (lower-cased), compiled at
# import: a twin compiled while a corpus is read would be paid by the problems.
_LOWER_CASE: Mapping[str, re.Pattern[str] | None] = MappingProxyType(
    {cid: spec.without_folding() for cid, spec in _SPECS.items()}
)


class _Patterns(Mapping[str, "re.Pattern[str]"]):
    """Each constant's cue pattern as written (:data:`_SPECS`).  A case-sensitive one (the months) is compiled
    at import, since every text is searched with it; the case-blind ones only when one is first asked for, all
    of them then: a text is searched with them only when it is not ASCII (an ASCII text is searched lower-cased
    with its twin, :data:`_LOWER_CASE`), and compiling them cost four times what their twins cost, in every
    process that reads a problem.  All at once, so that a corpus pays them at its first text that is not ASCII
    and not one by one inside the reading of later problems (``bench_instructions.py``'s reading figure counts
    problems 400..800: compiled one by one they cost it 0.44 M instructions a problem)."""

    def __init__(self) -> None:
        self._compiled = {cid: spec.compiled() for cid, spec in _SPECS.items() if _LOWER_CASE[cid] is None}

    def __getitem__(self, cid: str) -> re.Pattern[str]:
        try:
            return self._compiled[cid]
        except KeyError:
            _SPECS[cid]  # KeyError for a constant with no cue
            for other, spec in _SPECS.items():
                if other not in self._compiled:
                    self._compiled[other] = spec.compiled()
            return self._compiled[cid]

    def __iter__(self) -> Iterator[str]:
        return iter(_SPECS)

    def __len__(self) -> int:
        return len(_SPECS)


CUE_PATTERNS: Mapping[str, re.Pattern[str]] = _Patterns()
"""Constant id -> the compiled pattern of the words that cue it, in order of preference among constants of
equal value (the first constant whose cue occurs in the text wins)."""


# The letters a case-blind pattern matches to ASCII ones although their lower case is not ASCII (re._casefix:
# dotless i, long s; a capital I with a dot lowers to i and a combining dot): folded before a gate looks for keys.
_FOLD_TO_ASCII = str.maketrans({"\u0131": "i", "\u017f": "s", "\u0307": None})


@functools.lru_cache(maxsize=8)  # a problem's text and solution, asked for each value
def _lowered(text: str) -> tuple[str, bool]:
    """``text`` lower-cased (the offsets stay where it is ASCII; else it serves only the gates, its letters that
    match ASCII ones case-blind folded to them), and whether it is ASCII."""
    if text.isascii():
        return text.lower(), True
    return text.lower().translate(_FOLD_TO_ASCII), False


def _runs(fallback: bool) -> Mapping[float, tuple[tuple[tuple[str, ...] | None, tuple[str, ...]], ...]]:
    """Per value, its constants (the fallback ones or the others, in :data:`_BY_VALUE`'s order) in runs that
    share their gate keys: the 15 constants of legs are one look for "leg" in a text, not 15."""
    out: dict[float, tuple[tuple[tuple[str, ...] | None, tuple[str, ...]], ...]] = {}
    for value, cids in _BY_VALUE.items():
        runs: list[tuple[tuple[str, ...] | None, tuple[str, ...]]] = []
        for cid in cids:
            if (cid in FALLBACK_CONSTANTS) != fallback:
                continue
            if runs and runs[-1][0] == _GATES[cid] and _GATES[cid] is not None:
                runs[-1] = (runs[-1][0], (*runs[-1][1], cid))
            else:
                runs.append((_GATES[cid], (cid,)))
        out[value] = tuple(runs)
    return MappingProxyType(out)


_RUNS: Mapping[bool, Mapping[float, tuple[tuple[tuple[str, ...] | None, tuple[str, ...]], ...]]] = MappingProxyType(
    {False: _runs(False), True: _runs(True)}
)


def _cued(text: str, value: float, fallback: bool) -> Iterator[tuple[str, Iterator[re.Match[str]]]]:
    """Each constant of value ``value`` (the fallback ones or the others) whose gate keys ``text`` holds, in
    :data:`_BY_VALUE`'s order, with the matches of its cue pattern."""
    low, ascii_text = _lowered(text)
    for keys, cids in _RUNS[fallback].get(value, ()):
        if keys is not None and not any(map(low.__contains__, keys)):
            continue
        for cid in cids:
            plain = _LOWER_CASE[cid]
            yield cid, (plain.finditer(low) if plain is not None and ascii_text else CUE_PATTERNS[cid].finditer(text))


@dataclass(frozen=True, slots=True)
class Cue:
    """A constant and the span of the first words in the text that cue it."""

    constant_id: str
    start: int
    end: int


@functools.lru_cache(maxsize=1024)  # a problem asks again for each literal of that value, in each rule
def find_cues(text: str, value: float, *, fallback: bool = False) -> tuple[Cue, ...]:
    """The constants of value ``value`` whose cue words occur in ``text``, best first.

    Order: :data:`CUE_PATTERNS` order (the first is the importer's choice).  Only the
    :data:`FALLBACK_CONSTANTS` when ``fallback``, only the others when not.

    >>> [c.constant_id for c in find_cues("He and 3 other people ate.", 1, fallback=True)]
    ['self']
    """
    out: list[Cue] = []
    for cid, matches in _cued(text, value, fallback):
        hit = next(matches, None)
        if hit is not None:
            out.append(Cue(cid, hit.start(), hit.end()))
    return tuple(out)


_MAX_OCCURRENCES = 8  # cue words a text repeats ("dozen" in every sentence): the first few compete


@functools.lru_cache(maxsize=1024)
def find_cue_occurrences(text: str, value: float) -> tuple[Cue, ...]:
    """Every place the words of a constant of value ``value`` occur in ``text`` (the ordinary constants,
    in :func:`find_cues`'s order, then by offset; at most eight per constant), so that the words around
    each can be weighed.

    >>> [(c.constant_id, c.start) for c in find_cue_occurrences("2 dozen eggs and 3 dozen rolls", 12)]
    [('items_per_dozen', 2), ('items_per_dozen', 19)]
    """
    out: list[Cue] = []
    for cid, matches in _cued(text, value, False):
        for k, hit in enumerate(matches):
            if k == _MAX_OCCURRENCES:
                break
            out.append(Cue(cid, hit.start(), hit.end()))
    return tuple(out)
