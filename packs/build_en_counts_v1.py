"""Write packs/en_counts_v1/{lexicon.jsonl,manifest.json}: English count nouns (ADR 0017).

The list is generated, never hand-picked: every noun of WordNet 3.0's noun
index (as shipped by ``spacy-lookups-data``) goes through the rules below and
enters only if none drops it (the manifest counts what each rule dropped).

1. shape: lower-case ASCII letters, hyphens only between letters, 3+ characters;
2. number words and ordinals (``ten``, ``million``, ``third``) never enter;
3. ``STOPLIST``: nouns whose plural problems use as a function word (``times``,
   ``ones``, ``lots``), each with its reason;
4. the plural: WordNet's irregular plurals, the regular English plural
   (``-es`` after s, x, z, sh; ``-ies`` after a consonant and y; ``-s`` or
   ``-es`` after ch and o; else ``-s``), WordNet's ``-men`` detachment run
   backwards, and its ``-ves`` one when the tagged lexicon (7) knows that form
   as a plural noun (``wolves``, not the surname ``reeves``); the most frequent
   candidate (wordfreq) is the plural, another attested irregular one of
   WordNet's a surface (``cacti``);
5. frequency: the plural's Zipf frequency is at least ``MIN_PLURAL_ZIPF``;
6. countability: the plural is at least 1/16 as frequent as the singular
   (``MIN_PLURAL_SHARE``): mass nouns (``rice``, ``money``) have little plural use,
   and a word mainly used otherwise has little noun use (``whole``, ``red``);
7. main use, from the Brill tagger's lexicon (the most frequent tag of each word
   in the Brown corpus and the Penn Treebank, shipped in ``textblob``): the
   singular is no function word (closed-class tag) and no adverb or comparative
   (``more``, ``back``); the plural is mainly a plural noun (``NNS``: ``books``
   enters, ``runs`` and ``needs`` do not); a singular mainly used as a verb or
   adjective (``orange``, ``senior``, ``stick``) needs its plural in the lexicon;
8. names: a word the lexicon knows only capitalized, as a proper plural
   (``Adams``, ``Vikings``), is a name;
9. hyphenated compounds (``t-shirt``): wordfreq splits them at the hyphen, so
   the plural must instead be in the tagged lexicon as a plural noun;
10. ``en_units_v1``: a noun whose lemma, or every plural, is a lemma, plural or
    surface of en_units_v1 (after normalization) or the first word of a
    multiword one (``square`` of ``square feet``, ``metric``) stays out, so the
    two packs compose; a colliding plural is dropped alone (``penny`` keeps
    ``pennies``, not en_units_v1's ``pence``);
11. ``MEASURE_WORDS``: units of a dimension the algebra models that en_units_v1
    does not list (``furlong``, ``knot``): a count would give them the wrong one;
12. spelling variants: when two nouns share a form (``annex`` and ``annexe`` both
    make ``annexes``), the one whose singular is more frequent keeps it and the
    other stays out (a shared irregular surface is dropped alone).

Every noun that enters has the count dimension with ratio 1 (like ``item``).
Every plural it resolves by is listed, so the manifest turns off ssbg's
depluralization for the pack (``"depluralize": false``): ``makes`` is no ``mak``.
The three resources are pinned (``PINNED``): another version gives another
list, so the script refuses to run with one.  Install them with
``pip install -e '.[packs]'`` and run ``python packs/build_en_counts_v1.py``;
the test suite checks that the committed files equal its output.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.metadata
import importlib.util
import json
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ssbg.units import load_pack, normalize_unit_text

ROOT = Path(__file__).resolve().parent

NAME = "en_counts_v1"
VERSION = "1.0.0"

# The resources and the exact versions the committed pack was built from.
PINNED: Mapping[str, str] = {"spacy-lookups-data": "1.0.5", "wordfreq": "3.1.1", "textblob": "0.20.1"}

MIN_PLURAL_ZIPF = 2.0  # 0.1 occurrences per million words
MIN_PLURAL_SHARE = -1.2  # log10(plural / singular frequency): the plural is >= 1/16 of the singular
IRREGULAR_MIN_ZIPF = 1.0  # an irregular plural listed as a surface (cacti) must be attested at all

# Penn tags of closed classes: a singular whose main use is one of these is a function word.
CLOSED_CLASS_TAGS = frozenset(
    {"CC", "CD", "DT", "EX", "IN", "LS", "MD", "PDT", "POS", "PRP", "PRP$", "RP", "TO", "UH", "WDT", "WP", "WP$", "WRB"}
)
NOUN_TAGS = frozenset({"NN", "NNS"})
# A singular mainly used as one of these may still be a count noun when its plural is a noun (orange,
# senior, stick, drawing); any other main use (adverb, comparative: more, back, better) keeps it out.
NOUN_USE_TAGS = frozenset({"JJ", "VB", "VBD", "VBG", "VBN", "VBP", "VBZ"})
PROPER_TAGS = frozenset({"NNP", "NNPS"})

STOPLIST: Mapping[str, str] = {
    "time": "'3 times as many' multiplies; it counts no thing",
    "one": "'the red ones' is a pronoun",
    "lot": "'lots of' is a quantifier",
}

MEASURE_WORDS: Mapping[str, str] = {
    "furlong": "length",
    "fathom": "length",
    "cubit": "length",
    "knot": "speed",
    "bushel": "volume",
    "peck": "volume",
    "carat": "mass",
    "karat": "mass",
    "fortnight": "time",
    "millisecond": "time",
    "microsecond": "time",
    "nanosecond": "time",
}

_ONES = (
    *("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    *("eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"),
)
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_BIG = ("hundred", "thousand", "million", "billion", "trillion", "dozen", "score")
_IRREGULAR_ORDINALS = {
    "one": "first",
    "two": "second",
    "three": "third",
    "five": "fifth",
    "eight": "eighth",
    "nine": "ninth",
    "twelve": "twelfth",
}


def _ordinal(word: str) -> str:
    if word in _IRREGULAR_ORDINALS:
        return _IRREGULAR_ORDINALS[word]
    return word[:-1] + "ieth" if word.endswith("y") else word + "th"


NUMBER_WORDS = frozenset(w for base in (*_ONES, *_TENS, *_BIG) for w in (base, _ordinal(base)))

_SHAPE = re.compile(r"[a-z]+(?:-[a-z]+)*")


# ------------------------------------------------------------------ resources


def _check_versions() -> None:
    for package, version in PINNED.items():
        try:
            found = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            raise SystemExit(f"{package} is not installed: pip install -e '.[packs]'") from None
        if found != version:
            raise SystemExit(f"{package} {found} is installed; the pack is built from {version} (PINNED)")


def _package_dir(name: str) -> Path:
    """A package's folder, found without importing it (textblob imports nltk)."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"{name} is not installed: pip install -e '.[packs]'")
    return Path(next(iter(spec.submodule_search_locations)))


