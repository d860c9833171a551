"""Weak labels for the learned reader from every GSM8K train gold solution (issue 36 item 2; edge, ADR 0039).

A GSM8K train problem nobody annotated still has a gold solution, and the binder knows which readings of its
question's quantities admit that solution's steps.  For every GSM8K train problem outside the 1,800 annotated ones
(the gold set, both halves, and the training annotations), this module:

1. reads the problem with a model fitted on the hand gold alone (the *first-stage* model: ``build_model`` without
   weak labels), so the grounding of the solution's numbers and each quantity's n-best readings
   (:func:`~ssbg.reading.learned.model.mention_readings`, the :data:`~ssbg.reading.learned.model.N_BEST` likeliest
   unit-and-per readings) are the reader's own;
2. binds the solution under every combination of the n-best readings of the quantities its steps use (at most
   :data:`MAX_COMBINATIONS`, the least probable readings dropped first, as :func:`ssbg.trace.reading_mass` bounds its
   own), the grounding held as read;
3. keeps the combinations under which every step of the solution is admitted (ADR-0134 admissibility, the unchanged
   unit check of :func:`~ssbg.trace.bind_trace`), a rate reading also admitting where the solution uses it as the
   amount of one thing (GUIDE.md's "for one": ``per`` is decided by the words, so a solution that spends "a $8000
   refrigerator" once is no evidence against dollars per refrigerator), and gives each quantity a **soft target**:
   its readings' share of the first-stage probability of the admitting combinations.  A quantity gets a label only
   when the binder discriminates: some reading it was tried with admits no combination (a quantity every reading of
   which admits the solution says nothing the model did not already believe).

The labels are written as lemmas (``unit``, ``per``, ``target``), not as indices of one proposer's candidates, so a
wider proposer still finds them (``train_reader`` matches them by noun).  Problems are read in corpus order, every
choice is deterministic, and the file is rebuilt byte-identically (``make weak-labels``).

    python -m ssbg.stats.weak_labels --corpora ../shared/corpora [--limit N] [--out FILE]
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import math
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ssbg.errors import ImportRefusal, SsbgError
from ssbg.reading.learned.model import Model, UnitReading, mention_readings, using
from ssbg.reading.learned.proposals import Neighbours, TextIndex
from ssbg.reading.mentions import find_question_span, tokenize, unit_lemma
from ssbg.reading.problem_text import read_problem_text
from ssbg.trace import Mention, Trace, bind_trace
from ssbg.units import UnitPack, corpus_pack

__all__ = [
    "MAX_COMBINATIONS",
    "WEAK_FILE",
    "WeakMention",
    "WeakProblem",
    "annotated_lines",
    "build",
    "derive",
    "load_weak",
    "main",
    "weak_problems",
]

WEAK_FILE = Path(__file__).resolve().parents[2] / "data" / "weak" / "gsm8k_train.weak.jsonl"
"""Where ``make weak-labels`` writes the weak labels (one problem a line, after a manifest line)."""

MAX_COMBINATIONS = 32
"""The most combinations of its quantities' readings bound for one problem (2 readings of 5 quantities); past it
the least probable reading of the quantity with the most is dropped first."""

FORMAT = "ssbg-weak-labels/1"


@dataclass(frozen=True, slots=True)
class WeakMention:
    """One quantity's soft target: its span in the question and ``(unit, per, share)`` for each reading tried
    (shares sum to 1; a reading no admitting combination holds has share 0)."""

    span: tuple[int, int]
    readings: tuple[tuple[str | None, str | None, float], ...]


@dataclass(frozen=True, slots=True)
class WeakProblem:
    """The weak labels of one GSM8K train problem (``line``: its line in the corpus file, 1-based)."""

    problem_id: str
    line: int
    mentions: tuple[WeakMention, ...]
    combinations: int  # bound
    admitting: int  # of which every step is admitted

    def to_dict(self) -> dict[str, Any]:
        return {
            "problem_id": self.problem_id, "line": self.line, "combinations": self.combinations,
            "admitting": self.admitting,
            "mentions": [{"span": list(m.span), "readings": [list(r) for r in m.readings]} for m in self.mentions],
        }  # fmt: skip

    @staticmethod
    def from_dict(raw: Mapping[str, Any]) -> WeakProblem:
        mentions = tuple(
            WeakMention((int(m["span"][0]), int(m["span"][1])), tuple((u, p, float(s)) for u, p, s in m["readings"]))
            for m in raw["mentions"]
        )
        return WeakProblem(str(raw["problem_id"]), int(raw["line"]), mentions, int(raw["combinations"]),
                           int(raw["admitting"]))  # fmt: skip


def _text_of(reading: UnitReading, m: Mention, pack: UnitPack) -> tuple[str | None, str | None]:
    """A reading's unit as binding reads it, and its lemma (the rules' reading keeps the mention's own words)."""
    if reading.rule:
        return m.unit, m.lemma
    unit = reading.unit_text()
    return unit, None if unit is None else unit_lemma(unit, pack)


