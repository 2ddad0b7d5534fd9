"""What every page shares around its content: the language switch and the page header."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from attention_ui.kit.classroom import follow as classroom
from attention_ui.kit.classroom import panel as class_panel
from attention_ui.kit.lessons import authoring as lesson_author
from attention_ui.kit.lessons import bar as lesson_bar
from attention_ui.kit.lessons import in_class as lesson_class
from attention_ui.kit.long_lived import freeze_after_first_run
from attention_ui.kit.share.address import (
    address_params,
    check_widgets,
    open_address,
    restore_params,
    share_panel,
    start_run,
    update_address,
)
from attention_ui.kit.state.navigation import follow_clicked_link, link_params, page_started
from attention_ui.kit.text.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGE_STATE_KEY,
    LANGUAGES,
    current_language,
    language_from_tag,
    t,
)
from attention_ui.kit.text.markdown import escape_markdown
from attention_ui.kit.text.page_language import set_document_language
from attention_ui.page_list import NAMES, PAGES, SCHEMAS

# A file of the app's own: an emoji or Material icon as page_icon makes the browser fetch
# the picture from a font CDN (the tab shows a box where that is not reachable).
FAVICON = str(Path(__file__).resolve().parent / "assets" / "favicon.png")
# The sidebar's width in px (st.set_page_config's initial_sidebar_state as a number: "auto"
# behaviour at that width; Streamlit's own is 300). Every menu label is the page's whole title
# on one line: マルチヘッド・セルフアテンション is 224 px and the label's box 200 px at 300
# (tests/browser/test_japanese.py measures every label in both languages).
SIDEBAR_WIDTH = 336
_LANG_PARAM = "lang"
_WIDGET_KEY = "lang.switch"
_REJECTED_KEY = "lang.rejected"


def setup_language(page: str) -> None:
    """Choose the session's language once: from `?lang=` in the URL (so an instructor can share
    a Japanese link), else the browser's preferred language, else English. Called first by
    every page's frame, so the menu and the tab title are translated too."""
    if LANGUAGE_STATE_KEY in st.session_state:
        return
    requested = st.query_params.get(_LANG_PARAM)
    chosen = language_from_tag(requested)
    if chosen is None and requested:  # say why the URL's choice was not used, on this page
        st.session_state[_REJECTED_KEY] = (requested, page)
    st.session_state[LANGUAGE_STATE_KEY] = (
        chosen or language_from_tag(st.context.locale) or DEFAULT_LANGUAGE
    )


def language_switch(page: str) -> None:
    """The sidebar switch, shown on every page; it keeps `?lang=` in the URL in step so that
    the address can be shared. A language the address asked for and the app does not have is
    said beside it on the page that address opened (each of its reruns: the page's first run
    is often followed at once by another), until the learner picks a language or a page."""
    # The widget has its own key: Streamlit forgets a widget's state on pages where it is
    # not drawn, while a plain session key survives every page switch.
    st.session_state[_WIDGET_KEY] = current_language()
    st.sidebar.radio(
        t("common.language"),
        options=list(LANGUAGES),
        format_func=LANGUAGES.get,
        key=_WIDGET_KEY,
        horizontal=True,
        on_change=_choose_language,
    )
    rejected, where = st.session_state.get(_REJECTED_KEY, (None, None))
    if where != page:
        st.session_state.pop(_REJECTED_KEY, None)
    elif rejected is not None:
        st.sidebar.warning(
            t(
                "common.unknown_language",
                value=escape_markdown(rejected, 20),
                language=t(f"common.language_names.{current_language()}"),
            )
        )
    if st.query_params.get(_LANG_PARAM) != current_language():
        _sync_url()


def _choose_language() -> None:
    st.session_state[LANGUAGE_STATE_KEY] = st.session_state[_WIDGET_KEY]
    st.session_state.pop(_REJECTED_KEY, None)
    classroom.language_picked(current_language())  # a student's own: kept, not an own edit
    _sync_url()


def _sync_url() -> None:
    st.query_params[_LANG_PARAM] = current_language()


def page_frame(name: str) -> None:
    """What surrounds every page: the browser tab's title, the session's language, the
    translated menu of attention_ui/page_list.py and the language switch.

    Each page draws it itself, because Streamlit runs a page of pages/ on its own (app.py runs
    only at the bare address): a shared `/luong?lang=ja` link is therefore right on its very
    first visit, with no router to go through."""
    page_started(name)
    setup_language(name)
    classroom.adopt_class_language()  # a student who did not pick one: the class's language
    follow_clicked_link(name, NAMES)
    st.set_page_config(
        page_title=f"{t(f'{name}.menu')} · Attention Explorer",
        page_icon=FAVICON,
        layout="wide",
        initial_sidebar_state=SIDEBAR_WIDTH,
    )
    start_run()
    open_address(name)  # a shared link or a reload: the page's state comes from the address
    lesson_bar.on_page_start(name, restore_params, SCHEMAS)  # a lesson's step: its state, its page
    check_widgets(name)  # a value the page does not offer (a crafted client) is not drawn
    access = _class_access()
    classroom.on_page_start(name, access)  # join from the address; a followed teacher's state
    for page in PAGES:
        st.sidebar.page_link(
            page.path,
            label=t(f"{page.name}.menu"),
            icon=page.icon,
            query_params=link_params(page.name),
        )
    language_switch(name)
    class_panel.sidebar(name, access, lambda: address_params(name))
    lesson_class.chooser(lambda lesson_id: lesson_bar.open_builtin(lesson_id, SCHEMAS), SCHEMAS)


def _class_access() -> classroom.PageAccess:
    """What the classroom may do with pages: restore one's state, go to one."""

    def goto(page: str) -> None:
        st.switch_page(f"pages/{page}.py", query_params={_LANG_PARAM: current_language()})

    restore = lesson_class.restore_with_lesson(restore_params, SCHEMAS)  # the teacher's lesson too
    return classroom.PageAccess(restore, goto, tuple(page.name for page in PAGES))


def page_header(namespace: str) -> None:
    """The shared frame (page title, language, menu, language switch), then the page's title
    and one-paragraph introduction from its catalog namespace. Every page starts with it."""
    page_frame(namespace)
    lesson_bar.bar(namespace)  # while a lesson is open: where the learner is, the prompt, Next
    st.title(t(f"{namespace}.title"))
    st.markdown(t(f"{namespace}.intro"))


def page_footer(name: str) -> None:
    """What every page ends with: the address is rewritten with the page's state (so a reload
    or a copied link shows it; no save step), the sidebar's Share box is drawn and the
    document is marked with the page's language (`<html lang>`). After the page's first run
    in this process, what exists then is set apart from the garbage collector
    (attention_ui/kit/long_lived.py)."""
    update_address(name)
    share_panel(name)
    lesson_author.panel(name, address_params(name), SCHEMAS)  # "Add this view to the lesson"
    set_document_language()
    freeze_after_first_run(name)
