"""Which page the learner is on, as far as the server knows, for edits that arrive late.

A grid sends its edit a moment after the learner leaves the cell (static/cell_grid.js), so
"type a number, click another page" can send the edit after the other page's run has begun,
carrying the old page's address (the browser has not switched yet). Streamlit then stops the
new page's run and runs the old page (or, for an `st.fragment`, a part of it) instead: the
learner would be sent back, or shown a blank page. The grid's callback keeps the edit and then
sends the learner on to the page they asked for (`follow_navigation`).

That needs the other page's run to have begun. When the late edit reaches the server first
(Streamlit merges the two requests, keeping the newer page), or stops that run before its first
line, no run of the other page began. The browser sends the late edit with the clicked link's
query string, though, and the app's links name their page (`link_params`): the old page's run
then goes on to it (`follow_clicked_link`, at the top of every page).
"""

from __future__ import annotations

from collections.abc import Collection

import streamlit as st

from attention_ui.kit.text.i18n import current_language

CLICKED_PARAM = "to"  # in an in-app link's query string: the page it leads to
_STARTED = "navigation.page"  # the page whose whole run started last in this session


def page_started(name: str) -> None:
    """At the top of every whole-page run (the frame): this is the learner's page now."""
    st.session_state[_STARTED] = name


def follow_navigation(page: str) -> None:
    """In the callback of a widget drawn on `page`: if a run of another page started since,
    the learner has left `page`, so go on to that page (Streamlit runs a callback's
    st.switch_page after the callbacks, in place of the run that brought the late edit)."""
    current = st.session_state.get(_STARTED)
    if not isinstance(current, str) or current == page:
        return
    # The address in hand is the old page's; the new page writes its own after its run.
    st.switch_page(page_path(current), query_params=link_params(current))


def link_params(page: str) -> dict[str, str]:
    """The query parameters of an in-app link to `page`: the language, and the page itself."""
    return {"lang": current_language(), CLICKED_PARAM: page}


def page_path(name: str) -> str:
    """The script Streamlit serves page `name` from."""
    return f"pages/{name}.py"


def follow_clicked_link(name: str, menu: Collection[str]) -> None:
    """At the top of page `name`'s run: if the query string names another page of the menu,
    the learner clicked its link and this run overtook it (a grid's late edit): go there.

    The parameter stays in the address until the page writes its own (page_footer); removing
    it earlier would add an entry to the browser's history."""
    clicked = st.query_params.get(CLICKED_PARAM)
    if clicked in menu and clicked != name:
        st.switch_page(page_path(clicked), query_params=link_params(clicked))
