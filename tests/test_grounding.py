"""Formulas into steps (ssbg.reading.grounding): grounding every operand, flattening trees into steps."""

from __future__ import annotations

import pytest

from ssbg.errors import ImportRefusal
from ssbg.reading.formula import parse_formula
from ssbg.reading.grounding import CANDIDATE_RULES, GROUNDING_RULES, GroundingState, StepBuilder, ground
from ssbg.reading.mentions import extract_mentions
from ssbg.units import default_pack


def builder(text: str, solution: str | None = None) -> StepBuilder:
    return StepBuilder("p", "test", text, extract_mentions(text), solution=solution)


def sources(b: StepBuilder) -> list[list[str]]:
    return [[o.source if o.constant is None else f"constant:{o.constant}" for o in s.operands] for s in b.steps]


# ----------------------------------------------------------------- grounding


def test_a_collected_equation_grounds_the_lone_unknown_as_the_constant_unknown_itself() -> None:
    b = builder("Mel paid 84.00 dollars, including 12 % tax, for a camera. How much did the camera cost?")
    assert b.add_equation("camera_cost+((12.0*camera_cost)*0.01)=84.0") == "camera_cost"
    assert sources(b)[-2][0] == "constant:unknown_itself"


def test_a_number_of_a_formula_never_grounds_as_its_own_sub_step() -> None:
    b = builder("A $10 bill and a $20 bill; she has twice as many $10 bills. What do they add up to?")
    b.add_formula("10*2+20=40")
    assert sources(b) == [["mention", "constant:twice"], ["step", "mention"]]  # 20 is the $20, not 10*2




def test_chains_of_one_operator_are_one_step() -> None:
    b = builder("She had $100 and spent $50, $30 and $15.")
    b.add_formula("100-50-30-15=5")
    assert [(s.op, len(s.operands)) for s in b.steps] == [("subtract", 4)]


def test_sub_expressions_are_implicit_steps() -> None:
    b = builder("It has 2 rows of 3 chairs and 4 stools.")
    b.add_formula("2*3+4=10", unit="seats")
    assert [(s.op, s.implicit, s.unit, s.result) for s in b.steps] == [
        ("multiply", True, None, 6),
        ("add", False, "seats", 10),
    ]


def test_earlier_results_are_preferred_and_rounding_is_allowed() -> None:
    b = builder("Split 10 dollars among 3 friends, then 5 more friends.")
    b.add_formula("10/3=3.3333")
    b.add_formula("3.33*5=16.65")
    assert sources(b) == [["mention", "mention"], ["step", "mention"]]


def test_cued_constants_ground_implied_numbers() -> None:
    b = builder("He works 3 hours a day for a week.")
    b.add_formula("3*60=180")
    b.add_formula("180*7=1260")
    assert sources(b) == [["mention", "constant:minutes_per_hour"], ["step", "constant:days_per_week"]]


def test_a_number_without_any_ground_refuses() -> None:
    b = builder("Sam has 7 marbles.")
    with pytest.raises(ImportRefusal) as info:
        b.add_formula("7+9=16")
    assert (info.value.reason, info.value.detail, info.value.problem_id) == ("operand_not_found", "9", "p")


def test_a_fraction_written_in_the_formula_folds_into_its_mention() -> None:
    b = builder("He sprays 3/4 of his 48 trees.")
    b.add_formula("3/4*48=36")
    assert [(s.op, [o.text for o in s.operands]) for s in b.steps] == [("multiply", ["3/4", "48"])]


def test_percent_as_a_fraction_grounds_to_the_percent_mention() -> None:
    b = builder("A 20% tip on a $50 bill.")
    b.add_formula("50*.2=10")
    assert sources(b) == [["mention", "mention"]]


def test_a_percent_complement_is_an_implicit_difference() -> None:
    b = builder("It sold 40% of 250 muffins.")
    b.add_formula("250*.6=150")
    assert (b.steps[0].op, b.steps[0].implicit, b.steps[0].result) == ("subtract", True, 60)


