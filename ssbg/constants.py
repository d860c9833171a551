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

__all__ = ["IMPLICIT_CONSTANTS", "ImplicitConstant", "constants_with_value"]


@dataclass(frozen=True, slots=True)
class ImplicitConstant:
    """One implied number: an id, its value, its unit (``None``: a pure number) and a description."""

    constant_id: str
    value: int | float
    unit: str | None
    description: str

    @property
    def is_pure(self) -> bool:
        """True for a dimensionless multiplier or divisor with no unit (``twice``, ``half``)."""
        return self.unit is None


def _table(*rows: tuple[str, int | float, str | None, str]) -> Mapping[str, ImplicitConstant]:
    return MappingProxyType({cid: ImplicitConstant(cid, value, unit, text) for cid, value, unit, text in rows})


IMPLICIT_CONSTANTS: Mapping[str, ImplicitConstant] = _table(
    # time
    ("seconds_per_minute", 60, "second_per_minute", "60 seconds per minute"),
    ("minutes_per_hour", 60, "minute_per_hour", "60 minutes per hour"),
    ("hours_per_day", 24, "hour_per_day", "24 hours per day"),
    ("days_per_week", 7, "day_per_week", "7 days per week"),
    ("weekdays_per_week", 5, "day_per_week", "5 weekdays per week"),
    ("weekend_days_per_week", 2, "day_per_week", "2 weekend days per week"),
    ("days_per_month", 30, "day_per_month", "30 days per month"),
    ("days_in_31_day_month", 31, "day_per_month", "31 days in January, March, May, July, August, October, December"),
    ("days_in_30_day_month", 30, "day_per_month", "30 days in April, June, September, November"),
    ("days_in_february", 28, "day_per_month", "28 days in February (not a leap year)"),
    ("seconds_per_hour", 3600, "second_per_hour", "3600 seconds per hour"),
    ("minutes_per_day", 1440, "minute_per_day", "1440 minutes per day"),
    ("hours_per_week", 168, "hour_per_week", "168 hours per week"),
    ("weeks_per_month", 4, "week_per_month", "4 weeks per month"),
    ("days_per_year", 365, "day_per_year", "365 days per year"),
    ("weeks_per_year", 52, "week_per_year", "52 weeks per year"),
    ("months_per_year", 12, "month_per_year", "12 months per year"),
    ("years_per_decade", 10, "year_per_decade", "10 years per decade"),
    ("years_per_century", 100, "year_per_century", "100 years per century"),
    # counts
    ("items_per_dozen", 12, "item_per_dozen", "12 per dozen"),
    ("items_per_pair", 2, "item_per_pair", "2 per pair"),
    # money (a coin's value is money per coin: per item)
    ("cents_per_dollar", 100, "cent_per_dollar", "100 cents per dollar"),
    ("dollars_per_cent", 0.01, "dollar_per_cent", "0.01 dollars per cent"),
    ("penny_in_dollars", 0.01, "dollar_per_item", "a penny is $0.01"),
    ("nickel_in_cents", 5, "cent_per_item", "a nickel is 5 cents"),
    ("nickel_in_dollars", 0.05, "dollar_per_item", "a nickel is $0.05"),
    ("dime_in_cents", 10, "cent_per_item", "a dime is 10 cents"),
    ("dime_in_dollars", 0.1, "dollar_per_item", "a dime is $0.10"),
    ("quarter_in_cents", 25, "cent_per_item", "a quarter is 25 cents"),
    ("quarter_in_dollars", 0.25, "dollar_per_item", "a quarter is $0.25"),
    ("half_dollar_in_cents", 50, "cent_per_item", "a half-dollar is 50 cents"),
    ("half_dollar_in_dollars", 0.5, "dollar_per_item", "a half-dollar is $0.50"),
    # length
    ("inches_per_foot", 12, "inch_per_foot", "12 inches per foot"),
    ("feet_per_yard", 3, "foot_per_yard", "3 feet per yard"),
    ("feet_per_mile", 5280, "foot_per_mile", "5280 feet per mile"),
    ("millimeters_per_centimeter", 10, "millimeter_per_centimeter", "10 millimeters per centimeter"),
    ("centimeters_per_meter", 100, "centimeter_per_meter", "100 centimeters per meter"),
    ("meters_per_kilometer", 1000, "meter_per_kilometer", "1000 meters per kilometer"),
    # mass
    ("ounces_per_pound", 16, "ounce_per_pound", "16 ounces per pound"),
    ("pounds_per_ton", 2000, "pound_per_ton", "2000 pounds per ton"),
    ("grams_per_kilogram", 1000, "gram_per_kilogram", "1000 grams per kilogram"),
    ("milligrams_per_gram", 1000, "milligram_per_gram", "1000 milligrams per gram"),
    # volume
    ("milliliters_per_liter", 1000, "milliliter_per_liter", "1000 milliliters per liter"),
    ("quarts_per_gallon", 4, "quart_per_gallon", "4 quarts per gallon"),
    ("pints_per_quart", 2, "pint_per_quart", "2 pints per quart"),
    ("cups_per_pint", 2, "cup_per_pint", "2 cups per pint"),
    ("cups_per_quart", 4, "cup_per_quart", "4 cups per quart"),
    ("cups_per_gallon", 16, "cup_per_gallon", "16 cups per gallon"),
    ("pints_per_gallon", 8, "pint_per_gallon", "8 pints per gallon"),
    ("tablespoons_per_cup", 16, "tablespoon_per_cup", "16 tablespoons per cup"),
    ("teaspoons_per_tablespoon", 3, "teaspoon_per_tablespoon", "3 teaspoons per tablespoon"),
    # dimensionless
    ("percent", 100, "percent", "100 percent: the whole of a percentage"),
    ("percent_scale", 0.01, None, "0.01: one percent as a fraction"),
    ("whole", 1, None, "1: the whole, for a complement such as 1 - 1/4"),
    ("half", 2, None, "2 for half"),
    ("twice", 2, None, "2 for twice or double"),
    ("both", 2, None, "2 for both, a couple or twins"),
    ("thrice", 3, None, "3 for thrice or triple"),
    ("quadruple", 4, None, "4 for quadruple"),
    ("third", 3, None, "3 for a third"),
    ("quarter", 4, None, "4 for a quarter"),
    ("fifth", 5, None, "5 for a fifth"),
    ("sixth", 6, None, "6 for a sixth"),
    ("seventh", 7, None, "7 for a seventh"),
    ("eighth", 8, None, "8 for an eighth"),
    ("ninth", 9, None, "9 for a ninth"),
    ("tenth", 10, None, "10 for a tenth"),
    ("round_trip", 2, None, "2 for a round trip: there and back"),
    ("every_other", 2, None, "2 for every other (day): one time in two"),
    ("buy_one_get_one", 2, None, "2 for buy one get one free: one paid in two"),
    ("parents", 2, "person", "2 persons for one's parents or grandparents"),
    ("one_part", 1, None, "1 part: the share that 'k times as many' multiplies, k + 1 parts in all"),
    ("self", 1, "person", "1 person: the one counted with the others ('3 other people', 'including him')"),
    ("unknown_itself", 1, None, "1: an unknown written alone where an equation collects its terms (x + 2x: 1 + 2)"),
    ("square_sides", 4, None, "4 for the sides of a square"),
    ("rectangle_pairs", 2, None, "2 for the two pairs of equal sides of a rectangle"),
    ("diameter_per_radius", 2, None, "2 for a diameter: twice the radius"),
    ("two_sides", 2, None, "2 for the two sides of a road, a street or a sheet"),
    ("hundred", 100, None, "100 for hundred"),
    ("thousand", 1000, None, "1000 for thousand"),
    ("million", 1000000, None, "1000000 for million"),
)


def constants_with_value(value: float | Fraction) -> tuple[ImplicitConstant, ...]:
    """Every constant whose value equals ``value``, in table order.

    >>> [c.constant_id for c in constants_with_value(24)]
    ['hours_per_day']
    """
    return tuple(c for c in IMPLICIT_CONSTANTS.values() if c.value == value)
