"""The README's speed table is what the last ``make bench`` printed (issue 28).

``benchmarks/run_all.py`` records every ``figure`` line its benchmarks print in
``benchmarks/results.json``; ``benchmarks/speed_table.py`` renders the README's table from it.  A figure
typed into the README by hand, or a results file recorded without rendering the table, fails here.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import figures  # noqa: E402 - benchmarks/ is put on the path just above
import speed_table  # noqa: E402


def test_the_readme_table_is_the_one_the_last_bench_run_renders() -> None:
    readme = speed_table.README.read_text(encoding="utf-8")
    assert speed_table.replaced(readme, speed_table.render(speed_table.load())) == readme


def test_every_row_names_a_benchmark_that_prints_its_figures() -> None:
    for _what, script, keys, _target in speed_table.ROWS:
        source = (ROOT / "benchmarks" / script).read_text(encoding="utf-8")
        for key in keys:
            assert re.search(rf'figure\(\s*"{re.escape(key)}"', source), f"{script} prints no figure {key!r}"


def test_a_recorded_figure_and_its_verdict_land_in_their_row() -> None:
    output = "some table\nfigure binding: lanes 60 k problems/s, 1.8x\nfigure binding.verdict: met\n"
    results = {"date": "d", "commit": "c", "base": "b", "scripts": {
        "bench_binding.py": {"date": "d", "commit": "c", "exit": 0, "seconds": 1.0, "load": 0.5,
                             "figures": figures.parse(output)}}}  # fmt: skip
    table = speed_table.render(results)
    row = next(line for line in table.splitlines() if "`bench_binding.py`" in line)
    assert "lanes 60 k problems/s, 1.8x (load 0.5)" in row
    assert row.endswith("(ADR 0013 amendment): met |")


def test_a_benchmark_that_printed_no_figure_says_so() -> None:
    results = {"scripts": {"bench_import.py": {"date": "d", "commit": "c", "exit": 0, "seconds": 0.1, "load": 1.0,
                                               "figures": {}}}}  # fmt: skip
    row = next(line for line in speed_table.render(results).splitlines() if "`bench_import.py`" in line)
    assert "no figure: `bench_import.py` exited 0" in row


def test_figure_lines_are_parsed_from_a_benchmark_output() -> None:
    assert figures.parse("x\nfigure a.b: one two\n  figure c: 3 |4\nfigured d: no\n") == {"a.b": "one two",
                                                                                         "c": "3 |4"}  # fmt: skip
