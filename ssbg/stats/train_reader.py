"""Train the learned reader's model from development gold, byte-identically (``make train``; edge, ADR 0021).

Training data (never the gold set's held-out half, never a GSM8K test question):

- ``data/gold/gsm8k_train_annotations.gold.jsonl`` — GSM8K train problems annotated by readers
  for training (``data/gold/README.md``), and
- the ``dev`` half of ``data/gold/gsm8k_train_alignments.gold.jsonl``.

For every gold question token that is a quantity, the rules read the question (the model off),
the proposers give the candidates, and the gold reading names the right one (a token whose right
reading no proposer offers counts against the candidates' recall and trains nothing).  Each
factor (unit, per) is a conditional logit fitted by L-BFGS with an L2 penalty; its temperature is
fitted to out-of-fold predictions (the calibration).  Weights are rounded to 6 places and written
with sorted keys, so the same data and seed give the same bytes.

    python -m ssbg.stats.train_reader --corpora ../shared/corpora [--check] [--cv]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ssbg.constants import IMPLICIT_CONSTANTS
from ssbg.errors import ImportRefusal
from ssbg.reading.cues import find_cue_occurrences
from ssbg.reading.learned.features import MentionContext, per_features, unit_features
from ssbg.reading.learned.model import MODEL_FILE, Model, mention_readings, question_checksum, using
from ssbg.reading.learned.proposals import Neighbours, TextIndex, per_candidates, reading_of, unit_candidates
from ssbg.reading.mentions import find_question_span, tokenize
from ssbg.reading.problem_text import read_problem_text
from ssbg.stats.alignment import (
    GOLD_FILE,
    GoldMention,
    GoldProblem,
    Pointer,
    _correct,
    _same_noun,
    annotation_literals,
    gold_texts,
    load_gold,
)
from ssbg.trace import Mention
from ssbg.units import CORPUS_PACK_NAME, UnitPack, default_pack, load_pack

__all__ = ["ANNOTATIONS_FILE", "SEED", "Example", "build_model", "examples", "main", "texts_of", "training_gold"]

ANNOTATIONS_FILE = GOLD_FILE.with_name("gsm8k_train_annotations.gold.jsonl")
SEED = 20261202
L2 = 1.0
MIN_COUNT = 2  # a feature seen in fewer training candidates is dropped
NEWTON_STEPS = 8
FOLDS = 5
FACTORS = ("unit", "per", "operand")
PACKS = ("en_units_v1", CORPUS_PACK_NAME)  # the reading is trained under both packs it binds with

Features = Mapping[str, float]


@dataclass(frozen=True)
class Example:
    """One factor's choice for one gold token: the candidates' features and the right one's index."""

    problem: str
    factor: str
    features: tuple[Features, ...]
    label: int


def training_gold(gold_dir: Path | None = None) -> list[GoldProblem]:
    """The gold problems the model may learn from: the annotations and the gold set's dev half."""
    base = GOLD_FILE if gold_dir is None else gold_dir / GOLD_FILE.name
    annotations = ANNOTATIONS_FILE if gold_dir is None else gold_dir / ANNOTATIONS_FILE.name
    out = [g for g in load_gold(base) if g.split == "dev"]
    if annotations.exists():
        out += [g for g in load_gold(annotations) if g.split != "heldout"]
    if any(g.split == "heldout" for g in out):  # pragma: no cover - a guard on the files
        raise ValueError("held-out gold in the training data")
    return out


def texts_of(gold: Iterable[GoldProblem], train: Path) -> tuple[dict[str, str], dict[str, str]]:
    """Each gold problem's question and answer, by problem id (one checked read: :func:`gold_texts`)."""
    both = gold_texts(gold, train)
    return {k: q for k, (q, _) in both.items()}, {k: a for k, (_, a) in both.items()}


def _overlaps(m: Mention, gm: GoldMention) -> bool:
    return m.start < gm.span[1] and gm.span[0] < m.end


