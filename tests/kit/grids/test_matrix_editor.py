"""The matrix editor's pure parts: applying the editor's edits, resizing, checking cells."""

import numpy as np

from attention_ui.kit.grids.matrix_editor import (
    RejectedCell,
    apply_edits,
    cell_text,
    check_matrix,
    read_edits,
    resized,
)
from attention_ui.kit.grids.number_text import read_number


def test_edits_are_applied_by_row_position_and_column_label():
    base = np.zeros((2, 3))
    state = {
        "edited_rows": {1: {"q3": "4,5"}, "0": {"q1": None, "q2": "−1e-3"}},
        "added_rows": [],
        "deleted_rows": [],
    }
    values = apply_edits(base, ["q1", "q2", "q3"], state)
    assert values[1, 2] == 4.5
    assert np.isnan(values[0, 0]) and values[0, 1] == -0.001
    assert base[1, 2] == 0  # the stored content is not modified


def test_a_rejected_edit_keeps_the_previous_value_and_says_why():
    base, previous = np.zeros((1, 4)), np.array([[1.0, 2.0, 3.0, 4.0]])
    state = {"edited_rows": {0: {"a": "abc", "b": "1001", "c": "1,000", "d": "1..2"}}}
    values, rejected = read_edits(base, ["a", "b", "c", "d"], state, previous=previous)
    assert values.tolist() == [[1.0, 2.0, 3.0, 4.0]]
    assert rejected == [
        RejectedCell(0, 0, "abc", "text"),
        RejectedCell(0, 1, "1001", "range"),
        RejectedCell(0, 2, "1,000", "thousands"),
        RejectedCell(0, 3, "1..2", "text"),
    ]


def test_numbers_from_a_crafted_client_are_read_too():
    state = {"edited_rows": {0: {"a": 2, "b": 1e308, "c": True, "d": False, "e": [1]}}}
    values, rejected = read_edits(np.full((1, 5), 0.5), ["a", "b", "c", "d", "e"], state)
    assert values.tolist() == [[2.0, 0.5, 1.0, 0.0, 0.5]]  # a tick (mask grid) is 1 or 0
    assert [cell.reason for cell in rejected] == ["range", "text"]


def test_the_grid_shows_numbers_as_the_app_writes_them_and_reads_them_back():
    for value, text in [(-0.5, "−0.5"), (2.0, "2"), (1e-5, "1×10^−5"), (1 / 3, "0.333333")]:
        assert cell_text(value) == text
        assert read_number(text) == float(f"{value:.6g}")
    assert cell_text(float("nan")) == ""


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
