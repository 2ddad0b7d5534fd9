"""Opening a page of the app in AppTest, and the text it shows, shared by page-level tests."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.conftest import APP


def open_page(page: str, lang: str = "en") -> AppTest:
    """A new session of the app in `lang` showing pages/<page>.py (home: the start page the app
    opens on), checked."""
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.session_state["lang"] = lang
    at.run()
    if page != "home":
        at.switch_page(f"pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def open_fold(at: AppTest, key: str) -> AppTest:
    """Unfold the fold (attention_ui/kit/folds.py) with widget key `key`, as a click on it
    does: its state becomes open and the page reruns, which builds what it holds."""
    at.session_state[key] = True
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def shown(at: AppTest) -> str:
    """Every text element's value: markdown, warnings, errors, infos, successes, captions."""
    kinds = (at.markdown, at.warning, at.error, at.info, at.success, at.caption)
    return "\n".join(str(e.value) for kind in kinds for e in kind)
