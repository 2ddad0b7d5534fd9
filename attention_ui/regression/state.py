"""The regression page's session state: every widget key and its default in ONE dict, the
training table's key, the bounds checked on the server, and the callbacks.

Streamlit keeps the widgets' values across pages and hidden runs itself (each is drawn with
persist_state="session"); the training table keeps its rows itself
(attention_ui/kit/grids/points_editor.py).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from attention_ui.kit.grids.points_editor import set_points
from attention_ui.kit.share.codec import MAX_INT, Integer, Number
from attention_ui.kit.state.page_state import changed, drawn, start_values
from attention_ui.regression import data

POINTS = "regression.points"  # the training table (x, y)
PRESET = "regression.preset"  # where the data came from (set by the preset buttons)
SEED = "regression.seed"
COUNT = "regression.count"
KERNEL = "regression.kernel"
SIGMA = "regression.sigma"
QUERIES = "regression.queries"
CHOSEN = "regression.chosen"
LOO_BUTTON = "regression.loo.use"
SHOW_STEPS = "regression.steps.show"
SHOW_BRIDGE = "regression.bridge.show"  # the unit-circle bridge to dot-product attention
SHOW_CLASSES = "regression.classes.show"  # classification with one-hot values
# The folded sections' expanders (open or not; built only while open)
TEMPERATURE_BOX = "regression.temperature.open"
LOO_BOX = "regression.loo.open"

DEFAULTS: dict[str, Any] = {
    PRESET: "noisy",
    SEED: 0,
    COUNT: 40,
    KERNEL: "gaussian",
    SIGMA: 0.5,
    QUERIES: 12,
    CHOSEN: 6,
    SHOW_STEPS: False,
    SHOW_BRIDGE: False,
    SHOW_CLASSES: False,
}
SEED_MAX = MAX_INT
COUNT_RANGE = (2, 50)
QUERIES_RANGE = (1, 60)
SIGMA_RANGE = (0.001, 1000.0)
# The checks the page makes itself: fields of the address (regression/schema.py lists these
# very ones). σ is the page's to check (it says what is wrong); the seed and the count are read
# by a callback, which runs before the frame's check_widgets.
SIGMA_FIELD = Number("sigma", SIGMA, *SIGMA_RANGE)
SEED_FIELD = Integer("seed", SEED, 0, SEED_MAX)
COUNT_FIELD = Integer("count", COUNT, *COUNT_RANGE)
# The σ the charts use while the box holds something unusable.
LAST_GOOD_SIGMA = "regression.sigma.last_good"


def start() -> None:
    """Before the widgets are drawn: each setting at its default on a first visit. The frame's
    check_widgets has put back a value no widget could send; the query chosen is one of the
    queries there are."""
    start_values(DEFAULTS)
    st.session_state[CHOSEN] = min(st.session_state[CHOSEN], st.session_state[QUERIES])


def data_drawn() -> None:
    """After the seed and count boxes are drawn: the values `change_noisy_data` compares with."""
    drawn(SEED, COUNT)


def default_points() -> tuple:
    return data.preset_points(DEFAULTS[PRESET], DEFAULTS[SEED], DEFAULTS[COUNT])


def load_preset(preset: str) -> None:
    """Callback of the preset buttons and the seed and count boxes: the table gets the
    preset's points (the learner's edits of the table are replaced, as asked)."""
    st.session_state[PRESET] = preset
    seed, count = (
        st.session_state.get(f.key) if f.accepts(st.session_state.get(f.key)) else DEFAULTS[f.key]
        for f in (SEED_FIELD, COUNT_FIELD)
    )
    set_points(POINTS, *data.preset_points(preset, seed, count))


def change_noisy_data() -> None:
    """The seed and count boxes' `on_change`: new noisy points, on a real change only (see
    `page_state.changed`: new points would replace the learner's table)."""
    if changed(SEED, COUNT):
        load_preset("noisy")


def use_sigma(sigma: float) -> None:
    """Callback of 'use the leave-one-out σ'."""
    st.session_state[SIGMA] = float(f"{sigma:.4g}")


def checked_sigma(value: Any) -> float | None:
    """σ if it is a number within SIGMA_RANGE, else None (the page says why)."""
    return float(value) if SIGMA_FIELD.accepts(value) else None
