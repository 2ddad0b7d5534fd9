"""The matrix editor's pure parts: applying the editor's edits, resizing, checking cells."""

import numpy as np

from attention_ui.matrix_editor import apply_edits, check_matrix, resized


def test_edits_are_applied_by_row_position_and_column_label():
    base = np.zeros((2, 3))
    state = {
        "edited_rows": {1: {"q3": 4.5}, "0": {"q1": None, "q2": "abc"}},
        "added_rows": [],
        "deleted_rows": [],
    }
    values = apply_edits(base, ["q1", "q2", "q3"], state)
    assert values[1, 2] == 4.5
    assert np.isnan(values[0, 0]) and np.isnan(values[0, 1])
    assert base[1, 2] == 0  # the stored content is not modified


def test_edits_to_cells_that_no_longer_exist_are_ignored():
    values = apply_edits(np.ones((1, 1)), ["q1"], {"edited_rows": {3: {"q1": 2}, 0: {"q9": 2}}})
    assert values.tolist() == [[1.0]]


def test_resizing_keeps_what_fits_and_fills_with_zeros():
    values = np.arange(6.0).reshape(2, 3)
    assert resized(values, (3, 2)).tolist() == [[0, 1], [3, 4], [0, 0]]


def test_every_bad_cell_is_named_by_matrix_and_labels():
    values = np.array([[np.nan, 1.0], [np.inf, 1e308]])
    problems = check_matrix("Q", values, ["d1", "d2"], ["q1", "q2"], limit=1000)
    assert len(problems) == 3
    assert "Q" in problems[0] and "(d1, q1)" in problems[0] and "empty" in problems[0]
    assert "(d2, q1)" in problems[1] and "∞" in problems[1]
    assert "(d2, q2)" in problems[2] and "1000" in problems[2]
    assert check_matrix("Q", np.array([[1000.0, -1000.0]]), ["d1"], ["q1", "q2"]) == []
