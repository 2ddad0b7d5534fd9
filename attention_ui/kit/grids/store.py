"""The one store behind every grid of the app: what each grid holds, and the edits it took.

Per grid (`state_key`, e.g. "luong.Q") ONE plain session entry, `<state_key>.grid`, a dict:

- `cells`: every cell kept, at the largest size the grid ever had, so that "−" then "+" on a
  size is an undo (numbers and ticks as floats, NaN for an empty cell; names as text);
- `shape`: the part shown; `rows`, `cols`, `names`, `kinds`, `limit`, `max_rows`, `numbered`:
  the grid as last drawn (`cell_grid` writes them before it draws; an edit that comes in a
  callback, before the page draws anything, is read against them);
- `seen`: per browser token, the number of the last edit entry applied (the browser re-sends
  entries until they are acknowledged; each is applied once);
- `rejected`: {"i,j": [text, reason]} for cells whose text the number parser refused (the cell
  keeps its value; the grid shows the text, marked); `pasted`: what a cut paste left out.

It is a plain key, so it survives runs of other pages (Streamlit forgets widget state there).
The browser's own state lives under the component's widget key, `<state_key>.cells`, and is
only ever read, never trusted: `apply_edit` takes whatever arrives and never raises.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import MutableMapping, Sequence
from typing import Any

import streamlit as st

from attention_core.formatting import fmt
from attention_ui.kit.grids.number_text import MAX_CHARS, NotANumberError, read_number

from .paste import cut_block, split_block

Session = MutableMapping[str, Any] | None
Cell = float | str
_GRID = ".grid"
WIDGET = ".cells"
TEXT_LIMIT = 10_000  # a name longer than this is cut here; the page's own check words it
MAX_ENTRIES = 200  # entries read from one browser state (it sends at most 100)
MAX_TOKENS = 8  # browser tokens remembered (a token is one mount of the grid)


def _state(session: Session) -> MutableMapping[str, Any]:
    return st.session_state if session is None else session


def widget_key(state_key: str) -> str:
    """The component's key: the browser's state for this grid."""
    return state_key + WIDGET


def record(state_key: str, session: Session = None) -> dict | None:
    return _state(session).get(state_key + _GRID)


def set_cells(state_key: str, cells: Sequence[Sequence[Cell]], session: Session = None) -> None:
    """Replace a grid's content (a preset, a random fill, a shared address): cells hidden by
    an earlier, larger size are forgotten, and so are refused texts."""
    settle(state_key, session)
    rows = [list(row) for row in cells]
    old = record(state_key, session) or {}
    _state(session)[state_key + _GRID] = {
        **old,
        "cells": rows,
        "shape": [len(rows), len(rows[0]) if rows else len(old.get("cols", []))],
        "rejected": {},
        "pasted": None,
        "seen": old.get("seen", {}),
    }


def forget(state_key: str, session: Session = None) -> None:
    """Forget the grid: the next draw starts from the page's default."""
    _state(session).pop(state_key + _GRID, None)


def visible(state_key: str, session: Session = None) -> list[list[Cell]] | None:
    """The cells as the learner last saw them (None before the grid was first set)."""
    grid = record(state_key, session)
    if grid is None:
        return None
    rows, cols = grid["shape"]
    return [list(row[:cols]) for row in grid["cells"][:rows]]


def fit(state_key: str, shape: tuple[int, int], fill: Cell, session: Session = None) -> None:
    """Show `shape` of the grid: cells hidden earlier come back, new ones are `fill`."""
    grid = record(state_key, session)
    rows, cols = shape
    if grid is None or list(grid["shape"]) == [rows, cols]:
        return
    settle(state_key, session)
    cells = grid["cells"]
    width = max(cols, max((len(row) for row in cells), default=0))
    cells = [row + [fill] * (width - len(row)) for row in cells]
    cells += [[fill] * width for _ in range(rows - len(cells))]
    grid.update(cells=cells, shape=[rows, cols], rejected={}, pasted=None)


def transpose(state_key: str, session: Session = None) -> None:
    """Transpose the grid, hidden cells included (a switch of layout)."""
    grid = record(state_key, session)
    if grid is None:
        return
    settle(state_key, session)
    cells = grid["cells"]
    width = max((len(row) for row in cells), default=0)
    cells = [[row[j] if j < len(row) else 0.0 for row in cells] for j in range(width)]
    rows, cols = grid["shape"]
    grid.update(
        cells=cells,
        shape=[cols, rows],
        rows=grid.get("cols", []),
        cols=grid.get("rows", []),
        rejected={},
        pasted=None,
    )


