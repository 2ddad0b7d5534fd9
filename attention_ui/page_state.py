"""Small helpers pages share for their widgets: remembered values and translated options.

Streamlit forgets a widget's value on runs where the widget is not drawn, e.g. while the learner
visits another page. `restore_widgets` / `keep_widgets` keep a plain copy (`<key>.kept`) that
survives, so a page comes back as the learner left it. `kept_matrix_editor` does the same for a
matrix grid's edits (a plain `<state key>.shadow` copy of its values), and `set_kept_matrix`
replaces a grid's content together with that copy (a preset).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import streamlit as st

from .i18n import catalog, current_language
from .matrix_editor import MatrixInput, matrix_editor, set_matrix


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


def kept_matrix_editor(name: str, state_key: str, default: np.ndarray, row_labels: list[str],
                       col_labels: list[str]) -> MatrixInput:
    """A matrix editor whose edits survive a visit to another page (a plain `.shadow` copy)."""
    shadow = st.session_state.get(f"{state_key}.shadow")
    base = st.session_state.get(f"{state_key}.base")
    version = st.session_state.get(f"{state_key}.version", 0)
    if (shadow is not None and base is not None and shadow.shape == base.shape
            and f"{state_key}.editor.{version}" not in st.session_state
            and not np.array_equal(shadow, base, equal_nan=True)):
        set_matrix(state_key, shadow)
    entered = matrix_editor(name, state_key, default, row_labels, col_labels)
    st.session_state[f"{state_key}.shadow"] = entered.values
    return entered


def set_kept_matrix(state_key: str, values: np.ndarray) -> None:
    """Replace a `kept_matrix_editor` grid's content: the new values replace the kept edits."""
    set_matrix(state_key, values)
    st.session_state[f"{state_key}.shadow"] = values
