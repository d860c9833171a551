"""Write packs/en_counts_v2/{lexicon.jsonl,manifest.json}: en_counts_v1's count nouns, amended (ADR 0017, v2).

``en_counts_v1`` stays as it is (reports cite its checksum); this is its next version: the same rules over
the same pinned resources (``build_en_counts_v1``), then two hand-written amendments, each entry with why the
rules missed it:

1. ``ADDED``: count nouns the rules drop or WordNet lacks, read off the unknown units of GSM8K **train**
   problems (never GSM8K test) and named by issue 24 (``servings``, ``apps``, ``treats``, ``CDs``,
   ``s'mores``).  A noun v1 already lists gains the forms it lacks (``mangos``, ``push-ups``).  The manifest
   records, for each, the v1 rule that dropped it (``not in WordNet`` when the noun index has none):
   the rules' known blind spots are brand and sport nouns whose singular general text uses as a name or a
   mass noun (``basketball``, ``television``), plurals Brill tags as verbs (``treats``, ``bears``,
   ``dice``), invariant plurals (``goldfish``, ``trout``), capitals (``CDs``) and recent words (``apps``);
   Left out: a noun whose singular after a number is mostly a modifier in GSM8K train (``4 gym class``:
   ``gym`` would be read as the unit, since a listed word wins over the noun after it);
2. ``REMOVED``: nouns that leave the counts for a measure (``night`` is a time: ``en_measures_v1``, ADR 0026).

Every row is a count with ratio 1, as in v1.  Run ``python packs/build_en_counts_v2.py`` with the
``packs`` extra installed; the test suite checks that the committed files equal its output.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import build_en_counts_v1 as v1

from ssbg.units import normalize_unit_text

ROOT = Path(__file__).resolve().parent

NAME = "en_counts_v2"
VERSION = "2.0.0"

# lemma -> (plural, other surfaces): count nouns the v1 rules miss (GSM8K train's unknown units, issue 24).
ADDED: Mapping[str, tuple[str, tuple[str, ...]]] = {
    "angelfish": ("angelfish", ()),
    "app": ("apps", ()),
    "baguette": ("baguettes", ()),
    "barrette": ("barrettes", ()),
    "baseball": ("baseballs", ()),
    "basketball": ("basketballs", ()),
    "bear": ("bears", ()),
    "birdhouse": ("birdhouses", ()),
    "bitcoin": ("bitcoins", ()),
    "blowfish": ("blowfish", ()),
    "cantaloupe": ("cantaloupes", ()),
    "catfish": ("catfish", ()),
    "cd": ("CDs", ("CD",)),
    "chest": ("chests", ()),
    "chipmunk": ("chipmunks", ()),
    "curry": ("curries", ()),
    "die": ("dice", ()),
    "dodgeball": ("dodgeballs", ()),
    "feeding": ("feedings", ()),
    "fly": ("flies", ()),
    "football": ("footballs", ()),
    "fox": ("foxes", ()),
    "goldfish": ("goldfish", ()),
    "gumball": ("gumballs", ()),
    "husky": ("huskies", ()),
    "ipad": ("iPads", ("iPad",)),
    "iphone": ("iPhones", ("iPhone",)),
    "jellybean": ("jellybeans", ("jelly bean", "jelly beans")),
    "labrador": ("labradors", ()),
    "lighter": ("lighters", ()),
    "lychee": ("lychees", ()),
    "macaron": ("macarons", ()),
    "mango": ("mangoes", ("mangos",)),
    "match": ("matches", ()),
    "matchstick": ("matchsticks", ()),
    "millipede": ("millipedes", ()),
    "offspring": ("offspring", ()),
    "oreo": ("Oreos", ("Oreo",)),
    "papaya": ("papayas", ()),
    "pentagon": ("pentagons", ()),
    "pinecone": ("pinecones", ()),
    "pitbull": ("pitbulls", ()),
    "platyfish": ("platyfish", ()),
    "present": ("presents", ()),
    "pushup": ("pushups", ("push-up", "push-ups")),
    "quiche": ("quiches", ()),
    "raspberry": ("raspberries", ()),
    "robin": ("robins", ()),
    "rung": ("rungs", ()),
    "sandcastle": ("sandcastles", ()),
    "scarf": ("scarves", ("scarfs",)),
    "scoop": ("scoops", ()),
    "serving": ("servings", ()),
    "sink": ("sinks", ()),
    "situp": ("situps", ("sit-up", "sit-ups")),
    "smore": ("smores", ("s'more", "s'mores", "s\u2019more", "s\u2019mores")),
    "spiderweb": ("spiderwebs", ()),
    "starfish": ("starfish", ()),
    "sweet": ("sweets", ()),
    "swordfish": ("swordfish", ()),
    "television": ("televisions", ()),
    "third_grader": ("third graders", ("third-grader", "third-graders")),
    "treat": ("treats", ()),
    "trout": ("trout", ("trouts",)),
    "turkey": ("turkeys", ()),
    "van": ("vans", ()),
    "whiteboard": ("whiteboards", ()),
}

# lemma -> why it is no count noun of this pack
REMOVED: Mapping[str, str] = {
    "night": "a night of a stay is a time (en_measures_v1, ADR 0026): '$80 per night for 3 nights'",
}


def _row(lemma: str, plural: str, surfaces: list[str]) -> dict[str, Any]:
    return {"lemma": lemma, "plural": plural, "surfaces": sorted(set(surfaces)), "domain": "count",
            "dimension": {"count": 1}, "ratio": "1", "canonical": False, "container_size": None}


def _why_v1_missed(lemma: str, res: v1.Resources, wordnet: frozenset[str]) -> str:
    """The v1 rule that dropped a noun (``not in WordNet``; ``listed`` when v1 has it and it only gains forms)."""
    word = lemma.replace("_", "-")
    if word not in wordnet:
        return "not in WordNet"
    noun = v1.describe(word, res)
    return next((name for name, holds in v1.RULES if holds(noun, res.lexicon)), "listed")


def count_nouns() -> tuple[list[dict[str, Any]], dict[str, int], dict[str, str]]:
    """The rows of the pack, how many nouns each v1 rule dropped, and why v1 missed each added noun."""
    rows, dropped = v1.count_nouns()
    nouns, irregular, rules = v1.wordnet_nouns()
    res = v1.Resources(irregular, rules, v1.brill_lexicon(), v1.zipf_frequency(), v1.en_units_forms())
    by_lemma = {row["lemma"]: row for row in rows if row["lemma"] not in REMOVED}
    missed: dict[str, str] = {}
    for lemma, (plural, surfaces) in ADDED.items():
        missed[lemma] = _why_v1_missed(lemma, res, frozenset(nouns))
        old = by_lemma.get(lemma)
        if old is None:
            by_lemma[lemma] = _row(lemma, plural, list(surfaces))
        else:  # v1 lists it: it gains the forms it lacks ("mangos" beside "mangoes")
            kept = [s for s in (plural, *surfaces) if s != old["plural"]]
            by_lemma[lemma] = _row(lemma, old["plural"], [*old["surfaces"], *kept])
    _check_no_shared_forms(by_lemma.values())
    return [by_lemma[k] for k in sorted(by_lemma)], dropped, dict(sorted(missed.items()))


def _check_no_shared_forms(rows: Any) -> None:
    seen: dict[str, str] = {}
    for row in rows:
        for form in {normalize_unit_text(f) for f in (row["lemma"], row["plural"], *row["surfaces"])}:
            if seen.setdefault(form, row["lemma"]) != row["lemma"]:
                raise SystemExit(f"{form!r} is a form of both {seen[form]!r} and {row['lemma']!r}")


def render() -> tuple[bytes, bytes]:
    rows, dropped, missed = count_nouns()
    lexicon = "".join(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n" for row in rows).encode("utf-8")
    manifest = {
        "name": NAME,
        "version": VERSION,
        "description": "Closed list of English count nouns: en_counts_v1's rules (ADR 0017), then a hand-written "
        "list of count nouns they miss and of nouns that are measures (ADR 0017, v2).",
        "rows": len(rows),
        "depluralize": False,
        "sha256": hashlib.sha256(lexicon).hexdigest(),
        "sources": {
            "nouns": f"WordNet 3.0 noun index and irregular plurals, from spacy-lookups-data "
            f"{v1.PINNED['spacy-lookups-data']} (MIT; the WordNet data under the WordNet 3.0 license, Princeton "
            "University)",
            "frequency": f"wordfreq {v1.PINNED['wordfreq']} (Apache-2.0 code; data CC BY-SA 4.0)",
            "part_of_speech": f"Brill tagger lexicon from textblob {v1.PINNED['textblob']} (MIT)",
            "added": "count nouns read off the unknown units of GSM8K train problems (never GSM8K test), issue 24",
        },
        "rules": {
            "min_plural_zipf": v1.MIN_PLURAL_ZIPF,
            "min_plural_share_log10": v1.MIN_PLURAL_SHARE,
            "stoplist": sorted(v1.STOPLIST),
            "measure_words": sorted(v1.MEASURE_WORDS),
        },
        "dropped": dropped,
        "added": missed,
        "removed": dict(sorted(REMOVED.items())),
    }
    return lexicon, (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode("utf-8")


def main() -> int:
    out = ROOT / NAME
    out.mkdir(exist_ok=True)
    lexicon, manifest = render()
    outputs = (("lexicon.jsonl", lexicon), ("manifest.json", manifest), ("LICENSE-WordNet.txt", v1.wordnet_license()))
    for name, data in outputs:
        tmp = out / f".{name}.tmp"
        tmp.write_bytes(data)
        tmp.replace(out / name)
    print(f"wrote {json.loads(manifest)['rows']} rows to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
