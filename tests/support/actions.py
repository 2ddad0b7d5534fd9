"""A learner's actions as AppTest steps, and the ordinary edit made first on each page with the
check that it is still there (PRIOR_EDITS): shared by the bad-input table and the session
isolation test."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from streamlit.testing.v1 import AppTest

from attention_ui.kit.grids.matrix_editor import matrix_values
from attention_ui.kit.grids.points_editor import current_points
from attention_ui.kit.grids.records_editor import current_records
from tests.support.grids import paste_block, table_edit, type_cell

# --- How a learner's actions reach the app --------------------------------------------------


def edit_grid(at: AppTest, state_key: str, row: int, column: str, value: Any) -> None:
    """Type `value` into a grid cell (row position, column name), keeping earlier edits."""
    type_cell(at, state_key, row, column, value)


def delete_rows(at: AppTest, state_key: str, rows: list[int]) -> None:
    table_edit(at, state_key, deleted=rows)


def paste_below(at: AppTest, text: str) -> None:
    """A block pasted into a new row added below the records."""
    height = len(current_records("database.records", at.session_state))
    table_edit(at, "database.records", added=[{}])
    paste_block(at, "database.records", (height, 0), text, rows=height + 1)


def set_widget(**values: Any) -> Callable[[AppTest], None]:
    """Set widgets by key (keys written with '__' for '.'), as their controls would."""

    def act(at: AppTest) -> None:
        for key, value in values.items():
            at.session_state[key.replace("__", ".")] = value

    return act


def grid(state_key: str, row: int, column: str, value: Any) -> Callable[[AppTest], None]:
    return lambda at: edit_grid(at, state_key, row, column, value)


def both(*acts: Callable[[AppTest], None]) -> Callable[[AppTest], None]:
    def act(at: AppTest) -> None:
        for one in acts:
            one(at)

    return act


def then(*acts: Callable[[AppTest], None]) -> Callable[[AppTest], None]:
    """Actions in separate runs, as a learner makes them one after the other (a control that
    is disabled until another is changed needs this)."""

    def act(at: AppTest) -> None:
        for number, one in enumerate(acts):
            if number:
                at.run()
            one(at)

    return act


def choose(kind: str, key: str, value: Any) -> Callable[[AppTest], None]:
    """Use a widget through AppTest's own API, which refuses what a browser could not do
    (a disabled widget, say)."""
    return lambda at: getattr(at, kind)(key=key).set_value(value)


def click(key: str) -> Callable[[AppTest], None]:
    return lambda at: at.button(key=key).click()


def delete_every_record(at: AppTest) -> None:
    delete_rows(
        at,
        "database.records",
        list(range(len(current_records("database.records", at.session_state)))),
    )


def nothing(at: AppTest) -> None:
    """The bad input is in the address, given before the first run."""


# --- The ordinary edit made first on each page, and how to see it is still there ------------


@dataclass(frozen=True)
class Prior:
    make: Callable[[AppTest], None]
    kept: Callable[[AppTest], bool]


def _shadow(at: AppTest, key: str, row: int, col: int) -> float:
    return float(matrix_values(key, at.session_state)[row, col])


PRIOR_EDITS: dict[str, Prior] = {
    # K's cell (1, k1) set to 7 (column layout: K's rows are its entries, its columns k1…km).
    "luong": Prior(grid("luong.K", 0, "k1", 7.0), lambda at: _shadow(at, "luong.K", 0, 0) == 7.0),
    # The first record's first name changed.
    "database.records": Prior(
        grid("database.records", 0, "value", "Astrid"),
        lambda at: current_records("database.records", at.session_state)[0][1] == "Astrid",
    ),
    "database.query": Prior(
        set_widget(database__query="Smola"),
        lambda at: at.text_input(key="database.query").value == "Smola",
    ),
    # The third value's y set to 2.5.
    "gallery.values": Prior(
        grid("gallery.values", 2, "y", 2.5), lambda at: _shadow(at, "gallery.values", 2, 1) == 2.5
    ),
    "gallery.query": Prior(
        set_widget(gallery__q1=0.5), lambda at: at.slider(key="gallery.q1").value == 0.5
    ),
    "home": Prior(set_widget(home__q1=1.0), lambda at: at.slider(key="home.q1").value == 1.0),
    # The feature map's first pixel set to 5.
    "exercises": Prior(
        then(set_widget(exercises__section="se"), grid("exercises.se.X", 0, "p1", 5.0)),
        lambda at: (
            matrix_values("exercises.se.X", at.session_state) is not None
            and _shadow(at, "exercises.se.X", 0, 0) == 5.0
        ),
    ),
    # The first training point's y set to 9.5; or σ set to 0.8.
    "regression": Prior(
        grid("regression.points", 0, "y", 9.5),
        lambda at: current_points("regression.points", at.session_state)[0][1] == 9.5,
    ),
    "regression.sigma": Prior(
        set_widget(regression__sigma=0.8),
        lambda at: at.number_input(key="regression.sigma").value == 0.8,
    ),
    # W_Q's cell (1, 1) set to 7.
    "transformer": Prior(
        grid("transformer.W_Q", 0, "1", 7.0), lambda at: _shadow(at, "transformer.W_Q", 0, 0) == 7.0
    ),
    # The training page's seed set to 7.
    "train": Prior(
        set_widget(train__seed=7), lambda at: at.number_input(key="train.seed").value == 7
    ),
    # A new d_model draws new matrices from the seed: the causal mask is the edit to keep.
    "transformer.causal": Prior(
        set_widget(transformer__causal=True), lambda at: at.checkbox(key="transformer.causal").value
    ),
}
