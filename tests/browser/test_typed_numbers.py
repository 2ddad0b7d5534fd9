"""Numbers as a learner types them into a grid, in Chromium: what is typed is what the app uses.

No browser editor may rewrite the text before the server sees it (`1e-3` read as −13, `0,5`
as 5, `1001` as 1000, the app's own minus lost). Here each text is typed
into Q's first cell on the Luong page, one after the other (select the cell, open its editor,
type key by key, wait until the editor holds the text, Enter); the scores chart
must then show the number the learner meant, or, for text that is no number or a number out
of range, the app's message naming the matrix and the cell while Q keeps its previous value.
"""

from __future__ import annotations

import pytest

from attention_core import attention
from attention_core.formatting import fmt
from attention_ui.luong.presets import PRESETS
from tests.browser.conftest import (
    POLL_MS,
    grid,
    open_cell_editor,
    open_page,
    select_cell,
    wait_for_plot,
    wait_idle,
)

FIRST = PRESETS["first"].column_matrices()  # Q is 2 × 2, K 2 × 3: S[0, 0] = Q[0, 0]
SCORES = "S: scores"
CELL = "Q, cell (1, q1)"

# (typed, the number Q's first cell must then hold, or for a refused text: what the message
# about it says, while the previous number stays)
TYPED = [
    ("1e-3", 0.001),
    ("\u22120.5", -0.5),  # the minus sign the app itself prints
    ("0,5", 0.5),
    ("3,14159", 3.14159),
    ("1e3", 1000.0),
    ("\uff0d\uff13", -3.0),  # full-width minus and digit, as a Japanese keyboard types them
    ("1001", "1001 is outside the allowed range"),
    ("1,000", "“1,000”"),  # a thousands separator or a decimal comma? the app asks
    ("1..2", "“1..2” is not a number"),
    ("4-", "“4-” is not a number"),
]


def type_into_cell(page, grid_locator, row: int, col: int, text: str, columns: int) -> None:
    """Select a cell, open its editor, replace its text by typing `text` key by key, press
    Enter, and wait for the rerun to end."""
    select_cell(page, grid_locator, row, col, columns)
    open_cell_editor(page, text)
    page.keyboard.press("Enter")
    wait_idle(page, timeout=120_000)


# Whether one of the page's alerts names Q's first cell (and, if given, holds `fragment`).
_NAMED = """([cell, fragment]) => Array.from(document.querySelectorAll('[data-testid=stAlert]'))
    .some(alert => alert.innerText.includes(cell) && alert.innerText.includes(fragment))"""


def wait_for_message(page, fragment: str, shown: bool) -> None:
    """Wait until a message naming Q's first cell (with `fragment`) is shown, or is gone (the
    rerun after Enter may start a moment later on a busy machine)."""
    condition = _NAMED if shown else f"(args) => !({_NAMED})(args)"
    page.wait_for_function(condition, arg=[CELL, fragment], timeout=60_000, polling=POLL_MS)


# Enter right after the editor's text loses typed cells under load: open_cell_editor waits a
# moment first (16 of 16 at load 6-10).
@pytest.mark.timeout(600)
def test_typed_numbers_mean_what_the_learner_wrote(page, server):
    page.set_viewport_size({"width": 1400, "height": 2400})
    page.set_default_timeout(120_000)  # a busy machine draws slowly; no timing is asserted
    open_page(page, server, "luong", timeout=120_000)
    Q = FIRST["Q"].copy()
    # The first visit's runs are over once the scores of the opening example are drawn.
    wait_for_plot(page, SCORES, attention(Q, FIRST["K"], FIRST["V"]).scores.tolist())
    # One after the other into the same cell: each number meant differs from the one before
    # and each refused text has its own message, so every step waits for its own rerun.
    for typed, meant in TYPED:
        type_into_cell(page, grid(page, 0), 0, 0, typed, columns=2)  # Q: q1, q2
        if isinstance(meant, str):  # refused: the message, and Q keeps its number
            wait_for_message(page, meant, shown=True)
            wait_for_message(page, f"so Q keeps {fmt(Q[0, 0], 10)} there", shown=True)
        else:
            wait_for_message(page, "", shown=False)
            Q[0, 0] = meant
        expected = attention(Q, FIRST["K"], FIRST["V"]).scores
        wait_for_plot(page, SCORES, expected.tolist(), timeout=60_000)
        assert page.locator("[data-testid=stException]").count() == 0
