"""What the training-data table receives is checked where it arrives, before the table is
drawn: a paste of thousands of rows is cut to the points the page keeps (so no later run pays
for the rest), and an edit naming a column or row the table does not have puts the table back
as last seen, on that run and every later one."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from attention_ui.kit.grids.points_editor import MAX_POINTS, current_points, editor_key
from attention_ui.kit.text.i18n import catalog
from tests.conftest import open_app_page

POINTS = "regression.points"


def send(at: AppTest, edits: object) -> None:
    at.session_state[editor_key(POINTS, at.session_state)] = edits
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def pasted(count: int) -> dict:
    rows = [{"x": float(i % 700) - 350.0, "y": float(i % 13)} for i in range(count)]
    return {"edited_rows": {}, "deleted_rows": [], "added_rows": rows}


@pytest.mark.parametrize("count", [1000, 5000])
def test_a_paste_of_thousands_of_rows_keeps_only_the_points_the_page_uses(count):
    at = open_app_page("regression")
    before = len(current_points(POINTS, at.session_state))
    send(at, pasted(count))
    kept = current_points(POINTS, at.session_state)
    assert len(kept) == MAX_POINTS
    assert kept[before] == (-350.0, 0.0)  # the first pasted row follows the table's rows
    # the editor holds no pasted row any more: later runs cost what the kept rows cost
    assert not at.session_state[editor_key(POINTS, at.session_state)].get("added_rows")
    said = catalog("en")["regression.check.cut"].format(count=before + count, limit=MAX_POINTS)
    assert said in [e.value for e in at.error]
    at.number_input(key="regression.sigma").set_value(0.5).run()
    assert not at.exception
    assert len(current_points(POINTS, at.session_state)) == MAX_POINTS
    assert at.query_params["xy"].count("~") == MAX_POINTS - 1


@pytest.mark.parametrize(
    "edits",
    [
        {"edited_rows": {0: {"zz": 1.0}}, "added_rows": [], "deleted_rows": []},
        {"edited_rows": {"0": {"x": 1.0, "w": 2.0}}, "added_rows": [], "deleted_rows": []},
        {"edited_rows": {}, "added_rows": [{"zz": 1.0}], "deleted_rows": []},
        {"edited_rows": {99: {"x": 1.0}}, "added_rows": [], "deleted_rows": []},
        {"edited_rows": {}, "added_rows": [], "deleted_rows": ["x"]},
        {"edited_rows": {0: {"x": "1" * 20_000}}, "added_rows": [], "deleted_rows": []},
        [1, 2],
    ],
    ids=repr,
)
def test_an_edit_the_table_cannot_hold_puts_it_back_on_that_run_and_later_ones(edits):
    at = open_app_page("regression")
    before = list(current_points(POINTS, at.session_state))
    send(at, edits)
    assert any("cannot hold" in w.value for w in at.warning), [w.value for w in at.warning]
    assert current_points(POINTS, at.session_state) == before
    for sigma in (0.5, 0.7):
        at.number_input(key="regression.sigma").set_value(sigma).run()
        assert not at.exception, [e.value for e in at.exception]
    assert current_points(POINTS, at.session_state) == before
