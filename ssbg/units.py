"""Unit algebra over a closed unit pack (ADR-0134).

A unit's dimension is an integer exponent vector over :data:`BASE_DIMENSIONS`.
Unit texts resolve only through a loaded :class:`UnitPack` (``en_units_v1`` by
default): the pack's lemmas and listed surfaces (``feet``, ``$``, ``square
feet``), composites ``<num>_per_<denom>`` (also written ``<num> per <denom>``; a listed
unit is never split, see :meth:`UnitPack._best_split`),
then a conservative depluralization (``apples`` -> ``apple``) that still only
accepts what the pack lists.  Anything else refuses with
``UnitAlgebraError("unknown_unit: ...")``: no unit is invented.

The pack is read from disk once, at the first lookup, and memoized as an
immutable value; :func:`clear_pack_cache` drops it (for tests).

Packs compose (ADR 0017): ``compose(a, b)`` or ``a + b`` is one pack whose
lemmas and surfaces are both packs' (a lemma or surface claimed by both with
different entries is a ``PackError`` ``pack_conflict``), named
``en_units_v1+en_counts_v1`` and keeping every component's name, version and
checksum in :attr:`UnitPack.components`.  ``load_pack("en_units_v1+en_counts_v2+en_measures_v1")``
loads the units, the count nouns and the measures (ADR 0026) composed; that is the
default of corpus work (:data:`CORPUS_PACK_NAME`, :func:`corpus_pack`: reports, tables,
the browser), while this module, the core API and
the lanes keep :data:`DEFAULT_PACK_NAME`.

Examples
--------
>>> parse_unit("dollars_per_hour").to_canonical_string()
'money/time'
>>> unit_product(parse_unit("dollar_per_hour"), parse_unit("hours")) == parse_unit("cent")
True
>>> parse_unit("apples")
Traceback (most recent call last):
...
ssbg.errors.UnitAlgebraError: unknown_unit: 'apples'
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from ssbg import jsontext
from ssbg.errors import NumberError, PackError, UnitAlgebraError, shown
from ssbg.numbers import MAX_MAGNITUDE, parse_ratio

if TYPE_CHECKING:  # imported where a pack is read, not at `import ssbg` (ADR 0015: import time)
    from fractions import Fraction
    from pathlib import Path

__all__ = [
    "BASE_DIMENSIONS",
    "CORPUS_PACK_NAME",
    "DEFAULT_PACK_NAME",
    "DIMENSIONLESS",
    "PACK_DOMAINS",
    "PackComponent",
    "ResolvedUnit",
    "UnitEntry",
    "UnitPack",
    "UnitVector",
    "clear_pack_cache",
    "compose",
    "composition_checksum",
    "corpus_pack",
    "default_pack",
    "load_pack",
    "parse_unit",
    "resolve_unit",
    "unit_inverse",
    "unit_power",
    "unit_product",
    "unit_quotient",
    "units_equal",
]

BASE_DIMENSIONS: tuple[str, ...] = ("length", "time", "mass", "money", "count", "temperature")
DEFAULT_PACK_NAME = "en_units_v1"
CORPUS_PACK_NAME = "en_units_v1+en_counts_v2+en_measures_v1"
"""The pack corpus work binds with when none is given (ADR 0017; the count nouns' v2 and the measures,
ADR 0026): ``ssbg report``, the batch and
table functions of :mod:`ssbg.stats`, the corpus browser, the solution checker.  The core API
(``parse_unit``, ``check_operation``, ``bind_*``), ``ssbg check``/``bind``/``lane`` and the lanes
keep :data:`DEFAULT_PACK_NAME`."""
_BASE_SET = frozenset(BASE_DIMENSIONS)

PACK_DOMAINS: frozenset[str] = frozenset(
    {
        "count",
        "length",
        "time",
        "mass",
        "volume",
        "money",
        "temperature",
        "area",
        "speed",
        "density",
        "frequency",
        "wage",
        "unit_price",
        "dimensionless",
    }
)


# tuple.__new__ skips the generated NamedTuple constructor: the hot path of the algebra (its exponents
# are sums and differences of ints, so they need no check).
_new = tuple.__new__


class _Exponents(NamedTuple):
    """The fields of :class:`UnitVector` (a NamedTuple cannot define ``__new__`` itself)."""

    length: int = 0
    time: int = 0
    mass: int = 0
    money: int = 0
    count: int = 0  # type: ignore[assignment]  # the field shadows tuple.count on purpose
    temperature: int = 0


class UnitVector(_Exponents):
    """Integer exponents over :data:`BASE_DIMENSIONS`; an immutable, hashable value.

    ``UnitVector(money=1, time=-1)`` is money per time.  ``*`` and ``/`` are the
    unit product and quotient.  Every exponent is an ``int`` (ADR-0134: an
    integer exponent vector): a float, a bool or anything else refuses with
    ``UnitAlgebraError`` (``malformed_unit``) at construction, ``_make`` and
    ``_replace`` included.

    >>> UnitVector(length=0.5)
    Traceback (most recent call last):
    ...
    ssbg.errors.UnitAlgebraError: malformed_unit: exponent 'length' must be an int (got float 0.5) (at length)
    """

    __slots__ = ()

    def __new__(
        cls, length: int = 0, time: int = 0, mass: int = 0, money: int = 0, count: int = 0, temperature: int = 0
    ) -> UnitVector:
        if (
            type(length) is int
            and type(time) is int
            and type(mass) is int
            and type(money) is int
            and type(count) is int
            and type(temperature) is int
        ):
            return _new(cls, (length, time, mass, money, count, temperature))
        values = (length, time, mass, money, count, temperature)
        return _new(cls, tuple(_exponent(name, v) for name, v in zip(BASE_DIMENSIONS, values, strict=True)))

    @classmethod
    def _make(cls, iterable: Iterable[int]) -> UnitVector:  # type: ignore[override]
        """A vector from six exponents, validated like the constructor (``_replace`` goes through it)."""
        values = tuple(iterable)
        if len(values) != len(BASE_DIMENSIONS):
            raise UnitAlgebraError(
                f"malformed_unit: a UnitVector has {len(BASE_DIMENSIONS)} exponents (got {len(values)})",
                reason="malformed_unit",
                detail=repr(values),
            )
        return cls(*values)

    def __mul__(self, other: object) -> UnitVector:  # type: ignore[override,unused-ignore]
        if not isinstance(other, UnitVector):
            return NotImplemented
        return unit_product(self, other)

    def __truediv__(self, other: object) -> UnitVector:
        if not isinstance(other, UnitVector):
            return NotImplemented
        return unit_quotient(self, other)

    def __str__(self) -> str:
        return self.to_canonical_string()

    @property
    def is_dimensionless(self) -> bool:
        return not any(self)

    def to_canonical_string(self) -> str:
        """Positive exponents over negative ones, in base order.

        >>> UnitVector(money=1, time=-1, count=-1).to_canonical_string()
        'money/time*count'
        >>> UnitVector(time=-1).to_canonical_string()
        '1/time'
        >>> UnitVector(length=3).to_canonical_string()
        'length^3'
        """
        return _canonical(self)

    def as_dict(self) -> dict[str, int]:
        """Non-zero exponents by dimension name."""
        return {name: exp for name, exp in zip(BASE_DIMENSIONS, self, strict=True) if exp}


DIMENSIONLESS = UnitVector()


def _exponent(name: str, value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    raise UnitAlgebraError(
        f"malformed_unit: exponent {name!r} must be an int (got {type(value).__name__} {value!r})",
        reason="malformed_unit",
        path=name,
        detail=repr(value),
    )


@functools.lru_cache(maxsize=4096)
def _canonical(vector: UnitVector) -> str:
    def factor(name: str, exp: int) -> str:
        return name if exp == 1 else f"{name}^{exp}"

    num = [factor(n, e) for n, e in zip(BASE_DIMENSIONS, vector, strict=True) if e > 0]
    den = [factor(n, -e) for n, e in zip(BASE_DIMENSIONS, vector, strict=True) if e < 0]
    if not num and not den:
        return "dimensionless"
    top = "*".join(num) if num else "1"
    return f"{top}/{'*'.join(den)}" if den else top


def _check_vector(value: object, name: str) -> UnitVector:
    if type(value) is not UnitVector:
        raise UnitAlgebraError(
            f"malformed_unit: '{name}' must be a UnitVector (got {type(value).__name__})",
            reason="malformed_unit",
            path=name,
            detail=repr(value),
        )
    return value


def unit_product(a: UnitVector, b: UnitVector) -> UnitVector:
    """The unit of ``a * b``: exponents add.  Commutative and associative."""
    if type(a) is not UnitVector or type(b) is not UnitVector:
        _check_vector(a, "a")
        _check_vector(b, "b")
    return _new(UnitVector, (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4], a[5] + b[5]))


def unit_inverse(v: UnitVector) -> UnitVector:
    """The unit of ``1 / v``: exponents negate.  An involution."""
    if type(v) is not UnitVector:
        _check_vector(v, "v")
    return _new(UnitVector, (-v[0], -v[1], -v[2], -v[3], -v[4], -v[5]))


def unit_quotient(a: UnitVector, b: UnitVector) -> UnitVector:
    """The unit of ``a / b``; ``unit_quotient(v, v) == DIMENSIONLESS``."""
    if type(a) is not UnitVector or type(b) is not UnitVector:
        _check_vector(a, "a")
        _check_vector(b, "b")
    return _new(UnitVector, (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3], a[4] - b[4], a[5] - b[5]))


def unit_power(v: UnitVector, n: int) -> UnitVector:
    """The unit of ``v ** n`` for an integer ``n``."""
    _check_vector(v, "v")
    if not isinstance(n, int) or isinstance(n, bool):
        raise UnitAlgebraError(
            f"malformed_unit: exponent must be an int (got {n!r})",
            reason="malformed_unit",
            path="n",
            detail=repr(n),
        )
    return UnitVector(*(e * n for e in v))


def units_equal(a: UnitVector, b: UnitVector) -> bool:
    """Dimensional equality of two vectors."""
    return _check_vector(a, "a") == _check_vector(b, "b")


# --------------------------------------------------------------------------- pack


@dataclass(frozen=True, slots=True)
class UnitEntry:
    """One lemma of a pack.

    ``ratio`` is the unit's size in the coherent base units of the pack (foot,
    minute, pound, cent, item, degree Fahrenheit and their products); ``None``
    when the pack fixes no scale (a ``box`` of unknown size, a currency whose
    exchange rate varies).  ``canonical`` marks the domain's reference unit.
    """

    lemma: str
    plural: str
    surfaces: tuple[str, ...]
    domain: str
    dimension: UnitVector
    ratio: Fraction | None
    canonical: bool = False
    container_size: int | None = None


@dataclass(frozen=True, slots=True)
class ResolvedUnit:
    """What a unit text resolved to: lemma (or composite of lemmas), vector, ratio."""

    text: str
    lemma: str
    dimension: UnitVector
    ratio: Fraction | None
    via: str  # "lemma", "surface", "composite" or "depluralized"
    numerator: UnitVector = DIMENSIONLESS
    denominator: UnitVector = DIMENSIONLESS

    @property
    def is_rate(self) -> bool:
        """True when the unit is "X per Y" (a composite, or a lemma with a denominator)."""
        return self.via == "composite" or self.denominator != DIMENSIONLESS

    def __str__(self) -> str:
        return self.lemma


_SPACE = re.compile(r"[\s\-]+")

MAX_UNIT_CHARS = 200
"""A unit text longer than this refuses as ``malformed_unit`` (no unit of a word problem is that long)."""

MAX_UNIT_NESTING = 4
"""How deep composites nest: ``a_per_b`` is one level; a side deeper than this refuses (``unknown_unit``)."""

MAX_MEMOIZED_UNITS = 100_000
"""A pack forgets its memoized lookups when it holds this many (distinct texts cost memory, not time)."""

_Memo = dict[tuple[str, int], "ResolvedUnit | str"]


def normalize_unit_text(text: str) -> str:
    """Casefold, and join words with ``_``: ``"Square  Feet"`` -> ``"square_feet"``."""
    return _SPACE.sub("_", text.strip().casefold())


def _depluralizations(key: str) -> tuple[str, ...]:
    """Conservative singular candidates of a normalized key (last word only)."""
    head, sep, last = key.rpartition("_")
    out: list[str] = []
    if last.endswith("ies") and len(last) > 4:
        out.append(last[:-3] + "y")
    if last.endswith("es") and len(last) > 3:
        out.append(last[:-2])
    if last.endswith("s") and not last.endswith("ss") and len(last) > 2:
        out.append(last[:-1])
    return tuple(head + sep + c for c in out)


class PackComponent(NamedTuple):
    """One pack folder a :class:`UnitPack` was read from: what a report cites.

    >>> str(PackComponent("en_units_v1", "1.0.0", "e40912d9afa767ba4f4b"))
    'en_units_v1 1.0.0 sha256:e40912d9afa7'
    """

    name: str
    version: str
    checksum: str  # sha256 of the folder's lexicon.jsonl bytes

    def __str__(self) -> str:
        return f"{self.name} {self.version} sha256:{self.checksum[:12]}"

    @property
    def token(self) -> str:
        """The component as one space-free word: ``name@version#`` and the checksum's first 12 hex digits.

        >>> PackComponent("en_units_v1", "1.0.0", "e40912d9afa767ba4f4b").token
        'en_units_v1@1.0.0#e40912d9afa7'
        """
        return f"{self.name}@{self.version}#{self.checksum[:12]}"


@dataclass(frozen=True, slots=True)
class UnitPack:
    """A loaded, validated, immutable unit pack, or a composition of packs.

    ``components`` lists the pack folders it was read from, in composition
    order: one for a loaded pack, several for ``a + b`` (:func:`compose`).
    A composed pack's ``name`` and ``version`` join its components' with
    ``+``; its ``checksum`` is :func:`composition_checksum` of them.
    :attr:`provenance` is the one line a report, table or proof note prints.
    ``listed_only`` holds the lemmas of packs whose manifest says
    ``"depluralize": false``: they resolve by their listed forms only (a
    9,000-noun list would otherwise read ``makes`` as ``mak`` + ``es``).

    Lookups are memoized per pack in a private cache of immutable results
    (:meth:`clear_cache` empties it).

    >>> default_pack().provenance
    'en_units_v1 1.0.0 sha256:e40912d9afa7'
    """

    name: str
    version: str
    entries: Mapping[str, UnitEntry]
    surfaces: Mapping[str, str]  # exact surface text -> lemma
    folded: Mapping[str, str]  # normalized surface -> lemma
    checksum: str
    components: tuple[PackComponent, ...]
    listed_only: frozenset[str] = frozenset()  # lemmas never reached by depluralization
    _cache: dict[str, ResolvedUnit | str] = field(default_factory=dict, compare=False, repr=False)
    _vectors: dict[str, UnitVector] = field(default_factory=dict, compare=False, repr=False)
    _memos: dict[str, dict[Any, Any]] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        _check_components(self.name, self.version, self.checksum, self.components)

    def __hash__(self) -> int:
        return hash((self.name, self.version, self.checksum))

    def __add__(self, other: object) -> UnitPack:
        """``a + b`` is :func:`compose` ``(a, b)``."""
        if not isinstance(other, UnitPack):
            return NotImplemented
        return compose(self, other)

    def __reduce__(self) -> tuple[Any, ...]:
        # MappingProxyType does not pickle: ship plain dicts, rebuild the read-only views.
        state = (dict(self.entries), dict(self.surfaces), dict(self.folded))
        return (_restore_pack, (self.name, self.version, *state, self.checksum, self.components, self.listed_only))

    @property
    def provenance(self) -> str:
        """Every component's name, version and short checksum, joined by ``" + "``."""
        return " + ".join(str(c) for c in self.components)

    @property
    def citation(self) -> str:
        """:attr:`provenance` as one space-free word: each component's :attr:`PackComponent.token`, joined by ``+``.

        What a graph's provenance (``pack=...``), a verdict and a batch name the pack by.

        >>> default_pack().citation
        'en_units_v1@1.0.0#e40912d9afa7'
        """
        return _citation(self.components)

    def clear_cache(self) -> None:
        """Forget memoized lookups and every :meth:`memo` (the pack's content is unchanged)."""
        self._cache.clear()
        self._vectors.clear()
        for memo in self._memos.values():
            memo.clear()

    def memo(self, name: str) -> dict[Any, Any]:
        """The memo called ``name`` that belongs to this pack: what another module derives from the pack's
        units once per distinct input (adapter unit readings, admissibility proofs).

        Found through the pack, not keyed by it: a memo keyed by ``(pack, ...)`` would run
        :meth:`__hash__` (Python) on every lookup, which costs more than the lookup.  Its values must be
        immutable; :meth:`clear_cache` empties it.

        >>> pack = default_pack()
        >>> pack.memo("example") is pack.memo("example")
        True
        """
        memo = self._memos.get(name)
        if memo is None:
            memo = self._memos[name] = {}
        return memo

    @property
    def lemmas(self) -> tuple[str, ...]:
        return tuple(self.entries)

    def completions(self, prefix: str = "", limit: int | None = None) -> tuple[str, ...]:
        """Lemmas and surfaces starting with ``prefix`` (case-insensitive), sorted."""
        p = prefix.casefold()
        names = sorted({*self.entries, *self.surfaces})
        hits = tuple(n for n in names if n.casefold().startswith(p))
        return hits if limit is None else hits[:limit]

    def resolve(self, text: str) -> ResolvedUnit:
        """Resolve a unit text or refuse with ``UnitAlgebraError``."""
        if not isinstance(text, str):
            raise UnitAlgebraError(
                f"malformed_unit: unit must be a str (got {type(text).__name__})",
                reason="malformed_unit",
                path="unit",
                detail=repr(text),
            )
        hit = self.lookup(text)
        if isinstance(hit, str):
            raise UnitAlgebraError(f"{hit}: {text!r}", reason=hit, detail=text)
        return hit

    def lookup(self, text: object) -> ResolvedUnit | str:
        """What :meth:`resolve` gives for a unit text, without raising: the resolved
        unit, or the reason it refuses with (a ``UnitAlgebraError`` reason).

        Memoized; for hot paths that count refusals instead of raising them
        (binding checks a unit per operand of every equation).

        >>> default_pack().lookup("hours").lemma, default_pack().lookup("apples")
        ('hour', 'unknown_unit')
        """
        if not isinstance(text, str):
            return "malformed_unit"
        hit = self._cache.get(text)
        if hit is None:
            hit = self._resolve_uncached(text, 0, {})
            if len(self._cache) >= MAX_MEMOIZED_UNITS:  # distinct texts from a hostile corpus: memory stays bounded
                self.clear_cache()
            self._cache[text] = hit
            if type(hit) is ResolvedUnit:
                self._vectors[text] = hit.dimension
        return hit

    def vector(self, text: str) -> UnitVector:
        """The dimension vector of a unit text (fast path of :meth:`resolve`)."""
        hit = self._vectors.get(text)
        if hit is not None:
            return hit
        return self.resolve(text).dimension

    def _best_split(self, key: str, depth: int, memo: _Memo) -> tuple[ResolvedUnit, ResolvedUnit] | None:
        """Split ``a_per_b[_per_c...]`` so that listed units are never split.

        Every ``_per_`` is a candidate; among the splits whose two sides both
        resolve, the one with the fewest composite sides wins, and ties go to
        the rightmost split (left-associative: ``dollar_per_hour_per_day`` is
        ``(dollar_per_hour) / day``; ``hours_per_miles_per_hour`` is
        ``hours / (miles_per_hour)``).  Composites nest :data:`MAX_UNIT_NESTING`
        deep at most.

        Each side is resolved once per depth (``memo``, for this one text), and a
        side with more ``_per_`` than a composite at its depth can hold is not
        split at all, so the work is bounded by a constant for the longest unit
        text (:data:`MAX_UNIT_CHARS`), not exponential in its ``per``s.
        """
        if key.count("_per_") > self._split_capacity(depth):
            return None
        best: tuple[int, int, ResolvedUnit, ResolvedUnit] | None = None
        start = key.find("_per_")
        while start > 0:
            num, den = key[:start], key[start + len("_per_") :]
            if den:
                left = self._resolve_memo(num, depth + 1, memo)
                right = self._resolve_memo(den, depth + 1, memo)
                if not isinstance(left, str) and not isinstance(right, str):
                    composites = (left.via == "composite") + (right.via == "composite")
                    if best is None or (composites, -start) <= (best[0], best[1]):
                        best = (composites, -start, left, right)
            start = key.find("_per_", start + 1)
        return None if best is None else (best[2], best[3])

    def _entry(self, text: str, lemma: str, via: str) -> ResolvedUnit:
        entry = self.entries[lemma]
        dim = entry.dimension
        num = UnitVector(*(max(e, 0) for e in dim))
        den = UnitVector(*(max(-e, 0) for e in dim))
        return ResolvedUnit(text, lemma, dim, entry.ratio, via, num, den)

    def _split_capacity(self, depth: int) -> int:
        """The most ``_per_`` a text at ``depth`` may hold and still resolve as a composite: the separators
        of a full tree of composites down to :data:`MAX_UNIT_NESTING`, plus those inside its leaves (listed
        units such as ``miles_per_hour``)."""
        leaves = 1 << (MAX_UNIT_NESTING - depth)
        return leaves - 1 + leaves * _per_in_listed(self)

    def _resolve_memo(self, text: str, depth: int, memo: _Memo) -> ResolvedUnit | str:
        hit = memo.get((text, depth))
        if hit is None:
            hit = memo[text, depth] = self._resolve_uncached(text, depth, memo)
        return hit

    def _resolve_uncached(self, text: str, depth: int, memo: _Memo) -> ResolvedUnit | str:
        if not text.strip() or len(text) > MAX_UNIT_CHARS or depth > MAX_UNIT_NESTING:
            return "malformed_unit" if not text.strip() or len(text) > MAX_UNIT_CHARS else "unknown_unit"
        if text in self.entries:
            return self._entry(text, text, "lemma")
        if text in self.surfaces:
            return self._entry(text, self.surfaces[text], "surface")
        key = normalize_unit_text(text)
        if key in self.entries:
            return self._entry(text, key, "lemma")
        if key in self.folded:
            return self._entry(text, self.folded[key], "surface")
        split = self._best_split(key, depth, memo)
        if split is not None:
            left, right = split
            ratio = None if left.ratio is None or right.ratio is None else left.ratio / right.ratio
            return ResolvedUnit(
                text,
                f"{left.lemma}_per_{right.lemma}",
                unit_quotient(left.dimension, right.dimension),
                ratio,
                "composite",
                left.dimension,
                right.dimension,
            )
        for candidate in _depluralizations(key):
            lemma = candidate if candidate in self.entries else self.folded.get(candidate)
            if lemma is not None and lemma not in self.listed_only:
                return self._entry(text, lemma, "depluralized")
        return "unknown_unit"


