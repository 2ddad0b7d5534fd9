"""The grids' one store: edits applied once each, read by the number parser, placed by position
or by label, and whatever a crafted client sends never raises."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attention_ui.kit.grids import store
from attention_ui.kit.grids.paste import cut_block, split_block

KEY = "page.M"
ROWS, COLS = ["1", "2"], ["q1", "q2", "q3"]


@pytest.fixture
def session() -> dict:
    state: dict = {}
    store.set_cells(KEY, [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], state)
    state[KEY + ".grid"].update(rows=ROWS, cols=COLS, kinds=["number"] * 3, limit=1000.0)
    return state


def edit(*entries: dict, token: str = "t") -> dict:
    return {"token": token, "n": len(entries), "entries": list(entries)}


def cells_entry(n: int, *cells: list, rows=ROWS, cols=COLS) -> dict:
    return {"n": n, "cells": list(cells), "rows": rows, "cols": cols}


def test_an_entry_is_applied_once_however_often_it_is_sent(session):
    state = edit(cells_entry(1, [0, 0, "7"]))
    assert store.apply_edit(KEY, state, session) == (True, 0)
    session[KEY + ".grid"]["cells"][0][0] = 1.5  # the server changed it meanwhile
    assert store.apply_edit(KEY, state, session) == (False, 0)
    assert store.visible(KEY, session)[0][0] == 1.5


def test_entries_not_yet_acknowledged_are_all_applied_in_order(session):
    first, second = cells_entry(1, [0, 0, "7"]), cells_entry(2, [0, 0, "8"], [1, 2, "9"])
    store.apply_edit(KEY, edit(second, first), session)  # any order in the list
    assert store.visible(KEY, session) == [[8.0, 1.0, 2.0], [3.0, 4.0, 9.0]]
    assert session[KEY + ".grid"]["seen"] == {"t": 2}


def test_the_number_parser_decides_and_a_refused_cell_keeps_its_value(session):
    store.apply_edit(
        KEY,
        edit(cells_entry(1, [0, 0, "−0,5"], [0, 1, "abc"], [0, 2, "1001"], [1, 0, "1,000"])),
        session,
    )
    assert store.visible(KEY, session)[0] == [-0.5, 1.0, 2.0]
    assert session[KEY + ".grid"]["rejected"] == {
        "0,1": ["abc", "text"],
        "0,2": ["1001", "range"],
        "1,0": ["1,000", "thousands"],
    }
    store.apply_edit(KEY, edit(cells_entry(2, [0, 1, "2"])), session)  # fixed: no longer marked
    assert "0,1" not in session[KEY + ".grid"]["rejected"]


def test_a_cleared_cell_is_nan(session):
    store.apply_edit(KEY, edit(cells_entry(1, [1, 1, ""])), session)
    assert math.isnan(store.visible(KEY, session)[1][1])


def test_a_late_edit_for_the_other_layout_lands_on_its_labels(session):
    store.transpose(KEY, session)  # now rows q1..q3, columns 1, 2
    store.apply_edit(KEY, edit(cells_entry(1, [0, 2, "9"])), session)  # typed in (1, q3)
    assert store.visible(KEY, session)[2][0] == 9.0


def test_shrinking_and_growing_back_brings_hidden_cells_back(session):
    store.fit(KEY, (1, 1), 0.0, session)
    assert store.visible(KEY, session) == [[0.0]]
    store.fit(KEY, (2, 4), 0.0, session)
    assert store.visible(KEY, session) == [[0.0, 1.0, 2.0, 0.0], [3.0, 4.0, 5.0, 0.0]]


def test_a_change_by_the_server_first_applies_what_the_browser_sent(session):
    """The learner's commit left the browser before their click on a preset."""
    session[store.widget_key(KEY)] = {"edit": edit(cells_entry(1, [0, 0, "7"]))}
    store.set_cells(KEY, [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]], session)
    assert session[KEY + ".grid"]["seen"] == {"t": 1}  # applied before, so not after
    assert store.apply_edit(KEY, session[store.widget_key(KEY)]["edit"], session) == (False, 0)
    assert store.visible(KEY, session)[0][0] == 1.0


def table(session: dict) -> None:
    store.set_cells("page.T", [["a", "b", 1.0]], session)
    session["page.T.grid"].update(
        rows=["1"],
        cols=["key", "value", "number"],
        kinds=["text", "text", "number"],
        limit=math.inf,
        max_rows=3,
        numbered=True,
    )


def test_rows_are_added_up_to_the_limit_and_deleted_and_renumbered():
    session: dict = {}
    table(session)
    adds = [{"n": n, "add_row": True} for n in (1, 2, 3)]
    assert store.apply_edit("page.T", edit(*adds), session) == (True, 0)
    assert len(store.visible("page.T", session)) == 3  # the third "+" found the table full
    store.apply_edit("page.T", edit({"n": 4, "delete_row": 0}), session)
    grid = session["page.T.grid"]
    assert grid["rows"] == ["1", "2"] and store.visible("page.T", session)[0][0] == ""


def test_a_pasted_block_fills_from_its_cell_grows_the_table_and_says_what_was_left_out():
    session: dict = {}
    table(session)
    block = "x\ty\t1\tspare\nz\tw\t2\nu\tv\t3\nlost\tlost\t4"
    entry = {
        "n": 1,
        "paste": block,
        "at": [0, 0],
        "rows": ["1"],
        "cols": ["key", "value", "number"],
    }
    store.apply_edit("page.T", edit(entry), session)
    assert store.visible("page.T", session) == [["x", "y", 1.0], ["z", "w", 2.0], ["u", "v", 3.0]]
    assert session["page.T.grid"]["pasted"] == {"at": [0, 0], "rows": 1, "cols": 1}


def test_splitting_a_block_keeps_a_decimal_comma_whole():
    assert split_block("0,5") == [["0,5"]]
    assert split_block("1,2,3") == [["1", "2", "3"]]
    assert split_block("1\t0,5\r\n2\t3\n") == [["1", "0,5"], ["2", "3"]]
    assert split_block("") == []


def test_a_block_is_cut_at_the_grids_edges():
    cut = cut_block([["1", "2", "3"], ["4", "5", "6"]], (1, 1), (2, 3))
    assert cut.cells == [["1", "2"]] and (cut.rows_left, cut.cols_left) == (1, 1)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(json_values)
def test_whatever_arrives_as_the_browser_state_never_raises(crafted):
    session: dict = {}
    store.set_cells(KEY, [[0.0, 1.0]], session)
    session[KEY + ".grid"].update(rows=["1"], cols=["a", "b"], kinds=["number", "text"])
    store.apply_edit(KEY, crafted, session)
    store.apply_edit(KEY, {"token": "t", "entries": [crafted]}, session)
    store.apply_edit(
        KEY, edit({"n": 1, "cells": [crafted], "paste": crafted, "at": crafted}), session
    )
    assert len(store.visible(KEY, session)) == 1