def wordnet_nouns() -> tuple[list[str], dict[str, list[str]], list[tuple[str, str]]]:
    """WordNet 3.0's noun lemmas, its irregular plurals (lemma -> forms) and its detachment rules."""
    data = _package_dir("spacy_lookups_data") / "data"
    index = json.loads(gzip.decompress((data / "en_lemma_index.json.gz").read_bytes()))
    exceptions = json.loads(gzip.decompress((data / "en_lemma_exc.json.gz").read_bytes()))
    rules = json.loads(gzip.decompress((data / "en_lemma_rules.json.gz").read_bytes()))
    irregular: dict[str, list[str]] = {}
    for form, lemmas in sorted(exceptions["noun"].items()):
        for lemma in lemmas:
            irregular.setdefault(lemma, []).append(form)
    return sorted(index["noun"]), irregular, [(plural, singular) for plural, singular in rules["noun"]]


def brill_lexicon() -> dict[str, str]:
    """Word -> its most frequent Penn tag (Brill's tagger lexicon, as shipped in textblob)."""
    lexicon: dict[str, str] = {}
    path = _package_dir("textblob") / "en" / "en-lexicon.txt"
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith(";;;") or not line.strip():
            continue
        word, tag = line.split()[:2]
        lexicon.setdefault(word, tag)
    return lexicon


def zipf_frequency() -> Callable[[str], float]:
    from wordfreq import zipf_frequency as zipf

    return lambda word: float(zipf(word, "en"))


def en_units_forms() -> frozenset[str]:
    """Every lemma, plural and surface of en_units_v1, normalized, and the first word of the multiword ones."""
    pack = load_pack("en_units_v1")
    forms = {normalize_unit_text(f) for e in pack.entries.values() for f in (e.lemma, e.plural, *e.surfaces)}
    return frozenset(forms | {form.split("_")[0] for form in forms if "_" in form})


