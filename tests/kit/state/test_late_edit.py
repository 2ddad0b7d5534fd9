"""A grid's edit that reaches the server after the learner clicked another page.

The browser sends a grid's edit as the cell is left, with the address of the page it was
typed on. When the learner has clicked another page in that time, that page's run
has begun on the server, and the late edit stops it and asks for the old page. The edit must
be kept and the learner must land on the page they clicked. These tests call the callbacks in
that state (the other page's run began).
"""

from __future__ import annotations

import numpy as np
import pytest
import streamlit as st

from attention_ui.kit.grids import cell_grid, matrix_editor, store
from attention_ui.kit.state import navigation
from attention_ui.luong import state as luong_state
from attention_ui.regression import state as regression_state


class Recorder:
    def __init__(self):
        self.calls = []

    def __call__(self, *args, **kwargs):
        self.calls.append(args)


@pytest.fixture
def session(monkeypatch):
    """A plain dict as the session (the callbacks read st.session_state). AppTest cannot send
    a late edit: it sets a grid's state without calling the grid's on_change, so the
    callbacks are called here; tests/browser/test_edit_then_click.py sends it for real."""
    store: dict = {}
    monkeypatch.setattr(st, "session_state", store)
    return store


def test_a_late_edit_after_a_click_on_another_page_goes_on_to_that_page(session, monkeypatch):
    switch = Recorder()
    monkeypatch.setattr(st, "switch_page", switch)
    navigation.page_started("luong")
    matrix_editor.set_matrix("luong.Q", np.zeros((2, 2)))
    navigation.page_started("database")  # the click's run began
    cell_grid._describe(
        cell_grid.GridSpec("Q", "luong.Q", ["1", "2"], ["q1", "q2"], ["number"] * 2)
    )
    entry = {"n": 1, "cells": [[0, 0, "7"]], "rows": ["1", "2"], "cols": ["q1", "q2"]}
    session[store.widget_key("luong.Q")] = {"edit": {"token": "t", "n": 1, "entries": [entry]}}
    cell_grid._on_edit("luong.Q", "luong")  # the grid's on_edit_change
    assert matrix_editor.matrix_values("luong.Q")[0, 0] == 7.0  # the edit is kept
    assert switch.calls == [("pages/database.py",)]  # and the learner goes on


def test_an_edit_on_the_page_the_learner_is_on_stays_there(session, monkeypatch):
    switch = Recorder()
    monkeypatch.setattr(st, "switch_page", switch)
    navigation.follow_navigation("luong")  # no page has run yet
    navigation.page_started("luong")
    navigation.follow_navigation("luong")
    assert switch.calls == []


def test_an_example_selector_state_that_comes_back_unchanged_reloads_nothing(session, monkeypatch):
    """Streamlit calls the selector's on_change when its state reappears after another page's
    run began, though the learner chose nothing: reloading would wipe the late edit."""
    load = Recorder()
    monkeypatch.setattr(luong_state, "load_preset", load)
    session[luong_state.PRESET.key], session[luong_state.SEED.key] = "first", 3
    luong_state.settings_drawn()  # the page drew the settings with these
    luong_state.choose_preset()
    assert load.calls == []
    session[luong_state.SEED.key] = 4  # a new seed is a choice
    luong_state.choose_preset()
    assert len(load.calls) == 1
    session[luong_state.PRESET.key] = "random"
    luong_state.choose_preset()
    assert len(load.calls) == 2


def test_a_layout_switch_state_that_comes_back_unchanged_transposes_nothing(session, monkeypatch):
    transpose = Recorder()
    monkeypatch.setattr(luong_state, "transpose_matrix", transpose)
    session[luong_state.LAYOUT.key] = "column"
    luong_state.settings_drawn()
    luong_state.switch_layout()
    assert transpose.calls == []
    session[luong_state.LAYOUT.key] = "row"
    luong_state.switch_layout()
    assert len(transpose.calls) == len(luong_state.INPUTS) + 1  # Q, K, V and the mask


def test_noisy_data_boxes_whose_state_comes_back_unchanged_draw_no_new_points(session, monkeypatch):
    """The regression page's seed and count: new points would replace the learner's table."""
    load = Recorder()
    monkeypatch.setattr(regression_state, "load_preset", load)
    session[regression_state.SEED.key], session[regression_state.COUNT.key] = 0, 20
    regression_state.data_drawn()  # the page drew the boxes with these
    regression_state.change_noisy_data()
    assert load.calls == []
    session[regression_state.COUNT.key] = 21
    regression_state.change_noisy_data()
    assert load.calls == [("noisy",)]
