"""Session isolation in real browsers: two students (two browser contexts, so two Streamlit
sessions) on the same server edit the same cell of the Luong explorer; each sees only their
own numbers."""

from __future__ import annotations

import numpy as np

from attention_core import attention
from attention_ui.kit.text.i18n import catalog
from attention_ui.luong.presets import PRESETS
from tests.browser.conftest import (
    ARTIFACTS,
    assert_no_exception,
    grid,
    move_slider,
    new_context,
    open_page,
    type_into_cell,
    wait_for_plot,
)

EN = catalog("en")
S, A = EN["luong.results.S"], EN["luong.results.A"]


def first_preset(q11: float | None = None) -> dict[str, np.ndarray]:
    matrices = PRESETS["first"].column_matrices()
    if q11 is not None:
        matrices["Q"] = matrices["Q"].copy()
        matrices["Q"][0, 0] = q11
    return matrices


def scores(matrices: dict[str, np.ndarray], tau: float = 1.0):
    return attention(matrices["Q"], matrices["K"], matrices["V"], "dot", temperature=tau)


def test_two_students_editing_the_same_cell_see_only_their_own(browser, server, page):
    alice = page
    open_page(alice, server, "luong")
    type_into_cell(alice, grid(alice, 0), 0, 0, "3", columns=2)
    wait_for_plot(alice, S, scores(first_preset(3.0)).scores.tolist())

    context = new_context(browser, viewport={"width": 1280, "height": 900})
    try:
        bob = context.new_page()
        open_page(bob, server, "luong")
        wait_for_plot(bob, S, scores(first_preset()).scores.tolist())  # the default, not 3
        type_into_cell(bob, grid(bob, 0), 0, 0, "-2", columns=2)
        wait_for_plot(bob, S, scores(first_preset(-2.0)).scores.tolist())
        assert_no_exception(bob)
    except BaseException:
        ARTIFACTS.mkdir(exist_ok=True)  # the fixture keeps Alice's screen; this is Bob's
        bob.screenshot(path=str(ARTIFACTS / "isolation-second-student.png"), full_page=True)
        raise
    finally:
        context.close()

    # Alice's next change runs on her own Q (3), not on Bob's (−2).
    move_slider(alice, EN["luong.tau.label"], 1)
    wait_for_plot(alice, A, scores(first_preset(3.0), tau=1.5).weights.tolist())
    assert_no_exception(alice)
