"""An edit of a grid sends what it changes: the grid, S, A and O, the story and the tasks'
verdicts, not the switch, the results' heading, columns, table expanders and weight sums, the
export or the solved list, which the whole run draws (luong/fragments.lay_out). Checked on a
served page through bench/load.py's Session, as a browser's edit of Q's first cell."""

from __future__ import annotations

from collections import Counter

from bench.load import Session, cell_value, luong_target
from tests.support.deltas import delta_kinds, on_served_app, record_received

# What an edit may send, by element or block kind: the grid (a component in its own
# container), the charts, the story and the verdicts (alerts), and the containers that hold
# what a fragment writes (its own, one wrapper per place of the whole run it writes into).
SENT = {"bidi_component", "alert", "flex_container", "transparent"}


async def edit_deltas(url: str) -> Counter:
    """The kinds of the deltas that the second of two edits of Q's first cell sends."""
    session = Session(luong_target(url, ()))
    run = await session.open()
    sent = record_received(session)
    try:
        for number in range(2):
            sent.clear()
            run = await session.edit(cell_value(1, number), run)
        assert not session.errors, session.errors
    finally:
        await session.close()
    return delta_kinds(sent)


def test_an_edit_sends_only_what_it_changes(app_server):
    kinds = on_served_app(edit_deltas, app_server)
    assert kinds["bidi_component"] == 1 + 3  # Q's grid; S, A and O (kit.figures.live_chart)
    # main before this change also sent the switch (checkbox), the heading, the columns, the
    # tables' and the export's expanders, the sums (markdown) and the solved list (empty)
    assert set(kinds) <= SENT, kinds
