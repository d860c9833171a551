"""Rule-based mention extraction (ssbg.reading.mentions): numbers, units, rates, lemmas, question units."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ssbg.reading.mentions import (
    asked_unit,
    extract_mentions,
    find_question_span,
    is_plural_noun,
    lemmatize,
    mention_at,
    question_unit,
    tokenize,
    unit_lemma,
)


def first(text: str) -> tuple[str, float, str | None, str | None, str]:
    m = extract_mentions(text)[0]
    return m.text, m.value, m.unit, m.lemma, m.kind


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # currency symbols and words
        ("It costs $12.", ("$12", 12, "$", "dollar", "quantity")),
        ("He had $ 3 left.", ("$ 3", 3, "$", "dollar", "quantity")),
        ("She paid 600$ for it.", ("600$", 600, "$", "dollar", "quantity")),
        ("It costs 45 cents.", ("45 cents", 45, "cents", "cent", "quantity")),
        ("It is worth $1.5 million.", ("$1.5 million", 1_500_000, "$", "dollar", "quantity")),
        # rates
        ("Weng earns $12 an hour.", ("$12 an hour", 12, "$ per hour", "dollar_per_hour", "quantity")),
        ("He drives 60 miles per hour.", ("60 miles per hour", 60, "miles per hour", "mile_per_hour", "quantity")),
        ("He drove at 80 miles/hour.", ("80 miles/hour", 80, "miles per hour", "mile_per_hour", "quantity")),
        ("Pens cost $2 each.", ("$2 each", 2, "$ per item", "dollar_per_item", "quantity")),
        ("There are 3 eggs in each box.", ("3 eggs in each box", 3, "eggs per box", "egg_per_box", "quantity")),
        ("Each box holds 5 crayons.", ("5 crayons", 5, "crayons per box", "crayon_per_box", "quantity")),
        ("He runs 3 miles every day.", ("3 miles every day", 3, "miles per day", "mile_per_day", "quantity")),
        ("Cappuccinos cost $2.", ("$2", 2, "$ per cappuccino", "dollar_per_cappuccino", "quantity")),
        ("A daily budget of 88 dollars.", ("88 dollars", 88, "dollars per day", "dollar_per_day", "quantity")),
        (
            "Eat 2 cups of vegetables per day.",
            ("2 cups of vegetables per day", 2, "cups per day", "cup_per_day", "quantity"),
        ),
        ("They come in cases of 12 boxes.", ("12 boxes", 12, "boxes per case", "box_per_case", "quantity")),
        # count nouns, lemmatized with inflect
        ("Paco had 26 salty cookies.", ("26 salty cookies", 26, "cookies", "cookie", "quantity")),
        ("She sold clips to 48 of her friends.", ("48 of her friends", 48, "friends", "friend", "quantity")),
        ("There are 12 children.", ("12 children", 12, "children", "child", "quantity")),
        ("Julie read a 120-page book.", ("120-page", 120, "page", "page", "quantity")),
        ("They bought four children's tickets.", ("four children's tickets", 4, "tickets", "ticket", "quantity")),
        # pack units, including multiword ones
        ("The room has 144 square feet.", ("144 square feet", 144, "square feet", "square_foot", "quantity")),
        ("A 5 kg bag.", ("5 kg", 5, "kg", "kilogram", "quantity")),
        ("She jogged 0.6 of an hour.", ("0.6 of an hour", 0.6, "hour", "hour", "quantity")),
        # a decimal part of something that is not a unit is a fraction, as 3/4 of it would be
        ("0.75 of a line is red.", ("0.75", 0.75, None, None, "fraction")),
        ("Everything is 0.25 off.", ("0.25", 0.25, None, None, "fraction")),
        ("He ate .5 of the pie.", (".5", 0.5, None, None, "fraction")),
        # a bare number takes the unit its sentence leaves out
        ("James has 7 more than 4 times the number of Oreos.", ("7", 7, "Oreos", "oreo", "quantity")),
        # number words, scales, thousands separators, decimals, negatives
        ("It has twenty-five pages.", ("twenty-five pages", 25, "pages", "page", "quantity")),
        ("one hundred and twenty apples", ("one hundred and twenty apples", 120, "apples", "apple", "quantity")),
        ("A hundred people came.", ("A hundred people", 100, "people", "person", "quantity")),
        ("It holds 3,600 gallons.", ("3,600 gallons", 3600, "gallons", "gallon", "quantity")),
        ("It rained .5 inches.", (".5 inches", 0.5, "inches", "inch", "quantity")),
        ("The product of -2 and 4.", ("-2", -2, None, None, "quantity")),
        # fractions, half, multipliers, percentages, dozens
        ("She ate 3/4 of it.", ("3/4", 0.75, None, None, "fraction")),
        ("It took 2 1/2 hours.", ("2 1/2 hours", 2.5, "hours", "hour", "quantity")),
        ("She ate two-thirds of the cake.", ("two-thirds", 2 / 3, None, None, "fraction")),
        ("He sold half as many.", ("half", 0.5, None, None, "fraction")),
        ("He ran 3 times as far.", ("3 times", 3, None, None, "multiplier")),
        ("He went 8 times last month.", ("8 times", 8, "times", "times", "quantity")),
        ("A 20% discount.", ("20%", 20, "%", "percent", "quantity")),
        ("It grew 15 percent.", ("15 percent", 15, "percent", "percent", "quantity")),
        ("She bought a dozen eggs.", ("a dozen", 1, "dozen", "dozen", "quantity")),
        ("She bought 3 dozen eggs.", ("3 dozen", 3, "dozen", "dozen", "quantity")),
    ],
)
def test_extraction_rules(text: str, expected: tuple[str, float, str | None, str | None, str]) -> None:
    got = first(text)
    assert got[0] == expected[0]
    assert got[1] == pytest.approx(expected[1])
    assert got[2:] == expected[2:]


def test_no_numbers_no_mentions() -> None:
    assert extract_mentions("Someone bought something for everyone.") == ()


def test_ordinals_and_names_are_not_units() -> None:
    assert [(m.text, m.unit) for m in extract_mentions("On the second day, 3 Mary went.")] == [("3", None)]


def test_each_of_the_group_is_no_rate() -> None:
    assert first("Each of the 6048 lambs is black.")[2] == "lambs"


def test_a_single_purchase_is_no_price_rate() -> None:
    assert first("She bought a trumpet for $149.")[2] == "$"


def test_a_list_shares_its_closing_rate() -> None:
    units = [m.unit for m in extract_mentions("He served 7 women and 3 men at each table.")]
    assert units == ["women per table", "men per table"]


def test_mention_at_reads_one_number() -> None:
    m = mention_at("so everyone has 2 legs.", 16, source="solution")
    assert m is not None
    assert (m.text, m.unit, m.source) == ("2 legs", "legs", "solution")
    assert mention_at("so everyone has 2 legs.", 3) is None


@pytest.mark.parametrize(
    ("question", "unit"),
    [
        ("How many clips did Natalia sell?", "clips"),
        ("How many oranges must go in each box?", "oranges per box"),
        ("How many seats are on each bus?", "seats per bus"),
        ("How long will it take, in minutes?", "minutes"),
        ("How much money does she have?", None),
        ("How many are cats?", "cats"),
        ("How many times did he go?", None),
        ("What is the total?", None),
        ("How long, in seconds, does it take?", "seconds"),
        ("Find the amount she saves in the third month , in dollars , to buy it.", "dollars"),
        ("What was its average speed in miles per hour?", "miles per hour"),
        ("At what rate, in clients per hour, do they sign up?", "clients per hour"),
        ("How much does he make in profits per day?", None),
        ("Convert 0.176 to a percent.", "percent"),
        ("Express the share as a percent.", "percent"),
        ("How much sugar should she add to a cup?", None),
        ("What percent of the marbles are green?", "percent"),
        ("What percentage of the students passed?", "percent"),
        ("What is the percentage?", None),
        ("For what number of minutes will the plans cost the same?", "minutes"),
        ("After how many weeks will each of you have saved the same amount?", "weeks"),  # each person, no rate
        ("How many pounds of beef that costs 1.60 dollars per pound must be mixed in?", "pounds"),
        ("How many gallons does she need if each pig needs 3 gallons?", "gallons"),  # the rate is the clause's
    ],
)
def test_question_units(question: str, unit: str | None) -> None:
    assert question_unit(question) == unit


def test_question_unit_reads_only_the_given_span() -> None:
    text = "He has 3 apples. How many pears does he have?"
    assert question_unit(text, 17, len(text)) == "pears"
    assert question_unit(text, 0, 16) is None


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("If 500 sheets weigh 7 pounds, how much do 2 sheets weigh?", "pounds"),
        ("A box weighs 3 kg and a bag 2 kg. How heavy are they together?", "kg"),
        ("She ran 3 miles on Monday and 4 miles on Tuesday. How far did she run?", "miles"),  # one lemma
        ("She ran 3 miles and 2 kilometers. How far did she run?", None),  # two length units: which?
        ("The tree is 12 feet tall and grows 2 feet. How tall is it now?", "feet"),
        ("Tom is 5 years older than Ann, who is 7 years old. How old is Tom?", "years"),
        ("A car goes 50 miles per hour. How fast is the bus if it is 10 miles per hour faster?", "miles per hour"),
        ("He paints 2 rooms in 6 hours. How long will it take to paint 5 rooms?", "hours"),
        ("The rope is 12 feet and he cuts 2 feet. How long is the rope now?", None),  # time or length
        ("The race is 150 meters. How far will each of the 5 runners run?", None),  # a rate of the length
        ("Alex had 36 ounces of beans and made 3 piles. How much does each pile weigh?", None),
        ("He bought 3 apples. How far did he walk?", None),  # no length in the text
        ("Lunch was $12 and dinner $20. How much money did she spend?", "$"),
        ("He sold a pie for 9 dollars and a cake for 4 dollars. How much money did he make?", "dollars"),
        ("He earns 12 dollars a day for 5 days. How much does he earn?", None),  # the text has only a rate
        ("A pen is $2 and a book 50 cents. How much did she pay?", None),  # dollars and cents
        ("Tickets are $5 for adults. How much does a ticket for 3 adults cost?", None),  # "a": maybe a price
        ("She saves $5 a week. How much does she save per month?", None),  # no paying word; "per" too
        ("She has $40. How much sugar does she buy?", None),  # "how much" of something else
    ],
)
def test_asked_units(text: str, unit: str | None) -> None:
    start = text.index("How") if "How" in text else text.index("how")
    mentions = extract_mentions(text)
    assert asked_unit(text, mentions, start) == unit
    assert question_unit(text, start, mentions=mentions) == unit  # nothing stated: the asked unit
    assert question_unit(text, start) is None  # without the mentions, only what the question writes


@pytest.mark.parametrize(
    ("text", "unit"),
    [  # the answer unit from what the question asks (issue 36): a noun of money, weight or distance
        ("Lucas went to the store with $20 and needed to buy 3 avocados that cost $2 each. "
         "How much change does he bring home?", "$"),
        ("Carrie sold 20 cakes for $100 and spent $40 on flour. How much profit did Carrie earn on the cakes?", "$"),
        ("Tom spent $12 on a shirt and $8 on socks. What is the total cost?", "$"),
        ("A truck carried 5000 pounds of sand and delivered 1200 pounds. How much weight is left on the truck?",
         "pounds"),
        ("Jane walked 3 miles and then 2 miles more. What is the total distance she walked?", "miles"),
        ("He sold 3 pies for 9 dollars. How much did he save?", "dollars"),  # a verb of money
        ("He sells mice for $120. How much money does he make a week?", None),  # a rate of money
        ("Tickets are $5. What is the cost per ticket?", None),  # a price
        ("He had $20 and spent $6. How many apples does he bring home?", "apples"),  # a stated unit wins
        # only the head phrase of a what-question asks (MAWPS names these unknowns percent and miles)
        ("At a sale, the cost of a pair of shoes was reduced from 42.00 dollars to 33.60 dollars. "
         "What was the percent of discount?", None),
        ("A car rents for 30 dollars per day plus 18 cents per mile. You are on a budget of 75 dollars. "
         "What mileage would allow you to stay within your budget?", None),
        ("Butter costs $4 for 16 oz. What is the lowest price she can pay for the butter she needs?", "$"),
        ("He saved $40 and then $25. What is his total amount of remaining money?", "$"),
    ],
)
def test_the_asked_unit_from_the_question_noun(text: str, unit: str | None) -> None:
    start = text.index("How") if "How" in text else text.index("What")
    assert question_unit(text, start, mentions=extract_mentions(text)) == unit


def test_a_noun_of_money_is_no_stated_unit() -> None:
    assert question_unit("How much profit, in dollars, was made on Wednesday?") == "dollars"  # not "profit"
    assert question_unit("How much change does he bring home?") is None  # no unit written: asked by the noun


def test_a_stated_unit_wins_over_the_asked_one() -> None:
    text = "She ran 3 miles. How far did she run, in kilometers?"
    assert question_unit(text, text.index("How"), mentions=extract_mentions(text)) == "kilometers"


@pytest.mark.parametrize(
    ("word", "lemma"),
    [
        ("clips", "clip"),
        ("boxes", "box"),
        ("children", "child"),
        ("mice", "mouse"),
        ("leaves", "leaf"),
        ("potatoes", "potato"),
        ("sheep", "sheep"),
        ("tennis", "tennis"),
        ("gas", "gas"),
        ("glasses", "glass"),
    ],
)
def test_lemmas_come_from_inflect(word: str, lemma: str) -> None:
    assert lemmatize(word) == lemma


@pytest.mark.parametrize("word", ["was", "has", "his", "this", "is", "salty", "tennis", "bus", "class"])
def test_words_that_are_no_plural_nouns(word: str) -> None:
    assert not is_plural_noun(word)


@pytest.mark.parametrize(
    ("unit", "lemma"),
    [
        ("$ per hour", "dollar_per_hour"),
        ("eggs per box", "egg_per_box"),
        ("hours", "hour"),
        ("feet", "foot"),
        ("salty cookies", "salty_cookie"),
        ("$ per cappuccino", "dollar_per_cappuccino"),
    ],
)
def test_unit_lemmas(unit: str, lemma: str) -> None:
    assert unit_lemma(unit) == lemma


def test_tokens_keep_offsets() -> None:
    text = "A 120-page book costs $1,000.50!"
    assert all(text[t.start : t.end] == t.text for t in tokenize(text))
    assert [t.kind for t in tokenize(text)][:3] == ["word", "num", "sym"]


def test_tokenize_reads_a_window_with_a_limit() -> None:
    assert [t.text for t in tokenize("one two three four", 4, limit=2)] == ["two", "three"]


# The token grammar written once more as a plain scan, whitespace skipped by finditer: the oracle
# for tokenize's shortcuts (plain words, a word before one mark, digits read without the regex).
_ORACLE = re.compile(
    r"(\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"  # a number
    r"|([A-Za-z]+(?:[-'\u2019][A-Za-z]+)*)"  # a word
    r"|(\S)"  # any other character but whitespace: a symbol
)
_TEXT_PIECES = st.sampled_from(
    ["apples", "May.", "clips,", "1,000.50", "12", ".5", "$", "don't", "well-known", "3rd", "\u00bd", "\u0661\u0662",
     "x_", "!", "\u00b2", "caf\u00e9", "\u00a0", " ", "\n", "\t", "\x1c", "a", "I."]
)


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(_TEXT_PIECES, max_size=12), cut=st.integers(0, 200), limit=st.none() | st.integers(1, 6))
def test_tokenize_agrees_with_a_plain_scan(pieces: list[str], cut: int, limit: int | None) -> None:
    text = "".join(pieces)
    start = min(cut, len(text))
    expected = [
        (("num", "word", "sym")[m.lastindex - 1], m.group(), m.start(), m.end())  # type: ignore[operator]
        for m in _ORACLE.finditer(text, start)
    ][:limit]
    assert [(t.kind, t.text, t.start, t.end) for t in tokenize(text, start, limit=limit)] == expected


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.sampled_from(
            [
                "12",
                "$3",
                "a dozen",
                "half",
                "apples",
                "per",
                "hour",
                "each",
                "box",
                "of",
                "the",
                "3/4",
                "20%",
                "twenty-one",
                ",",
                ".",
                "and",
                "-",
                "1,000",
                "times",
                "as",
            ]
        ),
        max_size=25,
    )
)
def test_mentions_are_sorted_disjoint_and_quote_the_text(words: list[str]) -> None:
    text = " ".join(words)
    mentions = extract_mentions(text)
    ends = 0
    for m in mentions:
        assert m.start >= ends
        assert text[m.start : m.end] == m.text
        ends = m.end


@pytest.mark.parametrize("text", [
    "He has 3 x 4 = 12 apples.\nTwo of them are red, a dozen are green.\n#### 12",
    "Twenty-five people came; a couple of them left.\nShe paid $5 for a pair of socks.",
    "Half of 10 is 5.\nA third of 9 is 3.\nAn eighth is small.\n12 / 4 = 3",
    "48/2 = 24\n24 + 48 = 72\n#### 72",
])
def test_worded_mentions_are_the_worded_ones_of_each_line(text: str) -> None:
    from ssbg.reading.mentions import tokenize, worded_mentions

    expected = []
    start = 0
    for line in text.split("\n"):
        toks = tokenize(text, start, start + len(line))
        expected.extend(m for m in extract_mentions(text, tokens=toks) if m.text[:1].isalpha())
        start += len(line) + 1
    assert worded_mentions(text) == tuple(expected)


@pytest.mark.parametrize(
    ("text", "units"),
    [
        ("There are 30 students. 12 of them are boys.", ["students", "students"]),
        ("Sam has 10 apples. Jenny has 5 more than Sam.", ["apples", "apples"]),
        ("Sam has $10. Jenny has 5 more than Sam.", ["$", "$"]),
        # "them" are things, never money or a measure written as a modifier
        ("A part costs $80. Clark buys 7 of them.", ["$", None]),
        # a measure written before a plural noun is the measure of each: "them" are the packages
        ("Jake buys 2-pound packages. He buys 3 of them.", ["pound per package", "package"]),
        ("One person works 10 hours. Then 2 of them work together.", ["person", "hours", None]),
        ("They have 99 pieces of gum to share between the 3 of them.", ["pieces", None]),
        # only this sentence and the one before
        ("Ann has 9 pens. Bo sings. Cy hums. Di has 2 more than Ann.", ["pens", None]),
        ("He got 40% of the 200 votes. 5 more than that were lost.", ["%", "votes", "votes"]),
    ],
)
def test_a_bare_number_takes_the_unit_its_sentence_leaves_out(text: str, units: list[str | None]) -> None:
    assert [m.unit for m in extract_mentions(text)] == units


@pytest.mark.parametrize(
    ("text", "question"),
    [
        ("Ann has 3.5 apples. How many does she have?", "How many does she have?"),
        ("Ann paid $3.50. Find the change", "Find the change"),
        ("It is 0.176 of the whole. Convert 0.176 to a percent.", "Convert 0.176 to a percent."),
        ("A can sells for 84 cents. Give the unit cost in cents per ounce.", "Give the unit cost in cents per ounce."),
        ("No question here.", None),
    ],
)
def test_question_span(text: str, question: str | None) -> None:
    span = find_question_span(text)
    assert (None if span is None else text[span[0] : span[1]]) == question


def units(text: str) -> list[str | None]:
    return [m.unit for m in extract_mentions(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a verb after "each" floats it after its noun: no rate of the count, the noun for what follows
        ("Two men each bought 30 apples.", ["men", "apples per man"]),
        ("John bakes 12 coconut macaroons, each weighing 5 ounces.", ["macaroons", "ounces per macaroon"]),
        ("He has 4 bags of flour each weighing 5 pounds.", ["bags", "pounds per bag"]),
        ("She has 10 pigs, which each need 4 gallons, and 20 ducks.", ["pigs", "gallons per pig", "ducks"]),
        ("Two of the hoses each deliver water at 2 gallons per minute.", ["hoses", "gallons per minute"]),
        ("The kindergartners each need to bring one mini tissue box.", ["box per kindergartner"]),
        # an "each Y" names the head of its compound; after a list's first number it is that number's own
        ("Each bicycle wheel has 10 spokes.", ["spokes per wheel"]),
        ("She has 60 blisters on each arm and 80 blisters on her body.", ["blisters per arm", "blisters"]),
        ("Each pair normally cost $10.", ["$ per pair"]),
        ("For every five feet it blows it forward, it blows it back two feet.", ["feet", "feet"]),
        # a noun run stops at a verb, skips participles and names before the noun
        (
            "One ham sandwich requires 2 slices, and one grilled cheese sandwich requires 3 slices.",
            ["sandwich", "slices per sandwich", "sandwich", "slices per sandwich"],
        ),
        ("He found 60 Christmas presents.", ["presents"]),
        ("A new stock of 200 more fish arrives.", ["fish"]),
        ("1 inch equals 5 pages.", ["inch", "pages"]),
        ("How long do the two take?", [None]),
        ("26 of the blowfish stay in their tank.", ["blowfish"]),
        ("The team is 60% boys.", ["%"]),
    ],
)
def test_verbs_and_adjectives_are_never_units(text: str, expected: list[str | None]) -> None:
    assert units(text) == expected


def test_acronym_plurals_are_counted() -> None:
    assert [(m.unit, m.lemma) for m in extract_mentions("She looks at 8 TVs.")] == [("TVs", "tv")]


def test_times_before_a_possessive_multiplies() -> None:
    assert [m.kind for m in extract_mentions("It is 100 square feet larger than 2 times Nada's house.")] == [
        "quantity",
        "multiplier",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The floor costs $1.25 per square foot.", ["$ per square foot"]),
        # a rate per a block of N things is per thing; a 1 is the rate's other side
        ("The plan charges $1 per 30 texts.", ["$ per text", "texts"]),
        ("He uses $.50 for every 6 minutes.", ["$ per minutes", "minutes"]),
        ("She writes 1 page every 30 minutes.", ["page", "minutes"]),
        # a measure for making one thing, when the text makes several (or says one)
        ("It takes 18 inches to make a dog collar. She makes 9 dog collars.", ["inches per collar", "collars"]),
        ("It takes 18 inches of nylon to make a dog collar.", ["inches"]),
        ("It takes 3 grams of sand to fill one square inch.", ["grams per square inch", "square inch"]),
        ("Her recipe makes enough batter for 3 loaves.", ["loaves per recipe"]),
        # a period adverbial that scopes its sentence; never a duration
        ("Every day for 30 days he picks 4 apples.", ["days", "apples per day"]),
        ("He takes a 2-mile walk and a 1-mile walk, every day, for 30 days.", ["mile per day", "mile per day", "days"]),
        # one thing named after a number: "in one Y", and "for/on a Y" when the text counts several Y
        ("There are six cookies in one row.", ["cookies per row"]),
        ("The dentist charges $120 for a filling. Wendy had two fillings.", ["$ per filling", "fillings"]),
        ("She charges $70 for a cleaning.", ["$"]),
        ("She places five rows of cookies on a baking tray. She uses four baking trays.", ["rows per tray", "trays"]),
        # a time per a longer period, a periodic word after the unit
        ("His 8 hour days are packed.", ["hour per day"]),
        ("He splits his 450-mile monthly driving among his three cars.", ["mile per month", "cars"]),
    ],
)
def test_rates_read_from_the_words_around_a_number(text: str, expected: list[str | None]) -> None:
    assert units(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Cappuccinos cost $2.", ["$ per cappuccino"]),
        ("One-half of a pound of mangoes costs $0.60.", ["pound", "$"]),  # the price of the half
        ("She sells the wands to her friends for $5.", ["$ per wand"]),  # past the preposition phrase
        ("He buys a pair of soccer shoes. The shoes cost $92.", ["pair", "$"]),  # one lot's price
        ("He took the first pair of shoes for $40.", ["$"]),
        ("He buys a roast for $17 and vegetables for $11.", ["$", "$"]),  # purchases
        ("She has 3 pens. The bicycle she wants costs $80.", ["pens", "$"]),  # a verb, not a noun
        ("The ticket price for adults is $26.", ["$ per adult"]),
    ],
)
def test_a_price_is_per_thing_unless_the_words_say_one_lot(text: str, expected: list[str | None]) -> None:
    assert units(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Carla, Kyle, and Tasha caught 36 fish, and Carla caught 8.", ["fish", "fish"]),
        ("Cristobal read 15 more than three times the pages that Beatrix read.", ["pages", None]),
        ("Tina gave her 12 plus two times the number of sodas Marcy had.", ["sodas", None]),
        ("The class has 5 fewer than twice as many students as the other.", ["students"]),
        ("Brian has twice as many tennis balls as Frodo, who has 8 more than Lily.", ["balls"]),
        ("Tom's room is 8*7 feet.", ["feet", "feet"]),
        ("They gave the cashier two $20 bills.", ["bills", "$ per bill"]),
        ("He collected the remaining apples, which were 230.", ["apples"]),
        ("Kate buys 3 magic wands, one for herself and two for her friends.", ["wands", "wands", "wands"]),
        ("In a town where 60% of the citizens own a pet, half own a dog and 30 own a cat.", ["%", None, "citizens"]),
        ("Of the 30 boys, 12 play and 5 swim.", ["boys", "boys", "boys"]),
    ],
)
def test_a_bare_number_takes_the_noun_its_words_leave_out(text: str, expected: list[str | None]) -> None:
    assert units(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("She has two quarters and a dime.", [("two quarters", 2, "quarters")]),
        ("He found a quarter.", [("a quarter", 1, "quarter")]),
        ("He ate three quarters of the pie.", [("three quarters", 0.75, None)]),
        ("The tank is three quarters full.", [("three quarters", 0.75, None)]),
        ("Both teams scored.", [("Both teams", 2, "teams")]),
        ("If both parents of each kid attend, how many come?", [("both parents", 2, "parents per kid")]),
        ("She likes both apples and pears.", []),  # a coordination, not a count
    ],
)
def test_coins_and_both_are_counted(text: str, expected: list[tuple[str, float, str | None]]) -> None:
    assert [(m.text, m.value, m.unit) for m in extract_mentions(text)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "they" are persons when the text names persons
        ("Ali and Leila pay $147 per person, but they were each given a discount of $14.", ["$ per person"] * 2),
        ("The boxes are big and they each hold 5 balls.", ["balls"]),
        # a ticket's price is per ticket
        ("The regular ticket costs $9 and the ticket for children is $2 less.", ["$ per ticket"] * 2),
        # what the things measure is each one's
        ("The trees she wants to plant will measure 1.5 feet wide.", ["feet per tree"]),
        ("Each figure is worth $15, except for one which is worth $20.", ["$ per figure", "figure", "$"]),
    ],
)
def test_whose_measure_a_number_is(text: str, expected: list[str | None]) -> None:
    assert units(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a duration is no rate of a thing, but a time per day when a period adverbial scopes it
        ("Each loan will be paid in monthly installments over 20 years.", ["years"]),
        ("Each day, she reads for 10 minutes and then writes for 20 minutes.", ["minutes per day"] * 2),
        ("He pays his weekly water bill for $55.", ["$ per week"]),
        # an "each Y" stops at a number word and at a new clause
        ("If each person brought two bags, how many gallons does a 400-mile trip take?", ["bags per person", "mile"]),
    ],
)
def test_durations_and_clauses_bound_a_rate(text: str, expected: list[str | None]) -> None:
    assert units(text) == expected
