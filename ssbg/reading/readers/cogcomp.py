"""Reader of the CogComp arithmetic sets (Roy & Roth, AAAI 2017): ``data/questions.json``.

One JSON array of ``{iIndex, sQuestion, quants, lAlignments, lEquations,
lSolutions, rates}``.  ``quants`` are the text's numbers in order;
``lAlignments`` gives, for each number of the equation in order, the index of
the quantity it is: binding uses these gold alignments directly (no value
matching), after pairing each quantity with the mention extracted at it.
``rates`` (quantity indices, ``-1`` for the question) are gold rate flags:
:func:`gold_rate_flags` reads them for the agreement measure.

Examples
--------
>>> t = cogcomp_trace({"iIndex": 2, "sQuestion": "There were 28.0 bales of hay in the barn . Tim stacked bales "
...     "today . There are now 54.0 bales in the barn . How many bales did he store ?", "quants": [28.0, 54.0],
...     "lAlignments": [1, 0], "lEquations": ["X=(54.0-28.0)"], "lSolutions": [26.0], "rates": []})
>>> [(s.op, [t.mentions[o.mention].text for o in s.operands]) for s in t.steps]
[('subtract', ['54.0 bales', '28.0 bales'])]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ssbg.errors import ImportRefusal
from ssbg.numbers import check_json_number, number_or_none
from ssbg.reading.grounding import StepBuilder
from ssbg.reading.mentions import find_question_span
from ssbg.reading.problem_text import read_problem_text
from ssbg.reading.readers.common import StagedReader, iter_json_array, json_array_builder, numbers_of, text_field
from ssbg.trace import Mention, Trace
from ssbg.units import UnitPack, default_pack

__all__ = ["CORPUS", "build_cogcomp_record", "cogcomp_trace", "gold_rate_flags", "pair_quantities", "read_cogcomp"]

CORPUS = "cogcomp"


def _numbers(data: dict[str, Any], name: str, *, integers: bool) -> list[float]:
    values = data.get(name)
    if not isinstance(values, list):
        raise ImportRefusal(f"'{name}' must be a list", reason="malformed_record", detail=name)
    out: list[float] = []
    with numbers_of(name):
        for i, v in enumerate(values):
            if integers and (isinstance(v, bool) or not isinstance(v, int)):
                raise ImportRefusal(f"'{name}' must be a list of ints", reason="malformed_record", detail=name)
            out.append(check_json_number(v, field=f"{name}[{i}]"))
    return out


def pair_quantities(quants: Sequence[float], mentions: Sequence[Mention]) -> list[int | None]:
    """For each gold quantity (in text order), the index of the mention holding it (None when none does).

    >>> from ssbg.reading.mentions import extract_mentions
    >>> pair_quantities([3.0, 2.0], extract_mentions("There are 3.0 eggs in each of 2.0 boxes."))
    [0, 1]
    """
    out: list[int | None] = []
    cursor = 0
    for q in quants:
        found = None
        for order in (range(cursor, len(mentions)), range(cursor)):
            for i in order:
                if abs(float(mentions[i].value) - q) <= 1e-9 * max(1.0, abs(q)):
                    found = i
                    break
            if found is not None:
                break
        out.append(found)
        if found is not None:
            cursor = found + 1
    return out


def cogcomp_trace(
    data: dict[str, Any], *, where: str | None = None, pack: UnitPack | None = None, aligned: bool = True
) -> Trace:
    """Read one CogComp record (a dict) into a trace; ``ImportRefusal`` when it cannot be.

    ``aligned=False`` withholds the corpus's ``lAlignments``: each equation number is then grounded by
    evidence, as in any corpus (what :func:`ssbg.stats.alignment.cogcomp_alignment` scores against them).
    """
    p = default_pack() if pack is None else pack
    pid = data.get("iIndex")
    if isinstance(pid, bool) or not isinstance(pid, int | str):
        raise ImportRefusal("record has no usable 'iIndex'", reason="malformed_record", detail="iIndex")
    text = text_field(data, "sQuestion")
    quants = [float(q) for q in _numbers(data, "quants", integers=False)]
    alignments = [int(a) for a in _numbers(data, "lAlignments", integers=True)]
    equations = data.get("lEquations")
    if not isinstance(equations, list) or not all(isinstance(e, str) for e in equations):
        raise ImportRefusal("'lEquations' must be a list of strings", reason="malformed_record", detail="lEquations")
    if not equations or not equations[0].strip():
        raise ImportRefusal("'lEquations' is empty", reason="no_equation", detail="lEquations")
    if len(equations) > 1:
        raise ImportRefusal(
            "several equations: a system, not one arithmetic chain",
            reason="unsupported_operation",
            detail="; ".join(equations),
        )
    solutions = data.get("lSolutions")
    answer = None
    if isinstance(solutions, list) and solutions and isinstance(solutions[0], int | float | str):
        first = solutions[0]
        with numbers_of("lSolutions"):
            if isinstance(first, str):
                answer = number_or_none(first)
            elif not isinstance(first, bool):
                answer = float(check_json_number(first))
    span = find_question_span(text)
    with numbers_of("sQuestion"):
        mentions, answer_unit = read_problem_text(text, span, pack=p)
    builder = StepBuilder(
        str(pid),
        CORPUS,
        text,
        mentions,
        question_span=span,
        answer_unit=answer_unit,
        answer=answer,
        where=where,
        pack=p,
    )
    paired = pair_quantities(quants, mentions)
    by_position: list[int | None] = []
    for k, a in enumerate(alignments):
        if not 0 <= a < len(quants):
            raise ImportRefusal(
                f"alignment {k} points at quantity {a}, which does not exist",
                reason="malformed_record",
                detail="lAlignments",
            )
        by_position.append(paired[a])
    with numbers_of("lEquations", not_a_number="unparseable_formula"):
        builder.add_equation(equations[0], result=answer, aligned=by_position if aligned else None)
        return builder.build()


def gold_rate_flags(data: dict[str, Any]) -> tuple[bool, frozenset[int]] | None:
    """``(question asks for a rate, indices of the quantities that are rates)`` of a raw record.

    >>> gold_rate_flags({"rates": [0, -1]})
    (True, frozenset({0}))
    """
    rates = data.get("rates")
    if not isinstance(rates, list) or not all(isinstance(r, int) and not isinstance(r, bool) for r in rates):
        return None
    return -1 in rates, frozenset(r for r in rates if r >= 0)


build_cogcomp_record = json_array_builder(CORPUS, id_key="iIndex", text_key="sQuestion", trace=cogcomp_trace)
"""One element of the corpus's JSON array into a trace or a typed refusal (the costly reading stage)."""

read_cogcomp = StagedReader(iter_json_array, build_cogcomp_record, CORPUS)
"""Stream CogComp records: a trace per problem, or a typed refusal with ``file:line``."""
