"""How faithfully ssbg grounds numbers, scored against hand-written gold alignments (edge).

The gold set ``data/gold/gsm8k_train_alignments.gold.jsonl`` (see its README) was written by
readers from the text alone.  For every literal of every calculator annotation of a GSM8K
solution it says what the literal stands for: a number of the question (its character
span), an earlier annotation's result, an implicit constant (and the words that cue it), a
quantity the text states without writing a number, a number the solution's prose states,
or nothing; and for every number of the question its unit as a careful reader states it
(what is counted or measured, and per what).

:func:`score` compares ssbg's traces with it.  A prediction is judged by *where it
points*, not by its internal ids: a mention or a cued constant is right when its words
overlap the gold's words, an earlier step when it is the step of the same annotation, an
uncued constant when its value is the gold constant's value.  The traces are read by the
ordinary reader, which never sees the gold file.

CogComp's ``lAlignments`` are gold of the same kind for the equation numbers of 1,492
problems: :func:`cogcomp_alignment` reads every problem *without* them (the reader then
grounds by evidence, as for any corpus) and compares.

``python -m ssbg.stats.alignment`` (``make alignment``) prints every figure.

Examples
--------
>>> number_tokens("She buys 2 pens at $1.50 each and half a dozen pencils.")
[(9, 10, '2'), (19, 24, '$1.50'), (34, 38, 'half'), (41, 46, 'dozen')]
>>> annotation_literals("So 48/2 = <<48/2=24>>24 clips.")
[(10, '48/2=24', [(12, '48'), (15, '2')])]
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ssbg.constants import IMPLICIT_CONSTANTS
from ssbg.errors import ImportRefusal, ProblemGraphError
from ssbg.trace import Mention, Operand, Step, Trace

__all__ = [
    "GOLD_FILE",
    "GOLD_KINDS",
    "SAMPLE_SEED",
    "AlignmentScore",
    "GoldMention",
    "GoldOperand",
    "GoldProblem",
    "GoldRef",
    "annotation_literals",
    "cogcomp_alignment",
    "computes",
    "draw_sample",
    "gold_texts",
    "gsm8k_traces",
    "load_gold",
    "number_tokens",
    "repeated_value",
    "report",
    "score",
]

GOLD_KINDS: tuple[str, ...] = ("mention", "step", "constant", "derived", "solution", "none")
"""What a gold operand stands for (exactly one per reference)."""

GOLD_FILE = Path(__file__).parents[2] / "data" / "gold" / "gsm8k_train_alignments.gold.jsonl"
"""The gold set in a source checkout (``data/`` does not ship in the wheel)."""

SAMPLE_SEED = 20261201
"""The seed of the gold sample's draw (``data/gold/README.md``)."""

Span = tuple[int, int]

# ---------------------------------------------------------------- the mechanical scan of the sample

_UNITS = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_WORDS = [
    *_UNITS, *_TENS, "hundred", "thousand", "million", "billion", "dozen", "dozens", "half", "halves", "third",
    "thirds", "quarter", "quarters", "fourth", "fourths", "fifth", "fifths", "sixth", "sixths", "seventh",
    "sevenths", "eighth", "eighths", "ninth", "ninths", "tenth", "tenths", "twice", "thrice", "double", "doubles",
    "doubled", "triple", "tripled", "triples", "quadruple", "quadrupled", "both", "pair", "pairs", "couple",
    "once", "twelfth", "hundredth",
]  # fmt: skip
_TOKEN = re.compile(
    r"(?<![\w.])(?:\$\s?)?(?:\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?:\s?/\s?\d+)?%?"
    rf"|(?i:(?<![a-z])(?:{'|'.join(_TENS)})-(?:{'|'.join(_UNITS[1:10])})(?![a-z]))"
    rf"|(?i:(?<![a-z-])(?:{'|'.join(sorted(_WORDS, key=len, reverse=True))})(?![a-z]))"
)
_ANNOTATION = re.compile(r"<<([^<>]*)>>")
_LITERAL = re.compile(r"\d+(?:\.\d+)?|\.\d+")