def _match(gold: str | None, lemmas: Sequence[str | None]) -> int | None:
    """The candidate a gold noun names: the same noun first, else a generic count the scorer accepts."""
    if gold is None:
        return next((k for k, x in enumerate(lemmas) if x is None), None)
    exact = [k for k, x in enumerate(lemmas) if x is not None and _same_noun(gold, x) and _same_noun(x, gold)]
    if exact:
        return exact[0]
    return next((k for k, x in enumerate(lemmas) if x is not None and _same_noun(gold, x)), None)


def read_rules(question: str, pack: UnitPack) -> tuple[Sequence[Any], tuple[Mention, ...]]:
    """The question's tokens and the rules' mentions (the model off)."""
    toks = tokenize(question)
    with using(None):
        mentions = read_problem_text(question, find_question_span(question), pack=pack).mentions
    return toks, mentions


def examples(gold: Sequence[GoldProblem], texts: Mapping[str, str]) -> tuple[list[Example], Counter[str]]:
    """Every training choice of ``gold`` under each pack, and the recall counts of the candidates."""
    out: list[Example] = []
    recall: Counter[str] = Counter()
    for name in PACKS:
        pack = default_pack() if name == "en_units_v1" else load_pack(name)
        for g in gold:
            toks, mentions = read_rules(texts[g.problem_id], pack)
            index, neighbours = TextIndex.of(toks), Neighbours.of(mentions)
            quantities = [m for m in mentions if m.source == "text"]
            for gm in g.mentions:
                if gm.skip:
                    continue
                m = next((x for x in quantities if _overlaps(x, gm)), None)
                if m is None or m.kind != "quantity":
                    continue
                units = unit_candidates(toks, m, mentions, index, neighbours)
                pers = per_candidates(toks, m, index)
                ctx = MentionContext.of(toks, m, index)
                ui = _match(gm.unit, [c.lemma for c in units])
                pi = _match(gm.per, [c.lemma for c in pers])
                recall[f"{name} tokens"] += 1
                recall[f"{name} unit found"] += ui is not None
                recall[f"{name} per found"] += pi is not None
                recall[f"{name} both found"] += ui is not None and pi is not None
                recall[f"{name} unit candidates"] += len(units)
                recall[f"{name} per candidates"] += len(pers)
                if ui is not None:
                    out.append(Example(g.problem_id, "unit", tuple(unit_features(c, ctx) for c in units), ui))
                if pi is not None:
                    rnum = reading_of(m)[0]
                    out.append(Example(g.problem_id, "per", tuple(per_features(c, ctx, rnum) for c in pers), pi))
    return out, recall


def _pointer(state: Any, key: tuple[Any, ...], regions: Sequence[tuple[int, int]]) -> Pointer:
    """Where a candidate reading points, as the alignment scorer judges predictions."""
    kind = key[0]
    if kind == "mention":
        m = state.mentions[key[1]]
        return Pointer("solution" if m.source == "solution" else "mention", spans=((m.start, m.end),))
    if kind == "constant":
        cue = None
        if len(key) > 2 and key[2] is not None:
            words = [o for o in find_cue_occurrences(state.text, IMPLICIT_CONSTANTS[key[1]].value) if o.start == key[2]]
            cue = ((words[0].start, words[0].end),) if words else ((key[2], key[2] + 1),)
        return Pointer("constant", spans=cue or (), value=float(IMPLICIT_CONSTANTS[key[1]].value))
    if kind == "step":
        step = state.steps[key[1]]
        if step.implicit or step.at is None:
            return Pointer("prose")
        at = step.at
    else:
        at = key[1]
    k = next((i for i, (lo, hi) in enumerate(regions) if lo <= at <= hi), None)
    return Pointer("prose") if k is None else Pointer("step", step=k)


class _Observer:
    """Keeps each literal's candidate features and the index of the one its gold operand names."""

    def __init__(self, by_at: Mapping[int, Any], regions: Sequence[tuple[int, int]]) -> None:
        self.by_at, self.regions = by_at, regions
        self.seen: dict[int, tuple[tuple[Features, ...], int | None]] = {}

    def __call__(self, state: Any, lit: Any, candidates: Sequence[Any], features: Sequence[Features]) -> None:
        at = state.literal_at(lit)
        gold_op = self.by_at.get(at) if at is not None else None
        if gold_op is None:
            return
        right = [any(_correct(_pointer(state, c.key, self.regions), r) for r in gold_op.refs) for c in candidates]
        self.seen[at] = (tuple(dict(f) for f in features), right.index(True) if True in right else None)


