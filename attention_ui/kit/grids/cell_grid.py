"""The app's one grid editor: a Streamlit custom component (v2) of real <input> cells.

The browser half (static/cell_grid.js, static/cell_grid.css) draws a `<table role="grid">`
named after the matrix, one `<input>` per cell named "Q, row 1, column q1" in the page's
language, and sends an edit the moment the learner presses Enter or Tab or leaves the cell.
Everything it sends is decided here, on the server: `store.apply_edit` puts the entries into
the one store (the number parser reads each number), and this module words what it refused.

An edit arrives two ways, both applied once (the store counts entries per browser token):
the component's `on_edit_change` callback, which Streamlit calls at the start of the run that
brings the edit whatever page that run is (a click on a page link right after the edit), and
the component's result after it is drawn (AppTest, which calls no callback).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.components.v2 import component

from attention_core.formatting import fmt
from attention_ui.kit.state.navigation import follow_navigation
from attention_ui.kit.text.i18n import t
from attention_ui.kit.text.markdown import escape_markdown

from . import store
from .store import Cell

# The browser half lives in static/, which Streamlit serves at app/static/ (server.
# enableStaticServing, .streamlit/config.toml): the browser fetches it once per page load and
# each draw sends only this loader (components v2 takes files only from an installed package).
# Otherwise (static serving off, or another script run) the files go inline in every draw.
_STATIC = Path(__file__).resolve().parents[3] / "static"
_LOADER = """
const base = new URL("app/static/", location.href);
const code = import(new URL("cell_grid.js", base).href);
const style = fetch(new URL("cell_grid.css", base).href).then((response) => response.text());
export default async function (component) {
  const [{ default: render }, css] = await Promise.all([code, style]);
  const root = component.parentElement;
  if (!root.querySelector("style.cg-style")) {
    const tag = document.createElement("style");
    tag.className = "cg-style";
    tag.textContent = css;
    root.prepend(tag);
  }
  return render(component);
}
"""


def _static_served() -> bool:
    """Whether Streamlit serves static/ at app/static/: static serving is on and the script
    it runs has this repository's static/ beside it (the app's root; bench/ links to it for
    the floor page; `streamlit run` puts the script's path in sys.argv[0])."""
    script = Path(sys.argv[0]).resolve() if sys.argv and sys.argv[0] else None
    served = bool(st.get_option("server.enableStaticServing"))
    return served and script is not None and (script.parent / "static").resolve() == _STATIC


def _define_component():
    if _static_served():
        return component("attention_cell_grid", js=_LOADER)
    return component(
        "attention_cell_grid",
        js=(_STATIC / "cell_grid.js").read_text(encoding="utf-8"),
        css=(_STATIC / "cell_grid.css").read_text(encoding="utf-8"),
    )


_COMPONENT = _define_component()
# Entries are limited to a range a learner can read, checked here (the browser holds text).
VALUE_LIMIT = 1000.0


@dataclass(frozen=True)
class GridSpec:
    """One grid: its label, its store key, its rows and columns, and how cells are read.

    `rows=None`: rows numbered 1, 2, … that the learner adds and deletes, up to `max_rows`.
    `kinds` per column: "number", "text" or "check". `step` is the scrub's step (the page's
    precision); `digits` the significant digits a number is shown with. `after_edit(state_key)`
    runs in the grid's callback once the edit is kept: a page may name the fragments the edit
    reruns there (st.rerun with fragment keys, allowed only in a callback).
    """

    name: str
    state_key: str
    rows: Sequence[str] | None
    cols: Sequence[str]
    kinds: Sequence[str]
    limit: float = VALUE_LIMIT
    digits: int = 6
    step: float = 0.1
    max_rows: int = 0
    tint: bool = False
    help: str | None = None
    names: Sequence[str] | None = None  # the columns' names in each cell's label, if not cols
    after_edit: Callable[[str], None] | None = None


