"""The exercises page's session state: every widget key and its default in ONE dict, the
matrices it edits, and the inputs it borrows from the database and gallery pages.

DEFAULTS lists the widgets (Streamlit keeps their values across visits to other pages: each is
drawn with persist_state="session"); MATRICES lists the grids (kept by `matrix_editor`), with
their default contents. Whatever arrives in a widget key is input: the frame's check
(kit.share.address.check_widgets, by this page's address fields) puts back the default for any
value the page does not offer, before the widgets are drawn; a count such as the search's steps
may be any whole number the address holds, left as typed for the engine to cap and say so.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from attention_core.lookup import SIMILARITIES
from attention_ui.database import state as database
from attention_ui.gallery import state as gallery
from attention_ui.kit.grids.matrix_editor import matrix_values
from attention_ui.kit.grids.records_editor import D2L_RECORDS, check_records, current_records
from attention_ui.kit.state.page_state import start_values
from attention_ui.luong import state as luong

SECTION = "exercises.section"
SECTIONS = ("match", "grad", "search", "se")
MATCH_QUERY = "exercises.match.query"
MATCH_SIMILARITY = "exercises.match.similarity"
MATCH_TAU = "exercises.match.tau"
MATCH_ANSWER = "exercises.match.answer"
GRAD_POINTS = "exercises.grad.points"
GRAD_Q1, GRAD_Q2 = "exercises.grad.q1", "exercises.grad.q2"
GRAD_TAU = "exercises.grad.tau"
GRAD_ANSWER = "exercises.grad.answer"
SEARCH_SOURCE = "exercises.search.source"
SEARCH_M = "exercises.search.m"
SEARCH_TARGET = "exercises.search.target"
SEARCH_Q1, SEARCH_Q2 = "exercises.search.q1", "exercises.search.q2"
SEARCH_RATE = "exercises.search.rate"
SEARCH_STEPS = "exercises.search.steps"
SE_CHANNELS = "exercises.se.channels"
SE_PIXELS = "exercises.se.pixels"
SE_R = "exercises.se.r"

DEFAULTS: dict[str, object] = {
    SECTION: "match",
    MATCH_QUERY: "Li",
    MATCH_SIMILARITY: "ngram",
    MATCH_TAU: 0.25,
    MATCH_ANSWER: False,
    GRAD_POINTS: "gallery",
    GRAD_Q1: 1.0,
    GRAD_Q2: 0.5,
    GRAD_TAU: 1.0,
    GRAD_ANSWER: False,
    SEARCH_SOURCE: "vectors",
    SEARCH_M: 4,
    SEARCH_TARGET: 1,
    SEARCH_Q1: -1.0,
    SEARCH_Q2: -1.0,
    SEARCH_RATE: 0.5,
    SEARCH_STEPS: 30,
    SE_CHANNELS: 3,
    SE_PIXELS: 4,
    SE_R: 2,
}
# The grids: state key → default content (the editors resize them, keeping what fits).
SEARCH_KEYS, SE_X, SE_W1, SE_W2 = (
    "exercises.search.keys",
    "exercises.se.X",
    "exercises.se.W1",
    "exercises.se.W2",
)
MATRICES: dict[str, np.ndarray] = {
    SEARCH_KEYS: np.array([[2.0, 0.0], [0.0, 2.0], [-2.0, 0.0], [1.0, 1.0]]),  # one row per record
    SE_X: np.array([[1.0, 2.0, 3.0, 2.0], [0.0, -1.0, 1.0, 0.0], [4.0, 4.0, 0.0, 0.0]]),
    SE_W1: np.array([[1.0, 0.5, -0.5], [0.0, 1.0, 1.0]]),
    SE_W2: np.array([[1.0, -1.0], [0.5, 0.5], [-1.0, 2.0]]),
}

# Slider ranges and option lists, for the address and the view.
GRAD_Q_RANGE = (-12.0, 12.0)
GRAD_TAU_RANGE = (0.05, 5.0)
SEARCH_Q_RANGE = (-5.0, 5.0)
MATCH_TAU_RANGE = (0.05, 5.0)
OPTIONS = {
    MATCH_SIMILARITY: SIMILARITIES,
    GRAD_POINTS: ("gallery", "huge"),
    SEARCH_SOURCE: ("vectors", "names"),
}
RANGES = {
    GRAD_Q1: GRAD_Q_RANGE,
    GRAD_Q2: GRAD_Q_RANGE,
    GRAD_TAU: GRAD_TAU_RANGE,
    SEARCH_Q1: SEARCH_Q_RANGE,
    SEARCH_Q2: SEARCH_Q_RANGE,
    MATCH_TAU: MATCH_TAU_RANGE,
}
MAX_CHANNELS, MAX_PIXELS, MAX_HIDDEN, MAX_RECORDS = 4, 8, 4, 8

# d2l's exercise 2 meets the Luong page's "One huge score": its K's columns are used as the
# keys and as the values (the exercise needs kᵢ = vᵢ; the preset's own V differs), q = its q₁,
# so the scores are 50, 10 and 0. One key or value per row here.
_HUGE = luong.PRESETS["saturate"].column_matrices()
HUGE_POINTS = _HUGE["K"].T.copy()
HUGE_OWN_VALUES = _HUGE["V"].T.copy()
HUGE_QUERY = tuple(float(x) for x in _HUGE["Q"][:, 0])


def shared_shapes(values: dict[str, object]) -> dict[str, tuple[int, int]]:
    """The shape each grid must have for these values, clamped as the page clamps its sizes
    (a grid of another shape in an address is left out and said, kit.share.address)."""

    def size(key: str, low: int, high: int) -> int:
        value = values.get(key, DEFAULTS[key])
        whole = value if isinstance(value, int) and not isinstance(value, bool) else DEFAULTS[key]
        return int(min(max(whole, low), high))  # type: ignore[call-overload]

    shapes = {SEARCH_KEYS: (size(SEARCH_M, 1, MAX_RECORDS), 2)}
    channels, pixels = size(SE_CHANNELS, 0, MAX_CHANNELS), size(SE_PIXELS, 0, MAX_PIXELS)
    hidden = size(SE_R, 1, MAX_HIDDEN)
    if channels and pixels:  # with no channel or pixel the page draws no grid
        shapes |= {SE_X: (channels, pixels), SE_W1: (hidden, channels), SE_W2: (channels, hidden)}
    return shapes


def start() -> None:
    """Before the widgets are drawn: each setting at its default on a first visit."""
    start_values(DEFAULTS)


def load_huge_score() -> None:
    """Button callback: the "One huge score" case (q = (10, 0), τ = 1)."""
    st.session_state.update(
        {GRAD_POINTS: "huge", GRAD_Q1: HUGE_QUERY[0], GRAD_Q2: HUGE_QUERY[1], GRAD_TAU: 1.0}
    )


def gallery_values() -> tuple[np.ndarray, bool]:
    """The gallery's values (m × 2) as the learner left them, or its first preset (False)."""
    values = matrix_values(gallery.VALUES)
    m = st.session_state.get(gallery.M.key)
    if values is not None and isinstance(m, int) and 1 <= m <= values.shape[0]:
        values = values[:m]
        if values.shape[1] == 2 and np.isfinite(values).all():
            return values, True
    return np.array(gallery.PRESETS["first_quadrant"]), False


def database_records() -> tuple[list, bool]:
    """The database page's usable records, or d2l's table (False) when it has none."""
    rows = current_records(database.RECORDS)
    records = check_records(rows).records if rows else []
    return (records, True) if records else (list(D2L_RECORDS), False)