@functools.lru_cache(maxsize=32)
def _per_in_listed(pack: UnitPack) -> int:
    """The most ``_per_`` in one listed lemma or normalized surface of ``pack`` (memoized: a pack is a value)."""
    counts: list[int] = [key.count("_per_") for key in (*pack.entries, *pack.folded)]
    return max(counts, default=0)


# ----------------------------------------------------------------------- loading

_ROW_FIELDS: Mapping[str, type | tuple[type, ...]] = MappingProxyType(
    {
        "lemma": str,
        "plural": str,
        "surfaces": list,
        "domain": str,
        "dimension": dict,
        "ratio": (str, type(None)),
        "canonical": bool,
        "container_size": (int, type(None)),
    }
)


def _pack_error(reason: str, message: str, path: str, detail: object = None) -> PackError:
    return PackError(message, reason=reason, path=path, detail=None if detail is None else repr(detail))


_ROW_KEYS = frozenset(_ROW_FIELDS)
_ROW_TYPES = tuple(_ROW_FIELDS.items())

# Rows repeat a few ratios and dimensions (every count noun is "1" and {"count": 1}):
# parse each distinct text once.  Fractions and vectors are immutable values.
_parse_ratio = functools.lru_cache(maxsize=1024)(parse_ratio)  # bounded by ssbg.numbers (1e99999999 refuses)


