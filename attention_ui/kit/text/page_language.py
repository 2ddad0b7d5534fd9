"""The document's language: `<html lang="ja">` on a Japanese page, so that a screen reader
reads it with a Japanese voice and the browser picks Japanese fonts and line breaking.

Streamlit's page is always `<html lang="en">` and has no setting for it, so a tiny custom
component (v2: its script runs in the page itself, no frame) sets the attribute. Its script is
fixed here; the only thing it receives is a language code, and it sets the attribute only to
one of the app's own codes (LANGUAGES), whatever arrives.
"""

from __future__ import annotations

import json

import streamlit as st
from streamlit.components.v2 import component

from attention_ui.kit.text.i18n import LANGUAGES, current_language

# Japanese line breaking, for the whole document: no line starts with 「ー」 or a small kana
# (strict kinsoku), and a heading breaks between phrases, never inside a word (on a phone the
# gallery's title 「重みのギャラリー」 broke before its final 「ー」); a phrase longer than its
# line still breaks rather than run out of it. A Japanese title is drawn smaller than the theme's
# h1 (its characters fill the em box that Latin letters leave half empty), more so on a phone:
# the longest title takes one line on a desktop and two on a phone, and each page's first result
# stays within the screens that tests/browser/test_accessibility.py allows.
_JAPANESE_LINES = (
    ":lang(ja) { line-break: strict; } "
    ":lang(ja) :is(h1, h2, h3) { word-break: auto-phrase; overflow-wrap: break-word; } "
    ":lang(ja) h1 { font-size: 2.25rem; } "
    "@media (max-width: 640px) { :lang(ja) h1 { font-size: 1.875rem; } }"
)
_SCRIPT = f"""
const KNOWN = {json.dumps(sorted(LANGUAGES))};
const LINES = {json.dumps(_JAPANESE_LINES)};
export default function ({{ data }}) {{
  const lang = (data || {{}}).lang;
  if (KNOWN.includes(lang) && document.documentElement.lang !== lang)
    document.documentElement.lang = lang;
  if (!document.getElementById("attention-line-breaks")) {{
    const style = document.createElement("style");
    style.id = "attention-line-breaks";
    style.textContent = LINES;
    document.head.appendChild(style);
  }}
}}
"""
_COMPONENT = component("attention_page_language", js=_SCRIPT)
KEY = "page.language"


def set_document_language() -> None:
    """Mark the document with the session's language. Drawn last in the sidebar: the
    component is an empty element, and anywhere else its gap would show."""
    with st.sidebar:
        _COMPONENT(data={"lang": current_language()}, key=KEY)
