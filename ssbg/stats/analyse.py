"""Records in, one row per problem out: :func:`analyse`, the one call from a corpus to a per-problem table.

Each record is read, bound and checked as ``ssbg report`` does (:func:`~ssbg.stats.batch.analyse_record`, the
corpus pack by default), and its row says what a researcher asks first: the question, what became of it, the first
refusal and its family, and whether that is a dimension error found or a case ssbg could not tell, weighed as the
report and the checker weigh it (a dimension refusal is an error found only when the plausible readings that would
admit it hold less than ε of the probability: :mod:`ssbg.reading.weighing`, ADR 0034).  The table is
indexed like the input: a DataFrame's own index, else positions from 0 (a record is never dropped: one that
cannot be read is a row whose outcome is ``import_refused``).

Examples
--------
>>> rows = [{"question": "Ann has 3 apples and buys 4 more apples. How many apples does she have?",
...          "answer": "3 + 4 = <<3+4=7>>7 apples\\n#### 7"},
...         {"question": "A car goes 60 miles in 2 hours. How far does it go in miles?",
...          "answer": "60 + 2 = <<60+2=62>>62 miles\\n#### 62"}]
>>> table = analyse(rows, progress=False)
>>> table[["outcome", "first_refusal", "family", "finding"]].values.tolist()
[['admitted', <NA>, <NA>, 'admitted'], ['equation_refused', 'unit_mismatch', 'admissibility', 'dimension error found']]
>>> float(round(table["dimension_support"][1], 4))  # P(a plausible reading admits it): 60 minutes per hour, rarely
0.0007
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ssbg.errors import GROUNDING_REASONS, refusal_family
from ssbg.reading.weighing import DEFAULT_MIN_EVIDENCE, is_evidence
from ssbg.stats.batch import analyse_record, iter_records
from ssbg.stats.rows import EQUATION_COLUMNS, PROBLEM_COLUMNS

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ssbg.stats.batch import ProblemAnalysis

__all__ = ["ANALYSIS_COLUMNS", "FINDINGS", "analyse"]

ANALYSIS_COLUMNS: tuple[str, ...] = (
    "problem_id",  # as the report's tables print it (ssbg render SPEC --id ID draws it)
    "source",  # NAME:N, the record's line or position from 1
    "question",  # the problem's text, as read
    "outcome",  # ssbg.stats.rows.PROBLEM_OUTCOMES: import_refused, bind_failed, equation_refused, ...
    "first_refusal",  # the reason of the first root-cause refused equation, else the target's or the import's
    "family",  # admissibility or grounding (an equation's), question_target, import, binding
    "finding",  # admitted, dimension error found, could not tell (FINDINGS)
    "n_equations",
    "n_admitted",
    "n_refused",
    "n_root_cause",
    "n_propagated",
    "expected_unit",  # the unit the question asks for
    "predicted_answer_unit",  # the unit the solution's last step states, else the question's
    "dimension_support",  # the least P(a plausible reading admits it) of its dimension refusals (NaN: none)
)
"""The columns of :func:`analyse`'s table, in order."""

FINDINGS: tuple[str, ...] = ("admitted", "dimension error found", "could not tell")
"""What a problem's row says, in one word: every equation admitted and the question bound; a dimension refusal
(:data:`~ssbg.reading.weighing.DIMENSION_REASONS`) that every plausible reading keeps, at ε: a dimension error found
(of the problem, its solution, or ssbg's reading); any other refusal (a unit the pack lacks, two readings the words
leave open, a dimension refusal a plausible reading undoes, a record that could not be read): ssbg could not tell."""

_EQ = {name: k for k, name in enumerate(EQUATION_COLUMNS)}
_PR = {name: k for k, name in enumerate(PROBLEM_COLUMNS)}


def _first_refusal(a: ProblemAnalysis, min_evidence: float) -> tuple[str | None, str | None, str]:
    """(first refusal reason, its family, finding) of one problem."""
    row = a.problem
    outcome = row[_PR["outcome"]]
    roots = sorted((e[_EQ["index"]], str(e[_EQ["reason"]])) for e in a.equations
                   if e[_EQ["status"]] == "refused" and e[_EQ["root_cause"]])
    support = row[_PR["dimension_support"]]
    erring = support is not None and is_evidence(support, min_evidence)
    if outcome == "import_refused":
        return row[_PR["import_reason"]], "import", "could not tell"
    if outcome == "bind_failed":
        return row[_PR["bind_error"]], "binding", "could not tell"
    target = row[_PR["target_reason"]] if row[_PR["target_status"]] == "refused" else None
    if roots:
        reason = roots[0][1]
        family = "grounding" if reason in GROUNDING_REASONS else refusal_family(reason)
        return reason, family, "dimension error found" if erring else "could not tell"
    if target is not None:
        return target, "question_target", "dimension error found" if erring else "could not tell"
    return None, None, "admitted"


