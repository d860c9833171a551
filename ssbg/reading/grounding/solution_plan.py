"""A solution's numbers chosen at once (:func:`plan_solution`, ADR 0018): whether they contend for the
text's mentions (:func:`_contested`), and the assignment that chooses them (``linear_sum_assignment``
over a column per use of each mention, :data:`COVER_BONUS` for a first use), solved per connected
component past :data:`MAX_PLAN_CELLS`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ssbg.reading.cues import find_cue_occurrences
from ssbg.reading.grounding.candidates import Candidate
from ssbg.reading.grounding.formula_plan import REUSE_PENALTY
from ssbg.reading.grounding.literals import _LITERAL_IN_FORMULA, _literal_value, _value_key
from ssbg.reading.grounding.state import GroundingState

_FIRST_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+\.?\d*|\.\d+")


def _contested(g: GroundingState, formulas: Sequence[tuple[int, int | None, str, str | None]]) -> bool:
    """Whether a solution's numbers contend for the text's mentions, so that choosing them one by one could
    differ from choosing them at once: a value two mentions could give, a value a mention and an earlier
    result could give, or a mention two numbers could take where a constant's words could give it too.
    Only then is the solution planned at once (the plan reads every number's words: it costs)."""
    takers: dict[float, int] = {}
    results: set[float] = set()
    for _position, _at, formula, _unit in formulas:
        expr, eq, stated = formula.rpartition("=")
        for m in _LITERAL_IN_FORMULA.finditer(expr if eq else formula):
            value = _value_key(_literal_value(m.group()))
            givers = len(g.by_value.get(value, ())) + len(g.by_scaled.get(value, ()))
            givers += len(g.fraction_parts.get(value, ()))
            if givers > 1 or (givers and value in results):
                return True
            if givers:
                takers[value] = takers.get(value, 0) + 1
                if takers[value] > 1 and find_cue_occurrences(g.text, value):
                    return True
        written = _FIRST_NUMBER.search(stated) if eq else None
        if written is not None:
            results.add(_value_key(_literal_value(written.group())))
    return False


COVER_BONUS = 0.5
"""What reading a mention for the first time in a solution is worth in :func:`plan_solution`: a worked
solution uses what the problem states (a result of the same value does not hide an unused mention)."""


def plan_solution(g: GroundingState, rows: Sequence[tuple[int, Sequence[tuple[float, Candidate, str]]]]) -> None:
    """Choose the readings of every number of a solution at once (ADR 0018): the highest total score where
    each mention's first reading earns :data:`COVER_BONUS` and each further one costs
    :data:`REUSE_PENALTY`, solved as an assignment (``scipy.optimize.linear_sum_assignment``, with a
    column per use of each mention).  ``rows`` are the numbers (by offset) and their scored readings;
    the choice is kept on the state, by offset, for :func:`ground`.

    The matrix has a row per number and a column per use of a mention and per row: past
    :data:`MAX_PLAN_CELLS` cells (never for a corpus record; a hostile solution of thousands of
    numbers, issue 27) it is solved per connected component (rows that share no mention share
    nothing), and a component still past it is left unplanned (its numbers grounded one at a time,
    as an uncontested solution's are)."""
    mentions = _mention_uses(rows)
    if not mentions:
        return
    if len(rows) * (sum(mentions.values()) + len(rows)) <= MAX_PLAN_CELLS:
        _assign(g, rows, mentions)
        return
    for part in _components(rows):
        uses = _mention_uses(part)
        if uses and len(part) * (sum(uses.values()) + len(part)) <= MAX_PLAN_CELLS:
            _assign(g, part, uses)


MAX_PLAN_CELLS = 1_000_000
"""The largest assignment matrix :func:`plan_solution` solves at once (8 MB of costs)."""

_Rows = Sequence[tuple[int, Sequence[tuple[float, Candidate, str]]]]


def _mention_uses(rows: _Rows) -> dict[tuple[Any, ...], int]:
    """How many rows may read each mention."""
    mentions: dict[tuple[Any, ...], int] = {}
    for _at, scored in rows:
        for _score, c, _why in scored:
            if c.key[0] == "mention":
                mentions[c.key] = mentions.get(c.key, 0) + 1
    return mentions


def _components(rows: _Rows) -> list[list[tuple[int, Sequence[tuple[float, Candidate, str]]]]]:
    """The rows in groups that share a mention (each in the rows' order; groups by their first row)."""
    parent = list(range(len(rows)))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    owner: dict[tuple[Any, ...], int] = {}
    for r, (_at, scored) in enumerate(rows):
        for _score, c, _why in scored:
            if c.key[0] == "mention":
                other = owner.setdefault(c.key, r)
                a, b = root(r), root(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    groups: dict[int, list[tuple[int, Sequence[tuple[float, Candidate, str]]]]] = {}
    for r, row in enumerate(rows):
        groups.setdefault(root(r), []).append(row)
    return list(groups.values())


def _assign(g: GroundingState, rows: _Rows, mentions: Mapping[tuple[Any, ...], int]) -> None:
    """:func:`plan_solution`'s assignment over ``rows`` (``mentions``: their mentions' uses)."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    columns: list[tuple[tuple[Any, ...] | None, int]] = []  # (mention key, use) or (None, row) for a row's own
    first: dict[tuple[Any, ...], int] = {}  # a mention's first column (its uses follow)
    for mention_key, uses in sorted(mentions.items()):
        first[mention_key] = len(columns)
        columns.extend((mention_key, u) for u in range(uses))
    columns.extend((None, r) for r in range(len(rows)))
    big = 1e6
    cost = np.full((len(rows), len(columns)), big)
    own: list[tuple[Any, ...] | None] = []
    for r, (_at, scored) in enumerate(rows):
        best_other = next(((score, c) for score, c, _ in scored if c.key[0] != "mention"), None)
        own.append(None if best_other is None else best_other[1].key)
        by_key = {c.key: score for score, c, _ in scored}
        for key, score in by_key.items():  # the cells of the mentions it may read (every other stays big)
            if key in first:
                for use in range(mentions[key]):
                    cost[r, first[key] + use] = -(score + (COVER_BONUS if use == 0 else -REUSE_PENALTY * use))
        if best_other is not None:
            cost[r, len(columns) - len(rows) + r] = -best_other[0]
    picked_rows, picked_cols = linear_sum_assignment(cost)
    for r, col in zip(picked_rows.tolist(), picked_cols.tolist(), strict=True):
        if cost[r, col] >= big:
            continue
        key, _use = columns[col]
        chosen = key if key is not None else own[r]
        if chosen is not None:
            g.plan[rows[r][0]] = chosen
