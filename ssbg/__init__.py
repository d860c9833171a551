"""ssbg: semantic-symbolic binding graphs of math word problems.

A binding graph is the typed seam between what a problem's text says
(entities, quantities with units, a question) and the equations a solver runs.
ssbg builds these graphs, proves or refuses every equation by dimensional
analysis over a closed unit vocabulary, draws them, and turns corpora into
refusal statistics.

Layering rule: **the core never imports the edges**, and the edges import one
another in one direction only.

- core (pure, no I/O at call time, no pandas/networkx/graphviz/ipywidgets):
  :mod:`ssbg.errors`, :mod:`ssbg.jsontext`, :mod:`ssbg.numbers`, :mod:`ssbg.model`,
  :mod:`ssbg.allocation`, :mod:`ssbg.units`, :mod:`ssbg.admissibility`,
  :mod:`ssbg.question`, :mod:`ssbg.problem`, :mod:`ssbg.adapter`,
  :mod:`ssbg.trace` (with :mod:`ssbg.trace_json`; it binds exactly the readings it is
  given, ADR 0035), :mod:`ssbg.constants`, :mod:`ssbg.kinds` (what is counted:
  the kind check read from a bound graph, ADR 0017), and :mod:`ssbg.files` (what
  the edges read and write goes through it: regular files only, outputs renamed
  into place).  It imports only the core.
- edges (import optional dependencies inside the functions that need them):

  - :mod:`ssbg.reading` (a problem's text and solution into a trace: readers,
    mentions, formulas, grounding, the text view; choosing and weighing readings,
    :mod:`ssbg.reading.choosing`) imports only the core;
  - :mod:`ssbg.views` (networkx, Graphviz, notebook display) imports neither
    reading nor stats;
  - :mod:`ssbg.stats` (batch binding, tables, plots, the report, gold
    agreement) imports only the core, reading and views;
  - :mod:`ssbg.lanes`, :mod:`ssbg.playground`, :mod:`ssbg.browser`,
    :mod:`ssbg.widgets` (the only ipywidgets importer) and :mod:`ssbg.cli`.

  - :mod:`ssbg.checking` (check a solution: verdicts, the ``check-solutions``
    batch) imports the core and reading (stats and views inside functions).

- No import circle anywhere, counting imports inside functions too.

Tests read every import of every module with ``ast`` and check these rules.

``import ssbg`` imports the core only; it stays cheap.  The one way from the
root to an edge is :data:`_LAZY_NAMES`: ``ssbg.check_solution`` (and the few
names beside it) import :mod:`ssbg.checking` on first use (PEP 562), and
``ssbg.analyse`` (a table per problem) :mod:`ssbg.stats.analyse` (ADR 0032), so the
verdict API is one attribute away without ``import ssbg`` paying for reading
(ADR 0019).  A test allows exactly that table and nothing else.

Examples
--------
>>> import ssbg
>>> ssbg.check_operation("divide", ["miles", "hours"]).to_canonical_string()
'divide: [length,time] -> length/time'
>>> ssbg.check_solution("Ann walks 3 miles an hour for 2 hours. How far does she walk?", "3 * 2 = 6 miles").status
'sound'
"""

