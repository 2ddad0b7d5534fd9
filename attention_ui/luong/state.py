"""The Luong explorer's session state: settings, matrices, and the callbacks that change them.

Widget keys (all prefixed "luong."; see pages/luong.py for the full list) and their defaults
are in DEFAULTS; Streamlit keeps their values across pages and hidden widgets (each is drawn
with persist_state="session").
Matrices are kept by `attention_ui.kit.grids.matrix_editor` under `luong.<name>` (name = Q, K, V, W,
Wa_concat, va, Wa_location) and the per-cell mask under `luong.mask.cells`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np
import streamlit as st

from attention_core.attention import LAYOUTS
from attention_ui.kit.grids.matrix_editor import (
    MatrixInput,
    check_matrix,
    mask_editor,
    matrix_editor,
    matrix_values,
    resized,
    set_matrix,
    transpose_matrix,
)
from attention_ui.kit.share.codec import MAX_INT, Choice, Integer
from attention_ui.kit.state import page_state
from attention_ui.kit.state.page_state import changed, drawn, start_values
from attention_ui.luong.model import (
    ALL_PARAMETERS,
    DISPLAY_NAMES,
    DOT_SCORES,
    INPUTS,
    MAX_SIZE,
    Sizes,
    column_shape,
    in_layout,
    labels,
)
from attention_ui.luong.presets import (
    DEFAULT_PRESET,
    DEFAULT_SEED,
    PRESET_KEYS,
    PRESETS,
    RANDOM,
    random_matrices,
)

PRESET = "luong.preset"
RESET = "luong.reset"
SEED = "luong.seed"
REDRAW = "luong.redraw"
SCORE = "luong.score"
LAYOUT = "luong.layout"
TEMPERATURE = "luong.tau"
MASK_KIND = "luong.mask.kind"
MASK_LENGTH = "luong.mask.length"
MASK_CELLS = "luong.mask.cells"
FOLLOW_KEY = "luong.follow.key"
FOLLOW_QUERY = "luong.follow.query"
TAB = "luong.tab"
TAB_NAMES = ("steps", "follow", "compare")  # the tabs under the results, in their order
STEP = "luong.steps.open"  # the step shown in the step-by-step tab (a step key)
FORMULA_BOX = "luong.formula"  # the formula notes' fold (view.formula_panel): open or not
SCALING_D_K = "luong.scaling.d_k"  # the √d_k demonstration (scaled dot only)
SCALING_SEED = "luong.scaling.seed"
PREDICT = "luong.predict"  # attention_ui.kit.teaching.predict_view's switch
_TAB_INDEX = "luong.tab.index"  # which tab is open, whatever the language of its label
_CACHE = "luong.cache"
_SHOWN = "luong.results.shown"  # whether the last run showed the results (and the tabs)
_SUMS = "luong.results.sums"  # the weight sums the last run printed (view.results_frame)
_STEP_FIGURE = "luong.steps.figure"  # (what the open step's figure shows, the figure)
T = TypeVar("T")
SIZE_KEYS = {name: f"luong.size.{name}" for name in ("d_q", "d_k", "d_v", "n", "m", "h")}
_FIRST = PRESETS[DEFAULT_PRESET]
# Every setting and its value on a first visit (the default preset's).
DEFAULTS = {
    PRESET: DEFAULT_PRESET,
    SEED: DEFAULT_SEED,
    SCORE: _FIRST.score,
    LAYOUT: "column",
    TEMPERATURE: _FIRST.temperature,
    MASK_KIND: _FIRST.mask,
    MASK_LENGTH: _FIRST.mask_length,
    FOLLOW_KEY: 0,
    FOLLOW_QUERY: 0,
    _TAB_INDEX: 0,
    SCALING_D_K: 64,
    SCALING_SEED: 0,
    **{key: getattr(_FIRST.sizes, name) for name, key in SIZE_KEYS.items()},
}


# The checks of the settings a preset is drawn from: fields of the address (luong/schema.py
# lists these very ones), so a callback accepts exactly what an address or check_widgets does.
PRESET_FIELD = Choice("preset", PRESET, options=PRESET_KEYS)
SEED_FIELD = Integer("seed", SEED, 0, MAX_INT)
LAYOUT_FIELD = Choice("layout", LAYOUT, options=tuple(LAYOUTS))
SIZE_FIELDS = {
    key: Integer(name.replace("_", ""), key, 1, MAX_SIZE) for name, key in SIZE_KEYS.items()
}
_PRESET_FIELDS = {f.key: f for f in (PRESET_FIELD, SEED_FIELD, LAYOUT_FIELD, *SIZE_FIELDS.values())}


def matrix_key(name: str) -> str:
    return f"luong.{name}"


MATRIX_KEYS = tuple(matrix_key(name) for name in (*INPUTS, *ALL_PARAMETERS, "mask.cells"))


def start() -> None:
    """Before the widgets are drawn: each setting at its default on a first visit, which loads
    the selected preset."""
    start_values(DEFAULTS)
    if matrix_values(matrix_key("Q")) is None:
        load_preset()


# The settings whose on_change replaces the grids (choose_preset, switch_layout): they act
# only on a real change (see `page_state.changed`).
GRID_SETTINGS = (PRESET, SEED, LAYOUT)


def settings_drawn() -> None:
    """After the settings are drawn: the values their on_change compares with."""
    drawn(*GRID_SETTINGS)


def open_tab(labels: list[str]) -> None:
    """Before st.tabs: remember which tab is open by position, and put it back by position
    when the labels are in another language than the one it was chosen in."""
    page_state.open_tab(TAB, _TAB_INDEX, labels)


def open_step(step_keys: Sequence[str]) -> str:
    """Before the step picker: the step to show, by its key. The learner's last choice while
    this run has that step (it is kept while the tab is closed or the page left), else the
    first step (another score or no mask may drop a step)."""
    chosen = st.session_state.get(STEP)
    if chosen not in step_keys:
        chosen = step_keys[0]
    st.session_state[STEP] = chosen
    return chosen


def step_drawn() -> None:
    """After the step picker is drawn: the step it shows, for `step_picked`."""
    drawn(STEP)


def step_picked() -> bool:
    """Before the step picker: whether the learner picked another step since it was last
    drawn (the address, which holds the open step, then follows)."""
    return changed(STEP)


def results_shown(shown: bool | None = None) -> bool:
    """Whether the results (and the tabs under them) were shown by the last run: the whole run
    draws the tabs before the grids' fragment knows (see pages/luong.py); `shown` records it."""
    if shown is not None:
        st.session_state[_SHOWN] = shown
    return bool(st.session_state.get(_SHOWN, True))


