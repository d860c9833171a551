"""en_counts_v2 and en_measures_v1 (ADR 0017 v2, ADR 0026): generated as committed, composed without conflict,
the count nouns issue 24 found missing, the cubic measures, a night as a time and an angle's degree."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from ssbg.units import CORPUS_PACK_NAME, UnitVector, compose, load_pack, parse_unit

REPO = Path(__file__).resolve().parents[1]


def _builder(name: str):  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(REPO / "packs"))
    try:
        return __import__(name)
    finally:
        sys.path.pop(0)


@pytest.mark.parametrize(("pack", "builder"), [("en_counts_v2", "build_en_counts_v2"),
                                                ("en_measures_v1", "build_en_measures_v1")])
def test_committed_pack_equals_its_generator(pack: str, builder: str) -> None:
    lexicon, manifest = _builder(builder).render()
    assert (REPO / "packs" / pack / "lexicon.jsonl").read_bytes() == lexicon
    assert (REPO / "packs" / pack / "manifest.json").read_bytes() == manifest
    assert load_pack(pack).checksum == hashlib.sha256(lexicon).hexdigest()


def test_the_wordnet_license_travels_with_v2() -> None:
    assert (REPO / "packs" / "en_counts_v2" / "LICENSE-WordNet.txt").read_bytes() == (
        REPO / "packs" / "en_counts_v1" / "LICENSE-WordNet.txt").read_bytes()


def test_v1_is_unchanged_and_v2_is_a_new_version() -> None:
    v1, v2 = load_pack("en_counts_v1"), load_pack("en_counts_v2")
    assert (v1.version, len(v1.entries), v2.version) == ("1.0.0", 8649, "2.0.0")
    assert v1.checksum.startswith("1b098e6b9a1e")


def test_the_corpus_pack_composes_units_counts_and_measures() -> None:
    pack = load_pack(CORPUS_PACK_NAME)
    assert [c.name for c in pack.components] == ["en_units_v1", "en_counts_v2", "en_measures_v1"]
    assert compose(load_pack("en_units_v1"), load_pack("en_measures_v1")).name == "en_units_v1+en_measures_v1"


@pytest.mark.parametrize(
    ("word", "lemma"),
    [("servings", "serving"), ("apps", "app"), ("treats", "treat"), ("CD", "cd"), ("CDs", "cd"),
     ("smores", "smore"), ("s'mores", "smore"), ("s\u2019mores", "smore"), ("jellybeans", "jellybean"),
     ("dice", "die"), ("goldfish", "goldfish"), ("mangos", "mango"), ("push-ups", "pushup"), ("sit-ups", "situp"),
     ("basketballs", "basketball"), ("scarves", "scarf")],
)
def test_the_missing_count_nouns_count(word: str, lemma: str) -> None:
    counts = load_pack("en_counts_v2")
    assert counts.lookup(word).lemma == lemma  # type: ignore[union-attr]
    assert parse_unit(word, load_pack(CORPUS_PACK_NAME)) == UnitVector(count=1)


def test_v1_did_not_list_them() -> None:
    v1 = load_pack("en_counts_v1")
    words = ("servings", "apps", "treats", "CDs", "smores", "s'mores")
    assert [w for w in words if not isinstance(v1.lookup(w), str)] == []


def test_every_added_noun_says_why_v1_missed_it() -> None:
    manifest = json.loads((REPO / "packs" / "en_counts_v2" / "manifest.json").read_text())
    assert set(manifest["added"]) == set(_builder("build_en_counts_v2").ADDED)
    assert manifest["added"]["app"] == "not in WordNet"
    assert manifest["added"]["cd"] == "shape"


@pytest.mark.parametrize(
    ("unit", "feet_cubed"),
    [("cubic feet", 1), ("cubic foot", 1), ("cubic inches", 1 / 1728), ("cubic yards", 27),
     ("cubic meters", 35.314666721488590), ("cubic centimetres", 3.5314666721488590e-05), ("ft³", 1)],
)
def test_cubic_measures_are_volumes(unit: str, feet_cubed: float) -> None:
    pack = load_pack(CORPUS_PACK_NAME)
    entry = pack.lookup(unit)
    assert parse_unit(unit, pack) == UnitVector(length=3) == parse_unit("gallons", pack)
    assert float(entry.ratio) == pytest.approx(feet_cubed)  # type: ignore[union-attr]


def test_a_night_is_a_time_as_long_as_a_day() -> None:
    pack = load_pack(CORPUS_PACK_NAME)
    assert parse_unit("nights", pack) == UnitVector(time=1)
    assert pack.lookup("night").ratio == pack.lookup("day").ratio  # type: ignore[union-attr]
    assert load_pack("en_counts_v2").lookup("nights") == "unknown_unit"


def test_an_angle_degree_is_dimensionless_and_degrees_stay_a_temperature() -> None:
    pack = load_pack(CORPUS_PACK_NAME)
    assert parse_unit("angle degrees", pack) == UnitVector() == parse_unit("degree angle", pack)
    assert parse_unit("degrees", pack) == UnitVector(temperature=1)


# ------------------------------------------------------------------ reading with the measures (ADR 0026)

ANGLES = [
    ("He turned 90 degrees.", "angle degrees"),
    ("A right angle is 90 degrees.", "angle degrees"),
    ("The angles of a triangle are 30 degrees and 60 degrees.", "angle degrees"),
    ("The wheel spins 360 degrees.", "angle degrees"),
    ("A 60 degree angle.", "degree angle"),
    ("The temperature was 90 degrees.", "degrees"),
    ("The oven is at 350 degrees; the angle of the tray is odd.", "degrees"),  # temperature words win
    ("It was 70 degrees outside.", "degrees"),  # no angle words: en_units_v1's temperature
]


@pytest.mark.parametrize(("text", "unit"), ANGLES)
def test_degrees_of_an_angle_are_read_as_one(text: str, unit: str) -> None:
    from ssbg.reading.mentions import extract_mentions

    assert extract_mentions(text, pack=load_pack(CORPUS_PACK_NAME))[0].unit == unit


def test_with_the_units_alone_degrees_stay_a_temperature() -> None:
    from ssbg.reading.mentions import extract_mentions

    assert extract_mentions("He turned 90 degrees.", pack=load_pack("en_units_v1"))[0].unit == "degrees"


@pytest.mark.parametrize(
    ("question", "solution", "proof"),
    [
        ("Jim turned 90 degrees and then 45 degrees more. How many degrees did he turn in all?",
         "90+45=<<90+45=135>>135 degrees\n#### 135", "add: [dimensionless,dimensionless] -> dimensionless"),
        ("The oven is at 350 degrees. It cools 20 degrees. How many degrees is it now?",
         "350-20=<<350-20=330>>330 degrees\n#### 330", "subtract: [temperature,temperature] -> temperature"),
        ("A hotel costs $80 per night. They stay 3 nights. How much do they pay?",
         "80*3=$<<80*3=240>>240\n#### 240", "apply_rate: [money/time,time] -> money"),
        ("A box holds 12 cubic feet of sand. How many cubic feet do 3 boxes hold?",
         "12*3=<<12*3=36>>36 cubic feet\n#### 36", "apply_rate: [length^3/count,count] -> length^3"),
    ],
)
def test_angles_nights_and_cubic_feet_bind(question: str, solution: str, proof: str) -> None:
    from ssbg.checking import check_solution
    from ssbg.reading.readers.gsm8k import gsm8k_trace
    from ssbg.trace import bind_trace

    pack = load_pack(CORPUS_PACK_NAME)
    graph = bind_trace(gsm8k_trace(question, solution, problem_id="t", pack=pack), pack=pack)
    assert [(e.admissibility_status, e.unit_proof) for e in graph.equations] == [("admitted", proof)]
    assert check_solution(question, solution).status == "sound"
