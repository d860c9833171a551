"""DOT from scenes: escaping of hostile text, the visual vocabulary, and what dot makes of it."""

from __future__ import annotations

import html
import re
import subprocess
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ssbg.adapter import bind_math_problem_graph
from ssbg.errors import BindingGraphError
from ssbg.model import SemanticSymbolicBindingGraph
from ssbg.problem import MathProblemGraph
from ssbg.views.dot import LINE_BREAK, escape_html, quote_id, scene_to_dot, to_dot
from ssbg.views.errors import RenderError
from ssbg.views.nx import equation_node_id
from ssbg.views.scene import (
    ROW_STYLE_NAMES,
    SCENE_SHAPES,
    TONE_NAMES,
    VIEWS,
    build_scene,
    equation_scene,
    symbol_scene,
)
from ssbg.views.templates import LEGEND, ROW_STYLES, SHAPES, TONES
from tests.strategies import HOSTILE_TEXTS, bound_graphs, hostile_names

SVG = "{http://www.w3.org/2000/svg}"


def _problem(names: tuple[str, ...], *, unit: str = "apples", problem_id: str = "views-dot") -> MathProblemGraph:
    """Each name holds hours, earns wages, then two refused steps in ``unit``; the answer is in dollars."""
    first = names[0]
    return MathProblemGraph.from_dict({
        "problem_id": problem_id,
        "entities": list(names),
        "initial_state": [{"entity": n, "quantity": {"value": 2 + i, "unit": "hours"}} for i, n in enumerate(names)]
        + [{"entity": first, "quantity": {"value": 5, "unit": unit}}],
        "operations": [
            *({"actor": n, "kind": "apply_rate",
               "operand": {"value": 12, "numerator_unit": "dollars", "denominator_unit": "hours"}} for n in names),
            {"actor": first, "kind": "add", "operand": {"value": 2, "unit": unit}},
            {"actor": first, "kind": "multiply", "operand": {"value": 2, "unit": "boxes"}},
        ],
        "unknown": {"entity": first, "unit": "dollars"},
    })


def _multi_step() -> SemanticSymbolicBindingGraph:
    return bind_math_problem_graph(_problem(("Ann", "Bob")))


def _dot_svg(source: str) -> tuple[str, str]:
    """Run the real ``dot`` and return (svg, stderr): HTML-label errors only show on stderr."""
    done = subprocess.run(["dot", "-Tsvg"], input=source.encode("utf-8"), capture_output=True, check=True)
    return done.stdout.decode("utf-8"), done.stderr.decode("utf-8")


def _svg_texts(svg: str) -> tuple[ET.Element, list[str]]:
    root = ET.fromstring(svg)  # noqa: S314 - our own dot output, parsed to prove it is well-formed XML
    return root, ["".join(el.itertext()) for el in root.iter(f"{SVG}text")]


def _rendered_form(name: str) -> list[str]:
    """How a raw name reads in the SVG: one entry per line, unprintables spelled as escapes."""
    spelled = "".join(f"\\x{ord(c):02x}" if (ord(c) < 32 and c != "\n") or ord(c) == 0x7F else c for c in name)
    return spelled.split("\n")


# --------------------------------------------------------------------- escaping

ESCAPES = [
    ('"q"', "&quot;q&quot;"),
    ("<script>", "&lt;script&gt;"),
    ("a & b", "a &amp; b"),
    ("it's", "it&#39;s"),
    ("{x} | [y]", "{x} | [y]"),
    ("\\N", "\\\\N"),
    ("a\\", "a\\\\"),
    ("a\nb", f"a{LINE_BREAK}b"),
    ("a\r\nb", f"a{LINE_BREAK}b"),
    ("a\u2028b", f"a{LINE_BREAK}b"),
    ("bell\x07", "bell\\\\x07"),
    ("nul\x00", "nul\\\\x00"),
    ("\ud800", "\\\\ud800"),
    ("Zoë ☃ 漢字", "Zoë ☃ 漢字"),
    ("&amp;", "&amp;amp;"),
]


