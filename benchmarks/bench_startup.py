"""``import ssbg``: cumulative import time and the modules it imports, the base commit against this checkout.

Each figure is the ``ssbg`` line of ``python -X importtime -c "import ssbg"`` (its cumulative
microseconds), in a fresh process per run, bytecode caches warm (each tree is imported once first
with bytecode writing on); the two sides take turns, 15 runs each, and the median is printed
(ADR 0015: this machine's load moves).  The modules are those ``import ssbg`` adds to
``sys.modules``; ``tests/test_import_cost.py`` keeps that list from growing.
Run: ``python benchmarks/bench_startup.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path

import abtest
from figures import figure, verdict

TARGET_MS = 60.0  # issue 21
_SSBG_LINE = re.compile(r"import time:\s+\d+ \|\s+(\d+) \| ssbg$", re.MULTILINE)
MODULES = "import sys; before = set(sys.modules); import ssbg; print(' '.join(sorted(set(sys.modules) - before)))"


def import_us(tree: Path) -> int:
    """Cumulative microseconds of ``import ssbg`` from ``tree``, in a fresh process."""
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", "import ssbg"], capture_output=True, text=True,
                         check=True, env=abtest.side_env(tree), cwd=tree)  # fmt: skip
    found = _SSBG_LINE.search(out.stderr)
    if found is None:
        raise SystemExit(f"bench_startup: no 'ssbg' line in -X importtime output:\n{out.stderr[-1000:]}")
    return int(found.group(1))


def modules(tree: Path) -> list[str]:
    out = subprocess.run([sys.executable, "-c", MODULES], capture_output=True, text=True, check=True,
                         env=abtest.side_env(tree), cwd=tree)  # fmt: skip
    return out.stdout.split()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    rev = abtest.base_revision()
    with abtest.checkout(rev) as old_tree:
        trees = {"old": old_tree, "new": abtest.ROOT}
        for tree in trees.values():
            import_us(tree)  # writes the bytecode caches
        times: dict[str, list[int]] = {"old": [], "new": []}
        for r in range(args.runs):
            for side in ("old", "new") if r % 2 == 0 else ("new", "old"):
                times[side].append(import_us(trees[side]))
        found = {side: modules(tree) for side, tree in trees.items()}
    median = {side: statistics.median(t) / 1000 for side, t in times.items()}
    print(f"import ssbg, cumulative (-X importtime), median of {args.runs} fresh processes, warm bytecode caches:"
          f" old = {abtest.short(rev)}, new = this checkout")  # fmt: skip
    print(f"{'':6} {'median ms':>10} {'min ms':>8} {'max ms':>8} {'modules':>8}")
    for side in ("old", "new"):
        t = times[side]
        print(f"{side:6} {median[side]:10.1f} {min(t) / 1000:8.1f} {max(t) / 1000:8.1f} {len(found[side]):8d}")
    ratios = [o / n for o, n in zip(times["old"], times["new"], strict=True)]
    print(f"new/old: {statistics.median(ratios):.2f}x faster (median of adjacent runs); target <= {TARGET_MS:.0f} ms")
    figure("startup", f"{median['new']:.1f} ms, {len(found['new'])} modules ({abtest.short(rev)} in the same run:"
                      f" {median['old']:.1f} ms, {len(found['old'])} modules)")  # fmt: skip
    verdict("startup", median["new"] <= TARGET_MS)
    print(f"modules `import ssbg` still imports ({len(found['new'])}): {' '.join(found['new'])}")
    gone = sorted(set(found["old"]) - set(found["new"]))
    print(f"no longer imported ({len(gone)}): {' '.join(gone)}")


if __name__ == "__main__":
    main()
