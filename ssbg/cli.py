"""The ``ssbg`` command line (an edge module).

Subcommands: ``check`` (one operation's admissibility), ``bind`` (a problem
file to its canonical string), ``lane`` (check expected-shape lanes),
``render`` (a graph to SVG/PNG/DOT), ``report`` (a corpus refusal report) and
``check-solutions`` (verdicts on a file of solutions).
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
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ssbg import jsontext
from ssbg.errors import SsbgError
from ssbg.files import read_regular

if TYPE_CHECKING:
    from ssbg.units import UnitPack

__all__ = ["EXIT_BAD_INPUT", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_REFUSED", "main"]

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it

MAX_PROBLEM_BYTES = 16 * 1024 * 1024
"""The largest problem file ``bind`` and ``render`` read (a 64k-step trace is about 4 MB)."""

# Edge modules that contribute subcommands through register(subparsers).
_EDGE_COMMANDS: tuple[str, ...] = ("ssbg.lanes", "ssbg.views.cli", "ssbg.stats.cli", "ssbg.checking.cli")


def _error(exc: SsbgError) -> int:
    where = f" at {exc.path}" if exc.path else ""
    print(f"ssbg: {type(exc).__name__} [{exc.reason}]{where}: {exc.message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _cmd_check(args: argparse.Namespace) -> int:
    from ssbg.admissibility import check_operation
    from ssbg.errors import AdmissibilityError
    from ssbg.units import load_pack

    pack = load_pack(args.pack) if args.pack else None
    units = [None if u in ("-", "none") else u for u in args.units]
    try:
        proof = check_operation(args.kind, units, lhs_unit=args.lhs, pack=pack)
    except AdmissibilityError as exc:
        payload = {
            "status": "refused",
            "reason": exc.reason,
            "detail": exc.detail,
            "offending_unit": exc.offending_unit,
            "message": exc.message,
        }
        print(json.dumps(payload, sort_keys=True) if args.json else f"refused [{exc.reason}] {exc.message}")
        return EXIT_REFUSED
    if args.json:
        print(json.dumps({"status": "admitted", "proof": proof.to_canonical_string()}, sort_keys=True))
    else:
        print(f"admitted {proof.to_canonical_string()}")
    return EXIT_OK


def load_problem_file(path: str | Path) -> object:
    """Read a problem file: a ``MathProblemGraph`` JSON (or a trace JSON when it has ``steps``)."""
    from ssbg.errors import ProblemGraphError
    from ssbg.problem import MathProblemGraph

    p = Path(path)
    try:
        raw = read_regular(p, MAX_PROBLEM_BYTES)  # a FIFO or a device is refused, never read
    except OSError as exc:
        raise ProblemGraphError(f"cannot read {p}: {exc.strerror}", reason="malformed_json", path=str(p)) from None
    try:
        data = jsontext.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ProblemGraphError(f"{p} is not valid JSON: {exc}", reason="malformed_json", path=f"{p}:1") from None
    if isinstance(data, dict) and "steps" in data:
        trace_mod = importlib.import_module("ssbg.trace")
        return trace_mod.Trace.from_dict(data, path=f"{p}:$")
    return MathProblemGraph.from_dict(data, path=f"{p}:$")


def bind_problem(problem: object, pack: UnitPack | None = None) -> object:
    """Bind a ``MathProblemGraph`` or a trace into a binding graph (over ``pack``, default en_units_v1)."""
    from ssbg.adapter import bind_math_problem_graph
    from ssbg.problem import MathProblemGraph

    if isinstance(problem, MathProblemGraph):
        return bind_math_problem_graph(problem, pack=pack)
    trace_mod = importlib.import_module("ssbg.trace")
    return trace_mod.bind_trace(problem, pack=pack)


def _cmd_bind(args: argparse.Namespace) -> int:
    from ssbg.units import load_pack

    pack = load_pack(args.pack) if args.pack else None
    graph = bind_problem(load_problem_file(args.problem), pack)
    sys.stdout.write(graph.to_canonical_string())  # type: ignore[attr-defined]
    if args.hash:
        print(f"sha256 {graph.content_hash}")  # type: ignore[attr-defined]
    refused = any(e.admissibility_status == "refused" for e in graph.equations)  # type: ignore[attr-defined]
    return EXIT_REFUSED if args.fail_on_refusal and refused else EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ssbg", description="Semantic-symbolic binding graphs of math word problems.")
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser("check", help="check one operation's admissibility on unit texts")
    check.add_argument("kind", help="operation kind, e.g. apply_rate")
    check.add_argument("units", nargs="+", help="operand units in the kind's order ('-' for a pure number)")
    check.add_argument("--lhs", help="declared lhs unit")
    check.add_argument("--pack", help="unit pack name or folder, or packs joined by '+' (default en_units_v1)")
    check.add_argument("--json", action="store_true", help="print JSON")
    check.set_defaults(func=_cmd_check)

    bind = sub.add_parser("bind", help="bind a problem file and print its canonical string")
    bind.add_argument("problem", help="MathProblemGraph (or trace) JSON file")
    bind.add_argument("--hash", action="store_true", help="also print the sha256 content hash")
    bind.add_argument("--fail-on-refusal", action="store_true", help="exit 1 when an equation is refused")
    bind.add_argument("--pack", help="unit pack name or folder, or packs joined by '+' (default en_units_v1)")
    bind.set_defaults(func=_cmd_bind)

    for name in _EDGE_COMMANDS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except SsbgError as exc:
        return _error(exc)
    except BrokenPipeError:  # pragma: no cover - e.g. piped into head
        return EXIT_OK
    except KeyboardInterrupt:  # outputs are staged: what was written before the run is intact
        print("ssbg: interrupted; no output was replaced", file=sys.stderr)
        return EXIT_INTERRUPTED
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
