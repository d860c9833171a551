"""Write packs/en_units_v1/{lexicon.jsonl,manifest.json} from the table below.

The table is the source of truth for the pack's content (SPEC section 4, 112
lemmas); ratios are exact rationals in the pack's coherent base units (foot,
minute, pound, cent, item, degree Fahrenheit).  Run ``python packs/build_en_units_v1.py``
after editing; the test suite checks that the committed files equal its output.
"""

from __future__ import annotations

import hashlib
import json
import sys
from fractions import Fraction as F
from pathlib import Path

FOOT = F(1)
METER = F(1250, 381)  # 1 m = 1/0.3048 ft exactly
CM = METER / 100
MINUTE = F(1)
POUND = F(1)
GRAM = F(100000, 45359237)  # 1 lb = 453.59237 g exactly
CUBIC_INCH = F(1, 1728)
CUP = 231 * CUBIC_INCH / 16  # US gallon = 231 in^3
MILLILITER = CM**3

L = {"length": 1}
T = {"time": 1}
M = {"mass": 1}
MONEY = {"money": 1}
C = {"count": 1}
TEMP = {"temperature": 1}
VOL = {"length": 3}
AREA = {"length": 2}
SPEED = {"length": 1, "time": -1}
DENSITY = {"mass": 1, "length": -3}
FREQ = {"time": -1}
WAGE = {"money": 1, "time": -1}
PRICE = {"money": 1, "count": -1}
NONE: dict[str, int] = {}

