"""Mutation testing of the core (``make mutation``): mutmut on ``ssbg/units.py`` and ``ssbg/admissibility.py``.

Each module runs in its own scratch copy of the repository (``.mutation/<module>/``, ignored by git)
with a ``[tool.mutmut]`` section that mutates only that module and runs only the tests that are about
it (a focused selection: the whole suite would take hours on two cores).  The score is

    (killed + timed out) / (killed + timed out + survived + not run by any selected test)

over the mutants run, and every survivor is listed (``--diffs``: with its diff), for a reader to
classify as equivalent (no test can tell it from the original) or as a gap (a test should).
``--sample N`` scores a random sample of N mutants per module (``--seed``) when a full run takes too
long; ``--source DIR`` tests another checkout (an earlier commit, for a score before a change).

Usage: ``python benchmarks/mutation.py [--module units|admissibility] [--sample N] [--seed S] [--jobs J]``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRATCH = ROOT / ".mutation"

TESTS: dict[str, list[str]] = {
    "units": [
        "tests/test_units.py",
        "tests/test_units_hardening.py",
        "tests/test_units_contract.py",
        "tests/test_pack.py",
        "tests/test_pack_compose.py",
        "tests/test_counts_pack.py",
        "tests/test_numbers.py",
        "tests/test_bad_input.py",
    ],
    "admissibility": [
        "tests/test_admissibility.py",
        "tests/test_admissibility_table.py",
        "tests/test_admissibility_contract.py",
        "tests/test_trace.py",
        "tests/test_adapter.py",
        "tests/test_bad_input.py",
    ],
}
COPY = ("ssbg", "tests", "packs", "data", "pyproject.toml", "README.md")


def _scratch(module: str, source: Path = ROOT) -> Path:
    """A fresh copy of what the tests need (from ``source``: a checkout), with a mutmut section for ``module``."""
    work = SCRATCH / (module if source == ROOT else f"{module}-{source.name}")
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    for name in COPY:
        src = source / name
        if src.is_dir():
            shutil.copytree(src, work / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        elif src.exists():
            shutil.copy2(src, work / name)
    config = {
        "source_paths": ["ssbg"],
        "only_mutate": [f"ssbg/{module}.py"],
        "also_copy": ["packs", "data", "README.md"],
        # the selected tests only, no doctest collection of the mutated package, stop at the first failure
        "pytest_add_cli_args": [
            "-x", "-q", "--no-header", "-o", "addopts=-p no:cacheprovider", "-k", "not wheel", "-m", "not slow",
        ],
        "pytest_add_cli_args_test_selection": [t for t in TESTS[module] if (source / t).exists()],
        "use_git_change_detection": False,
    }
    lines = ["", "[tool.mutmut]"] + [f"{key} = {json.dumps(value)}" for key, value in config.items()]
    with (work / "pyproject.toml").open("a", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return work


def _mutmut(work: Path, *args: str) -> subprocess.CompletedProcess[str]:
    mutmut = Path(sys.executable).with_name("mutmut")
    env = dict(os.environ, PYTHONHASHSEED="0")
    return subprocess.run([str(mutmut), *args], cwd=work, capture_output=True, text=True, env=env, check=False)


def _mutant_names(work: Path, module: str) -> list[str]:
    """Every mutant of ``module`` (mutmut names them ``ssbg.<module>.x_<function>__mutmut_<n>``)."""
    _mutmut(work, "run", "no-such-mutant")  # generates the mutants, then finds none to run
    meta = work / "mutants" / "ssbg" / f"{module}.py.meta"
    data = json.loads(meta.read_text(encoding="utf-8"))
    return sorted(data["exit_code_by_key"])


def _results(work: Path, module: str) -> dict[str, str]:
    """Each mutant's outcome, as mutmut names it (``killed``, ``survived``, ``no tests``, ``timeout``, ...)."""
    from mutmut.stats import status_by_exit_code

    meta = work / "mutants" / "ssbg" / f"{module}.py.meta"
    codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
    return {name: status_by_exit_code[code] for name, code in codes.items()}


def run(module: str, *, sample: int | None, seed: int, jobs: int, source: Path = ROOT) -> dict[str, object]:
    work = _scratch(module, source)
    names = _mutant_names(work, module)
    chosen = sorted(random.Random(seed).sample(names, sample)) if sample and sample < len(names) else names
    start = time.monotonic()
    done = _mutmut(work, "run", "--max-children", str(jobs), *chosen)
    elapsed = time.monotonic() - start
    results = {name: outcome for name, outcome in _results(work, module).items() if name in set(chosen)}
    counts: dict[str, int] = {}
    for outcome in results.values():
        counts[outcome] = counts.get(outcome, 0) + 1
    # a mutant no selected test runs ("no tests") is not killed: it counts against the score
    scored = sum(counts.get(k, 0) for k in ("killed", "timeout", "survived", "no tests", "suspicious"))
    killed = counts.get("killed", 0) + counts.get("timeout", 0)
    survivors = sorted(name for name, outcome in results.items() if outcome in ("survived", "no tests", "suspicious"))
    return {
        "module": module,
        "mutants": len(names),
        "ran": len(chosen),
        "counts": counts,
        "score_pct": round(100 * killed / scored, 1) if scored else None,
        "seconds": round(elapsed),
        "survivors": survivors,
        "mutmut_exit": done.returncode,
        "mutmut_tail": done.stdout[-2000:] + done.stderr[-2000:],
    }


def show(module: str, name: str, source: Path = ROOT) -> str:
    """The diff of one mutant (``mutmut show``)."""
    return _mutmut(SCRATCH / (module if source == ROOT else f"{module}-{source.name}"), "show", name).stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", choices=sorted(TESTS), action="append")
    parser.add_argument("--sample", type=int, help="score a random sample of this many mutants per module")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--diffs", action="store_true", help="print every survivor's diff")
    parser.add_argument("--source", type=Path, default=ROOT, help="a checkout to test instead (an earlier commit)")
    args = parser.parse_args()
    for module in args.module or sorted(TESTS):
        result = run(module, sample=args.sample, seed=args.seed, jobs=args.jobs, source=args.source)
        print(f"{module}: {result['score_pct']}% of {result['ran']} mutants scored "
              f"({result['mutants']} in all) in {result['seconds']} s: {result['counts']}")
        if result["score_pct"] is None:
            print(result["mutmut_tail"])
        for name in result["survivors"]:  # type: ignore[attr-defined]
            print(f"  survived {name}")
            if args.diffs:
                print(show(module, name, args.source))
    return 0


if __name__ == "__main__":
    sys.exit(main())
