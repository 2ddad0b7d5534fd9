"""One editable matrix: an `st.data_editor` grid that keeps the learner's edits, can be reset
(presets, random fill, resizing) and is validated on the server, cell by cell.

This module owns its session keys; other modules and tests use the functions below
(`set_matrix`, `matrix_values`, `transpose_matrix`, `editor_key`, `grid_columns`), never the
keys. Per matrix (`state_key`): `.base` is the content the editor was given, `.version` is part
of the editor's widget key (`st.data_editor` remembers edits as a delta against the data it was
given, even when given new data of the same shape, so new content needs a new key), `.shape`
and `.columns` are the grid last drawn. What the learner last saw is kept with
`page_state.keep(state_key, ...)` at the largest size the grid ever had: shrinking a size and
growing it back brings the hidden cells back ("−" then "+" is an undo), and the values survive a
visit to another page, where Streamlit forgets the editor's own state.

The cells hold text, read on the server by `number_text.read_number`: the browser's number
editor would rewrite `1e-3`, `0,5` or `1001` before the server saw them. Text that is not a
number, or a number out of range, leaves the cell's previous value in use, with a message.
"""

from __future__ import annotations

import math
import time
from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import fmt
from attention_ui.kit.grids.editor_state import editor_state_ok
from attention_ui.kit.grids.number_text import MAX_CHARS, NotANumberError, read_number
from attention_ui.kit.state import page_state
from attention_ui.kit.state.navigation import follow_navigation
from attention_ui.kit.text.i18n import t
from attention_ui.kit.text.markdown import escape_markdown

# Entries are limited to a range a learner can read; the limit is checked here on the server,
# since the editor's own min/max only hold in the browser.
VALUE_LIMIT = 1000.0
Session = MutableMapping[str, Any] | None
# The browser sends a grid's edit 150 ms after Enter (or after the click that leaves the cell),
# and a grid taken off the screen before then drops its edit unsent. A run that replaces grids by
# ones of a new shape or layout ("+", "−", the layout switch) therefore waits this long before it
# draws the first new grid: the old grid, still on the screen, sends its edit, which stops this
# run and starts one that puts the edit into the new grid (`apply_late_edits`). Once per run
# (a run draws all its grids within moments of each other). tests/conftest.py sets it to 0:
# AppTest has no browser grid whose edit could be on its way.
LATE_EDIT_WAIT_S = 0.2
_ONE_RUN_S = 1.0
_REPLACED = "editor.replaced_grids"  # set when a run replaces a grid by one of a new shape
_WAITED = "editor.waited_at"  # time.monotonic() of the last wait


@dataclass
class MatrixInput:
    """What the learner entered: the values (NaN for a cleared cell) and what is wrong."""

    name: str
    values: np.ndarray
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _state(session: Session) -> MutableMapping[str, Any]:
    return st.session_state if session is None else session


def set_matrix(state_key: str, values: np.ndarray, session: Session = None) -> None:
    """Replace a matrix's content (preset, random fill, reset, a shared address): the editor
    starts afresh, and cells hidden by an earlier, larger size are forgotten."""
    values = np.array(values, dtype=float, ndmin=2)
    _new_content(state_key, values, values.shape, session)


def forget_matrix(state_key: str, session: Session = None) -> None:
    """Forget the matrix: the next draw starts from the page's default."""
    state = _state(session)
    for suffix in (".base", ".shape", ".columns"):
        if state_key + suffix in state:
            del state[state_key + suffix]
    page_state.forget(state_key, session)
    state[f"{state_key}.version"] = state.get(f"{state_key}.version", 0) + 1


def matrix_values(state_key: str, session: Session = None) -> np.ndarray | None:
    """The matrix as the learner last saw it, edits included, even while its grid is hidden
    (None before it was first set)."""
    state = _state(session)
    base = state.get(f"{state_key}.base")
    if base is None:
        return None
    editor = _editor_state(state_key, session)
    columns = state.get(f"{state_key}.columns", [])
    if editor is not None and editor_state_ok(editor, base.shape[0], columns, fixed=True):
        return apply_edits(
            base, columns, editor, previous=_previous_values(state_key, base.shape, session)
        )
    rows, cols = state[f"{state_key}.shape"]
    return np.array(page_state.kept(state_key, base, session), dtype=float)[:rows, :cols]


