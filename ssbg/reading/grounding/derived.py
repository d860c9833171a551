"""The rules that derive a number the text states without writing it (:data:`GROUNDING_RULES`, first
answer wins, for a literal with no candidate): a percentage's complement, a number the solution's
prose states, a list the text counts, a cued conversion, ``k + 1`` parts, a fallback constant, the
persons named, ``n + 1`` with self, ``two and a half``, ``every 6 months``, a number-word measure,
``1 hour 30 minutes``; most add the implicit step that makes the number."""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import re
from typing import Any

from ssbg.constants import IMPLICIT_CONSTANTS
from ssbg.numbers import parse_number
from ssbg.reading.counting import compound_measures, counted_mentions, listed_items, named_items
from ssbg.reading.cues import FALLBACK_CONSTANTS, SELF_COMPANION_CUE, find_cues
from ssbg.reading.formula import Literal, close
from ssbg.reading.grounding.candidates import _MULTIPLIERS
from ssbg.reading.grounding.state import GroundingRule, GroundingState
from ssbg.reading.mentions import mention_at, worded_mentions
from ssbg.trace import Mention, Operand, Step

# Words of an increase: "100% + p" is read for a percentage only where the text has one.
_INCREASE = re.compile(
    r"(?i)(?<![a-z])(?:more|increas\w*|rais\w*|rise[sn]?|rose|higher|bump\w*|mark(?:s|ed)?[- ]?up|interest|tax|"
    r"tips?|grow\w*|grew|gain\w*|profit\w*|return\w*|larger|bigger|longer|taller|extra|premium|inflation|up)(?![a-z])"
)


# Conversion constants "x_per_y" as (id, value, x, y): "2 weeks" x 7 days_per_week is 14 days.
def _conversion_table(*, fallback: bool) -> tuple[tuple[str, float, str, str], ...]:
    """(constant id, factor, numerator unit, denominator unit) of the ``X_per_Y`` constants: the ordinary
    ones, or the fallback ones whose cue names both units (month lengths convert no mention)."""
    return tuple(
        (c.constant_id, float(c.value), c.unit.partition("_per_")[0], c.unit.partition("_per_")[2])
        for c in IMPLICIT_CONSTANTS.values()
        if c.unit is not None
        and c.unit.count("_per_") == 1
        and (c.constant_id in FALLBACK_CONSTANTS) == fallback
        and not c.unit.endswith("_per_item")
        and not (fallback and c.unit == "day_per_month")
    )


_CONVERSIONS = _conversion_table(fallback=False)
# tried by the cued conversion rule only after every ordinary conversion
_CUED_CONVERSIONS = _conversion_table(fallback=True)
# Words of a total shared by parts ("twice as many ... in total", "combined", "share").
_SHARED = re.compile(r"(?i)(?<![a-z])(?:total|combined?|together|altogether|sum|in all|shared?|split|between)(?![a-z])")
# Words of an average or an equal share: a divisor may then count the persons (or weekdays) the text names.
_AVERAGE = re.compile(
    r"(?i)(?<![a-z])(?:average|mean|share[ds]?|sharing|equal(?:ly)?|even(?:ly)?|split|divide[ds]?|each)(?![a-z])"
)
_PLURALS = {"dollar": r"\$|dollars?", "foot": r"foot|feet"}  # a target unit as the text may write it
_EVERY = re.compile(r"(?i)(?<![a-z])every\s+$")

_COMPANION_LEMMAS = frozenset(
    {
        "friend",
        "sibling",
        "brother",
        "sister",
        "cousin",
        "classmate",
        "child",
        "kid",
        "teammate",
        "coworker",
        "roommate",
    }
)

_OPERATOR_BEFORE = re.compile(r"(?:[-+*/=(\u00d7\u00f7]|\bx)\s*\$?\s*$")
_OPERATOR_AFTER = re.compile(
    r"^\s*(?:%\s*)?(?:[=)_]|(?:[-+*/\u00d7\u00f7]|x\b)\s*[$(\d.]|\*\s*[A-Za-z](?![A-Za-z])|[A-Za-z](?![A-Za-z])\s*[-+*/=)]|\()"
)  # "10*x = 80", "2x + 4", "3(J - 11)": a coefficient of an algebra solution is arithmetic too


def _in_arithmetic(text: str, start: int, end: int) -> bool:
    """True for a number the prose writes inside arithmetic (``48/2 = ``, ``= 24``): a restated
    formula grounds nothing; only a number stated in words ("everyone has 2 legs") may."""
    return bool(_OPERATOR_BEFORE.search(text, max(0, start - 4), start)) or bool(
        _OPERATOR_AFTER.match(text[end : end + 4])
    )


