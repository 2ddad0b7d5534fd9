"""The Luong explorer in Chromium, as a learner uses it: type into a grid, switch the layout."""

from __future__ import annotations

import numpy as np
from playwright.sync_api import expect

from attention_core import attention
from attention_core.formatting import fmt
from attention_ui.kit.text.i18n import catalog
from attention_ui.luong.presets import PRESETS
from tests.browser.conftest import POLL_MS, grid, open_page, wait_idle
from tests.browser.conftest import type_into_cell as conftest_type

FIRST = PRESETS["first"].column_matrices()  # what the page opens with

# The z matrix and axis labels of the first chart titled `title` (the S/A/O row); Streamlit
# wraps titles in <b> tags.
_FIND = """title => Array.from(document.querySelectorAll('.js-plotly-plot'))
  .find(p => p._fullData && p.layout.title
        && p.layout.title.text.replace(/<[^>]*>/g, '') === title)"""
_CHART = (
    """title => {
  const plot = ("""
    + _FIND
    + """)(title);
  const trace = plot._fullData[0];
  return {z: Array.from(trace.z, row => Array.from(row)), x: Array.from(trace.x),
          y: Array.from(trace.y)};
}"""
)


def chart(page, title: str, *, changed_from: dict | None = None) -> dict:
    """The chart titled `title`, once drawn (and, if given, once it differs from
    `changed_from`: the rerun and the redraw come a moment after the edit)."""
    page.wait_for_function(_FIND, arg=title, timeout=30_000, polling=POLL_MS)
    if changed_from is not None:
        page.wait_for_function(
            f"""([title, old]) => {{
            const now = ({_CHART})(title);
            return now.x.join() !== old.x.join() || now.z.some((row, i) =>
                row.some((value, j) => Math.abs(value - old.z[i][j]) > 1e-12));
        }}""",
            arg=[title, changed_from],
            timeout=30_000,
            polling=POLL_MS,
        )
    return page.evaluate(_CHART, title)


def grid_labels(page, index: int) -> tuple[list[str], list[str]]:
    """(row labels, column labels) of the index-th grid on the page, from its headers."""
    table = grid(page, index)
    columns = table.locator("thead th[scope=col]").all_inner_texts()
    rows = table.locator("tbody th[scope=row]").all_inner_texts()
    return rows, columns


def type_into_cell(page, grid_index: int, row: int, col: int, text: str) -> None:
    """Type into a cell of the grid editor (0-based, row headers excluded), press Enter."""
    conftest_type(page, grid(page, grid_index), row, col, text)


def weight_charts_show(page, weights: np.ndarray, count: int) -> None:
    """Wait until `count` charts titled "A: weights" are drawn and all show `weights`."""
    page.wait_for_function(
        """([title, want, count]) => {
        const plots = Array.from(document.querySelectorAll('.js-plotly-plot')).filter(p =>
          p._fullData && p.layout.title
          && p.layout.title.text.replace(/<[^>]*>/g, '') === title);
        return plots.length === count && plots.every(p => {
          const z = Array.from(p._fullData[0].z, row => Array.from(row)).flat();
          return z.length === want.length && z.every((v, i) => Math.abs(v - want[i]) < 1e-9);
        });
      }""",
        arg=["A: weights", weights.ravel().tolist(), count],
        timeout=30_000,
        polling=POLL_MS,
    )


def test_typing_into_a_query_cell_changes_the_weights(page, server):
    page.set_viewport_size({"width": 1400, "height": 2400})
    open_page(page, server, "luong")
    # The step tab is a fragment of its own that an edit of Q reruns only when the step it
    # shows changes: open the weights' step, whose chart must follow the edit too.
    page.get_by_text(catalog("en")["engine.step.weights_softmax.title"]).first.click()
    wait_idle(page)
    before = chart(page, "A: weights")
    np.testing.assert_allclose(before["z"], attention(FIRST["Q"], FIRST["K"], FIRST["V"]).weights)
    type_into_cell(page, 0, 0, 0, "5")  # Q, row 1, column q1
    Q = FIRST["Q"].copy()
    Q[0, 0] = 5.0
    after = chart(page, "A: weights", changed_from=before)
    result = attention(Q, FIRST["K"], FIRST["V"])
    np.testing.assert_allclose(after["z"], result.weights)
    assert after["z"][0][0] > before["z"][0][0]
    weight_charts_show(page, result.weights, count=2)  # above and in the step tab
    # The task panel is drawn by the page's whole run and its verdicts by a fragment of their
    # own, so the edit's rerun of the fragments alone must still bring the new one.
    gap = np.abs(result.output - FIRST["V"].mean(axis=1, keepdims=True)).max()
    verdict = catalog("en")["tasks.luong_mean.progress"].format(gap=fmt(gap))
    expect(page.get_by_text(verdict)).to_be_visible()


def test_switching_layout_transposes_every_matrix(page, server):
    page.set_viewport_size({"width": 1400, "height": 2400})
    open_page(page, server, "luong")
    assert grid_labels(page, 0) == (["1", "2"], ["q1", "q2"])
    column = chart(page, "A: weights")
    page.get_by_text("one query per row (d2l, PyTorch)").click()
    wait_idle(page)
    assert grid_labels(page, 0) == (["q1", "q2"], ["1", "2"])  # Q is now n × d_q
    assert grid_labels(page, 1) == (["k1", "k2", "k3"], ["1", "2"])
    row = chart(page, "A: weights", changed_from=column)
    np.testing.assert_allclose(row["z"], np.array(column["z"]).T)
    assert (row["x"], row["y"]) == (column["y"], column["x"])


def test_a_new_puzzle_from_below_the_grids_updates_the_example_above(page, server):
    """An edit of a grid reruns fragments alone; the predict section's new-puzzle button sets
    the example and the seed drawn above the grids, so that click must run the whole page:
    the example selector and the seed follow."""
    open_page(page, server, "luong")
    switch = page.get_by_text("Predict, then reveal")
    switch.wait_for(timeout=60_000)  # the page runs twice on a first visit (?lang= is added)
    switch.click()
    wait_idle(page)
    page.get_by_role("button", name="New random puzzle").click()
    wait_idle(page)
    seed = page.get_by_label("Seed", exact=True)
    seed.wait_for(timeout=30_000)  # drawn above the grids only when the example is random
    first = int(seed.input_value())
    page.get_by_role("button", name="New random puzzle").click()
    wait_idle(page)
    expect(seed).to_have_value(str(first + 1), timeout=30_000)