@pytest.mark.parametrize(("raw", "escaped"), ESCAPES)
def test_escape_html(raw: str, escaped: str) -> None:
    assert escape_html(raw) == escaped


def _unescape(text: str) -> str:
    return html.unescape(text.replace(LINE_BREAK, "\n")).replace("\\\\", "\\")


@given(st.text(alphabet=st.characters(exclude_categories=("Cc", "Cs"))))
def test_escape_html_is_undone_by_an_html_reader(raw: str) -> None:
    normal = raw
    for sep in ("\u2028", "\u2029"):
        normal = normal.replace(sep, "\n")
    assert _unescape(escape_html(raw)) == normal


@given(st.text())
def test_escaped_text_cannot_open_a_tag_or_leave_a_lone_backslash(raw: str) -> None:
    out = escape_html(raw).replace(LINE_BREAK, "")
    assert not re.search(r'[<>"]', out)
    assert "\\" not in out.replace("\\\\", "")
    assert not any(ord(c) < 32 for c in out)


def test_escape_html_refuses_a_non_str() -> None:
    with pytest.raises(RenderError) as info:
        escape_html(3)  # type: ignore[arg-type]
    assert info.value.reason == "invalid_scene"


def test_quote_id() -> None:
    assert quote_id('a"b') == '"a\\"b"'


# --------------------------------------------------------------------- hostile text through dot


@pytest.mark.parametrize("name", HOSTILE_TEXTS)
@pytest.mark.parametrize("view", VIEWS)
def test_hostile_names_render_as_themselves(name: str, view: str) -> None:
    bg = bind_math_problem_graph(_problem((name, "Bob"), problem_id=f"p {name}"))
    source = to_dot(bg, view=view, proofs=True)
    svg, stderr = _dot_svg(source)
    assert stderr == ""
    _root, texts = _svg_texts(svg)
    for line in _rendered_form(name):
        assert any(line in text for text in texts), line


@pytest.mark.parametrize("name", HOSTILE_TEXTS)
def test_hostile_names_inject_nothing(name: str) -> None:
    bg = bind_math_problem_graph(_problem((name, "Bob"), unit=name))
    scene = equation_scene(bg)
    svg, stderr = _dot_svg(scene_to_dot(scene))
    assert stderr == ""
    root, _texts = _svg_texts(svg)
    tags = {el.tag.removeprefix(SVG) for el in root.iter()}
    assert "script" not in tags
    assert not any(attr.startswith("on") for el in root.iter() for attr in el.attrib)
    nodes = [el for el in root.iter(f"{SVG}g") if el.get("class") == "node"]
    edges = [el for el in root.iter(f"{SVG}g") if el.get("class") == "edge"]
    assert (len(nodes), len(edges)) == (len(scene["nodes"]), len(scene["edges"]))


@pytest.mark.parametrize("unit", HOSTILE_TEXTS)
def test_hostile_unit_shows_in_the_refusal(unit: str) -> None:
    bg = bind_math_problem_graph(_problem(("Ann",), unit=unit))
    refused = [eq for eq in bg.equations if eq.is_root_cause]
    assert refused
    assert refused[0].offending_unit == unit
    svg, _stderr = _dot_svg(to_dot(bg))
    _root, texts = _svg_texts(svg)
    for line in _rendered_form(f"offending unit: {unit}"):
        assert any(line in text for text in texts), line


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bound_graphs(max_operations=4, names=hostile_names), st.sampled_from(VIEWS))
def test_generated_graphs_are_accepted_by_dot(bg: SemanticSymbolicBindingGraph, view: str) -> None:
    scene = build_scene(bg, view=view, proofs=True)
    svg, stderr = _dot_svg(scene_to_dot(scene))
    assert stderr == ""
    root, _texts = _svg_texts(svg)
    assert len([el for el in root.iter(f"{SVG}g") if el.get("class") == "node"]) == len(scene["nodes"])


# --------------------------------------------------------------------- vocabulary


def test_every_tone_has_a_style() -> None:
    assert set(TONES) == TONE_NAMES


