"""What every page shares around its content: the language switch and the page header."""

from __future__ import annotations

import streamlit as st

from attention_core import AttentionInputError

from .i18n import LANGUAGE_STATE_KEY, LANGUAGES, error_text, t
from .text import escape_markdown

_LANG_PARAM = "lang"
_WIDGET_KEY = "lang.switch"


def setup_language() -> None:
    """Choose the session's language once: from `?lang=` in the URL, else the browser's
    preferred language, else English. Called by app.py before the navigation is built."""
    if LANGUAGE_STATE_KEY in st.session_state:
        return
    requested = st.query_params.get(_LANG_PARAM)
    if requested in LANGUAGES:
        st.session_state[LANGUAGE_STATE_KEY] = requested
        return
    if requested is not None:  # remember to say why the URL's choice was not used
        st.session_state["lang.rejected"] = requested
    browser = (st.context.locale or "").split("-")[0].lower()
    st.session_state[LANGUAGE_STATE_KEY] = browser if browser in LANGUAGES else "en"


def language_switch() -> None:
    """The sidebar switch, shown on every page; it keeps `?lang=` in the URL in step so that
    the address can be shared."""
    # The widget has its own key: Streamlit forgets a widget's state on pages where it is
    # not drawn, while a plain session key survives every page switch.
    st.session_state[_WIDGET_KEY] = st.session_state[LANGUAGE_STATE_KEY]
    st.sidebar.radio(t("common.language"), options=list(LANGUAGES), format_func=LANGUAGES.get,
                     key=_WIDGET_KEY, horizontal=True, on_change=_choose_language)
    rejected = st.session_state.pop("lang.rejected", None)
    if rejected is not None:
        st.sidebar.warning(t("common.unknown_language", value=escape_markdown(rejected, 20)))
    if st.query_params.get(_LANG_PARAM) != st.session_state[LANGUAGE_STATE_KEY]:
        _sync_url()


def _choose_language() -> None:
    st.session_state[LANGUAGE_STATE_KEY] = st.session_state[_WIDGET_KEY]
    _sync_url()


def _sync_url() -> None:
    st.query_params[_LANG_PARAM] = st.session_state[LANGUAGE_STATE_KEY]


def page_header(namespace: str) -> None:
    """Title and one-paragraph introduction from the page's catalog namespace."""
    st.title(t(f"{namespace}.title"))
    st.markdown(t(f"{namespace}.intro"))


def show_error(error: AttentionInputError) -> None:
    """An engine error as a message in the learner's language (never a traceback)."""
    st.error(error_text(error), icon="⚠️")
