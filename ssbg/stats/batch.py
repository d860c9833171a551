"""Batch binding of corpora: import -> bind -> admissibility -> question target.

One per-problem function, :func:`analyse_record`, turns a
:class:`~ssbg.reading.records.CorpusRecord` into plain row tuples (one problem
row, one row per equation) in the column orders of :mod:`ssbg.stats.rows`.
:func:`analyse_records` applies it to a batch and keeps a few drill-down
problems per refusal reason.  :func:`run_batch` streams corpus specs through it
on one of three paths that give the same tables, row for row:

- ``jobs=1``: in this process;
- ``jobs=N``: a pool of N worker processes fed batches in order, with a
  bounded number of batches in flight;
- ``engine="dask"``: the same batch function mapped over ``dask.bag``
  partitions, window by window.

With no ``pack`` given, corpus work binds with :data:`~ssbg.units.CORPUS_PACK_NAME`
(``en_units_v1+en_counts_v2+en_measures_v1``, ADR 0017), not the core's ``en_units_v1``.

Memory stays bounded: records are read lazily, rows are turned into compact
pandas chunks (categorical columns) every :data:`~ssbg.stats.rows.CHUNK_ROWS` rows
(:class:`~ssbg.stats.tables.TableAccumulator`), and only a handful of bound graphs
are kept for the drill-downs.

This module imports no optional dependency at import time; pandas, tqdm and dask
are imported inside the functions that need them, so worker processes stay light.

Examples
--------
>>> from ssbg.problem import MathProblemGraph
>>> from ssbg.reading.records import CorpusRecord
>>> from ssbg.stats.rows import EQUATION_COLUMNS, PROBLEM_COLUMNS
>>> g = MathProblemGraph.from_dict({
...     "problem_id": "p1", "entities": ["Ann"],
...     "initial_state": [{"entity": "Ann", "quantity": {"value": 3, "unit": "zorbles"}}],
...     "operations": [{"actor": "Ann", "kind": "add", "operand": {"value": 2, "unit": "zorbles"}}],
...     "unknown": {"entity": "Ann", "unit": "zorbles"}})
>>> a = analyse_record(CorpusRecord("demo", "p1", "demo.jsonl:1", payload=g))
>>> row = dict(zip(PROBLEM_COLUMNS, a.problem))
>>> (row["outcome"], row["n_equations"], row["n_root_cause"])
('equation_refused', 1, 1)
>>> eq = dict(zip(EQUATION_COLUMNS, a.equations[0]))
>>> (eq["status"], eq["reason"], eq["unknown_units"], eq["pack_fixable"])
('refused', 'unknown_unit', 'zorbles', True)
"""

from __future__ import annotations

import functools
import gc
import importlib
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from ssbg.adapter import bind_math_problem_graph, holding_key
from ssbg.errors import ImportRefusal, SsbgError, UnitAlgebraError
from ssbg.model import BoundEquation, BoundUnknown, SemanticSymbolicBindingGraph, SymbolBinding
from ssbg.problem import MathProblemGraph
from ssbg.reading.records import CorpusRecord
from ssbg.reading.weighing import DEFAULT_MIN_EVIDENCE, DimensionWeights, given_dimensions
from ssbg.stats.rows import PROBLEM_COLUMNS, BatchChunk, Drilldown
from ssbg.stats.tables import TableAccumulator
from ssbg.units import PackComponent, UnitPack, corpus_pack, load_pack, normalize_unit_text

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ssbg.reading.readers import PendingRecord
    from ssbg.stats.insample import InSample

__all__ = [
    "ENGINES",
    "BatchResult",
    "ProblemAnalysis",
    "analyse_record",
    "analyse_records",
    "answer_unit_agreement",
    "bind_payload",
    "check_readable",
    "expand_specs",
    "iter_records",
    "map_batches",
    "predicted_answer_unit",
    "read_record_at",
    "run_batch",
    "unknown_unit_parts",
]

ENGINES: tuple[str, ...] = ("local", "dask")

DEFAULT_BATCH_SIZE = 128
DEFAULT_SAMPLES_PER_REASON = 3
_UNIT_SEPARATOR = ";"


# --------------------------------------------------------------------------- the per-problem function


@dataclass(frozen=True, slots=True)
class ProblemAnalysis:
    """What :func:`analyse_record` returns: plain row tuples and the bound graph."""

    problem: tuple[Any, ...]
    equations: tuple[tuple[Any, ...], ...]
    graph: SemanticSymbolicBindingGraph | None
    drilldowns: tuple[Drilldown, ...]
    kinds: tuple[tuple[Any, ...], ...] = ()  # the kind check's rows (ssbg.stats.rows.KIND_COLUMNS)


def bind_payload(payload: object, *, pack: UnitPack | None = None) -> SemanticSymbolicBindingGraph:
    """Bind a record payload: a ``MathProblemGraph``, or an ``ssbg.trace.Trace`` as the reading side binds it
    (:func:`ssbg.reading.choosing.bind_choosing`: a refused step reconsidered under the readings its words support).

    ``ssbg.trace`` and ``ssbg.reading.choosing`` are imported only when a trace arrives.

    Raises
    ------
    ImportRefusal
        ``malformed_record`` for a payload of any other type.

    Examples
    --------
    >>> bind_payload("not a problem")
    Traceback (most recent call last):
    ...
    ssbg.errors.ImportRefusal: payload of type str is neither a MathProblemGraph nor a Trace
    """
    if isinstance(payload, MathProblemGraph):
        return bind_math_problem_graph(payload, pack=pack)
    try:
        trace_mod = importlib.import_module("ssbg.trace")
    except ImportError:  # pragma: no cover - the trace module ships with ssbg
        trace_mod = None
    trace_type = getattr(trace_mod, "Trace", None)
    if trace_mod is not None and isinstance(trace_type, type) and isinstance(payload, trace_type):
        choosing = importlib.import_module("ssbg.reading.choosing")
        graph: SemanticSymbolicBindingGraph = choosing.bind_choosing(payload, pack=pack)
        return graph
    raise ImportRefusal(
        f"payload of type {type(payload).__name__} is neither a MathProblemGraph nor a Trace",
        reason="malformed_record",
        detail=type(payload).__name__,
    )


