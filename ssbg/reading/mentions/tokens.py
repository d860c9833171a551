"""Tokens: the text cut into words, numbers and punctuation with their offsets (the bottom room).

Every other room of :mod:`ssbg.reading.mentions` reads :class:`Token` tuples; this one imports no
other room.
"""

from __future__ import annotations

import operator
import re
from typing import NamedTuple

# The tokens of a whitespace-separated chunk of the text (no token spans whitespace): every
# character of a chunk starts a token, so the offsets follow from the lengths (``findall`` makes no
# match objects).
_TOKEN = re.compile(
    r"(\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"  # numbers: 1,000.5  12  .5
    r"|([A-Za-z]+(?:[-'\u2019][A-Za-z]+)*)"  # words, with inner hyphens and apostrophes
    r"|([^\sA-Za-z\d])"  # one symbol
)


class Token(NamedTuple):
    """One token of a text: ``kind`` is ``num``, ``word`` or ``sym``; ``low`` is the lower-cased text."""

    kind: str
    text: str
    start: int
    end: int
    low: str


def tokenize(text: str, start: int = 0, end: int | None = None, *, limit: int | None = None) -> tuple[Token, ...]:
    """Numbers, words (with inner hyphens and apostrophes) and single symbols, with offsets.

    Reads ``text[start:end]`` (offsets stay those of ``text``), at most ``limit`` tokens.

    >>> [t.text for t in tokenize("A 120-page book costs $1,000.50!")]
    ['A', '120', '-', 'page', 'book', 'costs', '$', '1,000.50', '!']
    """
    new = tuple.__new__  # NamedTuple's own constructor is a Python function: too slow for every token
    out: list[Token] = []
    add = out.append
    stop_at = len(text) if end is None else end
    span = text if start == 0 and stop_at == len(text) else text[start:stop_at]
    # str.split and the token regex agree on whitespace (both read str.isspace).  Nine chunks in ten
    # are a plain word, a word before one punctuation mark or digits: those are read without the regex.
    # With a limit, a long line stays cheap: ``limit`` chunks hold at least ``limit`` tokens.
    chunks = span.split() if limit is None else span.split(None, limit)[:limit]
    find = text.find
    pos = start
    for chunk in chunks:
        pos = find(chunk, pos)  # only whitespace lies between the previous chunk and this one
        stop = pos + len(chunk)
        if chunk.isascii() and chunk.isalpha():
            add(new(Token, ("word", chunk, pos, stop, chunk.lower())))
        elif chunk.isascii() and chunk[:-1].isalpha() and not chunk[-1].isalnum():  # "clips." "May,"
            word, mark = chunk[:-1], chunk[-1]
            add(new(Token, ("word", word, pos, stop - 1, word.lower())))
            add(new(Token, ("sym", mark, stop - 1, stop, mark)))  # ASCII punctuation has no case
        elif chunk.isdecimal():  # what the regex's \d reads
            add(new(Token, ("num", chunk, pos, stop, chunk)))
        else:
            for num, word, sym in _TOKEN.findall(text, pos, stop):
                if word:
                    end_at = pos + len(word)
                    add(new(Token, ("word", word, pos, end_at, word.lower())))
                elif num:
                    end_at = pos + len(num)
                    add(new(Token, ("num", num, pos, end_at, num)))  # digits, "," and "." have no case
                else:
                    end_at = pos + 1
                    add(new(Token, ("sym", sym, pos, end_at, sym.lower())))
                pos = end_at
        pos = stop
    if limit is not None:
        del out[limit:]
    return tuple(out)




def _words(text: str) -> tuple[str, ...]:
    """The words of a vocabulary written as one string (easier to read than a long list)."""
    return tuple(text.split())
# A token's fields read from C (itemgetter: like attrgetter on a NamedTuple, but cheaper).
_TOKEN_LOW = operator.itemgetter(Token._fields.index("low"))
_TOKEN_START = operator.itemgetter(Token._fields.index("start"))
_TOKEN_END = operator.itemgetter(Token._fields.index("end"))
