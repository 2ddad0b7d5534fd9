"""Places a whole run draws for a fragment to write into.

A part of the page an edit does not change (a heading, columns, an expander) is drawn by the
whole run; the fragment that an edit reruns writes only what changes into places the run left
for it. Each container a fragment writes into costs a wrapper message on each of its reruns, so
a place is drawn only where something will go.
"""

from __future__ import annotations

import contextlib
from typing import Any

import streamlit as st


def place_if(needed: bool) -> Any:
    """A container to write into later, or a context that writes in place when nothing goes
    there (no wrapper is sent for it)."""
    return st.container() if needed else contextlib.nullcontext()
