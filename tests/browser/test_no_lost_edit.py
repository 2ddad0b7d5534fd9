"""No edit is lost: a number typed into a Luong grid and followed at once by another action is
kept, in Chromium, trial after trial on one page.

The matrix editor commits a cell on Enter or when it loses the focus (any click elsewhere), in
one message and with no delay (attention_ui/kit/grids), so every action below comes right after
the commit, as a quick learner's would. Each test makes ATTN_TRIALS trials (2 by default, each
way of leaving the cell taken both ways round; 30 when measuring, `ATTN_TRIALS=30`), each with a
new number, and fails naming the trials whose number was not kept. Cells are found by the
editor's accessible names ("Q, row 1, column q1").

The tests share one Luong page (opening it is most of a test's time). Each leaves it as it found
it (the opening example, one query per column, n = 2), but for Q's first entry, which every
trial types anew; after a failed test the page is opened again.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import numpy as np
import pytest
from playwright.sync_api import expect

from attention_core import attention
from attention_ui.kit.text.i18n import t
from attention_ui.luong.presets import PRESETS
from tests.browser.conftest import (
    ARTIFACTS,
    collect_errors,
    open_page,
    pick_option,
    wait_for_plot,
    wait_idle,
)

TRIALS = max(1, int(os.environ.get("ATTN_TRIALS", "2")))
FIRST = PRESETS["first"].column_matrices()  # the page opens with it: Q is 2 × 2, K 2 × 3
IDENTITY = PRESETS["identity"].column_matrices()
SCORES = "S: scores"
TIMEOUT = 120_000  # a busy machine draws slowly; no timing is asserted
pytestmark = pytest.mark.timeout(180 + 90 * TRIALS)


def scores(matrices: dict, q: np.ndarray | None = None, layout: str = "column") -> list:
    """The scores chart's numbers (column layout: m × n; row layout: n × m)."""
    s = attention(matrices["Q"] if q is None else q, matrices["K"], matrices["V"]).scores
    return (s if layout == "column" else s.T).tolist()


def typed(trial: int) -> str:
    """A new number each trial, never an example's entry."""
    return f"{2.37 + 0.5 * (trial % 13):.2f}"


@pytest.fixture(scope="module")
def shared_page(module_context) -> Iterator[dict]:
    """One tab for the module, its WebSocket frames sent and its console errors collected."""
    page = module_context.new_page()
    page.set_viewport_size({"width": 1400, "height": 2400})
    page.set_default_timeout(TIMEOUT)
    shared = {"page": page, "sent": [], "errors": collect_errors(page), "opened": False}
    # (a lambda: Playwright cannot take a built-in method as a listener)
    page.on(
        "websocket",
        lambda socket: socket.on("framesent", lambda payload: shared["sent"].append(payload)),
    )
    yield shared
    page.close()


@pytest.fixture
def luong(shared_page, server, request):
    """The Luong page with its opening example drawn: opened for the first test, and again
    after a test that failed (it may have left the page anywhere)."""
    page, failed_before = shared_page["page"], request.session.testsfailed
    if not shared_page["opened"]:
        open_page(page, server, "luong", timeout=TIMEOUT)
        wait_for_plot(page, SCORES, scores(FIRST), timeout=TIMEOUT)
        shared_page["opened"] = True
    shared_page["errors"].clear()
    yield page
    if request.session.testsfailed != failed_before:
        shared_page["opened"] = False
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"))
    assert not shared_page["errors"], f"browser console errors: {shared_page['errors']}"


def type_into_first_q_cell(page, text: str) -> None:
    """Click Q's first cell (q1's first entry, whatever the layout), replace its text by
    typing `text`, and leave it uncommitted."""
    cell = page.locator('[role=grid] input[aria-label^="Q, row "]').first
    cell.click()
    cell.press("Control+A")
    page.keyboard.type(text)
    expect(cell).to_have_value(text)


def carries(frame: bytes, text: str) -> bool:
    """Whether a frame the browser sent holds an edit of a first cell to `text` (the editor's
    entry `[0,0,"<text>"]`, inside the component's JSON state, which may be quoted again)."""
    return f'[0,0,"{text}"]'.encode() in frame or f'[0,0,\\"{text}\\"]'.encode() in frame


def click_at(page, box: dict) -> None:
    """A click on a place found beforehand: nothing stands between the last key and it."""
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def kept(page, expected: list, trial: int, lost: set[int]) -> None:
    """Wait for the scores that hold the typed number; a trial whose never come is lost."""
    try:
        wait_for_plot(page, SCORES, expected, timeout=60_000)
    except Exception:  # a timeout: this trial's number was lost; the next trial goes on
        lost.add(trial + 1)