def test_a_fraction_gives_its_denominator() -> None:
    # the 3 is the "one-third" the text writes (its denominator), not the constant its word would cue
    b = builder("He spent one-third of his $600.")
    b.add_formula("600/3=200")
    assert sources(b) == [["mention", "mention"]]
    divisor = b.build().steps[0].operands[1]
    assert b.build().mentions[divisor.mention or 0].text == "one-third"


def test_a_number_the_solution_states_grounds_but_not_one_it_restates() -> None:
    solution = "Each car has 4 wheels, so 12 x 4 = <<12*4=48>>48 wheels.\nThen 48 x 9 = <<48*9=432>>432."
    b = builder("There are 12 cars.", solution)
    b.add_formula("12*4=48", position=solution.index("<<"))
    assert sources(b) == [["mention", "mention"]]
    with pytest.raises(ImportRefusal):
        b.add_formula("48*9=432", position=solution.rindex("<<"))
    trace = b.build()
    assert [(m.text, m.source) for m in trace.mentions] == [("12 cars", "text"), ("4 wheels", "solution")]


def test_an_optional_formula_that_fails_leaves_no_trace() -> None:
    b = builder("Ann has 3 apples.")
    assert b.add_formula("3+5=8", optional=True) is False
    assert b.steps == []
    assert b.step_values == []


def test_gold_alignments_bind_by_position_not_by_value() -> None:
    text = "There were 5 cats and 5 dogs."
    b = builder(text)
    b.add_equation("X=(5.0+5.0)", aligned=[1, 0])
    assert [o.mention for o in b.steps[0].operands] == [1, 0]


def test_no_step_is_no_equation() -> None:
    b = builder("Ann has 3 apples.")
    b.add_formula("3=3")
    with pytest.raises(ImportRefusal) as info:
        b.build()
    assert info.value.reason == "no_equation"


def test_division_by_zero_refuses() -> None:
    b = builder("Ann has 3 apples and 0 pears.")
    with pytest.raises(ImportRefusal) as info:
        b.add_formula("3/0=1")
    assert info.value.reason == "unparseable_formula"


# ----------------------------------------------------------------- issue 4: more grounding rules


@pytest.mark.parametrize(("formula", "value"), [("+30+46", 76), ("3*+6", 18), ("(+2)", 2)])
def test_a_unary_plus_writes_the_number(formula: str, value: float) -> None:
    assert parse_formula(formula).value == value


def test_a_plus_after_a_plus_is_still_unparseable() -> None:
    with pytest.raises(ImportRefusal) as info:
        parse_formula("3++4")
    assert info.value.reason == "unparseable_formula"


def test_a_written_fraction_with_a_unit_or_times_folds_into_its_mention() -> None:
    b = builder("Bowen buys 40 pens and 2/5 times more pencils than pens.")
    b.add_formula("2/5*40=16")
    assert [[o.text for o in s.operands] for s in b.steps] == [["2/5", "40"]]


def test_a_fraction_complement_is_an_implicit_difference_from_the_whole() -> None:
    b = builder("She gave away a third of her 9 cupcakes. How many are left?")
    b.add_formula("2/3*9=6")
    assert [(s.op, s.implicit, sources(b)[i]) for i, s in enumerate(b.steps)] == [
        ("subtract", True, ["constant:whole", "mention"]),
        ("multiply", False, ["step", "mention"]),
    ]


def test_a_percent_increase_is_an_implicit_sum_where_the_text_says_more() -> None:
    b = builder("DeShawn made 12 free-throws and Kayla made 50% more.")
    b.add_formula("12*1.50=18")
    assert (b.steps[0].op, b.steps[0].implicit, b.steps[0].result) == ("add", True, 150)


def test_a_percent_without_words_of_an_increase_gives_no_sum() -> None:
    b = builder("Kayla scored 50% of 12 shots.")
    with pytest.raises(ImportRefusal):
        b.add_formula("12*1.5=18")


