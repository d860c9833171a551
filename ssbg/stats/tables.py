"""Tidy pandas tables of a corpus run, and the summaries a report shows.

Two tidy tables come out of :func:`ssbg.stats.batch.run_batch`: one row per
equation and one row per problem (columns in
:data:`~ssbg.stats.rows.EQUATION_COLUMNS` and
:data:`~ssbg.stats.rows.PROBLEM_COLUMNS`, dtypes in :data:`EQUATION_DTYPES`
and :data:`PROBLEM_DTYPES`: categoricals for every low-cardinality column,
closed vocabularies in their defined order).  The summary helpers read only
these tables' columns (never message text) and return new tidy frames sorted
deterministically, with shares as percentages rounded to two decimals, so that
a CSV of a summary is byte-equal across runs, job counts and engines.

A refused equation counts once as a **root cause** (``root_cause`` true) or as
**propagated** from an upstream refusal; ``blocking_units`` lists every unit
outside the pack that stands between it and admission (its own and its
upstream refusals'), and ``pack_fixable`` says whether adding those units could
admit it at all (only ``unknown_unit`` roots can).

Examples
--------
>>> import pandas as pd
>>> eq = equations_frame([
...     ("c", "p1", 0, "r0", "add", "refused", "unknown_unit", True, None, "apples", "apples;apples", "apples",
...      "apples", "apples", True, "unverified", "add 2 apples", 0, 12, None),
...     ("c", "p1", 1, "r1", "multiply", "refused", "unit_unbound", False, "r0", None, "-;apples", None,
...      "apples", "apples", True, "unverified", "times 3", 0, 7, None)])
>>> refusal_reasons(eq, total=False)[["corpus", "reason", "root_cause", "propagated"]].values.tolist()
[['c', 'unit_unbound', 0, 1], ['c', 'unknown_unit', 1, 0]]
>>> pack_coverage_curve(eq, total=False)[["k", "unit", "removed"]].values.tolist()
[[0, nan, 0], [1, 'apples', 2]]
"""

from __future__ import annotations

import ctypes
import functools
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ssbg.admissibility import OPERATION_KINDS
from ssbg.errors import (
    ADMISSIBILITY_REASONS,
    GROUNDING_REASONS,
    IMPORT_REASONS,
    QUESTION_TARGET_REASONS,
    REFUSAL_FAMILIES,
    refusal_family,
)
from ssbg.model import QUESTION_FORMS, TARGET_STATUSES
from ssbg.reading.weighing import DEFAULT_MIN_EVIDENCE, DIMENSION_REASONS
from ssbg.stats.rows import (
    ANSWER_UNIT_AGREEMENTS,
    CHUNK_ROWS,
    EQUATION_COLUMNS,
    KIND_COLUMNS,
    PROBLEM_COLUMNS,
    PROBLEM_OUTCOMES,
    UNREADABLE_IMPORT_REASONS,
    BatchChunk,
    unit_key,
)

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ssbg.units import PackComponent, UnitPack

__all__ = [
    "ALL_CORPORA",
    "DRAW_COLUMN",
    "EQUATION_DTYPES",
    "ERROR_EVIDENCE_REASONS",
    "KIND_DTYPES",
    "PACK_COLUMNS",
    "PROBLEM_DTYPES",
    "SUMMARY_TABLES",
    "CorpusSummary",
    "ProblemsWithCommands",
    "TableAccumulator",
    "admission_by_kind",
    "answer_unit_agreement_table",
    "bad_lines",
    "corpus_overview",
    "equations_frame",
    "import_refusals",
    "kind_findings",
    "kinds_frame",
    "pack_coverage_curve",
    "pack_table",
    "problems_frame",
    "refusal_patterns",
    "refusal_reasons",
    "release_freed_memory",
    "summarize",
    "target_refusals",
    "unknown_unit_leaderboard",
]

ALL_CORPORA = "(all corpora)"
_SEP = ";"

# Column dtype kinds: "category" (sorted categories), a tuple (a closed
# vocabulary, in its defined order, observed extras appended sorted), "str",
# "int32", "float64" (a missing value is NaN) or "bool".
DtypeSpec = str | tuple[str, ...]

PROBLEM_DTYPES: Mapping[str, DtypeSpec] = {
    "corpus": "category",
    "problem_id": "str",
    "source": "str",
    "outcome": PROBLEM_OUTCOMES,
    "import_status": ("imported", "refused"),
    "import_reason": tuple(sorted(IMPORT_REASONS)),
    "import_detail": "str",
    "import_path": "str",
    "import_message": "str",
    "bind_error": "category",
    "n_symbols": "int32",
    "n_facts": "int32",
    "n_equations": "int32",
    "n_admitted": "int32",
    "n_refused": "int32",
    "n_root_cause": "int32",
    "n_propagated": "int32",
    "n_unknowns": "int32",
    "question_form": tuple(sorted(QUESTION_FORMS)),
    "state_index": "category",
    "target_status": tuple(sorted(TARGET_STATUSES)),
    "target_reason": tuple(sorted(QUESTION_TARGET_REASONS)),
    "expected_unit": "category",
    "predicted_answer_unit": "category",
    "gold_answer_unit": "category",
    "answer_unit_agreement": ANSWER_UNIT_AGREEMENTS,
    "dimension_support": "float64",
}

EQUATION_DTYPES: Mapping[str, DtypeSpec] = {
    "corpus": "category",
    "problem_id": "str",  # one category per problem would cost more to join than it saves
    "index": "int32",
    "lhs": "category",
    "kind": OPERATION_KINDS,
    "status": ("admitted", "refused", "pending"),
    # ADR-0134's seven, then the reading's outcomes (ADR 0024): a family's reasons stay together
    "reason": (*sorted(ADMISSIBILITY_REASONS), *sorted(GROUNDING_REASONS)),
    "root_cause": "bool",
    "propagated_from": "category",
    "lhs_unit": "category",
    "operand_units": "category",
    "offending_unit": "category",
    "unknown_units": "category",
    "blocking_units": "category",
    "pack_fixable": "bool",
    "unit_proof": "category",
    "span_text": "str",
    "span_start": "int32",
    "span_end": "int32",
    "support": "float64",
}


KIND_DTYPES: Mapping[str, DtypeSpec] = {
    "corpus": "category",
    "problem_id": "str",
    "index": "int32",
    "lhs": "category",
    "where": ("equation", "target"),
    "finding": ("count_kind_mismatch", "mixed_kinds"),
    "nouns": "category",
    "detail": "str",
}


def _check_columns(columns: Sequence[str], dtypes: Mapping[str, DtypeSpec]) -> None:
    if tuple(columns) != tuple(dtypes):  # pragma: no cover - a programming error caught by the tests
        raise RuntimeError("column vocabulary and dtype table disagree")


_check_columns(PROBLEM_COLUMNS, PROBLEM_DTYPES)
_check_columns(EQUATION_COLUMNS, EQUATION_DTYPES)
_check_columns(KIND_COLUMNS, KIND_DTYPES)


def _categorical(values: Any, spec: DtypeSpec) -> Any:
    """A categorical Series with deterministic categories (vocabulary order, else sorted)."""
    import pandas as pd

    s = pd.Series(values, dtype="object")
    observed = sorted(set(s.dropna().tolist()))
    cats = [*spec, *[v for v in observed if v not in spec]] if isinstance(spec, tuple) else observed
    return pd.Series(pd.Categorical(s, categories=pd.Index(cats, dtype="str")), index=s.index)