def sums_measured(measured: tuple[str, ...] | None = None) -> tuple[str, ...] | None:
    """The queries' weight sums, printed, as the results' fragment last measured them (None
    before it has): the whole run draws them before the fragment computes (see
    view.results_frame); `measured` records them."""
    if measured is not None:
        st.session_state[_SUMS] = measured
    return st.session_state.get(_SUMS)


def run_cache(fingerprint: tuple) -> dict:
    """A dict that lives as long as the inputs stay the same: the result and the figures made
    from them are built once and reused by later reruns (a tab switch, another followed
    entry) until anything that shapes them changes."""
    cache = st.session_state.get(_CACHE)
    if cache is None or cache.get("fingerprint") != fingerprint:
        cache = {"fingerprint": fingerprint}
        st.session_state[_CACHE] = cache
    return cache


def last_cache() -> dict:
    """The run cache the grids' fragment filled last: the step tab's fragment, which may run
    without it, draws the result and the figures it holds."""
    return st.session_state.get(_CACHE) or {}


def kept_figure(content: tuple, build: Callable[[], T]) -> T:
    """`build()` again only when `content` (everything the figure shows) differs from the last
    call's: the open step's chart outlives the run cache, since most edits leave it as it was
    (an edit of Q does not change Kᵀ, the first step)."""
    kept = st.session_state.get(_STEP_FIGURE)
    if kept is None or kept[0] != content:
        kept = (content, build())
        st.session_state[_STEP_FIGURE] = kept
    return kept[1]


def sizes() -> Sizes:
    return Sizes(**{name: int(st.session_state[key]) for name, key in SIZE_KEYS.items()})


# ---------------------------------------------------------------------------------------------
# Callbacks (they run before the page script, so they may set widget keys)


