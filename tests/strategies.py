"""Hypothesis strategies shared by the test suite.

``problem_graphs()`` draws valid ``MathProblemGraph`` values over all ten
operation kinds, with units drawn from pack lemmas, listed surfaces, composite
rates and open nouns the pack does not know (so that bound graphs carry both
admitted and refused equations).  ``bound_graphs()`` binds them with the
default pack.  ``HOSTILE_TEXTS`` / ``hostile_names`` are names that try to break
whatever prints them (quotes, tags, braces, backslash escapes, newlines).
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from ssbg.adapter import bind_math_problem_graph
from ssbg.admissibility import OPERATION_KINDS
from ssbg.model import SemanticSymbolicBindingGraph
from ssbg.problem import (
    COMPARISON_DIRECTIONS,
    FRACTION_REFERENTS,
    Comparison,
    FractionPortion,
    InitialPossession,
    MathProblemGraph,
    Operation,
    PartitionChunk,
    Quantity,
    Rate,
    Unknown,
)
from ssbg.units import default_pack

_FUZZING_AT = 1_000  # the "fuzz" profile of tests/conftest.py draws at least this many (the default profile 100)


def seam_settings(examples: int) -> settings:
    """Settings of a seam's property test (numbers, types, text, sizes): ``examples`` inputs in the normal
    run, the loaded profile's count under ``--hypothesis-profile=fuzz`` (``make fuzz``)."""
    fuzzing = settings.default.max_examples >= _FUZZING_AT
    return settings(
        max_examples=settings.default.max_examples if fuzzing else examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
    )


# JSON values of every kind, hostile ones included: huge and non-finite numbers, bools, lone surrogates,
# nesting; what a field may hold when a file lies about its shape.
hostile_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**15, max_value=10**400),
    st.floats(),
    st.sampled_from([float("nan"), float("inf"), -float("inf"), 1e300, 10**16]),
    st.text(max_size=20),
    st.sampled_from(["", " ", "\ud800", "a\udfffb", "1e400", "NaN", "9" * 400, "-0", "1,000", ".5"]),
)
hostile_json = st.recursive(
    hostile_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=6,
)

KNOWN_UNITS = (
    "dollars",
    "cents",
    "hours",
    "minutes",
    "feet",
    "people",
    "children",
    "boxes",
    "item",
    "mph",
    "square feet",
    "percent",
    "$",
    "%",
    "dozen",
    "miles",
    "pounds",
    "cups",
    "days",
)
OPEN_NOUNS = ("apples", "widgets", "clips", "marbles", "pencils")

unit_texts = st.one_of(
    st.sampled_from(KNOWN_UNITS),
    st.sampled_from(OPEN_NOUNS),
    st.sampled_from(sorted(default_pack().entries)),
    st.sampled_from(sorted(default_pack().surfaces)),
)

entity_names = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=12
).filter(lambda s: bool(s.strip()))

# Names that try to break a renderer: DOT/HTML/XML syntax, graphviz's own
# backslash escapes (\N is the node name, \G the graph name), newlines, unicode.
HOSTILE_TEXTS = (
    'say "hi"',
    "<script>alert(1)</script>",
    "{braces} | pipes",
    "back\\slash \\N \\G \\L",
    "two\nlines",
    "amp &amp; &lt;b&gt;",
    "]]> --> <!--",
    "Zoë 漢字 ☃",
    "tab\tbell\x07",
    "}; node [label=pwned]; {",
)
hostile_names = st.one_of(st.sampled_from(HOSTILE_TEXTS), entity_names)

numbers = st.one_of(
    st.integers(min_value=1, max_value=10_000), st.floats(min_value=0.5, max_value=1e6, allow_nan=False)
)


def quantities() -> st.SearchStrategy[Quantity]:
    return st.builds(Quantity, value=numbers, unit=unit_texts)


@st.composite
def operations(draw: st.DrawFn, entities: tuple[str, ...]) -> Operation:
    kind = draw(st.sampled_from(OPERATION_KINDS))
    actor = draw(st.sampled_from(entities))
    others = [e for e in entities if e != actor]
    if kind in ("add", "subtract", "multiply", "divide"):
        return Operation(actor, kind, draw(quantities()))
    if kind == "transfer":
        if not others:
            return Operation(actor, "add", draw(quantities()))
        return Operation(actor, kind, draw(quantities()), target=draw(st.sampled_from(others)))
    if kind == "apply_rate":
        num, den = draw(st.lists(unit_texts, min_size=2, max_size=2, unique=True))
        return Operation(actor, kind, Rate(draw(numbers), num, den))
    if kind == "unit_partition":
        unit, result = draw(st.lists(unit_texts, min_size=2, max_size=2, unique=True))
        return Operation(actor, kind, PartitionChunk(draw(numbers), unit, result))
    if kind == "fraction_portion":
        return Operation(
            actor,
            kind,
            FractionPortion(
                draw(st.integers(1, 9)), draw(st.integers(1, 12)), draw(st.sampled_from(sorted(FRACTION_REFERENTS)))
            ),
        )
    if not others:
        return Operation(actor, "add", draw(quantities()))
    ref = draw(st.sampled_from(others))
    if kind == "compare_additive":
        direction = draw(st.sampled_from(["more", "fewer"]))
        return Operation(actor, kind, Comparison(ref, direction, delta=draw(quantities())))
    direction = draw(st.sampled_from(sorted(COMPARISON_DIRECTIONS - {"more", "fewer"})))
    return Operation(actor, kind, Comparison(ref, direction, factor=draw(numbers)))


@st.composite
def problem_graphs(
    draw: st.DrawFn, max_operations: int = 6, names: st.SearchStrategy[str] = entity_names
) -> MathProblemGraph:
    """Valid problems; ``names`` draws the entity names (e.g. ``hostile_names``)."""
    entities = tuple(draw(st.lists(names, min_size=1, max_size=4, unique=True)))
    initial: list[InitialPossession] = []
    seen: set[tuple[str, str]] = set()
    for _ in range(draw(st.integers(0, 4))):
        possession = InitialPossession(draw(st.sampled_from(entities)), draw(quantities()))
        key = (possession.entity, possession.quantity.unit)
        if key not in seen:
            seen.add(key)
            initial.append(possession)
    ops = tuple(draw(st.lists(operations(entities), max_size=max_operations)))
    unknown = Unknown(draw(unit_texts), draw(st.one_of(st.none(), st.sampled_from(entities))))
    pid = draw(st.one_of(st.none(), st.from_regex(r"[a-z]{1,8}-[0-9]{1,4}", fullmatch=True)))
    return MathProblemGraph(entities, tuple(initial), ops, unknown, problem_id=pid)


@st.composite
def bound_graphs(
    draw: st.DrawFn, max_operations: int = 6, names: st.SearchStrategy[str] = entity_names
) -> SemanticSymbolicBindingGraph:
    """Binding graphs: ``problem_graphs()`` bound by the adapter with the default pack."""
    return bind_math_problem_graph(draw(problem_graphs(max_operations=max_operations, names=names)))