def _frame(rows: Sequence[tuple[Any, ...]], dtypes: Mapping[str, DtypeSpec]) -> pd.DataFrame:
    import pandas as pd

    columns = list(dtypes)
    raw = pd.DataFrame.from_records(list(rows), columns=columns) if rows else pd.DataFrame(
        {c: pd.Series([], dtype="object") for c in columns})
    out: dict[str, Any] = {}
    for name, spec in dtypes.items():
        col = raw[name]
        if spec == "category" or isinstance(spec, tuple):
            out[name] = _categorical(col, spec)
        elif spec == "str":
            out[name] = pd.Series(col, dtype="str")
        elif spec == "float64":
            out[name] = pd.to_numeric(col, errors="raise").astype("float64")
        else:
            out[name] = col.astype("bool" if spec == "bool" else "int32")
    return pd.DataFrame(out)


def equations_frame(rows: Sequence[tuple[Any, ...]]) -> pd.DataFrame:
    """The equation table from row tuples in :data:`~ssbg.stats.rows.EQUATION_COLUMNS` order."""
    return _frame(rows, EQUATION_DTYPES)


def problems_frame(rows: Sequence[tuple[Any, ...]]) -> pd.DataFrame:
    """The problem table from row tuples in :data:`~ssbg.stats.rows.PROBLEM_COLUMNS` order."""
    return _frame(rows, PROBLEM_DTYPES)


def kinds_frame(rows: Sequence[tuple[Any, ...]]) -> pd.DataFrame:
    """The kind check's table from row tuples in :data:`~ssbg.stats.rows.KIND_COLUMNS` order."""
    return _frame(rows, KIND_DTYPES)


def _is_categorical(spec: DtypeSpec) -> bool:
    return spec == "category" or isinstance(spec, tuple)


class _ColumnStore:
    """One table's columns as compact pieces, with one growing vocabulary per categorical column.

    A flushed chunk keeps only integer codes (categoricals), numpy arrays
    (ints, bools) and string arrays; :meth:`frame` joins the pieces once,
    mapping codes onto the final, deterministic category order.
    """

    def __init__(self, dtypes: Mapping[str, DtypeSpec]) -> None:
        self._dtypes = dtypes
        self._vocab: dict[str, dict[str, int]] = {n: {} for n, spec in dtypes.items() if _is_categorical(spec)}
        self._pieces: dict[str, list[Any]] = {n: [] for n in dtypes}
        self.rows: list[tuple[Any, ...]] = []

    def flush(self) -> None:
        import numpy as np
        import pandas as pd

        if not self.rows:
            return
        columns = list(zip(*self.rows, strict=True))
        self.rows = []
        for (name, spec), values in zip(self._dtypes.items(), columns, strict=True):
            if _is_categorical(spec):
                vocab = self._vocab[name]
                codes = np.fromiter((-1 if v is None else vocab.setdefault(v, len(vocab)) for v in values),
                                    dtype=np.int32, count=len(values))
                # the smallest signed type that holds the vocabulary so far: most columns have a few
                # dozen values, and int32 codes would be four times the final table's int8 codes
                self._pieces[name].append(codes.astype(np.min_scalar_type(-len(vocab) - 1), copy=False))
            elif spec == "str":
                self._pieces[name].append(pd.array(list(values), dtype="str"))
            elif spec == "float64":
                self._pieces[name].append(np.array([np.nan if v is None else v for v in values], dtype="float64"))
            else:
                self._pieces[name].append(np.array(values, dtype="bool" if spec == "bool" else "int32"))

    def frame(self) -> pd.DataFrame:
        import numpy as np
        import pandas as pd

        self.flush()
        if not any(self._pieces.values()):
            return _frame([], self._dtypes)
        out: dict[str, Any] = {}
        for name, spec in self._dtypes.items():
            pieces = self._pieces.pop(name)
            if _is_categorical(spec):
                seen = list(self._vocab.pop(name))  # in first-seen order: code i is seen[i]
                observed = sorted(seen)
                cats = [*spec, *[v for v in observed if v not in spec]] if isinstance(spec, tuple) else observed
                position = {v: i for i, v in enumerate(cats)}
                remap = np.array([position[v] for v in seen] + [-1], dtype=np.int32)  # -1 stays missing
                codes = remap[np.concatenate(pieces)]
                out[name] = pd.Series(pd.Categorical.from_codes(codes, categories=pd.Index(cats, dtype="str")))
            elif spec == "str":
                out[name] = _join_strings(pieces)
            else:
                out[name] = pd.Series(np.concatenate(pieces))
        return pd.DataFrame(out)


def _join_strings(pieces: list[Any]) -> pd.Series:
    """One string column from its flushed pieces: Arrow-backed pieces become chunks of it, not a copy.

    Concatenating a million rows' texts at the end would briefly double the
    largest columns of a run (the equations' ``span_text`` and ``problem_id``).
    """
    import pandas as pd

    if pieces and all(isinstance(p, pd.arrays.ArrowStringArray) for p in pieces):
        import pyarrow as pa

        return pd.Series(pd.array(pa.chunked_array([pa.array(p) for p in pieces]), dtype=pieces[0].dtype))
    return pd.concat([pd.Series(p) for p in pieces], ignore_index=True)


class TableAccumulator:
    """Collects row tuples chunk by chunk into compact columns (bounded working memory).

    Rows are held as Python tuples only until :data:`~ssbg.stats.rows.CHUNK_ROWS`
    of them have arrived; then each column becomes category codes against one
    vocabulary per column, a numpy array or a string array.  The frames equal
    :func:`problems_frame` / :func:`equations_frame` of all the rows.

    Examples
    --------
    >>> acc = TableAccumulator()
    >>> problems, equations = acc.result()
    >>> (len(problems), list(equations.columns)[:3])
    (0, ['corpus', 'problem_id', 'index'])
    """

    def __init__(self, chunk_rows: int = CHUNK_ROWS) -> None:
        self._chunk_rows = chunk_rows
        self._problems = _ColumnStore(PROBLEM_DTYPES)
        self._equations = _ColumnStore(EQUATION_DTYPES)
        self._kinds = _ColumnStore(KIND_DTYPES)
        self.kinds: pd.DataFrame | None = None  # the kind check's table, once result() has run

    def add(self, chunk: BatchChunk) -> None:
        for store, rows in ((self._problems, chunk.problems), (self._equations, chunk.equations),
                            (self._kinds, chunk.kinds)):
            store.rows.extend(rows)
            if len(store.rows) >= self._chunk_rows:
                store.flush()
                release_freed_memory()

    def result(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """The (problems, equations) frames of everything added (the kind check's table in :attr:`kinds`); the
        accumulator is spent afterwards."""
        frames = self._problems.frame(), self._equations.frame()
        self.kinds = self._kinds.frame()
        release_freed_memory()
        return frames


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim`` from the C library this process already has, or None elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # musl and other C libraries have no malloc_trim
        return None
    return trim


def release_freed_memory() -> None:
    """Give the pages the C heap has freed back to the system (glibc ``malloc_trim``; elsewhere nothing).

    A flushed chunk's row tuples are freed, but glibc keeps freed heap pages mapped, so
    without this the driver's resident memory keeps the high-water mark of every chunk's
    rows and of the temporaries that built the frames (about 20% of it at 300k problems).
    """
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


# --------------------------------------------------------------------------- summary helpers


def _pct(part: Any, whole: Any) -> Any:
    """Percentages rounded to two decimals; NaN where the whole is zero."""
    import numpy as np

    num = np.asarray(part, dtype="float64")
    den = np.asarray(whole, dtype="float64")
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, np.round(100.0 * num / np.where(den > 0, den, 1.0), 2), np.nan)