def _bounded(choices: list[list[int]], probability: Sequence[Sequence[float]]) -> list[list[int]]:
    """Each quantity's readings (indices, likeliest first), the least probable of the longest list dropped until
    the combinations are at most :data:`MAX_COMBINATIONS`."""
    out = [list(c) for c in choices]
    while math.prod(len(c) for c in out) > MAX_COMBINATIONS:
        k = max(range(len(out)), key=lambda i: (len(out[i]), -probability[i][out[i][-1]], -i))
        out[k].pop()
    return out


def _admitted(trace: Trace, pack: UnitPack) -> bool:
    """Whether the binder admits every step of the trace."""
    graph = bind_trace(trace, pack=pack)
    return bool(graph.equations) and all(eq.admissibility_status == "admitted" for eq in graph.equations)


MAX_FOR_ONE = 3
"""Up to this many rate readings in one combination, every subset of them is tried "for one"; past it, all at once."""


def _for_one_sets(rates: Sequence[int]) -> list[tuple[int, ...]]:
    """The sets of rate readings tried "for one" (GUIDE.md: the amount of one thing a solution uses as a total), the
    smallest first."""
    if not rates:
        return []
    if len(rates) > MAX_FOR_ONE:
        return [tuple(rates)]
    return [c for n in range(1, len(rates) + 1) for c in itertools.combinations(rates, n)]


def _variant(
    trace: Trace,
    targets: Sequence[tuple[int, Mention, list[UnitReading], list[tuple[str | None, str | None]]]],
    combo: Sequence[int],
    for_one: Sequence[int],
    pack: UnitPack,
) -> Trace:
    """The trace with each labelled quantity read as ``combo`` says; those in ``for_one`` (rate readings) read as
    the amount of one thing: the rate's unit without its per, the explicit "times 1 thing" of GUIDE.md's rule."""
    mentions = list(trace.mentions)
    for q, ((i, _, readings, texts), k) in enumerate(zip(targets, combo, strict=True)):
        if q in for_one:
            unit = readings[k]._replace(per=None, per_surface=None, rule=False).unit_text()
            lemma = None if unit is None else unit_lemma(unit, pack)
        else:
            unit, lemma = texts[k]
        mentions[i] = replace(mentions[i], unit=unit, lemma=lemma, alt_unit=None)
    return replace(trace, mentions=tuple(mentions))


def derive(question: str, answer: str, problem_id: str, line: int, model: Model, pack: UnitPack) -> WeakProblem | None:
    """The weak labels of one problem (None: it does not import, or no combination admits its solution)."""
    from ssbg.reading.readers.gsm8k import gsm8k_trace

    try:
        with using(model):
            trace = gsm8k_trace(question, answer, problem_id=problem_id, pack=pack)
    except (ImportRefusal, SsbgError):
        return None
    toks = tokenize(question)
    with using(None):
        rules = read_problem_text(question, find_question_span(question), pack=pack).mentions
    index, neighbours = TextIndex.of(toks), Neighbours.of(rules)
    by_span = {(m.start, m.end): m for m in rules if m.source == "text" and m.kind == "quantity"}
    used = sorted({o.mention for s in trace.steps for o in s.operands if o.mention is not None})
    targets: list[tuple[int, Mention, list[UnitReading], list[tuple[str | None, str | None]]]] = []
    for i in used:
        m = trace.mentions[i]
        rule = by_span.get((m.start, m.end))
        if m.source != "text" or rule is None:
            continue
        readings = mention_readings(toks, rule, rules, index, model, neighbours)
        if len(readings) > 1:
            targets.append((i, rule, readings, [_text_of(r, rule, pack) for r in readings]))
    if not targets:
        return None
    probability = [[r.probability for r in readings] for _, _, readings, _ in targets]
    choices = _bounded([list(range(len(p))) for p in probability], probability)
    held: list[dict[int, float]] = [dict.fromkeys(c, 0.0) for c in choices]
    total = 0.0
    bound = admitting = 0
    for combo in itertools.product(*choices):
        bound += 1
        rates = [q for q, k in enumerate(combo) if targets[q][2][k].per is not None]
        ways = [(), *_for_one_sets(rates)]
        if not any(_admitted(_variant(trace, targets, combo, ones, pack), pack) for ones in ways):
            continue
        admitting += 1
        p = math.prod(probability[q][k] for q, k in enumerate(combo))
        total += p
        for q, k in enumerate(combo):
            held[q][k] += p
    if not admitting or not total:
        return None
    out = []
    for q, (_, rule, readings, _) in enumerate(targets):
        tried = choices[q]
        if all(held[q][k] for k in tried):
            continue  # every reading tried admits: the binder does not discriminate this quantity
        shares = tuple((readings[k].unit, readings[k].per, round(held[q][k] / total, 6)) for k in tried)
        out.append(WeakMention((rule.start, rule.end), shares))
    if not out:
        return None
    return WeakProblem(problem_id, line, tuple(out), bound, admitting)