def preset_state(preset: str, seed: int, layout: str, sizes: Sizes) -> dict[str, Any]:
    """What a preset sets, by session key: settings (widget keys) and matrices (matrix keys).
    The random preset fills the given sizes from `seed`; a named preset brings its own sizes."""
    state: dict[str, Any] = {FOLLOW_KEY: 0, FOLLOW_QUERY: 0}
    if preset == RANDOM:
        matrices = random_matrices(sizes, seed)
    else:
        chosen = PRESETS[preset]
        sizes = chosen.sizes
        state.update({key: getattr(sizes, name) for name, key in SIZE_KEYS.items()})
        state.update(
            {
                SCORE: chosen.score,
                TEMPERATURE: chosen.temperature,
                MASK_KIND: chosen.mask,
                MASK_LENGTH: chosen.mask_length,
            }
        )
        matrices = chosen.column_matrices()
    for name, values in matrices.items():
        state[matrix_key(name)] = in_layout(values, layout) if name in INPUTS else values
    state[matrix_key("mask.cells")] = np.ones(_mask_shape(sizes, layout))
    return state


def choose_preset() -> None:
    """The example selector's and the seed's `on_change`: load the chosen example, on a real
    change only (see `page_state.changed`)."""
    if changed(PRESET, SEED):
        load_preset()


def load_preset() -> None:
    """Replace sizes, settings and every grid with the selected preset (or a seeded random
    fill at the current sizes). Also the reset button: it reloads the selected preset."""
    # a callback runs before the frame's check_widgets: a crafted client's values are checked here
    for key, f in _PRESET_FIELDS.items():
        if not f.accepts(st.session_state.get(key)):
            st.session_state[key] = DEFAULTS[key]
    chosen = preset_state(
        st.session_state[PRESET], int(st.session_state[SEED]), st.session_state[LAYOUT], sizes()
    )
    for key, value in chosen.items():
        if key in MATRIX_KEYS:
            set_matrix(key, value)
        else:
            st.session_state[key] = value


def redraw() -> None:
    """A new random draw: the next seed (after the default's when there is no next one)."""
    seed = st.session_state.get(SEED)
    if not (SEED_FIELD.accepts(seed) and SEED_FIELD.accepts(seed + 1)):
        seed = DEFAULT_SEED
    st.session_state[SEED] = int(seed) + 1
    load_preset()


def switch_layout() -> None:
    """Transpose Q, K, V and the per-cell mask so that their numbers follow the learner into
    the other layout (W, W_a, v_a mean the same in both layouts and stay). On a real change
    only (see `page_state.changed`): otherwise the grids are already in it."""
    if not changed(LAYOUT):
        return
    for name in (*INPUTS, "mask.cells"):
        transpose_matrix(matrix_key(name))


def keep_dot_sizes() -> None:
    """Dot and scaled dot multiply q and k entry by entry, so d_q must equal d_k."""
    if st.session_state[SCORE] in DOT_SCORES:
        st.session_state[SIZE_KEYS["d_q"]] = st.session_state[SIZE_KEYS["d_k"]]


# ---------------------------------------------------------------------------------------------
# Matrices


def latest(name: str) -> np.ndarray | None:
    """The matrix as the learner last saw it, edits included, even while its grid is hidden."""
    return matrix_values(matrix_key(name))


def query_and_keys() -> tuple[np.ndarray, np.ndarray] | None:
    """The learner's latest Q and K in column layout, for other pages (the gallery's live
    grid); None before the Luong page has been opened in this session."""
    layout = st.session_state.get(LAYOUT, "column")
    q, k = latest("Q"), latest("K")
    if q is None or k is None:
        return None
    q, k = np.asarray(q, dtype=float), np.asarray(k, dtype=float)
    return (q.T, k.T) if layout == "row" else (q, k)


def matrix(
    name: str,
    sizes: Sizes,
    layout: str,
    *,
    help: str | None = None,
    after_edit: Callable[[str], None] | None = None,
) -> MatrixInput:
    """The grid of one matrix (its edits survive hiding it or visiting another page);
    `after_edit`: see kit.grids.cell_grid.GridSpec."""
    rows, cols = labels(name, sizes, layout)
    return matrix_editor(
        DISPLAY_NAMES[name],
        matrix_key(name),
        np.zeros((len(rows), len(cols))),
        (rows, cols),
        help=help,
        after_edit=after_edit,
    )


