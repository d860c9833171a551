"""The steps of one problem's solution (:class:`StepBuilder`): formulas, solved equations and corpus
equations parsed, grounded and flattened into :class:`~ssbg.trace.Step` values, and the
:class:`~ssbg.trace.Trace` they build; :data:`MAX_FORMULAS` bounds a record's work."""

from __future__ import annotations

import dataclasses
import operator
import re
from collections.abc import Callable, Sequence
from typing import Any

from ssbg.errors import ImportRefusal, ProblemGraphError
from ssbg.numbers import check_magnitude, number_or_none, parse_number
from ssbg.reading.evidence import prose_twins
from ssbg.reading.formula import BinOp, Literal, Node, Unity, Var, close, isolate, parse_equation, parse_formula
from ssbg.reading.grounding.candidates import CANDIDATE_RULES, Candidate
from ssbg.reading.grounding.formula_plan import plan_formula
from ssbg.reading.grounding.ground_literal import ground
from ssbg.reading.grounding.literals import _LITERAL_IN_FORMULA, _literal_value
from ssbg.reading.grounding.renumbering import _renumbered
from ssbg.reading.grounding.scoring import _scored
from ssbg.reading.grounding.solution_plan import _contested, plan_solution
from ssbg.reading.grounding.state import GroundingState, TextReadings
from ssbg.reading.grounding.trees import _chain, formula_literals
from ssbg.trace import Mention, Operand, Step, Trace
from ssbg.units import UnitPack, default_pack

MAX_FORMULAS = 500  # formulas one record may try (GSM8K solutions have up to about 30)

_APPLY: dict[str, Callable[[float, float], float]] = {
    "add": operator.add,
    "subtract": operator.sub,
    "multiply": operator.mul,
    "divide": operator.truediv,
}

_FRACTION_RESULT = re.compile(r"(\d+)/(\d+)")

_WRITTEN_FRACTION = re.compile(r"\d\s*/\s*\d")  # "2/5 times", "1/2 cup": a fraction the text writes


def _equation_offsets(equation: str) -> tuple[int, ...] | None:
    """The offsets of an equation's numbers as :func:`~ssbg.reading.formula.parse_equation` numbers them:
    each side from 0, so only an equation whose numbers are on one side has them (``X=(54.0-28.0)``)."""
    left, eq, right = equation.partition("=")
    on_left = [m.start() for m in _LITERAL_IN_FORMULA.finditer(left)]
    on_right = [len(left) + len(eq) + m.start() for m in _LITERAL_IN_FORMULA.finditer(right)]
    if on_left and on_right:
        return None
    return tuple(on_left or on_right)


