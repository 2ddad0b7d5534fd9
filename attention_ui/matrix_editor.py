"""One editable matrix: an `st.data_editor` grid that keeps the learner's edits, can be reset
(presets, random fill, resizing) and is validated on the server, cell by cell.

State per matrix (`state_key`): the last content set by the app (`.base`) and a version
number that is part of the editor's widget key. `st.data_editor` remembers edits as a delta
against the data it was given, even when given new data of the same shape, so replacing the
content means giving the editor a new key.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import fmt

from .i18n import t

# Entries are limited to a range a learner can read; the limit is checked here on the server,
# since the editor's own min/max only hold in the browser.
VALUE_LIMIT = 1000.0


@dataclass
class MatrixInput:
    """What the learner entered: the values (NaN for a cleared cell) and what is wrong."""

    name: str
    values: np.ndarray
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def set_matrix(state_key: str, values: np.ndarray) -> None:
    """Replace a matrix's content (preset, random fill, reset): the editor starts afresh."""
    st.session_state[f"{state_key}.base"] = np.array(values, dtype=float)
    st.session_state[f"{state_key}.shadow"] = np.array(values, dtype=float)
    st.session_state.pop(f"{state_key}.columns", None)
    st.session_state[f"{state_key}.version"] = st.session_state.get(f"{state_key}.version", 0) + 1


def current_values(state_key: str) -> np.ndarray | None:
    """The matrix as the learner last saw it: the content set by the app plus their edits."""
    base = st.session_state.get(f"{state_key}.base")
    if base is None:
        return None
    columns = st.session_state.get(f"{state_key}.columns", [])
    return apply_edits(base, columns, st.session_state.get(_editor_key(state_key)))


def restore_dropped_edits(state_key: str) -> None:
    """Give back the edits Streamlit dropped while the grid was not drawn.

    Streamlit forgets a widget's state on a run that does not draw it (another page, a hidden
    parameter grid). Each grid keeps a plain copy of what the learner last saw (`.shadow`,
    which survives); when the editor has lost its edits, that copy becomes the content.
    """
    shadow = st.session_state.get(f"{state_key}.shadow")
    base = st.session_state.get(f"{state_key}.base")
    if (shadow is None or base is None or _editor_key(state_key) in st.session_state
            or shadow.shape != base.shape or np.array_equal(shadow, base, equal_nan=True)):
        return
    set_matrix(state_key, shadow)


def apply_edits(base: np.ndarray, columns: Sequence[str], editor_state: dict | None) -> np.ndarray:
    """`base` with the editor's edited cells applied (a cleared or unparsable cell → NaN).

    The editor reports edits as {row position: {column label: value}}.
    """
    values = np.array(base, dtype=float)
    positions = {label: j for j, label in enumerate(columns)}
    for row, changes in (editor_state or {}).get("edited_rows", {}).items():
        for label, value in changes.items():
            i, j = int(row), positions.get(label)
            if j is not None and 0 <= i < values.shape[0] and j < values.shape[1]:
                values[i, j] = _as_float(value)
    return values


def resized(values: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """Keep the entries that still fit; new ones are 0."""
    out = np.zeros(shape)
    rows, cols = min(shape[0], values.shape[0]), min(shape[1], values.shape[1])
    out[:rows, :cols] = values[:rows, :cols]
    return out


def matrix_editor(name: str, state_key: str, default: np.ndarray, row_labels: Sequence[str],
                  col_labels: Sequence[str], *, help: str | None = None,
                  limit: float = VALUE_LIMIT) -> MatrixInput:
    """Draw the grid for matrix `name` and return what the learner entered, checked.

    `default` is used the first time; afterwards the stored content is resized to the shape
    the labels ask for (new cells 0), keeping the learner's edits, also across a visit to
    another page.
    """
    shape = (len(row_labels), len(col_labels))
    restore_dropped_edits(state_key)
    if f"{state_key}.base" not in st.session_state:
        set_matrix(state_key, resized(np.asarray(default, dtype=float), shape))
    elif st.session_state[f"{state_key}.base"].shape != shape:
        set_matrix(state_key, resized(current_values(state_key), shape))
    base = st.session_state[f"{state_key}.base"]
    st.session_state[f"{state_key}.columns"] = list(col_labels)
    frame = pd.DataFrame(base, index=list(row_labels), columns=list(col_labels))
    # st.data_editor takes no `help`: it becomes the tooltip of every column header instead.
    config = {label: st.column_config.NumberColumn(label, min_value=-limit, max_value=limit,
                                                   format="%g", help=help)
              for label in col_labels}
    try:
        edited = st.data_editor(frame, key=_editor_key(state_key), column_config=config,
                                num_rows="fixed")
    except IndexError:
        # Only a crafted client can edit a row outside a fixed grid, which Streamlit fails to
        # apply: keep the edits that fit and give the grid a fresh start.
        set_matrix(state_key, current_values(state_key))
        st.rerun()
    values = edited.to_numpy(dtype=float, na_value=np.nan)
    if values.shape != shape:  # rows added or deleted by a crafted client: the grid is fixed
        values = current_values(state_key)
    st.session_state[f"{state_key}.shadow"] = values
    return MatrixInput(name, values, check_matrix(name, values, row_labels, col_labels, limit))


def check_matrix(name: str, values: np.ndarray, row_labels: Sequence[str],
                 col_labels: Sequence[str], limit: float = VALUE_LIMIT) -> list[str]:
    """One message per bad cell, naming the matrix and the cell by its labels."""
    problems = []
    for (i, j), value in np.ndenumerate(values):
        cell = {"matrix": name, "row": row_labels[i], "col": col_labels[j]}
        if math.isnan(value):
            problems.append(t("editor.cell_empty", **cell))
        elif not math.isfinite(value) or abs(value) > limit:
            # All the digits the learner typed: 1000.5 must not read as "1000" next to the limit.
            problems.append(t("editor.cell_out_of_range", value=fmt(value, 10),
                              limit=fmt(limit), **cell))
    return problems


def _editor_key(state_key: str) -> str:
    return f"{state_key}.editor.{st.session_state.get(f'{state_key}.version', 0)}"


def _as_float(value: object) -> float:
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return math.nan
    return number
