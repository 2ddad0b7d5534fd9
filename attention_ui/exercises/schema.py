"""The exercises page's state in the shareable address: the open exercise, each exercise's
settings and grids."""

from __future__ import annotations

from attention_ui.exercises import state as exercises
from attention_ui.kit.share.codec import Choice, Matrix, Number
from attention_ui.kit.share.schema import from_defaults


def _param(key: str) -> str:
    return key.removeprefix("exercises.").replace(".", "_")


SCHEMA = from_defaults(
    "exercises",
    exercises.DEFAULTS,
    fields=(
        Choice("section", exercises.SECTION, options=exercises.SECTIONS),
        *(Choice(_param(key), key, options=tuple(opts)) for key, opts in exercises.OPTIONS.items()),
        *(Number(_param(key), key, low, high) for key, (low, high) in exercises.RANGES.items()),
    ),
    matrices={
        key: Matrix(_param(key), key, max_rows=16, max_cols=16) for key in exercises.MATRICES
    },
    shapes=exercises.shared_shapes,  # a grid of another size is left out, and said
)
