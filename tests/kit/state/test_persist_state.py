"""What the pages rely on Streamlit's persist_state="session" for (no shadow copies of their
own): a keyed widget's value survives a page switch and back, and runs that hide it; a value set
through st.session_state (before the widget is drawn, or in a callback) is the widget's; and
st.session_state[key] holds the value while the widget is not drawn. The browser checks the
same with the real frontend (tests/browser/test_persist_state.py)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.conftest import REPO

APP = REPO / "tests" / "support" / "two_pages" / "app.py"


def session() -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=30).run()
    assert not at.exception
    at.slider(key="s").set_value(7).run()
    at.number_input(key="n").set_value(3.5).run()
    return at


def test_a_value_survives_a_page_switch_and_back_and_is_read_on_the_other_page():
    at = session()
    at.switch_page("pages/two.py").run()
    assert at.session_state["s"] == 7 and at.session_state["n"] == 3.5
    assert at.markdown[0].value == "two: s = 7, n = 3.5"
    at.switch_page("pages/one.py").run()
    assert at.slider(key="s").value == 7 and at.number_input(key="n").value == 3.5


def test_a_value_survives_runs_that_hide_its_widget():
    at = session()
    at.checkbox(key="hide").check().run()
    at.run()
    assert at.session_state["n"] == 3.5  # read while not drawn
    at.checkbox(key="hide").uncheck().run()
    assert at.number_input(key="n").value == 3.5


def test_a_value_set_in_a_callback_or_before_the_widget_is_drawn_is_the_widgets():
    at = session()
    at.checkbox(key="hide").check().run()
    at.button(key="b").click().run()  # the callback sets the hidden widget
    assert at.session_state["n"] == 42.0
    at.checkbox(key="hide").uncheck().run()
    assert at.number_input(key="n").value == 42.0
    at.switch_page("pages/two.py").run()
    at.session_state["n"] = 9.0  # set on another page, before the widget is drawn again
    at.run()
    at.switch_page("pages/one.py").run()
    assert at.number_input(key="n").value == 9.0
