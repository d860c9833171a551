"""The question: where it is in the text, the unit it states (``how many apples``), and the unit it
asks by a dimension's wh-word (``how far``) or noun (``how much profit``, ``what is the total cost``).
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType

from ssbg.reading.mentions.lemmas import is_plural_noun, lemmatize
from ssbg.reading.mentions.nouns import _noun_run
from ssbg.reading.mentions.pack import _pack_texts, _pack_unit, _PackTexts
from ssbg.reading.mentions.rates import _rate_suffix
from ssbg.reading.mentions.tokens import _TOKEN_END, _TOKEN_START, Token, _words, tokenize
from ssbg.reading.mentions.units import _angle_reading
from ssbg.reading.mentions.vocabulary import (
    _A,
    _AUXILIARIES,
    _LENGTH,
    _MASS,
    _MODIFIERS,
    _MONEY,
    _NOT_UNITS,
    _ONE_THING_PREPOSITIONS,
    _PERIODIC,
    _TIME,
)
from ssbg.trace import Mention
from ssbg.units import UnitPack, UnitVector, default_pack

_CONVERTING = frozenset(_words("convert express write rewrite change round"))


_PERCENT_ASKED = frozenset({"percent", "percentage"})


# Words that open a clause of its own after the asked unit: a rate in it is not the answer's.
_CLAUSE_OPENERS = frozenset({"that", "which", "who", "whose", "if", "when", "since", "because"})


def question_unit(
    text: str,
    start: int = 0,
    end: int | None = None,
    *,
    pack: UnitPack | None = None,
    tokens: Sequence[Token] | None = None,
    mentions: Sequence[Mention] | None = None,
) -> str | None:
    """The answer unit a question states (``How many clips ...`` -> ``clips``), or None.

    Reads ``how many <noun>`` (with a rate when the question says ``each Y`` /
    ``per Y``), ``how much <pack unit>``, an ``in <pack unit>`` that closes the
    question or stands between commas (``, in dollars ,``), also as a rate
    (``in miles per hour``, ``in clients per hour``), and a closing ``to`` /
    ``as`` ``(a) <pack unit>`` (``Convert 0.176 to a percent.``), and ``what
    percent`` / ``what percentage`` (``percent``).  Dimension words (``money``,
    ``time``) are not units: they give None.  With the problem's ``mentions``, a
    question that states no unit but asks a dimension by its wh-word (``How far``)
    takes the text's one unit of that dimension (:func:`asked_unit`).

    >>> question_unit("How many oranges must go in each box?")
    'oranges per box'
    >>> question_unit("How long will it take, in minutes?")
    'minutes'
    >>> question_unit("At what rate, in clients per hour, do they work?")
    'clients per hour'
    >>> question_unit("How much money does she have?") is None
    True
    >>> question_unit("For what number of minutes will each of the plans cost the same?")
    'minutes'
    """
    look = _pack_texts(default_pack() if pack is None else pack)
    toks = _span_tokens(text, start, end, tokens)  # the question's tokens, sliced once for both readings
    stated = _angle_reading(_stated_unit(text, toks, look), text, look)  # "How many degrees is the angle?"
    if stated is not None or mentions is None:
        return stated
    return _asked_unit(toks, mentions, look)


_ASKS = re.compile(r"(?i)(how|what|find|calculate|determine|compute|convert|express|give)\b")


def _sentence_start(text: str, end: int) -> int:
    """Where the sentence that ends at ``end`` starts: after the last run of ``.``, ``!`` or ``?`` before
    it that a space (or the end of the text) follows, else at 0.  Searched backwards with ``str.rfind``:
    a question is most often the last sentence, and a scan of the whole text would cost more."""
    hi = end - 1  # a terminator at hi - 1 or before ends a sentence before ``end``
    while True:
        k = max(text.rfind(".", 0, hi), text.rfind("!", 0, hi), text.rfind("?", 0, hi))
        if k < 0:
            return 0
        if text[k + 1].isspace():
            return k + 1
        hi = k  # "$3.50": not followed by a space, so the sentence goes on


def find_question_span(text: str) -> tuple[int, int] | None:
    """The span of a text's question: its last sentence ending in ``?`` (or starting with How/What/Find).

    A full stop inside a number (``$3.50``) ends no sentence.

    >>> t = "Ann has 3.5 apples. How many does she have?"
    >>> t[slice(*find_question_span(t))]
    'How many does she have?'
    """
    asked: tuple[int, int] | None = None
    end = len(text.rstrip())
    while end > 0:  # the sentences from the last one back
        first = _sentence_start(text, end)
        chunk = text[first:end]
        begin = first + len(chunk) - len(chunk.lstrip())
        if begin < end:
            if text[end - 1] == "?":
                return begin, end
            if asked is None and _ASKS.match(text, begin):
                asked = (begin, end)
        end = first
    return asked


def _span_tokens(text: str, start: int, end: int | None, tokens: Sequence[Token] | None) -> Sequence[Token]:
    """The tokens of ``text[start:end]``: taken from ``tokens`` when the caller has them."""
    stop = len(text) if end is None else end
    if tokens is None:
        return tokenize(text, start, stop)
    lo = bisect.bisect_left(tokens, start, key=_TOKEN_START)  # the offsets grow: two searches, no scan
    return tokens[lo : bisect.bisect_right(tokens, stop, lo, key=_TOKEN_END)]


def _stated_unit(text: str, toks: Sequence[Token], look: _PackTexts) -> str | None:
    """The unit a question (its tokens ``toks`` of ``text``) writes out (see :func:`question_unit`):
    the first of :data:`_STATED_READINGS` that reads one.  A reading's ``""`` is final: the question
    states that it asks no unit (``how many times``)."""
    for reading in _STATED_READINGS:
        unit = reading(text, toks, look)
        if unit is not None:
            return unit or None
    return None


def _how_many_unit(text: str, toks: Sequence[Token], look: _PackTexts) -> str | None:
    """``How many apples``, ``how much money``, ``for what number of minutes``, with the rate that
    follows in the question (``how many miles per hour``)."""
    for i in range(len(toks) - 1):
        asked = _how_many_at(toks, i)
        if asked is None:
            continue
        written = _asked_noun(text, toks, *asked, look)
        if written is None:
            continue
        unit, k = written
        if unit.lower() in ("times", "time"):
            return ""
        if not asked[0] and _asked_noun_dimension(unit.lower()) is not None:
            return None  # "how much profit": a dimension's noun, no unit (asked_unit reads it)
        return _with_question_rate(toks, unit, k, look)
    return None


def _how_many_at(toks: Sequence[Token], i: int) -> tuple[bool, int] | None:
    """``how many`` / ``how much`` (or ``what number of``, a how-many) at ``i``: (many, the index after)."""
    if toks[i].low == "how" and toks[i + 1].low in ("many", "much"):
        return toks[i + 1].low == "many", i + 2
    if toks[i].low == "what" and i + 2 < len(toks) and toks[i + 1].low == "number" and toks[i + 2].low == "of":
        return True, i + 3  # "For what number of minutes ...": how many minutes
    return None


def _asked_noun(text: str, toks: Sequence[Token], many: bool, j: int, look: _PackTexts) -> tuple[str, int] | None:
    """The unit after ``how many`` (a pack unit, else a plural noun run; ``how many are cats``) or after
    ``how much`` (a pack unit after modifiers), and the index after it."""
    n = len(toks)
    if not many:
        while j < n and toks[j].low in _MODIFIERS:
            j += 1
        return _pack_unit(toks, j, text, look, glued=False)
    if j + 1 < n and toks[j].low in _AUXILIARIES and is_plural_noun(toks[j + 1].text):
        j += 1  # "how many are cats?"
    packed = _pack_unit(toks, j, text, look, glued=False)
    if packed is not None:
        return packed
    head = _noun_run(toks, j, 2, lone=True)
    return None if head is None else (toks[head[0]].text, head[1])


_NOT_ASKED_RATES = frozenset({"one", "a", "an"})


def _with_question_rate(toks: Sequence[Token], unit: str, k: int, look: _PackTexts) -> str:
    """``unit`` with the rate the rest of its clause writes (``miles per hour``), else ``unit``."""
    n = len(toks)
    for m in range(k, n):
        if toks[m].low in _CLAUSE_OPENERS:
            break  # "pounds of hamburger that costs 1.60 dollars per pound", "if each pig needs 3 gallons"
        if toks[m].low == "each" and m + 1 < n and toks[m + 1].low == "of":
            continue  # "will each of you have saved": each person, not a rate
        if m + 1 < n and toks[m].low in _ONE_THING_PREPOSITIONS and toks[m + 1].low in _NOT_ASKED_RATES:
            continue  # "how many miles in one day": a question asks the total of that one day
        if m > k and toks[m].low in _PERIODIC:
            continue  # "how many weeks of daily tea": a periodic word of another noun
        rate = _rate_suffix(toks, m, look)
        if rate is not None and (toks[m].low not in _A or m == k):
            return f"{unit} per {rate[0]}"
    return unit


def _closing_unit(text: str, toks: Sequence[Token], look: _PackTexts) -> str | None:
    """A unit that closes the question after ``in`` / ``as`` (``How far is it in miles?``), or after
    ``to`` in a conversion (``Convert 0.176 to a percent.``); ``, in clients per hour,`` set off by commas."""
    for i in range(len(toks) - 2):
        unit = _closing_unit_at(text, toks, i, look)
        if unit is not None:
            return unit
    return None


def _closing_unit_at(text: str, toks: Sequence[Token], i: int, look: _PackTexts) -> str | None:
    """:func:`_closing_unit` at the ``in`` / ``to`` / ``as`` of token ``i``."""
    n = len(toks)
    low = toks[i].low
    if low not in ("in", "to", "as") or (low == "to" and not any(t.low in _CONVERTING for t in toks[:i])):
        return None  # "to <unit>" only in a conversion ("Convert 0.176 to a percent."), not "add to a cup"
    j = i + 2 if low != "in" and toks[i + 1].low in _A else i + 1
    packed = _pack_unit(toks, j, text, look, glued=False)
    aside = low == "in" and i > 0 and toks[i - 1].text == ","
    open_noun = packed is None and aside and j + 1 < n and toks[j + 1].low == "per"
    if open_noun and is_plural_noun(toks[j].text) and lemmatize(toks[j].text) not in _NOT_UNITS:
        packed = toks[j].text, j + 1  # ", in clients per hour": an open noun, only as a rate set off by a comma
    if packed is None:
        return None
    unit, k = packed
    rate = _rate_suffix(toks, k, look) if k < n and toks[k].low == "per" else None
    if rate is not None:
        unit, k = f"{unit} per {rate[0]}", rate[1]
    elif open_noun:
        return None
    closes = k == n - 1 and toks[k].text in ("?", ".")
    return unit if closes or (aside and k < n and toks[k].text in (",", "?", ".")) else None


def _percent_asked(text: str, toks: Sequence[Token], look: _PackTexts) -> str | None:
    """``What percent(age) of the students passed?``"""
    for i in range(len(toks) - 1):
        if toks[i].low in ("what", "which") and toks[i + 1].low in _PERCENT_ASKED:
            return "percent"
    return None


# The readings of a unit a question writes out, in the order they are tried.
_STATED_READINGS: tuple[Callable[[str, Sequence[Token], _PackTexts], str | None], ...] = (
    _how_many_unit,
    _closing_unit,
    _percent_asked,
)
# A question that asks a dimension by its wh-word states no unit ("How far did she run?"): the
# unit is the one the text uses for that dimension.  "how long" asks a time only with a verb of
# duration ("How long will it take"); "How long is the rope?" may ask a length and is left alone.
_ASKED_DIMENSION: Mapping[str, UnitVector] = MappingProxyType({
    "far": _LENGTH, "tall": _LENGTH, "high": _LENGTH, "deep": _LENGTH, "wide": _LENGTH,
    "heavy": _MASS, "old": _TIME, "fast": UnitVector(length=1, time=-1),
})  # fmt: skip
# The nouns of a question that ask a dimension without naming a unit ("How much profit did she make?",
# "What is the total cost?"): the answer is in the text's one unit of that dimension.  The money nouns
# are issue 36's ('profit', 'change': 6 of 33 target refusals on unseen GSM8K problems).
_ASKED_BY_NOUN: Mapping[str, UnitVector] = MappingProxyType({
    **dict.fromkeys(_words("""money profit cost change price revenue income earnings saving savings salary wage
        tip budget bill fee payment rent allowance spending expense debt balance deposit donation worth
        commission bonus refund discount sales"""), _MONEY),
    **dict.fromkeys(_words("weight"), _MASS),
    **dict.fromkeys(_words("distance"), _LENGTH),
})  # fmt: skip
_WEIGH = frozenset(_words("weigh weighs weighed"))
_DURATION = frozenset(_words("take takes took taken last lasts lasted"))
_PAYING = frozenset(_words("""money cost costs spend spends spent pay pays paid earn earns earned worth profit
    charge charges charged owe owes owed save saves saved make makes made sell sells sold receive receives
    received collect collects collected raise raises raised donate donates donated contribute contributes
    contributed"""))
_PERIODS = frozenset(_words("second minute hour day night week month year"))
_WH = frozenset(_words("what calculate find determine compute"))  # a question that asks by a noun
_HEAD_ENDS = frozenset(_words("""of if on for to in at with that which when would will can could does did do should
    after before per from by she he they it you we i"""))  # the words that end a what-question's head phrase
_EACH = frozenset(_words("each every apiece"))  # a rate of what is asked: "how far will each member run"
_ONE = frozenset(_words("per a an one"))  # money for one of something is a price: "how much does a ticket cost"


def asked_unit(
    text: str,
    mentions: Sequence[Mention],
    start: int = 0,
    end: int | None = None,
    *,
    pack: UnitPack | None = None,
    tokens: Sequence[Token] | None = None,
) -> str | None:
    """The unit a question asks for by its wh-word alone, as the text writes it, or None.

    ``how far / tall / high / deep / wide`` ask a length, ``how heavy`` and ``how much ... weigh``
    a mass, ``how old`` a time (an age), ``how fast`` a speed, ``how long`` with ``take`` or
    ``last`` a time, ``how much`` with ``money``, ``cost``, ``spend``, ``pay``, ``earn`` ... a sum
    of money; ``how much`` or a ``what`` / ``find`` / ``calculate`` question with a noun of money
    (``profit``, ``change``, ``cost``, ``savings`` ...), weight or distance asks that dimension.
    The answer is in the one unit of that dimension the mentions use (compared by lemma, so ``1 mile
    ... 3 miles`` is one unit); with none or several, None: the question does not say which.  A
    question of ``each`` / ``every`` asks a rate of the dimension, and one of money with ``per`` or
    ``average``, ``a`` / ``an`` / ``one`` right after ``how much``, or ``a week`` may ask a price or a
    rate: both are left alone.

    >>> from ssbg.reading.mentions import extract_mentions
    >>> text = "If 500 sheets of paper weigh 7 pounds, how much do 2 sheets weigh?"
    >>> asked_unit(text, extract_mentions(text), text.index("how"))
    'pounds'
    >>> text = "She ran 3 miles and then 2 kilometers. How far did she run?"
    >>> asked_unit(text, extract_mentions(text), text.index("How")) is None
    True
    """
    look = _pack_texts(default_pack() if pack is None else pack)
    return _asked_unit(_span_tokens(text, start, end, tokens), mentions, look)


def _asked_unit(toks: Sequence[Token], mentions: Sequence[Mention], look: _PackTexts) -> str | None:
    """:func:`asked_unit` over the question's own tokens ``toks``."""
    wanted = _asked_dimension([t.low for t in toks])
    if wanted is None:
        return None
    found: dict[str, str] = {}  # lemma -> the unit as first written
    for m in mentions:
        if m.unit is None:
            continue
        resolved = look.lookup(m.unit)
        if resolved is not None and resolved.dimension == wanted:
            found.setdefault(resolved.lemma, m.unit)
    return next(iter(found.values())) if len(found) == 1 else None


