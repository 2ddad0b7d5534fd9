"""The transformer page's figures, pure: arrays, labels and words in, heatmaps out.

Tokens label every axis ('1 · the'); each cell's hover is the engine's arithmetic for it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

import numpy as np

from attention_core import MultiHeadResult, Step
from attention_ui.kit.figures.blocks import colour_bar_below, column_blocks
from attention_ui.kit.figures.heatmap import (
    SIGNED,
    WEIGHTS,
    DrawnFigure,
    Titles,
    cell_texts,
    heatmap,
)

# What the rows and columns of each step's matrix are, as the page shows it (row layout).
# Kinds: query (a token asking), key (a token asked), dim (an entry), sum.
STEP_AXES: dict[str, tuple[str, str]] = {
    "keys_transposed": ("dim", "key"),
    "sums": ("query", "sum"),
    "output": ("query", "dim"),
    "positions_added": ("query", "dim"),
    "queries_from_x": ("query", "dim"),
    "keys_from_x": ("key", "dim"),
    "values_from_x": ("key", "dim"),
    "heads_concatenated": ("query", "dim"),
    "output_projected": ("query", "dim"),
}
WEIGHT_STEPS = ("weights_softmax",)


def axis_labels(kind: str, count: int, tokens: Sequence[str]) -> list[str]:
    if kind in ("query", "key"):
        return list(tokens)
    if kind == "sum":
        return ["Σ"] * count
    return [str(a) for a in range(1, count + 1)]


def step_figure(
    step: Step,
    tokens: Sequence[str],
    titles: Mapping[str, str],
    hover: Callable[[tuple[int, int], Callable[[int, int], str]], list[list[str]]],
    *,
    title: str = "",
    columns: range | None = None,
) -> DrawnFigure:
    """One engine step as a heatmap with token labels; `hover(shape, explain)` makes the
    cell texts (in the learner's language). Weights keep the fixed 0…1 red scale.
    `columns`: only these columns of the step's matrix (a block of `key_blocks`)."""
    rows, cols = STEP_AXES.get(step.key, ("query", "key"))
    n_rows, n_cols = step.value.shape
    shown = slice(None) if columns is None else slice(columns.start, columns.stop)
    weights = step.key in WEIGHT_STEPS
    looks = replace(WEIGHTS if weights else SIGNED, text_px=STEP_TEXT_PX)
    if columns is not None and not weights:  # every block on the whole matrix's scale
        finite = np.abs(step.value[np.isfinite(step.value)])
        largest = float(finite.max()) if finite.size and finite.max() > 0 else 1.0
        looks = replace(looks, zmin=-largest, zmax=largest)
    return heatmap(
        step.value[:, shown],
        axis_labels(cols, n_cols, tokens)[shown],
        axis_labels(rows, n_rows, tokens),
        Titles(title, titles[cols], titles[rows]),
        hover=[row[shown] for row in hover(step.value.shape, step.entry)],
        looks=looks,
    )


def matrix_figure(
    values: np.ndarray,
    tokens: Sequence[str],
    titles: Mapping[str, str],
    hover: Sequence[Sequence[str]] | None = None,
    *,
    title: str = "",
    rows: str = "query",
) -> DrawnFigure:
    """A tokens × entries matrix that is not a step of its own (P, Q_i, K_i, V_i): `rows` are
    queries or keys, its columns entries; its colour bar under the cells as the steps' (beside
    them, in half a desktop or a third, or on a phone, it took a fifth of the width from 4
    columns of numbers)."""
    n_rows, n_cols = values.shape
    figure = heatmap(
        values,
        axis_labels("dim", n_cols, tokens),
        axis_labels(rows, n_rows, tokens),
        Titles(title, titles["dim"], titles[rows]),
        hover=hover,
    )
    colour_bar_below(figure, shown=True)
    return figure


# A head of more tokens than this is drawn in blocks of keys: on a phone (358 px for the chart)
# a cell must stay about 35 px wide to print its number ("0.0812") legibly, with the token
# labels beside it; Streamlit cannot scroll a chart sideways, so the columns are cut instead.
ONE_BLOCK_MAX_KEYS = 6
BLOCK_MAX_KEYS = 5
# A step's cells on a phone: about 206 px for them in all in Japanese (222 in English; the
# token labels "3 · マット" are wider). A step prints its numbers at STEP_TEXT_PX, a digit about
# half as wide: 5.5 px a character, and a cell keeps that for its longest number. Left to
# plotly, the numbers fit the narrowest cell: 4 columns of "−0.0275" in 51 px printed at 10 px
# in Japanese, and one head's exp() step printed "0.000856" at 6 px in 6 columns. The columns
# are cut into more blocks when their text is long.
PHONE_CELLS_PX = 206
STEP_TEXT_PX = 11
LEGIBLE_CHAR_PX = 5.5


def key_blocks(n: int) -> list[range]:
    """The key columns 0 … n−1 of a head, as drawn: all of them while they fit a phone, else
    as few blocks of at most BLOCK_MAX_KEYS as hold them, as equal as can be (10: 5 + 5)."""
    return column_blocks(n, BLOCK_MAX_KEYS, ONE_BLOCK_MAX_KEYS)


def step_key_blocks(step: Step) -> list[range]:
    """`key_blocks` of a step's columns, with fewer columns a block where the step prints long
    numbers, so that each cell holds its number at STEP_TEXT_PX on a phone."""
    printed = cell_texts(step.value, weights=step.key in WEIGHT_STEPS)
    longest = max((len(text) for row in printed for text in row), default=1)
    fit = max(2, int(PHONE_CELLS_PX // (longest * LEGIBLE_CHAR_PX + 1)))
    n = step.value.shape[1]
    return column_blocks(n, min(BLOCK_MAX_KEYS, fit), min(ONE_BLOCK_MAX_KEYS, fit))


def step_blocks(
    step: Step,
    tokens: Sequence[str],
    titles: Mapping[str, str],
    hover: Callable[[tuple[int, int], Callable[[int, int], str]], list[list[str]]],
) -> list[DrawnFigure]:
    """`step_figure` of one step, its columns cut into `key_blocks` as the heads are (Kᵀ and S
    of a 10-token sentence: 10 columns of about 30 px on a phone, too narrow for "−0.0812"),
    the colour bar under the last block."""
    blocks = step_key_blocks(step)
    figures = []
    for block in blocks:
        # the colour bar under the cells, the last block's: beside them it took a sixth of a
        # phone's width, and a 10 × 4 projection's numbers shrank to about 7 px
        figure = step_figure(step, tokens, titles, hover, columns=block if blocks[1:] else None)
        colour_bar_below(figure, shown=block.stop == step.value.shape[1])
        figures.append(figure)
    return figures


# No side margins: on a phone (358 px) 6 keys' cells keep the 44 px that "0.0812" needs to
# print at 11 px (plotly sizes every cell's text to fit the longest); with 10 px each side
# they printed at 10 px.
HEAD_LOOKS = replace(WEIGHTS, side_margin=0)


def head_figures(
    mh: MultiHeadResult,
    tokens: Sequence[str],
    titles: Mapping[str, str],
    head_titles: Sequence[str],
    hover: Callable[[int, int, int], str] | None = None,
    *,
    keys: range | None = None,
) -> list[DrawnFigure]:
    """d2l's show_heatmaps for the heads, one figure per head (queries × keys) with the head's
    title, tokens as labels and the same fixed 0…1 red scale. One figure each, not one grid: the
    page lays them out in columns, which stack on a phone, so each head keeps the whole width
    and its numbers stay legible. `hover(head, i, j)` explains one weight. `keys`: only
    these key columns (a block of `key_blocks`), without the colour bar unless the block is
    the last (every head shares the one 0…1 scale); the colour bar lies under the cells."""
    n = len(tokens)
    keys = range(n) if keys is None else keys
    figures = []
    for h, (weights, head_title) in enumerate(zip(mh.weights, head_titles, strict=True)):
        figure = heatmap(
            weights[:, keys.start : keys.stop],
            [tokens[j] for j in keys],
            list(tokens),
            Titles(head_title, titles["key"], titles["query"]),
            hover=None if hover is None else [[hover(h, i, j) for j in keys] for i in range(n)],
            looks=HEAD_LOOKS,
        )
        colour_bar_below(figure, shown=keys.stop == n)
        figures.append(figure)
    return figures
