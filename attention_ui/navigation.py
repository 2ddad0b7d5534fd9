"""Which page the learner is on, as far as the server knows, for edits that arrive late.

A grid sends its edit up to 150 ms after the learner leaves the cell, so "type a number, click
another page" can send the edit after the other page's run has begun, carrying the old page's
address (the browser has not switched yet). Streamlit then stops the new page's run and runs
the old page (or, for an `st.fragment`, a part of it) instead: the learner would be sent back,
or shown a blank page. The grid's callback keeps the edit and then sends the learner on to the
page they asked for (`follow_navigation`).
"""

from __future__ import annotations

import streamlit as st

from .i18n import current_language
from .menu import PAGES

_STARTED = "navigation.page"  # the page whose whole run started last in this session


def page_started(name: str) -> None:
    """At the top of every whole-page run (the frame): this is the learner's page now."""
    st.session_state[_STARTED] = name


def follow_navigation(page: str) -> None:
    """In the callback of a widget drawn on `page`: if a run of another page started since,
    the learner has left `page`, so go on to that page (Streamlit runs a callback's
    st.switch_page after the callbacks, in place of the run that brought the late edit)."""
    current = st.session_state.get(_STARTED)
    if current is None or current == page:
        return
    target = next((menu_page for menu_page in PAGES if menu_page.name == current), None)
    if target is not None:
        # The address in hand is the old page's; the new page writes its own after its run.
        st.switch_page(target.path, query_params={"lang": current_language()})
