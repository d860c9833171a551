"""Expected-shape lanes (SPEC section 6): the project's own regression corpus.

A lane is a JSONL file in ``data/lanes/``; each line is one hand-written
problem: a ``MathProblemGraph`` dict (``problem_id`` is the case id, ``text`` an
English rendering) plus an ``expected`` object giving the binding-graph shape
the problem must bind to (counts, every equation's kind, status, reason and
propagation, the question form and target).  :func:`check_lane` binds every
case and lists each divergence; ``ssbg lane PATH...`` prints them.  The format
is decided in ``docs/adr/0005-lane-format.md``.

Because each line *is* a ``MathProblemGraph`` plus one extra key, the corpus
statistics read a lane as ssbg JSONL (the reader drops ``expected``).

Examples
--------
>>> case = lane_case_from_dict({
...     "problem_id": "wage", "text": "Ann works 3 hours at 12 dollars per hour. How many dollars does she earn?",
...     "entities": ["Ann"],
...     "initial_state": [{"entity": "Ann", "quantity": {"value": 3, "unit": "hours"}}],
...     "operations": [{"actor": "Ann", "kind": "apply_rate",
...                     "operand": {"value": 12, "numerator_unit": "dollars", "denominator_unit": "hours"}}],
...     "unknown": {"entity": "Ann", "unit": "dollars"},
...     "expected": {"symbols": 5, "facts": 2, "equations": 1, "unknowns": 1,
...                  "equation_statuses": [{"lhs": "op_000_result", "kind": "apply_rate", "status": "admitted",
...                                         "reason": None, "propagated_from": None}],
...                  "question_form": "count", "target_status": "bound", "target_reason": None,
...                  "state_index": "terminal"}})
>>> report = check_lane([case])
>>> report.ok
True
>>> print(report.format())
1 cases, 0 divergences
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ssbg import jsontext
from ssbg.admissibility import OPERATION_KINDS
from ssbg.errors import (
    ADMISSIBILITY_REASONS,
    QUESTION_TARGET_REASONS,
    LaneError,
    ProblemGraphError,
    SsbgError,
)
from ssbg.files import read_regular
from ssbg.model import QUESTION_FORMS, STATE_INDEX_INITIAL, STATE_INDEX_TERMINAL, SemanticSymbolicBindingGraph
from ssbg.problem import LANE_EXPECTED_KEY, MathProblemGraph
from ssbg.units import UnitPack

__all__ = [
    "EXPECTED_EQUATION_STATUSES",
    "EXPECTED_TARGET_STATUSES",
    "LANE_SUFFIX",
    "PROPAGATED_ONLY_REASONS",
    "UNREACHABLE_ADMISSIBILITY_REASONS",
    "UNREACHABLE_TARGET_REASONS",
    "Divergence",
    "ExpectedEquation",
    "LaneCase",
    "LaneCoverage",
    "LaneExpectation",
    "LaneReport",
    "check_case",
    "check_lane",
    "check_lanes",
    "lane_case_from_dict",
    "lane_coverage",
    "lane_files",
    "load_lane",
    "register",
]

MAX_LANE_BYTES = 64 * 1024 * 1024
"""The largest lane file read (lanes are a few hundred cases)."""

LANE_SUFFIX = ".jsonl"

# What a lane may expect of a bound graph: ``pending`` never leaves the adapter.
EXPECTED_EQUATION_STATUSES: frozenset[str] = frozenset({"admitted", "refused"})
EXPECTED_TARGET_STATUSES: frozenset[str] = frozenset({"bound", "refused"})

# Reasons a well-formed MathProblemGraph cannot produce through
# bind_math_problem_graph, and why (docs/adr/0005-lane-format.md).  Lanes cannot
# cover them; the lower layers' own tests do.  tests/test_lanes.py checks with
# Hypothesis that the adapter indeed never produces them.  Only ADR-0134's seven: a reading's outcome
# (GROUNDING_REASONS, ADR 0024) is no reason a lane may expect at all, since a MathProblemGraph states each operand.
UNREACHABLE_ADMISSIBILITY_REASONS: Mapping[str, str] = MappingProxyType(
    {
        "unknown_symbol": "the adapter binds every symbol before it stamps an equation that reads it",
        "unknown_operation": "Operation only accepts the ten kinds of OPERATION_KINDS",
    }
)
UNREACHABLE_TARGET_REASONS: Mapping[str, str] = MappingProxyType(
    {
        "expected_unit_mismatch": "the adapter picks the resolving holding by the question's unit (same holding "
        "key, else same dimension), so the admitted unit it reconciles always agrees",
    }
)
# Reasons a well-formed problem produces only as a propagated refusal (never as a root cause).
PROPAGATED_ONLY_REASONS: frozenset[str] = frozenset({"unit_unbound"})

_COUNT_FIELDS = ("symbols", "facts", "equations", "unknowns")
_EXPECTED_REQUIRED = (*_COUNT_FIELDS, "equation_statuses", "question_form", "target_status", "target_reason",
                      "state_index")
_EXPECTED_OPTIONAL = ("resolved_by", "resolved_unit", "note")
_EQUATION_REQUIRED = ("lhs", "kind", "status", "reason", "propagated_from")
_EQUATION_OPTIONAL = ("proof", "offending_unit")

Value = str | int | None


@dataclass(frozen=True, slots=True)
class ExpectedEquation:
    """One equation a case must bind, in the graph's order.

    ``proof`` and ``offending_unit`` are compared only when named in ``checked``.
    """

    lhs: str
    kind: str
    status: str
    reason: str | None
    propagated_from: str | None
    proof: str | None = None
    offending_unit: str | None = None
    checked: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class LaneExpectation:
    """The binding-graph shape a case must produce.

    ``resolved_by`` and ``resolved_unit`` are compared only when named in
    ``checked``; ``note`` says what the case pins and is never compared.
    """

    symbols: int
    facts: int
    equations: int
    unknowns: int
    equation_statuses: tuple[ExpectedEquation, ...]
    question_form: str
    target_status: str
    target_reason: str | None
    state_index: str
    resolved_by: str | None = None
    resolved_unit: str | None = None
    note: str | None = None
    checked: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class LaneCase:
    """One lane line: the case id, where it was read (``file:line``), the problem and its expectation."""

    case_id: str
    source: str
    problem: MathProblemGraph
    expected: LaneExpectation


@dataclass(frozen=True, slots=True)
class Divergence:
    """One field where a case's bound graph differs from its expectation."""

    case_id: str
    source: str
    field: str
    expected: Value
    got: Value

    def format(self) -> str:
        """One line: ``source case_id: field: expected X, got Y`` (values as JSON)."""
        return (f"{self.source} {self.case_id}: {self.field}: expected {json.dumps(self.expected)}, "
                f"got {json.dumps(self.got)}")