def transpose_matrix(state_key: str, session: Session = None) -> None:
    """Transpose the matrix, hidden cells included (a switch of layout)."""
    if _state(session).get(f"{state_key}.base") is None:
        return
    full = _memory(state_key, session).T
    rows, cols = _state(session)[f"{state_key}.shape"]
    _new_content(state_key, full, (cols, rows), session, late_edits=True)


def editor_key(state_key: str, session: Session = None) -> str:
    """The widget key of the matrix's `st.data_editor` in this run."""
    return f"{state_key}.editor.{_state(session).get(f'{state_key}.version', 0)}"


def grid_columns(state_key: str, session: Session = None) -> list[str]:
    """The column labels of the grid last drawn (the editor reports edits by label)."""
    return list(_state(session).get(f"{state_key}.columns", []))


def restore_dropped_edits(state_key: str) -> None:
    """Give back the edits Streamlit dropped while the grid was not drawn.

    Streamlit forgets a widget's state on a run that does not draw it (another page, a hidden
    parameter grid). The kept copy survives; when the editor has lost its edits, that copy
    becomes the content.
    """
    state = st.session_state
    base = state.get(f"{state_key}.base")
    if base is None or editor_key(state_key) in state:
        return
    visible = matrix_values(state_key)
    if visible.shape != base.shape or np.array_equal(visible, base, equal_nan=True):
        return
    _new_content(state_key, _memory(state_key), visible.shape)


def _editor_state(state_key: str, session: Session = None) -> Any:
    """What arrived as the editor's state (a crafted client's too: see editor_state)."""
    try:
        return _state(session).get(editor_key(state_key, session))
    except Exception:  # a state Streamlit cannot even read is not an edit
        return ["unreadable"]


def _memory(state_key: str, session: Session = None) -> np.ndarray:
    """Every kept cell, hidden ones included, with the visible part as the learner sees it."""
    state = _state(session)
    full = np.array(page_state.kept(state_key, state[f"{state_key}.base"], session), dtype=float)
    visible = matrix_values(state_key, session)
    full[: visible.shape[0], : visible.shape[1]] = visible
    return full


def _new_content(
    state_key: str,
    full: np.ndarray,
    shape: tuple[int, int],
    session: Session = None,
    *,
    late_edits: bool = False,
) -> None:
    """`full[:shape]` becomes the editor's content under a new widget key; `full` is kept.

    With `late_edits` (the same numbers resized or transposed, not new content), an edit the
    browser still sends for the grid being replaced goes into the new one (`apply_late_edits`).
    """
    state = _state(session)
    old_key = editor_key(state_key, session)
    if late_edits and f"{state_key}.base" in state:
        state[_REPLACED] = True
        state[f"{state_key}.replaced"] = {
            "key": old_key,
            "base": state[f"{state_key}.base"],
            "rows": list(state.get(f"{state_key}.rows", [])),
            "columns": list(state.get(f"{state_key}.columns", [])),
            "seen": _plain_state(_read(state, old_key)),
        }
    elif f"{state_key}.replaced" in state:
        del state[f"{state_key}.replaced"]
    full = np.array(full, dtype=float)
    rows, cols = shape
    state[f"{state_key}.base"] = full[:rows, :cols].copy()
    state[f"{state_key}.shape"] = (rows, cols)
    if f"{state_key}.columns" in state:
        del state[f"{state_key}.columns"]
    page_state.keep(state_key, full, session)
    state[f"{state_key}.version"] = state.get(f"{state_key}.version", 0) + 1


def _resize(state_key: str, shape: tuple[int, int], fill: float) -> None:
    """Show `shape` of the matrix: cells hidden earlier come back, new ones are `fill`."""
    full = _memory(state_key)
    grown = np.full((max(shape[0], full.shape[0]), max(shape[1], full.shape[1])), fill)
    grown[: full.shape[0], : full.shape[1]] = full
    _new_content(state_key, grown, shape, late_edits=True)


