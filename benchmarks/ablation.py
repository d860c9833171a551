"""What each rule family of the reading side adds, by ablation on development data (issue 36 item 5).

Each family is switched off in turn for one run (its entry removed from the table it lives in, every module
attribute that holds that table patched, the reading caches cleared) and measured against the all-on baseline:

- **GSM8K train**, the problems among the first ``--limit`` records the shipped model was not trained on
  (``model.trained_on``, as ``benchmarks/reader_corpus.py``; composed pack): the fully admitted share of the
  imported problems and the root ``unit_mismatch`` share of the resolved steps (``unit_mismatch_survey``);
  ``changed``: the problems whose outcome (import refusal, problem status, equation statuses) differs;
- **the checker on half A** of the dev file of model solutions (``benchmarks/checker_halves.py``'s split; half B
  and the gold set's held-out half are never read), each model solution checked **without the reference** and
  each gold solution alone, at the checker's ε: precision and recall of ``error``, false alarms on correct model
  solutions and on gold solutions; ``changed``: the verdicts (status and first error) that differ;
- for the proposers (and the rules after them), on half A's gold solutions in the all-on run: how often a family
  fires and how often what it proposes is what the gold solution uses (a candidate or a cued constant: the reading
  chosen for that literal; an unwritten quantity: a value the gold's annotations use, as
  ``benchmarks/implicit_rates.py``; a derived rule: the number it grounds; a context rate: fires only).

Runs are deterministic (the same counts on every run), so the noise is zero: a family "adds nothing measurable"
when every count of the table (admitted, mismatched steps, flagged, caught, false alarms) equals the baseline's.

    nice -n 5 .venv/bin/python benchmarks/ablation.py [--corpora ../shared/corpora] [--limit 2000] [--dev-limit N]
        [--family KIND:NAME ...] [--together] [--out TABLE.md]

``--together``: one run with the families given all switched off (families that overlap, such as two proposers
of the same unwritten count, may each add nothing alone and something together).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import dataclasses
import json
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ssbg.checking import verdict
from ssbg.checking.verdict import check_solution
from ssbg.constants import IMPLICIT_CONSTANTS
from ssbg.reading import cues, implicit
from ssbg.reading.choosing import ChoosingBinder
from ssbg.reading.grounding import candidates, derived, ground_literal
from ssbg.reading.learned.model import load_model
from ssbg.reading.mentions import context_rates
from ssbg.reading.mentions.caches import clear_lemma_cache
from ssbg.stats.batch import analyse_record, iter_records
from ssbg.stats.gold import unit_mismatch_survey
from ssbg.trace import Trace
from ssbg.units import UnitPack, corpus_pack, load_pack

sys.path.insert(0, str(Path(__file__).resolve().parent))
import checker_halves
import modern_dev
from implicit_rates import written

GSM8K_PACK = "en_units_v1+en_counts_v2+en_measures_v1"
# (kind, the module and attribute of the table, whether the learned model sees what the family proposes)
TABLES: dict[str, tuple[Any, str, bool]] = {
    "grounding": (derived, "GROUNDING_RULES", False),
    "implicit": (implicit, "IMPLICIT_RULES", False),
    "candidate": (candidates, "CANDIDATE_RULES", True),
    "context": (context_rates, "_CONTEXT_RATES", True),
}
# The weighing after the model chose (ADR 0018, 0027): the branches of ChoosingBinder.reconsider and the checker's
# step left unsaid, each switched off by a method or function that finds nothing.
HOOKS: dict[str, tuple[Any, str]] = {
    "shared_by": (ChoosingBinder, "shared_by"),  # a stated unit read per its divisor ($40 / 8 toys = $5 per toy)
    "per_thing": (ChoosingBinder, "per_thing"),  # a factor read per thing ("each car has 4 wheels")
    "other_reading": (ChoosingBinder, "other_reading"),  # a tie or a second unit reading: ambiguous_grounding
    "unsaid_step": (verdict, "unsaid_step"),  # a number one unwritten step of an earlier result gives
}
KNOWLEDGE = "world knowledge"  # the constants of ADR 0037 (cues.KNOWLEDGE_CONSTANTS), across their sources
MODEL_SIDE = frozenset({"candidate", "context", "constants"})


@dataclasses.dataclass(frozen=True)
class Family:
    kind: str  # grounding, implicit, reconsider, candidate, context, constants
    name: str  # the table entry's name, or a constant source (or "world knowledge")

    @property
    def label(self) -> str:
        return f"{self.kind}:{self.name}"

    @property
    def model_side(self) -> bool:
        """Whether the learned model sees what it proposes (deleting it would need the model retrained)."""
        return self.kind in MODEL_SIDE


def constants_of(source: str) -> frozenset[str]:
    """The cued constants of a source of :data:`ssbg.constants.SOURCES` (or of the world knowledge)."""
    if source == KNOWLEDGE:
        return cues.KNOWLEDGE_CONSTANTS
    return frozenset(cid for cid, c in IMPLICIT_CONSTANTS.items() if c.source == source)


def families() -> list[Family]:
    """Every family, in the tables' order, then the cued constants by source."""
    out = [Family(kind, name) for kind, (module, attr, _) in TABLES.items() for name, _ in getattr(module, attr)]
    out[len(derived.GROUNDING_RULES) + len(implicit.IMPLICIT_RULES) : 0] = [Family("reconsider", h) for h in HOOKS]
    sources = sorted({IMPLICIT_CONSTANTS[cid].source for cid in cues.CUE_PATTERNS})
    return out + [Family("constants", s) for s in (*sources, KNOWLEDGE)]


