"""How many problems of a run the reading model was trained on: the line every report and verdict file says.

The shipped reading model (``ssbg/reading/learned/reader.json``, ADR 0021) was trained on GSM8K train
problems; its manifest knows them by the checksum of their question
(:meth:`~ssbg.reading.learned.model.Model.trained_on`).  A figure over problems the model was trained on
says how well it remembers them, not how well it reads: so a report (``ssbg report``) and a verdict file
(``ssbg check-solutions``) say in their header how many of their problems those are, also when it is
none (issue 24 item 4).

Examples
--------
>>> s = count_in_sample(["A question no one trained on?", None])
>>> (s.trained, s.problems), s.sentence
((0, 2), 'the reading model was trained on 0 of these 2 problems: no figure here is in-sample')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ssbg.reading.learned.model import current_model

__all__ = ["InSample", "count_in_sample", "in_sample", "trained_on"]


@dataclass(frozen=True)
class InSample:
    """``trained`` of ``problems`` problems are ones the reading model was trained on (``model``: whether one read)."""

    trained: int
    problems: int
    model: bool = True

    def __post_init__(self) -> None:
        for name in ("trained", "problems"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise ValueError(f"'{name}' must be an int >= 0 (got {value!r})")
        if self.trained > self.problems:
            raise ValueError(f"'trained' must be at most 'problems' ({self.problems}) (got {self.trained})")

    @property
    def sentence(self) -> str:
        """The header line: how many of these problems the model was trained on, and what that means."""
        if not self.model:
            return f"no reading model was used: reading is the rules' alone (0 of these {self.problems:,} problems)"
        head = f"the reading model was trained on {self.trained:,} of these {self.problems:,} problems"
        if self.trained == 0:
            return f"{head}: no figure here is in-sample"
        return f"{head}: figures on them are in-sample"

    def __add__(self, other: InSample) -> InSample:
        return InSample(self.trained + other.trained, self.problems + other.problems, self.model and other.model)


def trained_on(question: str | None) -> bool:
    """Whether the reading model in use (the shipped one, or :func:`~ssbg.reading.learned.model.using`'s) was
    trained on a problem with this question (None, a record with no text: no)."""
    model = current_model()
    return model is not None and question is not None and model.trained_on(question)


def count_in_sample(questions: Iterable[str | None]) -> InSample:
    """How many of these problems (one question each; None for one with no text) the model in use was trained on."""
    problems = trained = 0
    for question in questions:
        problems += 1
        trained += trained_on(question)
    return in_sample(trained, problems)


def in_sample(trained: int, problems: int) -> InSample:
    """The counts a run gathered where it read its records (``trained`` of ``problems``), as a header says them."""
    return InSample(trained, problems, current_model() is not None)