@functools.lru_cache(maxsize=1024)
def _dimension_vector(items: tuple[tuple[str, int], ...]) -> UnitVector:
    return UnitVector(**dict(items))


MAX_PACK_EXPONENT = 16
"""The largest exponent (in absolute value) a pack row's dimension may hold: real units hold 4 at most
(kg·m²/s³ is the watt); an exponent of thousands of digits would pass as an int and fail in the algebra."""


def _parse_row(raw: str, where: str) -> UnitEntry:
    try:
        row = jsontext.loads_line(raw)
    except json.JSONDecodeError as exc:
        raise _pack_error("malformed_row", f"row is not JSON: {exc.msg}", where) from None
    if not isinstance(row, dict):
        raise _pack_error("malformed_row", "row must be a JSON object", where, row)
    if row.keys() != _ROW_KEYS:
        missing = sorted(_ROW_KEYS - set(row))
        extra = sorted(set(row) - _ROW_KEYS)
        raise _pack_error("malformed_row", f"row fields: missing {missing}, unexpected {extra}", where)
    for name, types in _ROW_TYPES:
        value = row[name]
        if not isinstance(value, types) or (value.__class__ is bool and types is not bool):
            raise _pack_error("malformed_row", f"'{name}' has the wrong type ({type(value).__name__})", where)
    lemma: str = row["lemma"]
    if not lemma or lemma != normalize_unit_text(lemma):
        raise _pack_error("malformed_row", f"lemma {lemma!r} must be normalized (lower case, '_')", where)
    if not row["plural"].strip():
        raise _pack_error("malformed_row", "'plural' must be a non-empty string", where)
    if row["domain"] not in PACK_DOMAINS:
        raise _pack_error("malformed_row", f"unknown domain {row['domain']!r}", where)
    surfaces = row["surfaces"]
    if surfaces and not all(isinstance(s, str) and s.strip() for s in surfaces):
        raise _pack_error("malformed_row", "'surfaces' must be non-empty strings", where)
    dims = row["dimension"]
    if not _BASE_SET.issuperset(dims) or not all(v.__class__ is int for v in dims.values()):
        raise _pack_error("malformed_row", f"'dimension' must map base dimensions to ints: {shown(dims)}", where)
    if any(abs(v) > MAX_PACK_EXPONENT for v in dims.values()):
        raise _pack_error("malformed_row", f"'dimension' exponents must be within ±{MAX_PACK_EXPONENT}: "
                          f"{shown(dims)}", where)
    ratio: Fraction | None = None
    if row["ratio"] is not None:
        try:  # "5280", "1/12": each side a number within ssbg.numbers' bounds ("1e99999999" refuses at once)
            ratio = _parse_ratio(row["ratio"])
        except NumberError as exc:
            message = f"'ratio' is not a rational within bounds: {exc.message}"
            raise _pack_error("malformed_row", message, where) from None
        if ratio <= 0:
            raise _pack_error("malformed_row", f"'ratio' must be positive: {row['ratio']!r}", where)
    size = row["container_size"]
    if size is not None and not 0 < size <= MAX_MAGNITUDE:
        raise _pack_error("malformed_row", f"'container_size' must be a positive int of at most {MAX_MAGNITUDE}", where)
    return UnitEntry(
        lemma=lemma,
        plural=row["plural"],
        surfaces=tuple(surfaces),
        domain=row["domain"],
        dimension=_dimension_vector(tuple(sorted(dims.items()))),
        ratio=ratio,
        canonical=row["canonical"],
        container_size=size,
    )