class StepBuilder:
    """Accumulates the steps of one problem's solution and builds its :class:`~ssbg.trace.Trace`.

    Every method that cannot ground or parse raises
    :class:`~ssbg.errors.ImportRefusal` (its ``problem_id``, ``corpus`` and
    ``path`` filled in), so a reader turns it into a refused record.  What each
    number stands for is :func:`ground`'s answer over :attr:`state`.

    ``solution`` is the corpus's worked solution, when it has one: a number that
    neither the text, an earlier step nor a cued constant explains may still be
    one the solution's prose states ("everyone has 2 legs"); it then grounds to a
    mention of source ``solution`` (real offsets into the solution, annotations
    excluded).  ``shared`` is what the rules read of the text and its mentions
    alone (:class:`~ssbg.reading.grounding.state.TextReadings`), handed over by a
    reader that grounds many solutions of one text; without it the state reads
    its own.
    """

    def __init__(
        self,
        problem_id: str,
        corpus: str,
        text: str,
        mentions: Sequence[Mention],
        *,
        question_span: tuple[int, int] | None = None,
        answer_unit: str | None = None,
        gold_answer_unit: str | None = None,
        answer: float | None = None,
        solution: str | None = None,
        where: str | None = None,
        pack: UnitPack | None = None,
        shared: TextReadings | None = None,
    ) -> None:
        self.problem_id = problem_id
        self.corpus = corpus
        self.question_span = question_span
        self.answer_unit = answer_unit
        self.gold_answer_unit = gold_answer_unit
        self.answer = answer
        self.where = where
        self.state = GroundingState(text, mentions, default_pack() if pack is None else pack, solution, shared)
        self._formulas = 0  # formulas tried (MAX_FORMULAS bounds a corrupt record's work)
        self._entered: dict[tuple[Any, ...], tuple[tuple[int, ...], tuple[tuple[str, ...], ...]]] = {}
        self._fraction_results: set[str] = set()  # results stated as fractions ("= 8/3"), as written
        # an expression -> its tree (parse), with what its merge read: the fraction results so far, the mentions
        self._trees: dict[str, tuple[int, tuple[Mention, ...], Node]] = {}

    @property
    def steps(self) -> list[Step]:
        """The steps so far."""
        return self.state.steps

    @property
    def step_values(self) -> list[float]:
        """The value of each step so far."""
        return self.state.step_values

    @property
    def blanked_solution(self) -> str:
        """The solution with its annotations blanked (:func:`blank_annotations`); ``""`` without one."""
        return self.state.blanked_solution

    def refusal(self, reason: str, message: str, detail: str | None = None) -> ImportRefusal:
        """An :class:`ImportRefusal` about this problem."""
        return ImportRefusal(
            message, reason=reason, path=self.where, detail=detail, problem_id=self.problem_id, corpus=self.corpus
        )

    def merge(self, a: Literal, b: Literal) -> Literal | None:
        """Fold ``a/b`` into one literal when a fraction or percent mention has that value."""
        if b.value == 0:
            return None
        value = a.value / b.value
        if f"{a.text}/{b.text}" in self._fraction_results:
            return Literal(f"{a.text}/{b.text}", value, None, a.position)  # "8/3", an earlier result written so
        percent = b.value == 100  # "20/100" for a mention of 20%
        scales = self.state.scaled if percent else ()
        for i, m in enumerate(self.state.mentions):
            if m.kind == "fraction" and 0 < float(m.value) < 1 and close(1 - float(m.value), value):
                return Literal(f"{a.text}/{b.text}", value, None, a.position)  # "2/3" for the rest of "a third"
            if (close(float(m.value), value) and (m.kind == "fraction" or _WRITTEN_FRACTION.search(m.text))) or (
                percent
                and (scaled := scales[i]) is not None
                and close(scaled, value)
                and close(float(m.value), a.value)
            ):
                return Literal(f"{a.text}/{b.text}", value, None, a.position)
        return None

    def parse(self, expr: str) -> Node:
        """``parse_formula(expr, merge=self.merge)``, each expression parsed once: the plan, the result check and
        the add of one formula (and its retries) take the same tree.  It is parsed again only where what
        :meth:`merge` reads has changed since: a result stated as a fraction (``= 8/3``) or a mention a rule
        widened."""
        kept = self._trees.get(expr)
        mentions = self.state.mentions
        if kept is not None and kept[0] == len(self._fraction_results) and kept[1] is mentions:
            return kept[2]
        tree = parse_formula(expr, merge=self.merge)
        self._trees[expr] = (len(self._fraction_results), mentions, tree)
        return tree

    def _emit(
        self,
        node: BinOp,
        formula: str,
        top: bool,
        result: float | None,
        unit: str | None,
        at: int | None = None,
        per: tuple[str, ...] = (),
    ) -> tuple[int, float]:
        """Append the step of ``node`` (after the implicit steps of its sub-expressions): its index and value.
        The top step states ``result``, ``unit``, where its formula is written (``at``) and ``per``.

        A chain of one additive operator is one step (``a - b - c``); every other operator is a step of
        its own.  The value is computed from the operands' values as they are emitted, in the order
        :attr:`BinOp.value` computes it, so each sub-tree is evaluated once.
        """
        op = node.op
        items = _chain(node)
        operands: list[Operand] = []
        values: list[float] = []
        for item in items:
            if isinstance(item, Literal):
                operands.append(ground(self.state, item, op))
                values.append(item.value)
            elif isinstance(item, BinOp):
                index, value = self._emit(item, formula, False, None, None)
                operands.append(Operand(step=index))
                values.append(value)
            elif isinstance(item, Unity):  # the lone unknown's coefficient in an equation solved by collecting terms
                operands.append(Operand(constant="unknown_itself", text=item.name))
                values.append(1.0)
            else:
                raise self.refusal("unsupported_operation", f"the unknown {item.name} is not isolated", formula)
        apply = _APPLY[op]
        value = values[0]
        try:
            for right in values[1:]:
                value = apply(value, right)
        except ZeroDivisionError:
            raise self.refusal("unparseable_formula", f"division by zero in {formula!r}", detail=formula) from None
        stated = check_magnitude(result if top and result is not None else value)  # 1e15 * 1e15 refuses
        if top:
            step = Step(op, tuple(operands), stated, unit, formula, False, at, per)
        else:
            step = Step(op, tuple(operands), stated, None, formula, True)
        return self.state.push(step, stated), value

    def add_formula(
        self,
        formula: str,
        *,
        unit: str | None = None,
        position: int | None = None,
        optional: bool = False,
        at: int | None = None,
        per: tuple[str, ...] = (),
    ) -> bool:
        """Parse ``formula`` (``expr`` or ``expr=result``) and append its steps.

        ``position`` is the formula's offset in the solution (to pick the nearest
        number the prose states); ``at`` is where the formula's own text starts there,
        when the solution writes it verbatim (an annotation's body): each operand then
        records its literal's offset, and the words of the line are evidence for it.
        ``per`` are the units the context of the stated ``unit`` makes it a rate of
        (:attr:`~ssbg.trace.Step.per`).  An ``optional`` formula (one read from un-annotated prose) that cannot be
        grounded adds nothing and returns False instead of refusing.  A formula
        that is a single number adds no step.

        Raises
        ------
        ImportRefusal
            ``unparseable_formula`` / ``operand_not_found`` (unless ``optional``).
        """
        expr, eq, stated = formula.rpartition("=")
        if not eq:
            expr, stated = formula, ""
        result: float | None = None
        written = stated.strip()
        fraction = _FRACTION_RESULT.fullmatch(written) if "/" in written else None
        if fraction is not None:  # "= 2/3": a result the prose writes as a fraction, later written so again
            denominator = parse_number(fraction.group(2))
            if denominator == 0:
                raise self.refusal("unparseable_formula", f"division by zero in {formula!r}", detail=formula)
            result = parse_number(fraction.group(1)) / denominator
            self._fraction_results.add(fraction.group())
        elif written:
            result = number_or_none(written.rstrip("%"))  # a number out of range refuses the record
            if result is None:
                if optional:
                    return False
                raise self.refusal("unparseable_formula", f"result {stated!r} is not a number", formula) from None
        saved = self._saved() if optional else None
        g = self.state
        self._enter(expr, position, at)
        try:
            tree = self.parse(expr)
            self.add_tree(tree, formula=formula.strip(), result=result, unit=unit, at=at, per=per)
        except ImportRefusal:
            if saved is None:
                raise
            self._restore(saved)
            return False
        finally:
            g.position = g.formula_at = g.literal_offsets = None
            g.twins = ()
        return True

    def _enter(self, expr: str, position: int | None, at: int | None) -> None:
        """Set the state for a formula whose expression ``expr`` is written at ``at`` in the solution."""
        g = self.state
        g.position = position
        g.formula_text = expr
        if at is not None:
            g.formula_at = at
            key = (position, at, expr)
            entered = self._entered.get(key)
            if entered is None:
                found = list(_LITERAL_IN_FORMULA.finditer(expr))
                twins: tuple[tuple[str, ...], ...] = ()
                if position is not None and g.solution is not None:
                    line_start = g.blanked_solution.rfind("\n", 0, position) + 1
                    values = tuple(_literal_value(m.group()) for m in found)
                    twins = prose_twins(g.blanked_solution[line_start:position], values)
                entered = self._entered[key] = (tuple(m.start() for m in found), twins)
            g.literal_offsets, g.twins = entered

    def plan_annotations(self, formulas: Sequence[tuple[int, int | None, str, str | None]]) -> None:
        """Plan the readings of every number of a solution at once (:func:`plan_solution`).

        ``formulas`` are the solution's formulas in order: ``(position, at, formula, stated unit)``, ``at``
        the offset of an annotation's body (None for arithmetic read from the prose, whose numbers are
        grounded when added but whose results the plan counts on).  A formula that does not parse is
        left out (adding it refuses later, as it would anyway).
        """
        g = self.state
        if not _contested(g, formulas):
            return  # every number has at most one mention to take, used once: the plan would change nothing
        rows: list[tuple[int, list[tuple[float, Candidate, str]]]] = []
        g.virtual = []
        try:
            for position, at, formula, unit in formulas:
                expr, eq, stated = formula.rpartition("=")
                if not eq:
                    expr, stated = formula, ""
                self._enter(expr, position, at)
                try:
                    tree = self.parse(expr)
                    if not isinstance(tree, BinOp):
                        continue
                    value = parse_number(stated.strip().rstrip("%")) if stated.strip() else tree.value
                except (ImportRefusal, ValueError, ZeroDivisionError):
                    continue
                if at is not None:
                    for lit, op in formula_literals(tree):
                        where = g.literal_at(lit)
                        if where is None:
                            continue
                        candidates: list[Candidate] = []
                        for _name, propose in CANDIDATE_RULES:
                            candidates.extend(propose(g, lit, op))
                        if candidates:
                            scored = _scored(g, lit, candidates, op)
                            g.planned_scores[where] = (lit.value, scored)
                            rows.append((where, scored[:6]))
                g.virtual.append((position, value, unit))
        finally:
            g.virtual = None
            g.position = g.formula_at = g.literal_offsets = None
            g.twins = ()
            g.clear_contexts()
        plan_solution(g, rows)

    def _saved(self) -> tuple[int, set[int], int]:
        return len(self.state.steps), set(self.state.used), len(self.state.quoted)

    def _restore(self, saved: tuple[int, set[int], int]) -> None:
        """Undo the steps and extra mentions added since :meth:`_saved` (a formula that did not ground)."""
        g = self.state
        del g.steps[saved[0] :], g.step_values[saved[0] :], g.quoted[saved[2] :]
        for position in [p for p, top in g.step_at.items() if top >= saved[0]]:
            del g.step_at[position]
        g.used = saved[1]

    def add_solved(self, equation: str, *, position: int | None = None) -> tuple[str, float] | None:
        """Append the steps that solve an equation over one unknown the solution's prose writes
        (``x + x + 4 = 120`` gives ``(120 - 4) / (1 + 1)``, see :func:`~ssbg.reading.formula.isolate`),
        when every number in it grounds: (the unknown's name, its value).  An equation that does not
        ground, has no unknown or two, or only restates a value (``x = 25``) adds nothing and gives None.

        >>> from ssbg.reading.mentions import extract_mentions
        >>> text = "There were 120 guests, 4 more men than women. How many women?"
        >>> b = StepBuilder("a1", "example", text, extract_mentions(text))
        >>> b.add_solved("x + x + 4 = 120"), b.add_solved("x = 58")
        (('x', 58.0), None)
        >>> [(s.op, [o.source for o in s.operands]) for s in b.build().steps]
        [('subtract', ['mention', 'mention']), ('add', ['constant', 'constant']), ('divide', ['step', 'step'])]
        """
        saved = self._saved()
        self.state.position = position
        try:
            tree, name = isolate(*parse_equation(equation, merge=self.merge), equation)
            if name is None or not isinstance(tree, BinOp):
                return None
            value = tree.value
            self.add_tree(tree, formula=equation.strip())
        except (ImportRefusal, ZeroDivisionError):
            self._restore(saved)
            return None
        finally:
            self.state.position = None
        return name, value

    def add_equation(
        self, equation: str, *, result: float | None = None, aligned: Sequence[int | None] | None = None
    ) -> str | None:
        """Append the steps of an equation over at most one unknown, solved by inverting operations.

        ``X=(27.0*16.0)``, ``41 + X = 87`` and ``25000.0-(1500.0*8.0)=money`` all
        give arithmetic steps; an unknown that occurs twice is algebra and refuses
        (``unsupported_operation``).  ``aligned`` maps each number of the
        equation, by its order in the text, to a mention (gold alignments).
        Returns the unknown's name, or None when the equation has none.
        """
        g = self.state
        try:
            left, right = parse_equation(equation, merge=None if aligned is not None else self.merge)
            tree, name = isolate(left, right, equation)
            g.aligned = aligned
            g.formula_at, g.literal_offsets, g.formula_text = 0, _equation_offsets(equation), equation
            self.add_tree(tree, formula=equation.strip(), result=result)
        except ImportRefusal as exc:
            if exc.problem_id is None:
                raise self.refusal(exc.reason, exc.message, exc.detail) from None
            raise
        finally:
            g.aligned = g.formula_at = g.literal_offsets = None
        return name

    def add_tree(
        self,
        node: Node,
        *,
        formula: str,
        result: float | None = None,
        unit: str | None = None,
        at: int | None = None,
        per: tuple[str, ...] = (),
    ) -> None:
        """Append the steps of a parsed formula (its root step states ``result`` and ``unit``).

        A number of the formula never grounds as one of the formula's own sub-steps: in
        ``10*2 + 20`` the ``20`` is a number written, not the ``10*2`` beside it.  After
        :data:`MAX_FORMULAS` formulas a record refuses as ``record_too_large`` (grounding looks
        back over earlier steps and the prose, so a corrupt record of thousands would take
        quadratic time; optional prose formulas past the bound are skipped).
        """
        self._formulas += 1
        if self._formulas > MAX_FORMULAS:
            raise self.refusal("record_too_large", f"more than {MAX_FORMULAS} formulas", formula)
        self.state.own_steps_from = len(self.state.steps)
        try:
            if isinstance(node, BinOp):  # a formula that is one number adds no step
                plan_formula(self.state, formula_literals(node))
                top, _ = self._emit(node, formula, True, result, unit, at, per)
                position = self.state.position
                if position is not None:
                    self.state.step_at[position] = top

            elif isinstance(node, Var):
                raise self.refusal("unsupported_operation", f"the unknown {node.name} is not isolated", formula)
        except ImportRefusal as exc:
            if exc.problem_id is None:
                raise self.refusal(exc.reason, exc.message, exc.detail) from None
            raise
        finally:
            self.state.own_steps_from = len(self.state.steps)
            self.state.formula_plan.clear()
            self.state.scores.clear()

    def build(self) -> Trace:
        """The trace; ``no_equation`` when no formula produced a step."""
        g = self.state
        if not g.steps:
            raise self.refusal("no_equation", "no arithmetic step in the solution")
        answer_unit = self.answer_unit
        steps = tuple(g.steps)
        mentions = g.mentions
        quotes_solution = any(m.source == "solution" for m in g.quoted)
        if g.quoted:  # extra mentions join the text's (by offset) or follow them (the solution's)
            base = len(g.mentions)
            extra = [(m.source != "text", m.start, base + k) for k, m in enumerate(g.quoted)]
            order = sorted([(False, m.start, i) for i, m in enumerate(g.mentions)] + extra)
            rank = {old: new for new, (_, _, old) in enumerate(order)}
            every = (*g.mentions, *g.quoted)
            mentions = tuple(every[old] for _, _, old in order)
            steps = tuple(
                dataclasses.replace(step, operands=tuple(_renumbered(o, rank) for o in step.operands)) for step in steps
            )
        try:
            return Trace(
                self.problem_id,
                self.corpus,
                g.text,
                mentions,
                steps,
                question_span=self.question_span,
                answer_unit=answer_unit,
                gold_answer_unit=self.gold_answer_unit,
                answer=self.answer,
                solution=g.solution if quotes_solution else None,
            )
        except ProblemGraphError as exc:
            raise self.refusal("malformed_record", exc.message, exc.path) from None