def clear_reading_caches() -> None:
    """Forget every memo of the reading side (and the edges that memoize what it read): a switched family must
    not be answered from what the run before it read."""
    clear_lemma_cache()
    for name, module in sorted(sys.modules.items()):
        if module is None or not name.startswith(("ssbg.reading", "ssbg.checking", "ssbg.stats")):
            continue
        for value in list(vars(module).values()):
            if callable(getattr(value, "cache_clear", None)) and hasattr(value, "cache_info"):
                value.cache_clear()


def _patch_everywhere(old: object, new: object) -> list[tuple[Any, str]]:
    """Set every ``ssbg`` module attribute that holds ``old`` to ``new``; the (module, attribute) pairs patched."""
    patched = []
    for name, module in sorted(sys.modules.items()):
        if module is None or not name.startswith("ssbg"):
            continue
        for attr, value in list(vars(module).items()):
            if value is old:
                setattr(module, attr, new)
                patched.append((module, attr))
    return patched


def _runs_without(cids: frozenset[str]) -> Any:
    """:data:`ssbg.reading.cues._RUNS` with the constants ``cids`` left out (so no text cues them)."""
    out = {}
    for fallback, by_value in cues._RUNS.items():
        kept = {}
        for value, runs in by_value.items():
            kept[value] = tuple(
                (keys, left) for keys, cids_ in runs if (left := tuple(c for c in cids_ if c not in cids))
            )
        out[fallback] = MappingProxyType(kept)
    return MappingProxyType(out)


def _finds_nothing(*args: Any, **kwargs: Any) -> None:
    """A hook switched off: it finds no reading."""
    return


@contextlib.contextmanager
def all_off(off: Sequence[Family]) -> Iterator[None]:
    """Read with every family of ``off`` switched off together inside the block (none: all on)."""
    with contextlib.ExitStack() as stack:
        if not off:
            stack.enter_context(switched_off(None))
        for family in off:
            stack.enter_context(switched_off(family))
        yield


