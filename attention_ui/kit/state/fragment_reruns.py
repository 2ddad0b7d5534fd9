"""Rerunning some of a page's fragments from a widget's callback, not the whole page.

A page draws a part that an edit changes as an `st.fragment` with a key; the edited widget's
callback names the fragments to rerun (Streamlit takes fragment keys in `st.rerun` only from a
callback, and such a rerun replaces the interaction's own). A fragment's key is known to
Streamlit only once a whole run of the page drew that fragment: a fragment the page draws only
sometimes (an open tab, an open panel) may be unknown, and `st.rerun` then refuses every key.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Sequence

import streamlit as st
from streamlit.errors import StreamlitAPIException


def rerun_fragments(required: Sequence[str], optional: Sequence[str] = ()) -> None:
    """In a widget's callback: rerun the fragments `required` and as many of `optional` as
    Streamlit knows, in their order (the first optional ones are kept when some must go).
    Ends the callback, as `st.rerun` does."""
    for count in range(len(optional), -1, -1):
        for extra in itertools.combinations(optional, count):
            with contextlib.suppress(StreamlitAPIException):
                st.rerun([*required, *extra])
