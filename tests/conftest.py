"""Shared fixtures: where the development corpora are; starting and stopping a JupyterLab server."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# ``pytest --hypothesis-profile=fuzz`` (``make fuzz``): the seams' property tests (tests/strategies.py,
# ``seam_settings``) draw this many inputs each instead of their modest count in the normal run.
FUZZ_EXAMPLES = int(os.environ.get("SSBG_FUZZ_EXAMPLES", "20000"))  # make fuzz FUZZ_EXAMPLES=2000: fewer
settings.register_profile(
    "fuzz",
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)

REPO = Path(__file__).resolve().parents[1]
CORPORA = (REPO / ".." / "shared" / "corpora").resolve()
IN_CI = os.environ.get("CI", "").lower() == "true"
# Under CI=true every property draws the same examples on every run, so a red CI means a change, not a
# lucky draw; local runs and ``make fuzz`` keep exploring, and what they find becomes a regression test.
settings.register_profile("ci", derandomize=True)
if IN_CI:
    settings.load_profile("ci")


TRAIN_TEST = "test_make_train_rebuilds_the_shipped_model_byte_identically"
_BACKGROUND: dict[str, tuple[subprocess.Popen[bytes], Path]] = {}


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start building ``make train``'s model in a process of its own when its test is to run (the suite's longest
    test then runs on the second core, beside the others); the test waits for it (:func:`background_training`)."""
    if session.config.option.collectonly or not CORPORA.is_dir():
        return
    if any(item.name == TRAIN_TEST for item in session.items):
        _start_training()


def _start_training() -> None:
    out = Path(tempfile.mkdtemp(prefix="ssbg-train-"))
    with (out / "log.txt").open("wb") as log:
        script = REPO / "tests" / "train_in_background.py"
        proc = subprocess.Popen([sys.executable, str(script), str(CORPORA), str(out)], stdout=log, stderr=log, cwd=REPO)
    _BACKGROUND["train"] = (proc, out)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    for proc, _ in _BACKGROUND.values():
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.fixture
def background_training() -> Path:
    """The folder the background build wrote its model and facts to, once it has finished (it is started at
    collection; run alone, the test starts it then)."""
    if "train" not in _BACKGROUND:
        corpora_dir()
        _start_training()
    proc, out = _BACKGROUND["train"]
    rc = proc.wait(timeout=3600)
    log = out / "log.txt"
    assert rc == 0, f"the background build of make train's model failed ({rc}):\n" + (
        log.read_text(encoding="utf-8", errors="replace")[-4000:] if log.exists() else "")
    return out


def corpora_dir() -> Path:
    """The development corpora; skips outside CI when absent, fails under CI=true."""
    if not CORPORA.is_dir():
        if IN_CI:
            pytest.fail(f"development corpora missing at {CORPORA} (CI must have them)")
        pytest.skip(f"development corpora not found at {CORPORA}")
    return CORPORA


@pytest.fixture
def corpora() -> Path:
    return corpora_dir()


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def jupyter_env(home: Path) -> dict[str, str]:
    """The environment of a JupyterLab server whose config, runtime, data, settings and workspaces live in ``home``."""
    return {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "JUPYTER_DATA_DIR": str(home / "data"),
        "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
        "JUPYTER_PLATFORM_DIRS": "1",
    }


def stop_process_group(process: subprocess.Popen[bytes]) -> None:
    """Stop a process started with ``start_new_session=True`` and everything in its group (a server's kernels)."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
    with contextlib.suppress(ProcessLookupError):  # children left in the group after the leader exited
        os.killpg(process.pid, signal.SIGKILL)
