"""Matrices another page trained, and the sentence that says so where they are shown.

A page that sends trained matrices into another page's grids (the training page into the
transformer page and the Luong explorer) calls `mark_trained` with what they are; the page
that shows them asks `trained_note` for its sentence, which holds while its grids still hold
those very numbers (an edit of any cell makes them the learner's own, and the sentence goes).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import streamlit as st

from attention_ui.kit.grids.matrix_editor import matrix_values
from attention_ui.kit.text.i18n import t


@dataclass(frozen=True)
class Trained:
    grids: Mapping[str, np.ndarray]  # grid state key → the matrix sent
    words: Mapping[str, str]  # placeholder → catalog key of its word (the task, the score)
    numbers: Mapping[str, str]  # placeholder → a number as shown (the step, the head)
    note: str = "common.trained"  # catalog key of the sentence, filled with words and numbers
    # a part of the receiving page → catalog key of what it says there instead of its own
    # caption while the grids hold the trained numbers (`trained_caption`)
    captions: Mapping[str, str] = field(default_factory=dict)


def _key(page: str) -> str:
    return f"{page}.trained"


def mark_trained(page: str, trained: Trained) -> None:
    st.session_state[_key(page)] = trained


def _held(page: str) -> Trained | None:
    """What `page` was sent, while its grids still hold it (forgotten at the first edit)."""
    trained = st.session_state.get(_key(page))
    if trained is None:
        return None
    for key, sent in trained.grids.items():
        now = matrix_values(key)
        if now is None or now.shape != sent.shape or not np.array_equal(now, sent):
            del st.session_state[_key(page)]
            return None
    return trained


def _worded(trained: Trained, key: str) -> str:
    words = {name: t(word) for name, word in trained.words.items()}
    return t(key, **words, **trained.numbers)


def trained_note(page: str) -> str | None:
    """The sentence saying `page`'s grids hold trained matrices, while they still do."""
    trained = _held(page)
    return None if trained is None else _worded(trained, trained.note)


def trained_caption(page: str, part: str) -> str | None:
    """What `part` of `page` says while its grids hold trained matrices, if the sender gave
    it a caption (e.g. the transformer page's X: learned embeddings and positions)."""
    trained = _held(page)
    if trained is None or part not in trained.captions:
        return None
    return _worded(trained, trained.captions[part])


def show_trained_note(page: str) -> None:
    """The sentence as a note at the top of the page, while it holds."""
    note = trained_note(page)
    if note is not None:
        st.info(note, icon=":material/model_training:")
