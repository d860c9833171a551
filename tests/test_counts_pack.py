"""The en_counts_v1 pack (ADR 0017): loader, generator, content, and main parts of speech."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from functools import cache
from pathlib import Path

import pytest

from ssbg.units import UnitEntry, UnitVector, load_pack, normalize_unit_text, parse_unit

REPO = Path(__file__).resolve().parents[1]
PACK_DIR = REPO / "packs" / "en_counts_v1"


def _manifest() -> dict[str, object]:
    return dict(json.loads((PACK_DIR / "manifest.json").read_text()))


# ---------------------------------------------------------------------- loader


def test_loader_checks_the_manifest_checksum() -> None:
    data = (PACK_DIR / "lexicon.jsonl").read_bytes()
    assert load_pack("en_counts_v1").checksum == hashlib.sha256(data).hexdigest() == _manifest()["sha256"]


def test_loader_reads_every_row() -> None:
    rows = (PACK_DIR / "lexicon.jsonl").read_bytes().splitlines()
    assert len(load_pack("en_counts_v1").entries) == len(rows) == _manifest()["rows"]


def test_the_pack_is_versioned() -> None:
    counts = load_pack("en_counts_v1")
    assert (counts.name, counts.version) == ("en_counts_v1", "1.0.0")


def test_the_pack_records_its_sources() -> None:
    sources = _manifest()["sources"]
    assert isinstance(sources, dict)
    assert sorted(sources) == ["frequency", "nouns", "part_of_speech"]


def test_wordnet_license_travels_with_the_pack() -> None:
    assert "WordNet 3.0 Copyright 2006 by Princeton University" in (PACK_DIR / "LICENSE-WordNet.txt").read_text()


def test_committed_pack_equals_its_generator() -> None:
    sys.path.insert(0, str(REPO / "packs"))
    try:
        import build_en_counts_v1
    finally:
        sys.path.pop(0)
    lexicon, manifest = build_en_counts_v1.render()
    assert (PACK_DIR / "lexicon.jsonl").read_bytes() == lexicon
    assert (PACK_DIR / "manifest.json").read_bytes() == manifest
    assert (PACK_DIR / "LICENSE-WordNet.txt").read_bytes() == build_en_counts_v1.wordnet_license()


# --------------------------------------------------------------------- content


def _entries() -> list[UnitEntry]:
    return list(load_pack("en_counts_v1").entries.values())


def test_every_noun_has_the_count_dimension() -> None:
    assert {e.dimension for e in _entries()} == {UnitVector(count=1)}


def test_every_noun_counts_one_item() -> None:
    assert {(e.domain, e.ratio, e.canonical, e.container_size) for e in _entries()} == {("count", 1, False, None)}


def test_no_form_is_listed_by_en_units_v1() -> None:
    units = load_pack("en_units_v1")
    listed = {normalize_unit_text(f) for e in units.entries.values() for f in (e.lemma, e.plural, *e.surfaces)}
    ours = {normalize_unit_text(f) for e in _entries() for f in (e.lemma, e.plural, *e.surfaces)}
    assert ours & listed == set()


EVERYDAY = (
    *("cookies", "marbles", "teachers", "pencils", "tubs", "T-shirts", "boys", "girls", "seniors", "books"),
    *("plants", "eggs", "points", "students", "apples", "oranges", "cupcakes", "stickers", "crayons", "chairs"),
    *("tables", "tickets", "trees", "flowers", "roses", "candies", "pizzas", "nickels", "desks", "puppies"),
    *("cars", "buses", "classes", "dishes", "shelves", "wolves", "heroes", "potatoes", "tomatoes"),
)


@pytest.mark.parametrize("noun", EVERYDAY)
def test_everyday_count_nouns_resolve_in_the_composition(noun: str) -> None:
    assert parse_unit(noun, load_pack("en_units_v1+en_counts_v1")) == UnitVector(count=1)


@pytest.mark.parametrize(("surface", "lemma"), [("brethren", "brother"), ("busses", "bus"), ("t-shirts", "t_shirt")])
def test_irregular_and_variant_plurals_are_surfaces(surface: str, lemma: str) -> None:
    assert load_pack("en_counts_v1").resolve(surface).lemma == lemma


# Words that are not count nouns the way problems use them (hand-written, ADR 0017).
DENY = {
    "verbs and participles": "elected visited stuffed bought sold gave made took went ran runs needs makes "
    "uses looks shows wants goes saves earns spends buys cares hates writes unites shines",
    "adjectives and adverbs": "more less fewer many much new old good great big small large whole red extra "
    "different same other back well still down better",
    "ordinals and numbers": "first second third fourth fifth sixth tenth hundredth ones twos tens hundreds thousands "
    "millions billions dozens scores",
    "function words": "times each others every some any all both either neither none the and but if of for "
    "with will can must may might shall would should could this that these those what which who",
    "names": "john mary james michael david sarah emily adams roberts edwards",
    "measure words of en_units_v1": "hours minutes days weeks feet inches miles pounds ounces grams liters cups "
    "gallons dollars cents percent degrees boxes bags dozen pairs",
    "measure words outside en_units_v1": "furlongs fathoms knots bushels carats fortnights",
}


@pytest.mark.parametrize(
    ("group", "word"), [(group, word) for group, words in DENY.items() for word in words.split()]
)
def test_deny_list_words_are_not_count_nouns(group: str, word: str) -> None:
    assert isinstance(load_pack("en_counts_v1").lookup(word), str), f"{word} ({group})"


# ----------------------------------------------------- main part of speech (POS)
# The Brill tagger's lexicon (textblob, dev extra) gives each word its most frequent tag in the
# Brown corpus and the Penn Treebank; wordfreq gives how often each form is written.

CLOSED_CLASS = {"CC", "CD", "DT", "EX", "IN", "LS", "MD", "PDT", "POS", "PRP", "PRP$", "RP", "TO", "UH", "WDT", "WP"}
CLOSED_CLASS |= {"WP$", "WRB"}
ADVERB_OR_DEGREE = {"RB", "RBR", "RBS", "JJR", "JJS"}


@cache
def _main_tags() -> dict[str, str]:
    spec = importlib.util.find_spec("textblob")
    assert spec is not None
    assert spec.submodule_search_locations
    path = Path(next(iter(spec.submodule_search_locations))) / "en" / "en-lexicon.txt"
    tags: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith(";;;"):
            word, tag = line.split()[:2]
            tags.setdefault(word, tag)
    return tags


def _tag(word: str) -> str | None:
    tags = _main_tags()
    return tags.get(word, tags.get(word[:1].upper() + word[1:]) if "-" in word else None)


def _offenders(rule: object) -> list[str]:
    return sorted(e.lemma for e in _entries() if rule(e))  # type: ignore[operator]


def test_every_plural_is_mainly_a_plural_noun() -> None:
    assert _offenders(lambda e: any(_tag(f) not in (None, "NNS") for f in (e.plural, *e.surfaces))) == []


def test_no_singular_is_mainly_a_function_word() -> None:
    assert _offenders(lambda e: _tag(e.lemma.replace("_", "-")) in CLOSED_CLASS) == []


def test_no_singular_is_mainly_an_adverb_or_a_comparative() -> None:
    assert _offenders(lambda e: _tag(e.lemma.replace("_", "-")) in ADVERB_OR_DEGREE) == []


def test_a_singular_mainly_used_otherwise_is_mainly_a_noun_in_the_plural() -> None:
    # orange (JJ), senior (JJ), stick (VB): their plurals are plural nouns written at least 1/16 as often
    # as the singular, so the noun is one of the word's main uses; whole (JJ) or have (VBP) are not.
    from wordfreq import zipf_frequency

    def marginal(e: UnitEntry) -> bool:
        tag = _tag(e.lemma)
        if tag is None or tag in ("NN", "NNS") or "_" in e.lemma:
            return False
        share = zipf_frequency(e.plural, "en") - zipf_frequency(e.lemma, "en")
        return _tag(e.plural) != "NNS" or share < -1.2

    assert _offenders(marginal) == []


def test_no_noun_is_mainly_a_name() -> None:
    tags = _main_tags()

    def name(e: UnitEntry) -> bool:
        unknown = _tag(e.lemma) is None and _tag(e.plural) is None
        return unknown and tags.get(e.plural.capitalize()) in ("NNP", "NNPS")

    assert _offenders(name) == []


def test_the_pack_resolves_listed_forms_only() -> None:
    # "makes" would depluralize to WordNet's "mak": the manifest turns depluralization off for this pack.
    counts = load_pack("en_counts_v1")
    assert (counts.lookup("makes"), counts.lookup("cookies").lemma) == ("unknown_unit", "cookie")


def test_en_units_v1_still_depluralizes_in_the_composition() -> None:
    assert load_pack("en_units_v1+en_counts_v1").lookup("boxs").lemma == "box"