def _wait_for_late_edit() -> None:
    """Before drawing a grid: when this run replaced grids, give the learner's last edit time
    to arrive from the grid it replaces (see LATE_EDIT_WAIT_S)."""
    state = st.session_state
    if not state.pop(_REPLACED, False):
        return
    now = time.monotonic()
    if now - state.get(_WAITED, -math.inf) < _ONE_RUN_S:
        return  # this run waited already
    state[_WAITED] = now
    time.sleep(LATE_EDIT_WAIT_S)


def keep_edit(state_key: str, key: str) -> None:
    """The grid's `on_change`: keep an edit in the run that brings it, whatever page that is.

    The browser sends a grid's edit 150 ms after Enter. A click on a page link within that
    time goes first: the edit then comes with a run of the other page, which does not draw
    the grid, and Streamlit forgets the grid's state at that run's end. Streamlit still calls
    this callback at the start of that run (it remembers the grid from earlier runs), so the
    edit goes into the kept copy, and the grid shows it when the learner comes back.
    """
    if key != editor_key(state_key):
        return  # an edit for a grid that "+" or the layout switch replaced: apply_late_edits
    values = matrix_values(state_key)
    if values is not None:
        _keep_visible(state_key, values)
    follow_navigation(state_key.split(".")[0])  # the edit is kept; the learner goes on


def _keep_visible(state_key: str, values: np.ndarray) -> None:
    """After the grid is drawn: what the learner sees goes into the kept copy."""
    full = np.array(page_state.kept(state_key, values), dtype=float)
    full[: values.shape[0], : values.shape[1]] = values
    page_state.keep(state_key, full)


def apply_edits(
    base: np.ndarray,
    columns: Sequence[str],
    editor_state: dict | None,
    *,
    previous: np.ndarray | None = None,
    limit: float = VALUE_LIMIT,
) -> np.ndarray:
    """`base` with the editor's edited cells applied (a cleared cell → NaN).

    The editor reports edits as {row position: {column label: text}}. A cell whose text is not
    a number, or is a number beyond ±`limit`, keeps its `previous` value (default: `base`).
    """
    return read_edits(base, columns, editor_state, previous=previous, limit=limit)[0]


@dataclass(frozen=True)
class RejectedCell:
    """An edit the matrix did not take: where, what was typed, and why (a catalog key's tail:
    'text', 'thousands', 'too_long' or 'range')."""

    row: int
    col: int
    typed: str
    reason: str


def read_edits(
    base: np.ndarray,
    columns: Sequence[str],
    editor_state: dict | None,
    *,
    previous: np.ndarray | None = None,
    limit: float = VALUE_LIMIT,
) -> tuple[np.ndarray, list[RejectedCell]]:
    """`apply_edits`, and the edits that were rejected (in row, column order)."""
    values = np.array(base, dtype=float)
    kept = values if previous is None or previous.shape != values.shape else previous
    positions = {label: j for j, label in enumerate(columns)}
    rejected = []
    edited = editor_state.get("edited_rows") if isinstance(editor_state, dict) else None
    for row, changes in (edited if isinstance(edited, dict) else {}).items():
        if not isinstance(changes, dict):
            continue
        for label, typed in changes.items():
            i, j = _position(row), positions.get(label)
            if i is None or j is None or not (0 <= i < values.shape[0] and j < values.shape[1]):
                continue
            try:
                number = cell_number(typed)
            except NotANumberError as error:
                rejected.append(RejectedCell(i, j, str(typed), error.reason))
                values[i, j] = kept[i, j]
                continue
            if math.isnan(number) or abs(number) <= limit:
                values[i, j] = number
            else:
                rejected.append(RejectedCell(i, j, fmt(number, 10), "range"))
                values[i, j] = kept[i, j]
    return values, sorted(rejected, key=lambda cell: (cell.row, cell.col))


def cell_number(typed: object) -> float:
    """What a grid cell's content means: text as people write numbers, or a number already
    (a crafted client may send JSON numbers, a checkbox grid sends ticks); None → NaN (a
    cleared cell)."""
    if typed is None:
        return math.nan
    if isinstance(typed, bool | int | float):  # a tick is 1 or 0
        return float(typed)
    return read_number(str(typed))


