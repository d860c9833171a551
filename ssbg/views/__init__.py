"""Views of a binding graph: networkx graphs and Graphviz diagrams (an edge package).

- :mod:`ssbg.views.nx`: :func:`to_networkx` / :func:`from_networkx` (a lossless
  ``DiGraph`` round trip) and :func:`symbol_graph` (the symbol-only projection).
- :mod:`ssbg.views.scene`: a binding graph as plain dicts (the only thing the
  renderer sees); :mod:`ssbg.views.templates`: the colours and shapes.
- :mod:`ssbg.views.dot`: DOT source with every problem text escaped, and
  ``dot`` itself; :mod:`ssbg.views.display`: :func:`render`, one call to a
  :class:`Diagram` that Jupyter shows inline and that saves as SVG/PNG/DOT.
- :mod:`ssbg.views.cli`: the ``ssbg render`` subcommand.

The core never imports this package, and this package imports networkx and
graphviz only inside the functions that need them.

Examples
--------
>>> from ssbg.views import render, to_networkx
>>> from ssbg.views.nx import _example
>>> render(_example(), "symbols", proofs=True).view
'symbols'
>>> to_networkx(_example()).number_of_nodes()
6
"""

from ssbg.views.display import SAVE_SUFFIXES, Diagram, render
from ssbg.views.dot import escape_html, run_dot, scene_to_dot, to_dot
from ssbg.views.errors import RENDER_REASONS, RenderError
from ssbg.views.nx import NODE_KINDS, equation_node_id, from_networkx, symbol_graph, to_networkx
from ssbg.views.scene import VIEWS, build_scene

__all__ = [
    "NODE_KINDS",
    "RENDER_REASONS",
    "SAVE_SUFFIXES",
    "VIEWS",
    "Diagram",
    "RenderError",
    "build_scene",
    "equation_node_id",
    "escape_html",
    "from_networkx",
    "render",
    "run_dot",
    "scene_to_dot",
    "symbol_graph",
    "to_dot",
    "to_networkx",
]