def _asked_dimension(lows: Sequence[str]) -> UnitVector | None:
    """The dimension a question's lower-case words ask with no unit named, or None (:func:`asked_unit`)."""
    if any(w in _EACH for w in lows):
        return None
    for i in range(len(lows) - 1):
        if lows[i] == "how":
            wanted, by = _how_asks(lows[i + 1], lows[i + 2 :])
            if by and _one_priced(lows, i + 2):  # a price of one thing: a noun's question left alone, a verb's
                if by == "noun":  # not taken (the next "how" may still ask)
                    return None
                continue
            if wanted is not None:
                return wanted
    if lows and lows[0] in _WH and "many" not in lows and not _one_priced(lows, 1):
        # the head noun asks ("What is the total cost?"), not a noun after it ("What mileage keeps you within
        # your budget?", "What was the percent of discount?": MAWPS names those unknowns miles and percent)
        nouns = map(_asked_noun_dimension, _head_phrase(lows[1:]))
        return next((d for d in nouns if d is not None), None)
    return None


def _how_asks(nxt: str, rest: Sequence[str]) -> tuple[UnitVector | None, str]:
    """What ``how`` + ``nxt`` followed by ``rest`` asks: its dimension or None, and ``"noun"`` (a money noun,
    "how much profit") or ``"verb"`` (a paying verb, "how much did she pay") when asking a price of one thing
    would change it, else ``""``."""
    if nxt in _ASKED_DIMENSION:
        return _ASKED_DIMENSION[nxt], ""
    if nxt == "much" and any(w in _WEIGH for w in rest):
        return _MASS, ""
    if nxt == "much" and rest and _asked_noun_dimension(rest[0]) is not None:
        wanted = _asked_noun_dimension(rest[0])  # "how much profit", "how much weight"
        return wanted, "noun" if wanted == _MONEY else ""
    if nxt == "much" and any(w in _PAYING for w in rest):
        return _MONEY, "verb"
    if nxt == "long" and any(w in _DURATION for w in rest):
        return _TIME, ""
    return None, ""