@dataclass(frozen=True, slots=True)
class LaneReport:
    """The outcome of checking lanes: every case read and every divergence found."""

    cases: tuple[LaneCase, ...]
    divergences: tuple[Divergence, ...]

    @property
    def ok(self) -> bool:
        """True when no case diverges."""
        return not self.divergences

    @property
    def summary(self) -> str:
        """``N cases, M divergences``."""
        return f"{len(self.cases)} cases, {len(self.divergences)} divergences"

    def format(self) -> str:
        """Every divergence on its own line, then the summary line."""
        return "\n".join([*(d.format() for d in self.divergences), self.summary])


@dataclass(frozen=True, slots=True)
class LaneCoverage:
    """What a set of cases exercises, computed from their expectations.

    ``kinds_refused`` counts root-cause refusals only; ``root_reasons`` and
    ``propagated_reasons`` split the admissibility reasons the same way.
    """

    kinds_admitted: frozenset[str] = field(default_factory=frozenset)
    kinds_refused: frozenset[str] = field(default_factory=frozenset)
    root_reasons: frozenset[str] = field(default_factory=frozenset)
    propagated_reasons: frozenset[str] = field(default_factory=frozenset)
    question_forms: frozenset[str] = field(default_factory=frozenset)
    target_reasons: frozenset[str] = field(default_factory=frozenset)


