"""The training data (x, y) as an editable table whose rows the learner adds and deletes.

Everything is checked here, on the server (the browser's own limits are not enforced): a blank
row is skipped, a row with one empty cell, a cell that is not a number or is outside ±LIMIT is
reported by its row and column and left out, more than MAX_POINTS rows are cut. Repeated x are
allowed: the points then share their position's weight.

The table is a grid of the app's one editor (`kit.grids.cell_grid`), kept in its one store,
which survives a visit to another page; others call `current_points` / `set_points`.
"""

from __future__ import annotations

import math
from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from attention_core.formatting import fmt
from attention_ui.kit.grids import store
from attention_ui.kit.grids.cell_grid import GridSpec, cell_grid
from attention_ui.kit.grids.number_text import read_number
from attention_ui.kit.text.i18n import t

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


def set_points(
    state_key: str,
    x: Sequence[float],
    y: Sequence[float],
    session: MutableMapping[str, Any] | None = None,
) -> None:
    """Replace the table's content (a preset)."""
    set_rows(state_key, [(float(a), float(b)) for a, b in zip(x, y, strict=True)], session)


def set_rows(
    state_key: str, rows: Sequence[Point], session: MutableMapping[str, Any] | None = None
) -> None:
    store.set_cells(state_key, [[_cell(a), _cell(b)] for a, b in rows], session)


def current_points(
    state_key: str, session: MutableMapping[str, Any] | None = None
) -> list[Point] | None:
    """The rows as the learner last left them (None before the table was first drawn)."""
    cells = store.visible(state_key, session)
    return None if cells is None else [(_number(a), _number(b)) for a, b in cells]


def points_editor(state_key: str, default: tuple[np.ndarray, np.ndarray]) -> PointsInput:
    """Draw the table and return its checked content."""
    spec = GridSpec(
        name=t("regression.table.grid"),
        state_key=state_key,
        rows=None,
        cols=[t(f"regression.table.{name}") for name in COLUMNS],
        names=list(COLUMNS),
        kinds=["number", "number"],
        limit=math.inf,  # check_points words a number out of range
        step=0.1,
        max_rows=MAX_POINTS,
    )
    first = [[_cell(a), _cell(b)] for a, b in zip(*default, strict=True)]
    result = cell_grid(spec, first, math.nan)
    return check_points([(_number(a), _number(b)) for a, b in result.cells])


def _cell(value: Any) -> float:
    number = _number(value)
    return math.nan if number is None else number


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
    """A cell as a float, read by the app's one number parser; None for a blank or unreadable
    cell (NaN is an empty cell)."""
    if cell is None or isinstance(cell, bool):
        return None
    try:
        number = read_number(cell) if isinstance(cell, str) else float(cell)
    except (TypeError, ValueError):  # NotANumberError is a ValueError
        return None
    return None if math.isnan(number) else number


def _label(index: Any, position: int) -> int:
    try:
        return int(index)
    except (TypeError, ValueError):
        return position
