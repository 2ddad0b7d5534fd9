"""What an edit on the Luong page reruns: the edited grid, the results, the step tab only
when the edit changes the step it shows, and the export only while it is open.

The page draws each grid in a fragment of its own (`grid_key`), the results in another
(`RESULTS`), the step-by-step tab in a third (`STEPS`) and the export in a fourth (`EXPORT`:
attention_ui/luong/fragments.py). An edit of Q then reruns Q's grid and the results, not K's
and V's grids; the step tab only when the open step reads Q (an edit of Q while Kᵀ is open
does not send the tab's caption, picker and chart again), and the export only while it is open
(closed, it shows nothing an edit changes). Which step reads which matrix is asked of the engine
itself (`step_reads`). The grid's callback names these fragments (`after_edit`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
import streamlit as st

from attention_core.attention import SCORES
from attention_ui.kit.state.fragment_reruns import rerun_fragments
from attention_ui.luong import state
from attention_ui.luong.compute import Inputs, compute
from attention_ui.luong.model import (
    ALL_PARAMETERS,
    INPUTS,
    PARAMETERS,
    Sizes,
    causal_mask,
    column_shape,
)

RESULTS = "luong.results"  # S, A, O, the open tab but the steps, the verdicts
STEPS = "luong.steps"  # the step-by-step tab
EXPORT = "luong.export.panel"  # the export panel (its expander's widget key is luong.export)
EXPORT_OPEN = "luong.export"  # the export expander's widget key: True while it is open
GRIDS = (*INPUTS, *ALL_PARAMETERS)  # each grid is a fragment of its own (`grid_key`)
# What the engine reads, for `step_reads`: every matrix the page edits, the mask included.
MATRICES = (*INPUTS, *ALL_PARAMETERS, "mask")
_PROBE_SIZES = Sizes(d_q=2, d_k=2, d_v=3, n=2, m=3, h=2)


def grid_key(name: str) -> str:
    return f"luong.grid.{name}"


def step_reads(step: str, matrix: str, score: str) -> bool:
    """Whether the engine's step `step` can change when `matrix` does (Q, K, V, W, Wa_concat,
    va, Wa_location, or mask: the mask's cells or its length) under the score function `score`
    (an unknown step or score: it can)."""
    if score not in SCORES:
        return True
    return matrix in _reads(score).get(step, frozenset(MATRICES))


@functools.cache
def _reads(score: str) -> dict[str, frozenset[str]]:
    """Each step's matrices, asked of the engine once per score function and process: a step
    reads a matrix when its numbers, formula or sentence's numbers change with that matrix, for
    one seeded set of inputs, each matrix changed in turn (its hovers spell out the same
    numbers: tests/pages/luong/test_reruns.py compares them too, in both layouts)."""
    before = _drawn(score, None)
    reads: dict[str, set[str]] = {key: set() for key in before}
    for matrix in MATRICES:
        for key, drawn in _drawn(score, matrix).items():
            if drawn != before.get(key):
                reads.setdefault(key, set()).add(matrix)
    return {key: frozenset(matrices) for key, matrices in reads.items()}


def _drawn(score: str, changed: str | None) -> dict[str, tuple]:
    """What the step tab draws of each step, for seeded inputs in which `changed` (a matrix,
    or "mask") has other numbers."""
    rng, other = np.random.default_rng(7), np.random.default_rng(8)
    values = {}
    for name in (*INPUTS, *PARAMETERS[score]):
        values[name] = rng.normal(size=column_shape(name, _PROBE_SIZES))
        if name == changed:  # other numbers in every cell (a shift of all would leave softmax)
            values[name] = other.normal(size=values[name].shape)
    mask = np.ones(column_shape("mask", _PROBE_SIZES), dtype=bool)
    if changed == "mask":
        mask = causal_mask(_PROBE_SIZES.m, _PROBE_SIZES.n)
    drawn = {}
    for step in compute(Inputs(values, score, "column", 0.5, mask)).steps:
        drawn[step.key] = (step.value.tobytes(), step.latex, repr(sorted(step.params.items())))
    return drawn


def steps_follow(matrix: str, open_step: str | None, steps_open: bool, score: str) -> bool:
    """Whether an edit of `matrix` must rerun the step tab too: it is open and shows a step
    that reads the matrix under the score function `score`."""
    return steps_open and open_step is not None and step_reads(open_step, matrix, score)


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
    steps_open = shown and state.TAB_INDEX.value() == 0
    open_step = st.session_state.get(state.STEP.key)
    score = st.session_state.get(state.SCORE.key)
    follows = [STEPS] if steps_follow(matrix, open_step, steps_open, score) else []
    # the export panel, a fragment of its own, builds its files only while open (a closed one
    # shows nothing an edit changes)
    follows += [EXPORT] if shown and st.session_state.get(EXPORT_OPEN) else []
    if not (own or follows):
        return  # the widget's own fragment, the results', is what the edit reruns
    rerun_fragments([*own, RESULTS], follows)
