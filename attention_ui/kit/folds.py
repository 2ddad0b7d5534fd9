"""Folds: the parts of a page a learner unfolds (an expander: a chart's numbers as a table, the
formula notes, the export, the share link, the lessons…), built only while they are open.

    with fold(t("home.why.title"), key="home.why") as open_:
        if open_:
            st.markdown(...)            # runs, and is sent, only while the fold is open

    numbers = folded(t("figures.table.label"), key=..., where=column, compact=True)
    if numbers.open:                    # the container, to fill now or later in the run
        numbers.box.dataframe(...)

Streamlit runs a closed expander's content and sends all of it unless the expander tracks its
state (`on_change="rerun"` with a key): then the script knows whether it is open, and a click
on it reruns the page, which builds what it holds. So a closed fold costs the first screen one
element, its label, instead of everything under it.

Whether a fold is open is kept under its key in the session (st.session_state[key]) and
survives every rerun, a change of its label too (another score named in it, another language):
Streamlit tells an expander by its label as well as its key, and would otherwise fold it again.
Tests open a fold as a click does: `at.session_state[key] = True; at.run()`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import streamlit as st

_LABELS = "kit.folds.labels"  # each fold's label as last drawn, by key


@dataclass(frozen=True)
class Fold:
    """A fold as drawn: whether it is open, and its container (to write into while it is)."""

    open: bool
    box: Any


def folded(
    label: str,
    *,
    key: str,
    where: Any = None,
    expanded: bool = False,
    icon: str | None = None,
    compact: bool = False,
) -> Fold:
    """Draw a fold (in `where`, else the current container): open as the learner last left it,
    else as `expanded` says. Build its content only when `.open`."""
    state = st.session_state
    labels = state.setdefault(_LABELS, {})
    if labels.get(key, label) != label and key in state:
        # Streamlit tells an expander by its label too: under a new label it would start
        # folded again. Said again before it is drawn, its state carries over.
        state[key] = bool(state[key])
    labels[key] = label
    box = (where or st).expander(
        label,
        expanded=expanded,
        key=key,
        on_change="rerun",
        icon=icon,
        type="compact" if compact else "default",
    )
    return Fold(bool(box.open), box)


@contextmanager
def fold(
    label: str,
    *,
    key: str,
    where: Any = None,
    expanded: bool = False,
    icon: str | None = None,
    compact: bool = False,
) -> Iterator[bool]:
    """`with fold(label, key=...) as open_:` the body writes into the fold; it builds the
    content only `if open_` (a closed fold's body must write nothing)."""
    drawn = folded(label, key=key, where=where, expanded=expanded, icon=icon, compact=compact)
    if not drawn.open:
        yield False
        return
    with drawn.box:
        yield True