# lemma, plural, surfaces, domain, dimension, ratio (None: no fixed scale), canonical, container size
ROWS: list[tuple[str, str, list[str], str, dict[str, int], F | None, bool, int | None]] = [
    # count: the canonical item and nouns with irregular plurals
    ("item", "items", ["pcs", "pieces", "piece"], "count", C, F(1), True, None),
    ("child", "children", ["kids", "kid"], "count", C, F(1), False, None),
    ("person", "people", ["persons"], "count", C, F(1), False, None),
    ("mouse", "mice", [], "count", C, F(1), False, None),
    ("goose", "geese", [], "count", C, F(1), False, None),
    ("fish", "fish", ["fishes"], "count", C, F(1), False, None),
    ("sheep", "sheep", [], "count", C, F(1), False, None),
    ("deer", "deer", [], "count", C, F(1), False, None),
    ("woman", "women", [], "count", C, F(1), False, None),
    ("man", "men", [], "count", C, F(1), False, None),
    ("leaf", "leaves", [], "count", C, F(1), False, None),
    ("knife", "knives", [], "count", C, F(1), False, None),
    ("life", "lives", [], "count", C, F(1), False, None),
    # count: containers (sizes fixed only where the word fixes them)
    ("box", "boxes", [], "count", C, None, False, None),
    ("bag", "bags", [], "count", C, None, False, None),
    ("pack", "packs", ["packets", "packet"], "count", C, None, False, None),
    ("basket", "baskets", [], "count", C, None, False, None),
    ("batch", "batches", [], "count", C, None, False, None),
    ("dozen", "dozens", ["doz"], "count", C, F(12), False, 12),
    ("group", "groups", [], "count", C, None, False, None),
    ("set", "sets", [], "count", C, None, False, None),
    ("case", "cases", [], "count", C, None, False, None),
    ("pair", "pairs", [], "count", C, F(2), False, 2),
    ("pile", "piles", [], "count", C, None, False, None),
    ("stack", "stacks", [], "count", C, None, False, None),
    ("bunch", "bunches", [], "count", C, None, False, None),
    ("bundle", "bundles", [], "count", C, None, False, None),
    ("carton", "cartons", [], "count", C, None, False, None),
    ("crate", "crates", [], "count", C, None, False, None),
    ("jar", "jars", [], "count", C, None, False, None),
    ("can", "cans", [], "count", C, None, False, None),
    ("bottle", "bottles", [], "count", C, None, False, None),
    ("plate", "plates", [], "count", C, None, False, None),
    ("bowl", "bowls", [], "count", C, None, False, None),
    ("tray", "trays", [], "count", C, None, False, None),
    ("sack", "sacks", [], "count", C, None, False, None),
    ("container", "containers", [], "count", C, None, False, None),
    ("gross", "grosses", [], "count", C, F(144), False, 144),
    # length
    ("inch", "inches", ["in."], "length", L, F(1, 12), False, None),
    ("foot", "feet", ["ft", "ft."], "length", L, FOOT, True, None),
    ("yard", "yards", ["yd", "yds"], "length", L, F(3), False, None),
    ("mile", "miles", ["mi"], "length", L, F(5280), False, None),
    ("millimeter", "millimeters", ["mm", "millimetre", "millimetres"], "length", L, METER / 1000, False, None),
    ("centimeter", "centimeters", ["cm", "centimetre", "centimetres"], "length", L, CM, False, None),
    ("meter", "meters", ["m", "metre", "metres"], "length", L, METER, False, None),
    ("kilometer", "kilometers", ["km", "kilometre", "kilometres"], "length", L, METER * 1000, False, None),
    # time
    ("second", "seconds", ["s", "sec", "secs"], "time", T, MINUTE / 60, False, None),
    ("minute", "minutes", ["min", "mins"], "time", T, MINUTE, True, None),
    ("hour", "hours", ["h", "hr", "hrs"], "time", T, F(60), False, None),
    ("day", "days", [], "time", T, F(60 * 24), False, None),
    ("week", "weeks", ["wk", "wks"], "time", T, F(60 * 24 * 7), False, None),
    ("month", "months", ["mo"], "time", T, F(60 * 24) * F(36525, 1200), False, None),
    ("year", "years", ["yr", "yrs"], "time", T, F(60 * 24) * F(36525, 100), False, None),
    ("decade", "decades", [], "time", T, F(60 * 24) * F(36525, 10), False, None),
    ("century", "centuries", [], "time", T, F(60 * 24) * F(36525), False, None),
    ("millennium", "millennia", ["millenniums"], "time", T, F(60 * 24) * F(365250), False, None),
    # mass
    ("ounce", "ounces", ["oz"], "mass", M, F(1, 16), False, None),
    ("pound", "pounds", ["lb", "lbs"], "mass", M, POUND, True, None),
    ("ton", "tons", [], "mass", M, F(2000), False, None),
    ("gram", "grams", ["g", "gramme", "grammes"], "mass", M, GRAM, False, None),
    ("kilogram", "kilograms", ["kg", "kgs", "kilo", "kilos"], "mass", M, GRAM * 1000, False, None),
    ("milligram", "milligrams", ["mg"], "mass", M, GRAM / 1000, False, None),
    ("tonne", "tonnes", ["metric ton", "metric tons"], "mass", M, GRAM * 1000000, False, None),
    # volume
    ("teaspoon", "teaspoons", ["tsp"], "volume", VOL, CUP / 48, False, None),
    ("tablespoon", "tablespoons", ["tbsp"], "volume", VOL, CUP / 16, False, None),
    ("cup", "cups", [], "volume", VOL, CUP, True, None),
    ("pint", "pints", ["pt"], "volume", VOL, CUP * 2, False, None),
    ("quart", "quarts", ["qt"], "volume", VOL, CUP * 4, False, None),
    ("gallon", "gallons", ["gal"], "volume", VOL, CUP * 16, False, None),
    ("milliliter", "milliliters", ["ml", "mL", "millilitre", "millilitres"], "volume", VOL, MILLILITER, False, None),
    ("liter", "liters", ["L", "litre", "litres"], "volume", VOL, MILLILITER * 1000, False, None),
    # money (exchange rates vary: only dollar and cent have a fixed ratio)
    ("cent", "cents", ["¢"], "money", MONEY, F(1), True, None),
    ("dollar", "dollars", ["$", "usd", "USD", "bucks", "buck"], "money", MONEY, F(100), False, None),
    ("euro", "euros", ["€", "EUR"], "money", MONEY, None, False, None),
    ("pound_sterling", "pounds_sterling", ["£", "GBP", "pounds sterling"], "money", MONEY, None, False, None),
    ("yen", "yen", ["¥", "JPY"], "money", MONEY, None, False, None),
    ("peso", "pesos", ["MXN"], "money", MONEY, None, False, None),
    # temperature (differences only; offsets are out of scope)
    ("degree", "degrees", ["°"], "temperature", TEMP, F(1), False, None),
    ("fahrenheit", "fahrenheit", ["°F", "Fahrenheit", "degrees fahrenheit"], "temperature", TEMP, F(1), True, None),
    (
        "celsius",
        "celsius",
        ["°C", "Celsius", "degrees celsius", "centigrade"],
        "temperature",
        TEMP,
        F(9, 5),
        False,
        None,
    ),
    ("kelvin", "kelvins", ["Kelvin"], "temperature", TEMP, F(9, 5), False, None),
    # area
    ("square_inch", "square inches", ["sq in", "in²"], "area", AREA, F(1, 144), False, None),
    ("square_foot", "square feet", ["sq ft", "ft²", "sq. ft."], "area", AREA, F(1), True, None),
    ("square_yard", "square yards", ["sq yd", "yd²"], "area", AREA, F(9), False, None),
    ("square_mile", "square miles", ["sq mi", "mi²"], "area", AREA, F(5280) ** 2, False, None),
    (
        "square_meter",
        "square meters",
        ["sq m", "m²", "square metre", "square metres"],
        "area",
        AREA,
        METER**2,
        False,
        None,
    ),
    (
        "square_kilometer",
        "square kilometers",
        ["sq km", "km²", "square kilometre", "square kilometres"],
        "area",
        AREA,
        (METER * 1000) ** 2,
        False,
        None,
    ),
    ("acre", "acres", [], "area", AREA, F(43560), False, None),
    ("hectare", "hectares", ["ha"], "area", AREA, METER**2 * 10000, False, None),
    # speed
    ("mile_per_hour", "miles per hour", ["mph", "miles an hour"], "speed", SPEED, F(5280, 60), True, None),
    (
        "kilometer_per_hour",
        "kilometers per hour",
        ["kph", "km/h", "kmh", "kilometres per hour"],
        "speed",
        SPEED,
        METER * 1000 / 60,
        False,
        None,
    ),
    ("foot_per_second", "feet per second", ["ft/s", "fps"], "speed", SPEED, F(60), False, None),
    ("meter_per_second", "meters per second", ["m/s", "metres per second"], "speed", SPEED, METER * 60, False, None),
    # density
    ("pound_per_cubic_foot", "pounds per cubic foot", ["lb/ft³", "lb/cu ft"], "density", DENSITY, F(1), True, None),
    (
        "gram_per_cubic_centimeter",
        "grams per cubic centimeter",
        ["g/cm³", "g/cc"],
        "density",
        DENSITY,
        GRAM / CM**3,
        False,
        None,
    ),
    # frequency
    ("hertz", "hertz", ["Hz", "hz"], "frequency", FREQ, F(60), True, None),
    ("kilohertz", "kilohertz", ["kHz", "khz"], "frequency", FREQ, F(60000), False, None),
    ("megahertz", "megahertz", ["MHz", "mhz"], "frequency", FREQ, F(60000000), False, None),
    # wage
    ("dollar_per_hour", "dollars per hour", ["$/h", "$/hr", "dollars an hour"], "wage", WAGE, F(100, 60), True, None),
    ("cent_per_hour", "cents per hour", ["¢/h", "cents an hour"], "wage", WAGE, F(1, 60), False, None),
    # unit price
    ("dollar_per_item", "dollars per item", ["dollars each", "$ each"], "unit_price", PRICE, F(100), True, None),
    ("cent_per_item", "cents per item", ["cents each", "¢ each"], "unit_price", PRICE, F(1), False, None),
    # dimensionless
    ("percent", "percent", ["%", "per cent", "pct", "percents"], "dimensionless", NONE, F(1, 100), False, None),
    ("half", "halves", [], "dimensionless", NONE, F(1, 2), False, None),
    ("quarter", "quarters", [], "dimensionless", NONE, F(1, 4), False, None),
    (
        "three_quarters",
        "three quarters",
        ["three-fourths", "three fourths"],
        "dimensionless",
        NONE,
        F(3, 4),
        False,
        None,
    ),
    ("one_third", "one thirds", ["a third", "third", "thirds"], "dimensionless", NONE, F(1, 3), False, None),
    ("two_thirds", "two thirds", [], "dimensionless", NONE, F(2, 3), False, None),
    ("one_eighth", "one eighths", ["an eighth", "eighth", "eighths"], "dimensionless", NONE, F(1, 8), False, None),
    ("three_eighths", "three eighths", [], "dimensionless", NONE, F(3, 8), False, None),
    ("five_eighths", "five eighths", [], "dimensionless", NONE, F(5, 8), False, None),
    ("seven_eighths", "seven eighths", [], "dimensionless", NONE, F(7, 8), False, None),
]


