"""The reading's shortcuts never change what is read: each skip or memo against the plain computation.

Issue 16's cost work keeps outputs byte-identical (``make fingerprint`` over the corpora); these
properties check the shortcuts on texts made to hit their edges.
"""

from __future__ import annotations

import math
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from ssbg.reading.cues import _LOWER_CASE, CUE_PATTERNS, _may_occur, find_cue_occurrences, find_cues
from ssbg.reading.evidence import _SENTENCE_END, sentence_bounds
from ssbg.reading.readers.gsm8k import _EACHES, _PERIOD_RATES

_MARKS = (" ", " ", "  ", "\n", "-", "%", "/", "3", "12 ", "1/2", ",", ".", "a", "the")
_PERIOD_WORDS = (
    *("per", "a", "an", "each", "every", "one", "apiece", "piece", "hour", "hours", "hourly", "day", "days"),
    *("daily", "week", "weekend", "weekly", "month", "yearly", "annual", "annually", "second", "minutes"),
    *("night", "nightly", "semester", "season"),
)


@st.composite
def _cue_texts(draw: st.DrawFn) -> tuple[str, str]:
    """A constant and a text of the words its cue pattern is written with (plurals, any case) and marks."""
    cid = draw(st.sampled_from(sorted(CUE_PATTERNS)))
    written = re.findall(r"[A-Za-z]{2,}", CUE_PATTERNS[cid].pattern)
    words = st.sampled_from([*written, *(w + "s" for w in written)])
    pieces = draw(st.lists(st.tuples(words, st.sampled_from(_MARKS), st.booleans()), max_size=5))
    return cid, "".join((w.upper() if upper else w) + mark for w, mark, upper in pieces)


@settings(max_examples=1000)
@given(_cue_texts())
def test_a_cue_gate_never_hides_a_match(case: tuple[str, str]) -> None:
    """A text none of whose lower-cased words is a constant's key has no cue of that constant."""
    cid, text = case
    if CUE_PATTERNS[cid].search(text) is not None:
        assert _may_occur(cid, text.lower()), (cid, text)


@settings(max_examples=1000)
@given(_cue_texts())
def test_a_cue_is_found_alike_in_the_lower_cased_text(case: tuple[str, str]) -> None:
    """A case-blind cue pattern searched case-sensitively in the lower-cased (ASCII) text finds the same spans."""
    cid, text = case
    plain = _LOWER_CASE[cid]
    if plain is not None:
        found = [m.span() for m in plain.finditer(text.lower())]
        assert found == [m.span() for m in CUE_PATTERNS[cid].finditer(text)], (cid, text)


@settings(max_examples=500)
@given(st.lists(st.tuples(st.sampled_from(_PERIOD_WORDS), st.sampled_from(_MARKS), st.booleans()), max_size=6))
def test_a_period_is_found_alike_in_the_lower_cased_text(pieces: list[tuple[str, str, bool]]) -> None:
    """The periods and 'each' words of a result's context are read alike with and without case folding."""
    text = "".join((w.upper() if upper else w) + mark for w, mark, upper in pieces)
    for blind in (_PERIOD_RATES, _EACHES):
        folded = [(m.span(), [g and g.lower() for g in m.groups()]) for m in blind.folding.finditer(text)]
        assert [(m.span(), list(m.groups())) for m in blind.finditer(text)] == folded, text


def _sentence_bounds_scanned(text: str, at: int) -> tuple[int, int]:
    """The sentence around ``at`` as a scan of ``text[:at]`` and of the text from ``at`` reads it."""
    start = 0
    for m in _SENTENCE_END.finditer(text, 0, at):
        start = m.end()
    stop = _SENTENCE_END.search(text, at)
    return start, len(text) if stop is None else stop.start()


@settings(max_examples=1000)
@given(st.text(alphabet="ab3 .!?\n\t\u00a0", max_size=20), st.data())
def test_sentence_bounds_are_those_a_scan_finds(text: str, data: st.DataObject) -> None:
    """The sentence bounds read from a text's memoized ends are those a scan up to the offset finds."""
    at = data.draw(st.integers(0, len(text)))
    assert sentence_bounds(text, at) == _sentence_bounds_scanned(text, at), (text, at)


