"""An edit reruns the step tab only when it can change the open step: what each step reads,
asked of the engine (`reruns.step_reads`), checked against it in both layouts with other inputs
(a step said not to read a matrix is the same after that matrix changes, hovers included), and
the decision taken from it."""

from __future__ import annotations

import numpy as np
import pytest
import streamlit as st
from streamlit.errors import StreamlitAPIException

from attention_core.attention import SCORES
from attention_ui.luong import reruns, state
from attention_ui.luong.compute import Inputs, compute
from attention_ui.luong.model import PARAMETERS, Sizes, causal_mask, column_shape, in_layout

SIZES = Sizes(d_q=2, d_k=2, d_v=3, n=2, m=3, h=2)
MATRICES = ("Q", "K", "V", "W", "Wa_concat", "va", "Wa_location", "mask")


def inputs(score: str, layout: str, changed: str | None) -> Inputs:
    """Seeded inputs for `score`; `changed` (a matrix, or "mask") gets other numbers."""
    rng, other = np.random.default_rng(11), np.random.default_rng(12)
    values = {}
    for name in ("Q", "K", "V", *PARAMETERS[score]):
        shape = column_shape(name, SIZES)
        values[name] = rng.normal(size=shape)
        if name == changed:
            values[name] = other.normal(size=shape)
        if name in ("Q", "K", "V"):
            values[name] = in_layout(values[name], layout)
    mask = np.ones(column_shape("mask", SIZES), dtype=bool)
    if changed == "mask":
        mask = causal_mask(SIZES.m, SIZES.n)
    return Inputs(values, score, layout, 0.5, in_layout(mask, layout))


def shown(step) -> tuple:
    """What the step tab draws of a step: its numbers, formula, sentence's numbers, hovers."""
    rows, cols = step.value.shape
    entries = tuple(step.entry(r, c) for r in range(rows) for c in range(cols))
    return step.value.tobytes(), step.latex, repr(sorted(step.params.items())), entries


@pytest.mark.parametrize("layout", ["column", "row"])
@pytest.mark.parametrize("score", SCORES)
def test_a_step_said_not_to_read_a_matrix_stays_the_same_when_it_changes(score, layout):
    before = {step.key: shown(step) for step in compute(inputs(score, layout, None)).steps}
    for matrix in MATRICES:
        after = compute(inputs(score, layout, matrix))
        for step in after.steps:
            if step.key in before and not reruns.step_reads(step.key, matrix, score):
                assert shown(step) == before[step.key], (score, matrix, step.key)


def test_the_table_does_not_hide_a_change():
    """Each matrix the page edits changes some step said to read it (the answer is not
    vacuous): Q the scores, K the transposed keys, V only the output; the location score reads
    no K; an unknown step or score reads everything."""
    dot = "dot"
    assert reruns.step_reads("scores_dot", "Q", dot) and reruns.step_reads(
        "keys_transposed", "K", dot
    )
    assert not reruns.step_reads("keys_transposed", "Q", dot)
    reads_v = [reruns.step_reads(key, "V", dot) for key in ("weights_softmax", "output")]
    assert reads_v == [False, True]
    assert reruns.step_reads("masked", "mask", dot)
    assert not reruns.step_reads("keys_projected", "mask", "concat")
    assert reruns.step_reads("exponentials", "K", dot)  # not left out by softmax's invariance
    assert not reruns.step_reads("weights_softmax", "K", "location")
    assert reruns.step_reads("no_such_step", "V", dot) and reruns.step_reads("output", "V", "x")


@pytest.mark.parametrize(
    ("matrix", "step", "steps_open", "follows"),
    [
        ("Q", "keys_transposed", True, False),  # the default view: an edit of Q leaves Kᵀ
        ("K", "keys_transposed", True, True),
        ("Q", "weights_softmax", True, True),
        ("V", "weights_softmax", True, False),
        ("Q", "weights_softmax", False, False),  # another tab open
        ("Q", None, True, False),
    ],
)
def test_the_step_tab_reruns_with_an_edit_only_when_it_shows_what_changed(
    matrix, step, steps_open, follows
):
    assert reruns.steps_follow(matrix, step, steps_open, "dot") is follows


