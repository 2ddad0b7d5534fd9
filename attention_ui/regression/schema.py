"""The regression page's state in the shareable address: the data's preset, seed and points,
the kernel, σ and the queries."""

from __future__ import annotations

import numpy as np

from attention_ui.kit.grids import points_editor
from attention_ui.kit.share.codec import Matrix
from attention_ui.kit.share.schema import from_settings
from attention_ui.regression import state as regression


def _regression_points() -> np.ndarray | None:
    rows = points_editor.current_points(regression.POINTS)
    return None if rows is None else np.array(rows, dtype=float).reshape(-1, 2)


def _store_regression_points(values: np.ndarray | None) -> None:
    if values is None:
        points_editor.set_points(regression.POINTS, *regression.default_points())
    else:
        points_editor.set_rows(regression.POINTS, [(float(x), float(y)) for x, y in values])


SCHEMA = from_settings(
    "regression",
    (
        *regression.SETTINGS,
        Matrix(
            "xy",
            regression.POINTS,
            max_rows=points_editor.MAX_POINTS,
            max_cols=2,
            min_cols=2,  # x and y
            store="custom",
            read=_regression_points,
            write=_store_regression_points,
        ),
    ),
)
