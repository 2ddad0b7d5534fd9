"""The training data (x, y) as an editable table whose rows the learner adds and deletes.

Everything is checked here, on the server (the browser's own limits are not enforced): a blank
row is skipped, a row with one empty cell, a cell that is not a number or is outside ±LIMIT is
reported by its row and column and left out, more than MAX_POINTS rows are cut. Repeated x are
allowed: the points then share their position's weight.

State (`state_key`): `.base` the rows the app last set (a preset), `.version` part of the
editor's widget key (a new key makes the editor forget old edits), and the rows as the
learner last left them, kept with `page_state.keep(state_key, ...)` so that the table survives
a visit to another page.
"""

from __future__ import annotations

import math
from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import fmt
from attention_ui.kit.grids.editor_state import editor_state_ok
from attention_ui.kit.grids.table_limits import added_count, cut_rows, rows_after_edits
from attention_ui.kit.state import page_state
from attention_ui.kit.text.i18n import current_language, t

LIMIT = 1000.0
MAX_POINTS = 50
COLUMNS = ("x", "y")
Point = tuple[float | None, float | None]


@dataclass
class PointsInput:
    """The usable points, the table row of each, and one message per problem."""

    x: np.ndarray
    y: np.ndarray
    rows: list[int]
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.x.size > 0


