"""The figures of the README's speed table, each stated by the benchmark that measures it.

A benchmark prints ``figure <key>: <text>`` (:func:`figure`) beside its own table; ``run_all.py``
(``make bench``) collects those lines into ``benchmarks/results.json`` and ``speed_table.py`` renders
the README's table from that file, so a figure in the README is the text its benchmark printed in the
last run (``tests/test_speed_table.py`` checks it).  ``<key>.verdict`` is the benchmark's own
comparison with its target (``met`` / ``not met``).
"""

from __future__ import annotations

import re

PREFIX = "figure "
_LINE = re.compile(r"^figure ([a-z0-9_.]+): (.+)$")


def figure(key: str, text: str) -> None:
    """Print one figure of the speed table (a key of ``speed_table.ROWS``)."""
    print(f"{PREFIX}{key}: {text}", flush=True)


def verdict(key: str, met: bool) -> None:
    figure(f"{key}.verdict", "met" if met else "not met")


def parse(output: str) -> dict[str, str]:
    """The figures a benchmark printed, by key (a later line of a key replaces an earlier one)."""
    found: dict[str, str] = {}
    for line in output.splitlines():
        match = _LINE.match(line.strip())
        if match:
            found[match.group(1)] = match.group(2).strip()
    return found


def rate(value: float) -> str:
    """A rate as the table writes it: ``1.21 M``, ``39.7 k``, ``587``."""
    if value >= 1e6:
        return f"{value / 1e6:.2f} M"
    if value >= 1e4:
        return f"{value / 1e3:.1f} k"
    return f"{value:,.0f}"