def entered(name: str, sizes: Sizes, layout: str) -> MatrixInput:
    """The matrix as its grid holds it (`matrix` drew it, in this run or an earlier one, at
    these sizes), checked cell by cell as the grid checks it."""
    rows, cols = labels(name, sizes, layout)
    values = latest(name)
    return MatrixInput(
        DISPLAY_NAMES[name], values, check_matrix(DISPLAY_NAMES[name], values, rows, cols)
    )


def learner_parameter(name: str, sizes: Sizes) -> np.ndarray | None:
    """The learner's W / W_a / v_a at the current sizes (entries that fit, new ones 0), or
    None when they never had one or it has an empty or out-of-range cell."""
    values = latest(name)
    if values is None:
        return None
    values = resized(values, column_shape(name, sizes))
    rows, cols = labels(name, sizes, "column")
    return None if check_matrix(DISPLAY_NAMES[name], values, rows, cols) else values


def _mask_shape(sizes: Sizes, layout: str) -> tuple[int, int]:
    m, n = column_shape("mask", sizes)
    return (m, n) if layout == "column" else (n, m)


def mask_cells(
    sizes: Sizes,
    layout: str,
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    *,
    help: str | None = None,
    after_edit: Callable[[str], None] | None = None,
) -> np.ndarray:
    """A grid of checkboxes shaped like the scores: ticked = this key may be attended.

    The matrix editor keeps it like any matrix (1.0 / 0.0), so resizing and transposing work
    the same way; new cells are ticked, so growing the grid hides nothing.
    """
    entered = mask_editor(
        DISPLAY_NAMES["mask"],
        matrix_key("mask.cells"),
        np.ones(_mask_shape(sizes, layout)),
        (row_labels, col_labels),
        help=help,
        after_edit=after_edit,
    )
    return entered.values > 0.5


# ---------------------------------------------------------------------------------------------
# The page's state in the shareable address (kit.share.address)


def prepare_shared(values: dict[str, Any]) -> None:
    """Before a shared state is stored: load its preset (at its sizes, for the random fill), so
    that the matrices the address leaves out are the preset's."""
    for key in (PRESET, SEED, LAYOUT, *SIZE_KEYS.values()):
        st.session_state[key] = values.get(key, DEFAULTS[key])
    load_preset()
    st.session_state.pop(TAB, None)  # the tab is chosen by its position (TAB_INDEX)


def shared_baseline(values: dict[str, Any]) -> dict[str, Any]:
    """The matrices `prepare_shared` gives for these values: the address leaves them out."""
    try:
        current = Sizes(**{name: int(values[key]) for name, key in SIZE_KEYS.items()})
        return dict(_baseline(values[PRESET], int(values[SEED]), values[LAYOUT], current))
    except (KeyError, TypeError, ValueError):
        return {}


@functools.lru_cache(maxsize=64)
def _baseline(preset: str, seed: int, layout: str, sizes: Sizes) -> tuple[tuple[str, Any], ...]:
    """`shared_baseline`'s matrices, made once per example, seed, layout and sizes: the address
    is written after every edit, and making the example's matrices again was a quarter of it
    (bench/load.py's py-spy). Read-only, since every session shares them."""
    chosen = preset_state(preset, seed, layout, sizes)
    matrices = []
    for key, value in chosen.items():
        if key in MATRIX_KEYS:
            value = np.array(value, dtype=float)
            value.flags.writeable = False
            matrices.append((key, value))
    return tuple(matrices)


def shared_shapes(values: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """The shape Q, K and V must have for the sizes and layout of these values: one of another
    shape in an address is left out and said (kit.share.address), not cropped. (W, W_a, v_a
    and the mask keep the shape they had when last drawn, which may be an older size's: they
    are fitted when drawn.)"""
    try:
        current = Sizes(
            **{name: int(values.get(key, DEFAULTS[key])) for name, key in SIZE_KEYS.items()}
        )
    except (TypeError, ValueError):
        return {}
    transposed = values.get(LAYOUT, DEFAULTS[LAYOUT]) == "row"
    shapes = {}
    for name in INPUTS:
        rows, cols = column_shape(name, current)
        shapes[matrix_key(name)] = (cols, rows) if transposed else (rows, cols)
    return shapes


TAB_INDEX = _TAB_INDEX


def tab_switched() -> None:
    """The tabs' callback: nothing to do (the page reruns whole), see `view.tabs`."""
