"""The database page in a real browser: typing a query changes the weights chart."""

import numpy as np

from attention_core import lookup
from attention_ui.kit.grids.records_editor import D2L_RECORDS
from attention_ui.kit.text.i18n import catalog
from tests.browser.conftest import assert_no_exception, open_page, wait_idle

EN = catalog("en")
# The first Plotly chart on the page is the weights bar chart of the first query.
WEIGHTS = "() => Array.from(document.querySelectorAll('.js-plotly-plot')[0]._fullData[0].y)"


def test_typing_a_query_changes_the_weights_chart(page, server):
    open_page(page, server, "database")
    page.wait_for_selector(".js-plotly-plot")
    before = np.array(page.evaluate(WEIGHTS), dtype=float)
    np.testing.assert_allclose(before, lookup(D2L_RECORDS, "Li", "exact").weights)

    box = page.get_by_role("textbox", name="Query (separate several queries with commas)")
    box.fill("Smola")
    box.press("Enter")
    wait_idle(page)
    page.get_by_text("Best match for “Smola”").wait_for()
    after = np.array(page.evaluate(WEIGHTS), dtype=float)
    np.testing.assert_allclose(after, lookup(D2L_RECORDS, "Smola", "exact").weights)
    assert page.get_by_text("Language / 言語").count() == 1  # the app's frame, not a bare page
    assert_no_exception(page)


def test_a_query_edit_redraws_the_charts_in_place_and_names_the_new_query(page, server):
    """A query edit reruns the answers alone (pages/database.py) and its lone tab keeps its
    element: the charts are the same plots, given new numbers, under a tab named anew."""
    open_page(page, server, "database")
    page.wait_for_selector(".js-plotly-plot")
    page.evaluate(
        "document.querySelectorAll('.js-plotly-plot').forEach((p, i) => { p.__kept = i; })"
    )
    box = page.get_by_role("textbox", name="Query (separate several queries with commas)")
    box.fill("Smola")
    box.press("Enter")
    wait_idle(page)
    page.get_by_text("Best match for “Smola”").wait_for()
    kept = page.evaluate("Array.from(document.querySelectorAll('.js-plotly-plot'), p => p.__kept)")
    assert kept == [0, 1]  # before: both new plots (the tab was a new element)
    np.testing.assert_allclose(
        np.array(page.evaluate(WEIGHTS), dtype=float),
        lookup(D2L_RECORDS, "Smola", "exact").weights,
    )
    assert page.get_by_role("tab", name="q1: Smola").count() == 1
    assert_no_exception(page)


def test_the_puzzle_button_in_the_answers_shows_its_queries_in_the_box(page, server):
    """The puzzle's button sits in the answers' fragment but sets the query box and the
    similarity, which the whole run draws: the page reruns whole and the box shows them."""
    open_page(page, server, "database")
    page.get_by_text(EN["predict.switch"]).click()
    wait_idle(page)
    page.get_by_role("button", name=EN["predict.database.make"]).click()
    wait_idle(page)
    box = page.get_by_role("textbox", name=EN["database.query.label"])
    assert box.input_value() not in ("", "Li") and "," in box.input_value()
    assert page.get_by_role("radio", name=EN["database.similarity.ngram"]).is_checked()
    assert_no_exception(page)
