"""kit/state/number_box.py: a number box keeps a value it cannot take (emptied, a fraction in a
box of whole numbers; NaN and ±∞ are sent over the websocket in tests/browser/test_classroom.py)
and says so; a whole number is an int for the page, however the browser sends it."""

from __future__ import annotations

import math

import pytest
from streamlit.testing.v1 import AppTest

from attention_ui.kit.state.number_box import finite_value
from attention_ui.kit.text.i18n import catalog

EN = catalog("en")


def _script() -> None:
    import streamlit as st

    from attention_ui.kit.state import settings

    count = settings.integer("demo.count", "n", 3, 1, 9, label="home.example.q1")
    settings.start((count,))
    value = settings.number_input(count)
    st.markdown(f"count {value!r} {st.session_state['demo.count']!r} {count.current()!r}")


@pytest.mark.parametrize("sent", [None, 2.5, 10, 0])
def test_a_value_the_box_cannot_take_is_said_and_the_last_one_kept(sent):
    """Emptied, a fraction, or beyond the box's bounds (1 to 9: only a crafted message sends
    one): the box keeps 7 and names what it takes."""
    at = AppTest.from_function(_script, default_timeout=30).run()
    at.number_input(key="demo.count").set_value(7).run()
    assert at.markdown[0].value == "count 7 7 7"
    at.number_input(key="demo.count").set_value(sent).run()
    assert not at.exception
    label = EN["home.example.q1"]
    said = EN["number_box.whole_between"].format(label=label, low=1, high=9, value=7)
    assert [w.value for w in at.warning] == [said]
    assert at.markdown[0].value == "count 7 7 7"
    at.run()
    assert not at.warning, "said once"


@pytest.mark.parametrize(
    ("value", "whole", "taken"),
    [
        (600.0, True, 600),
        (600, True, 600),
        (2.5, True, None),
        (2.5, False, 2.5),
        (math.nan, False, None),
        (math.inf, True, None),
        (-math.inf, False, None),
        (None, True, None),
        (True, True, None),
        ("6", True, None),
    ],
)
def test_finite_value_takes_finite_numbers_and_whole_ones_for_a_whole_box(value, whole, taken):
    found = finite_value(value, whole)
    assert found == taken and type(found) is type(taken)