def _split_composite(key: str) -> tuple[str, ...]:
    num, sep, den = key.rpartition("_per_")
    if sep and num and den:
        return (*_split_composite(num), den)
    return (key,)


def unknown_unit_parts(unit: str | None, pack: UnitPack) -> tuple[str, ...]:
    """The parts of a unit text the pack does not know, normalized and sorted.

    A composite ``X_per_Y`` contributes each side the pack does not resolve;
    the parts are kept as written (normalized), so that the leaderboard can
    show them; :func:`~ssbg.stats.rows.unit_key` groups ``apples`` with ``apple``.

    Examples
    --------
    >>> from ssbg.units import default_pack
    >>> unknown_unit_parts("dollars per red apples", default_pack())
    ('red_apples',)
    >>> unknown_unit_parts("miles per hour", default_pack())
    ()
    """
    if unit is None or not unit.strip():
        return ()
    return _unknown_parts(unit, pack)


@functools.lru_cache(maxsize=65_536)
def _unknown_parts(unit: str, pack: UnitPack) -> tuple[str, ...]:
    """Memoized by (text, pack): both immutable values; ``_unknown_parts.cache_clear()`` empties it."""
    try:
        pack.resolve(unit)
    except UnitAlgebraError:
        pass
    else:
        return ()
    parts: set[str] = set()
    for part in _split_composite(normalize_unit_text(unit)):
        try:
            pack.resolve(part)
        except UnitAlgebraError:
            parts.add(part)
    if not parts:  # every side resolves, the whole does not (e.g. nested too deep)
        parts.add(normalize_unit_text(unit))
    return tuple(sorted(parts))


def _equation_units(
    eq: BoundEquation, symbols: Mapping[str, SymbolBinding], pack: UnitPack
) -> tuple[str | None, str, tuple[str, ...]]:
    """(lhs unit, operand units joined, unknown unit keys) of one equation."""
    lhs = symbols.get(eq.lhs_symbol_id)
    lhs_unit = lhs.unit if lhs is not None else None
    operand_texts: list[str] = []
    unknown: set[str] = set(unknown_unit_parts(lhs_unit, pack))
    for dep in sorted(eq.dependencies):
        sym = symbols.get(dep)
        unit = sym.unit if sym is not None else None
        operand_texts.append(unit if unit is not None else "-")
        unknown.update(unknown_unit_parts(unit, pack))
    return lhs_unit, _UNIT_SEPARATOR.join(operand_texts), tuple(sorted(unknown))


def _blocking(
    graph: SemanticSymbolicBindingGraph, own: Mapping[str, tuple[str, ...]]
) -> dict[str, tuple[bool, frozenset[str]]]:
    """For each refused equation (by lhs): can a pack fix it, and with which units.

    A root-cause refusal is fixable by adding units only when its reason is
    ``unknown_unit``; it then needs its own unknown units.  A propagated
    refusal needs its own unknown units plus everything each refused
    dependency needs, and is fixable only when all of them are.
    """
    out: dict[str, tuple[bool, frozenset[str]]] = {}
    for eq in graph.equations:  # equations are in dependency order
        if eq.admissibility_status != "refused":
            continue
        needed = set(own.get(eq.lhs_symbol_id, ()))
        if eq.is_root_cause:
            fixable = eq.refusal_reason == "unknown_unit" and bool(needed)
        else:
            upstream = [out[d] for d in sorted(eq.dependencies) if d in out]
            fixable = bool(upstream) and all(f for f, _ in upstream)
            for _, units in upstream:
                needed.update(units)
        out[eq.lhs_symbol_id] = (fixable, frozenset(needed))
    return out


def answer_unit_agreement(predicted: str | None, gold: str | None, pack: UnitPack | None = None) -> str:
    """Compare a predicted answer unit with the corpus's gold unit.

    Returns one of :data:`~ssbg.stats.rows.ANSWER_UNIT_AGREEMENTS`.

    Examples
    --------
    >>> answer_unit_agreement("dollars", "dollar")
    'agree'
    >>> answer_unit_agreement("cents", "dollars")
    'same_dimension'
    >>> answer_unit_agreement("apples", "apple")
    'agree'
    >>> answer_unit_agreement("hours", None)
    'no_gold'
    """
    p = corpus_pack() if pack is None else pack
    if gold is None or not gold.strip():
        return "no_gold"
    if predicted is None or not predicted.strip():
        return "no_prediction"
    try:
        a, b = p.resolve(predicted), p.resolve(gold)
    except UnitAlgebraError:  # an open noun: compare singular keys
        return "agree" if holding_key(predicted, p) == holding_key(gold, p) else "disagree"
    if a.lemma == b.lemma:
        return "agree"
    return "same_dimension" if a.dimension == b.dimension else "disagree"


def _import_refused(record: CorpusRecord, refusal: ImportRefusal) -> ProblemAnalysis:
    row = dict.fromkeys(PROBLEM_COLUMNS)
    row.update(
        corpus=record.corpus,
        problem_id=record.problem_id,
        source=record.source,
        outcome="import_refused",
        import_status="refused",
        import_reason=refusal.reason,
        import_detail=refusal.detail,
        import_path=refusal.path,
        import_message=refusal.message,
        gold_answer_unit=record.gold_answer_unit,
        answer_unit_agreement="no_prediction" if record.gold_answer_unit else "no_gold",
    )
    for name in ("n_symbols", "n_facts", "n_equations", "n_admitted", "n_refused", "n_root_cause",
                 "n_propagated", "n_unknowns"):
        row[name] = 0
    drill = Drilldown(record.corpus, record.problem_id, record.source, "import", refusal.reason, record.text,
                      refusal.message, None)
    return ProblemAnalysis(tuple(row[c] for c in PROBLEM_COLUMNS), (), None, (drill,))