def number_tokens(text: str) -> list[tuple[int, int, str]]:
    """The number tokens a plain scan finds in a question (what the gold's ``nK`` ids number).

    Digits (with ``$``, ``%``, thousands separators, a written fraction), number words and the
    words of counts and fractions (``half``, ``twice``, ``dozen``, ``both``, ``pair``).  The scan
    is deliberately simple: the readers, not it, decided which tokens are quantities.
    """
    return [(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(text)]


def annotation_literals(answer: str) -> list[tuple[int, str, list[tuple[int, str]]]]:
    """Each calculator annotation of a GSM8K answer: (its offset, its body, its literals left of ``=``
    with their offsets in the answer)."""
    out = []
    for m in _ANNOTATION.finditer(answer):
        body = m.group(1)
        expr = body.rpartition("=")[0] if "=" in body else body
        out.append(
            (m.start(), body, [(m.start(1) + lit.start(), lit.group()) for lit in _LITERAL.finditer(expr)])
        )
    return out


def _token_value(text: str) -> float | None:
    t = text.replace("$", "").replace(",", "").replace("%", "").replace(" ", "")
    num, slash, den = t.partition("/")
    try:
        return float(num) / float(den) if slash else float(num)
    except (ValueError, ZeroDivisionError):
        return None


def repeated_value(question: str, answer: str) -> bool:
    """Whether one value is written at two or more places (question tokens and annotation results), or
    one annotation uses the same literal twice (``12*12``): the sample's repeated-value stratum.

    >>> repeated_value("He buys 2 large and 2 small pizzas.", "<<2*16=32>> <<2*8=16>>")
    True
    """
    seen: Counter[float] = Counter()
    for _s, _e, text in number_tokens(question):
        if (v := _token_value(text)) is not None:
            seen[v] += 1
    for _at, body, literals in annotation_literals(answer):
        if (v := _token_value(body.rpartition("=")[2])) is not None:
            seen[v] += 1
        values = [_token_value(t) for _o, t in literals]
        if len(values) != len(set(values)):
            return True
    return any(n > 1 for n in seen.values())


def draw_sample(train: str | Path, *, seed: int = SAMPLE_SEED, size: int = 300) -> list[int]:
    """The line numbers of the gold sample: ``size`` problems with an annotation, drawn with ``seed``."""
    lines = []
    with Path(train).open(encoding="utf-8") as f:
        for line_no, line in enumerate(f, start=1):
            if _ANNOTATION.search(json.loads(line)["answer"]):
                lines.append(line_no)
    order = random.Random(seed).sample(range(len(lines)), len(lines))  # noqa: S311 - a reproducible sample
    return [lines[i] for i in order[:size]]


# ---------------------------------------------------------------- the gold file


@dataclass(frozen=True, slots=True)
class GoldRef:
    """One reading of a literal: its kind and where it points."""

    kind: str
    span: Span | None = None  # question span (mention, derived, a constant's cue) or answer span (solution)
    step: int | None = None  # an earlier annotation
    constant: str | None = None
    value: float | None = None  # an ``other`` constant's value


@dataclass(frozen=True, slots=True)
class GoldOperand:
    """A literal of an annotation and its readings (the first, then those equally supported)."""

    literal: str
    at: int
    refs: tuple[GoldRef, ...]

    @property
    def kind(self) -> str:
        return self.refs[0].kind


@dataclass(frozen=True, slots=True)
class GoldMention:
    """A number token of the question and its unit as the reader states it (``skip``: not a quantity)."""

    token: str
    span: Span
    text: str
    unit: str | None
    per: str | None
    skip: bool


@dataclass(frozen=True, slots=True)
class GoldProblem:
    """The gold of one problem: its mentions, and the operands of each annotation."""

    problem_id: str
    line: int
    sha: str
    split: str
    repeated_value: bool
    mentions: tuple[GoldMention, ...]
    steps: tuple[tuple[str, tuple[GoldOperand, ...]], ...]  # (annotation body, operands)


def _fail(where: str, message: str, reason: str = "invalid_value") -> ProblemGraphError:
    return ProblemGraphError(message, reason=reason, path=where)


def _span(value: object, where: str) -> Span:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(type(v) is int for v in value)
        or not 0 <= value[0] < value[1]
    ):
        raise _fail(where, f"'{where}' must be a [start, end] span (got {value!r})")
    return (value[0], value[1])


