"""Regenerate the diagrams under docs/ from the lanes (run from the repository root).

    .venv/bin/python docs/make_figures.py

Writes ``docs/refused_chain.svg`` (equation view, with unit proofs) and
``docs/refused_chain_symbols.svg`` (symbol view) for the lane problem
``chain-3-refused-midway``: an admitted wage step, a division refused as a root
cause (money shared among people is money per person, not the declared
dollars), a subtraction refused by propagation, and a question target refused
because what answers it was refused.  Needs Graphviz's ``dot``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ssbg.adapter import bind_math_problem_graph
from ssbg.lanes import load_lane
from ssbg.views import render

ROOT = Path(__file__).resolve().parents[1]
LANE = ROOT / "data" / "lanes" / "chains.jsonl"
CASE = "chain-3-refused-midway"
FIGURES = (
    ("equations", ROOT / "docs" / "refused_chain.svg"),
    ("symbols", ROOT / "docs" / "refused_chain_symbols.svg"),
)


def main() -> int:
    cases = {case.case_id: case for case in load_lane(LANE)}
    bg = bind_math_problem_graph(cases[CASE].problem)
    for view, path in FIGURES:
        render(bg, view, proofs=True).save(path)
        sys.stdout.write(f"wrote {path.relative_to(ROOT)}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