def analyse_record(record: CorpusRecord, *, pack: UnitPack | None = None) -> ProblemAnalysis:
    """Bind one record and flatten it into a problem row and equation rows.

    Never raises on a record: an import refusal, or any error raised while
    binding or flattening it, becomes the problem's outcome (``import_refused``
    / ``bind_failed``, its ``bind_error`` ``Type.reason``, ``Type.unexpected``
    for an error that is not ssbg's): one record never stops a run.  Rows
    follow :data:`~ssbg.stats.rows.PROBLEM_COLUMNS` and
    :data:`~ssbg.stats.rows.EQUATION_COLUMNS`; missing values are ``None``.
    ``pack`` defaults to :func:`~ssbg.units.corpus_pack`, as in :func:`run_batch`.
    """
    p = corpus_pack() if pack is None else pack
    if record.refusal is not None:
        return _import_refused(record, record.refusal)
    try:
        if isinstance(record.payload, MathProblemGraph):
            graph = bind_payload(record.payload, pack=p)
            weights = given_dimensions(graph)
        else:
            graph, weights = _bind_weighed(record.payload, p)
    except ImportRefusal as exc:
        return _import_refused(record, exc)
    except SsbgError as exc:
        return _bind_failed(record, f"{type(exc).__name__}.{exc.reason}")
    except Exception as exc:  # noqa: BLE001 - the seam: a failure binding one record is that record's outcome
        return _bind_failed(record, f"{type(exc).__name__}.unexpected")
    try:
        return _analyse_graph(record, graph, p, weights)
    except Exception as exc:  # noqa: BLE001 - as above, for the rows of a graph that bound
        return _bind_failed(record, f"{type(exc).__name__}.unexpected")


def _bind_weighed(payload: object, pack: UnitPack) -> tuple[SemanticSymbolicBindingGraph, DimensionWeights]:
    """A trace bound once and its dimension refusals weighed on that binding (:mod:`ssbg.reading.weighing`, the
    checker's weighing: ADR 0034); any other payload is refused as :func:`bind_payload` refuses it."""
    from ssbg.reading.choosing import BoundTrace
    from ssbg.reading.weighing import STATED_UNIT_RELIABILITY, weigh_dimensions
    from ssbg.trace import Trace

    if not isinstance(payload, Trace):
        graph = bind_payload(payload, pack=pack)  # refuses: neither a MathProblemGraph nor a trace
        return graph, given_dimensions(graph)
    bound = BoundTrace(payload, pack=pack, stated=STATED_UNIT_RELIABILITY)
    return bound.graph, weigh_dimensions(bound)


def _bind_failed(record: CorpusRecord, error: str) -> ProblemAnalysis:
    """The problem row of a record that imported but could not be bound (``error``: ``Type.reason``)."""
    row = dict.fromkeys(PROBLEM_COLUMNS)
    row.update(corpus=record.corpus, problem_id=record.problem_id, source=record.source, outcome="bind_failed",
               import_status="imported", bind_error=error, gold_answer_unit=record.gold_answer_unit,
               answer_unit_agreement="no_prediction" if record.gold_answer_unit else "no_gold")
    for name in ("n_symbols", "n_facts", "n_equations", "n_admitted", "n_refused", "n_root_cause",
                 "n_propagated", "n_unknowns"):
        row[name] = 0
    return ProblemAnalysis(tuple(row[c] for c in PROBLEM_COLUMNS), (), None, ())


def _gold_unit(record: CorpusRecord) -> str | None:
    gold = record.gold_answer_unit or getattr(record.payload, "gold_answer_unit", None)
    return gold if isinstance(gold, str) and gold.strip() else None


def _text(record: CorpusRecord) -> str | None:
    text = record.text if record.text is not None else getattr(record.payload, "text", None)
    return text if isinstance(text, str) else None


def _analyse_graph(
    record: CorpusRecord, graph: SemanticSymbolicBindingGraph, pack: UnitPack, weights: DimensionWeights
) -> ProblemAnalysis:
    from ssbg.kinds import read_kinds

    symbols = {s.symbol_id: s for s in graph.symbols}
    reading = read_kinds(graph, pack)  # the proofs with their counted nouns, and the kind check
    supports = weights.by_symbol()
    eq_rows, counts = _equation_rows(record, graph, symbols, pack, reading.proofs, supports)
    admitted, refused, root, propagated, first_root = counts
    unknown_target = graph.unknowns[0] if graph.unknowns else None
    gold = _gold_unit(record)
    predicted = predicted_answer_unit(graph, record.payload)
    target_refused = unknown_target is not None and unknown_target.target_status == "refused"
    outcome = "equation_refused" if refused else "target_refused" if target_refused else "admitted"
    problem = (
        record.corpus, record.problem_id, record.source, outcome, "imported", None, None, None, None, None,
        len(graph.symbols), len(graph.facts), len(graph.equations), admitted, refused, root, propagated,
        len(graph.unknowns),
        *_target_columns(unknown_target),
        predicted, gold, answer_unit_agreement(predicted, gold, pack),
        min(supports.values(), default=None),
    )
    drills = _drilldowns(record, reading.graph(graph), first_root, unknown_target if target_refused else None)
    kinds = tuple((record.corpus, record.problem_id, f.index, f.lhs, f.where, f.finding, ";".join(f.nouns), f.detail)
                  for f in reading.findings)
    return ProblemAnalysis(problem, eq_rows, graph, drills, kinds)


_Counts = tuple[int, int, int, int, BoundEquation | None]  # admitted, refused, root causes, propagated, first root

