"""JSON text read one way everywhere (core): every JSON input of ssbg goes through :func:`loads` or
:func:`raw_decode`, so that what the decoder would let through in a form no later step can use refuses
here, as a :class:`json.JSONDecodeError` like any other bad JSON:

- nesting deeper than the decoder's stack (``[[[[...``) is not a ``RecursionError``;
- an integer longer than Python converts (``sys.get_int_max_str_digits()``, 4,300 digits) is not a bare
  ``ValueError``: it decodes as an infinite float, which every numeric field refuses as
  ``number_out_of_range`` naming itself (:func:`ssbg.numbers.check_json_number`), and any other field as
  a value of the wrong type;
- a lone surrogate written as an escape (``"\\ud800"``) is :class:`UnencodableText`: text that cannot be
  written as UTF-8 is refused when it is read, never when a report is written.

>>> try:
...     loads("[" * 100_000)
... except json.JSONDecodeError as exc:
...     print(exc.msg)
nested too deeply
>>> loads('{"n": ' + "9" * 5000 + "}")
{'n': inf}
>>> try:
...     loads('{"text": "a\\\\ud800b"}')
... except UnencodableText as exc:
...     print(exc.msg)
lone surrogate \\ud800 in a string: not Unicode text
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

__all__ = ["UnencodableText", "loads", "loads_line", "raw_decode"]

_DECODER = json.JSONDecoder()
# The C scanner json.loads runs under its Python layers (typeshed does not declare the attribute).
_SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]
_BLANK = " \t\n\r"
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_SURROGATE = re.compile("[\ud800-\udfff]")


class UnencodableText(json.JSONDecodeError):
    """JSON whose strings hold a lone surrogate (``"\\ud800"``): valid JSON, but not Unicode text."""


def _long_int(text: str) -> float | int:
    """``parse_int`` for a retry after the decoder met an integer too long to convert: such an integer is
    infinite for ssbg (out of range wherever a number is read); shorter ones are read as usual."""
    if len(text.lstrip("-")) > 4000:
        return -math.inf if text.startswith("-") else math.inf
    return int(text)


_LONG_INT_DECODER = json.JSONDecoder(parse_int=_long_int)


def loads(text: str | bytes) -> Any:
    """:func:`json.loads` under the rules of this module."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply", text if isinstance(text, str) else "", 0) from None
    except json.JSONDecodeError:
        raise
    except ValueError:  # an integer beyond the conversion limit (a UnicodeDecodeError is the caller's)
        if isinstance(text, bytes):
            text = text.decode(json.detect_encoding(text))
        try:
            value = _LONG_INT_DECODER.decode(text)
        except RecursionError:
            raise json.JSONDecodeError("nested too deeply", text, 0) from None
    _check_surrogates(value, text, 0, len(text))
    return value


def raw_decode(text: str, pos: int) -> tuple[Any, int]:
    """:meth:`json.JSONDecoder.raw_decode` from ``pos`` under the rules of this module."""
    try:
        value, end = _DECODER.raw_decode(text, pos)
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply", text, pos) from None
    except json.JSONDecodeError:
        raise
    except ValueError:  # an integer beyond the conversion limit
        try:
            value, end = _LONG_INT_DECODER.raw_decode(text, pos)
        except RecursionError:
            raise json.JSONDecodeError("nested too deeply", text, pos) from None
    _check_surrogates(value, text, pos, end)
    return value, end


def loads_line(text: str) -> Any:
    """:func:`loads` for one JSONL line, without the Python layers above the C scanner.

    Same values and errors as :func:`loads` (a pack's 9,000 rows decode in two
    thirds of the time):

    >>> loads_line(' {"a": [1, 2.5, null]} ')
    {'a': [1, 2.5, None]}
    >>> try:
    ...     loads_line('{"a": 1} 2')
    ... except json.JSONDecodeError as exc:
    ...     print(exc.msg)
    Extra data
    """
    start = len(text) - len(text.lstrip(_BLANK))
    try:
        value, end = _SCAN(text, start)
    except StopIteration as err:
        raise json.JSONDecodeError("Expecting value", text, err.value) from None
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply", text, start) from None
    except json.JSONDecodeError:
        raise
    except ValueError:  # an integer beyond the conversion limit: the slow path knows what to do
        return loads(text)
    if text[end:].strip(_BLANK):
        raise json.JSONDecodeError("Extra data", text, end)
    _check_surrogates(value, text, start, end)
    return value


def _check_surrogates(value: Any, text: str | bytes, start: int, end: int) -> None:
    """Refuse a decoded value whose strings hold a lone surrogate; looked for only when the source
    writes a surrogate escape (a valid pair decodes to one character, a lone one stays)."""
    if isinstance(text, bytes):
        if b"\\u" not in text[start:end] or _SURROGATE_ESCAPE.search(text[start:end].decode("latin-1")) is None:
            return
        source = ""
    elif text.find("\\u", start, end) < 0 or _SURROGATE_ESCAPE.search(text, start, end) is None:
        return
    else:
        source = text
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found = _SURROGATE.search(item)
            if found is not None:
                raise UnencodableText(
                    f"lone surrogate \\u{ord(found.group()):04x} in a string: not Unicode text", source, start
                )
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
