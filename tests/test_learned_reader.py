"""The learned reader (ADR 0021): candidates, features, the shipped model, its training and its limits."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from ssbg.errors import PackError
from ssbg.reading.learned.model import (
    ALT_MIN,
    MODEL_FILE,
    Model,
    load_model,
    mention_readings,
    question_checksum,
    using,
)
from ssbg.reading.learned.proposals import TextIndex, per_candidates, unit_candidates
from ssbg.reading.mentions import extract_mentions, find_question_span, tokenize
from ssbg.reading.problem_text import read_problem_text
from ssbg.stats.alignment import GOLD_FILE, load_gold
from tests.conftest import BACKGROUND, corpora_dir, run_job

REPO = Path(__file__).resolve().parents[1]
CORPORA = REPO.parent / "shared" / "corpora"
SHIPPED = REPO / "ssbg" / "reading" / "learned" / MODEL_FILE


def _read(text: str, model: Model | None = None) -> tuple[tuple[str, str | None, str | None], ...]:
    with using(model if model is not None else load_model()):
        mentions = read_problem_text(text, find_question_span(text)).mentions
    return tuple((m.text, m.unit, m.alt_unit) for m in mentions)


# ------------------------------------------------------------------ candidates


def test_the_proposers_offer_what_the_rules_miss() -> None:
    text = "Each tree has 6 lemons. Her daily allowance is $12. Sam has 5 apples and Tom has 3."
    toks = tokenize(text)
    mentions = extract_mentions(text)
    index = TextIndex.of(toks)
    lemons, allowance, _apples, three = mentions
    assert "tree" in {c.lemma for c in per_candidates(toks, lemons, index)}  # "each tree" before the number
    assert "day" in {c.lemma for c in per_candidates(toks, allowance, index)}  # "daily"
    assert three.unit is None
    assert "apple" in {c.lemma for c in unit_candidates(toks, three, mentions, index)}  # the elided noun
    assert None in {c.lemma for c in unit_candidates(toks, three, mentions, index)}  # and no unit at all


def test_the_proposers_stay_bounded_on_a_long_text() -> None:
    text = "He has 5 apples and 3 pears. " * 400
    toks = tokenize(text)
    mentions = extract_mentions(text)
    index = TextIndex.of(toks)
    for m in mentions[::97]:
        assert len(unit_candidates(toks, m, mentions, index)) <= 2 + 10 + 12 + 1
        assert len(per_candidates(toks, m, index)) <= 1 + 2 + 60 + 30


# ------------------------------------------------------------------ the model and the decision


def test_readings_are_probabilities_best_first() -> None:
    text = "A local restaurant sells a bucket and 2 sides for $12.00. How much do 6 buckets cost?"
    toks = tokenize(text)
    mentions = extract_mentions(text)
    model = load_model()
    assert model is not None
    for m in mentions:
        if m.kind != "quantity":
            continue
        readings = mention_readings(toks, m, mentions, TextIndex.of(toks), model)
        probabilities = [r.probability for r in readings]
        assert probabilities == sorted(probabilities, reverse=True)
        assert all(0.0 <= p <= 1.0 for p in probabilities)
        assert sum(probabilities) <= 1.0 + 1e-9


def test_a_second_reading_is_kept_only_when_it_is_plausible() -> None:
    model = load_model()
    assert model is not None
    text = "She buys 3 boxes of 12 crayons for $5. How many crayons?"
    toks = tokenize(text)
    mentions = extract_mentions(text)
    read = {m.text: m for m in read_problem_text(text, find_question_span(text)).mentions}
    for m in mentions:
        if m.kind != "quantity":
            continue
        second = mention_readings(toks, m, mentions, TextIndex.of(toks), model)[1:2]
        plausible = bool(second) and second[0].probability >= ALT_MIN
        if not plausible or read[m.text].unit is None:
            assert read[m.text].alt_unit is None
        else:
            assert read[m.text].alt_unit is not None


def test_without_a_model_reading_is_the_rules_alone() -> None:
    text = "Weng earns $12 an hour. She worked 50 minutes. How much did she earn?"
    with using(None):
        assert read_problem_text(text, find_question_span(text)).mentions == extract_mentions(text)
    elided = "Sam has 5 apples and Tom has 3. How many apples do they have?"
    with using(None):
        rules = [m.unit for m in read_problem_text(elided, find_question_span(elided)).mentions]
    assert rules == ["apples", None]  # the rules leave Tom's 3 a bare number
    assert [unit for _text, unit, _alt in _read(elided)] == ["apples", "apples"]  # the model reads the elided noun


def test_a_model_file_of_another_format_is_refused() -> None:
    with pytest.raises(PackError, match="format"):
        Model.from_dict({"format": "something/else", "factors": {}})


def test_import_ssbg_loads_no_model_and_no_training_library() -> None:
    probe = (
        "import sys, ssbg; from ssbg.reading.learned.model import load_model;"
        " print(load_model.cache_info().currsize, 'ssbg.stats.train_reader' in sys.modules, 'scipy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "False", "False"]


def test_reading_is_the_same_under_any_hash_seed() -> None:
    probe = (
        "from ssbg.reading.problem_text import read_problem_text; from ssbg.reading.mentions import find_question_span;"
        " t = 'Each fox catches 4 weasels and 2 rabbits per week. A jar holds 160 quarters. How many?';"
        " print(repr(read_problem_text(t, find_question_span(t)).mentions))"
    )
    runs = {
        subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("0", "1", "12345")
    }  # fmt: skip
    assert len(runs) == 1


# ------------------------------------------------------------------ training: only development data, byte-identical


def test_the_model_never_saw_a_held_out_or_test_question() -> None:
    model = load_model()
    assert model is not None
    seen = set(model.manifest["training_questions"])
    heldout = [g for g in load_gold(GOLD_FILE) if g.split == "heldout"]
    lines = (CORPORA / "gsm8k/train.jsonl").read_text(encoding="utf-8").splitlines()
    for g in heldout:
        assert question_checksum(json.loads(lines[g.line - 1])["question"]) not in seen
    dev_file = CORPORA / "gsm8k_model_solutions/dev.jsonl"  # its questions are GSM8K test's
    test_questions = [json.loads(line)["question"] for line in dev_file.open(encoding="utf-8")]
    assert len(test_questions) > 500
    assert not seen & {question_checksum(q) for q in test_questions}
    assert model.manifest["problems"] == len(seen) == 1650


def _train() -> Path:
    """``make train``'s model built in a process of its own (tests/train_in_background.py); the folder it wrote."""
    out = Path(tempfile.mkdtemp(prefix="ssbg-train-"))
    run_job([str(REPO / "tests" / "train_in_background.py"), str(CORPORA), str(out)], "building make train's model")
    return out


