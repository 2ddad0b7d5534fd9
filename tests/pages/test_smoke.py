from streamlit.testing.v1 import AppTest

from tests.conftest import APP


def test_language_switch_survives_page_changes():
    at = AppTest.from_file(str(APP), default_timeout=30).run()
    at.sidebar.radio[0].set_value("ja").run()
    at.switch_page("pages/luong.py").run()
    at.switch_page("pages/home.py").run()
    assert not at.exception
    assert at.sidebar.radio[0].value == "ja"
    assert at.title[0].value == "アテンション・エクスプローラー"
