"""Rule-based, explainable extraction of quantity mentions from English problem text (edge).

A mention is a number in the text with the unit written around it.  The rules,
tried in this order at every number:

- numbers as digits (``1,000``, ``2.5``, ``.5``), as words (``twenty-five``,
  ``a hundred``), as fractions (``3/4``, ``1 1/2``, ``two-thirds``, ``half``),
  with a scale word (``1.5 million``);
- a currency symbol before the number (``$12``, ``£5``) or a currency word after it;
- a percentage (``20%``, ``20 percent``);
- ``N times as ...`` as a pure multiplier;
- a hyphenated unit (``a 120-page book``, ``a 5-year-old``);
- a unit the pack lists, up to three words (``square feet``, ``miles per hour``);
- otherwise an open count noun: the first plural noun among the next few words,
  skipping modifiers (``26 salty cookies``, ``48 of her friends``); plurals are
  recognised and lemmatized with ``inflect``, not a hand-written table;
- then a rate: ``N X per Y``, ``$N an hour``, ``N X each``, ``N X in each Y``, or
  an ``each Y`` earlier in the same clause (``Each box holds 5 crayons``).

The unit is kept as written (``"$ per hour"``, ``"clips"``); its lemma comes from
the pack when the pack resolves it (``dollar_per_hour``), else from ``inflect``
(``clip``).  A unit outside the pack is kept, so that binding refuses it as
``unknown_unit`` naming the noun.

The rules live in rooms of this package, one family each; a room imports only rooms below it
in this order (``tests/test_layering.py`` checks it, ADR 0025): ``tokens``, ``vocabulary``,
``lemmas``, ``pack``, ``nouns``, ``numbers``, ``rates``, ``clauses``, ``prices``, ``periods``,
``bearers``, ``context_rates``, ``units``, ``elision``, ``second_readings``, ``extract``,
``question``, ``caches``.  This module only gathers the public names.

Examples
--------
>>> [(m.text, m.value, m.unit, m.lemma) for m in extract_mentions("Weng earns $12 an hour for 50 minutes.")]
[('$12 an hour', 12, '$ per hour', 'dollar_per_hour'), ('50 minutes', 50, 'minutes', 'minute')]
>>> [(m.text, m.unit, m.lemma) for m in extract_mentions("Paco had 26 salty cookies and twenty-five pies.")]
[('26 salty cookies', 'cookies', 'cookie'), ('twenty-five pies', 'pies', 'pie')]
>>> [(m.text, m.value, m.kind) for m in extract_mentions("She ate two-thirds of it, 3 times as many as 20%.")]
[('two-thirds', 0.6666666666666666, 'fraction'), ('3 times', 3, 'multiplier'), ('20%', 20, 'quantity')]
"""

from __future__ import annotations

from ssbg.reading.mentions.caches import clear_lemma_cache
from ssbg.reading.mentions.extract import extract_mentions, mention_at, worded_mentions
from ssbg.reading.mentions.lemmas import is_plural_noun, lemmatize
from ssbg.reading.mentions.pack import pack_lookup, unit_lemma
from ssbg.reading.mentions.question import asked_unit, find_question_span, question_unit
from ssbg.reading.mentions.tokens import Token, tokenize
from ssbg.reading.mentions.units import ANGLE_UNIT, angle_reading, unit_after
from ssbg.reading.mentions.vocabulary import NOT_UNITS, VULGAR_FRACTIONS

__all__ = [
    "ANGLE_UNIT",
    "NOT_UNITS",
    "VULGAR_FRACTIONS",
    "Token",
    "angle_reading",
    "asked_unit",
    "clear_lemma_cache",
    "extract_mentions",
    "find_question_span",
    "is_plural_noun",
    "lemmatize",
    "mention_at",
    "pack_lookup",
    "question_unit",
    "tokenize",
    "unit_after",
    "unit_lemma",
    "worded_mentions",
]
