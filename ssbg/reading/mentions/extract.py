"""The top-level reading: every mention of a text (:func:`extract_mentions`), the mentions written
in words, and the mention at one offset.
"""

from __future__ import annotations

from collections.abc import Sequence

from ssbg.numbers import check_magnitude
from ssbg.reading.mentions.elision import _elided_unit
from ssbg.reading.mentions.numbers import _adjacent, _candidates, _may_have_number_words, _negative, _Number, _number_at
from ssbg.reading.mentions.pack import _pack_texts, _PackTexts
from ssbg.reading.mentions.second_readings import _second_readings
from ssbg.reading.mentions.tokens import Token, tokenize
from ssbg.reading.mentions.units import _angle_reading, _unit_after
from ssbg.reading.mentions.vocabulary import _CURRENCY_SYMBOLS
from ssbg.trace import Mention
from ssbg.units import UnitPack, default_pack


def extract_mentions(
    text: str, *, pack: UnitPack | None = None, tokens: Sequence[Token] | None = None
) -> tuple[Mention, ...]:
    """Every quantity mention in ``text``, sorted by offset, non-overlapping.

    Parameters
    ----------
    text
        The problem text.
    pack
        The unit pack used to recognise units and lemmas (``en_units_v1`` when None).
    tokens
        ``tokenize(text)``, when the caller has it already.
    """
    look = _pack_texts(default_pack() if pack is None else pack)
    toks = tokenize(text) if tokens is None else tokens
    out: list[Mention] = []
    n = len(toks)
    i = 0
    for candidate in _candidates(toks):
        if candidate < i:
            continue
        i = candidate
        number = _number_at(toks, i)
        if number is None:
            continue
        if _negative(toks, i) and (not out or out[-1].end <= toks[i - 1].start):
            number = number._replace(value=-number.value, start=toks[i - 1].start)
        last = toks[number.next - 1]
        if (
            number.currency is None
            and number.next < n
            and toks[number.next].text in ("¢", *_CURRENCY_SYMBOLS)
            and _adjacent(last, toks[number.next])
        ):
            unit: str | None = toks[number.next].text  # "50¢", "600$"
            k = number.next + 1
            kind = "quantity"
        else:
            unit, k, kind = _unit_after(
                toks, number.next, text, number.value, look, number.currency, last.end, i, number.kind
            )
        if unit is None and kind == "quantity" and number.kind == "quantity":
            unit = _elided_unit(toks, i, k, out, look, text)
        out.append(_mention(text, toks, number, unit, k, kind, look))
        i = k
    return tuple(_second_readings(text, out, look)) if out else ()


def worded_mentions(text: str, *, pack: UnitPack | None = None) -> tuple[Mention, ...]:
    """The mentions whose number is written in words (``two``, ``a dozen``, ``half``), read line by line.

    What :func:`extract_mentions` finds starting with a letter, at the cost of the
    lines that have a number word: a worked solution writes most of its numbers
    in digits, and reading every one of them with its unit to keep a few words
    would cost ten times more.

    >>> [(m.text, m.value) for m in worded_mentions("48/2 = 24 clips.\\nShe sold two dozen.\\n#### 72")]
    [('two dozen', 2)]
    """
    p = default_pack() if pack is None else pack
    out: list[Mention] = []
    if not _may_have_number_words(text):
        return ()
    start = 0
    size = len(text)
    while start < size:
        stop = text.find("\n", start)
        stop = size if stop < 0 else stop
        if _may_have_number_words(text[start:stop]):
            toks = tokenize(text, start, stop)
            if any(toks[i].kind == "word" for i in _candidates(toks)):
                out.extend(m for m in extract_mentions(text, pack=p, tokens=toks) if m.text[:1].isalpha())
        start = stop + 1
    return tuple(out)


def _mention(
    text: str,
    toks: Sequence[Token],
    number: _Number,
    unit: str | None,
    k: int,
    kind: str,
    look: _PackTexts,
    source: str = "text",
) -> Mention:
    """The mention from a number token run to its unit (``toks[k - 1]`` is the last token)."""
    if kind == "quantity" and number.kind == "fraction" and unit is None:
        kind = "fraction"
    end = toks[k - 1].end
    unit = _angle_reading(unit, text, look)  # "turned 90 degrees": an angle's, not a temperature
    lemma = look.unit_lemma(unit) if unit is not None else None
    value = check_magnitude(number.value)  # "a million million million": scaled past what ssbg holds
    return Mention(number.start, end, text[number.start : end], value, unit, lemma, kind, source)


def mention_at(text: str, start: int, *, pack: UnitPack | None = None, source: str = "text") -> Mention | None:
    """The mention whose number starts at ``text[start]`` (a digit or a currency symbol), or None.

    Reads only a short window; no ``each Y`` look-back.

    >>> mention_at("so everyone has 2 legs.", 16)
    Mention(start=16, end=22, text='2 legs', value=2, unit='legs', lemma='leg', kind='quantity', source='text', \
alt_unit=None, readings=())
    """
    look = _pack_texts(default_pack() if pack is None else pack)
    toks = tokenize(text, start, min(len(text), start + 120), limit=14)
    if not toks or toks[0].start != start:
        return None
    number = _number_at(toks, 0)
    if number is None:
        return None
    last = toks[number.next - 1]
    unit, k, kind = _unit_after(
        toks, number.next, text, number.value, look, number.currency, last.end, None, number.kind
    )
    return _mention(text, toks, number, unit, k, kind, look, source)
