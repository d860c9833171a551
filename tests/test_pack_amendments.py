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
