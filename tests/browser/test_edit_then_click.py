"""An edit followed at once by a click, in Chromium: the edit is kept, and a page link opens
the page clicked.

The grid editor (attention_ui/kit/grids) sends a cell's edit the moment Enter is pressed or
the cell loses the focus (the click's own mousedown), before the click. A click on "+" or on
the layout switch replaces the grid: the edit, sent for the old grid, lands on its row and
column labels in the new one. A click on a page link: the edit's `on_edit_change` keeps it in
whatever run brings it, and the run goes on to the page clicked (kit/state/navigation.py).
Here Enter (or typing) and the click go out back to back.
"""

from __future__ import annotations

import numpy as np
import pytest
from playwright.sync_api import expect

from attention_core import attention
from attention_ui.luong.presets import PRESETS
from tests.browser.conftest import (
    grid,
    open_cell_editor,
    open_page,
    select_cell,
    wait_for_plot,
    wait_idle,
)

FIRST = PRESETS["first"].column_matrices()  # Q is 2 × 2, K 2 × 3


def carries_seven(payload) -> bool:
    """Whether a frame the browser sent holds the grid's edit of Q's first cell to "7"."""
    return b'[0,0,"7"]' in bytes(payload) or b'[0,0,\\"7\\"]' in bytes(payload)


def type_then_click(page, text: str, target) -> None:
    """Type `text` into Q's first cell, then press Enter and click `target` at once."""
    select_cell(page, grid(page, 0), 0, 0, columns=2)
    open_cell_editor(page, text)
    target.scroll_into_view_if_needed()
    box = target.bounding_box()  # found before Enter: nothing stands between Enter and click
    page.keyboard.press("Enter")
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait_idle(page, timeout=120_000)


# Before the wait for the old grid's edit: "+" kept it 6 of 6 and the layout switch 5 of 6
# (load 6-10); the grid drops an edit not yet sent when a new grid replaces it. With the wait:
# 19 of 19 each.
@pytest.mark.timeout(300)
@pytest.mark.parametrize("click", ["plus", "layout"])
def test_an_edit_followed_at_once_by_a_click_is_kept(page, server, click):
    page.set_viewport_size({"width": 1400, "height": 2400})
    page.set_default_timeout(120_000)  # a busy machine draws slowly; no timing is asserted
    open_page(page, server, "luong", timeout=120_000)
    Q = FIRST["Q"].copy()
    # The opening runs are over once the opening example's scores are drawn.
    opening = attention(Q, FIRST["K"], FIRST["V"]).scores
    wait_for_plot(page, "S: scores", opening.tolist(), timeout=60_000)
    Q[0, 0] = 7.0
    if click == "plus":  # n: 2 → 3, a new query of zeros
        target = (
            page.locator("[data-testid=stNumberInput]")
            .filter(has_text="n (queries)")
            .locator("[data-testid=stNumberInputStepUp]")
        )
        Q = np.hstack([Q, np.zeros((2, 1))])
        expected = attention(Q, FIRST["K"], FIRST["V"]).scores
    else:  # one query per row: S is shown transposed
        target = page.get_by_text("one query per row (d2l, PyTorch)")
        expected = attention(Q, FIRST["K"], FIRST["V"]).scores.T
    type_then_click(page, "7", target)
    # The late edit comes in a rerun after the click's: wait for the scores with 7 in them.
    wait_for_plot(page, "S: scores", expected.tolist(), timeout=60_000)


