"""JSON text read one way everywhere (core): nesting deeper than the decoder's stack (``[[[[...``)
is a :class:`json.JSONDecodeError` like any other bad JSON, not a ``RecursionError``.

>>> try:
...     loads("[" * 100_000)
... except json.JSONDecodeError as exc:
...     print(exc.msg)
nested too deeply
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["loads", "raw_decode"]

_DECODER = json.JSONDecoder()


def loads(text: str | bytes) -> Any:
    """:func:`json.loads`; too-deep nesting raises :class:`json.JSONDecodeError`."""
    try:
        return json.loads(text)
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply", text if isinstance(text, str) else "", 0) from None


def raw_decode(text: str, pos: int) -> tuple[Any, int]:
    """:meth:`json.JSONDecoder.raw_decode` from ``pos``; too-deep nesting raises :class:`json.JSONDecodeError`."""
    try:
        return _DECODER.raw_decode(text, pos)
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply", text, pos) from None
