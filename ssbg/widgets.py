"""ipywidgets front ends: the admissibility playground and the corpus browser.

The only ssbg module that imports ipywidgets.  Each widget is thin: it reads
its controls, calls a plain function of :mod:`ssbg.interactive` and shows the
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

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import ipywidgets

from ssbg.admissibility import OPERATION_KINDS
from ssbg.errors import AdmissibilityError, PackError
from ssbg.interactive import (
    OPERAND_SLOTS,
    PlaygroundResult,
    complete_unit,
    evaluate,
    load_playground_pack,
    operand_roles,
)
from ssbg.units import UnitPack

__all__ = ["AdmissibilityPlayground"]

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
        The initial operand unit texts (at most :data:`~ssbg.interactive.OPERAND_SLOTS`).
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
        The :class:`~ssbg.interactive.PlaygroundResult` currently shown.

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
