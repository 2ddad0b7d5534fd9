"""The cut an editor makes where a table edit arrives (kit/grids/table_limits.py)."""

from __future__ import annotations

from attention_ui.kit.grids.table_limits import added_count, cut_rows, rows_after_edits


def test_the_cut_keeps_the_first_filled_rows_and_counts_them_all():
    rows = [(1, 2), (None, None), (3, 4), (5, 6)]
    assert cut_rows(rows, 2, lambda row: row == (None, None)) == ([(1, 2), (3, 4)], 3)


def test_edits_are_applied_as_the_editor_applies_them_and_unknown_parts_ignored():
    base = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
    edits = {
        "edited_rows": {"0": {"x": 9.0, "zz": 7.0}, 7: {"x": 1.0}, "a": {"x": 1.0}},
        "deleted_rows": [1, "q", 99],
        "added_rows": [{"y": 8.0}, 5, {"x": 0.5, "y": 0.25, "zz": 1}],
    }
    assert rows_after_edits(base, edits, ("x", "y")) == [
        [9.0, 2.0],
        [5.0, 6.0],
        [None, 8.0],
        [0.5, 0.25],
    ]
    assert rows_after_edits(base, {"edited_rows": [1], "added_rows": "x"}, ("x", "y")) == base


def test_only_an_editor_state_adds_rows():
    assert added_count({"added_rows": [{}, {}]}) == 2
    assert added_count({"added_rows": "xx"}) == 0
    assert added_count([1, 2]) == 0 and added_count(None) == 0
