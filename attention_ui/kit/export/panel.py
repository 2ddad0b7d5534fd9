"""The export panel every page that computes attention draws with one call.

    export_panel("regression", lambda: Export(script=numpy_script(...),
                                              tables=[Table("weights", nw.weights, rows, cols)],
                                              derivation=derivation_latex(...)),
                 details=(kernel,))

The panel is a fold (kit.folds): `build` runs only while it is open, so a closed panel costs a
page nothing. It offers the script (download and shown), each matrix as CSV, and the LaTeX
of the derivation (download and shown, ready to copy). Every chart's PNG comes from its own
camera button (attention_ui.kit.figures.charts).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import streamlit as st

from attention_ui.kit.export.csv_writer import matrix_csv
from attention_ui.kit.export.names import file_name
from attention_ui.kit.export.scripts import LISTING_NUMBERS
from attention_ui.kit.folds import folded
from attention_ui.kit.text.i18n import t

# The most text one code block of the panel shows (the download holds all of it): a browser
# takes seconds and hundreds of megabytes to lay out megabytes of highlighted code.
SHOWN_CHARS = 300_000


@dataclass(frozen=True)
class Table:
    """One matrix to hand out as CSV: `name` goes into the file name (ASCII, no user text)."""

    name: str
    values: Any
    rows: Sequence[str]
    cols: Sequence[str]


@dataclass(frozen=True)
class Export:
    """What a page hands out; any part may be missing."""

    script: str | None = None
    tables: Sequence[Table] = field(default_factory=tuple)
    derivation: str | None = None
    notes: Sequence[str] = ()  # sentences about the export itself (what a listing left out)


def table_csv(table: Table) -> str:
    """The text of a table's CSV download."""
    return matrix_csv(table.values, table.rows, table.cols)


def export_panel(
    page: str, build: Callable[[], Export], *, details: tuple = (), latex: bool = True
) -> None:
    """An 'Export' expander; `build()` is called only while it is open. `details` (settings
    such as the score and layout, never user text) go into the file names. `latex`: the
    export holds a derivation (the title names LaTeX only then: it is drawn before `build`)."""
    title = t("export.title") if latex else t("export.title_no_latex")
    panel = folded(title, key=f"{page}.export", icon=":material/download:")
    if not panel.open:
        return
    export = build()
    with panel.box:
        st.caption(t("export.intro"))
        for note in export.notes:
            st.info(note)
        if export.script is not None:
            st.download_button(
                t("export.script"),
                deferred(export.script),
                file_name=file_name(page, *details, suffix=".py"),
                mime="text/x-python",
                key=f"{page}.export.script",
                on_click="ignore",
                icon=":material/code:",
            )
            st.caption(t("export.script_help"))
            show_code(export.script, "python")
        if export.tables:
            st.markdown(t("export.tables"))
            columns = st.columns(min(len(export.tables), 4))
            for number, table in enumerate(export.tables):
                columns[number % len(columns)].download_button(
                    t("export.csv", name=table.name),
                    _csv_data(table),
                    file_name=file_name(page, table.name, *details, suffix=".csv"),
                    mime="text/csv",
                    key=f"{page}.export.csv.{table.name}",
                    on_click="ignore",
                    icon=":material/table:",
                )
        if export.derivation is not None:
            st.markdown(t("export.derivation"))
            st.download_button(
                t("export.latex"),
                deferred(export.derivation),
                file_name=file_name(page, *details, suffix=".tex"),
                mime="text/x-tex",
                key=f"{page}.export.latex",
                on_click="ignore",
                icon=":material/functions:",
            )
            show_code(export.derivation, "latex")
        st.caption(t("export.png"))


def show_code(text: str, language: str) -> None:
    """A code block of at most SHOWN_CHARS characters, and a sentence when it holds less."""
    st.code(text[:SHOWN_CHARS], language=language, height=300)
    if len(text) > SHOWN_CHARS:
        st.caption(t("export.shown_part", shown=f"{SHOWN_CHARS:,}", total=f"{len(text):,}"))


def _csv_data(table: Table) -> str | Callable[[], str]:
    """A small table's CSV now; a large one's (thousands of cells) only when its button is
    clicked, so that a run with the panel open does not write it."""
    if np.size(table.values) <= LISTING_NUMBERS:
        return table_csv(table)
    return lambda: table_csv(table)


def deferred(text: str) -> Callable[[], str]:
    """A download's text handed over only when its button is clicked: no media file is stored
    (and replaced) on every run, which the browser would otherwise fetch stale. Every download
    button of the app takes its data through this."""
    return lambda: text
