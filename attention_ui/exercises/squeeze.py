"""Exercise 4: Squeeze-and-Excitation (Hu et al., 2018) read as attention.

SE scales each channel by its own gate, Y_c = s_c X_c: no sum over the channels, so it is a
gating by unnormalised sigmoid weights computed from the channel means z (whose squeeze is
itself average pooling over the pixels). A softmax over the channels is drawn for contrast.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from attention_core import AttentionInputError
from attention_core.formatting import fmt
from attention_core.squeeze_excitation import SqueezeExcitation, squeeze_excitation
from attention_ui.kit.figures.charts import show_chart
from attention_ui.kit.figures.heatmap import SIGNED, WEIGHTS
from attention_ui.kit.grids.matrix_editor import matrix_editor
from attention_ui.kit.state import settings as draw
from attention_ui.kit.text.i18n import draw_notes, show_error, t, worded

from . import compute, state, teaching
from .common import labels, matrix_chart
from .figures import GatesCaptions, gates_figure


def squeeze() -> None:
    st.header(t("exercises.se.title"))
    st.markdown(t("exercises.se.question"))
    channels, pixels, hidden = _sizes()
    if channels < 1 or pixels < 1:  # nothing to edit: the engine names what is empty
        try:
            squeeze_excitation(
                np.zeros((channels, pixels)),
                np.zeros((hidden, channels)),
                np.zeros((channels, hidden)),
            )
        except AttentionInputError as error:
            show_error(error)
        return
    names = (labels("c", channels), labels("p", pixels), labels("h", hidden))
    grids = _grids(*names)
    if grids is None:
        return
    x, w1, w2 = grids
    try:
        numbers = compute.squeeze(compute.SqueezeInputs(x, w1, w2))
    except AttentionInputError as error:
        show_error(error)
        return
    se, soft = numbers.sigmoid, numbers.softmax
    _steps(se, *names)
    st.markdown("### " + t("exercises.se.reading_title"))
    st.markdown(t("exercises.se.reading"))
    show_chart(
        gates_figure(names[0], numbers, worded(GatesCaptions, "exercises.se")),
        key="exercises.chart.gates",
    )
    draw_notes(gate_notes(se, soft, names[0]))
    teaching.export_se(se, soft, w1, w2, names)


def _sizes() -> tuple[int, int, int]:
    """C, P and the hidden size, clamped to what the page draws (and said when clamped)."""
    boxes = (  # setting, lowest, highest
        (state.SE_CHANNELS, 0, state.MAX_CHANNELS),
        (state.SE_PIXELS, 0, state.MAX_PIXELS),
        (state.SE_R, 1, state.MAX_HIDDEN),
    )
    sizes = []
    for column, (setting, low, limit) in zip(st.columns(3), boxes, strict=True):
        value = draw.number_input(setting, column, min_value=low, max_value=limit)
        if value > limit:  # the browser's max is not enforced on the server
            name = t(setting.label or setting.key)
            st.warning(t("exercises.se.too_many", name=name, value=value, limit=limit))
        sizes.append(min(int(value), limit))
    channels, pixels, hidden = sizes
    return channels, pixels, max(1, hidden)


def _grids(c_labels: list[str], p_labels: list[str], r_labels: list[str]):
    """X, W1, W2 as entered, or None (the problems said) when a cell is not a number."""
    # Each grid's column as wide as its number of columns (an equal third would cut W1),
    # with its title above it: which matrix it is, what it does and its size.
    c, p, r = len(c_labels), len(p_labels), len(r_labels)
    grids = st.columns([p + 1, c + 1, r + 1])
    with grids[0]:
        st.markdown(t("exercises.se.grid.X", rows=c, cols=p))
        x_in = matrix_editor(
            "X",
            state.SE_X,
            state.MATRICES[state.SE_X],
            (c_labels, p_labels),
            help=t("exercises.se.x_help"),
        )
    with grids[1]:
        st.markdown(t("exercises.se.grid.W1", rows=r, cols=c))
        w1_in = matrix_editor("W1", state.SE_W1, state.MATRICES[state.SE_W1], (r_labels, c_labels))
    with grids[2]:
        st.markdown(t("exercises.se.grid.W2", rows=c, cols=r))
        w2_in = matrix_editor("W2", state.SE_W2, state.MATRICES[state.SE_W2], (c_labels, r_labels))
    problems = x_in.problems + w1_in.problems + w2_in.problems
    for problem in problems:
        st.error(problem)
    return None if problems else (x_in.values, w1_in.values, w2_in.values)


def _steps(
    se: SqueezeExcitation, c_labels: list[str], p_labels: list[str], r_labels: list[str]
) -> None:
    channels, pixels = se.feature_map.shape
    for step in se.steps:
        rows = c_labels if step.value.shape[0] == channels else r_labels
        cols = p_labels if step.value.shape[1] == pixels and step.value.shape[1] > 1 else [""]
        formula, matrix = st.columns([2, 3])
        with formula:
            st.markdown("**" + t(f"exercises.se.step.{step.key}") + "**")
            st.latex(step.latex)
        with matrix:
            looks = WEIGHTS if step.key.startswith("se_gate_") else SIGNED
            matrix_chart(step.value, rows, cols, "", f"exercises.chart.{step.key}", looks)


def gate_notes(
    se: SqueezeExcitation,
    soft: SqueezeExcitation,
    channel_labels: list[str],
    lang: str | None = None,
) -> list[tuple[str, str]]:
    """What the page says about the gates: their range and sum; gates that came out as
    exactly 1 or 0 (σ(a) rounds to 1.0 for a ≳ 37, to 0 for a ≲ −745); whether the sum is 1
    (only by chance); and the softmax's gates, which always sum to 1."""
    gates = se.gates
    total = se.gate_sum
    notes = [
        (
            "markdown",
            t(
                "exercises.se.sigmoid_sum",
                lang,
                total=fmt(total),
                low=fmt(gates.min()),
                high=fmt(gates.max()),
            ),
        )
    ]
    for value, word in ((1.0, "se.gate_one"), (0.0, "se.gate_zero")):
        at = [channel_labels[i] for i in np.flatnonzero(gates == value)]
        if at:
            notes.append(("info", t(f"exercises.{word}", lang, channels=", ".join(at))))
    sum_word = "no_sum" if abs(total - 1) > 1e-9 else "sum_one_by_chance"
    notes.append(("markdown", t(f"exercises.se.{sum_word}", lang)))
    notes.append(("markdown", t("exercises.se.softmax_sum", lang, total=fmt(soft.gate_sum))))
    return notes
