"""The database page in a real browser: typing a query changes the weights chart."""

import numpy as np

from attention_core import lookup
from attention_ui.kit.grids.records_editor import D2L_RECORDS
from tests.browser.conftest import assert_no_exception, open_page, wait_idle

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