def background_jobs(item: pytest.Item) -> list[tuple[object, Callable[[], Path]]]:
    """The build of the model, the suite's longest test, starts at collection (tests/conftest.py, Background)."""
    if item.name == "test_make_train_rebuilds_the_shipped_model_byte_identically" and CORPORA.is_dir():
        return [("make train", _train)]
    return []


@pytest.mark.corpora
@pytest.mark.slow
def test_make_train_rebuilds_the_shipped_model_byte_identically() -> None:
    from ssbg.stats.train_reader import training_gold

    corpora_dir()
    assert all(g.split != "heldout" for g in training_gold())
    built = BACKGROUND.result("make train", _train)  # started at collection, beside the other tests
    facts = json.loads((built / "facts.json").read_text(encoding="utf-8"))
    recall = facts["recall"]
    assert (built / "model.bin").read_bytes() == SHIPPED.read_bytes()
    assert SHIPPED.stat().st_size <= 5 * 2**20
    data = {d["file"]: d["sha256"] for d in facts["data"]}
    assert set(data) == {"data/gold/gsm8k_train_alignments.gold.jsonl", "data/gold/gsm8k_train_annotations.gold.jsonl"}
    assert recall["en_units_v1 both found"] / recall["en_units_v1 tokens"] > 0.9