@contextlib.contextmanager
def switched_off(family: Family | None) -> Iterator[None]:
    """Read with ``family`` switched off inside the block (None: all on); the caches cleared on entry and exit."""
    if family is None:
        clear_reading_caches()
        yield
        clear_reading_caches()
        return
    if family.kind == "reconsider":
        owner, attr = HOOKS[family.name]
        old_hook = vars(owner)[attr]
        targets = [(owner, attr)] if isinstance(owner, type) else _patch_everywhere(old_hook, _finds_nothing)
        if isinstance(owner, type):
            setattr(owner, attr, _finds_nothing)
        clear_reading_caches()
        try:
            yield
        finally:
            for o, a in targets:
                setattr(o, a, old_hook)
            clear_reading_caches()
        return
    if family.kind == "constants":
        old: object = cues._RUNS
        new: object = _runs_without(constants_of(family.name))
    else:
        module, attr, _ = TABLES[family.kind]
        old = getattr(module, attr)
        new = tuple(entry for entry in old if entry[0] != family.name)  # type: ignore[attr-defined]
        if len(new) == len(old):  # type: ignore[arg-type]
            raise KeyError(f"no family {family.label}")
    patched = _patch_everywhere(old, new)
    clear_reading_caches()
    try:
        yield
    finally:
        for module, attr in patched:
            setattr(module, attr, old)
        clear_reading_caches()


# ============================================================================ the measures


def _outcome(analysis: Any) -> tuple[Any, ...]:
    """What a problem's analysis says of it, as one comparable value (problem row and equation statuses)."""
    return (tuple(analysis.problem), tuple(tuple(r) for r in analysis.equations))


def gsm8k_figures(corpora: Path, limit: int) -> tuple[dict[str, int], list[Any]]:
    """Counts on the GSM8K train problems of the first ``limit`` records the shipped model was not trained on, and
    each problem's outcome (to count the changed ones)."""
    pack = load_pack(GSM8K_PACK)
    model = load_model()
    rows = imported = admitted = 0
    traces: list[Trace] = []
    outcomes: list[Any] = []
    for record in iter_records([f"gsm8k={corpora / 'gsm8k/train.jsonl'}"], limit=limit, pack=pack):
        if model is not None and record.text is not None and model.trained_on(record.text):
            continue
        rows += 1
        if record.payload is None:
            outcomes.append(("refused", record.refusal.reason if record.refusal is not None else None))
            continue
        imported += 1
        analysis = analyse_record(record, pack=pack)
        admitted += analysis.problem[3] == "admitted"
        outcomes.append(_outcome(analysis))
        if isinstance(record.payload, Trace):
            traces.append(record.payload)
    survey = unit_mismatch_survey(traces, pack=pack)
    counts = {"problems": rows, "imported": imported, "admitted": admitted, "steps": survey.steps,
              "mismatch": round(survey.mismatch_share * survey.steps)}  # fmt: skip
    return counts, outcomes


def dev_half_a(corpora: Path, limit: int | None) -> list[dict[str, Any]]:
    """The records of the dev file's half A (the tuning half), the first ``limit`` of them."""
    path = corpora / "gsm8k_model_solutions" / "dev.jsonl"
    with path.open(encoding="utf-8") as fh:
        records = [json.loads(line) for line in fh if line.strip()]
    return [r for r in records if checker_halves.half(r["question"]) == "A"][:limit]


def checker_figures(records: Sequence[dict[str, Any]], pack: UnitPack) -> tuple[dict[str, int], list[Any]]:
    """Counts of the checker on ``records``: gold solutions alone, model solutions without the reference."""
    tp = fp = wrong = right = gold = gold_fa = 0
    verdicts: list[Any] = []
    for r in records:
        v = check_solution(r["question"], r["ground_truth"], pack=pack)
        gold += 1
        gold_fa += v.status == "error"
        verdicts.append((v.status, None if v.first_error is None else (v.first_error.reason, v.first_error.line)))
        for s in checker_halves.SOLVERS:
            v = check_solution(r["question"], r[s]["solution"], pack=pack)
            flagged, correct = v.status == "error", bool(r[s]["is_correct"])
            tp += flagged and not correct
            fp += flagged and correct
            wrong += not correct
            right += correct
            verdicts.append((v.status, None if v.first_error is None else (v.first_error.reason, v.first_error.line)))
    return {"caught": tp, "false alarms": fp, "wrong": wrong, "correct": right, "gold": gold,
            "gold false alarms": gold_fa}, verdicts  # fmt: skip


