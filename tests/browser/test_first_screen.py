"""Every grid at its largest size fits its column, readable, as a learner opens it at 1400 × 900
and on a phone at 390 × 844 (LARGEST: every size control of the page at its top, W_a 8 × 16):
no cell scrolled out of sight, every cell's text whole, at MIN_CELL_FONT px or more, in a cell
of MIN_CELL px or more each way (number cells; the mask's ticks keep their size).

Each address is opened once (module fixture `largest`) at 1400 × 900, measured as drawn
(tests/browser/screens.py), and measured again with its window narrowed to 390 × 844: the same
measure as a page opened at that size (every address, compared; only the gallery's vector chart
had its ticks on other values, at the same size). The first screen of each page at its defaults
is measured in its accessibility visit (tests/browser/test_accessibility.py).
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import (
    IDLE,
    assert_no_exception,
    collect_errors,
    wait_charts_settled,
)
from tests.browser.screens import DESKTOP, MEASURE, PHONE

# Each page's widest grids, by address: the Luong page with every size at 8 (Q, K, V 8 × 8,
# the concat score's W_a 8 × 16 and v_a 1 × 8; the mask's 8 × 8 ticks), the transformer's X and
# W's at d_model 8, the gallery's weights w of 8 values, the squeeze exercise's X of 8 pixels.
# (On main before the fit, each of these 8-column grids scrolled sideways at 390 px.)
LARGEST = {
    "luong": "luong?score=concat&dq=8&dk=8&dv=8&n=8&m=8&h=8",
    "luong-mask": "luong?mask=cells&dq=8&dk=8&dv=8&n=8&m=8",
    "transformer": "transformer?d=8",
    "gallery": "gallery?m=8",
    "exercises": "exercises?section=se&se_channels=4&se_pixels=8&se_r=4",
}
MIN_CELL_FONT = 13  # px: a number in a fitted cell
MIN_CELL = 32  # px: a cell to touch (WCAG 2.5.8 asks 24; static/cell_grid.js FIT_TOUCH)


def open_page(tab, address: str) -> dict:
    tab.goto(address)
    tab.wait_for_selector("h1", timeout=120_000)
    settle(tab)
    assert_no_exception(tab)
    return tab.evaluate(MEASURE)


def settle(tab) -> None:
    for _ in range(3):
        tab.wait_for_timeout(300)
        tab.wait_for_selector(IDLE, timeout=120_000)
    wait_charts_settled(tab, timeout=120_000)


@pytest.fixture(scope="module")
def largest(module_context, server) -> dict:
    """{(view, width): what MEASURE found}, each LARGEST address at each window size."""
    found = {}
    tab = module_context.new_page()
    errors = collect_errors(tab)
    for view, address in LARGEST.items():
        tab.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
        found[(view, DESKTOP[0])] = open_page(tab, f"{server}/{address}")
        tab.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
        settle(tab)
        found[(view, PHONE[0])] = tab.evaluate(MEASURE)
    tab.close()
    assert not errors, errors
    return found


@pytest.mark.parametrize("width", [PHONE[0], DESKTOP[0]])
@pytest.mark.parametrize("view", LARGEST)
def test_every_grid_at_its_largest_fits_its_column_readable(largest, view, width):
    grids = largest[(view, width)]["grids"]
    assert grids, f"{view}: no grid was seen"
    if view != "gallery":  # the gallery's w is 1 × 8
        assert max(g["columns"] for g in grids) >= 8, grids
    cut = [g for g in grids if g["scrolls"]]
    assert not cut, f"{view} at {width} px: grids wider than their column: {cut}"
    for grid in grids:
        assert not grid["cut"], f"{view} at {width} px: {grid['name']}: texts cut: {grid}"
        assert grid["font"] is None or grid["font"] >= MIN_CELL_FONT, (view, width, grid)
        assert grid["cell"] is None or grid["cell"] >= MIN_CELL, (view, width, grid)