def operand_examples(
    gold: Sequence[GoldProblem], texts: Mapping[str, str], answers: Mapping[str, str]
) -> tuple[list[Example], Counter[str]]:
    """Every literal's choice among its candidates, labelled by the gold operand written at its offset
    (read with the rules' scorer: the candidates and their features, not the choices, are learned from)."""
    from ssbg.reading import grounding
    from ssbg.reading.readers.gsm8k import gsm8k_trace

    out: list[Example] = []
    recall: Counter[str] = Counter()
    for g in gold:
        answer = answers[g.problem_id]
        regions = [(at, at + len(body) + 4) for at, body, _ in annotation_literals(answer)]
        by_at = {o.at: o for _, ops in g.steps for o in ops}
        observe = _Observer(by_at, regions)
        grounding.OBSERVERS.append(observe)
        try:
            with using(None):
                gsm8k_trace(texts[g.problem_id], answer, problem_id=g.problem_id)
        except ImportRefusal:
            pass
        finally:
            grounding.OBSERVERS.remove(observe)
        for features, label in observe.seen.values():
            recall["literals with candidates"] += 1
            recall["literals whose gold is a candidate"] += label is not None
            recall["operand candidates"] += len(features)
            if label is not None and len(features) > 1:
                out.append(Example(g.problem_id, "operand", features, label))
    return out, recall


def _fit(rows: Sequence[Example], l2: float = L2) -> dict[str, float]:
    """The weights of one factor's conditional logit (L-BFGS, L2), rounded to 6 places."""
    import numpy as np
    from scipy import sparse
    from scipy.optimize import minimize

    counts: Counter[str] = Counter(k for e in rows for f in e.features for k in f)
    names = sorted(k for k, n in counts.items() if n >= MIN_COUNT)
    if not names:
        return {}
    col = {k: i for i, k in enumerate(names)}
    data, ri, ci = [], [], []
    groups, labels = [], []
    r = 0
    for e in rows:
        groups.append(r)
        labels.append(r + e.label)
        for f in e.features:
            for k, v in sorted(f.items()):
                if k in col:
                    data.append(v)
                    ri.append(r)
                    ci.append(col[k])
            r += 1
    groups.append(r)
    x = sparse.csr_matrix((np.array(data, dtype=np.float64), (ri, ci)), shape=(r, len(names)))
    starts = np.array(groups[:-1])
    group_of = np.repeat(np.arange(len(rows)), np.diff(np.array(groups)))
    label_rows = np.array(labels)

    def loss(w: Any) -> tuple[float, Any]:
        s = x @ w
        top = np.maximum.reduceat(s, starts)
        e = np.exp(s - top[group_of])
        z = np.add.reduceat(e, starts)
        nll = float(np.sum(np.log(z) + top - s[label_rows]))
        p = e / z[group_of]
        p[label_rows] -= 1.0
        grad = x.T @ p + 2 * l2 * w
        return nll + l2 * float(w @ w), grad

    result = minimize(loss, np.zeros(len(names)), jac=True, method="L-BFGS-B", options={"maxiter": 500})
    w = _newton(result.x, x, starts, group_of, label_rows, l2)
    return {k: round(float(v), 6) for k, v in zip(names, w, strict=True) if round(float(v), 6) != 0.0}


def _newton(w: Any, x: Any, starts: Any, group_of: Any, label_rows: Any, l2: float) -> Any:
    """Newton steps from where L-BFGS stopped to the penalised optimum itself (unique: the loss is
    strictly convex), so the weights rounded to 6 places do not depend on the optimiser's path or on
    the float rounding of one numpy, scipy or CPU build: L-BFGS alone stops about 1e-7 from it, which
    flips a few roundings between machines."""
    import numpy as np
    from scipy import sparse

    n_groups = len(starts)
    for _ in range(NEWTON_STEPS):
        s = x @ w
        top = np.maximum.reduceat(s, starts)
        e = np.exp(s - top[group_of])
        p = e / np.add.reduceat(e, starts)[group_of]
        r = p.copy()
        r[label_rows] -= 1.0
        grad = x.T @ r + 2 * l2 * w
        mix = sparse.csr_matrix((p, (group_of, np.arange(len(p)))), shape=(n_groups, len(p))) @ x
        hessian = (x.T @ sparse.diags(p) @ x - mix.T @ mix).toarray() + 2 * l2 * np.eye(len(w))
        step = np.linalg.solve(hessian, grad)
        w = w - step
        if float(np.max(np.abs(step))) < 1e-12:
            break
    return w


