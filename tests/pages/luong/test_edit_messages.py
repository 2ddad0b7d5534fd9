"""An edit of a grid sends what it changes: the grid, S, A and O (A with its weight sums), the
tasks' verdicts, the story only when it changes and an open fold's table of numbers; not the
settings, the switch, the other grids, the headings, the columns, the charts' folds, the closed
export, the tabs or the solved list, which no edit changes (luong/fragments.after_edit names the
parts). Checked on a served page through bench/load.py's Session, as a browser's edit of Q's
first cell."""

from __future__ import annotations

from collections import Counter

from streamlit.proto.WidgetStates_pb2 import WidgetState

from bench.load import Session, cell_value, luong_target
from tests.support.deltas import delta_kinds, delta_parts, on_served_app, record_received

# What an edit may send, by element or block kind: the grid and the charts (components), A's
# weight sums (markdown), the verdicts (alerts), and the containers: each fragment's own, and a
# wrapper per place of the task panel it writes into.
SENT = {"bidi_component", "alert", "flex_container", "transparent", "markdown"}


async def edit_deltas(url: str) -> list[Counter]:
    """The kinds of the deltas that each of three edits of Q's first cell sends: −0.13 (the
    first example's story no longer holds), 1.37 (it holds again), 2.87 (it still holds)."""
    session = Session(luong_target(url, ()))
    run = await session.open()
    sent = record_received(session)
    kinds = []
    try:
        for number in range(3):
            sent.clear()
            run = await session.edit(cell_value(1, number), run)
            kinds.append(delta_kinds(sent))
        assert not session.errors, session.errors
    finally:
        await session.close()
    return kinds


def test_an_edit_sends_only_what_it_changes(app_server):
    _, story_changed, kinds = on_served_app(edit_deltas, app_server)
    assert story_changed["alert"] == 3  # the story, which holds again, and the two verdicts
    assert kinds["bidi_component"] == 1 + 3  # Q's grid; S, A and O (kit.figures.live_chart)
    assert kinds["markdown"] == 1  # A's sums; the charts' folds are not sent again
    assert kinds["alert"] == 2  # the two verdicts: the story still holds and is not sent again
    # 1 + 3 fragment containers (Q's grid; S, A, O), the verdicts' own and its two places
    assert kinds["flex_container"] + kinds["transparent"] == 1 + 3 + 1 + 2
    assert set(kinds) <= SENT, kinds


async def open_table_edit(url: str) -> tuple[list, list]:
    """A's numbers' fold opened (a run of the whole page), then an edit of Q's first cell to
    1.37: the tables that run sent, then the parts the edit sent, with their protos."""
    session = Session(luong_target(url, ()))
    run = await session.open()
    sent = record_received(session)
    try:
        run = await session.rerun()
        fold = next(
            part.id
            for kind, part in delta_parts(sent)
            if kind == "expandable" and part.id.endswith("-luong.chart.A.numbers")
        )
        sent.clear()
        session.widgets[fold] = WidgetState(id=fold, bool_value=True)
        run = await session.rerun()
        opened = [part for kind, part in delta_parts(sent) if kind == "dataframe"]
        sent.clear()
        await session.edit(cell_value(1, 1), run)
        edited = list(delta_parts(sent))
        assert not session.errors, session.errors
    finally:
        await session.close()
    return opened, edited


def test_an_edit_with_a_fold_open_sends_its_table_anew_and_no_fold(app_server):
    opened, edited = on_served_app(open_table_edit, app_server)
    assert len(opened) == 1  # A's table, built once its fold opened
    tables = [part for kind, part in edited if kind == "dataframe"]
    assert (
        len(tables) == 1 and tables[0].arrow_data.data != opened[0].arrow_data.data
    )  # the new weights
    assert not [kind for kind, _ in edited if kind == "expandable"]