import importlib
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ssbg.adapter import bind_math_problem_graph, holding_key
from ssbg.admissibility import (
    KIND_RULES,
    OPERATION_KINDS,
    REFUSED_UNIT_PROOF,
    EquationStamper,
    UnitProof,
    check_admissibility,
    check_operation,
)
from ssbg.allocation import allocate_symbols, slugify
from ssbg.errors import (
    ADMISSIBILITY_REASONS,
    BINDING_GRAPH_REASONS,
    GROUNDING_REASONS,
    IMPORT_REASONS,
    PACK_REASONS,
    PROBLEM_REASONS,
    QUESTION_TARGET_REASONS,
    REFUSAL_FAMILIES,
    REFUSAL_REASONS,
    UNIT_ALGEBRA_REASONS,
    AdmissibilityError,
    BindingGraphError,
    ImportRefusal,
    LaneError,
    PackError,
    ProblemGraphError,
    QuestionTargetError,
    SsbgError,
    UnitAlgebraError,
)
from ssbg.model import (
    ADMISSIBILITY_STATUSES,
    QUESTION_FORMS,
    SEMANTIC_ROLES,
    BoundConstraint,
    BoundEquation,
    BoundFact,
    BoundUnknown,
    SemanticSymbolicBindingGraph,
    SourceSpanLink,
    SymbolBinding,
)
from ssbg.problem import (
    Comparison,
    FractionPortion,
    InitialPossession,
    MathProblemGraph,
    Operation,
    PartitionChunk,
    Quantity,
    Rate,
    Unknown,
)
from ssbg.question import question_form_for, reconcile_target
from ssbg.units import (
    BASE_DIMENSIONS,
    DIMENSIONLESS,
    ResolvedUnit,
    UnitEntry,
    UnitPack,
    UnitVector,
    clear_pack_cache,
    corpus_pack,
    default_pack,
    load_pack,
    parse_unit,
    resolve_unit,
    unit_inverse,
    unit_power,
    unit_product,
    unit_quotient,
    units_equal,
)

if TYPE_CHECKING:  # pragma: no cover - the names _LAZY_NAMES gives, for type checkers
    from ssbg.checking import Finding, Verdict, check_solution, check_solutions
    from ssbg.stats.analyse import analyse

__version__ = "0.1.0"

_LAZY_NAMES = MappingProxyType(
    {
        "analyse": "ssbg.stats.analyse",
        "check_solution": "ssbg.checking",
        "check_solutions": "ssbg.checking",
        "Finding": "ssbg.checking",
        "Verdict": "ssbg.checking",
    }
)
"""Names of an edge module reachable from the root, imported on first use (PEP 562; ADR 0019)."""


def __getattr__(name: str) -> Any:
    """A name of :data:`_LAZY_NAMES`, imported from its edge module on first use (then kept)."""
    module = _LAZY_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module 'ssbg' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names (:data:`__all__`, the lazy ones included): not the helpers this module imports for itself
    (``importlib``, ``Any``, ``TYPE_CHECKING``), nor the submodules' names."""
    return sorted(__all__)

__all__ = [
    "ADMISSIBILITY_REASONS",
    "ADMISSIBILITY_STATUSES",
    "BASE_DIMENSIONS",
    "BINDING_GRAPH_REASONS",
    "DIMENSIONLESS",
    "GROUNDING_REASONS",
    "IMPORT_REASONS",
    "KIND_RULES",
    "OPERATION_KINDS",
    "PACK_REASONS",
    "PROBLEM_REASONS",
    "QUESTION_FORMS",
    "QUESTION_TARGET_REASONS",
    "REFUSAL_FAMILIES",
    "REFUSAL_REASONS",
    "REFUSED_UNIT_PROOF",
    "SEMANTIC_ROLES",
    "UNIT_ALGEBRA_REASONS",
    "AdmissibilityError",
    "BindingGraphError",
    "BoundConstraint",
    "BoundEquation",
    "BoundFact",
    "BoundUnknown",
    "Comparison",
    "EquationStamper",
    "Finding",
    "FractionPortion",
    "ImportRefusal",
    "InitialPossession",
    "LaneError",
    "MathProblemGraph",
    "Operation",
    "PackError",
    "PartitionChunk",
    "ProblemGraphError",
    "Quantity",
    "QuestionTargetError",
    "Rate",
    "ResolvedUnit",
    "SemanticSymbolicBindingGraph",
    "SourceSpanLink",
    "SsbgError",
    "SymbolBinding",
    "UnitAlgebraError",
    "UnitEntry",
    "UnitPack",
    "UnitProof",
    "UnitVector",
    "Unknown",
    "Verdict",
    "__version__",
    "allocate_symbols",
    "analyse",
    "bind_math_problem_graph",
    "check_admissibility",
    "check_operation",
    "check_solution",
    "check_solutions",
    "clear_pack_cache",
    "corpus_pack",
    "default_pack",
    "holding_key",
    "load_pack",
    "parse_unit",
    "question_form_for",
    "reconcile_target",
    "resolve_unit",
    "slugify",
    "unit_inverse",
    "unit_power",
    "unit_product",
    "unit_quotient",
    "units_equal",
]
