"""The database lookup page: the guided story, table edits, several queries, and bad input.

Every expected number comes from `attention_core.lookup` on the same inputs; table edits are
simulated the way the grid editor's browser half sends them (tests/support/grids.py).
"""

import json
import re

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_core import lookup
from attention_core.formatting import fmt
from attention_core.lookup import lookup_many
from attention_ui.database import state
from attention_ui.kit.grids.records_editor import D2L_RECORDS, current_records
from tests.conftest import open_app_page
from tests.plotly_json import charts, figures
from tests.support.grids import paste_block, shown_grids, table_edit

WITHOUT_LI = [r for r in D2L_RECORDS if r[0] != "Li"]
XSS_KEY = "<script>alert(1)</script>"
XSS_VALUE = "<img src=x onerror=alert(1)>"


@pytest.fixture
def at() -> AppTest:
    return open_app_page("database")


def edit_table(at: AppTest, edited=None, added=None, deleted=None) -> AppTest:
    table_edit(at, "database.records", edited, added, deleted)
    return at.run()


def bar_weights(at: AppTest, index: int = 0) -> np.ndarray:
    return np.array(figures(at)[index]["data"][0]["y"], dtype=float)


def texts(elements) -> str:
    return "\n".join(e.value for e in elements)


@pytest.mark.parametrize(
    ("step", "records", "similarity", "tau"),
    [
        (1, D2L_RECORDS, "exact", 0.1),
        (2, WITHOUT_LI, "exact", 0.1),
        (3, WITHOUT_LI, "ngram", 0.1),
        (4, WITHOUT_LI, "ngram", 10.0),
    ],
)
def test_each_story_step_shows_what_the_engine_computes(at, step, records, similarity, tau):
    at.button(key=f"database.story.{step}").click().run()
    assert not at.exception
    expected = lookup(records, "Li", similarity, tau)
    np.testing.assert_allclose(bar_weights(at), expected.weights, rtol=1e-12)
    assert len(at.info) >= 1 and at.info[0].value.startswith("Notice")
    if expected.valid:
        key, value = expected.best
        assert f"**{key} → {value}**" in texts(at.success)
        assert fmt(expected.pooled_number) in [m.value for m in at.metric]
    else:
        assert "No valid answer" in texts(at.warning)


def test_story_tells_the_sections_argument(at):
    at.button(key="database.story.1").click().run()
    assert "**Li → Mu**" in texts(at.success)
    at.button(key="database.story.2").click().run()
    assert "No valid answer" in texts(at.warning) and not at.success
    at.button(key="database.story.3").click().run()
    assert "**Lipton → Zachary**" in texts(at.success)
    sharp = bar_weights(at).max()
    at.button(key="database.story.4").click().run()
    blurred = bar_weights(at)
    assert blurred.max() < sharp and blurred.max() - blurred.min() < 0.01  # nearly uniform


def test_after_a_story_step_the_learner_keeps_playing_from_there(at):
    at.button(key="database.story.3").click().run()
    at.select_slider(key="database.temperature").set_value(1.0).run()
    assert not at.exception
    np.testing.assert_allclose(bar_weights(at), lookup(WITHOUT_LI, "Li", "ngram", 1.0).weights)
    assert "changed the table or the controls since step 3" in texts(at.caption)
    assert not any(i.value.startswith("Notice") for i in at.info)


def test_editing_a_key_changes_the_weights_and_reports_the_duplicate(at):
    edit_table(at, edited={0: {"key": "Li"}})  # Zhang → Li: two records now answer "Li"
    assert not at.exception
    records = [("Li", "Aston", 10.0), *D2L_RECORDS[1:]]
    np.testing.assert_allclose(bar_weights(at), lookup(records, "Li", "exact").weights)
    assert bar_weights(at)[[0, 2]].tolist() == [0.5, 0.5]
    assert "appear more than once" in texts(at.warning)


def test_deleting_and_adding_rows_changes_the_weights(at):
    edit_table(at, deleted=[2], added=[{"key": "Li", "value": "Ming", "number": 70.0}])
    assert not at.exception
    records = [*WITHOUT_LI, ("Li", "Ming", 70.0)]
    np.testing.assert_allclose(bar_weights(at), lookup(records, "Li", "exact").weights)
    assert "**Li → Ming** (row 6)" in texts(at.success)  # rows are numbered as they stand
    assert "70" in [m.value for m in at.metric]


