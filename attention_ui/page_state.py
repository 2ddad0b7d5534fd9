"""Small helpers pages share for their widgets: remembered values and translated options.

Streamlit forgets a widget's value on runs where the widget is not drawn, e.g. while the learner
visits another page. `restore_widgets` / `keep_widgets` keep a plain copy (`<key>.kept`) that
survives, so a page comes back as the learner left it. (Matrix grids keep their own edits:
see `matrix_editor.restore_dropped_edits`.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import streamlit as st

from .i18n import catalog, current_language


def restore_widgets(defaults: Mapping[str, Any]) -> None:
    """Before the widgets are drawn: put back each remembered value (or the default)."""
    for key, default in defaults.items():
        if key not in st.session_state:
            st.session_state[key] = st.session_state.get(f"{key}.kept", default)


def keep_widgets(keys: Mapping[str, Any]) -> None:
    """After the widgets are drawn: remember their values."""
    for key in keys:
        if key in st.session_state:
            st.session_state[f"{key}.kept"] = st.session_state[key]


def option_labels(prefix: str) -> Callable[[str], str]:
    """`format_func` for options whose labels are catalog keys `<prefix><option>`.

    The labels are looked up once, in the current language, when the widget is drawn: a plain
    lookup rather than a later call to `t()`, which would need the session (AppTest, for one,
    formats options outside it).
    """
    texts = {key[len(prefix):]: text for key, text in catalog(current_language()).items()
             if key.startswith(prefix)}
    return lambda option: texts.get(str(option), str(option))
