"""Shared fixtures: where the development corpora are; starting and stopping a JupyterLab server."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


class Background:
    """Slow tests' work run one job after another on a thread of its own from collection on, so that it uses the
    second core while the other tests run on the first (CI has two; the suite must stay under its 15 minutes).

    A test module offers jobs with a function ``background_jobs(item) -> [(key, job)]`` (each job a callable of no
    arguments whose result the test checks); the test asks :meth:`result` for it, which waits for the job, or runs
    it there when it was not started (a test run alone).  A job is a subprocess or waits on one, so the thread holds
    the GIL only between them.
    """

    def __init__(self) -> None:
        self.jobs: dict[object, Callable[[], Any]] = {}
        self.done: dict[object, threading.Event] = {}
        self.results: dict[object, tuple[bool, Any]] = {}
        self.thread: threading.Thread | None = None

    def start(self, jobs: list[tuple[object, Callable[[], Any]]]) -> None:
        for key, job in jobs:
            self.jobs[key], self.done[key] = job, threading.Event()
        if jobs:
            self.thread = threading.Thread(target=self._run, args=([k for k, _ in jobs],), daemon=True)
            self.thread.start()

    def _run(self, keys: list[object]) -> None:
        for key in keys:
            try:
                self.results[key] = (True, self.jobs[key]())
            except BaseException as error:  # noqa: BLE001 - handed to the test that asks for it
                self.results[key] = (False, error)
            self.done[key].set()

    def result(self, key: object, job: Callable[[], Any]) -> Any:
        """The job's result, once it has run (raised again if it raised)."""
        if key not in self.done:
            return job()
        self.done[key].wait()
        ok, value = self.results[key]
        if not ok:
            raise value
        return value


BACKGROUND = Background()


def run_job(argv: list[str], what: str) -> str:
    """A background job's process (``sys.executable`` with ``argv``, in the repository): its standard output; a
    failure names ``what`` and shows the end of its output."""
    done = subprocess.run([sys.executable, *argv], cwd=REPO, capture_output=True, text=True, timeout=3600,
                          check=False)  # fmt: skip
    assert done.returncode == 0, f"{what} failed:\n{(done.stdout + done.stderr)[-4000:]}"
    return done.stdout


def _offered(item: pytest.Item) -> list[tuple[object, Callable[[], Any]]]:
    offer = getattr(getattr(item, "module", None), "background_jobs", None)
    return [] if offer is None else list(offer(item))


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests that wait for a background job run last, so that the others run while it does."""
    waiting = [bool(_offered(item)) for item in items]
    items[:] = [i for i, w in zip(items, waiting, strict=True) if not w] + [
        i for i, w in zip(items, waiting, strict=True) if w]


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the background jobs of the tests that are to run (:class:`Background`)."""
    if not session.config.option.collectonly:
        BACKGROUND.start([job for item in session.items for job in _offered(item)])


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