def _equation_rows(
    record: CorpusRecord,
    graph: SemanticSymbolicBindingGraph,
    symbols: Mapping[str, SymbolBinding],
    pack: UnitPack,
    proofs: Sequence[str],
    supports: Mapping[str, float],
) -> tuple[tuple[tuple[Any, ...], ...], _Counts]:
    """One row per equation (:data:`~ssbg.stats.rows.EQUATION_COLUMNS`; ``unit_proof`` its proof with the counted
    nouns, ``proofs``) and the problem's counts."""
    units = {eq.lhs_symbol_id: _equation_units(eq, symbols, pack) for eq in graph.equations}
    blocking = _blocking(graph, {lhs: u[2] for lhs, u in units.items()})
    eq_rows: list[tuple[Any, ...]] = []
    admitted = refused = root = propagated = 0
    first_root: BoundEquation | None = None
    for i, eq in enumerate(graph.equations):
        lhs_unit, operand_units, unknown = units[eq.lhs_symbol_id]
        is_refused = eq.admissibility_status == "refused"
        fixable, needed = blocking.get(eq.lhs_symbol_id, (False, frozenset()))
        if is_refused:
            refused += 1
            if eq.is_root_cause:
                root += 1
                first_root = first_root or eq
            else:
                propagated += 1
        elif eq.admissibility_status == "admitted":
            admitted += 1
        span = eq.source_span
        eq_rows.append((
            record.corpus, record.problem_id, i, eq.lhs_symbol_id, eq.operation_kind, eq.admissibility_status,
            eq.refusal_reason, eq.is_root_cause, eq.propagated_from, lhs_unit, operand_units, eq.offending_unit,
            _UNIT_SEPARATOR.join(unknown) or None,
            (_UNIT_SEPARATOR.join(sorted(needed)) or None) if is_refused else None,
            is_refused and fixable,
            proofs[i], span.text, span.start, span.end, supports.get(eq.lhs_symbol_id),
        ))
    return tuple(eq_rows), (admitted, refused, root, propagated, first_root)


def predicted_answer_unit(graph: SemanticSymbolicBindingGraph, payload: object) -> str | None:
    """The answer unit ssbg predicts, read with the gold withheld (ADR 0020).

    The unit the resolving symbol declares (a unit the solution states for its
    last step, ``>>24 clips``, ``=120(min)``), else the unit the question asks
    as read from the problem itself: a trace's ``answer_unit`` (its question's
    words), a ``MathProblemGraph``'s unknown.  Never the question target's
    ``expected_unit``, which is the gold unit where a corpus has one, and never
    the record's gold: removing the gold leaves the prediction unchanged (tested).

    Examples
    --------
    >>> from ssbg.reading.readers.asdiv import asdiv_trace
    >>> from ssbg.reading.choosing import bind_choosing
    >>> t = asdiv_trace("a-1", "Ann has 7 red apples and 2 green apples.", "How many apples does she have?",
    ...                 "Addition", "9 (fruits)", "7+2=9")
    >>> t.gold_answer_unit, predicted_answer_unit(bind_choosing(t), t)
    ('fruits', 'apples')
    """
    target = graph.unknowns[0] if graph.unknowns else None
    if target is not None and target.resolved_by:
        resolver = next((s for s in graph.symbols if s.symbol_id == target.resolved_by), None)
        if resolver is not None and resolver.unit:
            return resolver.unit
    asked = getattr(payload, "answer_unit", None)  # a trace: the unit its question's words ask
    if asked is None and isinstance(payload, MathProblemGraph):
        asked = payload.unknown.unit
    return asked if isinstance(asked, str) and asked.strip() else None


def _target_columns(target: BoundUnknown | None) -> tuple[Any, ...]:
    """question_form, state_index, target_status, target_reason, expected_unit of the question target."""
    if target is None:
        return (None,) * 5
    return (target.question_form, target.state_index, target.target_status, target.target_refusal_reason,
            target.expected_unit)


def _drilldowns(
    record: CorpusRecord,
    graph: SemanticSymbolicBindingGraph,
    first_root: BoundEquation | None,
    refused_target: BoundUnknown | None,
) -> tuple[Drilldown, ...]:
    """The problem as a drill-down of its first root-cause refusal and of its refused question target."""
    text = _text(record)
    drills: list[Drilldown] = []
    if first_root is not None and first_root.refusal_reason is not None:
        drills.append(Drilldown(record.corpus, record.problem_id, record.source, "equation",
                                first_root.refusal_reason, text, first_root.refusal_detail, graph, record.payload))
    if refused_target is not None and refused_target.target_refusal_reason is not None:
        drills.append(Drilldown(record.corpus, record.problem_id, record.source, "target",
                                refused_target.target_refusal_reason, text,
                                refused_target.target_refusal_detail, graph, record.payload))
    return tuple(drills)


# --------------------------------------------------------------------------- batches


def _keep_first(
    drilldowns: Iterable[Drilldown], per_key: int, counts: dict[tuple[str, str, str], int]
) -> list[Drilldown]:
    kept: list[Drilldown] = []
    for d in drilldowns:
        n = counts.get(d.key, 0)
        if n < per_key:
            counts[d.key] = n + 1
            kept.append(d)
    return kept


@functools.lru_cache(maxsize=8)
def _pack_for(spec: str | Path | None) -> UnitPack:
    """The pack a worker binds with, loaded once per process (an immutable value); None: the corpus pack."""
    return corpus_pack() if spec is None else load_pack(spec)


