"""Browser tests: `streamlit run app.py` on a free loopback port, driven by Playwright in
Debian's Chromium (never a downloaded browser).

Fixtures
--------
server : the base URL of one app server shared by the whole session.
page : a fresh browser page; console errors and exception boxes fail the test, and a failing
    test leaves a screenshot in test-artifacts/.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run",
                  "--disable-quic"]
IDLE = "[data-testid=stApp][data-test-script-state=notRunning]"
# Opened at a page's own address (/luong), Streamlit's frontend first looks for its server under
# that path (/luong/_stcore/health, /luong/_stcore/host-config), gets a 404 and then finds it at
# the root. Chromium logs those probes as console errors; they are not the app's errors.
BASE_PATH_PROBE = re.compile(r"^https?://[^/]+/[^?#]+/_stcore/(health|host-config)$")

pytestmark = pytest.mark.browser


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_app(python: str = sys.executable, cwd: Path = REPO,
              env: dict[str, str] | None = None) -> tuple[subprocess.Popen, str]:
    """Start `streamlit run app.py` and wait until it is healthy; returns (process, url)."""
    port = free_port()
    process = subprocess.Popen(
        [python, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"streamlit exited: {process.stdout.read().decode()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return process, url
        except OSError:
            time.sleep(0.3)
    process.kill()
    raise RuntimeError("streamlit did not become healthy within 60 s")


def console_error(message) -> str | None:
    """The text of a console message that should fail a test, or None (not an error, or
    Streamlit's own base-path probe)."""
    if message.type != "error":
        return None
    url = (message.location or {}).get("url", "")
    if "404" in message.text and BASE_PATH_PROBE.match(url):
        return None
    return message.text


def stop_app(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    process, url = start_app()
    yield url
    stop_app(process)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.failed_call = report.failed


@pytest.fixture
def page(browser, request):
    """A new page at 1280×900. Console errors are collected and fail the test at the end."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.extend(filter(None, [console_error(msg)])))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    if getattr(request.node, "failed_call", False):
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    context.close()
    assert not errors, f"browser console errors: {errors}"


def wait_idle(page, timeout: float = 30_000) -> None:
    """Wait until Streamlit has finished the current run (and give it a moment to start one)."""
    page.wait_for_timeout(150)
    page.wait_for_selector(IDLE, timeout=timeout)


def open_page(page, server: str, path: str = "", query: str = "") -> None:
    """Go to a page of the app and wait for its first run to finish with no exception box."""
    page.goto(f"{server}/{path}{'?' + query if query else ''}")
    page.wait_for_selector("[data-testid=stApp]", timeout=30_000)
    wait_idle(page)
    assert_no_exception(page)


def assert_no_exception(page) -> None:
    assert page.locator("[data-testid=stException]").count() == 0, "exception shown on page"
