"""Shared test set-up: the absolute path of the app and a helper that opens one of its pages."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

REPO = Path(__file__).resolve().parent.parent
APP = REPO / "app.py"


def open_app_page(page: str) -> AppTest:
    """A new session of the whole app (router included) showing pages/<page>.py, checked."""
    at = AppTest.from_file(str(APP), default_timeout=30).run()
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception
    return at
