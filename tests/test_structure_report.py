"""tools/structure_report.py's count of lines of code: blanks, comment lines and docstrings
(module, class and function) do not count; code, strings that are values and trailing
comments do."""

from __future__ import annotations

from tools import structure_report

SOURCE = '''"""A module's docstring,
over two lines."""

# a comment line
X = 1  # a trailing comment counts: the line holds code


class Box:
    """A class docstring."""

    size = "a string that is a value"


def f(a):
    """A function's docstring,

    over three lines."""
    text = """a multi-line string
    that is a value"""
    return a, text
'''


def test_code_lines_leave_out_blanks_comments_and_docstrings():
    # X, class Box, size, def f, text (2 lines), return
    assert structure_report.code_lines(SOURCE) == 7


def test_every_page_of_the_menu_is_a_page_package_the_training_page_too():
    from attention_ui.page_list import PAGES

    assert tuple(page.name for page in PAGES) == structure_report.PAGES
    assert structure_report.page_of("attention_ui.train.transfer") == "train"
    assert structure_report.page_of("attention_ui.kit.grids.trained") is None


def test_a_page_reading_another_pages_state_is_no_shared_to_page_import():
    """train/transfer.py hands trained matrices to the Luong and transformer pages' state: a
    page reading another page's state (allowed), not the shared layer reading a page."""
    report = structure_report.static_report()
    assert report["_shared_to_page"] == []
    assert report["shared -> page imports (file pairs)"] == 0
    assert not [
        pair for pair in report["_page_to_page"] if pair[0].startswith("attention_ui.train")
    ]