def _ref(raw: Mapping[str, Any], tokens: Mapping[str, GoldMention], where: str) -> GoldRef:
    kinds = [k for k in GOLD_KINDS if k in raw]
    if len(kinds) != 1:
        raise _fail(where, f"'{where}' must name exactly one of {list(GOLD_KINDS)} (got {sorted(raw)})")
    kind = kinds[0]
    target = raw[kind]
    if kind == "mention":
        if target not in tokens:
            raise _fail(where, f"'{where}.mention' names no question token {target!r}")
        return GoldRef("mention", span=tokens[target].span)
    if kind == "step":
        if type(target) is not int or target < 0:
            raise _fail(where, f"'{where}.step' must be an annotation index (got {target!r})")
        return GoldRef("step", step=target)
    if kind == "constant":
        cue = raw.get("cue_span")
        value = raw.get("value")
        if target != "other" and target not in IMPLICIT_CONSTANTS:
            raise _fail(where, f"'{where}.constant' is no known constant ({target!r})")
        known = IMPLICIT_CONSTANTS.get(str(target))
        return GoldRef(
            "constant",
            span=None if cue is None else _span(cue, f"{where}.cue_span"),
            constant=str(target),
            value=float(value) if isinstance(value, int | float) else None if known is None else float(known.value),
        )
    if kind in ("derived", "solution"):
        return GoldRef(kind, span=_span(raw.get("span"), f"{where}.span"))
    return GoldRef("none")


def _problem(raw: Mapping[str, Any], where: str) -> GoldProblem:
    try:
        mentions = tuple(
            GoldMention(
                m["id"], _span(m["span"], f"{where}.mentions[{i}].span"), m["text"], m.get("unit"), m.get("per"),
                "skip" in m,
            )
            for i, m in enumerate(raw["mentions"])
        )  # fmt: skip
        tokens = {m.token: m for m in mentions}
        steps = []
        for k, step in enumerate(raw["steps"]):
            operands = []
            for j, op in enumerate(step["operands"]):
                w = f"{where}.steps[{k}].operands[{j}]"
                refs = (_ref(op, tokens, w), *(_ref(a, tokens, f"{w}.also") for a in op.get("also", ())))
                operands.append(GoldOperand(op["literal"], op["at"], refs))
            steps.append((str(step["annotation"]), tuple(operands)))
        return GoldProblem(
            raw["problem_id"], raw["line"], raw["sha"], raw["split"], bool(raw["repeated_value"]), mentions,
            tuple(steps),
        )  # fmt: skip
    except KeyError as exc:
        raise _fail(where, f"'{where}' lacks the field {exc.args[0]!r}", "missing_field") from None
    except (TypeError, AttributeError) as exc:
        raise _fail(where, f"'{where}' has a field of the wrong type ({exc})", "wrong_type") from None


def load_gold(path: str | Path) -> tuple[GoldProblem, ...]:
    """Read a gold alignment file (one JSON object per line); a bad line refuses naming ``file:line``."""
    out = []
    with Path(path).open(encoding="utf-8") as f:
        for line_no, line in enumerate(f, start=1):
            if not line.strip():
                continue
            where = f"{path}:{line_no}"
            try:
                raw = json.loads(line)
            except json.JSONDecodeError as exc:
                raise _fail(where, f"{where}: not JSON ({exc.msg})", "malformed_json") from None
            if not isinstance(raw, dict):
                raise _fail(where, f"{where}: a gold record must be a JSON object", "wrong_type")
            out.append(_problem(raw, where))
    return tuple(out)


def gold_texts(gold: Iterable[GoldProblem], train: str | Path) -> dict[str, tuple[str, str]]:
    """Each gold problem's (question, answer) from its GSM8K line, in one read of the corpus file.

    A line whose text no longer has the gold's ``sha`` refuses: the gold was written for other words.
    """
    import hashlib

    wanted = {g.line: g for g in gold}
    out: dict[str, tuple[str, str]] = {}
    with Path(train).open(encoding="utf-8") as f:
        for line_no, line in enumerate(f, start=1):
            g = wanted.get(line_no)
            if g is None:
                continue
            record = json.loads(line)
            question, answer = record["question"], record["answer"]
            sha = hashlib.sha256(f"{question}\x00{answer}".encode()).hexdigest()[:16]
            if sha != g.sha:
                raise _fail(f"{train}:{line_no}", f"{g.problem_id}: the corpus line changed since the gold was written")
            out[g.problem_id] = (question, answer)
    return out


