"""Evidence for grounding: the words around a number of a solution and around a quantity of a text (edge).

A solution line usually says what its numbers are: ``He spent 4 * $3 = $<<4*3=12>>12 on
notebooks`` writes the ``3`` as ``$3``; ``2 grams/antacid * 2 antacids`` names both 2s;
``Katy buys twice as many as Brock: 2 x 7`` repeats the question's words.  These are the
signals :mod:`ssbg.reading.grounding` weighs when several quantities have a literal's value
(ADR 0018):

- a literal's **twin**: the same number written in the line's prose, right before the
  annotation, with the unit words attached to it (:func:`prose_twins`);
- the **words** of the line (:func:`words`), against the words around each candidate: a
  mention's unit and its clause (:func:`mention_context`), an earlier step's stated unit
  and line, a constant's cue.

Words are compared after a plain normalisation (lower case, a possessive and a plural ``s``
dropped, ``$`` as ``dollar``); function words do not count.

Examples
--------
>>> words("He spent 4 notebooks for $3 each")
('spent', 'notebook', 'dollar', 'each')
>>> prose_twins("He spent 4 * $3 = ", [4.0, 3.0])
(('',), ('dollar',))
>>> prose_twins("2 grams/antacid * 2 antacids = ", [2.0, 2.0])
(('gram', 'antacid'), ('antacid',))
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections.abc import Iterable, Mapping, Sequence

__all__ = ["FUNCTION_WORDS", "mention_context", "norm", "overlap", "prose_twins", "sentence_bounds", "words"]

FUNCTION_WORDS: frozenset[str] = frozenset(
    [
        "a", "an", "the", "and", "or", "but", "if", "so", "then", "than", "that", "this", "these", "those",
        "there", "here", "of", "in", "on", "at", "to", "for", "from", "by", "with", "as", "into", "onto", "per",
        "is", "are", "was", "were", "be", "been", "being", "am", "has", "have", "had", "do", "does", "did",
        "will", "would", "can", "could", "shall", "should", "may", "might", "must", "it", "its", "he", "him",
        "his", "she", "her", "hers", "they", "them", "their", "theirs", "we", "us", "our", "you", "your", "i",
        "me", "my", "mine", "who", "whom", "whose", "which", "what", "when", "where", "why", "how", "all",
        "any", "some", "no", "not", "each", "every", "much", "many", "more", "most", "less", "fewer", "few",
        "other", "another", "same", "such", "only", "just", "also", "too", "very", "up", "out", "over", "after",
        "before", "about", "again", "total", "altogether", "together", "how", "many", "much", "left",
    ]
)
"""Words that say nothing about which quantity a number is (``each`` and ``per`` do: see :func:`words`)."""

_KEEP = frozenset({"each", "per", "every"})  # function words that mark a rate: kept
_WORD = re.compile(r"\$|%|[A-Za-z][A-Za-z'\u2019-]*")
_NUMBER = re.compile(r"(?<![\w.])\$?\s?(?:\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)\s?%?")
_STOP_TWIN = frozenset({"x", "times", "plus", "minus", "divided", "by", "and", "or", "is", "are", "equals"})
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n")


@functools.lru_cache(maxsize=65536)
def norm(word: str) -> str:
    """A word as evidence compares it: a matching key, not a spelling (``cookie`` and ``cookies`` are
    one key, as ``loaf`` and ``loaves``, ``baby`` and ``babies``, ``knife`` and ``knives``).

    >>> norm("Cookies") == norm("cookie"), norm("loaves") == norm("loaf"), norm("$"), norm("Peggy's")
    (True, True, 'dollar', 'peggy')
    """
    if word == "$":
        return "dollar"
    if word == "%":
        return "percent"
    w = word.lower().replace("\u2019", "'")
    if w.endswith("'s"):
        w = w[:-2]
    w = w.strip("'-")
    if len(w) > 4 and w.endswith("ies"):
        w = w[:-3] + "y"
    elif len(w) > 4 and w.endswith(("ches", "shes", "sses", "xes")):
        w = w[:-2]
    elif len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if len(w) > 3 and w.endswith("ie"):
        w = w[:-2] + "y"
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    if len(w) > 2 and w.endswith("f"):
        w = w[:-1] + "v"
    return w


def words(text: str, start: int = 0, end: int | None = None) -> tuple[str, ...]:
    """The content words of ``text[start:end]``, normalised, in order (function words left out)."""
    return _words_of(text[start:end] if start or end is not None else text)


@functools.lru_cache(maxsize=65536)
def _words_of(text: str) -> tuple[str, ...]:
    return tuple(filter(None, map(_content_word, _WORD.findall(text))))


@functools.lru_cache(maxsize=65536)
def _content_word(word: str) -> str:
    """A word as :func:`words` keeps it (:func:`norm`), or ``""`` for a function word."""
    w = norm(word)
    return w if w not in FUNCTION_WORDS or w in _KEEP else ""


def overlap(line: Iterable[str], context: Mapping[str, float], cap: float = 3.0) -> float:
    """How much of ``context`` (word -> weight) a line's words cover, each word once (in the line's order:
    a sum over a set would add in hash order, and a tie could fall either way between processes), capped."""
    return min(cap, sum(map(context.get, dict.fromkeys(line), itertools.repeat(0.0))))


def sentence_bounds(text: str, at: int) -> tuple[int, int]:
    """The sentence of ``text`` around offset ``at`` (ended by ``.``, ``!``, ``?`` or a line break).

    It starts after the last end before ``at``, where ``text[:at]`` ends a sentence too ("3." of "3.5"
    at the 5: the text read up to ``at``), and stops at the first end from ``at`` on.
    """
    ends = _sentence_ends(text)
    k = bisect.bisect_left(ends, at)
    stop = ends[k] if k < len(ends) else len(text)
    if at > 0 and text[at - 1] in ".!?":
        return at, stop
    return ends[k - 1] + 1 if k else 0, stop


@functools.lru_cache(maxsize=16)  # a problem's text, asked for each mention and cue
def _sentence_ends(text: str) -> tuple[int, ...]:
    """The offsets of the characters that end a sentence of ``text`` (each end is one character)."""
    return tuple(m.start() for m in _SENTENCE_END.finditer(text))


def mention_context(text: str, start: int, end: int, unit_words: Sequence[str]) -> dict[str, float]:
    """The words that say what a quantity of ``text[start:end]`` is: its unit (weight 2); the words of its
    mention and the four before it (1: a price follows what it buys, "each loaf of bread cost $2"); the
    four after it (0.5); the rest of its sentence (0.3).  The windows stop at another number."""
    s_start, s_end = sentence_bounds(text, start)
    base, ends = _sentence_context(text, s_start, s_end)
    context = base.copy()
    left = _left_stop(text, s_start, start, ends)
    right = _NUMBER.search(text, end, s_end)
    for w in words(text, end, s_end if right is None else right.start())[:4]:
        context[w] = max(context.get(w, 0.0), 0.5)
    for w in (*words(text, left, start)[-4:], *words(text, start, end)):
        context[w] = 1.0
    for w in unit_words:
        context[w] = 2.0
    return context


@functools.lru_cache(maxsize=64)  # a sentence, asked for each of its mentions and cues
def _sentence_context(text: str, s_start: int, s_end: int) -> tuple[dict[str, float], tuple[int, ...]]:
    """A sentence's words at weight 0.3, and the ends of the numbers ``_NUMBER`` finds in it, read once: each
    mention of a long sentence would otherwise read the whole sentence again (issue 27: quadratic)."""
    ends = tuple(m.end() for m in _NUMBER.finditer(text, s_start, s_end))
    return dict.fromkeys(words(text, s_start, s_end), 0.3), ends


def _left_stop(text: str, s_start: int, start: int, ends: Sequence[int]) -> int:
    """Where the window before a mention at ``start`` begins: the end of the last number found scanning the
    sentence from ``s_start`` up to ``start`` (``_NUMBER.finditer(text, s_start, start)``), or ``s_start``.

    The whole sentence's scan finds the same numbers as the scan cut at ``start`` for every number ending
    before ``start`` (a match is decided by the characters up to one past its end); from the last of them the
    cut scan is run as it is, over the few characters left, so the result is the cut scan's exactly."""
    k = bisect.bisect_left(ends, start)  # ends[:k] end before start
    left = ends[k - 1] if k else s_start
    for m in _NUMBER.finditer(text, left, start):
        left = m.end()
    return left