def test_every_shape_has_a_graphviz_shape() -> None:
    assert set(SHAPES) == SCENE_SHAPES


def test_every_row_style_has_a_font() -> None:
    assert set(ROW_STYLES) == ROW_STYLE_NAMES


def test_legend_uses_known_tones() -> None:
    assert {tone for tone, _text in LEGEND} <= TONE_NAMES


def test_root_cause_and_propagated_refusals_look_different() -> None:
    assert TONES["refused"] != TONES["propagated"]
    assert TONES["propagated"].dashed != TONES["refused"].dashed


# --------------------------------------------------------------------- scenes


def _equation_tones(bg: SemanticSymbolicBindingGraph) -> dict[str, str]:
    return {n["id"]: n["tone"] for n in equation_scene(bg)["nodes"] if n["kind"] == "equation"}


def test_equation_tones_follow_status() -> None:
    bg = _multi_step()
    expected = {equation_node_id(i): ("admitted" if eq.admissibility_status == "admitted"
                                      else "refused" if eq.is_root_cause else "propagated")
                for i, eq in enumerate(bg.equations)}
    assert _equation_tones(bg) == expected


@pytest.mark.parametrize("tone", ["admitted", "refused", "propagated"])
def test_multi_step_example_shows_each_tone(tone: str) -> None:
    assert tone in _equation_tones(_multi_step()).values()


def test_refused_equation_carries_reason_detail_and_unit() -> None:
    bg = _multi_step()
    scene = equation_scene(bg)
    i, eq = next((i, eq) for i, eq in enumerate(bg.equations) if eq.is_root_cause)
    rows = next(n["rows"] for n in scene["nodes"] if n["id"] == equation_node_id(i))
    texts = [r["text"] for r in rows]
    assert f"REFUSED: {eq.refusal_reason}" in texts
    assert f"offending unit: {eq.offending_unit}" in texts


def test_propagated_refusal_names_its_root() -> None:
    bg = _multi_step()
    scene = equation_scene(bg)
    i, eq = next((i, eq) for i, eq in enumerate(bg.equations) if eq.propagated_from is not None)
    rows = next(n["rows"] for n in scene["nodes"] if n["id"] == equation_node_id(i))
    assert rows[2]["text"] == f"REFUSED via {eq.propagated_from}: {eq.refusal_reason}"


def test_question_target_has_its_own_shape() -> None:
    bg = _multi_step()
    shapes = {n["id"]: n["shape"] for n in equation_scene(bg)["nodes"]}
    assert [sid for sid, shape in shapes.items() if shape == "target"] == [bg.unknowns[0].symbol_id]


def test_symbols_show_their_units() -> None:
    bg = _multi_step()
    rows = {n["id"]: [r["text"] for r in n["rows"]] for n in equation_scene(bg)["nodes"]}
    for symbol in bg.symbols:
        if symbol.unit is not None:
            assert f"unit: {symbol.unit}" in rows[symbol.symbol_id]


@pytest.mark.parametrize("view", VIEWS)
def test_proofs_only_on_demand(view: str) -> None:
    bg = _multi_step()
    admitted = [eq for eq in bg.equations if eq.admissibility_status == "admitted"]

    def proof_rows(proofs: bool) -> list[str]:
        scene = build_scene(bg, view=view, proofs=proofs)
        return [r["text"] for n in scene["nodes"] for r in n["rows"] if r["style"] == "proof"]

    assert proof_rows(False) == []
    assert sorted(proof_rows(True)) == sorted(f"proof: {eq.unit_proof}" for eq in admitted)


def test_symbol_view_edges_are_labelled_with_the_kind() -> None:
    bg = _multi_step()
    scene = symbol_scene(bg)
    expected = [(dep, eq.lhs_symbol_id, eq.operation_kind) for eq in bg.equations for dep in sorted(eq.dependencies)]
    got = [(e["tail"], e["head"], e["rows"][0]["text"]) for e in scene["edges"]]
    assert got[: len(expected)] == expected


