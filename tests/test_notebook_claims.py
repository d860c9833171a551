"""What a notebook's prose claims about its results, checked against its stored outputs (issue 26).

nbval compares a notebook's outputs with a fresh run; nothing compared its prose with either. Each claim
below pairs words of a Markdown cell with what the outputs must show for those words to be true: a change
that moves the output (a reading of the words, a pack) fails here until the prose is written again.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"

# (notebook, words of its prose, what its outputs must hold for them to be true)
CLAIMS: list[tuple[str, str, list[str]]] = [
    ("03_corpus_refusal_statistics", "so both results are a\nlength, bound to the question's *how far*",
     ["0  through the speed       None        length  bound", "1  miles times hours       None        length  bound"]),
    ("04_checking_model_solutions", "Yet ssbg does not call it an error: it could not tell.",
     ["(line 2: '4 - 2 = <<4-2=2>>2'): ssbg could not tell whether its units do not combine",
      "Verdict(status='unverifiable'"]),
    ("04_checking_model_solutions", "so `P(admissible) = 0.0815`, above ε = 0.001",
     ["P(admissible) = 0.0815, the most probable reading that admits it: 'four' read as 'eggs per day'; "
      "'$2 per fresh' read as 'duck per day' (p = 0.0815)"]),
    ("01_binding_graph_tour", "adding cookies is refused as `unknown_unit`", ["unknown_unit"]),
]


def _cells(name: str) -> list[dict[str, object]]:
    cells: list[dict[str, object]] = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]
    return cells


def _prose(name: str) -> str:
    return "\n\n".join("".join(c["source"]) for c in _cells(name) if c["cell_type"] == "markdown")  # type: ignore[arg-type]


def _outputs(name: str) -> str:
    texts: list[str] = []
    for cell in _cells(name):
        for out in cell.get("outputs", []):  # type: ignore[attr-defined]
            texts.append("".join(out.get("text", "")))
            texts.extend("".join(out.get("data", {}).get(kind, "")) for kind in ("text/plain", "text/html"))
    return "\n".join(texts)


@pytest.mark.parametrize(("notebook", "words", "shown"), CLAIMS, ids=[f"{n}: {w[:30]}" for n, w, _ in CLAIMS])
def test_a_notebooks_prose_says_what_its_outputs_show(notebook: str, words: str, shown: list[str]) -> None:
    assert words in _prose(notebook)
    outputs = _outputs(notebook)
    assert [s for s in shown if s not in outputs] == []


def test_notebook_03_says_the_miles_times_hours_result_is_a_length_not_the_opposite() -> None:
    assert "is not a distance" not in _prose("03_corpus_refusal_statistics")


def test_notebook_04_does_not_speak_of_a_round_its_reader_never_saw() -> None:
    assert "this round" not in _prose("04_checking_model_solutions")


def test_papermill_writes_under_out_which_git_ignores() -> None:
    commands = [line for line in _prose("03_corpus_refusal_statistics").splitlines() if "papermill notebooks/" in line]
    assert commands
    assert all(" out/" in c and " out.ipynb" not in c for c in commands)
    ignored = subprocess.run(["git", "check-ignore", "-q", "out/03_corpus_refusal_statistics.ipynb"], cwd=REPO,
                             check=False)
    assert ignored.returncode == 0


@pytest.mark.parametrize("notebook", ["03_corpus_refusal_statistics", "04_checking_model_solutions"])
def test_a_notebook_that_prints_results_names_its_pack(notebook: str) -> None:
    assert "pack en_units_v1 1.0.0 sha256:" in _outputs(notebook)