def gsm8k_traces(gold: Iterable[GoldProblem], train: str | Path) -> dict[str, Trace | None]:
    """Read the gold problems' GSM8K lines (:func:`gold_texts`) with the ordinary reader (None: refused at
    import).  The reader sees the question and the answer only."""
    from ssbg.reading.readers.gsm8k import gsm8k_trace

    out: dict[str, Trace | None] = {}
    for problem_id, (question, answer) in gold_texts(gold, train).items():
        try:
            out[problem_id] = gsm8k_trace(question, answer, problem_id=problem_id)
        except ImportRefusal:
            out[problem_id] = None
    return out


# ---------------------------------------------------------------- predictions as pointers


@dataclass(frozen=True, slots=True)
class Pointer:
    """Where a predicted operand points: ``mention`` / ``solution`` (spans in the question / the answer),
    ``step`` (an annotation), ``prose`` (a step the solution's prose computes), ``constant`` (its value
    and cue span), ``derived`` (an implicit step: the spans of its leaves)."""

    kind: str
    spans: tuple[Span, ...] = ()
    step: int | None = None
    value: float | None = None


def _overlaps(a: Span, b: Span) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _plain(formula: str) -> str:
    return formula.replace(" ", "").replace(",", "")


def _annotation_steps(trace: Trace, annotations: Sequence[str]) -> dict[int, int]:
    """Each annotation's top step (the one stating its result), matching formulas in order; an annotation
    with no step of its own (ssbg read it otherwise) is left out."""
    tops = [(i, _plain(s.formula)) for i, s in enumerate(trace.steps) if not s.implicit and s.formula is not None]
    out: dict[int, int] = {}
    at = 0
    for k, body in enumerate(annotations):
        want = _plain(body)
        found = next((j for j in range(at, len(tops)) if tops[j][1] == want), None)
        if found is not None:
            out[k] = tops[found][0]
            at = found + 1
    return out


_COMPUTES = re.compile(r"\d\s*[-+*/x\u00d7\u00f7]\s*[\d.(]|\)\s*[-+*/]")


def computes(annotation: str) -> bool:
    """Whether an annotation computes anything (``<<60=60>>`` only restates a number: no step).

    >>> computes("48/2=24"), computes("60=60")
    (True, False)
    """
    return bool(_COMPUTES.search(annotation.rpartition("=")[0] or annotation))


def _leaves(trace: Trace, step: Step, formula: str) -> list[Operand]:
    """A formula's operands in written order: its top step's, with sub-steps of the same formula expanded."""
    out: list[Operand] = []
    for o in step.operands:
        inner = trace.steps[o.step] if o.step is not None else None
        if inner is not None and inner.implicit and inner.formula == formula:
            out.extend(_leaves(trace, inner, formula))
        else:
            out.append(o)
    return out


def _spread(leaves: list[Operand], n: int) -> list[Operand] | None:
    """Spread operands that fold two literals (``2/5``, ``40/100``) over the literals they fold."""
    out: list[Operand] = []
    for leaf in leaves:
        text = leaf.text or ""
        out.extend([leaf] * (text.count("/") + 1))
    return out if len(out) == n else None


def _pointer(trace: Trace, o: Operand, annotation_of: Mapping[int, int], depth: int = 0) -> Pointer:
    if o.mention is not None:
        m: Mention = trace.mentions[o.mention]
        return Pointer("solution" if m.source == "solution" else "mention", spans=((m.start, m.end),))
    if o.constant is not None:
        return Pointer(
            "constant",
            spans=() if o.cue is None else ((o.cue[0], o.cue[1]),),
            value=float(IMPLICIT_CONSTANTS[o.constant].value),
        )
    step = o.step if o.step is not None else -1
    if step in annotation_of:
        return Pointer("step", step=annotation_of[step])
    inner = trace.steps[step]
    if not inner.implicit or inner.formula is not None or depth > 8:
        return Pointer("prose")
    spans: list[Span] = []
    for leaf in inner.operands:
        spans.extend(_pointer(trace, leaf, annotation_of, depth + 1).spans)
    return Pointer("derived", spans=tuple(spans))