def render() -> tuple[bytes, bytes]:
    lines = []
    for lemma, plural, surfaces, domain, dim, ratio, canonical, size in ROWS:
        row = {
            "lemma": lemma,
            "plural": plural,
            "surfaces": surfaces,
            "domain": domain,
            "dimension": dim,
            "ratio": None if ratio is None else str(ratio),
            "canonical": canonical,
            "container_size": size,
        }
        lines.append(json.dumps(row, ensure_ascii=False, sort_keys=True))
    lexicon = ("\n".join(lines) + "\n").encode("utf-8")
    manifest = {
        "name": "en_units_v1",
        "version": "1.0.0",
        "description": "Closed English unit vocabulary for ssbg admissibility (SPEC section 4).",
        "rows": len(ROWS),
        "sha256": hashlib.sha256(lexicon).hexdigest(),
        "ratio_base": "foot, minute, pound, cent, item, degree Fahrenheit",
    }
    return lexicon, (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode("utf-8")


def main() -> int:
    out = Path(__file__).resolve().parent / "en_units_v1"
    out.mkdir(exist_ok=True)
    lexicon, manifest = render()
    (out / "lexicon.jsonl").write_bytes(lexicon)
    (out / "manifest.json").write_bytes(manifest)
    print(f"wrote {len(ROWS)} rows to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