# --- Edits from the browser -----------------------------------------------------------------


def browser_state(state_key: str, session: Session = None) -> Any:
    """The component's `edit` value as the browser (or a crafted client) last sent it."""
    try:
        value = _state(session).get(widget_key(state_key))
    except Exception:  # a widget state Streamlit cannot read is no edit
        return None
    return value.get("edit") if isinstance(value, dict) else value


def settle(state_key: str, session: Session = None) -> None:
    """Before the server changes a grid (a preset, a resize, the layout switch): apply what the
    browser sent first, as the learner did it first (their commit left before their click)."""
    # Not an edit at all: the grid's draw says so.
    with contextlib.suppress(TypeError, ValueError, KeyError, IndexError, AttributeError):
        apply_edit(state_key, browser_state(state_key, session), session)


def apply_edit(state_key: str, state: Any, session: Session = None) -> tuple[bool, int]:
    """Apply the browser's not yet applied edit entries; (anything changed, entries refused).

    `state` is whatever arrived as the component's `edit` value, a crafted client's too: any
    type, any size. An entry that cannot be placed is counted and left out.
    """
    grid = record(state_key, session)
    if grid is None or state is None:
        return False, 0
    if not isinstance(state, dict):
        return False, 1
    token, entries = state.get("token"), state.get("entries")
    if not isinstance(token, str) or len(token) > 64 or not isinstance(entries, list):
        return False, 1
    seen = dict(grid.get("seen", {}))
    done = seen.get(token, 0)
    listed = entries[:MAX_ENTRIES]
    fresh = [e for e in listed if isinstance(e, dict) and _number_of(e) > done]
    refused = sum(1 for e in listed if not isinstance(e, dict) or _number_of(e) == 0)
    changed = False
    for entry in sorted(fresh, key=_number_of):
        placed, bad = _apply_entry(grid, entry)
        refused += bad
        changed = changed or placed
        done = _number_of(entry)
    seen.pop(token, None)
    seen[token] = done
    grid["seen"] = dict(list(seen.items())[-MAX_TOKENS:])
    return changed, refused


def acknowledged(state_key: str, state: Any) -> dict:
    """What the browser may stop re-sending: the last entry applied for its token."""
    grid = record(state_key) or {}
    token = state.get("token") if isinstance(state, dict) else None
    if not isinstance(token, str):
        return {}
    return {"token": token, "n": grid.get("seen", {}).get(token, 0)}


def _number_of(entry: dict) -> int:
    n = entry.get("n")
    return n if isinstance(n, int) and not isinstance(n, bool) and 0 < n < 2**53 else 0


def _apply_entry(grid: dict, entry: dict) -> tuple[bool, int]:
    """(anything changed, cells or actions refused): a refusal is what no browser drawing this
    grid could send (a row it does not have, a row deleted from a grid of fixed size)."""
    if entry.get("add_row") is True:
        return _add_row(grid), 0 if grid.get("max_rows") else 1
    if "delete_row" in entry:
        done = _delete_row(grid, entry.get("delete_row"))
        return done, 0 if done else 1
    if isinstance(entry.get("paste"), str):
        done = _paste(grid, entry)
        return done, 0 if done else 1
    cells = entry.get("cells")
    if not isinstance(cells, list) or not cells:
        return False, 1
    placed, refused = False, 0
    for cell in cells[:MAX_ENTRIES]:
        where = (
            _locate(grid, entry, *cell[:2]) if isinstance(cell, list) and len(cell) == 3 else None
        )
        if where is None:
            refused += 0 if _late(grid, entry) else 1
            continue
        _set_cell(grid, *where, cell[2])
        placed = True
    if placed:
        grid["pasted"] = None
    return placed, refused


def _late(grid: dict, entry: dict) -> bool:
    """An entry for a grid drawn with other labels (before a resize or the layout switch): a
    cell it names that is gone now is the learner's, not a crafted one."""
    rows, cols = entry.get("rows"), entry.get("cols")
    return (
        isinstance(rows, list)
        and isinstance(cols, list)
        and (rows != grid.get("rows") or cols != grid.get("cols"))
    )


