"""``ssbg pack``: write and check a unit pack of one's own (an edge module).

A pack is a folder of two files (ADR 0001): ``lexicon.jsonl``, one JSON object per unit, and
``manifest.json``, which names the pack and pins the lexicon by its row count and sha256.
``ssbg pack init DIR`` writes the manifest from the lexicon (and, in a folder without a lexicon,
a two-row example to edit: a unit, furlong, and a count noun, wagon), then loads the pack as
every command would; ``ssbg pack check DIR`` loads it and says what it holds.  Both print the
lexicon's sha256 and the ``--pack`` that composes the pack with the shipped units.

Exit codes follow :mod:`ssbg.cli`: 0 a valid pack; 2 a pack that does not load (the typed
:class:`~ssbg.errors.PackError` names the file and line).

Examples
--------
>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp()) / "mine"
>>> pack, wrote_example = init_pack(folder)
>>> pack.name, len(pack.entries), wrote_example, sorted(p.name for p in folder.iterdir())
('mine', 2, True, ['lexicon.jsonl', 'manifest.json'])
>>> from ssbg.units import load_pack
>>> units = load_pack(f"en_units_v1+{folder}")
>>> units.resolve("furlongs").lemma, units.resolve("3 wagons".split()[1]).lemma
('furlong', 'wagon')
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

from ssbg.errors import PackError
from ssbg.files import atomic_write, read_regular
from ssbg.units import MAX_PACK_BYTES, UnitPack, load_pack

__all__ = ["EXAMPLE_ROWS", "init_pack", "register", "write_manifest"]

EXAMPLE_ROWS: tuple[dict[str, Any], ...] = (
    {"canonical": False, "container_size": None, "dimension": {"length": 1}, "domain": "length",
     "lemma": "furlong", "plural": "furlongs", "ratio": "660", "surfaces": ["fur"]},
    {"canonical": False, "container_size": None, "dimension": {"count": 1}, "domain": "count",
     "lemma": "wagon", "plural": "wagons", "ratio": "1", "surfaces": []},
)
"""The two rows ``ssbg pack init`` writes in a folder without a lexicon (the README explains each field)."""

_NAME = re.compile(r"[^A-Za-z0-9_.\-]+")


def _lexicon_text(rows: tuple[dict[str, Any], ...]) -> str:
    return "".join(json.dumps(row, sort_keys=True, ensure_ascii=False) + "\n" for row in rows)


def _old_manifest(path: Path) -> dict[str, Any]:
    """The manifest already in the folder, when it decodes to an object (its name, version, description kept)."""
    try:
        data = json.loads(read_regular(path, MAX_PACK_BYTES).decode("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_manifest(folder: str | Path, *, name: str | None = None, version: str | None = None,
                   description: str | None = None) -> dict[str, Any]:
    """Write ``folder/manifest.json`` for the lexicon beside it: its rows (non-blank lines) and sha256, and the
    pack's name (default: the manifest's, else the folder's name), version (default: the manifest's, else
    ``0.1.0``) and description; other keys of an existing manifest are kept.  Returns the manifest written.

    Raises
    ------
    PackError
        ``pack_missing`` when the folder has no ``lexicon.jsonl``.
    """
    root = Path(folder)
    lexicon = root / "lexicon.jsonl"
    try:
        data = read_regular(lexicon, MAX_PACK_BYTES)
    except OSError as exc:
        raise PackError(f"cannot read {lexicon}: {exc.strerror or exc}", reason="pack_missing",
                        path=str(lexicon)) from None
    old = _old_manifest(root / "manifest.json")
    manifest = {
        **old,
        "name": name or old.get("name") or _NAME.sub("_", root.resolve().name) or "my_pack",
        "version": version or old.get("version") or "0.1.0",
        "description": description or old.get("description") or f"Units of {root.resolve().name}, beside ssbg's.",
        "rows": sum(1 for line in data.splitlines() if line.strip()),
        "sha256": hashlib.sha256(data).hexdigest(),
    }
    atomic_write(root / "manifest.json", json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    return manifest


def init_pack(folder: str | Path, *, name: str | None = None, version: str | None = None,
              description: str | None = None) -> tuple[UnitPack, bool]:
    """Make ``folder`` a pack: the example lexicon when it has none (:data:`EXAMPLE_ROWS`), the manifest
    (:func:`write_manifest`), then the pack loaded and validated.  Returns it and whether the example was written.

    Raises
    ------
    PackError
        When the pack does not load (a bad row, named by ``file:line``; a lemma or surface listed twice).
    """
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    example = not (root / "lexicon.jsonl").exists()
    if example:
        atomic_write(root / "lexicon.jsonl", _lexicon_text(EXAMPLE_ROWS))
    write_manifest(root, name=name, version=version, description=description)
    return load_pack(root), example


def _summary(pack: UnitPack, folder: Path) -> list[str]:
    domains: dict[str, int] = {}
    for entry in pack.entries.values():
        domains[entry.domain] = domains.get(entry.domain, 0) + 1
    shown = ", ".join(f"{d} {n}" for d, n in sorted(domains.items())) or "none"
    spec = f"en_units_v1+{folder}" if folder.is_absolute() or str(folder).startswith(".") else \
        f"en_units_v1+./{folder}"
    return [f"pack {pack.name} {pack.version}: {len(pack.entries)} units ({shown})",
            f"sha256 {pack.checksum}",
            f"use it beside the shipped units: --pack {spec}"]


def _cmd_init(args: argparse.Namespace) -> int:
    folder = Path(args.folder)
    pack, example = init_pack(folder, name=args.name, version=args.version, description=args.description)
    said = [f"wrote {folder / 'lexicon.jsonl'}: an example of two rows (furlong, wagon) to edit"] if example else []
    sys.stdout.write("\n".join([*said, f"wrote {folder / 'manifest.json'}", *_summary(pack, folder)]) + "\n")
    return 0


def _cmd_check(args: argparse.Namespace) -> int:
    folder = Path(args.folder)
    try:
        pack = load_pack(folder)
    except PackError as exc:
        if exc.reason in ("checksum_mismatch", "row_count_mismatch"):
            sys.stderr.write(f"ssbg: the lexicon changed since the manifest was written: `ssbg pack init {folder}` "
                             "rewrites it\n")
        raise
    sys.stdout.write("\n".join(_summary(pack, folder)) + "\n")
    return 0


_EPILOG = """\
a pack folder holds lexicon.jsonl (one unit per line) and manifest.json; a row:
  {"lemma": "furlong", "plural": "furlongs", "surfaces": ["fur"], "domain": "length",
   "dimension": {"length": 1}, "ratio": "660", "canonical": false, "container_size": null}