def _correct(pred: Pointer, gold: GoldRef) -> bool:
    """Whether a prediction points where a gold reading does (see the module docstring)."""
    if gold.kind == "step":
        return pred.kind == "step" and pred.step == gold.step
    if gold.kind == "none":
        return False
    if gold.kind == "solution":
        return pred.kind == "prose" or (
            pred.kind == "solution" and gold.span is not None and any(_overlaps(s, gold.span) for s in pred.spans)
        )
    if gold.kind == "constant" and pred.kind == "constant" and pred.value == gold.value:
        return True
    if pred.kind not in ("mention", "constant", "derived") or gold.span is None:
        return False
    return any(_overlaps(s, gold.span) for s in pred.spans)


# ---------------------------------------------------------------- units


_IRREGULAR = {
    "$": "dollar", "%": "percent", "people": "person", "children": "child", "feet": "foot", "men": "man",
    "women": "woman", "teeth": "tooth", "mice": "mouse", "geese": "goose", "dollars": "dollar",
    # synonyms a reader and ssbg may each use for one thing
    "kid": "child", "kids": "child", "packet": "pack", "packets": "pack", "buck": "dollar", "bucks": "dollar",
}  # fmt: skip
_GENERIC_COUNTS = frozenset({"item", "piece", "unit", "thing", "one"})


def _noun(word: str) -> str:
    w = _IRREGULAR.get(word.lower(), word.lower())
    w = w.replace("-", "").replace(" ", "").replace("_", "")
    for suffix, repl in (("ies", "y"), ("ves", "f"), ("sses", "ss"), ("ches", "ch"), ("shes", "sh"), ("s", "")):
        if w.endswith(suffix) and len(w) > len(suffix) + 2 and not w.endswith("ss"):
            w = w[: -len(suffix)] + repl
            break
    # one written plural, two singular spellings: "stuffies" is a reader's "stuffie" and inflect's "stuffy"
    return w[:-2] + "y" if w.endswith("ie") and len(w) > 4 else w


def _same_noun(gold: str | None, pred: str | None) -> bool:
    if gold is None or pred is None:
        return gold is None and pred is None
    g, p = _noun(gold), _noun(pred)
    return g == p or p in _GENERIC_COUNTS or (min(len(g), len(p)) > 3 and (g.endswith(p) or p.endswith(g)))


def _mention_unit(m: Mention) -> tuple[str | None, str | None]:
    """(what, per what) of a predicted mention; (None, None) for a pure number."""
    if m.kind != "quantity":
        return None, None
    named = m.lemma or m.unit
    if named is None:
        return None, None
    num, sep, den = named.partition("_per_") if "_per_" in named else named.partition(" per ")
    return num.strip() or None, (den.strip() or None) if sep else None


# Words of a count of scale: the gold gives such a token the value of its things ("a dozen cupcakes":
# 12 cupcake), ssbg one of the scale ("a dozen": 1 dozen): one quantity, each unit right for its value.
_SCALE_WORDS = frozenset({"dozen", "pair"})


def _unit_right(gm: GoldMention, found: Mention | None) -> bool:
    if found is None:  # no quantity read there: right only for a pure number (twice, half) read as none
        return gm.unit is None and gm.per is None
    num, den = _mention_unit(found)
    scaled = num is not None and gm.unit is not None and _noun(num) in _SCALE_WORDS and _noun(gm.text) == _noun(num)
    return (scaled or _same_noun(gm.unit, num)) and _same_noun(gm.per, den)


# ---------------------------------------------------------------- scoring


