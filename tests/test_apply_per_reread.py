"""tools/apply_per_reread.py: the re-read ``per`` labels of issue 36 are in force in the gold files, and a re-read
that does not fit its gold record stops the tool naming file and line (data/gold/README.md)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tools"))

import apply_per_reread  # noqa: E402 - a tool beside the package


def test_the_gold_files_carry_the_reread_labels() -> None:
    _, counts = apply_per_reread.apply()
    assert counts["already applied"] == 795
    assert counts["problems re-read"] == 1800
    assert apply_per_reread.main(["--check"]) == 0


def test_a_reread_label_is_traceable_to_its_reader() -> None:
    changed = [
        m
        for name in apply_per_reread.TARGETS.values()
        for line in (apply_per_reread.GOLD / name).read_text(encoding="utf-8").splitlines()
        for m in json.loads(line)["mentions"]
        if "reread" in m
    ]
    assert len(changed) == 795
    assert {m["reread"]["by"] for m in changed} == {"P1", "P2"}


def test_a_reread_that_does_not_fit_stops_with_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in (*apply_per_reread.TARGETS.values(), apply_per_reread.REREAD):
        shutil.copy(apply_per_reread.GOLD / name, tmp_path / name)
    lines = (tmp_path / apply_per_reread.REREAD).read_text(encoding="utf-8").splitlines()
    k = next(i for i, line in enumerate(lines) if json.loads(line)["changes"])
    record = json.loads(lines[k])
    record["changes"][0]["old_per"] = "zzz"  # a label the gold never had
    lines[k] = json.dumps(record)
    (tmp_path / apply_per_reread.REREAD).write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert apply_per_reread.main(["--gold", str(tmp_path)]) == 2
    assert f"{apply_per_reread.REREAD}:{k + 1}:" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
