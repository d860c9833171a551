"""Scenes to DOT source, and DOT to SVG/PNG through Graphviz's ``dot``.

:func:`scene_to_dot` writes DOT from the plain dicts of :mod:`ssbg.views.scene`
with the constants of :mod:`ssbg.views.templates`; every piece of problem text
goes through :func:`escape_html` into an HTML-like label, so quotes, ``<``,
``>``, ``&``, braces, backslashes and newlines render as themselves and nothing
in a name can open a tag, close the label or end the graph.  :func:`run_dot`
pipes the source through ``dot`` (via the ``graphviz`` package) and raises a
:class:`~ssbg.views.errors.RenderError` that says how to install Graphviz when
``dot`` is missing; the DOT source itself never needs it.

Examples
--------
>>> escape_html('a "b" <script> & {c} \\\\N')
'a &quot;b&quot; &lt;script&gt; &amp; {c} \\\\\\\\N'
>>> from ssbg.views.nx import _example
>>> source = to_dot(_example(), view="symbols")
>>> source.splitlines()[0]
'digraph "binding_graph" {'
"""

from __future__ import annotations

import textwrap
import unicodedata
from typing import Any

from ssbg.model import SemanticSymbolicBindingGraph
from ssbg.outputs import BIDI_CONTROLS
from ssbg.views.errors import INSTALL_DOT_HINT, RenderError
from ssbg.views.scene import (
    ROW_STYLE_NAMES,
    SCENE_SHAPES,
    TONE_NAMES,
    Row,
    Scene,
    SceneEdge,
    SceneNode,
    build_scene,
)
from ssbg.views.templates import LEGEND, ROW_STYLES, SHAPES, TONES

__all__ = [
    "BINARY_FORMATS",
    "LINE_BREAK",
    "RANKDIRS",
    "escape_html",
    "quote_id",
    "run_dot",
    "scene_to_dot",
    "to_dot",
]

RANKDIRS: tuple[str, ...] = ("TB", "LR", "BT", "RL")
BINARY_FORMATS: tuple[str, ...] = ("svg", "png")  # what run_dot asks dot for
LINE_BREAK = '<BR ALIGN="LEFT"/>'
_LINE_SEPARATORS = ("\r\n", "\r", "\u2028", "\u2029")
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}


def _visible(ch: str) -> str:
    """A character that cannot appear in SVG/XML text, spelled as a Python escape."""
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _is_unprintable(ch: str) -> bool:
    category = unicodedata.category(ch)
    return category in ("Cc", "Cs") or ord(ch) in (0xFFFE, 0xFFFF) or ch in BIDI_CONTROLS  # shown, not obeyed


def escape_html(text: str) -> str:
    r"""Escape raw text for a Graphviz HTML-like label so that it renders as itself.

    ``& < > " '`` become entities; a backslash is doubled (``dot`` applies its
    ``\N``/``\G``/``\\`` substitutions inside HTML labels too, so a lone
    backslash could turn into the node's name); a newline becomes a line break;
    control characters and lone surrogates, which XML cannot carry, are spelled
    as visible Python escapes (``\x07``).  Braces, ``|`` and non-ASCII text
    need nothing.

    >>> escape_html("x\ny\tz")
    'x<BR ALIGN="LEFT"/>y\\\\x09z'
    """
    if not isinstance(text, str):
        raise RenderError(f"label text must be a str (got {type(text).__name__})", reason="invalid_scene",
                          path="text", detail=repr(text))
    for separator in _LINE_SEPARATORS:
        text = text.replace(separator, "\n")
    out: list[str] = []
    for ch in text:
        if ch == "\n":
            out.append(LINE_BREAK)
        elif ch in _ENTITIES:
            out.append(_ENTITIES[ch])
        elif ch == "\\":
            out.append("\\\\")
        elif _is_unprintable(ch):
            out.append(_visible(ch).replace("\\", "\\\\"))
        else:
            out.append(ch)
    return "".join(out)


def quote_id(node_id: str) -> str:
    """A DOT node id in double quotes (``"`` escaped; ids are symbol ids or ``eq:NNN``).

    >>> quote_id('eq:000'), quote_id('a"b')
    ('"eq:000"', '"a\\\\"b"')
    """
    safe = node_id.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{safe}"'


def _wrapped(text: str, width: int) -> list[str]:
    """Split on newlines, then wrap long lines at spaces (long words are kept whole)."""
    for separator in _LINE_SEPARATORS:
        text = text.replace(separator, "\n")
    lines: list[str] = []
    for line in text.split("\n"):
        lines.extend(textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False, expand_tabs=False,
                                   replace_whitespace=False, drop_whitespace=False) or [line])
    return lines


