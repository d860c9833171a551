"""The condition of ADR 0013's amendment: the binders build their values without validating them again, so
every graph they bind is rebuilt here through the validating constructors and must come out equal.

Bound graphs of the lanes (``data/lanes``), the hand-written graphs (``benchmarks/graphs.jsonl``), chained
traces, every record of ``data/samples``, a sample of each development corpus (GSM8K train: the first 400
problems) and Hypothesis's problem graphs and traces.  A rebuilt value is made field by field through its
class's public constructor (``__post_init__`` runs and refuses an invalid field), its nested values rebuilt
first; equal means the same class and the same fields, and so the same canonical string.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import pickle
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from ssbg import model
from ssbg.adapter import bind_math_problem_graph
from ssbg.admissibility import EquationStamper
from ssbg.errors import BindingGraphError
from ssbg.model import SemanticSymbolicBindingGraph, SourceSpanLink, SymbolBinding
from ssbg.problem import MathProblemGraph
from ssbg.reading.choosing import bind_choosing
from ssbg.reading.readers import read_corpus
from ssbg.trace import Trace, bind_trace
from tests.strategies import problem_graphs
from tests.test_trace import traces

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from ab_worker import chained_trace  # noqa: E402 - benchmarks/ is put on the path just above

MODEL_CLASSES = (
    model.SourceSpanLink,
    model.SymbolBinding,
    model.BoundFact,
    model.BoundEquation,
    model.BoundUnknown,
    model.BoundConstraint,
    model.SemanticSymbolicBindingGraph,
)
CORPUS_SAMPLES = {  # corpus -> (file under the corpora folder, records read)
    "gsm8k": ("gsm8k/train.jsonl", 400),
    "svamp": ("svamp/SVAMP.json", 150),
    "mawps": ("mawps/mwptoolkit/mawps_source.json", 150),
    "cogcomp": ("cogcomp_arithmetic/data/questions.json", 150),
}


def validated(value: Any) -> Any:
    """``value`` rebuilt through the validating constructors, nested values first."""
    if type(value) is tuple:
        return tuple(validated(item) for item in value)
    if type(value) in MODEL_CLASSES:
        fields = {f.name: validated(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return type(value)(**fields)
    return value


def values_of(graph: SemanticSymbolicBindingGraph) -> list[Any]:
    """Every value of the graph: its members and their spans."""
    members = [*graph.symbols, *graph.facts, *graph.equations, *graph.unknowns, *graph.constraints]
    spans = [getattr(m, "source_span", None) or m.question_span for m in members]
    return [graph, *members, *spans]


def assert_round_trips(graph: SemanticSymbolicBindingGraph) -> None:
    rebuilt = validated(graph)
    assert rebuilt == graph
    assert rebuilt.to_canonical_string() == graph.to_canonical_string()
    for value in values_of(graph):
        assert type(value) in MODEL_CLASSES
        assert validated(value) == value


def lane_problems() -> list[MathProblemGraph]:
    problems = []
    for path in [*sorted((ROOT / "data" / "lanes").glob("*.jsonl")), ROOT / "benchmarks" / "graphs.jsonl"]:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                data = json.loads(line)
                data.pop("expected", None)
                problems.append(MathProblemGraph.from_dict(data))
    return problems


def test_every_lane_and_hand_written_graph_round_trips() -> None:
    problems = lane_problems()
    assert len(problems) > 60  # the lanes and benchmarks/graphs.jsonl were found
    for problem in problems:
        assert_round_trips(bind_math_problem_graph(problem))


@pytest.mark.parametrize("refused", [False, True])
@pytest.mark.parametrize("steps", [1, 8, 64])
def test_chained_traces_round_trip(steps: int, refused: bool) -> None:
    assert_round_trips(bind_trace(chained_trace(steps, refused=refused)))


def bound_records(spec: str, limit: int | None = None) -> list[SemanticSymbolicBindingGraph]:
    graphs = []
    for record in itertools.islice(read_corpus(spec), limit):
        payload = record.payload
        if isinstance(payload, Trace):  # exactly as read (the core) and reconsidered (the reading side, ADR 0035)
            graphs.extend((bind_trace(payload), bind_choosing(payload)))
        elif isinstance(payload, MathProblemGraph):
            graphs.append(bind_math_problem_graph(payload))
    return graphs


@pytest.mark.parametrize("sample", sorted(p.name for p in (ROOT / "data" / "samples").iterdir()
                                          if p.suffix in (".json", ".jsonl", ".xml")))  # fmt: skip
def test_every_sample_record_round_trips(sample: str) -> None:
    graphs = bound_records(str(ROOT / "data" / "samples" / sample))
    assert graphs
    for graph in graphs:
        assert_round_trips(graph)


@pytest.mark.parametrize("corpus", sorted(CORPUS_SAMPLES))
def test_a_corpus_sample_round_trips(corpora: Path, corpus: str) -> None:
    relative, limit = CORPUS_SAMPLES[corpus]
    graphs = bound_records(f"{corpus}={corpora / relative}", limit)
    assert len(graphs) > limit // 2  # most records import
    for graph in graphs:
        assert_round_trips(graph)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problem_graphs())
def test_any_bound_problem_graph_round_trips(problem: MathProblemGraph) -> None:
    assert_round_trips(bind_math_problem_graph(problem))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(traces())
def test_any_bound_trace_round_trips(trace: Trace) -> None:
    assert_round_trips(bind_trace(trace))
    assert_round_trips(bind_choosing(trace))


# ------------------------------------------------------- public construction still validates


def test_the_public_constructor_still_refuses_a_bad_field() -> None:
    span = SourceSpanLink("p", 0, 1, "a")
    with pytest.raises(BindingGraphError) as caught:
        SymbolBinding("not an id", "a", "entity", span, "test")
    assert caught.value.reason == "invalid_identifier"


def test_the_public_stamper_still_validates_its_equations() -> None:
    span = SourceSpanLink("p", 0, 1, "a")
    stamper = EquationStamper({}, None)
    with pytest.raises(BindingGraphError) as caught:
        stamper.refuse("not an id", "x", (), "add", span, "ambiguous_grounding", "two readings")
    assert caught.value.reason == "invalid_identifier"


SPAN = SourceSpanLink("p", 0, 1, "a")
SAMPLE_FIELDS = {
    "SourceSpanLink": ("p", 0, 1, "a"),
    "SymbolBinding": ("x", "x", "entity", SPAN, "t", None, None),
    "BoundFact": ("x", "1", SPAN, None),
    "BoundEquation": ("x", "y", frozenset({"y"}), "add", "proof", "admitted", SPAN, None, None, None, None),
    "BoundUnknown": ("x", SPAN, None, "terminal", "identity", None, None, "pending", None, None),
}


@pytest.mark.parametrize("cls", MODEL_CLASSES[:-2])  # the graph and the constraint: below and never prebuilt
def test_a_prebuilt_value_is_its_class_field_for_field(cls: type) -> None:
    """What ``_prebuilt`` makes is an instance of the class itself, frozen, every slot filled."""
    new = model._prebuilt(cls)
    fields = dataclasses.fields(cls)
    sample = SAMPLE_FIELDS[cls.__name__]
    assert len(sample) == len(fields)
    value = new(*sample)
    assert type(value) is cls
    assert value == cls(*sample)
    assert hash(value) == hash(cls(*sample))
    assert pickle.loads(pickle.dumps(value)) == value
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, fields[0].name, sample[0])


def test_a_prebuilt_graph_skips_only_the_checks() -> None:
    graph = bind_math_problem_graph(lane_problems()[0])
    assert type(graph) is SemanticSymbolicBindingGraph
    assert model._prebuilt_graph(graph.symbols, graph.facts, graph.equations, graph.unknowns, graph.constraints,
                                 graph.provenance) == graph  # fmt: skip


def test_the_round_trip_catches_a_value_no_validating_constructor_accepts() -> None:
    graph = bind_math_problem_graph(lane_problems()[0])
    bad = model._prebuilt_symbol("not an id", "x", "entity", graph.symbols[0].source_span, "t", None, None)
    broken = model._prebuilt_graph((*graph.symbols, bad), graph.facts, graph.equations, graph.unknowns,
                                   graph.constraints, graph.provenance)  # fmt: skip
    with pytest.raises(BindingGraphError):
        validated(broken)


@pytest.mark.parametrize("cls", MODEL_CLASSES[:-2])
def test_a_prebuilt_replace_is_dataclasses_replace_without_the_checks(cls: type) -> None:
    value = cls(*SAMPLE_FIELDS[cls.__name__])
    name = dataclasses.fields(cls)[0].name
    changed = model._prebuilt_replace(value, **{name: "y" if name != "start" else 0})
    assert type(changed) is cls
    assert changed == dataclasses.replace(value, **{name: "y" if name != "start" else 0})
    with pytest.raises(TypeError):
        model._prebuilt_replace(value, no_such_field=1)
