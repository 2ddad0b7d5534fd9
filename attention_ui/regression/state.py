"""The regression page's session state: each setting declared once (kit/state/settings.py),
the training table's key, and the callbacks.

Streamlit keeps the widgets' values across pages and hidden runs itself (each is drawn with
persist_state="session"); the training table keeps its rows itself
(attention_ui/kit/grids/points_editor.py).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from attention_core.regression import KERNELS
from attention_ui.kit.grids.points_editor import set_points
from attention_ui.kit.state import settings
from attention_ui.kit.state.page_state import changed, drawn
from attention_ui.regression import data

POINTS = "regression.points"  # the training table (x, y)
SIGMA_RANGE = (0.001, 1000.0)
# Each setting once: key, address parameter, default, values, label. The preset is set by the
# preset buttons; σ is the page's to check (it says what is wrong); the seed and the count are
# read by a callback, which runs before the frame's check of crafted values.
PRESET = settings.choice("regression.preset", "preset", "noisy", data.PRESETS)
SEED = settings.integer(
    "regression.seed", "seed", 0, label="regression.data.seed", help="regression.data.seed_help"
)
COUNT = settings.integer("regression.count", "count", 40, 2, 50, label="regression.data.count")
KERNEL = settings.choice(
    "regression.kernel",
    "kernel",
    "gaussian",
    KERNELS,
    label="regression.controls.kernel",
    options_label="regression.kernel.",
)
SIGMA = settings.number(
    "regression.sigma",
    "sigma",
    0.5,
    *SIGMA_RANGE,
    label="regression.controls.sigma",
    checked_by_page=True,
)
QUERIES = settings.integer(
    "regression.queries", "queries", 12, 1, 60, label="regression.controls.queries"
)
CHOSEN = settings.integer(
    "regression.chosen", "chosen", 6, 1, 60, label="regression.controls.chosen"
)
SHOW_STEPS = settings.flag("regression.steps.show", "steps_show")
# the unit-circle bridge to dot-product attention; classification with one-hot values
SHOW_BRIDGE = settings.flag("regression.bridge.show", "bridge_show")
SHOW_CLASSES = settings.flag("regression.classes.show", "classes_show")
SETTINGS = (
    PRESET,
    SEED,
    COUNT,
    KERNEL,
    SIGMA,
    QUERIES,
    CHOSEN,
    SHOW_STEPS,
    SHOW_BRIDGE,
    SHOW_CLASSES,
)
LOO_BUTTON = "regression.loo.use"
# The folded sections' expanders (open or not; built only while open)
TEMPERATURE_BOX = "regression.temperature.open"
LOO_BOX = "regression.loo.open"
# The σ the charts use while the box holds something unusable.
LAST_GOOD_SIGMA = "regression.sigma.last_good"


def start() -> None:
    """Before the widgets are drawn: each setting at its default on a first visit. The frame's
    check_widgets has put back a value no widget could send; the query chosen is one of the
    queries there are."""
    settings.start(SETTINGS)
    st.session_state[CHOSEN.key] = min(st.session_state[CHOSEN.key], st.session_state[QUERIES.key])


def data_drawn() -> None:
    """After the seed and count boxes are drawn: the values `change_noisy_data` compares with."""
    drawn(SEED.key, COUNT.key)


def default_points() -> tuple:
    return data.preset_points(PRESET.default, SEED.default, COUNT.default)


def load_preset(preset: str) -> None:
    """Callback of the preset buttons and the seed and count boxes: the table gets the
    preset's points (the learner's edits of the table are replaced, as asked)."""
    st.session_state[PRESET.key] = preset
    set_points(POINTS, *data.preset_points(preset, SEED.current(), COUNT.current()))


def change_noisy_data() -> None:
    """The seed and count boxes' `on_change`: new noisy points, on a real change only (see
    `page_state.changed`: new points would replace the learner's table)."""
    if changed(SEED.key, COUNT.key):
        load_preset("noisy")


def use_sigma(sigma: float) -> None:
    """Callback of 'use the leave-one-out σ'."""
    st.session_state[SIGMA.key] = float(f"{sigma:.4g}")


def checked_sigma(value: Any) -> float | None:
    """σ if it is a number within SIGMA_RANGE, else None (the page says why)."""
    return float(value) if SIGMA.accepts(value) else None