def analyse_records(
    records: Sequence[CorpusRecord | PendingRecord],
    *,
    pack: str | Path | None = None,
    samples_per_reason: int = DEFAULT_SAMPLES_PER_REASON,
    full_keys: Iterable[tuple[str, str, str]] = (),
) -> BatchChunk:
    """Apply :func:`analyse_record` to a batch; the unit of work of every engine.

    ``pack`` is a shipped pack's name or a folder by path (``None``: ``en_units_v1+en_counts_v2+en_measures_v1``): not a
    loaded pack, so that the call pickles to a worker process.  ``full_keys``
    are the drill-down keys (``(corpus, kind, reason)``) the run already holds
    ``samples_per_reason`` problems of: the batch keeps none of them, since the
    run would drop them (their graphs are the costliest part of a chunk to
    send back).  A record still
    to be read (a :class:`~ssbg.reading.readers.PendingRecord`) is read here,
    with that pack, so the costly reading stage runs where the batch runs.

    Examples
    --------
    >>> analyse_records([]).problems
    ()
    """
    from ssbg.reading.learned.model import keeping_readings
    from ssbg.stats.insample import trained_on

    p = _pack_for(pack)
    problems: list[tuple[Any, ...]] = []
    equations: list[tuple[Any, ...]] = []
    drills: list[Drilldown] = []
    kinds: list[tuple[Any, ...]] = []
    trained = 0
    counts = dict.fromkeys(full_keys, samples_per_reason)
    for item in records:
        if isinstance(item, CorpusRecord):
            record = item
        else:
            with keeping_readings():  # the n-best readings the weighing weighs (ADR 0034); nothing chosen changes
                record = item.build(p)
        a = analyse_record(record, pack=p)
        problems.append(a.problem)
        equations.extend(a.equations)
        drills.extend(_keep_first(a.drilldowns, samples_per_reason, counts))
        kinds.extend(a.kinds)
        trained += trained_on(record.text)
    return BatchChunk(tuple(problems), tuple(equations), tuple(drills), tuple(kinds), trained)


# --------------------------------------------------------------------------- reading


def _spec_list(specs: object) -> list[object]:
    """The specs of a run: one path, or one set of records in memory, is a run of one spec; else each element."""
    from ssbg.reading.readers import RecordSource
    from ssbg.reading.readers.tabular import is_in_memory

    if isinstance(specs, str | Path | RecordSource) or (is_in_memory(specs) and not isinstance(specs, list | tuple)):
        return [specs]
    if isinstance(specs, list) and specs and all(isinstance(s, dict) for s in specs):
        return [specs]  # a list of records (dicts) is one source, not a list of specs
    if isinstance(specs, tuple) and len(specs) == 2 and isinstance(specs[0], str) and is_in_memory(specs[1]):
        return [specs]  # (FORMAT, data)
    return list(cast("Iterable[object]", specs))


def expand_specs(specs: Iterable[Any]) -> list[Any]:
    """Expand corpus specs: a bare folder becomes one spec per corpus file below it.

    A spec is ``FORMAT=PATH`` or a path (``.jsonl``, ``.json``, ``.xml``, ``.csv``, ``.parquet``), or records
    in memory: a :class:`~ssbg.reading.readers.RecordSource`, ``(FORMAT, data)`` with ``data`` a DataFrame, a
    ``datasets.Dataset`` or an iterable of mappings, or such data alone (read as ``ssbg`` records); the
    in-memory ones come back as :class:`~ssbg.reading.readers.RecordSource` values.

    Each file's format is guessed from its own name (so ``data/`` with lanes and
    per-format samples reads each file with its reader); ``FORMAT=FOLDER`` and
    file specs are kept as they are.  Files are sorted; hidden files, READMEs,
    gold annotations (``*.gold.jsonl``, read by :mod:`ssbg.stats.alignment`) and
    files whose format is not recognised as a corpus are skipped.

    Raises
    ------
    ImportRefusal
        ``malformed_record`` for a spec naming nothing that exists.
    """
    from ssbg.reading.readers import READERS, RecordSource, as_spec, guess_format, parse_corpus_spec

    out: list[Any] = []
    for given in _spec_list(specs):
        spec = as_spec(given)
        if isinstance(spec, RecordSource):
            out.append(spec)
            continue
        text = str(spec)
        fmt, sep, _rest = text.partition("=")
        if sep and fmt in READERS:
            parse_corpus_spec(text)  # validates the path
            out.append(text)
            continue
        path = Path(text)
        if not path.exists():
            parse_corpus_spec(text)  # raises the typed refusal
        if not path.is_dir():
            out.append(text)
            continue
        for f in sorted(path.rglob("*")):
            # a FIFO or a device named like a corpus file is kept: its reader refuses it (unreadable_file)
            if f.is_dir() or any(part.startswith(".") for part in f.relative_to(path).parts):
                continue
            if f.suffix not in (".jsonl", ".json", ".xml", ".csv", ".parquet") or f.name.endswith(".gold.jsonl"):
                continue
            guessed = guess_format(f)
            if f.suffix in (".json", ".xml", ".csv", ".parquet") and guessed == "ssbg":
                continue  # not a corpus format we can read: ssbg corpora are JSONL
            out.append(f"{guessed}={f}")
    return out


def read_record_at(corpus: str, source: str, *, pack: UnitPack | None = None) -> CorpusRecord | None:
    """The record at ``source`` (``path:line``, as the readers name a record and the tables keep it) of a
    file in format ``corpus``, read again; None when the file or the record is not there any more.

    A run keeps few bound graphs (ADR 0007); a drill-down chosen from the tables afterwards is read again,
    with ``pack`` (the run's; default :func:`~ssbg.units.corpus_pack`).
    """
    from ssbg.reading.readers import READERS, PendingRecord, scan_corpus

    path, sep, _line = source.rpartition(":")
    if not sep or corpus not in READERS or not Path(path).is_file():
        return None
    for item in scan_corpus(f"{corpus}={path}"):
        where = item.raw.where if isinstance(item, PendingRecord) else item.source
        if where == source:
            return item.build(corpus_pack() if pack is None else pack) if isinstance(item, PendingRecord) else item
    return None


def iter_records(
    specs: Any, *, limit: int | None = None, pack: UnitPack | None = None
) -> Iterator[CorpusRecord]:
    """Stream the records of every spec in order (``limit`` applies per spec), read with ``pack``
    (default :func:`~ssbg.units.corpus_pack`: the pack decides which words after a number are units)."""
    from ssbg.reading.readers import PendingRecord, scan_corpus

    p = corpus_pack() if pack is None else pack
    for spec in expand_specs(specs):
        for item in scan_corpus(spec, limit=limit):
            yield item.build(p) if isinstance(item, PendingRecord) else item


