"""Matrices another page trained, and the sentence that says so where they are shown.

A page that sends trained matrices into another page's grids (the training page into the
transformer page and the Luong explorer) calls `mark_trained` with what they are; the page
that shows them asks `trained_note` for its sentence, which holds while its grids still hold
those very numbers (an edit of any cell makes them the learner's own, and the sentence goes).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import streamlit as st

from attention_ui.kit.grids.matrix_editor import matrix_values
from attention_ui.kit.text.i18n import t


@dataclass(frozen=True)
class Trained:
    grids: Mapping[str, np.ndarray]  # grid state key → the matrix sent
    words: Mapping[str, str]  # placeholder → catalog key of its word (the task, the score)
    numbers: Mapping[str, str]  # placeholder → a number as shown (the step, the head)


def _key(page: str) -> str:
    return f"{page}.trained"


def mark_trained(page: str, trained: Trained) -> None:
    st.session_state[_key(page)] = trained


def trained_note(page: str) -> str | None:
    """The sentence saying `page`'s grids hold trained matrices, while they still do."""
    trained = st.session_state.get(_key(page))
    if trained is None:
        return None
    for key, sent in trained.grids.items():
        now = matrix_values(key)
        if now is None or now.shape != sent.shape or not np.array_equal(now, sent):
            del st.session_state[_key(page)]
            return None
    words = {name: t(key) for name, key in trained.words.items()}
    return t("common.trained", **words, **trained.numbers)


def show_trained_note(page: str) -> None:
    """The sentence as a note at the top of the page, while it holds."""
    note = trained_note(page)
    if note is not None:
        st.info(note, icon=":material/model_training:")
