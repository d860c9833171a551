"""Reader of SVAMP JSON (Patel et al. 2021): one array of ``{ID, Body, Question, Equation, Answer, Type}``.

The trace's text is ``Body + " " + Question`` (the question span is known
exactly); ``Equation`` is parenthesised infix over float literals
(``( 76.0 - 25.0 )``) and becomes the steps; ``Answer`` is the gold value.
``Type`` is read but not trusted (the corpus misspells some): the steps come
from the equation.

Examples
--------
>>> t = svamp_trace({"ID": "x-1", "Body": "Each pack of dvds costs 76 dollars. A discount of 25 dollars applies",
...                  "Question": "How much do you pay for each pack?", "Equation": "( 76.0 - 25.0 )",
...                  "Answer": 51.0, "Type": "Subtraction"})
>>> [(s.op, [t.mentions[o.mention].text for o in s.operands]) for s in t.steps]
[('subtract', ['76 dollars', '25 dollars'])]
>>> t.question
'How much do you pay for each pack?'
"""

from __future__ import annotations

from typing import Any

from ssbg.errors import ImportRefusal
from ssbg.numbers import check_json_number, parse_number
from ssbg.reading.grounding import StepBuilder
from ssbg.reading.problem_text import read_problem_text
from ssbg.reading.readers.common import StagedReader, iter_json_array, json_array_builder, numbers_of, text_field
from ssbg.trace import Trace
from ssbg.units import UnitPack, default_pack

__all__ = ["CORPUS", "build_svamp_record", "read_svamp", "svamp_trace"]

CORPUS = "svamp"


def _number(data: dict[str, Any], name: str) -> float | None:
    """A number field (a JSON number or one written as a string), within :mod:`ssbg.numbers`' bounds."""
    value = data.get(name)
    if value is None:
        return None
    with numbers_of(name):
        if isinstance(value, str):
            return parse_number(value, field=name)
        return float(check_json_number(value, field=name))


def svamp_trace(data: dict[str, Any], *, where: str | None = None, pack: UnitPack | None = None) -> Trace:
    """Read one SVAMP record (a dict) into a trace; ``ImportRefusal`` when it cannot be."""
    p = default_pack() if pack is None else pack
    pid = data.get("ID")
    if not isinstance(pid, str) or not pid.strip():
        raise ImportRefusal("record has no string 'ID'", reason="malformed_record", detail="ID")
    body = text_field(data, "Body").strip()
    question = text_field(data, "Question").strip()
    equation = text_field(data, "Equation")
    kind = data.get("Type")
    if kind is not None and not isinstance(kind, str):
        raise ImportRefusal("'Type' must be a string", reason="malformed_record", detail="Type")
    text = f"{body} {question}"
    span = (len(body) + 1, len(text))
    with numbers_of("Body"):
        mentions, answer_unit = read_problem_text(text, span, pack=p)
    builder = StepBuilder(
        pid,
        CORPUS,
        text,
        mentions,
        question_span=span,
        answer_unit=answer_unit,
        answer=_number(data, "Answer"),
        where=where,
        pack=p,
    )
    answer = builder.answer
    with numbers_of("Equation", not_a_number="unparseable_formula"):
        builder.add_formula(equation if answer is None else f"{equation}={answer!r}")
        return builder.build()


build_svamp_record = json_array_builder(CORPUS, id_key="ID", text_key="Body", trace=svamp_trace)
"""One element of the corpus's JSON array into a trace or a typed refusal (the costly reading stage)."""

read_svamp = StagedReader(iter_json_array, build_svamp_record, CORPUS)
"""Stream SVAMP records: a trace per problem, or a typed refusal with ``file:line``."""