# ---------------------------------------------------------------------- rules


def regular_plurals(lemma: str) -> list[str]:
    """The regular English plural, and its spelling variants after -ch and -o (frequency picks).

    >>> [regular_plurals(w) for w in ("box", "city", "boy", "epoch", "hero", "t-shirt")]
    [['boxes'], ['cities'], ['boys'], ['epoches', 'epochs'], ['heros', 'heroes'], ['t-shirts']]
    """
    if lemma.endswith("ch"):
        return [lemma + "es", lemma + "s"]
    if lemma.endswith(("s", "x", "z", "sh")):
        return [lemma + "es"]
    if len(lemma) > 1 and lemma.endswith("y") and lemma[-2] not in "aeiou":
        return [lemma[:-1] + "ies"]
    if lemma.endswith("o"):
        return [lemma + "s", lemma + "es"]
    return [lemma + "s"]


def plural_candidates(
    lemma: str, irregular: Iterable[str], rules: Iterable[tuple[str, str]], lexicon: Mapping[str, str]
) -> list[str]:
    """WordNet's irregular plurals, the regular plurals, WordNet's -men detachment run backwards,
    and its -ves one when the tagged lexicon knows the form as a plural noun; without repeats.

    >>> rules = [("s", ""), ("ves", "f"), ("men", "man")]
    >>> plural_candidates("wolf", [], rules, {"wolves": "NNS"}), plural_candidates("reef", [], rules, {})
    (['wolfs', 'wolves'], ['reefs'])
    >>> plural_candidates("snowman", [], rules, {})
    ['snowmans', 'snowmen']
    """
    out = [form for form in irregular if _SHAPE.fullmatch(form)]
    out += regular_plurals(lemma)
    for plural, singular in rules:
        if plural in ("ves", "men") and lemma.endswith(singular):
            form = lemma[: len(lemma) - len(singular)] + plural
            if plural == "men" or _tag(lexicon, form) == "NNS":  # reeves is a surname, not reefs
                out.append(form)
    return list(dict.fromkeys(out))


def _tag(lexicon: Mapping[str, str], word: str) -> str | None:
    """The main tag of a word as written in lower case, else of its capitalized form for compounds."""
    if word in lexicon:
        return lexicon[word]
    if "-" in word:
        return lexicon.get(word[0].upper() + word[1:])
    return None


@dataclass(frozen=True)
class Noun:
    """One WordNet noun and what the resources say about it; the rules read only this."""

    lemma: str
    singular_tag: str | None  # the singular's main tag in the Brill lexicon
    singular_zipf: float
    exceptions: tuple[str, ...]  # WordNet's irregular plurals of it
    candidates: tuple[str, ...]  # every plural it could have (plural_candidates)
    plurals: tuple[str, ...]  # the candidates en_units_v1 does not list and that are mainly plural nouns
    plural: str | None  # the one the pack lists: the most frequent (a compound's: the first attested)
    plural_tag: str | None
    plural_zipf: float
    units_listed: bool  # en_units_v1 lists the lemma or every candidate
    plural_mainly_other: bool  # every candidate it does not list is mainly something else (runs)

    @property
    def compound(self) -> bool:
        return "-" in self.lemma

    @property
    def share(self) -> float:
        """log10 of plural over singular frequency."""
        return self.plural_zipf - self.singular_zipf


def describe(lemma: str, res: Resources) -> Noun:
    """What the resources say about one WordNet noun."""
    exceptions = tuple(res.irregular.get(lemma, ()))
    candidates = tuple(plural_candidates(lemma, exceptions, res.rules, res.lexicon))
    unlisted = [c for c in candidates if normalize_unit_text(c) not in res.taken]
    plurals = tuple(c for c in unlisted if _tag(res.lexicon, c) in (None, "NNS"))
    if "-" in lemma:  # wordfreq splits compounds at the hyphen: the tagged lexicon attests them instead
        plural = next((c for c in plurals if _tag(res.lexicon, c) == "NNS"), None)
    else:
        plural = max(plurals, key=lambda c: (res.zipf(c), -plurals.index(c)), default=None)
    return Noun(
        lemma=lemma,
        singular_tag=_tag(res.lexicon, lemma),
        singular_zipf=res.zipf(lemma),
        exceptions=exceptions,
        candidates=candidates,
        plurals=plurals,
        plural=plural,
        plural_tag=None if plural is None else _tag(res.lexicon, plural),
        plural_zipf=0.0 if plural is None else res.zipf(plural),
        units_listed=normalize_unit_text(lemma) in res.taken or not unlisted,
        plural_mainly_other=not plurals,
    )