def test_a_text_that_is_not_ascii_is_gated_by_its_folded_lower_case() -> None:
    # a curly quote no longer sends every cue pattern over the text, and a letter a case-blind match folds
    # to an ASCII one (a long s, a dotless i, a dotted capital I) still lets its constant's pattern run
    assert [c.constant_id for c in find_cue_occurrences("Greg\u2019s 3 dogs. How many legs?", 4)] == ["legs_per_dog"]
    assert find_cue_occurrences("Greg\u2019s 3 dogs. How many bowls?", 4) == ()
    assert [c.constant_id for c in find_cues("She ran 3 mile\u017f\u2026 How many feet?", 5280)] == ["feet_per_mile"]
    assert [c.constant_id for c in find_cues("3 M\u0130NUTES \u2014 60?", 60)] == ["minutes_per_hour"]


def test_reading_an_ascii_text_compiles_no_case_blind_cue_pattern() -> None:
    """An ASCII text is searched lower-cased with the twins compiled at import; the case-blind patterns (four
    times their twins' cost to compile) are compiled only when a text that is not ASCII needs them."""
    import subprocess
    import sys

    program = (
        "from ssbg.reading import cues\n"
        "eager = set(cues.CUE_PATTERNS._compiled)\n"
        "assert eager == {c for c in cues._SPECS if cues._LOWER_CASE[c] is None}, eager\n"
        "text = 'Ann walks 3 hours a day for 2 weeks and buys a dozen eggs. How many minutes?'\n"
        "found = [c.constant_id for v in (60, 7, 12, 24) for c in cues.find_cues(text, v)]\n"
        "assert set(cues.CUE_PATTERNS._compiled) == eager, set(cues.CUE_PATTERNS._compiled) - eager\n"
        "accented = cues.find_cues('Zoë walks 3 hours.', 60)\n"
        "print(found, [c.constant_id for c in accented], set(cues.CUE_PATTERNS._compiled) == set(cues._SPECS))\n"
    )
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    # the same cues as main found them; the accented text compiled the case-blind patterns, all at once
    assert out.stdout.strip() == (
        "['minutes_per_hour', 'days_per_week', 'items_per_dozen', 'hours_per_day'] ['minutes_per_hour'] True"
    )


_FEATURE_NAMES = ("u:a", "u:b", "p:c", "o:prior", "unknown")


@settings(max_examples=500)
@given(
    st.dictionaries(st.sampled_from(_FEATURE_NAMES[:4]), st.floats(-8, 8), max_size=4),
    st.lists(st.dictionaries(st.sampled_from(_FEATURE_NAMES), st.floats(-8, 8), min_size=1), min_size=1, max_size=5),
)
def test_a_score_sums_the_features_as_written(weights: dict[str, float], features: list[dict[str, float]]) -> None:
    """The scorer's probabilities are those of each feature's weight times its value, summed in the features'
    order (a feature the model does not know weighs nothing): bit for bit, not only nearly."""
    from ssbg.reading.learned.model import Model

    model = Model({"unit": weights}, {"unit": 0.7}, {})
    scores = [sum(weights.get(k, 0.0) * v for k, v in f.items()) / 0.7 for f in features]
    exps = [math.exp(s - max(scores)) for s in scores]
    assert model.probabilities("unit", features) == [e / sum(exps) for e in exps]


_MENTION_WORDS = ("3 apples", "5", "$4", "2 hours", "a dozen eggs", "7 boxes of pens", "half", "9 quickly", "1 km")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_MENTION_WORDS), min_size=1, max_size=16))
def test_the_neighbours_units_are_those_of_the_mentions_around(pieces: list[str]) -> None:
    """What a mention may count as its neighbours do (found once per text) is, for each mention, what the
    text mentions nearest it (at most MAX_PARALLEL either side) read as a noun of the packs."""
    from ssbg.reading.learned.proposals import MAX_PARALLEL, Neighbours, category, reading_of
    from ssbg.reading.mentions import extract_mentions

    mentions = extract_mentions(" and ".join(pieces) + ".")
    near = Neighbours.of(mentions)
    text = [m for m in mentions if m.source == "text"]
    for k, m in enumerate(text):
        around = text[max(0, k - MAX_PARALLEL) : k] + text[k + 1 : k + 1 + MAX_PARALLEL]
        plain = [(o, reading_of(o)[:2]) for o in around]
        expected = [(o, u) for o, u in plain if u[0] is not None and category(u[0].replace("_", " ")) != "unknown"]
        assert list(near.around_units(m)) == expected, (pieces, k)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_MENTION_WORDS), min_size=1, max_size=8), st.sampled_from((" each.", " per day.", ".")))
