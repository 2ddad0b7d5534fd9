"""What an edit on the Luong page reruns: the grids' fragment, and the step tab's only when the
edit changes the step it shows.

pages/luong.py draws the results in one fragment (`RESULTS`) and the step-by-step tab in
another (`STEPS`), so an edit that leaves the open step as it was (an edit of Q while Kᵀ is
open) does not send the tab's caption, picker and chart again (bench/browser.py counts the
messages per edit). An edit that does change it reruns both, named from the edit's callback
(`after_edit`): Streamlit takes fragment keys in st.rerun only from a widget's callback.
"""

from __future__ import annotations

import contextlib

import streamlit as st
from streamlit.errors import StreamlitAPIException
from streamlit.runtime.scriptrunner import get_script_run_ctx

from attention_ui.kit.state.page_state import kept
from attention_ui.luong import state

RESULTS = "luong.results"  # the grids, S, A, O, the open tab but the steps, the verdicts
STEPS = "luong.steps"  # the step-by-step tab
# The steps that read fewer matrices than all: every other step reads all of them but V, and
# the output reads V too (tests/pages/luong/test_reruns.py checks this against the engine).
_READS = {
    "keys_transposed": {"K"},
    "queries_transformed": {"Q", "W"},
    "queries_projected": {"Q", "Wa_concat"},
    "keys_projected": {"K", "Wa_concat"},
}


def step_reads(step: str, matrix: str) -> bool:
    """Whether the engine's step `step` can change when `matrix` does (Q, K, V, W, Wa_concat,
    va, Wa_location, or mask: the mask's cells or its length)."""
    if step in _READS:
        return matrix in _READS[step]
    return step == "output" or matrix != "V"


def steps_follow(matrix: str, open_step: str | None, steps_open: bool) -> bool:
    """Whether an edit of `matrix` must rerun the step tab too: it is open and shows a step
    that reads the matrix."""
    return steps_open and open_step is not None and step_reads(open_step, matrix)


def after_edit(state_key: str) -> None:
    """A grid's callback, once its edit is kept (kit.grids.cell_grid): rerun the step tab's
    fragment along with the results' when the open step reads the edited matrix."""
    follow_edit(state_key.removeprefix("luong.").removesuffix(".cells"))


def follow_edit(matrix: str) -> None:
    """In a callback of a widget of the results' fragment that changes `matrix`."""
    ctx = get_script_run_ctx()
    if ctx is None or not ctx.fragment_ids_this_run:
        return  # a whole run draws the step tab anyway (a keyed rerun would replace it)
    steps_open = state.results_shown() and st.session_state.get(state.TAB_INDEX, 0) == 0
    open_step = st.session_state.get(state.STEP, kept(state.STEP))
    if steps_follow(matrix, open_step, steps_open):
        # The step tab's fragment is known once a whole run drew it; if not, the default
        # rerun (the results' fragment) is what there is to run.
        with contextlib.suppress(StreamlitAPIException):
            st.rerun([RESULTS, STEPS])
