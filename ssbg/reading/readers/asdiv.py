"""Reader of ASDiv XML (Miao et al. 2020): ``Problem`` elements with ``Body``, ``Question``,
``Solution-Type``, ``Answer`` and ``Formula``.

The format, as the corpora README describes it::

    <Problem ID="nluds-0001" Grade="1">
      <Body>Seven red apples and two green apples are in the basket.</Body>
      <Question>How many apples are in the basket?</Question>
      <Solution-Type>Addition</Solution-Type>
      <Answer>9 (apples)</Answer>
      <Formula>7+2=9</Formula>
    </Problem>

The trace's text is ``Body + " " + Question``.  ``Formula`` holds one or more
steps separated by ``;`` (``5*3=15;15+2=17``), numbers may carry inline unit
tags (``60(min/hour)*2(hour)=120(min)``: a result's tag is the unit that step
states), and the unit in ``Answer`` is the gold answer unit.  Problems outside
arithmetic are refused with ``unsupported_operation``, never guessed: a
``Solution-Type`` naming GCD, LCM, floor/ceiling division, remainders,
ratios, comparisons, algebra, set operations or number patterns; a
formula with a function, a comparison or an unknown; an answer that is not a
number (``3 r 2``, ``2:3``, a name).

Each ``<Problem>`` is parsed on its own, so a damaged one refuses alone
(``malformed_record`` with ``file:line``) and the others still read; a file
that declares a DTD refuses its problems rather than expand entities.

Examples
--------
>>> t = asdiv_trace("nluds-1", "Seven red apples and two green apples are in the basket.",
...                 "How many apples are in the basket?", "Addition", "9 (apples)", "7+2=9")
>>> [(s.op, [t.mentions[o.mention].text for o in s.operands]) for s in t.steps], t.gold_answer_unit
([('add', ['Seven red apples', 'two green apples'])], 'apples')
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from ssbg.errors import ImportRefusal
from ssbg.numbers import parse_number
from ssbg.reading.formula import parse_formula
from ssbg.reading.grounding import StepBuilder
from ssbg.reading.problem_text import read_problem_text
from ssbg.reading.readers import common
from ssbg.reading.readers.common import RawRecord, StagedReader, numbers_of, open_corpus_file, refused_record
from ssbg.reading.records import CorpusRecord
from ssbg.trace import Trace
from ssbg.units import UnitPack, default_pack

__all__ = [
    "CORPUS",
    "UNSUPPORTED_SOLUTION_TYPES",
    "asdiv_trace",
    "build_asdiv_record",
    "gold_unit_of",
    "read_asdiv",
    "scan_asdiv",
    "unsupported_solution_type",
]

CORPUS = "asdiv"

UNSUPPORTED_SOLUTION_TYPES: tuple[str, ...] = (
    "gcd",
    "lcm",
    "floor",
    "ceil",
    "remainder",
    "ratio",
    "comparison",
    "algebra",
    "set-operation",
    "pattern",
)
"""Words that, in a ``Solution-Type``, mark a problem outside arithmetic (whole words, case-insensitively:
``ratio`` is not the end of ``Sequential-Operation``)."""

_ANSWER = re.compile(r"^\s*(-?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?)\s*(?:\(\s*([^()]*?)\s*\))?\s*$")
_FUNCTION = re.compile(r"(?i)\b(?:gcd|lcm|max|min|floor|ceil|mod|sqrt|round)\s*\(|[<>]|\d\s*r\s*\d|\d\s*:\s*\d")
_WORD = re.compile(r"[a-z0-9]+")
_ANSWER_UNIT = re.compile(r"\(\s*([^()]*?)\s*\)\s*$")
_RESULT_TAG = re.compile(r"^\s*(-?[\d,.]+)\s*(?:\(\s*([A-Za-z][^()]*?)\s*\))?\s*$")


def unsupported_solution_type(solution_type: str | None) -> str | None:
    """The word of :data:`UNSUPPORTED_SOLUTION_TYPES` a ``Solution-Type`` names, matched as whole words
    (case-insensitively, ``-`` and spaces between words), or None.

    >>> [unsupported_solution_type(t) for t in ("Ratio", "Algebra-1", "Set-Operation", "Sequential-Operation")]
    ['ratio', 'algebra', 'set-operation', None]
    """
    words = _WORD.findall((solution_type or "").lower())
    for name in UNSUPPORTED_SOLUTION_TYPES:
        wanted = name.split("-")
        if any(words[i : i + len(wanted)] == wanted for i in range(len(words) - len(wanted) + 1)):
            return name
    return None


def gold_unit_of(answer: str | None) -> str | None:
    """The gold answer unit an ASDiv ``Answer`` states in its last parentheses (``9 (apples)``), whatever the
    number before it (a refused problem keeps its gold unit too).

    >>> gold_unit_of("9 (apples)"), gold_unit_of("3 r 2 (cookies)"), gold_unit_of("9")
    ('apples', 'cookies', None)
    """
    m = _ANSWER_UNIT.search(answer or "")
    return m.group(1) if m is not None and m.group(1) else None


def _unsupported(message: str, detail: str) -> ImportRefusal:
    return ImportRefusal(message, reason="unsupported_operation", detail=detail)


def asdiv_trace(
    problem_id: str,
    body: str,
    question: str,
    solution_type: str | None,
    answer: str,
    formula: str,
    *,
    where: str | None = None,
    pack: UnitPack | None = None,
) -> Trace:
    """Read one ASDiv problem's fields into a trace; ``ImportRefusal`` when it cannot be."""
    p = default_pack() if pack is None else pack
    if unsupported_solution_type(solution_type) is not None:
        raise _unsupported(f"solution type {solution_type!r} is not arithmetic", solution_type or "")
    m = _ANSWER.match(answer)
    if m is None or not m.group(1) or m.group(1) == "-":
        raise _unsupported(f"answer {answer!r} is not a number with a unit", answer)
    with numbers_of("Answer"):
        gold_value = parse_number(m.group(1))
    gold_unit = gold_unit_of(answer)
    if _FUNCTION.search(formula):
        raise _unsupported(f"formula {formula!r} uses a function, a comparison or a remainder", formula)
    text = f"{body.strip()} {question.strip()}"
    span = (len(body.strip()) + 1, len(text))
    with numbers_of("Body"):
        mentions, answer_unit = read_problem_text(text, span, pack=p)
    builder = StepBuilder(
        problem_id,
        CORPUS,
        text,
        mentions,
        question_span=span,
        answer_unit=answer_unit,
        gold_answer_unit=gold_unit,
        answer=gold_value,
        where=where,
        pack=p,
    )
    with numbers_of("Formula", not_a_number="unparseable_formula"):
        for part in formula.split(";"):
            if not part.strip():
                continue
            expr, eq, result = part.rpartition("=")
            if not eq:
                expr, result = part, ""
            stated = _RESULT_TAG.match(result) if result.strip() else None
            if result.strip() and stated is None:
                raise ImportRefusal(f"result {result!r} is not a number", reason="unparseable_formula", detail=part)
            value = parse_number(stated.group(1)) if stated is not None else None  # "20..": a typo refuses
            unit = stated.group(2) if stated is not None else None
            builder.add_tree(parse_formula(expr, merge=builder.merge), formula=part.strip(), result=value, unit=unit)
        return builder.build()