def test_several_queries_give_a_queries_by_keys_heatmap(at):
    at.radio(key="database.similarity").set_value("edit")
    at.text_input(key="database.query").set_value("Li, Smola, Hu").run()
    assert not at.exception
    heatmap = figures(at)[0]["data"][0]
    expected = lookup_many(D2L_RECORDS, ["Li", "Smola", "Hu"], "edit", 0.1)
    np.testing.assert_allclose(np.array(heatmap["z"], dtype=float), expected.weights)
    assert heatmap["y"] == ["q1 · Li", "q2 · Smola", "q3 · Hu"]
    assert len(at.tabs) == 3


def open_answer_tab(at: AppTest, label: str) -> AppTest:
    """Open one query's tab, as a click on it does (only the open tab is built)."""
    at.session_state[state.ANSWER_TAB] = label
    return at.run()


def test_only_the_open_querys_tab_is_built_and_it_stays_open_by_position(at):
    at.text_input(key="database.query").set_value("Li, Smola, Hu").run()
    assert [tab.label for tab in at.tabs] == ["q1: Li", "q2: Smola", "q3: Hu"]
    built = [bool(tab.children) for tab in at.tabs]
    assert built == [True, False, False]  # the first view shows q1 only
    open_answer_tab(at, "q3: Hu")
    assert not at.exception and [bool(tab.children) for tab in at.tabs] == [False, False, True]
    assert "**Hu → Rachel** (row 5)" in texts(at.success)  # q3's answer, not q1's
    assert "**Li → Mu**" not in texts(at.success)
    at.text_input(key="database.query").set_value("Li, Smola, Zhang").run()  # q3's text changed
    assert [bool(tab.children) for tab in at.tabs] == [False, False, True]


def test_each_querys_numbers_table_is_built_when_opened_with_the_engines_weights(at):
    at.text_input(key="database.query").set_value("Li, Smola").run()
    assert not at.dataframe  # folded: not built on the page's first view
    open_answer_tab(at, "q2: Smola")
    at.session_state["database.numbers.2"] = True
    at.run()
    assert not at.exception and len(at.dataframe) == 1
    table = at.dataframe[0].value
    expected = lookup(D2L_RECORDS, "Smola", "exact", 0.1)
    assert list(table.iloc[:, -1]) == [fmt(w) for w in expected.weights]


def test_an_empty_table_says_so(at):
    at.button(key="database.preset.empty").click().run()
    assert not at.exception
    assert "The database is empty" in texts(at.info)
    assert not figures(at)


def test_an_empty_query_says_so(at):
    at.text_input(key="database.query").set_value("  ,  ").run()
    assert not at.exception
    assert "The query is empty" in texts(at.info)


def test_a_row_without_a_key_is_named_and_left_out(at):
    edit_table(at, added=[{"value": "Nobody", "number": 1.0}])
    assert not at.exception
    assert "Row 7 has no surname" in texts(at.warning)
    assert len(bar_weights(at)) == 6


def test_a_very_long_name_is_cut_with_a_message(at):
    long_name = "L" * 10_000
    edit_table(at, edited={1: {"key": long_name}})
    assert not at.exception
    assert "Row 2: the Surname (key) is 10000 characters long" in texts(at.warning)
    labels = figures(at)[0]["data"][0]["x"]
    assert max(len(label) for label in labels) < 40


def test_html_and_script_names_are_shown_as_text_never_rendered(at):
    edit_table(at, edited={0: {"key": XSS_KEY, "value": XSS_VALUE}})
    at.text_input(key="database.query").set_value(XSS_KEY).run()
    assert not at.exception
    success = texts(at.success)
    assert r"\<script\>" in success and r"\<img" in success
    assert re.search(r"(?<!\\)<", success) is None  # every < escaped, so Markdown shows it
    drawn = json.dumps([json.loads(chart.proto.spec) for chart in charts(at)])
    assert "<script>" not in drawn and "<img" not in drawn
    assert "&lt;script&gt;" in drawn


def test_emoji_and_right_to_left_names_work(at):
    edit_table(at, added=[{"key": "محمد", "value": "علي"}, {"key": "😀", "value": "כהן"}])
    at.text_input(key="database.query").set_value("محمد, 😀").run()
    assert not at.exception
    assert "**محمد → علي**" in texts(at.success)
    open_answer_tab(at, "q2: 😀")
    assert "**😀 → כהן**" in texts(at.success)
    assert "These rows have no number: 7, 8." in texts(at.info)