@pytest.mark.corpora
def test_calibration_on_the_held_out_half() -> None:
    """A probability of 0.9 is right about nine times in ten: expected calibration error <= 0.05."""
    from ssbg.stats.train_reader import ece, texts_of, unit_calibration

    model = load_model()
    assert model is not None
    heldout = [g for g in load_gold(GOLD_FILE) if g.split == "heldout"]
    texts, _ = texts_of(heldout, CORPORA / "gsm8k/train.jsonl")
    pairs = [p for g in heldout for p in unit_calibration(g, texts[g.problem_id], model)]
    assert len(pairs) > 400
    assert ece(pairs) <= 0.05


@pytest.mark.corpora
def test_the_dev_rules_figure_reads_the_training_gold_without_a_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """``reader_figures.py``'s "dev, rules alone" (ADR 0029): every training problem and no held-out one, each read
    with no model; here on a sample of 60 (the script reads the 1,650)."""
    monkeypatch.syspath_prepend(str(REPO / "benchmarks"))
    import reader_figures

    from ssbg.stats import train_reader

    gold = train_reader.training_gold()
    assert not any(g.split == "heldout" for g in gold)
    seen: list[object] = []
    read = train_reader._read
    monkeypatch.setattr(train_reader, "training_gold", lambda: gold[:60])
    monkeypatch.setattr(train_reader, "_read", lambda q, a, pid, model: seen.append(model) or read(q, a, pid, model))
    figures = reader_figures.dev_rules_figures(CORPORA)
    assert figures["problems"] == 60
    assert seen == [None] * 60
    assert 0.5 < figures["units"] < 1.0
    assert 0.5 < figures["operands"] < 1.0


@pytest.mark.corpora
def test_reader_corpus_runs_on_a_sample() -> None:
    """``benchmarks/reader_corpus.py`` as the README shows it, on the first 40 problems of SVAMP and GSM8K."""
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "reader_corpus.py"), "--corpora", str(CORPORA), "--limit", "40",
         "--corpus", "svamp", "--corpus", "gsm8k"],
        capture_output=True, text=True, check=True, cwd=REPO,
    )  # fmt: skip
    figures = json.loads(done.stdout)
    assert set(figures) == {"svamp", "gsm8k"}
    for corpus in figures.values():
        assert corpus["learned"]["problems"] == corpus["rules"]["problems"]
        assert 0.0 <= corpus["learned"]["fully admitted (of imported)"] <= 1.0
    assert figures["gsm8k"]["learned"]["skipped (trained on)"] + figures["gsm8k"]["learned"]["problems"] == 40


# ------------------------------------------------------------------ n-best readings kept on request (ADR 0027)

_COMBO = "A combo meal costs $12.00 and Tim buys 3 combos for his 2 friends. How much does he pay?"


def test_readings_are_kept_only_when_asked_and_never_change_the_choice() -> None:
    from dataclasses import replace

    from ssbg.reading.learned.model import N_BEST, keeping_readings
    from ssbg.units import corpus_pack

    pack = corpus_pack()
    plain = read_problem_text(_COMBO, find_question_span(_COMBO), pack=pack)
    with keeping_readings():
        kept = read_problem_text(_COMBO, find_question_span(_COMBO), pack=pack)
    assert all(not m.readings for m in plain.mentions)
    assert any(m.readings for m in kept.mentions)
    assert [replace(m, readings=()) for m in kept.mentions] == list(plain.mentions)
    for m in kept.mentions:
        if m.readings:
            assert (m.readings[0].unit, len(m.readings) <= N_BEST) == (m.unit, True)
            assert sum(r.probability for r in m.readings) <= 1.0 + 1e-6


def test_operand_readings_hold_the_chosen_source_first() -> None:
    from ssbg.reading.learned.model import keeping_readings
    from ssbg.reading.readers.solutions import read_solution

    solution = "He pays 3 * 12 = $<<3*12=36>>36.\nA: 36"
    with keeping_readings():
        trace = read_solution(_COMBO, solution).trace
    assert trace is not None
    operands = [o for s in trace.steps for o in s.operands if o.readings]
    assert operands
    for o in operands:
        first = o.readings[0].operand
        assert (first.mention, first.step, first.constant) == (o.mention, o.step, o.constant)