def modern_figures(records: Sequence[dict[str, Any]], pack: UnitPack) -> tuple[dict[str, int], list[Any]]:
    """Counts of the checker on the modern-format dev set (``benchmarks/modern_dev.py``: GSM8K train problems,
    solutions in today's formats, each checked alone): wrong ones caught, false alarms on correct ones."""
    caught = false_alarms = 0
    verdicts: list[Any] = []
    for r in records:
        v = check_solution(r["question"], r["solution"], pack=pack)
        caught += v.status == "error" and not r["is_correct"]
        false_alarms += v.status == "error" and bool(r["is_correct"])
        verdicts.append((v.status, None if v.first_error is None else (v.first_error.reason, v.first_error.line)))
    wrong = sum(not r["is_correct"] for r in records)
    return {"caught": caught, "false alarms": false_alarms, "wrong": wrong, "correct": len(records) - wrong}, verdicts


@dataclasses.dataclass
class Run:
    off: tuple[Family, ...]  # the families switched off (none: the baseline)
    gsm8k: dict[str, int]
    checker: dict[str, int]
    modern: dict[str, int]
    outcomes: list[Any]
    verdicts: list[Any]


def measure(
    off: Sequence[Family],
    corpora: Path,
    limit: int,
    records: Sequence[dict[str, Any]],
    modern: Sequence[dict[str, Any]] = (),
) -> Run:
    """One run with the families ``off`` switched off together (none: the baseline)."""
    with all_off(off):
        g, outcomes = gsm8k_figures(corpora, limit)
        c, verdicts = checker_figures(records, corpus_pack())
        m, more = modern_figures(modern, corpus_pack())
    return Run(tuple(off), g, c, m, outcomes, verdicts + more)


# ============================================================================ how often a proposer fires


_CHOOSE = "_choose"  # ground_literal's choice of a candidate, wrapped to see which proposer's reading it took
_ANNOTATION = re.compile(r"<<([^=<>]*)=")
_NUMBER = re.compile(r"\d+(?:\.\d+)?|\.\d+")


@contextlib.contextmanager
def _wrapped(module: Any, attr: str, wrap: Callable[[str, Any], Any]) -> Iterator[None]:
    old = getattr(module, attr)
    new = tuple((name, wrap(name, rule)) for name, rule in old)
    patched = _patch_everywhere(old, new)
    try:
        yield
    finally:
        for m, a in patched:
            setattr(m, a, old)


