"""The en_units_v1 pack: content of SPEC section 4, schema validation, shipping in the wheel."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from ssbg.errors import PackError
from ssbg.units import PACK_DOMAINS, UnitVector, default_pack, load_pack, parse_unit

REPO = Path(__file__).resolve().parents[1]
PACK_DIR = REPO / "packs" / "en_units_v1"

SPEC_CONTENT = {
    "count": "item child person mouse goose fish sheep deer woman man leaf knife life box bag pack basket batch dozen "
    "group set case pair pile stack bunch bundle carton crate jar can bottle plate bowl tray sack container gross",
    "length": "inch foot yard mile millimeter centimeter meter kilometer",
    "time": "second minute hour day week month year decade century millennium",
    "mass": "ounce pound ton gram kilogram milligram tonne",
    "volume": "teaspoon tablespoon cup pint quart gallon milliliter liter",
    "money": "cent dollar euro pound_sterling yen peso",
    "temperature": "degree fahrenheit celsius kelvin",
    "area": "square_inch square_foot square_yard square_mile square_meter square_kilometer acre hectare",
    "speed": "mile_per_hour kilometer_per_hour foot_per_second meter_per_second",
    "density": "pound_per_cubic_foot gram_per_cubic_centimeter",
    "frequency": "hertz kilohertz megahertz",
    "wage": "dollar_per_hour cent_per_hour",
    "unit_price": "dollar_per_item cent_per_item",
    "dimensionless": "percent half quarter three_quarters one_third two_thirds one_eighth three_eighths "
    "five_eighths seven_eighths",
}
CANONICAL = {
    "count": "item",
    "length": "foot",
    "time": "minute",
    "mass": "pound",
    "volume": "cup",
    "money": "cent",
    "temperature": "fahrenheit",
    "area": "square_foot",
    "speed": "mile_per_hour",
    "wage": "dollar_per_hour",
    "unit_price": "dollar_per_item",
}
DIMENSION = {
    "count": UnitVector(count=1),
    "length": UnitVector(length=1),
    "time": UnitVector(time=1),
    "mass": UnitVector(mass=1),
    "volume": UnitVector(length=3),
    "money": UnitVector(money=1),
    "temperature": UnitVector(temperature=1),
    "area": UnitVector(length=2),
    "speed": UnitVector(length=1, time=-1),
    "density": UnitVector(mass=1, length=-3),
    "frequency": UnitVector(time=-1),
    "wage": UnitVector(money=1, time=-1),
    "unit_price": UnitVector(money=1, count=-1),
    "dimensionless": UnitVector(),
}


def test_pack_has_the_112_lemmas_of_the_reference() -> None:
    assert len(default_pack().entries) == 112


@pytest.mark.parametrize("domain", sorted(SPEC_CONTENT))
def test_pack_domain_content_matches_the_spec(domain: str) -> None:
    listed = {e.lemma for e in default_pack().entries.values() if e.domain == domain}
    assert listed == set(SPEC_CONTENT[domain].split())


@pytest.mark.parametrize("domain", sorted(SPEC_CONTENT))
def test_every_lemma_of_a_domain_has_its_dimension(domain: str) -> None:
    for lemma in SPEC_CONTENT[domain].split():
        assert parse_unit(lemma) == DIMENSION[domain], lemma


@pytest.mark.parametrize(("domain", "lemma"), sorted(CANONICAL.items()))
def test_canonical_units(domain: str, lemma: str) -> None:
    canon = [e.lemma for e in default_pack().entries.values() if e.domain == domain and e.canonical]
    assert canon == [lemma]


@pytest.mark.parametrize(("lemma", "size"), [("dozen", 12), ("pair", 2), ("gross", 144)])
def test_container_sizes(lemma: str, size: int) -> None:
    assert default_pack().entries[lemma].container_size == size


@pytest.mark.parametrize("noun", ["apples", "widgets", "clips"])
def test_open_count_nouns_are_absent(noun: str) -> None:
    assert noun.rstrip("s") not in default_pack().entries


def test_domains_vocabulary_is_closed() -> None:
    assert {e.domain for e in default_pack().entries.values()} == PACK_DOMAINS


def test_committed_pack_equals_its_generator() -> None:
    sys.path.insert(0, str(REPO / "packs"))
    try:
        import build_en_units_v1
    finally:
        sys.path.pop(0)
    lexicon, manifest = build_en_units_v1.render()
    assert (PACK_DIR / "lexicon.jsonl").read_bytes() == lexicon
    assert (PACK_DIR / "manifest.json").read_bytes() == manifest


def test_manifest_checksum_and_row_count() -> None:
    manifest = json.loads((PACK_DIR / "manifest.json").read_text())
    data = (PACK_DIR / "lexicon.jsonl").read_bytes()
    assert manifest["sha256"] == hashlib.sha256(data).hexdigest()
    assert manifest["rows"] == len(data.splitlines())
    assert default_pack().checksum == manifest["sha256"]


def _copy_pack(tmp_path: Path) -> Path:
    dst = tmp_path / "pack"
    shutil.copytree(PACK_DIR, dst)
    return dst


def _rewrite(pack: Path, lines: list[str], *, fix_manifest: bool = True) -> None:
    data = ("\n".join(lines) + "\n").encode()
    (pack / "lexicon.jsonl").write_bytes(data)
    if fix_manifest:
        manifest = json.loads((pack / "manifest.json").read_text())
        manifest["sha256"] = hashlib.sha256(data).hexdigest()
        manifest["rows"] = sum(1 for line in lines if line.strip())
        (pack / "manifest.json").write_text(json.dumps(manifest))


def _lines(pack: Path) -> list[str]:
    return (pack / "lexicon.jsonl").read_text().splitlines()


@pytest.mark.parametrize(
    ("mutate", "reason", "line"),
    [
        (lambda row: "{not json", "malformed_row", 3),
        (lambda row: "[1, 2]", "malformed_row", 3),
        (lambda row: "[" * 100_000, "malformed_row", 3),  # nested deeper than the decoder's stack
        (lambda row: json.dumps({k: v for k, v in json.loads(row).items() if k != "domain"}), "malformed_row", 3),
        (lambda row: json.dumps({**json.loads(row), "extra": 1}), "malformed_row", 3),
        (lambda row: json.dumps({**json.loads(row), "ratio": "zero"}), "malformed_row", 3),
        (lambda row: json.dumps({**json.loads(row), "ratio": "-1"}), "malformed_row", 3),
        (lambda row: json.dumps({**json.loads(row), "dimension": {"flavour": 1}}), "malformed_row", 3),
        (lambda row: json.dumps({**json.loads(row), "dimension": {"length": 1.5}}), "malformed_row", 3),
        (lambda row: json.dumps({**json.loads(row), "domain": "vibes"}), "malformed_row", 3),
        (lambda row: json.dumps({**json.loads(row), "lemma": "Has Space"}), "malformed_row", 3),
        (lambda row: json.dumps({**json.loads(row), "surfaces": [""]}), "malformed_row", 3),
        (lambda row: json.dumps({**json.loads(row), "canonical": "yes"}), "malformed_row", 3),
        (lambda row: json.dumps({**json.loads(row), "lemma": "item"}), "duplicate_entry", 3),
        (lambda row: json.dumps({**json.loads(row), "surfaces": ["$"]}), "duplicate_entry", 100),
    ],
)
def test_bad_rows_name_file_and_line(tmp_path: Path, mutate: object, reason: str, line: int) -> None:
    pack = _copy_pack(tmp_path)
    lines = _lines(pack)
    lines[line - 1] = mutate(lines[line - 1])  # type: ignore[operator]
    _rewrite(pack, lines)
    with pytest.raises(PackError) as info:
        load_pack(pack)
    assert info.value.reason == reason
    assert info.value.path == f"{pack / 'lexicon.jsonl'}:{line}"


def test_checksum_mismatch(tmp_path: Path) -> None:
    pack = _copy_pack(tmp_path)
    _rewrite(pack, [*_lines(pack)[:-1]], fix_manifest=False)
    with pytest.raises(PackError) as info:
        load_pack(pack)
    assert info.value.reason == "checksum_mismatch"


def test_row_count_mismatch(tmp_path: Path) -> None:
    pack = _copy_pack(tmp_path)
    manifest = json.loads((pack / "manifest.json").read_text())
    manifest["rows"] = 7
    (pack / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(PackError) as info:
        load_pack(pack)
    assert info.value.reason == "row_count_mismatch"


@pytest.mark.parametrize("content", ["{", "[]", json.dumps({"name": "x"})])
def test_bad_manifest(tmp_path: Path, content: str) -> None:
    pack = _copy_pack(tmp_path)
    (pack / "manifest.json").write_text(content)
    with pytest.raises(PackError) as info:
        load_pack(pack)
    assert info.value.reason == "manifest_invalid"


@pytest.mark.parametrize("name", ["no_such_pack", "/no/such/folder"])
def test_missing_pack(name: str) -> None:
    with pytest.raises(PackError) as info:
        load_pack(name)
    assert info.value.reason == "pack_missing"


def test_missing_lexicon(tmp_path: Path) -> None:
    pack = _copy_pack(tmp_path)
    (pack / "lexicon.jsonl").unlink()
    with pytest.raises(PackError) as info:
        load_pack(pack)
    assert info.value.reason == "pack_missing"


def test_a_second_pack_is_a_value_that_changes_answers(tmp_path: Path) -> None:
    pack = _copy_pack(tmp_path)
    row = {
        "lemma": "apple",
        "plural": "apples",
        "surfaces": [],
        "domain": "count",
        "dimension": {"count": 1},
        "ratio": "1",
        "canonical": False,
        "container_size": None,
    }
    _rewrite(pack, [*_lines(pack), json.dumps(row, sort_keys=True)])
    extended = load_pack(pack)
    assert parse_unit("apples", extended) == UnitVector(count=1)
    assert extended != default_pack()
    from ssbg.errors import UnitAlgebraError

    with pytest.raises(UnitAlgebraError):
        parse_unit("apples")


@pytest.mark.slow
def test_packs_ship_in_the_wheel_and_load_from_another_folder(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(wheels), str(REPO)],
        check=True,
        capture_output=True,
    )
    (wheel,) = wheels.glob("ssbg-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for pack in ("en_units_v1", "en_counts_v1"):
        assert f"ssbg/packs/{pack}/lexicon.jsonl" in names
        assert f"ssbg/packs/{pack}/manifest.json" in names
    assert "ssbg/packs/en_counts_v1/LICENSE-WordNet.txt" in names
    assert "ssbg/reading/learned/reader.json" in names  # the learned reader's weights ship (ADR 0021)
    assert zipfile.ZipFile(wheel).getinfo("ssbg/reading/learned/reader.json").file_size <= 5 * 2**20
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(target)}
    probe = (
        "import ssbg, sys; print(ssbg.__file__); print(len(ssbg.default_pack().entries));"
        " print(ssbg.load_pack('en_units_v1+en_counts_v1').resolve('cookies').lemma);"
        " from ssbg.reading.learned.model import load_model; print(load_model() is not None)"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(target)!r}); {probe}"],
        cwd=elsewhere,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    assert out[0].startswith(str(target))
    assert out[1] == "112"
    assert out[2] == "cookie"
    assert out[3] == "True"  # the model loads from the installed package, not from the checkout


@pytest.mark.parametrize("value", ["no", 1, None])
def test_bad_depluralize_flag(tmp_path: Path, value: object) -> None:
    pack = _copy_pack(tmp_path)
    manifest = json.loads((pack / "manifest.json").read_text())
    (pack / "manifest.json").write_text(json.dumps({**manifest, "depluralize": value}))
    with pytest.raises(PackError) as info:
        load_pack(pack)
    assert info.value.reason == "manifest_invalid"
