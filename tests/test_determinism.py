"""Canonical strings are byte-equal across runs, processes and PYTHONHASHSEED values."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# Binds a fixed set of problems drawn from the Hypothesis strategy with a fixed
# seed (so set iteration, dict order and hashing all get exercised) and prints
# the digest of every canonical string.
SCRIPT = r"""
import hashlib, sys
sys.path.insert(0, {repo!r})
from tests.strategies import problem_graphs
from ssbg import bind_math_problem_graph
from ssbg.admissibility import check_operation
out = []
strategy = problem_graphs()
from hypothesis import given, settings, HealthCheck, seed, Phase
problems = []
@seed(1234)
@settings(max_examples=60, database=None, derandomize=True, phases=[Phase.generate],
          suppress_health_check=list(HealthCheck))
@given(strategy)
def collect(g):
    problems.append(g)
collect()
for g in problems:
    out.append(hashlib.sha256(bind_math_problem_graph(g).to_canonical_string().encode()).hexdigest())
for kind, units in [("add", ["hours", "minutes", "seconds"]), ("apply_rate", ["dollars_per_hour", "minutes"])]:
    out.append(check_operation(kind, units).to_canonical_string())
print("\n".join(out))
"""


def _run(seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(repo=str(REPO))],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    )
    return result.stdout


def test_canonical_strings_are_byte_equal_across_hash_seeds() -> None:
    first = _run("0")
    second = _run("4242")
    assert len(first.splitlines()) == 62
    assert first == second
    assert hashlib.sha256(first.encode()).hexdigest() == hashlib.sha256(second.encode()).hexdigest()