def _state(session: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
    return st.session_state if session is None else session


def set_points(
    state_key: str,
    x: Sequence[float],
    y: Sequence[float],
    session: MutableMapping[str, Any] | None = None,
) -> None:
    """Replace the table's content (a preset): the editor starts afresh."""
    set_rows(state_key, [(float(a), float(b)) for a, b in zip(x, y, strict=True)], session)


def set_rows(
    state_key: str, rows: Sequence[Point], session: MutableMapping[str, Any] | None = None
) -> None:
    state = _state(session)
    rows = [tuple(row) for row in rows]
    state[f"{state_key}.base"] = rows
    page_state.keep(state_key, rows, state)
    state[f"{state_key}.version"] = state.get(f"{state_key}.version", 0) + 1


def editor_key(state_key: str, session: MutableMapping[str, Any] | None = None) -> str:
    return f"{state_key}.editor.{_state(session).get(f'{state_key}.version', 0)}"


def current_points(
    state_key: str, session: MutableMapping[str, Any] | None = None
) -> list[Point] | None:
    """The rows as the learner last left them (None before the table was first drawn)."""
    return page_state.kept(state_key, None, session)


def points_editor(state_key: str, default: tuple[np.ndarray, np.ndarray]) -> PointsInput:
    """Draw the table and return its checked content."""
    state = st.session_state
    if f"{state_key}.base" not in state:
        set_points(state_key, *default)
    else:
        # Back from another page (or after a language switch, which relabels the columns)
        # the editor has forgotten its edits: the kept rows become the new content.
        forgotten = (
            editor_key(state_key) not in state
            or state.get(f"{state_key}.lang") != current_language()
        )
        current = current_points(state_key)
        if forgotten and current is not None and current != state[f"{state_key}.base"]:
            set_rows(state_key, current)
    state[f"{state_key}.lang"] = current_language()
    _check_what_arrived(state_key)
    base = state[f"{state_key}.base"]
    frame = pd.DataFrame(
        [list(row) for row in base] or None,
        columns=list(COLUMNS),
        index=pd.RangeIndex(1, len(base) + 1),
        dtype=float,
    )
    config = {
        name: st.column_config.NumberColumn(
            t(f"regression.table.{name}"),
            help=t(f"regression.table.{name}_help"),
            format="%g",
            width="medium",
        )
        for name in COLUMNS
    }
    try:
        edited = st.data_editor(
            frame,
            key=editor_key(state_key),
            num_rows="dynamic",
            column_config=config,
            hide_index=False,
        )
    except IndexError:
        # Only a crafted client edits a row the table does not have: start afresh from the
        # rows as they were last seen.
        set_rows(state_key, current_points(state_key) or [])
        st.rerun()
    rows = [(_number(a), _number(b)) for a, b in edited[list(COLUMNS)].itertuples(index=False)]
    page_state.keep(state_key, rows)
    labels = [_label(index, position) for position, index in enumerate(edited.index, start=1)]
    checked = check_points(rows, labels)
    cut = state.get(f"{state_key}.cut")
    if cut and cut[0] == state[f"{state_key}.version"]:
        checked.problems.insert(0, t("regression.check.cut", count=cut[1], limit=MAX_POINTS))
    return checked


def _check_what_arrived(state_key: str) -> None:
    """Before the table is drawn, what the browser sent: an edit the table cannot hold (a
    column or row it does not have: only a crafted client sends one) puts the table back as
    last seen; a paste of more rows than it keeps becomes a table of the first MAX_POINTS,
    so that no run pays for the rest (Streamlit would re-apply every pasted row each run)."""
    state = st.session_state
    try:
        edits = state.get(editor_key(state_key))
    except Exception:  # a state Streamlit cannot even read is not an edit
        edits = "unreadable"
    base = state[f"{state_key}.base"]
    if not editor_state_ok(edits, len(base), COLUMNS, fixed=False):
        set_rows(state_key, current_points(state_key) or [])
        st.warning(t("editor.crafted_state", matrix=t("regression.data.title")), icon="⚠️")
        return
    if added_count(edits) <= MAX_POINTS:
        return
    rows = rows_after_edits(base, edits, COLUMNS)
    kept, total = cut_rows(rows, MAX_POINTS, lambda row: _blank(row[0]) and _blank(row[1]))
    set_rows(state_key, [(_number(a), _number(b)) for a, b in kept])
    state[f"{state_key}.cut"] = (state[f"{state_key}.version"], total)


def check_points(rows: Sequence[Sequence[Any]], labels: Sequence[int] | None = None) -> PointsInput:
    """Table rows → training points, with a message (naming row and column) per problem."""
    labels = list(labels) if labels is not None else list(range(1, len(rows) + 1))
    xs: list[float] = []
    ys: list[float] = []
    kept_rows: list[int] = []
    problems: list[str] = []
    for row, (x_cell, y_cell) in zip(labels, rows, strict=True):
        x, y = _number(x_cell), _number(y_cell)
        if x is None and y is None and _blank(x_cell) and _blank(y_cell):
            continue  # a row just added: nothing in it yet
        if len(xs) >= MAX_POINTS:
            problems.append(t("regression.check.too_many", limit=MAX_POINTS, row=row))
            break
        bad = False
        for column, cell, value in (("x", x_cell, x), ("y", y_cell, y)):
            if value is None:
                key = "regression.check.empty" if _blank(cell) else "regression.check.not_number"
                problems.append(t(key, row=row, column=column))
                bad = True
            elif not math.isfinite(value) or abs(value) > LIMIT:
                problems.append(
                    t(
                        "regression.check.range",
                        row=row,
                        column=column,
                        value=fmt(value, 10),
                        limit=fmt(LIMIT),
                    )
                )
                bad = True
        if bad:
            continue
        xs.append(x)
        ys.append(y)
        kept_rows.append(row)
    return PointsInput(np.array(xs), np.array(ys), kept_rows, problems)


def _blank(cell: Any) -> bool:
    return (
        cell is None
        or (isinstance(cell, float) and math.isnan(cell))
        or (isinstance(cell, str) and not cell.strip())
    )


def _number(cell: Any) -> float | None:
    """A cell as a float; None for a blank or unreadable cell (NaN is what the grid sends)."""
    if cell is None or isinstance(cell, bool):
        return None
    try:
        number = float(str(cell).replace("−", "-")) if isinstance(cell, str) else float(cell)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(number) else number


def _label(index: Any, position: int) -> int:
    try:
        return int(index)
    except (TypeError, ValueError):
        return position
