"""The diagrams committed under docs/ (shown in the README) still say what ssbg draws today."""

from __future__ import annotations

import importlib.util
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "docs" / "make_figures.py"
SVG = "{http://www.w3.org/2000/svg}"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_figures", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)  # noqa: S314 - our own dot output
    return ["".join(el.itertext()) for el in root.iter(f"{SVG}text")]


FIGURES = _script().figures()


@pytest.mark.parametrize(("diagram", "path"), FIGURES, ids=[p.name for _d, p in FIGURES])
def test_committed_figure_is_current(diagram: object, path: Path) -> None:
    """Compares the words on the figure, not the layout (that depends on the local dot and fonts).

    On failure, regenerate with ``.venv/bin/python docs/make_figures.py``.
    """
    assert _texts(path.read_text(encoding="utf-8")) == _texts(diagram.svg)  # type: ignore[attr-defined]


def test_figure_shows_every_tone() -> None:
    words = " ".join(_texts(FIGURES[0][0].svg))
    assert all(w in words for w in ("admitted", "REFUSED:", "REFUSED via", "TARGET REFUSED"))
