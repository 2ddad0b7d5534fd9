"""An edit of a grid sends what it changes: the grid, S, A and O, the story and the tasks'
verdicts, not the switch, the results' heading, columns, table expanders and weight sums, the
export or the solved list, which the whole run draws (luong/fragments.lay_out). Checked on a
served page through bench/load.py's Session, as a browser's edit of Q's first cell."""

from __future__ import annotations

import asyncio
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from bench.load import Session, cell_value, luong_target
from tests.app_server import start_app, stop_app

# What an edit may send, by element or block kind: the grid (a component in its own
# container), the charts, the story and the verdicts (alerts), and the containers that hold
# what a fragment writes (its own, one wrapper per place of the whole run it writes into).
SENT = {"bidi_component", "alert", "flex_container", "transparent"}


async def edit_deltas(url: str) -> Counter:
    """The kinds of the deltas that the second of two edits of Q's first cell sends."""
    session = Session(luong_target(url, ()))
    run = await session.open()
    sent: list[bytes] = []
    receive = session.socket.recv

    async def recorded(*args, **kwargs):
        data = await receive(*args, **kwargs)
        sent.append(data)
        return data

    session.socket.recv = recorded
    try:
        for number in range(2):
            sent.clear()
            run = await session.edit(cell_value(1, number), run)
        assert not session.errors, session.errors
    finally:
        await session.close()
    kinds = Counter()
    for data in sent:
        message = ForwardMsg()
        message.ParseFromString(data)
        if message.WhichOneof("type") != "delta":
            continue
        delta = message.delta
        if delta.WhichOneof("type") == "new_element":
            kinds[delta.new_element.WhichOneof("type")] += 1
        elif delta.WhichOneof("type") == "add_block":
            kinds[delta.add_block.WhichOneof("type")] += 1
    return kinds


def test_an_edit_sends_only_what_it_changes():
    process, url = start_app()
    try:
        # in a thread of its own: a browser test in the same worker may hold a running loop
        with ThreadPoolExecutor(1) as pool:
            kinds = pool.submit(asyncio.run, edit_deltas(url)).result()
    finally:
        stop_app(process)
    assert kinds["bidi_component"] == 1 + 3  # Q's grid; S, A and O (kit.figures.live_chart)
    # main before this change also sent the switch (checkbox), the heading, the columns, the
    # tables' and the export's expanders, the sums (markdown) and the solved list (empty)
    assert set(kinds) <= SENT, kinds
