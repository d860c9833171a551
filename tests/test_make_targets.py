"""The Makefile's targets as a newcomer runs them: ``make lab`` (as root too), ``make demo``, ``system-deps``.

``make lab`` is started the way a person starts it (its recipe, this venv, a
temporary Jupyter home; ``LAB_ARGS`` only adds a loopback port, a token and no
browser) and its status page is read; on this machine the tests run as root,
the case JupyterLab refuses unless told ``--allow-root``.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import free_port, jupyter_env, stop_process_group

REPO = Path(__file__).resolve().parents[1]
VENV = Path(sys.prefix)
# Neither installs anything: the system packages and this venv are what the test suite runs with.
MAKE = ["make", "-s", "-o", "system-deps", "-o", str(VENV / ".ssbg-installed"), f"VENV={VENV}"]
SERVER_START_S = 90


def _make_n(target: str) -> str:
    """The commands ``make -n target`` would run (nothing is run)."""
    return subprocess.run(["make", "-n", target], cwd=REPO, capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("target", ["system-deps", "bench"])
def test_apt_installs_no_recommended_packages(target: str) -> None:
    installs = [line for line in _make_n(target).splitlines() if "apt-get install" in line]
    assert installs
    assert all("--no-install-recommends" in line for line in installs)


def test_make_lab_allows_root_only_for_root() -> None:
    lab = next(line for line in _make_n("lab").splitlines() if "jupyter lab" in line)
    assert ("--allow-root" in lab.split()) == (os.geteuid() == 0)


@pytest.mark.slow
def test_make_lab_serves_its_status_page_for_this_user(tmp_path: Path) -> None:
    port, token = free_port(), secrets.token_hex(16)
    args = (f"--no-browser --ServerApp.ip=127.0.0.1 --ServerApp.port={port} --ServerApp.port_retries=0 "
            f"--IdentityProvider.token={token} --LabApp.news_url= "
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate --LabApp.extension_manager=readonly")
    log = tmp_path / "lab.log"
    with log.open("wb") as sink:
        process = subprocess.Popen([*MAKE, "lab", f"LAB_ARGS={args}"], cwd=REPO, env=jupyter_env(tmp_path / "home"),
                                   stdout=sink, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        status = None
        deadline = time.monotonic() + SERVER_START_S
        while status is None and time.monotonic() < deadline and process.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token={token}", timeout=5) as r:
                    status = r.status
            except (urllib.error.URLError, OSError):
                time.sleep(0.5)
        tail = log.read_text(encoding="utf-8", errors="replace")[-2000:]
        assert status == 200, f"make lab (uid {os.geteuid()}) did not serve; exit {process.poll()}:\n{tail}"
    finally:
        stop_process_group(process)


@pytest.mark.slow
def test_make_demo_names_the_report_once_and_says_to_open_it(tmp_path: Path) -> None:
    done = subprocess.run([*MAKE, "demo", f"OUT={tmp_path}"], check=False, cwd=REPO, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    report = f"{tmp_path}/report.html"
    lines = [line for line in done.stdout.splitlines() if report in line]
    assert len(lines) == 1
    assert "open it in a web browser" in lines[0]
    assert (tmp_path / "report.html").is_file()
    assert "/bin/ssbg, or put it on PATH in this shell with: . " in done.stdout  # how a new shell reaches ssbg
