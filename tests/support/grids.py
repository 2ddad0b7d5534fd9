"""Driving the app's grid editor from AppTest as its browser half would.

The browser sends each commit as an entry of the component's `edit` state (see
attention_ui/kit/grids/cell_grid.js); AppTest calls no `on_edit_change`, so the page reads the
state from the component's result. These helpers write such states.
"""

from __future__ import annotations

from typing import Any

from streamlit.testing.v1 import AppTest

from attention_ui.kit.grids import store

TOKEN = "apptest"


def send_entry(at: AppTest, state_key: str, entry: dict) -> None:
    """Send one edit entry (numbered after the last one the server applied)."""
    grid = store.record(state_key, at.session_state) or {}
    n = grid.get("seen", {}).get(TOKEN, 0) + 1
    full = {"n": n, "rows": grid.get("rows", []), "cols": grid.get("cols", []), **entry}
    at.session_state[store.widget_key(state_key)] = {
        "edit": {"token": TOKEN, "n": n, "entries": [full]}
    }


def edit_grid(at: AppTest, state_key: str, changes: dict[int, dict[str, Any]]) -> None:
    """Type into cells, given as {row position: {column label: what is typed}}: one entry, as
    a paste or a quick run of commits would arrive."""
    cols = (store.record(state_key, at.session_state) or {}).get("cols", [])
    cells = [
        [int(row), cols.index(col), text]
        for row, line in changes.items()
        for col, text in line.items()
    ]
    send_entry(at, state_key, {"cells": cells})


def paste_block(at: AppTest, state_key: str, at_cell: tuple[int, int], text: str) -> None:
    send_entry(at, state_key, {"paste": text, "at": list(at_cell)})


def add_row(at: AppTest, state_key: str) -> None:
    send_entry(at, state_key, {"add_row": True})


def delete_row(at: AppTest, state_key: str, row: int) -> None:
    send_entry(at, state_key, {"delete_row": row})


def crafted_state(at: AppTest, state_key: str, value: Any) -> None:
    """Put anything at all where the browser's state goes."""
    at.session_state[store.widget_key(state_key)] = value
