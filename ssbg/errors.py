"""One error hierarchy for ssbg.

Every error is an :class:`SsbgError` that also inherits the builtin it refines
(``ValueError``), carries a machine-readable ``reason`` drawn from the closed set
its class declares, an optional ``path`` (a JSON path such as
``$.operations[2].operand.value`` or a ``file:line``), and an optional
``detail``.  Statistics group by ``reason`` and by fields, never by message
text.  All errors pickle (they cross process boundaries in batch runs).
"""

from __future__ import annotations

import errno
from types import MappingProxyType
from typing import Any, ClassVar

__all__ = [
    "ADMISSIBILITY_REASONS",
    "BINDING_GRAPH_REASONS",
    "GROUNDING_REASONS",
    "IMPORT_REASONS",
    "LANE_REASONS",
    "NUMBER_REASONS",
    "OUTPUT_REASONS",
    "PACK_REASONS",
    "PROBLEM_REASONS",
    "QUESTION_TARGET_REASONS",
    "REASON_GLOSSARY",
    "REFUSAL_FAMILIES",
    "REFUSAL_REASONS",
    "UNIT_ALGEBRA_REASONS",
    "UNIT_RULES",
    "AdmissibilityError",
    "BindingGraphError",
    "ImportRefusal",
    "LaneError",
    "NumberError",
    "OutputError",
    "PackError",
    "ProblemGraphError",
    "QuestionTargetError",
    "SsbgError",
    "UnitAlgebraError",
    "glossary_text",
    "output_error",
    "refusal_family",
    "shown",
]

BINDING_GRAPH_REASONS: frozenset[str] = frozenset(
    {
        "invalid_field",  # a field has the wrong type or an empty/invalid value
        "invalid_span",  # empty, inverted or inconsistent source span
        "invalid_identifier",  # a symbol id that is not a Python identifier
        "unknown_role",  # semantic_role outside SEMANTIC_ROLES
        "unknown_status",  # admissibility_status outside ADMISSIBILITY_STATUSES
        "refusal_reason_mismatch",  # refusal_reason missing on refused / present otherwise
        "unknown_refusal_reason",  # refusal_reason outside REFUSAL_REASONS (ADR 0024)
        "duplicate_symbol",  # two symbols share an id
        "unknown_reference",  # a fact/equation/unknown/constraint names no known symbol
        "circular_dependency",  # equations depend on themselves through a cycle
        "allocation_refused",  # allocate_symbols got input it cannot allocate
    }
)

UNIT_ALGEBRA_REASONS: frozenset[str] = frozenset({"unknown_unit", "malformed_unit"})

PACK_REASONS: frozenset[str] = frozenset(
    {
        "pack_missing",  # the pack folder or one of its files does not exist
        "malformed_row",  # a lexicon row is not valid JSON or misses/mistypes a field
        "duplicate_entry",  # two rows claim the same lemma or surface
        "manifest_invalid",  # manifest.json is malformed
        "checksum_mismatch",  # lexicon bytes do not match the manifest checksum
        "row_count_mismatch",  # manifest row count differs from the lexicon
        "pack_conflict",  # two composed packs claim one lemma or surface with different entries
    }
)

ADMISSIBILITY_REASONS: frozenset[str] = frozenset(
    {
        "unit_mismatch",
        "unknown_unit",
        "unit_unbound",
        "unknown_symbol",
        "unknown_operation",
        "operand_arity",
        "rate_form_invalid",
    }
)
"""The closed set of the unit-admissibility rules (ADR-0134), exactly: why dimensional analysis refuses an
equation (every :class:`AdmissibilityError` carries one)."""

GROUNDING_REASONS: frozenset[str] = frozenset(
    {
        # a refusal that a tied grounding or a second unit reading the words support as well would not make:
        # ssbg could not tell which reading the text means (ADR 0018, ADR 0024)
        "ambiguous_grounding",
    }
)
"""Outcomes of reading, stamped on an equation beside the admissibility reasons: never a finding of
dimensional analysis, never evidence of an error (ADR 0024)."""

REFUSAL_REASONS: frozenset[str] = ADMISSIBILITY_REASONS | GROUNDING_REASONS
"""Every reason a :class:`~ssbg.model.BoundEquation` may be refused with: the two families' union."""

REFUSAL_FAMILIES: tuple[str, ...] = ("admissibility", "grounding")
"""The families of :data:`REFUSAL_REASONS`, in the order tables and reports show them."""


