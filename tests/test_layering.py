"""The layering rule of ``ssbg/__init__.py`` and no import circle, read from the sources with ``ast``.

Every import counts: module-level, inside a function, under ``TYPE_CHECKING``, and
``importlib.import_module("ssbg....")`` with a literal name.  ``from ssbg.x import y`` is an import
of the module ``ssbg.x.y`` when there is one, else of ``ssbg.x``.  The implicit import of a parent
package (``ssbg.views`` before ``ssbg.views.dot``) is not an edge: a package that imports its own
submodules would otherwise always be a circle.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "ssbg"

CORE = frozenset(
    {
        "ssbg",
        "ssbg.errors",
        "ssbg.jsontext",
        "ssbg.numbers",
        "ssbg.files",
        "ssbg.limits",
        "ssbg.outputs",
        "ssbg.model",
        "ssbg.allocation",
        "ssbg.units",
        "ssbg.admissibility",
        "ssbg.question",
        "ssbg.problem",
        "ssbg.adapter",
        "ssbg.trace",
        "ssbg.trace_json",
        "ssbg.constants",
        "ssbg.kinds",
    }
)
# edge packages; every other module outside the core is an edge of its own
PACKAGES = ("reading", "stats", "views", "checking")
HEAVY = ("pandas", "networkx", "graphviz", "ipywidgets", "matplotlib", "dask", "tqdm", "inflect", "numpy")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: Mapping[str, Path] = {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def lazy_names() -> dict[str, str]:
    """``ssbg/__init__.py``'s ``_LAZY_NAMES`` table (name -> the edge module it is imported from), read with ``ast``:
    the one way from the package root to an edge (PEP 562, ADR 0019)."""
    for node in ast.parse(MODULES["ssbg"].read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            target: ast.expr | None = node.targets[0]
        else:
            target = node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(target, ast.Name) and target.id == "_LAZY_NAMES" and node.value is not None:
            value = node.value.args[0] if isinstance(node.value, ast.Call) else node.value  # MappingProxyType({...})
            table = ast.literal_eval(value)
            assert isinstance(table, dict)
            return table
    return {}


LAZY = lazy_names()


def _ssbg_module(name: str) -> str:
    """The ssbg module a dotted name imports (``ssbg.x.y`` -> ``ssbg.x`` when ``y`` is not a module)."""
    while name not in MODULES:
        name = name.rpartition(".")[0]
    return name


@cache
def imports(module: str) -> frozenset[str]:
    """Every module ``module`` imports: ssbg modules by their module name, others by their top-level name."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in MODULES else node.module
                     for a in node.names]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names = [node.args[0].value]
        elif (
            module == "ssbg"
            and isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
        ):
            names = list(LAZY.values())  # the root's __getattr__ imports the modules of its lazy table by name
        for name in names:
            found.add(_ssbg_module(name) if name == "ssbg" or name.startswith("ssbg.") else name.partition(".")[0])
    found.discard(module)
    return frozenset(found)


def layer(module: str) -> str:
    """``core``, an edge package's name, or the module itself for a one-module edge (``ssbg.cli``)."""
    if module in CORE:
        return "core"
    for package in PACKAGES:
        if module == f"ssbg.{package}" or module.startswith(f"ssbg.{package}."):
            return package
    return module