def _rows(records: Iterator[Any], pack: Any, min_evidence: float) -> Iterator[tuple[Any, ...]]:
    for record in records:
        a = analyse_record(record, pack=pack)
        row = dict(zip(PROBLEM_COLUMNS, a.problem, strict=True))
        first, family, finding = _first_refusal(a, min_evidence)
        row.update(question=record.text, first_refusal=first, family=family, finding=finding)
        yield tuple(row[c] for c in ANALYSIS_COLUMNS)


def _check_arguments(fmt: object, name: object, limit: object, progress: object, min_evidence: object) -> None:
    """Each argument of :func:`analyse` of its type and range, else a typed error naming it."""
    from ssbg.errors import ProblemGraphError

    checks = (
        ("fmt", isinstance(fmt, str), "a format name"),
        ("name", name is None or isinstance(name, str), "a str or None"),
        ("limit", limit is None or (type(limit) is int and limit >= 1), "an int >= 1 or None"),
        ("progress", type(progress) is bool, "a bool"),
        ("min_evidence", type(min_evidence) in (int, float) and 0.0 < min_evidence <= 1.0,  # type: ignore[operator]
         "a probability in (0, 1]"),
    )
    for field, ok, what in checks:
        if not ok:
            raise ProblemGraphError(f"analyse: {field!r} must be {what}", reason="invalid_value", path=field)


def analyse(
    records: Any,
    fmt: str = "gsm8k",
    *,
    pack: str | Path | None = None,
    name: str | None = None,
    limit: int | None = None,
    progress: bool = True,
    min_evidence: float = DEFAULT_MIN_EVIDENCE,
) -> pd.DataFrame:
    """Read, bind and check every record; one row per problem (:data:`ANALYSIS_COLUMNS`), indexed like the input.

    Parameters
    ----------
    records
        A pandas DataFrame, a ``datasets.Dataset`` (a ``DatasetDict``: pick a split, ``ds["train"]``) or a list
        of dicts, read in format ``fmt``; or a corpus spec (``FORMAT=PATH`` or a path, any format ``ssbg report``
        reads; a folder reads every corpus file below it) or a list of them (``fmt`` is then unused).
    fmt
        The records' format (``gsm8k``: ``question`` and ``answer`` fields; ``svamp``, ``mawps``, ``cogcomp``,
        ``ssbg``; see ``ssbg report --help``).
    pack
        A shipped pack's name or a folder, or packs joined by ``+`` (default: the corpus pack,
        ``en_units_v1+en_counts_v2+en_measures_v1``, as ``ssbg report``).
    name
        What records in memory are called in ``source`` (``NAME:N``; default ``dataframe``, ``records``, a
        Dataset's split).
    limit
        At most this many records (of each spec).
    progress
        Show a progress bar.
    min_evidence
        ε in (0, 1]: a dimension refusal is a dimension error found only when the plausible readings that would
        admit it hold less than ε of the probability (the report's and the checker's weighing, ADR 0034).

    Returns
    -------
    pandas.DataFrame
        Indexed like the input: a DataFrame's own index, else positions from 0.  ``finding`` is one of
        :data:`FINDINGS`; ``first_refusal`` is ``<NA>`` for an admitted problem.

    Raises
    ------
    ImportRefusal
        For a path that names no file, an unknown format, or records that are none of the forms above.
    """
    import pandas as pd

    _check_arguments(fmt, name, limit, progress, min_evidence)
    from ssbg.reading.learned.model import keeping_readings
    from ssbg.reading.readers import RecordSource
    from ssbg.reading.readers.tabular import count_records, is_in_memory
    from ssbg.units import corpus_pack, load_pack

    loaded = corpus_pack() if pack is None else load_pack(pack)
    paths = isinstance(records, list | tuple) and bool(records) and all(isinstance(r, str | Path) for r in records)
    memory = is_in_memory(records) and not paths
    specs: list[Any] = list(records) if paths else [RecordSource(records, fmt, name=name) if memory else records]
    total = count_records(records) if memory else None
    if total is not None and limit is not None:
        total = min(total, limit)
    stream: Iterator[Any] = iter_records(specs, limit=limit, pack=loaded)
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=total, unit=" problems", desc="ssbg analyse", dynamic_ncols=True)
    try:
        rows = []
        with keeping_readings():  # the records are read as the stream is consumed: with the n-best the weighing weighs
            for row in _rows(stream, loaded, min_evidence):
                rows.append(row)
                if bar is not None:
                    bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    table = pd.DataFrame(rows, columns=list(ANALYSIS_COLUMNS))
    for column in ("problem_id", "source", "question", "outcome", "first_refusal", "family", "finding",
                   "expected_unit", "predicted_answer_unit"):
        table[column] = table[column].astype("string")
    for column in ("n_equations", "n_admitted", "n_refused", "n_root_cause", "n_propagated"):
        table[column] = table[column].astype("int64")
    table["dimension_support"] = pd.to_numeric(table["dimension_support"]).astype("float64")
    if type(records).__name__ == "DataFrame" and hasattr(records, "index"):
        positions = [int(s.rpartition(":")[2]) - 1 for s in table["source"]]
        table.index = records.index[positions]
    return table
