"""The editable database of the lookup page: (key, value, number) records in the app's grid
editor (`kit.grids.cell_grid`), kept in its one store.

Rows can be added and deleted in the browser. Everything is checked here, on the server:
a row without a key is left out (and the message says which row), names longer than
NAME_LIMIT characters once normalised (NFKC, as the similarities compare them: "ﷺ" is 18
characters) are cut (and the message says so), numbers outside ±NUMBER_LIMIT are dropped, keys
that occur twice are reported (exact lookup then splits the weight between them), and the
table holds at most RECORD_LIMIT rows (a paste is cut there, and the grid says so). Numbers are
read by `number_text.read_number`, as in the matrix grids. Names are shown as plain text
everywhere: messages escape them with `escape_markdown`.

Others call `current_records` / `set_records`; the store's keys are its own.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from attention_core.formatting import fmt
from attention_core.lookup import duplicate_keys
from attention_ui.kit.text.i18n import t
from attention_ui.kit.text.markdown import escape_markdown

from . import store
from .cell_grid import GridSpec, cell_grid
from .number_text import NotANumberError, read_number

NAME_LIMIT = 100
RECORD_LIMIT = 50
NUMBER_LIMIT = 1e6
COLUMNS = ("key", "value", "number")
Row = tuple[str, str, float | None]
# The section's database (surname → first name), with a number per record to pool.
D2L_RECORDS: list[Row] = [
    ("Zhang", "Aston", 10.0),
    ("Lipton", "Zachary", 20.0),
    ("Li", "Mu", 30.0),
    ("Smola", "Alex", 40.0),
    ("Hu", "Rachel", 50.0),
    ("Werness", "Brent", 60.0),
]


@dataclass
class RecordsInput:
    """What the table holds once checked: the usable records, their table rows, and messages."""

    records: list[Row]
    rows: list[int]  # 1-based table row of each record
    problems: list[str] = field(default_factory=list)  # rows left out or changed
    duplicates: list[str] = field(default_factory=list)  # keys found more than once
    missing_numbers: list[int] = field(default_factory=list)  # rows without a number

    @property
    def ok(self) -> bool:
        return bool(self.records)


def set_records(state_key: str, rows: Sequence[Row], session: Any = None) -> None:
    """Replace the table's content (a preset, a story step, a shared address)."""
    store.set_cells(state_key, [_cells(row) for row in rows], session)


def forget_records(state_key: str) -> None:
    """Forget the table: the next draw starts from the page's default rows."""
    store.forget(state_key)


def current_records(state_key: str, session: Any = None) -> list[Row] | None:
    """The rows as the learner last left them (None before the table was first set)."""
    cells = store.visible(state_key, session)
    return None if cells is None else [_row(row) for row in cells]


def records_editor(
    state_key: str, default: Sequence[Row], *, help: str | None = None
) -> RecordsInput:
    """Draw the records table and return its checked content."""
    if help:
        st.caption(help)
    spec = GridSpec(
        name=t("database.table.grid"),
        state_key=state_key,
        rows=None,
        cols=[t(f"database.table.{column}") for column in COLUMNS],
        names=[t(f"database.table.{column}_name") for column in COLUMNS],
        kinds=["text", "text", "number"],
        limit=math.inf,  # check_records words a number out of range
        digits=10,
        step=1.0,
        max_rows=RECORD_LIMIT,
    )
    result = cell_grid(spec, [_cells(row) for row in default], "")
    return check_records([_row(row) for row in result.cells])


def _cells(row: Sequence[Any]) -> list[Any]:
    key, value, number = row
    return [_text(key), _text(value), math.nan if _number(number) is None else _number(number)]


def cut_name(text: str, limit: int = NAME_LIMIT) -> tuple[str, int]:
    """(`text` cut to at most `limit` characters once normalised, its normalised length).

    The similarities compare NFKC forms, where one character may become many ("ﷺ" becomes 18):
    the limit counts those, so that no name costs more than `limit` characters' work.
    """
    length = len(unicodedata.normalize("NFKC", text))
    if length <= limit:
        return text, length
    cut, total = text, 0
    for index, char in enumerate(text):
        total += len(unicodedata.normalize("NFKC", char))
        if total > limit:
            cut = text[:index]
            break
    while len(unicodedata.normalize("NFKC", cut)) > limit:  # composed sequences, rarely
        cut = cut[:-1]
    return cut, length


def check_records(
    rows: Sequence[Sequence[Any]], labels: Sequence[int] | None = None
) -> RecordsInput:
    """Turn table rows into records for `lookup`, with one translated message per problem.

    `labels` are the row numbers the table shows (after deletions they have gaps); by default
    1, 2, 3, …
    """
    checked = RecordsInput([], [])
    labels = list(labels) if labels is not None else list(range(1, len(rows) + 1))
    for row_number, (key, value, number) in zip(labels, rows, strict=True):
        key, value = _text(key), _text(value)
        number = _number(number)
        if not key.strip() and not value.strip() and number is None:
            continue  # a blank row (e.g. just added): nothing to look up yet
        if len(checked.records) >= RECORD_LIMIT:
            checked.problems.append(
                t("database.check.too_many", limit=RECORD_LIMIT, row=row_number)
            )
            break
        if not key.strip():
            checked.problems.append(t("database.check.empty_key", row=row_number))
            continue
        cut = {}
        for column, text in (("key", key), ("value", value)):
            cut[column], length = cut_name(text)
            if length > NAME_LIMIT:
                checked.problems.append(
                    t(
                        "database.check.too_long",
                        row=row_number,
                        column=t(f"database.table.{column}"),
                        length=length,
                        limit=NAME_LIMIT,
                    )
                )
        key, value = cut["key"], cut["value"]
        if number is not None and (not math.isfinite(number) or abs(number) > NUMBER_LIMIT):
            checked.problems.append(
                t(
                    "database.check.number_range",
                    row=row_number,
                    value=fmt(number),
                    limit=fmt(NUMBER_LIMIT),
                )
            )
            number = None
        if number is None:
            checked.missing_numbers.append(row_number)
        checked.records.append((key, value, number))
        checked.rows.append(row_number)
    if checked.records:
        checked.duplicates = [escape_markdown(k, 40) for k in duplicate_keys(checked.records)]
    return checked


def _blank(row: Row) -> bool:
    key, value, number = row
    return not key.strip() and not value.strip() and number is None


def _row(values: Sequence[Any]) -> Row:
    key, value, number = values
    return (_text(key), _text(value), _number(number))


def _label(index: Any, position: int) -> int:
    """The row number the table shows (its index), or the position if that is not a number."""
    try:
        return int(index)
    except (TypeError, ValueError):
        return position


def _text(cell: Any) -> str:
    """A text cell: None/NaN (an untouched new cell) is empty."""
    if cell is None or (isinstance(cell, float) and math.isnan(cell)):
        return ""
    return str(cell)


def _number(cell: Any) -> float | None:
    """A number cell: text as people write numbers (`1e-3`, `−0,5`), or a number; None when
    empty or not a number (the table then says the row has no number)."""
    if cell is None or isinstance(cell, bool):
        return None
    try:
        number = read_number(cell) if isinstance(cell, str) else float(cell)
    except (TypeError, ValueError, NotANumberError):
        return None
    return None if math.isnan(number) else number