def refusal_family(reason: str) -> str:
    """The family of an equation's refusal reason: ``"admissibility"`` or ``"grounding"``.

    >>> refusal_family("unit_mismatch"), refusal_family("ambiguous_grounding")
    ('admissibility', 'grounding')
    >>> refusal_family("no_such_reason")
    Traceback (most recent call last):
    ...
    ValueError: 'no_such_reason' is not an equation refusal reason (ssbg.errors.REFUSAL_REASONS)
    """
    if reason in ADMISSIBILITY_REASONS:
        return "admissibility"
    if reason in GROUNDING_REASONS:
        return "grounding"
    raise ValueError(f"{reason!r} is not an equation refusal reason (ssbg.errors.REFUSAL_REASONS)")


PROBLEM_REASONS: frozenset[str] = frozenset(
    {
        "malformed_json",  # text that is not JSON at all
        "missing_field",
        "unexpected_field",
        "wrong_type",
        "invalid_value",
        "unknown_entity",
        "duplicate_entity",
        "contradictory_possession",
        "operand_kind_mismatch",  # operand type does not fit the operation kind
        "unknown_operation",
    }
)

QUESTION_TARGET_REASONS: frozenset[str] = frozenset(
    {
        "expected_unit_mismatch",  # question's unit differs from the resolving equation's admitted unit
        "ambiguous_target",  # several holdings could answer the question
        "unbound_target",  # nothing in the problem produces the asked-for holding
        "unresolved_upstream",  # the resolving equation was refused
        "unknown_expected_unit",  # the question's unit is outside the pack
    }
)

IMPORT_REASONS: frozenset[str] = frozenset(
    {
        "malformed_record",  # JSON/XML/CSV that does not parse, wrong types, missing fields
        "empty_text",
        "no_equation",
        "unparseable_formula",
        "operand_not_found",  # a number neither in the text, earlier steps nor constants
        "unsupported_operation",  # GCD, LCM, remainders, comparisons, algebra, ...
        "encoding_error",  # bytes that are not UTF-8, a file in UTF-16/32, text with a lone surrogate
        "record_too_large",
        "number_out_of_range",  # a number too long, too large, NaN or infinite (ssbg.numbers); detail: the field
        "unreadable_file",  # not a regular file (a FIFO, a device), or the file system refused to read it
        "reader_error",  # an unexpected failure while reading this one record (a bug): the run goes on
    }
)

UNIT_RULES = "the unit-admissibility rules (ADR-0134 of the spec, docs/spec/ADR-0134-binding-graph-admissibility.md)"
"""How a page or a message names ADR-0134: what it is, then where to read it."""

REASON_GLOSSARY = MappingProxyType(
    {
        # why an equation is refused: the unit-admissibility rules (ADR-0134) ...
        "unit_mismatch": "The units of a step's numbers do not fit its arithmetic (hours added to dollars): a "
        "dimension error of the problem, of its solution, or of how ssbg read the words.",
        "unknown_unit": "A word read as a unit is not in the pack, so the step cannot be checked: a gap in "
        "coverage, not an error.",
        "unit_unbound": "A number of the step has no unit: the words give none, or it is the result of a step "
        "that was refused (then the refusal is propagated, counted at its root).",
        "unknown_symbol": "The step uses a quantity that the problem never defines.",
        "unknown_operation": "The step is an operation ssbg does not check (only add, subtract, transfer, "
        "multiply, divide, apply_rate, the comparisons, fraction_portion and unit_partition are).",
        "operand_arity": "The step has too few or too many numbers for its operation (a rate applied to "
        "nothing), so it has no unit to give its result.",
        "rate_form_invalid": "A step that applies a rate has no number in the form X per Y (dollars per hour), "
        "or more than one.",
        # ... and of reading (ADR 0018, ADR 0024)
        "ambiguous_grounding": "The words support two readings of a number and only one makes the step fit: "
        "ssbg could not tell which the text means, so it says so instead of counting a mismatch.",
        # why a question's target is refused
        "expected_unit_mismatch": "The answer comes out in a unit other than the one the question asks for "
        "(minutes asked, dollars computed): a dimension error.",
        "ambiguous_target": "Several quantities of the problem could answer the question, and nothing says which.",
        "unbound_target": "No step of the solution produces the quantity the question asks for.",
        "unresolved_upstream": "The step that answers the question was refused, so the answer has no checked unit.",
        "unknown_expected_unit": "The unit the question asks for is not in the pack.",
        # why a record could not be read at all
        "malformed_record": "The record is not valid JSON, XML or CSV, or misses a field or gives it the "
        "wrong type.",
        "empty_text": "A text field of the record is empty.",
        "no_equation": "The solution has no arithmetic ssbg can read as steps.",
        "unparseable_formula": "A formula of the solution does not parse.",
        "operand_not_found": "A number of the solution is neither in the question, an earlier step nor a known "
        "constant (a result worked out in the solver's head).",
        "unsupported_operation": "The solution uses arithmetic ssbg does not model (remainders, GCD, algebra "
        "in more than one unknown, ...).",
        "encoding_error": "The bytes are not UTF-8 text.",
        "record_too_large": "The record is larger than ssbg reads.",
        "number_out_of_range": "A number is too long, too large, not a number or infinite.",
        "unreadable_file": "The file cannot be read (no such file, not a regular file, a damaged gzip stream).",
        "reader_error": "Reading this one record failed unexpectedly (a bug of ssbg); the run went on.",
    }
)
"""Each refusal reason in one plain sentence: an equation's (:data:`REFUSAL_REASONS`), a question target's
(:data:`QUESTION_TARGET_REASONS`) and a record's (:data:`IMPORT_REASONS`).  The report's glossary and
``ssbg --help`` print it."""


