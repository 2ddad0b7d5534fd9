"""The Luong page's state in the shareable address: one field per setting and grid."""

from __future__ import annotations

from attention_core.attention import SCORES
from attention_core.scaling import MAX_DEMO_SIZE
from attention_core.steps import STEP_KEYS
from attention_ui.kit.share.codec import Choice, Flag, Integer, Matrix, PageSchema
from attention_ui.luong import state as luong
from attention_ui.luong.model import MASK_KINDS, MAX_SIZE, TEMPERATURES

SCHEMA = PageSchema(
    "luong",
    (
        luong.PRESET_FIELD,
        luong.SEED_FIELD,
        Choice("score", luong.SCORE, options=tuple(SCORES)),
        luong.LAYOUT_FIELD,
        Choice("tau", luong.TEMPERATURE, options=TEMPERATURES),
        Choice("mask", luong.MASK_KIND, options=MASK_KINDS),
        Integer("L", luong.MASK_LENGTH, 1, MAX_SIZE),
        *luong.SIZE_FIELDS.values(),
        Integer("fk", luong.FOLLOW_KEY, 0, MAX_SIZE - 1),
        Integer("fq", luong.FOLLOW_QUERY, 0, MAX_SIZE - 1),
        Integer("tab", luong.TAB_INDEX, 0, 2),
        Choice("step", luong.STEP, options=STEP_KEYS),  # the step the step-by-step tab shows
        Matrix("Q", luong.matrix_key("Q")),
        Matrix("K", luong.matrix_key("K")),
        Matrix("V", luong.matrix_key("V")),
        Matrix("W", luong.matrix_key("W")),
        Matrix("Wac", luong.matrix_key("Wa_concat"), max_cols=2 * MAX_SIZE),
        Matrix("va", luong.matrix_key("va")),
        Matrix("Wal", luong.matrix_key("Wa_location")),
        Matrix("mc", luong.matrix_key("mask.cells"), ticks=True),
        Flag("predict", luong.PREDICT),
        Integer("sdk", luong.SCALING_D_K, 1, MAX_DEMO_SIZE),
        Integer("sseed", luong.SCALING_SEED, 0, 2**32 - 1),  # the scaling demo's own generator
    ),
    prepare=luong.prepare_shared,
    baseline=luong.shared_baseline,
    shapes=luong.shared_shapes,  # a grid of another size is left out, and said
    defaults={**luong.DEFAULTS, luong.PREDICT: False},
)
