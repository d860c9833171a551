"""Hardening of the unit algebra and the pack loader (issue 17).

UnitVector exponents are integers and nothing else (ADR-0134); resolving a unit text costs a bounded
amount of work whatever the text (a 199-character ``a_per_...`` took 22 s, ``"per " * 50`` 116 s);
composites nest MAX_UNIT_NESTING deep; the pack loader refuses the rows and manifests it accepted
(``"rows": true``, an empty plural, a ratio of ``1e99999999``) and names the line of a checksum or
row-count mismatch.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ssbg.errors import PackError, UnitAlgebraError
from ssbg.units import (
    BASE_DIMENSIONS,
    DIMENSIONLESS,
    MAX_MEMOIZED_UNITS,
    MAX_UNIT_CHARS,
    MAX_UNIT_NESTING,
    UnitPack,
    UnitVector,
    default_pack,
    load_pack,
    parse_unit,
    unit_inverse,
    unit_power,
    unit_product,
    unit_quotient,
    units_equal,
)
from tests.strategies import hostile_json, seam_settings
from tests.work import peak_bytes

PACK_DIR = Path(__file__).resolve().parents[1] / "packs" / "en_units_v1"


# ------------------------------------------------------------ integer exponents, nothing else


@pytest.mark.parametrize("value", [0.5, 1.0, True, False, "1", None, [1], float("nan")])
def test_an_exponent_that_is_not_an_int_refuses(value: object) -> None:
    with pytest.raises(UnitAlgebraError) as info:
        UnitVector(length=value)  # type: ignore[arg-type]
    assert (info.value.reason, info.value.path) == ("malformed_unit", "length")


def test_a_bool_exponent_is_not_a_foot() -> None:
    with pytest.raises(UnitAlgebraError):
        UnitVector(length=True)
    assert parse_unit("feet") == UnitVector(length=1)


@pytest.mark.parametrize("name", BASE_DIMENSIONS)
def test_make_and_replace_validate_like_the_constructor(name: str) -> None:
    with pytest.raises(UnitAlgebraError):
        UnitVector()._replace(**{name: 0.5})
    with pytest.raises(UnitAlgebraError):
        UnitVector._make([0, 0, 0, 0, 0, 0.5] if name == "temperature" else [0.5, 0, 0, 0, 0, 0])
    with pytest.raises(UnitAlgebraError):
        UnitVector._make([1, 2])
    assert UnitVector()._replace(**{name: 2}) == UnitVector(**{name: 2})


def test_an_int_subclass_becomes_a_plain_int() -> None:
    class Exponent(int):
        pass

    vector = UnitVector(time=Exponent(-1))
    assert type(vector.time) is int
    assert vector == UnitVector(time=-1)
    assert hash(vector) == hash(UnitVector(time=-1))


@seam_settings(300)
@given(st.dictionaries(st.sampled_from(BASE_DIMENSIONS), hostile_json, max_size=6))
def test_a_vector_holds_ints_or_refuses(fields: dict[str, Any]) -> None:
    try:
        vector = UnitVector(**fields)
    except UnitAlgebraError as exc:
        assert exc.reason == "malformed_unit"
    else:
        assert all(type(e) is int for e in vector)
        assert pickle.loads(pickle.dumps(vector)) == vector


@pytest.mark.parametrize("other", [(1, 0, 0, 0, 0, 0), "money", None, 1, [0] * 6])
@pytest.mark.parametrize("op", [unit_product, unit_quotient, units_equal])
def test_the_algebra_refuses_a_non_vector_second_argument(op: Any, other: object) -> None:
    with pytest.raises(UnitAlgebraError) as info:
        op(UnitVector(money=1), other)
    assert (info.value.reason, info.value.path) == ("malformed_unit", "b")


@pytest.mark.parametrize("op", [unit_product, unit_quotient, units_equal])
def test_the_algebra_refuses_a_non_vector_first_argument(op: Any) -> None:
    with pytest.raises(UnitAlgebraError) as info:
        op((0, 0, 0, 1, 0, 0), UnitVector(money=1))
    assert info.value.path == "a"


@pytest.mark.parametrize("other", [(1, 0, 0, 0, 0, 0), "money", None])
def test_inverse_and_power_refuse_a_non_vector(other: object) -> None:
    with pytest.raises(UnitAlgebraError) as info:
        unit_inverse(other)  # type: ignore[arg-type]
    assert info.value.path == "v"
    with pytest.raises(UnitAlgebraError):
        unit_power(other, 2)  # type: ignore[arg-type]


@pytest.mark.parametrize("n", [0.5, True, "2", None])
def test_power_refuses_an_exponent_that_is_not_an_int(n: object) -> None:
    with pytest.raises(UnitAlgebraError) as info:
        unit_power(UnitVector(length=1), n)  # type: ignore[arg-type]
    assert info.value.path == "n"


def test_the_operators_of_a_vector_decline_other_types() -> None:
    assert UnitVector.__mul__(UnitVector(length=1), 2) is NotImplemented
    assert UnitVector.__truediv__(UnitVector(length=1), "x") is NotImplemented
    assert UnitVector(length=1) * UnitVector(time=-1) == UnitVector(length=1, time=-1)
    assert UnitVector(length=1) / UnitVector(length=1) == DIMENSIONLESS


# ------------------------------------------------------------ bounded work for any unit text


class _Counter:
    """Counts the unit texts resolved (every side of every split tried), while it is entered."""

    def __init__(self) -> None:
        self.calls = 0
        self._real = UnitPack._resolve_uncached

    def __enter__(self) -> _Counter:
        real = self._real

        def counting(pack: UnitPack, *args: Any) -> Any:
            self.calls += 1
            return real(pack, *args)

        UnitPack._resolve_uncached = counting  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        UnitPack._resolve_uncached = self._real  # type: ignore[method-assign]


UNIT_WORDS = st.lists(
    st.sampled_from(["per", "_per_", " per ", "a", "hour", "hours", "mile", "miles per hour", "mph", "_", " ", "s"]),
    max_size=80,
).map(lambda parts: "".join(parts)[:MAX_UNIT_CHARS])


@seam_settings(200)
@given(UNIT_WORDS)
def test_resolving_any_unit_text_does_bounded_work(text: str) -> None:
    pack = default_pack()
    pack.clear_cache()
    with _Counter() as counter:
        try:
            parse_unit(text)
        except UnitAlgebraError as exc:
            assert exc.reason in ("unknown_unit", "malformed_unit")
    assert counter.calls <= 1_000  # each side once per depth; it was exponential in the number of "per"


@pytest.mark.parametrize("text", ["a_per_" * 33 + "a", "per " * 50, "hour_per_" * 22, "ft_per_" * 28])
def test_the_measured_unit_texts_refuse_at_once(text: str) -> None:
    default_pack().clear_cache()
    with _Counter() as counter, pytest.raises(UnitAlgebraError):
        parse_unit(text)
    assert counter.calls <= 1_000  # 22 s and 116 s before: exponential in the number of "per"


def test_a_unit_text_longer_than_the_cap_is_malformed() -> None:
    with pytest.raises(UnitAlgebraError) as info:
        parse_unit("m" * (MAX_UNIT_CHARS + 1))
    assert info.value.reason == "malformed_unit"


def _chain(n: int) -> str:
    """``hour_per_hour_per_...``: ``n`` hours, left-associative."""
    return "_per_".join(["hour"] * n)


def test_x_per_y_per_z_nests_left_first() -> None:
    resolved = default_pack().resolve("dollar_per_hour_per_day")
    assert (resolved.lemma, resolved.dimension) == ("dollar_per_hour_per_day", UnitVector(money=1, time=-2))
    assert resolved.numerator == UnitVector(money=1, time=-1)  # (dollar / hour) / day


def test_the_nesting_cap() -> None:
    pack = default_pack()
    deepest = 2**MAX_UNIT_NESTING  # a full tree of composites MAX_UNIT_NESTING deep has this many leaves
    assert pack.resolve(_chain(5)).dimension == UnitVector(time=-3)  # shallow enough to nest left first
    assert pack.resolve(_chain(deepest)).via == "composite"  # balanced, the only way to stay that shallow
    with pytest.raises(UnitAlgebraError) as info:
        pack.resolve(_chain(deepest + 1))
    assert info.value.reason == "unknown_unit"


def test_the_memo_of_lookups_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    pack = default_pack()
    monkeypatch.setattr("ssbg.units.MAX_MEMOIZED_UNITS", 50)
    for i in range(200):
        pack.lookup(f"widget{i}")
    assert len(pack._cache) <= 50
    assert MAX_MEMOIZED_UNITS >= 10_000
    pack.clear_cache()


# ------------------------------------------------------------ the pack loader


def _copy(tmp_path: Path) -> Path:
    dst = tmp_path / "pack"
    shutil.copytree(PACK_DIR, dst)
    return dst


def _write_rows(pack: Path, rows: list[str]) -> None:
    data = ("\n".join(rows) + "\n").encode()
    (pack / "lexicon.jsonl").write_bytes(data)
    manifest = json.loads((pack / "manifest.json").read_text())
    manifest.update(sha256=hashlib.sha256(data).hexdigest(), rows=len(rows))
    (pack / "manifest.json").write_text(json.dumps(manifest, indent=2))


@pytest.mark.parametrize(
    ("change", "line"),
    [
        ({"ratio": "1e99999999"}, 2),
        ({"ratio": "1e-99999999"}, 2),
        ({"ratio": "9" * 100}, 2),
        ({"ratio": "1/0"}, 2),
        ({"plural": ""}, 2),
        ({"plural": "  "}, 2),
        ({"container_size": 10**400}, 2),
        ({"dimension": {"length": 1.5}}, 2),
        ({"dimension": {"length": True}}, 2),
    ],
)
def test_a_bad_row_refuses_at_its_line_and_at_once(tmp_path: Path, change: dict[str, Any], line: int) -> None:
    pack = _copy(tmp_path)
    rows = (pack / "lexicon.jsonl").read_text().splitlines()
    rows[line - 1] = json.dumps({**json.loads(rows[line - 1]), **change})
    _write_rows(pack, rows)
    def refused() -> pytest.ExceptionInfo[PackError]:
        with pytest.raises(PackError) as info:
            load_pack(pack)
        return info

    info, peak = peak_bytes(refused)
    _, good = peak_bytes(lambda: load_pack(PACK_DIR))
    assert peak < good + 4 * (1 << 20)  # a ratio of 1e99999999 hung the loader building a 41 MiB integer
    assert (info.value.reason, info.value.path) == ("malformed_row", f"{pack / 'lexicon.jsonl'}:{line}")


@pytest.mark.parametrize("change", [{"rows": True}, {"rows": -1}, {"rows": 1.0}, {"name": ""}, {"sha256": None}])
def test_a_manifest_field_of_the_wrong_type_refuses(tmp_path: Path, change: dict[str, Any]) -> None:
    pack = _copy(tmp_path)
    manifest = json.loads((pack / "manifest.json").read_text())
    (pack / "manifest.json").write_text(json.dumps({**manifest, **change}))
    with pytest.raises(PackError) as info:
        load_pack(pack)
    assert info.value.reason == "manifest_invalid"


@pytest.mark.parametrize(("key", "reason"), [("sha256", "checksum_mismatch"), ("rows", "row_count_mismatch")])
def test_a_mismatch_names_the_manifest_line(tmp_path: Path, key: str, reason: str) -> None:
    pack = _copy(tmp_path)
    manifest = json.loads((pack / "manifest.json").read_text())
    manifest[key] = "0" * 64 if key == "sha256" else manifest["rows"] + 1
    text = json.dumps(manifest, indent=2, sort_keys=True)
    (pack / "manifest.json").write_text(text)
    with pytest.raises(PackError) as info:
        load_pack(pack)
    line = 1 + text[: text.index(f'"{key}"')].count("\n")
    assert (info.value.reason, info.value.path) == (reason, f"{pack / 'manifest.json'}:{line}")


def test_a_pack_file_that_is_not_regular_refuses_without_blocking(tmp_path: Path) -> None:
    import os

    pack = _copy(tmp_path)
    (pack / "manifest.json").unlink()
    os.mkfifo(pack / "manifest.json")
    with pytest.raises(PackError) as info:
        load_pack(pack)
    assert info.value.reason == "pack_missing"


@seam_settings(300)
@given(st.dictionaries(st.sampled_from(["lemma", "plural", "surfaces", "domain", "dimension", "ratio", "canonical",
                                        "container_size", "extra"]), hostile_json, max_size=9))
def test_any_pack_row_is_an_entry_or_a_malformed_row_at_its_line(fields: dict[str, Any]) -> None:
    from ssbg.units import _parse_row

    row = {"lemma": "widget", "plural": "widgets", "surfaces": [], "domain": "count", "dimension": {"count": 1},
           "ratio": "1", "canonical": False, "container_size": None, **fields}
    try:
        entry = _parse_row(json.dumps(row), "lexicon.jsonl:7")
    except PackError as exc:
        assert (exc.reason, exc.path) == ("malformed_row", "lexicon.jsonl:7")
    else:
        assert all(type(e) is int for e in entry.dimension)
        assert entry.ratio is None or entry.ratio > 0
