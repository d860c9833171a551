"""One call from a binding graph to a diagram a notebook shows inline.

:func:`render` (displaCy's ``render`` is the model) returns a :class:`Diagram`:
an immutable value holding the DOT source, which Jupyter displays through
``_repr_svg_`` / ``_repr_html_`` and which saves itself as SVG, PNG or DOT.
Nothing here calls ``display()`` or looks for a notebook: the same value comes
back in a script, a test or a kernel.

Examples
--------
>>> from ssbg.views.nx import _example
>>> d = render(_example(), view="equations", proofs=True)
>>> d
Diagram(view='equations', nodes=6, edges=4)
>>> d.source.startswith('digraph "binding_graph" {')
True
>>> d.svg.lstrip().startswith("<?xml")  # needs Graphviz's dot  # doctest: +SKIP
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ssbg.errors import OutputError
from ssbg.files import atomic_write
from ssbg.model import SemanticSymbolicBindingGraph
from ssbg.views.dot import run_dot, scene_to_dot
from ssbg.views.errors import RenderError
from ssbg.views.scene import build_scene

__all__ = ["SAVE_SUFFIXES", "Diagram", "render"]

# File suffix -> what Diagram.save writes.
SAVE_SUFFIXES: tuple[str, ...] = (".svg", ".png", ".dot", ".gv")


@dataclass(frozen=True, slots=True)
class Diagram:
    """A rendered view of a binding graph.

    Attributes
    ----------
    source
        The DOT source (always available, no Graphviz needed).
    view
        ``"equations"`` or ``"symbols"``.
    nodes, edges
        How many nodes and edges the diagram draws.
    """

    source: str
    view: str
    nodes: int
    edges: int
    _cache: dict[str, bytes] = field(default_factory=dict, compare=False, repr=False)

    def _bytes(self, fmt: str) -> bytes:
        data = self._cache.get(fmt)
        if data is None:
            data = run_dot(self.source, fmt)
            self._cache[fmt] = data
        return data

    @property
    def svg(self) -> str:
        """The SVG text (runs ``dot`` once; :class:`RenderError` when it is missing)."""
        return self._bytes("svg").decode("utf-8")

    @property
    def png(self) -> bytes:
        """The PNG bytes (runs ``dot`` once)."""
        return self._bytes("png")

    def _repr_svg_(self) -> str:
        return self.svg

    def _repr_html_(self) -> str:
        svg = self.svg
        start = svg.find("<svg")
        body = svg[start:] if start >= 0 else svg  # drop the XML prolog and doctype inside HTML
        return f'<div class="ssbg-diagram ssbg-{self.view}">{body}</div>'

    def __repr__(self) -> str:
        return f"Diagram(view={self.view!r}, nodes={self.nodes}, edges={self.edges})"

    def save(self, path: str | Path) -> Path:
        """Write the diagram; the suffix picks the format (``.svg``, ``.png``, ``.dot``/``.gv``).

        Returns
        -------
        Path
            The path written.

        Raises
        ------
        RenderError
            ``unknown_format`` for another suffix, ``write_failed`` when the file
            cannot be written, ``dot_missing`` for SVG/PNG without Graphviz.
        """
        target = Path(path)
        suffix = target.suffix.lower()
        if suffix not in SAVE_SUFFIXES:
            raise RenderError(f"cannot write {target.name!r}: the suffix must be one of {list(SAVE_SUFFIXES)}",
                              reason="unknown_format", path=str(target), detail=suffix or "(none)")
        data = self.source.encode("utf-8") if suffix in (".dot", ".gv") else self._bytes(suffix[1:])
        try:
            atomic_write(target, data)  # beside the target, then renamed: never a partial file
        except OutputError as exc:
            raise RenderError(f"cannot write {target}: {exc.detail}", reason="write_failed", path=str(target),
                              detail=exc.detail) from None
        return target


def render(
    bg: SemanticSymbolicBindingGraph,
    view: str = "equations",
    *,
    proofs: bool = False,
    legend: bool = True,
    rankdir: str = "TB",
    wrap: int = 44,
) -> Diagram:
    """Draw one view of a binding graph; in Jupyter the result shows as an inline SVG.

    Parameters
    ----------
    bg
        The binding graph.
    view
        ``"equations"`` (symbols and equations) or ``"symbols"`` (symbols only,
        edges labelled with the operation kind).
    proofs
        Show the unit proof of every admitted equation.
    legend
        Draw the colour legend under the title.
    rankdir
        Graphviz layout direction (``"TB"``, ``"LR"``, ``"BT"``, ``"RL"``).
    wrap
        Wrap label lines longer than this many characters.

    Raises
    ------
    BindingGraphError
        ``invalid_field`` when ``bg`` is not a binding graph.
    RenderError
        ``unknown_view`` for a view outside :data:`~ssbg.views.scene.VIEWS`.

    Examples
    --------
    >>> from ssbg.views.nx import _example
    >>> render(_example(), "symbols").view
    'symbols'
    """
    scene = build_scene(bg, view=view, proofs=proofs)
    source = scene_to_dot(scene, legend=legend, rankdir=rankdir, wrap=wrap)
    return Diagram(source=source, view=scene["view"], nodes=len(scene["nodes"]), edges=len(scene["edges"]))
