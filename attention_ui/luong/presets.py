"""Example inputs for the Luong explorer, each chosen to tell one story about attention.

A preset fixes the score function, the sizes and every matrix (in column layout; the page
transposes Q, K, V for row layout), plus the temperature and the mask when the story needs
them. Its name and its one-sentence "why" live in the catalogs (`luong.preset.<key>.name`,
`.why`), so the story is told in the learner's language. Only inputs are fixed here: every
score, weight and output is computed by the engine from them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from attention_ui.luong.model import ALL_PARAMETERS, INPUTS, Sizes, column_shape, default_parameters


@dataclass(frozen=True)
class Preset:
    """Everything a preset sets. Missing score parameters get `default_parameters`."""

    key: str
    score: str
    sizes: Sizes
    matrices: dict[str, list[list[float]]] = field(default_factory=dict)  # column layout
    temperature: float = 1.0
    mask: str = "none"
    mask_length: int = 1

    def column_matrices(self) -> dict[str, np.ndarray]:
        """Q, K, V and every score parameter, as float arrays in column layout."""
        matrices = default_parameters(self.sizes)
        matrices.update(
            {name: np.array(values, dtype=float) for name, values in self.matrices.items()}
        )
        return matrices


RANDOM = "random"
DEFAULT_PRESET = "first"
DEFAULT_SEED = 0

PRESETS: dict[str, Preset] = {
    p.key: p
    for p in [
        # q1 points along k1 and q2 along k2, so each takes mostly its own key's value.
        Preset(
            "first",
            "dot",
            Sizes(d_q=2, d_k=2, d_v=2, n=2, m=3),
            {
                "Q": [[2, 0], [0.5, 1.5]],
                "K": [[1, 0, -1], [0, 1, 0]],
                "V": [[10, 20, 30], [1, 0, -1]],
            },
        ),
        # Q = K = I: each query matches exactly one key, yet softmax keeps some weight elsewhere.
        Preset(
            "identity",
            "dot",
            Sizes(d_q=3, d_k=3, d_v=2, n=3, m=3),
            {"Q": np.eye(3).tolist(), "K": np.eye(3).tolist(), "V": [[1, 2, 3], [4, 5, 6]]},
        ),
        # k1 and k2 are nearly the same vector: their scores are close and the weight splits.
        Preset(
            "near_equal",
            "dot",
            Sizes(d_q=2, d_k=2, d_v=1, n=1, m=3),
            {"Q": [[2], [1]], "K": [[1, 1, -1], [0, 0.1, 1]], "V": [[1, 3, -5]]},
        ),
        # q1's score with k1 dwarfs the others (softmax saturates); q2's scores are close.
        Preset(
            "saturate",
            "dot",
            Sizes(d_q=2, d_k=2, d_v=2, n=2, m=3),
            {"Q": [[10, 0.5], [0, 0.5]], "K": [[5, 1, 0], [0, 1, 1]], "V": [[1, 2, 3], [0, 1, 0]]},
        ),
        # W turns every query by 90°: with dot q1 picks k1 and q2 k2; with general, the next key.
        Preset(
            "rotation",
            "general",
            Sizes(d_q=2, d_k=2, d_v=2, n=2, m=3),
            {
                "Q": [[3, 0], [0, 3]],
                "K": [[1, 0, -1], [0, 1, 0]],
                "V": [[10, 0, -10], [0, 10, 0]],
                "W": [[0, -1], [1, 0]],
            },
        ),
        # 8-dimensional vectors: dot products grow with d_k and √d_k scaling keeps softmax soft.
        Preset(
            "large_d",
            "scaled_dot",
            Sizes(d_q=8, d_k=8, d_v=2, n=1, m=3),
            {
                "Q": [[1]] * 8,
                "K": [[1, 1, 1]] * 2 + [[1, 1, 0]] * 4 + [[1, 0, 0]] * 2,
                "V": [[1, 2, 3], [3, 2, 1]],
            },
        ),
        # Concat compares queries and keys of different sizes through a small hidden layer.
        Preset(
            "concat",
            "concat",
            Sizes(d_q=2, d_k=3, d_v=1, n=2, m=3, h=2),
            {
                "Q": [[1, -1], [0, 1]],
                "K": np.eye(3).tolist(),
                "V": [[1, 2, 3]],
                "Wa_concat": [[1, 0, 1, 0, 0], [0, 1, 0, 1, -1]],
                "va": [[1, 1]],
            },
        ),
        # Location attention never reads K: each row of W_a scores one key position.
        Preset(
            "location",
            "location",
            Sizes(d_q=2, d_k=2, d_v=1, n=2, m=3),
            {
                "Q": [[2, 0], [0, 2]],
                "K": [[1, 0, -1], [0, 1, 0]],
                "V": [[1, 2, 3]],
                "Wa_location": [[1, 0], [0, 1], [1, 1]],
            },
        ),
        # Self-attention (Q = K = V) with a decoder's causal mask: q1 can only see k1.
        Preset(
            "causal",
            "scaled_dot",
            Sizes(d_q=2, d_k=2, d_v=2, n=4, m=4),
            {
                "Q": [[1, 0, 1, 0], [0, 1, 1, -1]],
                "K": [[1, 0, 1, 0], [0, 1, 1, -1]],
                "V": [[1, 0, 1, 0], [0, 1, 1, -1]],
            },
            mask="causal",
        ),
    ]
}
PRESET_KEYS: tuple[str, ...] = (*PRESETS, RANDOM)


def random_matrices(sizes: Sizes, seed: int) -> dict[str, np.ndarray]:
    """Q, K, V and every score parameter drawn from N(0, 1) with `seed`, rounded to one
    decimal so they stay readable. The same seed and sizes always give the same numbers."""
    rng = np.random.default_rng(seed)
    return {
        name: np.round(rng.normal(size=column_shape(name, sizes)), 1)
        for name in (*INPUTS, *ALL_PARAMETERS)
    }
