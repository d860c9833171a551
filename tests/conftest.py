"""Shared fixtures: where the development corpora are, and a clean pack cache."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# ``pytest --hypothesis-profile=fuzz`` (``make fuzz``): the seams' property tests (tests/strategies.py,
# ``seam_settings``) draw this many inputs each instead of their modest count in the normal run.
FUZZ_EXAMPLES = 20_000
settings.register_profile(
    "fuzz",
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)

REPO = Path(__file__).resolve().parents[1]
CORPORA = (REPO / ".." / "shared" / "corpora").resolve()
IN_CI = os.environ.get("CI", "").lower() == "true"


def corpora_dir() -> Path:
    """The development corpora; skips outside CI when absent, fails under CI=true."""
    if not CORPORA.is_dir():
        if IN_CI:
            pytest.fail(f"development corpora missing at {CORPORA} (CI must have them)")
        pytest.skip(f"development corpora not found at {CORPORA}")
    return CORPORA


@pytest.fixture
def corpora() -> Path:
    return corpora_dir()
