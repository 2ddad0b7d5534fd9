"""Showing user text safely inside Streamlit's Markdown."""

from __future__ import annotations

import re

# Markdown, LaTeX ($) and HTML-ish characters that would change how user text renders.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>$~:&])")


def escape_markdown(text: str, limit: int = 80) -> str:
    """User text made inert for st.markdown/st.error: every special character escaped and
    long text cut to `limit` characters (with an ellipsis), so a name is shown, never run."""
    text = str(text)
    if len(text) > limit:
        text = text[:limit] + "…"
    text = text.replace("\n", " ").replace("\r", " ")
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)
