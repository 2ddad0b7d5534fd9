"""Numbers as people type them into a grid cell: what each text means, or why it is no number."""

import math

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from attention_core.formatting import fmt
from attention_ui.kit.grids.number_text import MAX_CHARS, NotANumberError, read_number

# What a learner types → the number the app must use.
NUMBERS = [
    ("2", 2.0),
    ("-2", -2.0),
    ("+2", 2.0),
    ("−0.5", -0.5),
    ("–3", -3.0),
    ("0.5", 0.5),
    (".5", 0.5),
    ("5.", 5.0),
    ("1e-3", 0.001),
    ("1e3", 1000.0),
    ("2E5", 2e5),
    ("1e308", 1e308),
    ("1e-320", 1e-320),
    ("1001", 1001.0),
    ("1000.5", 1000.5),
    ("0,5", 0.5),
    ("3,14159", 3.14159),
    ("−0,25", -0.25),
    ("0,500", 0.5),
    ("1234,567", 1234.567),
    (",5", 0.5),
    ("1,5e3", 1500.0),
    ("1.5×10^−5", 1.5e-5),
    ("2×10^3", 2000.0),
    ("1x10^-2", 0.01),
    ("1*10^{-2}", 0.01),
    ("  7  ", 7.0),
    ("２．５", 2.5),
    ("－３", -3.0),
    ("∞", math.inf),
    ("−∞", -math.inf),
    ("1e400", math.inf),
    ("-inf", -math.inf),
    ("Infinity", math.inf),
]
# Text that is no number, and the reason the message gives.
NOT_NUMBERS = [
    ("abc", "text"),
    ("4-", "text"),
    ("1..2", "text"),
    ("1.2.3", "text"),
    ("1 000", "text"),
    ("−", "text"),
    (".", "text"),
    ("e5", "text"),
    ("1e", "text"),
    ("1,000.5", "text"),
    ("0x10", "text"),
    ("1/2", "text"),
    ("--∞", "text"),
    ("∞∞", "text"),
    ("1,000", "thousands"),
    ("12,345", "thousands"),
    ("−1,500", "thousands"),
    ("1" * (MAX_CHARS + 1), "too_long"),
]


@pytest.mark.parametrize(("text", "number"), NUMBERS)
def test_a_number_is_read_as_a_person_means_it(text, number):
    assert read_number(text) == number


@pytest.mark.parametrize(("text", "reason"), NOT_NUMBERS)
def test_text_that_is_no_number_is_refused_with_a_reason(text, reason):
    with pytest.raises(NotANumberError) as refused:
        read_number(text)
    assert refused.value.reason == reason


@pytest.mark.parametrize("text", ["", "   ", "NaN"])
def test_an_empty_cell_is_nan(text):
    assert math.isnan(read_number(text))


@given(st.floats(allow_nan=False), st.integers(1, 17))
@example(11.0, 1)  # '11', not '1e+01': below a million the whole part is kept
@example(-123456.7, 2)
def test_what_the_app_prints_reads_back_as_the_same_number(x, digits):
    shown = f"{x:.{digits}g}"
    if "e" in shown and 1 <= abs(float(shown)) < 1e6:
        shown = f"{x:.0f}"
    assert read_number(fmt(x, digits)) == float(shown)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_seventeen_digits_read_back_exactly(x):
    assert read_number(fmt(x, 17)) == x
    assert read_number(repr(x)) == x


@given(st.text(max_size=20))
def test_any_text_is_a_number_or_refused_never_a_crash(text):
    try:
        number = read_number(text)
    except NotANumberError as refused:
        assert refused.reason in {"text", "thousands", "too_long"}
    else:
        assert isinstance(number, float)
