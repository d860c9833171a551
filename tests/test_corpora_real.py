"""Issue 4's figures on the development corpora in ../shared/corpora (read once per module; < 60 s).

Skipped with a reason when the corpora are absent, never under CI=true (see
tests/conftest.py).  A target the honest rules do not reach would be pinned as a
strict xfail (reaching it fails loudly and the marker must go), with a floor below
it that guards against regressions; today every figure is asserted at its target.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ssbg.errors import IMPORT_REASONS
from ssbg.reading.readers import READERS
from ssbg.reading.records import CorpusRecord
from ssbg.stats.gold import (
    CORPUS_FILES,
    RateAgreement,
    UnknownAgreement,
    cogcomp_rate_agreement,
    mawps_unknown_agreement,
    operand_sources,
    unit_mismatch_survey,
)
from ssbg.trace import Trace, bind_trace
from tests.conftest import corpora_dir

pytestmark = pytest.mark.corpora

TOTALS = {"gsm8k": 7473, "svamp": 1000, "mawps": 2373, "cogcomp": 1492}


@pytest.fixture(scope="module")
def corpora() -> dict[str, list[CorpusRecord]]:
    root = corpora_dir()
    return {name: list(READERS[name](root / relative)) for name, (relative, _target) in CORPUS_FILES.items()}


def share(records: list[CorpusRecord]) -> float:
    return sum(r.refusal is None for r in records) / len(records)


@pytest.mark.parametrize("name", sorted(TOTALS))
def test_every_problem_is_read_once(corpora: dict[str, list[CorpusRecord]], name: str) -> None:
    assert len(corpora[name]) == TOTALS[name]
    assert len({r.problem_id for r in corpora[name]}) == TOTALS[name]


@pytest.mark.parametrize("name", sorted(TOTALS))
def test_refusals_are_typed_and_add_up(corpora: dict[str, list[CorpusRecord]], name: str) -> None:
    records = corpora[name]
    refused = [r for r in records if r.refusal is not None]
    assert {r.refusal.reason for r in refused if r.refusal} <= IMPORT_REASONS
    assert all(r.refusal.path and r.refusal.problem_id == r.problem_id for r in refused if r.refusal)
    assert len(refused) + sum(isinstance(r.payload, Trace) for r in records) == len(records)


@pytest.mark.parametrize("name", sorted(TOTALS))
def test_import_share_meets_the_target(corpora: dict[str, list[CorpusRecord]], name: str) -> None:
    assert share(corpora[name]) >= CORPUS_FILES[name][1]


def test_gsm8k_operands_mostly_come_from_the_problem_text(corpora: dict[str, list[CorpusRecord]]) -> None:
    sources = operand_sources(r.payload for r in corpora["gsm8k"] if isinstance(r.payload, Trace))
    total = sum(sources.values())
    assert sources["mention (text)"] / total > 0.5
    assert sources.get("mention (solution)", 0) / total < 0.05


@pytest.mark.parametrize("name", sorted(TOTALS))
def test_every_imported_trace_binds(corpora: dict[str, list[CorpusRecord]], name: str) -> None:
    for record in corpora[name]:
        if isinstance(record.payload, Trace):
            graph = bind_trace(record.payload)
            assert len(graph.unknowns) == 1


@pytest.fixture(scope="module")
def rates() -> RateAgreement:
    return cogcomp_rate_agreement(corpora_dir() / CORPUS_FILES["cogcomp"][0])


def test_cogcomp_rate_flags_agree(rates: RateAgreement) -> None:
    assert rates.flags > 4000
    assert rates.flag_share >= 0.90
    assert rates.problem_share >= 0.90


@pytest.fixture(scope="module")
def unknowns() -> UnknownAgreement:
    return mawps_unknown_agreement(corpora_dir() / CORPUS_FILES["mawps"][0])


def test_mawps_named_unknowns_agree(unknowns: UnknownAgreement) -> None:
    assert unknowns.evaluable >= 100
    assert unknowns.share >= 0.90  # issue 4's target (91.9% measured, 102 of 111)


def test_gsm8k_unit_mismatch_survey(corpora: dict[str, list[CorpusRecord]]) -> None:
    survey = unit_mismatch_survey(r.payload for r in corpora["gsm8k"] if isinstance(r.payload, Trace))
    assert sum(survey.statuses.values()) == survey.steps > 5000
    assert survey.mismatch_share < 0.20
    top = survey.top(20)
    assert len(top) == 20
    assert [count for _, count, _ in top] == sorted((count for _, count, _ in top), reverse=True)


def test_corpora_path_is_resolved_next_to_the_project() -> None:
    assert corpora_dir() == (Path(__file__).resolve().parents[1] / ".." / "shared" / "corpora").resolve()
