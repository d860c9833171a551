"""`import ssbg` stays cheap: no pandas, networkx, graphviz or ipywidgets."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("pandas", "networkx", "graphviz", "ipywidgets", "matplotlib", "dask", "tqdm", "inflect", "numpy")


def test_import_ssbg_imports_no_edge_dependency() -> None:
    code = f"import sys, ssbg; print(','.join(sorted(m for m in {HEAVY!r} if m in sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


def test_core_modules_do_not_import_edges() -> None:
    code = (
        "import sys, ssbg\n"
        "edges = [m for m in sys.modules if m.startswith(('ssbg.views', 'ssbg.corpus', 'ssbg.widgets', 'ssbg.cli',"
        " 'ssbg.lanes', 'ssbg.interactive'))]\n"
        "print(','.join(sorted(edges)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


CORE = (
    "errors",
    "model",
    "allocation",
    "units",
    "admissibility",
    "question",
    "problem",
    "adapter",
    "trace",
    "constants",
)
EDGE_PREFIXES = (
    "ssbg.views",
    "ssbg.corpus",
    "ssbg.widgets",
    "ssbg.cli",
    "ssbg.lanes",
    "ssbg.interactive",
    "pandas",
    "networkx",
    "graphviz",
    "ipywidgets",
    "matplotlib",
    "dask",
    "tqdm",
    "inflect",
)


def test_core_sources_import_no_edge_module() -> None:
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "ssbg"
    offenders = []
    for name in CORE:
        path = root / f"{name}.py"
        if not path.exists():
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            modules = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else ([node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            )
            offenders += [f"{name}: {m}" for m in modules if m.startswith(EDGE_PREFIXES)]
    assert offenders == []
