"""The training page's state in its address, and widget values Streamlit keeps by itself
(persist_state="session") across the app's pages."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from attention_ui.kit.state.settings import defaults
from attention_ui.train import state
from tests.conftest import APP
from tests.plotly_json import charts
from tests.support.train import choose_step, press_train

CHANGED = {
    "train.task": "previous",
    "train.score": "general",
    "train.heads": 2,
    "train.d_model": 8,
    "train.learning_rate": 0.01,
    "train.steps": 40,
    "train.seed": 3,
}


def session(params: dict[str, str] | None = None, lang: str = "en") -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["lang"] = lang
    for name, value in (params or {}).items():
        at.query_params[name] = value
    at.switch_page("pages/train.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def screen(at: AppTest) -> list[dict]:
    figures = [json.loads(chart.proto.spec) for chart in charts(at)]
    assert figures, "the page drew no chart"
    return figures


def test_a_trained_run_and_its_step_travel_in_the_address():
    a = session()
    for key, value in CHANGED.items():
        a.session_state[key] = value
    press_train(a, CHANGED)
    choose_step(a, 20)
    assert not a.exception
    address = dict(a.query_params)
    assert address["task"] == "previous" and address["score"] == "general"
    assert address["steps"] == "40" and address["trained"] == "1" and address["step"] == "20"
    b = session(address)
    assert screen(b) == screen(a)
    assert {key: b.session_state[key] for key in CHANGED} == CHANGED
    assert dict(b.query_params) == address
    assert not b.sidebar.warning


def test_values_the_page_does_not_offer_are_refused_in_one_sentence():
    at = session({"v": "1", "score": "cosine", "heads": "3", "steps": "99999", "task": "sort"})
    warnings = [w.value for w in at.sidebar.warning]
    assert len(warnings) == 1
    for name in ("score", "heads", "steps", "task"):
        assert name in warnings[0]
    assert [at.session_state[s.key] for s in state.SETTINGS] == list(
        defaults(state.SETTINGS).values()
    )


def test_streamlit_keeps_the_settings_while_the_learner_visits_another_page():
    at = session()
    at.session_state["train.seed"] = 5
    at.session_state["train.task"] = "reverse"
    at.run()
    at.switch_page("pages/home.py").run()
    at.switch_page("pages/train.py").run()
    assert not at.exception
    assert at.number_input(key="train.seed").value == 5
    assert at.selectbox(key="train.task").value == "reverse"
    # no hand-kept copies: Streamlit's own widget state is all the page keeps of its settings
    assert not [s.key for s in state.SETTINGS if s.key + ".kept" in at.session_state]
