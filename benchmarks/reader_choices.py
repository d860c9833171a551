"""What stands between the learned reader and the issue's unit figure: its choices out of fold, by cause.

On the training gold only (``train_reader.training_gold``: the annotations and the gold set's dev half;
never the held-out half), each quantity token's unit and per choices are made by a model fitted on the
other four folds (the folds of ``make train``) and judged as the alignment scorer judges a mention (the
same noun, a generic count, a scale word).  The errors are split by cause: the per wrong with the right
per among the candidates, the unit wrong likewise, the right reading not proposed, no quantity read.
This is the factor-level view (one pack, the candidates before the reader applies its choice), so its
figure is near, not equal to, ``make reader-figures``'s cross-validated unit accuracy.

``--gbdt`` fits the same candidates with a gradient-boosted ranker instead of the conditional logit (needs
``lightgbm``; not a dependency of ssbg): whether a model with feature interactions would choose better.

    python benchmarks/reader_choices.py [--corpora ../shared/corpora] [--gbdt]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ssbg.reading.learned.features import MentionContext, per_features, unit_features
from ssbg.reading.learned.proposals import (
    Neighbours,
    TextIndex,
    per_candidates,
    reading_of,
    unit_candidates,
)
from ssbg.stats import train_reader as tr
from ssbg.stats.alignment import _same_noun
from ssbg.units import default_pack

Row = dict[str, Any]
Chooser = Callable[[Sequence[Row], Sequence[Row]], dict[tuple[int, str], int]]


def rows_of(corpora: Path) -> list[Row]:
    """One row per gold quantity token of the training gold, under the base pack."""
    gold = tr.training_gold()
    texts, _ = tr.texts_of(gold, corpora / "gsm8k/train.jsonl")
    pack = default_pack()
    out: list[Row] = []
    for g in gold:
        toks, mentions = tr.read_rules(texts[g.problem_id], pack)
        index, near = TextIndex.of(toks), Neighbours.of(mentions)
        quantities = [m for m in mentions if m.source == "text"]
        for gm in g.mentions:
            if gm.skip:
                continue
            row: Row = {"problem": g.problem_id, "unit": gm.unit, "per": gm.per}
            m = next((x for x in quantities if tr._overlaps(x, gm)), None)
            if m is not None and m.kind == "quantity":
                units, pers = unit_candidates(toks, m, mentions, index, near), per_candidates(toks, m, index)
                ctx = MentionContext.of(toks, m, index)
                row["units"], row["pers"] = [c.lemma for c in units], [c.lemma for c in pers]
                row["uf"] = [unit_features(c, ctx) for c in units]
                row["pf"] = [per_features(c, ctx, reading_of(m)[0]) for c in pers]
                row["ui"], row["pi"] = tr._match(gm.unit, row["units"]), tr._match(gm.per, row["pers"])
            out.append(row)
    return out


def logit(train: Sequence[Row], test: Sequence[Row]) -> dict[tuple[int, str], int]:
    """The conditional logit of ``make train`` (same penalty and feature cut)."""
    out = {}
    for key, label in (("uf", "ui"), ("pf", "pi")):
        w = tr._fit([tr.Example(r["problem"], key, tuple(r[key]), r[label]) for r in train
                     if "uf" in r and r[label] is not None and len(r[key]) > 1])  # fmt: skip
        for r in test:
            if "uf" in r:
                s = [sum(w.get(k, 0.0) * v for k, v in f.items()) for f in r[key]]
                out[(id(r), key)] = max(range(len(s)), key=s.__getitem__)
    return out


def gbdt(train: Sequence[Row], test: Sequence[Row]) -> dict[tuple[int, str], int]:  # pragma: no cover
    """A LambdaRank GBDT on the same sparse features (300 trees, 15 leaves, deterministic)."""
    import lightgbm
    import numpy as np
    from scipy import sparse

    def matrix(rs: Sequence[Row], key: str, col: dict[str, int]) -> Any:
        data, ri, ci, n = [], [], [], 0
        for r in rs:
            for f in r[key]:
                for name, v in f.items():
                    if name in col:
                        data.append(v)
                        ri.append(n)
                        ci.append(col[name])
                n += 1
        return sparse.csr_matrix((data, (ri, ci)), shape=(n, len(col)), dtype=np.float32)

    out = {}
    for key, label in (("uf", "ui"), ("pf", "pi")):
        rs = [r for r in train if "uf" in r and r[label] is not None]
        counts = Counter(k for r in rs for f in r[key] for k in f)
        col = {k: i for i, k in enumerate(sorted(k for k, n in counts.items() if n >= tr.MIN_COUNT))}
        y = [int(k == r[label]) for r in rs for k in range(len(r[key]))]
        ranker = lightgbm.LGBMRanker(n_estimators=300, learning_rate=0.05, num_leaves=15, min_child_samples=10,
                                     verbose=-1, deterministic=True, seed=tr.SEED)  # fmt: skip
        ranker.fit(matrix(rs, key, col), y, group=[len(r[key]) for r in rs])
        ts = [r for r in test if "uf" in r]
        scores, at = ranker.predict(matrix(ts, key, col)), 0
        for r in ts:
            out[(id(r), key)] = int(np.argmax(scores[at : at + len(r[key])]))
            at += len(r[key])
    return out


def out_of_fold(rows: Sequence[Row], choose: Chooser) -> Counter[str]:
    """The counts of right choices and of each cause of a wrong one, each token read out of fold."""
    fold = tr._folds([r["problem"] for r in rows])
    n: Counter[str] = Counter()
    for k in range(tr.FOLDS):
        test = [r for r in rows if fold[r["problem"]] == k]
        picked = choose([r for r in rows if fold[r["problem"]] != k], test)
        for r in test:
            n["tokens"] += 1
            if "uf" not in r:
                right = r["unit"] is None and r["per"] is None
                n["right" if right else "no quantity read"] += 1
                continue
            unit_ok = _same_noun(r["unit"], r["units"][picked[(id(r), "uf")]])
            per_ok = _same_noun(r["per"], r["pers"][picked[(id(r), "pf")]])
            if unit_ok and per_ok:
                n["right"] += 1
            elif not unit_ok and r["ui"] is None:
                n["unit not proposed"] += 1
            elif not per_ok and r["pi"] is None:
                n["per not proposed"] += 1
            elif not unit_ok:
                n["unit chosen wrong (right one proposed)"] += 1
            else:
                n["per chosen wrong (right one proposed)"] += 1
    return n


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", default=Path(__file__).resolve().parents[2] / "shared" / "corpora", type=Path)
    parser.add_argument("--gbdt", action="store_true", help="also fit a gradient-boosted ranker (needs lightgbm)")
    args = parser.parse_args(argv)
    random.seed(tr.SEED)
    rows = rows_of(args.corpora)
    models: list[tuple[str, Chooser]] = [("conditional logit", logit)]
    if args.gbdt:
        models.append(("gradient-boosted ranker", gbdt))
    for name, choose in models:
        n = out_of_fold(rows, choose)
        total = n.pop("tokens")
        print(f"{name}: {total} gold quantity tokens of the training gold, out of fold ({tr.FOLDS} folds)")
        for cause, count in sorted(n.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {cause:<42} {count:>5}  {count / total:6.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
