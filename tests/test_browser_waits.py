"""Every `wait_for_function` of the browser tests says how often it looks (`polling`).

Playwright's default looks at every animation frame, which keeps the page's renderer drawing
frames for as long as the wait lasts (tests/browser/conftest.py, POLL_MS); the browser tests are
most of the suite's processor time, and two workers share two cores. The benchmarks (bench/)
keep the default: they time the frame at which what they wait for is drawn.
"""

from __future__ import annotations

import ast
from pathlib import Path

BROWSER_TESTS = Path(__file__).resolve().parent / "browser"


def waits_without_polling(path: Path) -> list[int]:
    """The lines of `path` where a wait_for_function call passes no `polling`."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "wait_for_function"
        and not any(keyword.arg == "polling" for keyword in node.keywords)
    ]


def test_every_browser_wait_polls_at_an_interval():
    found = {
        path.name: lines
        for path in sorted(BROWSER_TESTS.glob("*.py"))
        if (lines := waits_without_polling(path))
    }
    assert not found, f"wait_for_function without polling=POLL_MS: {found}"


def test_the_check_finds_a_wait_left_at_its_default(tmp_path):
    script = tmp_path / "test_example.py"
    script.write_text(
        "def test(page):\n"
        "    page.wait_for_function('() => true', polling=100)\n"
        "    page.wait_for_function('() => true', timeout=5)\n",
        encoding="utf-8",
    )
    assert waits_without_polling(script) == [3]
