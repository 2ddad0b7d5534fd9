"""One editable matrix: a grid of the app's one editor (`kit.grids.cell_grid`) whose cells are
kept in the one store (`kit.grids.store`), validated on the server, cell by cell.

Other modules and tests use the functions below (`set_matrix`, `matrix_values`,
`transpose_matrix`, `forget_matrix`), never the store's keys. The store keeps every cell at the
largest size the grid ever had: shrinking a size and growing it back brings the hidden cells
back ("−" then "+" is an undo), and the values survive a visit to another page.
"""

from __future__ import annotations

import math
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from attention_core.formatting import fmt
from attention_ui.kit.text.i18n import t

from . import store
from .cell_grid import VALUE_LIMIT, GridSpec, cell_grid

Session = MutableMapping[str, Any] | None
__all__ = [
    "VALUE_LIMIT",
    "MatrixInput",
    "mask_editor",
    "matrix_editor",
    "matrix_values",
    "set_matrix",
]


@dataclass
class MatrixInput:
    """What the learner entered: the values (NaN for a cleared cell) and what is wrong."""

    name: str
    values: np.ndarray
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def set_matrix(state_key: str, values: np.ndarray, session: Session = None) -> None:
    """Replace a matrix's content (preset, random fill, reset, a shared address): cells hidden
    by an earlier, larger size are forgotten."""
    values = np.array(values, dtype=float, ndmin=2)
    store.set_cells(state_key, values.tolist(), session)


def forget_matrix(state_key: str, session: Session = None) -> None:
    """Forget the matrix: the next draw starts from the page's default."""
    store.forget(state_key, session)


def matrix_values(state_key: str, session: Session = None) -> np.ndarray | None:
    """The matrix as the learner last saw it, edits included, even while its grid is hidden
    (None before it was first set)."""
    grid = store.record(state_key, session)  # read once (store.visible reads it again)
    if grid is None:
        return None
    rows, cols = grid["shape"]
    return np.array([row[:cols] for row in grid["cells"][:rows]], dtype=float).reshape(rows, cols)


def transpose_matrix(state_key: str, session: Session = None) -> None:
    """Transpose the matrix, hidden cells included (a switch of layout)."""
    store.transpose(state_key, session)


def resized(values: np.ndarray, shape: tuple[int, int], fill: float = 0.0) -> np.ndarray:
    """Keep the entries that still fit; new ones are `fill`."""
    out = np.full(shape, fill)
    rows, cols = min(shape[0], values.shape[0]), min(shape[1], values.shape[1])
    out[:rows, :cols] = values[:rows, :cols]
    return out


Labels = tuple[Sequence[str], Sequence[str]]  # a grid's row labels and column labels


def matrix_editor(
    name: str,
    state_key: str,
    default: np.ndarray,
    labels: Labels,
    *,
    help: str | None = None,
    after_edit: Callable[[str], None] | None = None,
) -> MatrixInput:
    """Draw the grid for matrix `name` and return what the learner entered, checked.

    `labels`: (row labels, column labels). `default` is used the first time; afterwards the
    stored content is fitted to the shape the labels ask for (cells hidden by an earlier shrink
    come back, new ones are 0), keeping the learner's edits, also across a visit to another
    page. `after_edit`: see `GridSpec`.
    """
    spec = _spec(name, state_key, labels, "number", help, after_edit)
    values = _drawn(spec, default, 0.0)
    return MatrixInput(name, values, check_matrix(name, values, *labels))


def mask_editor(
    name: str,
    state_key: str,
    default: np.ndarray,
    labels: Labels,
    *,
    help: str | None = None,
    after_edit: Callable[[str], None] | None = None,
) -> MatrixInput:
    """As `matrix_editor`, with ticks (stored as 1.0 / 0.0, e.g. a per-cell mask) instead of
    numbers; new cells are ticked."""
    spec = _spec(name, state_key, labels, "check", help, after_edit)
    return MatrixInput(name, _drawn(spec, default, 1.0))


def _spec(
    name: str,
    state_key: str,
    labels: Labels,
    kind: str,
    help: str | None,
    after_edit: Callable[[str], None] | None,
) -> GridSpec:
    rows, cols = labels
    return GridSpec(
        name=name,
        state_key=state_key,
        rows=list(rows),
        cols=list(cols),
        kinds=[kind] * len(cols),
        limit=VALUE_LIMIT,
        help=help,
        tint=kind == "number",
        after_edit=after_edit,
    )


def _drawn(spec: GridSpec, default: np.ndarray, fill: float) -> np.ndarray:
    """The grid drawn, and its values as the learner left them."""
    shape = (len(spec.rows), len(spec.cols))
    first = resized(np.asarray(default, dtype=float), shape, fill)
    return np.array(cell_grid(spec, first.tolist(), fill).cells, dtype=float).reshape(shape)


def check_matrix(
    name: str,
    values: np.ndarray,
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    limit: float = VALUE_LIMIT,
) -> list[str]:
    """One message per bad cell, naming the matrix and the cell by its labels."""
    problems = []
    for (i, j), value in np.ndenumerate(values):
        cell = {"matrix": name, "row": row_labels[i], "col": col_labels[j]}
        if math.isnan(value):
            problems.append(t("editor.cell_empty", **cell))
        elif not math.isfinite(value) or abs(value) > limit:
            # All the digits the learner typed: 1000.5 must not read as "1000" next to the limit.
            problems.append(
                t("editor.cell_out_of_range", value=fmt(value, 10), limit=fmt(limit), **cell)
            )
    return problems