def _nll(model: Model, factor: str, rows: Sequence[Example], t: float) -> float:
    import math

    total = 0.0
    probe = Model(model.weights, {factor: t}, {})
    for e in rows:
        p = probe.probabilities(factor, e.features)[e.label]
        total -= math.log(max(p, 1e-12))
    return total


def _folds(problems: Sequence[str], k: int = FOLDS, seed: int = SEED) -> dict[str, int]:
    order = sorted(set(problems))
    random.Random(seed).shuffle(order)  # noqa: S311 - a reproducible split
    return {pid: i % k for i, pid in enumerate(order)}


def fit_model(rows: Sequence[Example], manifest: Mapping[str, Any]) -> Model:
    """Weights on every row, each factor's temperature fitted to out-of-fold predictions."""
    final = {f: _fit([e for e in rows if e.factor == f]) for f in FACTORS}
    fold = _folds([e.problem for e in rows])
    held: dict[str, list[tuple[Model, Example]]] = {f: [] for f in FACTORS}
    for k in range(FOLDS):
        train = [e for e in rows if fold[e.problem] != k]
        weights = {f: _fit([e for e in train if e.factor == f]) for f in FACTORS}
        part = Model(weights, dict.fromkeys(FACTORS, 1.0), {})
        for e in rows:
            if fold[e.problem] == k:
                held[e.factor].append((part, e))
    temperature = {}
    for f in FACTORS:
        grid = [round(0.5 + 0.05 * i, 2) for i in range(51)]
        temperature[f] = min(grid, key=lambda t: sum(_nll(m, f, [e], t) for m, e in held[f]))
    return Model(final, temperature, dict(manifest))


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def build_model(corpora: Path, gold_dir: Path | None = None) -> tuple[Model, Counter[str]]:
    """The model ``make train`` writes, and the candidates' recall counts."""
    gold = training_gold(gold_dir)
    texts, answers = texts_of(gold, corpora / "gsm8k/train.jsonl")
    rows, recall = examples(gold, texts)
    more, operand_recall = operand_examples(gold, texts, answers)
    rows += more
    recall.update(operand_recall)
    base = GOLD_FILE if gold_dir is None else gold_dir / GOLD_FILE.name
    annotations = ANNOTATIONS_FILE if gold_dir is None else gold_dir / ANNOTATIONS_FILE.name
    data = [{"file": f"data/gold/{p.name}", "sha256": _sha256(p)} for p in (base, annotations) if p.exists()]
    manifest = {
        "command": "make train",
        "seed": SEED,
        "l2": L2,
        "data": data,
        "corpus": {"file": "gsm8k/train.jsonl", "sha256": _sha256(corpora / "gsm8k/train.jsonl")},
        "problems": len(gold),
        "examples": {f: sum(1 for e in rows if e.factor == f) for f in FACTORS},
        "training_questions": sorted({question_checksum(q) for q in texts.values()}),
    }
    return fit_model(rows, manifest), recall


