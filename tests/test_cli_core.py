"""The core subcommands of the ssbg CLI: check and bind, with exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ssbg.cli import EXIT_BAD_INPUT, EXIT_OK, EXIT_REFUSED, main

PROBLEM = {
    "entities": ["Ann"],
    "initial_state": [{"entity": "Ann", "quantity": {"value": 3, "unit": "hours"}}],
    "operations": [
        {
            "actor": "Ann",
            "kind": "apply_rate",
            "operand": {"value": 12, "numerator_unit": "dollars", "denominator_unit": "hours"},
        },
        {"actor": "Ann", "kind": "add", "operand": {"value": 2, "unit": "apples"}},
    ],
    "unknown": {"entity": "Ann", "unit": "dollars"},
}


def test_check_admitted(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "apply_rate", "dollars_per_hour", "hours"]) == EXIT_OK
    assert capsys.readouterr().out.strip() == "admitted apply_rate: [money/time,time] -> money"


def test_check_refused_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "add", "dollars", "hours", "--json"]) == EXIT_REFUSED
    payload = json.loads(capsys.readouterr().out)
    assert (payload["status"], payload["reason"]) == ("refused", "unit_mismatch")


def test_check_pure_number_operand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "fraction_portion", "dollars", "-"]) == EXIT_OK


def test_check_with_missing_pack_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "add", "dollars", "dollars", "--pack", "/no/such/pack"]) == EXIT_BAD_INPUT
    assert "pack_missing" in capsys.readouterr().err


def test_bind_prints_the_canonical_string(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(PROBLEM))
    assert main(["bind", str(path), "--hash"]) == EXIT_OK
    out = capsys.readouterr().out
    assert out.startswith("provenance ")
    assert "kind=apply_rate status=admitted" in out
    assert out.splitlines()[-1].startswith("sha256 ")


def test_bind_fail_on_refusal(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(PROBLEM))
    assert main(["bind", str(path), "--fail-on-refusal"]) == EXIT_REFUSED


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("{", "malformed_json"),
        ('{"entities": []}', "missing_field"),
        (b"\xff\xfe", "malformed_json"),
        ("[" * 100_000, "malformed_json"),  # nested deeper than the decoder's stack
    ],
)
def test_bind_bad_input(tmp_path: Path, content: str | bytes, reason: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    assert main(["bind", str(path)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert f"[{reason}]" in err
    assert str(path) in err


def test_bind_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bind", "/no/such/file.json"]) == EXIT_BAD_INPUT