def _head_phrase(lows: Sequence[str]) -> list[str]:
    """The words of a what-question up to the first that ends its head phrase (``amount of``, ``sum of`` and
    ``total of`` go on): "is the lowest price" of "What is the lowest price she can pay"."""
    phrase: list[str] = []
    for w in lows:
        if w in _HEAD_ENDS and not (w == "of" and phrase and phrase[-1] in ("amount", "sum", "total")):
            break
        phrase.append(w)
    return phrase


def _asked_noun_dimension(low: str) -> UnitVector | None:
    """The dimension a question's noun asks (``profits`` as ``profit``: the plural by its ``s``, no lemmatizer)."""
    return _ASKED_BY_NOUN.get(low) or (_ASKED_BY_NOUN.get(low[:-1]) if low.endswith("s") else None)


def _one_priced(lows: Sequence[str], j: int) -> bool:
    """Whether a question of money asks a price or a rate: ``per`` or ``average`` anywhere, ``a`` / ``an`` /
    ``one`` within three words after ``how much`` ("how much does a ticket cost"; not "if she pays with a
    $20 bill"), or before a period ("how much does he make a week")."""
    if "per" in lows or "average" in lows or any(w in _ONE for w in lows[j : j + 3]):
        return True
    return any(w in _ONE and nxt in _PERIODS for w, nxt in itertools.pairwise(lows))
