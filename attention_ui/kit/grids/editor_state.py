"""Whether what arrived as an `st.data_editor`'s state is an edit the grid can hold.

Whatever arrives as widget state is input: a crafted client can send a row "abc", a column
"zz", rows a fixed grid does not have, a list instead of the editor's dict, or ten megabytes of
text in one cell. Streamlit applies such a state before the app sees it and fails with an
exception; the editors check it first (`editor_state_ok`) and, when it is not sane, start the
grid afresh from the values the learner last saw and say so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

# Longer than any name or number a learner types (names are cut at 100 with a message), far
# shorter than the megabytes a crafted client could park in a session.
CELL_TEXT_LIMIT = 10_000
_INDEX = "_index"  # the row label Streamlit may add to an added row


def editor_state_ok(state: Any, rows: int, columns: Sequence[str], *, fixed: bool) -> bool:
    """True when `state` is None or an editor state whose every edit fits the grid.

    `rows` is the grid's row count, `columns` its column labels; `fixed` grids take no added
    or deleted rows.
    """
    if state is None:
        return True
    if not isinstance(state, dict):
        return False
    edited = state.get("edited_rows", {})
    added = state.get("added_rows", [])
    deleted = state.get("deleted_rows", [])
    if not (isinstance(edited, dict) and isinstance(added, list) and isinstance(deleted, list)):
        return False
    if fixed and (added or deleted):
        return False
    labels = set(columns)
    total = rows + len(added)
    for row, changes in edited.items():
        position = _position(row)
        if position is None or not 0 <= position < total or not isinstance(changes, dict):
            return False
        if not all(label in labels and _cell_ok(cell) for label, cell in changes.items()):
            return False
    for row in added:
        if not isinstance(row, dict) or not all(
            (label in labels or label == _INDEX) and _cell_ok(cell) for label, cell in row.items()
        ):
            return False
    return all(_position(row) is not None and 0 <= _position(row) < total for row in deleted)


def _position(row: Any) -> int | None:
    if isinstance(row, bool):
        return None
    if isinstance(row, int):
        return row
    if isinstance(row, str) and row.isdigit() and len(row) < 10:
        return int(row)
    return None


def _cell_ok(cell: Any) -> bool:
    if cell is None or isinstance(cell, bool | int | float):
        return True  # a number of any size gets the grid's own message
    return isinstance(cell, str) and len(cell) <= CELL_TEXT_LIMIT
