"""The arithmetic of one score, as vectors side by side: what meets what, entry by entry.

For one (key i, query j) pair of an `attention` result, `score_terms` returns the vectors whose
element-wise products sum to the raw score s_ij (before scaling, temperature and softmax):

- dot, scaled dot:  k_i and q_j, then k_i ⊙ q_j                     (Σ = k_i·q_j)
- general:          k_i and W q_j, then k_i ⊙ W q_j                 (Σ = k_iᵀ W q_j)
- location:         row i of W_a and q_j, then their product        (Σ = (W_a q_j)_i)
- concat:           W_q q_j, W_k k_i, their sum, tanh of it, v_a, then v_a ⊙ tanh(…)
                                                                    (Σ = v_aᵀ tanh(W_a [q_j; k_i]))

Names are symbols (q₁, W·q₁, tanh(…)); the interface adds the words.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .attention import AttentionResult
from .formatting import subscript
from .validation import as_matrix, as_vector


def score_terms(
    result: AttentionResult,
    Q: Any,
    key: int,
    query: int,
    *,
    Wa: Any = None,
    va: Any = None,
) -> tuple[tuple[str, np.ndarray], ...]:
    """The named vectors of key `key` against query `query` (0-based); the last one's entries
    sum to the raw score.

    Parameters
    ----------
    result : the `attention` result (its steps supply Kᵀ, W·q, W_q·q and W_k·k)
    Q : array_like, the queries in the result's layout (d_q × n, or n × d_q in row layout)
    Wa : array_like, m × d_q, for location; va : h entries, for concat
    """
    column = result.layout == "column"
    q = as_matrix("Q", Q)
    q = q if column else q.T  # d_q × n from here on
    i, j = key, query
    sub_i, sub_j = subscript(i + 1), subscript(j + 1)

    def col(step_key: str) -> np.ndarray:  # a step's matrix in column layout
        value = result.step(step_key).value
        return value if column else value.T

    if result.score == "concat":
        projected_q = col("queries_projected")[:, j]  # h
        projected_k = col("keys_projected")[:, i]  # h
        hidden = np.tanh(projected_q + projected_k)  # h
        weights = as_vector("v_a", va)  # h
        return (
            (f"W_q·q{sub_j}", projected_q),
            (f"W_k·k{sub_i}", projected_k),
            (f"W_q·q{sub_j} + W_k·k{sub_i}", projected_q + projected_k),
            ("tanh(…)", hidden),
            ("v_a", weights),
            ("v_a ⊙ tanh(…)", weights * hidden),
        )
    if result.score == "location":
        row = as_matrix("W_a", Wa)[i]  # d_q
        return (
            (f"W_a[{i + 1}, :]", row),
            (f"q{sub_j}", q[:, j]),
            (f"W_a[{i + 1}, :] ⊙ q{sub_j}", row * q[:, j]),
        )
    k_i = col("keys_transposed")[i]  # d_k
    if result.score == "general":
        left, left_name = col("queries_transformed")[:, j], f"W·q{sub_j}"  # d_k
    else:
        left, left_name = q[:, j], f"q{sub_j}"
    return ((f"k{sub_i}", k_i), (left_name, left), (f"k{sub_i} ⊙ {left_name}", k_i * left))
