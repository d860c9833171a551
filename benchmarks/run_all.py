"""Run every benchmark in one go (``make bench``), print their tables, and record their figures.

Each benchmark is a plain script run in its own process, one after the other,
so they do not compete for the two cores.  A benchmark whose inputs are absent
(the development corpora outside this machine) says so and is skipped.  The
old-against-new ones (binding, units, startup, scaling, instructions) compare
this checkout with ``abtest.BASELINE``; ``SSBG_BENCH_BASE=<rev> make bench``
compares it with another revision.

What each benchmark prints goes to this process's output as it comes; the
``figure <key>: <text>`` lines among it (``figures.py``) are written to
``benchmarks/results.json`` with the run's date, commit, base and load, and the
README's speed table is rendered from that file (``speed_table.py``), so the
table is what this run printed.  ``--only bench_x.py,...`` runs some of the
benchmarks and replaces only their entries (each keeps its own date);
``--no-readme`` leaves the README as it is.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import abtest
import figures
import speed_table

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results.json"
FIRST = ("bench_units.py", "bench_binding.py", "bench_startup.py", "bench_scaling.py", "bench_import.py",
         "bench_report.py", "bench_cli_report.py")  # fmt: skip
ORDER = FIRST + tuple(sorted(p.name for p in HERE.glob("bench_*.py") if p.name not in FIRST))


def run(script: Path) -> tuple[int, float, str]:
    """Run one benchmark, its output passed through as it comes: (exit code, seconds, output)."""
    start = time.perf_counter()
    with subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, bufsize=1) as proc:
        assert proc.stdout is not None  # noqa: S101 - a pipe we opened
        lines = []
        for line in proc.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            lines.append(line)
    return proc.returncode, time.perf_counter() - start, "".join(lines)


def load_results(path: Path = RESULTS) -> dict[str, Any]:
    if not path.is_file():
        return {"scripts": {}}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def commit() -> str:
    out = subprocess.run(["git", "-C", str(HERE.parent), "describe", "--always", "--dirty"], capture_output=True,
                         text=True, check=False)  # fmt: skip
    return out.stdout.strip() or "?"


def write_results(results: dict[str, Any], path: Path = RESULTS) -> None:
    """Written whole or not at all (STYLE 16)."""
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(results, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default="", help="comma-separated benchmark scripts (default: all)")
    parser.add_argument("--no-readme", action="store_true", help="record the figures, leave the README alone")
    args = parser.parse_args()
    names = [n.strip() for n in args.only.split(",") if n.strip()] or list(ORDER)
    unknown = sorted(set(names) - set(ORDER))
    if unknown:
        raise SystemExit(f"run_all: no benchmark {', '.join(unknown)} (there are {', '.join(ORDER)})")
    started = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    run_info = {"date": started, "commit": commit(), "base": abtest.short(abtest.base_revision()),
                "python": platform.python_version(), "cores": os.cpu_count()}  # fmt: skip
    entries: dict[str, Any] = {}
    failures = 0
    for name in names:
        script = HERE / name
        print(f"== {name}", flush=True)
        load = os.getloadavg()[0]
        code, seconds, output = run(script)
        print(f"   ({seconds:.1f} s, exit {code})\n", flush=True)
        failures += code != 0
        entries[name] = {"date": started, "commit": run_info["commit"], "exit": code, "seconds": round(seconds, 1),
                         "load": round(load, 1), "figures": figures.parse(output)}  # fmt: skip
    # read again now: another run of some benchmarks may have recorded its own since this one started
    results = load_results() if args.only else {"scripts": {}}
    results.update(run_info)
    results["scripts"].update(entries)
    write_results(results)
    print(f"figures written to {RESULTS.relative_to(HERE.parent)}")
    if not args.no_readme:
        speed_table.write_readme(results)
        print(f"speed table rendered into {speed_table.README.name}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
