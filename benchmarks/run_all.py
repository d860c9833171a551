"""Run every benchmark in one go (``make bench``) and print their tables.

Each benchmark is a plain script run in its own process, one after the other,
so they do not compete for the two cores.  A benchmark whose inputs are absent
(the development corpora outside this machine) says so and is skipped.  The
old-against-new ones (binding, units, startup, scaling, instructions) compare
this checkout with ``abtest.BASELINE``; ``SSBG_BENCH_BASE=<rev> make bench``
compares it with another revision.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIRST = ("bench_units.py", "bench_binding.py", "bench_startup.py", "bench_scaling.py", "bench_import.py",
         "bench_report.py")  # fmt: skip
ORDER = FIRST + tuple(sorted(p.name for p in HERE.glob("bench_*.py") if p.name not in FIRST))


def main() -> int:
    failures = 0
    for name in ORDER:
        script = HERE / name
        if not script.exists():
            print(f"== {name}: not present, skipped\n")
            continue
        print(f"== {name}", flush=True)
        start = time.perf_counter()
        result = subprocess.run([sys.executable, str(script)], check=False)
        print(f"   ({time.perf_counter() - start:.1f} s, exit {result.returncode})\n", flush=True)
        failures += result.returncode != 0
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
