"""The transformer page's state in the shareable address: the sentence, the sizes and the
seeded grids (which travel only once edited)."""

from __future__ import annotations

from attention_ui.kit.share.codec import Matrix
from attention_ui.kit.share.schema import from_settings
from attention_ui.transformer import model as transformer_model
from attention_ui.transformer import state as transformer

SCHEMA = from_settings(
    "transformer",
    (
        *transformer.SETTINGS,
        *(
            Matrix(
                name.replace("_", ""),
                key,
                max_rows=max(transformer_model.MAX_TOKENS, transformer_model.MAX_D_MODEL),
                max_cols=transformer_model.MAX_D_MODEL,
            )
            for name, key in transformer.MATRIX_KEYS.items()
        ),
    ),
    prepare=transformer.prepare_shared,  # the seeded grids, so sync_grids keeps the address's
    baseline=transformer.shared_baseline,
    shapes=transformer.shared_shapes,  # a grid of another size is left out, and said
)
