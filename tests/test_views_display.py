"""render() and Diagram: inline display, saving, and a typed error when dot is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from ssbg.adapter import bind_math_problem_graph
from ssbg.errors import BindingGraphError
from ssbg.model import SemanticSymbolicBindingGraph
from ssbg.problem import MathProblemGraph
from ssbg.views import Diagram, render, run_dot, to_dot
from ssbg.views.errors import INSTALL_DOT_HINT, RENDER_REASONS, RenderError


def _graph() -> SemanticSymbolicBindingGraph:
    return bind_math_problem_graph(MathProblemGraph.from_dict({
        "problem_id": "views-display",
        "entities": ["Ann"],
        "initial_state": [{"entity": "Ann", "quantity": {"value": 3, "unit": "hours"}},
                          {"entity": "Ann", "quantity": {"value": 4, "unit": "apples"}}],
        "operations": [
            {"actor": "Ann", "kind": "apply_rate",
             "operand": {"value": 12, "numerator_unit": "dollars", "denominator_unit": "hours"}},
            {"actor": "Ann", "kind": "add", "operand": {"value": 1, "unit": "apples"}},
        ],
        "unknown": {"entity": "Ann", "unit": "dollars"},
    }))


@pytest.fixture
def no_dot(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A PATH on which no ``dot`` can be found."""
    monkeypatch.setenv("PATH", str(tmp_path))


def test_render_returns_a_diagram_with_the_dot_source() -> None:
    diagram = render(_graph(), "symbols", proofs=True)
    assert diagram.source == to_dot(_graph(), view="symbols", proofs=True)


def test_repr_names_view_and_counts_without_an_address() -> None:
    bg = _graph()
    nodes = len(bg.symbols) + len(bg.equations)
    edges = sum(len(eq.dependencies) + 1 for eq in bg.equations) + 1  # + the question's "answers" edge
    assert repr(render(bg)) == f"Diagram(view='equations', nodes={nodes}, edges={edges})"


def test_diagrams_compare_by_value() -> None:
    first = render(_graph())
    _ = first.svg  # fills the private cache
    assert first == render(_graph())


def test_repr_svg_is_the_svg() -> None:
    diagram = render(_graph())
    assert diagram._repr_svg_() == diagram.svg


def test_svg_is_svg() -> None:
    assert "<svg" in render(_graph()).svg


def test_repr_html_embeds_the_svg_without_prolog() -> None:
    page = render(_graph())._repr_html_()
    assert (page.startswith('<div class="ssbg-diagram ssbg-equations"><svg'), "<?xml" in page) == (True, False)


def test_svg_is_stable_across_renders() -> None:
    assert render(_graph()).svg == render(_graph()).svg


@pytest.mark.parametrize(("suffix", "magic"), [(".svg", b"<?xml"), (".png", b"\x89PNG"), (".dot", b"digraph"),
                                               (".gv", b"digraph"), (".SVG", b"<?xml")])
def test_save_picks_the_format_from_the_suffix(tmp_path: Path, suffix: str, magic: bytes) -> None:
    written = render(_graph()).save(tmp_path / f"graph{suffix}")
    assert written.read_bytes().startswith(magic)


def test_save_refuses_an_unknown_suffix(tmp_path: Path) -> None:
    with pytest.raises(RenderError) as info:
        render(_graph()).save(tmp_path / "graph.pdf")
    assert (info.value.reason, info.value.detail) == ("unknown_format", ".pdf")


def test_save_into_a_missing_folder_is_a_typed_error(tmp_path: Path) -> None:
    with pytest.raises(RenderError) as info:
        render(_graph()).save(tmp_path / "missing" / "graph.dot")
    assert info.value.reason == "write_failed"


def test_missing_dot_is_a_typed_error(no_dot: None) -> None:
    with pytest.raises(RenderError) as info:
        _ = render(_graph()).svg
    assert (info.value.reason, info.value.message) == ("dot_missing", INSTALL_DOT_HINT)


def test_missing_dot_in_notebook_display_is_the_same_error(no_dot: None) -> None:
    with pytest.raises(RenderError) as info:
        render(_graph())._repr_svg_()
    assert info.value.reason == "dot_missing"


def test_missing_dot_error_is_a_runtime_error(no_dot: None) -> None:
    with pytest.raises(RuntimeError):
        run_dot(render(_graph()).source)


def test_install_hint_says_how_to_install() -> None:
    assert "apt-get install graphviz" in INSTALL_DOT_HINT


def test_source_and_dot_file_need_no_dot(no_dot: None, tmp_path: Path) -> None:
    diagram = render(_graph())
    assert diagram.save(tmp_path / "g.dot").read_text(encoding="utf-8") == diagram.source


def test_dot_failure_carries_dot_stderr() -> None:
    with pytest.raises(RenderError) as info:
        run_dot("digraph {", "svg")
    assert info.value.reason == "dot_failed"
    assert info.value.detail


def test_run_dot_refuses_an_unknown_format() -> None:
    with pytest.raises(RenderError) as info:
        run_dot("digraph {}", "pdf")
    assert info.value.reason == "unknown_format"


def test_render_refuses_a_non_graph() -> None:
    with pytest.raises(BindingGraphError) as info:
        render("graph")  # type: ignore[arg-type]
    assert info.value.reason == "invalid_field"


def test_render_refuses_an_unknown_view() -> None:
    with pytest.raises(RenderError) as info:
        render(_graph(), "timeline")
    assert info.value.reason == "unknown_view"


@pytest.mark.parametrize("reason", sorted(RENDER_REASONS))
def test_render_errors_pickle(reason: str) -> None:
    import pickle

    err = RenderError("x", reason=reason, path="p", detail="d")
    back = pickle.loads(pickle.dumps(err))
    assert (type(back), back.reason, back.path, back.detail) == (RenderError, reason, "p", "d")


def test_diagram_is_frozen() -> None:
    import dataclasses

    with pytest.raises(dataclasses.FrozenInstanceError):
        render(_graph()).view = "symbols"  # type: ignore[misc]


def test_diagram_type() -> None:
    assert isinstance(render(_graph()), Diagram)
