"""The gallery's state in the shareable address, with the Luong or database inputs its grid of
heatmaps borrowed (travelling only while the grid shows them)."""

from __future__ import annotations

import numpy as np

from attention_ui.database import state as database
from attention_ui.gallery import state as gallery
from attention_ui.kit.grids.records_editor import NAME_LIMIT, NUMBER_LIMIT, RECORD_LIMIT
from attention_ui.kit.share.codec import Matrix, Records, TextList
from attention_ui.kit.share.schema import from_settings

_LIVE_LUONG = (gallery.GRID_SOURCE.key, "luong")
_LIVE_DATABASE = (gallery.GRID_SOURCE.key, "database")
SCHEMA = from_settings(
    "gallery",
    (
        gallery.M,
        Matrix("V", gallery.VALUES, max_rows=8, max_cols=2),
        gallery.Q1,
        gallery.Q2,
        gallery.TEMPERATURE,
        gallery.NORMALIZATION,
        Matrix("w", gallery.CONE_WEIGHTS, max_rows=1, max_cols=8),
        gallery.GRID_SOURCE,
        gallery.GRID_TAUS,
        Matrix("lQ", gallery.LIVE_Q, store="plain", only_if=_LIVE_LUONG),
        Matrix("lK", gallery.LIVE_K, store="plain", only_if=_LIVE_LUONG),
        Records(
            "ldb",
            gallery.LIVE_RECORDS,
            max_rows=RECORD_LIMIT,
            max_text=NAME_LIMIT,
            number_limit=NUMBER_LIMIT,
            store="plain",
            only_if=_LIVE_DATABASE,
        ),
        TextList(
            "lq",
            gallery.LIVE_QUERIES,
            max_items=database.QUERY_LIMIT,
            max_text=NAME_LIMIT,
            only_if=_LIVE_DATABASE,
        ),
    ),
    baseline=lambda values: {
        gallery.VALUES: np.array(gallery.PRESETS["first_quadrant"]),
        gallery.CONE_WEIGHTS: np.array([gallery.DEFAULT_CONE_WEIGHTS[:3]]),
    },
    # V has m rows: one of another size is left out, and said
    shapes=lambda values: {gallery.VALUES: (int(values.get(gallery.M.key, gallery.M.default)), 2)},
)
