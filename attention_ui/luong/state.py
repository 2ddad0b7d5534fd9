"""The Luong explorer's session state: each setting declared once (kit/state/settings.py), the
matrices, and the callbacks that change them.

Streamlit keeps the widgets' values across pages and hidden widgets (persist_state="session").
Matrices are kept by `attention_ui.kit.grids.matrix_editor` under `luong.<name>` (name = Q, K, V, W,
Wa_concat, va, Wa_location) and the per-cell mask under `luong.mask.cells`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import streamlit as st

from attention_core.attention import LAYOUTS, SCORES
from attention_core.scaling import MAX_DEMO_SIZE
from attention_core.steps import STEP_KEYS
from attention_ui.kit.grids import store
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
from attention_ui.kit.state import settings
from attention_ui.kit.state.page_state import changed, drawn
from attention_ui.luong.model import (
    ALL_PARAMETERS,
    DISPLAY_NAMES,
    DOT_SCORES,
    INPUTS,
    MASK_KINDS,
    MAX_SIZE,
    TEMPERATURES,
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

_FIRST = PRESETS[DEFAULT_PRESET]  # a first visit opens on the default preset's settings
# Each setting once: key, address parameter, default, values, label and help (no label: the
# key is the label's catalog key). The address writes them in luong/schema.py's order.
PRESET = settings.choice(
    "luong.preset", "preset", DEFAULT_PRESET, PRESET_KEYS, label="luong.preset.label"
)
SEED = settings.integer("luong.seed", "seed", DEFAULT_SEED, help="luong.seed_help")
SCORE = settings.choice(
    "luong.score",
    "score",
    _FIRST.score,
    SCORES,
    label="luong.score.label",
    help="luong.score.help",
    options_label="luong.score_name.",
)
LAYOUT = settings.choice(
    "luong.layout",
    "layout",
    "column",
    LAYOUTS,
    label="luong.layout.label",
    help="luong.layout.help",
    options_label="luong.layout.",
)
TEMPERATURE = settings.choice(
    "luong.tau",
    "tau",
    _FIRST.temperature,
    TEMPERATURES,
    label="luong.tau.label",
    help="luong.tau.help",
)
MASK_KIND = settings.choice(
    "luong.mask.kind",
    "mask",
    _FIRST.mask,
    MASK_KINDS,
    label="luong.mask.label",
    help="luong.mask.help",
    options_label="luong.mask.kind.",
)
MASK_LENGTH = settings.integer(
    "luong.mask.length", "L", _FIRST.mask_length, 1, MAX_SIZE, help="luong.mask.length_help"
)


def _size(name: str) -> settings.Setting:
    """The size box of d_q, d_k, d_v, n, m or h (parameter: its name without "_")."""
    return settings.integer(
        f"luong.size.{name}",
        name.replace("_", ""),
        getattr(_FIRST.sizes, name),
        1,
        MAX_SIZE,
        label=f"luong.sizes.{name}",
        help=f"luong.sizes.{name}_help",
    )


D_Q = _size("d_q")
D_K = _size("d_k")
D_V = _size("d_v")
N = _size("n")
M = _size("m")
H = _size("h")  # the concat score's hidden size
SIZES = {"d_q": D_Q, "d_k": D_K, "d_v": D_V, "n": N, "m": M, "h": H}
FOLLOW_KEY = settings.integer("luong.follow.key", "fk", 0, 0, MAX_SIZE - 1)
FOLLOW_QUERY = settings.integer("luong.follow.query", "fq", 0, 0, MAX_SIZE - 1)
TAB_INDEX = settings.integer("luong.tab.index", "tab", 0, 0, 2)  # the open tab, by position
# The step the step-by-step tab shows: one this run has, else its first (`open_step`).
STEP = settings.choice(
    "luong.steps.open",
    "step",
    STEP_KEYS[0],
    STEP_KEYS,
    label="luong.steps.pick",
    checked_by_page=True,
)
PREDICT = settings.flag("luong.predict", "predict")  # kit.teaching.predict_view's switch
SCALING_D_K = settings.integer("luong.scaling.d_k", "sdk", 64, 1, MAX_DEMO_SIZE)  # √d_k demo
SCALING_SEED = settings.integer("luong.scaling.seed", "sseed", 0, 0, 2**32 - 1)
# The address writes the settings before the grids, the grids, then the settings that follow
# them (luong/schema.py), in these orders.
SETTINGS_BEFORE_GRIDS = (
    PRESET,
    SEED,
    SCORE,
    LAYOUT,
    TEMPERATURE,
    MASK_KIND,
    MASK_LENGTH,
    *SIZES.values(),
    FOLLOW_KEY,
    FOLLOW_QUERY,
    TAB_INDEX,
    STEP,
)
SETTINGS_AFTER_GRIDS = (PREDICT, SCALING_D_K, SCALING_SEED)
SETTINGS = (*SETTINGS_BEFORE_GRIDS, *SETTINGS_AFTER_GRIDS)
# What a preset is drawn from: the settings whose on_change replaces the grids (choose_preset,
# switch_layout: on a real change only, see `page_state.changed`) and the sizes.
GRID_SETTINGS = (PRESET, SEED, LAYOUT)
PRESET_INPUTS = (*GRID_SETTINGS, *SIZES.values())
RESET = "luong.reset"
REDRAW = "luong.redraw"
TAB = "luong.tab"  # st.tabs' key: the open tab's label
TAB_NAMES = ("steps", "follow", "compare")  # the tabs under the results, in their order
FORMULA_BOX = "luong.formula"  # the formula notes' fold (view.formula_panel): open or not
_DRAWN = "luong.fragments.drawn"  # whether an edit may rerun the parts alone (`fragments_drawn`)
_FROM_TRAINING = "luong.from_training"  # what the training page sent, until a preset loads
_PARTS_SHOW = "luong.parts.show"  # what the story and the open step last showed (`part_shows`)


def matrix_key(name: str) -> str:
    return f"luong.{name}"


MATRIX_KEYS = tuple(matrix_key(name) for name in (*INPUTS, *ALL_PARAMETERS, "mask.cells"))


def start() -> None:
    """Before the widgets are drawn: each setting at its default on a first visit, which loads
    the selected preset. The step picker opens on the run's first step (`open_step`); the
    predict switch is the kit's."""
    settings.start(s for s in SETTINGS if s not in (STEP, PREDICT))
    if matrix_values(matrix_key("Q")) is None:
        load_preset()


