"""The highlighted-text view of a trace (ssbg.reading.textview)."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest

from ssbg.errors import ImportRefusal, ProblemGraphError
from ssbg.reading.readers import read_corpus
from ssbg.reading.records import CorpusRecord
from ssbg.reading.textview import CATEGORY_COLORS, TextView, render_spans, render_text, text_spans, unit_category
from ssbg.trace import Trace, bind_trace
from ssbg.units import default_pack

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "samples"
HOSTILE = 'Ann <script>alert("x")</script> & {braces} earns $12 an hour.\nHow much?'


def hostile_trace() -> Trace:
    start = HOSTILE.index("$12")
    return Trace.from_dict(
        {
            "problem_id": "h<1>",
            "corpus": "test",
            "text": HOSTILE,
            "mentions": [
                {
                    "start": start,
                    "end": start + 11,
                    "text": "$12 an hour",
                    "value": 12,
                    "unit": "$ per hour",
                    "lemma": "dollar_per_hour",
                }
            ],
            "steps": [
                {
                    "op": "add",
                    "operands": [{"mention": 0}, {"constant": "minutes_per_hour", "cue": [start + 7, start + 11]}],
                }
            ],
        }
    )


class _Marks(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.symbols: list[str] = []
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "mark":
            self.symbols.append(dict(attrs).get("data-symbol") or "")
        if tag == "script":
            self.scripts += 1


def marks(html_text: str) -> _Marks:
    parser = _Marks()
    parser.feed(html_text)
    return parser


def test_problem_text_is_escaped() -> None:
    view = render_text(hostile_trace())
    assert marks(view.html).scripts == 0
    assert "&lt;script&gt;" in view.html
    assert "h&lt;1&gt;" in view.html


def test_every_mention_links_to_its_symbol() -> None:
    trace = hostile_trace()
    ids = {s.symbol_id for s in bind_trace(trace).symbols}
    found = marks(render_text(trace).html).symbols
    assert found == ["q_dollar_per_hour_000"]
    assert set(found) <= ids


def test_a_cue_inside_a_mention_is_not_drawn_twice() -> None:
    assert [s["kind"] for s in text_spans(hostile_trace())["spans"]] == ["mention"]


def test_a_standalone_cue_is_drawn_with_its_constant_symbol() -> None:
    record = next(r for r in read_corpus(SAMPLES / "gsm8k_sample.jsonl") if r.problem_id == "gsm8k_sample-4")
    spans = text_spans(record.payload)["spans"]
    assert ("constant", "c_twice", "twice") in {(s["kind"], s["symbol"], s["text"]) for s in spans}


def test_view_renders_in_jupyter_the_same_html() -> None:
    view = render_text(hostile_trace())
    assert isinstance(view, TextView)
    assert view._repr_html_() == view.html == str(view)


def test_rendering_sees_only_plain_data() -> None:
    data = text_spans(hostile_trace())
    assert render_spans(data) == render_text(hostile_trace()).html


@pytest.mark.parametrize(
    ("unit", "category"),
    [
        ("$", "money"),
        ("hours", "time"),
        ("miles", "length"),
        ("square feet", "area"),
        ("cups", "volume"),
        ("pounds", "mass"),
        ("dozen", "count"),
        ("%", "dimensionless"),
        ("mph", "rate"),
        ("eggs per box", "rate"),
        ("clips", "unknown"),
        (None, "number"),
    ],
)
def test_categories_follow_the_unit_dimension(unit: str | None, category: str) -> None:
    assert unit_category(unit, default_pack()) == category
    assert category in CATEGORY_COLORS


def test_a_refused_record_shows_its_text_and_reason() -> None:
    refusal = ImportRefusal("x", reason="operand_not_found", detail="9", problem_id="p", corpus="gsm8k")
    record = CorpusRecord("gsm8k", "p", "f:1", refusal=refusal, text="Sam has <7> marbles.")
    view = render_text(record)
    assert "operand_not_found" in view.html
    assert "&lt;7&gt;" in view.html


def test_solution_mentions_are_shown_under_the_text() -> None:
    record = next(r for r in read_corpus(SAMPLES / "gsm8k_sample.jsonl") if r.problem_id == "gsm8k_sample-9")
    view = render_text(record)
    assert 'data-source="solution"' in view.html
    assert {s["source"] for s in view.data["spans"]} == {"text", "solution"}


def test_wrong_input_is_a_typed_error() -> None:
    with pytest.raises(ProblemGraphError) as info:
        render_text("just text")  # type: ignore[arg-type]
    assert info.value.reason == "wrong_type"
