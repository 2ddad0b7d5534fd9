"""How numbers are written in formulas and arithmetic: short, with a true minus sign."""

from __future__ import annotations

import functools
import math

MINUS = "\u2212"  # '−', which reads better than a hyphen in arithmetic
_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def fmt(x: float, digits: int = 4) -> str:
    """`x` with at most `digits` significant digits: 2 → '2', -1.5 → '−1.5', 1/3 → '0.3333'."""
    return _fmt(float(x), digits)


# Hover texts write the same few numbers hundreds of times (each entry of q and k appears in
# every product sum of an 8 × 8 score matrix): remember recent ones.
@functools.lru_cache(maxsize=4096)
def _fmt(x: float, digits: int) -> str:
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "∞" if x > 0 else MINUS + "∞"
    if x == 0:
        return "0"  # also turns −0.0 into '0'
    text = f"{x:.{digits}g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}×10^{int(exponent)}"
    return text.replace("-", MINUS)


def fmt_latex(x: float, digits: int = 4) -> str:
    """`fmt(x)` for LaTeX: '4.2 \\times 10^{-44}' (the whole exponent raised, not just its
    sign), '-1.5', '\\infty'."""
    text = fmt(x, digits).replace(MINUS, "-").replace("∞", r"\infty ")
    if "×10^" in text:
        mantissa, exponent = text.split("×10^")
        text = rf"{mantissa} \times 10^{{{exponent}}}"
    return text.strip()


def operand(x: float, digits: int = 4) -> str:
    """`x` ready to stand inside a product: negatives in parentheses, '(−1)×2'."""
    text = fmt(x, digits)
    return f"({text})" if text.startswith(MINUS) else text


def product_sum(left, right, digits: int = 4) -> str:
    """'a₁×b₁ + a₂×b₂ + …' for two equally long sequences."""
    pairs = zip(left, right, strict=True)
    return " + ".join(f"{operand(a, digits)}×{operand(b, digits)}" for a, b in pairs)


def subscript(n: int) -> str:
    """1-based index written as Unicode subscript digits: 12 → '₁₂'."""
    return str(n).translate(_SUBSCRIPTS)