def weak_problems(corpora: Path, exclude: frozenset[int], limit: int | None = None) -> Iterator[tuple[int, str, str]]:
    """(line, question, answer) of every GSM8K train problem with a calculator annotation whose line is not in
    ``exclude`` (the annotated problems), in corpus order."""
    with (corpora / "gsm8k/train.jsonl").open(encoding="utf-8") as f:
        n = 0
        for line_no, line in enumerate(f, start=1):
            if line_no in exclude:
                continue
            record = json.loads(line)
            if "<<" not in record["answer"]:
                continue
            yield line_no, record["question"], record["answer"]
            n += 1
            if limit is not None and n >= limit:
                return


def annotated_lines() -> frozenset[int]:
    """The corpus lines of every annotated problem (both gold files, both halves, the training annotations)."""
    from ssbg.stats.alignment import GOLD_FILE, load_gold
    from ssbg.stats.train_reader import ANNOTATIONS_FILE

    return frozenset(g.line for path in (GOLD_FILE, ANNOTATIONS_FILE) for g in load_gold(path))


def build(corpora: Path, limit: int | None = None) -> tuple[list[str], Counter[str]]:
    """The lines of the weak-label file (a manifest first) and the counts of what was derived."""
    from ssbg.stats.train_reader import build_model

    first, _ = build_model(corpora, weak=None)
    pack = corpus_pack()
    counts: Counter[str] = Counter()
    rows = []
    for line, question, answer in weak_problems(corpora, annotated_lines(), limit):
        counts["problems read"] += 1
        found = derive(question, answer, f"train-{line}", line, first, pack)
        if found is None:
            continue
        counts["problems labelled"] += 1
        counts["quantities labelled"] += len(found.mentions)
        counts["combinations bound"] += found.combinations
        counts["combinations admitting"] += found.admitting
        counts["quantities with one admitted reading"] += sum(
            sum(1 for _, _, s in m.readings if s > 0) == 1 for m in found.mentions
        )
        rows.append(json.dumps(found.to_dict(), sort_keys=True, ensure_ascii=True))
    train = corpora / "gsm8k/train.jsonl"
    manifest = {
        "format": FORMAT, "command": "make weak-labels", "pack": pack.citation,
        "corpus": {"file": "gsm8k/train.jsonl", "sha256": hashlib.sha256(train.read_bytes()).hexdigest()},
        "first_stage_model": hashlib.sha256(json.dumps(first.to_dict(), sort_keys=True).encode()).hexdigest(),
        "max_combinations": MAX_COMBINATIONS, "counts": dict(sorted(counts.items())),
    }  # fmt: skip
    return [json.dumps(manifest, sort_keys=True, ensure_ascii=True), *rows], counts


def load_weak(path: Path = WEAK_FILE) -> tuple[dict[str, Any], list[WeakProblem]]:
    """The manifest and the problems of a weak-label file; a bad line refuses naming ``file:line``."""
    from ssbg.errors import ProblemGraphError

    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    manifest: dict[str, Any] = {}
    for n, text in enumerate(lines, start=1):
        try:
            raw = json.loads(text)
            if n == 1:
                if raw.get("format") != FORMAT:
                    raise ValueError(f"format {raw.get('format')!r}, not {FORMAT!r}")
                manifest = raw
                continue
            out.append(WeakProblem.from_dict(raw))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ProblemGraphError(f"{path}:{n}: not a weak-label record ({exc})", reason="invalid_value",
                                    path=f"{path}:{n}") from None  # fmt: skip
    return manifest, out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ssbg.stats.weak_labels", description=__doc__.split("\n")[0])
    parser.add_argument("--corpora", default="../shared/corpora", type=Path)
    parser.add_argument("--out", default=WEAK_FILE, type=Path)
    parser.add_argument("--limit", type=int, default=None, help="only the first N problems (a sample)")
    parser.add_argument("--check", action="store_true", help="exit 1 if the written file would differ")
    args = parser.parse_args(argv)
    lines, counts = build(args.corpora, args.limit)
    blob = "".join(line + "\n" for line in lines)
    for key in sorted(counts):
        print(f"{key}: {counts[key]}")  # noqa: T201 - a command's output
    if args.check:
        same = args.out.exists() and args.out.read_text(encoding="utf-8") == blob
        print("weak labels up to date" if same else f"{args.out} differs from what derivation gives")  # noqa: T201
        return 0 if same else 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(blob, encoding="utf-8")
    print(f"wrote {args.out} ({len(blob):,} bytes)")  # noqa: T201
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