lemma: the unit's name (lower case, _ between words); plural and surfaces: its other spellings;
domain: one of count, length, time, mass, volume, money, temperature, area, speed, density, frequency, wage,
unit_price, dimensionless; dimension: exponents over length, time, mass, money, count, temperature;
ratio: its size in the base units foot, minute, pound, cent, item, degree Fahrenheit (a fraction as text,
null: no fixed size); canonical: true for a domain's reference unit (at most one a domain); container_size:
how many things it holds (a dozen 12), else null. The manifest's rows and sha256 pin the lexicon: edit the
lexicon, then run ssbg pack init DIR again.

exit codes: 0 a valid pack; 2 a pack that does not load (naming the file and line)"""


def register(subparsers: Any) -> None:
    """Add ``ssbg pack init`` and ``ssbg pack check`` to the ``ssbg`` command line."""
    pack = subparsers.add_parser("pack", help="write and check a unit pack of your own (pack init DIR, pack check DIR)",
                                 description="Write and check a unit pack folder: lexicon.jsonl and its manifest.",
                                 epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = pack.add_subparsers(dest="pack_command", required=True)
    init = sub.add_parser("init", help="write DIR's manifest from its lexicon (an example lexicon in a new folder), "
                          "validate the pack and print its checksum", epilog=_EPILOG,
                          formatter_class=argparse.RawDescriptionHelpFormatter)
    init.add_argument("folder", metavar="DIR")
    init.add_argument("--name", help="the pack's name (default: the manifest's, else the folder's)")
    init.add_argument("--version", help="the pack's version (default: the manifest's, else 0.1.0)")
    init.add_argument("--description", help="one line saying what the pack holds")
    init.set_defaults(func=_cmd_init)
    check = sub.add_parser("check", help="load DIR as every command would, and say what it holds and its checksum",
                           epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    check.add_argument("folder", metavar="DIR")
    check.set_defaults(func=_cmd_check)
