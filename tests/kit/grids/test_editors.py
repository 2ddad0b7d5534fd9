"""matrix_editor and mask_editor: a grid of numbers (checked cell by cell, new cells 0) and a
grid of ticks (1.0 / 0.0, new cells ticked), both labelled by (row labels, column labels),
both keeping cells a shrink hid."""

from __future__ import annotations

import numpy as np
from streamlit.testing.v1 import AppTest

from attention_ui.kit.grids.matrix_editor import set_matrix


def _script():
    import numpy as np
    import streamlit as st

    from attention_ui.kit.grids.matrix_editor import mask_editor, matrix_editor

    rows = [f"r{i + 1}" for i in range(st.session_state.get("demo.rows", 2))]
    numbers = matrix_editor("M", "demo.m", np.array([[5.0]]), (rows, ["a", "b"]))
    ticks = mask_editor("K", "demo.k", np.array([[0.0]]), (rows, ["a", "b"]))
    st.session_state["demo.seen"] = (
        numbers.values.tolist(),
        numbers.problems,
        ticks.values.tolist(),
        ticks.problems,
    )


def test_numbers_start_at_zero_and_ticks_start_ticked_and_a_shrink_is_undone():
    at = AppTest.from_function(_script, default_timeout=30).run()
    assert not at.exception
    assert at.session_state["demo.seen"] == (
        [[5.0, 0.0], [0.0, 0.0]],
        [],
        [[0.0, 1.0], [1.0, 1.0]],
        [],
    )
    at.session_state["demo.rows"] = 3
    at.run()
    numbers, _, ticks, _ = at.session_state["demo.seen"]
    assert numbers[2] == [0.0, 0.0] and ticks[2] == [1.0, 1.0]
    at.session_state["demo.rows"] = 1
    at.run()
    assert at.session_state["demo.seen"][0] == [[5.0, 0.0]]
    at.session_state["demo.rows"] = 2
    at.run()
    assert at.session_state["demo.seen"][2] == [[0.0, 1.0], [1.0, 1.0]]  # the hidden row is back


def test_numbers_are_checked_and_ticks_are_not():
    at = AppTest.from_function(_script, default_timeout=30).run()
    set_matrix("demo.m", np.array([[2000.0, np.nan], [0.0, 0.0]]), at.session_state)
    set_matrix("demo.k", np.array([[2000.0, 0.0], [1.0, 1.0]]), at.session_state)
    at.run()
    _, problems, _, no_problems = at.session_state["demo.seen"]
    assert len(problems) == 2 and "M" in problems[0] and no_problems == []
