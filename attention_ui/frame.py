"""What every page shares around its content: the language switch and the page header."""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

from attention_core import AttentionInputError

from .i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGE_STATE_KEY,
    LANGUAGES,
    current_language,
    error_text,
    language_from_tag,
    t,
)
from .text import escape_markdown

_LANG_PARAM = "lang"
_WIDGET_KEY = "lang.switch"
_REJECTED_KEY = "lang.rejected"


def setup_language() -> None:
    """Choose the session's language once: from `?lang=` in the URL (so an instructor can share
    a Japanese link), else the browser's preferred language, else English. Called by app.py
    before the navigation is built, so page titles are translated too."""
    if LANGUAGE_STATE_KEY in st.session_state:
        return
    requested = st.query_params.get(_LANG_PARAM)
    chosen = language_from_tag(requested)
    if chosen is None and requested:  # say why the URL's choice was not used
        st.session_state[_REJECTED_KEY] = requested
    st.session_state[LANGUAGE_STATE_KEY] = (chosen or language_from_tag(st.context.locale)
                                            or DEFAULT_LANGUAGE)


def language_switch() -> None:
    """The sidebar switch, shown on every page; it keeps `?lang=` in the URL in step so that
    the address can be shared."""
    # The widget has its own key: Streamlit forgets a widget's state on pages where it is
    # not drawn, while a plain session key survives every page switch.
    st.session_state[_WIDGET_KEY] = current_language()
    st.sidebar.radio(t("common.language"), options=list(LANGUAGES), format_func=LANGUAGES.get,
                     key=_WIDGET_KEY, horizontal=True, on_change=_choose_language)
    rejected = st.session_state.pop(_REJECTED_KEY, None)
    if rejected is not None:
        st.sidebar.warning(t("common.unknown_language", value=escape_markdown(rejected, 20),
                             language=t(f"common.language_names.{current_language()}")))
    if st.query_params.get(_LANG_PARAM) != current_language():
        _sync_url()


def _choose_language() -> None:
    st.session_state[LANGUAGE_STATE_KEY] = st.session_state[_WIDGET_KEY]
    _sync_url()


def _sync_url() -> None:
    st.query_params[_LANG_PARAM] = current_language()


def page_header(namespace: str) -> None:
    """Title and one-paragraph introduction from the page's catalog namespace."""
    _run_through_router()
    st.title(t(f"{namespace}.title"))
    st.markdown(t(f"{namespace}.intro"))


def _run_through_router() -> None:
    """Make sure app.py (language, navigation) runs around this page.

    Streamlit still has its old `pages/` folder mode: on a fresh server, until a session has
    run app.py's st.navigation, opening a page's address (a shared `/luong?lang=ja` link)
    runs `pages/luong.py` alone, in English, with a file-name sidebar. Turning that mode off,
    as st.navigation itself does, and rerunning sends this visit through the router to the
    same page.
    """
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


def show_error(error: AttentionInputError) -> None:
    """An engine error as a message in the learner's language (never a traceback)."""
    st.error(error_text(error), icon="⚠️")
