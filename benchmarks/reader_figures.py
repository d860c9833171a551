"""The learned reader's figures, dev (cross-validated) and held out side by side (issues 24 and 36).

    python benchmarks/reader_figures.py [--corpora ../shared/corpora] [--curve] [--weak-weights]

- **dev**: the training gold (the 1,500 annotated problems and the gold set's dev half), each problem
  read by a model fitted on the other four folds (``ssbg.stats.train_reader.cross_validated``), with the weak labels
  of every other GSM8K train problem (``data/weak/``, ``ssbg.stats.weak_labels``: none of them a gold problem, so
  they are in every fold's training) and without them;
- **dev, rules alone**: the same training gold read by the rules without a model (what the learned reader adds,
  and what its cost in instructions is weighed against, on development data: issue 28);
- **held out**: the gold set's held-out half (150 problems no model, feature, weight or threshold was chosen
  on), read by the shipped model, by a model fitted on the hand gold alone, and by the rules alone;
- the candidates' recall on the held-out half (is the right reading among those proposed?);
- calibration (expected calibration error of the chosen readings' probabilities) on both;
- ``--curve``: dev (cross-validated) and held-out figures with models fitted on 25%, 50% and 100% of the hand-gold
  problems, with and without the weak labels (the learning curve; ``--curve-heldout-only``: without the
  cross-validation, which costs most of the run);
- ``--weak-weights``: dev (cross-validated) figures for each weight of a weak label in ``WEIGHTS`` (how
  ``train_reader.WEAK_WEIGHT`` was chosen: on dev, never on the held-out half).

This script reads the held-out half; ``ssbg.stats.train_reader`` and ``ssbg.stats.weak_labels`` never do.
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ssbg.reading.learned.model import load_model
from ssbg.stats import train_reader as T  # noqa: N812 - the training module, read throughout
from ssbg.stats.alignment import GOLD_FILE, GoldProblem, load_gold, score

WEIGHTS = (0.1, 0.3, 1.0)
"""The weights of a weak label tried on dev (``--weak-weights``)."""

SHARES = (0.25, 0.5, 1.0)
"""The shares of the hand-gold problems of the learning curve."""


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


@dataclass(frozen=True)
class Prepared:
    """The training choices, built once: the hand gold's and the weak labels' (at weight 1, re-weighed on use)."""

    gold: list[GoldProblem]
    texts: dict[str, str]
    answers: dict[str, str]
    hand: list[T.Example]
    weak: list[T.Example]

    @staticmethod
    def of(corpora: Path) -> Prepared:
        gold = T.training_gold()
        texts, answers = T.texts_of(gold, corpora / "gsm8k/train.jsonl")
        hand, _ = T.examples(gold, texts)
        hand += T.operand_examples(gold, texts, answers)[0]
        weak = T.weak_rows(corpora, T.WEAK_FILE, 1.0)[0]
        return Prepared(gold, texts, answers, hand, weak)

    def rows(self, weight: float | None) -> list[T.Example]:
        """The hand gold's choices and, unless ``weight`` is None, the weak labels' weighed ``weight``."""
        return self.hand + ([] if weight is None else [replace(e, weight=weight) for e in self.weak])

    def dev(self, weight: float | None, shares: tuple[float, ...] = (1.0,)) -> dict[str, Any]:
        return T.cross_validated(self.gold, self.texts, self.answers, self.rows(weight), shares)


def curve(corpora: Path, data: Prepared, *, dev: bool = True) -> dict[str, Any]:
    """Held-out and (``dev``) cross-validated figures at each share of the hand gold, without and with weak labels
    (the weak labels whole at every share: they cost no annotation)."""
    problems = sorted({g.problem_id for g in data.gold})
    out: dict[str, Any] = {}
    for name, weight in (("hand gold alone", None), (f"with weak labels (weight {T.WEAK_WEIGHT})", T.WEAK_WEIGHT)):
        cv = data.dev(weight, SHARES) if dev else {}
        for share in SHARES:
            keep = set(random.Random(T.SEED).sample(problems, round(share * len(problems))))
            rows = [e for e in data.rows(weight) if e.problem in keep or not e.hand]
            model = T.fit_model(rows, {})
            out[f"{share:.0%} ({len(keep)} problems), {name}"] = {
                "held out": heldout_figures(corpora, model),
                **({"dev (5-fold CV)": cv[f"{share:.2f}"]} if dev else {}),
            }  # fmt: skip
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpora", default="../shared/corpora", type=Path)
    parser.add_argument("--curve", action="store_true")
    parser.add_argument("--curve-heldout-only", action="store_true", help="the curve without its cross-validation")
    parser.add_argument("--weak-weights", action="store_true", help="dev figures for each weight in WEIGHTS only")
    args = parser.parse_args()
    data = Prepared.of(args.corpora)
    figures: dict[str, Any]
    if args.weak_weights:
        figures = {f"dev (5-fold CV), weak labels weighed {w}": data.dev(w)["1.00"] for w in WEIGHTS}
        figures["dev (5-fold CV), hand gold alone"] = data.dev(None)["1.00"]
        print(json.dumps(figures, indent=1, sort_keys=False))
        return 0
    figures = {
        "dev (5-fold CV), with weak labels": data.dev(T.WEAK_WEIGHT)["1.00"],
        "dev (5-fold CV), hand gold alone": data.dev(None)["1.00"],
        "dev, rules alone": dev_rules_figures(args.corpora),
        "held out, learned reader (shipped)": heldout_figures(args.corpora, load_model()),
        "held out, hand gold alone": heldout_figures(args.corpora, T.fit_model(data.rows(None), {})),
        "held out, rules alone": heldout_figures(args.corpora, None),
        "held out, candidate recall": heldout_recall(args.corpora),
        "weak labels": {"problems": len({e.problem for e in data.weak}), "choices": len(data.weak),
                        "weight": T.WEAK_WEIGHT},
    }  # fmt: skip
    if args.curve or args.curve_heldout_only:
        figures["learning curve"] = curve(args.corpora, data, dev=not args.curve_heldout_only)
    print(json.dumps(figures, indent=1, sort_keys=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
