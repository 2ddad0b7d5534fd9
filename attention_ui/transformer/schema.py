"""The transformer page's state in the shareable address: the sentence, the sizes and the
seeded grids (which travel only once edited)."""

from __future__ import annotations

from attention_ui.kit.share.codec import MAX_INT, Flag, Integer, Matrix, Text
from attention_ui.kit.share.schema import from_defaults
from attention_ui.transformer import model as transformer_model
from attention_ui.transformer import state as transformer

SCHEMA = from_defaults(
    "transformer",
    transformer.DEFAULTS,
    fields=(
        Text("text", transformer.SENTENCE, max_length=transformer_model.MAX_SENTENCE_LENGTH),
        Integer(
            "d", transformer.D_MODEL, transformer_model.MIN_D_MODEL, transformer_model.MAX_D_MODEL
        ),
        Integer("h", transformer.HEADS, 1, transformer_model.MAX_HEADS),
        Integer("seed", transformer.SEED, 0, MAX_INT),
        Flag("pos", transformer.POSITIONS),
        Flag("causal", transformer.CAUSAL),
        Flag("detail", transformer.DETAIL),
        Integer("head", transformer.DETAIL_HEAD, 0, transformer_model.MAX_HEADS - 1),
    ),
    matrices={
        key: Matrix(
            name.replace("_", ""),
            key,
            max_rows=max(transformer_model.MAX_TOKENS, transformer_model.MAX_D_MODEL),
            max_cols=transformer_model.MAX_D_MODEL,
        )
        for name, key in transformer.MATRIX_KEYS.items()
    },
    prepare=transformer.prepare_shared,  # the seeded grids, so sync_grids keeps the address's
    baseline=transformer.shared_baseline,
    shapes=transformer.shared_shapes,  # a grid of another size is left out, and said
)
