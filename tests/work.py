"""Deterministic measures of work, for the tests that guard against a slow path.

The test suite asserts no time (a loaded machine runs 2x slower within a day): a guard against a
quadratic or exponential path counts the function calls made (:class:`Calls`) or the memory held
(:func:`peak_bytes`) instead, both equal on every run.
"""

from __future__ import annotations

import sys
import tracemalloc
from collections.abc import Callable
from types import FrameType
from typing import Any, TypeVar

T = TypeVar("T")


class Calls:
    """Counts every Python and C function call made on this thread while it is entered.

    Each C call of the readers works on at most a block or a record (the size caps), so a count that
    grows linearly with the input means work that does.
    """

    def __init__(self) -> None:
        self.count = 0

    def _profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event in {"call", "c_call"}:
            self.count += 1

    def __enter__(self) -> Calls:
        self._previous = sys.getprofile()
        sys.setprofile(self._profile)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.setprofile(self._previous)


def peak_bytes(fn: Callable[[], T]) -> tuple[T, int]:
    """What ``fn()`` returns and the most memory it held at once (``tracemalloc``), in bytes."""
    tracemalloc.start()
    try:
        result = fn()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
