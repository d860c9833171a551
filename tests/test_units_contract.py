"""The contract of ssbg.units, field by field: what each refusal says (reason, path, detail), how each
kind of unit text resolves (via, lemma, ratio, numerator, denominator), and how the loader names
what is wrong with a pack (the file and line).  Written against mutation testing (``make mutation``):
each assertion holds a behaviour a mutant of the module changed while the other tests still passed.
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from ssbg.errors import PackError, UnitAlgebraError
from ssbg.units import (
    DIMENSIONLESS,
    MAX_UNIT_CHARS,
    ResolvedUnit,
    UnitVector,
    _depluralizations,
    default_pack,
    load_pack,
    normalize_unit_text,
    pack_summary,
    parse_unit,
    resolve_unit,
    unit_inverse,
    unit_power,
    unit_product,
    unit_quotient,
    units_equal,
)

PACK = default_pack()


# ------------------------------------------------------------ how a text resolves


@pytest.mark.parametrize(
    ("text", "lemma", "via", "dimension", "ratio", "numerator", "denominator"),
    [
        ("hour", "hour", "lemma", "time", Fraction(60), "time", "dimensionless"),
        ("hours", "hour", "surface", "time", Fraction(60), "time", "dimensionless"),
        ("Square  Feet", "square_foot", "surface", "length^2", Fraction(1), "length^2", "dimensionless"),
        ("dollar_per_hour", "dollar_per_hour", "lemma", "money/time", Fraction(5, 3), "money", "time"),
        ("boxes", "box", "surface", "count", None, "count", "dimensionless"),
        ("dollar per hour per day", "dollar_per_hour_per_day", "composite", "money/time^2", Fraction(1, 864),
         "money/time", "time"),
        ("hour_per_mile_per_hour", "hour_per_mile_per_hour", "composite", "time^2/length", Fraction(15, 22), "time",
         "length/time"),
        ("boxes per hour", "box_per_hour", "composite", "count/time", None, "count", "time"),
        ("foot_per_second", "foot_per_second", "lemma", "length/time", Fraction(60), "length", "time"),
    ],
)
def test_a_unit_text_resolves_to_its_lemma_via_ratio_and_sides(
    text: str, lemma: str, via: str, dimension: str, ratio: Fraction | None, numerator: str, denominator: str
) -> None:
    PACK.clear_cache()
    hit = PACK.resolve(text)
    assert (hit.text, hit.lemma, hit.via, str(hit.dimension), hit.ratio) == (text, lemma, via, dimension, ratio)
    assert (str(hit.numerator), str(hit.denominator)) == (numerator, denominator)
    assert str(hit) == lemma
    assert hit.is_rate == (via == "composite" or denominator != "dimensionless")


def test_a_listed_lemma_is_never_split() -> None:
    hit = PACK.resolve("mile_per_hour")
    assert (hit.via, hit.lemma, hit.ratio) == ("lemma", "mile_per_hour", Fraction(88))


def test_of_two_splits_both_resolving_the_one_with_fewer_composites_wins() -> None:
    # "hours per miles per hour": hours / (miles per hour) has one composite side, the left-first split two
    hit = PACK.resolve("hours_per_miles_per_hour")
    assert (str(hit.numerator), str(hit.denominator)) == ("time", "length/time")


def test_ties_go_to_the_rightmost_split() -> None:
    hit = PACK.resolve("dollar_per_hour_per_minute")  # (dollar/hour)/minute, not dollar/(hour/minute)
    assert (str(hit.numerator), str(hit.denominator)) == ("money/time", "time")


@pytest.mark.parametrize(
    ("key", "candidates"),
    [
        ("flies", ("fly", "fli", "flie")),
        ("pies", ("pi", "pie")),  # "ies" needs more than four letters
        ("boxes", ("box", "boxe")),
        ("yes", ("ye",)),  # "es" needs more than three letters
        ("gas", ("ga",)),
        ("as", ()),  # "s" needs more than two letters
        ("kiss", ()),  # never "ss"
        ("square_feets", ("square_feet",)),  # the last word only, the head kept
        ("box_of_apples", ("box_of_appl", "box_of_apple")),
        ("fish", ()),
    ],
)
def test_depluralization_candidates(key: str, candidates: tuple[str, ...]) -> None:
    assert _depluralizations(key) == candidates


def _pack(folder: Path, lexicon: list[dict[str, Any]], **manifest: Any) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    data = "".join(json.dumps(r) + "\n" for r in lexicon).encode()
    (folder / "lexicon.jsonl").write_bytes(data)
    meta = {"name": "tiny", "version": "1.0.0", "rows": len(lexicon), "sha256": hashlib.sha256(data).hexdigest()}
    (folder / "manifest.json").write_text(json.dumps({**meta, **manifest}, indent=2), encoding="utf-8")
    return folder


def _row(lemma: str, plural: str, **fields: Any) -> dict[str, Any]:
    row = {"lemma": lemma, "plural": plural, "surfaces": [], "domain": "count", "dimension": {"count": 1},
           "ratio": "1", "canonical": False, "container_size": None}
    return {**row, **fields}


def test_depluralization_reaches_only_listed_lemmas(tmp_path: Path) -> None:
    pack = load_pack(_pack(tmp_path / "p", [_row("berry", "berryz"), _row("bus", "busz"), _row("cat", "catz")]))
    assert [(pack.resolve(t).lemma, pack.resolve(t).via) for t in ("berries", "buses", "cats")] == [
        ("berry", "depluralized"), ("bus", "depluralized"), ("cat", "depluralized")
    ]
    assert pack.lookup("dogs") == "unknown_unit"


def test_a_pack_that_says_no_depluralization_resolves_listed_forms_only(tmp_path: Path) -> None:
    pack = load_pack(_pack(tmp_path / "p", [_row("cat", "catz")], depluralize=False))
    assert (pack.lookup("cats"), pack.resolve("catz").lemma) == ("unknown_unit", "cat")


def test_a_folded_surface_two_lemmas_claim_resolves_only_as_written(tmp_path: Path) -> None:
    rows = [_row("thing", "things", surfaces=["Box"]), _row("other", "others", surfaces=["BOX"])]
    pack = load_pack(_pack(tmp_path / "p", rows))
    assert (pack.resolve("Box").lemma, pack.resolve("BOX").lemma, pack.lookup("box")) == (
        "thing", "other", "unknown_unit"
    )


# ------------------------------------------------------------ refusals of unit texts


@pytest.mark.parametrize(
    ("text", "reason"),
    [("", "malformed_unit"), ("   ", "malformed_unit"), ("x" * (MAX_UNIT_CHARS + 1), "malformed_unit"),
     ("apples", "unknown_unit"), ("dollars per apple", "unknown_unit")],
)
def test_resolve_refuses_with_reason_and_the_text_as_detail(text: str, reason: str) -> None:
    with pytest.raises(UnitAlgebraError) as info:
        PACK.resolve(text)
    assert (info.value.reason, info.value.detail) == (reason, text)
    assert info.value.message == f"{reason}: {text!r}"


@pytest.mark.parametrize("value", [None, 3, ["hours"], b"hours"])
def test_resolve_refuses_what_is_not_text(value: object) -> None:
    with pytest.raises(UnitAlgebraError) as info:
        PACK.resolve(value)  # type: ignore[arg-type]
    assert (info.value.reason, info.value.path, info.value.detail) == ("malformed_unit", "unit", repr(value))
    assert info.value.message.startswith("malformed_unit: unit must be a str")
    assert PACK.lookup(value) == "malformed_unit"


def test_parse_unit_reads_the_memo_and_refuses_unhashable_text() -> None:
    PACK.clear_cache()
    assert parse_unit("hours") == parse_unit("hours") == UnitVector(time=1)
    assert PACK.vector("hours") == UnitVector(time=1)
    with pytest.raises(UnitAlgebraError):
        parse_unit(["hours"])  # type: ignore[arg-type]
    with pytest.raises(UnitAlgebraError):
        PACK.vector("apples")


@pytest.mark.parametrize("pack", ["en_units_v1", 1, object()])
def test_a_pack_argument_that_is_no_pack_refuses(pack: object) -> None:
    for call in (lambda: parse_unit("hours", pack), lambda: resolve_unit("hours", pack), lambda: pack_summary(pack)):  # type: ignore[arg-type]
        with pytest.raises(UnitAlgebraError) as info:
            call()
        assert (info.value.reason, info.value.path, info.value.detail) == ("malformed_unit", "pack", repr(pack))


def test_resolve_unit_and_pack_summary_take_none_for_the_default_pack() -> None:
    assert resolve_unit("hours").lemma == resolve_unit("hours", PACK).lemma == "hour"
    summary = pack_summary()
    assert summary == pack_summary(PACK)
    assert (summary["name"], summary["version"], summary["lemmas"]) == ("en_units_v1", "1.0.0", len(PACK.entries))
    assert sum(summary["domains"].values()) == len(PACK.entries)
    assert list(summary["domains"]) == sorted(summary["domains"])
    assert summary["domains"]["wage"] == 2


def test_completions() -> None:
    assert PACK.completions("squ", limit=2) == ("square feet", "square inches")
    assert PACK.completions("SQU")[:2] == ("square feet", "square inches")
    assert len(PACK.completions()) == len({*PACK.entries, *PACK.surfaces})
    assert PACK.completions("zzz") == ()


def test_a_pack_hashes_by_name_version_and_checksum() -> None:
    assert hash(PACK) == hash((PACK.name, PACK.version, PACK.checksum))


# ------------------------------------------------------------ the algebra's refusals


@pytest.mark.parametrize("op", [unit_product, unit_quotient, units_equal])
def test_binary_algebra_names_the_bad_argument(op: Any) -> None:
    for args, path in (((None, DIMENSIONLESS), "a"), ((DIMENSIONLESS, "x"), "b")):
        with pytest.raises(UnitAlgebraError) as info:
            op(*args)
        assert (info.value.reason, info.value.path) == ("malformed_unit", path)
        assert info.value.detail == repr(args[0] if path == "a" else args[1])
        assert info.value.message.startswith(f"malformed_unit: '{path}' must be a UnitVector")


def test_the_algebra_itself() -> None:
    v, w = UnitVector(money=1, time=-1), UnitVector(time=1, count=2)
    assert unit_product(v, w) == UnitVector(money=1, count=2)
    assert unit_quotient(v, w) == UnitVector(money=1, time=-2, count=-2)
    assert unit_inverse(v) == UnitVector(money=-1, time=1)
    assert unit_power(v, 3) == UnitVector(money=3, time=-3)
    assert unit_power(v, 0) == DIMENSIONLESS
    assert units_equal(v, UnitVector(time=-1, money=1))
    assert not units_equal(v, w)
    assert v.as_dict() == {"time": -1, "money": 1}


def test_unit_power_names_its_exponent() -> None:
    with pytest.raises(UnitAlgebraError) as info:
        unit_power(UnitVector(length=1), 1.5)  # type: ignore[arg-type]
    assert (info.value.reason, info.value.path, info.value.detail) == ("malformed_unit", "n", "1.5")
    assert info.value.message.startswith("malformed_unit: exponent must be an int")
    with pytest.raises(UnitAlgebraError) as info:
        unit_power(None, 2)  # type: ignore[arg-type]
    assert info.value.path == "v"


def test_an_exponent_refusal_names_its_field() -> None:
    with pytest.raises(UnitAlgebraError) as info:
        UnitVector(count="1")  # type: ignore[arg-type]
    assert (info.value.path, info.value.detail) == ("count", "'1'")
    assert "exponent 'count' must be an int (got str '1')" in info.value.message


def test_make_names_a_wrong_length() -> None:
    with pytest.raises(UnitAlgebraError) as info:
        UnitVector._make([1, 2, 3])
    assert (info.value.reason, info.value.detail) == ("malformed_unit", "(1, 2, 3)")
    assert "has 6 exponents (got 3)" in info.value.message


def test_an_entry_splits_into_its_positive_and_negative_sides() -> None:
    entry: ResolvedUnit = PACK.resolve("dollar_per_hour")
    assert entry.numerator == UnitVector(money=1)
    assert entry.denominator == UnitVector(time=1)


def test_normalize_unit_text() -> None:
    assert normalize_unit_text("  Square -  Feet ") == "square_feet"


# ------------------------------------------------------------ the loader names the file and the line


def _rewrite_lexicon(folder: Path, data: bytes, *, rows: int) -> None:
    """Replace a pack's lexicon with ``data``, its manifest's checksum and row count kept true to it."""
    (folder / "lexicon.jsonl").write_bytes(data)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest.update(sha256=hashlib.sha256(data).hexdigest(), rows=rows)
    (folder / "manifest.json").write_text(json.dumps(manifest))


def _tiny(tmp_path: Path, **manifest: Any) -> Path:
    return _pack(tmp_path / "p", [_row("widget", "widgets"), _row("gadget", "gadgets")], **manifest)


@pytest.mark.parametrize(
    ("manifest", "reason"),
    [
        ({"rows": True}, "manifest_invalid"),
        ({"rows": -1}, "manifest_invalid"),
        ({"version": " "}, "manifest_invalid"),
        ({"depluralize": "yes"}, "manifest_invalid"),
        ({"name": "a b"}, "manifest_invalid"),
        ({"version": "1+2"}, "manifest_invalid"),
        ({"rows": 0}, "row_count_mismatch"),  # zero rows is a count, only not this lexicon's
        ({"rows": 10**15}, "row_count_mismatch"),  # the largest count there is
    ],
)
def test_a_manifest_field_refuses_at_the_manifest(tmp_path: Path, manifest: dict[str, Any], reason: str) -> None:
    folder = _tiny(tmp_path, **manifest)
    with pytest.raises(PackError) as info:
        load_pack(folder)
    assert info.value.reason == reason
    assert info.value.path is not None
    assert info.value.path.startswith(f"{folder / 'manifest.json'}:")


def test_a_manifest_that_is_not_json_refuses_at_its_first_line(tmp_path: Path) -> None:
    folder = _tiny(tmp_path)
    (folder / "manifest.json").write_bytes(b"\xff{")
    with pytest.raises(PackError) as info:
        load_pack(folder)
    assert (info.value.reason, info.value.path) == ("manifest_invalid", f"{folder / 'manifest.json'}:1")


def test_a_lexicon_that_is_not_utf8_names_the_lexicon(tmp_path: Path) -> None:
    folder = _tiny(tmp_path)
    data = b'{"lemma": "\xff"}\n'
    _rewrite_lexicon(folder, data, rows=1)
    with pytest.raises(PackError) as info:
        load_pack(folder)
    assert (info.value.reason, info.value.path) == ("malformed_row", str(folder / "lexicon.jsonl"))
    assert "not UTF-8" in info.value.message


@pytest.mark.parametrize(
    ("rows", "line"),
    [
        ([_row("widget", "widgets"), _row("widget", "widgetz")], 2),  # a lemma twice
        ([_row("widget", "widgets"), _row("gadget", "widgets")], 2),  # a surface claimed twice
        ([_row("widget", "widgets", surfaces=["gadget"]), _row("gadget", "gadgets")], None),  # a lemma's surface
    ],
)
def test_a_duplicate_names_its_line_or_the_lexicon(
    tmp_path: Path, rows: list[dict[str, Any]], line: int | None
) -> None:
    folder = _pack(tmp_path / "p", rows)
    with pytest.raises(PackError) as info:
        load_pack(folder)
    lexicon = folder / "lexicon.jsonl"
    assert (info.value.reason, info.value.path) == ("duplicate_entry", f"{lexicon}:{line}" if line else str(lexicon))


def test_a_surface_that_folds_onto_a_lemma_is_a_duplicate(tmp_path: Path) -> None:
    folder = _pack(tmp_path / "p", [_row("widget", "widgets", surfaces=["Gadget"]), _row("gadget", "gadgets")])
    with pytest.raises(PackError) as info:
        load_pack(folder)
    assert info.value.reason == "duplicate_entry"


def test_blank_lexicon_lines_are_skipped_and_the_lines_still_counted(tmp_path: Path) -> None:
    folder = _tiny(tmp_path)
    rows = (folder / "lexicon.jsonl").read_text().splitlines()
    data = (rows[0] + "\n\n" + json.dumps(_row("bad", "")) + "\n").encode()
    _rewrite_lexicon(folder, data, rows=2)
    with pytest.raises(PackError) as info:
        load_pack(folder)
    assert info.value.path == f"{folder / 'lexicon.jsonl'}:3"


@pytest.mark.parametrize(
    ("field", "value"),
    [("lemma", "Widget"), ("lemma", ""), ("domain", "smell"), ("surfaces", [""]), ("surfaces", [3]),
     ("dimension", {"smell": 1}), ("ratio", "-1"), ("ratio", "0"), ("container_size", 0), ("canonical", 1)],
)
def test_a_bad_field_refuses_at_its_row(tmp_path: Path, field: str, value: object) -> None:
    folder = _pack(tmp_path / "p", [_row("gadget", "gadgets"), {**_row("widget", "widgets"), field: value}])
    with pytest.raises(PackError) as info:
        load_pack(folder)
    assert (info.value.reason, info.value.path) == ("malformed_row", f"{folder / 'lexicon.jsonl'}:2")


@pytest.mark.parametrize("row", ["{not json", "[1]", json.dumps({"lemma": "widget"})])
def test_a_row_that_is_no_row_refuses_at_its_line(tmp_path: Path, row: str) -> None:
    folder = _pack(tmp_path / "p", [_row("gadget", "gadgets")])
    data = (folder / "lexicon.jsonl").read_bytes() + row.encode() + b"\n"
    _rewrite_lexicon(folder, data, rows=2)
    with pytest.raises(PackError) as info:
        load_pack(folder)
    assert (info.value.reason, info.value.path) == ("malformed_row", f"{folder / 'lexicon.jsonl'}:2")


@pytest.mark.parametrize("name", ["no_such_pack", "no/such/folder", Path("/no/such/folder")])
def test_a_missing_pack_names_what_was_asked(name: str | Path) -> None:
    with pytest.raises(PackError) as info:
        load_pack(name)
    assert (info.value.reason, info.value.path) == ("pack_missing", str(name))


def test_a_missing_pack_file_names_it(tmp_path: Path) -> None:
    folder = _tiny(tmp_path)
    (folder / "lexicon.jsonl").unlink()
    with pytest.raises(PackError) as info:
        load_pack(folder)
    assert (info.value.reason, info.value.path) == ("pack_missing", str(folder / "lexicon.jsonl"))


def test_a_pack_file_too_large_is_a_malformed_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("ssbg.units.MAX_PACK_BYTES", 10)
    folder = _tiny(tmp_path)
    with pytest.raises(PackError) as info:
        load_pack(folder)
    assert (info.value.reason, info.value.path) == ("malformed_row", str(folder / "manifest.json"))


def test_a_loaded_tiny_pack(tmp_path: Path) -> None:
    pack = load_pack(_tiny(tmp_path))
    assert (pack.name, pack.version, pack.lemmas) == ("tiny", "1.0.0", ("widget", "gadget"))
    assert pack.resolve("widgets").via == "surface"


# ------------------------------------------------------------ pinned against the survivors of mutation testing


class _Calls:
    """Counts the unit texts resolved while it is entered (each side of each split tried)."""

    def __enter__(self) -> _Calls:
        from ssbg.units import UnitPack

        self.calls = 0
        self._real = real = UnitPack._resolve_uncached

        def counting(pack: UnitPack, *args: Any) -> Any:
            self.calls += 1
            return real(pack, *args)

        UnitPack._resolve_uncached = counting  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        from ssbg.units import UnitPack

        UnitPack._resolve_uncached = self._real  # type: ignore[method-assign]


@pytest.mark.parametrize(("pers", "calls"), [(20, 47), (31, 58), (32, 1), (33, 1)])
def test_a_text_with_more_pers_than_a_composite_can_hold_is_not_split(pers: int, calls: int) -> None:
    # a full tree of composites MAX_UNIT_NESTING deep holds 31 "per" (15 splits, 16 listed leaves of one "per")
    PACK.clear_cache()
    with _Calls() as counted:
        assert PACK.lookup("a_per_" * pers + "a") == "unknown_unit"
    assert counted.calls == calls


@pytest.mark.parametrize(("text", "lemma", "via"), [("fts", "foot", "depluralized"), ("Hour", "hour", "lemma"),
                                                     ("$ per hour", "dollar_per_hour", "composite")])
def test_the_less_common_paths_of_resolution(text: str, lemma: str, via: str) -> None:
    PACK.clear_cache()
    hit = PACK.resolve(text)
    assert (hit.text, hit.lemma, hit.via) == (text, lemma, via)


def test_the_unit_length_cap_is_inclusive() -> None:
    PACK.clear_cache()  # the memo of an earlier lookup would answer for the code under test
    assert (PACK.lookup("x" * MAX_UNIT_CHARS), PACK.lookup("x" * (MAX_UNIT_CHARS + 1))) == (
        "unknown_unit", "malformed_unit"
    )


def test_the_lookup_memo_never_holds_more_than_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("ssbg.units.MAX_MEMOIZED_UNITS", 20)
    PACK.clear_cache()
    sizes = []
    for i in range(70):
        PACK.lookup(f"gizmo{i}")
        sizes.append(len(PACK._cache))
    PACK.clear_cache()
    assert max(sizes) == 20


def test_depluralization_of_the_last_word_only() -> None:
    assert _depluralizations("box_pies") == ("box_pi", "box_pie")  # "pies" alone is too short for "ies"


@pytest.mark.parametrize("value", [3, None, [1]])
def test_refusals_of_wrong_types_name_the_type(value: object) -> None:
    from ssbg.units import UnitVector as Vector

    name = type(value).__name__
    checks = [
        (lambda: PACK.resolve(value), f"(got {name})"),  # type: ignore[arg-type]
        (lambda: parse_unit("hours", value) if value is not None else parse_unit(value), f"(got {name})"),  # type: ignore[arg-type]
        (lambda: unit_product(Vector(), value), f"(got {name})"),  # type: ignore[arg-type]
        (lambda: load_pack(3 if value is None else value), "(got int)" if value is None else f"(got {name})"),  # type: ignore[arg-type]
    ]
    for call, words in checks:
        with pytest.raises((UnitAlgebraError, PackError)) as info:
            call()
        assert words in info.value.message, info.value.message


def test_the_algebra_shows_the_value_it_refused() -> None:
    cases = ((unit_inverse, ("x",), "v", "'x'"), (unit_product, ((1,), DIMENSIONLESS), "a", "(1,)"),
             (unit_quotient, (DIMENSIONLESS, [2]), "b", "[2]"))
    for op, args, path, shown in cases:
        with pytest.raises(UnitAlgebraError) as info:
            op(*args)
        assert (info.value.path, info.value.detail) == (path, shown)


def test_load_pack_refuses_a_name_that_is_no_text() -> None:
    with pytest.raises(PackError) as info:
        load_pack(3)  # type: ignore[arg-type]
    assert (info.value.reason, info.value.path, info.value.detail) == ("pack_missing", "pack", "3")
    assert "a pack is named by a str or a Path (got int)" in info.value.message


def test_an_empty_part_of_a_composed_name_is_named() -> None:
    with pytest.raises(PackError) as info:
        load_pack("en_units_v1++en_counts_v1")
    assert (info.value.reason, info.value.path) == ("pack_missing", "en_units_v1++en_counts_v1")
    assert "empty pack name" in info.value.message


def test_a_windows_style_path_is_a_folder_not_a_name() -> None:
    with pytest.raises(PackError) as info:
        load_pack("no\\such\\pack")
    assert info.value.message.startswith("no unit pack folder at")


def test_named_packs_are_read_once_folders_while_unchanged(tmp_path: Path) -> None:
    assert load_pack("en_units_v1") is load_pack("en_units_v1")
    folder = str(_tiny(tmp_path))
    first = load_pack(folder)
    assert load_pack(folder) is first  # memoized by resolved path and checksum (ADR 0033)
    data = (Path(folder) / "lexicon.jsonl").read_bytes().replace(b"widget", b"gizmo")
    _rewrite_lexicon(Path(folder), data, rows=len(first.entries))
    changed = load_pack(folder)  # a folder's content may change between loads: it is read again
    assert changed is not first
    assert "gizmo" in changed.entries


def test_a_row_that_is_no_object_shows_itself_as_detail(tmp_path: Path) -> None:
    folder = _pack(tmp_path / "p", [_row("gadget", "gadgets")])
    data = (folder / "lexicon.jsonl").read_bytes() + b"[1, 2]\n"
    _rewrite_lexicon(folder, data, rows=2)
    with pytest.raises(PackError) as info:
        load_pack(folder)
    assert (info.value.detail, info.value.message) == ("[1, 2]", "row must be a JSON object")


@pytest.mark.parametrize("size", [1, 10**15])
def test_a_container_size_at_its_bounds_is_accepted(tmp_path: Path, size: int) -> None:
    pack = load_pack(_pack(tmp_path / "p", [_row("crate", "crates", container_size=size)]))
    assert pack.entries["crate"].container_size == size


def test_a_lemma_that_is_an_exact_surface_of_another_is_a_duplicate_even_when_its_folding_is_ambiguous(
    tmp_path: Path,
) -> None:
    rows = [_row("widget", "widgets", surfaces=["gadget"]), _row("thing", "things", surfaces=["Gadget"]),
            _row("gadget", "gadgets")]
    with pytest.raises(PackError) as info:
        load_pack(_pack(tmp_path / "p", rows))
    assert info.value.reason == "duplicate_entry"


def test_a_manifest_key_written_as_an_escape_is_found_at_line_one(tmp_path: Path) -> None:
    folder = _tiny(tmp_path)
    manifest = json.loads((folder / "manifest.json").read_text())
    text = "\n" + json.dumps({**manifest, "rows": 5}, indent=2).replace('"rows"', '"\\u0072ows"')
    (folder / "manifest.json").write_text(text)
    with pytest.raises(PackError) as info:
        load_pack(folder)
    assert (info.value.reason, info.value.path) == ("row_count_mismatch", f"{folder / 'manifest.json'}:1")
    (folder / "manifest.json").write_text("\n" + json.dumps({**manifest, "rows": 5}, indent=2))
    with pytest.raises(PackError) as info:
        load_pack(folder)
    assert info.value.path == f"{folder / 'manifest.json'}:5"  # the blank first line counts


PACK_FAULTS = [
    ({"rows": True}, "manifest needs"), ({"version": " "}, "'version' non-empty"), ({"depluralize": 1}, "depluralize"),
    ({"name": "a b"}, "must match"), ({"rows": 9}, "lexicon has 2 rows"), ({"sha256": "0" * 64}, "differs from"),
]


@pytest.mark.parametrize(("manifest", "words"), PACK_FAULTS)
def test_a_pack_refusal_says_what_is_wrong(tmp_path: Path, manifest: dict[str, Any], words: str) -> None:
    with pytest.raises(PackError) as info:
        load_pack(_tiny(tmp_path, **manifest))
    assert words in info.value.message


@pytest.mark.parametrize(
    ("row", "words"),
    [({"surfaces": [""]}, "'surfaces' must be non-empty strings"), ({"dimension": {"x": 1}}, "'dimension' must map"),
     ({"ratio": "1e99999999"}, "'ratio' is not a rational within bounds"), ({"ratio": "0"}, "'ratio' must be positive"),
     ({"container_size": 0}, "'container_size' must be a positive int"), ({"plural": ""}, "'plural' must be"),
     ({"domain": "smell"}, "unknown domain 'smell'"), ({"lemma": "X"}, "must be normalized"),
     ({"canonical": 1}, "'canonical' has the wrong type (int)"), ({"extra": 1}, "missing [], unexpected ['extra']"),
     ({"domain": None}, "'domain' has the wrong type (NoneType)")],
)
def test_a_row_refusal_says_what_is_wrong(tmp_path: Path, row: dict[str, Any], words: str) -> None:
    with pytest.raises(PackError) as info:
        load_pack(_pack(tmp_path / "p", [{**_row("widget", "widgets"), **row}]))
    assert words in info.value.message


def test_duplicates_say_what_is_claimed_twice(tmp_path: Path) -> None:
    for rows, words in (([_row("w", "ws"), _row("w", "wz")], "lemma 'w' listed twice"),
                        ([_row("w", "ws"), _row("v", "ws")], "surface 'ws' claimed by 'w' and 'v'"),
                        ([_row("w", "ws", surfaces=["v"]), _row("v", "vs")], "lemma 'v' is also another lemma's")):
        with pytest.raises(PackError) as info:
            load_pack(_pack(tmp_path / f"p{len(words)}", rows))
        assert words in info.value.message


def test_a_pack_whose_components_do_not_add_up_is_refused_naming_it() -> None:
    import dataclasses

    from ssbg.units import PackComponent

    pack = default_pack()
    for components, words in (((), "non-empty tuple of PackComponent"), (("x",), "must hold PackComponent values"),
                              ((PackComponent("other", "1", pack.checksum),), "must join the components'")):
        with pytest.raises(PackError) as info:
            dataclasses.replace(pack, components=components)
        assert (info.value.reason, info.value.path) == ("manifest_invalid", pack.name)
        assert words in info.value.message
    with pytest.raises(PackError) as info:
        dataclasses.replace(pack, checksum="0" * 64)
    assert "is not the components' composition checksum" in info.value.message


def test_missing_and_unreadable_pack_files_say_so(tmp_path: Path) -> None:
    import os

    with pytest.raises(PackError) as info:
        load_pack("no_such_pack")
    assert "no unit pack named 'no_such_pack'" in info.value.message
    folder = _tiny(tmp_path)
    (folder / "lexicon.jsonl").unlink()
    with pytest.raises(PackError) as info:
        load_pack(folder)
    assert info.value.message == f"missing pack file {folder / 'lexicon.jsonl'}"
    os.mkfifo(folder / "lexicon.jsonl")
    with pytest.raises(PackError) as info:
        load_pack(folder)
    assert info.value.message == f"cannot read pack file {folder / 'lexicon.jsonl'}: not a regular file (a FIFO)"
    (folder / "manifest.json").write_text("{")
    with pytest.raises(PackError) as info:
        load_pack(folder)
    assert info.value.message.startswith("manifest is not JSON")


def test_compose_names_what_is_not_a_pack() -> None:
    from ssbg.units import compose

    with pytest.raises(UnitAlgebraError) as info:
        compose(default_pack(), "x")  # type: ignore[arg-type]
    assert (info.value.path, info.value.detail) == ("packs[1]", "'x'")
    assert "compose() takes UnitPack values (got str at 1)" in info.value.message
    with pytest.raises(UnitAlgebraError) as info:
        compose()
    assert (info.value.reason, info.value.path) == ("malformed_unit", "packs")
    assert info.value.message == "malformed_unit: compose() takes one or more UnitPack values"


def test_a_conflict_names_both_claims(tmp_path: Path) -> None:
    a = load_pack(_pack(tmp_path / "a", [_row("widget", "widgets")]))
    b = load_pack(_pack(tmp_path / "b", [_row("gizmo", "widgets")], name="other"))
    with pytest.raises(PackError) as info:
        a + b
    assert info.value.reason == "pack_conflict"
    assert "'widgets' is claimed by tiny (-> widget) and other (-> gizmo)" in info.value.message


def test_a_row_missing_a_field_names_it(tmp_path: Path) -> None:
    row = {k: v for k, v in _row("widget", "widgets").items() if k != "domain"}
    with pytest.raises(PackError) as info:
        load_pack(_pack(tmp_path / "p", [row]))
    assert "missing ['domain'], unexpected []" in info.value.message
    assert info.value.detail is None  # only a row that is no object shows itself


def test_a_row_that_is_not_json_says_so(tmp_path: Path) -> None:
    folder = _pack(tmp_path / "p", [_row("gadget", "gadgets")])
    data = b"{oops\n"
    _rewrite_lexicon(folder, data, rows=1)
    with pytest.raises(PackError) as info:
        load_pack(folder)
    assert info.value.message.startswith("row is not JSON")


def test_a_path_with_a_slash_is_a_folder_not_a_name() -> None:
    with pytest.raises(PackError) as info:
        load_pack("no/such/pack")
    assert info.value.message.startswith("no unit pack folder at")


def test_a_lemma_two_packs_define_differently_names_both_entries(tmp_path: Path) -> None:
    a = load_pack(_pack(tmp_path / "a", [_row("widget", "widgets")]))
    b = load_pack(_pack(tmp_path / "b", [_row("widget", "widgetz", ratio="2")], name="other"))
    with pytest.raises(PackError) as info:
        a + b
    assert info.value.message.startswith("lemma 'widget' is claimed by tiny (lemma widget) and other (lemma widget)")
