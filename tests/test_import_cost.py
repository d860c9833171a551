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
        "edges = [m for m in sys.modules if m.startswith(('ssbg.views', 'ssbg.stats', 'ssbg.reading', 'ssbg.widgets',"
        " 'ssbg.cli', 'ssbg.lanes', 'ssbg.playground', 'ssbg.browser', 'ssbg.checking'))]\n"
        "print(','.join(sorted(edges)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


_LEMMA_WORDS = (
    "apples people children boxes dollars cookies mice geese women feet teeth oxen buses classes pennies "
    "knives leaves halves series species tennis gas lenses wolves heroes radios cacti fungi data criteria"
)


def _lemmas_in_subprocess(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def test_inflect_import_without_typeguard_gives_the_same_lemmas() -> None:
    # inflect wraps its methods in typeguard at import (~3 s); ssbg imports it with the
    # decorator made the identity (ADR 0012).  The lemmas must be inflect's own.
    words = _LEMMA_WORDS.split()
    checked = _lemmas_in_subprocess(
        f"import inflect; e = inflect.engine(); print([e.singular_noun(w) for w in {words!r}])"
    )
    ours = _lemmas_in_subprocess(
        "from ssbg.reading.mentions.lemmas import _inflect_engine; e = _inflect_engine();"
        f" print([e.singular_noun(w) for w in {words!r}])"
    )
    assert ours == checked
    assert "'apple'" in ours
    assert "'person'" in ours


def test_inflect_import_restores_typeguard_and_skips_its_instrumentation() -> None:
    restored = _lemmas_in_subprocess(
        "import typeguard; before = typeguard.typechecked\n"
        "from ssbg.reading.mentions.lemmas import _inflect_engine; _inflect_engine()\n"
        "print(typeguard.typechecked is before)"
    )
    assert restored == "True"
    # With typeguard's checks, inflect raises TypeCheckError on a non-str word; ours are not instrumented.
    raised = _lemmas_in_subprocess(
        "from ssbg.reading.mentions.lemmas import _inflect_engine\n"
        "try:\n    _inflect_engine().singular_noun(3)\n    print('unchecked')\n"
        "except Exception as exc:\n    print(type(exc).__name__)"
    )
    assert raised != "TypeCheckError"


# What `import ssbg` adds to sys.modules, by top-level name (leading-underscore C accelerators left out:
# they differ between builds): the core's own package and the standard library it cannot start without
# (dataclasses brings inspect, ast, dis and tokenize; typing brings contextlib; re brings enum).  Anything
# else is imported where it is used (hashlib, pathlib, importlib.resources, fractions: ADR 0015).  A module
# missing from this set fails the test: import it inside the function that needs it, or add it here and say
# why in ADR 0015.
CORE_IMPORTS = frozenset(
    {
        "ast", "collections", "contextlib", "copy", "copyreg", "dataclasses", "dis", "enum", "errno", "functools",
        "importlib", "inspect", "itertools", "json", "keyword", "linecache", "math", "opcode", "operator", "re",
        "reprlib", "ssbg", "token", "tokenize", "types", "typing", "unicodedata", "warnings", "weakref",
    }
)  # fmt: skip


def test_import_ssbg_imports_no_module_beyond_the_core_list() -> None:
    code = "import sys; before = set(sys.modules); import ssbg; print(' '.join(sorted(set(sys.modules) - before)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    imported = {name.partition(".")[0] for name in out if not name.startswith("_")}
    assert "ssbg" in imported
    assert sorted(imported - CORE_IMPORTS) == []
