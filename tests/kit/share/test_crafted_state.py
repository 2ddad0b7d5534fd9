"""Whatever arrives as widget state is input (issue 14, item 4): a crafted client's values get
the app's message or the default, never a traceback, and the learner's other edits stay.

A crafted value reaches the app in two ways, both tried here: as a grid's state (set on the
editor's key, as the browser sends it), and as a widget's value waiting in the session when the
page is drawn (set while another page is open, so AppTest does not refuse to send it; Streamlit
1.67 hands a selectbox's or radio's unknown string to the app the same way).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_ui.kit.grids.matrix_editor import editor_key, matrix_values
from attention_ui.kit.grids.records_editor import current_records
from attention_ui.kit.grids.records_editor import editor_key as records_key
from tests.conftest import APP, open_app_page

CRAFTED_WIDGETS = [  # (page, key, crafted value, the value the page must use instead)
    ("luong", "luong.preset", "nope", "first"),
    ("luong", "luong.preset", None, "first"),
    ("luong", "luong.layout", 3, "column"),
    ("luong", "luong.score", "softmax", "dot"),
    ("luong", "luong.tau", "abc", 1.0),
    ("luong", "luong.tau", 0.3, 1.0),
    ("luong", "luong.size.n", "abc", 2),
    ("luong", "luong.size.m", 10**9, 3),
    ("luong", "luong.seed", "abc", 0),
    ("luong", "luong.mask.kind", 5, "none"),
    ("luong", "luong.follow.key", "x", 0),
    ("luong", "luong.predict", "yes", False),
    ("database", "database.similarity", 2, "exact"),
    ("database", "database.query", 5, "Li"),
    ("database", "database.query", "x" * 10_000_000, "Li"),
    ("database", "database.query", "Li\ud800", "Li"),  # a lone surrogate cannot be sent
    ("database", "database.temperature", "hot", 0.1),
    ("database", "database.normalization", ["softmax"], "softmax"),
    ("gallery", "gallery.q1", "abc", 1.0),
    ("gallery", "gallery.q1", float("nan"), 1.0),
    ("gallery", "gallery.m", "abc", 3),
    ("gallery", "gallery.grid.source", 1, "luong"),
    ("gallery", "gallery.grid.temperatures", ["x"], [0.25, 1.0, 4.0]),
    ("home", "home.q1", "abc", 2.0),
]


@pytest.mark.parametrize(
    ("page", "key", "crafted", "used"),
    CRAFTED_WIDGETS,
    ids=[f"{k}={str(v)[:12]!r}" for _, k, v, _ in CRAFTED_WIDGETS],
)
def test_a_crafted_widget_value_falls_back_without_a_traceback(page, key, crafted, used):
    other = "gallery" if page != "gallery" else "home"
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.switch_page(f"pages/{other}.py").run()
    at.session_state[key] = crafted  # waiting in the session when the page is drawn
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state[key] == used
    at.run()
    assert not at.exception


def test_an_unknown_preset_sent_with_its_change_callback_loads_the_default():
    at = open_app_page("luong")
    at.selectbox(key="luong.preset").set_value("rotation").run()
    at.switch_page("pages/gallery.py").run()
    at.session_state["luong.preset"] = "nope"
    at.switch_page("pages/luong.py").run()
    assert not at.exception
    assert at.selectbox(key="luong.preset").value in ("rotation", "first")


def grid_state(edited: Any = None, added: Any = None, deleted: Any = None) -> dict:
    return {"edited_rows": edited or {}, "added_rows": added or [], "deleted_rows": deleted or []}


CRAFTED_GRIDS = [  # (page, grid, crafted editor state)
    ("luong", "luong.Q", grid_state({"abc": {"q1": 1.0}})),
    ("luong", "luong.Q", grid_state({0: {"zz": 1.0}})),
    ("luong", "luong.Q", grid_state({-1: {"q1": 1.0}})),
    ("luong", "luong.Q", grid_state({99: {"q1": 1.0}})),
    ("luong", "luong.Q", grid_state({0: ["q1", 1.0]})),
    ("luong", "luong.Q", grid_state({0: {"q1": "x" * 20_000}})),
    ("luong", "luong.Q", grid_state(added=[{"q1": 1.0}])),
    ("luong", "luong.Q", "not json {"),
    ("luong", "luong.Q", [1, 2]),
    ("luong", "luong.Q", {"edited_rows": [1]}),
    ("gallery", "gallery.values", grid_state(deleted=[0, 1, 2])),
    ("gallery", "gallery.cone", grid_state({0: {"v9": 1.0}})),
    ("database", "database.records", grid_state({"abc": {"key": "x"}})),
    ("database", "database.records", grid_state({0: {"zz": "x"}})),
    ("database", "database.records", grid_state(added=[{"zz": 1}, 5])),
    ("database", "database.records", grid_state(deleted=["x"])),
    ("database", "database.records", grid_state({0: {"key": "x" * 10_000_001}})),
]


@pytest.mark.parametrize(
    ("page", "grid", "crafted"),
    CRAFTED_GRIDS,
    ids=[f"{g}-{str(c)[:40]}" for _, g, c in CRAFTED_GRIDS],
)
def test_a_crafted_grid_state_gets_a_message_and_keeps_the_values(page, grid, crafted):
    at = open_app_page(page)
    if page == "database":
        before = list(current_records(grid, at.session_state))
        at.session_state[records_key(grid, at.session_state)] = crafted
    else:
        before = matrix_values(grid, at.session_state).copy()
        at.session_state[editor_key(grid, at.session_state)] = crafted
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("cannot hold" in w.value for w in at.warning), [w.value for w in at.warning]
    if page == "database":
        assert current_records(grid, at.session_state) == before
    else:
        np.testing.assert_array_equal(matrix_values(grid, at.session_state), before)
    at.run()
    assert not at.exception


def test_a_huge_luong_entry_does_not_break_the_gallerys_grid_or_its_saved_state():
    at = open_app_page("luong")
    at.session_state[editor_key("luong.Q", at.session_state)] = grid_state({0: {"q1": 1e308}})
    at.run()
    at.switch_page("pages/gallery.py").run()
    assert not at.exception
    at.slider(key="gallery.q1").set_value(-1.0).run()
    assert not at.exception
    assert at.get("plotly_chart")
    at.switch_page("pages/home.py").run()
    at.switch_page("pages/gallery.py").run()
    assert at.slider(key="gallery.q1").value == -1.0  # the gallery's state was kept
