"""The editable database of the lookup page: (key, value, number) records in an `st.data_editor`.

Rows can be added and deleted in the browser. Everything is checked here, on the server:
a row without a key is left out (and the message says which row), names longer than
NAME_LIMIT characters once normalised (NFKC, as the similarities compare them: "ﷺ" is 18
characters) are cut (and the message says so), numbers outside ±NUMBER_LIMIT are dropped, keys
that occur twice are reported (exact lookup then splits the weight between them), and a table
of more than RECORD_LIMIT rows (a paste) is cut to that many, so that no later rerun pays for
the rest. Numbers are text cells read by `number_text.read_number`, as in the matrix grids.
Names are shown as plain text everywhere: messages escape them with `escape_markdown`.

State (`state_key`, e.g. "database.records"; this module owns these keys, others call
`current_records` / `set_records`): `.base` holds the rows the app last set (a preset, a step of
the guided story, a shared address), `.version` is part of the editor's widget key (a new key
makes the editor forget old edits). The rows as the learner last left them are kept with
`page_state.keep(state_key, rows)`, so the table survives a visit to another page (Streamlit
forgets a widget's edits when it is not drawn).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
import streamlit as st

from attention_core import duplicate_keys, fmt
from attention_ui.kit.grids.editor_state import editor_state_ok
from attention_ui.kit.grids.number_text import MAX_CHARS, NotANumberError, read_number
from attention_ui.kit.grids.table_limits import added_count, cut_rows, rows_after_edits
from attention_ui.kit.state import page_state
from attention_ui.kit.text.i18n import current_language, t
from attention_ui.kit.text.markdown import escape_markdown

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
    """Replace the table's content (a preset, a story step, a shared address): the editor
    starts afresh."""
    state = st.session_state if session is None else session
    rows = [tuple(row) for row in rows]
    state[f"{state_key}.base"] = rows
    page_state.keep(state_key, rows, state)
    state[f"{state_key}.version"] = state.get(f"{state_key}.version", 0) + 1


def forget_records(state_key: str) -> None:
    """Forget the table: the next draw starts from the page's default rows."""
    st.session_state.pop(f"{state_key}.base", None)
    page_state.forget(state_key)
    st.session_state[f"{state_key}.version"] = st.session_state.get(f"{state_key}.version", 0) + 1


def editor_key(state_key: str, session: Any = None) -> str:
    state = st.session_state if session is None else session
    return f"{state_key}.editor.{state.get(f'{state_key}.version', 0)}"


def current_records(state_key: str, session: Any = None) -> list[Row] | None:
    """The rows as the learner last left them (None before the table was first set)."""
    return page_state.kept(state_key, None, session)


def records_editor(
    state_key: str, default: Sequence[Row], *, help: str | None = None
) -> RecordsInput:
    """Draw the records table and return its checked content."""
    if f"{state_key}.base" in st.session_state and not _editor_state_sane(state_key):
        # Not an edit the table can hold (a crafted client): back to the rows last seen.
        set_records(state_key, current_records(state_key))
        st.warning(t("editor.crafted_state", matrix=t("database.table.title")), icon="⚠️")
    if f"{state_key}.base" not in st.session_state:
        set_records(state_key, default)
    else:
        # Back from another page, the editor forgot its edits; after a language switch its
        # translated column labels make it a new widget that never saw them. The copy in
        # `.current` has them: it becomes the new content.
        forgotten = (
            editor_key(state_key) not in st.session_state
            or st.session_state.get(f"{state_key}.lang") != current_language()
        )
        current = current_records(state_key)
        if forgotten and current != st.session_state[f"{state_key}.base"]:
            set_records(state_key, current)
    st.session_state[f"{state_key}.lang"] = current_language()
    _cut_a_paste(state_key)
    base = st.session_state[f"{state_key}.base"]
    # Rows are numbered from 1 as people count; added rows continue the numbering.
    frame = pd.DataFrame(
        [list(row) for row in base] or None,
        columns=list(COLUMNS),
        index=pd.RangeIndex(1, len(base) + 1),
    )
    frame["number"] = [number_text(x) for x in frame["number"]]
    frame = frame.astype(object)
    config = {
        "key": st.column_config.TextColumn(
            t("database.table.key"), width=150, help=t("database.table.key_help")
        ),
        "value": st.column_config.TextColumn(
            t("database.table.value"), width=150, help=t("database.table.value_help")
        ),
        # Text, read on the server: the browser's number editor rewrites what is typed.
        "number": st.column_config.TextColumn(
            t("database.table.number"),
            width=120,
            help=t("database.table.number_help"),
            max_chars=MAX_CHARS,
            alignment="right",
        ),
    }
    if help:
        st.caption(help)
    try:
        edited = st.data_editor(
            frame,
            key=editor_key(state_key),
            num_rows="dynamic",
            column_config=config,
            hide_index=False,
        )
    except IndexError:
        # Only a crafted client can edit a row the table does not have, which Streamlit
        # fails to apply: start the table afresh from the rows as they were last seen.
        set_records(state_key, current_records(state_key))
        st.rerun()
    rows = [_row(values) for values in edited[list(COLUMNS)].itertuples(index=False)]
    filled = [row for row in rows if not _blank(row)]
    if len(filled) > RECORD_LIMIT:
        # A paste of thousands of rows: keep what the message says, so that no later rerun
        # pays for the rest (Streamlit would re-apply every added row on every run).
        set_records(state_key, filled[:RECORD_LIMIT])
        st.session_state[f"{state_key}.cut"] = (
            st.session_state[f"{state_key}.version"],
            len(filled),
        )
        st.rerun()
    page_state.keep(state_key, rows)
    checked = check_records(rows, [_label(i, n) for n, i in enumerate(edited.index, start=1)])
    cut = st.session_state.get(f"{state_key}.cut")
    if cut and cut[0] == st.session_state[f"{state_key}.version"]:
        checked.problems.insert(0, t("database.check.cut", count=cut[1], limit=RECORD_LIMIT))
    return checked


def _cut_a_paste(state_key: str) -> None:
    """Before the table is drawn: a paste of more rows than the table keeps becomes a fresh
    table of the first RECORD_LIMIT of them. Streamlit would otherwise add the pasted rows one
    by one (thousands of rows cost seconds), on this run and on every later one."""
    edits = st.session_state.get(editor_key(state_key))
    if added_count(edits) <= RECORD_LIMIT:
        return
    rows = rows_after_edits(st.session_state[f"{state_key}.base"], edits, COLUMNS)
    kept, total = cut_rows([_row(row) for row in rows], RECORD_LIMIT, _blank)
    set_records(state_key, kept)
    st.session_state[f"{state_key}.cut"] = (st.session_state[f"{state_key}.version"], total)


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


def _editor_state_sane(state_key: str) -> bool:
    try:
        state = st.session_state.get(editor_key(state_key))
    except Exception:  # a state Streamlit cannot even read is not an edit
        return False
    rows = len(st.session_state[f"{state_key}.base"])
    return editor_state_ok(state, rows, COLUMNS, fixed=False)


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


def number_text(number: Any) -> str:
    """A record's number as its cell shows it (as the app writes numbers), '' when none."""
    number = _number(number)
    return "" if number is None else fmt(number, 10)


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