def assert_none_lost(lost: set[int]) -> None:
    assert not lost, f"lost the typed number in trials {sorted(lost)} of {TRIALS}"


def page_link_trials(page, enter: bool) -> set[int]:
    """Type a number into Q's first cell, (press Enter,) click "Database lookup" at once; on
    that page, come back: the scores use the number. (The link waits for the server to take
    the edit: static/cell_grid.js.)"""
    menu = page.locator("[data-testid=stSidebar]")
    q, lost = FIRST["Q"].copy(), set()
    for trial in range(TRIALS):
        type_into_first_q_cell(page, typed(trial))
        box = menu.get_by_role("link", name="Database lookup").bounding_box()
        if enter:
            page.keyboard.press("Enter")
        click_at(page, box)
        page.wait_for_url("**/database**")
        expect(page.get_by_role("heading", level=1)).to_have_text("Database lookup")
        wait_idle(page, timeout=TIMEOUT)
        menu.get_by_role("link", name="Luong explorer").click()
        page.wait_for_url("**/luong**")
        q[0, 0] = float(typed(trial))
        kept(page, scores(FIRST, q), trial, lost)
        wait_idle(page, timeout=TIMEOUT)
    return lost


def test_enter_then_a_page_link_keeps_the_number(luong):
    assert_none_lost(page_link_trials(luong, enter=True))


def test_typing_then_a_page_link_keeps_the_number(luong):
    """No Enter: the click on the link takes the focus from the cell, which commits it."""
    assert_none_lost(page_link_trials(luong, enter=False))


def test_typing_then_plus_keeps_the_number(luong):
    """Type, then "+" on n (a third query of zeros, a new grid shape): the scores have the
    number and the new query; then "−" for the next trial."""
    sizes = luong.locator("[data-testid=stNumberInput]").filter(has_text="n (queries)")
    q, lost = FIRST["Q"].copy(), set()
    for trial in range(TRIALS):
        type_into_first_q_cell(luong, typed(trial))
        click_at(luong, sizes.locator("[data-testid=stNumberInputStepUp]").bounding_box())
        q[0, 0] = float(typed(trial))
        kept(luong, scores(FIRST, np.hstack([q, np.zeros((2, 1))])), trial, lost)
        wait_idle(luong, timeout=TIMEOUT)
        sizes.locator("[data-testid=stNumberInputStepDown]").click()
        wait_for_plot(luong, SCORES, scores(FIRST, q), timeout=TIMEOUT)
    assert_none_lost(lost)


def test_typing_then_the_layout_switch_keeps_the_number(luong):
    """Type, then the other layout (the grids are transposed): S, transposed, has it."""
    labels = {"row": "one query per row (d2l, PyTorch)", "column": "one query per column (Luong)"}
    q, layout, lost = FIRST["Q"].copy(), "column", set()
    for trial in range(TRIALS):
        layout = "row" if layout == "column" else "column"
        type_into_first_q_cell(luong, typed(trial))
        click_at(luong, luong.get_by_text(labels[layout], exact=True).bounding_box())
        q[0, 0] = float(typed(trial))
        kept(luong, scores(FIRST, q, layout), trial, lost)
        wait_idle(luong, timeout=TIMEOUT)
    if layout != "column":  # an odd ATTN_TRIALS: back to the Luong layout for the next test
        luong.get_by_text(labels["column"], exact=True).click()
        wait_idle(luong, timeout=TIMEOUT)
    assert_none_lost(lost)


def test_typing_then_a_preset_sends_the_number_and_loads_the_preset(luong, shared_page):
    """Type, then pick another example. The example replaces every grid, so what is checked
    is that the number left the browser before the example's run (the click took the focus,
    which committed it: a frame carrying the text) and that it did not land late in the
    example's grid (the scores are exactly the example's). An even number of trials ends on
    the opening example."""
    sent = shared_page["sent"]
    shown, lost = "first", set()
    for trial in range(TRIALS):
        shown = "identity" if shown == "first" else "first"
        text = typed(trial)
        type_into_first_q_cell(luong, text)
        sent.clear()
        pick_option(
            luong, t("luong.preset.label", lang="en"), t(f"luong.preset.{shown}.name", lang="en")
        )
        if not any(carries(bytes(frame), text) for frame in sent):
            lost.add(trial + 1)
        matrices = IDENTITY if shown == "identity" else FIRST
        kept(luong, scores(matrices), trial, lost)
    if shown != "first":  # an odd ATTN_TRIALS: back to the opening example for the next test
        pick_option(
            luong, t("luong.preset.label", lang="en"), t("luong.preset.first.name", lang="en")
        )
    assert_none_lost(lost)
