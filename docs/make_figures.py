"""Regenerate the diagrams under docs/ from the lanes (run from the repository root).

    .venv/bin/python docs/make_figures.py

Writes ``docs/refused_chain.svg`` (equation view, with unit proofs) and
``docs/refused_chain_symbols.svg`` (symbol view) for the lane problem
``chain-3-refused-midway``: an admitted wage step, a division refused as a root
cause, a subtraction refused by propagation, and a question target refused
because what answers it was refused.  Needs Graphviz's ``dot``.
``tests/test_views_figures.py`` fails when a lane or the adapter changes what
the figures should say; rerun this script then.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ssbg.adapter import bind_math_problem_graph
from ssbg.lanes import load_lane
from ssbg.views import Diagram, render

ROOT = Path(__file__).resolve().parents[1]
LANE = ROOT / "data" / "lanes" / "chains.jsonl"
CASE = "chain-3-refused-midway"
FIGURES = (
    ("equations", ROOT / "docs" / "refused_chain.svg"),
    ("symbols", ROOT / "docs" / "refused_chain_symbols.svg"),
)


def figures() -> list[tuple[Diagram, Path]]:
    """The diagrams to write and where."""
    cases = {case.case_id: case for case in load_lane(LANE)}
    bg = bind_math_problem_graph(cases[CASE].problem)
    return [(render(bg, view, proofs=True), path) for view, path in FIGURES]


def main() -> int:
    for diagram, path in figures():
        diagram.save(path)
        sys.stdout.write(f"wrote {path.relative_to(ROOT)}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