@dataclass(frozen=True)
class RejectedCell:
    """An edit the grid did not take: where, what was typed, and why (a catalog key's tail:
    'text', 'thousands', 'too_long' or 'range')."""

    row: int
    col: int
    typed: str
    reason: str


@dataclass
class GridResult:
    cells: list[list[Cell]]
    rows: list[str]
    rejected: list[RejectedCell] = field(default_factory=list)


def cell_grid(spec: GridSpec, default: Sequence[Sequence[Cell]], fill: Cell = 0.0) -> GridResult:
    """Draw the grid and return its cells as the learner left them (edits applied).

    `default` is used the first time; afterwards the stored cells are fitted to the labels'
    shape (cells hidden by an earlier shrink come back, new ones are `fill`)."""
    key = spec.state_key
    if store.record(key) is None:
        store.set_cells(key, default)
    if spec.rows is not None:
        store.fit(key, (len(spec.rows), len(spec.cols)), fill)
    _describe(spec)
    bad = _take(spec, store.browser_state(key))
    result = _COMPONENT(
        key=store.widget_key(key),
        data=_data(spec, store.browser_state(key)),
        on_edit_change=partial(_on_edit, spec.state_key, key.split(".")[0], spec.after_edit),
    )
    state = result.get("edit") if isinstance(result, dict) else None
    bad += _take(spec, state)
    grid = store.record(key)
    rows = _rows(spec, grid)
    if bad:
        st.warning(
            t("editor.crafted_entries", matrix=spec.name, count=bad), icon=":material/error:"
        )
    _say_paste_cut(spec, grid, rows)
    rejected = _rejected(grid)
    for cell in rejected:
        kept = store.visible(key)[cell.row][cell.col]
        st.warning(rejection_message(spec, cell, kept, rows), icon=":material/edit:")
    return GridResult(store.visible(key) or [], rows, rejected)


def _rows(spec: GridSpec, grid: dict) -> list[str]:
    if spec.rows is not None:
        return list(spec.rows)
    return [str(i) for i in range(1, grid["shape"][0] + 1)]


def _describe(spec: GridSpec) -> None:
    """Before the grid is drawn: what its labels and columns are in this run (`names`: the
    columns' own names when the headers say more, e.g. "key" for "Surname (key)")."""
    grid = store.record(spec.state_key)
    grid.update(
        rows=_rows(spec, grid),
        cols=list(spec.cols),
        names=list(spec.names or spec.cols),
        kinds=list(spec.kinds),
        limit=spec.limit,
        max_rows=spec.max_rows,
        numbered=spec.rows is None,
    )


def _take(spec: GridSpec, state: Any) -> int:
    """Apply what the browser sent (once); the number of entries that were not edits."""
    try:
        changed, refused = store.apply_edit(spec.state_key, state)
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError):
        return 1  # a shape the checks did not foresee: left out, never a traceback
    if changed:
        _describe(spec)  # rows added or deleted
    return refused


def _on_edit(state_key: str, page: str, after_edit: Callable[[str], None] | None = None) -> None:
    """The component's callback: keep the edit in the run that brings it, whatever page that
    is, then let the learner go on to the page they clicked (attention_ui.kit.state.navigation),
    else let the page say what the edit reruns (`GridSpec.after_edit`)."""
    store.settle(state_key)
    follow_navigation(page)  # leaving the page: stops here (st.switch_page)
    if after_edit is not None:
        after_edit(state_key)


def cell_text(value: Cell, kind: str = "number", digits: int = 6) -> str:
    """A cell as the grid shows it: numbers as the app writes them (true minus), which the
    number parser reads back; an empty number cell is empty."""
    if kind == "text":
        return str(value)
    if kind == "check":
        return "1" if value == 1.0 else "0"
    if not isinstance(value, int | float) or math.isnan(value):
        return ""
    return fmt(value, digits)


