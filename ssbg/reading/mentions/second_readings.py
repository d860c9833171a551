"""Second readings: the other reading a mention may have (a rate per one thing, a count of a
period), kept as its ``alt_unit`` for the scorer to choose.
"""

from __future__ import annotations

import dataclasses
import re

from ssbg.reading.mentions.lemmas import _head_lemma, lemmatize
from ssbg.reading.mentions.pack import _PackTexts, _period
from ssbg.reading.mentions.vocabulary import _COUNT, _FUNCTION_WORDS, _NOT_UNITS, _PERCENT_UNITS, _PERIODIC, _TIME
from ssbg.trace import Mention

_ADJACENT_RATE = re.compile(r"(?i)/|\bper\b|\ban?\s+\w+$|\beach\b|\bevery\b|\bapiece\b")
_ONE_THING = re.compile(r"(?i)(?<![a-z])(?:a|an|one|each|every|per)\s+(?:[a-z]+\s+){0,2}?([a-z]+)(?![a-z])")
_TEXT_PERIOD = re.compile(
    r"(?i)(?<![a-z])(?:per|a|an|each|every)\s+(second|minute|hour|day|night|week|month|year)s?(?![a-z])"
    r"|(?<![a-z])(hourly|daily|nightly|weekly|monthly|yearly|annually)(?![a-z])"
)


def _second_readings(text: str, mentions: list[Mention], look: _PackTexts) -> list[Mention]:
    """Give a mention the second unit reading its words support as well (ADR 0018): binding reports a
    refusal only its first reading makes as ``ambiguous_grounding``, not as a unit mismatch.

    - A total of money or of a measure in a sentence about one thing (``a``/``one``/``each`` + a noun:
      "a bucket and 2 sides for $12.00") may be that thing's price or measure: ``$ per bucket``.
    - A duration in a text that counts time by a period (``a day``, ``weekly``) may be per that period:
      "a 10-hour shift" in a text of days is ``hours per day``.
    - A rate read from its clause rather than from words beside it (``for 2 weeks`` after "each day")
      may be the total its unit names: ``weeks``.
    """
    out: list[Mention] = []
    for m in mentions:
        unit = m.unit
        if unit is None or m.kind != "quantity" or m.source != "text" or unit in _PERCENT_UNITS:
            out.append(m)
            continue
        hit = look.lookup(unit)
        second: str | None = None
        if " per " in unit:
            if not _ADJACENT_RATE.search(m.text):
                second = unit.partition(" per ")[0]
        elif hit is not None and hit.dimension != _COUNT and not hit.is_rate:
            start, end = _sentence_of(text, m.start)
            if hit.dimension == _TIME:
                period = _TEXT_PERIOD.search(text)
                name = None if period is None else (period.group(1) or _PERIODIC[period.group(2).lower()])
                if name is not None and lemmatize(name) != _head_lemma(unit):
                    second = f"{unit} per {name}"
            else:
                for thing in _ONE_THING.finditer(text, start, end):
                    noun = thing.group(1)
                    if noun.lower() not in _FUNCTION_WORDS and lemmatize(noun) != _head_lemma(unit) and _period(
                        look, noun
                    ) is None and noun.lower() not in _NOT_UNITS:
                        second = f"{unit} per {noun}"
                        break
        if second is not None and second != unit and look.lookup(second) is not None:
            out.append(dataclasses.replace(m, alt_unit=second))
        else:
            out.append(m)
    return out


def _sentence_of(text: str, at: int) -> tuple[int, int]:
    start = max(text.rfind(".", 0, at), text.rfind("?", 0, at), text.rfind("!", 0, at)) + 1
    ends = [e for e in (text.find(".", at), text.find("?", at), text.find("!", at)) if e >= 0]
    return start, min(ends) if ends else len(text)
