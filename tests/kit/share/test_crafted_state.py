"""Whatever arrives as widget state is input: a crafted client's values get
the app's message or the default, never a traceback, and the learner's other edits stay.

A crafted value reaches the app in two ways, both tried here: as a grid's component state (set
on the grid's key, where the browser's edits arrive: any type, any size, any cell), and as a
widget's value waiting in the session when the page is drawn (set while another page is open,
so AppTest does not refuse to send it; Streamlit 1.67 hands a selectbox's or radio's unknown
string to the app the same way).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_ui.kit.grids.matrix_editor import matrix_values
from attention_ui.kit.grids.records_editor import current_records
from tests.conftest import APP, open_app_page
from tests.plotly_json import charts
from tests.support.grids import crafted_state

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
    ("regression", "regression.kernel", "soundex", "gaussian"),
    ("regression", "regression.count", 10**6, 40),
    ("regression", "regression.chosen", "x", 6),
    ("transformer", "transformer.d_model", 10_000, 4),
    ("transformer", "transformer.heads", "x", 2),
    ("transformer", "transformer.seed", -1, 0),
    ("exercises", "exercises.grad.points", "<script>", "gallery"),
    ("exercises", "exercises.match.similarity", None, "ngram"),
    ("exercises", "exercises.grad.q1", float("inf"), 1.0),
    ("exercises", "exercises.grad.tau", -3.0, 1.0),
    ("exercises", "exercises.grad.q2", float("nan"), 0.5),
    ("exercises", "exercises.search.steps", 2.5, 30),
    ("exercises", "exercises.search.steps", 10**4, 10**4),  # the engine caps it and says so
    ("exercises", "exercises.match.answer.show", "yes", False),
    ("exercises", "exercises.match.query", 3, "Li"),
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


def entries(*listed: Any, token: Any = "crafted") -> dict:
    """A grid's browser state carrying these entries (numbered 1, 2, … unless they say)."""
    numbered = [
        {"n": i, **entry} if isinstance(entry, dict) and "n" not in entry else entry
        for i, entry in enumerate(listed, start=1)
    ]
    return {"edit": {"token": token, "n": len(listed), "entries": numbered}}


def cells(*listed: Any) -> dict:
    return entries({"cells": list(listed)})


HOLD = "cannot hold"
# (page, grid, crafted component state, what a message says, whether every value is kept)
CRAFTED_GRIDS = [
    ("luong", "luong.Q", [1, 2], HOLD, True),  # a list instead of the component's dict
    ("luong", "luong.Q", {"edit": [1, 2]}, HOLD, True),
    ("luong", "luong.Q", {"edit": "not json {"}, HOLD, True),
    ("luong", "luong.Q", {"edit": {"token": 5, "entries": []}}, HOLD, True),
    ("luong", "luong.Q", {"edit": {"token": "t" * 65, "entries": []}}, HOLD, True),
    ("luong", "luong.Q", {"edit": {"token": "t", "entries": {"0": 1}}}, HOLD, True),
    ("luong", "luong.Q", entries(5, "x", None), HOLD, True),
    ("luong", "luong.Q", entries({"n": "1", "cells": [[0, 0, "1"]]}), HOLD, True),
    ("luong", "luong.Q", entries({"n": 2**60, "cells": [[0, 0, "1"]]}), HOLD, True),
    ("luong", "luong.Q", entries({"n": True, "cells": [[0, 0, "1"]]}), HOLD, True),
    ("luong", "luong.Q", cells([0, 99, "1"]), HOLD, True),  # an unknown column
    ("luong", "luong.Q", cells([99, 0, "1"]), HOLD, True),  # a row out of range
    ("luong", "luong.Q", cells([-1, 0, "1"]), HOLD, True),
    ("luong", "luong.Q", cells(["abc", 0, "1"]), HOLD, True),
    ("luong", "luong.Q", cells([True, 0, "1"]), HOLD, True),
    ("luong", "luong.Q", cells([0, 0]), HOLD, True),
    ("luong", "luong.Q", cells({"q1": 1.0}), HOLD, True),
    ("luong", "luong.Q", entries({"cells": {"0": {"q1": 1}}}), HOLD, True),
    ("luong", "luong.Q", entries({"cells": []}), HOLD, True),
    ("luong", "luong.Q", entries({"add_row": True}), HOLD, True),  # a grid of fixed size
    ("luong", "luong.Q", entries({"delete_row": 0}), HOLD, True),
    ("luong", "luong.Q", entries({"paste": 5, "at": [0, 0]}), HOLD, True),
    ("luong", "luong.Q", entries({"paste": "1\t2", "at": [99, 0]}), HOLD, True),
    ("luong", "luong.Q", entries({"paste": "1\t2", "at": "a1"}), HOLD, True),
    ("luong", "luong.Q", entries(*[{"cells": [[99, 0, "1"]]}] * 5000), HOLD, True),
    ("luong", "luong.Q", cells([0, 0, "x" * 10_000]), "is too long to be a number", True),
    ("luong", "luong.Q", cells([0, 0, [[["deep"]]]]), "is not a number", True),
    ("luong", "luong.Q", cells([0, 0, {"a": 1}]), "is not a number", True),
    ("luong", "luong.Q", cells([0, 0, "1e308"]), "outside the allowed range", True),
    ("gallery", "gallery.values", entries({"delete_row": 0}), HOLD, True),
    ("gallery", "gallery.cone", cells([0, 9, "1"]), HOLD, True),
    ("database", "database.records", cells(["abc", 0, "x"]), HOLD, True),
    ("database", "database.records", cells([0, 7, "x"]), HOLD, True),
    ("database", "database.records", entries({"delete_row": "x"}), HOLD, True),
    ("database", "database.records", entries({"delete_row": 99}), HOLD, True),
    ("database", "database.records", cells([0, 2, "x" * 10_000]), "too long to be a number", True),
    ("database", "database.records", cells([0, 0, "x" * 10_000_001]), "characters long", False),
]


@pytest.mark.parametrize(
    ("page", "grid", "crafted", "says", "kept"),
    CRAFTED_GRIDS,
    ids=[f"{g}-{str(c)[:60]}" for _, g, c, _, _ in CRAFTED_GRIDS],
)
def test_a_crafted_grid_state_gets_a_message_and_keeps_the_values(page, grid, crafted, says, kept):
    at = open_app_page(page)
    if page == "database":
        before = list(current_records(grid, at.session_state))
    else:
        before = matrix_values(grid, at.session_state).copy()
    crafted_state(at, grid, crafted)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(says in w.value for w in at.warning), [w.value for w in at.warning]
    if kept and page == "database":
        assert current_records(grid, at.session_state) == before
    elif kept:
        np.testing.assert_array_equal(matrix_values(grid, at.session_state), before)
    at.run()
    assert not at.exception


def test_a_huge_luong_entry_does_not_break_the_gallerys_grid_or_its_saved_state():
    at = open_app_page("luong")
    crafted_state(at, "luong.Q", cells([0, 0, 1e308]))
    at.run()
    at.switch_page("pages/gallery.py").run()
    assert not at.exception
    at.slider(key="gallery.q1").set_value(-1.0).run()
    assert not at.exception
    assert charts(at)
    at.switch_page("pages/home.py").run()
    at.switch_page("pages/gallery.py").run()
    assert at.slider(key="gallery.q1").value == -1.0  # the gallery's state was kept
