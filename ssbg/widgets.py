"""ipywidgets front ends: the admissibility playground and the corpus browser.

The only ssbg module that imports ipywidgets.  Each widget is thin: it reads
its controls, calls a plain function of :mod:`ssbg.playground` or
:mod:`ssbg.browser` and shows the
returned HTML.  Nothing here decides anything, so tests of the logic never
need a widget, and tests of a widget only check the wiring.

A widget object keeps its controls as attributes (tests set their values) and
displays as its :attr:`box` in a notebook.

Examples
--------
>>> playground = AdmissibilityPlayground("apply_rate", ["dollars_per_hour", "hours"])
>>> playground.result.proof
'apply_rate: [money/time,time] -> money'
>>> playground.operands[1].value = "dollars"
>>> playground.result.reason
'unit_mismatch'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets

from ssbg.admissibility import OPERATION_KINDS
from ssbg.browser import ProblemDetail, filter_equations, filter_options, problem_choices, problem_detail
from ssbg.errors import AdmissibilityError, PackError
from ssbg.playground import (
    OPERAND_SLOTS,
    PlaygroundResult,
    complete_unit,
    evaluate,
    load_playground_pack,
    operand_roles,
)
from ssbg.reading.records import CorpusRecord
from ssbg.units import UnitPack

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["AdmissibilityPlayground", "CorpusBrowser"]

_OPTION_LIMIT = 400  # completions sent to the browser per field (the whole en_units_v1 pack fits)
_LABEL_STYLE = {"description_width": "110px"}


def _field_layout() -> Any:
    """A fresh Layout per field: hiding one operand must not hide the others."""
    return ipywidgets.Layout(width="480px")


class AdmissibilityPlayground:
    """Pick an operation kind, type operand units, see the proof or the typed refusal live.

    Parameters
    ----------
    kind
        The initial operation kind (one of ``OPERATION_KINDS``).
    units
        The initial operand unit texts (at most :data:`~ssbg.playground.OPERAND_SLOTS`).
    lhs_unit
        An initial declared lhs unit (blank: none).
    pack
        An initial pack name or folder (blank: ``en_units_v1``).

    Attributes
    ----------
    kind, count, operands, lhs, pack, output
        The controls: a Dropdown, a BoundedIntText, one Combobox per operand
        slot (completing from the pack), a Combobox, a Text and the HTML output.
    box
        The widget to display.
    result
        The :class:`~ssbg.playground.PlaygroundResult` currently shown.

    Raises
    ------
    AdmissibilityError
        ``unknown_operation`` for an initial kind outside the vocabulary,
        ``operand_arity`` for more initial units than the playground has slots.
    """

    result: PlaygroundResult

    def __init__(
        self,
        kind: str = "apply_rate",
        units: Sequence[str | None] = ("dollars_per_hour", "hours"),
        *,
        lhs_unit: str | None = None,
        pack: str | Path | None = None,
    ) -> None:
        if kind not in OPERATION_KINDS:
            raise AdmissibilityError(
                f"unknown_operation: {kind!r} is not one of {list(OPERATION_KINDS)}",
                reason="unknown_operation",
                detail=str(kind),
            )
        if isinstance(units, str) or len(units) > OPERAND_SLOTS:
            raise AdmissibilityError(
                f"operand_arity: the playground takes a list of at most {OPERAND_SLOTS} units (got {units!r})",
                reason="operand_arity",
                detail=str(units),
            )
        self._packs: dict[str, UnitPack] = {}
        self.kind = ipywidgets.Dropdown(
            options=OPERATION_KINDS, value=kind, description="operation", style=_LABEL_STYLE
        )
        self.count = ipywidgets.BoundedIntText(
            value=max(len(units), 1), min=1, max=OPERAND_SLOTS, description="operands", style=_LABEL_STYLE
        )
        self.operands = tuple(
            ipywidgets.Combobox(
                value=(units[i] or "") if i < len(units) else "",
                placeholder="unit, e.g. hours (blank: no unit)",
                ensure_option=False,
                continuous_update=True,
                style=_LABEL_STYLE,
                layout=_field_layout(),
            )
            for i in range(OPERAND_SLOTS)
        )
        for i, field in enumerate(self.operands, start=1):
            field.add_class(f"ssbg-operand-{i}")
        self.lhs = ipywidgets.Combobox(
            value=lhs_unit or "",
            placeholder="optional declared result unit",
            description="lhs unit",
            ensure_option=False,
            style=_LABEL_STYLE,
            layout=_field_layout(),
        )
        self.lhs.add_class("ssbg-lhs")
        self.pack = ipywidgets.Text(
            value="" if pack is None else str(pack),
            placeholder="en_units_v1 (default), or a pack folder",
            description="pack",
            continuous_update=False,  # load a pack when the text is committed, not per keystroke
            style=_LABEL_STYLE,
            layout=_field_layout(),
        )
        self.output = ipywidgets.HTML()
        self.output.add_class("ssbg-playground-output")
        self.box = ipywidgets.VBox([self.kind, self.count, *self.operands, self.lhs, self.pack, self.output])
        self.box.add_class("ssbg-playground")
        for control in (self.kind, self.count, *self.operands, self.lhs, self.pack):
            control.observe(self._on_change, names="value")
        self.refresh()

    def _loaded_pack(self) -> UnitPack | str:
        """The pack the text names, loaded once per text; the text itself when it does not load."""
        text = str(self.pack.value).strip()
        if text not in self._packs:
            try:
                self._packs[text] = load_playground_pack(text)
            except PackError:
                return text  # evaluate() turns it into the typed refusal
        return self._packs[text]

    def _on_change(self, change: dict[str, Any]) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Re-read every control, re-evaluate, and redraw labels, completions and output."""
        count = int(self.count.value)
        roles = operand_roles(self.kind.value, count)
        pack = self._loaded_pack()
        completing = pack if isinstance(pack, UnitPack) else None
        for i, field in enumerate(self.operands):
            visible = i < count
            field.layout.display = None if visible else "none"
            field.description = f"{i + 1}. {roles[i]}" if visible else f"{i + 1}. unused"
            if visible:
                field.options = complete_unit(field.value, completing, _OPTION_LIMIT) if completing else ()
        self.lhs.options = complete_unit(self.lhs.value, completing, _OPTION_LIMIT) if completing else ()
        units = [field.value for field in self.operands[:count]]
        self.result = evaluate(self.kind.value, units, lhs_unit=self.lhs.value, pack=pack)
        self.output.value = self.result.to_html()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.box._repr_mimebundle_(**kwargs)


