"""The four exercises of d2l's "Queries, Keys, and Values", in the order pages/exercises.py
draws them, one module each: matching (1), gradient (2), search (3), squeeze (4). Every number
comes from attention_core; those modules only lay it out in words.
"""

from __future__ import annotations

from attention_ui.kit.state import settings as draw

from . import state
from .gradient import gradient
from .matching import matching
from .search import search
from .squeeze import squeeze


def chosen_section() -> str:
    """One exercise at a time: each is a page's worth of charts, and drawing all four on every
    rerun would make every slider move slow."""
    return draw.radio(state.SECTION, horizontal=True)


def section(name: str) -> None:
    {"match": matching, "grad": gradient, "search": search, "se": squeeze}[name]()