MAX_PACK_NAME_CHARS = 255
"""A shipped pack's name is at most this long (a folder's name on every common file system)."""

MAX_PACK_SPEC_CHARS = 4096
"""A pack argument (a path, or names joined by ``+``) is at most this long (``PATH_MAX`` on Linux)."""


def _names_a_path(spec: str) -> bool:
    """Whether a pack argument names a folder by path (``./mine``, ``../x``, ``/abs/x``, ``C:\\x``): it holds a
    path separator.  Anything else names a pack shipped with ssbg."""
    return "/" in spec or "\\" in spec or (os.altsep is not None and os.altsep in spec)


def _pack_folder(path: Path) -> Path:
    """A folder the caller named by path; ``pack_missing`` when there is none (or the file system refuses the
    name: too long, a loop of links)."""
    try:
        if path.is_dir():
            return path
    except OSError as exc:  # ENAMETOOLONG, ELOOP, EACCES: no folder to read, said as such
        raise _pack_error("pack_missing", f"no unit pack folder at {str(path)[:200]}: {exc.strerror or exc}",
                          str(path)[:200]) from None
    raise _pack_error("pack_missing", f"no unit pack folder at {str(path)[:200]}", str(path)[:200])


def _pack_dir(name: str) -> Path:
    """The folder of a pack shipped with ssbg (``ssbg/packs/<name>`` installed, ``packs/<name>`` in a source
    tree); never a folder of the working directory, which would let any folder named like a shipped pack
    replace it (issue 27)."""
    from importlib import resources
    from pathlib import Path

    shown = name if len(name) <= 80 else f"{name[:80]}... ({len(name)} characters)"
    if len(name) > MAX_PACK_NAME_CHARS:
        raise _pack_error("pack_missing", f"no unit pack named {shown!r}: a pack name is at most "
                          f"{MAX_PACK_NAME_CHARS} characters", shown)
    if not _PACK_NAME.fullmatch(name) or name.startswith("."):
        raise _pack_error("pack_missing", f"no unit pack named {shown!r} (a shipped pack's name is letters, digits, "
                          "'_', '.' and '-'; a folder is named by a path: ./mine)", shown)
    installed = resources.files("ssbg").joinpath("packs").joinpath(name)
    if installed.is_dir():
        return Path(str(installed))
    source_tree = Path(__file__).resolve().parent.parent / "packs" / name
    if source_tree.is_dir():
        return source_tree
    raise _pack_error("pack_missing", f"no unit pack named {name!r} (looked in ssbg/packs and packs/; a folder "
                      f"is named by a path: ./{name})", name)


