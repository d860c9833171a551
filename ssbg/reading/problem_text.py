"""What a reader takes from a problem's text: its mentions, chosen by the learned reader, and the
unit its question asks (edge).

The rules of :mod:`ssbg.reading.mentions` propose each mention and its reading; the model of
:mod:`ssbg.reading.learned` chooses each quantity's unit among the candidate readings (ADR 0021).
"""

from __future__ import annotations

from typing import NamedTuple

from ssbg.reading.learned.model import read_units
from ssbg.reading.mentions import extract_mentions, question_unit, tokenize
from ssbg.trace import Mention
from ssbg.units import UnitPack, default_pack

__all__ = ["ProblemText", "read_problem_text"]


class ProblemText(NamedTuple):
    """What a reader takes from a problem's text: its mentions and its question's answer unit."""

    mentions: tuple[Mention, ...]
    answer_unit: str | None


def read_problem_text(
    text: str, question_span: tuple[int, int] | None, *, pack: UnitPack | None = None
) -> ProblemText:
    """The mentions of ``text`` and the unit its question (``question_span``) states or asks, from one
    tokenization: what every corpus reader reads before grounding a solution.

    >>> text = "Sam ran 3 miles. How far did he run?"
    >>> read_problem_text(text, (17, len(text)))
    ProblemText(mentions=(Mention(start=8, end=15, text='3 miles', value=3, unit='miles', lemma='mile', \
kind='quantity', source='text', alt_unit=None, readings=()),), answer_unit='miles')
    """
    toks = tokenize(text)
    p = default_pack() if pack is None else pack
    mentions = read_units(toks, extract_mentions(text, pack=p, tokens=toks), p)
    if question_span is None:
        return ProblemText(mentions, None)
    return ProblemText(mentions, question_unit(text, *question_span, pack=pack, tokens=toks, mentions=mentions))