def _plain(frame: pd.DataFrame) -> pd.DataFrame:
    """Summary frames use plain str/int/float columns (categories dropped)."""
    out = frame.copy()
    for name in out.columns:
        if str(out[name].dtype) == "category":
            out[name] = out[name].astype("str").where(out[name].notna(), None).astype("str")
    return out.reset_index(drop=True)


def _corpus_values(frame: pd.DataFrame) -> list[str]:
    return [str(c) for c in sorted(frame["corpus"].dropna().unique().tolist())]


def _with_total(frame: pd.DataFrame, compute: Any, total: bool) -> pd.DataFrame:
    """Run ``compute`` per corpus (grouped already) and append the all-corpora rows."""
    import pandas as pd

    per: pd.DataFrame = compute(frame, by_corpus=True)
    if not total:
        return per
    whole: pd.DataFrame = compute(frame, by_corpus=False)
    whole.insert(0, "corpus", ALL_CORPORA)
    return pd.concat([per, whole], ignore_index=True)


ERROR_EVIDENCE_REASONS: frozenset[str] = DIMENSION_REASONS
"""Refusals that are evidence of a dimension error (of the problem, its solution, or ssbg's reading) when no
plausible reading undoes them (:data:`ssbg.reading.weighing.DIMENSION_REASONS`): a root equation refused for them,
or a question target refused ``expected_unit_mismatch``.  Every other refusal (a unit outside the pack, a number
without a unit, two readings the words leave open, ...) says ssbg could not tell; no reading's outcome
(:data:`~ssbg.errors.GROUNDING_REASONS`) is ever among them (ADR 0024)."""


def corpus_overview(
    problems: pd.DataFrame,
    equations: pd.DataFrame,
    *,
    total: bool = True,
    kinds: pd.DataFrame | None = None,
    min_evidence: float = DEFAULT_MIN_EVIDENCE,
) -> pd.DataFrame:
    """One row per corpus: records and problem outcomes, equations admitted and refused, and (given the kind
    check's table) its findings beside them: ``kind_mismatches`` (``count_kind_mismatch``, equations and
    question targets) and ``mixed_kinds`` (sums of different kinds, admitted and noted).

    The refused problems (``equation_refused`` and ``target_refused``) are split in two:
    ``refused_error``, those with a dimension error found at ε = ``min_evidence`` — a root refusal of
    :data:`ERROR_EVIDENCE_REASONS` that the plausible readings undo with a probability below ε
    (``dimension_support``, the checker's weighing: :mod:`ssbg.reading.weighing`, ADR 0034) — and
    ``refused_could_not_tell``, the rest, with their shares of the records beside ``problems_admitted_pct``.

    Examples
    --------
    >>> corpus_overview(problems_frame([]), equations_frame([])).shape[0]
    0
    """
    import pandas as pd

    rows: list[dict[str, Any]] = []
    support = problems["dimension_support"]
    found_rows = problems[support.notna() & (support < min_evidence)]
    evidence = set(zip(found_rows["corpus"], found_rows["problem_id"], strict=True))
    problems = problems[["corpus", "problem_id", "outcome", "import_reason", "target_reason"]]
    equations = equations[["corpus", "problem_id", "status", "reason", "root_cause"]]
    corpora = sorted(set(_corpus_values(problems)) | set(_corpus_values(equations)))
    scopes: list[tuple[str, Any, Any]] = [
        (c, problems[problems["corpus"] == c], equations[equations["corpus"] == c]) for c in corpora
    ]
    if total and corpora:
        scopes.append((ALL_CORPORA, problems, equations))
    for name, p, e in scopes:
        outcomes = p["outcome"].value_counts()
        status = e["status"].value_counts()
        refused = e[e["status"] == "refused"]
        n_eq = len(e)
        row: dict[str, Any] = {
            "corpus": name,
            "records": len(p),
            "bad_lines": int(p["import_reason"].isin(sorted(UNREADABLE_IMPORT_REASONS)).sum()),
        }
        row.update({o: int(outcomes.get(o, 0)) for o in PROBLEM_OUTCOMES})
        refused_problems = p[p["outcome"].isin(["equation_refused", "target_refused"])]
        found = sum(key in evidence for key in zip(refused_problems["corpus"], refused_problems["problem_id"],
                                                    strict=True))
        row.update({"refused_error": found, "refused_could_not_tell": len(refused_problems) - found})
        row.update({
            "equations": n_eq,
            "admitted_equations": int(status.get("admitted", 0)),
            "refused_equations": len(refused),
            "root_cause": int(refused["root_cause"].sum()),
            "propagated": int((~refused["root_cause"]).sum()),
        })
        rows.append(row)
    columns = ["corpus", "records", "bad_lines", *PROBLEM_OUTCOMES, "refused_error", "refused_could_not_tell",
               "equations", "admitted_equations", "refused_equations", "root_cause", "propagated"]
    out = pd.DataFrame(rows, columns=columns)
    for name in columns[1:]:
        out[name] = out[name].astype("int64")
    out["admission_pct"] = _pct(out["admitted_equations"], out["equations"])
    out["problems_admitted_pct"] = _pct(out["admitted"], out["records"])
    out["problems_error_pct"] = _pct(out["refused_error"], out["records"])
    out["problems_could_not_tell_pct"] = _pct(out["refused_could_not_tell"], out["records"])
    if kinds is not None:
        for column, finding in (("kind_mismatches", "count_kind_mismatch"), ("mixed_kinds", "mixed_kinds")):
            mine = kinds.loc[kinds["finding"] == finding, "corpus"].astype("object")
            per = mine.value_counts()
            out[column] = [len(mine) if c == ALL_CORPORA else int(per.get(c, 0)) for c in out["corpus"]]
            out[column] = out[column].astype("int64")
    return _plain(out)