# The rules, in order: the first that holds drops the noun and is counted under its name.
# Each is a small pure predicate on a Noun (STYLE rule 13); a noun none drops enters the pack.


def _bad_shape(n: Noun) -> bool:
    """'3-d', 'ox': not lower-case letters (hyphens between them) of 3 or more."""
    return len(n.lemma) < 3 or not _SHAPE.fullmatch(n.lemma)


def _number_word(n: Noun) -> bool:
    """'million', 'third': a number word or an ordinal."""
    return n.lemma in NUMBER_WORDS


def _stoplisted(n: Noun) -> bool:
    """'time': its plural is a function word in problems ('3 times as many')."""
    return n.lemma in STOPLIST


def _in_en_units(n: Noun) -> bool:
    """'hour', 'box', 'square': en_units_v1 lists the lemma, or every plural it could have."""
    return n.units_listed


def _function_word(n: Noun) -> bool:
    """'will', 'must': the singular is mainly a closed-class word."""
    return n.singular_tag in CLOSED_CLASS_TAGS


def _plural_mainly_not_a_noun(n: Noun) -> bool:
    """'run' (runs), 'need' (needs): no plural it could have is mainly a plural noun."""
    return n.plural_mainly_other


def _compound_not_attested(n: Noun) -> bool:
    """'a-bomb': a compound whose plural the tagged lexicon does not know as a plural noun."""
    return n.compound and n.plural is None


def _rare(n: Noun) -> bool:
    """'aardwolf': the plural is written less than MIN_PLURAL_ZIPF."""
    return not n.compound and n.plural_zipf < MIN_PLURAL_ZIPF


def _mass_noun(n: Noun) -> bool:
    """'rice', 'money': a noun whose plural is under 1/16 of its singular."""
    return not n.compound and n.singular_tag in (None, *NOUN_TAGS) and n.share < MIN_PLURAL_SHARE


def _noun_use_marginal(n: Noun) -> bool:
    """'whole', 'red': a word mainly used otherwise whose plural is under 1/16 of its singular."""
    return not n.compound and n.singular_tag not in (None, *NOUN_TAGS) and n.share < MIN_PLURAL_SHARE


def _singular_adverb_or_comparative(n: Noun) -> bool:
    """'more', 'back', 'better': the singular is mainly an adverb, a comparative or a superlative."""
    return n.singular_tag not in (None, *NOUN_TAGS, *NOUN_USE_TAGS)


def _singular_mainly_not_a_noun(n: Noun) -> bool:
    """A verb or adjective whose plural the tagged lexicon does not know at all."""
    return n.singular_tag in NOUN_USE_TAGS and n.plural_tag is None


def _name(n: Noun, lexicon: Mapping[str, str]) -> bool:
    """'adam' (Adams), 'viking' (Vikings): the lexicon knows the plural only capitalized, as a name."""
    unknown = n.singular_tag is None and n.plural_tag is None
    return unknown and n.plural is not None and lexicon.get(n.plural.capitalize()) in PROPER_TAGS


def _measure_word(n: Noun) -> bool:
    """'furlong', 'knot': a unit of a dimension en_units_v1 does not list it under."""
    return n.lemma in MEASURE_WORDS


RULES: tuple[tuple[str, Callable[[Noun, Mapping[str, str]], bool]], ...] = (
    ("shape", lambda n, _: _bad_shape(n)),
    ("number word", lambda n, _: _number_word(n)),
    ("stoplist", lambda n, _: _stoplisted(n)),
    ("in en_units_v1", lambda n, _: _in_en_units(n)),
    ("function word", lambda n, _: _function_word(n)),
    ("plural mainly not a noun", lambda n, _: _plural_mainly_not_a_noun(n)),
    ("compound not attested", lambda n, _: _compound_not_attested(n)),
    ("rare", lambda n, _: _rare(n)),
    ("mass noun", lambda n, _: _mass_noun(n)),
    ("noun use marginal", lambda n, _: _noun_use_marginal(n)),
    ("singular an adverb or comparative", lambda n, _: _singular_adverb_or_comparative(n)),
    ("singular mainly not a noun", lambda n, _: _singular_mainly_not_a_noun(n)),
    ("name", _name),
    ("measure word", lambda n, _: _measure_word(n)),
)


