"""The one way a page keeps its values across pages, reruns and shared addresses.

Streamlit forgets a widget's value on runs where the widget is not drawn, e.g. while the learner
visits another page or while a parameter grid is hidden. This module keeps a plain copy of each
value under `<key>.kept` (a plain session key, which survives every run):

- widgets: a page lists its widget keys and defaults in ONE dict (its state module's DEFAULTS);
  `restore_widgets(DEFAULTS)` before the widgets are drawn, `keep_widgets(DEFAULTS)` after;
- grids keep their cells in their own one store (attention_ui/kit/grids/store.py), which
  survives runs of other pages the same way;
- the shareable address (`attention_ui.kit.share.address`) reads and writes values through
  these same functions, so a page whose schema lists them is in the address with nothing else to do.

`session` arguments default to `st.session_state`; tests pass AppTest's `at.session_state`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from typing import Any

import streamlit as st

from attention_ui.kit.text.i18n import catalog, current_language

_KEPT = ".kept"


def _state(session: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
    return st.session_state if session is None else session


def keep(key: str, value: Any, session: MutableMapping[str, Any] | None = None) -> None:
    """Remember `value` for `key` (a plain copy that survives runs where its widget is hidden)."""
    _state(session)[key + _KEPT] = value


def kept(key: str, default: Any = None, session: MutableMapping[str, Any] | None = None) -> Any:
    """The value last remembered for `key`, or `default`."""
    state = _state(session)
    return state.get(key + _KEPT, default)


def changed_since_kept(*keys: str) -> bool:
    """Whether any of these widgets now holds another value than the one kept after the last run.

    For an `on_change` that must act only on a real change: Streamlit calls a widget's
    callback again when its state comes back after a run of another page began (a grid's late
    edit after a click on another page: see kit/state/navigation.py), though the learner
    changed nothing; reloading or transposing then would throw away that very edit.
    """
    return any(st.session_state.get(key) != kept(key) for key in keys)


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


def forget(key: str, session: MutableMapping[str, Any] | None = None) -> None:
    state = _state(session)
    if key + _KEPT in state:
        del state[key + _KEPT]


def widget_value(
    key: str, default: Any = None, session: MutableMapping[str, Any] | None = None
) -> Any:
    """A widget's value now: the widget's own state if it was drawn, else the kept copy."""
    state = _state(session)
    try:  # one read of the session, not two (`key in state` reads the value too)
        return state[key]
    except KeyError:
        return kept(key, default, session)


def set_widget(key: str, value: Any, session: MutableMapping[str, Any] | None = None) -> None:
    """Set a widget's value (before it is drawn, or in a callback) and remember it."""
    state = _state(session)
    state[key] = value
    keep(key, value, session)


def restore_widgets(defaults: Mapping[str, Any]) -> None:
    """Before the widgets are drawn: put back each remembered value (or the default)."""
    for key, default in defaults.items():
        if key not in st.session_state:
            st.session_state[key] = kept(key, default)


def keep_widgets(keys: Iterable[str]) -> None:
    """After the widgets are drawn: remember their values."""
    for key in keys:
        if key in st.session_state:
            keep(key, st.session_state[key])


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
