"""Shared fixtures: where the development corpora are, and a clean pack cache."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

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
