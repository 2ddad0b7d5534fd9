"""The gallery in a real browser: moving the query changes the weights and the output point."""

import numpy as np

from attention_core import attention
from tests.browser.conftest import POLL_MS, assert_no_exception, open_page, wait_idle

VALUES = np.array([[1.0, 0.5], [0.5, 2.0], [2.0, 1.5]])
# The weights heatmap is the only Plotly chart whose first trace is a one-column heatmap.
WEIGHTS = """() => Array.from(document.querySelectorAll('.js-plotly-plot'))
    .map(p => p._fullData[0]).filter(t => t.type === 'heatmap' && t.x.length === 1)
    .map(t => Array.from(t.z, row => row[0]))[0]"""


def expected_weights(q1: float, q2: float) -> np.ndarray:
    return attention([[q1], [q2]], VALUES.T, VALUES.T, "dot").weights[:, 0]


def test_moving_the_query_slider_changes_the_weights(page, server):
    open_page(page, server, "gallery")
    page.wait_for_selector(".js-plotly-plot")
    np.testing.assert_allclose(page.evaluate(WEIGHTS), expected_weights(1.0, 1.0), rtol=1e-9)

    slider = page.get_by_role("slider", name="q₁ (x of the query)")
    slider.focus()
    slider.press("ArrowLeft")  # one step of 0.1
    wait_idle(page)
    page.get_by_text("0.90").first.wait_for()
    page.wait_for_function(
        "() => document.querySelectorAll('.js-plotly-plot').length >= 4", polling=POLL_MS
    )
    np.testing.assert_allclose(page.evaluate(WEIGHTS), expected_weights(0.9, 1.0), rtol=1e-9)
    assert_no_exception(page)