_PROSE_NUMBER = re.compile(r"(?<![\w.,])(?P<cur>\$)?(?P<num>\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)")


# ============================================================================ the rules
#
# Each rule: (state, literal, the operation the literal is an operand of) -> an operand, or None.  The
# docstring is one example; comments say more.  The order is GROUNDING_RULES's, at the end.


def _says(g: GroundingState, key: str, words: re.Pattern[str]) -> bool:
    """Whether the text says ``words`` (searched once per problem, not once per number tried)."""
    return bool(g.text_reading(f"says:{key}", lambda: (words.search(g.text) is not None,))[0])


def _implicit(g: GroundingState, kind: str, operands: tuple[Operand, ...], value: float, lit: Literal) -> Operand:
    """An implicit step ``kind`` of ``operands`` whose result is ``value``, added to the state: the operand
    of the literal it explains."""
    return Operand(step=g.push(Step(kind, operands, value, None, None, True), value), text=lit.text)


def _percent_complement(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'.8*50' with '20% off': 0.8 is the implicit step 100% - 20%."""
    # Or 100% + p for a text that speaks of an increase ("1.2" or "120" for "a 20% raise").
    value = lit.value
    rising: bool | None = None
    for i in g.of_mentions("percentages", lambda: _percentages(g)):
        p = float(g.mentions[i].value)
        if close(100 - p, value) or close(1 - p / 100, value):
            kind, rest = "subtract", 100 - p
        elif close(100 + p, value) or close(1 + p / 100, value):
            if rising is None:
                rising = _INCREASE.search(g.text) is not None
            if not rising:
                continue
            kind, rest = "add", 100 + p
        else:
            continue
        cue = find_cues(g.text, 100)
        whole = Operand(constant="percent", cue=(cue[0].start, cue[0].end) if cue else None)
        return _implicit(g, kind, (whole, Operand(mention=i)), rest, lit)
    return None


def _percentages(g: GroundingState) -> tuple[int, ...]:
    """The mentions that are percentages (``20%``), by index."""
    out = []
    for i, m in enumerate(g.mentions):
        scaled = g.scaled[i]
        if m.unit is not None and scaled is not None and close(scaled * 100, float(m.value)):
            out.append(i)
    return tuple(out)


def _solution_number(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'2*3' where the solution says 'each has 2 legs': 2 is that number of the prose."""
    # Outside the annotations and outside arithmetic (a restated formula grounds nothing), nearest
    # before the formula; digits first, then number words ("two, 21 and 42").
    value = lit.value
    if g.solution is None or not g.solution_numbers:
        return None
    blanked = g.blanked_solution
    if g.prose is None:
        g.prose = tuple(
            (m.start("cur") if m.group("cur") else m.start("num"), parse_number(m.group("num")))
            for m in _PROSE_NUMBER.finditer(blanked)
            if not _in_arithmetic(blanked, m.start(), m.end())
        )
    hits = [start for start, v in g.prose if close(v, value)]
    if not hits:
        if g.prose_words is None:  # "two, 21 and 42": numbers the prose writes in words (read on need)
            g.prose_words = tuple(
                (m.start, float(m.value))
                for m in worded_mentions(blanked, pack=g.pack)
                if not _in_arithmetic(blanked, m.start, m.end)
            )
        hits = [start for start, v in g.prose_words if close(v, value)]
    if not hits:
        return None
    where = g.position if g.position is not None else len(g.solution)
    before = [start for start in hits if start < where]
    chosen = before[-1] if before else hits[0]
    for k, quoted in enumerate(g.quoted):
        if quoted.start == chosen and quoted.source == "solution":
            return Operand(mention=len(g.mentions) + k, text=lit.text)
    mention = mention_at(blanked, chosen, pack=g.pack, source="solution")
    if mention is None or not close(float(mention.value), value):
        return None
    index = g.extra_mention(mention)
    return None if index is None else Operand(mention=index, text=lit.text)


def _counted_mention(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'3*8' with 'Monday, Wednesday and Friday': 3 days the text lists (counting.counted_mentions)."""
    # "Travis and his brother" for 2.  A 1 read from "a"/"an" counts only when the solution's line of the
    # formula names its noun ("His ferret will need 1 * 4" for "a ferret").
    value = lit.value
    if g.counted_clear_of is None:  # the text mentions as they are at the first need
        g.counted_clear_of = tuple((m.start, m.end) for m in g.mentions)
    taken = g.counted_clear_of
    # the article readings give only 1 and 0: for another value they are left unread
    articles = close(value, 1) or close(value, 0)
    counted = g.reading(
        "counted" if articles else "counted_without_articles",
        lambda: tuple(
            c
            for c in counted_mentions(g.text, pack=g.pack, articles=articles)
            if not any(a < c.end and c.start < b for a, b in taken)
        ),
    )
    line: str | None = None
    for c in counted:
        if not close(float(c.value), value):
            continue
        if value in (0, 1):
            if line is None:
                line = g.solution_line()
            # the noun it counts: "a ferret", or a rate's numerator ("an ounce every hour" for "1*5 ounces")
            noun = (c.lemma or "").partition("_per_")[0].rpartition("_")[2]
            if not noun or not re.search(rf"(?i)(?<![A-Za-z]){re.escape(noun)}", line):
                continue
        index = g.extra_mention(c)
        if index is not None:
            return Operand(mention=index, text=lit.text)
    return None


def _fraction_complement(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'2/3*60' with 'a third ... the rest': 2/3 is the implicit step 1 - 1/3."""
    # Only where the text has words of a whole or a rest (the whole constant's cue).
    value = lit.value
    fractions = g.of_mentions("fractions", lambda: tuple(i for i, m in enumerate(g.mentions)
                                                          if m.kind == "fraction" and 0 < float(m.value) < 1))
    for i in fractions:
        m = g.mentions[i]
        if close(1 - float(m.value), value):
            cue = find_cues(g.text, 1)
            whole = next((c for c in cue if c.constant_id == "whole"), None)
            if whole is None:
                return None
            rest = 1 - float(m.value)
            operands = (Operand(constant="whole", cue=(whole.start, whole.end)), Operand(mention=i))
            return _implicit(g, "subtract", operands, rest, lit)
    return None


def _cued_conversion(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'14*3' with 'two weeks' and 'days': 14 is the implicit step 2 x 7 (days_per_week)."""
    # A mention converted by a cued conversion constant into a unit the text or the formula's line
    # names ("25 cents" / 100 for 0.25 where it says "dollar" or "$"); the fallback conversions last.
    value = lit.value
    where = ""
    convertible = g.of_mentions("converted", lambda: _convertible(g))
    if not convertible:
        return None
    by_head = g.of_mentions("converted_by_head", lambda: _by_head(convertible))
    for conversions, fallback in ((_CONVERSIONS, False), (_CUED_CONVERSIONS, True)):
        # the (mention, conversion) pairs whose value is the literal's, in the order of a scan of the mentions,
        # each over the conversions: found by value in each head's sorted values, not by that scan (ADR 0033)
        for _k, j, kind, target, i in _conversion_hits(dict(by_head), conversions, value):
            cid, factor = conversions[j][0], conversions[j][1]
            if not where:
                where = g.text + "\n" + g.solution_line()
            said = _PLURALS.get(target) or rf"{re.escape(target)}(?:e?s)?"
            if not re.search(rf"(?i)(?<![A-Za-z])(?:{said})(?![A-Za-z])", where):
                continue
            cues = find_cues(g.text, factor, fallback=fallback)
            cue = next((c for c in cues if c.constant_id == cid), None)
            if cue is None:
                continue
            operands = (Operand(mention=i), Operand(constant=cid, cue=(cue.start, cue.end)))
            return _implicit(g, kind, operands, value, lit)
    return None


def _by_head(convertible: tuple[tuple[int, str, float], ...]) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """Per head lemma, its convertible mentions as ``(sorted values, their (order, index))``."""
    heads: dict[str, list[tuple[float, int, int]]] = {}
    for k, (i, head, a) in enumerate(convertible):
        heads.setdefault(head, []).append((a, k, i))
    out = []
    for head, rows in heads.items():
        rows.sort()
        out.append((head, ([a for a, _, _ in rows], [(k, i) for _, k, i in rows])))
    return tuple(out)


def _near(
    index: tuple[list[float], list[tuple[int, int]]], centre: float, width: float
) -> list[tuple[float, int, int]]:
    """The ``(value, order, index)`` of a head's mentions whose value lies within ``width`` of ``centre``."""
    values, where = index
    lo = bisect.bisect_left(values, centre - width)
    hi = bisect.bisect_right(values, centre + width)
    return [(values[n], *where[n]) for n in range(lo, hi)]


def _conversion_hits(
    by_head: dict[str, Any], conversions: tuple[tuple[str, float, str, str], ...], value: float
) -> list[tuple[int, int, str, str, int]]:
    """``(order, conversion, kind, target unit, mention)`` of each mention a conversion turns into ``value``
    (``close``), sorted as a scan of the mentions, each over the conversions, meets them."""
    hits = []
    slack = 1e-8 * max(1.0, abs(value))  # wider than close()'s tolerance: close() decides
    for j, (_cid, factor, num, den) in enumerate(conversions):
        if den in by_head:
            for a, k, i in _near(by_head[den], value / factor, slack / factor):
                if close(a * factor, value):
                    hits.append((k, j, "multiply", num, i))
        if num in by_head:
            for a, k, i in _near(by_head[num], value * factor, slack * factor):
                if close(a / factor, value):
                    hits.append((k, j, "divide", den, i))
    hits.sort()
    return hits


_CONVERTED_UNITS = frozenset(u for *_, num, den in (*_CONVERSIONS, *_CUED_CONVERSIONS) for u in (num, den))


def _convertible(g: GroundingState) -> tuple[tuple[int, str, float], ...]:
    """``(index, head lemma, value)`` of the quantity mentions a conversion may convert, the first of each head
    and value (what a conversion reads of a mention: a question stating "3 kg" 2,000 times is tried once)."""
    out: dict[tuple[str, float], int] = {}
    for i, m in enumerate(g.mentions):
        if m.lemma is None or m.kind != "quantity":
            continue
        head = m.lemma.partition("_per_")[0]
        if head in _CONVERTED_UNITS:
            out.setdefault((head, float(m.value)), i)
    return tuple((i, head, a) for (head, a), i in out.items())


def _parts_of_a_multiple(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'180/3' with 'twice as many ... 180 in total': 3 is the implicit step 2 + 1 (parts of the whole)."""
    value = lit.value
    if value < 2 or not value.is_integer() or not _says(g, "shared", _SHARED):
        return None
    k = value - 1
    multiplier: Operand | None = None
    multipliers = g.of_mentions("multipliers", lambda: tuple(i for i, m in enumerate(g.mentions)
                                                              if m.kind == "multiplier"))
    for i in multipliers:
        if close(float(g.mentions[i].value), k):
            multiplier = Operand(mention=i)
            break
    else:
        cue = next((c for c in find_cues(g.text, k) if c.constant_id in _MULTIPLIERS), None)
        if cue is not None:
            multiplier = Operand(constant=cue.constant_id, cue=(cue.start, cue.end))
    if multiplier is None:
        return None
    return _implicit(g, "add", (multiplier, Operand(constant="one_part")), value, lit)


def _self_cue(g: GroundingState, *, companions: bool) -> tuple[int, int] | None:
    """The span of the words that cue ``self``: its own cue words, or (``companions``) a group named
    with a possessive (``her 2 siblings``)."""
    cue = next((c for c in find_cues(g.text, 1, fallback=True) if c.constant_id == "self"), None)
    if cue is not None:
        return cue.start, cue.end
    hit = SELF_COMPANION_CUE.search(g.text) if companions else None
    return None if hit is None else (hit.start(), hit.end())


def _fallback_constant(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'30/2' with 'every other day': 2 is the fallback constant every_other."""
    # Or self for a 1 in a sum of persons whose owner a possessive group leaves out ("Kath takes her
    # 2 siblings"); fallback cue words are too common to compete with the rules before.
    value = lit.value
    late = find_cues(g.text, value, fallback=True)
    if late:
        return Operand(constant=late[0].constant_id, cue=(late[0].start, late[0].end), text=lit.text)
    if value == 1 and op == "add":
        span = _self_cue(g, companions=True)
        if span is not None:
            return Operand(constant="self", cue=span, text=lit.text)
    return None


def _named_total(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'18/3' with 'Mark, Peter and John share equally': 3 is the implicit sum 1 + 1 + 1 of the persons."""
    # Each person (or weekday: "12 miles on Monday, 18 on Tuesday, 21 on Wednesday" averages over 3)
    # once, as a divisor, where the text speaks of an average or an equal share; before that a count
    # listed as one mention ("knives, forks, and spoons").
    value = lit.value
    if value < 2 or not value.is_integer() or not _says(g, "average", _AVERAGE):
        return None
    taken = [(m.start, m.end) for m in g.mentions]
    # "knives, forks, and spoons": a count as one mention
    for listed in g.text_reading("listed", lambda: listed_items(g.text)):
        if close(float(listed.value), value) and not any(a < listed.end and listed.start < b for a, b in taken):
            index = g.extra_mention(listed)
            if index is not None:
                return Operand(mention=index, text=lit.text)
    if op != "divide":
        return None
    for group in g.text_reading("named", lambda: named_items(g.text)):
        items = [c for c in group if not any(a < c.end and c.start < b for a, b in taken)]
        if len(items) != value or len(items) != len(group):
            continue
        if any(
            q.source == "text" and q.start < c.end and c.start < q.end and (q.start, q.end) != (c.start, c.end)
            for q in g.quoted
            for c in items
        ):
            continue  # an item overlaps another extra mention: adding some and not others would leave them
        operands = tuple(Operand(mention=i) for c in items if (i := g.extra_mention(c)) is not None)
        return _implicit(g, "add", operands, value, lit)
    return None


def _with_self(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'5*3' with 'him and his 4 friends': 5 is the implicit sum 4 + 1 (self)."""
    value = lit.value
    if value < 2 or not value.is_integer():
        return None
    companions = g.of_mentions("companions", lambda: tuple(i for i, m in enumerate(g.mentions)
                                                            if m.lemma in _COMPANION_LEMMAS))
    for i in companions:
        if not close(float(g.mentions[i].value), value - 1):
            continue
        cue = _self_cue(g, companions=True)
        if cue is None:
            return None
        operands = (Operand(mention=i), Operand(constant="self", cue=cue))
        return _implicit(g, "add", operands, value, lit)
    return None


def _and_a_half(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'2.5*12' with 'two and a half dozen': 2.5 is the implicit sum 2 + 0.5."""
    # The number takes the half's unit when it has none.
    value = lit.value
    for i in g.of_mentions("and_a_half", lambda: _and_halves(g)):
        a, b = g.mentions[i], g.mentions[i + 1]
        if not close(float(a.value) + 0.5, value):
            continue
        if a.unit is None and b.unit is not None:
            g.mentions = (*g.mentions[:i], dataclasses.replace(a, unit=b.unit, lemma=b.lemma), *g.mentions[i + 1 :])
        operands = (Operand(mention=i), Operand(mention=i + 1))
        return _implicit(g, "add", operands, value, lit)
    return None


def _and_halves(g: GroundingState) -> tuple[int, ...]:
    """The mentions followed by "and a half" (``two and a half``), by index."""
    return tuple(
        i for i, (a, b) in enumerate(itertools.pairwise(g.mentions))
        if close(float(b.value), 0.5) and re.fullmatch(r"\s+and\s+", g.text[a.end : b.start])
        and re.match(r"(?i)(?:a\s+)?half\b", b.text) and (a.unit is None or a.unit == b.unit)
    )


def _times_per_period(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'2*50' with 'every 6 months' and 'a year': 2 is the implicit step 12 / 6 (months_per_year)."""
    # A cued conversion constant over the mention, where the text or the formula's line names the longer unit.
    value = lit.value
    where = ""
    for i in g.of_mentions("periods", lambda: _periods(g)):
        m = g.mentions[i]
        a = float(m.value)
        for cid, factor, num, den in _CONVERSIONS:
            if m.lemma != num or not close(factor / a, value):
                continue
            where = where or g.text + "\n" + g.solution_line()
            said = _PLURALS.get(den) or rf"{re.escape(den)}(?:e?s)?"
            if not re.search(rf"(?i)(?<![A-Za-z])(?:{said})(?![A-Za-z])", where):
                continue
            cue = next((c for c in find_cues(g.text, factor) if c.constant_id == cid), None)
            if cue is None:
                continue
            operands = (Operand(constant=cid, cue=(cue.start, cue.end)), Operand(mention=i))
            return _implicit(g, "divide", operands, value, lit)
    return None


def _periods(g: GroundingState) -> tuple[int, ...]:
    """The positive mentions with a unit that "every" comes before (``every 6 months``), by index."""
    return tuple(i for i, m in enumerate(g.mentions) if m.lemma is not None and float(m.value) > 0
                 and _EVERY.search(g.text, max(0, m.start - 8), m.start))


def _number_word_measure(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'50-20' with 'a fifty-dollar bill': 50 is the measure the number word writes (counting.compound_measures)."""
    # "6 thirty-minute programs" for 30.  Inside a text mention ("one fifty-dollar bill") the mention is
    # narrowed to the words before it ("one"), which keep their value and unit; "half" before "an hour"
    # widens to "half an hour", converted to minutes by minutes_per_hour for 30.
    value = lit.value
    for c in g.text_reading("compound", lambda: compound_measures(g.text, pack=g.pack)):
        minutes = c.unit == "hour" and close(float(c.value) * 60, value)  # "half an hour" for 30 minutes
        if not close(float(c.value), value) and not minutes:
            continue
        inside = next((i for i, m in enumerate(g.mentions) if m.start < c.end and c.start < m.end), None)
        index: int | None
        if inside is not None:
            m = g.mentions[inside]
            if m.start == c.start and m.end <= c.end and close(float(m.value), float(c.value)):
                widened = dataclasses.replace(m, end=c.end, text=c.text, unit=c.unit, lemma=c.lemma, kind=c.kind)
                g.mentions = (*g.mentions[:inside], widened, *g.mentions[inside + 1 :])
                index = inside  # "half" read as "half an hour"
            else:
                head = g.text[m.start : c.start].rstrip(" ,")
                if not head or not m.start < c.start or c.end > m.end:
                    continue
                if any(q.source == "text" and q.start < c.end and c.start < q.end for q in g.quoted):
                    continue
                narrowed = Mention(m.start, m.start + len(head), head, m.value, m.unit, m.lemma, m.kind, m.source)
                g.mentions = (*g.mentions[:inside], narrowed, *g.mentions[inside + 1 :])
                index = g.extra_mention(c)
        else:
            index = g.extra_mention(c)
        if index is None:
            continue
        if not minutes or close(float(c.value), value):
            return Operand(mention=index, text=lit.text)
        cue = next((k for k in find_cues(g.text, 60) if k.constant_id == "minutes_per_hour"), None)
        if cue is None:
            continue
        operands = (Operand(mention=index), Operand(constant="minutes_per_hour", cue=(cue.start, cue.end)))
        return _implicit(g, "multiply", operands, value, lit)
    return None


def _hours_and_minutes(g: GroundingState, lit: Literal, op: str | None) -> Operand | None:
    """'90/3' with '1 hour 30 minutes': 90 is the implicit steps 1 x 60 + 30 (or 1.5 as 1 + 30 / 60)."""
    value = lit.value
    for i in g.of_mentions("hours_and_minutes", lambda: _hours_then_minutes(g)):
        a, b = g.mentions[i], g.mentions[i + 1]
        h, mins = float(a.value), float(b.value)
        cue = next((k for k in find_cues(g.text, 60) if k.constant_id == "minutes_per_hour"), None)
        if cue is None:
            return None
        per_hour = Operand(constant="minutes_per_hour", cue=(cue.start, cue.end))
        if close(h * 60 + mins, value):
            first = g.push(Step("multiply", (Operand(mention=i), per_hour), h * 60, None, None, True), h * 60)
            return _implicit(g, "add", (Operand(step=first), Operand(mention=i + 1)), value, lit)
        if close(h + mins / 60, value):
            part = mins / 60
            first = g.push(Step("divide", (Operand(mention=i + 1), per_hour), part, None, None, True), part)
            return _implicit(g, "add", (Operand(mention=i), Operand(step=first)), value, lit)
    return None


def _hours_then_minutes(g: GroundingState) -> tuple[int, ...]:
    """The hour mentions a minute mention follows (``1 hour 30 minutes``), by index."""
    return tuple(
        i for i, (a, b) in enumerate(itertools.pairwise(g.mentions))
        if a.lemma in ("hour", "hr") and (b.lemma or "").partition("_per_")[0] == "minute"
        and re.fullmatch(r"\s*(?:and\s+)?", g.text[a.end : b.start])
    )


GROUNDING_RULES: tuple[tuple[str, GroundingRule], ...] = (
    ("percent_complement", _percent_complement),
    ("solution_number", _solution_number),
    ("counted_mention", _counted_mention),
    ("fraction_complement", _fraction_complement),
    ("cued_conversion", _cued_conversion),
    ("parts_of_a_multiple", _parts_of_a_multiple),
    ("fallback_constant", _fallback_constant),
    ("named_total", _named_total),
    ("with_self", _with_self),
    ("and_a_half", _and_a_half),
    ("times_per_period", _times_per_period),
    ("number_word_measure", _number_word_measure),
    ("hours_and_minutes", _hours_and_minutes),
)
"""The rules that derive a number the text states without writing it, in the order :func:`ground` tries
them for a literal with no candidate (ADR 0004): the first answer wins."""
