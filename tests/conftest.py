"""Shared test set-up: the absolute path of the app, and AppTest that behaves like a server."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

REPO = Path(__file__).resolve().parent.parent
APP = REPO / "app.py"


@pytest.fixture(autouse=True, scope="session")
def _navigation_not_legacy_pages():
    """AppTest resets PagesManager.uses_pages_directory before every run, and a `pages/`
    folder then makes Streamlit run app.py through the legacy multipage path, which drops the
    sidebar from the second run on. A real server decides this once, and st.navigation turns
    it off; this patch gives AppTest the server's behaviour."""
    original_init = PagesManager.__init__

    def init(self, *args, **kwargs):
        original_init(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    PagesManager.__init__ = init
    yield
    PagesManager.__init__ = original_init


def open_app_page(page: str) -> AppTest:
    """A new session of the whole app (router included) showing pages/<page>.py, checked."""
    at = AppTest.from_file(str(APP), default_timeout=30).run()
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception
    return at