def cross_validate(
    corpora: Path, gold_dir: Path | None = None, *, fractions: Sequence[float] = (1.0,)
) -> dict[str, Any]:
    """Out-of-fold figures on the training gold: each problem read by a model fitted on the other folds
    (of which a share ``fraction`` of the problems, for the learning curve), scored by the alignment
    scorer; with the calibration of the chosen readings' probabilities."""
    from ssbg.stats.alignment import score

    gold = training_gold(gold_dir)
    train = corpora / "gsm8k/train.jsonl"
    texts, answers = texts_of(gold, train)
    rows, _ = examples(gold, texts)
    rows += operand_examples(gold, texts, answers)[0]
    fold = _folds([g.problem_id for g in gold])
    out: dict[str, Any] = {}
    for fraction in fractions:
        traces: dict[str, Any] = {}
        pairs: list[tuple[float, bool]] = []
        for k in range(FOLDS):
            others = sorted({e.problem for e in rows if fold.get(e.problem) != k})
            keep = set(random.Random(SEED + k).sample(others, round(fraction * len(others))))  # noqa: S311
            model = fit_model([e for e in rows if e.problem in keep], {})
            for g in gold:
                if fold[g.problem_id] != k:
                    continue
                traces[g.problem_id] = _read(texts[g.problem_id], answers[g.problem_id], g.problem_id, model)
                pairs += unit_calibration(g, texts[g.problem_id], model)
        s = score(gold, traces)
        out[f"{fraction:.2f}"] = {
            "problems": s.problems, "operands": s.accuracy, "exact": s.exact_share, "units": s.unit_accuracy,
            "unit_tokens": s.mentions, "ece_units": ece(pairs),
        }  # fmt: skip
    return out


def _read(question: str, answer: str, problem_id: str, model: Model | None) -> Any:
    from ssbg.reading.readers.gsm8k import gsm8k_trace

    with using(model):
        try:
            return gsm8k_trace(question, answer, problem_id=problem_id)
        except ImportRefusal:
            return None


def unit_calibration(g: GoldProblem, question: str, model: Model) -> list[tuple[float, bool]]:
    """(probability of the chosen reading, whether the gold agrees) for each quantity token of a problem."""
    from ssbg.stats.alignment import _unit_right

    pack = default_pack()
    toks, rule_mentions = read_rules(question, pack)
    index = TextIndex.of(toks)
    with using(model):
        mentions = read_problem_text(question, find_question_span(question), pack=pack).mentions
    out = []
    for gm in g.mentions:
        if gm.skip:
            continue
        rule = next((m for m in rule_mentions if m.source == "text" and _overlaps(m, gm)), None)
        found = next((m for m in mentions if m.source == "text" and _overlaps(m, gm)), None)
        if rule is not None and rule.kind == "quantity":
            p = mention_readings(toks, rule, rule_mentions, index, model)[0].probability
            out.append((p, _unit_right(gm, found)))
    return out


def ece(pairs: Sequence[tuple[float, bool]], bins: int = 10) -> float:
    """Expected calibration error of (probability, right) pairs over equal-width bins."""
    if not pairs:
        return 0.0
    total = 0.0
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        inside = [(p, ok) for p, ok in pairs if lo <= p < hi or (b == bins - 1 and p == 1.0)]
        if inside:
            conf = sum(p for p, _ in inside) / len(inside)
            acc = sum(ok for _, ok in inside) / len(inside)
            total += len(inside) / len(pairs) * abs(conf - acc)
    return total


def model_bytes(model: Model) -> bytes:
    return (json.dumps(model.to_dict(), sort_keys=True, indent=1, ensure_ascii=True) + "\n").encode("ascii")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ssbg.stats.train_reader", description=__doc__.split("\n")[0])
    parser.add_argument("--corpora", default="../shared/corpora", type=Path)
    parser.add_argument("--out", default=Path(__file__).parents[1] / "reading" / "learned" / MODEL_FILE, type=Path)
    parser.add_argument("--check", action="store_true", help="exit 1 if the written model would differ")
    parser.add_argument("--cv", action="store_true", help="print the out-of-fold accuracy and calibration")
    args = parser.parse_args(argv)
    model, recall = build_model(args.corpora)
    blob = model_bytes(model)
    for key in sorted(recall):
        print(f"{key}: {recall[key]}")  # noqa: T201 - a command's output
    if args.cv:
        print(json.dumps(cross_validate(args.corpora), sort_keys=True))  # noqa: T201
    if args.check:
        same = args.out.exists() and args.out.read_bytes() == blob
        print("model file up to date" if same else f"{args.out} differs from what training gives")  # noqa: T201
        return 0 if same else 1
    args.out.write_bytes(blob)
    print(f"wrote {args.out} ({len(blob):,} bytes)")  # noqa: T201
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
