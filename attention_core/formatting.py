"""How numbers are written in formulas and arithmetic: short, with a true minus sign."""

from __future__ import annotations

import functools
import math

MINUS = "\u2212"  # '−', which reads better than a hyphen in arithmetic
_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
_SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
# One precision for every number the app shows: cells, hovers, sentences and formulas agree.
DIGITS = 3


def fmt(x: float, digits: int = DIGITS) -> str:
    """`x` with `digits` significant digits: 1/3 → '0.333', 0.9998 → '1.00', 7.2e-17 →
    '7.20×10⁻¹⁷' (a raised exponent); a number those digits hold exactly is written short:
    2 → '2', -1.5 → '−1.5', 1e-5 → '1×10⁻⁵', an exact zero (−0.0 too) → '0'."""
    return _fmt(float(x), digits)


# Hover texts write the same few numbers hundreds of times (each entry of q and k appears in
# every product sum of an 8 × 8 score matrix): remember recent ones. A functools cache, not
# Streamlit's: the engine imports no Streamlit (docs/ARCHITECTURE.md), and this is called per
# number written, where a per-call argument hash would cost more than the formatting.
@functools.lru_cache(maxsize=4096)
def _fmt(x: float, digits: int) -> str:
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "∞" if x > 0 else MINUS + "∞"
    if x == 0:
        return "0"  # also turns −0.0 into '0'
    # Below a million a number keeps its whole part (12346, not 1.23×10⁴: an integer part is
    # never cut to a power of ten).
    text = f"{x:.{digits}g}"
    if abs(float(text) - x) > 1e-9 * abs(x):
        # Not exact: every significant digit is written, trailing zeros too (0.9998 → '1.00',
        # never '1', which would read as exactly 1; weights 0.806 and 0.180 alike). Rounding
        # error far below the digits shown (a softmax's sum 1 − 1e-16) counts as exact.
        text = f"{x:#.{digits}g}".rstrip(".").replace(".e", "e")
    if "e" in text and 1 <= abs(float(text)) < 1e6:
        text = f"{x:.0f}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}×10{str(int(exponent)).translate(_SUPERSCRIPTS)}"
    return text.replace("-", MINUS)


def fmt_latex(x: float, digits: int = DIGITS) -> str:
    """`fmt(x)` for LaTeX: '4.2 \\times 10^{-44}' (the whole exponent raised, not just its
    sign), '-1.5', '\\infty'."""
    text = fmt(x, digits).replace(MINUS, "-").replace("∞", r"\infty ")
    if "×10" in text:
        mantissa, exponent = text.split("×10")
        exponent = exponent.translate(_FROM_SUPERSCRIPTS)
        text = rf"{mantissa} \times 10^{{{exponent}}}"
    return text.strip()


_FROM_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")


def operand(x: float, digits: int = DIGITS) -> str:
    """`x` ready to stand inside a product: negatives in parentheses, '(−1)×2'."""
    text = fmt(x, digits)
    return f"({text})" if text.startswith(MINUS) else text


def product_sum(left, right, digits: int = DIGITS) -> str:
    """'a₁×b₁ + a₂×b₂ + …' for two equally long sequences."""
    pairs = zip(left, right, strict=True)
    return " + ".join(f"{operand(a, digits)}×{operand(b, digits)}" for a, b in pairs)


def subscript(n: int) -> str:
    """1-based index written as Unicode subscript digits: 12 → '₁₂'."""
    return str(n).translate(_SUBSCRIPTS)
