"""An operand pointing at mentions by their final numbers (the extra mentions placed among the text's)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from ssbg.trace import Operand


def _renumbered(o: Operand, rank: Mapping[int, int]) -> Operand:
    """An operand (and its alternative and readings) pointing at mentions by their final numbers."""
    if o.readings:
        readings = tuple(r._replace(operand=_renumbered(r.operand, rank)) for r in o.readings)
        o = dataclasses.replace(o, readings=readings)
    alternative = o.alternative
    if alternative is not None and alternative.mention is not None:
        alternative = dataclasses.replace(alternative, mention=rank[alternative.mention])
    if o.mention is None:
        return o if alternative is o.alternative else dataclasses.replace(o, alternative=alternative)
    return dataclasses.replace(o, mention=rank[o.mention], alternative=alternative)