def glossary_text(width: int = 116) -> str:
    """:data:`REASON_GLOSSARY` as plain text, a reason a paragraph (``ssbg --help``)."""
    import textwrap

    return "\n".join(textwrap.fill(f"{reason}: {said}", width, initial_indent="  ", subsequent_indent="      ")
                     for reason, said in REASON_GLOSSARY.items())


LANE_REASONS: frozenset[str] = frozenset({"malformed_lane", "lane_missing"})

NUMBER_REASONS: frozenset[str] = frozenset(
    {
        "not_a_number",  # text that is no number, a JSON value that is not an int or a float (or is a bool)
        "number_out_of_range",  # longer than MAX_NUMBER_CHARS, beyond MAX_MAGNITUDE, NaN or infinite
    }
)

OUTPUT_REASONS: frozenset[str] = frozenset(
    {
        "not_writable",  # no permission, a read-only file system
        "not_a_directory",  # a folder on the way is a file
        "is_a_directory",  # the output file names a folder
        "no_space",  # the disk (or the quota) is full
        "write_failed",  # any other error of the file system while writing
        "not_a_regular_file",  # the output names a FIFO, a device or a socket: never replaced by a file
        "output_is_input",  # the output is a file the run reads (the records, the error steps)
        "outputs_collide",  # two outputs of one run are one file
        "wrong_suffix",  # the output's suffix is not its format's (verdicts .csv, a page .html)
        "output_locked",  # another run is writing the same output set (ADR 0033)
    }
)


def _restore(cls: type[SsbgError], args: tuple[Any, ...], state: dict[str, Any]) -> SsbgError:
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error


class SsbgError(Exception):
    """Base class of every ssbg error.

    Parameters
    ----------
    message
        Human-readable text; never parse it, read the fields.
    reason
        Machine-readable reason from the subclass's closed ``REASONS`` set.
    path
        Where the bad input is: a JSON path (``$.entities[1]``) or ``file:line``.
    detail
        Short machine-friendly detail (the offending value, a unit, a cycle).
    """

    REASONS: ClassVar[frozenset[str]] = frozenset()

    reason: str
    path: str | None
    detail: str | None

    def __init__(
        self,
        message: str,
        *,
        reason: str,
        path: str | None = None,
        detail: str | None = None,
    ) -> None:
        if reason not in self.REASONS:
            raise ValueError(f"{type(self).__name__}: reason {reason!r} is not one of {sorted(self.REASONS)}")
        super().__init__(message)
        self.reason = reason
        self.path = path
        self.detail = detail

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (type(self), self.args, dict(self.__dict__)))

    def __str__(self) -> str:
        where = f" (at {self.path})" if self.path else ""
        return f"{self.message}{where}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(reason={self.reason!r}, path={self.path!r}, message={self.message!r})"


class BindingGraphError(SsbgError, ValueError):
    """Invalid construction of a binding-graph value (ADR-0132)."""

    REASONS = BINDING_GRAPH_REASONS


class UnitAlgebraError(SsbgError, ValueError):
    """A unit the closed pack does not resolve, or a malformed unit text (ADR-0134).

    The message starts with ``"<reason>: "`` as ADR-0134 prescribes
    (``"unknown_unit: apples"``).
    """

    REASONS = UNIT_ALGEBRA_REASONS