@dataclass
class AlignmentScore:
    """The counts :func:`score` makes; the shares are properties."""

    problems: int = 0
    imported: int = 0
    exact: int = 0  # imported problems whose every operand is right
    operands: int = 0  # every gold operand
    judged: int = 0  # operands of imported problems
    correct: int = 0
    unmapped: int = 0  # operands of an annotation ssbg read into no step of its own (counted wrong)
    restating: int = 0  # operands of annotations that compute nothing (``<<60=60>>``), not judged
    mentions: int = 0  # gold question tokens that are quantities
    mentions_right: int = 0
    generic: int = 0  # right only because ssbg's count is the generic item ("$2 each" per item)
    folded: int = 0  # question tokens inside a mention another token starts ("dozen" of "5 dozen"), not judged
    confusions: Counter[tuple[str, str, bool]] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    unit_errors: list[str] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        """Right operands among those of imported problems."""
        return self.correct / max(1, self.judged)

    @property
    def exact_share(self) -> float:
        """Imported problems whose every operand is right."""
        return self.exact / max(1, self.imported)

    @property
    def unit_accuracy(self) -> float:
        """Question quantities whose unit ssbg reads as the reader states it (of all in imported problems)."""
        return self.mentions_right / max(1, self.mentions)


def _score_units(s: AlignmentScore, g: GoldProblem, trace: Trace) -> None:
    text_mentions = [m for m in trace.mentions if m.source == "text"]
    for gm in g.mentions:
        if gm.skip:
            continue
        found = next((m for m in text_mentions if _overlaps((m.start, m.end), gm.span)), None)
        if found is not None and found.start < gm.span[0] and any(
            found.start <= other.span[0] < gm.span[0] and not other.skip for other in g.mentions
        ):
            s.folded += 1  # "5 dozen cookies": the unit of the whole is judged at its number, 5
            continue
        s.mentions += 1
        if _unit_right(gm, found):
            s.mentions_right += 1
            if found is not None and _mention_unit(found)[1] in _GENERIC_COUNTS and gm.per not in _GENERIC_COUNTS:
                s.generic += 1
        else:
            got = "no quantity" if found is None else "{}/{}".format(*_mention_unit(found))
            s.unit_errors.append(f"{g.problem_id} {gm.text!r}: ssbg {got}, gold {gm.unit}/{gm.per}")


def score(gold: Iterable[GoldProblem], traces: Mapping[str, Trace | None]) -> AlignmentScore:
    """Compare ``traces`` (by problem id; None for a problem ssbg refused at import) with ``gold``.

    Only imported problems are judged (a refused problem binds nothing); the import count says how
    many that is.
    """
    s = AlignmentScore()
    for g in gold:
        s.problems += 1
        s.operands += sum(len(ops) for _, ops in g.steps)
        trace = traces.get(g.problem_id)
        if trace is None:
            continue
        s.imported += 1
        _score_units(s, g, trace)
        mapping = _annotation_steps(trace, [a for a, _ in g.steps])
        annotation_of = {step: k for k, step in mapping.items()}
        all_right = True
        for k, (annotation, ops) in enumerate(g.steps):
            if not computes(annotation):
                s.restating += len(ops)
                continue
            top = trace.steps[mapping[k]] if k in mapping else None
            leaves = None if top is None else _leaves(trace, top, top.formula or "")
            if leaves is not None and len(leaves) != len(ops):
                leaves = _spread(leaves, len(ops))
            s.judged += len(ops)
            if leaves is None:
                s.unmapped += len(ops)
                all_right = all_right and not ops
                for o in ops:
                    s.confusions[(o.kind, "unmapped", False)] += 1
                    s.errors.append(f"{g.problem_id} s{k} {annotation!r} {o.literal}: unmapped")
                continue
            for o, leaf in zip(ops, leaves, strict=True):
                pred = _pointer(trace, leaf, annotation_of)
                ok = any(_correct(pred, r) for r in o.refs)
                s.correct += ok
                all_right = all_right and ok
                s.confusions[(o.kind, pred.kind, ok)] += 1
                if not ok:
                    s.errors.append(f"{g.problem_id} s{k} {annotation!r} {o.literal}: gold {o.refs[0]}, ssbg {pred}")
        s.exact += all_right
    return s


# ---------------------------------------------------------------- CogComp


@dataclass(frozen=True, slots=True)
class CogCompAlignment:
    """Equation numbers of CogComp problems grounded without the corpus's alignments, against them."""

    problems: int
    imported: int
    numbers: int
    correct: int

    @property
    def accuracy(self) -> float:
        return self.correct / max(1, self.numbers)


