"""What is known of each candidate reading: sparse named features (edge).

A feature is a name and a value (1.0 for a flag).  The names are stable strings the model's weights
are keyed by; a feature the weights do not know weighs nothing.  Every feature is read from the
question's words, the rules' reading and the shipped packs, never from a solution or a gold file.

>>> from ssbg.reading.mentions import extract_mentions, tokenize
>>> text = "Weng earns $12 an hour."
>>> toks, ms = tokenize(text), extract_mentions(text)
>>> index = TextIndex.of(toks)
>>> ctx = MentionContext.of(toks, ms[0], index)
>>> sorted(f for f in unit_features(unit_candidates(toks, ms[0], ms, index)[0], ctx) if f.startswith("u:rule"))
['u:rule', 'u:rule*cat=money', 'u:rule*d=far']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from ssbg.reading.learned.proposals import (
    PerCandidate,
    TextIndex,
    UnitCandidate,
    category,
    mention_tokens,
    reading_of,
    sentence_bounds,
    unit_candidates,
)
from ssbg.reading.mentions import Token
from ssbg.trace import Mention

__all__ = ["MentionContext", "TextIndex", "per_features", "unit_candidates", "unit_features"]

Features = dict[str, float]

_ADJACENT_RATE = re.compile(r"(?i)/|\bper\b|\b(?:an?|each|every|apiece)\b")
_PRONOUNS = frozenset({"them", "these", "those", "it", "which", "whom"})
_SCALE_WORDS = frozenset({"dozen", "pair", "couple", "score", "set"})


def _bucket(d: int | None) -> str:
    if d is None:
        return "far"
    if d == 0:
        return "in"
    sign = "+" if d > 0 else "-"
    a = abs(d)
    return f"{sign}{a}" if a <= 3 else f"{sign}4-6" if a <= 6 else f"{sign}7+"


class MentionContext(NamedTuple):
    """What a mention's candidates share: its words, its sentence's cue words, the rules' reading."""

    currency: bool
    percent: bool
    word_number: bool
    rule_cat: str
    rule_rate: bool
    sentence_each: bool
    sentence_per: bool
    question: bool  # the mention is in the question's sentence (the last)
    next_word: str  # the word right after the mention ("" at a sentence end)
    prev_word: str
    kind: str
    adjacent: bool  # the mention's own words say a rate ("$12 an hour", "3 per box", "$2 each")
    rule_scale: bool  # the rules read a scale word as the unit ("5 dozen", "2 pairs")
    of_them: bool  # "3 of them", "12 of these"

    @staticmethod
    def of(toks: Sequence[Token], m: Mention, index: TextIndex) -> MentionContext:
        first, last = mention_tokens(index, m)
        lo, hi = sentence_bounds(index, first)
        lows = set(index.lows[max(lo, first - 25) : min(hi, last + 26)])
        rnum, _, rden, _ = reading_of(m)
        nxt = toks[last + 1].low if last + 1 < hi else ""
        prev = toks[first - 1].low if first > lo else ""
        return MentionContext(
            currency="$" in m.text or (m.unit or "").startswith("$"),
            percent="%" in m.text or "percent" in m.text.lower(),
            word_number=not any(map(str.isdigit, m.text)),
            rule_cat="none" if rnum is None else category(rnum.replace("_", " ")),
            rule_rate=rden is not None,
            sentence_each=bool(lows & {"each", "every"}),
            sentence_per="per" in lows or "/" in lows,
            question=hi >= len(toks) - 1 or (hi < len(toks) and toks[hi].text == "?"),
            next_word=nxt if nxt.isalpha() else "",
            prev_word=prev if prev.isalpha() else "",
            kind=m.kind,
            adjacent=bool(_ADJACENT_RATE.search(m.text)),
            rule_scale=rnum in _SCALE_WORDS,
            of_them=nxt == "of" and last + 2 < len(toks) and toks[last + 2].low in _PRONOUNS,
        )