@dataclass(frozen=True)
class Resources:
    irregular: Mapping[str, list[str]]
    rules: list[tuple[str, str]]
    lexicon: Mapping[str, str]
    zipf: Callable[[str], float]
    taken: frozenset[str]


def count_nouns() -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Rows of the pack and how many nouns each rule dropped."""
    _check_versions()
    nouns, irregular, rules = wordnet_nouns()
    res = Resources(irregular, rules, brill_lexicon(), zipf_frequency(), en_units_forms())
    dropped: dict[str, int] = {}
    kept: list[Noun] = []
    for lemma in nouns:
        noun = describe(lemma, res)
        rule = next((name for name, holds in RULES if holds(noun, res.lexicon)), None)
        if rule is None:
            kept.append(noun)
        else:
            dropped[rule] = dropped.get(rule, 0) + 1
    rows = _without_spelling_variants(kept, res.zipf)
    dropped["spelling variant"] = len(kept) - len(rows)
    return sorted(rows, key=lambda row: row["lemma"]), dict(sorted(dropped.items()))


def _without_spelling_variants(kept: list[Noun], zipf: Callable[[str], float]) -> list[dict[str, Any]]:
    """Rows for the kept nouns; of two that share a form (annex, annexe: annexes) the more frequent keeps it."""
    claimed: set[str] = set()
    rows: list[dict[str, Any]] = []
    for noun in sorted(kept, key=lambda n: (-n.singular_zipf, n.lemma)):
        assert noun.plural is not None  # noqa: S101 - every kept noun has one (rules plural/rare/compound)
        keys = {normalize_unit_text(noun.lemma), normalize_unit_text(noun.plural)}
        if keys & claimed:
            continue
        claimed |= keys
        irregular = [f for f in noun.plurals if f != noun.plural and f in noun.exceptions]
        free = [f for f in irregular if zipf(f) >= IRREGULAR_MIN_ZIPF and normalize_unit_text(f) not in claimed]
        claimed |= {normalize_unit_text(f) for f in free}
        rows.append(
            {
                "lemma": normalize_unit_text(noun.lemma),
                "plural": noun.plural,
                "surfaces": sorted(free),
                "domain": "count",
                "dimension": {"count": 1},
                "ratio": "1",
                "canonical": False,
                "container_size": None,
            }
        )
    return rows


def render() -> tuple[bytes, bytes]:
    rows, dropped = count_nouns()
    lexicon = "".join(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n" for row in rows).encode("utf-8")
    manifest = {
        "name": NAME,
        "version": VERSION,
        "description": "Closed list of English count nouns, generated from WordNet 3.0 by the rules of ADR 0017.",
        "rows": len(rows),
        "depluralize": False,  # every plural is listed: "makes" must not read as "mak" + "es"
        "sha256": hashlib.sha256(lexicon).hexdigest(),
        "sources": {
            "nouns": f"WordNet 3.0 noun index and irregular plurals, from spacy-lookups-data {PINNED['spacy-lookups-data']}"
            " (MIT; the WordNet data under the WordNet 3.0 license, Princeton University)",
            "frequency": f"wordfreq {PINNED['wordfreq']} (Apache-2.0 code; data CC BY-SA 4.0)",
            "part_of_speech": f"Brill tagger lexicon from textblob {PINNED['textblob']} (MIT)",
        },
        "rules": {
            "min_plural_zipf": MIN_PLURAL_ZIPF,
            "min_plural_share_log10": MIN_PLURAL_SHARE,
            "stoplist": sorted(STOPLIST),
            "measure_words": sorted(MEASURE_WORDS),
        },
        "dropped": dropped,
    }
    return lexicon, (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode("utf-8")


def wordnet_license() -> bytes:
    """WordNet 3.0's license, which must accompany every copy of data derived from it."""
    return (_package_dir("spacy_lookups_data") / "data" / "en_license.txt").read_bytes()


def main() -> int:
    out = ROOT / NAME
    out.mkdir(exist_ok=True)
    lexicon, manifest = render()
    outputs = (("lexicon.jsonl", lexicon), ("manifest.json", manifest), ("LICENSE-WordNet.txt", wordnet_license()))
    for name, data in outputs:
        tmp = out / f".{name}.tmp"
        tmp.write_bytes(data)
        tmp.replace(out / name)
    rows = json.loads(manifest)["rows"]
    print(f"wrote {rows} rows to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
