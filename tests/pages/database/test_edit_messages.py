"""An edit of the query sends what it changes: the answers (the tab, the notes, the two charts,
the pooled number, top-k), the export's fold and the tasks' verdicts, not the frame, the story,
the formula, the table, the query box and the controls, the lessons or the task panel, which
the page's whole run draws (pages/database.py). Checked on a served page through bench/load.py's
Session, as a browser sends the query box's new value."""

from __future__ import annotations

from collections import Counter

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

from bench.load import Session, Target
from tests.support.deltas import delta_kinds, delta_parts, on_served_app, record_received

# What a query edit may send, by element or block kind: the answers' fragment's own container,
# its tab, notes, charts (kit.figures.live_chart), columns, folds, pooled number and top-k
# lines, and the tasks' verdicts (alerts, written into the whole run's placeholders, each in
# the wrapper Streamlit puts around what a fragment writes outside its own container).
SENT = {
    "flex_container",
    "transparent",
    "tab_container",
    "tab",
    "alert",
    "bidi_component",
    "expandable",
    "column",
    "markdown",
    "metric",
}


async def edit_deltas(url: str) -> tuple[Counter, list]:
    """What the second of two query edits sends."""
    session = Session(Target("database", url, "database", "database.records"))
    await session.open()
    received = record_received(session)
    try:
        await session.rerun()  # a whole run, recorded: the query box's widget id
        box = fragment = None
        for data in received:
            message = ForwardMsg()
            message.ParseFromString(data)
            if message.WhichOneof("type") == "delta" and message.delta.HasField("new_element"):
                element = message.delta.new_element
                if element.HasField("text_input") and "database.query" in element.text_input.id:
                    box, fragment = element.text_input.id, message.delta.fragment_id
        assert box is not None, "no query box on the page"
        for query in ("Smola", "Zhang"):
            received.clear()
            session.widgets[box] = WidgetState(id=box, string_value=query)
            await session.rerun(fragment=fragment)  # as the browser: the box's own fragment
        assert not session.errors, session.errors
    finally:
        await session.close()
    kinds = delta_kinds(received)
    tab_containers = [part for kind, part in delta_parts(received) if kind == "tab_container"]
    return kinds, tab_containers


def test_a_query_edit_sends_only_what_it_changes(app_server):
    kinds, tab_containers = on_served_app(edit_deltas, app_server)
    assert kinds["bidi_component"] == 2, kinds  # the weights and first names' charts only
    # main before this change sent the whole page again: the menu's links, the story's
    # buttons, the heading, the table's editor and presets, the query box, the controls, the
    # switch, the lessons and the task panel
    assert set(kinds) <= SENT, kinds
    # one query's tab has no id: a keyed st.tabs is told by its labels, and each new query
    # made it (and its charts) a new element in the browser instead of redrawn in place
    assert [container.id for container in tab_containers] == [""]
