"""Conversions checked by value (ADR 0030): a step admitted by dimension whose stated result forgot a scale."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ssbg.checking import ERROR_FINDINGS, ROBUST_FINDINGS, check_solution
from ssbg.checking.conversions import Slip, conversion_slips
from ssbg.reading.choosing import BoundTrace
from ssbg.reading.learned.model import keeping_readings
from ssbg.reading.readers.solutions import read_solution
from ssbg.units import corpus_pack

# (question, the solution that forgets the conversion, the solution that makes it, the factor named)
FORGOTTEN = [
    pytest.param("A hose fills a pool at 10 gallons per minute. How many gallons in 2 hours?",
                 "10 * 2 = 20 gallons\nA: 20", "10 * 120 = 1200 gallons\nA: 1200", "60", id="volume-rate-hours"),
    pytest.param("Tom studied for 1 hour and 30 minutes. How many minutes did he study?",
                 "1 + 30 = 31 minutes\nA: 31", "60 + 30 = 90 minutes\nA: 90", "60", id="time-sum"),
    pytest.param("Ann earns $12 an hour. She worked for 30 minutes. How much did she earn?",
                 "12 * 30 = $360\nA: 360", "12 * 30 / 60 = $6\nA: 6", "60", id="money-rate-minutes"),
    pytest.param("Pencils cost 25 cents each. How many dollars do 8 pencils cost?",
                 "8 * 25 = $200\nA: 200", "8 * 25 = 200 cents\n200 / 100 = $2\nA: 2", "100",
                 id="money-cents-to-dollars"),
    pytest.param("A toy costs $3. How many cents do 4 toys cost?",
                 "4 * 3 = 12 cents\nA: 12", "4 * 3 = $12\n12 * 100 = 1200 cents\nA: 1200", "100",
                 id="money-dollars-to-cents"),
    pytest.param("A red ribbon is 2 feet long and a blue ribbon is 8 inches long. How many inches of ribbon are there?",
                 "2 + 8 = 10 inches\nA: 10", "2 * 12 = 24 inches\n24 + 8 = 32 inches\nA: 32", "12",
                 id="length-feet-to-inches"),
    pytest.param("A red ribbon is 24 inches long and a blue ribbon is 2 feet long. How many feet of ribbon are there?",
                 "24 + 2 = 26 feet\nA: 26", "24 / 12 = 2 feet\n2 + 2 = 4 feet\nA: 4", "12", id="length-inches-to-feet"),
    pytest.param("Ann has 2 gallons of milk and 3 quarts of juice. How many quarts of drink does she have?",
                 "2 + 3 = 5 quarts\nA: 5", "2 * 4 = 8 quarts\n8 + 3 = 11 quarts\nA: 11", "4",
                 id="volume-gallons-to-quarts"),
    pytest.param("Ann has 8 quarts of milk and 1 gallon of juice. How many gallons of drink does she have?",
                 "8 + 1 = 9 gallons\nA: 9", "8 / 4 = 2 gallons\n2 + 1 = 3 gallons\nA: 3", "4",
                 id="volume-quarts-to-gallons"),
    pytest.param("A movie lasts 90 minutes and a play lasts 2 hours. How many hours do they last together?",
                 "90 + 2 = 92 hours\nA: 92", "90 / 60 = 1.5 hours\n1.5 + 2 = 3.5 hours\nA: 3.5", "60",
                 id="time-minutes-to-hours"),
    pytest.param("A printer prints 3 pages per second. How many pages does it print in 2 minutes?",
                 "3 * 2 = 6 pages\nA: 6", "2 * 60 = 120 seconds\n3 * 120 = 360 pages\nA: 360", "60",
                 id="time-rate-seconds"),
    pytest.param("A car uses 2 gallons of gas per hour. How many quarts does it use in 3 hours?",
                 "2 * 3 = 6 quarts\nA: 6", "2 * 3 = 6 gallons\n6 * 4 = 24 quarts\nA: 24", "4",
                 id="volume-rate-to-quarts"),
    pytest.param("Tom bought 3 pounds of rice and 8 ounces of beans. How many ounces of food did he buy?",
                 "3 + 8 = 11 ounces\nA: 11", "3 * 16 = 48 ounces\n48 + 8 = 56 ounces\nA: 56", "16", id="mass-sum"),
    pytest.param("Sam walks at 4 miles per hour. How far does he walk in 30 minutes?",
                 "4 * 30 = 120 miles\nA: 120", "30 / 60 = 0.5 hours\n4 * 0.5 = 2 miles\nA: 2", "60",
                 id="speed-minutes"),
]


@pytest.mark.parametrize(("question", "wrong", "right", "factor"), FORGOTTEN)
def test_a_forgotten_conversion_is_an_error_naming_the_factor(question: str, wrong: str, right: str,
                                                             factor: str) -> None:
    v = check_solution(question, wrong)
    assert v.status == "error", v.explain()
    (f,) = v.errors
    assert f.reason == "conversion_error"
    assert f.step == 0
    assert f.family == "error"
    assert f"the factor {factor} " in f.detail, f.detail
    assert "was left out" in f.detail
    assert check_solution(question, right).status == "sound"


def test_the_finding_names_the_right_value_and_the_units() -> None:
    v = check_solution("A hose fills a pool at 10 gallons per minute. How many gallons in 2 hours?",
                       "The pool gets 10 * 2 = 20 gallons.\nA: 20")
    (f,) = v.errors
    assert f.detail == ("10 gallon per minute x 2 hour is 1,200 gallon, not 20: the factor 60 between minute and hour "
                        "was left out")
    assert f.support == 0.0
    assert f.question_spans
    assert "conversion" in v.explain()


def test_an_inverted_conversion_is_an_error_too() -> None:
    q = "Sam walks at 4 miles per hour. How far does he walk in 30 minutes?"
    for inverted in ("4 * 30 * 60 = 7200 miles\nA: 7200", "30 * 60 = 1800 hours\n4 * 1800 = 7200 miles\nA: 7200"):
        v = check_solution(q, inverted)
        assert [f.reason for f in v.errors] == ["conversion_error"], v.explain()
        assert "the factor 60 between" in v.errors[0].detail
        assert "was inverted" in v.errors[0].detail
    assert check_solution(q, "30 / 60 = 0.5 hours\n4 * 0.5 = 2 miles\nA: 2").status == "sound"


def test_the_value_check_is_error_evidence_weighed_by_robust_refusal() -> None:
    assert "conversion_error" in ERROR_FINDINGS
    assert "conversion_error" in ROBUST_FINDINGS


@pytest.mark.parametrize(("question", "solution"), [
    # a quantity times a pure number stated in another unit: a comparison the words make, not a conversion
    ("Kim needs 16 cups of flour and 1/2 times as many teaspoons of salt as cups of flour. How many teaspoons of "
     "salt does she need?", "1/2 * 16 = 8 teaspoons\nA: 8"),
    # a sum that states no unit may count things, as the question asks
    ("Kim needs 10 cups of water and 8 teaspoons of salt. How many cups and teaspoons does she need in all?",
     "10 + 8 = 18\nA: 18"),
    # a percent written as its number: 20% is 20, 0.2 or 20/100
    ("A shirt costs $50 and is 20% off. How much is the discount?", "20/100 * 50 = $10\nA: 10"),
    # a month or a year is converted by convention (4 weeks, 30 days, 52 weeks): not read
    ("Carrie earns $280 a week. How much does she earn in a month?", "280 * 4 = $1120\nA: 1120"),
    # a count in pairs or dozens is a reading, not a conversion
    ("Eggs come in cartons of 1 dozen. How many eggs are in 2 cartons?", "2 * 12 = 24 eggs\nA: 24"),
])
def test_what_the_value_check_does_not_read_is_no_conversion_error(question: str, solution: str) -> None:
    assert "conversion_error" not in {f.reason for f in check_solution(question, solution).findings}


def test_a_conversion_the_solution_makes_in_its_own_numbers_is_sound() -> None:
    q = "Weng earns $12 an hour for babysitting. Yesterday she babysat for 50 minutes. How much did she earn?"
    assert check_solution(q, "12/60 = $0.2 per minute\n0.2 * 50 = $10\nA: 10").status == "sound"
    annotated = "12/60 = $<<12/60=0.2>>0.2 per minute\n0.2 * 50 = $<<0.2*50=10>>10\nA: 10"
    assert check_solution(q, annotated).status == "sound"


def test_a_reading_that_undoes_it_weighs_against_it() -> None:
    """The slip's support is the probability of the operands' other readings under which the step gives its
    result; at an ε below it the finding is could-not-tell."""
    q = "A hose fills a pool at 10 gallons per minute. How many gallons in 2 hours?"
    v = check_solution(q, "10 * 2 = 20 gallons\nA: 20", min_evidence=0.001)
    assert v.status == "error"
    pack = corpus_pack()
    with keeping_readings():
        reading = read_solution(q, "10 * 2 = 20 gallons\nA: 20", pack=pack)
    assert reading.trace is not None
    bound = BoundTrace(reading.trace, pack=pack)
    (slip,) = conversion_slips(reading, bound.graph, pack)
    assert slip.factor == Fraction(60)
    assert slip.expected == 1200
    assert slip.written == 20
    assert 0.0 <= slip.support < 0.001


def test_a_reference_with_the_same_computation_makes_it_a_reading_limit() -> None:
    q = "A hose fills a pool at 10 gallons per minute. How many gallons in 2 hours?"
    v = check_solution(q, "10 * 2 = 20 gallons\nA: 20", reference="10 * 2 = 20 gallons\nA: 20")
    assert v.status != "error"
    assert v.findings[0].in_reference


def test_slip_sentences() -> None:
    slip = Slip(0, 20.0, 1200.0, Fraction(60), "gallon", "minute and hour", said="10 gallon per minute x 2 hour")
    assert slip.sentence() == ("10 gallon per minute x 2 hour is 1,200 gallon, not 20: the factor 60 between minute "
                               "and hour was left out")
    inverted = Slip(0, 0.5, 1.5, Fraction(3), "foot", inverted=True)
    assert inverted.sentence() == "with its units the step is 1.5 foot, not 0.5: the factor 3 was inverted"
    assert Slip(0, 12.5, 0.1, Fraction(1, 125), "dollar").sentence().endswith("the factor 125 was left out")
