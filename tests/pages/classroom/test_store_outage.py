"""The classroom's store goes away (a database outage) and comes back: no traceback, the page
goes on, the sidebar says the class is paused, and the class resumes by itself."""

from __future__ import annotations

import sqlalchemy as sa
from streamlit.testing.v1 import AppTest

from attention_ui.kit.classroom import follow
from attention_ui.kit.text.i18n import catalog
from tests.conftest import open_app_page
from tests.plotly_json import charts
from tests.support.classroom import button, by_address, led_class, param

DOWN = {lang: catalog(lang)["classroom.notice.store_down"] for lang in ("en", "ja")}
# Nothing listens on port 1 of loopback: every connection is refused at once.
NOWHERE = "postgresql+psycopg://nobody@127.0.0.1:1/none"


def sidebar_warnings(at: AppTest) -> list[str]:
    return [w.value for w in at.sidebar.warning]


def cut_store(monkeypatch) -> None:
    broken = sa.create_engine(NOWHERE, connect_args={"connect_timeout": 2})
    monkeypatch.setattr(follow, "engine", lambda: broken)
    follow._views.clear()  # nothing read before the outage is served from memory


def test_a_class_pauses_while_its_store_is_down_and_resumes(monkeypatch):
    teacher = open_app_page("luong")
    button(teacher, "classroom.start").click().run()
    code, _ = led_class(teacher)
    student = by_address(**{"class": code})
    assert param(student, "seat") and not student.exception

    with monkeypatch.context() as outage:
        cut_store(outage)
        teacher.selectbox(key="luong.score").set_value("dot").run()
        student.run()
        for at in (teacher, student):
            assert not at.exception, at.exception
            assert DOWN["en"] in sidebar_warnings(at)
            assert charts(at), "the page itself is drawn"
        assert param(student, "class") == code, "the address keeps the class"
        assert led_class(teacher)[0] == code, "the teacher's session keeps it"
        fresh = AppTest.from_file(student._script_path, default_timeout=30)
        fresh.query_params["class"] = code
        fresh.run()
        assert not fresh.exception and DOWN["en"] in sidebar_warnings(fresh)

    follow._views.clear()
    teacher.run()  # the teacher's change is published now
    student.run()
    assert not student.exception and DOWN["en"] not in sidebar_warnings(student)
    assert param(student, "score") == "dot", "the class resumed and the student follows"
    fresh.run()  # the join address tried during the outage is tried again
    assert param(fresh, "seat"), "the student who came during the outage gets a seat"


def test_the_notice_is_in_both_languages():
    assert DOWN["en"] != DOWN["ja"] and "クラス" in DOWN["ja"]
