"""What a trained tiny model learned, read in the task's own tokens and positions.

A layer reading X = E[tokens] + P (the first layer: tiny_model.embed) scores a query at
position i holding token a against a key at position j holding token b. For the bilinear
score functions (dot, scaled dot, general) the score of head h is

    s = x_i M x_jᵀ,   M = W_Q,h G W_K,hᵀ (· 1/√d_h for scaled dot),  d × d
        G = I (dot, scaled dot) or Wᵀ (general: kᵀ W q = q Wᵀ kᵀ in rows)

and with x = e + p it splits exactly into four tables (`score_parts`):

    s = e_a M e_bᵀ  +  e_a M p_jᵀ  +  p_i M e_bᵀ  +  p_i M p_jᵀ
        token×token    token×pos.     pos.×token     pos.×pos.

When tokens are made of features (key lookup's pair "C→5" is C + 5), e is the sum of its
features' rows of E, so the token tables are over features and a token's entry is the sum of
its features' (`score_of`).

location scores ignore the key: s = (W_a q)_j = W_a,j · (x_i W_Q,h), a token × key position
table plus a position × key position table, no key-token part. concat, v_aᵀ tanh(W_q q + W_k k),
is not bilinear: tanh mixes token and position, so no sum of parts gives its score; what can be
shown exactly is its token × token table at one pair of positions (`concat_table`).

The second layer of a two-layer model reads X + U₁ (the first layer's output), which depends on
the whole row, not on one token and one position: only the first layer splits this way.

Induction (Olsson et al. 2022): a previous-token head attends from each position to the one
before it (`previous_token_scores`); an induction head attends from a token to the position
just after that token's earlier occurrence (`prefix_matching_scores`). Both are mean weights
in 0 … 1, one per head; `induction_curves` computes them at every snapshot of a run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .tiny_model import Params, layer_params
from .toy_tasks import ToyTask

BILINEAR = ("dot", "scaled_dot", "general")


@dataclass(frozen=True, eq=False)
class ScoreParts:
    """Head `head`'s first-layer score as tables over tokens (or features, R rows of E) and
    positions (L). kind: "bilinear" (four tables) or "location" (token_position and
    position_position; its score reads no key token). Query on rows, key on columns:

    token_token : R × R, e_a M e_bᵀ        token_position : R × L, e_a M p_jᵀ
    position_token : L × R, p_i M e_bᵀ     position_position : L × L, p_i M p_jᵀ
    """

    kind: str
    token_token: np.ndarray | None
    token_position: np.ndarray
    position_token: np.ndarray | None
    position_position: np.ndarray


def _head_columns(d: int, heads: int, head: int) -> slice:
    d_h = d // heads
    return slice(head * d_h, (head + 1) * d_h)


def bilinear_matrix(params: Params, score: str, heads: int, head: int) -> np.ndarray:
    """M (d × d) with s(x_i, x_j) = x_i M x_jᵀ for a bilinear score, head `head`."""
    d = params["W_Q"].shape[0]
    cols = _head_columns(d, heads, head)
    d_h = cols.stop - cols.start
    middle = params["W"][head].T if score == "general" else np.eye(d_h)  # d_h × d_h
    M = params["W_Q"][:, cols] @ middle @ params["W_K"][:, cols].T  # d × d
    return M / math.sqrt(d_h) if score == "scaled_dot" else M


def score_parts(params: Params, score: str, heads: int, head: int) -> ScoreParts:
    """The first layer's score of head `head` as token and position tables (module docstring).

    params : a model's parameters (tiny_model.init_params); for two layers, the first layer's
    are read. Raises ValueError for concat, which is not a sum of such parts (`concat_table`).
    """
    p = layer_params(params, 0)
    E, P = params["E"], params["P"]  # R × d, L × d
    if score in BILINEAR:
        M = bilinear_matrix(p, score, heads, head)  # d × d
        return ScoreParts("bilinear", E @ M @ E.T, E @ M @ P.T, P @ M @ E.T, P @ M @ P.T)
    if score == "location":
        cols = _head_columns(p["W_Q"].shape[0], heads, head)
        R = p["W_Q"][:, cols] @ p["W_a"][head].T  # d × L: x_i ↦ the score of each key position
        return ScoreParts("location", None, E @ R, None, P @ R)
    raise ValueError(f"{score} scores are not a sum of token and position parts")


def concat_table(
    params: Params,
    heads: int,
    head: int,
    positions: tuple[int, int],
    features: np.ndarray | None = None,
) -> np.ndarray:
    """concat's exact first-layer score, vocab × vocab: the query's token a on rows at
    positions[0], the key's token b on columns at positions[1]: v_aᵀ tanh(W_q q + W_k k) with
    q = (e_a + p_i) W_Q,h and k = (e_b + p_j) W_K,h; e_a = F[a] E when tokens are made of
    features (a token's features are summed inside tanh, so the table is over tokens)."""
    p = layer_params(params, 0)
    E = params["E"] if features is None else features @ params["E"]  # vocab × d
    P = params["P"]
    cols = _head_columns(p["W_Q"].shape[0], heads, head)
    d_h = cols.stop - cols.start
    W_q, W_k = p["W_a"][head][:, :d_h], p["W_a"][head][:, d_h:]  # h × d_h each
    q = (E + P[positions[0]]) @ p["W_Q"][:, cols] @ W_q.T  # vocab × h
    k = (E + P[positions[1]]) @ p["W_K"][:, cols] @ W_k.T  # vocab × h
    return np.tanh(q[:, None, :] + k[None, :, :]) @ p["v_a"][head]  # vocab × vocab


def score_of(
    parts: ScoreParts,
    query: np.ndarray,
    query_position: int,
    key: np.ndarray,
    key_position: int,
) -> float:
    """The score read off the tables: query and key are 0/1 vectors over the rows of E (one
    token's features, or the one-hot of a token); the sum of the four parts."""
    total = (
        query @ parts.token_position[:, key_position]
        + parts.position_position[query_position, key_position]
    )
    if parts.kind == "bilinear":
        total += query @ parts.token_token @ key + parts.position_token[query_position] @ key
    return float(total)


def token_rows(task: ToyTask, tokens: np.ndarray) -> np.ndarray:
    """Each token's 0/1 vector over the rows of E: its features, or its one-hot: n × R."""
    if task.features is not None:
        return task.features[tokens]
    return np.eye(task.vocab)[tokens]


# ---------------------------------------------------------------------------------------------
# Induction: the two heads' scores


def previous_token_scores(weights: np.ndarray, positions: np.ndarray | None = None) -> np.ndarray:
    """Each head's mean weight from a position to the one before it.

    weights : N × H × L × L, a layer answering at every position (query rows, key columns);
    positions : the query positions averaged over (1 … L − 1 by default; induction's curves
    take the positions the answers stand at, which the second layer reads).
    Returns H values in 0 … 1.
    """
    L = weights.shape[-1]
    t = np.arange(1, L) if positions is None else np.asarray(positions)
    t = t[t >= 1]
    return weights[:, :, t, t - 1].mean(axis=(0, 2))  # H


def prefix_matching_scores(
    weights: np.ndarray, inputs: np.ndarray, read_at: np.ndarray
) -> np.ndarray:
    """Each head's mean weight from a token to the positions just after its earlier
    occurrences (Olsson et al. 2022), over the outputs whose token occurred before.

    weights : N × H × T × L (output t is read at position read_at[t]); inputs : N × L.
    Returns H values in 0 … 1 (0 when no output's token occurred before).
    """
    N, H, _, L = weights.shape
    totals, count = np.zeros(H), 0
    for t, r in enumerate(read_at):
        earlier = inputs[:, :r] == inputs[:, r : r + 1]  # N × r: earlier occurrences of x_r
        after = np.zeros((N, L), dtype=bool)
        after[:, 1 : r + 1] = earlier  # the position after each (at most r: causal)
        has = earlier.any(axis=1)  # N
        totals += (weights[:, :, t, :] * after[:, None, :]).sum(axis=-1)[has].sum(axis=0)
        count += int(has.sum())
    return totals / count if count else totals


def read_positions(task: ToyTask) -> np.ndarray:
    """The positions the task's answers stand at (past 0): where a previous-token head must
    look back, so that the head reading them finds each token's predecessor there."""
    positions = np.unique(task.attend)
    return positions[positions >= 1]


def induction_scores(passed, task: ToyTask, inputs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every first-layer head's previous-token score and every last-layer head's
    prefix-matching score of a two-layer forward pass `passed` (tiny_model.ForwardPass) on
    `inputs` (N × L): two arrays of H values."""
    first = passed.layers[0].weights.transpose(1, 0, 3, 2)  # N × H × L × L
    previous = previous_token_scores(first, read_positions(task))
    return previous, prefix_matching_scores(passed.weights, inputs, task.read_at)


@dataclass(frozen=True, eq=False)
class InductionCurves:
    """At each snapshot step: every first-layer head's previous-token score (steps × H) and
    every last-layer head's prefix-matching score (steps × H), on the held-out examples."""

    steps: np.ndarray
    previous_token: np.ndarray
    prefix_matching: np.ndarray


def induction_curves(run) -> InductionCurves:
    """Both scores at every snapshot of a two-layer `run` (a TrainingRun), as its snapshots
    recorded them (training._snapshot)."""
    previous = np.array([s.previous_token for s in run.snapshots])  # steps × H
    prefix = np.array([s.prefix_matching for s in run.snapshots])  # steps × H
    return InductionCurves(run.snapshot_steps, previous, prefix)