def cell_text(value: float) -> str:
    """A number as the grid shows it: as the app writes numbers (true minus, up to 6 digits, as
    the grid's '%g' did), which `read_number` reads back."""
    return "" if math.isnan(value) else fmt(value, 6)


def rejection_message(
    name: str,
    cell: RejectedCell,
    kept: float,
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    limit: float = VALUE_LIMIT,
) -> str:
    """What was typed into which cell, why the matrix did not take it, and what it uses."""
    # A number out of range is written by `fmt` (safe in Markdown); typed text is escaped.
    typed = cell.typed if cell.reason == "range" else escape_markdown(cell.typed, 40)
    return t(
        f"editor.rejected_{cell.reason}",
        matrix=name,
        row=row_labels[cell.row],
        col=col_labels[cell.col],
        typed=typed,
        limit=fmt(limit),
        kept=fmt(kept, 10) if math.isfinite(kept) else t("editor.kept_nothing"),
    )


def apply_late_edits(state_key: str, row_labels: Sequence[str], col_labels: Sequence[str]) -> None:
    """Put an edit that came late, for the grid a resize or layout switch replaced, into the
    new grid.

    The browser sends a grid's edit 150 ms after Enter. A click on "+" or on the layout switch
    within that time reruns the page without the edit; the rerun replaces the grid, and the
    edit then arrives for the old grid's key. The cells it changed are found by their row and
    column labels (either way round: a layout switch transposes) and set in the new grid.
    """
    state = st.session_state
    replaced = state.get(f"{state_key}.replaced")
    late = _plain_state(_read(state, replaced["key"])) if replaced else None
    if not replaced or late is None or late == replaced["seen"]:
        return
    state[f"{state_key}.replaced"] = {**replaced, "seen": late}
    base, rows, columns = replaced["base"], replaced["rows"], replaced["columns"]
    values = matrix_values(state_key)
    shape_now = (len(row_labels), len(col_labels))
    if values is None or values.shape != shape_now or base.shape != (len(rows), len(columns)):
        return
    before = apply_edits(base, columns, replaced["seen"])
    after = apply_edits(base, columns, late)
    rows_now, cols_now = list(row_labels), list(col_labels)
    changed = False
    for (i, j), value in np.ndenumerate(after):
        if value == before[i, j] or (math.isnan(value) and math.isnan(before[i, j])):
            continue
        for row, col in ((rows[i], columns[j]), (columns[j], rows[i])):
            if row in rows_now and col in cols_now:
                values[rows_now.index(row), cols_now.index(col)] = value
                changed = True
                break
    if changed:
        full = _memory(state_key)
        full[: values.shape[0], : values.shape[1]] = values
        _new_content(state_key, full, shape_now)
        state[f"{state_key}.replaced"] = {**replaced, "seen": late}


def _read(state: MutableMapping[str, Any], key: str) -> Any:
    """A widget's state, or None when Streamlit cannot read it (a crafted client's)."""
    try:
        return state.get(key)
    except Exception:
        return None


def _plain_state(editor_state: object) -> dict | None:
    """A copy of an editor's edits as plain dicts (to compare two of them)."""
    if not isinstance(editor_state, dict):
        return None
    edited = editor_state.get("edited_rows") or {}
    return {
        "edited_rows": {
            str(row): dict(cells) for row, cells in edited.items() if isinstance(cells, dict)
        }
    }


def _previous_values(
    state_key: str, shape: tuple[int, int], session: Session = None
) -> np.ndarray | None:
    """The values the app used on the last run (what a rejected edit leaves in place)."""
    kept = page_state.kept(state_key, None, session)
    if kept is None:
        return None
    kept = np.array(kept, dtype=float)
    if kept.ndim != 2 or kept.shape[0] < shape[0] or kept.shape[1] < shape[1]:
        return None
    return kept[: shape[0], : shape[1]]


def _position(row: object) -> int | None:
    try:
        return int(row)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return None


