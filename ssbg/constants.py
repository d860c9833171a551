"""Implicit constants: numbers a solution uses that the problem text only implies.

A worked solution divides by 60 to turn an hourly wage into a per-minute one,
by 100 to apply a percentage, by 2 for "half"; the text never writes those
numbers.  :data:`IMPLICIT_CONSTANTS` is the closed table of such numbers, each
with the unit that makes it dimensionally honest: ``60`` is ``minute_per_hour``
(so ``$12 an hour / 60`` is dollars per hour over minutes per hour, i.e. dollars
per minute), ``100`` is ``percent`` (one hundred percent: the whole), and a pure
multiplier such as ``2`` for "twice" has no unit at all (``None``): it binds as a
dimensionless ``ratio``.

This is core data; finding the words that cue a constant in a text is the
corpus edge's job (:mod:`ssbg.reading.cues`).

Examples
--------
>>> IMPLICIT_CONSTANTS["minutes_per_hour"].value
60
>>> IMPLICIT_CONSTANTS["minutes_per_hour"].unit
'minute_per_hour'
>>> IMPLICIT_CONSTANTS["twice"].unit is None
True
>>> sorted(c.constant_id for c in constants_with_value(12))[:3]
['inches_per_foot', 'items_per_dozen', 'months_per_year']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

__all__ = ["IMPLICIT_CONSTANTS", "SOURCES", "ImplicitConstant", "constants_with_value"]


SOURCES: tuple[str, ...] = ("SI", "US", "calendar", "arithmetic", "algebra", "geometry", "common knowledge")
"""Where a constant's fact comes from: a unit system (``SI``; ``US`` customary units, coins and bills), the
calendar, arithmetic and algebra (``half`` is 2, an unknown alone is 1), geometry (a square's 4 sides), or
knowledge every reader shares (a dog's 4 legs, 50 US states, octuplets are 8)."""


@dataclass(frozen=True, slots=True)
class ImplicitConstant:
    """One implied number: an id, its value, its unit (``None``: a pure number), a description and where
    the fact comes from (one of :data:`SOURCES`)."""

    constant_id: str
    value: int | float
    unit: str | None
    description: str
    source: str

    @property
    def is_pure(self) -> bool:
        """True for a dimensionless multiplier or divisor with no unit (``twice``, ``half``)."""
        return self.unit is None


def _table(*rows: tuple[str, int | float, str | None, str, str]) -> Mapping[str, ImplicitConstant]:
    return MappingProxyType({row[0]: ImplicitConstant(*row) for row in rows})


IMPLICIT_CONSTANTS: Mapping[str, ImplicitConstant] = _table(
    # time
    ("seconds_per_minute", 60, "second_per_minute", "60 seconds per minute", "SI"),
    ("minutes_per_hour", 60, "minute_per_hour", "60 minutes per hour", "SI"),
    ("hours_per_day", 24, "hour_per_day", "24 hours per day", "SI"),
    ("days_per_week", 7, "day_per_week", "7 days per week", "calendar"),
    ("weekdays_per_week", 5, "day_per_week", "5 weekdays per week", "calendar"),
    ("weekend_days_per_week", 2, "day_per_week", "2 weekend days per week", "calendar"),
    ("days_per_month", 30, "day_per_month", "30 days per month", "calendar"),
    ("days_in_31_day_month", 31, "day_per_month",
     "31 days in January, March, May, July, August, October, December", "calendar"),
    ("days_in_30_day_month", 30, "day_per_month", "30 days in April, June, September, November", "calendar"),
    ("days_in_february", 28, "day_per_month", "28 days in February (not a leap year)", "calendar"),
    ("seconds_per_hour", 3600, "second_per_hour", "3600 seconds per hour", "SI"),
    ("minutes_per_day", 1440, "minute_per_day", "1440 minutes per day", "SI"),
    ("hours_per_week", 168, "hour_per_week", "168 hours per week", "calendar"),
    ("weeks_per_month", 4, "week_per_month", "4 weeks per month", "calendar"),
    ("days_per_year", 365, "day_per_year", "365 days per year", "calendar"),
    ("weeks_per_year", 52, "week_per_year", "52 weeks per year", "calendar"),
    ("months_per_year", 12, "month_per_year", "12 months per year", "calendar"),
    ("years_per_decade", 10, "year_per_decade", "10 years per decade", "calendar"),
    ("years_per_century", 100, "year_per_century", "100 years per century", "calendar"),
    # counts
    ("items_per_dozen", 12, "item_per_dozen", "12 per dozen", "common knowledge"),
    ("items_per_pair", 2, "item_per_pair", "2 per pair", "common knowledge"),
    # money (a coin's value is money per coin: per item)
    ("cents_per_dollar", 100, "cent_per_dollar", "100 cents per dollar", "US"),
    ("dollars_per_cent", 0.01, "dollar_per_cent", "0.01 dollars per cent", "US"),
    ("penny_in_dollars", 0.01, "dollar_per_item", "a penny is $0.01", "US"),
    ("nickel_in_cents", 5, "cent_per_item", "a nickel is 5 cents", "US"),
    ("nickel_in_dollars", 0.05, "dollar_per_item", "a nickel is $0.05", "US"),
    ("dime_in_cents", 10, "cent_per_item", "a dime is 10 cents", "US"),
    ("dime_in_dollars", 0.1, "dollar_per_item", "a dime is $0.10", "US"),
    ("quarter_in_cents", 25, "cent_per_item", "a quarter is 25 cents", "US"),
    ("quarter_in_dollars", 0.25, "dollar_per_item", "a quarter is $0.25", "US"),
    ("half_dollar_in_cents", 50, "cent_per_item", "a half-dollar is 50 cents", "US"),
    ("half_dollar_in_dollars", 0.5, "dollar_per_item", "a half-dollar is $0.50", "US"),
    # length
    ("inches_per_foot", 12, "inch_per_foot", "12 inches per foot", "US"),
    ("feet_per_yard", 3, "foot_per_yard", "3 feet per yard", "US"),
    ("feet_per_mile", 5280, "foot_per_mile", "5280 feet per mile", "US"),
    ("millimeters_per_centimeter", 10, "millimeter_per_centimeter", "10 millimeters per centimeter", "SI"),
    ("centimeters_per_meter", 100, "centimeter_per_meter", "100 centimeters per meter", "SI"),
    ("meters_per_kilometer", 1000, "meter_per_kilometer", "1000 meters per kilometer", "SI"),
    # mass
    ("ounces_per_pound", 16, "ounce_per_pound", "16 ounces per pound", "US"),
    ("pounds_per_ton", 2000, "pound_per_ton", "2000 pounds per ton", "US"),
    ("grams_per_kilogram", 1000, "gram_per_kilogram", "1000 grams per kilogram", "SI"),
    ("milligrams_per_gram", 1000, "milligram_per_gram", "1000 milligrams per gram", "SI"),
    # volume
    ("milliliters_per_liter", 1000, "milliliter_per_liter", "1000 milliliters per liter", "SI"),
    ("quarts_per_gallon", 4, "quart_per_gallon", "4 quarts per gallon", "US"),
    ("pints_per_quart", 2, "pint_per_quart", "2 pints per quart", "US"),
    ("cups_per_pint", 2, "cup_per_pint", "2 cups per pint", "US"),
    ("cups_per_quart", 4, "cup_per_quart", "4 cups per quart", "US"),
    ("cups_per_gallon", 16, "cup_per_gallon", "16 cups per gallon", "US"),
    ("pints_per_gallon", 8, "pint_per_gallon", "8 pints per gallon", "US"),
    ("tablespoons_per_cup", 16, "tablespoon_per_cup", "16 tablespoons per cup", "US"),
    ("teaspoons_per_tablespoon", 3, "teaspoon_per_tablespoon", "3 teaspoons per tablespoon", "US"),
    # dimensionless
    ("percent", 100, "percent", "100 percent: the whole of a percentage", "arithmetic"),
    ("percent_scale", 0.01, None, "0.01: one percent as a fraction", "arithmetic"),
    ("whole", 1, None, "1: the whole, for a complement such as 1 - 1/4", "arithmetic"),
    ("half", 2, None, "2 for half", "arithmetic"),
    ("twice", 2, None, "2 for twice or double", "arithmetic"),
    ("both", 2, None, "2 for both, a couple or twins", "arithmetic"),
    ("thrice", 3, None, "3 for thrice or triple", "arithmetic"),
    ("quadruple", 4, None, "4 for quadruple", "arithmetic"),
    ("third", 3, None, "3 for a third", "arithmetic"),
    ("quarter", 4, None, "4 for a quarter", "arithmetic"),
    ("fifth", 5, None, "5 for a fifth", "arithmetic"),
    ("sixth", 6, None, "6 for a sixth", "arithmetic"),
    ("seventh", 7, None, "7 for a seventh", "arithmetic"),
    ("eighth", 8, None, "8 for an eighth", "arithmetic"),
    ("ninth", 9, None, "9 for a ninth", "arithmetic"),
    ("tenth", 10, None, "10 for a tenth", "arithmetic"),
    ("round_trip", 2, None, "2 for a round trip: there and back", "common knowledge"),
    ("every_other", 2, None, "2 for every other (day): one time in two", "common knowledge"),
    ("buy_one_get_one", 2, None, "2 for buy one get one free: one paid in two", "common knowledge"),
    ("parents", 2, "person", "2 persons for one's parents or grandparents", "common knowledge"),
    ("one_part", 1, None, "1 part: the share that 'k times as many' multiplies, k + 1 parts in all", "arithmetic"),
    ("self", 1, "person",
     "1 person: the one counted with the others ('3 other people', 'including him')", "common knowledge"),
    ("unknown_itself", 1, None,
     "1: an unknown written alone where an equation collects its terms (x + 2x: 1 + 2)", "algebra"),
    ("square_sides", 4, None, "4 for the sides of a square", "geometry"),
    ("rectangle_pairs", 2, None, "2 for the two pairs of equal sides of a rectangle", "geometry"),
    ("diameter_per_radius", 2, None, "2 for a diameter: twice the radius", "geometry"),
    ("two_sides", 2, None, "2 for the two sides of a road, a street or a sheet", "common knowledge"),
    ("hundred", 100, None, "100 for hundred", "arithmetic"),
    ("thousand", 1000, None, "1000 for thousand", "arithmetic"),
    ("million", 1000000, None, "1000000 for million", "arithmetic"),
    # world knowledge a problem leaves unwritten (issue 36): a count per thing, cued by the thing and what it
    # has ("3 dogs ... legs"), a conversion by both units, a number by its word ("octuplets")
    ("legs_per_person", 2, "leg_per_person", "2 legs per person", "common knowledge"),
    ("legs_per_chicken", 2, "leg_per_chicken", "2 legs per chicken", "common knowledge"),
    ("legs_per_duck", 2, "leg_per_duck", "2 legs per duck", "common knowledge"),
    ("legs_per_bird", 2, "leg_per_bird", "2 legs per bird", "common knowledge"),
    ("legs_per_dog", 4, "leg_per_dog", "4 legs per dog", "common knowledge"),
    ("legs_per_cat", 4, "leg_per_cat", "4 legs per cat", "common knowledge"),
    ("legs_per_horse", 4, "leg_per_horse", "4 legs per horse", "common knowledge"),
    ("legs_per_cow", 4, "leg_per_cow", "4 legs per cow", "common knowledge"),
    ("legs_per_pig", 4, "leg_per_pig", "4 legs per pig", "common knowledge"),
    ("legs_per_sheep", 4, "leg_per_sheep", "4 legs per sheep", "common knowledge"),
    ("legs_per_goat", 4, "leg_per_goat", "4 legs per goat", "common knowledge"),
    ("legs_per_table", 4, "leg_per_table", "4 legs per table", "common knowledge"),
    ("legs_per_chair", 4, "leg_per_chair", "4 legs per chair", "common knowledge"),
    ("legs_per_insect", 6, "leg_per_insect", "6 legs per insect", "common knowledge"),
    ("legs_per_spider", 8, "leg_per_spider", "8 legs per spider", "common knowledge"),
    ("wheels_per_bicycle", 2, "wheel_per_bicycle", "2 wheels per bicycle", "common knowledge"),
    ("wheels_per_motorcycle", 2, "wheel_per_motorcycle", "2 wheels per motorcycle", "common knowledge"),
    ("wheels_per_tricycle", 3, "wheel_per_tricycle", "3 wheels per tricycle", "common knowledge"),
    ("wheels_per_car", 4, "wheel_per_car", "4 wheels per car", "common knowledge"),
    ("letters_per_alphabet", 26, "letter_per_alphabet", "26 letters in the English alphabet", "common knowledge"),
    ("us_states", 50, "state", "50 states of the United States", "US"),
    ("twins", 2, "child", "2 children born as twins", "common knowledge"),
    ("triplets", 3, "child", "3 children born as triplets", "common knowledge"),
    ("quadruplets", 4, "child", "4 children born as quadruplets", "common knowledge"),
    ("quintuplets", 5, "child", "5 children born as quintuplets", "common knowledge"),
    ("sextuplets", 6, "child", "6 children born as sextuplets", "common knowledge"),
    ("septuplets", 7, "child", "7 children born as septuplets", "common knowledge"),
    ("octuplets", 8, "child", "8 children born as octuplets", "common knowledge"),
    ("twenty_dollar_bill", 20, "dollar_per_item", "a twenty is a $20 bill", "US"),
    ("ten_dollar_bill", 10, "dollar_per_item", "a ten is a $10 bill", "US"),
    ("five_dollar_bill", 5, "dollar_per_item", "a five or a fiver is a $5 bill", "US"),
    ("score", 20, None, "20 for a score", "common knowledge"),
    ("bakers_dozen", 13, "item_per_dozen", "13 in a baker's dozen", "common knowledge"),
    ("cards_per_deck", 52, "card_per_deck", "52 cards in a deck", "common knowledge"),
    ("triangle_sides", 3, None, "3 for the sides of a triangle", "geometry"),
    ("pentagon_sides", 5, None, "5 for the sides of a pentagon", "geometry"),
    ("hexagon_sides", 6, None, "6 for the sides of a hexagon", "geometry"),
    ("octagon_sides", 8, None, "8 for the sides of an octagon", "geometry"),
    ("ounces_per_cup", 8, "ounce_per_cup", "8 (fluid) ounces per cup", "US"),
    ("ounces_per_gallon", 128, "ounce_per_gallon", "128 (fluid) ounces per gallon", "US"),
    ("inches_per_yard", 36, "inch_per_yard", "36 inches per yard", "US"),
    ("yards_per_mile", 1760, "yard_per_mile", "1760 yards per mile", "US"),
)


def constants_with_value(value: float | Fraction) -> tuple[ImplicitConstant, ...]:
    """Every constant whose value equals ``value``, in table order.

    >>> [c.constant_id for c in constants_with_value(24)]
    ['hours_per_day']
    """
    return tuple(c for c in IMPLICIT_CONSTANTS.values() if c.value == value)
