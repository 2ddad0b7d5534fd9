"""How much of a table edit a table keeps: the cut made where an editor receives the edit.

A paste of thousands of rows arrives in one edit. A table that draws, stores and writes to the
address every row it was sent pays for all of them on every later run, although it uses only
its first few: the editor cuts the rows here, before anything else sees them, and the page says
how many it left out. Pure: the grid stores of today (`records_editor`, `points_editor`) and
any other editor call the same functions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

Row = TypeVar("Row")


def cut_rows(
    rows: Sequence[Row], limit: int, blank: Callable[[Row], bool]
) -> tuple[list[Row], int]:
    """(the first `limit` rows that are not blank, how many rows were not blank). A count
    above `limit` means the rest was left out, and the page says so."""
    filled = [row for row in rows if not blank(row)]
    return filled[:limit], len(filled)


def rows_after_edits(
    base: Sequence[Sequence[Any]], edits: Mapping[str, Any], columns: Sequence[str]
) -> list[list[Any]]:
    """A table's rows once an `st.data_editor` state is applied as Streamlit applies it:
    cells edited by row position, rows deleted by position, then the added rows. A position
    the table does not have, a column it does not have, an entry of the wrong kind: ignored."""
    rows = [list(row) for row in base]
    edited = edits.get("edited_rows")
    for position, changes in edited.items() if isinstance(edited, dict) else ():
        index = _index(position)
        if index is None or not 0 <= index < len(rows) or not isinstance(changes, dict):
            continue
        for column, cell in changes.items():
            if column in columns:
                rows[index][list(columns).index(column)] = cell
    deleted = edits.get("deleted_rows")
    gone = {_index(d) for d in deleted} if isinstance(deleted, list) else set()
    kept = [row for i, row in enumerate(rows) if i not in gone]
    added = edits.get("added_rows")
    new = [
        [cells.get(column) for column in columns]
        for cells in (added if isinstance(added, list) else ())
        if isinstance(cells, dict)
    ]
    return kept + new


def added_count(edits: Any) -> int:
    """How many rows an editor state adds (0 for anything that is not an editor state)."""
    added = edits.get("added_rows") if isinstance(edits, dict) else None
    return len(added) if isinstance(added, list) else 0


def _index(position: Any) -> int | None:
    if isinstance(position, bool):
        return None
    if isinstance(position, int):
        return position
    if isinstance(position, str) and position.isdigit() and len(position) < 10:
        return int(position)
    return None