def test_a_mentions_readings_rank_as_sorted_by_their_key(pieces: list[str], end: str) -> None:
    """The n-best readings of a mention are the first of every (unit, per) pair that makes sense, sorted by
    probability, then the rules' reading first, then the candidates' order."""
    from ssbg.reading.learned.features import MentionContext, per_features, unit_features
    from ssbg.reading.learned.model import N_BEST, load_model, mention_readings
    from ssbg.reading.learned.proposals import Neighbours, TextIndex, per_candidates, reading_of, unit_candidates
    from ssbg.reading.mentions import extract_mentions, tokenize

    model = load_model()
    assert model is not None
    text = " and ".join(pieces) + end
    toks, mentions = tokenize(text), extract_mentions(text)
    index, near = TextIndex.of(toks), Neighbours.of(mentions)
    for m in mentions:
        units, pers = unit_candidates(toks, m, mentions, index, near), per_candidates(toks, m, index)
        ctx, rule_per = MentionContext.of(toks, m, index), reading_of(m)[2]
        pu = model.probabilities("unit", [unit_features(c, ctx) for c in units])
        pp = model.probabilities("per", [per_features(c, ctx, reading_of(m)[0]) for c in pers])
        joint = [
            (pu[i] * pp[j], i, j)
            for i, u in enumerate(units)
            for j, p in enumerate(pers)
            if not ((u.lemma is None and p.lemma is not None) or (p.lemma is not None and p.lemma == u.lemma))
        ]
        total = sum(q for q, _, _ in joint) or 1.0
        ranked = sorted(
            joint, key=lambda x: (-x[0], not (units[x[1]].rule and pers[x[2]].lemma == rule_per), x[1], x[2])
        )
        expected = [
            (units[i].lemma, units[i].surface, pers[j].lemma, pers[j].surface, q / total,
             units[i].rule and pers[j].lemma == rule_per)
            for q, i, j in ranked[:N_BEST]
        ]  # fmt: skip
        assert [tuple(r) for r in mention_readings(toks, m, mentions, index, model, near)] == expected, (text, m)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from((*_MENTION_WORDS, ",", "and", "but", "each", "per", "box", "Then", "."))), st.data())
def test_a_clause_break_is_counted_as_a_scan_finds_it(words: list[str], data: st.DataObject) -> None:
    """Whether a clause break stands between two tokens, read from the text's running count of breaks, and
    each token's sentence are what a scan of the tokens finds."""
    from ssbg.reading.learned.proposals import _BREAKS, TextIndex
    from ssbg.reading.mentions import tokenize

    toks = tokenize(" ".join(words))
    index = TextIndex.of(toks)
    breaks = index.breaks
    sentence, lo = [], 0  # each token's sentence [lo, hi), as a scan of the tokens finds it
    for j, tok in enumerate(toks):
        if tok.text in ".?!;" or j == len(toks) - 1:
            sentence.extend([(lo, j if tok.text in ".?!;" else j + 1)] * (j + 1 - len(sentence)))
            lo = j + 1
    assert index.sentence == tuple(sentence), words
    assert (index.starts, index.ends, index.lows) == tuple(
        tuple(getattr(t, f) for t in toks) for f in ("start", "end", "low")
    )
    a = data.draw(st.integers(0, len(toks)))
    b = data.draw(st.integers(a, len(toks)))
    assert (breaks[b] - breaks[a] > 0) == any(t.low in _BREAKS for t in toks[a:b]), (words, a, b)