def _twin_words(segment: str, end: int) -> tuple[str, ...]:
    """The unit words written right after a number of ``segment`` (up to two, ``/word`` too)."""
    out: list[str] = []
    for m in _WORD.finditer(segment, end):
        gap = segment[end : m.start()]
        if gap.strip(" /") or len(out) == 2:
            break
        w = m.group()
        if w.lower() in _STOP_TWIN:
            break
        out.append(norm(w))
        end = m.end()
    return tuple(out)


def prose_twins(segment: str, values: Sequence[float]) -> tuple[tuple[str, ...], ...]:
    """For each literal value, the unit words its twin carries in ``segment`` (the prose of a line before
    an annotation), or ``()`` where no twin is found.

    A twin is the same number written in the prose, the literals' values in their order: among the ways
    to find them in order, the one whose numbers carry the most unit words and stand nearest the
    annotation.  A ``$`` before a number is the word ``dollar``, a ``%`` after it ``percent``; ``''``
    stands for a twin written bare ("3*4 = " restating "3 foxes catch 4 weasels").
    """
    found: list[tuple[float, tuple[str, ...]]] = []
    for m in _NUMBER.finditer(segment):
        raw = m.group().strip()
        try:
            value = float(raw.strip("$%").replace(",", "").strip())
        except ValueError:  # pragma: no cover - the regex admits numbers only
            continue
        attached = _twin_words(segment, m.end())
        if raw.startswith("$"):
            attached = ("dollar", *attached)
        if raw.endswith("%"):
            attached = ("percent", *attached)
        found.append((value, attached or ("",)))
    if not values or len(found) > 60:
        return tuple(() for _ in values)
    best = _best_in_order(found, values)
    if best is not None:
        return best
    out: list[tuple[str, ...]] = []
    for w in values:
        same = [attached for v, attached in found if _same(v, w)]
        out.append(same[0] if len(same) == 1 else ())
    return tuple(out)


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


def _best_in_order(
    found: Sequence[tuple[float, tuple[str, ...]]], values: Sequence[float]
) -> tuple[tuple[str, ...], ...] | None:
    """The in-order occurrence of ``values`` in ``found`` with the most unit words, the latest on a tie
    (a small dynamic programme: ``found`` is one line's numbers)."""
    n = len(values)
    # best[j] = (score, picks) for the first j values matched in found[:i]
    best: list[tuple[float, tuple[int, ...]] | None] = [(0.0, ())] + [None] * n
    for i, (v, attached) in enumerate(found):
        gain = 1.0 if attached != ("",) else 0.0
        for j in range(n, 0, -1):
            prev = best[j - 1]
            if prev is None or not _same(v, values[j - 1]):
                continue
            candidate = (prev[0] + gain + 0.001 * i, (*prev[1], i))
            if best[j] is None or candidate[0] >= best[j][0]:  # type: ignore[index]
                best[j] = candidate
    last = best[n]
    if last is None:
        return None
    return tuple(found[i][1] for i in last[1])