def _scan(
    specs: Iterable[Any], limit: int | None, counts: list[int] | None = None
) -> Iterator[CorpusRecord | PendingRecord]:
    """The cheap reading stage of every (expanded) spec, in order; batches finish reading where they run.

    ``counts`` gets the number of records of each spec, in order, as it is read.
    """
    from ssbg.reading.readers import scan_corpus

    for spec in specs:
        n = 0
        for item in scan_corpus(spec, limit=limit):
            n += 1
            yield item
        if counts is not None:
            counts.append(n)


def _has_content(path: Path) -> bool:
    """Whether a file holds anything but white space (read a block at a time; a folder: False)."""
    if not path.is_file():
        return False
    with open(path, "rb") as handle:
        while block := handle.read(1 << 16):
            if block.strip():
                return True
    return False


def check_readable(problems: pd.DataFrame, specs: Sequence[Any], counts: Sequence[int]) -> None:
    """Refuse a run one of whose specs gives no record that reads in its format (named or guessed).

    ``counts`` are the records of each spec in order: a spec's rows are the next
    ``count`` rows of ``problems`` (every engine keeps reading order).  A file
    with content but no record, or whose every record is unreadable (not JSON, not
    UTF-8, too large, not a record of the format: ``bad_lines``), is not a corpus
    in that format (``README.md``, ``gsm8k=README.md``, ``svamp=`` a GSM8K file):
    bad input, not a report of bad lines (ADR 0020).  An empty file is an empty corpus.

    Raises
    ------
    ImportRefusal
        ``malformed_record`` naming the spec's path, its format and the first record's reason.
    """
    from ssbg.reading.readers import RecordSource, parse_corpus_spec
    from ssbg.stats.rows import UNREADABLE_IMPORT_REASONS

    reasons = problems["import_reason"]
    start = 0
    for spec, n in zip(specs, counts, strict=True):
        block = reasons.iloc[start : start + n]
        start += n
        unreadable = block.isin(sorted(UNREADABLE_IMPORT_REASONS))
        if n and not bool(unreadable.all()):
            continue
        if isinstance(spec, RecordSource):
            fmt, path, hint = spec.fmt, Path(str(spec)), "RecordSource(data, FORMAT)"
        else:
            (fmt, path), hint = parse_corpus_spec(spec), "FORMAT=PATH (ssbg report --help lists them)"
        if not n and not _has_content(path):
            continue  # an empty file (or no records in memory) is an empty corpus
        if n:
            first = problems.iloc[start - n]
            why = (f"{n} of {n} records are unreadable as {fmt} (first: {first['source']}: "
                   f"{first['import_message']})")
        else:
            why = f"it holds no {fmt} record"
        raise ImportRefusal(
            f"{path} does not read as {fmt}: {why}; name its format with {hint}",
            reason="malformed_record",
            path=str(path),
            detail=fmt,
        )


_Item = TypeVar("_Item")
_Batches = Iterator[list["CorpusRecord | PendingRecord"]]


def _batched(records: Iterator[_Item], size: int) -> Iterator[list[_Item]]:
    batch: list[_Item] = []
    for record in records:
        batch.append(record)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


# --------------------------------------------------------------------------- engines


@dataclass(frozen=True, slots=True)
class _Work:
    """A picklable callable: one batch in, one chunk out."""

    pack: str | Path | None
    samples_per_reason: int

    def __call__(
        self, batch: Sequence[CorpusRecord | PendingRecord], full_keys: frozenset[tuple[str, str, str]] = frozenset()
    ) -> BatchChunk:
        return analyse_records(batch, pack=self.pack, samples_per_reason=self.samples_per_reason, full_keys=full_keys)

    def warm(self) -> None:
        """Read, bind and flatten one small GSM8K problem: the pack, the readers, the learned reader and the
        kind check loaded (:func:`_pool_chunks` calls it before the workers start)."""
        from ssbg.reading.readers.gsm8k import gsm8k_trace

        pack = _pack_for(self.pack)
        trace = gsm8k_trace(_WARM_QUESTION, _WARM_ANSWER, problem_id="warm", pack=pack)
        analyse_record(CorpusRecord("warm", "warm", "warm", payload=trace), pack=pack)


_WARM_QUESTION = "Ann buys 3 boxes of 12 pencils for $2 each. How much does she pay?"
_WARM_ANSWER = "She pays 3 * 2 = $<<3*2=6>>6 for 3 * 12 = <<3*12=36>>36 pencils.\n#### 6"


_FullKeys = Callable[[], frozenset[tuple[str, str, str]]]
_Result = TypeVar("_Result")
_Result_co = TypeVar("_Result_co", covariant=True)


class _Unit(Protocol[_Result_co]):
    """A unit of work: a batch and the drill-down keys already full (run_batch's; map_batches' ignore them)."""

    def __call__(
        self, batch: Sequence[Any], full_keys: frozenset[tuple[str, str, str]] = ...
    ) -> _Result_co: ...  # pragma: no cover - a protocol


def _local_chunks(
    batches: Iterator[list[Any]], work: _Unit[_Result], full_keys: _FullKeys
) -> Iterator[tuple[int, _Result]]:
    for batch in batches:
        yield len(batch), work(batch, full_keys())