@pytest.mark.parametrize(
    ("text", "formula", "counted"),
    [
        ("On Monday, Wednesday and Friday he walks 7 dogs.", "3*7=21", ("Monday, Wednesday and Friday", 3, "days")),
        ("From Monday to Thursday he works 8 hours each day.", "8*4=32", ("Monday to Thursday", 4, "days")),
        ("Sally, Jenny and Moses paid $4 each.", "4*3=12", ("Sally, Jenny and Moses", 3, "people")),
        ("Travis and his brother ate 4 candies each.", "4*2=8", ("Travis and his brother", 2, "people")),
    ],
)
def test_a_list_the_text_enumerates_counts_as_a_text_mention(
    text: str, formula: str, counted: tuple[str, int, str]
) -> None:
    b = builder(text)
    b.add_formula(formula)
    trace = b.build()
    used = next(
        trace.mentions[o.mention] for o in trace.steps[0].operands if trace.mentions[o.mention].text == counted[0]
    )
    assert (used.text, used.value, used.unit, used.source) == (*counted, "text")


def test_counted_mentions_keep_the_text_mentions_in_order() -> None:
    b = builder("Kyle and Tasha caught 28 fish.")
    b.add_formula("28/2=14")
    assert [m.text for m in b.build().mentions] == ["Kyle and Tasha", "28 fish"]


def test_an_article_counts_one_only_when_the_formula_line_names_its_noun() -> None:
    solution = "His ferret will need 1 * 4 = <<1*4=4>>4 shoes."
    b = builder("He owns 3 dogs and a ferret. Each pet needs 4 shoes.", solution)
    b.add_formula("1*4=4", position=solution.index("<<"))
    assert b.build().mentions[1].text == "a ferret"
    other = "The total is 1 * 4 = <<1*4=4>>4 shoes."
    with pytest.raises(ImportRefusal):
        builder("He owns 3 dogs and a ferret. Each pet needs 4 shoes.", other).add_formula(
            "1*4=4", position=other.index("<<")
        )


def test_a_mention_converts_by_a_cued_constant_into_a_unit_the_text_names() -> None:
    b = builder("Carl drives 2 hours each day. He did so for two weeks.")
    b.add_formula("14*2=28")
    assert sources(b) == [["mention", "constant:days_per_week"], ["step", "mention"]]


def test_cents_convert_to_dollars_where_the_solution_line_says_dollars() -> None:
    solution = "56 pencils cost 56 * $0.25 = $<<56*0.25=14>>14."
    b = builder("A pencil sells at twenty-five cents. He buys 56 pencils.", solution)
    b.add_formula("56*0.25=14", position=solution.index("<<"))
    assert sources(b)[0] == ["mention", "constant:cents_per_dollar"]


def test_k_times_as_many_with_a_total_gives_k_plus_one_parts() -> None:
    b = builder("Alice sold twice as many oranges as Emily. In total, they sold 180 oranges.")
    b.add_formula("180/3=60")
    assert sources(b) == [["constant:twice", "constant:one_part"], ["mention", "step"]]


@pytest.mark.parametrize(
    ("text", "formula", "constant"),
    [
        ("John works 12 hours every other day for 30 days.", "30/2=15", "every_other"),
        ("Bob buys 10 sprays for a buy one get one free promotion.", "10/2=5", "buy_one_get_one"),
        ("Raine takes 150 steps to walk to and from school.", "150*2=300", "round_trip"),
        ("He takes his parents to a show; tickets are $30.", "30*2=60", "parents"),
        ("There are 3 other people in the house.", "3+1=4", "self"),
        ("She walked every day in March except 4 days.", "31-4=27", "days_in_31_day_month"),
        ("4.5 gallons of tea fill 18 cups. How many pints is that?", "4.5*8=36", "pints_per_gallon"),
        ("Each side of the square lake is 15 miles.", "4*15=60", "square_sides"),
        ("A circle has a radius of 14 feet. How long is its diameter?", "14*2=28", "diameter_per_radius"),
        ("A road has 250 lights on each side of the road.", "250*2=500", "two_sides"),
        ("Dan practices 15 minutes a day during the school week.", "15*5=75", "weekdays_per_week"),
        ("John gets 30 cans with buy 1 get one free.", "30/2=15", "buy_one_get_one"),
        ("Kim runs her 200 watt fan for 2 hours. How many seconds is that?", "2*3600=7200", "seconds_per_hour"),
    ],
)
def test_implied_constants_ground_what_their_words_imply(text: str, formula: str, constant: str) -> None:
    b = builder(text)
    b.add_formula(formula)
    assert f"constant:{constant}" in sources(b)[0]