def unit_features(c: UnitCandidate, ctx: MentionContext) -> Features:
    """The features of one unit reading."""
    if c.lemma is None:
        f: Features = {"u:none": 1.0, f"u:none*rulecat={ctx.rule_cat}": 1.0}
        if ctx.word_number:
            f["u:none*word_number"] = 1.0
        if ctx.next_word in ("times", "more", "less", "fewer", "as"):
            f[f"u:none*next={ctx.next_word}"] = 1.0
        if ctx.of_them:
            f["u:none*of_them"] = 1.0
        if ctx.kind != "quantity":
            f[f"u:none*kind={ctx.kind}"] = 1.0
        return f
    cat = category(c.lemma.replace("_", " "))
    d = _bucket(c.distance)
    f = {f"u:cat={cat}": 1.0, f"u:d={d}": 1.0}
    if c.rule:
        f["u:rule"] = 1.0
        f[f"u:rule*cat={cat}"] = 1.0
        f[f"u:rule*d={d}"] = 1.0
        if ctx.rule_scale:
            f["u:rule*scale"] = 1.0
    if c.lemma in _SCALE_WORDS:
        f["u:scale"] = 1.0
    if c.alt:
        f["u:alt"] = 1.0
    f[f"u:lemma={c.lemma}"] = 1.0
    if c.parallel:  # each flag set in the order a score sums them in
        f["u:parallel"] = 1.0
        if c.distance is None:
            f["u:parallel_only"] = 1.0
        if c.previous:
            f["u:previous"] = 1.0
        if ctx.of_them:
            f["u:parallel*of_them"] = 1.0
    if ctx.of_them and c.rule:
        f["u:rule*of_them"] = 1.0
    if c.after_of:
        f["u:after_of"] = 1.0
    if ctx.currency:
        f[f"u:currency*cat={cat}"] = 1.0
    if ctx.percent:
        f[f"u:percent*cat={cat}"] = 1.0
    if c.distance is not None:
        f[f"u:d={d}*cat={cat}"] = 1.0
        if c.rule:
            f["u:rule*near"] = 1.0
    if ctx.rule_cat != "none" and not c.rule:
        f[f"u:other*rulecat={ctx.rule_cat}"] = 1.0
    return f


def per_features(c: PerCandidate, ctx: MentionContext, unit_lemma: str | None) -> Features:
    """The features of one per reading (``unit_lemma``: the rules' unit, which a per must differ from)."""
    if c.lemma is None:
        f: Features = {"p:none": 1.0, f"p:none*rulecat={ctx.rule_cat}": 1.0}
        if c.rule:  # each flag set in the order a score sums them in
            f["p:none*rule"] = 1.0
            if ctx.adjacent:
                f["p:none*rule*adjacent"] = 1.0
        if ctx.adjacent:
            f["p:none*adjacent"] = 1.0
        if c.alt:
            f["p:none*alt"] = 1.0
        if ctx.sentence_each:
            f["p:none*sentence_each"] = 1.0
        if ctx.sentence_per:
            f["p:none*sentence_per"] = 1.0
        if ctx.question:
            f["p:none*question"] = 1.0
        if ctx.next_word in ("each", "per", "a", "an", "every", "apiece"):
            f[f"p:none*next={ctx.next_word}"] = 1.0
        f[f"p:none*prev={ctx.prev_word}"] = 1.0  # the word before the number ("costs", "earns", "for")
        f[f"p:none*next_word={ctx.next_word}"] = 1.0
        return f
    cat = category(c.lemma.replace("_", " "))
    d = _bucket(c.distance)
    f = {f"p:cat={cat}": 1.0, f"p:d={d}": 1.0, f"p:cue={c.cue}": 1.0}
    f[f"p:cue={c.cue}*d={d}"] = 1.0
    f[f"p:cat={cat}*rulecat={ctx.rule_cat}"] = 1.0
    if c.rule:
        f["p:rule"] = 1.0
        if ctx.adjacent:
            f["p:rule*adjacent"] = 1.0
    if c.alt:
        f["p:alt"] = 1.0
        f[f"p:alt*rulecat={ctx.rule_cat}"] = 1.0
    if c.in_mention:
        f["p:in_mention"] = 1.0
    if not c.head:
        f[f"p:not_head*cue={c.cue}"] = 1.0
    if c.distance is not None:
        side = "before" if c.distance < 0 else "after"
        f[f"p:{side}*crossed={c.crossed}"] = 1.0
        f[f"p:{side}*crossed={c.crossed}*cue={c.cue}"] = 1.0
        if ctx.next_word in ("each", "apiece", "per") and side == "before":
            f[f"p:before*next={ctx.next_word}*crossed={c.crossed}"] = 1.0
    if unit_lemma is not None and c.lemma == unit_lemma:
        f["p:same_as_unit"] = 1.0
    if ctx.currency:
        f[f"p:currency*cat={cat}"] = 1.0
    if ctx.question:
        f["p:question"] = 1.0
    f[f"p:lemma={c.lemma}"] = 1.0
    if ctx.sentence_each:
        f[f"p:sentence_each*cue={c.cue}"] = 1.0
    if ctx.next_word and c.cue is not None and c.distance is not None and 0 < c.distance <= 3:
        f[f"p:next={ctx.next_word}"] = 1.0
    return f