def census(records: Sequence[dict[str, Any]], pack: UnitPack) -> dict[str, tuple[int, int | None]]:
    """Per family, (how often it fires, how often what it proposes is what the gold solution uses) on the gold
    solutions of ``records`` in the all-on reading (None: not measured)."""
    fired: collections.Counter[str] = collections.Counter()
    used: collections.Counter[str] = collections.Counter()
    proposed: dict[tuple[int, int | None, float], list[tuple[str, tuple[Any, ...]]]] = {}

    def candidate(name: str, rule: Any) -> Any:
        def counted(g: Any, lit: Any, op: Any) -> Any:
            out = rule(g, lit, op)
            if out:
                fired[f"candidate:{name}"] += 1
                mine = proposed.setdefault((id(g), g.literal_at(lit), lit.value), [])
                mine += [(f"candidate:{name}", tuple(c.reading)) for c in out]
                for source in sorted(
                    {
                        IMPLICIT_CONSTANTS[c.reading.constant].source
                        for c in out
                        if c.reading.constant is not None and c.reading.constant in IMPLICIT_CONSTANTS
                    }
                ):
                    fired[f"constants:{source}"] += 1
                if any(c.reading.constant in cues.KNOWLEDGE_CONSTANTS for c in out):
                    fired[f"constants:{KNOWLEDGE}"] += 1
            return out

        return counted

    def grounding(name: str, rule: Any) -> Any:
        def counted(g: Any, lit: Any, op: Any) -> Any:
            out = rule(g, lit, op)
            if out is not None:
                fired[f"grounding:{name}"] += 1
                used[f"grounding:{name}"] += 1  # first answer wins: what it derives is the number grounded
            return out

        return counted

    def context(name: str, rule: Any) -> Any:
        def counted(c: Any) -> Any:
            out = rule(c)
            if out is not None:
                fired[f"context:{name}"] += 1
            return out

        return counted

    def hook(name: str, old: Any) -> Any:
        def counted(*args: Any, **kwargs: Any) -> Any:
            out = old(*args, **kwargs)
            fired[f"reconsider:{name}"] += out is not None
            return out

        return counted

    choose = vars(ground_literal)[_CHOOSE]
    hooks = {name: vars(owner)[attr] for name, (owner, attr) in HOOKS.items()}

    def chosen(g: Any, lit: Any, *args: Any, **kwargs: Any) -> Any:
        operand = choose(g, lit, *args, **kwargs)
        reading = (operand.mention, operand.step, operand.constant, operand.cue, operand.text)
        labels = {label for label, r in proposed.get((id(g), g.literal_at(lit), lit.value), ()) if r == reading}
        for label in sorted(labels):
            used[label] += 1
        if operand.constant is not None and operand.constant in IMPLICIT_CONSTANTS and labels:
            used[f"constants:{IMPLICIT_CONSTANTS[operand.constant].source}"] += 1
            used[f"constants:{KNOWLEDGE}"] += operand.constant in cues.KNOWLEDGE_CONSTANTS
        return operand

    with contextlib.ExitStack() as stack:
        stack.enter_context(switched_off(None))
        stack.enter_context(_wrapped(candidates, "CANDIDATE_RULES", candidate))
        stack.enter_context(_wrapped(derived, "GROUNDING_RULES", grounding))
        stack.enter_context(_wrapped(context_rates, "_CONTEXT_RATES", context))
        setattr(ground_literal, _CHOOSE, chosen)
        for name, (owner, attr) in HOOKS.items():
            if isinstance(owner, type):
                setattr(owner, attr, hook(name, hooks[name]))
            else:
                _patch_everywhere(hooks[name], hook(name, hooks[name]))
        try:
            for r in records:
                proposed.clear()
                check_solution(r["question"], r["ground_truth"], pack=pack)
                operands = {float(x) for e in _ANNOTATION.findall(r["ground_truth"]) for x in _NUMBER.findall(e)}
                known = written(r["question"])
                seen: set[tuple[str, float]] = set()
                for name, _words, value in implicit.proposals(r["question"], pack):
                    if value in known or (name, value) in seen:
                        continue
                    seen.add((name, value))
                    fired[f"implicit:{name}"] += 1
                    used[f"implicit:{name}"] += value in operands
        finally:
            setattr(ground_literal, _CHOOSE, choose)
            for name, (owner, attr) in HOOKS.items():
                if isinstance(owner, type):
                    setattr(owner, attr, hooks[name])
                else:
                    new = getattr(owner, attr)
                    _patch_everywhere(new, hooks[name])
    return {
        f.label: (fired[f.label], None if f.kind in ("context", "reconsider") else used[f.label]) for f in families()
    }


# ============================================================================ the table


def _changed(a: Sequence[Any], b: Sequence[Any]) -> int:
    return int(sum(x != y for x, y in zip(a, b, strict=False))) + abs(len(a) - len(b))


def _pct(n: int, d: int) -> str:
    return f"{n / d:.1%}" if d else "n/a"


def cells(run: Run) -> dict[str, str]:
    g, c, m = run.gsm8k, run.checker, run.modern
    flagged = c["caught"] + c["false alarms"]
    return {
        "admitted": f"{_pct(g['admitted'], g['imported'])} ({g['admitted']}/{g['imported']})",
        "root unit_mismatch": f"{_pct(g['mismatch'], g['steps'])} ({g['mismatch']}/{g['steps']})",
        "precision": f"{_pct(c['caught'], flagged)} ({c['caught']}/{flagged})",
        "recall": f"{_pct(c['caught'], c['wrong'])} ({c['caught']})",
        "false alarms correct": f"{_pct(c['false alarms'], c['correct'])} ({c['false alarms']})",
        "false alarms gold": f"{_pct(c['gold false alarms'], c['gold'])} ({c['gold false alarms']})",
        "modern caught": f"{_pct(m['caught'], m['wrong'])} ({m['caught']})",
        "modern false alarms": f"{_pct(m['false alarms'], m['correct'])} ({m['false alarms']})",
    }


