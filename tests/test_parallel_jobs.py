"""``--jobs N`` (issue 28): batches that keep a question's solutions together, one batch worked in this
process, and the work warmed in the parent before the workers are forked.  No timings: what is checked
is where the work runs and how it is cut."""

from __future__ import annotations

import json
import multiprocessing
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from ssbg.checking.batch import _batched
from ssbg.reading.readers.common import RawRecord
from ssbg.stats.batch import map_batches

FORK = "fork" in multiprocessing.get_all_start_methods()


def raw(line: int, question: str) -> RawRecord:
    return RawRecord(Path("f.jsonl"), line, json.dumps({"q": question, "s": "1 + 1 = 2"}).encode())


def sizes(records: list[RawRecord], size: int) -> list[int]:
    return [len(batch) for batch in _batched(iter(records), size, "q")]


def test_a_batch_grows_while_the_next_record_asks_the_same_question() -> None:
    records = [raw(i, f"question {i // 5}") for i in range(20)]  # five solutions per question
    assert sizes(records, 3) == [5, 5, 5, 5]


def test_batches_of_different_questions_are_cut_at_their_size() -> None:
    records = [raw(i, f"question {i}") for i in range(7)]
    assert sizes(records, 3) == [3, 3, 1]


def test_a_batch_stops_growing_at_eight_times_its_size() -> None:
    records = [raw(i, "the same question") for i in range(40)]
    assert sizes(records, 2) == [16, 16, 8]


def test_a_record_without_a_question_ends_a_full_batch() -> None:
    records = [raw(0, "a"), raw(1, "a"), RawRecord(Path("f.jsonl"), 3, b"{not json"), raw(4, "a")]
    assert sizes(records, 2) == [2, 2]


def test_batching_keeps_every_record_in_order() -> None:
    records = [raw(i, f"question {i // 4}") for i in range(30)]
    batches = list(_batched(iter(records), 3, "q"))
    assert [r for batch in batches for r in batch] == records


def _pid(batch: Sequence[int]) -> int:
    return os.getpid()


def test_a_single_batch_is_worked_in_this_process() -> None:
    assert [pid for _, pid in map_batches([[1, 2, 3]], _pid, jobs=2)] == [os.getpid()]


@pytest.mark.skipif(not FORK, reason="workers are forked only where the platform has fork")
def test_several_batches_go_to_the_workers() -> None:
    pids = [pid for _, pid in map_batches([[1], [2], [3], [4]], _pid, jobs=2)]
    assert os.getpid() not in pids


warmed_pids: list[int] = []


@dataclass(frozen=True)
class _Warmable:
    def __call__(self, batch: Sequence[int]) -> tuple[int, int]:
        return len(warmed_pids), os.getpid()

    def warm(self) -> None:
        warmed_pids.append(os.getpid())


@pytest.mark.skipif(not FORK, reason="warmed in the parent only where the workers are forked")
def test_the_work_is_warmed_once_in_the_parent_and_the_workers_inherit_it() -> None:
    warmed_pids.clear()
    results = [result for _, result in map_batches([[1], [2], [3]], _Warmable(), jobs=2)]
    assert warmed_pids == [os.getpid()]
    assert all(warmed == 1 and pid != os.getpid() for warmed, pid in results)