def _locate(grid: dict, entry: dict, i: Any, j: Any) -> tuple[int, int] | None:
    """Where the browser's cell (i, j) is now: by position when the browser drew the grid as
    it is, else by its row and column labels, either way round (the layout switch)."""
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in (i, j)):
        return None
    rows, cols = grid.get("rows", []), grid.get("cols", [])
    height, width = grid["shape"]
    seen_rows, seen_cols = entry.get("rows"), entry.get("cols")
    if not isinstance(seen_rows, list) or not isinstance(seen_cols, list):
        seen_rows, seen_cols = rows, cols  # no labels: the grid as it is
    if seen_rows == rows and seen_cols == cols:
        return (i, j) if 0 <= i < height and 0 <= j < width else None
    if not (0 <= i < len(seen_rows) and 0 <= j < len(seen_cols)):
        return None
    row, col = seen_rows[i], seen_cols[j]
    for r, c in ((row, col), (col, row)):
        if r in rows and c in cols:
            return rows.index(r), cols.index(c)
    return None


def _set_cell(grid: dict, i: int, j: int, typed: Any) -> None:
    """One cell from what was typed: the number parser (or the text rule) decides."""
    kinds = grid.get("kinds") or []
    kind = kinds[j] if j < len(kinds) else "number"
    rejected = grid.setdefault("rejected", {})
    rejected.pop(f"{i},{j}", None)
    if kind == "text":
        grid["cells"][i][j] = _text(typed)
    elif kind == "check":
        grid["cells"][i][j] = 1.0 if typed in (True, 1, "1", "true") else 0.0
    else:
        try:
            number = _number(typed)
        except NotANumberError as error:
            rejected[f"{i},{j}"] = [_text(typed)[: MAX_CHARS * 4], error.reason]
            return
        limit = grid.get("limit", math.inf)
        if math.isnan(number) or abs(number) <= limit:
            grid["cells"][i][j] = number
        else:
            rejected[f"{i},{j}"] = [fmt(number, 10), "range"]  # all the digits typed


def _number(typed: Any) -> float:
    if typed is None:
        return math.nan
    if isinstance(typed, bool | int | float):
        return float(typed)
    if not isinstance(typed, str):
        raise NotANumberError(str(type(typed).__name__), "text")
    return read_number(typed)


def _text(typed: Any) -> str:
    if typed is None:
        return ""
    if isinstance(typed, str):
        return typed[:TEXT_LIMIT]
    if isinstance(typed, bool | int | float):
        return str(typed)
    return ""


def blank_row(kinds: Sequence[str]) -> list[Cell]:
    return ["" if kind == "text" else math.nan for kind in kinds]


def _add_row(grid: dict) -> bool:
    height, width = grid["shape"]
    if height >= grid.get("max_rows", 0):
        return False
    kinds = grid.get("kinds") or ["number"] * width
    del grid["cells"][height:]  # rows hidden below a table's end do not come back
    grid["cells"].append(blank_row(kinds))
    grid["shape"] = [height + 1, width]
    grid["rejected"] = {}
    _number_rows(grid)
    return True


def _delete_row(grid: dict, row: Any) -> bool:
    height, width = grid["shape"]
    if not grid.get("max_rows") or not isinstance(row, int) or not 0 <= row < height:
        return False
    del grid["cells"][row]
    grid["shape"] = [height - 1, width]
    grid["rejected"] = {}
    _number_rows(grid)
    return True


def _number_rows(grid: dict) -> None:
    """A table whose rows the learner adds and deletes numbers them 1, 2, … (the labels the
    browser's next entries carry)."""
    if grid.get("numbered"):
        grid["rows"] = [str(i) for i in range(1, grid["shape"][0] + 1)]


def _paste(grid: dict, entry: dict) -> bool:
    """A spreadsheet block from the cell it was pasted into; a table that can grow grows up
    to its row limit; what still does not fit is left out and said."""
    at = entry.get("at")
    if not (isinstance(at, list) and len(at) == 2):
        return False
    where = _locate(grid, entry, at[0], at[1])
    if where is None:
        return False
    block = split_block(entry["paste"])
    height, width = grid["shape"]
    room = max(height, min(grid.get("max_rows", 0), where[0] + len(block)))
    while grid["shape"][0] < room:
        _add_row(grid)
    cut = cut_block(block, where, (room, width))
    for di, line in enumerate(cut.cells):
        for dj, typed in enumerate(line):
            _set_cell(grid, where[0] + di, where[1] + dj, typed)
    grid["pasted"] = (
        {"at": list(where), "rows": cut.rows_left, "cols": cut.cols_left} if cut.cut else None
    )
    return True
