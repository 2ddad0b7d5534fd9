"""Opening the classroom in AppTest: browsers by address, their buttons and address."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.conftest import APP, open_app_page


def param(at: AppTest, name: str) -> str | None:
    value = at.query_params.get(name)
    return value[0] if isinstance(value, list) else value


def by_address(**params: str) -> AppTest:
    """A new browser that opens the bare address with these parameters (a join link)."""
    at = AppTest.from_file(str(APP), default_timeout=30)
    for name, value in params.items():
        at.query_params[name] = value
    return at.run()


def open_class_box(at: AppTest) -> AppTest:
    """Open the sidebar's Class box, as a click on it does: out of a class, what it holds
    (start, code, join) is built only once it is open."""
    if not any(b.key == "classroom.start" for b in at.sidebar.button):
        at.session_state["classroom.box"] = True
        at.run()
    return at


def button(at: AppTest, key: str):
    found = [b for b in [*at.button, *at.sidebar.button] if b.key == key]
    if not found and key in ("classroom.start", "classroom.join"):
        found = [b for b in open_class_box(at).sidebar.button if b.key == key]
    assert found, f"no button {key}"
    return found[0]


def led_class(at: AppTest) -> tuple[str, str]:
    """The code and teacher key of the class this browser leads (its session holds them: a
    teacher's address holds neither)."""
    found = at.session_state["classroom.member"]
    assert found.teacher
    return found.code, found.secret


def teacher_page() -> tuple[AppTest, str]:
    """A teacher who started a class on the Luong page, and the class's code."""
    teacher = open_app_page("luong")
    button(teacher, "classroom.start").click().run()
    assert not teacher.exception
    code, key = led_class(teacher)
    assert param(teacher, "class") is None and key not in str(dict(teacher.query_params))
    return teacher, code