def _invalid(message: str, path: str, value: object) -> RenderError:
    return RenderError(message, reason="invalid_scene", path=path, detail=repr(value))


def _check(value: object, allowed: frozenset[str], path: str) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise _invalid(f"'{path}' must be one of {sorted(allowed)} (got {value!r})", path, value)
    return value


def _cell(row: Row, tone: str, width: int, path: str) -> str:
    style = ROW_STYLES[_check(row.get("style"), ROW_STYLE_NAMES, f"{path}.style")]
    text = row.get("text")
    if not isinstance(text, str):
        raise _invalid(f"'{path}.text' must be a str (got {text!r})", f"{path}.text", text)
    body = LINE_BREAK.join(escape_html(line) for line in _wrapped(text, width))
    if style.bold:
        body = f"<B>{body}</B>"
    row_tone = _check(row.get("tone", tone), TONE_NAMES, f"{path}.tone")
    color = style.color or TONES[row_tone].fontcolor
    font = f'<FONT FACE="{style.face}" POINT-SIZE="{style.size}" COLOR="{color}">{body}</FONT>'
    return f'<TR><TD ALIGN="LEFT" BALIGN="LEFT">{font}</TD></TR>'


def _table(rows: list[Row], tone: str, width: int, path: str) -> str:
    if not isinstance(rows, list):
        raise _invalid(f"'{path}' must be a list of rows", path, rows)
    cells = "".join(_cell(row, tone, width, f"{path}[{i}]") for i, row in enumerate(rows))
    return f'<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">{cells}</TABLE>>'


def _node_line(node: SceneNode, width: int, path: str) -> str:
    tone = _check(node.get("tone"), TONE_NAMES, f"{path}.tone")
    shape, shape_style = SHAPES[_check(node.get("shape"), SCENE_SHAPES, f"{path}.shape")]
    node_id = node.get("id")
    if not isinstance(node_id, str) or not node_id:
        raise _invalid(f"'{path}.id' must be a non-empty str (got {node_id!r})", f"{path}.id", node_id)
    look = TONES[tone]
    styles = ["filled", *([shape_style] if shape_style else []), *(["dashed"] if look.dashed else [])]
    label = _table(node.get("rows", []), tone, width, f"{path}.rows")
    return (
        f'  {quote_id(node_id)} [shape={shape}, style="{",".join(styles)}", color="{look.color}", '
        f'fillcolor="{look.fillcolor}", penwidth={look.penwidth}, label={label}];'
    )


def _edge_line(edge: SceneEdge, width: int, path: str) -> str:
    tone = _check(edge.get("tone"), TONE_NAMES, f"{path}.tone")
    look = TONES[tone]
    ends = []
    for end in ("tail", "head"):
        value = edge.get(end)
        if not isinstance(value, str) or not value:
            raise _invalid(f"'{path}.{end}' must be a non-empty str (got {value!r})", f"{path}.{end}", value)
        ends.append(quote_id(value))
    color = "#9e9e9e" if tone == "neutral" else look.color
    attrs = [f'color="{color}"', f"penwidth={look.penwidth}"]
    if look.dashed:
        attrs.append('style="dashed"')
    rows = edge.get("rows", [])
    if rows:
        attrs.append(f"label={_table(rows, tone, width, f'{path}.rows')}")
    return f"  {ends[0]} -> {ends[1]} [{', '.join(attrs)}];"


def _title_label(title: str, view: str, legend: bool, width: int) -> str:
    lines = LINE_BREAK.join(escape_html(line) for line in _wrapped(title, width * 2))
    cells = [f'<TR><TD COLSPAN="{len(LEGEND)}" ALIGN="LEFT" BALIGN="LEFT"><FONT POINT-SIZE="10" COLOR="#555555">'
             f"{escape_html(view)} view · {lines}</FONT></TD></TR>"]
    if legend:
        swatches = []
        for tone, text in LEGEND:
            look = TONES[tone]
            dashed = ' STYLE="dashed"' if look.dashed else ""
            swatches.append(f'<TD BORDER="1" COLOR="{look.color}" BGCOLOR="{look.fillcolor}"{dashed}>'
                            f'<FONT POINT-SIZE="10">{escape_html(text)}</FONT></TD>')
        cells.append(f"<TR>{''.join(swatches)}</TR>")
    return f'<<TABLE BORDER="0" CELLSPACING="4" CELLPADDING="3">{"".join(cells)}</TABLE>>'


