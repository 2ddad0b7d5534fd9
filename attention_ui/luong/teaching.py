"""The Luong explorer's export panel and its predict-then-reveal puzzle.

pages/luong.py draws the switch above the grids (`switch`) and calls `reveal(...)` before the
results (False: keep them hidden); the export's fragment (luong/fragments.py) calls `export`.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import streamlit as st

from attention_core import AttentionResult
from attention_ui.kit.classroom.panel import question_here, student_question_here
from attention_ui.kit.export.latex_writer import derivation_latex
from attention_ui.kit.export.panel import Export, Table, export_panel
from attention_ui.kit.export.scripts import result_script
from attention_ui.kit.teaching.predict import Puzzle, puzzle_id, query_weights
from attention_ui.kit.teaching.predict_view import predict_switch, puzzle, verdict_text
from attention_ui.kit.teaching.steps_view import step_axes
from attention_ui.kit.text.i18n import step_sentence, step_title, t
from attention_ui.luong import state
from attention_ui.luong.model import (
    DISPLAY_NAMES,
    PARAMETERS,
    Sizes,
    engine_parameters,
    keys,
    labels,
    queries,
)
from attention_ui.luong.presets import RANDOM
from attention_ui.luong.view import from_training, result_steps

PAGE = "luong"


def new_random_puzzle() -> None:
    """Button callback: the random example with the next seed (the preset's own redraw)."""
    if state.PRESET.value() != RANDOM:
        st.session_state[state.PRESET.key] = RANDOM
        state.load_preset()
    else:
        state.redraw()


def switch() -> bool:
    """The switch, at the end of the grids' heading; False when a class question about this
    page takes its place (no switch drawn)."""
    if question_here(PAGE):
        return False
    predict_switch(PAGE)
    return True


def _puzzle_controls() -> None:
    st.header(t("predict.luong.title"))
    st.caption(t("predict.luong.ask"))
    seed_col, button_col = st.columns([3, 1], vertical_alignment="center")
    sent = from_training()  # the training page's numbers, or the learner's edits of them
    if sent is not None:
        seed_col.caption(t(f"learned.puzzle.{'trained' if sent.held else 'edited'}", **sent.words))
    elif state.PRESET.value() == RANDOM:
        seed_col.caption(t("predict.luong.seed", seed=int(state.SEED.value())))
    else:
        seed_col.caption(t("predict.luong.not_random"))
    button_col.button(
        t("predict.luong.new"),
        key="luong.predict.new",
        on_click=new_random_puzzle,
        icon=":material/casino:",
    )


def reveal(result: AttentionResult, switch_drawn: bool) -> bool:
    """When the switch is on (`switch` drew it: `switch_drawn`), one question per query.
    True when the page may show its scores, weights, output, tabs and exports (switch off,
    or answers revealed)."""
    if switch_drawn and not state.PREDICT.value():
        return True
    if not student_question_here(PAGE):  # a student answers the teacher's numbers
        _puzzle_controls()
    per_query = query_weights(result.weights, result.layout)
    n, m = len(per_query), len(per_query[0])
    key_names, query_names = keys(m), queries(n)
    asked = Puzzle(
        PAGE,
        puzzle_id(result.weights, extra=result.layout),
        questions=[t("predict.luong.question", query=name) for name in query_names],
        options=range(m),
        option_label=key_names.__getitem__,
        per_query=per_query,
        describe=lambda verdict, weights: verdict_text(
            verdict, query_names[verdict.query], key_names, weights
        ),
        horizontal=True,
    )
    return puzzle(asked)


def export(
    result: AttentionResult,
    values: Mapping[str, np.ndarray],
    sizes: Sizes,
    mask: np.ndarray | None,
    titles: Mapping[str, str],
) -> None:
    """The script, every matrix (inputs and S, A, O) as CSV, and the steps in LaTeX."""

    def build() -> Export:
        params = engine_parameters(result.score, values)
        tables = [
            Table(DISPLAY_NAMES[name], values[name], *labels(name, sizes, result.layout))
            for name in ("Q", "K", "V", *PARAMETERS[result.score])
        ]
        for name, step in result_steps(result).items():
            axes = step_axes(step, result.layout, titles)
            tables.append(Table(name, step.value, axes.y_labels, axes.x_labels))
        heading = (
            f"Attention Explorer, {t('luong.title')}: {result.score}, {result.layout}, "
            f"tau = {result.temperature!r}"
        )
        return Export(
            script=result_script(
                result,
                values["Q"],
                values["K"],
                values["V"],
                parameters={**params, "mask": mask},
                title="Attention Explorer: Luong explorer",
            ),
            tables=tables,
            derivation=derivation_latex(
                result.steps,
                title_of=step_title,
                sentence_of=lambda step: step_sentence(step, run_steps=result.steps),
                heading=heading,
            ),
        )

    export_panel(PAGE, build, details=(result.score, result.layout))
