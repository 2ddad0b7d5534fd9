"""The exercises page's session state: each setting declared once (kit/state/settings.py),
the matrices it edits, and the inputs it borrows from the database and gallery pages.

SETTINGS lists the widgets (Streamlit keeps their values across visits to other pages: each is
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
from attention_ui.kit.share.codec import MAX_INT
from attention_ui.kit.state import settings
from attention_ui.luong import state as luong

SECTIONS = ("match", "grad", "search", "se")
# A size or a count the address may hold as any whole number: the page clamps it and says so.
ANY_INT = (-MAX_INT - 1, MAX_INT)


def _choice(key: str, param: str, default: str, options: tuple) -> settings.Setting:
    """A choice whose options are worded by the catalog's `<key>_name.<option>`."""
    return settings.choice(key, param, default, options, options_label=f"{key}_name.")


# Each setting once: key, address parameter, default, values, label (none given: the key).
SECTION = _choice("exercises.section", "section", "match", SECTIONS)
MATCH_QUERY = settings.text("exercises.match.query", "match_query", "Li", 400)
MATCH_SIMILARITY = _choice("exercises.match.similarity", "match_similarity", "ngram", SIMILARITIES)
MATCH_TAU = settings.number("exercises.match.tau", "match_tau", 0.25, 0.05, 5.0)
MATCH_ANSWER = settings.flag(
    "exercises.match.answer.show", "match_answer", label="exercises.match.answer_toggle"
)
GRAD_POINTS = _choice("exercises.grad.points", "grad_points", "gallery", ("gallery", "huge"))
GRAD_Q1 = settings.number("exercises.grad.q1", "grad_q1", 1.0, -12.0, 12.0)
GRAD_Q2 = settings.number("exercises.grad.q2", "grad_q2", 0.5, -12.0, 12.0)
GRAD_TAU = settings.number("exercises.grad.tau", "grad_tau", 1.0, 0.05, 5.0)
GRAD_ANSWER = settings.flag(
    "exercises.grad.answer.show", "grad_answer", label="exercises.grad.answer_toggle"
)
SEARCH_SOURCE = _choice("exercises.search.source", "search_source", "vectors", ("vectors", "names"))
SEARCH_M = settings.integer("exercises.search.m", "search_m", 4, *ANY_INT)
SEARCH_TARGET = settings.integer("exercises.search.target", "search_target", 1, *ANY_INT)
SEARCH_Q1 = settings.number(
    "exercises.search.q1", "search_q1", -1.0, -5.0, 5.0, label="exercises.search.start1"
)
SEARCH_Q2 = settings.number(
    "exercises.search.q2", "search_q2", -1.0, -5.0, 5.0, label="exercises.search.start2"
)
SEARCH_RATE = settings.number(
    "exercises.search.rate", "search_rate", 0.5, -1e6, 1e6, help="exercises.search.rate_help"
)
SEARCH_STEPS = settings.integer("exercises.search.steps", "search_steps", 30, *ANY_INT)
SE_CHANNELS = settings.integer("exercises.se.channels", "se_channels", 3, *ANY_INT)
SE_PIXELS = settings.integer("exercises.se.pixels", "se_pixels", 4, *ANY_INT)
SE_R = settings.integer("exercises.se.r", "se_r", 2, *ANY_INT, help="exercises.se.r_help")
SETTINGS = (
    SECTION,
    MATCH_QUERY,
    MATCH_SIMILARITY,
    MATCH_TAU,
    MATCH_ANSWER,
    GRAD_POINTS,
    GRAD_Q1,
    GRAD_Q2,
    GRAD_TAU,
    GRAD_ANSWER,
    SEARCH_SOURCE,
    SEARCH_M,
    SEARCH_TARGET,
    SEARCH_Q1,
    SEARCH_Q2,
    SEARCH_RATE,
    SEARCH_STEPS,
    SE_CHANNELS,
    SE_PIXELS,
    SE_R,
)
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

    def size(setting: settings.Setting, low: int, high: int) -> int:
        value = values.get(setting.key, setting.default)
        whole = value if isinstance(value, int) and not isinstance(value, bool) else setting.default
        return int(min(max(whole, low), high))

    shapes = {SEARCH_KEYS: (size(SEARCH_M, 1, MAX_RECORDS), 2)}
    channels, pixels = size(SE_CHANNELS, 0, MAX_CHANNELS), size(SE_PIXELS, 0, MAX_PIXELS)
    hidden = size(SE_R, 1, MAX_HIDDEN)
    if channels and pixels:  # with no channel or pixel the page draws no grid
        shapes |= {SE_X: (channels, pixels), SE_W1: (hidden, channels), SE_W2: (channels, hidden)}
    return shapes


def start() -> None:
    """Before the widgets are drawn: each setting at its default on a first visit."""
    settings.start(SETTINGS)


def load_huge_score() -> None:
    """Button callback: the "One huge score" case (q = (10, 0), τ = 1)."""
    st.session_state.update(
        {
            GRAD_POINTS.key: "huge",
            GRAD_Q1.key: HUGE_QUERY[0],
            GRAD_Q2.key: HUGE_QUERY[1],
            GRAD_TAU.key: 1.0,
        }
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
