"""``ssbg render``: draw a problem file's binding graph as SVG, PNG or DOT.

``ssbg render PROBLEM.json --view equations|symbols [--proofs] -o out.svg``
binds the problem (a ``MathProblemGraph`` JSON, or a trace JSON, or one problem
of a corpus file picked with ``--id`` or ``--line``: :func:`ssbg.cli.load_problem`) and writes the
diagram; the output suffix picks the format (``.svg``, ``.png``, ``.dot``/``.gv``).
Without ``-o`` (or with ``-o -``) the DOT source goes to stdout, so the command
works without Graphviz installed.  Exit codes follow :mod:`ssbg.cli`: 0 written,
2 bad input or a render error (printed with its reason).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ssbg.views.dot import RANKDIRS
from ssbg.views.scene import VIEWS

__all__ = ["register", "run_render"]


def run_render(args: argparse.Namespace) -> int:
    """The ``render`` subcommand (typed errors propagate to :func:`ssbg.cli.main`)."""
    from ssbg.cli import EXIT_OK, bind_problem, load_problem
    from ssbg.units import default_pack, load_pack
    from ssbg.views.display import render

    problem, pack = load_problem(args.problem, args.id, args.line, load_pack(args.pack) if args.pack else None)
    graph: Any = bind_problem(problem, pack)
    diagram = render(graph, args.view, proofs=args.proofs, legend=not args.no_legend, rankdir=args.rankdir)
    if args.output in (None, "-"):
        sys.stdout.write(diagram.source)
    else:
        diagram.save(args.output)
    print(f"ssbg: pack {(pack or default_pack()).provenance}", file=sys.stderr)
    return EXIT_OK


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``render`` subcommand to the ``ssbg`` parser's subparsers."""
    from ssbg.cli import add_problem_arguments

    parser: argparse.ArgumentParser = subparsers.add_parser(
        "render",
        help="draw a problem's binding graph as SVG, PNG or DOT",
        description="Bind one problem (a hand-written problem file, or one problem of a corpus file picked with "
        "--id or --line) and draw one view of its binding graph; the pack is named in the drawing's title and on "
        "stderr.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_problem_arguments(parser, "draw")
    parser.add_argument("--view", choices=VIEWS, default="equations",
                        help="equations: symbols and equations; symbols: symbols only (default: equations)")
    parser.add_argument("--proofs", action="store_true", help="show the unit proof of admitted equations")
    parser.add_argument("--no-legend", action="store_true", help="leave out the colour legend")
    parser.add_argument("--rankdir", choices=RANKDIRS, default="TB", help="layout direction (default: TB)")
    parser.add_argument("-o", "--output", help="out.svg, out.png or out.dot (default: DOT to stdout)")
    parser.set_defaults(func=run_render)
    return parser
