"""Which state of each page goes into the shareable address: one schema per page.

Adding a page to the address is one entry in SCHEMAS, keyed by the page's `url_path` in app.py:
- a page whose state module has a DEFAULTS dict of widget keys and defaults:
  `"regression": from_defaults("regression", regression_state.DEFAULTS)` (the field kinds come
  from the defaults' types; pass `fields=` for choices, ranges or matrices to check them
  tighter, which the widgets need: a value they do not offer is left at its default);
- a page with matrices or tables: declare its fields, as the pages below do.
`attention_ui.kit.share.address` does the rest (reading the address once per session,
writing it after every run, the copy-link control and the JSON file).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from attention_core import KERNELS, LAYOUTS, MAX_DEMO_SIZE, SCORES, STEP_KEYS
from attention_ui.database import state as database
from attention_ui.database import teaching as database_teaching
from attention_ui.database import view as database_view
from attention_ui.exercises import state as exercises
from attention_ui.gallery import state as gallery
from attention_ui.gallery import view as gallery_view
from attention_ui.home import state as home
from attention_ui.kit.grids import points_editor as regression_table
from attention_ui.kit.grids.records_editor import NAME_LIMIT, NUMBER_LIMIT, RECORD_LIMIT
from attention_ui.kit.share.codec import (
    Choice,
    Field,
    Flag,
    Integer,
    Matrix,
    Number,
    NumberSet,
    PageSchema,
    Records,
    Text,
    TextList,
)
from attention_ui.luong import state as luong
from attention_ui.luong.model import MASK_KINDS, MAX_SIZE, TEMPERATURES
from attention_ui.luong.presets import PRESET_KEYS
from attention_ui.regression import data as regression_data
from attention_ui.regression import state as regression
from attention_ui.transformer import model as transformer_model
from attention_ui.transformer import state as transformer


def from_defaults(
    page: str,
    defaults: Mapping[str, Any],
    fields: tuple[Field, ...] = (),
    matrices: Mapping[str, Field] | None = None,
    checked_by_page: tuple[str, ...] = (),
    prepare: Callable[[Mapping[str, Any]], None] | None = None,
    baseline: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None,
    shapes: Callable[[Mapping[str, Any]], Mapping[str, tuple[int, ...]]] | None = None,
) -> PageSchema:
    """A schema from a page's DEFAULTS: one field per key, its kind from the default's type
    (bool, int, float, str, a list of numbers, a 2-D array), its parameter name the key without
    the page's prefix. `fields` replace the inferred field of the same key; `prepare` and
    `baseline` are PageSchema's (e.g. grids seeded from the state's seed), and so is `shapes`."""
    given = {f.key: f for f in fields}
    inferred = []
    for key, default in defaults.items():
        if key in given:
            inferred.append(given[key])
            continue
        param = key.removeprefix(f"{page}.").replace(".", "_")
        if isinstance(default, bool):
            inferred.append(Flag(param, key))
        elif isinstance(default, int):
            inferred.append(Integer(param, key, -(2**31), 2**31 - 1))
        elif isinstance(default, float):
            inferred.append(Number(param, key))
        elif isinstance(default, str):
            inferred.append(Text(param, key))
        elif isinstance(default, np.ndarray) and default.ndim == 2:
            inferred.append(Matrix(param, key, max_rows=16, max_cols=16, store="widget"))
        elif isinstance(default, list | tuple) and all(isinstance(v, int | float) for v in default):
            inferred.append(NumberSet(param, key, options=tuple(default)))
    # share.check_widgets resets a crafted value to its default, except where the page checks
    # the value itself and says what is wrong (checked_by_page)
    checked = {key: value for key, value in defaults.items() if key not in checked_by_page}
    return PageSchema(
        page,
        (*inferred, *(matrices or {}).values()),
        prepare=prepare,
        defaults=checked,
        baseline=baseline,
        shapes=shapes,
    )


LUONG = PageSchema(
    "luong",
    (
        Choice("preset", luong.PRESET, options=PRESET_KEYS),
        Integer("seed", luong.SEED, 0, 2**31 - 1),
        Choice("score", luong.SCORE, options=tuple(SCORES)),
        Choice("layout", luong.LAYOUT, options=tuple(LAYOUTS)),
        Choice("tau", luong.TEMPERATURE, options=TEMPERATURES),
        Choice("mask", luong.MASK_KIND, options=MASK_KINDS),
        Integer("L", luong.MASK_LENGTH, 1, MAX_SIZE),
        *(
            Integer(name.replace("_", ""), key, 1, MAX_SIZE)
            for name, key in luong.SIZE_KEYS.items()
        ),
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
        Integer("sseed", luong.SCALING_SEED, 0, 2**32 - 1),
    ),
    prepare=luong.prepare_shared,
    baseline=luong.shared_baseline,
    shapes=luong.shared_shapes,  # a grid of another size is left out, and said
    defaults={**luong.DEFAULTS, luong.PREDICT: False},
)

DATABASE = PageSchema(
    "database",
    (
        Records(
            "db",
            database.RECORDS,
            max_rows=RECORD_LIMIT,
            max_text=NAME_LIMIT,
            number_limit=NUMBER_LIMIT,
        ),
        Text("q", database.QUERY, max_length=400),
        Choice("sim", database.SIMILARITY, options=("exact", "ngram", "edit")),
        Choice("tau", database.TEMPERATURE, options=database_view.TEMPERATURES),
        Choice("norm", database.NORMALIZATION, options=("softmax", "sum")),
        Integer("step", database.STORY_STEP, 1, len(database.STORY)),
        Flag("predict", database.PREDICT),
        Integer("pseed", database_teaching.SEED, 0, 2**31 - 1),
    ),
    baseline=lambda values: {database.RECORDS: database.D2L_RECORDS},
    defaults={**database.KEPT, **database_teaching.DEFAULTS},
)

_LIVE_LUONG = (gallery.GRID_SOURCE, "luong")
_LIVE_DATABASE = (gallery.GRID_SOURCE, "database")
GALLERY = PageSchema(
    "gallery",
    (
        Integer("m", gallery.M, 1, 8),
        Matrix("V", gallery.VALUES, max_rows=8, max_cols=2),
        Number("q1", gallery.Q1, -3.0, 3.0),
        Number("q2", gallery.Q2, -3.0, 3.0),
        Choice("tau", gallery.TEMPERATURE, options=gallery_view.TEMPERATURES),
        Choice("norm", gallery.NORMALIZATION, options=("softmax", "sum")),
        Matrix("w", gallery.CONE_WEIGHTS, max_rows=1, max_cols=8),
        Choice("grid", gallery.GRID_SOURCE, options=("luong", "database")),
        NumberSet("taus", gallery.GRID_TAUS, options=gallery_view.GRID_TEMPERATURES),
        Matrix("lQ", gallery.LIVE_Q, store="kept", only_if=_LIVE_LUONG),
        Matrix("lK", gallery.LIVE_K, store="kept", only_if=_LIVE_LUONG),
        Records(
            "ldb",
            gallery.LIVE_RECORDS,
            max_rows=RECORD_LIMIT,
            max_text=NAME_LIMIT,
            number_limit=NUMBER_LIMIT,
            store="kept",
            only_if=_LIVE_DATABASE,
        ),
        TextList(
            "lq",
            gallery.LIVE_QUERIES,
            max_items=database_view.QUERY_LIMIT,
            max_text=NAME_LIMIT,
            only_if=_LIVE_DATABASE,
        ),
    ),
    baseline=lambda values: {
        gallery.VALUES: np.array(gallery.PRESETS["first_quadrant"]),
        gallery.CONE_WEIGHTS: np.array([gallery.DEFAULT_CONE_WEIGHTS[:3]]),
    },
    defaults=gallery.KEPT,
    # V has m rows: one of another size is left out, and said
    shapes=lambda values: {
        gallery.VALUES: (int(values.get(gallery.M, gallery.KEPT[gallery.M])), 2)
    },
)

HOME = from_defaults(
    "home",
    home.DEFAULTS,
    fields=(Number("q1", home.Q1, -3.0, 3.0), Number("q2", home.Q2, -3.0, 3.0)),
)

EXERCISES = from_defaults(
    "exercises",
    exercises.DEFAULTS,
    fields=(
        Choice("section", exercises.SECTION, options=exercises.SECTIONS),
        *(
            Choice(key.removeprefix("exercises.").replace(".", "_"), key, options=tuple(options))
            for key, options in exercises.OPTIONS.items()
        ),
        *(
            Number(key.removeprefix("exercises.").replace(".", "_"), key, low, high)
            for key, (low, high) in exercises.RANGES.items()
        ),
    ),
    matrices={
        key: Matrix(key.removeprefix("exercises.").replace(".", "_"), key, max_rows=16, max_cols=16)
        for key in exercises.MATRICES
    },
    shapes=exercises.shared_shapes,  # a grid of another size is left out, and said
)


def _regression_points() -> np.ndarray | None:
    rows = regression_table.current_points(regression.POINTS)
    return None if rows is None else np.array(rows, dtype=float).reshape(-1, 2)


def _store_regression_points(values: np.ndarray | None) -> None:
    if values is None:
        regression_table.set_points(regression.POINTS, *regression.default_points())
    else:
        regression_table.set_rows(regression.POINTS, [(float(x), float(y)) for x, y in values])


REGRESSION = from_defaults(
    "regression",
    regression.DEFAULTS,
    fields=(
        Choice("preset", regression.PRESET, options=regression_data.PRESETS),
        Choice("kernel", regression.KERNEL, options=tuple(KERNELS)),
        Integer("seed", regression.SEED, 0, regression.SEED_MAX),
        Integer("count", regression.COUNT, *regression.COUNT_RANGE),
        Integer("queries", regression.QUERIES, *regression.QUERIES_RANGE),
        Integer("chosen", regression.CHOSEN, 1, regression.QUERIES_RANGE[1]),
        Number("sigma", regression.SIGMA, *regression.SIGMA_RANGE),
    ),
    matrices={
        regression.POINTS: Matrix(
            "xy",
            regression.POINTS,
            max_rows=regression_table.MAX_POINTS,
            max_cols=2,
            store="custom",
            read=_regression_points,
            write=_store_regression_points,
        )
    },
    checked_by_page=(regression.SIGMA,),  # the page names a bad σ in a message
)

TRANSFORMER = from_defaults(
    "transformer",
    transformer.DEFAULTS,
    fields=(
        Text("text", transformer.SENTENCE, max_length=transformer_model.MAX_SENTENCE_LENGTH),
        Integer(
            "d", transformer.D_MODEL, transformer_model.MIN_D_MODEL, transformer_model.MAX_D_MODEL
        ),
        Integer("h", transformer.HEADS, 1, transformer_model.MAX_HEADS),
        Integer("seed", transformer.SEED, 0, 2**31 - 1),
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

# the page's name (pages/<name>.py, attention_ui.page_list) → the page's schema
SCHEMAS: dict[str, PageSchema] = {
    "home": HOME,
    "luong": LUONG,
    "database": DATABASE,
    "gallery": GALLERY,
    "exercises": EXERCISES,
    "regression": REGRESSION,
    "transformer": TRANSFORMER,
}