def test_fallback_constants_do_not_preempt_a_text_mention() -> None:
    b = builder("There are 3 other people and 1 dog.")
    b.add_formula("3+1=4")
    assert sources(b) == [["mention", "mention"]]


# ------------------------------------------------ fallback grounding rules (ADR 0004, after the fallback constants)


def mention_texts(b: StepBuilder) -> list[str]:
    return [m.text for m in b.build().mentions]


def test_named_persons_sum_to_the_divisor_of_an_equal_share() -> None:
    b = builder("Ann has 4 pens, Bo has 6 pens and Cy has 8 pens. They share them equally.")
    b.add_formula("4+6+8=18")
    b.add_formula("18/3=6")
    assert sources(b) == [["mention", "mention", "mention"], ["mention", "mention", "mention"], ["step", "step"]]
    assert [m.text for m in b.build().mentions if m.unit == "person"] == ["Ann", "Bo", "Cy"]


def test_named_persons_ground_nothing_without_words_of_a_share_or_an_average() -> None:
    b = builder("Ann has 4 pens, Bo has 6 pens and Cy has 8 pens.")
    b.add_formula("4+6+8=18")
    with pytest.raises(ImportRefusal, match="3 is neither"):
        b.add_formula("18/3=6")


def test_named_weekdays_sum_to_the_divisor_of_an_average() -> None:
    b = builder("He drove 12 miles on Monday, 18 miles on Tuesday, and 21 miles on Wednesday. Find the average.")
    b.add_formula("12+18+21=51")
    b.add_formula("51/3=17")
    assert [m.text for m in b.build().mentions if m.unit == "day"] == ["Monday", "Tuesday", "Wednesday"]


@pytest.mark.parametrize(
    ("text", "formula", "listed"),
    [
        (
            "A box holds an equal number of knives, forks, and spoons: 30 in all.",
            "30/3=10",
            "knives, forks, and spoons",
        ),
        ("The store sold 40 bags, an equal number in the third and fourth week.", "40/2=20", "third and fourth"),
    ],
)
def test_a_listed_count_grounds_a_number_where_the_text_speaks_of_equal_parts(
    text: str, formula: str, listed: str
) -> None:
    b = builder(text)
    b.add_formula(formula)
    assert listed in mention_texts(b)


def test_companions_and_the_person_they_go_with_are_n_plus_one() -> None:
    b = builder("Jack shares 45 apples equally between him and his 4 friends.")
    b.add_formula("45/5=9")
    assert sources(b) == [["mention", "constant:self"], ["mention", "step"]]


def test_two_and_a_half_dozen_is_an_implicit_sum_in_dozens() -> None:
    b = builder("Dani brings two and a half dozen cupcakes.")
    b.add_formula("2.5*12=30")
    trace = b.build()
    assert trace.steps[0].op == "add"
    assert [(m.text, m.unit) for m in trace.mentions] == [("two", "dozen"), ("a half dozen", "dozen")]


def test_every_n_months_happens_a_count_of_times_a_year() -> None:
    b = builder("Borris uses 90 kilograms of grapes every 6 months. How many does he use in a year?")
    b.add_formula("90*2=180")
    assert sources(b) == [["constant:months_per_year", "mention"], ["mention", "step"]]


