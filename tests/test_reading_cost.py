"""The reading's shortcuts never change what is read: each skip or memo against the plain computation.

Issue 16's cost work keeps outputs byte-identical (``make fingerprint`` over the corpora); these
properties check the shortcuts on texts made to hit their edges.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from ssbg.reading.cues import CUE_PATTERNS, _may_occur

_MARKS = (" ", " ", "  ", "\n", "-", "%", "/", "3", "12 ", "1/2", ",", ".", "a", "the")


@st.composite
def _cue_texts(draw: st.DrawFn) -> tuple[str, str]:
    """A constant and a text of the words its cue pattern is written with (plurals, any case) and marks."""
    cid = draw(st.sampled_from(sorted(CUE_PATTERNS)))
    written = re.findall(r"[A-Za-z]{2,}", CUE_PATTERNS[cid].pattern)
    words = st.sampled_from([*written, *(w + "s" for w in written)])
    pieces = draw(st.lists(st.tuples(words, st.sampled_from(_MARKS), st.booleans()), max_size=5))
    return cid, "".join((w.upper() if upper else w) + mark for w, mark, upper in pieces)


@settings(max_examples=1000)
@given(_cue_texts())
def test_a_cue_gate_never_hides_a_match(case: tuple[str, str]) -> None:
    """A text none of whose lower-cased words is a constant's key has no cue of that constant."""
    cid, text = case
    if CUE_PATTERNS[cid].search(text) is not None:
        assert _may_occur(cid, text.lower()), (cid, text)
