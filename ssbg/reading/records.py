"""The unit a corpus reader yields: one record per problem, read or refused.

Every reader streams :class:`CorpusRecord` values.  A record holds either a
payload (a ``MathProblemGraph`` or a trace) or the typed
:class:`~ssbg.errors.ImportRefusal` that says why it could not be read: a bad
record is counted and reported, never dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ssbg.errors import ImportRefusal

__all__ = ["CorpusRecord"]

_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True, slots=True)
class CorpusRecord:
    """One problem of a corpus.

    Attributes
    ----------
    corpus
        Corpus name (``gsm8k``, ``svamp``, ``mawps``, ``cogcomp``, ``asdiv``, ``ssbg``, ...).
    problem_id
        The problem's id in its corpus (or ``file:line`` when it has none).
    source
        Where it was read: ``file:line`` (or ``file:#index`` for JSON arrays).
    payload
        A ``MathProblemGraph`` or a trace; ``None`` when refused.
    refusal
        The import refusal when the record could not be read; ``None`` otherwise.
    text
        The problem text when the corpus has one.
    gold_answer_unit
        The answer unit the corpus states, where it does.
    """

    corpus: str
    problem_id: str
    source: str
    payload: Any = None
    refusal: ImportRefusal | None = None
    text: str | None = None
    gold_answer_unit: str | None = None

    def __post_init__(self) -> None:
        if (self.payload is None) == (self.refusal is None):
            raise ValueError("a CorpusRecord holds exactly one of payload and refusal")
        for name in ("corpus", "problem_id", "source", "text", "gold_answer_unit"):
            value = getattr(self, name)
            if value is None and name in ("text", "gold_answer_unit"):
                continue
            if type(value) is not str or not (value.isascii() or _SURROGATE.search(value) is None):
                # a value no output could write (a lone surrogate) is refused when the record is made
                raise ValueError(f"a CorpusRecord's {name!r} must be Unicode text (got {type(value).__name__})")

    @property
    def imported(self) -> bool:
        return self.refusal is None
