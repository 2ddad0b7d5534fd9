"""The first screen teaches: on every page, as a learner opens it at 1400 × 900 and on a phone
at 390 × 844, something to touch and what it does.

- 1400 × 900: a control (a grid's cell, a box, a slider, a button with words) wholly on the
  first screen, and a result (a chart, or a table of numbers) with at least RESULT_SEEN px of
  it there; on the Luong page the grids Q, K and V whole and a chart of S, A or O.
- 390 × 844: a control wholly on the first screen, a result seen by the end of the second.
- On the phone every grid fits its column (no cell scrolled out of sight), and no chart
  prints text under 11 px. So does every grid at its largest size (LARGEST: every size control
  of the page at its top, W_a 8 × 16), on the phone and at 1400 px, with every cell's text
  whole, at MIN_CELL_FONT px or more, in a cell of MIN_CELL px or more each way (number cells;
  the mask's ticks keep their size).
- The regression page is at most half as tall as it was (7,763 px at 1400, 12,392 at 390).

Each page is opened once per window size (module fixture `screens`), measured as drawn.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import (
    IDLE,
    assert_no_exception,
    collect_errors,
    new_context,
    wait_charts_settled,
)

PAGES = ("home", "luong", "database", "gallery", "exercises", "regression", "transformer")
# The pages measured in Japanese on a phone as well (the Luong page's Japanese first screen is
# tests/browser/test_luong.py's).
JAPANESE_PAGES = ("home", "database", "gallery", "exercises", "regression", "transformer")
# Pages whose first screen must hold something to change, not only buttons: in Japanese the
# database page's story buttons filled it, and its first switch was at 1,052 px.
EDITABLE_FIRST = ("database",)
DESKTOP, PHONE = (1400, 900), (390, 844)
RESULT_SEEN = 200  # px of a result on screen (or half of it, if it is shorter)
MIN_CHART_FONT = 11
REGRESSION_BEFORE = {1400: 7763, 390: 12392}
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

# Where things are on the page as drawn, with the main block scrolled to its top: controls
# (grid cells inside their shadow roots too), results, the grids' fit, the charts' text sizes.
MEASURE = """() => {
  const main = document.querySelector('[data-testid=stMain]');
  main.scrollTop = 0;
  const box = el => { const r = el.getBoundingClientRect();
                      return {top: r.top, bottom: r.bottom, width: r.width, height: r.height}; };
  const shown = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const hosts = Array.from(main.querySelectorAll('*')).filter(el => el.shadowRoot);
  const grids = hosts.flatMap(h => Array.from(h.shadowRoot.querySelectorAll('table[role=grid]')))
      .filter(shown);
  const cells = hosts.flatMap(h => Array.from(h.shadowRoot.querySelectorAll('input')));
  const worded = b => (b.innerText || '').trim().length > 0;
  const controls = [
      ...main.querySelectorAll('input:not([type=hidden]), textarea, [role=slider]'),
      ...Array.from(main.querySelectorAll('button')).filter(worded),
      ...cells,
  ].filter(el => shown(el) && !el.disabled && !el.closest('details:not([open])'))
   .map(el => ({...box(el), what: el.getAttribute('aria-label') || el.tagName,
                editable: el.tagName !== 'BUTTON'}));
  const results = Array.from(main.querySelectorAll(
      '.js-plotly-plot, [data-testid=stDataFrame], [data-testid=stTable]')).filter(shown)
      .map(el => ({...box(el), what: el.classList.contains('js-plotly-plot') ? 'chart' : 'table'}));
  const fit = grids.map(g => { const scroll = g.closest('.cg-scroll') || g.parentElement;
      const numbers = Array.from(g.querySelectorAll('input[type=text]'));
      return {name: g.getAttribute('aria-label'), ...box(g),
              scrolls: scroll.scrollWidth > scroll.clientWidth + 1,
              room: scroll.clientWidth,
              columns: g.querySelectorAll('th[role=columnheader]').length,
              cut: numbers.filter(i => i.scrollWidth > i.clientWidth + 1).map(i => i.value),
              font: numbers.length ? Math.min(...numbers.map(
                  i => parseFloat(getComputedStyle(i).fontSize))) : null,
              cell: numbers.length ? Math.min(...numbers.map(i => Math.min(
                  i.getBoundingClientRect().width, i.getBoundingClientRect().height))) : null};
      });
  const fonts = Array.from(main.querySelectorAll('.js-plotly-plot .main-svg text'))
      .filter(t => t.textContent.trim() && shown(t))
      .map(t => [parseFloat(getComputedStyle(t).fontSize), t.textContent.slice(0, 20)]);
  return {height: main.scrollHeight, controls, results, grids: fit, fonts};
}"""


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
def screens(browser, server) -> dict:
    """{(page, width): what MEASURE found}, each page opened at each window size."""
    found = {}
    for width, height in (DESKTOP, PHONE):
        context = new_context(browser, viewport={"width": width, "height": height})
        tab = context.new_page()
        errors = collect_errors(tab)
        for page in PAGES:
            found[(page, width)] = open_page(tab, f"{server}/{page}")
        context.close()
        assert not errors, errors
    return found


@pytest.fixture(scope="module")
def japanese_phone(browser, server) -> dict:
    """{page: what MEASURE found} in Japanese at 390 × 844: longer words push controls and
    charts further down (the database page's first control was at 1,052 px in Japanese)."""
    context = new_context(browser, viewport={"width": PHONE[0], "height": PHONE[1]})
    tab = context.new_page()
    errors = collect_errors(tab)
    found = {page: open_page(tab, f"{server}/{page}?lang=ja") for page in JAPANESE_PAGES}
    context.close()
    assert not errors, errors
    return found


@pytest.fixture(scope="module")
def largest(browser, server) -> dict:
    """{(view, width): what MEASURE found}, each LARGEST address at each window size."""
    found = {}
    for width, height in (DESKTOP, PHONE):
        context = new_context(browser, viewport={"width": width, "height": height})
        tab = context.new_page()
        errors = collect_errors(tab)
        for view, address in LARGEST.items():
            found[(view, width)] = open_page(tab, f"{server}/{address}")
        context.close()
        assert not errors, errors
    return found


def seen(result: dict, bottom: float) -> bool:
    """Whether enough of `result` lies above `bottom` (px from the window's top)."""
    return bottom - result["top"] >= min(RESULT_SEEN, result["height"] / 2)


@pytest.mark.parametrize("page", PAGES)
def test_the_desktop_first_screen_shows_a_control_and_a_result(screens, page):
    found = screens[(page, DESKTOP[0])]
    screen = DESKTOP[1]
    controls = [c for c in found["controls"] if c["bottom"] <= screen]
    results = [r for r in found["results"] if seen(r, screen)]
    assert controls, f"{page}: nothing to touch above {screen} px"
    assert results, f"{page}: no result on the first screen: {found['results'][:3]}"


def test_the_luong_first_screen_holds_the_grids_and_a_result_chart(screens):
    found = screens[("luong", DESKTOP[0])]
    screen = DESKTOP[1]
    grids = {g["name"]: g for g in found["grids"]}
    assert {"Q", "K", "V"} <= set(grids), grids
    assert all(grids[name]["bottom"] <= screen for name in "QKV"), grids
    charts = [r for r in found["results"] if r["what"] == "chart" and seen(r, screen)]
    assert charts, found["results"]


@pytest.mark.parametrize("page", PAGES)
def test_on_a_phone_a_control_is_on_the_first_screen_and_a_result_by_the_second(screens, page):
    found = screens[(page, PHONE[0])]
    screen = PHONE[1]
    controls = [c for c in found["controls"] if c["bottom"] <= screen]
    results = [r for r in found["results"] if seen(r, 2 * screen)]
    assert controls, f"{page}: nothing to touch above {screen} px: {found['controls'][:3]}"
    assert results, f"{page}: no result by {2 * screen} px: {found['results'][:3]}"


@pytest.mark.parametrize("page", JAPANESE_PAGES)
def test_in_japanese_on_a_phone_a_control_is_on_the_first_screen_and_a_result_by_the_second(
    japanese_phone, page
):
    found = japanese_phone[page]
    screen = PHONE[1]
    controls = [c for c in found["controls"] if c["bottom"] <= screen]
    results = [r for r in found["results"] if seen(r, 2 * screen)]
    assert controls, f"{page}: nothing to touch above {screen} px: {found['controls'][:3]}"
    assert results, f"{page}: no result by {2 * screen} px: {found['results'][:3]}"
    if page in EDITABLE_FIRST:
        assert [c for c in controls if c["editable"]], f"{page}: only buttons: {controls}"


@pytest.mark.parametrize("page", JAPANESE_PAGES)
def test_in_japanese_on_a_phone_no_chart_text_is_under_11_px(japanese_phone, page):
    fonts = japanese_phone[page]["fonts"]
    assert fonts, f"{page}: no chart text was seen"
    small = [f for f in fonts if f[0] < MIN_CHART_FONT]
    assert not small, f"{page}: {len(small)} of {len(fonts)} texts under 11 px: {small[:5]}"


@pytest.mark.parametrize("page", PAGES)
def test_on_a_phone_every_grid_fits_its_column(screens, page):
    found = screens[(page, PHONE[0])]
    cut = [g for g in found["grids"] if g["scrolls"]]
    assert not cut, f"{page}: grids wider than their column: {cut}"


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


@pytest.mark.parametrize("page", PAGES)
def test_on_a_phone_no_chart_text_is_under_11_px(screens, page):
    found = screens[(page, PHONE[0])]
    assert found["fonts"], f"{page}: no chart text was seen"
    small = [f for f in found["fonts"] if f[0] < MIN_CHART_FONT]
    assert not small, f"{page}: {len(small)} texts under {MIN_CHART_FONT} px: {small[:5]}"


@pytest.mark.parametrize("width", [DESKTOP[0], PHONE[0]])
def test_the_regression_page_is_half_as_tall_as_it_was(screens, width):
    height = screens[("regression", width)]["height"]
    assert height <= REGRESSION_BEFORE[width] / 2, (width, height)