def resized(values: np.ndarray, shape: tuple[int, int], fill: float = 0.0) -> np.ndarray:
    """Keep the entries that still fit; new ones are `fill`."""
    out = np.full(shape, fill)
    rows, cols = min(shape[0], values.shape[0]), min(shape[1], values.shape[1])
    out[:rows, :cols] = values[:rows, :cols]
    return out


def matrix_editor(
    name: str,
    state_key: str,
    default: np.ndarray,
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    *,
    help: str | None = None,
    limit: float = VALUE_LIMIT,
    checkbox: bool = False,
    fill: float = 0.0,
) -> MatrixInput:
    """Draw the grid for matrix `name` and return what the learner entered, checked.

    `default` is used the first time; afterwards the stored content is resized to the shape
    the labels ask for (cells hidden by an earlier shrink come back, new ones are `fill`),
    keeping the learner's edits, also across a visit to another page. `checkbox=True` draws
    ticks (stored as 1.0 / 0.0, e.g. a per-cell mask) instead of numbers.
    """
    shape = (len(row_labels), len(col_labels))
    crafted = not editor_state_ok(_editor_state(state_key), len(row_labels), col_labels, fixed=True)
    if crafted:
        # Not an edit the grid can hold (a crafted client): back to what the learner last saw.
        if f"{state_key}.base" in st.session_state:
            _new_content(state_key, _memory(state_key), st.session_state[f"{state_key}.shape"])
        else:
            set_matrix(state_key, resized(np.asarray(default, dtype=float), shape, fill))
        st.warning(t("editor.crafted_state", matrix=name), icon="⚠️")
    restore_dropped_edits(state_key)
    apply_late_edits(state_key, row_labels, col_labels)
    if f"{state_key}.base" not in st.session_state:
        set_matrix(state_key, resized(np.asarray(default, dtype=float), shape, fill))
    elif st.session_state[f"{state_key}.base"].shape != shape:
        _resize(state_key, shape, fill)
    base = st.session_state[f"{state_key}.base"]
    st.session_state[f"{state_key}.columns"] = list(col_labels)
    st.session_state[f"{state_key}.rows"] = list(row_labels)
    if checkbox:
        frame = pd.DataFrame(base > 0.5, index=list(row_labels), columns=list(col_labels))
        config = {label: st.column_config.CheckboxColumn(label, help=help) for label in col_labels}
    else:
        frame = pd.DataFrame(
            [[cell_text(v) for v in row] for row in base],
            index=list(row_labels),
            columns=list(col_labels),
            dtype=object,
        )
        # Text, not NumberColumn: the browser's number editor rewrites what is typed (see the
        # module's docstring). st.data_editor takes no `help`: it becomes every header's tooltip.
        config = {
            label: st.column_config.TextColumn(
                label, help=help, max_chars=MAX_CHARS, alignment="right"
            )
            for label in col_labels
        }
    _wait_for_late_edit()
    try:
        edited = st.data_editor(
            frame,
            key=editor_key(state_key),
            column_config=config,
            num_rows="fixed",
            on_change=keep_edit,
            args=(state_key, editor_key(state_key)),
        )
    except IndexError:
        # Only a crafted client can edit a row outside a fixed grid, which Streamlit fails to
        # apply: keep the edits that fit and give the grid a fresh start.
        _new_content(state_key, _memory(state_key), shape)
        st.rerun()
    if checkbox:
        values = np.array(
            [
                [1.0 if cell is True or cell == 1 else 0.0 for cell in row]
                for row in edited.to_numpy(dtype=object)
            ]
        ).reshape(edited.shape)
        rejected = []
    else:
        values, rejected = read_edits(
            base,
            col_labels,
            _editor_state(state_key),
            previous=_previous_values(state_key, shape),
            limit=limit,
        )
    if edited.shape != shape:  # rows added or deleted by a crafted client: the grid is fixed
        values = matrix_values(state_key)
    for cell in rejected:
        st.warning(
            rejection_message(
                name, cell, values[cell.row, cell.col], row_labels, col_labels, limit
            ),
            icon="✏️",
        )
    _keep_visible(state_key, values)
    problems = [] if checkbox else check_matrix(name, values, row_labels, col_labels, limit)
    return MatrixInput(name, values, problems)


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
