"""No function of ssbg reaches cyclomatic complexity 31 (radon's ranks E and F).

A function that branches that often is rules or a dispatch written as one body: it becomes a table
(kind -> rule) or small named rules in an ordered table, as ADR 0016 says.  A ``__post_init__``
validator is exempt: a long list of one-line checks, each failing with its own typed error, reads
best as it is (STYLE rule 3).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from radon.complexity import cc_rank, cc_visit
from radon.visitors import Class, Function

ROOT = Path(__file__).resolve().parents[1] / "ssbg"
LIMIT = 31  # the lowest complexity radon ranks E
EXEMPT = frozenset({"__post_init__"})


def _functions(blocks: Iterable[Function | Class]) -> Iterator[Function]:
    """Every function, method and nested function of radon's blocks (``cc_visit`` lists a class's
    methods beside the class, but not a function's closures)."""
    for block in blocks:
        if isinstance(block, Function):
            yield block
            yield from _functions(block.closures)


def _complex_functions() -> list[str]:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        blocks = cc_visit(path.read_text(encoding="utf-8"))
        found += [
            f"{path.relative_to(ROOT.parent)}:{f.lineno} {f.fullname} ({f.complexity})"
            for f in _functions(blocks)
            if f.complexity >= LIMIT and f.name not in EXEMPT
        ]
    return found


def test_the_limit_is_where_radon_ranks_e() -> None:
    assert (cc_rank(LIMIT - 1), cc_rank(LIMIT)) == ("D", "E")


def test_no_function_ranks_e_or_f_outside_validators() -> None:
    assert _complex_functions() == []


def test_the_walk_finds_methods_and_nested_functions() -> None:
    source = "class A:\n    def m(self):\n        def inner():\n            return 1\n        return inner\n"
    names = [f.fullname for f in _functions(cc_visit(source))]
    assert names == ["A.m", "inner"]
