"""The core binds exactly the readings it is given; choosing among readings is the reading side's (ADR 0035).

A behavioural check (:func:`ssbg.trace.bind_trace` on traces that carry every cue the reading side reconsiders:
a refused step keeps the units it was given, and the unit check is asked once per step, never on trial) and a
static one (no core module defines the reading side's choosers or calls the stamper's trial and retraction API),
each beside the reading side's binder on the same input, so that a check that cannot fail would show.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from ssbg.admissibility import EquationStamper
from ssbg.reading.choosing import ChoosingBinder, bind_choosing
from ssbg.trace import Trace, bind_trace
from ssbg.units import load_pack
from tests.test_layering import CORE, MODULES

PACK = "en_units_v1+en_counts_v1"

WORK = "He works 8 hours a day, 5 days a week. How many hours does he work a week? He has 5 days off."


def work_trace() -> Trace:
    """8 hours a day x 5 days a week, stated as hours: a mismatch as read, with every other reading the reading side
    tries on offer (the context's ``per``, the 5's tie with "5 days off", the 8's second unit and n-best units)."""
    off = len(WORK) - 11
    return Trace.from_dict({
        "problem_id": "w", "corpus": "example", "text": WORK,
        "mentions": [
            {"start": 9, "end": 22, "text": "8 hours a day", "value": 8, "unit": "hours per day", "alt_unit": "hours",
             "readings": [["hours per day", 0.6], ["hours", 0.4]]},
            {"start": 24, "end": 37, "text": "5 days a week", "value": 5, "unit": "days per week"},
            {"start": off, "end": off + 6, "text": "5 days", "value": 5, "unit": "days"},
        ],
        "steps": [
            {"op": "multiply", "operands": [{"mention": 0}, {"mention": 1, "alternative": {"mention": 2}}],
             "result": 40, "unit": "hours", "per": ["week"]},
            {"op": "add", "operands": [{"step": 0}, {"mention": 2}]},
        ],
    })  # fmt: skip


def unknown_unit_trace() -> Trace:
    """3 blorps + 4 kg: the first unit is no pack's; its n-best hold a unit the pack knows."""
    text = "a bag of 3 blorps and 4 kg"
    return Trace.from_dict({
        "problem_id": "b", "corpus": "example", "text": text,
        "mentions": [
            {"start": 9, "end": 17, "text": "3 blorps", "value": 3, "unit": "blorps", "alt_unit": "kg",
             "readings": [["blorps", 0.6], ["kg", 0.4]]},
            {"start": 22, "end": 26, "text": "4 kg", "value": 4, "unit": "kg"},
        ],
        "steps": [{"op": "add", "operands": [{"mention": 0}, {"mention": 1}]}],
    })  # fmt: skip


@pytest.fixture
def stamper_calls(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How often binding asks the unit check to stamp, to try (``admits``), to retract and to refuse by reading."""
    calls: Counter[str] = Counter()

    def counting(name: str) -> Callable[..., Any]:
        original = getattr(EquationStamper, name)

        def counted(self: EquationStamper, *args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return original(self, *args, **kwargs)

        return counted

    for name in ("stamp", "admits", "derives", "retract", "refuse"):
        monkeypatch.setattr(EquationStamper, name, counting(name))
    return calls


def test_a_refused_step_keeps_exactly_the_units_it_was_given() -> None:
    trace = work_trace()
    graph = bind_trace(trace, pack=load_pack(PACK))
    first, second = graph.equations
    assert (first.refusal_reason, second.refusal_reason) == ("unit_mismatch", "unit_unbound")
    assert {s.symbol_id for s in graph.symbols} == {"q_hour_per_day_000", "q_day_per_week_000", "q_day_000",
                                                     "step_000", "step_001", "unknown_answer"}
    units = {s.symbol_id: s.unit for s in graph.symbols}
    assert [units[s] for s in ("q_hour_per_day_000", "q_day_per_week_000", "q_day_000")] == [
        m.unit for m in trace.mentions]
    assert units["step_000"] == "hours"  # the stated unit, not read as hours per week
    # the reading side, handed the same trace, reads the stated unit as its context's rate
    reconsidered = bind_choosing(trace, pack=load_pack(PACK)).equations[0]
    assert reconsidered.admissibility_status == "admitted"


def test_an_operand_whose_unit_refuses_is_refused_with_that_unit() -> None:
    equation = bind_trace(unknown_unit_trace(), pack=load_pack(PACK)).equations[0]
    assert (equation.refusal_reason, equation.offending_unit) == ("unknown_unit", "blorps")


def test_the_core_asks_the_unit_check_once_per_step_and_tries_nothing(stamper_calls: Counter[str]) -> None:
    trace = work_trace()
    bind_trace(trace, pack=load_pack(PACK))
    assert stamper_calls == Counter({"stamp": len(trace.steps)})
    stamper_calls.clear()
    bind_choosing(trace, pack=load_pack(PACK))  # the reading side tries readings: the count sees it
    assert stamper_calls["admits"] + stamper_calls["retract"] > 0


def test_the_cores_hook_keeps_the_refusal_and_the_reading_side_overrides_it() -> None:
    from ssbg.trace import TraceBinder

    trace = work_trace()
    core = TraceBinder.bound(trace, load_pack(PACK))
    assert [e.refusal_reason for e in core.equations] == ["unit_mismatch", "unit_unbound"]
    assert ChoosingBinder.mismatch is not TraceBinder.mismatch


# ------------------------------------------------------------------ static: the core holds no chooser

CHOOSERS = frozenset({
    "reconsider", "per_thing", "per_thing_readings", "read_per", "same_kind", "shared_by", "plain_unit",
    "other_reading", "alternative_bound", "trial", "source_bound", "read_as", "options", "mass", "combinations",
    "step_readings", "_says_per", "reading_mass", "answer_mass", "ReadingMass", "BoundTrace", "MAX_READINGS",
    "ChoosingBinder", "bind_choosing",
})  # fmt: skip
"""What chooses or weighs readings (ssbg.reading.choosing); no core module defines one."""

TRIALS = frozenset({"admits", "derives", "retract", "refuse"})
"""The stamper's API for trying another reading and undoing a stamp; the core defines it and never calls it."""


def defined_and_called(module: str) -> tuple[set[str], set[str]]:
    """The functions, classes and module-level names ``module`` defines, and the names and attributes it calls."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    defined: set[str] = set()
    called: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            defined.add(node.name)
        elif isinstance(node, ast.Assign):
            defined.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.Call):
            func = node.func
            called.add(func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else "")
    return defined, called


@pytest.mark.parametrize("module", sorted(CORE))
def test_no_core_module_defines_a_chooser_or_tries_a_reading(module: str) -> None:
    defined, called = defined_and_called(module)
    assert sorted(defined & CHOOSERS) == []
    assert sorted(called & (CHOOSERS | TRIALS)) == []


def test_the_static_check_sees_the_reading_sides_choosers() -> None:
    defined, called = defined_and_called("ssbg.reading.choosing")
    assert {"reconsider", "other_reading", "mass", "ReadingMass"} <= defined
    assert {"admits", "retract", "refuse"} <= called