# Still `race`: kept 25 of 26 at load 6-10. When the click's request reaches the server
# before the edit's run has begun, Streamlit merges the two requests and keeps only the newer
# widget states (the other page's, without the grid): the server never sees the edit.
@pytest.mark.race
@pytest.mark.timeout(300)
def test_an_edit_sent_just_before_a_page_link_click_is_kept(page, server):
    """Enter, then a click on a page link as soon as the grid has sent the edit: the edit then
    may arrive with the other page's run (Streamlit coalesces the two requests, or stops the
    edit's run for the page change), which does not draw the grid. Back on the Luong page,
    the scores must use the typed number."""
    page.set_viewport_size({"width": 1400, "height": 2400})
    page.set_default_timeout(120_000)  # a busy machine draws slowly; no timing is asserted
    sockets = []
    page.on("websocket", lambda socket: sockets.append(socket))
    open_page(page, server, "luong", timeout=120_000)
    Q = FIRST["Q"].copy()
    wait_for_plot(page, "S: scores", attention(Q, FIRST["K"], FIRST["V"]).scores.tolist())
    select_cell(page, grid(page, 0), 0, 0, columns=2)
    open_cell_editor(page, "7")
    menu = page.locator("[data-testid=stSidebar]")
    box = menu.get_by_role("link", name="Database lookup").bounding_box()
    # The edit goes out as the grid's state: {"edit":{…,"entries":[{"cells":[[0,0,"7"]],…}]}}.
    with sockets[-1].expect_event("framesent", carries_seven):
        page.keyboard.press("Enter")
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_url("**/database**")
    page.get_by_role("heading", level=1).filter(has_text="database").wait_for()
    wait_idle(page, timeout=120_000)
    menu.get_by_role("link", name="Luong explorer").click()
    page.wait_for_url("**/luong**")
    Q[0, 0] = 7.0
    wait_for_plot(page, "S: scores", attention(Q, FIRST["K"], FIRST["V"]).scores.tolist())


def type_then_click_a_page_link(page, server):
    """Type 7 into Q's first cell and, without Enter, click "Database lookup": the click takes
    the focus from the cell, which sends the edit before the click's page change. Returns the
    sidebar."""
    page.set_viewport_size({"width": 1400, "height": 2400})
    page.set_default_timeout(120_000)
    sockets = []
    page.on("websocket", lambda socket: sockets.append(socket))
    open_page(page, server, "luong", timeout=120_000)
    opening = attention(FIRST["Q"], FIRST["K"], FIRST["V"]).scores
    wait_for_plot(page, "S: scores", opening.tolist(), timeout=60_000)
    select_cell(page, grid(page, 0), 0, 0, columns=2)
    open_cell_editor(page, "7")
    menu = page.locator("[data-testid=stSidebar]")
    box = menu.get_by_role("link", name="Database lookup").bounding_box()
    # The grid sends the edit as the cell loses the focus, as its component state.
    with sockets[-1].expect_event("framesent", carries_seven):
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait_idle(page, timeout=120_000)
    page.wait_for_url("**/database**")
    wait_idle(page, timeout=120_000)
    return menu


@pytest.mark.timeout(300)
def test_typing_a_number_then_clicking_a_page_link_opens_that_page(page, server):
    """That late edit used to stop the other page's run: with the grids in an st.fragment the
    browser was left blank (5 of 5 such clicks), without one the learner was sent back to the
    Luong page (8 of 8). Now the learner lands on the page clicked (kit/state/navigation.py:
    the grid's callback, or the link's `to`, goes on to it)."""
    menu = type_then_click_a_page_link(page, server)
    expect(page.get_by_role("heading", level=1)).to_have_text("Database lookup")
    expect(menu.get_by_role("link", name="Luong explorer")).to_be_visible()
    assert "/database" in page.url


# `race`: kept 4 of 6 at load 6 (23 of 23 while the grids were not an st.fragment). When the
# other page's run has finished before the late edit arrives, that run has dropped the grids'
# fragment, and Streamlit discards a rerun of a fragment it no longer holds, widget states and
# all (AppSession.request_rerun): the server never sees the edit. The fragment halves the
# server's work per edit for a whole class (issue 13), so this rare case is the price.
@pytest.mark.race
@pytest.mark.timeout(300)
def test_typing_a_number_then_clicking_a_page_link_keeps_the_number(page, server):
    """The callbacks of the example selector and the layout switch, called again by Streamlit
    in that late run, used to reload or transpose the grids over the edit; the grid's own
    callback keeps it. Back on the Luong page, the scores use the typed number."""
    menu = type_then_click_a_page_link(page, server)
    expect(page.get_by_role("heading", level=1)).to_have_text("Database lookup")
    menu.get_by_role("link", name="Luong explorer").click()
    page.wait_for_url("**/luong**")
    Q = FIRST["Q"].copy()
    Q[0, 0] = 7.0
    wait_for_plot(page, "S: scores", attention(Q, FIRST["K"], FIRST["V"]).scores.tolist())
