"""What a page needs around the values Streamlit keeps for it.

Streamlit keeps every setting's value itself: each keyed widget is drawn with
persist_state="session", so its value survives runs that hide it and visits to other pages, a
value set in `st.session_state[key]` (by a callback, or by the address before the widget is
drawn) is the widget's, and `st.session_state[key]` reads it while the widget is not drawn
(tests/kit/state/test_persist_state.py and tests/browser/test_persist_state.py check this). A
page only gives each setting its first value (`start_values`). Grids keep their cells in their
own store (attention_ui/kit/grids/store.py); the shareable address
(`attention_ui.kit.share.address`) reads and writes `st.session_state` directly.

What Streamlit does not do is here: an `on_change` that must act only on a real change compares
with the value the page last drew (`drawn`, `changed`); options worded from the catalog
(`option_labels`); the open tab of `st.tabs`, which is not a persist_state widget (`open_tab`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import streamlit as st

from attention_ui.kit.text.i18n import catalog, current_language


def start_values(defaults: Mapping[str, Any]) -> None:
    """Before a page's widgets are drawn: each setting the session has never held gets its
    default. A value the address gave, or one Streamlit keeps for the session (every keyed
    widget is drawn with persist_state="session"), stays."""
    for key, default in defaults.items():
        st.session_state.setdefault(key, default)


# {widget key: the value the last run drew it with}, for `changed` (a plain session key)
_DRAWN = "page_state.drawn"


def drawn(*keys: str) -> None:
    """After these widgets are drawn: record the values they were drawn with (see `changed`)."""
    record = st.session_state.setdefault(_DRAWN, {})
    record.update({key: st.session_state.get(key) for key in keys})


def changed(*keys: str) -> bool:
    """Whether any of these widgets now holds another value than the last run drew it with
    (`drawn`).

    Invariant: an `on_change` that replaces the learner's work (reloads a preset, transposes
    the grids, draws new points) acts only on a real change. Streamlit calls a widget's
    callback again when its state comes back after a run of another page began (a grid's late
    edit after a click on another page: see kit/state/navigation.py), with the very value the
    page last drew: reloading or transposing then would throw away that late edit.
    """
    record = st.session_state.get(_DRAWN, {})
    return any(st.session_state.get(key) != record.get(key) for key in keys)


def option_labels(prefix: str) -> Callable[[str], str]:
    """`format_func` for options whose labels are catalog keys `<prefix><option>`.

    The labels are looked up once, in the current language, when the widget is drawn: a plain
    lookup rather than a later call to `t()`, which would need the session (AppTest, for one,
    formats options outside it).
    """
    texts = {
        key[len(prefix) :]: text
        for key, text in catalog(current_language()).items()
        if key.startswith(prefix)
    }
    return lambda option: texts.get(str(option), str(option))


def open_tab(key: str, index_key: str, labels: Sequence[str]) -> int:
    """Before `st.tabs(labels, key=key)`: the open tab's position. While the open tab's label is
    among `labels` it stays open and its position is kept under `index_key` (a plain session
    key); when the labels changed (another language, another query's text) or the tabs were not
    drawn for a while, the tab at the kept position opens again."""
    state = st.session_state
    if state.get(key) in labels:
        state[index_key] = list(labels).index(state[key])
    else:
        state[key] = labels[min(state.get(index_key, 0), len(labels) - 1)]
        state[index_key] = list(labels).index(state[key])
    return state[index_key]
