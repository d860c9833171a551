"""``import ssbg.views`` (and the CLI that registers ``render``) stays cheap: heavy deps load on use."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("networkx", "graphviz", "pandas", "numpy")


@pytest.mark.parametrize("module", ["ssbg.views", "ssbg.views.cli"])
def test_importing_the_views_loads_no_heavy_dependency(module: str) -> None:
    code = f"import sys, {module}; print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


def test_networkx_loads_when_a_graph_is_built() -> None:
    code = ("import sys; from ssbg.views.nx import _example, to_networkx; to_networkx(_example()); "
            "print('networkx' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "True"
