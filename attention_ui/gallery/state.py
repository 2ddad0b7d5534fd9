"""The weights gallery's session state: each setting declared once (kit/state/settings.py),
the grids' keys, value presets, and the inputs it borrows from the Luong and database pages.

The values and the case-1 weights are matrix editors (their edits survive a visit to another
page); Streamlit keeps the settings' values itself (each is drawn with persist_state="session").
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from attention_ui.database import state as database
from attention_ui.kit.grids.matrix_editor import VALUE_LIMIT, set_matrix
from attention_ui.kit.grids.records_editor import D2L_RECORDS, Row, check_records, current_records
from attention_ui.kit.state import settings
from attention_ui.luong import state as luong

VALUES, CONE_WEIGHTS = "gallery.values", "gallery.cone"
TEMPERATURES = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0)
GRID_TEMPERATURES = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 10.0)  # the heatmap grid's columns
# Each setting once: key, address parameter, default, values, label.
M = settings.integer("gallery.m", "m", 3, 1, 8, label="gallery.values.m")
Q1 = settings.number("gallery.q1", "q1", 1.0, -3.0, 3.0, label="gallery.query.q1")
Q2 = settings.number("gallery.q2", "q2", 1.0, -3.0, 3.0, label="gallery.query.q2")
TEMPERATURE = settings.choice(
    "gallery.temperature",
    "tau",
    1.0,
    TEMPERATURES,
    label="gallery.temperature.label",
    help="gallery.temperature.help",
)
NORMALIZATION = settings.choice(
    "gallery.normalization",
    "norm",
    "softmax",
    ("softmax", "sum"),
    label="gallery.normalization.label",
    options_label="gallery.normalization.",
)
GRID_SOURCE = settings.choice(
    "gallery.grid.source",
    "grid",
    "luong",
    ("luong", "database"),
    options_label="gallery.grid.source_",
)
GRID_TAUS = settings.number_set(
    "gallery.grid.temperatures", "taus", [0.25, 1.0, 4.0], GRID_TEMPERATURES
)
SETTINGS = (M, Q1, Q2, TEMPERATURE, NORMALIZATION, GRID_SOURCE, GRID_TAUS)
# The other pages' inputs the live grid last showed (plain session keys), so that a shared
# address of this page shows the same grid in a session that never opened those pages.
LIVE_Q, LIVE_K = "gallery.live.Q", "gallery.live.K"
LIVE_RECORDS, LIVE_QUERIES = "gallery.live.records", "gallery.live.queries"

PRESETS = {
    "first_quadrant": [[1.0, 0.5], [0.5, 2.0], [2.0, 1.5]],
    "around_origin": [[2.0, 0.5], [-1.0, 1.5], [-0.5, -2.0], [1.5, -1.0]],
    "half_plane": [[2.0, 0.0], [-2.0, 0.0], [0.5, 1.5]],
    "on_a_line": [[0.5, 0.5], [1.0, 1.0], [2.0, 2.0]],
}
DEFAULT_CONE_WEIGHTS = [1.5, 0.5, 1.0, 0.8, 0.3, 1.2, 0.6, 0.9]
# A small built-in Q and K (column layout: one query / key per column) for the live grid.
EXAMPLE_Q = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
EXAMPLE_K = np.array([[1.0, 0.0, -1.0, 0.5], [0.0, 1.0, 0.0, 0.5]])
DEFAULT_QUERIES = ["Li", "Smola", "Hu"]


def start() -> None:
    """Before the widgets are drawn: each setting at its default on a first visit."""
    settings.start(SETTINGS)


def note_borrowed() -> None:
    """After the live grid is drawn: the other pages' inputs it borrowed, for the address."""
    entered = luong.query_and_keys()
    if entered is not None:
        st.session_state[LIVE_Q], st.session_state[LIVE_K] = entered
    rows = current_records(database.RECORDS)
    if rows is not None:
        st.session_state[LIVE_RECORDS] = rows
    queries = st.session_state.get(database.QUERIES)
    if queries is not None:
        st.session_state[LIVE_QUERIES] = queries


def load_values(name: str) -> None:
    """Preset callback: new values (and as many of them)."""
    points = np.array(PRESETS[name])
    st.session_state[M.key] = points.shape[0]
    set_matrix(VALUES, points)  # the preset replaces the remembered edits too


def luong_inputs() -> tuple[np.ndarray, np.ndarray, bool]:
    """The Luong page's current Q and K in column layout, or the built-in example (False)."""
    entered = luong.query_and_keys()
    live = st.session_state.get(LIVE_Q), st.session_state.get(LIVE_K)
    if entered is None and all(m is not None for m in live):
        entered = live  # from a shared address
    if entered is None:
        return EXAMPLE_Q, EXAMPLE_K, False
    Q, K = np.asarray(entered[0], dtype=float), np.asarray(entered[1], dtype=float)
    if (
        Q.ndim != 2
        or K.ndim != 2
        or Q.shape[0] != K.shape[0]
        or not (np.isfinite(Q).all() and np.isfinite(K).all())
        or max(np.abs(Q).max(initial=0), np.abs(K).max(initial=0)) > VALUE_LIMIT
    ):
        return EXAMPLE_Q, EXAMPLE_K, False
    return Q, K, True


def database_inputs() -> tuple[list[Row], list[str], bool]:
    """The database page's records and queries as last seen, or d2l's table (False) when the
    learner's table has no usable record. Queries default to a few of d2l's surnames."""
    rows = current_records(database.RECORDS)
    if rows is None:
        rows = st.session_state.get(LIVE_RECORDS)  # from a shared address
    records = check_records(rows).records if rows else []
    borrowed = st.session_state.get(database.QUERIES) or st.session_state.get(LIVE_QUERIES) or []
    # checked as the database page checks its own (an address may bring blank or long ones)
    queries = database.check_queries(borrowed if isinstance(borrowed, list) else [])[0]
    queries = queries or DEFAULT_QUERIES
    if not records:
        return list(D2L_RECORDS), queries, False
    return records, queries, True
