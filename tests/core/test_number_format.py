"""The app's one number format (attention_core.formatting.fmt), read back by the grids."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attention_core.formatting import fmt, fmt_latex
from attention_ui.kit.grids.number_text import read_number


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.0, "0"),
        (-0.0, "0"),
        (2.0, "2"),
        (-1.5, "−1.5"),
        (1 / 3, "0.333"),
        (0.17999, "0.180"),  # inexact: its three digits, trailing zero kept
        (0.9998, "1.00"),  # not '1', which would read as exactly 1
        (1 - 1e-16, "1"),  # a softmax's rounding error is not a digit shown
        (12345.6, "12346"),  # an integer part is never cut to a power of ten
        (7.2e-17, "7.2×10⁻¹⁷"),  # a raised exponent, no caret
        (-3e20, "−3×10²⁰"),
        (math.inf, "∞"),
    ],
)
def test_numbers_are_written_one_way(value, text):
    assert fmt(value) == text


def test_latex_raises_the_whole_exponent():
    assert fmt_latex(4.2e-44) == r"4.2 \times 10^{-44}"


@given(st.floats(min_value=-1e300, max_value=1e300))  # rounding up past 1.8e308 is ∞
def test_what_the_app_writes_the_grids_read_back_within_its_digits(x):
    back = read_number(fmt(x))
    assert back == pytest.approx(x, rel=5e-3, abs=0)
