"""Folds (attention_ui/kit/folds.py): a closed fold builds nothing inside, opening it builds its
content, and it stays open across reruns, a change of its label too; on the pages, the Luong
page's formula notes and the home page's "Why attention?" are folds (issue 37: a cold open
builds only the first screen)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from attention_ui.kit.text.i18n import LANGUAGES, t
from attention_ui.luong import state as luong
from tests.support.pages import open_fold, open_page


def folds_script() -> None:
    import streamlit as st

    from attention_ui.kit.folds import fold, folded

    word = st.radio("word", ["one", "two"], key="word")
    with fold(f"Fold {word}", key="demo.fold") as open_:
        if open_:
            st.markdown("inside the fold")
            st.number_input("inside number", key="demo.number")
    box = folded("Table", key="demo.table", compact=True)
    if box.open:
        box.box.markdown("inside the table")
    st.markdown("after the folds")


def texts(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown]


def test_a_closed_fold_builds_nothing_inside_and_opening_it_builds_its_content():
    at = AppTest.from_function(folds_script).run()
    assert not at.exception
    assert [e.label for e in at.expander] == ["Fold one", "Table"]
    assert all(not e.children for e in at.expander)
    assert texts(at) == ["after the folds"]
    assert not at.number_input
    at = open_fold(at, "demo.fold")
    (opened, table) = at.expander
    assert [m.value for m in opened.markdown] == ["inside the fold"]
    assert [n.key for n in opened.number_input] == ["demo.number"]
    assert not table.children
    at = open_fold(at, "demo.table")
    assert [m.value for m in at.expander[1].markdown] == ["inside the table"]


def test_an_open_fold_stays_open_across_reruns_and_a_new_label():
    at = open_fold(AppTest.from_function(folds_script).run(), "demo.fold")
    at.run()
    assert "inside the fold" in texts(at)
    at.radio(key="word").set_value("two").run()  # the label changes: "Fold two"
    assert not at.exception
    assert at.expander[0].label == "Fold two"
    assert "inside the fold" in texts(at)
    assert at.expander[0].proto.expanded  # drawn open, as the learner left it
    at.session_state["demo.fold"] = False  # a click folds it again
    at.run()
    assert "inside the fold" not in texts(at)
    at.radio(key="word").set_value("one").run()
    assert "inside the fold" not in texts(at)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_luong_formula_notes_are_built_only_once_unfolded(lang):
    at = open_page("luong", lang)
    at.selectbox(key=luong.SCORE.key).set_value("scaled_dot").run()
    title = t("luong.formula.title", lang, score=t("luong.score_name.scaled_dot", lang))
    (box,) = [e for e in at.expander if e.label == title]
    assert not box.children
    assert not [n for n in at.number_input if n.key == luong.SCALING_D_K.key]
    at = open_fold(at, luong.FORMULA_BOX)
    (box,) = [e for e in at.expander if e.label == title]
    assert [n.key for n in box.number_input] == [luong.SCALING_D_K.key, luong.SCALING_SEED.key]
    assert t("luong.formula.layout_column", lang) in [c.value for c in box.caption]
    # another score: the notes stay open (under the new score's name) and say its own words
    at.selectbox(key=luong.SCORE.key).set_value("general").run()
    title = t("luong.formula.title", lang, score=t("luong.score_name.general", lang))
    (box,) = [e for e in at.expander if e.label == title]
    assert t("luong.formula.general_note", lang) in [c.value for c in box.caption]


def test_the_scaling_demos_numbers_outlive_the_fold_and_stay_in_the_address():
    at = open_fold(open_page("luong"), luong.FORMULA_BOX)
    at.selectbox(key=luong.SCORE.key).set_value("scaled_dot").run()
    at.number_input(key=luong.SCALING_D_K.key).set_value(512).run()
    assert at.query_params.get("sdk") == "512"
    at.session_state[luong.FORMULA_BOX] = False
    at.run()
    assert not [n for n in at.number_input if n.key == luong.SCALING_D_K.key]
    assert at.query_params.get("sdk") == "512"
    at = open_fold(at, luong.FORMULA_BOX)
    assert at.number_input(key=luong.SCALING_D_K.key).value == 512


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_home_pages_why_is_built_only_once_unfolded(lang):
    at = open_page("home", lang)
    (box,) = [e for e in at.expander if e.label == t("home.why.title", lang)]
    assert not box.children
    at = open_fold(at, "home.why")
    (box,) = [e for e in at.expander if e.label == t("home.why.title", lang)]
    assert len(box.markdown) == 3