def scene_to_dot(scene: Scene, *, legend: bool = True, rankdir: str = "TB", wrap: int = 44) -> str:
    """DOT source for a scene.

    Parameters
    ----------
    scene
        A plain dict from :func:`~ssbg.views.scene.build_scene`.
    legend
        Draw the colour legend under the title.
    rankdir
        Graphviz layout direction, one of :data:`RANKDIRS`.
    wrap
        Wrap label lines longer than this many characters (at spaces).

    Raises
    ------
    RenderError
        ``invalid_scene`` when a tone, shape, row style or id is outside the
        scene vocabulary (a scene is plain data and may come from elsewhere).
    """
    if not isinstance(scene, dict):
        raise _invalid("a scene must be a dict", "scene", type(scene).__name__)
    if rankdir not in RANKDIRS:
        raise _invalid(f"'rankdir' must be one of {list(RANKDIRS)} (got {rankdir!r})", "rankdir", rankdir)
    if isinstance(wrap, bool) or not isinstance(wrap, int) or wrap < 8:
        raise _invalid(f"'wrap' must be an int >= 8 (got {wrap!r})", "wrap", wrap)
    title = scene.get("title", "")
    view = scene.get("view", "")
    if not isinstance(title, str) or not isinstance(view, str):
        raise _invalid("a scene's 'title' and 'view' must be str", "scene.title", title)
    lines = [
        'digraph "binding_graph" {',
        f'  graph [rankdir={rankdir}, labelloc=t, labeljust=l, nodesep=0.35, ranksep=0.45, '
        f'fontname="Helvetica", label={_title_label(title, view, legend, wrap)}];',
        '  node [fontname="Helvetica", margin="0.12,0.06"];',
        '  edge [fontname="Helvetica", arrowsize=0.7];',
    ]
    nodes = scene.get("nodes", [])
    edges = scene.get("edges", [])
    if not isinstance(nodes, list) or not isinstance(edges, list):
        raise _invalid("a scene's 'nodes' and 'edges' must be lists", "scene", type(nodes).__name__)
    lines.extend(_node_line(node, wrap, f"scene.nodes[{i}]") for i, node in enumerate(nodes))
    lines.extend(_edge_line(edge, wrap, f"scene.edges[{i}]") for i, edge in enumerate(edges))
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_dot(
    bg: SemanticSymbolicBindingGraph,
    *,
    view: str = "equations",
    proofs: bool = False,
    legend: bool = True,
    rankdir: str = "TB",
    wrap: int = 44,
) -> str:
    """DOT source of one view of a binding graph (no Graphviz needed).

    >>> from ssbg.views.nx import _example
    >>> "REFUSED" in to_dot(_example())
    False
    """
    return scene_to_dot(build_scene(bg, view=view, proofs=proofs), legend=legend, rankdir=rankdir, wrap=wrap)


def _graphviz() -> Any:
    try:
        import graphviz
    except ImportError:  # pragma: no cover - graphviz is a declared extra
        raise RenderError("rendering needs the graphviz package: pip install 'ssbg[views]'",
                          reason="package_missing", detail="graphviz") from None
    return graphviz


def run_dot(source: str, fmt: str = "svg") -> bytes:
    """Lay out DOT ``source`` with Graphviz's ``dot`` and return the ``fmt`` bytes.

    Raises
    ------
    RenderError
        ``dot_missing`` (the message says how to install Graphviz),
        ``dot_failed`` (``detail`` is dot's stderr) or ``unknown_format``.
    """
    if fmt not in BINARY_FORMATS:
        raise RenderError(f"'fmt' must be one of {list(BINARY_FORMATS)} (got {fmt!r})", reason="unknown_format",
                          path="fmt", detail=repr(fmt))
    graphviz = _graphviz()
    try:
        data: bytes = graphviz.pipe("dot", fmt, source.encode("utf-8"), quiet=True)
    except graphviz.ExecutableNotFound:
        raise RenderError(INSTALL_DOT_HINT, reason="dot_missing", detail="dot") from None
    except graphviz.CalledProcessError as exc:
        stderr = exc.stderr.decode("utf-8", "replace") if isinstance(exc.stderr, bytes) else str(exc.stderr)
        raise RenderError(f"dot refused the source: {stderr.strip()}", reason="dot_failed",
                          detail=stderr.strip()) from None
    return data
