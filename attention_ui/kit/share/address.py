"""Every page's state in its address, and in a JSON file: share a link, reload, open a file.

- `open_address(page)`: on a session's first run (a shared link, a reload), before the page is
  drawn, the page's state is read from the address (attention_ui.kit.share.codec, with the
  page's schema, which attention_ui.page_list registers) and stored as the page keeps it
  (widgets, matrices, tables). What cannot be read stays at its default, and one sentence
  says what was ignored.
- `update_address(page)`: after every run, the address is rewritten with the page's state (no
  save step), so a reload or a copied link shows the same page.
- `share_panel(page)`: the sidebar's "Share" box: the link with Streamlit's copy button
  (`st.code`), "Download state as JSON" and "Open a JSON file" (the same fields and checks as
  the address; files are capped by `.streamlit/config.toml` maxUploadSize and FILE_LIMIT here).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

import streamlit as st

from attention_ui.kit.classroom.follow import ADDRESS_PARAMS, after_run
from attention_ui.kit.export.panel import deferred
from attention_ui.kit.folds import folded
from attention_ui.kit.grids.matrix_editor import forget_matrix, matrix_values, set_matrix
from attention_ui.kit.grids.records_editor import current_records, forget_records, set_records
from attention_ui.kit.lessons import in_class
from attention_ui.kit.lessons import place as lesson_place
from attention_ui.kit.share.codec import (
    LANGUAGE_PARAM,
    NEWER_VERSION,
    TOO_MANY,
    VERSION,
    VERSION_PARAM,
    WRONG_SHAPE,
    Decoded,
    PageSchema,
    decode,
    encode,
    guard,
    not_kept,
)
from attention_ui.kit.state.navigation import CLICKED_PARAM, link_params
from attention_ui.kit.text.i18n import current_language, t
from attention_ui.kit.text.markdown import escape_markdown

APP_NAME = "attention-explorer"
FILE_LIMIT = 200_000  # bytes: a state file is a few kB at most
_OPENED = "share.opened"
_NOTICE = "share.notice"
_UPLOAD = "share.upload"
_FILE_PAGE = "share.file_page"
_BOX = "share.box"  # the Share box's expander (open or not)
_WHOLE_RUN = "share.whole_run"
MAX_NAMES_SHOWN = 6
# Each page's schema by page name, given once by the page list (the kit names no page).
SCHEMAS: dict[str, PageSchema] = {}


def register_schemas(schemas: Mapping[str, PageSchema]) -> None:
    """The pages whose state goes into their address (and whose state files the Share box
    opens): called once by attention_ui.page_list."""
    SCHEMAS.update(schemas)


# ---------------------------------------------------------------------------------------------
# Reading and writing a page's state


def current_state(schema: PageSchema) -> dict[str, Any]:
    """The page's state now, by session key, as its fields keep it."""
    values = {}
    for f in schema.fields:
        if f.store == "custom":
            value = f.read()
        elif f.store == "matrix":
            value = matrix_values(f.key)
        elif f.store == "records":
            value = current_records(f.key)
        else:  # a widget (Streamlit keeps its value while it is not drawn) or a plain key
            value = st.session_state.get(f.key)
        if value is not None:
            values[f.key] = value
    return values


def apply_state(schema: PageSchema, values: Mapping[str, Any]) -> None:
    """Replace the page's state: what `values` lacks goes back to the page's default."""
    for f in schema.fields:
        if f.store == "custom":
            f.write(None)
        elif f.store == "matrix":
            forget_matrix(f.key)
        elif f.store == "records":
            forget_records(f.key)
        else:
            st.session_state.pop(f.key, None)
    if schema.prepare is not None:
        schema.prepare(dict(values))
    for f in schema.fields:
        if f.key not in values:
            continue
        value = values[f.key]
        if f.store == "custom":
            f.write(value)
        elif f.store == "matrix":
            set_matrix(f.key, value)
        elif f.store == "records":
            set_records(f.key, value)
        else:  # a widget's value set before it is drawn is the widget's, or a plain key
            st.session_state[f.key] = value


def address_params(page: str) -> dict[str, str]:
    """The address's query parameters for the page as it is now (the language first)."""
    params = {LANGUAGE_PARAM: current_language()}
    schema = SCHEMAS.get(page)
    if schema is not None:
        params.update(encode(schema, current_state(schema)))
    return params


# ---------------------------------------------------------------------------------------------
# The address