def test_divide_by_sum_with_no_shared_letters_gives_a_translated_error(at):
    at.radio(key="database.similarity").set_value("ngram").run()
    at.radio(key="database.normalization").set_value("sum")
    at.text_input(key="database.query").set_value("Xyz").run()
    assert not at.exception
    assert "Divide-by-sum normalization needs a positive sum" in texts(at.error)


def test_approximate_query_sharing_nothing_has_no_valid_answer(at):
    at.radio(key="database.similarity").set_value("ngram")
    at.text_input(key="database.query").set_value("Xyz").run()
    assert not at.exception
    assert "every key scores 0 against it" in texts(at.warning)


def test_too_many_and_too_long_queries_are_cut_with_messages(at):
    at.text_input(key="database.query").set_value(",".join(["Li"] * 12 + ["Q" * 150])).run()
    assert not at.exception
    assert "only the first 10 are used" in texts(at.warning)
    assert len(at.tabs) == 10


def test_japanese_interface_and_names(at):
    at.sidebar.radio[0].set_value("ja").run()
    at.button(key="database.preset.ja").click()
    # Set through session state: AppTest formats radio options in English, outside a session.
    at.session_state["database.similarity"] = "ngram"
    at.text_input(key="database.query").set_value("山田").run()
    assert not at.exception
    assert at.title[0].value == "やわらかいデータベース検索としてのアテンション"
    assert "**山田 → 太郎**" in texts(at.success)
    records = [tuple(r) for r in current_records("database.records", at.session_state)]
    np.testing.assert_allclose(bar_weights(at), lookup(records, "山田", "ngram", 0.1).weights)


def test_table_edits_survive_a_visit_to_another_page(at):
    edit_table(at, deleted=[2])
    at.switch_page("pages/home.py").run()
    at.switch_page("pages/database.py").run()
    assert not at.exception
    assert [tuple(r) for r in current_records("database.records", at.session_state)] == WITHOUT_LI
    assert "No valid answer" in texts(at.warning)


def test_pasting_thousands_of_rows_leaves_the_fifty_the_message_states(at):
    """A block pasted into the first cell of row 7 (below the six records): the table grows
    to its 50 rows, and the sentence says how many pasted rows were left out."""
    edit_table(at, edited={0: {"value": "Astrid"}}, added=[{}])
    pasted = "\n".join(f"name{i}\tv{i}\t{i}" for i in range(5000))
    paste_block(at, "database.records", (6, 0), pasted, rows=7)
    at.run()
    assert not at.exception
    rows = current_records("database.records", at.session_state)
    assert len(rows) == 50 and rows[0] == ("Zhang", "Astrid", 10.0)
    assert rows[6] == ("name0", "v0", 0.0) and rows[49] == ("name43", "v43", 43.0)
    assert "4956 rows of it were left out (the grid has 50 rows)" in texts(at.info)
    assert len(shown_grids(at)[0]) == 50  # the grid itself holds 50 rows
    at.text_input(key="database.query").set_value("name4").run()  # and stays usable
    assert not at.exception and len(current_records("database.records", at.session_state)) == 50


def test_name_lengths_count_the_characters_after_normalisation(at):
    edit_table(at, edited={0: {"key": "\ufdfa" * 100}})  # ﷺ is 18 characters once normalised
    assert not at.exception
    key = current_records("database.records", at.session_state)[0][0]
    assert "the Surname (key) is 1800 characters long" in texts(at.warning).replace("\\", "")
    at.text_input(key="database.query").set_value("\ufdfa" * 100).run()
    assert "Query 1 is 1800 characters long" in texts(at.warning)
    assert len(key) == 100  # the table keeps what was typed; the lookup uses the cut name
    assert not at.error


def test_numbers_are_read_as_people_type_them(at):
    edit_table(at, edited={0: {"number": "1e-3"}, 1: {"number": "−0,5"}, 2: {"number": "abc"}})
    rows = current_records("database.records", at.session_state)
    assert [row[2] for row in rows[:3]] == [0.001, -0.5, 30.0]  # "abc" leaves 30 in place
    warning = texts(at.warning).replace("\\", "")
    assert "records, cell (3, Number (optional)): “abc” is not a number" in warning
