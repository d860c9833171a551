"""The typed error of the views: :class:`RenderError` and its closed reasons.

A view fails for reasons of its own (Graphviz's ``dot`` is not installed, an
optional package is missing, an output suffix the renderer cannot write), so it
gets its own class in the one ssbg hierarchy: an :class:`~ssbg.errors.SsbgError`
that is also a ``RuntimeError``.  Input that is not a binding graph is refused
with the model's :class:`~ssbg.errors.BindingGraphError` instead.

Examples
--------
>>> err = RenderError("dot missing", reason="dot_missing", detail="dot")
>>> (err.reason, isinstance(err, RuntimeError))
('dot_missing', True)
"""

from __future__ import annotations

from ssbg.errors import SsbgError

__all__ = ["INSTALL_DOT_HINT", "RENDER_REASONS", "RenderError"]

RENDER_REASONS: frozenset[str] = frozenset(
    {
        "dot_missing",  # Graphviz's ``dot`` executable is not on PATH
        "dot_failed",  # ``dot`` ran and refused the source (its stderr is the detail)
        "package_missing",  # an optional Python package (networkx, graphviz) is not installed
        "unknown_view",  # a view name outside VIEWS
        "invalid_scene",  # a scene dict outside the scene vocabulary (tones, shapes, row styles)
        "unknown_format",  # an output format or file suffix the renderer cannot write
        "write_failed",  # the output file could not be written
    }
)

INSTALL_DOT_HINT = (
    "Graphviz's `dot` executable was not found on PATH. Install it with "
    "`apt-get install graphviz` (Debian/Ubuntu), `brew install graphviz` (macOS) or "
    "`conda install -c conda-forge graphviz`. The DOT source is still available "
    "without it (`.source`, or save to a .dot file)."
)


class RenderError(SsbgError, RuntimeError):
    """A diagram that cannot be drawn or written; ``reason`` is one of :data:`RENDER_REASONS`."""

    REASONS = RENDER_REASONS
