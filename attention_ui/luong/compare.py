"""Every score function that applies to the current Q and K, computed side by side.

The comparison keeps everything but the score fixed (the same Q, K, V, temperature and mask),
so any difference in the weights comes from the score alone. Score parameters the learner has
not set (or not yet made valid) are replaced by `default_parameters`, and the comparison
says which parameters are the defaults.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from attention_core import AttentionInputError, AttentionResult
from attention_core.formatting import fmt
from attention_ui.kit.figures.heatmap import WEIGHTS, DrawnFigure, Titles, heatmap, hover_texts
from attention_ui.kit.teaching.predict import winners_of
from attention_ui.kit.teaching.steps_view import axis_labels
from attention_ui.luong.compute import Inputs, compute
from attention_ui.luong.model import (
    PARAMETERS,
    Sizes,
    applicable_scores,
    default_parameters,
)

WINNER_DIGITS = 3  # the winner table's weights, and what it counts as a tie


@dataclass(frozen=True)
class Comparison:
    """One score function's run (or why it could not run) and which parameters were defaults."""

    score: str
    result: AttentionResult | None
    error: AttentionInputError | None
    defaults: tuple[str, ...]


def compare_scores(
    inputs: Inputs,
    sizes: Sizes,
    learner_params: Mapping[str, np.ndarray | None],
    chosen: AttentionResult | None = None,
) -> list[Comparison]:
    """Run `attention` for every applicable score (the chosen one's result is reused).

    `inputs` gives Q, K, V, the mask (in its layout), τ and the layout; `learner_params` maps
    a parameter name (W, Wa_concat, va, Wa_location) to the learner's matrix, or None where
    there is no valid one (the comparison then uses the default).
    """
    defaults = default_parameters(sizes)
    comparisons = []
    for score in applicable_scores(sizes):
        params = {}
        for name in PARAMETERS[score]:
            given = learner_params.get(name)
            params[name] = defaults[name] if given is None else given
        # Say which parameters are the defaults, whether the learner never set them or not.
        used_defaults = tuple(
            name for name in PARAMETERS[score] if np.array_equal(params[name], defaults[name])
        )
        if chosen is not None and chosen.score == score:
            comparisons.append(Comparison(score, chosen, None, used_defaults))
            continue
        try:
            result = compute(replace(inputs, score=score, values={**inputs.values, **params}))
        except AttentionInputError as error:
            comparisons.append(Comparison(score, None, error, used_defaults))
        else:
            comparisons.append(Comparison(score, result, None, used_defaults))
    return comparisons


def winners(weights: np.ndarray, layout: str) -> list[tuple[int, ...]]:
    """For each query, the 0-based indices of the keys with the largest weight as the table
    prints it (to 3 digits): more than one on a tie, so no key is named the sole winner of a
    tie the reader can see; none if every weight is 0."""
    column = weights if layout == "column" else weights.T  # m × n
    picks = []
    for j in range(column.shape[1]):
        best = winners_of(column[:, j])
        shown = fmt(column[best[0], j], WINNER_DIGITS) if best else None
        picks.append(
            tuple(i for i in range(column.shape[0]) if fmt(column[i, j], WINNER_DIGITS) == shown)
            if best
            else ()
        )
    return picks


def winners_label(picks: tuple[int, ...]) -> str:
    """k2, or k1 = k3 for a tie."""
    return " = ".join(f"k{pick + 1}" for pick in picks)


def largest_change(weights: np.ndarray, reference: np.ndarray) -> tuple[float, int, int]:
    """The signed difference `weights − reference` of largest size, and its (row, column)."""
    difference = weights - reference
    row, col = np.unravel_index(int(np.argmax(np.abs(difference))), difference.shape)
    return float(difference[row, col]), int(row), int(col)


def comparison_figure(
    comparison: Comparison,
    chosen: AttentionResult,
    titles: Mapping[str, str],
    names: Mapping[str, str],
) -> DrawnFigure:
    """The weights of one score as a 0…1 heatmap, titled by its name in `names` (◀: the chosen
    score); each cell's hover compares it with the chosen score's weight for the same pair
    (both from the engine) and gives the difference."""
    weights, reference = comparison.result.weights, chosen.weights
    name, reference_name = names[comparison.score], names[chosen.score]
    m_or_n, n_or_m = weights.shape
    rows, cols = ("key", "query") if chosen.layout == "column" else ("query", "key")
    hover = hover_texts(
        weights.shape,
        lambda r, c: (
            f"{name}: {fmt(weights[r, c])} | {reference_name}: {fmt(reference[r, c])} | "
            f"Δ = {fmt(weights[r, c] - reference[r, c])}"
        ),
    )
    return heatmap(
        weights,
        axis_labels(cols, n_or_m),
        axis_labels(rows, m_or_n),
        Titles(
            name + (" ◀" if comparison.score == chosen.score else ""),
            titles.get(cols, cols),
            titles.get(rows, rows),
        ),
        hover=hover,
        looks=WEIGHTS,
    )


def winner_table(
    comparisons: Sequence[Comparison], chosen: AttentionResult, names: Mapping[str, str]
) -> pd.DataFrame:
    """One row per query, one column per score: the winning key (every tied key on a tie) and
    its weight, marked ◆ where it is not the chosen score's winner."""
    layout = chosen.layout
    chosen_winners = winners(chosen.weights, layout)
    table = {}
    for comparison in comparisons:
        if comparison.result is None:
            continue
        weights = comparison.result.weights
        column = weights if layout == "column" else weights.T  # m × n
        table[names[comparison.score]] = [
            f"{winners_label(picks)} ({fmt(column[picks[0], j] if picks else 0.0, WINNER_DIGITS)})"
            + (" ◆" if picks != chosen_winners[j] else "")
            for j, picks in enumerate(winners(weights, layout))
        ]
    return pd.DataFrame(table, index=[f"q{j}" for j in range(1, len(chosen_winners) + 1)])
