"""Every formula fits its column at a laptop's 1400 px and a phone's 390 px,
on every page: each tab opened and each expander unfolded, so that no formula is hidden.

KaTeX's display box scrolls sideways, but its scroll bar is hidden until touched, so an
overflowing formula reads as cut off: here every formula must fit (its content no wider than
its box). Screenshots at both widths are kept in test-artifacts/ for a person to look at.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS, assert_no_exception, open_page, wait_idle

# KaTeX's italic letters overhang their box by a pixel or two; a cut-off formula loses more.
SLACK_PX = 4
OVERFLOWING = """() => Array.from(document.querySelectorAll('.katex-display'))
    .filter(box => box.clientWidth > 0 && box.scrollWidth > box.clientWidth + SLACK)
    .map(box => `${box.scrollWidth - box.clientWidth} px: ${box.textContent.slice(0, 50)}`)"""
SHOWN = """() => Array.from(document.querySelectorAll('.katex-display'))
    .filter(box => box.clientWidth > 0).length"""

# Every folded expander of the page (not the sidebar's, which a phone's width hides).
UNFOLD = """() => document.querySelectorAll(
    '[data-testid=stMain] details:not([open]) > summary').forEach(s => s.click())"""

# (name, path, address query, pick the row layout): the seven pages, every exercise.
VIEWS = [
    ("home", "", "lang=en", False),
    ("luong-column", "luong", "lang=en", False),
    ("luong-row", "luong", "lang=en", True),
    ("database", "database", "lang=en", False),
    ("gallery", "gallery", "lang=en", False),
    ("regression", "regression", "lang=en", False),
    ("transformer", "transformer", "lang=en", False),
    *(
        (f"exercises-{section}", "exercises", f"lang=en&v=1&section={section}", False)
        for section in ("match", "grad", "search", "se")
    ),
]


def overflows_in_every_tab(page, every_step: bool = False) -> tuple[list[str], int]:
    """Open each tab in turn, unfold each expander, and collect the formulas that overflow
    (and how many formulas were seen). With `every_step`, the Luong step view (one step at a
    time) is shown at each of its steps."""
    found: list[str] = []
    seen = 0
    tabs = page.get_by_role("tab")
    for index in range(max(1, tabs.count())):
        if tabs.count():
            tabs.nth(index).click()
            wait_idle(page, timeout=90_000)
        page.evaluate(UNFOLD)
        page.wait_for_timeout(300)
        found += page.evaluate(OVERFLOWING.replace("SLACK", str(SLACK_PX)))
        seen += page.evaluate(SHOWN)
        picker = page.get_by_role("radiogroup", name="Step to show")
        steps = picker.get_by_role("radio")
        if every_step and index == 0:  # the step-by-step tab opens first
            assert steps.count() >= 6  # dot: scores, shift, exp, sums, weights, output
        for number in range(1, steps.count() if every_step else 0):  # the first is shown
            # a learner clicks the option's label: the radio input itself is drawn off-screen
            option = picker.locator("label").nth(number)
            option.scroll_into_view_if_needed()
            option.click()
            wait_idle(page, timeout=90_000)
            found += page.evaluate(OVERFLOWING.replace("SLACK", str(SLACK_PX)))
            seen += page.evaluate(SHOWN)
    return found, seen


@pytest.mark.parametrize("width", [1400, 390])
def test_every_formula_on_every_page_fits_at_a_laptops_and_a_phones_width(browser, server, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    failures: dict[str, list[str]] = {}
    try:
        page = context.new_page()
        for name, path, query, row_layout in VIEWS:
            open_page(page, server, path, query)
            if row_layout:  # the layout relation and every step's formula in row layout
                page.get_by_role("radio", name="one query per row", exact=False).first.click(
                    force=True
                )
                wait_idle(page, timeout=90_000)
            page.locator(".katex-display").first.wait_for()
            assert_no_exception(page)
            overflowing, seen = overflows_in_every_tab(page, every_step=row_layout)
            assert seen > 0, f"{name}: no formula was seen"
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"formulas-{name}-{width}.png"))
            if overflowing:
                failures[name] = overflowing
        assert failures == {}, "\n".join(
            f"{name}: {line}" for name, lines in failures.items() for line in sorted(set(lines))
        )
    finally:
        context.close()