def _pool_chunks(
    batches: Iterator[list[Any]], work: _Unit[_Result], jobs: int, full_keys: _FullKeys
) -> Iterator[tuple[int, _Result]]:
    """Ordered results from a process pool with at most ``2 * jobs`` batches in flight; a single batch is worked
    in this process (a pool's start and warm-up would cost more than a second worker saves)."""
    import itertools
    import multiprocessing
    from collections import deque
    from concurrent.futures import Future, ProcessPoolExecutor

    head = list(itertools.islice(batches, _cores(jobs)))
    if len(head) < 2:
        yield from _local_chunks(iter(head), work, full_keys)
        return
    jobs = len(head)  # no more workers than cores, nor than batches to give them (ADR 0033)
    batches = itertools.chain(head, batches)

    # fork where the platform has it (workers inherit the loaded modules and need no
    # ``__main__`` guard in the caller's script), spawn elsewhere.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    pending: deque[tuple[int, Future[_Result]]] = deque()
    warm_each: dict[str, Any] = {}
    if method == "fork":  # warm once, here: the workers are forked with what it loaded
        _warm(work)
    else:  # pragma: no cover - spawn: each worker warms itself before its first batch
        warm_each = {"initializer": _warm, "initargs": (work,)}
    gc.freeze()  # what the workers inherit is never traversed by their collector (fewer copied pages)
    try:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context, **warm_each) as pool:
            for batch in batches:
                pending.append((len(batch), pool.submit(work, batch, full_keys())))
                while len(pending) >= 2 * jobs:
                    n, fut = pending.popleft()
                    yield n, fut.result()
            while pending:
                n, fut = pending.popleft()
                yield n, fut.result()
    finally:
        gc.unfreeze()


def _cores(jobs: int) -> int:
    """``jobs``, at most the cores this process may run on."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return max(1, min(jobs, cores))


def _warm(work: object) -> None:
    """Load what the first batch of ``work`` would load (packs, the learned reader, the lemmatizer, their
    caches), through its ``warm()`` when it has one: done in the parent before the workers are forked, so
    that each starts warm instead of each paying it (about 0.2 s of CPU for the checker)."""
    warm = getattr(work, "warm", None)
    if callable(warm):
        warm()


def _dask_chunks(
    batches: Iterator[list[Any]], work: _Unit[_Result], jobs: int, full_keys: _FullKeys
) -> Iterator[tuple[int, _Result]]:
    """The same batch function mapped over ``dask.bag`` partitions, a window at a time."""
    import dask
    import dask.bag as db

    window_size = max(2 * jobs, 2)
    scheduler = "processes" if jobs > 1 else "synchronous"
    while True:
        window = [b for _, b in zip(range(window_size), batches, strict=False)]
        if not window:
            return
        bag = db.from_sequence(window, npartitions=len(window))  # type: ignore[no-untyped-call]
        with dask.config.set(scheduler=scheduler, num_workers=jobs):
            chunks = bag.map(functools.partial(work, full_keys=full_keys())).compute()
        yield from zip((len(b) for b in window), chunks, strict=True)


@dataclass(frozen=True, slots=True)
class _KeysIgnored:
    """A picklable unit of work for :func:`map_batches`: ``work(batch)``, the engines' keys ignored."""

    work: Callable[[Sequence[Any]], Any]

    def __call__(self, batch: Sequence[Any], full_keys: frozenset[tuple[str, str, str]] = frozenset()) -> Any:
        return self.work(batch)

    def warm(self) -> None:
        _warm(self.work)


def _no_keys() -> frozenset[tuple[str, str, str]]:
    return frozenset()


def map_batches(
    batches: Iterable[list[_Item]],
    work: Callable[[Sequence[_Item]], _Result],
    *,
    jobs: int = 1,
    engine: str = "local",
) -> Iterator[tuple[int, _Result]]:
    """``work`` applied to each batch, in order, on the engines of :func:`run_batch`: (batch size, result).

    ``work`` must pickle (a module-level function or a frozen dataclass) when ``jobs > 1`` or
    ``engine="dask"``; at most ``2 * jobs`` batches are in flight.  The checker's batch
    (:mod:`ssbg.checking.batch`) runs on it.

    >>> list(map_batches([[1, 2], [3]], sum))
    [(2, 3), (1, 3)]
    """
    if engine not in ENGINES:
        raise ValueError(f"'engine' must be one of {list(ENGINES)} (got {engine!r})")
    unit = _KeysIgnored(work)
    stream = iter(batches)
    if engine == "dask":
        return _dask_chunks(stream, unit, jobs, _no_keys)
    if jobs > 1:
        return _pool_chunks(stream, unit, jobs, _no_keys)
    return _local_chunks(stream, unit, _no_keys)


@dataclass(frozen=True)
class BatchResult:
    """The tables of a batch run and the problems kept for drill-downs.

    ``problems`` and ``equations`` are pandas DataFrames with the columns of
    :data:`~ssbg.stats.rows.PROBLEM_COLUMNS` and :data:`~ssbg.stats.rows.EQUATION_COLUMNS` and the dtypes of
    :mod:`ssbg.stats.tables`.
    """

    problems: pd.DataFrame
    equations: pd.DataFrame
    drilldowns: tuple[Drilldown, ...]
    specs: tuple[str, ...]
    pack: str  # the pack's citation (UnitPack.citation: name@version#sha256 prefix of each component)
    engine: str
    jobs: int
    meta: Mapping[str, Any] = field(default_factory=dict)
    unit_pack: UnitPack | None = field(default=None, repr=False)  # the pack itself (None: a result built by hand)
    kinds: pd.DataFrame | None = None  # the kind check's rows (KIND_COLUMNS; None: a result built by hand)
    in_sample: InSample | None = None  # how many problems the reading model was trained on (None: built by hand)
    min_evidence: float = DEFAULT_MIN_EVIDENCE  # ε: a dimension refusal is an error found below it (ADR 0034)

    @property
    def pack_components(self) -> tuple[PackComponent, ...]:
        """The pack folders the run's pack was read from, with their full checksums (``pack.csv``)."""
        return () if self.unit_pack is None else self.unit_pack.components

    @property
    def pack_provenance(self) -> str:
        """The pack as a report prints it (:attr:`ssbg.units.UnitPack.provenance`): every component's name,
        version and short checksum."""
        return self.pack if self.unit_pack is None else self.unit_pack.provenance


