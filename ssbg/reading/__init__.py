"""Reading edge: a problem's text and solution into a trace.

The corpus readers (:mod:`ssbg.reading.readers`), mention extraction
(:mod:`~ssbg.reading.mentions`), quantities stated by lists and articles
(:mod:`~ssbg.reading.counting`), the cue words of constants
(:mod:`~ssbg.reading.cues`), formula parsing and grounding, the highlighted
text view (:mod:`~ssbg.reading.textview`), the record type
(:mod:`~ssbg.reading.records`), and the one place readings are chosen and
weighed after the core has bound them exactly (:mod:`~ssbg.reading.choosing`,
ADR 0035: its names are re-exported here).

It imports the core and nothing else of ssbg (a test checks it); statistics
over what it reads live in :mod:`ssbg.stats`.  Optional dependencies
(``inflect``) are imported inside the functions that need them, so importing
the package stays cheap.
"""

from ssbg.reading.choosing import (
    MAX_READINGS,
    BoundTrace,
    ChoosingBinder,
    ReadingMass,
    answer_mass,
    bind_choosing,
    reading_mass,
    step_units,
)

__all__ = [
    "MAX_READINGS",
    "BoundTrace",
    "ChoosingBinder",
    "ReadingMass",
    "answer_mass",
    "bind_choosing",
    "reading_mass",
    "step_units",
]