def open_address(page: str) -> None:
    """Once per session, before the page is drawn: the page's state from the address."""
    if _OPENED in st.session_state:
        return
    st.session_state[_OPENED] = True
    schema = SCHEMAS.get(page)
    params = st.query_params.to_dict()
    params.pop(CLICKED_PARAM, None)  # the page a menu link led to: not the page's state
    for name in ADDRESS_PARAMS:  # class, teacher, seat, change count: the classroom's
        params.pop(name, None)
    if lesson_place.LESSON_PARAM in params:  # a lesson's step: the lesson bar sets the state
        return
    if schema is None or not set(params) - {LANGUAGE_PARAM}:
        return
    decoded = decode(schema, params)
    apply_state(schema, decoded.values)
    if decoded.ignored:
        st.session_state[_NOTICE] = ("address", _ignored(decoded), _misfits(decoded))


def _ignored(decoded: Decoded) -> list[str]:
    """The names to list in the notice (a newer version, and grids of the wrong shape, are
    said in sentences of their own)."""
    if any(item.code == NEWER_VERSION for item in decoded.ignored):
        return [NEWER_VERSION]
    return [
        item.param if item.code != TOO_MANY else "…"
        for item in decoded.ignored
        if item.code != WRONG_SHAPE
    ]


def _misfits(decoded: Decoded) -> list[str]:
    """The grids left out because their shape did not fit the state's sizes."""
    return [item.param for item in decoded.ignored if item.code == WRONG_SHAPE]


def restore_params(page: str, params: Mapping[str, str]) -> None:
    """The page's state from address parameters (a followed teacher's), checked as an
    address is."""
    schema = SCHEMAS.get(page)
    if schema is not None:
        apply_state(schema, decode(schema, dict(params)).values)


def check_widgets(page: str) -> None:
    """Before the page is drawn: a widget value the page does not offer (only a crafted client
    can send one: an unknown preset, a radio sent as a number, text for a slider) goes back to
    the page's default."""
    schema = SCHEMAS.get(page)
    if schema is None:
        return
    for f in schema.fields:
        if f.store != "widget" or f.key not in schema.defaults:
            continue
        try:
            if f.key not in st.session_state or f.accepts(st.session_state[f.key]):
                continue
        except Exception:  # a state Streamlit cannot even read is not a value
            pass
        st.session_state[f.key] = schema.defaults[f.key]


def update_address(page: str) -> bool:
    """After the page is drawn: the address holds its state (a reload or a link shows it).
    True when it changed."""
    params = address_params(page)
    # The teacher publishes (with the lesson's place); a follower's edit is seen
    class_params = after_run(page, {**params, **in_class.published()})
    left = lesson_place.left_the_step()
    own = {k: v for k, v in params.items() if k != LANGUAGE_PARAM}
    whole = bool(st.session_state.get(_WHOLE_RUN))
    widgets = (
        {f.param for f in SCHEMAS[page].fields if f.store == "widget"} if page in SCHEMAS else ()
    )
    lesson = lesson_place.lesson_address(page, own, whole, widgets)  # the lesson's place instead
    if lesson is not None:
        params = {LANGUAGE_PARAM: params[LANGUAGE_PARAM], **lesson}
    params.update(class_params)
    if lesson_place.left_the_step() != left:  # the lesson bar says it: drawn by a whole run
        st.rerun(scope="app")
    if st.query_params.to_dict() == params:
        return False
    st.query_params.from_dict(params)
    return True


def start_run() -> None:
    """At the top of a whole-page run (the frame): fragment runs do not pass here."""
    st.session_state[_WHOLE_RUN] = True


def follow_address(page: str) -> None:
    """At the end of a part of a page that reruns alone (an `st.fragment`): the address follows
    its edits too, and an open Share box, which only a whole run redraws, is redrawn."""
    changed = update_address(page)
    if changed and st.session_state.get(_BOX) and not st.session_state.get(_WHOLE_RUN):
        st.rerun(scope="app")


def link(page: str) -> str:
    """The full address of the page as it is now (relative when the browser's is unknown)."""
    base = st.context.url or f"/{page}"
    return f"{base}?{urlencode(address_params(page))}"


# ---------------------------------------------------------------------------------------------
# The JSON file


def state_file(page: str) -> str:
    """The page's state as a JSON document: the address's parameters, with the page's name."""
    params = address_params(page)
    params.pop(LANGUAGE_PARAM, None)
    params.pop(VERSION_PARAM, None)
    return json.dumps(
        {"app": APP_NAME, "v": VERSION, "page": page, "state": params}, ensure_ascii=False, indent=1
    )


def read_state_file(data: bytes) -> tuple[str, dict[str, Any], list[str]] | None:
    """(page, parameters, names of entries that are not text) from a state file, or None if it
    is not one (never an exception)."""
    if len(data) > FILE_LIMIT:
        return None
    try:
        document = json.loads(data.decode("utf-8"), parse_constant=lambda name: None)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(document, dict) or document.get("app") != APP_NAME:
        return None
    page, state = document.get("page"), document.get("state")
    if not isinstance(page, str) or page not in SCHEMAS or not isinstance(state, dict):
        return None
    params, ignored = guard({k: v for k, v in state.items() if k != VERSION_PARAM})
    if VERSION_PARAM in document:  # as in an address, a file without one is version 1
        params[VERSION_PARAM] = document[VERSION_PARAM]
    return page, params, [item.param for item in ignored]


