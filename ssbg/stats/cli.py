"""The ``ssbg report`` subcommand: corpus specs in, an HTML report and CSV tables out.

``ssbg report CORPUS_SPEC... -o report.html [--csv-dir DIR] [--jobs N]
[--engine local|dask] [--pack PATH] [--limit N] [--no-progress] [--fail-on-refusal]``

It prints the refusal table (reason x corpus, root causes and propagated
apart), the unit pack it used (name, version and checksum of each part; the
default is ``en_units_v1+en_counts_v2+en_measures_v1``, ADR 0017) and where the report and the
tables are.  Exit codes: 0 when written;
1 with ``--fail-on-refusal`` when any equation, question target or record was
refused; 2 for bad input (a spec naming nothing, a bad pack, a file none of
whose records reads in its format), printed by :func:`ssbg.cli.main` from the
typed error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from ssbg.reading.weighing import DEFAULT_MIN_EVIDENCE
from ssbg.stats.batch import ENGINES

if TYPE_CHECKING:  # pragma: no cover
    from ssbg.stats.tables import CorpusSummary

__all__ = ["FORMAT_DESCRIPTIONS", "format_refusal_table", "positive_int", "register"]

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_BAD_INPUT = 2


def probability(text: str) -> float:
    """An argparse type: a probability in (0, 1] (``--min-evidence``), else a usage error naming the text."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number in (0, 1] (got {text!r})") from None
    if not 0.0 < value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be a number in (0, 1] (got {text!r})")
    return value