def _data(spec: GridSpec, state: Any) -> dict:
    """What the browser draws: labels, cell texts, refused texts, words, acknowledgement."""
    grid = store.record(spec.state_key)
    rows = _rows(spec, grid)
    cells = store.visible(spec.state_key) or []
    texts = [
        [cell_text(v, k, spec.digits) for v, k in zip(row, spec.kinds, strict=False)]
        for row in cells
    ]
    invalid = {}
    for cell in _rejected(grid):
        kept = cells[cell.row][cell.col]
        invalid[f"{cell.row},{cell.col}"] = {
            "text": cell.typed,
            "message": rejection_message(spec, cell, kept, rows, plain=True),
        }
    return {
        "name": spec.name,
        "help": spec.help or "",
        "rows": rows,
        "cols": [
            {"label": c, "name": n, "kind": k}
            for c, n, k in zip(spec.cols, spec.names or spec.cols, spec.kinds, strict=True)
        ],
        "cells": texts,
        "invalid": invalid,
        "ack": store.acknowledged(spec.state_key, state),
        "step": spec.step,
        "tint": _tint(cells, spec.kinds) if spec.tint else None,
        "addRows": spec.max_rows > 0,
        "canAdd": spec.max_rows > len(rows),
        "text": {
            "cell": t("editor.grid.cell", matrix="{matrix}", row="{row}", col="{col}"),
            "copy": t("editor.grid.copy"),
            "copied": t("editor.grid.copied"),
            "add_row": t("editor.grid.add_row"),
            "delete_row": t("editor.grid.delete_row", row="{row}"),
        },
    }


def _tint(cells: list[list[Cell]], kinds: Sequence[str]) -> list[list[float | None]]:
    """Each number cell's share of the largest magnitude (−1 … 1), for the heat tint."""
    numbers = [
        abs(v)
        for row in cells
        for v, k in zip(row, kinds, strict=False)
        if k == "number" and math.isfinite(v)
    ]
    top = max(numbers, default=0.0) or 1.0
    return [
        [
            v / top if k == "number" and math.isfinite(v) else None
            for v, k in zip(row, kinds, strict=False)
        ]
        for row in cells
    ]


def _rejected(grid: dict) -> list[RejectedCell]:
    height, width = grid["shape"]
    cells = []
    for where, (typed, reason) in (grid.get("rejected") or {}).items():
        i, j = (int(x) for x in where.split(","))
        if i < height and j < width:
            cells.append(RejectedCell(i, j, typed, reason))
    return sorted(cells, key=lambda cell: (cell.row, cell.col))


def rejection_message(
    spec: GridSpec, cell: RejectedCell, kept: Cell, rows: Sequence[str], *, plain: bool = False
) -> str:
    """What was typed into which cell, why the grid did not take it, and what it uses.

    `plain` for the cell's own tooltip (not Markdown): the typed text as typed, cut."""
    # A number out of range is written by `fmt` (safe in Markdown); typed text is escaped.
    safe = plain or cell.reason == "range"
    typed = cell.typed[:40] if safe else escape_markdown(cell.typed, 40)
    finite = isinstance(kept, int | float) and math.isfinite(kept)
    return t(
        f"editor.rejected_{cell.reason}",
        matrix=spec.name,
        row=rows[cell.row],
        col=spec.cols[cell.col],
        typed=typed,
        limit=fmt(spec.limit),
        kept=fmt(kept, 10) if finite else t("editor.kept_nothing"),
    )


def _say_paste_cut(spec: GridSpec, grid: dict, rows: Sequence[str]) -> None:
    """After a paste that did not fit: which rows and columns of the block were left out."""
    pasted = grid.get("pasted")
    if not pasted:
        return
    i, j = pasted["at"]
    if i >= len(rows) or j >= len(spec.cols):
        return
    which = (
        "paste_cut"
        if pasted["rows"] and pasted["cols"]
        else ("paste_cut_rows" if pasted["rows"] else "paste_cut_cols")
    )
    st.info(
        t(
            f"editor.{which}",
            matrix=spec.name,
            row=rows[i],
            col=spec.cols[j],
            rows=pasted["rows"],
            cols=pasted["cols"],
            height=len(rows),
            width=len(spec.cols),
        )
    )
