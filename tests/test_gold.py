"""Rules of ssbg.stats.gold on hand-written names, questions and records (no corpus needed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ssbg.reading.readers.mawps import mawps_trace
from ssbg.stats.gold import answer_dimension, gold_dimension, mawps_unknown_agreement
from ssbg.units import default_pack


@pytest.mark.parametrize(
    ("name", "dimension"),
    [
        ("hours", "time"),
        ("hourly_wage", "money"),
        ("average_speed", "length/time"),
        ("simple_interest", "money"),
        ("salestax_percentage", "dimensionless"),
        ("cost_of_1_lollipop", "money"),
        ("height_of_replica_of_John_Hancock", "length"),
        ("minutes_over_twentyfive_hundred", "time"),
        ("miles_per_hour", "length/time"),
        ("dollars_per_hour", "money/time"),
        ("weeks", "time"),
    ],
)
def test_gold_dimension_reads_the_head_of_the_name(name: str, dimension: str) -> None:
    found = gold_dimension(name, default_pack())
    assert found is not None
    assert found.to_canonical_string() == dimension


@pytest.mark.parametrize(
    "name",
    [
        "books",  # an open noun
        "percent_green",  # the head comes first without a preposition
        "new_clients_per_hour",  # a rate over an open noun
        "third_month",  # a period, not a unit
        "Last_year",
        "next_week",
        "cost_of",  # a dangling preposition
        "_",
    ],
)
def test_gold_dimension_is_none_for_names_that_state_no_dimension(name: str) -> None:
    assert gold_dimension(name, default_pack()) is None


def _record(pid: int, text: str, equation: str, solution: float) -> dict[str, object]:
    return {"iIndex": pid, "sQuestion": text, "lEquations": [equation], "lSolutions": [solution]}


RENTAL = _record(
    1,
    "A van rents for 40 dollars a day plus 10 cents a mile. Your daily budget is 60 dollars. "
    "What mileage can you drive?",
    "40.0+((10.0*0.01)*miles)=60.0",
    200.0,
)
UNIT_COST = _record(
    2, "A 10 ounce jar of jam sells for 90 cents. Give the unit cost in cents per ounce.", "cost=90.0/10.0", 9.0
)
WRONG_COST = _record(3, "Ann works 3 hours, then 2 more hours. How many hours does she work?", "cost=3.0+2.0", 5.0)


def test_the_answer_dimension_is_the_stated_unit_else_the_last_step() -> None:
    # "What mileage ..." states no unit: ssbg's answer is its last step, over daily rates a length per day.
    assert str(answer_dimension(mawps_trace(RENTAL), default_pack())) == "length/time"
    percent = _record(4, "Of 40 students, 28 passed. What percentage of the students passed?",
                      "percentage*.01*40.0=28.0", 70.0)
    assert str(answer_dimension(mawps_trace(percent), default_pack())) == "dimensionless"


def test_mawps_agreement_accepts_a_unit_price_for_a_price_word(tmp_path: Path) -> None:
    path = tmp_path / "mawps.json"
    path.write_text(json.dumps([RENTAL, UNIT_COST, WRONG_COST]), encoding="utf-8")
    out = mawps_unknown_agreement(path)
    assert (out.evaluable, out.agreeing, [d[0] for d in out.disagreements]) == (3, 1, ["1", "3"])
