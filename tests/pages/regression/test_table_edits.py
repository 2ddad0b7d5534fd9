"""What the training-data table receives is checked where it arrives: a paste of thousands of
rows fills the table up to the points the page keeps (the rest is said, never stored), and an
edit naming a cell the table does not have is left out with a message, on that run and every
later one."""

from __future__ import annotations

import pytest

from attention_ui.kit.grids.points_editor import MAX_POINTS, current_points
from attention_ui.kit.grids.store import visible
from tests.conftest import open_app_page
from tests.support.grids import crafted_state, paste_block

POINTS = "regression.points"


@pytest.mark.parametrize("count", [1000, 5000])
def test_a_paste_of_thousands_of_rows_keeps_only_the_points_the_page_uses(count):
    at = open_app_page("regression")
    before = len(current_points(POINTS, at.session_state))
    block = "\n".join(f"{float(i % 700) - 350.0}\t{float(i % 13)}" for i in range(count))
    paste_block(at, POINTS, (before - 1, 0), block)  # into the last row
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    kept = current_points(POINTS, at.session_state)
    assert len(kept) == MAX_POINTS and len(visible(POINTS, at.session_state)) == MAX_POINTS
    assert kept[before - 1] == (-350.0, 0.0)  # the block starts where it was pasted
    left = count - (MAX_POINTS - before + 1)
    assert any(f"{left} rows of it were left out" in i.value for i in at.info)
    at.number_input(key="regression.sigma").set_value(0.5).run()
    assert not at.exception
    assert len(current_points(POINTS, at.session_state)) == MAX_POINTS
    assert at.query_params["xy"].count("~") == MAX_POINTS - 1


def entries(*listed: object) -> dict:
    return {"edit": {"token": "crafted", "n": 1, "entries": list(listed)}}


@pytest.mark.parametrize(
    "crafted",
    [
        entries({"n": 1, "cells": [[0, 9, "1"]]}),
        entries({"n": 1, "cells": [[99, 0, "1"]]}),
        entries({"n": 1, "cells": [["0", "x", "1"]]}),
        entries({"n": 1, "delete_row": "x"}),
        entries({"n": 1, "paste": "1\t2", "at": [99, 0]}),
        entries(5),
        [1, 2],
    ],
    ids=repr,
)
def test_an_edit_the_table_cannot_hold_is_left_out_on_that_run_and_later_ones(crafted):
    at = open_app_page("regression")
    before = list(current_points(POINTS, at.session_state))
    crafted_state(at, POINTS, crafted)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("cannot hold" in w.value for w in at.warning), [w.value for w in at.warning]
    assert current_points(POINTS, at.session_state) == before
    for sigma in (0.5, 0.7):
        at.number_input(key="regression.sigma").set_value(sigma).run()
        assert not at.exception, [e.value for e in at.exception]
    assert current_points(POINTS, at.session_state) == before