COLUMNS = ("family", "admitted", "root unit_mismatch", "GSM8K changed", "precision", "recall", "false alarms correct",
           "false alarms gold", "modern caught", "modern false alarms", "verdicts changed", "fires", "used",
           "pays")  # fmt: skip


def moves(run: Run, base: Run) -> bool:
    """Whether a metric of the table moves: any count of admitted, mismatched or resolved steps, caught, false
    alarms (correct and gold) differs from the baseline's (runs are deterministic: the noise is zero)."""
    return run.gsm8k != base.gsm8k or run.checker != base.checker or run.modern != base.modern


def _row(label: str, run: Run, base: Run, fires: str, used: str, pays: str) -> list[str]:
    c = cells(run)
    return [label, c["admitted"], c["root unit_mismatch"], str(_changed(run.outcomes, base.outcomes)), c["precision"],
            c["recall"], c["false alarms correct"], c["false alarms gold"], c["modern caught"],
            c["modern false alarms"], str(_changed(run.verdicts, base.verdicts)), fires, used, pays]  # fmt: skip


def table(base: Run, runs: Sequence[Run], fires: dict[str, tuple[int, int | None]]) -> list[list[str]]:
    """One row for the baseline, then one per family switched off (:data:`COLUMNS`)."""
    rows = [_row("all on (baseline)", base, base, "", "", "")]
    for run in runs:
        if not run.off:
            raise ValueError("a run of the table switches a family off")
        label = " + ".join(f.label for f in run.off)
        f, u = fires.get(label, (None, None))
        rows.append(
            _row(
                f"{label} off",
                run,
                base,
                "" if f is None else str(f),
                "" if u is None else str(u),
                "yes" if moves(run, base) else "no",
            )
        )
    return rows


def markdown(rows: Sequence[Sequence[str]]) -> str:
    out = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpora", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "corpora")
    ap.add_argument("--limit", type=int, default=2000, help="GSM8K train records read (those not trained on count)")
    ap.add_argument("--dev-limit", type=int, default=None, help="half A's first N problems (default: all)")
    ap.add_argument("--family", action="append", default=None, help="KIND:NAME, only these (default: every one)")
    ap.add_argument("--no-modern", action="store_true", help="leave out the modern-format dev set (data/checking)")
    ap.add_argument("--together", action="store_true", help="one run with the families chosen all switched off")
    ap.add_argument("--out", type=Path, default=None, help="also write the table (Markdown) here")
    args = ap.parse_args(argv)
    chosen = families()
    if args.family:
        known = {f.label: f for f in chosen}
        missing = [x for x in args.family if x not in known]
        if missing:
            ap.error(f"no family {', '.join(missing)}; the families: {', '.join(known)}")
        chosen = [known[x] for x in args.family]
    records = dev_half_a(args.corpora, args.dev_limit)
    modern = [] if args.no_modern else modern_dev.records([modern_dev.DEFAULT_FILE], args.corpora / "gsm8k/train.jsonl")
    base = measure((), args.corpora, args.limit, records, modern)
    fires = census(records, corpus_pack())
    runs = []
    for off in [chosen] if args.together else [[family] for family in chosen]:
        runs.append(measure(off, args.corpora, args.limit, records, modern))
        said = " + ".join(f.label for f in off)
        print(f"{said}: {'moves' if moves(runs[-1], base) else 'nothing moves'}", file=sys.stderr, flush=True)
    text = (f"GSM8K train: {base.gsm8k['problems']} problems not trained on of the first {args.limit} records; "
            f"dev half A: {len(records)} problems ({base.checker['gold']} gold solutions, "
            f"{base.checker['wrong'] + base.checker['correct']} model solutions without the reference); modern-format "
            f"dev set: {len(modern)} solutions ({base.modern['wrong']} wrong)\n\n"
            + markdown(table(base, runs, fires)))  # fmt: skip
    sys.stdout.write(text)
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