class PackError(SsbgError, ValueError):
    """A unit pack that does not load, validate or compose.

    ``path`` is ``file:line`` for a bad row; for a ``pack_conflict`` it is the
    composition (``en_units_v1+en_counts_v1``), ``detail`` the lemma or
    surface both packs claim and ``packs`` the names of the two packs.
    """

    REASONS = PACK_REASONS

    packs: tuple[str, ...]

    def __init__(
        self,
        message: str,
        *,
        reason: str,
        path: str | None = None,
        detail: str | None = None,
        packs: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message, reason=reason, path=path, detail=detail)
        self.packs = packs


class AdmissibilityError(SsbgError, ValueError):
    """A typed admissibility refusal.

    ``offending_unit`` names the unit text or vector that caused the refusal
    when there is one (for the unknown-unit leaderboard).
    """

    REASONS = ADMISSIBILITY_REASONS

    offending_unit: str | None

    def __init__(
        self,
        message: str,
        *,
        reason: str,
        path: str | None = None,
        detail: str | None = None,
        offending_unit: str | None = None,
    ) -> None:
        super().__init__(message, reason=reason, path=path, detail=detail)
        self.offending_unit = offending_unit


class ProblemGraphError(SsbgError, ValueError):
    """Malformed ``MathProblemGraph`` input; ``path`` is the JSON path."""

    REASONS = PROBLEM_REASONS


class QuestionTargetError(SsbgError, ValueError):
    """A question target that cannot be bound (phase 4)."""

    REASONS = QUESTION_TARGET_REASONS


class ImportRefusal(SsbgError, ValueError):  # noqa: N818 - a refusal is the domain word
    """A corpus record that cannot be read into a trace.

    ``problem_id`` and ``corpus`` say which record; ``path`` is ``file:line``.
    """

    REASONS = IMPORT_REASONS

    problem_id: str | None
    corpus: str | None

    def __init__(
        self,
        message: str,
        *,
        reason: str,
        path: str | None = None,
        detail: str | None = None,
        problem_id: str | None = None,
        corpus: str | None = None,
    ) -> None:
        super().__init__(message, reason=reason, path=path, detail=detail)
        self.problem_id = problem_id
        self.corpus = corpus


class LaneError(SsbgError, ValueError):
    """A lane file that cannot be read."""

    REASONS = LANE_REASONS


class NumberError(SsbgError, ValueError):
    """A number that is no number or lies outside ssbg's bounds (:mod:`ssbg.numbers`).

    ``path`` names the field it was read from where the caller knows it;
    ``detail`` is the number as written (cut to 80 characters).  The message
    starts with ``"<reason>: "``.
    """

    REASONS = NUMBER_REASONS


class OutputError(SsbgError, OSError):
    """A file ssbg was asked to write and could not; ``path`` is that file or folder.

    It refines :class:`OSError` (a file-system fault, not a bad value); the
    reason comes from the ``errno`` (:func:`output_error`).  Nothing partial is
    left behind: outputs are written beside their target and renamed into place.
    """

    REASONS = OUTPUT_REASONS


_ERRNO_REASONS = {
    errno.EACCES: "not_writable",
    errno.EPERM: "not_writable",
    errno.EROFS: "not_writable",
    errno.ENOTDIR: "not_a_directory",
    errno.EISDIR: "is_a_directory",
    errno.ENOSPC: "no_space",
    errno.EDQUOT: "no_space",
}


def output_error(exc: OSError, path: str, doing: str = "write") -> OutputError:
    """The :class:`OutputError` of an ``OSError`` met while writing ``path``."""
    reason = _ERRNO_REASONS.get(exc.errno or 0, "write_failed")
    why = exc.strerror or type(exc).__name__
    return OutputError(f"cannot {doing} {path}: {why}", reason=reason, path=path, detail=why)


def shown(value: object, limit: int = 80) -> str:
    """``repr(value)`` for an error message, at most ``limit`` characters; never raises.

    Python refuses to write an int of more than 4,300 digits as text (``sys.get_int_max_str_digits``):
    a message naming one would raise ``ValueError`` while it is built, instead of the typed error.

    >>> shown(10**5000), shown("x" * 100)[-6:]
    ('<an int of 5001 digits>', 'xxx...')
    """
    try:
        text = repr(value)
    except ValueError:  # an int past the digit limit, or a container holding one
        if isinstance(value, int):
            return f"<an int of {abs(value).bit_length() * 30103 // 100000 + 1} digits>"
        return f"<a {type(value).__name__} holding an int too long to write>"
    return text if len(text) <= limit else text[: limit - 3] + "..."
