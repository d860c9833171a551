"""Weak labels from gold solutions (issue 36 item 2, ADR 0039): what the binder admits becomes a soft target, the
training fits soft targets with a weight, and neither a gold problem nor the held-out half is ever weakly labelled."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from ssbg.errors import ProblemGraphError
from ssbg.reading.learned.model import load_model
from ssbg.stats import train_reader as T  # noqa: N812 - the training module
from ssbg.stats import weak_labels as W  # noqa: N812 - the module under test
from ssbg.stats.alignment import GOLD_FILE, load_gold
from ssbg.units import corpus_pack

_WENG = (
    "Weng earns $12 an hour for babysitting. Yesterday, she just did 50 minutes of babysitting. How much did she earn?",
    "Weng earns 12/60 = $<<12/60=0.2>>0.2 per minute.\nWorking 50 minutes, she earned 0.2 x 50 = $<<0.2*50=10>>10.\n"
    "#### 10",
)


def _derived() -> W.WeakProblem:
    model = load_model()
    assert model is not None
    found = W.derive(*_WENG, "train-2", 2, model, corpus_pack())
    assert found is not None
    return found


def test_the_readings_that_admit_the_gold_solution_carry_the_target() -> None:
    weak = _derived()
    assert 0 < weak.admitting < weak.combinations <= W.MAX_COMBINATIONS
    wage = next(m for m in weak.mentions if m.span[0] == _WENG[0].index("$12"))
    shares = {(unit, per): share for unit, per, share in wage.readings}
    assert shares[("dollar", "hour")] == pytest.approx(1.0)  # $12 an hour times the hours: only the rate admits it
    assert all(share == 0.0 for key, share in shares.items() if key != ("dollar", "hour"))
    assert all(abs(sum(s for _, _, s in m.readings) - 1.0) < 1e-5 for m in weak.mentions)


def test_derivation_is_deterministic_and_round_trips() -> None:
    first, again = _derived(), _derived()
    assert first == again
    assert W.WeakProblem.from_dict(json.loads(json.dumps(first.to_dict()))) == first


def test_the_combinations_are_bounded_least_probable_first() -> None:
    probability = [[0.5, 0.3, 0.2]] * 5
    kept = W._bounded([[0, 1, 2]] * 5, probability)
    assert math.prod(len(c) for c in kept) <= W.MAX_COMBINATIONS < 3**5
    assert all(c[:1] == [0] and 2 not in c for c in kept)  # each keeps its likeliest reading, the least goes first


def test_for_one_tries_every_set_of_few_rates_and_all_of_many() -> None:
    assert W._for_one_sets([]) == []
    assert W._for_one_sets([0, 2]) == [(0,), (2,), (0, 2)]
    assert W._for_one_sets(list(range(W.MAX_FOR_ONE + 1))) == [tuple(range(W.MAX_FOR_ONE + 1))]


def test_a_bad_weak_label_line_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "weak.jsonl"
    path.write_text(json.dumps({"format": W.FORMAT}) + "\n" + '{"problem_id": "train-2"}\n', encoding="utf-8")
    with pytest.raises(ProblemGraphError, match=r"weak\.jsonl:2"):
        W.load_weak(path)
    path.write_text(json.dumps({"format": "other"}) + "\n", encoding="utf-8")
    with pytest.raises(ProblemGraphError, match=r"weak\.jsonl:1"):
        W.load_weak(path)


def test_weak_labels_of_an_annotated_problem_are_refused(tmp_path: Path) -> None:
    held_out = next(g for g in load_gold(GOLD_FILE) if g.split == "heldout")
    path = tmp_path / "weak.jsonl"
    row = W.WeakProblem(held_out.problem_id, held_out.line, (W.WeakMention((0, 1), ((None, None, 1.0),)),), 1, 1)
    path.write_text(json.dumps({"format": W.FORMAT}) + "\n" + json.dumps(row.to_dict()) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="annotated problem"):
        T.weak_rows(tmp_path, path, 0.3)  # refused before any corpus is read


_FEATURES: tuple[tuple[dict[str, float], ...], ...] = (
    ({"a": 1.0, "b": 1.0}, {"b": 1.0}, {}),
    ({"a": 1.0}, {"b": 1.0, "c": 1.0}, {"c": 1.0}),
)


def _rows() -> list[T.Example]:
    return [T.Example(f"p{i}", "unit", _FEATURES[i % 2], i % 3 % 2) for i in range(12)]


def test_a_one_hot_soft_target_fits_as_the_hard_label() -> None:
    hard = _rows()
    soft = [replace(e, targets=tuple(float(k == e.label) for k in range(len(e.features)))) for e in hard]
    assert T._fit(soft) == T._fit(hard)


def test_a_weak_label_of_weight_zero_changes_nothing_and_a_weighed_one_moves_the_weights() -> None:
    hard = _rows()
    weak = T.Example("w", "unit", _FEATURES[0], 2, (0.0, 0.2, 0.8), 0.0)
    assert T._fit([*hard, weak]) == T._fit(hard)
    moved = T._fit([*hard, replace(weak, weight=5.0)])
    assert moved != T._fit(hard)
    assert not replace(weak, weight=5.0).hand
    assert hard[0].hand
