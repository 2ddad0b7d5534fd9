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