@pytest.mark.parametrize("view", VIEWS)
def test_question_hangs_under_the_symbol_that_answers_it(view: str) -> None:
    bg = _multi_step()
    unknown = bg.unknowns[0]
    answers = [(e["tail"], e["head"], e["tone"]) for e in build_scene(bg, view=view)["edges"]
               if e["rows"] == [{"text": "answers", "style": "edge"}]]
    assert answers == [(unknown.resolved_by, unknown.symbol_id, "target")]


def test_summed_total_needs_no_answer_edge() -> None:
    bg = bind_math_problem_graph(MathProblemGraph.from_dict({
        "entities": ["Ann", "Bob"],
        "initial_state": [{"entity": "Ann", "quantity": {"value": 3, "unit": "dollars"}},
                          {"entity": "Bob", "quantity": {"value": 4, "unit": "dollars"}}],
        "operations": [],
        "unknown": {"entity": None, "unit": "dollars"},
    }))
    assert bg.unknowns[0].resolved_by == bg.unknowns[0].symbol_id
    assert all(e["rows"] == [] for e in equation_scene(bg)["edges"])


def test_symbol_view_has_no_equation_nodes() -> None:
    assert {n["kind"] for n in symbol_scene(_multi_step())["nodes"]} == {"symbol"}


def test_dot_source_is_deterministic() -> None:
    assert to_dot(_multi_step(), proofs=True) == to_dot(_multi_step(), proofs=True)


def test_propagated_nodes_are_dashed_in_dot() -> None:
    bg = _multi_step()
    i = next(i for i, eq in enumerate(bg.equations) if eq.propagated_from is not None)
    line = next(ln for ln in to_dot(bg).splitlines() if ln.startswith(f"  {quote_id(equation_node_id(i))} ["))
    assert "dashed" in line


# --------------------------------------------------------------------- refusals

BAD_SCENES: list[Any] = [
    pytest.param(("nodes", 0, "tone", "sparkly"), "scene.nodes[0].tone", id="tone"),
    pytest.param(("nodes", 0, "shape", "star"), "scene.nodes[0].shape", id="shape"),
    pytest.param(("nodes", 0, "id", ""), "scene.nodes[0].id", id="node-id"),
    pytest.param(("edges", 0, "head", None), "scene.edges[0].head", id="edge-head"),
    pytest.param(("edges", 0, "tone", "loud"), "scene.edges[0].tone", id="edge-tone"),
]


@pytest.mark.parametrize(("edit", "path"), BAD_SCENES)
def test_scene_outside_the_vocabulary_is_refused(edit: tuple[str, int, str, object], path: str) -> None:
    scene: Any = equation_scene(_multi_step())
    collection, index, key, value = edit
    scene[collection][index][key] = value
    with pytest.raises(RenderError) as info:
        scene_to_dot(scene)
    assert (info.value.reason, info.value.path) == ("invalid_scene", path)


def test_row_style_outside_the_vocabulary_is_refused() -> None:
    scene: Any = equation_scene(_multi_step())
    scene["nodes"][0]["rows"][0]["style"] = "blink"
    with pytest.raises(RenderError) as info:
        scene_to_dot(scene)
    assert (info.value.reason, info.value.path) == ("invalid_scene", "scene.nodes[0].rows[0].style")


@pytest.mark.parametrize(("option", "value"), [("rankdir", "UP"), ("wrap", 0), ("wrap", True)])
def test_bad_layout_options_are_refused(option: str, value: object) -> None:
    with pytest.raises(RenderError) as info:
        scene_to_dot(equation_scene(_multi_step()), **{option: value})  # type: ignore[arg-type]
    assert (info.value.reason, info.value.path) == ("invalid_scene", option)


def test_unknown_view_is_refused() -> None:
    with pytest.raises(RenderError) as info:
        build_scene(_multi_step(), view="timeline")
    assert info.value.reason == "unknown_view"


def test_scene_of_a_non_graph_is_refused() -> None:
    with pytest.raises(BindingGraphError) as info:
        equation_scene({"symbols": []})  # type: ignore[arg-type]
    assert info.value.reason == "invalid_field"
