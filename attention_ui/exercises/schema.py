"""The exercises page's state in the shareable address: the open exercise, each exercise's
settings and grids."""

from __future__ import annotations

from attention_ui.exercises import state as exercises
from attention_ui.kit.share.codec import Matrix
from attention_ui.kit.share.schema import from_settings

SCHEMA = from_settings(
    "exercises",
    (
        *exercises.SETTINGS,
        *(
            Matrix(key.removeprefix("exercises.").replace(".", "_"), key, max_rows=16, max_cols=16)
            for key in exercises.MATRICES
        ),
    ),
    shapes=exercises.shared_shapes,  # a grid of another size is left out, and said
)
