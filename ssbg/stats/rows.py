"""The rows of a corpus run: their columns, the closed vocabularies of those columns, the chunk they travel in.

:mod:`ssbg.stats.batch` fills rows in the orders :data:`PROBLEM_COLUMNS` and
:data:`EQUATION_COLUMNS`; :mod:`ssbg.stats.tables` types and summarizes them.
Both import this module and neither imports the other's definitions through
it, so the two stay free of an import circle.

Examples
--------
>>> PROBLEM_COLUMNS[:4]
('corpus', 'problem_id', 'source', 'outcome')
>>> unit_key("cookies")
'cookie'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ssbg.adapter import holding_key
from ssbg.model import SemanticSymbolicBindingGraph
from ssbg.reading.mentions import unit_lemma
from ssbg.units import UnitPack, default_pack

__all__ = [
    "ANSWER_UNIT_AGREEMENTS",
    "CHUNK_ROWS",
    "DRILLDOWN_KINDS",
    "EQUATION_COLUMNS",
    "KIND_COLUMNS",
    "PROBLEM_COLUMNS",
    "PROBLEM_OUTCOMES",
    "UNREADABLE_IMPORT_REASONS",
    "BatchChunk",
    "Drilldown",
    "unit_key",
]

# What became of a problem, worst first.
PROBLEM_OUTCOMES: tuple[str, ...] = (
    "import_refused",  # the record could not be read (typed ImportRefusal)
    "bind_failed",  # binding raised a typed SsbgError
    "equation_refused",  # at least one equation refused
    "target_refused",  # every equation admitted, the question target refused
    "admitted",  # every equation admitted and the target bound
)

ANSWER_UNIT_AGREEMENTS: tuple[str, ...] = (
    "agree",  # same unit (same pack lemma, or the same open noun)
    "same_dimension",  # commensurable units of different names (dollars vs cents)
    "disagree",
    "no_prediction",  # the binding names no answer unit
    "no_gold",  # the corpus states no answer unit
)

# Import refusals that mean the line itself is unreadable ("bad lines" in the report).
UNREADABLE_IMPORT_REASONS: frozenset[str] = frozenset(
    {"malformed_record", "encoding_error", "record_too_large", "unreadable_file"}
)

DRILLDOWN_KINDS: tuple[str, ...] = ("equation", "target", "import")

PROBLEM_COLUMNS: tuple[str, ...] = (
    "corpus",
    "problem_id",
    "source",
    "outcome",
    "import_status",
    "import_reason",
    "import_detail",
    "import_path",
    "import_message",
    "bind_error",
    "n_symbols",
    "n_facts",
    "n_equations",
    "n_admitted",
    "n_refused",
    "n_root_cause",
    "n_propagated",
    "n_unknowns",
    "question_form",
    "state_index",
    "target_status",
    "target_reason",
    "expected_unit",
    "predicted_answer_unit",
    "gold_answer_unit",
    "answer_unit_agreement",
    # the least P(a plausible reading admits it) of the problem's dimension refusals (ssbg.reading.weighing, ADR
    # 0031): a dimension error is found at ε when it is below ε; missing when the problem has no such refusal
    "dimension_support",
)

EQUATION_COLUMNS: tuple[str, ...] = (
    "corpus",
    "problem_id",
    "index",
    "lhs",
    "kind",
    "status",
    "reason",
    "root_cause",
    "propagated_from",
    "lhs_unit",
    "operand_units",
    "offending_unit",
    "unknown_units",
    "blocking_units",
    "pack_fixable",
    "unit_proof",
    "span_text",
    "span_start",
    "span_end",
    # a root refusal of a dimension reason: P(a plausible reading admits it) (ADR 0034); else missing
    "support",
)

# One row per finding or note of the kind check (ssbg.kinds, ADR 0017): apart from the refusals.
KIND_COLUMNS: tuple[str, ...] = (
    "corpus",
    "problem_id",
    "index",  # the equation's index (for a target: the answering equation's; -1 when the answer is no equation)
    "lhs",  # that equation's lhs symbol
    "where",  # equation or target
    "finding",  # ssbg.kinds.KIND_FINDINGS: count_kind_mismatch (a finding) or mixed_kinds (a note)
    "nouns",  # the nouns that disagree, ';'-joined (a rate's then the count's; asked then answered; a sum's, sorted)
    "detail",
)

CHUNK_ROWS = 20_000


@dataclass(frozen=True, slots=True)
class Drilldown:
    """One problem kept for the report's drill-downs.

    ``kind`` is ``equation``, ``target`` or ``import`` (what was refused) and
    ``reason`` the refusal reason; ``graph`` is the bound graph (``None`` for an
    import refusal) and ``payload`` what it was bound from (a trace or a
    ``MathProblemGraph``), for the highlighted text view.
    """

    corpus: str
    problem_id: str
    source: str
    kind: str
    reason: str
    text: str | None
    detail: str | None
    graph: SemanticSymbolicBindingGraph | None
    payload: object = None

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.corpus, self.kind, self.reason)


@dataclass(frozen=True, slots=True)
class BatchChunk:
    """Rows of a batch of records, and its first drill-downs per (corpus, kind, reason)."""

    problems: tuple[tuple[Any, ...], ...]
    equations: tuple[tuple[Any, ...], ...]
    drilldowns: tuple[Drilldown, ...]
    kinds: tuple[tuple[Any, ...], ...] = ()  # rows of KIND_COLUMNS
    trained: int = 0  # problems of the batch the reading model was trained on (ssbg.stats.insample)


def unit_key(part: str, pack: UnitPack | None = None) -> str:
    """The leaderboard key of an unknown unit part: its lemma.

    A noun's singular as the readers lemmatize it (:func:`ssbg.reading.mentions.unit_lemma`,
    ``inflect``), so ``cookies`` and ``cookie`` are one unit a pack author would add, and ``times``
    stays ``times`` (a count of repetitions, not ``time``); a part the pack resolves keeps the key
    the adapter threads its holdings by (:func:`ssbg.adapter.holding_key`).

    Examples
    --------
    >>> unit_key("apples"), unit_key("cookies"), unit_key("times"), unit_key("red_apples")
    ('apple', 'cookie', 'times', 'red_apple')
    """
    p = default_pack() if pack is None else pack
    if not isinstance(p.lookup(part), str):
        return holding_key(part, p)
    return unit_lemma(part.replace("_", " "), p)