def settings_drawn() -> None:
    """After the settings are drawn: the values their on_change compares with."""
    drawn(*(s.key for s in GRID_SETTINGS))


def open_step(step_keys: Sequence[str]) -> str:
    """Before the step picker: the step to show, by its key. The learner's last choice while
    this run has that step (it is kept while the tab is closed or the page left), else the
    first step (another score or no mask may drop a step)."""
    chosen = st.session_state.get(STEP.key)
    if chosen not in step_keys:
        chosen = step_keys[0]
    st.session_state[STEP.key] = chosen
    return chosen


def fragments_drawn(drawn_now: bool | None = None) -> bool:
    """Whether the last whole run drew the results' fragments (the results, the tabs, the
    export) with no prediction asked: only then may a grid's edit rerun them alone
    (luong/fragments.after_edit); `drawn_now` records it."""
    if drawn_now is not None:
        st.session_state[_DRAWN] = drawn_now
    return bool(st.session_state.get(_DRAWN, False))


def from_training(sent: dict | None = None) -> dict | None:
    """What the training page sent into the grids (its note's catalog keys, `words`, and its
    `numbers`: step, head, tokens), kept while the grids hold those numbers or the learner's
    edits of them: until an example, a seed or a reset loads other numbers (`load_preset`)."""
    if sent is not None:
        st.session_state[_FROM_TRAINING] = sent
    return st.session_state.get(_FROM_TRAINING)


def part_shows(part: str, shown: Any = None) -> Any:
    """What the part `part` of the page (the story, the open step) showed when last drawn, for
    a grid's edit to rerun it only when that changes (luong/fragments.after_edit); `shown`
    records it."""
    record = st.session_state.setdefault(_PARTS_SHOW, {})
    if shown is not None:
        record[part] = shown
    return record.get(part)


def sizes() -> Sizes:
    return Sizes(**{name: int(s.value()) for name, s in SIZES.items()})


# ---------------------------------------------------------------------------------------------
# Callbacks (they run before the page script, so they may set widget keys)


def preset_state(preset: str, seed: int, layout: str, sizes: Sizes) -> dict[str, Any]:
    """What a preset sets, by session key: settings (widget keys) and matrices (matrix keys).
    The random preset fills the given sizes from `seed`; a named preset brings its own sizes."""
    state: dict[str, Any] = {FOLLOW_KEY.key: 0, FOLLOW_QUERY.key: 0}
    if preset == RANDOM:
        matrices = random_matrices(sizes, seed)
    else:
        chosen = PRESETS[preset]
        sizes = chosen.sizes
        state.update({s.key: getattr(sizes, name) for name, s in SIZES.items()})
        state[SCORE.key], state[TEMPERATURE.key] = chosen.score, chosen.temperature
        state[MASK_KIND.key], state[MASK_LENGTH.key] = chosen.mask, chosen.mask_length
        matrices = chosen.column_matrices()
    for name, values in matrices.items():
        state[matrix_key(name)] = in_layout(values, layout) if name in INPUTS else values
    state[matrix_key("mask.cells")] = np.ones(_mask_shape(sizes, layout))
    return state


def choose_preset() -> None:
    """The example selector's and the seed's `on_change`: load the chosen example, on a real
    change only (see `page_state.changed`)."""
    if changed(PRESET.key, SEED.key):
        load_preset()