def _child_text(problem: ET.Element, name: str, *, required: bool = True) -> str | None:
    node = problem.find(name)
    if node is None or node.text is None or not node.text.strip():
        if required:
            reason = "empty_text" if node is not None and name in ("Body", "Question") else "malformed_record"
            raise ImportRefusal(f"<{name}> is missing or empty", reason=reason, detail=name)
        return None
    return node.text


def scan_asdiv(path: Path) -> Iterator[RawRecord]:
    """The cheap reading stage: each ``<Problem>`` element's bytes (with whether the file declares a DTD), in order.

    One pass over the file, a block at a time (linear, and memory holds one problem and a block):
    comments and CDATA sections are passed over (a ``<Problem`` in them is text); a ``<Problem>``
    that is never closed, or that another ``<Problem`` opens inside, comes out as a refused raw
    record, and so does one larger than ``MAX_RECORD_BYTES``; the problem after it still reads.
    """
    handle, refusal = open_corpus_file(path)
    if handle is None:
        yield refusal  # type: ignore[misc]
        return
    with handle:
        yield from _XmlScan(path, handle).problems()


_MARKUP = re.compile(rb"<!--|<!\[CDATA\[|<!DOCTYPE|<!ENTITY|<Problem(?=[\s>/])|</Problem\s*>")
_CLOSERS = {b"<!--": b"-->", b"<![CDATA[": b"]]>"}


