"""A number as a person types it into a grid cell, read on the server.

The browser's number editor rewrites what was typed before the server sees it (`1e-3` became
−13, `0,5` became 5, `1001` became 1000), so the grids hold text and this module decides what
the text means. Accepted, after Unicode NFKC (full-width digits and signs become ASCII):

- a leading sign: `+`, `-`, or the minus the app itself prints (U+2212) or an en dash;
- digits with one decimal point, or one decimal comma where it cannot be a thousands
  separator (`0,5`, `3,14159`, `1234,5`; not `1,000`, which could mean a thousand);
- an exponent: `1e-3`, `2E5`, or as the app writes it, `1.5×10⁻⁵` (also `1.5×10^−5`,
  `x10^`, `*10^`);
- `∞` (or `inf`) and `NaN`, which the app prints for such numbers (the caller rejects them
  as out of range or empty).

Anything else is not a number: `read_number` raises `NotANumberError` with a reason code (the UI
words it), and the caller keeps the cell's previous value. A pure module: no Streamlit.
"""

from __future__ import annotations

import math
import re
import unicodedata

# Longer text is never a number a learner means (and is not worth parsing).
MAX_CHARS = 64
_MINUSES = "-\u2212\u2013"  # hyphen-minus, the minus sign the app prints, an en dash
_SIGN = rf"[+{re.escape(_MINUSES)}]"
_NUMBER = re.compile(
    rf"""(?P<sign>{_SIGN})?
         (?P<whole>\d*)(?:(?P<separator>[.,])(?P<fraction>\d*))?
         (?:[eE](?P<exponent>{_SIGN}?\d+)
           |\s*[×xX*·]\s*10\s*\^\s*(?P<brace>\{{)?(?P<power>{_SIGN}?\d+)(?(brace)\}})
         )?""",
    re.VERBOSE,
)


# A raised exponent, as the app prints it (×10⁻⁵), read as ×10^-5 (NFKC alone would drop the
# raising and leave ×10−5).
_RAISED = re.compile("10([⁺⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)")
_FROM_RAISED = str.maketrans("⁺⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "+-0123456789")

_INFINITY = ("∞", "inf", "infinity")  # the app prints ∞; Python and JSON clients write inf


class NotANumberError(ValueError):
    """`text` is not a number as people write one; `reason` says why (a catalog key's tail):
    'text' (not a number at all), 'thousands' (a comma that may separate thousands),
    'too_long' (more than MAX_CHARS characters)."""

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"not a number ({reason}): {text[:MAX_CHARS]!r}")
        self.text, self.reason = text, reason


def read_number(text: str) -> float:
    """The number `text` means; NaN for empty text (a cleared cell).

    >>> read_number("1e-3"), read_number("−0,5"), read_number("1.5×10⁻⁵")
    (0.001, -0.5, 1.5e-05)
    """
    if len(text) > MAX_CHARS:
        raise NotANumberError(text, "too_long")
    raised = _RAISED.sub(lambda match: "10^" + match[1].translate(_FROM_RAISED), text)
    plain = unicodedata.normalize("NFKC", raised).strip()
    if not plain or plain.casefold() == "nan":
        return math.nan
    sign = -1.0 if plain[0] in _MINUSES else 1.0
    unsigned = plain[1:] if plain[0] in "+" + _MINUSES else plain
    if unsigned.casefold() in _INFINITY:
        return sign * math.inf
    match = _NUMBER.fullmatch(plain)
    if match is None or not (match["whole"] or match["fraction"]):
        raise NotANumberError(text, "text")
    whole, fraction = match["whole"], match["fraction"] or ""
    if match["separator"] == "," and _may_separate_thousands(whole, fraction):
        raise NotANumberError(text, "thousands")
    exponent = match["exponent"] or match["power"] or "0"
    exponent = "-" + exponent[1:] if exponent[0] in _MINUSES else exponent
    # float() reads the digits exactly as Python would read "12.5e-3" (correctly rounded).
    return sign * float(f"{whole or '0'}.{fraction or '0'}e{exponent}")


def _may_separate_thousands(whole: str, fraction: str) -> bool:
    """'1,000' or '12,345' could be a thousand-style number; '0,5', '1,5', '1234,5' cannot."""
    return len(fraction) == 3 and 1 <= len(whole) <= 3 and whole.lstrip("0") != ""