MAX_PACK_BYTES = 64 * 1024 * 1024
"""A pack file larger than this refuses (``malformed_row``): packs are lists of units, not corpora."""


def _read_pack_file(path: Path) -> bytes:
    """A pack file's bytes: a regular file (a FIFO would block, a device never end) of bounded size."""
    import errno

    from ssbg.files import read_regular  # where a pack is read, not at `import ssbg` (ADR 0015: import time)

    try:
        return read_regular(path, MAX_PACK_BYTES)
    except FileNotFoundError:
        raise _pack_error("pack_missing", f"missing pack file {path}", str(path)) from None
    except OSError as exc:
        reason = "malformed_row" if exc.errno == errno.EFBIG else "pack_missing"
        raise _pack_error(reason, f"cannot read pack file {path}: {exc.strerror or exc}", str(path)) from None


def _line_of_key(text: str, key: str) -> int:
    """The line of a manifest that names ``key`` (1 when it cannot be told)."""
    found = re.search(rf'"{re.escape(key)}"\s*:', text)
    return 1 if found is None else text.count("\n", 0, found.start()) + 1


def _read_pack(folder: Path) -> UnitPack:
    """Read and validate one pack folder (not memoized)."""
    manifest_path = folder / "manifest.json"
    lexicon_path = folder / "lexicon.jsonl"
    manifest_bytes = _read_pack_file(manifest_path)
    try:
        manifest_text = manifest_bytes.decode("utf-8")
        manifest = jsontext.loads(manifest_text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise _pack_error("manifest_invalid", f"manifest is not JSON: {exc}", f"{manifest_path}:1") from None
    need = {"name": str, "version": str, "rows": int, "sha256": str}
    if not isinstance(manifest, dict) or any(type(manifest.get(k)) is not t for k, t in need.items()):
        raise _pack_error("manifest_invalid", f"manifest needs {sorted(need)} (of those types)", f"{manifest_path}:1")
    if not 0 <= manifest["rows"] <= MAX_MAGNITUDE or not manifest["version"].strip():
        message = "manifest 'rows' must be >= 0 and 'version' non-empty"
        raise _pack_error("manifest_invalid", message, f"{manifest_path}:1")
    depluralize = manifest.get("depluralize", True)
    if not isinstance(depluralize, bool):
        raise _pack_error("manifest_invalid", "'depluralize' must be true or false", f"{manifest_path}:1")
    if not _PACK_NAME.fullmatch(manifest["name"]) or "+" in manifest["version"]:
        message = f"manifest name {manifest['name']!r} must match {_PACK_NAME.pattern} and the version have no '+'"
        raise _pack_error("manifest_invalid", message, f"{manifest_path}:1")
    data = _read_pack_file(lexicon_path)
    import hashlib

    checksum = hashlib.sha256(data).hexdigest()
    if checksum != manifest["sha256"]:
        raise _pack_error(
            "checksum_mismatch",
            f"lexicon sha256 {checksum} differs from the manifest's {manifest['sha256']}",
            f"{manifest_path}:{_line_of_key(manifest_text, 'sha256')}",
        )
    key = (os.path.realpath(folder), manifest_bytes, checksum)
    known = _FOLDER_PACKS.get(key)
    if known is not None:  # this folder, with this manifest and these lexicon bytes, was read already
        return known
    pack = _parse_pack(folder, manifest, manifest_text, data, depluralize, checksum)
    if len(_FOLDER_PACKS) >= MAX_MEMOIZED_FOLDER_PACKS:
        _FOLDER_PACKS.pop(next(iter(_FOLDER_PACKS)))
    _FOLDER_PACKS[key] = pack
    return pack


MAX_MEMOIZED_FOLDER_PACKS = 16
"""Folder packs kept once read, by resolved path, manifest and lexicon checksum (a ``--pack`` naming one folder
1,000 times reads it once: ADR 0033); the oldest goes first."""

_FOLDER_PACKS: dict[tuple[str, bytes, str], UnitPack] = {}


def _parse_pack(
    folder: Path, manifest: dict[str, Any], manifest_text: str, data: bytes, depluralize: bool, checksum: str
) -> UnitPack:
    """The pack of a folder whose manifest and lexicon checksum :func:`_read_pack` validated."""
    lexicon_path = folder / "lexicon.jsonl"
    manifest_path = folder / "manifest.json"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _pack_error("malformed_row", f"lexicon is not UTF-8: {exc.reason}", str(lexicon_path)) from None
    entries: dict[str, UnitEntry] = {}
    surfaces: dict[str, str] = {}
    folded: dict[str, str] = {}
    ambiguous: set[str] = set()
    rows = 0
    for lineno, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        where = f"{lexicon_path}:{lineno}"
        entry = _parse_row(raw, where)
        rows += 1
        if entry.lemma in entries:
            raise _pack_error("duplicate_entry", f"lemma {entry.lemma!r} listed twice", where)
        entries[entry.lemma] = entry
        for surface in (entry.plural, *entry.surfaces):
            if surfaces.get(surface, entry.lemma) != entry.lemma:
                raise _pack_error(
                    "duplicate_entry",
                    f"surface {surface!r} claimed by {surfaces[surface]!r} and {entry.lemma!r}",
                    where,
                )
            surfaces[surface] = entry.lemma
            key = normalize_unit_text(surface)
            if folded.get(key, entry.lemma) != entry.lemma:
                ambiguous.add(key)
            folded[key] = entry.lemma
    for key in ambiguous:  # case-folding collisions resolve only by exact surface
        del folded[key]
    for lemma in entries:
        if surfaces.get(lemma, lemma) != lemma or folded.get(lemma, lemma) != lemma:
            raise _pack_error("duplicate_entry", f"lemma {lemma!r} is also another lemma's surface", str(lexicon_path))
    if rows != manifest["rows"]:
        raise _pack_error(
            "row_count_mismatch",
            f"lexicon has {rows} rows ({lexicon_path}), manifest says {manifest['rows']}",
            f"{manifest_path}:{_line_of_key(manifest_text, 'rows')}",
        )
    return UnitPack(
        name=manifest["name"],
        version=manifest["version"],
        entries=MappingProxyType(entries),
        surfaces=MappingProxyType(surfaces),
        folded=MappingProxyType(folded),
        checksum=checksum,
        components=(PackComponent(manifest["name"], manifest["version"], checksum),),
        listed_only=frozenset() if depluralize else frozenset(entries),
    )


@functools.cache
def _load_named(name: str) -> UnitPack:
    """A pack shipped with ssbg (``ssbg/packs/<name>`` or ``packs/<name>``), read once."""
    return _read_pack(_pack_dir(name))


def load_pack(name_or_path: str | Path = DEFAULT_PACK_NAME) -> UnitPack:
    """Load and validate a unit pack (a folder with ``manifest.json`` and ``lexicon.jsonl``).

    A name (``"en_units_v1"``) is a pack shipped with ssbg, never a folder of
    the working directory; a folder is given by a path (a ``Path``, or a text
    with a separator: ``"./mine"``, ``"/data/packs/mine"``).  A text with ``+``
    (``"en_units_v1+en_counts_v1"``, ``"en_units_v1+./mine"``) loads each part
    so and returns their :func:`compose`.  Packs named (not given as a folder
    path) are read once and memoized, like their compositions.  A name longer
    than :data:`MAX_PACK_NAME_CHARS` or an argument longer than
    :data:`MAX_PACK_SPEC_CHARS` is ``pack_missing``, never an ``OSError``.

    Raises :class:`~ssbg.errors.PackError` naming ``file:line`` on any bad row,
    a checksum or row-count mismatch, a duplicate lemma/surface, or a
    ``pack_conflict`` between composed packs.

    >>> pack = load_pack("en_units_v1+en_counts_v1")
    >>> pack.name, [c.name for c in pack.components]
    ('en_units_v1+en_counts_v1', ['en_units_v1', 'en_counts_v1'])
    >>> pack.resolve("cookies").dimension == pack.resolve("boxes").dimension
    True
    """
    from pathlib import Path  # where a pack is read, not at `import ssbg` (ADR 0015: import time)

    if not isinstance(name_or_path, str | Path):
        raise _pack_error("pack_missing", f"a pack is named by a str or a Path (got {type(name_or_path).__name__})",
                          "pack", name_or_path)
    if isinstance(name_or_path, Path):
        return _read_pack(_pack_folder(name_or_path))
    spec = name_or_path
    if len(spec) > MAX_PACK_SPEC_CHARS:
        shown = f"{spec[:80]}... ({len(spec)} characters)"
        raise _pack_error("pack_missing", f"a pack argument is at most {MAX_PACK_SPEC_CHARS} characters: {shown!r}",
                          shown)
    if "+" in spec:
        parts = spec.split("+")
        if not all(part.strip() for part in parts):
            raise _pack_error("pack_missing", f"empty pack name in {spec[:200]!r}", spec[:200])
        return compose(*(load_pack(part.strip()) for part in parts))
    if _names_a_path(spec):
        return _read_pack(_pack_folder(Path(spec)))
    return _load_named(spec)


# ------------------------------------------------------------------- composition

_V = TypeVar("_V")
_PACK_NAME = re.compile(r"[A-Za-z0-9_.\-]+")


def composition_checksum(components: tuple[PackComponent, ...]) -> str:
    """The checksum of a composed pack: sha256 over its components' ``name version sha256`` lines.

    A single component's checksum is its own (the lexicon's sha256).
    """
    if len(components) == 1:
        return components[0].checksum
    import hashlib  # where packs compose, not at `import ssbg` (ADR 0015: import time)

    lines = "".join(f"{c.name} {c.version} {c.checksum}\n" for c in components)
    return hashlib.sha256(lines.encode("utf-8")).hexdigest()


def _check_components(name: str, version: str, checksum: str, components: object) -> None:
    def bad(message: str) -> PackError:
        return _pack_error("manifest_invalid", message, name)

    if not isinstance(components, tuple) or not components:
        raise bad(f"'components' must be a non-empty tuple of PackComponent (got {components!r})")
    if not all(type(c) is PackComponent for c in components):
        raise bad("'components' must hold PackComponent values")
    if name != "+".join(c.name for c in components) or version != "+".join(c.version for c in components):
        raise bad(f"name/version {name!r}/{version!r} must join the components' with '+'")
    if checksum != composition_checksum(components):
        raise bad(f"checksum {checksum!r} is not the components' composition checksum")


def _restore_pack(
    name: str,
    version: str,
    entries: dict[str, UnitEntry],
    surfaces: dict[str, str],
    folded: dict[str, str],
    checksum: str,
    components: tuple[PackComponent, ...],
    listed_only: frozenset[str],
) -> UnitPack:
    return UnitPack(
        name,
        version,
        MappingProxyType(entries),
        MappingProxyType(surfaces),
        MappingProxyType(folded),
        checksum,
        components,
        listed_only,
    )


def _conflict(kind: str, value: str, owners: tuple[str, str], claims: tuple[str, str], where: str) -> PackError:
    first, second = owners
    return PackError(
        f"{kind} {value!r} is claimed by {first} ({claims[0]}) and {second} ({claims[1]})",
        reason="pack_conflict",
        path=where,
        detail=value,
        packs=owners,
    )


def compose(*packs: UnitPack) -> UnitPack:
    """One pack with every lemma and surface of ``packs`` (ADR 0017); also ``a + b``.

    A lemma or surface (exact, or after normalization) that two packs claim is
    a :class:`~ssbg.errors.PackError` with reason ``pack_conflict`` naming it
    and both packs, unless the two entries are identical.  A component listed
    twice (same name, version and checksum) counts once, so composing a pack
    with itself gives it back; two versions of one pack conflict.  Associative;
    the order only names the result (lookups do not depend on it).  Memoized.

    >>> both = load_pack("en_units_v1") + load_pack("en_counts_v1")
    >>> both.name, both.version
    ('en_units_v1+en_counts_v1', '1.0.0+1.0.0')
    >>> both.resolve("marbles").dimension.to_canonical_string()
    'count'
    """
    for i, pack in enumerate(packs):
        if not isinstance(pack, UnitPack):
            raise UnitAlgebraError(
                f"malformed_unit: compose() takes UnitPack values (got {type(pack).__name__} at {i})",
                reason="malformed_unit",
                path=f"packs[{i}]",
                detail=repr(pack),
            )
    if not packs:
        raise UnitAlgebraError(
            "malformed_unit: compose() takes one or more UnitPack values", reason="malformed_unit", path="packs"
        )
    return _compose(packs)


@functools.lru_cache(maxsize=32)
def _compose(packs: tuple[UnitPack, ...]) -> UnitPack:
    components: list[PackComponent] = []
    for component in (c for p in packs for c in p.components):
        same_name = [c for c in components if c.name == component.name]
        if component in same_name:
            continue
        if same_name:
            where = "+".join(c.name for c in (*components, component))
            raise _conflict(
                "pack", component.name, (component.name, component.name),
                (str(same_name[0]), str(component)), where,
            )  # fmt: skip
        components.append(component)
    parts = tuple(components)
    if parts == packs[0].components:  # every other pack is part of the first
        return packs[0]
    name = "+".join(c.name for c in parts)
    entries = _merge("lemma", packs, lambda p: p.entries, name)
    surfaces = _merge("surface", packs, lambda p: p.surfaces, name)
    folded = _merge("normalized surface", packs, lambda p: p.folded, name)
    for table, merged in (("surface", surfaces), ("normalized surface", folded)):
        for lemma in entries.keys() & merged.keys():  # a lemma of one pack may not be another pack's surface
            other = merged[lemma]
            if other != lemma:
                owners = (_owner(packs, lambda p: p.entries, lemma), _owner(packs, lambda p: p.surfaces, lemma))
                raise _conflict("lemma", lemma, owners, (f"lemma {lemma}", f"{table} of {other}"), name)
    return UnitPack(
        name=name,
        version="+".join(c.version for c in parts),
        entries=MappingProxyType(entries),
        surfaces=MappingProxyType(surfaces),
        folded=MappingProxyType(folded),
        checksum=composition_checksum(parts),
        components=parts,
        listed_only=frozenset().union(*(p.listed_only for p in packs)),
    )


def _owner(packs: tuple[UnitPack, ...], table: Callable[[UnitPack], Mapping[str, object]], key: str) -> str:
    """The first pack whose table lists ``key`` (only asked to name a conflict)."""
    return next((p.name for p in packs if key in table(p)), "?")


def _merge(
    kind: str, packs: tuple[UnitPack, ...], table: Callable[[UnitPack], Mapping[str, _V]], where: str
) -> dict[str, _V]:
    """Union of one table of several packs; a key two packs map differently is a conflict."""
    merged: dict[str, _V] = {}
    for pack in packs:
        mapping = table(pack)
        for key in mapping.keys() & merged.keys():
            if mapping[key] != merged[key]:
                first = _owner(packs, table, key)
                claims = (_claim(merged[key]), _claim(mapping[key]))
                raise _conflict(kind, key, (first, pack.name), claims, where)
        merged.update(mapping)
    return merged


def _claim(value: object) -> str:
    return f"lemma {value.lemma}" if isinstance(value, UnitEntry) else f"-> {value}"


@functools.cache
def default_pack() -> UnitPack:
    """The ``en_units_v1`` pack, loaded once and memoized."""
    return load_pack(DEFAULT_PACK_NAME)


@functools.lru_cache(maxsize=64)
def _citation(components: tuple[PackComponent, ...]) -> str:
    """:attr:`UnitPack.citation` (memoized: every bound graph's provenance names its pack)."""
    return "+".join(c.token for c in components)


@functools.cache
def corpus_pack() -> UnitPack:
    """The pack of corpus work, :data:`CORPUS_PACK_NAME` (``en_units_v1+en_counts_v2+en_measures_v1``), loaded once and
    memoized.

    >>> corpus_pack().provenance.startswith("en_units_v1 1.0.0 sha256:e40912d9afa7 + en_counts_v2 2.0.0 sha256:")
    True
    """
    return load_pack(CORPUS_PACK_NAME)


def clear_pack_cache() -> None:
    """Forget the memoized packs (named, default and composed) and the default pack's lookups (tests use this)."""
    if default_pack.cache_info().currsize:
        default_pack().clear_cache()
    default_pack.cache_clear()
    corpus_pack.cache_clear()
    _load_named.cache_clear()
    _compose.cache_clear()
    _FOLDER_PACKS.clear()


def _pack_arg(pack: object) -> UnitPack:
    if pack is None:
        return default_pack()
    if isinstance(pack, UnitPack):
        return pack
    raise UnitAlgebraError(
        f"malformed_unit: 'pack' must be a UnitPack or None (got {type(pack).__name__})",
        reason="malformed_unit",
        path="pack",
        detail=repr(pack),
    )


def parse_unit(text: str, pack: UnitPack | None = None) -> UnitVector:
    """The dimension vector of a unit text over the closed pack.

    Raises ``UnitAlgebraError`` with reason ``unknown_unit`` (not in the pack) or
    ``malformed_unit`` (not a non-empty string).
    """
    p = default_pack() if pack is None else _pack_arg(pack)
    try:
        return p._vectors[text]
    except (KeyError, TypeError):  # not memoized yet, or not hashable: resolve() refuses with a typed error
        return p.resolve(text).dimension


def resolve_unit(text: str, pack: UnitPack | None = None) -> ResolvedUnit:
    """Like :func:`parse_unit` but returns lemma, vector and ratio."""
    return _pack_arg(pack).resolve(text)


def pack_summary(pack: UnitPack | None = None) -> dict[str, Any]:
    """Lemma counts by domain (plain dict), for docs and notebooks."""
    p = _pack_arg(pack)
    counts: dict[str, int] = {}
    for entry in p.entries.values():
        counts[entry.domain] = counts.get(entry.domain, 0) + 1
    return {"name": p.name, "version": p.version, "lemmas": len(p.entries), "domains": dict(sorted(counts.items()))}
