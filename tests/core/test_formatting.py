"""Numbers written for LaTeX: a power of ten raises its whole exponent."""

from attention_core.formatting import fmt_latex


def test_a_power_of_ten_raises_its_whole_exponent_in_latex():
    assert fmt_latex(4.2e-44, 3) == r"4.2 \times 10^{-44}"
    assert fmt_latex(-1.5) == "-1.5" and fmt_latex(2e6) == r"2 \times 10^{6}"
