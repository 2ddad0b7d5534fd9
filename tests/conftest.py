"""Shared test set-up: the absolute path of the app and a helper that opens one of its pages."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from streamlit.testing.v1 import AppTest

# tools/test-all.sh (the README's command, and CI) draws the same examples on every run, so a
# run's result depends on the code alone; a bare `pytest` draws new ones each time and explores.
settings.register_profile("repeatable", derandomize=True)


def _scan_installed_components_once() -> None:
    """Each new AppTest scans every installed distribution's metadata for packaged Streamlit
    components: 0.1-0.3 s, 15 % of a short page test (py-spy). Nothing is installed during a
    run (the app's components are inline), so the scan runs once per process and its result is
    reused. The scanner is Streamlit's own module: if it moves, the tests run at the old speed."""
    try:
        from streamlit.components.v2 import manifest_scanner
    except ImportError:
        return
    if not hasattr(manifest_scanner.scan_component_manifests, "cache_info"):
        manifest_scanner.scan_component_manifests = functools.cache(
            manifest_scanner.scan_component_manifests
        )


_scan_installed_components_once()
REPO = Path(__file__).resolve().parent.parent
APP = REPO / "app.py"


@pytest.fixture(scope="session")
def app_server() -> Iterator[str]:
    """The base URL of one `streamlit run app.py` on a free loopback port, started when a test of
    this worker first asks for it and shared by every later one (the browser tests' `server`)."""
    from tests.app_server import start_app, stop_app

    process, url = start_app(extra_args=("--server.runOnSave", "false"))
    yield url
    stop_app(process)


def open_app_page(page: str) -> AppTest:
    """A new session of the whole app (router included) showing pages/<page>.py, checked."""
    at = AppTest.from_file(str(APP), default_timeout=30).run()
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception
    return at


# What a test costs, roughly, by where it lives (s): the scheduler below hands out the dearest
# groups first, so that no worker is left alone with a long group at the end.
_COST = (("tests/deploy/", 60.0), ("tests/browser/", 8.0), ("tests/pages/", 1.0))


def _cost(nodeid: str) -> float:
    return next((cost for where, cost in _COST if nodeid.startswith(where)), 0.3)


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    """Under pytest-xdist (tools/test-all.sh runs two workers) each browser module runs on one
    worker, one test after another, so that its module fixtures (a shared visit, a server of its
    own) are made once; each worker has one app server and one Chromium for the session (the
    `app_server` and `browser` fixtures), made when its first browser test asks. Every other
    test is a group of its own. The groups go out dearest first (`_COST`): the browser modules
    and the deploy tests spread over the workers and the quick tests fill in after. (xdist's
    own `loadgroup` mode cannot group them with pytest 9: it renames the tests' ids, which
    pytest 9 no longer lets it do.)"""
    from xdist.scheduler import LoadScopeScheduling  # only where xdist runs the tests

    class ModuleQueues(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            if nodeid.startswith("tests/browser/"):
                return nodeid.split("::", 1)[0]
            return nodeid

        def _assign_work_unit(self, node) -> None:
            # the queue (made in order of collection) dearest first, before the first unit goes
            if not getattr(self, "_sorted", False):
                by_cost = sorted(self.workqueue.items(), key=lambda kv: -sum(map(_cost, kv[1])))
                self.workqueue.clear()
                self.workqueue.update(by_cost)
                self._sorted = True
            super()._assign_work_unit(node)

    return ModuleQueues(config, log)