def cogcomp_alignment(path: str | Path) -> CogCompAlignment:
    """Read every CogComp problem with its ``lAlignments`` withheld and score each equation number."""
    from ssbg.reading.readers.cogcomp import cogcomp_trace, pair_quantities
    from ssbg.reading.readers.common import iter_json_array

    problems = imported = numbers = correct = 0
    for raw in iter_json_array(Path(path)):
        data = json.loads(raw.data) if isinstance(raw.data, bytes | str) else raw.data
        if not isinstance(data, dict):
            continue
        problems += 1
        try:
            trace = cogcomp_trace(data, aligned=False)
        except ImportRefusal:
            continue
        imported += 1
        text_mentions = [m for m in trace.mentions if m.source == "text"]
        paired = pair_quantities([float(q) for q in data["quants"]], text_mentions)
        gold = [paired[a] for a in data["lAlignments"]]
        got = _equation_mentions(trace, data["lEquations"][0])
        numbers += len(gold)
        correct += sum(1 for want, have in zip(gold, got, strict=False) if want is not None and want == have)
    return CogCompAlignment(problems, imported, numbers, correct)


def _equation_mentions(trace: Trace, equation: str) -> list[int | None]:
    """The mention each number of the equation grounds to, in the equation's order (by where it is written)."""
    at: dict[int, int | None] = {}
    for step in trace.steps:
        for o in step.operands:
            if o.at is not None:
                at[o.at] = o.mention
    return [at.get(m.start()) for m in _LITERAL.finditer(equation)]


# ---------------------------------------------------------------- the report


def _line(name: str, s: AlignmentScore) -> str:
    return (
        f"| {name} | {s.problems} | {s.imported} | {s.judged:,} | {s.accuracy:.1%} | {s.exact_share:.1%} "
        f"| {s.unit_accuracy:.1%} ({s.mentions_right:,}/{s.mentions:,}) |"
    )


def report(corpora: str | Path, gold_path: str | Path | None = None) -> str:
    """Every alignment figure as markdown: the gold set by split and stratum, confusions, CogComp."""
    root = Path(corpora)
    path = Path(gold_path) if gold_path is not None else GOLD_FILE
    gold = load_gold(path)
    traces = gsm8k_traces(gold, root / "gsm8k/train.jsonl")
    subsets: list[tuple[str, list[GoldProblem]]] = [
        ("all", list(gold)),
        ("dev", [g for g in gold if g.split == "dev"]),
        ("held out", [g for g in gold if g.split == "heldout"]),
        ("repeated value", [g for g in gold if g.repeated_value]),
    ]
    lines = [
        "| gold subset | problems | imported | operands judged | operand accuracy | problems exact | mention units |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    whole = score(gold, traces)
    for name, subset in subsets:
        lines.append(_line(name, score(subset, traces)))
    lines += ["", "| gold kind | ssbg kind | right | count |", "|---|---|---|---:|"]
    for (gk, pk, ok), n in sorted(whole.confusions.items()):
        lines.append(f"| {gk} | {pk} | {'yes' if ok else 'no'} | {n} |")
    cog = root / "cogcomp_arithmetic/data/questions.json"
    if cog.exists():
        c = cogcomp_alignment(cog)
        lines += [
            "",
            f"CogComp, alignments withheld: {c.correct:,}/{c.numbers:,} equation numbers grounded to the "
            f"corpus's quantity ({c.accuracy:.1%}); {c.imported:,} of {c.problems:,} problems imported.",
        ]
    return "\n".join(lines) + "\n"


def _main(argv: Sequence[str] | None = None) -> int:  # pragma: no cover - exercised by make alignment
    import argparse

    parser = argparse.ArgumentParser(prog="python -m ssbg.stats.alignment", description="Score grounding against gold.")
    parser.add_argument("--corpora", default="../shared/corpora")
    parser.add_argument("--gold", default=None)
    parser.add_argument("--errors", action="store_true", help="list every wrong operand and unit")
    args = parser.parse_args(argv)
    print(report(args.corpora, args.gold), end="")  # noqa: T201 - a command's output
    if args.errors:
        gold = load_gold(args.gold or GOLD_FILE)
        s = score(gold, gsm8k_traces(gold, Path(args.corpora) / "gsm8k/train.jsonl"))
        for line in (*s.errors, *s.unit_errors):
            print(line)  # noqa: T201
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(_main())
