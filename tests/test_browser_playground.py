"""The playground notebook in a real browser: JupyterLab on loopback, headless Chromium driven by playwright.

Starts JupyterLab on 127.0.0.1 (random free port, a token, temporary config,
runtime, data, settings and workspace folders; the repository as root), opens
``notebooks/02_admissibility_playground.ipynb``, runs every cell, types
``dollars`` over the second operand ``hours`` of the live playground, and checks
that the shown verdict turns from the unit proof into the ``unit_mismatch``
refusal; then sets the corpus browser's reason filter and checks that it shows
the first problem with that reason, diagram included.  Saves a screenshot of
the playground to ``docs/playground.png`` and stops the server.  The notebook
file is left as it was (autosave is switched off and the test checks its bytes).

Chromium is Debian's ``/usr/bin/chromium``; playwright never downloads a
browser.  Outside CI the test skips when chromium is missing; under ``CI=true``
it fails instead.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import IN_CI, free_port, jupyter_env, stop_process_group

REPO = Path(__file__).resolve().parents[1]
NOTEBOOK = "notebooks/02_admissibility_playground.ipynb"
# The committed screenshot is refreshed only on request (SSBG_UPDATE_SCREENSHOTS=1), so that a
# test run leaves the working tree clean; otherwise the screenshot goes to a scratch file.
SCREENSHOT = (
    REPO / "docs" / "playground.png"
    if os.environ.get("SSBG_UPDATE_SCREENSHOTS") == "1"
    else Path(tempfile.gettempdir()) / "ssbg-playground.png"
)
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TOTAL_S = 140  # server start to last check; with at most 30 s to stop, the test stays under 3 minutes
SERVER_START_S = 60  # JupyterLab start on a busy 2-core machine
PAGE_MS = 60_000  # page load, kernel start, running all cells
VERDICT_MS = 30_000  # one round trip browser -> kernel -> browser
PROOF = "apply_rate: [money/time,time] -> money"

pytestmark = pytest.mark.browser


def _require_browser() -> None:
    missing = [what for what, ok in (("chromium", CHROMIUM.is_file()), ("playwright", _has_playwright())) if not ok]
    if missing:
        message = f"real-browser test needs {', '.join(missing)} (/usr/bin/chromium and the playwright package)"
        if IN_CI:
            pytest.fail(message + ": CI must have them")
        pytest.skip(message)


def _has_playwright() -> bool:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return False
    return True


@dataclass(frozen=True)
class Lab:
    url: str
    token: str
    process: subprocess.Popen[bytes]
    log: Path
    deadline: float  # time.monotonic() by which the whole test must be done

    def ms(self, cap: int) -> int:
        """A wait in milliseconds: ``cap``, or what is left of the test's time budget if less."""
        left = int((self.deadline - time.monotonic()) * 1000)
        if left <= 0:
            pytest.fail(f"the browser test ran out of its {TOTAL_S} s budget:\n{self.tail()}")
        return min(cap, left)

    def tail(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")[-3000:]


def _wait_until_up(lab: Lab) -> None:
    deadline = time.monotonic() + SERVER_START_S
    while time.monotonic() < deadline:
        if lab.process.poll() is not None:
            pytest.fail(f"JupyterLab exited with code {lab.process.returncode} before serving:\n{lab.tail()}")
        try:
            with urllib.request.urlopen(f"{lab.url}/api/status?token={lab.token}", timeout=5) as response:  # noqa: S310
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            time.sleep(0.5)
    pytest.fail(f"JupyterLab did not answer on {lab.url} within {SERVER_START_S} s:\n{lab.tail()}")


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[Lab]:
    _require_browser()
    home = tmp_path / "jupyter"
    settings = home / "settings"
    docmanager = settings / "@jupyterlab" / "docmanager-extension"
    docmanager.mkdir(parents=True)
    # Never write the notebook back: running it in the browser must not touch the committed file.
    (docmanager / "plugin.jupyterlab-settings").write_text(json.dumps({"autosave": False}), encoding="utf-8")
    # No news or update pop-up over the widgets (and no network request for them).
    notification = settings / "@jupyterlab" / "apputils-extension"
    notification.mkdir(parents=True)
    (notification / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False}), encoding="utf-8"
    )
    env = jupyter_env(home)
    deadline = time.monotonic() + TOTAL_S
    port, token = free_port(), secrets.token_hex(16)
    log = tmp_path / "jupyterlab.log"
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={REPO}",
        "--LabApp.expose_app_in_browser=True",
        "--LabApp.news_url=",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.extension_manager=readonly",  # no PyPI look-ups from the extension manager
        *(["--allow-root"] if os.geteuid() == 0 else []),  # CI containers often run as root
    ]
    with log.open("wb") as sink:
        process = subprocess.Popen(
            command, cwd=REPO, env=env, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True
        )
    server = Lab(f"http://127.0.0.1:{port}", token, process, log, deadline)
    try:
        _wait_until_up(server)
        yield server
    finally:
        stop_process_group(process)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _first_problem_with(reason: str) -> str:
    """What the notebook's corpus browser must show once its reason filter is set (computed here, apart)."""
    from ssbg.browser import filter_equations, problem_choices
    from ssbg.stats.batch import run_batch

    equations = run_batch([REPO / "data" / "lanes"], progress=False).equations  # the notebook's DATA
    return problem_choices(filter_equations(equations, reason=reason))[0][1][1]


