"""The Luong page's state in the shareable address: its settings, then its grids."""

from __future__ import annotations

from attention_ui.kit.share.codec import Matrix
from attention_ui.kit.share.schema import from_settings
from attention_ui.luong import state as luong
from attention_ui.luong.model import MAX_SIZE

SIDES = {"max_rows": MAX_SIZE, "max_cols": MAX_SIZE}  # every grid's side, at most

SCHEMA = from_settings(
    "luong",
    (
        *luong.SETTINGS_BEFORE_GRIDS,
        Matrix("Q", luong.matrix_key("Q"), **SIDES),
        Matrix("K", luong.matrix_key("K"), **SIDES),
        Matrix("V", luong.matrix_key("V"), **SIDES),
        Matrix("W", luong.matrix_key("W"), **SIDES),
        Matrix("Wac", luong.matrix_key("Wa_concat"), max_rows=MAX_SIZE, max_cols=2 * MAX_SIZE),
        Matrix("va", luong.matrix_key("va"), **SIDES),
        Matrix("Wal", luong.matrix_key("Wa_location"), **SIDES),
        Matrix("mc", luong.matrix_key("mask.cells"), ticks=True, **SIDES),
        *luong.SETTINGS_AFTER_GRIDS,  # the predict switch and the √d_k demo's two
    ),
    prepare=luong.prepare_shared,
    baseline=luong.shared_baseline,
    shapes=luong.shared_shapes,  # a grid of another size is left out, and said
)
