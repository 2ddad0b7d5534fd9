"""Session isolation: what one student does never shows up in another student's session.

Each AppTest is its own session of the same app code in the same process (so module-level
caches are shared, as on the server). On every page, session A makes an edit; a new session B
must see the page's default, and B's own edit must not reach A. The browser version, two
browser contexts against one running server, is tests/browser/test_isolation.py.
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from attention_ui.kit.grids.matrix_editor import matrix_values
from attention_ui.kit.grids.points_editor import current_points
from attention_ui.kit.grids.records_editor import current_records
from attention_ui.page_list import NAMES
from tests.conftest import APP
from tests.support.actions import PRIOR_EDITS, Prior, grid, set_widget, then


def records(at: AppTest) -> list:
    return current_records("database.records", at.session_state)


def values(at: AppTest, page: str):
    keys = {"luong": "luong.K", "gallery": "gallery.values", "exercises": "exercises.se.X"}
    return matrix_values(keys[page], at.session_state)


# Per page: the edit session A makes, and a different edit of the same thing by session B.
EDITS: dict[str, tuple[Prior, Prior]] = {
    "luong": (
        PRIOR_EDITS["luong"],
        Prior(grid("luong.K", 0, "k1", -4.0), lambda at: float(values(at, "luong")[0, 0]) == -4.0),
    ),
    "database": (
        PRIOR_EDITS["database.records"],
        Prior(grid("database.records", 0, "value", "Bea"), lambda at: records(at)[0][1] == "Bea"),
    ),
    "gallery": (
        PRIOR_EDITS["gallery.values"],
        Prior(
            grid("gallery.values", 2, "y", -1.5),
            lambda at: float(values(at, "gallery")[2, 1]) == -1.5,
        ),
    ),
    "exercises": (
        PRIOR_EDITS["exercises"],
        Prior(
            then(set_widget(exercises__section="se"), grid("exercises.se.X", 0, "p1", -3.0)),
            lambda at: (
                values(at, "exercises") is not None and values(at, "exercises")[0, 0] == -3.0
            ),
        ),
    ),
    "home": (
        PRIOR_EDITS["home"],
        Prior(set_widget(home__q1=-2.0), lambda at: at.slider(key="home.q1").value == -2.0),
    ),
    "regression": (
        PRIOR_EDITS["regression"],
        Prior(
            grid("regression.points", 0, "y", -3.5),
            lambda at: current_points("regression.points", at.session_state)[0][1] == -3.5,
        ),
    ),
    "train": (
        PRIOR_EDITS["train"],
        Prior(set_widget(train__seed=3), lambda at: at.number_input(key="train.seed").value == 3),
    ),
    "transformer": (
        PRIOR_EDITS["transformer"],
        Prior(
            grid("transformer.W_Q", 0, "1", -4.0),
            lambda at: float(matrix_values("transformer.W_Q", at.session_state)[0, 0]) == -4.0,
        ),
    ),
}


def open_session(page: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception
    return at


@pytest.mark.parametrize("page", sorted(EDITS))
def test_an_edit_in_one_session_never_appears_in_another(page):
    mine, theirs = EDITS[page]
    a = open_session(page)
    mine.make(a)
    a.run()
    assert mine.kept(a)

    b = open_session(page)
    assert not mine.kept(b), "a new session starts with another session's edit"
    theirs.make(b)
    b.run()
    assert theirs.kept(b) and not mine.kept(b)

    a.run()  # A reruns after B's edit: still only its own
    assert mine.kept(a) and not theirs.kept(a)


def test_every_page_has_an_isolation_check():
    assert set(EDITS) == set(NAMES)