def test_a_number_word_measure_inside_a_mention_splits_it() -> None:
    b = builder("Parker lifts 4 twenty-pound dumbbells.")
    b.add_formula("4*20=80")
    trace = b.build()
    assert [(m.text, m.value, m.unit) for m in trace.mentions] == [("4", 4, "dumbbells"), ("twenty-pound", 20, "pound")]


def test_a_number_word_measure_outside_mentions_is_a_text_mention() -> None:
    b = builder("He pays for 3 books of $10 with a fifty-dollar bill.")
    b.add_formula("3*10=30")
    b.add_formula("50-30=20")
    assert "fifty-dollar" in mention_texts(b)


def test_half_an_hour_converts_to_minutes() -> None:
    b = builder("Larry walks his dog for half an hour and feeds it for 10 minutes.")
    b.add_formula("30+10=40")
    assert sources(b) == [["mention", "constant:minutes_per_hour"], ["step", "mention"]]
    assert b.build().mentions[0].text == "half an hour"


@pytest.mark.parametrize(("formula", "ops"), [("90*7=630", ["multiply", "add"]), ("1.5*7=10.5", ["divide", "add"])])
def test_hours_and_minutes_read_as_one_duration(formula: str, ops: list[str]) -> None:
    b = builder("Mr. John jogs for 1 hour 30 minutes a day, 7 days.")
    b.add_formula(formula)
    assert [s.op for s in b.steps[:2]] == ops


def test_no_noun_counts_zero_when_the_formula_line_names_the_noun() -> None:
    solution = "Six hats with no stripes is 6*0 = <<6*0=0>>0 stripes."
    b = builder("She has 6 hats with no stripes and 4 hats with 3 stripes each.", solution)
    b.add_formula("6*0=0", position=solution.index("<<"))
    assert "no stripes" in mention_texts(b)


@pytest.mark.parametrize(
    ("text", "formula", "counted"),
    [
        ("Sebastian bought tickets at $44 each for his parents and himself.", "44*3=132", "his parents and himself"),
        ("Steve reads 100 pages Monday, Wed, and Friday.", "100*3=300", "Monday, Wed, and Friday"),
    ],
)
def test_parents_count_two_and_weekday_abbreviations_list(text: str, formula: str, counted: str) -> None:
    b = builder(text)
    b.add_formula(formula)
    assert counted in mention_texts(b)


@pytest.mark.parametrize(
    ("text", "formula"),
    [
        ("He may walk every day but 4 days.", "31-4=27"),  # "may" is not the month May
        ("The room is 15 square feet.", "4*15=60"),  # an area unit, not a square
        ("4.5 gallons of tea fill 18 cups.", "4.5*8=36"),  # pints are never named
    ],
)
def test_implied_constants_need_their_exact_words(text: str, formula: str) -> None:
    with pytest.raises(ImportRefusal):
        builder(text).add_formula(formula)


def test_a_percentage_per_period_scales_as_a_percentage() -> None:
    b = builder("Bobby has 16 toy cars, and the number increases by 50% every year.")
    b.add_formula("16*.5=8")
    assert sources(b) == [["mention", "mention"]]


def test_a_result_stated_as_a_fraction_is_the_written_fraction_later() -> None:
    b = builder("She loses 2 pounds of water and 2/3 pound of food per hour, for 6 hours.")
    b.add_formula("2+2/3=8/3", optional=True)
    b.add_formula("8/3*6=16")
    assert sources(b)[-1] == ["step", "mention"]


def test_a_stated_percent_result_is_the_percentage_written_later() -> None:
    b = builder("40% are red and 20% are blue. There are 50 balls.")
    b.add_formula("40%+20%=60%", unit="%")
    b.add_formula("60%*50=30")
    assert b.steps[0].result == 60
    assert sources(b)[1][0] == "step"