class RerunAskedError(Exception):
    """What the stand-in for st.rerun raises: like Streamlit's own, it ends the callback."""


def test_the_grids_callback_names_the_fragments(monkeypatch):
    """The callback itself (AppTest calls no callback): st.rerun with the grid's own fragment,
    the results' and, when the open step reads the edited matrix, the step tab's."""
    monkeypatch.setattr(
        st,
        "session_state",
        {state.SCORE.key: "dot", state.STEP.key: "weights_softmax", state.TAB_INDEX.key: 0},
    )
    reruns_asked = []

    def rerun(scope):  # as st.rerun does in a callback: ends it
        reruns_asked.append(scope)
        raise RerunAskedError()

    monkeypatch.setattr(st, "rerun", rerun)
    for key in ("luong.Q", "luong.V", "luong.mask.cells"):
        with pytest.raises(RerunAskedError):
            reruns.after_edit(key)
    assert reruns_asked == [
        ["luong.grid.Q", reruns.RESULTS, reruns.STEPS],
        ["luong.grid.V", reruns.RESULTS],  # the weights do not read V
        [reruns.RESULTS, reruns.STEPS],  # the mask's grid is drawn by the results' fragment
    ]


def test_without_a_drawn_step_tab_the_edit_still_reruns_its_grid_and_the_results(monkeypatch):
    """The step tab's fragment is unknown until a whole run drew it: st.rerun refuses the
    key, and the grid and the results still rerun."""
    monkeypatch.setattr(
        st,
        "session_state",
        {state.SCORE.key: "dot", state.STEP.key: "weights_softmax", state.TAB_INDEX.key: 0},
    )
    reruns_asked = []

    def rerun(scope):
        if reruns.STEPS in scope:
            raise StreamlitAPIException("No fragment found for target 'luong.steps'")
        reruns_asked.append(scope)
        raise RerunAskedError()

    monkeypatch.setattr(st, "rerun", rerun)
    with pytest.raises(RerunAskedError):
        reruns.after_edit("luong.Q")
    assert reruns_asked == [["luong.grid.Q", reruns.RESULTS]]


def test_an_open_export_reruns_with_the_edit_and_a_closed_one_does_not(monkeypatch):
    """The export is a fragment of its own: an edit reruns it only while it is open (a closed
    one shows nothing an edit changes); a key st.rerun refuses is left out, the others kept."""
    session = {
        state.SCORE.key: "dot",
        state.STEP.key: "keys_transposed",
        state.TAB_INDEX.key: 0,
        reruns.EXPORT_OPEN: True,
    }
    monkeypatch.setattr(st, "session_state", session)
    reruns_asked = []
    unknown = set()

    def rerun(scope):
        if unknown & set(scope):
            raise StreamlitAPIException("No fragment found")
        reruns_asked.append(scope)
        raise RerunAskedError()

    monkeypatch.setattr(st, "rerun", rerun)
    for key in ("luong.Q", "luong.mask.cells"):
        with pytest.raises(RerunAskedError):
            reruns.after_edit(key)
    unknown.add(reruns.EXPORT)
    with pytest.raises(RerunAskedError):
        reruns.after_edit("luong.K")  # Kᵀ is open: the step tab too, not the unknown export
    session[reruns.EXPORT_OPEN] = False
    reruns.after_edit("luong.mask.cells")  # the mask's own fragment, the results', reruns
    assert reruns_asked == [
        ["luong.grid.Q", reruns.RESULTS, reruns.EXPORT],
        [reruns.RESULTS, reruns.EXPORT],
        ["luong.grid.K", reruns.RESULTS, reruns.STEPS],
    ]
