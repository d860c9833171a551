"""Reader of MAWPS source JSON (Koncel-Kedziorski et al. 2016, as MWPToolkit redistributes it).

One JSON array of ``{iIndex, sQuestion, lEquations, lSolutions}``.  Each
equation (``X=(27.0*16.0)``, ``41 + X = 87``, ``25000.0-(1500.0*8.0)=money``)
is solved for its one unknown by inverting operations, which gives the trace's
steps; an unknown that occurs twice is algebra and refuses
(``unsupported_operation``).  A *named* unknown (``hourly_wage``, ``miles``) is
the corpus's gold answer unit; the placeholders ``x``, ``X`` and ``number``
name none.

Examples
--------
>>> t = mawps_trace({"iIndex": 1956, "lEquations": ["25000.0-(1500.0*8.0)=money"], "lSolutions": [13000.0],
...     "sQuestion": "Conner has 25,000 dollars. Every month he spends 1,500 dollars. How much money "
...                  "will he have after 8 months?"})
>>> [(s.op, [o.source for o in s.operands]) for s in t.steps], t.gold_answer_unit
([('multiply', ['mention', 'mention']), ('subtract', ['mention', 'step'])], 'money')
"""

from __future__ import annotations

from typing import Any

from ssbg.errors import ImportRefusal
from ssbg.numbers import check_json_number, number_or_none
from ssbg.reading.grounding import MAX_FORMULAS, StepBuilder
from ssbg.reading.mentions import find_question_span
from ssbg.reading.problem_text import read_problem_text
from ssbg.reading.readers.common import StagedReader, iter_json_array, json_array_builder, numbers_of, text_field
from ssbg.trace import Trace
from ssbg.units import UnitPack, default_pack

__all__ = ["CORPUS", "PLACEHOLDER_UNKNOWNS", "build_mawps_record", "mawps_trace", "read_mawps"]

CORPUS = "mawps"

PLACEHOLDER_UNKNOWNS: frozenset[str] = frozenset({"x", "y", "n", "number", "unknown", "answer", "ans", "result"})
"""Unknown names that say nothing about the answer's unit."""


def _problem_id(data: object) -> str | None:
    if not isinstance(data, dict):
        return None
    pid = data.get("iIndex")
    if isinstance(pid, bool) or not isinstance(pid, int | str) or not str(pid).strip():
        return None
    return str(pid)


def _solution(data: dict[str, Any]) -> float | None:
    """The first solution (None when there is none or it is no number); one out of range refuses."""
    values = data.get("lSolutions")
    if not isinstance(values, list) or not values:
        return None
    first = values[0]
    if isinstance(first, bool) or not isinstance(first, int | float | str):
        return None
    with numbers_of("lSolutions"):
        return number_or_none(first) if isinstance(first, str) else float(check_json_number(first))


def mawps_trace(data: dict[str, Any], *, where: str | None = None, pack: UnitPack | None = None) -> Trace:
    """Read one MAWPS record (a dict) into a trace; ``ImportRefusal`` when it cannot be."""
    p = default_pack() if pack is None else pack
    pid = _problem_id(data)
    if pid is None:
        raise ImportRefusal("record has no usable 'iIndex'", reason="malformed_record", detail="iIndex")
    text = text_field(data, "sQuestion")
    equations = data.get("lEquations")
    if not isinstance(equations, list) or not all(isinstance(e, str) for e in equations):
        raise ImportRefusal("'lEquations' must be a list of strings", reason="malformed_record", detail="lEquations")
    if not equations or not any(e.strip() for e in equations):
        raise ImportRefusal("'lEquations' is empty", reason="no_equation", detail="lEquations")
    if len(equations) > MAX_FORMULAS:  # refused before reading its text: the builder would stop there anyway
        raise ImportRefusal(
            f"{len(equations)} equations, more than {MAX_FORMULAS}", reason="record_too_large", detail="lEquations"
        )
    span = find_question_span(text)
    with numbers_of("sQuestion"):
        mentions, answer_unit = read_problem_text(text, span, pack=p)
    builder = StepBuilder(
        pid,
        CORPUS,
        text,
        mentions,
        question_span=span,
        answer_unit=answer_unit,
        answer=_solution(data),
        where=where,
        pack=p,
    )
    named: str | None = None
    with numbers_of("lEquations", not_a_number="unparseable_formula"):
        for equation in equations:
            if not equation.strip():
                continue
            name = builder.add_equation(equation, result=builder.answer if len(equations) == 1 else None)
            if name is not None and name.lower() not in PLACEHOLDER_UNKNOWNS:
                named = name
        builder.gold_answer_unit = named
        return builder.build()


build_mawps_record = json_array_builder(CORPUS, id_key="iIndex", text_key="sQuestion", trace=mawps_trace)
"""One element of the corpus's JSON array into a trace or a typed refusal (the costly reading stage)."""

read_mawps = StagedReader(iter_json_array, build_mawps_record, CORPUS)
"""Stream MAWPS records: a trace per problem, or a typed refusal with ``file:line``."""
