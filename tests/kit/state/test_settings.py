"""kit/state/settings.py: a setting's widget, first value, address field and check of a crafted
value all come from its one declaration."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from attention_ui.kit.share.codec import Matrix
from attention_ui.kit.share.schema import from_settings
from attention_ui.kit.state import settings
from attention_ui.kit.text.i18n import catalog


def _script() -> None:
    import streamlit as st

    from attention_ui.kit.state import settings

    count = settings.integer("demo.count", "n", 3, 1, 9, label="home.example.q1")
    tau = settings.number("demo.tau", "tau", 0.5, 0.1, 2.0, label="home.example.q2")
    kernel = settings.choice(
        "demo.kernel",
        "k",
        "gaussian",
        ("gaussian", "boxcar"),
        label="regression.controls.kernel",
        options_label="regression.kernel.",
    )
    sigma = settings.number("demo.sigma", "s", 1.0, 0.1, 9.0, checked_by_page=True)
    settings.start((count, tau, kernel, sigma), {"demo.tau": 1.5})
    settings.number_input(count)
    settings.slider(tau, step=0.1)
    settings.radio(kernel)
    settings.number_input(sigma, label_visibility="collapsed")
    st.markdown(f"count {st.session_state['demo.count']}")


def test_the_widgets_take_their_bounds_options_labels_and_first_values_from_the_declaration():
    at = AppTest.from_function(_script, default_timeout=30).run()
    assert not at.exception
    words = catalog("en")
    box = at.number_input(key="demo.count")
    assert (box.min, box.max, box.step, box.value) == (1, 9, 1, 3)
    assert box.label == words["home.example.q1"]
    slider = at.slider(key="demo.tau")
    assert (slider.min, slider.max, slider.value) == (0.1, 2.0, 1.5)  # `first` wins
    radio = at.radio(key="demo.kernel")
    assert radio.options == [words["regression.kernel.gaussian"], words["regression.kernel.boxcar"]]
    assert radio.value == "gaussian"
    # a setting the page checks itself is drawn without bounds: a bad value reaches the check
    sigma = at.number_input(key="demo.sigma")
    assert sigma.min is None or sigma.min < -1e300
    at.number_input(key="demo.count").set_value(7).run()
    assert at.markdown[0].value == "count 7"


def test_the_schema_keeps_the_order_given_and_resets_only_what_the_frame_checks():
    a = settings.integer("p.a", "a", 1, 0, 5)
    b = settings.number("p.b", "b", 0.5, 0.0, 1.0, checked_by_page=True)
    taus = settings.number_set("p.taus", "taus", [1.0], (0.5, 1.0, 2.0))
    grid = Matrix("g", "p.grid")
    schema = from_settings("p", (a, grid, b, taus))
    assert [f.param for f in schema.fields] == ["a", "g", "b", "taus"]
    assert schema.field("a") is a.field and schema.field("taus") is taus.field
    assert dict(schema.defaults) == {"p.a": 1, "p.taus": [1.0]}  # b: the page says what is wrong


def test_a_setting_accepts_what_its_address_field_accepts():
    a = settings.integer("p.a", "a", 1, 0, 5)
    assert a.accepts(5) and not a.accepts(6) and not a.accepts("5") and not a.accepts(True)
    choice = settings.choice("p.c", "c", "x", ("x", "y"))
    assert choice.accepts("y") and not choice.accepts("z")
