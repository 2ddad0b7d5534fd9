"""page_state.widget_value reads the session once: the widget's own value when it has one,
else the kept copy, else the default (a plain dict stands for the session)."""

from __future__ import annotations

from attention_ui.kit.state import page_state


def test_the_widgets_own_value_then_the_kept_copy_then_the_default():
    session = {"a": 1, "a.kept": 2, "b.kept": 3, "c": None}
    assert page_state.widget_value("a", 9, session) == 1
    assert page_state.widget_value("b", 9, session) == 3
    assert page_state.widget_value("c", 9, session) is None  # a value of None is a value
    assert page_state.widget_value("d", 9, session) == 9
    assert page_state.widget_value("d", session=session) is None
