"""The four exercises of d2l's "Queries, Keys, and Values", in the order pages/exercises.py
draws them, one module each: matching (1), gradient (2), search (3), squeeze (4). Every number
comes from attention_core; those modules only lay it out in words.
"""

from __future__ import annotations

import streamlit as st

from attention_ui.kit.state.page_state import option_labels
from attention_ui.kit.text.i18n import t

from . import state
from .gradient import gradient
from .matching import matching
from .search import search
from .squeeze import squeeze


def chosen_section() -> str:
    """One exercise at a time: each is a page's worth of charts, and drawing all four on every
    rerun would make every slider move slow."""
    return st.radio(
        t("exercises.section"),
        list(state.SECTIONS),
        key=state.SECTION,
        persist_state="session",
        horizontal=True,
        format_func=option_labels("exercises.section_name."),
    )


def section(name: str) -> None:
    {"match": matching, "grad": gradient, "search": search, "se": squeeze}[name]()