def load_preset() -> None:
    """Replace sizes, settings and every grid with the selected preset (or a seeded random
    fill at the current sizes). Also the reset button: it reloads the selected preset."""
    st.session_state.pop(_FROM_TRAINING, None)  # the numbers are the example's now
    # a callback runs before the frame's check_widgets: a crafted client's values are checked here
    for s in PRESET_INPUTS:
        st.session_state[s.key] = s.current()
    chosen = preset_state(PRESET.value(), int(SEED.value()), LAYOUT.value(), sizes())
    for key, value in chosen.items():
        if key in MATRIX_KEYS:
            set_matrix(key, value)
        else:
            st.session_state[key] = value


def redraw() -> None:
    """A new random draw: the next seed (after the default's when there is no next one)."""
    seed = st.session_state.get(SEED.key)
    if not (SEED.accepts(seed) and SEED.accepts(seed + 1)):
        seed = SEED.default
    st.session_state[SEED.key] = int(seed) + 1
    load_preset()


def switch_layout() -> None:
    """Transpose Q, K, V and the per-cell mask so that their numbers follow the learner into
    the other layout (W, W_a, v_a mean the same in both layouts and stay). On a real change
    only (see `page_state.changed`): otherwise the grids are already in it."""
    if not changed(LAYOUT.key):
        return
    for name in (*INPUTS, "mask.cells"):
        transpose_matrix(matrix_key(name))


def keep_dot_sizes() -> None:
    """Dot and scaled dot multiply q and k entry by entry, so d_q must equal d_k."""
    if SCORE.value() in DOT_SCORES:
        st.session_state[D_Q.key] = D_K.value()


# ---------------------------------------------------------------------------------------------
# Matrices


def latest(name: str) -> np.ndarray | None:
    """The matrix as the learner last saw it, edits included, even while its grid is hidden."""
    return matrix_values(matrix_key(name))


def query_and_keys() -> tuple[np.ndarray, np.ndarray] | None:
    """The learner's latest Q and K in column layout, for other pages (the gallery's live
    grid); None before the Luong page has been opened in this session."""
    layout = LAYOUT.value()
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
        labels("mask", sizes, layout),
        help=help,
        after_edit=after_edit,
    )
    return entered.values > 0.5


def mask_cells_now(sizes: Sizes, layout: str) -> np.ndarray:
    """The per-cell mask (True = may be attended) as its grid holds it, fitted to these sizes
    as `mask_cells` fits it when drawing it (new cells ticked), the last ticks sent included:
    the page computes with the mask before it draws the grid, under the results."""
    key, shape = matrix_key("mask.cells"), _mask_shape(sizes, layout)
    store.settle(key)
    store.fit(key, shape, 1.0)
    values = matrix_values(key)
    return np.ones(shape, dtype=bool) if values is None else values > 0.5


# ---------------------------------------------------------------------------------------------
# The page's state in the shareable address (kit.share.address)


def prepare_shared(values: dict[str, Any]) -> None:
    """Before a shared state is stored: load its preset (at its sizes, for the random fill), so
    that the matrices the address leaves out are the preset's."""
    for s in PRESET_INPUTS:
        st.session_state[s.key] = values.get(s.key, s.default)
    load_preset()
    st.session_state.pop(TAB, None)  # the tab is chosen by its position (TAB_INDEX)


def shared_baseline(values: dict[str, Any]) -> dict[str, Any]:
    """The matrices `prepare_shared` gives for these values: the address leaves them out."""
    try:
        current = Sizes(**{name: int(values[s.key]) for name, s in SIZES.items()})
        preset, seed, layout = (values[s.key] for s in GRID_SETTINGS)
        return dict(_baseline(preset=preset, seed=int(seed), layout=layout, sizes=current))
    except (KeyError, TypeError, ValueError):
        return {}


# st.cache_resource: the matrices are read-only and shared by every session, so a hit hands
# them over without st.cache_data's copy (the address is written after every edit).
@st.cache_resource(max_entries=64, show_spinner=False, hash_funcs={Sizes: dataclasses.astuple})
def _baseline(*, preset: str, seed: int, layout: str, sizes: Sizes) -> tuple[tuple[str, Any], ...]:
    """`shared_baseline`'s matrices, made once per example, seed, layout and sizes: the address
    is written after every edit, and making the example's matrices again was a quarter of it
    (bench/load.py's py-spy)."""
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
        current = Sizes(**{name: int(values.get(s.key, s.default)) for name, s in SIZES.items()})
    except (TypeError, ValueError):
        return {}
    transposed = values.get(LAYOUT.key, LAYOUT.default) == "row"
    shapes = {}
    for name in INPUTS:
        rows, cols = column_shape(name, current)
        shapes[matrix_key(name)] = (cols, rows) if transposed else (rows, cols)
    return shapes


def tab_switched() -> None:
    """The tabs' callback: nothing to do (the page reruns whole), see `view.tabs`."""