# Runs in the page: the notebook panel's kernel is idle (JupyterLab exposed as window.jupyterapp).
_KERNEL_IDLE = """() => {
  const app = window.jupyterapp;
  const panel = app && app.shell.currentWidget;
  const kernel = panel && panel.sessionContext && panel.sessionContext.session
    && panel.sessionContext.session.kernel;
  return Boolean(kernel && kernel.status === 'idle' && panel.content && panel.content.widgets.length > 0);
}"""
# Started, not awaited: the waits below (each bounded) say when the cells have run.
_RUN_ALL = "() => { void window.jupyterapp.commands.execute('notebook:run-all-cells'); return true; }"


def test_changing_an_operand_in_the_browser_changes_the_verdict(lab: Lab) -> None:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import expect, sync_playwright

    before = _digest(REPO / NOTEBOOK)
    expected_problem = _first_problem_with("unknown_unit")
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            page.set_default_timeout(lab.ms(PAGE_MS))
            page.goto(f"{lab.url}/lab/tree/{NOTEBOOK}?reset&token={lab.token}", wait_until="domcontentloaded")
            try:
                page.wait_for_function(_KERNEL_IDLE, timeout=lab.ms(PAGE_MS))
            except PlaywrightError as exc:
                pytest.fail(f"the notebook's kernel did not become idle in {PAGE_MS} ms: {exc}\n{lab.tail()}")
            page.evaluate(_RUN_ALL)
            output = page.locator(".ssbg-playground .ssbg-playground-output").first
            expect(output.locator(".ssbg-proof"), "the playground shows the unit proof after Run All").to_have_text(
                PROOF, timeout=lab.ms(PAGE_MS)
            )
            field = page.locator(".ssbg-playground .ssbg-operand-2 input").first
            expect(field, "the second operand starts as hours").to_have_value("hours")
            field.fill("dollars")
            result = output.locator(".ssbg-playground-result")
            expect(result, "typing dollars over hours turns the proof into a refusal").to_have_attribute(
                "data-reason", "unit_mismatch", timeout=lab.ms(VERDICT_MS)
            )
            expect(output.locator(".ssbg-offending"), "the refusal names the offending unit").to_have_text("dollars")
            SCREENSHOT.parent.mkdir(exist_ok=True)
            page.locator(".ssbg-playground").first.screenshot(path=str(SCREENSHOT))
            field.fill("hours")
            expect(output.locator(".ssbg-proof"), "typing hours back restores the proof").to_have_text(
                PROOF, timeout=lab.ms(VERDICT_MS)
            )
            browser_box = page.locator(".ssbg-corpus-browser").first
            browser_box.locator(".ssbg-filter-reason select").select_option(label="unknown_unit")
            shown = browser_box.locator(".ssbg-browser-detail .ssbg-problem-detail")
            expect(shown, "the corpus browser shows the first problem with an unknown unit").to_have_attribute(
                "data-problem", expected_problem, timeout=lab.ms(VERDICT_MS)
            )
            expect(shown.locator("svg").first, "the browser draws the picked problem's diagram").to_be_visible()
        finally:
            browser.close()
    assert _digest(REPO / NOTEBOOK) == before, "running the notebook in the browser must not rewrite it"