# ------------------------------------------------------------------ reading


def _malformed(message: str, source: str, detail: str) -> LaneError:
    return LaneError(message, reason="malformed_lane", path=source, detail=detail)


class _Reader:
    """Validates one lane line's ``expected`` object, naming the JSON path of any fault."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, message: str) -> LaneError:
        return _malformed(f"{path}: {message}", self.source, path)

    def obj(self, data: object, path: str, required: tuple[str, ...], optional: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise self.fail(path, f"must be an object (got {type(data).__name__})")
        missing = [k for k in required if k not in data]
        if missing:
            raise self.fail(f"{path}.{missing[0]}", "is required")
        extra = sorted(str(k) for k in set(data) - set(required) - set(optional))
        if extra:
            raise self.fail(f"{path}.{extra[0]}", f"is not a lane field (known: {sorted((*required, *optional))})")
        return data

    def count(self, value: object, path: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise self.fail(path, f"must be a non-negative int (got {value!r})")
        return value

    def text(self, value: object, path: str, *, nullable: bool = False) -> str | None:
        if value is None and nullable:
            return None
        if not isinstance(value, str) or not value.strip():
            raise self.fail(path, f"must be a non-empty str{' or null' if nullable else ''} (got {value!r})")
        return value

    def word(self, value: object, path: str, vocabulary: Iterable[str], *, nullable: bool = False) -> str | None:
        allowed = sorted(vocabulary)
        if value is None and nullable:
            return None
        if not isinstance(value, str) or value not in allowed:
            raise self.fail(path, f"must be one of {allowed}{' or null' if nullable else ''} (got {value!r})")
        return value

    def equation(self, data: object, path: str) -> ExpectedEquation:
        d = self.obj(data, path, _EQUATION_REQUIRED, _EQUATION_OPTIONAL)
        status = self.word(d["status"], f"{path}.status", EXPECTED_EQUATION_STATUSES)
        reason = self.word(d["reason"], f"{path}.reason", ADMISSIBILITY_REASONS, nullable=True)
        propagated = self.text(d["propagated_from"], f"{path}.propagated_from", nullable=True)
        if (status == "refused") != (reason is not None):
            raise self.fail(f"{path}.reason", "must be given exactly when the status is 'refused'")
        if propagated is not None and reason not in PROPAGATED_ONLY_REASONS:
            raise self.fail(f"{path}.propagated_from",
                            f"a propagated refusal has reason {sorted(PROPAGATED_ONLY_REASONS)} (got {reason!r})")
        kind = self.word(d["kind"], f"{path}.kind", OPERATION_KINDS)
        return ExpectedEquation(
            lhs=str(self.text(d["lhs"], f"{path}.lhs")),
            kind=str(kind),
            status=str(status),
            reason=reason,
            propagated_from=propagated,
            proof=self.text(d.get("proof"), f"{path}.proof") if "proof" in d else None,
            offending_unit=self.text(d.get("offending_unit"), f"{path}.offending_unit", nullable=True)
            if "offending_unit" in d else None,
            checked=frozenset(k for k in _EQUATION_OPTIONAL if k in d),
        )

    def expectation(self, data: object, path: str) -> LaneExpectation:
        d = self.obj(data, path, _EXPECTED_REQUIRED, _EXPECTED_OPTIONAL)
        counts = {name: self.count(d[name], f"{path}.{name}") for name in _COUNT_FIELDS}
        raw_equations = d["equation_statuses"]
        if not isinstance(raw_equations, list):
            raise self.fail(f"{path}.equation_statuses", f"must be an array (got {type(raw_equations).__name__})")
        equations = tuple(self.equation(e, f"{path}.equation_statuses[{i}]") for i, e in enumerate(raw_equations))
        if len(equations) != counts["equations"]:
            raise self.fail(f"{path}.equation_statuses",
                            f"lists {len(equations)} equations but 'equations' says {counts['equations']}")
        target_status = self.word(d["target_status"], f"{path}.target_status", EXPECTED_TARGET_STATUSES)
        target_reason = self.word(d["target_reason"], f"{path}.target_reason", QUESTION_TARGET_REASONS,
                                  nullable=True)
        if (target_status == "refused") != (target_reason is not None):
            raise self.fail(f"{path}.target_reason", "must be given exactly when the target status is 'refused'")
        state_index = d["state_index"]
        if not isinstance(state_index, str) or not (
            state_index in (STATE_INDEX_INITIAL, STATE_INDEX_TERMINAL) or state_index.isdigit()
        ):
            raise self.fail(f"{path}.state_index", f"must be 'initial', 'terminal' or a decimal index "
                                                   f"(got {state_index!r})")
        return LaneExpectation(
            symbols=counts["symbols"],
            facts=counts["facts"],
            equations=counts["equations"],
            unknowns=counts["unknowns"],
            equation_statuses=equations,
            question_form=str(self.word(d["question_form"], f"{path}.question_form", QUESTION_FORMS)),
            target_status=str(target_status),
            target_reason=target_reason,
            state_index=state_index,
            resolved_by=self.text(d.get("resolved_by"), f"{path}.resolved_by", nullable=True),
            resolved_unit=self.text(d.get("resolved_unit"), f"{path}.resolved_unit", nullable=True),
            note=self.text(d.get("note"), f"{path}.note", nullable=True),
            checked=frozenset(k for k in ("resolved_by", "resolved_unit") if k in d),
        )


def lane_case_from_dict(data: object, *, source: str = "<lane>") -> LaneCase:
    """Read one lane case from plain JSON data (one lane line, already parsed).

    Parameters
    ----------
    data
        A ``MathProblemGraph`` dict with a ``problem_id`` (the case id), a
        ``text`` and an ``expected`` object.
    source
        Where the case comes from, for errors and divergences (``file:line``).

    Raises
    ------
    LaneError
        ``malformed_lane`` with ``path=source`` and the JSON path of the fault
        in ``detail``.

    Examples
    --------
    >>> lane_case_from_dict({"problem_id": "x"}, source="demo.jsonl:3")
    Traceback (most recent call last):
    ...
    ssbg.errors.LaneError: $.expected: is required (at demo.jsonl:3)
    """
    reader = _Reader(source)
    if not isinstance(data, dict):
        raise reader.fail("$", f"a lane line must be a JSON object (got {type(data).__name__})")
    if LANE_EXPECTED_KEY not in data:
        raise reader.fail(f"$.{LANE_EXPECTED_KEY}", "is required")
    case_id = reader.text(data.get("problem_id"), "$.problem_id")
    reader.text(data.get("text"), "$.text")
    expected = reader.expectation(data[LANE_EXPECTED_KEY], f"$.{LANE_EXPECTED_KEY}")
    problem_data = {k: v for k, v in data.items() if k != LANE_EXPECTED_KEY}
    try:
        problem = MathProblemGraph.from_dict(problem_data)
    except ProblemGraphError as exc:
        raise LaneError(f"{exc.path or '$'}: {exc.message} [{exc.reason}]", reason="malformed_lane", path=source,
                        detail=exc.path or "$") from None
    return LaneCase(str(case_id), source, problem, expected)


def load_lane(path: str | Path) -> tuple[LaneCase, ...]:
    """Read every case of one lane file (blank lines are skipped).

    Raises
    ------
    LaneError
        ``lane_missing`` when the file cannot be read; ``malformed_lane`` (with
        ``path="file:line"``) for a line that is not UTF-8, not JSON, not a
        valid problem or expectation, or that repeats a case id.

    Examples
    --------
    >>> load_lane("no/such/lane.jsonl")
    Traceback (most recent call last):
    ...
    ssbg.errors.LaneError: no lane file no/such/lane.jsonl (at no/such/lane.jsonl)
    """
    p = Path(path)
    if p.is_dir():
        raise LaneError(f"{p} is a folder, not a lane file (check_lanes takes folders)", reason="lane_missing",
                        path=str(p))
    try:
        raw_lines = read_regular(p, MAX_LANE_BYTES).splitlines()  # a FIFO or a device is refused, never read
    except FileNotFoundError:
        raise LaneError(f"no lane file {p}", reason="lane_missing", path=str(p)) from None
    except OSError as exc:
        why = exc.strerror or exc
        raise LaneError(f"cannot read lane file {p}: {why}", reason="lane_missing", path=str(p)) from None
    cases: list[LaneCase] = []
    seen: dict[str, str] = {}
    for lineno, raw in enumerate(raw_lines, start=1):
        source = f"{p}:{lineno}"
        if not raw.strip():
            continue
        try:
            data = jsontext.loads(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise _malformed(f"not UTF-8: {exc.reason} at byte {exc.start}", source, "$") from None
        except json.JSONDecodeError as exc:
            raise _malformed(f"not JSON: {exc.msg} (column {exc.colno})", source, "$") from None
        case = lane_case_from_dict(data, source=source)
        if case.case_id in seen:
            raise _malformed(f"case id {case.case_id!r} repeats {seen[case.case_id]}", source, "$.problem_id")
        seen[case.case_id] = source
        cases.append(case)
    return tuple(cases)


def lane_files(paths: Iterable[str | Path]) -> tuple[Path, ...]:
    """Expand lane paths: a file stays itself, a folder gives its ``*.jsonl`` files, sorted.

    Raises
    ------
    LaneError
        ``lane_missing`` for a path that does not exist or a folder without lanes.

    Examples
    --------
    >>> lane_files(["no/such/folder"])
    Traceback (most recent call last):
    ...
    ssbg.errors.LaneError: no lane file or folder no/such/folder (at no/such/folder)
    """
    files: list[Path] = []
    for item in paths:
        p = Path(item)
        if p.is_dir():
            found = sorted(f for f in p.glob(f"*{LANE_SUFFIX}") if f.is_file())
            if not found:
                raise LaneError(f"no *{LANE_SUFFIX} lane in folder {p}", reason="lane_missing", path=str(p))
            files.extend(found)
        elif p.is_file():
            files.append(p)
        else:
            raise LaneError(f"no lane file or folder {p}", reason="lane_missing", path=str(p))
    return tuple(files)


# ------------------------------------------------------------------ checking


def _compare(out: list[Divergence], case: LaneCase, name: str, expected: Value, got: Value) -> None:
    if expected != got:
        out.append(Divergence(case.case_id, case.source, name, expected, got))


def _check_equations(out: list[Divergence], case: LaneCase, graph: SemanticSymbolicBindingGraph) -> None:
    wanted = case.expected.equation_statuses
    for i in range(max(len(wanted), len(graph.equations))):
        where = f"equation_statuses[{i}]"
        if i >= len(graph.equations):
            _compare(out, case, where, wanted[i].lhs, None)
            continue
        if i >= len(wanted):
            _compare(out, case, where, None, graph.equations[i].lhs_symbol_id)
            continue
        exp, eq = wanted[i], graph.equations[i]
        _compare(out, case, f"{where}.lhs", exp.lhs, eq.lhs_symbol_id)
        _compare(out, case, f"{where}.kind", exp.kind, eq.operation_kind)
        _compare(out, case, f"{where}.status", exp.status, eq.admissibility_status)
        _compare(out, case, f"{where}.reason", exp.reason, eq.refusal_reason)
        _compare(out, case, f"{where}.propagated_from", exp.propagated_from, eq.propagated_from)
        if "proof" in exp.checked:
            _compare(out, case, f"{where}.proof", exp.proof, eq.unit_proof)
        if "offending_unit" in exp.checked:
            _compare(out, case, f"{where}.offending_unit", exp.offending_unit, eq.offending_unit)


def check_case(case: LaneCase, *, pack: UnitPack | None = None) -> tuple[Divergence, ...]:
    """Bind one case and list every field where the graph differs from its expectation.

    A binding that raises a typed error is itself a divergence (field
    ``binding``), so one broken case never hides the others.

    Examples
    --------
    >>> case = lane_case_from_dict({
    ...     "problem_id": "cash", "text": "Ann has 3 dollars. How many dollars does Ann have?",
    ...     "entities": ["Ann"], "initial_state": [{"entity": "Ann", "quantity": {"value": 3, "unit": "dollars"}}],
    ...     "operations": [], "unknown": {"entity": "Ann", "unit": "dollars"},
    ...     "expected": {"symbols": 4, "facts": 1, "equations": 0, "unknowns": 1, "equation_statuses": [],
    ...                  "question_form": "identity", "target_status": "bound", "target_reason": None,
    ...                  "state_index": "initial"}})
    >>> [d.format() for d in check_case(case)]
    ['<lane> cash: symbols: expected 4, got 3']
    """
    from ssbg.adapter import bind_math_problem_graph

    out: list[Divergence] = []
    try:
        graph = bind_math_problem_graph(case.problem, pack=pack)
    except SsbgError as exc:
        _compare(out, case, "binding", "graph", f"{type(exc).__name__}[{exc.reason}]")
        return tuple(out)
    exp = case.expected
    got_counts = (len(graph.symbols), len(graph.facts), len(graph.equations), len(graph.unknowns))
    for name, want, got in zip(_COUNT_FIELDS, (exp.symbols, exp.facts, exp.equations, exp.unknowns), got_counts,
                               strict=True):
        _compare(out, case, name, want, got)
    _check_equations(out, case, graph)
    if graph.unknowns:
        u = graph.unknowns[0]
        _compare(out, case, "question_form", exp.question_form, u.question_form)
        _compare(out, case, "target_status", exp.target_status, u.target_status)
        _compare(out, case, "target_reason", exp.target_reason, u.target_refusal_reason)
        _compare(out, case, "state_index", exp.state_index, u.state_index)
        if "resolved_by" in exp.checked:
            _compare(out, case, "resolved_by", exp.resolved_by, u.resolved_by)
        if "resolved_unit" in exp.checked:
            _compare(out, case, "resolved_unit", exp.resolved_unit, u.resolved_unit)
    return tuple(out)


def check_lane(path_or_cases: str | Path | Sequence[LaneCase], *, pack: UnitPack | None = None) -> LaneReport:
    """Check one lane file (or already loaded cases) and report every divergence.

    Parameters
    ----------
    path_or_cases
        A lane file path, or a sequence of :class:`LaneCase` values.
    pack
        The unit pack to bind with (``en_units_v1`` when None).

    Raises
    ------
    LaneError
        When the lane file is missing or malformed.

    Examples
    --------
    >>> check_lane([]).format()
    '0 cases, 0 divergences'
    """
    if isinstance(path_or_cases, (str, Path)):
        cases = load_lane(path_or_cases)
    else:
        cases = tuple(path_or_cases)
        for c in cases:
            if not isinstance(c, LaneCase):
                raise LaneError(f"check_lane takes a path or LaneCase values (got {type(c).__name__})",
                                reason="malformed_lane", path="<cases>")
    divergences = tuple(d for case in cases for d in check_case(case, pack=pack))
    return LaneReport(cases, divergences)


def check_lanes(paths: Iterable[str | Path], *, pack: UnitPack | None = None) -> LaneReport:
    """Check several lane files or folders (each folder's ``*.jsonl``, sorted) as one report.

    Case ids must be unique across all the lanes checked together (they are
    the ``problem_id`` of the corpus statistics).

    Raises
    ------
    LaneError
        ``lane_missing`` / ``malformed_lane`` as :func:`load_lane`, and
        ``malformed_lane`` for a case id that another lane already uses.

    Examples
    --------
    >>> check_lanes(["no/such/lanes"]).ok
    Traceback (most recent call last):
    ...
    ssbg.errors.LaneError: no lane file or folder no/such/lanes (at no/such/lanes)
    """
    cases: list[LaneCase] = []
    seen: dict[str, str] = {}
    for f in lane_files(paths):
        for case in load_lane(f):
            if case.case_id in seen:
                raise _malformed(f"case id {case.case_id!r} repeats {seen[case.case_id]}", case.source,
                                 "$.problem_id")
            seen[case.case_id] = case.source
            cases.append(case)
    return check_lane(cases, pack=pack)


def lane_coverage(cases: Iterable[LaneCase]) -> LaneCoverage:
    """What the cases exercise: kinds admitted / refused (root cause), reasons, forms, target reasons.

    Examples
    --------
    >>> lane_coverage([]).question_forms
    frozenset()
    """
    admitted: set[str] = set()
    refused: set[str] = set()
    root: set[str] = set()
    propagated: set[str] = set()
    forms: set[str] = set()
    targets: set[str] = set()
    for case in cases:
        for eq in case.expected.equation_statuses:
            if eq.status == "admitted":
                admitted.add(eq.kind)
            elif eq.reason is not None and eq.propagated_from is None:
                refused.add(eq.kind)
                root.add(eq.reason)
            elif eq.reason is not None:
                propagated.add(eq.reason)
        forms.add(case.expected.question_form)
        if case.expected.target_reason is not None:
            targets.add(case.expected.target_reason)
    return LaneCoverage(frozenset(admitted), frozenset(refused), frozenset(root), frozenset(propagated),
                        frozenset(forms), frozenset(targets))


# ------------------------------------------------------------------ command line


def _cmd_lane(args: argparse.Namespace) -> int:
    from ssbg.units import default_pack, load_pack

    pack = load_pack(args.pack) if args.pack else None
    report = check_lanes(args.paths, pack=pack)
    print(report.format())
    print(f"pack: {(pack or default_pack()).provenance}")  # every command names the pack its result is over
    return 0 if report.ok else 1


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``lane`` subcommand: ``ssbg lane PATH [PATH...] [--pack PACK]``.

    Exit codes: 0 when no case diverges, 1 when any does; a malformed or
    missing lane raises :class:`~ssbg.errors.LaneError`, which ``ssbg.cli.main``
    prints and maps to 2.

    Examples
    --------
    >>> parser = argparse.ArgumentParser(prog="ssbg")
    >>> register(parser.add_subparsers(dest="command"))
    >>> parser.parse_args(["lane", "data/lanes"]).paths
    ['data/lanes']
    """
    lane = subparsers.add_parser(
        "lane",
        help="check expected-shape lanes and print every divergence",
        description="Bind every lane (a problem with the shape its binding graph is expected to have: counts, "
        "statuses, reasons, question target) and print each divergence. Exit codes: 0 no divergence, 1 "
        "divergences, 2 a malformed or missing lane file.",
    )
    lane.add_argument("paths", nargs="+", metavar="PATH", help="lane file (.jsonl) or folder of lane files")
    lane.add_argument("--pack", help="a shipped pack's name or a folder by path (./mine) (default en_units_v1)")
    lane.set_defaults(func=_cmd_lane)
