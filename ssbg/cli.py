"""The ``ssbg`` command line (an edge module).

Subcommands: ``check`` (one operation's admissibility), ``bind`` (a problem
file, or one problem of a corpus file picked with ``--id`` or ``--line``, to its
canonical string), ``lane`` (check expected-shape lanes), ``render`` (a graph to
SVG/PNG/DOT), ``report`` (a corpus refusal report), ``check-solutions``
(verdicts on a file of solutions) and ``pack`` (write and check a unit pack).
``ssbg --version`` prints the version; ``ssbg --help`` every refusal reason in a sentence.
Each edge module registers its own subcommand through a ``register(subparsers)``
function, so this file only wires them.

Exit codes: 0 success; 1 refusals or divergences found (where the command is
asked to report them); 2 bad input (a typed error, printed with its reason and
path: also an output that cannot be written) or bad usage; 130 interrupted
(SIGINT), with every output file as it was before the run.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from ssbg import jsontext
from ssbg.admissibility import OPERATION_KINDS
from ssbg.errors import SsbgError
from ssbg.files import Terminated, commits, read_regular

if TYPE_CHECKING:  # pragma: no cover
    from ssbg.model import SemanticSymbolicBindingGraph
    from ssbg.units import UnitPack

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_REFUSED",
    "KIND_OPERANDS",
    "load_problem_file",
    "main",
]

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it
EXIT_TERMINATED = 143  # 128 + SIGTERM

MAX_PROBLEM_BYTES = 16 * 1024 * 1024
"""The largest problem file ``bind`` and ``render`` read (a 64k-step trace is about 4 MB)."""

# Edge modules that contribute subcommands through register(subparsers).
_EDGE_COMMANDS: tuple[str, ...] = (
    "ssbg.lanes", "ssbg.views.cli", "ssbg.stats.cli", "ssbg.checking.cli", "ssbg.packtool"
)


def _error(exc: SsbgError) -> int:
    where = f" at {exc.path}" if exc.path else ""
    print(f"ssbg: {type(exc).__name__} [{exc.reason}]{where}: {exc.message}", file=sys.stderr)
    return EXIT_BAD_INPUT


# How the shell reads each kind's operands (the order check_operation reads them); every kind of
# OPERATION_KINDS has an entry (tested).
KIND_OPERANDS: Mapping[str, str] = MappingProxyType(
    {
        "add": "QUANTITY QUANTITY...    a sum of quantities of one dimension",
        "subtract": "QUANTITY QUANTITY...    a difference of quantities of one dimension",
        "transfer": "QUANTITY QUANTITY...    an amount moved from one holder to another (one dimension)",
        "multiply": "FACTOR FACTOR...        a product ('-' for a pure number)",
        "divide": "DIVIDEND DIVISOR        a quotient ('-' for a pure number)",
        "apply_rate": "RATE BASE               a rate X_per_Y times a base in Y",
        "compare_additive": "HOLDING DELTA...        a holding more or fewer by a delta (one dimension)",
        "compare_multiplicative": "HOLDING FACTOR          a holding times a factor ('-' or a ratio such as half)",
        "unit_partition": "QUANTITY CHUNK_RATE     a quantity in X split into chunks of X_per_Y: a count of Y",
        "fraction_portion": "HOLDING FACTOR          a fraction of a holding ('-' or a ratio such as half)",
    }
)


def _kinds_epilog() -> str:
    rows = "\n".join(f"  {kind:<24}{KIND_OPERANDS[kind]}" for kind in OPERATION_KINDS)
    return ("operation kinds and their operands, in order ('-' is an operand without a unit):\n" + rows
            + "\n\nexit codes: 0 admitted, 1 refused, 2 bad input (an unknown kind, a pack that does not load)")


def _unknown_unit_hints(units: Iterable[str | None], pack: UnitPack | None) -> list[str]:
    """The playground's hint (the unknown word and the pack's close entries) for each distinct unit the pack lacks,
    and where the corpus pack (the default of ``report`` and ``check-solutions``) reads it, the ``--pack`` to try."""
    from ssbg.playground import unknown_unit_hint
    from ssbg.units import CORPUS_PACK_NAME, corpus_pack

    hints: list[str] = []
    for unit in dict.fromkeys(u for u in units if u):
        hint = unknown_unit_hint(unit, pack)
        if hint is not None:
            if (pack is None or pack.name != CORPUS_PACK_NAME) and unknown_unit_hint(unit, corpus_pack()) is None:
                hint += f" (--pack {CORPUS_PACK_NAME} reads it: the count nouns)"
            hints.append(hint)
    return hints


def _arity(kind: str) -> tuple[int, bool]:
    """How many operands a kind takes in the shell (:data:`KIND_OPERANDS`): the least, and whether more may follow."""
    names = KIND_OPERANDS[kind].split("  ")[0].split()
    return len(names), names[-1].endswith("...")


def _usage(kind: str, units: Sequence[str]) -> str | None:
    """Why the operands given to ``ssbg check KIND`` are bad usage (too few, too many), or None."""
    if kind not in KIND_OPERANDS:
        return None
    least, more = _arity(kind)
    if least <= len(units) and (more or len(units) == least):
        return None
    wanted = f"{'at least ' if more else ''}{least} operand{'s' if least != 1 else ''}"
    shown = " ".join(units) or "none"
    return f"{kind} takes {wanted} ({KIND_OPERANDS[kind].split('  ')[0]}), got {len(units)}: {shown}"


def _cmd_check(args: argparse.Namespace) -> int:
    from ssbg.admissibility import check_operation
    from ssbg.errors import AdmissibilityError
    from ssbg.playground import suggest_units
    from ssbg.units import default_pack, load_pack

    usage = _usage(args.kind, args.units)
    if usage is not None:  # a missing operand is bad usage, not a refusal of the operation
        print(f"ssbg check: error: {usage}", file=sys.stderr)
        return EXIT_BAD_INPUT
    pack = load_pack(args.pack) if args.pack else None
    named = (pack or default_pack()).provenance  # the pack every result names
    units = [None if u in ("-", "none") else u for u in args.units]
    try:
        proof = check_operation(args.kind, units, lhs_unit=args.lhs, pack=pack)
    except AdmissibilityError as exc:
        if exc.reason == "unknown_operation":  # bad usage, not a refusal of the operation
            print(f"ssbg: unknown operation kind {args.kind!r}; the kinds are: {', '.join(OPERATION_KINDS)}",
                  file=sys.stderr)
            return EXIT_BAD_INPUT
        offending = exc.offending_unit if exc.reason == "unknown_unit" else None
        payload = {
            "status": "refused",
            "reason": exc.reason,
            "detail": exc.detail,
            "offending_unit": exc.offending_unit,
            "message": exc.message,
            "close_entries": list(suggest_units(offending, pack)) if offending else [],
            "pack": named,
        }
        if args.json:
            print(json.dumps(payload, sort_keys=True))
        else:
            print(f"refused [{exc.reason}] {exc.message}")
            for hint in _unknown_unit_hints([offending], pack):
                print(f"  {hint}")
            print(f"pack: {named}")
        return EXIT_REFUSED
    if args.json:
        print(json.dumps({"status": "admitted", "proof": proof.to_canonical_string(), "pack": named}, sort_keys=True))
    else:
        print(f"admitted {proof.to_canonical_string()}")
        print(f"pack: {named}")
    return EXIT_OK


def _problem_from(data: object, where: str) -> object:
    """A ``MathProblemGraph`` (or a trace, when the object has ``steps``) from decoded JSON; a lane line's
    ``expected`` key is not part of the problem and is dropped."""
    from ssbg.problem import LANE_EXPECTED_KEY, MathProblemGraph

    if isinstance(data, dict) and LANE_EXPECTED_KEY in data:
        data = {k: v for k, v in data.items() if k != LANE_EXPECTED_KEY}
    if isinstance(data, dict) and "steps" in data:
        trace_mod = importlib.import_module("ssbg.trace")
        return trace_mod.Trace.from_dict(data, path=f"{where}:$")
    return MathProblemGraph.from_dict(data, path=f"{where}:$")


def _decode(raw: bytes | str, where: str) -> object:
    from ssbg.errors import ProblemGraphError

    try:
        return jsontext.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise ProblemGraphError(f"{where} is not valid JSON: {exc}", reason="malformed_json", path=where) from None


def _jsonl_problem(p: Path, raw: bytes, problem_id: str | None) -> object:
    """The line of a JSONL file whose ``problem_id`` is ``problem_id`` (the only line when it is None)."""
    from ssbg.errors import ProblemGraphError

    lines = [(n, line) for n, line in enumerate(raw.splitlines(), start=1) if line.strip()]
    ids: list[str] = []
    for number, line in lines:
        data = _decode(line, f"{p}:{number}")
        found = data.get("problem_id") if isinstance(data, dict) else None
        if (problem_id is None and len(lines) == 1) or (problem_id is not None and found == problem_id):
            return _problem_from(data, f"{p}:{number}")
        ids.append(str(found))
    wanted = "no problem" if problem_id is None else f"no problem {problem_id!r}"
    shown = ", ".join(ids[:10]) + (", ..." if len(ids) > 10 else "")
    raise ProblemGraphError(
        f"{wanted} picked in {p}: it holds {len(lines)}; name one with --id ({shown})",
        reason="invalid_value",
        path=str(p),
        detail=problem_id,
    )


def load_problem_file(path: str | Path, problem_id: str | None = None) -> object:
    """Read a problem: a ``MathProblemGraph`` JSON file (a trace JSON when it has ``steps``), or the line of a
    JSONL file (``.jsonl``: a corpus or a lane file) whose ``problem_id`` is ``problem_id``.

    A lane line's ``expected`` key is ignored (:data:`ssbg.problem.LANE_EXPECTED_KEY`).

    Raises
    ------
    ImportRefusal
        ``unreadable_file`` (``no such file``) for a path that names nothing.
    ProblemGraphError
        ``malformed_json`` for a file that cannot be read or decoded; ``invalid_value`` when
        ``problem_id`` names no problem of the file, or a JSONL file of several lines is given without it;
        the problem's own validation errors otherwise.
    """
    from ssbg.errors import ProblemGraphError

    p = Path(path)
    if not p.exists():  # said plainly, not as JSON that does not decode
        from ssbg.errors import ImportRefusal

        raise ImportRefusal("no such file", reason="unreadable_file", path=str(p), detail="no such file")
    try:
        raw = read_regular(p, MAX_PROBLEM_BYTES)  # a FIFO or a device is refused, never read
    except OSError as exc:
        raise ProblemGraphError(f"cannot read {p}: {exc.strerror}", reason="malformed_json", path=str(p)) from None
    if p.suffix == ".jsonl":
        return _jsonl_problem(p, raw, problem_id)
    data = _decode(raw, f"{p}:1")
    if problem_id is not None and (not isinstance(data, dict) or data.get("problem_id") != problem_id):
        raise ProblemGraphError(f"{p} holds no problem {problem_id!r}", reason="invalid_value", path=str(p),
                                detail=problem_id)
    return _problem_from(data, str(p))


def _sniffed_format(path: Path) -> str | None:
    """``gsm8k`` for a JSONL file whose first record has ``question`` and ``answer`` and no graph keys (a GSM8K
    file under another name, ``train.jsonl``); None otherwise."""
    from ssbg.reading.readers.common import decode_jsonl_line, scan_jsonl

    for raw in scan_jsonl(path):
        data = decode_jsonl_line(raw).data
        graph_keys = ("entities", "steps", "operations")
        if isinstance(data, dict) and {"question", "answer"} <= data.keys() and not any(k in data for k in graph_keys):
            return "gsm8k"
        return None
    return None


def corpus_spec(text: str) -> str | None:
    """The corpus spec (``FORMAT=PATH``) a ``bind``/``render`` argument names, or None for a hand-written problem:
    a ``.json`` file of one ``MathProblemGraph`` or trace.  ``FORMAT=PATH`` is a corpus spec as it is; a bare
    path is one when its name says a corpus format, or it is not ``.json`` (a JSONL, CSV, Parquet or compressed
    file: read in the format its name, else its first record, says: GSM8K's ``question`` and ``answer``)."""
    from ssbg.reading.readers import READERS, guess_format

    fmt, sep, _rest = text.partition("=")
    if sep and fmt in READERS:
        return text
    path = Path(text)
    guessed = guess_format(path)
    if guessed != "ssbg":
        return f"{guessed}={text}"
    if path.suffix.lower() == ".json" or not path.is_file():
        return None
    sniffed = _sniffed_format(path) if path.suffix.lower() in (".jsonl", ".ndjson", ".gz") else None
    return f"{sniffed or guessed}={text}"


def load_problem(
    text: str, problem_id: str | None = None, line: int | None = None, pack: UnitPack | None = None
) -> tuple[object, UnitPack | None]:
    """The problem ``bind`` and ``render`` draw, and the pack to bind it with (None: en_units_v1).

    A hand-written problem (a ``MathProblemGraph`` or trace JSON file, or a line of a JSONL file of them) is bound
    with ``pack`` or ``en_units_v1``; a problem read from a corpus's text (any reader's format, ``FORMAT=PATH``
    too, picked with ``problem_id`` or ``line``: :func:`ssbg.reading.readers.pick.pick_record`) is read and bound
    with ``pack`` or the corpus pack, as ``report`` and ``check-solutions`` read it.

    Raises
    ------
    ImportRefusal
        The record's own import refusal (a problem ssbg could not read), or ``invalid_value`` when the id or line
        picks no record or several.
    """
    spec = corpus_spec(text)
    if spec is None:
        if line is not None:
            from ssbg.errors import ProblemGraphError

            raise ProblemGraphError(f"--line picks a record of a corpus file, and {text} is one problem",
                                    reason="invalid_value", path=text, detail=str(line))
        return load_problem_file(text, problem_id), pack
    from ssbg.reading.readers.pick import pick_record, text_corpus
    from ssbg.units import corpus_pack, default_pack

    used = pack if pack is not None else (corpus_pack() if text_corpus(spec.partition("=")[0]) else None)
    record = pick_record(spec, problem_id=problem_id, line=line, pack=used or default_pack())
    if record.refusal is not None:
        raise record.refusal
    print(f"ssbg: {record.corpus} problem {record.problem_id} ({record.source})", file=sys.stderr)
    return record.payload, used


def bind_problem(problem: object, pack: UnitPack | None = None) -> SemanticSymbolicBindingGraph:
    """Bind a ``MathProblemGraph`` or a trace into a binding graph (over ``pack``, default en_units_v1)."""
    from ssbg.adapter import bind_math_problem_graph
    from ssbg.problem import MathProblemGraph

    if isinstance(problem, MathProblemGraph):
        return bind_math_problem_graph(problem, pack=pack)
    choosing = importlib.import_module("ssbg.reading.choosing")  # a trace as the reading side binds it (ADR 0035)
    graph: SemanticSymbolicBindingGraph = choosing.bind_choosing(problem, pack=pack)
    return graph


def print_unknown_unit_hints(graph: SemanticSymbolicBindingGraph, pack: UnitPack | None = None) -> None:
    """On stderr, a hint for every unit of the graph's root-cause ``unknown_unit`` refusals and of its question
    targets that the pack does not know: the word and the pack's close entries (the playground's hint)."""
    units = [e.offending_unit for e in graph.equations if e.refusal_reason == "unknown_unit" and e.is_root_cause]
    units += [u.expected_unit for u in graph.unknowns]
    for hint in _unknown_unit_hints(units, pack):
        print(f"ssbg: {hint}", file=sys.stderr)


def _cmd_bind(args: argparse.Namespace) -> int:
    from ssbg.units import default_pack, load_pack

    problem, pack = load_problem(args.problem, args.id, args.line, load_pack(args.pack) if args.pack else None)
    graph = bind_problem(problem, pack)
    sys.stdout.write(graph.to_canonical_string())
    if args.hash:
        print(f"sha256 {graph.content_hash}")
    print_unknown_unit_hints(graph, pack)
    print(f"ssbg: pack {(pack or default_pack()).provenance}", file=sys.stderr)
    refused = any(e.admissibility_status == "refused" for e in graph.equations)
    return EXIT_REFUSED if args.fail_on_refusal and refused else EXIT_OK


def _problem_epilog() -> str:
    from ssbg.stats.cli import formats_epilog

    return formats_epilog(exits=False) + """

a problem read from a corpus's text is read and bound with the corpus pack en_units_v1+en_counts_v2+en_measures_v1
(as report and check-solutions read it); a hand-written problem (a JSON file, a line of data/lanes) with en_units_v1.
Examples:
  ssbg bind data/problem.json
  ssbg bind data/lanes/kinds.jsonl --id kind-divide-admitted
  ssbg render gsm8k=data/samples/gsm8k_sample.jsonl --id gsm8k_sample-2 -o p.svg   (the id the report prints)
  ssbg render ../shared/corpora/gsm8k/train.jsonl --id 2 -o p.svg                   (train-2; or --line 2)"""


def add_problem_arguments(parser: argparse.ArgumentParser, verb: str) -> None:
    """The arguments ``bind`` and ``render`` share: the problem, ``--id``, ``--line``, ``--pack``."""
    parser.epilog = _problem_epilog()
    parser.add_argument("problem", metavar="PROBLEM",
                        help="a problem JSON file (data/problem.json), or a corpus file (FORMAT=PATH or a path, any "
                        "format below) with --id or --line")
    parser.add_argument("--id", help=f"the id of the problem to {verb}, as the report and its tables print it "
                        "(gsm8k_sample-2; a bare number N where one id ends in -N: 2 for train-2)")
    parser.add_argument("--line", type=_line_number, metavar="N",
                        help=f"the problem to {verb} at line N of a corpus file (the N of the tables' source path:N)")
    parser.add_argument("--pack", help="a shipped pack's name or a folder by path (./mine), or packs joined by '+' "
                        "(default: en_units_v1 for a hand-written problem, en_units_v1+en_counts_v2+en_measures_v1 "
                        "for one read from a corpus's text)")


def _line_number(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a line number from 1 (got {text!r})")
    return int(text)


def _version() -> str:
    from ssbg import __version__

    return __version__


def build_parser() -> argparse.ArgumentParser:
    from ssbg.errors import glossary_text

    parser = argparse.ArgumentParser(
        prog="ssbg", description="Semantic-symbolic binding graphs of math word problems.",
        epilog="refusal reasons, each in one sentence (the report's glossary says the same):\n" + glossary_text()
        + "\n\nexit codes: 0 ok, 1 refusals found where asked, 2 bad input, 130 interrupted",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"ssbg {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser(
        "check",
        help="check one operation's admissibility on unit texts",
        description="Check whether one operation is dimensionally admissible on the given operand units and print "
        "its unit proof or the typed refusal (with the pack's close entries for a unit it does not know).",
        epilog=_kinds_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.add_argument("kind", help="operation kind (listed below)")
    check.add_argument("units", nargs="+", help="operand units in the kind's order ('-' for a pure number)")
    check.add_argument("--lhs", help="declared lhs unit")
    check.add_argument("--pack", help="a shipped pack's name or a folder by path (./mine), or packs joined by '+' "
                       "(default en_units_v1)")
    check.add_argument("--json", action="store_true", help="print JSON")
    check.set_defaults(func=_cmd_check)

    bind = sub.add_parser(
        "bind",
        help="bind a problem (a problem file, or one problem of a corpus file) and print its canonical string",
        description="Bind one problem and print its binding graph's canonical string: a hand-written "
        "MathProblemGraph or trace JSON file, or one problem of a corpus file picked with --id or --line (any "
        "corpus format, listed below). Units the pack does not know are named on stderr with the pack's close "
        "entries, and so is the pack. Exit codes: 0 bound, 1 refused equations with --fail-on-refusal, 2 bad "
        "input.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_problem_arguments(bind, "bind")
    bind.add_argument("--hash", action="store_true", help="also print the sha256 content hash")
    bind.add_argument("--fail-on-refusal", action="store_true", help="exit 1 when an equation is refused")
    bind.set_defaults(func=_cmd_bind)

    for name in _EDGE_COMMANDS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    committed = commits()
    try:
        code: int = args.func(args)
    except SsbgError as exc:
        return _error(exc)
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return EXIT_OK
    except KeyboardInterrupt:  # outputs are staged: what was written before the run is intact, unless committed
        print(f"ssbg: interrupted; {_replaced(commits() > committed)}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Terminated:  # SIGTERM while outputs were staged: the staged files are gone, the old ones intact
        print(f"ssbg: terminated; {_replaced(commits() > committed)}", file=sys.stderr)
        return EXIT_TERMINATED
    return code


def _replaced(committed: bool) -> str:
    """What an interruption left: the new outputs (the signal came during or after their commit) or the old."""
    if committed:
        return "the new outputs are in place (they were committed before the signal was handled)"
    return "no output was replaced"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