def _uploader() -> str:
    """The uploader's key: a new one after each file, so that it is drawn anew, empty."""
    return f"{_UPLOAD}.{st.session_state.get(f'{_UPLOAD}.version', 0)}"


def _open_file() -> None:
    """Uploader callback: the file's state replaces its page's state."""
    upload = st.session_state.get(_uploader())
    if upload is None:
        return
    st.session_state[f"{_UPLOAD}.version"] = st.session_state.get(f"{_UPLOAD}.version", 0) + 1
    read = read_state_file(upload.getvalue()) if upload.size <= FILE_LIMIT else None
    if read is None:
        st.session_state[_NOTICE] = ("bad_file", [], [])
        return
    page, params, skipped = read
    decoded = decode(SCHEMAS[page], params)
    apply_state(SCHEMAS[page], decoded.values)
    st.session_state[_FILE_PAGE] = page
    st.session_state[_NOTICE] = ("file", [*_ignored(decoded), *skipped], _misfits(decoded))


# ---------------------------------------------------------------------------------------------
# The sidebar


def share_panel(page: str) -> None:
    """The notice about what an address or file could not give, and the Share box."""
    notice = st.session_state.pop(_NOTICE, None)
    if notice is not None:
        _show_notice(*notice)
    opened = st.session_state.pop(_FILE_PAGE, None)
    if opened is not None and opened != page:
        st.sidebar.info(t("share.file_other_page", page=t(f"{opened}.menu")))
        st.sidebar.page_link(
            f"pages/{opened}.py", label=t(f"{opened}.menu"), query_params=link_params(opened)
        )
    st.session_state.pop(_WHOLE_RUN, None)
    if page not in SCHEMAS:
        return
    _say_what_the_address_leaves_out(page)
    # Drawn only while open (opening it reruns the page), so its link is always the address.
    box = folded(t("share.title"), key=_BOX, where=st.sidebar, icon=":material/link:")
    if not box.open:
        return
    with box.box:
        st.caption(t("share.link_help"))
        st.code(link(page), language=None, wrap_lines=True)
        st.download_button(
            t("share.download"),
            data=deferred(state_file(page)),
            file_name=f"attention-explorer-{page}.json",
            mime="application/json",
            key="share.download",
            on_click="ignore",
            icon=":material/download:",
        )
        st.file_uploader(
            t("share.open"),
            type=["json"],
            key=_uploader(),
            on_change=_open_file,
            help=t("share.open_help"),
        )


def _say_what_the_address_leaves_out(page: str) -> None:
    """A sentence for each part of the page's state that its address cannot give back (a
    character the reader drops, a value it would refuse): only when there is one."""
    schema = SCHEMAS[page]
    lost = not_kept(schema, current_state(schema))
    dropped = "".join(item.dropped for item in lost)
    whole = [item.param for item in lost if not item.dropped]
    if dropped:
        st.sidebar.warning(t("share.not_kept_chars", chars=character_names(dropped)))
    if whole:
        st.sidebar.warning(t("share.not_kept_values", names=_listed(whole, more=False)))


def character_names(text: str) -> str:
    """Invisible characters named by their code points: 'U+202E ×2, U+0007'."""
    counts = Counter(text)  # in the order of first appearance
    names = [f"U+{ord(c):04X}" + (f" ×{n}" if n > 1 else "") for c, n in counts.items()]
    return _listed(names, as_text=False)


def _listed(names: list[str], more: bool = True, as_text: bool = True) -> str:
    """The first MAX_NAMES_SHOWN names (`as_text`: shown as text, never run as Markdown), and
    (`more`) how many more there are."""
    shown = ", ".join(escape_markdown(n, 20) if as_text else n for n in names[:MAX_NAMES_SHOWN])
    if more and len(names) > MAX_NAMES_SHOWN:
        shown += " " + t("share.and_more", count=len(names) - MAX_NAMES_SHOWN)
    return shown


def _show_notice(kind: str, names: list[str], misfits: list[str]) -> None:
    """One sentence: what the address or the file could not give (names shown as text), and
    one more for its grids whose shape did not fit its sizes."""
    if kind == "bad_file":
        st.sidebar.warning(t("share.bad_file", limit=FILE_LIMIT // 1000))
        return
    if misfits:
        st.sidebar.warning(t(f"share.wrong_shape_{kind}", names=_listed(misfits, more=False)))
    if not names:
        return
    if names == [NEWER_VERSION]:
        st.sidebar.warning(t(f"share.newer_version_{kind}"))
        return
    st.sidebar.warning(t(f"share.ignored_{kind}", names=_listed(names)))
