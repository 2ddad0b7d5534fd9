"""An edit of a grid sends what it changes: the grid, S, A and O (each with its table's fold,
and A with its weight sums), the tasks' verdicts, and the story only when it changes; not the
settings, the switch, the other grids, the headings, the columns, the closed export, the tabs
or the solved list, which no edit changes (luong/fragments.after_edit names the parts). Checked
on a served page through bench/load.py's Session, as a browser's edit of Q's first cell."""

from __future__ import annotations

from collections import Counter

from bench.load import Session, cell_value, luong_target
from tests.support.deltas import delta_kinds, on_served_app, record_received

# What an edit may send, by element or block kind: the grid and the charts (components), each
# chart's table fold (expandable), A's weight sums (markdown), the verdicts (alerts), and the
# containers: each fragment's own, and a wrapper per place of the task panel it writes into.
SENT = {"bidi_component", "alert", "flex_container", "transparent", "expandable", "markdown"}


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
    assert kinds["expandable"] == 3 and kinds["markdown"] == 1  # the folds, A's sums
    assert kinds["alert"] == 2  # the two verdicts: the story still holds and is not sent again
    # 1 + 3 fragment containers (Q's grid; S, A, O), the verdicts' own and its two places
    assert kinds["flex_container"] + kinds["transparent"] == 1 + 3 + 1 + 2
    assert set(kinds) <= SENT, kinds