def find_cycle(graph: Mapping[str, frozenset[str]]) -> list[str] | None:
    """The first import circle of ``graph`` (module -> modules it imports), as ``[a, b, ..., a]``."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for other in sorted(graph.get(module, ())):
            if state.get(other) == 1:
                return [*path[path.index(other) :], other]
            if other not in state and (cycle := visit(other)) is not None:
                return cycle
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state and (cycle := visit(module)) is not None:
            return cycle
    return None


def ssbg_graph() -> dict[str, frozenset[str]]:
    return {m: frozenset(i for i in imports(m) if i in MODULES) for m in MODULES}


def test_no_import_circle_in_ssbg() -> None:
    cycle = find_cycle(ssbg_graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle or ())


def test_the_cycle_finder_names_the_circle() -> None:
    graph = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}), "d": frozenset({"a"})}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": frozenset({"b"}), "b": frozenset()}) is None


def test_the_walk_sees_function_local_and_type_checking_imports() -> None:
    # run_batch's readers are imported inside functions; PendingRecord only under TYPE_CHECKING
    assert "ssbg.reading.readers" in imports("ssbg.stats.batch")
    assert "ssbg.stats.batch" in imports("ssbg.browser")  # imported inside index_records
    assert "ssbg.trace" in imports("ssbg.reading.readers.ssbg_jsonl")  # importlib.import_module("ssbg.trace")


@pytest.mark.parametrize(
    ("importer", "allowed"),
    [
        pytest.param("core", {"core"}, id="the core imports no edge"),
        pytest.param("reading", {"core", "reading"}, id="reading imports only the core"),
        pytest.param("stats", {"core", "reading", "views", "stats"}, id="stats imports only core, reading, views"),
        pytest.param("checking", {"core", "reading", "stats", "views", "checking"},
                     id="checking imports only core, reading, stats, views"),
    ],
)
def test_a_layer_imports_only_what_the_layering_rule_allows(importer: str, allowed: set[str]) -> None:
    mine = [m for m in MODULES if layer(m) == importer]
    offenders = sorted(
        f"{m} imports {i}"
        for m in mine
        for i in imports(m)
        if i in MODULES and layer(i) not in allowed and not (m == "ssbg" and i in LAZY.values())
    )
    assert offenders == []


def test_the_root_reaches_an_edge_only_through_its_lazy_table() -> None:
    # ssbg/__init__.py imports no edge but the modules of _LAZY_NAMES (by importlib in __getattr__, and for type
    # checkers under TYPE_CHECKING), and those only for the names the table lists
    edges = {i for i in imports("ssbg") if i in MODULES and layer(i) != "core"}
    assert edges == set(LAZY.values()) == {"ssbg.checking", "ssbg.stats.analyse"}  # ADR 0019, ADR 0032
    checked = {a.name for node in ast.walk(ast.parse(MODULES["ssbg"].read_text(encoding="utf-8")))
               if isinstance(node, ast.ImportFrom) and node.module in LAZY.values() for a in node.names}
    assert checked <= set(LAZY)


def test_only_the_root_and_the_command_line_reach_the_checking_edge() -> None:
    importers = sorted(m for m in MODULES if layer(m) != "checking" and any(layer(i) == "checking" for i in imports(m)))
    assert importers == ["ssbg"]  # ssbg.cli names ssbg.checking.cli in _EDGE_COMMANDS
    assert "ssbg.checking.cli" in MODULES["ssbg.cli"].read_text(encoding="utf-8")


def _module_level_imports(module: str) -> set[str]:
    """The ssbg modules ``module`` imports at module level (not inside a function, not only for type checkers)."""
    found: set[str] = set()
    for node in ast.parse(MODULES[module].read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and node.module.startswith("ssbg"):
            for a in node.names:
                dotted = f"{node.module}.{a.name}"
                found.add(_ssbg_module(dotted if dotted in MODULES else node.module))
        elif isinstance(node, ast.Import):
            found.update(_ssbg_module(a.name) for a in node.names if a.name.startswith("ssbg"))
    return found


def test_checking_imports_stats_and_views_only_inside_functions() -> None:
    checking = [m for m in MODULES if layer(m) == "checking"]
    offenders = sorted(f"{m} imports {i}" for m in checking for i in _module_level_imports(m)
                       if layer(i) in ("stats", "views"))
    assert offenders == []


def test_the_views_import_neither_reading_nor_stats() -> None:
    views = [m for m in MODULES if layer(m) == "views"]
    offenders = sorted(f"{m} imports {i}" for m in views for i in imports(m) if layer(i) in ("reading", "stats"))
    assert offenders == []


def test_core_sources_import_no_heavy_dependency() -> None:
    offenders = sorted(f"{m} imports {i}" for m in CORE for i in imports(m) if i in HEAVY)
    assert offenders == []


def test_widgets_is_the_only_module_that_imports_ipywidgets() -> None:
    assert [m for m in MODULES if "ipywidgets" in imports(m)] == ["ssbg.widgets"]


def test_every_core_module_exists() -> None:
    assert sorted(CORE - set(MODULES)) == []


# The rooms of ssbg.reading.mentions, bottom first (ADR 0025): a room imports only rooms before it here,
# never the package that gathers them.  A new room is declared here, in its place.
MENTION_ROOMS = (
    "tokens",
    "vocabulary",
    "lemmas",
    "pack",
    "nouns",
    "numbers",
    "rates",
    "clauses",
    "prices",
    "periods",
    "bearers",
    "context_rates",
    "units",
    "elision",
    "second_readings",
    "extract",
    "question",
    "caches",
)

# The rooms of ssbg.reading.grounding, bottom first (ADR 0025), by the same rule.
GROUNDING_ROOMS = (
    "unit_words",
    "literals",
    "state",
    "candidates",
    "scoring",
    "choice",
    "formula_plan",
    "solution_plan",
    "derived",
    "ground_literal",
    "trees",
    "renumbering",
    "steps",
)
ROOMED = {"ssbg.reading.mentions": MENTION_ROOMS, "ssbg.reading.grounding": GROUNDING_ROOMS}


def upward_imports(package: str, rooms: tuple[str, ...], graph: Mapping[str, frozenset[str]]) -> list[str]:
    """The imports of a room of ``package`` that reach the package itself or a room at or above its own place."""
    place = {f"{package}.{room}": i for i, room in enumerate(rooms)}
    return sorted(
        f"{m} imports {i}"
        for m, i_s in graph.items()
        if m in place
        for i in i_s
        if i == package or place.get(i, -1) >= place[m]
    )


@pytest.mark.parametrize("package", sorted(ROOMED))
def test_every_room_is_declared_in_the_order(package: str) -> None:
    found = {m.rpartition(".")[2] for m in MODULES if m.startswith(f"{package}.")}
    assert sorted(found) == sorted(ROOMED[package])


@pytest.mark.parametrize("package", sorted(ROOMED))
def test_a_room_imports_only_rooms_below_it(package: str) -> None:
    assert upward_imports(package, ROOMED[package], ssbg_graph()) == []


def test_the_room_order_check_names_an_upward_import() -> None:
    graph = {"p": frozenset({"p.a", "p.b"}), "p.a": frozenset({"p.b"}), "p.b": frozenset({"p"})}
    assert upward_imports("p", ("b", "a"), graph) == ["p.b imports p"]
    assert upward_imports("p", ("a", "b"), graph) == ["p.a imports p.b", "p.b imports p"]


@pytest.mark.parametrize("package", sorted(ROOMED))
def test_the_package_names_its_rooms_in_the_declared_order(package: str) -> None:
    doc = ast.get_docstring(ast.parse(MODULES[package].read_text(encoding="utf-8"))) or ""
    listed = doc.partition("ADR 0025):")[2].partition("This module")[0]
    assert [w.strip("`,. \n") for w in listed.split("``")[1::2]] == list(ROOMED[package])