def refusal_reasons(equations: pd.DataFrame, *, total: bool = True) -> pd.DataFrame:
    """Refusal reason x corpus: root-cause and propagated counts, and shares.

    ``family`` says whose reason it is (:func:`~ssbg.errors.refusal_family`): ``admissibility``, ADR-0134's
    seven (dimensional analysis), or ``grounding``, an outcome of reading (``ambiguous_grounding``: ssbg could
    not tell which reading the text means, never a dimension error; ADR 0024).  Rows are grouped by family,
    admissibility first, then by count.  ``share_of_equations_pct`` divides by all equations of the corpus,
    ``share_of_refusals_pct`` by its refused equations, and ``root_share_of_roots_pct`` the reason's root
    causes by all root causes.
    """

    def compute(frame: pd.DataFrame, *, by_corpus: bool) -> pd.DataFrame:
        import pandas as pd

        keys = ["corpus", "reason"] if by_corpus else ["reason"]
        frame = frame[["corpus", "status", "reason", "root_cause"]]
        refused = frame[frame["status"] == "refused"]
        g = refused.groupby(keys, observed=True, sort=True)
        out = pd.DataFrame({
            "refused": g.size(),
            "root_cause": g["root_cause"].sum(),
        }).reset_index()
        out["propagated"] = out["refused"] - out["root_cause"]
        if by_corpus:
            eq_n = frame.groupby("corpus", observed=True).size()
            ref_n = refused.groupby("corpus", observed=True).size()
            root_n = refused.groupby("corpus", observed=True)["root_cause"].sum()
            corpus = out["corpus"]
            dens: tuple[Any, Any, Any] = (corpus.map(eq_n), corpus.map(ref_n), corpus.map(root_n))
        else:
            dens = (len(frame), len(refused), int(refused["root_cause"].sum()))
        for name in ("refused", "root_cause", "propagated"):
            out[name] = out[name].astype("int64")
        out["share_of_equations_pct"] = _pct(out["refused"], dens[0])
        out["share_of_refusals_pct"] = _pct(out["refused"], dens[1])
        out["root_share_of_roots_pct"] = _pct(out["root_cause"], dens[2])
        out = _plain(out)
        out.insert(list(out.columns).index("reason") + 1, "family", [refusal_family(r) for r in out["reason"]])
        out["_order"] = out["family"].map(REFUSAL_FAMILIES.index)
        sort = (["corpus"] if by_corpus else []) + ["_order", "refused", "reason"]
        asc = ([True] if by_corpus else []) + [True, False, True]
        out = out.sort_values(sort, ascending=asc, kind="stable").drop(columns="_order")
        return out.reset_index(drop=True)

    return _with_total(equations, compute, total)


def target_refusals(problems: pd.DataFrame, *, total: bool = True) -> pd.DataFrame:
    """Question-target refusal reason x corpus, as counts and shares of bound problems."""

    def compute(frame: pd.DataFrame, *, by_corpus: bool) -> pd.DataFrame:
        import pandas as pd

        frame = frame[["corpus", "import_status", "target_status", "target_reason"]]
        imported = frame[frame["import_status"] == "imported"]
        refused = imported[imported["target_status"] == "refused"]
        keys = ["corpus", "target_reason"] if by_corpus else ["target_reason"]
        out = refused.groupby(keys, observed=True, sort=True).size().rename("problems").reset_index()
        out = out.rename(columns={"target_reason": "reason"})
        den = out["corpus"].map(imported.groupby("corpus", observed=True).size()) if by_corpus else len(imported)
        out["problems"] = out["problems"].astype("int64")
        out["share_of_imported_pct"] = _pct(out["problems"], den)
        out = _plain(pd.DataFrame(out))
        sort = (["corpus"] if by_corpus else []) + ["problems", "reason"]
        asc = ([True] if by_corpus else []) + [False, True]
        return out.sort_values(sort, ascending=asc, kind="stable").reset_index(drop=True)

    return _with_total(problems, compute, total)


def import_refusals(problems: pd.DataFrame, *, examples: int = 3, total: bool = True) -> pd.DataFrame:
    """Import refusal reason x corpus: records, share of records, example sources."""

    def compute(frame: pd.DataFrame, *, by_corpus: bool) -> pd.DataFrame:
        import pandas as pd

        refused = frame.loc[frame["import_status"] == "refused", ["corpus", "import_reason", "source"]]
        keys = ["corpus", "import_reason"] if by_corpus else ["import_reason"]
        g = refused.groupby(keys, observed=True, sort=True)
        out = pd.DataFrame({
            "records": g.size(),
            "examples": g["source"].agg(lambda s: _SEP.join(s.head(examples).tolist())),
        }).reset_index().rename(columns={"import_reason": "reason"})
        den = out["corpus"].map(frame.groupby("corpus", observed=True).size()) if by_corpus else len(frame)
        out["records"] = out["records"].astype("int64")
        out["share_of_records_pct"] = _pct(out["records"], den)
        out = _plain(out[[*([c for c in ("corpus",) if by_corpus]), "reason", "records", "share_of_records_pct",
                          "examples"]])
        sort = (["corpus"] if by_corpus else []) + ["records", "reason"]
        asc = ([True] if by_corpus else []) + [False, True]
        return out.sort_values(sort, ascending=asc, kind="stable").reset_index(drop=True)

    return _with_total(problems, compute, total)


def kind_findings(
    kinds: pd.DataFrame, problems: pd.DataFrame, *, examples: int = 3, total: bool = True
) -> pd.DataFrame:
    """The kind check's findings and notes (ADR 0017) x corpus, apart from the refusals: how many, in how many
    problems, their share of the imported problems, and the first example problems (``corpus:problem_id``).

    Examples
    --------
    >>> kind_findings(kinds_frame([]), problems_frame([])).columns.tolist()
    ['corpus', 'finding', 'where', 'findings', 'problems', 'share_of_imported_pct', 'examples']
    """
    import pandas as pd

    cols = ["corpus", "finding", "where", "findings", "problems", "share_of_imported_pct", "examples"]
    imported = problems.loc[problems["import_status"] == "imported", "corpus"].astype("object").value_counts()
    groups: dict[tuple[str, str, str], list[tuple[str, str]]] = {}
    rows = zip(*(kinds[c].astype("object").tolist() for c in ("corpus", "problem_id", "finding", "where")),
               strict=True)
    for corpus, problem_id, finding, where in rows:
        for scope in ((corpus,) if not total else (corpus, ALL_CORPORA)):
            groups.setdefault((scope, finding, where), []).append((corpus, problem_id))
    out = []
    for (scope, finding, where), hits in groups.items():
        distinct = list(dict.fromkeys(hits))
        whole = int(imported.sum()) if scope == ALL_CORPORA else int(imported.get(scope, 0))
        out.append((scope, finding, where, len(hits), len(distinct), whole,
                    _SEP.join(f"{c}:{p}" for c, p in distinct[:examples])))
    frame = pd.DataFrame(out, columns=["corpus", "finding", "where", "findings", "problems", "_imported",
                                       "examples"])
    frame["_last"] = frame["corpus"] == ALL_CORPORA
    frame = frame.sort_values(["_last", "corpus", "finding", "where"], kind="stable").reset_index(drop=True)
    for name in ("findings", "problems"):
        frame[name] = frame[name].astype("int64")
    frame["share_of_imported_pct"] = _pct(frame["problems"], frame["_imported"])
    return _plain(frame[cols].astype({"corpus": "str", "finding": "str", "where": "str", "examples": "str"}))


def bad_lines(problems: pd.DataFrame) -> pd.DataFrame:
    """Every unreadable record (bad JSON, bad bytes, oversized), in reading order."""
    mask = problems["import_reason"].isin(sorted(UNREADABLE_IMPORT_REASONS))
    out = problems.loc[mask, ["corpus", "source", "problem_id", "import_reason", "import_path", "import_message"]]
    return _plain(out.rename(columns={"import_reason": "reason", "import_path": "path", "import_message": "message"}))


def _key_pack(pack: UnitPack | None) -> UnitPack:
    """The pack that keys unknown units (the run's; default the corpus pack, :func:`~ssbg.units.corpus_pack`)."""
    from ssbg.units import corpus_pack

    return corpus_pack() if pack is None else pack


