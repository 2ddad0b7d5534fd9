"""What an edit on the Luong page reruns: the edited grid, the results, the step tab only
when the edit changes the step it shows, and the export only while it is open.

pages/luong.py draws each grid in a fragment of its own (`grid_key`), the results in another
(`RESULTS`), the step-by-step tab in a third (`STEPS`) and the export in a fourth (`EXPORT`).
An edit of Q then reruns Q's grid and the results, not K's and V's grids, the step tab only
when the open step reads Q (an edit of Q while Kᵀ is open does not send the tab's caption,
picker and chart again; bench/browser.py counts the messages per edit, bench/load.py the
server's work) and the export only while it is open (closed, it shows nothing an edit
changes, and an edit does not send it again). The grid's
callback names these fragments (`after_edit`): Streamlit takes fragment keys in st.rerun only
from a widget's callback.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Sequence

import streamlit as st
from streamlit.errors import StreamlitAPIException

from attention_ui.luong import state
from attention_ui.luong.model import ALL_PARAMETERS, INPUTS

RESULTS = "luong.results"  # S, A, O, the open tab but the steps, the verdicts
STEPS = "luong.steps"  # the step-by-step tab
EXPORT = "luong.export.panel"  # the export panel (its expander's widget key is luong.export)
EXPORT_OPEN = "luong.export"  # the export expander's widget key: True while it is open
GRIDS = (*INPUTS, *ALL_PARAMETERS)  # each grid is a fragment of its own (`grid_key`)
# The steps that read fewer matrices than all: every other step reads all of them but V, and
# the output reads V too (tests/pages/luong/test_reruns.py checks this against the engine).
_READS = {
    "keys_transposed": {"K"},
    "queries_transformed": {"Q", "W"},
    "queries_projected": {"Q", "Wa_concat"},
    "keys_projected": {"K", "Wa_concat"},
}


def grid_key(name: str) -> str:
    return f"luong.grid.{name}"


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
    """A grid's callback, once its edit is kept (kit.grids.cell_grid): rerun the grid's own
    fragment, the results' and, when the open step reads the edited matrix, the step tab's."""
    matrix = state_key.removeprefix("luong.").removesuffix(".cells")
    follow_edit(matrix, [grid_key(matrix)] if matrix in GRIDS else [])


def follow_edit(matrix: str, own: Sequence[str] = ()) -> None:
    """In a callback of a widget that changes `matrix`, drawn by its fragment `own` (none:
    by the results' fragment): the fragments the edit reruns."""
    # A keyed rerun replaces the interaction's own rerun. When the same interaction changed a
    # widget outside these fragments, the page still reruns whole: such a widget has a callback
    # of its own (language, example, layout, tabs: st.rerun's documented escalation), or it is
    # a setting above the grids, which the results' fragment sees and reruns the page for.
    shown = state.results_shown()
    steps_open = shown and st.session_state.get(state.TAB_INDEX, 0) == 0
    open_step = st.session_state.get(state.STEP)
    follows = [STEPS] if steps_follow(matrix, open_step, steps_open) else []
    # the export panel, a fragment of its own, builds its files only while open (a closed one
    # shows nothing an edit changes)
    follows += [EXPORT] if shown and st.session_state.get(EXPORT_OPEN) else []
    if not (own or follows):
        return  # the widget's own fragment, the results', is what the edit reruns
    # The step tab's and the export's fragments are known once a whole run drew them; without
    # one, the rest.
    for count in range(len(follows), -1, -1):
        for extra in itertools.combinations(follows, count):
            with contextlib.suppress(StreamlitAPIException):
                st.rerun([*own, RESULTS, *extra])
