"""The training page's state in the shareable address: each setting's field comes from its one
declaration (train/state.py), plus whether the run was trained and the step the slider shows."""

from __future__ import annotations

from typing import Any

import streamlit as st

from attention_ui.kit.share.codec import Flag, Integer
from attention_ui.kit.share.schema import from_settings
from attention_ui.train import state


def _flag(key: str) -> Flag:
    """A plain session flag (not a widget's value) in the address: whether the run was
    trained, whether the score functions were compared."""

    def read() -> bool | None:  # in the address only while on
        return True if st.session_state.get(key) else None

    def write(value: Any) -> None:
        st.session_state[key] = bool(value)

    return Flag(key.removeprefix(state.PREFIX), key, store="custom", read=read, write=write)


SCHEMA = from_settings(
    "train",
    (
        *state.SETTINGS,
        _flag(state.TRAINED),
        _flag(state.COMPARED),
        Integer("step", state.STEP, 0, state.STEPS.field.high),
        # "Predict, then reveal" (kit.teaching.predict_view's switch, a widget it keys
        # "<page>.predict"): in the address, so that students following the teacher predict too
        Flag("predict", f"{state.PREFIX}predict"),
    ),
)