def _unit_keys(texts: Iterable[str], pack: UnitPack) -> dict[str, tuple[str, ...]]:
    """Map each ``;``-joined unit-part text to its sorted, distinct leaderboard keys."""
    return {t: tuple(sorted({unit_key(part, pack) for part in t.split(_SEP)})) for t in texts}



_BLOCKING_COLUMNS = ["corpus", "root_cause", "pack_fixable", "blocking_units"]


def _refused_blocking(frame: pd.DataFrame) -> tuple[pd.DataFrame, Any, list[str]]:
    """Refused rows with blocking units (only the columns the unit summaries read).

    Returns the rows, the integer code of each row's blocking text, and the
    texts by code, so that per-unit counts run over a few thousand distinct
    texts instead of one exploded row per (equation, unit).  The rows keep the
    frame's index labels; problem ids are not copied (see :func:`_problem_runs`).
    """
    import pandas as pd

    mask = (frame["status"] == "refused") & frame["blocking_units"].notna()
    sub = frame.loc[mask, _BLOCKING_COLUMNS]
    codes, uniques = pd.factorize(sub["blocking_units"], sort=True)
    return sub, codes, [str(u) for u in uniques]


def _problem_runs(frame: pd.DataFrame) -> Any:
    """Each row's problem number: rows of one problem are consecutive (reading order), so a new
    (corpus, problem_id) starts a new number.  Compares neighbours instead of hashing a million
    ids, which would cost more memory than the tables themselves."""
    import numpy as np
    import pandas as pd

    n = len(frame)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    ids = frame["problem_id"]
    if isinstance(ids.array, pd.arrays.ArrowStringArray):
        import pyarrow as pa
        import pyarrow.compute as pc

        arrow = pa.array(ids.array)  # the column's own buffers (chunks or one array), not a copy
        changed = np.asarray(pc.not_equal(arrow.slice(1), arrow.slice(0, n - 1)).fill_null(True), dtype=bool)
    else:
        values = ids.to_numpy(dtype=object)
        changed = values[1:] != values[:-1]
    corpus = frame["corpus"]
    corpus_codes = corpus.cat.codes.to_numpy() if isinstance(corpus.dtype, pd.CategoricalDtype) else pd.factorize(
        corpus)[0]
    changed = np.asarray(changed, dtype=bool) | (corpus_codes[1:] != corpus_codes[:-1])
    return np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(changed, dtype=np.int64)])


def _first_distinct(*columns: Any) -> Any:
    """Positions of the first occurrence of each distinct row of non-negative int columns, in order."""
    import numpy as np

    combined = np.zeros(len(columns[0]), dtype=np.int64)
    for column in columns:
        col = np.asarray(column, dtype=np.int64)
        combined = combined * (int(col.max(initial=-1)) + 1) + col
    _, first = np.unique(combined, return_index=True)
    return np.sort(first)


def _examples_across_corpora(keys: Any, corpora: Any, names: Sequence[str], examples: int) -> Any:
    """Positions of each key's example rows: its first problem in each corpus (corpora by name), then its
    second in each, and so on, ``examples`` in all; rows are in reading order and each is one problem.

    A unit shared by several corpora is shown with a problem of each, not the first few of one.
    """
    import numpy as np

    n = len(keys)
    if n == 0 or examples <= 0:
        return np.zeros(0, dtype=np.int64)
    by_name = np.argsort(np.argsort(np.array(names, dtype=object)))  # a corpus code's place by name
    order = np.lexsort((np.arange(n), corpora, keys))  # by key, corpus, reading order
    sk, sc = keys[order], corpora[order]
    group = np.concatenate([[True], (sk[1:] != sk[:-1]) | (sc[1:] != sc[:-1])])
    starts = np.maximum.accumulate(np.where(group, np.arange(n), 0))
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n) - starts  # a row's place among its key's problems in its corpus
    kept = np.flatnonzero(rank < examples)
    kept = kept[np.lexsort((by_name[corpora[kept]], rank[kept], keys[kept]))]  # by key, round, corpus name
    sorted_keys = keys[kept]
    nth = np.arange(len(kept)) - np.searchsorted(sorted_keys, sorted_keys, side="left")
    return kept[nth < examples]


def _unit_problems(
    frame: pd.DataFrame,
    sub: pd.DataFrame,
    codes: Any,
    texts: list[str],
    text_keys: Mapping[str, tuple[str, ...]],
    keys: list[str],
    examples: int,
) -> tuple[list[int], list[str], list[str]]:
    """Per unit key (in ``keys`` order): problems blocked, their corpora, the first example problems.

    Integer codes throughout (one row per distinct text and problem, exploded
    to its keys with ``numpy.repeat``), so the memory stays a few arrays of the
    refused rows' length whatever the number of problems.
    """
    import numpy as np
    import pandas as pd

    positions = frame.index.get_indexer(sub.index)
    runs = _problem_runs(frame)[positions]
    corpus_codes, corpus_names = pd.factorize(sub["corpus"])
    rows = _first_distinct(codes, runs)  # reading order
    t, c, where = codes[rows], corpus_codes[rows], positions[rows]
    key_id = {k: i for i, k in enumerate(keys)}
    per_text = [[key_id[k] for k in text_keys[text]] for text in texts]
    n_per_text = np.array([len(ids) for ids in per_text], dtype=np.int64)
    offsets = np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(n_per_text)[:-1]])
    flat = np.array([i for ids in per_text for i in ids], dtype=np.int64)
    reps = n_per_text[t]
    starts = np.repeat(offsets[t], reps)
    within = np.arange(int(reps.sum()), dtype=np.int64) - np.repeat(np.cumsum(reps) - reps, reps)
    k = flat[starts + within]  # each row's keys: rows in reading order, keys sorted
    c, where, run = np.repeat(c, reps), np.repeat(where, reps), np.repeat(runs[rows], reps)
    keep = _first_distinct(k, run)
    k, c, where = k[keep], c[keep], where[keep]
    problems = np.bincount(k, minlength=len(keys)).tolist()
    corpora_sets: list[set[str]] = [set() for _ in keys]
    n_corpora = max(len(corpus_names), 1)
    for pair in np.unique(k * n_corpora + c).tolist():  # distinct (key, corpus) pairs, not a tuple per row
        key, corpus = divmod(pair, n_corpora)
        corpora_sets[key].add(str(corpus_names[corpus]))
    firsts = _examples_across_corpora(k, c, [str(name) for name in corpus_names], examples)
    ids = frame["problem_id"].iloc[where[firsts]].tolist()
    example_lists: list[list[str]] = [[] for _ in keys]
    for key, corpus, pid in zip(k[firsts].tolist(), c[firsts].tolist(), ids, strict=True):
        example_lists[key].append(f"{corpus_names[corpus]}:{pid}")
    return (
        problems,
        [_SEP.join(sorted(found)) for found in corpora_sets],
        [_SEP.join(names) for names in example_lists],
    )


