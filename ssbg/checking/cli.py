"""The ``ssbg check-solutions`` subcommand: a file of solutions in, verdicts (and scores) out.

``FILE`` is JSONL, a JSON array, CSV or Parquet, by its extension or ``FORMAT=PATH``.

``ssbg check-solutions FILE --question-field Q --solution-field S [--id-field ID]
[--label-field L] [--reference-field R] [--solver-field M | --solver-key K ...] -o verdicts.csv
[--html report.html] [--error-steps FILE] [--jobs N] [--engine local|dask] [--pack P]
[--limit N] [--no-progress] [--fail-on-error] [--min-evidence EPS] [--sweep]``

It writes one row per solution to the CSV (:data:`~ssbg.checking.batch.VERDICT_COLUMNS`; and to
Parquet beside it when pyarrow is installed), the pack it checked with beside it
(``<name>.pack.csv``: name, version and sha256 of the pack and of each part,
:func:`ssbg.stats.tables.pack_table`) and prints the verdicts per solver; with labels it prints
and writes beside the CSV (``<name>.scores.csv``) per solver: precision, recall, false-alarm rate
on correct solutions, lift over the base rate, the verdict shares, and with ``--error-steps``
(errors located by hand) the share of flagged wrong solutions whose first
flagged step is where the error is.  ``--min-evidence`` is ε (ADR 0027: a reading-dependent finding is error
evidence only when the plausible readings that undo it hold less than ε of the reader's probability), printed
first and kept in every row and in the Parquet metadata; with labels, ``--sweep`` prints and writes
(``<name>.sweep.csv``) precision, recall, false alarms and MCC at each ε of
:data:`~ssbg.checking.batch.SWEEP`, scored from the same rows.  The dev file
of model solutions (``../shared/corpora/gsm8k_model_solutions/dev.jsonl``)::

    ssbg check-solutions ../shared/corpora/gsm8k_model_solutions/dev.jsonl \\
      --question-field question --solution-field solution --label-field is_correct --id-field test_index \\
      --solver-key 6b_finetuning --solver-key 6b_verification --solver-key 175b_finetuning \\
      --solver-key 175b_verification --reference-field ground_truth \\
      --error-steps data/checking/first_error_steps_dev.csv -o out/verdicts.csv --html out/verdicts.html --jobs 2

The outputs (verdicts, pack, scores, page) are one :class:`~ssbg.files.OutputSet`: their folders
are proved writable before a record is read, and they are renamed into place together.  Records
beyond the caps of :mod:`ssbg.limits` are refused unread (``record_too_large``).

Exit codes: 0 when written; 1 with ``--fail-on-error`` when any verdict is ``error``; 2 for bad
input (no such file, a field or solver key no record has, a bad pack or error-steps file) or an output
that cannot be written or is no file ssbg may replace (a folder, a FIFO, a device, a file the run reads, another
output, a name not ending in ``.csv`` or ``.html``: ADR 0033) or outputs another run is writing (``output_locked``),
printed by :func:`ssbg.cli.main`; 130 interrupted, 143 terminated (the previous outputs intact, or the new ones
when the signal came during their commit, as the message says).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from ssbg.files import OutputLock

__all__ = ["register"]

EXIT_OK = 0
EXIT_ERRORS = 1


def _keys(values: list[str] | None) -> tuple[str, ...]:
    """``--solver-key a --solver-key b`` or ``--solver-key a,b``: the keys, in order, once each."""
    return tuple(dict.fromkeys(k.strip() for v in values or () for k in v.split(",") if k.strip()))


def _targets(args: argparse.Namespace) -> tuple[Path, Path, Path, Path | None, Path]:
    """The files the run writes (verdicts, pack, scores, page, sweep), judged before a record is read (exit 2):
    a folder on the way missing or read-only, a target that is a folder, a FIFO or a device, a target that is a
    file the run reads or another target, a suffix that is not its format's (the verdicts ``.csv``, or ``.jsonl``
    with ``--format jsonl``; the page ``.html``: the path written is the path said, ADR 0033).  With ``-o -`` the
    verdicts go to stdout and only the page, if asked, is a file."""
    from ssbg.errors import OutputError
    from ssbg.files import check_outputs, check_writable
    from ssbg.reading.readers.tabular import split_format

    output = Path(args.output)
    html_path = Path(args.html) if args.html else None
    targets = (output, output.with_suffix(".pack.csv"), output.with_suffix(".scores.csv"), html_path,
               output.with_suffix(".sweep.csv"))
    written = _written(args, targets)
    for target in written:
        check_writable(target.parent)
    check_outputs(written, [split_format(args.file)[1], args.error_steps])
    verdicts = (".jsonl",) if args.format == "jsonl" else (".csv",)
    for named, suffixes in ((None if args.output == "-" else output, verdicts), (html_path, (".html", ".htm"))):
        if named is not None and named.suffix not in suffixes:
            raise OutputError(f"cannot write {named}: its name must end in {' or '.join(suffixes)}, the format "
                              "written there", reason="wrong_suffix", path=str(named), detail=named.suffix or "none")
    return targets


def _written(args: argparse.Namespace, targets: tuple[Path, Path, Path, Path | None, Path]) -> list[Path]:
    """The files a run writes: with ``-o -`` the page alone (if asked); else every target and the Parquet files."""
    output, html_path = targets[0], targets[3]
    if args.output == "-":
        return [] if html_path is None else [html_path]
    written = [t for t in targets if t is not None]
    return [*written, output.with_suffix(".parquet"), output.with_suffix(".scores.parquet")]


def _field_path(text: str) -> str:
    """A field path (``--question-field`` and the like): any text but a blank one."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"must name a field (got {text!r})")
    return text


