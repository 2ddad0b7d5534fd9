"""The transformer page's session state: each setting declared once (kit/state/settings.py),
the matrix grids, and the callbacks that reseed or reset them.

Streamlit keeps the widgets' values across page visits itself (persist_state="session"); the
grids (X and the four W's) keep their edits through `matrix_editor`. The grids are seeded from
the seed shown on the page: all of them when the seed or d_model changes, X alone when the
sentence's tokens change (each token's row is drawn from the seed and the token).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import streamlit as st

from attention_ui.kit.grids.matrix_editor import matrix_values, set_matrix
from attention_ui.kit.state import settings
from attention_ui.kit.text.i18n import current_language
from attention_ui.transformer.model import (
    EXAMPLES,
    MAX_D_MODEL,
    MAX_HEADS,
    MAX_SENTENCE_LENGTH,
    MIN_D_MODEL,
    PROJECTIONS,
    embeddings,
    projections,
    split_sentence,
)

# Each setting once: key, address parameter, default, values, label and help.
SENTENCE = settings.text(
    "transformer.sentence",
    "text",
    EXAMPLES["en"],  # on a first visit, the example of the page's language (`start`)
    MAX_SENTENCE_LENGTH,
    label="transformer.sentence.label",
    help="transformer.sentence.help",
)
D_MODEL = settings.integer(
    "transformer.d_model", "d", 4, MIN_D_MODEL, MAX_D_MODEL, help="transformer.d_model_help"
)
HEADS = settings.integer("transformer.heads", "h", 2, 1, MAX_HEADS, help="transformer.heads_help")
SEED = settings.integer("transformer.seed", "seed", 0, help="transformer.seed_help")
POSITIONS = settings.flag("transformer.positions", "pos", help="transformer.positions_help")
CAUSAL = settings.flag("transformer.causal", "causal", help="transformer.causal_help")
DETAIL = settings.flag(
    "transformer.detail",
    "detail",
    label="transformer.detail.toggle",
    help="transformer.detail.help",
)
DETAIL_HEAD = settings.integer("transformer.detail.head", "head", 0, 0, MAX_HEADS - 1)
SETTINGS = (SENTENCE, D_MODEL, HEADS, SEED, POSITIONS, CAUSAL, DETAIL, DETAIL_HEAD)
# Buttons (no value to keep): an example sentence per language, and W = I with one head.
EXAMPLE_BUTTONS = {lang: f"transformer.example.{lang}" for lang in EXAMPLES}
IDENTITY = "transformer.identity"
# Grids: matrix_editor state keys; widget key "<state key>.editor.<version>".
MATRIX_KEYS = {name: f"transformer.{name}" for name in ("X", *PROJECTIONS)}
_SEEDED = "transformer.seeded"  # (seed, d_model, tokens) the grids were last drawn from


def start() -> None:
    """Before the widgets are drawn: each setting at its default on a first visit, which opens
    on the example sentence of the page's language."""
    settings.start(SETTINGS, {SENTENCE.key: EXAMPLES.get(current_language(), EXAMPLES["en"])})


def sync_grids(tokens: list[str], d_model: int, seed: int) -> None:
    """Seed the grids for these tokens, size and seed, keeping the learner's edits otherwise:
    a new seed or d_model redraws every matrix, new tokens redraw X only."""
    seeded = st.session_state.get(_SEEDED)
    for name, values in projections(d_model, seed).items():
        if seeded is None or seeded[:2] != (seed, d_model) or not _fits(name, values.shape):
            set_matrix(MATRIX_KEYS[name], values)
    if seeded != (seed, d_model, tuple(tokens)) or not _fits("X", (len(tokens), d_model)):
        set_matrix(MATRIX_KEYS["X"], embeddings(tokens, d_model, seed))
    st.session_state[_SEEDED] = (seed, d_model, tuple(tokens))


def _fits(name: str, shape: tuple[int, ...]) -> bool:
    """Whether a grid holds a matrix of the shape its sizes ask for (an address may give
    another: the grid is then seeded afresh rather than padded with zeros)."""
    stored = matrix_values(MATRIX_KEYS[name])
    return stored is not None and stored.shape == shape


# ---------------------------------------------------------------------------------------------
# The shared address (transformer/schema.py)


def _seeding(values: Mapping[str, Any]) -> tuple[int, int, tuple[str, ...]] | None:
    """(seed, d_model, tokens) the grids of a shared state are seeded from (None: no tokens)."""
    tokens = split_sentence(values.get(SENTENCE.key, SENTENCE.default))
    if not tokens.ok:
        return None
    return (
        int(values.get(SEED.key, SEED.default)),
        int(values.get(D_MODEL.key, D_MODEL.default)),
        tuple(tokens.tokens),
    )


def shared_baseline(values: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """The grids seeded from these values: the address leaves them out while unedited."""
    seeding = _seeding(values)
    if seeding is None:
        return {}
    seed, d_model, tokens = seeding
    grids = {MATRIX_KEYS[name]: w for name, w in projections(d_model, seed).items()}
    grids[MATRIX_KEYS["X"]] = embeddings(list(tokens), d_model, seed)
    return grids


def shared_shapes(values: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
    """The shape each grid must have for these values, the seeded grids' (X: tokens × d_model,
    each W: d_model × d_model): a grid of another shape in an address is left out and said
    (kit.share.address)."""
    return {key: grid.shape for key, grid in shared_baseline(values).items()}


def prepare_shared(values: Mapping[str, Any]) -> None:
    """Before a shared state is stored: its seeded grids, marked as seeded from its seed, size
    and tokens, so that `sync_grids` keeps the grids the address then gives."""
    st.session_state.pop(_SEEDED, None)
    seeding = _seeding(values)
    if seeding is None:
        return
    for key, grid in shared_baseline(values).items():
        set_matrix(key, grid)
    st.session_state[_SEEDED] = seeding


# ---------------------------------------------------------------------------------------------
# Callbacks (they run before the page script, so they may set widget keys)


def load_example(lang: str) -> None:
    st.session_state[SENTENCE.key] = EXAMPLES[lang]


def identity_weights() -> None:
    """h = 1 and W_Q = W_K = W_V = W_O = I: the page reduces to plain scaled dot attention."""
    d_model = int(st.session_state[D_MODEL.key])
    st.session_state[HEADS.key] = 1
    for name in PROJECTIONS:
        set_matrix(MATRIX_KEYS[name], np.eye(d_model))