_ANY = "(any)"


def _choices(values: Sequence[str]) -> list[tuple[str, str]]:
    return [(_ANY, ""), *((v, v) for v in values)]


class CorpusBrowser:
    """Filter an equation table by corpus, reason, kind and unit; pick a problem; see its detail.

    Parameters
    ----------
    equations
        The equation table (``ssbg.stats.batch.run_batch(...).equations``).
    problems
        The problem table (its row adds outcome, question form and answer units).
    records
        Corpus records by ``(corpus, problem_id)``
        (:func:`~ssbg.browser.index_records`): the picked problem's text is
        highlighted and its graph drawn.
    pack
        The pack the tables were built with (the corpus pack, ``en_units_v1+en_counts_v2+en_measures_v1``, when None).
    limit
        At most this many problems are listed.

    Attributes
    ----------
    corpus, reason, kind, unit, problem, matches, detail
        The controls: three Dropdowns (blank: any), a Combobox of the table's
        units, a Select of the matching problems, a count line, the detail HTML.
    filtered
        The equation rows passing the filters.
    shown
        The :class:`~ssbg.browser.ProblemDetail` on display (None when no problem matches).
    box
        The widget to display.

    Examples
    --------
    >>> import pandas as pd
    >>> eq = pd.DataFrame({"corpus": ["c", "c"], "problem_id": ["p1", "p2"], "index": [0, 0],
    ...     "kind": ["add", "divide"], "status": ["refused", "admitted"], "reason": ["unknown_unit", None],
    ...     "root_cause": [True, False], "propagated_from": [None, None], "lhs_unit": ["apples", "mph"],
    ...     "operand_units": ["apples;apples", "miles;hours"], "offending_unit": ["apples", None],
    ...     "unknown_units": ["apple", None], "blocking_units": ["apple", None], "unit_proof": ["unverified", "x"],
    ...     "span_text": ["", ""]})
    >>> browser = CorpusBrowser(eq)
    >>> browser.unit.value = "hours"
    >>> browser.shown.problem_id
    'p2'
    """

    filtered: pd.DataFrame
    shown: ProblemDetail | None

    def __init__(
        self,
        equations: pd.DataFrame,
        problems: pd.DataFrame | None = None,
        records: Mapping[tuple[str, str], CorpusRecord] | None = None,
        *,
        pack: UnitPack | None = None,
        limit: int = 500,
    ) -> None:
        options = filter_options(equations)
        self.equations = equations
        self.problems = problems
        self.records: Mapping[tuple[str, str], CorpusRecord] = records or {}
        self.pack_value = pack
        self.limit = limit
        self.corpus = ipywidgets.Dropdown(options=_choices(options["corpus"]), description="corpus")
        self.reason = ipywidgets.Dropdown(options=_choices(options["reason"]), description="reason")
        self.kind = ipywidgets.Dropdown(options=_choices(options["kind"]), description="kind")
        self.unit = ipywidgets.Combobox(
            options=options["unit"], placeholder="any unit", description="unit", ensure_option=False
        )
        for control, name in ((self.corpus, "corpus"), (self.reason, "reason"), (self.kind, "kind")):
            control.add_class(f"ssbg-filter-{name}")
        self.unit.add_class("ssbg-filter-unit")
        self.matches = ipywidgets.HTML()
        self.problem = ipywidgets.Select(
            options=[], rows=8, description="problem", layout=ipywidgets.Layout(width="95%")
        )
        self.problem.add_class("ssbg-problem-select")
        self.detail = ipywidgets.HTML()
        self.detail.add_class("ssbg-browser-detail")
        filters = ipywidgets.HBox(
            [self.corpus, self.reason, self.kind, self.unit], layout=ipywidgets.Layout(flex_flow="row wrap")
        )
        self.box = ipywidgets.VBox([filters, self.matches, self.problem, self.detail])
        self.box.add_class("ssbg-corpus-browser")
        self.shown = None
        self._keys: list[tuple[str, str]] = []
        self._updating = False
        for control in (self.corpus, self.reason, self.kind, self.unit):
            control.observe(self._on_filter, names="value")
        self.problem.observe(self._on_pick, names="value")
        self.refilter()

    def _on_filter(self, change: dict[str, Any]) -> None:
        self.refilter()

    def _on_pick(self, change: dict[str, Any]) -> None:
        if not self._updating:
            self.show()

    def refilter(self) -> None:
        """Apply the filters, list the matching problems (keeping the pick when it still matches)."""
        self.filtered = filter_equations(
            self.equations,
            corpus=self.corpus.value,
            reason=self.reason.value,
            kind=self.kind.value,
            unit=self.unit.value,
            pack=self.pack_value,
        )
        choices = problem_choices(self.filtered, limit=self.limit)
        listed = len(choices)
        total = len(problem_choices(self.filtered))
        more = f" (first {listed} listed)" if total > listed else ""
        self.matches.value = (
            f'<span class="ssbg-matches">{len(self.filtered)} equations in {total} problem(s) match{more}</span>'
        )
        current = self._keys[self.problem.value] if self.problem.value is not None else None
        keys = [key for _, key in choices]
        self._updating = True  # one show() per refilter, not one per trait change
        try:
            self._keys = keys
            self.problem.options = [(label, i) for i, (label, _) in enumerate(choices)]
            self.problem.value = keys.index(current) if current in keys else (0 if keys else None)
        finally:
            self._updating = False
        self.show()

    def show(self) -> None:
        """Show the picked problem's detail (or say that nothing matches)."""
        index = self.problem.value
        if index is None:
            self.shown = None
            self.detail.value = '<div class="ssbg-problem-detail">no equation matches these filters</div>'
            return
        key = self._keys[index]
        corpus, problem_id = key
        self.shown = problem_detail(
            corpus,
            problem_id,
            equations=self.equations,
            problems=self.problems,
            record=self.records.get(key),
            pack=self.pack_value,
        )
        self.detail.value = self.shown.to_html()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.box._repr_mimebundle_(**kwargs)
