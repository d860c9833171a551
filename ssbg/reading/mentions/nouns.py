"""Noun runs: the count noun after a number (``26 salty cookies``), a noun or a verb at a token,
compound heads, and the nouns a sentence counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ssbg.reading.mentions.lemmas import _invariant_plural, is_plural_noun, lemmatize
from ssbg.reading.mentions.tokens import Token, _words
from ssbg.reading.mentions.vocabulary import _A, _BEARING, _FUNCTION_WORDS, _MODIFIERS, _NOT_UNITS, _SMALL, _TENS


def _noun_run(
    toks: Sequence[Token],
    j: int,
    value: float | int,
    *,
    plural_only: bool = False,
    partitive: bool = False,
    lone: bool = False,
) -> tuple[int, int] | None:
    """Index of the head noun after a number (skipping modifiers) and the next index.

    The first plural noun of the next few words (past a capitalized modifier: ``60 Christmas presents``);
    failing that (unless ``plural_only``), a lone word or the head of a two-word run after a ``1``, and a
    lone word after another number only when its plural is itself (``3 fish``, not ``the two take``);
    after ``of the`` (``partitive``) the first word (``26 of the blowfish stay``); with ``lone`` any lone
    word (a question's ``how many emus``).  The run stops at a verb (:func:`_run_verb`: ``One ham
    sandwich requires``).
    """
    if partitive:
        value = 0  # "one of the brown bags": the noun is plural
    run = _run_words(toks, j, value)
    for at, idx in enumerate(run):
        if toks[idx].text[0].isupper() and idx != run[0]:
            break
        if value == 1 and at == 0 and is_plural_noun(toks[idx].text) and toks[j - 1].low == "one":
            return None  # "one exceeds the other": a pronoun and its verb
        if is_plural_noun(toks[idx].text):
            if at + 1 < len(run) and toks[idx].text[0].isupper() and is_plural_noun(toks[run[at + 1]].text):
                continue  # "60 Christmas presents": a name before the noun
            return (idx, idx + 1) if toks[idx].low not in _NOT_UNITS else None
    if plural_only or not run or any(toks[idx].low in _NOT_UNITS for idx in run):
        return None
    if value == 1 or partitive or (len(run) == 1 and (lone or _invariant_plural(toks[run[0]].low))):
        head = run[0] if partitive else run[-1]  # "one mini tissue box": the compound's head
        if toks[head].text[0].isupper() and len(toks[head].text) > 1 and not toks[head].text.isupper():
            return None  # a name, not a unit
        return head, head + 1
    return None


def _run_words(toks: Sequence[Token], j: int, value: float | int) -> list[int]:
    """The indices of the (at most three) content words after a number at ``j``: past two modifiers or
    participles (``5 more apples``, ``one grilled cheese sandwich``) and possessors (``four children's
    tickets``), up to a function word or a verb (:func:`_run_verb`)."""
    n = len(toks)
    k = j
    skipped = 0
    while k < n and skipped < 2 and (
        toks[k].low in _MODIFIERS or (_participle(toks[k].low) and k + 1 < n and toks[k + 1].kind == "word")
    ):
        k += 1
        skipped += 1
    run: list[int] = []
    while k < n and len(run) < 3 and toks[k].kind == "word" and toks[k].low not in _FUNCTION_WORDS:
        if toks[k].low.endswith(("n't", "n\u2019t")):
            break  # "how many don't eat": a verb
        if toks[k].low.endswith(("'s", "\u2019s", "s'")) and k + 1 < n and toks[k + 1].kind == "word":
            k += 1  # "four children's tickets": the possessor is not the unit
            continue
        if (run and _run_verb(toks, run[-1], k, value)) or (not run and _verb_at(toks, k)):
            break  # "One ham sandwich requires", "each one selling for $2"
        run.append(k)
        k += 1
    return run


def _run_verb(toks: Sequence[Token], last: int, k: int, value: float | int) -> bool:
    """Whether the word at ``k``, after the run's word at ``last``, is a verb that ends the noun run:
    a bearing verb, a past tense or an adverb (``3 pens cost``, ``2 boys bought``); after a 1, a name or,
    after one singular noun, a word in ``-s`` (``One ham sandwich requires``, ``one day Sam``)."""
    low = toks[k].low
    if low in _BEARING or _verbish(low) or _adverb(low):
        return True
    if value == 1 and toks[k].text[0].isupper() and not toks[last].text[0].isupper():
        return True  # "one day Sam": a name after the noun
    return value == 1 and is_plural_noun(toks[k].text) and not is_plural_noun(toks[last].text)


_ADVERB_ENDINGS = ("ally", "ently", "antly", "ously", "ively", "edly", "ately", "ctly", "omly", "ularly", "etely")


def _adverb(low: str) -> bool:
    """An adverb in ``-ly`` (``normally``, ``currently``, ``exactly``), never a unit (``family``,
    ``butterfly`` and ``supply`` are nouns).

    >>> _adverb("normally"), _adverb("exactly"), _adverb("family"), _adverb("supply")
    (True, True, False, False)
    """
    return low.endswith(_ADVERB_ENDINGS)


def _noun_at(toks: Sequence[Token], j: int) -> int | None:
    """The index of the content word at ``j`` (after modifiers: ``each additional minute``), or None:
    never a number word or a verb (``they each bought``: :func:`_verbish`)."""
    n = len(toks)
    while j + 1 < n and (toks[j].low in _MODIFIERS or _participle(toks[j].low)) and toks[j + 1].kind == "word":
        j += 1  # "each additional minute", "one grilled cheese sandwich"
    low = toks[j].low if j < n else ""
    if (
        j < n
        and toks[j].kind == "word"
        and (low not in _FUNCTION_WORDS or low == "time")
        and low not in _SMALL
        and low not in _TENS
        and not _verb_at(toks, j)
        and not _adverb(low)
    ):
        return j
    return None


_OBJECT_STARTS = frozenset({*_A, "the"})


def _verb_at(toks: Sequence[Token], j: int) -> bool:
    """Whether the word at ``j`` is a verb: :func:`_verbish`, or a word in ``-ing`` before a number or an
    article (``each weighing 30 pounds``, ``each containing 15``; but ``each serving has``)."""
    low = toks[j].low
    if _verbish(low):
        return True
    if not low.endswith("ing") or j + 1 >= len(toks):
        return False
    nxt = toks[j + 1]
    return nxt.kind == "num" or nxt.low in _SMALL or nxt.low in _TENS or nxt.low in _OBJECT_STARTS


# Verbs in the past and verbs of having, that a noun never is: "the two men each bought 30 apples".
_VERBS = frozenset(
    _words(
        """bought got took taken gave given paid spent ate eaten made sold sent kept won lost found held brought
        caught drove driven rode ran wrote written grew grown threw received earned get gets give gives earn
        earns weigh weighs hold holds contain contains require requires take takes receive receives eat eats
        buy buys sell sells spend spends costs need needs having selling arrive arrives exceed exceeds consisting
        containing weighing holding costing measuring equals equal deliver delivers fell"""
    )
)


def _participle(low: str) -> bool:
    """A word in ``-ed`` (a participle used as an adjective: ``grilled cheese``), never a noun."""
    return len(low) > 4 and low.endswith("ed") and not low.endswith("eed") and low != "hundred"


def _verbish(low: str) -> bool:
    """A lower-cased word that is a verb, never a noun: ``bought``, ``given``, ``grilled`` (``-ed``).

    >>> _verbish("bought"), _verbish("grilled"), _verbish("seed"), _verbish("hundred"), _verbish("box")
    (True, True, False, False, False)
    """
    return low in _VERBS or _participle(low)


def _compound_head(toks: Sequence[Token], j: int, stop: int) -> int:
    """The head of a singular compound starting at the noun ``j`` (before index ``stop``): ``bicycle
    wheel`` of "Each bicycle wheel has", ``sandwich`` of "One ham sandwich requires"; it ends at a
    function word, a verb, a name, or a plural-looking word (after a singular noun, a verb: ``holds``)."""
    while (
        j + 1 < stop
        and toks[j + 1].kind == "word"
        and toks[j + 1].low not in _FUNCTION_WORDS
        and toks[j + 1].low not in _BEARING
        and not _verbish(toks[j + 1].low)
        and not _adverb(toks[j + 1].low)
        and not toks[j + 1].text[0].isupper()
        and not is_plural_noun(toks[j + 1].text)
    ):
        j += 1  # "each pair normally cost" stops at the adverb
    return j


class _Counted(NamedTuple):
    """The lemmas of the nouns a text counts (:func:`_counted`)."""

    any: frozenset[str]  # after any number, ``how many``, ``each``, ``every`` or ``per``
    several: frozenset[str]  # after a number other than one, or ``how many``: the text has several of them


def _counted_nouns(toks: Sequence[Token]) -> frozenset[str]:
    """The lemmas of the nouns a text counts: after a number (a modifier between), ``how many``, ``each``,
    ``every`` or ``per``."""
    return _counted(toks).any


def _counted(toks: Sequence[Token]) -> _Counted:
    """The nouns a text counts, and those it has several of (memoized by the tokens' identity for the
    text being read: one pass over its tokens)."""
    key = id(toks)
    found = _COUNTED.get(key)
    if found is not None and found[0] is toks:
        return found[1]
    nouns: set[str] = set()
    several: set[str] = set()
    n = len(toks)
    for i, tok in enumerate(toks):
        counting = tok.kind == "num" or tok.low in _SMALL or tok.low in _TENS or tok.low in ("each", "every", "per")
        many = tok.low == "many" and i > 0 and toks[i - 1].low == "how"
        if not counting and not many:
            continue
        j = i + 1
        while j < n and toks[j].low in _MODIFIERS:
            j += 1
        if j < n and toks[j].kind == "word" and toks[j].low not in _FUNCTION_WORDS:
            words = [lemmatize(toks[j].text)]
            if j + 1 < n and toks[j + 1].kind == "word" and toks[j + 1].low not in _FUNCTION_WORDS:
                words.append(lemmatize(toks[j + 1].text))  # "3 chocolate bars"
            nouns.update(words)
            if many or (tok.kind == "num" and tok.text not in ("1", "1.0")) or tok.low in _TENS or (
                tok.low in _SMALL and _SMALL[tok.low] > 1
            ):
                several.update(words)
    result = _Counted(frozenset(nouns), frozenset(several))
    _COUNTED.clear()
    _COUNTED[key] = (toks, result)
    return result


_COUNTED: dict[int, tuple[Sequence[Token], _Counted]] = {}
