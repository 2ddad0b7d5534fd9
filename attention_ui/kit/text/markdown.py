"""Showing user text safely inside Streamlit's Markdown."""

from __future__ import annotations

import re
import unicodedata

# Markdown, LaTeX ($) and HTML-ish characters that would change how user text renders.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>$~:&])")
# Characters that change how the text around them is shown: the bidirectional embeddings,
# overrides and isolates (a U+202E would turn the rest of a message backwards) and marks.
_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def without_controls(text: str) -> str:
    """`text` without control characters (C0, C1, DEL) and bidirectional controls; line
    breaks and tabs become spaces. Letters of any script, emoji and their joiners stay."""
    text = re.sub(r"[\t\n\r]", " ", str(text))
    return "".join(c for c in text if c not in _BIDI_CONTROLS and unicodedata.category(c) != "Cc")


def escape_markdown(text: str, limit: int = 80) -> str:
    """User text made inert for st.markdown/st.error: every special character escaped and
    long text cut to `limit` characters (with an ellipsis), so a name is shown, never run.
    Control characters go first: a right-to-left override must not reverse the message."""
    raw = str(text)
    text = without_controls(raw[: 2 * limit + 64])  # a few controls more than shown, not all
    if len(text) > limit or len(raw) > 2 * limit + 64:
        text = text[:limit] + "…"
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def stacked(*lines: str) -> str:
    """LaTeX for one formula of several lines, each centred: a formula wider than a phone's
    column (about 340 px at 390 px) is cut off, since KaTeX hides its scroll bar, so long
    formulas are written as short lines that each fit."""
    return r"\begin{gathered}" + r" \\ ".join(lines) + r"\end{gathered}"
