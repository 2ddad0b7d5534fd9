"""One way to keep values, and no edit lost when a size shrinks and grows.

"−" then "+" on a size is an undo: the cells the smaller size hid come back as they were.
"""

from __future__ import annotations

import re

import numpy as np

from attention_ui.kit.grids.matrix_editor import matrix_values
from tests.conftest import REPO, open_app_page
from tests.support.grids import edit_grid


def test_luong_n_two_to_one_to_two_keeps_q2():
    at = open_app_page("luong")
    before = matrix_values("luong.Q", at.session_state).copy()
    assert before.shape[1] == 2
    at.number_input(key="luong.size.n").set_value(1).run()
    assert matrix_values("luong.Q", at.session_state).shape[1] == 1
    at.number_input(key="luong.size.n").set_value(2).run()
    assert not at.exception
    np.testing.assert_array_equal(matrix_values("luong.Q", at.session_state), before)


def test_gallery_m_three_to_eight_to_one_to_three_keeps_v2_and_v3():
    at = open_app_page("gallery")
    before = matrix_values("gallery.values", at.session_state).copy()
    for m in (8, 1, 3):
        at.number_input(key="gallery.m").set_value(m).run()
        assert not at.exception
        assert matrix_values("gallery.values", at.session_state).shape == (m, 2)
    np.testing.assert_array_equal(matrix_values("gallery.values", at.session_state), before)


def test_an_edit_hidden_by_a_shrink_comes_back_after_another_page():
    at = open_app_page("luong")
    at.number_input(key="luong.size.m").set_value(4).run()
    key = "luong.K"
    edit_grid(at, key, {1: {"k4": 9.5}})
    at.run()
    at.number_input(key="luong.size.m").set_value(2).run()
    at.switch_page("pages/gallery.py").run()
    at.switch_page("pages/luong.py").run()
    at.number_input(key="luong.size.m").set_value(4).run()
    assert not at.exception
    assert matrix_values(key, at.session_state)[1, 3] == 9.5


def test_a_preset_forgets_the_hidden_cells():
    at = open_app_page("gallery")
    at.number_input(key="gallery.m").set_value(1).run()
    at.button(key="gallery.preset.first_quadrant").click().run()
    at.number_input(key="gallery.m").set_value(1).run()
    at.number_input(key="gallery.m").set_value(4).run()
    assert not at.exception
    assert matrix_values("gallery.values", at.session_state)[3].tolist() == [0.0, 0.0]


def test_no_module_or_test_reads_the_editors_private_keys():
    """The matrix, records and training-point editors own their session keys; others call
    their functions."""
    owners = {
        "attention_ui/kit/grids/store.py",  # the one store behind every grid
        "attention_ui/kit/state/page_state.py",
        "tests/kit/state/test_kept_values.py",
    }
    private = re.compile(
        r"""(\}|luong\.[\w.]+|gallery\.\w+|database\.records)"""
        r"""\.(shadow|base|columns|current|kept|shape|saved)["']"""
    )
    offenders = [
        str(path.relative_to(REPO))
        for folder in ("attention_ui", "pages", "tests", "bench")
        for path in (REPO / folder).rglob("*.py")
        if str(path.relative_to(REPO)) not in owners
        and private.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