def _total(specs: Sequence[Any], limit: int | None) -> int | None:
    """The records the run will read, where every spec says how many it holds without being read (a progress
    bar's total, and so its time left); None otherwise."""
    from ssbg.reading.readers import count_corpus_records

    total = 0
    for spec in specs:
        n = count_corpus_records(spec)
        if n is None:
            return None
        total += n if limit is None else min(n, limit)
    return total


def _progress(enabled: bool, total: int | None) -> Any:
    if not enabled:
        return None
    from tqdm.auto import tqdm

    # with a total, tqdm shows the count of it, the time spent and the time left: [01:02<00:17, 98 problems/s]
    return tqdm(total=total, unit=" problems", desc="ssbg report", dynamic_ncols=True)


def run_batch(
    specs: Any,
    *,
    jobs: int = 1,
    engine: str = "local",
    pack: str | Path | None = None,
    limit: int | None = None,
    progress: bool = True,
    batch_size: int = DEFAULT_BATCH_SIZE,
    samples_per_reason: int = DEFAULT_SAMPLES_PER_REASON,
    on_chunk: Callable[[BatchChunk], None] | None = None,
    min_evidence: float = DEFAULT_MIN_EVIDENCE,
) -> BatchResult:
    """Stream corpus specs through import -> bind -> admissibility -> target into tables.

    Parameters
    ----------
    specs
        Corpus specs (``FORMAT=PATH`` or a path; a folder expands per file; a ``.csv`` or ``.parquet`` file is
        read a row per record), or records in memory (``(FORMAT, data)``, a
        :class:`~ssbg.reading.readers.RecordSource`; :func:`expand_specs`): the same records give the same rows
        whatever their form.
    jobs
        Worker processes (1: in this process).
    engine
        ``local`` (this process or a process pool) or ``dask`` (``dask.bag``).
    pack
        A shipped pack's name or a folder by path (``./mine``, a ``Path``), or packs joined by ``+``
        (default :data:`~ssbg.units.CORPUS_PACK_NAME`, ``en_units_v1+en_counts_v2+en_measures_v1``).
    limit
        At most this many records per spec.
    progress
        Show a tqdm progress bar (the notebook flavour inside Jupyter).
    batch_size
        Records per unit of work.
    samples_per_reason
        Drill-down problems kept per (corpus, kind, reason).
    on_chunk
        Called with every chunk in order (for streaming consumers).
    min_evidence
        ε in (0, 1], kept on the result for the summaries: a problem's dimension refusal is a dimension error
        found when its ``dimension_support`` (the checker's weighing of the plausible readings, ADR 0034) is
        below it.

    Returns
    -------
    BatchResult
        The same tables, row for row, whatever ``jobs`` and ``engine``.

    Raises
    ------
    ImportRefusal
        ``malformed_record`` for a spec that names no corpus, or none of whose
        records reads in its format (:func:`check_readable`).
    ValueError
        For ``jobs < 1``, ``batch_size < 1``, an engine outside :data:`ENGINES` or ``min_evidence`` outside (0, 1].

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> row = {"problem_id": "p1", "entities": ["Ann"],
    ...        "initial_state": [{"entity": "Ann", "quantity": {"value": 3, "unit": "hours"}}],
    ...        "operations": [{"actor": "Ann", "kind": "add", "operand": {"value": 2, "unit": "hours"}}],
    ...        "unknown": {"entity": "Ann", "unit": "hours"}}
    >>> _ = (d / "c.jsonl").write_text(json.dumps(row) + "\\n{bad\\n")
    >>> r = run_batch([d / "c.jsonl"], progress=False)
    >>> r.problems["outcome"].tolist()
    ['admitted', 'import_refused']
    """
    from ssbg.stats.insample import in_sample

    if not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"'jobs' must be an int >= 1 (got {jobs!r})")
    if not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(f"'batch_size' must be an int >= 1 (got {batch_size!r})")
    if engine not in ENGINES:
        raise ValueError(f"'engine' must be one of {list(ENGINES)} (got {engine!r})")
    if type(min_evidence) not in (int, float) or not 0.0 < min_evidence <= 1.0:
        raise ValueError(f"'min_evidence' must be a probability in (0, 1] (got {min_evidence!r})")
    pack_spec = pack  # a Path stays a Path: a folder given by path (str() would make "mine" a pack's name)
    loaded = _pack_for(pack_spec)  # fail early, in this process, on a bad pack
    expanded = expand_specs(specs)
    work = _Work(pack_spec, samples_per_reason)
    counts_per_spec: list[int] = []
    batches = _batched(_scan(expanded, limit, counts_per_spec), batch_size)
    counts: dict[tuple[str, str, str], int] = {}

    def full_keys() -> frozenset[tuple[str, str, str]]:
        # keys whose drill-downs are all in: a batch submitted now need not send any back (the
        # kept ones come from earlier chunks, so the choice is the same whatever the engine)
        return frozenset(key for key, n in counts.items() if n >= samples_per_reason)

    if engine == "dask":
        chunks = _dask_chunks(batches, work, jobs, full_keys)
    elif jobs > 1:
        chunks = _pool_chunks(batches, work, jobs, full_keys)
    else:
        chunks = _local_chunks(batches, work, full_keys)
    acc = TableAccumulator()
    drills: list[Drilldown] = []
    trained = 0
    bar = _progress(progress, _total(expanded, limit) if progress else None)
    try:
        for n, chunk in chunks:
            acc.add(chunk)
            trained += chunk.trained
            drills.extend(_keep_first(chunk.drilldowns, samples_per_reason, counts))
            if on_chunk is not None:
                on_chunk(chunk)
            if bar is not None:
                bar.update(n)
    finally:
        if bar is not None:
            bar.close()
    problems, equations = acc.result()
    check_readable(problems, expanded, counts_per_spec)
    return BatchResult(problems, equations, tuple(drills), tuple(map(str, expanded)), loaded.citation, engine, jobs,
                       unit_pack=loaded, kinds=acc.kinds, in_sample=in_sample(trained, len(problems)),
                       min_evidence=float(min_evidence))