def _leaderboard(
    sub: pd.DataFrame,
    codes: Any,
    texts: list[str],
    examples: int,
    pack: UnitPack,
    *,
    frame: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Per unit key: counts, surfaces and (given the ``frame`` ``sub`` came from) problems, corpora, examples.

    The ranking reads only the counts, so the coverage curve skips the detail.
    """
    import numpy as np
    import pandas as pd

    cols = ["unit_key", "unit", "surfaces", "root_refusals", "refusals_blocked", "problems", "corpora",
            "example_problems"]
    counts = ("root_refusals", "refusals_blocked", "problems")
    if not len(sub):
        return pd.DataFrame({c: pd.Series([], dtype="int64" if c in counts else "str") for c in cols})
    n_texts = len(texts)
    blocked = np.bincount(codes, minlength=n_texts)
    roots = np.bincount(codes[sub["root_cause"].to_numpy(dtype=bool)], minlength=n_texts)
    text_keys = _unit_keys(texts, pack)
    per_key: dict[str, list[int]] = {}
    weights: dict[tuple[str, str], int] = {}
    pairs: list[tuple[int, str]] = []
    for code, text in enumerate(texts):
        for key in text_keys[text]:
            acc = per_key.setdefault(key, [0, 0])
            acc[0] += int(roots[code])
            acc[1] += int(blocked[code])
            pairs.append((code, key))
        for part in text.split(_SEP):
            pair = (unit_key(part, pack), part)
            weights[pair] = weights.get(pair, 0) + int(blocked[code])
    by_surface: dict[str, list[tuple[int, str]]] = {}
    for (key, part), weight in weights.items():
        by_surface.setdefault(key, []).append((-weight, part))
    keys = sorted(per_key)
    out = pd.DataFrame({
        "unit_key": keys,
        "unit": [min(by_surface[k])[1] for k in keys],
        "surfaces": [_SEP.join(sorted(part for _, part in by_surface[k])) for k in keys],
        "root_refusals": [per_key[k][0] for k in keys],
        "refusals_blocked": [per_key[k][1] for k in keys],
        "problems": 0,
        "corpora": "",
        "example_problems": "",
    })
    if frame is not None:
        out["problems"], out["corpora"], out["example_problems"] = _unit_problems(
            frame, sub, codes, texts, text_keys, keys, examples
        )
    for name in counts:
        out[name] = out[name].astype("int64")
    out = out.sort_values(["root_refusals", "refusals_blocked", "unit_key"], ascending=[False, False, True],
                          kind="stable").reset_index(drop=True)
    return _plain(out[cols])


_WHEN = "names a time (when), not an amount of it"
MISREAD_WORDS: Mapping[str, str] = MappingProxyType({
    **dict.fromkeys(("time", "times"), "'3 times as many' multiplies; it counts no thing"),
    **dict.fromkeys(("one", "ones"), "'the red ones' is a pronoun"),
    **dict.fromkeys(("lot", "lots"), "'lots of' is a quantifier"),
    "once": "an adverb", "twice": "an adverb", "other": "'the others' is a pronoun", "each": "a determiner",
    "more": "a comparative", "less": "a comparative", "few": "a quantifier", "half": "a fraction, not a unit",
    **dict.fromkeys(("morning", "afternoon", "evening", "noon", "midnight", "today", "tomorrow", "yesterday",
                     "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january",
                     "february", "march", "april", "may", "june", "july", "august", "september", "october",
                     "november", "december"), _WHEN),
})
"""Words ssbg's reading may take for a unit after a number that are never units, each with why (keyed by unit
key: the singular, and the plural where the key keeps it).  The first are the count nouns' stop list
(``packs/build_en_counts_v1.py``); the rest are function words and the names of a time of day, a day or a
month.  The leaderboard marks them (``misread_word``) and the report lists them apart: adding them to a pack
would be wrong, the reading is what to mend.  A verb read as a unit (``3 wins``, ``5 throws``) is not told
apart here: it stays with the units."""


def unknown_unit_leaderboard(
    equations: pd.DataFrame, *, examples: int = 3, top: int | None = None, pack: UnitPack | None = None
) -> pd.DataFrame:
    """Units outside the pack, ranked by the root-cause refusals they cause: what the pack leaves.

    Works for the tables of any pack (the run's ``pack`` keys the units; default the corpus
    pack): with the corpus pack (``en_units_v1+en_counts_v2+en_measures_v1``) it lists what the count
    nouns and measures leave unknown.

    ``misread_word`` is true for a word of :data:`MISREAD_WORDS`: read as a unit, but never one (``3 times as
    many``, ``on Monday morning``); the report lists those apart from the units the pack lacks.

    Unit parts are grouped by :func:`~ssbg.stats.rows.unit_key` (``apples``
    with ``apple``); ``unit`` is the group's most frequent surface and
    ``surfaces`` all of them.  ``root_refusals`` counts root-cause refusals that
    need the unit, ``refusals_blocked`` every refusal (root or propagated) that
    needs it, ``problems`` the problems blocked (a problem is its consecutive
    rows, as every engine writes them); ``example_problems`` are
    ``corpus:problem_id`` (the problem's own id), the first of each corpus that
    has the unit (corpora by name), then the second of each, and so on.  Ties
    break by key.
    """
    sub, codes, texts = _refused_blocking(equations)
    board = _leaderboard(sub, codes, texts, examples, _key_pack(pack), frame=equations)
    board.insert(0, "rank", range(1, len(board) + 1))
    board["misread_word"] = board["unit_key"].isin(list(MISREAD_WORDS)).astype(bool)
    return board if top is None else board.head(top).reset_index(drop=True)


def pack_coverage_curve(
    equations: pd.DataFrame, *, max_k: int | None = 50, total: bool = True, pack: UnitPack | None = None
) -> pd.DataFrame:
    """Refusals that would disappear if the top-k unknown units were added to the pack.

    Within each scope (a corpus, and all corpora together) units are ranked as
    in :func:`unknown_unit_leaderboard`.  A refusal disappears at the smallest k
    whose top-k units include *every* unit in its ``blocking_units`` (a
    propagated refusal needs its root's units too), and only when
    ``pack_fixable`` holds (refusals for a unit mismatch never disappear).
    ``removed_pct`` divides by all refused equations of the scope.  This is an
    upper bound: it assumes each added unit gets the dimension the equation
    needs.  ``pack`` keys the units as in :func:`unknown_unit_leaderboard`.
    """
    import pandas as pd

    key_pack = _key_pack(pack)

    def curve(frame: pd.DataFrame, scope: str) -> pd.DataFrame:
        import numpy as np

        n_refused = int((frame["status"] == "refused").sum())
        sub, codes, texts = _refused_blocking(frame)
        board = _leaderboard(sub, codes, texts, 0, key_pack)
        keys = board["unit_key"].tolist()
        labels = board["unit"].tolist()
        limit = len(keys) if max_k is None else min(max_k, len(keys))
        rank = {u: i + 1 for i, u in enumerate(keys)}
        fixable = np.bincount(codes[sub["pack_fixable"].to_numpy(dtype=bool)], minlength=len(texts))
        text_keys = _unit_keys(texts, key_pack)
        at_k: dict[int, int] = {}
        for code, text in enumerate(texts):
            if fixable[code]:
                k = max(rank[key] for key in text_keys[text])
                at_k[k] = at_k.get(k, 0) + int(fixable[code])
        removed = 0
        rows = []
        for k in range(limit + 1):
            removed += int(at_k.get(k, 0))
            rows.append({"corpus": scope, "k": k, "unit": labels[k - 1] if k else None,
                         "refusals": n_refused, "removed": removed})
        out = pd.DataFrame(rows, columns=["corpus", "k", "unit", "refusals", "removed"])
        for name in ("k", "refusals", "removed"):
            out[name] = out[name].astype("int64")
        out["unit"] = out["unit"].astype("str")
        out["remaining"] = out["refusals"] - out["removed"]
        out["removed_pct"] = _pct(out["removed"], out["refusals"])
        return out

    slim = equations[["status", *_BLOCKING_COLUMNS]]
    parts = [curve(slim[slim["corpus"] == c], c) for c in _corpus_values(slim)]
    if total and parts:
        parts.append(curve(slim, ALL_CORPORA))
    if not parts:
        return _plain(curve(equations, ALL_CORPORA).head(0))
    return _plain(pd.concat(parts, ignore_index=True))


def admission_by_kind(equations: pd.DataFrame, *, total: bool = True) -> pd.DataFrame:
    """Per operation kind (and corpus): equations, admitted, refused (root / propagated), admission rate."""

    def compute(frame: pd.DataFrame, *, by_corpus: bool) -> pd.DataFrame:
        import pandas as pd

        keys = ["corpus", "kind"] if by_corpus else ["kind"]
        frame = frame[["corpus", "kind", "status", "root_cause"]]
        f = frame.assign(
            _admitted=frame["status"] == "admitted",
            _refused=frame["status"] == "refused",
            _root=frame["root_cause"],
        )
        g = f.groupby(keys, observed=True, sort=True)
        out = pd.DataFrame({
            "equations": g.size(),
            "admitted": g["_admitted"].sum(),
            "refused": g["_refused"].sum(),
            "root_cause": g["_root"].sum(),
        }).reset_index()
        for name in ("equations", "admitted", "refused", "root_cause"):
            out[name] = out[name].astype("int64")
        out["propagated"] = out["refused"] - out["root_cause"]
        out["admission_pct"] = _pct(out["admitted"], out["equations"])
        return _plain(out)

    return _with_total(equations, compute, total)


def answer_unit_agreement_table(problems: pd.DataFrame, *, total: bool = True) -> pd.DataFrame:
    """Predicted vs gold answer unit: agreement class x corpus, over problems with a gold unit."""

    def compute(frame: pd.DataFrame, *, by_corpus: bool) -> pd.DataFrame:
        import pandas as pd

        keys = ["corpus", "answer_unit_agreement"] if by_corpus else ["answer_unit_agreement"]
        frame = frame[["corpus", "answer_unit_agreement"]]
        out = frame.groupby(keys, observed=True, sort=True).size().rename("problems").reset_index()
        out = out.rename(columns={"answer_unit_agreement": "agreement"})
        with_gold = frame[frame["answer_unit_agreement"] != "no_gold"]
        den_all = out["corpus"].map(frame.groupby("corpus", observed=True).size()) if by_corpus else len(frame)
        den_gold = (out["corpus"].map(with_gold.groupby("corpus", observed=True).size()).fillna(0)
                    if by_corpus else len(with_gold))
        out["problems"] = out["problems"].astype("int64")
        out["share_pct"] = _pct(out["problems"], den_all)
        gold_share = _pct(out["problems"], den_gold)
        out["share_of_gold_pct"] = pd.Series(gold_share).where((out["agreement"] != "no_gold").to_numpy())
        return _plain(pd.DataFrame(out))

    return _with_total(problems, compute, total)


_PATTERN_JOIN: Mapping[str, str] = {"add": " + ", "subtract": " - ", "multiply": " * ", "divide": " / "}


def _unit_lemma_text(text: str, pack: UnitPack) -> str:
    hit = pack.lookup(text)
    return text if isinstance(hit, str) else hit.lemma


def refusal_patterns(equations: pd.DataFrame, reason: str, *, pack: UnitPack | None = None) -> pd.DataFrame:
    """The root-cause refusals of one reason grouped by pattern, most frequent first, with a typical example.

    A pattern is the kind, the operand units and the declared result unit, each
    as its pack lemma where the pack (the run's; default the corpus pack) knows it (``multiply: dollar * dollar ->
    dollar`` for ``$ * $ -> $`` and ``dollars * dollars -> dollars``; ``-`` for
    no unit).  ``corpus``, ``problem_id`` and ``index`` name the pattern's
    median refusal in reading order (the middle one; the earlier of two), a
    typical case rather than the first.  Ties break by pattern.

    Examples
    --------
    >>> eq = equations_frame([
    ...     ("c", f"p{i}", 0, "s0", "multiply", "refused", "unit_mismatch", True, None, "$", "$;$", None, None,
    ...      None, False, "unverified", "", 0, 0, 0.0) for i in range(3)])
    >>> refusal_patterns(eq, "unit_mismatch")[["pattern", "equations", "problem_id"]].values.tolist()
    [['multiply: dollar * dollar -> dollar', 3, 'p1']]
    """
    import numpy as np
    import pandas as pd

    p = _key_pack(pack)
    cols = ["pattern", "equations", "problems", "corpus", "problem_id", "index"]
    sub = equations.loc[(equations["status"] == "refused") & (equations["reason"] == reason) & equations["root_cause"],
                        ["corpus", "problem_id", "index", "kind", "operand_units", "lhs_unit"]]
    if not len(sub):
        return pd.DataFrame({c: pd.Series([], dtype="int64" if c in ("equations", "problems", "index") else "str")
                             for c in cols})
    shapes = sub[["kind", "operand_units", "lhs_unit"]].astype("object").fillna("-")
    shape_codes, uniques = pd.factorize(pd.MultiIndex.from_frame(shapes))
    names = []
    for kind, operands, lhs in uniques:
        joined = _PATTERN_JOIN.get(str(kind), ", ").join(
            _unit_lemma_text(u, p) if u != "-" else "-" for u in str(operands).split(_SEP))
        names.append(f"{kind}: {joined}" + (f" -> {_unit_lemma_text(str(lhs), p)}" if lhs != "-" else ""))
    # several shapes may name one pattern ("$ * $" and "dollars * dollars"): codes by pattern name
    pattern_of_shape, patterns = pd.factorize(pd.Series(names, dtype="object"), sort=True)
    codes = pattern_of_shape[shape_codes]
    n = len(patterns)
    counts = np.bincount(codes, minlength=n)
    problem_codes = pd.factorize(pd.MultiIndex.from_frame(sub[["corpus", "problem_id"]].astype("object")))[0]
    pairs = np.unique(codes.astype(np.int64) * (int(problem_codes.max()) + 1) + problem_codes)
    problems = np.bincount(pairs // (int(problem_codes.max()) + 1), minlength=n)
    order = np.argsort(codes, kind="stable")  # by pattern, reading order within
    firsts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    median = order[firsts + (counts - 1) // 2]
    out = pd.DataFrame({
        "pattern": [str(x) for x in patterns],
        "equations": counts.astype("int64"),
        "problems": problems.astype("int64"),
        "corpus": sub["corpus"].astype("str").to_numpy()[median],
        "problem_id": sub["problem_id"].astype("str").to_numpy()[median],
        "index": sub["index"].to_numpy()[median].astype("int64"),
    })
    out = out.sort_values(["equations", "pattern"], ascending=[False, True], kind="stable")
    return _plain(out[cols].reset_index(drop=True))


# --------------------------------------------------------------------------- all summaries at once

SUMMARY_TABLES: tuple[str, ...] = (
    "overview",
    "refusal_reasons",
    "target_refusals",
    "import_refusals",
    "bad_lines",
    "kind_findings",
    "unknown_units",
    "coverage_curve",
    "admission_by_kind",
    "answer_units",
)


@dataclass(frozen=True)
class CorpusSummary:
    """Every summary table of a run (names in :data:`SUMMARY_TABLES`)."""

    overview: pd.DataFrame
    refusal_reasons: pd.DataFrame
    target_refusals: pd.DataFrame
    import_refusals: pd.DataFrame
    bad_lines: pd.DataFrame
    kind_findings: pd.DataFrame
    unknown_units: pd.DataFrame
    coverage_curve: pd.DataFrame
    admission_by_kind: pd.DataFrame
    answer_units: pd.DataFrame

    def tables(self) -> dict[str, pd.DataFrame]:
        """The summary frames by name, in :data:`SUMMARY_TABLES` order."""
        return {name: getattr(self, name) for name in SUMMARY_TABLES}


def summarize(
    problems: pd.DataFrame,
    equations: pd.DataFrame,
    *,
    max_k: int | None = 50,
    pack: UnitPack | None = None,
    kinds: pd.DataFrame | None = None,
    min_evidence: float = DEFAULT_MIN_EVIDENCE,
) -> CorpusSummary:
    """Compute every summary of a run from its tidy tables (``pack``: the run's, which keys the
    unknown units; default :func:`~ssbg.units.corpus_pack`; ``kinds``: the kind check's table,
    :attr:`~ssbg.stats.batch.BatchResult.kinds`, none when not given; ``min_evidence``: the ε at which a
    dimension refusal is a dimension error found, :func:`corpus_overview`).

    Examples
    --------
    >>> s = summarize(problems_frame([]), equations_frame([]))
    >>> sorted(s.tables()) == sorted(SUMMARY_TABLES)
    True
    """
    kinds = kinds_frame([]) if kinds is None else kinds
    return CorpusSummary(
        overview=corpus_overview(problems, equations, kinds=kinds, min_evidence=min_evidence),
        refusal_reasons=refusal_reasons(equations),
        target_refusals=target_refusals(problems),
        import_refusals=import_refusals(problems),
        bad_lines=bad_lines(problems),
        kind_findings=kind_findings(kinds, problems),
        unknown_units=unknown_unit_leaderboard(equations, pack=pack),
        coverage_curve=pack_coverage_curve(equations, max_k=max_k, pack=pack),
        admission_by_kind=admission_by_kind(equations),
        answer_units=answer_unit_agreement_table(problems),
    )


PACK_COLUMNS: tuple[str, ...] = ("role", "name", "version", "sha256")


def pack_table(components: Sequence[PackComponent]) -> pd.DataFrame:
    """The pack a run used, as the ``pack.csv`` written beside its tables (ADR 0017).

    The first row (``role`` ``pack``) is the pack as used: its name, version and checksum
    (:func:`~ssbg.units.composition_checksum` for a composition, the lexicon's sha256 for one
    pack); then one ``component`` row per pack folder, in composition order, with the full
    sha256 of its ``lexicon.jsonl``.  Every table of the run was computed with that pack.

    Examples
    --------
    >>> from ssbg.units import load_pack
    >>> t = pack_table(load_pack("en_units_v1+en_counts_v1").components)
    >>> print(t[["role", "name", "version"]].to_string(index=False))
         role                     name     version
         pack en_units_v1+en_counts_v1 1.0.0+1.0.0
    component              en_units_v1       1.0.0
    component             en_counts_v1       1.0.0
    >>> t["sha256"].str.len().tolist()
    [64, 64, 64]
    """
    import pandas as pd

    from ssbg.units import composition_checksum

    parts = tuple(components)
    rows: list[tuple[str, str, str, str]] = []
    if parts:
        rows.append(("pack", "+".join(c.name for c in parts), "+".join(c.version for c in parts),
                     composition_checksum(parts)))
        rows.extend(("component", c.name, c.version, c.checksum) for c in parts)
    return pd.DataFrame(rows, columns=list(PACK_COLUMNS), dtype="str")


DRAW_COLUMN = "draw_command"
"""The column of ``problems.csv`` (as a report writes it) holding the command that draws the problem."""


class ProblemsWithCommands:
    """``problems.csv`` as a report writes it: the problems table and, last, :data:`DRAW_COLUMN`, the shell
    command that draws each problem (:func:`ssbg.reading.readers.pick.draw_command`; empty for records in
    memory), made a chunk of rows at a time as the table is written (a million problems' commands are never
    held at once).  ``iloc[a:b]``, ``head(n)`` and ``len()`` are what the CSV and Parquet writers use.

    A problem whose id another problem of its corpus shares is drawn by ``--line``, every other by ``--id``.
    """

    def __init__(self, problems: pd.DataFrame, run_pack: str | None = None) -> None:
        self.frame = problems
        self.run_pack = run_pack
        self._by_line = problems.duplicated(["corpus", "problem_id"], keep=False).to_numpy(dtype=bool)
        self._shared: set[tuple[str, str]] | None = None

    def __len__(self) -> int:
        return len(self.frame)

    @property
    def iloc(self) -> ProblemsWithCommands:
        return self

    def __getitem__(self, rows: slice) -> pd.DataFrame:
        import pandas as pd

        from ssbg.reading.readers.pick import draw_command

        part = self.frame.iloc[rows]
        commands = [draw_command(str(c), str(s), str(p), run_pack=self.run_pack, by_line=bool(b))
                    for c, s, p, b in zip(part["corpus"], part["source"], part["problem_id"], self._by_line[rows],
                                          strict=True)]
        return part.assign(**{DRAW_COLUMN: pd.Series(commands, index=part.index, dtype="str")})

    def head(self, n: int) -> pd.DataFrame:
        return self[0:n]

    def command(self, corpus: str, problem_id: str, source: str) -> str | None:
        """The command of one problem (a drill-down card's)."""
        from ssbg.reading.readers.pick import draw_command

        if self._shared is None:
            shared = self.frame.loc[self._by_line, ["corpus", "problem_id"]]
            self._shared = {(str(c), str(p)) for c, p in zip(shared["corpus"], shared["problem_id"], strict=True)}
        return draw_command(corpus, source, problem_id, run_pack=self.run_pack,
                            by_line=(corpus, problem_id) in self._shared)


def iter_csv_tables(
    problems: pd.DataFrame,
    equations: pd.DataFrame,
    summary: CorpusSummary,
    pack_components: Sequence[PackComponent] = (),
    kinds: pd.DataFrame | None = None,
    *,
    commands: ProblemsWithCommands | None = None,
) -> Iterable[tuple[str, pd.DataFrame]]:
    """(name, frame) of every table a report writes, tidy tables first (``kinds``, the kind check's rows,
    when given); ``pack`` (:func:`pack_table`) last, when the run's pack components are given.  With
    ``commands`` (the problems and their draw commands), ``problems`` is written from it."""
    yield "problems", commands if commands is not None else problems  # type: ignore[misc]
    yield "equations", equations
    if kinds is not None:
        yield "kinds", kinds
    yield from summary.tables().items()
    if pack_components:
        yield "pack", pack_table(pack_components)
