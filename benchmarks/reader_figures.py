"""The learned reader's figures, dev (cross-validated) and held out side by side (issue 24).

    python benchmarks/reader_figures.py [--corpora ../shared/corpora] [--curve]

- **dev**: the training gold (the 1,500 annotated problems and the gold set's dev half), each problem
  read by a model fitted on the other four folds (``ssbg.stats.train_reader.cross_validate``);
- **dev, rules alone**: the same training gold read by the rules without a model (what the learned reader adds,
  and what its cost in instructions is weighed against, on development data: issue 28);
- **held out**: the gold set's held-out half (150 problems no model, feature or threshold was chosen
  on), read by the shipped model and by the rules alone;
- the candidates' recall on the held-out half (is the right reading among those proposed?);
- calibration (expected calibration error of the chosen readings' probabilities) on both;
- ``--curve``: held-out mention units and operands with models fitted on 25%, 50% and 100% of the
  training problems (the learning curve).

This script reads the held-out half; ``ssbg.stats.train_reader`` never does.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from ssbg.reading.learned.model import load_model
from ssbg.stats import train_reader as T  # noqa: N812 - the training module, read throughout
from ssbg.stats.alignment import GOLD_FILE, GoldProblem, load_gold, score


def figures_of(gold: list[GoldProblem], corpora: Path, model: object) -> dict[str, float]:
    """``gold``'s problems read with ``model`` (None: the rules alone) and scored; the calibration of a model's
    chosen unit readings."""
    texts, answers = T.texts_of(gold, corpora / "gsm8k/train.jsonl")
    traces = {g.problem_id: T._read(texts[g.problem_id], answers[g.problem_id], g.problem_id, model) for g in gold}  # type: ignore[arg-type]
    s = score(gold, traces)
    pairs = [] if model is None else [p for g in gold for p in T.unit_calibration(g, texts[g.problem_id], model)]  # type: ignore[arg-type]
    return {"problems": s.problems, "operands": s.accuracy, "exact": s.exact_share, "units": s.unit_accuracy,
            "unit_tokens": s.mentions, "ece_units": T.ece(pairs) if pairs else float("nan")}  # fmt: skip


def heldout_figures(corpora: Path, model: object) -> dict[str, float]:
    return figures_of([g for g in load_gold(GOLD_FILE) if g.split == "heldout"], corpora, model)


def dev_rules_figures(corpora: Path) -> dict[str, float]:
    """The training gold read by the rules alone (no model was fitted, so nothing is out of fold to keep apart)."""
    return figures_of(T.training_gold(), corpora, None)


def heldout_recall(corpora: Path) -> dict[str, float]:
    gold = [g for g in load_gold(GOLD_FILE) if g.split == "heldout"]
    path = corpora / "gsm8k/train.jsonl"
    texts, answers = T.texts_of(gold, path)
    _, units = T.examples(gold, texts)
    _, operands = T.operand_examples(gold, texts, answers)
    p = "en_units_v1"
    return {
        "unit readings: tokens with a quantity mention": units[f"{p} tokens"],
        "unit readings: right one proposed": units[f"{p} both found"] / max(1, units[f"{p} tokens"]),
        "unit candidates per mention": units[f"{p} unit candidates"] / max(1, units[f"{p} tokens"]),
        "per candidates per mention": units[f"{p} per candidates"] / max(1, units[f"{p} tokens"]),
        "operands: literals with candidates": operands["literals with candidates"],
        "operands: right one proposed": operands["literals whose gold is a candidate"]
        / max(1, operands["literals with candidates"]),
        "operand candidates per literal": operands["operand candidates"] / max(1, operands["literals with candidates"]),
    }  # fmt: skip


def curve(corpora: Path) -> dict[str, dict[str, float]]:
    gold = T.training_gold()
    path = corpora / "gsm8k/train.jsonl"
    texts, answers = T.texts_of(gold, path)
    rows, _ = T.examples(gold, texts)
    rows += T.operand_examples(gold, texts, answers)[0]
    problems = sorted({g.problem_id for g in gold})
    out = {}
    for share in (0.25, 0.5, 1.0):
        keep = set(random.Random(T.SEED).sample(problems, round(share * len(problems))))
        model = T.fit_model([e for e in rows if e.problem in keep], {})
        out[f"{share:.0%} ({len(keep)} problems)"] = heldout_figures(corpora, model)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpora", default="../shared/corpora", type=Path)
    parser.add_argument("--curve", action="store_true")
    args = parser.parse_args()
    figures = {
        "dev (5-fold cross-validated)": T.cross_validate(args.corpora)["1.00"],
        "dev, rules alone": dev_rules_figures(args.corpora),
        "held out, learned reader": heldout_figures(args.corpora, load_model()),
        "held out, rules alone": heldout_figures(args.corpora, None),
        "held out, candidate recall": heldout_recall(args.corpora),
    }
    if args.curve:
        figures["held out, learning curve"] = curve(args.corpora)  # type: ignore[assignment]
    print(json.dumps(figures, indent=1, sort_keys=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
