"""Driving the app's grid editor from AppTest as its browser half would.

The browser sends each commit as an entry of the component's `edit` state (see
static/cell_grid.js); AppTest calls no `on_edit_change`, so the page reads the
state from the component's result. These helpers write such states.
"""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
from streamlit.testing.v1 import AppTest

from attention_ui.kit.grids import store

TOKEN = "apptest"
COMPONENT = "attention_cell_grid"


def send_entry(at: AppTest, state_key: str, entry: dict) -> None:
    """Send one edit entry after those the server has not applied yet, numbered as the
    browser numbers them (entries stay in the state until the server acknowledges them)."""
    grid = store.record(state_key, at.session_state) or {}
    done = grid.get("seen", {}).get(TOKEN, 0)
    key = store.widget_key(state_key)
    try:
        sent = at.session_state[key]["edit"]
    except (KeyError, TypeError):
        sent = None
    waiting = []
    if isinstance(sent, dict) and sent.get("token") == TOKEN:
        waiting = [e for e in sent.get("entries", []) if e.get("n", 0) > done]
    n = max([done, *(e["n"] for e in waiting)]) + 1
    full = {"n": n, "rows": grid.get("rows", []), "cols": grid.get("cols", []), **entry}
    at.session_state[key] = {"edit": {"token": TOKEN, "n": n, "entries": [*waiting, full]}}


def type_cell(at: AppTest, state_key: str, row: int, column: str, text: Any) -> None:
    """Type into one cell (row position, column label) and commit it."""
    edit_grid(at, state_key, {row: {column: text}})


def edit_grid(at: AppTest, state_key: str, changes: dict[int, dict[str, Any]]) -> None:
    """Type into cells, given as {row position: {column label: what is typed}}: one entry, as
    a paste or a quick run of commits would arrive."""
    cells = [
        [int(row), column_index(at, state_key, col), text]
        for row, line in changes.items()
        for col, text in line.items()
    ]
    send_entry(at, state_key, {"cells": cells})


def grid_columns(at: AppTest, state_key: str) -> list[str]:
    """The column labels of the grid as last drawn (none if it is not on the page)."""
    return list((store.record(state_key, at.session_state) or {}).get("cols", []))


def column_index(at: AppTest, state_key: str, column: str) -> int:
    """A column by its header label or its own name ("key" for "Surname (key)")."""
    grid = store.record(state_key, at.session_state) or {}
    cols, names = grid.get("cols", []), grid.get("names", [])
    return cols.index(column) if column in cols else names.index(column)


def table_edit(
    at: AppTest,
    state_key: str,
    edited: dict | None = None,
    added: list[dict] | None = None,
    deleted: list[int] | None = None,
) -> None:
    """Edit a table whose rows can be added and deleted: cells first ({row: {column: text}}),
    then the deleted rows, then rows added at the end ({column: text} each)."""
    if edited:
        edit_grid(at, state_key, edited)
    for row in sorted(deleted or [], reverse=True):
        delete_row(at, state_key, row)
    height = len(store.visible(state_key, at.session_state) or []) - len(deleted or [])
    for offset, cells in enumerate(added or []):
        add_row(at, state_key)
        if cells:
            # the browser then draws the new row: its entries carry the longer row labels
            rows = [str(i) for i in range(1, height + offset + 2)]
            line = [[height + offset, column_index(at, state_key, c), v] for c, v in cells.items()]
            send_entry(at, state_key, {"cells": line, "rows": rows})


def paste_block(
    at: AppTest, state_key: str, at_cell: tuple[int, int], text: str, rows: int | None = None
) -> None:
    """Paste `text` into a cell; `rows`: how many rows the browser drew (after rows it added
    in the same run), if not as the server last drew them."""
    entry: dict[str, Any] = {"paste": text, "at": list(at_cell)}
    if rows is not None:
        entry["rows"] = [str(i) for i in range(1, rows + 1)]
    send_entry(at, state_key, entry)


def add_row(at: AppTest, state_key: str) -> None:
    send_entry(at, state_key, {"add_row": True})


def delete_row(at: AppTest, state_key: str, row: int) -> None:
    send_entry(at, state_key, {"delete_row": row})


def crafted_state(at: AppTest, state_key: str, value: Any) -> None:
    """Put anything at all where the browser's state goes."""
    at.session_state[store.widget_key(state_key)] = value


def shown_grids(at: AppTest) -> list[pd.DataFrame]:
    """Every grid editor on the page, as what its cells show (text), rows and columns
    labelled as the page labels them; `.attrs["name"]` is the grid's accessible name."""
    frames = []
    for element in at.get("bidi_component"):
        if element.proto.component_name != COMPONENT:
            continue
        data = json.loads(element.proto.json)
        frame = pd.DataFrame(
            data["cells"], index=data["rows"], columns=[col["label"] for col in data["cols"]]
        )
        frame.attrs["name"] = data["name"]
        frame.attrs["data"] = data
        frames.append(frame)
    return frames