@pytest.mark.parametrize(
    ("text", "formula", "listed"),
    [
        ("She bakes 60 cupcakes, an even number of chocolate and vanilla.", "60/2=30", "chocolate and vanilla"),
        ("John buys 3 cakes for $12 each and splits the cost with his brother.", "36/2=18", "with his brother"),
    ],
)
def test_two_kinds_or_a_person_shared_with_count_two(text: str, formula: str, listed: str) -> None:
    b = builder(text)
    if "$12" in text:
        b.add_formula("3*12=36")
    b.add_formula(formula)
    assert listed in mention_texts(b)


def test_a_person_who_has_brothers_is_one_more() -> None:
    b = builder("Ben has two brothers. They can each eat 12 slices of pizza.")
    b.add_formula("3*12=36")
    assert sources(b) == [["mention", "constant:self"], ["step", "mention"]]


def test_a_possessive_group_cues_self_in_a_sum_of_persons_but_not_in_a_product() -> None:
    b = builder("Kath takes her 2 siblings and 3 friends to a movie.")
    b.add_formula("1+2+3=6")
    assert sources(b) == [["constant:self", "mention", "mention"]]
    with pytest.raises(ImportRefusal):
        builder("His friend Mateo has 3 bottles of 2 liters.").add_formula("1*2=2")


def test_a_job_done_at_a_rate_is_one_whole_job() -> None:
    text = "Martha can rake the leaves in 8 hours. Her brother can do the job in 2 hours. How many hours together?"
    b = builder(text)
    assert b.add_equation("((1.0/8.0)*hours)+((1.0/2.0)*hours)=1.0") == "hours"
    assert [s for step in sources(b) for s in step].count("constant:whole") == 3  # 1/8 + 1/2 of the job; 1 job
    # without a job done in a time, a 1 stays unexplained
    with pytest.raises(ImportRefusal):
        builder("Martha rakes for 8 hours and her brother for 2 hours.").add_equation(
            "((1.0/8.0)*hours)+((1.0/2.0)*hours)=1.0"
        )


# ------------------------------------------------------------------ the rule table


def test_every_grounding_rule_is_named_once_and_shows_one_example() -> None:
    names = [name for name, _ in GROUNDING_RULES]
    assert len(set(names)) == len(names)
    docs = [rule.__doc__ or "" for _, rule in GROUNDING_RULES]
    assert [name for name, doc in zip(names, docs, strict=True) if not doc or "\n" in doc] == []


def test_without_words_two_mentions_of_one_value_are_a_tie() -> None:
    # nothing says which "2" the solution means: the first is taken and the other recorded beside it
    text = "Ann has 2 cats and Bo has 2 dogs and 5 birds."
    state = GroundingState(text, extract_mentions(text), default_pack())
    operand = ground(state, parse_formula("2*5").left, "multiply")  # type: ignore[union-attr]
    assert (operand.mention, operand.alternative and operand.alternative.mention) == (0, 1)
    assert "tie" in (operand.why or "")


def test_the_solution_line_decides_between_same_valued_readings() -> None:
    # "2 cats" and "half as many" both give a 2; the line's words say it is the half
    text = "Ann has 2 cats. Bo has 8 dogs and Cy has half as many dogs as Bo. How many dogs has Cy?"
    solution = "Cy has half as many dogs as Bo: 8/2 = <<8/2=4>>4 dogs.\n#### 4"
    b = StepBuilder("h1", "example", text, extract_mentions(text), solution=solution)
    at = solution.index("<<") + 2
    b.plan_annotations([(at - 2, at, "8/2=4", "dogs")])
    b.add_formula("8/2=4", unit="dogs", position=at - 2, at=at)
    trace = b.build()
    divisor = trace.steps[0].operands[1]
    assert (divisor.source, divisor.at) == ("mention", at + 2)
    assert trace.mentions[divisor.mention or 0].text == "half"  # the word the text writes, not "2 cats"
    assert "half" in (divisor.why or "")