class _XmlScan:
    """One pass of :func:`scan_asdiv` over a file: a byte buffer from the open problem (or the scan) on."""

    def __init__(self, path: Path, handle: BinaryIO) -> None:
        self.path = path
        self.handle = handle
        self.buf = b""
        self.eof = False
        self.line_at = 0  # an offset of buf whose line is known ...
        self.line = 1  # ... and that line
        self.open_at: int | None = None  # where the open <Problem starts (its bytes are kept)
        self.skipping = False  # inside a problem refused as too large (its bytes are not kept)
        self.declares_dtd = False

    def more(self) -> bool:
        if self.eof:
            return False
        data = self.handle.read(common.BLOCK_BYTES)
        if not data:
            self.eof = True
            return False
        self.buf += data
        return True

    def line_of(self, offset: int) -> int:
        self.line += self.buf.count(b"\n", self.line_at, offset)
        self.line_at = offset
        return self.line

    def refused(self, offset: int, reason: str, message: str) -> RawRecord:
        return RawRecord(self.path, self.line_of(offset), refusal=(reason, message))

    def compact(self, pos: int) -> Iterator[RawRecord]:
        """Refuse the open problem once it outgrows a record, and drop the bytes no record needs any more
        (those before the open problem, else before ``pos``); :attr:`shift` says by how much."""
        self.shift = 0
        if self.open_at is not None and len(self.buf) - self.open_at > common.MAX_RECORD_BYTES:
            limit = common.MAX_RECORD_BYTES
            yield self.refused(self.open_at, "record_too_large", f"a <Problem> larger than {limit} bytes")
            self.open_at, self.skipping = None, True
        keep = pos if self.open_at is None else self.open_at
        if keep >= common.BLOCK_BYTES:
            self.line_of(keep)
            self.buf = self.buf[keep:]
            self.line_at = 0
            if self.open_at is not None:
                self.open_at -= keep
            self.shift = keep

    def close_markup(self, token: bytes, start: int) -> Iterator[RawRecord]:
        """Pass over a comment or CDATA section opened at ``start``; :attr:`resume` is where it ends (None:
        it runs to the end of the file)."""
        closer = _CLOSERS[token]
        search = start
        end = self.buf.find(closer, search)
        while end < 0:
            search = max(search, len(self.buf) - len(closer))
            yield from self.compact(search)
            search -= self.shift
            if not self.more():
                self.resume = None
                return
            end = self.buf.find(closer, search)
        self.resume = end + len(closer)

    def problems(self) -> Iterator[RawRecord]:
        pos = 0
        self.more()
        while True:
            m = _MARKUP.search(self.buf, pos)
            if m is None or (not self.eof and m.end() + 16 > len(self.buf)):  # a tag may straddle the block end
                if m is None:
                    pos = max(pos, len(self.buf) - 16)
                yield from self.compact(pos)
                pos -= self.shift
                if not self.more() and m is None:
                    break
                continue
            token = m.group()
            pos = m.end()
            if token in _CLOSERS:
                yield from self.close_markup(token, pos)
                if self.resume is None:
                    break  # an unclosed comment runs to the end of the file
                pos = self.resume
            elif token in (b"<!DOCTYPE", b"<!ENTITY"):
                self.declares_dtd = True
            elif token.startswith(b"</"):
                if self.open_at is not None:
                    chunk = self.buf[self.open_at : pos]
                    yield RawRecord(self.path, self.line_of(self.open_at), data=(chunk, self.declares_dtd))
                self.open_at, self.skipping = None, False
            else:
                if self.open_at is not None:
                    yield self.refused(self.open_at, "malformed_record", "a <Problem> that is never closed")
                self.open_at, self.skipping = m.start(), False
        if self.open_at is not None:
            yield self.refused(self.open_at, "malformed_record", "a <Problem> that is never closed")


def build_asdiv_record(raw: RawRecord, pack: UnitPack) -> CorpusRecord:
    """One ``<Problem>`` of :func:`scan_asdiv` into a trace or a typed refusal (the costly reading stage)."""
    if raw.refusal is not None:
        return refused_record(CORPUS, f"{raw.path.name}:{raw.line}", raw.where, *raw.refusal)
    chunk, declares_dtd = raw.data
    return _record(raw.path, raw.line, chunk, declares_dtd, pack)


read_asdiv = StagedReader(scan_asdiv, build_asdiv_record, CORPUS)
"""Stream ASDiv problems: a trace per problem, or a typed refusal with ``file:line``."""


def _record(path: Path, line: int, chunk: bytes, declares_dtd: bool, pack: UnitPack) -> CorpusRecord:
    where = f"{path}:{line}"
    fallback = f"{path.name}:{line}"
    if len(chunk) > common.MAX_RECORD_BYTES:
        return refused_record(
            CORPUS, fallback, where, "record_too_large",
            f"problem of {len(chunk)} bytes exceeds {common.MAX_RECORD_BYTES}",
        )
    try:
        text = chunk.decode("utf-8")
    except UnicodeDecodeError as exc:
        return refused_record(CORPUS, fallback, where, "encoding_error", f"not UTF-8: {exc.reason} at byte {exc.start}")
    if declares_dtd:
        return refused_record(CORPUS, fallback, where, "malformed_record", "the file declares a DTD; not expanded")
    try:
        # One <Problem> with no DTD: expat has no entity of ours to expand.
        problem = ET.fromstring(text)  # noqa: S314
    except ET.ParseError as exc:
        return refused_record(CORPUS, fallback, where, "malformed_record", f"not well-formed XML: {exc}")
    pid = (problem.get("ID") or "").strip() or fallback
    body_text: str | None = None
    gold: str | None = None
    try:
        body = _child_text(problem, "Body")
        question = _child_text(problem, "Question")
        body_text = f"{body} {question}"
        answer = _child_text(problem, "Answer")
        gold = gold_unit_of(answer)
        formula = _child_text(problem, "Formula", required=False)
        if formula is None:
            raise ImportRefusal("<Formula> is missing or empty", reason="no_equation", detail="Formula")
        trace = asdiv_trace(
            pid,
            body or "",
            question or "",
            _child_text(problem, "Solution-Type", required=False),
            answer or "",
            formula,
            where=where,
            pack=pack,
        )
    except ImportRefusal as exc:
        return refused_record(CORPUS, pid, where, exc.reason, exc.message, detail=exc.detail, text=body_text,
                              gold_answer_unit=gold)
    return CorpusRecord(CORPUS, pid, where, payload=trace, text=trace.text, gold_answer_unit=trace.gold_answer_unit)