def _path(text: str) -> str:
    """A file's path (``-o``, ``--html``, ``--error-steps``): any text but a blank one (``--html ''`` wrote no page)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"must name a file (got {text!r})")
    return text


def _cmd_check_solutions(args: argparse.Namespace) -> int:
    from ssbg.files import OutputLock

    keys = _keys(args.solver_key)
    if keys and args.solver_field:
        raise SystemExit("ssbg check-solutions: name the solver by --solver-field or by --solver-key, not both")
    targets = _targets(args)
    files = _written(args, targets)
    if not files:  # -o - and no page: nothing is written but stdout, nothing to lock
        return _check_and_write(args, keys, targets, None)
    # the set's lock, held from before the first record is read to after the commit: a second run on the same
    # outputs stops (exit 2); what a killed run left is finished or undone first (ADR 0033)
    with OutputLock(files[0], files) as lock:
        if lock.note is not None:
            print(lock.note, file=sys.stderr)
        return _check_and_write(args, keys, targets, lock)


def _check_and_write(
    args: argparse.Namespace, keys: tuple[str, ...], targets: tuple[Path, Path, Path, Path | None, Path],
    lock: OutputLock | None,
) -> int:
    from ssbg.checking.batch import (
        SWEEP,
        Fields,
        _pack_for,
        check_solutions,
        read_error_steps,
        score_verdicts,
        sweep_verdicts,
    )
    from ssbg.checking.report import csv_text, example_rows, questions_of, recheck, report_html
    from ssbg.files import OutputSet
    from ssbg.stats.insample import count_in_sample
    from ssbg.stats.report import IN_SAMPLE_KEY, write_tables

    output, pack_path, scores_path, html_path, sweep_path = targets
    to_stdout = args.output == "-"  # the verdicts on stdout, everything said on stderr, no file beside them
    say = functools.partial(print, file=sys.stderr) if to_stdout else print
    say(f"min_evidence (ε): {args.min_evidence} — a unit mismatch, an ungrounded number or an answer-unit mismatch "
          "is error evidence only when the readings that undo it hold less than ε of the reader's probability")
    pack = _pack_for(args.pack)
    error_steps = read_error_steps(args.error_steps) if args.error_steps else None
    frame = check_solutions(
        args.file, question_field=args.question_field, solution_field=args.solution_field, id_field=args.id_field,
        label_field=args.label_field, reference_field=args.reference_field, solver_field=args.solver_field,
        solver_keys=keys, pack=args.pack, jobs=args.jobs, engine=args.engine, progress=not args.no_progress,
        limit=args.limit, min_evidence=args.min_evidence,
    )
    scores = None
    if args.label_field is not None or args.reference_field is not None:
        scores = score_verdicts(frame, error_steps=error_steps)
    in_sample = count_in_sample(questions_of(args.file, args.question_field, limit=args.limit)).sentence
    sweep = sweep_verdicts(frame, SWEEP) if args.sweep and scores is not None else None
    page = None
    if html_path is not None:
        fields = Fields(args.question_field, args.solution_field, args.id_field, args.label_field,
                        args.reference_field, args.solver_field, keys)
        drawn = recheck(args.file, fields, example_rows(frame), pack)
        page = report_html(frame, scores, drawn, title=f"{args.file} ({len(frame)} solutions)", pack=pack.provenance,
                           in_sample=in_sample, min_evidence=args.min_evidence)
    meta = {"ssbg.pack": pack.provenance, IN_SAMPLE_KEY: in_sample, "ssbg.min_evidence": repr(args.min_evidence)}
    # One set, renamed into place together (SIGINT and SIGTERM held off meanwhile): a run that fails or is
    # stopped leaves the previous set whole, never a new verdicts.csv beside an old page.  Verdicts and
    # scores as CSV and, with pyarrow, as Parquet beside them (the pack's provenance in its schema).
    if to_stdout:
        sys.stdout.write(jsonl_text(frame) if args.format == "jsonl" else csv_text(frame))
        sys.stdout.flush()
    with OutputSet(lock) as out:
        if to_stdout:
            pass  # no file beside stdout: the pack, the scores and the sweep are said on stderr
        elif args.format == "jsonl":
            out.temp(output).write_text(jsonl_text(frame), encoding="utf-8")
        else:
            write_tables([(output.stem, frame)], output.parent, metadata=meta, out=out)
        if not to_stdout:
            _write_beside(out, pack_path, scores_path, sweep_path, pack, scores, sweep, meta)
        if page is not None and html_path is not None:
            out.temp(html_path).write_text(page, encoding="utf-8")
        out.commit()
    _say_results(say, frame, scores, sweep, args, paths=(output, pack_path, scores_path, sweep_path, html_path),
                 pack=pack, in_sample=in_sample)
    refused = int((frame["status"].astype(str) == "refused").sum())
    return _exit(frame, refused, args, say)


def _write_beside(out: Any, pack_path: Path, scores_path: Path, sweep_path: Path, pack: Any, scores: Any, sweep: Any,
                  meta: dict[str, str]) -> None:
    """The pack, the scores and the sweep beside the verdicts (an earlier run's removed where this one has none)."""
    from ssbg.checking.report import csv_text
    from ssbg.stats.report import write_tables
    from ssbg.stats.tables import pack_table

    out.temp(pack_path).write_text(csv_text(pack_table(pack.components)), encoding="utf-8")
    if scores is not None:
        write_tables([(scores_path.stem, scores)], scores_path.parent, metadata=meta, out=out)
    else:
        out.remove(scores_path)  # an earlier run's scores do not belong to these verdicts
        out.remove(scores_path.with_suffix(".parquet"))
    if sweep is not None:
        out.temp(sweep_path).write_text(csv_text(sweep), encoding="utf-8")
    else:
        out.remove(sweep_path)


def jsonl_text(frame: Any) -> str:
    """The verdicts as JSON lines, a row an object with the CSV's columns (a missing value ``null``)."""
    rows = frame.astype(object).where(frame.notna(), None).to_dict(orient="records")
    return "".join(json.dumps(row, ensure_ascii=False, default=str) + "\n" for row in rows)


def _say_results(say: Callable[..., None], frame: Any, scores: Any, sweep: Any, args: argparse.Namespace, *,
                 paths: tuple[Path, Path, Path, Path, Path | None], pack: Any, in_sample: str) -> None:
    import pandas as pd

    output, pack_path, scores_path, sweep_path, html_path = paths
    to_stdout = args.output == "-"
    counts = pd.crosstab(frame["solver"].astype(str), frame["status"].astype(str))
    say("Verdicts per solver")
    say(counts.to_string())
    if scores is not None:
        shown = scores[["solver", "labelled", "base_rate_pct", "flagged", "precision_pct", "recall_pct",
                        "false_alarm_pct", "lift", "unverifiable_pct", "hand_read", "first_step_right"]]
        say()
        say("Scores of verdict 'error' (labelled solutions; the reference is taken as correct)")
        say(shown.to_string(index=False))
        say("" if to_stdout else f"\nscores: {scores_path}")
    if sweep is not None:
        say()
        say("Verdict 'error' at each ε (min_evidence), from the same rows")
        say(sweep.to_string(index=False))
        say("" if to_stdout else f"\nsweep: {sweep_path}")
    if html_path is not None:
        say(f"report: {html_path}")
    say(f"verdicts: {'stdout' if to_stdout else output} ({args.format})")
    say(f"pack: {pack.provenance}" + ("" if to_stdout else f" ({pack_path})"))
    say(f"reading: {in_sample}")


def _exit(frame: Any, refused: int, args: argparse.Namespace, say: Callable[..., None]) -> int:
    if refused:
        say(f"refused records: {refused} (status 'refused', reason in refusal_reason)")
    if args.fail_on_error and bool((frame["status"].astype(str) == "error").any()):
        return EXIT_ERRORS
    return EXIT_OK


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``ssbg check-solutions`` to the ``ssbg`` command line."""
    from ssbg.checking.verdict import DEFAULT_MIN_EVIDENCE
    from ssbg.limits import caps_help
    from ssbg.outputs import MAX_CELL_CHARS
    from ssbg.stats.batch import ENGINES
    from ssbg.stats.cli import positive_int, probability

    cmd = subparsers.add_parser(
        "check-solutions",
        help="check a file of (model-written) solutions (JSONL, JSON, CSV, Parquet): a verdict per solution, scores "
        "per solver",
        description="Check every solution of a file of records (JSONL, a JSON array, CSV or Parquet; gzip-compressed "
        "too): sound, error (each finding at its step) or unverifiable. "
        "Field paths may be dotted (175b_verification.solution). With --solver-key, each key holds one solver's "
        "object and the solution and label fields are read inside it; with --solver-field, a field names the solver. "
        "A record that cannot be read is a counted row of status refused (its reason in refusal_reason); one bad "
        "record never stops the run. " + caps_help() + " The outputs are written as one set, renamed into place "
        "together; CSV cells are capped at " + f"{MAX_CELL_CHARS:,}" + " characters (a longer one ends by stating "
        "its length) and a cell starting with = + - @ is prefixed with ' (spreadsheet-safe).",
    )
    cmd.add_argument("file", metavar="FILE",
                     help="JSONL (.jsonl, .ndjson: one JSON object per line), a JSON array (.json), CSV (.csv) or "
                     "Parquet (.parquet, .pq), each also gzip-compressed (read by its first bytes), by its extension "
                     "or FORMAT=PATH (jsonl, json, csv, parquet)")
    cmd.add_argument("--question-field", type=_field_path, required=True, metavar="Q", help="the question text")
    cmd.add_argument("--solution-field", type=_field_path, required=True, metavar="S",
                     help="the solution (text, or a list of step strings); inside each solver key's object")
    cmd.add_argument("--id-field", type=_field_path, metavar="ID", help="the record's own id (default: file:line)")
    cmd.add_argument("--label-field", type=_field_path, metavar="L",
                     help="true for a correct solution (inside each solver key's object)")
    cmd.add_argument("--reference-field", type=_field_path, metavar="R",
                     help="a reference (gold) solution: findings it shares are reading limits; it is checked too")
    cmd.add_argument("--solver-field", type=_field_path, metavar="M",
                     help="a field naming the solver (one solution per record)")
    cmd.add_argument("--solver-key", action="append", type=_field_path, metavar="K",
                     help="a key holding one solver's object (repeat, or comma-separate)")
    cmd.add_argument("-o", "--output", default="-", type=_path, metavar="VERDICTS",
                     help="where to write the verdicts: a CSV file (Parquet beside it when pyarrow is installed, the "
                     "pack, scores and sweep beside it too), or - for stdout (the default; all else said on stderr)")
    cmd.add_argument("--format", choices=("csv", "jsonl"), default="csv",
                     help="the verdicts as CSV (default) or as JSON lines, a row an object")
    cmd.add_argument("--html", type=_path, metavar="REPORT_HTML",
                     help="also write a page with the scores and drawn verdicts")
    cmd.add_argument("--error-steps", type=_path, metavar="FILE",
                     help="CSV of id, solver, line: where each solution's first error is, read by hand")
    cmd.add_argument("--jobs", type=positive_int, default=1, metavar="N", help="worker processes (default 1)")
    cmd.add_argument("--engine", choices=ENGINES, default="local", help="local processes or dask.bag")
    cmd.add_argument("--pack", metavar="PACK",
                     help="a shipped pack's name, or a folder by path (./mine), or packs joined by '+' "
                     "(default en_units_v1+en_counts_v2+en_measures_v1); never a folder of the working directory by "
                     "name")
    cmd.add_argument("--limit", type=positive_int, metavar="N", help="check at most N records")
    cmd.add_argument("--no-progress", action="store_true", help="no progress bar")
    cmd.add_argument("--fail-on-error", action="store_true", help="exit 1 when any verdict is 'error'")
    cmd.add_argument("--min-evidence", type=probability, default=DEFAULT_MIN_EVIDENCE, metavar="EPS",
                     help="ε in (0, 1]: a unit mismatch, an ungrounded number or an answer-unit mismatch is error "
                     "evidence only when the readings that undo it hold less than ε of the reader's probability, "
                     f"else 'could not tell' (default {DEFAULT_MIN_EVIDENCE}, chosen on half A of the dev file)")
    cmd.add_argument("--sweep", action="store_true",
                     help="with labels, also score verdict 'error' at each ε of a sweep (<name>.sweep.csv)")
    cmd.set_defaults(func=_cmd_check_solutions)
