"""Shared test set-up: the absolute path of the app and a helper that opens one of its pages."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings
from streamlit.testing.v1 import AppTest

# tools/test-all.sh (the README's command, and CI) draws the same examples on every run, so a
# run's result depends on the code alone; a bare `pytest` draws new ones each time and explores.
settings.register_profile("repeatable", derandomize=True)

REPO = Path(__file__).resolve().parent.parent
APP = REPO / "app.py"


def open_app_page(page: str) -> AppTest:
    """A new session of the whole app (router included) showing pages/<page>.py, checked."""
    at = AppTest.from_file(str(APP), default_timeout=30).run()
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception
    return at


def pytest_collection_modifyitems(config, items) -> None:
    """Under pytest-xdist (tools/test-all.sh runs two workers), every browser and deploy test
    runs on one worker, one after another: each starts app servers and Chromium, and two at
    once on a 2-core machine would only slow each other. The other worker takes the rest."""
    for item in items:
        if item.get_closest_marker("browser") or item.get_closest_marker("deploy"):
            item.add_marker(pytest.mark.xdist_group("browser"))
