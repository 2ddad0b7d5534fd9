"""Whether a preset's story still holds for what the page now computes.

A preset's "why" sentence (`luong.preset.<key>.why`) tells what its numbers show: which key
wins, that a weight is exactly 1, that softmax saturates. Once the learner changes the score,
the mask, the temperature or a number, that may stop being true, so the page shows the story
only when `story_holds` says the engine's numbers bear it out, and otherwise says that the
example has been changed. Each check reads the same numbers the sentence talks about.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from attention_core import AttentionInputError, AttentionResult
from attention_ui.kit.teaching.predict import winners_of
from attention_ui.luong.compute import Inputs, compute

# "Mostly": more than half of the query's weight; "saturates": all but 1 %; "soft": no key
# above 90 %; "splits": two keys of the same size, each with a real share; "far closer
# together": a gap between the top two scores at most a tenth of the other query's.
MOSTLY, SATURATED, SOFT, SPLIT_SHARE, SPLIT_GAP, FAR_CLOSER = 0.5, 0.99, 0.9, 0.2, 0.2, 0.1


def column_weights(result: AttentionResult) -> np.ndarray:
    """The weights as m × n (one query per column), whatever the layout."""
    return result.weights if result.layout == "column" else result.weights.T


def column_values(values: Mapping[str, np.ndarray], layout: str) -> dict[str, np.ndarray]:
    """Q, K, V in column layout (the score parameters never change with the layout)."""
    return {
        name: (np.asarray(values[name], dtype=float).T if layout == "row" else values[name])
        for name in ("Q", "K", "V")
    }


def sole_winner(weights: np.ndarray, query: int) -> int | None:
    """The one key with the largest weight for this query (column of m × n), None on a tie."""
    best = winners_of(weights[:, query])
    return best[0] if len(best) == 1 else None


def _rerun(
    result: AttentionResult,
    values: Mapping[str, np.ndarray],
    mask: np.ndarray | None,
    score: str,
) -> AttentionResult | None:
    """The same inputs, temperature, mask and layout under another score (None if invalid)."""
    try:
        return compute(Inputs(values, score, result.layout, result.temperature, mask))
    except AttentionInputError:
        return None


def _each_query_takes_its_own_key(weights: np.ndarray, *, mostly: bool) -> bool:
    m, n = weights.shape
    return (
        all(
            sole_winner(weights, j) == j and (not mostly or weights[j, j] > MOSTLY)
            for j in range(min(m, n))
        )
        and m >= n
    )


def _first(result, values, mask) -> bool:
    # "q1 … k1 and q2 … k2, so each query takes mostly the value stored under its own key"
    return _each_query_takes_its_own_key(column_weights(result), mostly=True)


def _identity(result, values, mask) -> bool:
    # "Q = K = I: each query matches exactly one key, yet softmax still gives the others some"
    cols = column_values(values, result.layout)
    weights = column_weights(result)
    eye = np.eye(*cols["Q"].shape)
    return (
        cols["Q"].shape == cols["K"].shape
        and np.array_equal(cols["Q"], eye)
        and np.array_equal(cols["K"], eye)
        and _each_query_takes_its_own_key(weights, mostly=False)
        and bool((weights > 0).all())
    )


def _near_equal(result, values, mask) -> bool:
    # "the query's weight splits between k1 and k2: the output mixes their two values"
    weights = column_weights(result)
    if weights.shape[0] < 2:
        return False
    first, second = weights[0], weights[1]
    return bool(
        np.all(np.minimum(first, second) >= SPLIT_SHARE)
        and np.all(np.abs(first - second) <= SPLIT_GAP)
    )


def top_gap(scores: np.ndarray) -> float:
    """How far a query's largest score lies above its second (0 with a single key)."""
    ranked = np.sort(scores)
    return float(ranked[-1] - ranked[-2]) if ranked.size > 1 else 0.0


def _saturate(result, values, mask) -> bool:
    # "k1 gets (almost exactly) all of q1's weight; q2's top scores lie far closer together
    # than q1's (a tenth of the gap at most), so its weights stay soft"
    weights = column_weights(result)
    scores = result.scores if result.layout == "column" else result.scores.T
    return (
        weights.shape[1] >= 2
        and weights[0, 0] >= SATURATED
        and bool(weights[:, 1].max() <= SOFT)
        and top_gap(scores[:, 1]) <= FAR_CLOSER * top_gap(scores[:, 0])
    )


def _rotation(result, values, mask) -> bool:
    # "with dot, q1 would pick k1 and q2 k2; with general, each picks the next key"
    dot, general = _rerun(result, values, mask, "dot"), _rerun(result, values, mask, "general")
    if dot is None or general is None:
        return False
    dot_w, general_w = column_weights(dot), column_weights(general)
    m, n = dot_w.shape
    return m > n and all(
        sole_winner(dot_w, j) == j and sole_winner(general_w, j) == j + 1 for j in range(n)
    )


def _large_d(result, values, mask) -> bool:
    # "dot gives most of the weight to one key; scaled dot keeps the weights softer"
    dot = _rerun(result, values, mask, "dot")
    scaled = _rerun(result, values, mask, "scaled_dot")
    if dot is None or scaled is None:
        return False
    dot_top, scaled_top = column_weights(dot).max(axis=0), column_weights(scaled).max(axis=0)
    return bool(
        np.all(dot_top > MOSTLY) and np.all(dot_top > scaled_top) and np.all(scaled_top <= SOFT)
    )


def _concat(result, values, mask) -> bool:
    # "compare a 2-entry query with 3-entry keys: W_a maps [q; k] to h = 2 hidden units"
    cols = column_values(values, result.layout)
    return cols["Q"].shape[0] == 2 and cols["K"].shape[0] == 3 and values["va"].size == 2


def _location(result, values, mask) -> bool:
    # "Location attention ignores K: change any key and nothing moves" (true of this page
    # only while location is the chosen score)
    return result.score == "location"


def _causal(result, values, mask) -> bool:
    # "Q = K = V … with a causal mask: q1 sees only k1 and its weight is exactly 1"
    cols = column_values(values, result.layout)
    weights = column_weights(result)
    causal = mask is not None and np.array_equal(
        mask if result.layout == "column" else mask.T,
        np.arange(weights.shape[0])[:, None] <= np.arange(weights.shape[1])[None, :],
    )
    same = cols["Q"].shape == cols["K"].shape == cols["V"].shape and (
        np.array_equal(cols["Q"], cols["K"]) and np.array_equal(cols["K"], cols["V"])
    )
    return bool(causal and same and weights[0, 0] == 1.0)


def _random(result, values, mask) -> bool:
    return True  # the story is only that the numbers are random: nothing to contradict


STORIES: dict[str, Callable[..., bool]] = {
    "first": _first,
    "identity": _identity,
    "near_equal": _near_equal,
    "saturate": _saturate,
    "rotation": _rotation,
    "large_d": _large_d,
    "concat": _concat,
    "location": _location,
    "causal": _causal,
    "random": _random,
}


def story_holds(
    preset: str,
    result: AttentionResult,
    values: Mapping[str, np.ndarray],
    mask: np.ndarray | None,
) -> bool:
    """True when the engine's numbers bear out every claim of the preset's "why" sentence.

    `values` holds Q, K, V in `result.layout` and every score parameter (W, Wa_concat, va,
    Wa_location; the page fills those the learner has not set with `default_parameters`, as
    the comparison does), `mask` is the mask in `result.layout` (None: no mask).
    """
    return bool(STORIES[preset](result, values, mask))