def positive_int(text: str) -> int:
    """An argparse type: a count of at least 1 (``--jobs``, ``--limit``), else a usage error naming the text."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive integer (got {text!r})") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer (got {text!r})")
    return value


# What each corpus format reads; every format of ssbg.reading.readers.READERS has an entry (tested).
FORMAT_DESCRIPTIONS: Mapping[str, str] = MappingProxyType(
    {
        "ssbg": "JSONL of MathProblemGraphs or traces, one per line (lane lines too); any other .jsonl",
        "gsm8k": 'GSM8K JSONL: {"question", "answer"} with <<a*b=c>> annotations and "#### N"',
        "svamp": "SVAMP JSON array: {ID, Body, Question, Equation, Answer, Type}",
        "mawps": "MAWPS JSON array: {iIndex, sQuestion, lEquations, lSolutions}",
        "cogcomp": "CogComp arithmetic JSON array: {iIndex, sQuestion, quants, lAlignments, lEquations, ...}",
        "asdiv": "ASDiv XML: <Problem> with Body, Question, Solution-Type, Answer, Formula; any other .xml",
    }
)


def formats_epilog(*, exits: bool = True) -> str:
    """The corpus formats and the file forms every reader takes, as ``--help`` lists them (``exits``: and the
    report's exit codes)."""
    from ssbg.reading.readers import READERS

    rows = "\n".join(f"  {name:<9}{FORMAT_DESCRIPTIONS.get(name, '(registered reader)')}" for name in READERS)
    text = ("corpus formats (FORMAT=PATH; a bare path's format is guessed from its file name):\n" + rows
            + "\nfiles: " + FILE_FORMS)
    if exits:
        text += ("\n\nexit codes: 0 written; 1 refusals found with --fail-on-refusal; 2 bad input: a spec naming "
                 "nothing, a bad pack, or a file none of whose records reads in its format")
    return text


FILE_FORMS = ("a JSONL (.jsonl, .ndjson), JSON-array (.json), CSV (.csv, a row per record), Parquet (.parquet, .pq) "
              "or XML (.xml, ASDiv) file, or any of them gzip-compressed (.gz: read by its first bytes, whatever "
              "the name); an extension none of these is bad input")


def format_refusal_table(summary: CorpusSummary) -> str:
    """The overview and the refusal reasons as aligned plain text (for the terminal).

    Examples
    --------
    >>> from ssbg.stats.tables import equations_frame, problems_frame, summarize
    >>> print(format_refusal_table(summarize(problems_frame([]), equations_frame([]))))
    No records.
    """
    if summary.overview.empty:
        return "No records."
    columns = ["corpus", "records", "bad_lines", "import_refused", "equations", "admitted_equations", "root_cause",
               "propagated", "admission_pct"]
    overview = summary.overview[[*columns, *(c for c in ("kind_mismatches",) if c in summary.overview.columns)]]
    reasons = summary.refusal_reasons[["corpus", "family", "reason", "root_cause", "propagated",
                                       "share_of_equations_pct"]]
    parts = ["Corpora", overview.to_string(index=False, na_rep="-"), "", "Refused equations by reason"]
    parts.append(reasons.to_string(index=False, na_rep="-") if len(reasons) else "(none)")
    return "\n".join(parts)


def _cmd_report(args: argparse.Namespace) -> int:
    from ssbg.stats.report import write_report

    result = write_report(
        args.specs,
        args.output,
        csv_dir=args.csv_dir,
        jobs=args.jobs,
        engine=args.engine,
        pack=args.pack,
        limit=args.limit,
        progress=not args.no_progress,
        diagrams=not args.no_diagrams,
        min_evidence=args.min_evidence,
    )
    print(format_refusal_table(result.summary))
    print()
    print(f"pack: {result.batch.pack_provenance}")
    print(f"min_evidence (ε): {result.batch.min_evidence:g} (a dimension error found only when every plausible "
          "reading refuses it, as check-solutions counts it)")
    if result.batch.in_sample is not None:
        print(f"reading: {result.batch.in_sample.sentence}")
    if result.recovered is not None:
        print(result.recovered, file=sys.stderr)
    print(f"report: {result.html_path} (open it in a web browser)")
    print(f"tables: {result.csv_paths[0].parent if result.csv_paths else '-'}")
    if args.fail_on_refusal:
        overview = result.summary.overview
        refused = int(overview[["import_refused", "bind_failed", "equation_refused", "target_refused"]]
                      .to_numpy().sum()) if len(overview) else 0
        if refused:
            return EXIT_REFUSED
    return EXIT_OK


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``ssbg report`` to the ``ssbg`` command line."""
    report = subparsers.add_parser(
        "report",
        help="bind corpora and write a refusal-statistics report (HTML) and its tables (CSV/Parquet)",
        description="Stream corpora through import -> bind -> admissibility -> question target and write a "
        "self-contained HTML report plus the tables as CSV (and Parquet when pyarrow is installed).",
        epilog=formats_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    report.add_argument("specs", nargs="+", metavar="CORPUS_SPEC",
                        help="FORMAT=PATH or a path (a folder reads every corpus file below it)")
    report.add_argument("-o", "--output", required=True, metavar="REPORT_HTML", help="where to write the report")
    report.add_argument("--csv-dir", metavar="DIR", help="where to write the tables (default: beside the report)")
    report.add_argument("--jobs", type=positive_int, default=1, metavar="N", help="worker processes (default 1)")
    report.add_argument("--engine", choices=ENGINES, default="local", help="local processes or dask.bag")
    report.add_argument("--pack", metavar="PACK",
                        help="a shipped pack's name or a folder by path (./mine), or packs joined by '+' "
                        "(default en_units_v1+en_counts_v2+en_measures_v1: the units, the count nouns and the "
                        "measures)")
    report.add_argument("--limit", type=positive_int, metavar="N", help="read at most N records per corpus spec")
    report.add_argument("--no-progress", action="store_true", help="no progress bar")
    report.add_argument("--no-diagrams", action="store_true", help="no equation diagrams in the drill-downs")
    report.add_argument("--min-evidence", type=probability, default=DEFAULT_MIN_EVIDENCE, metavar="EPS",
                        help="ε in (0, 1]: a problem counts as a dimension error found only when the readings that "
                        "would admit its refused equation (or give its answer the unit asked) hold less than ε of the "
                        f"reader's probability, as check-solutions weighs them (default {DEFAULT_MIN_EVIDENCE})")
    report.add_argument("--fail-on-refusal", action="store_true",
                        help="exit 1 when any record, equation or question target was refused")
    report.set_defaults(func=_cmd_report)