def test_the_candidate_proposers_are_named_once_with_one_example() -> None:
    names = [name for name, _ in CANDIDATE_RULES]
    assert len(set(names)) == len(names)
    assert all(rule.__doc__ and rule.__doc__.count("\n") <= 1 for _, rule in CANDIDATE_RULES)


def test_no_rule_answering_refuses_as_operand_not_found() -> None:
    state = GroundingState("Ann has 3 cats.", extract_mentions("Ann has 3 cats."), default_pack())
    with pytest.raises(ImportRefusal) as info:
        ground(state, parse_formula("3*7").right)  # type: ignore[union-attr]
    assert (info.value.reason, info.value.detail) == ("operand_not_found", "7")


# ------------------------------------------------- issue 36: the speaker's own 1, "an X every Y", world knowledge


def test_the_speakers_own_one_is_self_not_the_whole_a_solution_divides_by() -> None:
    # the solution's "12/4" once cued the constant whole for Greg's 1: the whole is for a part, never a count's + 1
    solution = "There are 3+1=<<3+1=4>>4 people.\nEach gets 12/4=<<12/4=3>>3 cookies."
    b = builder("Greg and his 3 friends share 12 cookies equally.", solution)
    b.add_formula("3+1=4", position=solution.index("<<"))
    assert sources(b) == [["mention", "constant:self"]]
    assert b.build().steps[0].operands[1].cue is not None  # "his 3 friends": the words of the group he leads


def test_an_x_every_y_is_one_x_per_y() -> None:
    solution = "It drinks 1*5=<<1*5=5>>5 ounces."
    b = builder("The baby drinks an ounce of milk every hour. How many ounces does it drink in 5 hours?", solution)
    b.add_formula("1*5=5", position=solution.index("<<"))
    trace = b.build()
    first = trace.mentions[trace.steps[0].operands[0].mention or 0]
    assert (first.text, first.value, first.unit) == ("an ounce of milk every hour", 1, "ounce per hour")


@pytest.mark.parametrize(
    ("text", "formula", "constant"),
    [
        ("Greg has 3 dogs. How many legs do his dogs have?", "3*4=12", "legs_per_dog"),
        ("A farmer has 5 chickens. How many legs are there?", "5*2=10", "legs_per_chicken"),
        ("There are 6 spiders in the web. How many legs are in the web?", "6*8=48", "legs_per_spider"),
        ("The shop has 7 tricycles. How many wheels are there?", "7*3=21", "wheels_per_tricycle"),
        ("She wrote each letter of the alphabet 3 times. How many letters did she write?", "26*3=78",
         "letters_per_alphabet"),
        ("Ann had octuplets and buys each baby 2 hats. How many hats?", "8*2=16", "octuplets"),
        ("He paid with three twenties. How much did he pay?", "3*20=60", "twenty_dollar_bill"),
    ],
)
def test_a_fact_of_the_world_the_text_cues_grounds_as_its_constant(text: str, formula: str, constant: str) -> None:
    b = builder(text)
    b.add_formula(formula)
    assert f"constant:{constant}" in sources(b)[0]


def test_a_fact_of_the_world_needs_both_the_thing_and_what_it_has() -> None:
    with pytest.raises(ImportRefusal):
        builder("Greg has 3 dogs. How many bowls does he fill?").add_formula("3*4=12")  # no legs: no 4


def test_a_fact_the_solution_states_is_its_number_not_the_constant() -> None:
    solution = "Each dog has 4 legs, so 3*4=<<3*4=12>>12 legs."
    b = builder("Greg has 3 dogs. How many legs do his dogs have?", solution)
    b.add_formula("3*4=12", position=solution.index("<<"))
    assert sources(b) == [["mention", "mention"]]
    assert [m.source for m in b.build().mentions] == ["text", "solution"]


def test_a_rarer_fact_is_a_fallback_constant() -> None:
    b = builder("Tom has visited half of all the states. How many states has he visited?")
    b.add_formula("50/2=25")
    assert sources(b)[0][0] == "constant:us_states"
