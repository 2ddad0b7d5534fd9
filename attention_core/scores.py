"""The five score functions f(Q, K) = S of the Luong attention article, in NumPy.

Column layout, as in the article: Q is d_q × n (one query per column), K is d_k × m, and the
score matrix S is m × n with S[i, j] = score(q_j, k_i). d2l and PyTorch store one query per row
(row layout): every matrix is transposed, S is n × m, and the comments give that form too.
`attention` computes in column layout and transposes for row layout (S_row = S_colᵀ).

Each function returns S and the matrices it was built from, by name, because the step view
shows them (`attention_steps`). Parameters arrive checked: their shapes fit Q and K.

Any leading axes are a stack of such matrices and broadcast as in `@` (heads × batch × d_q × n
for the trained model of training.py): `swap` transposes the last two axes, which is `.T` for
one matrix.
"""

from __future__ import annotations

import math

import numpy as np


def swap(a: np.ndarray) -> np.ndarray:
    """The transpose of each matrix in a stack (the last two axes); `a.T` for one matrix."""
    return a.swapaxes(-1, -2)


def dot(Q: np.ndarray, K: np.ndarray) -> dict[str, np.ndarray]:
    """score(q, k) = k·q; needs d_q = d_k."""
    S = swap(K) @ Q  # m × n              rows: S = Q Kᵀ, n × m
    return {"S": S}


def scaled_dot(Q: np.ndarray, K: np.ndarray) -> dict[str, np.ndarray]:
    """score(q, k) = k·q / √d_k, the Transformer's: k·q of random unit-variance entries has
    variance d_k, and dividing by √d_k brings it back to 1."""
    dots = swap(K) @ Q  # m × n         rows: Q Kᵀ, n × m
    S = dots / math.sqrt(K.shape[-2])  # m × n   rows: S = Q Kᵀ / √d_k
    return {"dots": dots, "S": S}


def general(Q: np.ndarray, K: np.ndarray, W: np.ndarray) -> dict[str, np.ndarray]:
    """score(q, k) = kᵀ W q, Luong's general (his h_tᵀ W_a h̄_s with W = W_aᵀ); W is d_k × d_q."""
    WQ = W @ Q  # d_k × n             rows: Q Wᵀ, n × d_k
    S = swap(K) @ WQ  # m × n            rows: S = Q Wᵀ Kᵀ, n × m
    return {"WQ": WQ, "S": S}


def concat(Q: np.ndarray, K: np.ndarray, Wa: np.ndarray, va: np.ndarray) -> dict[str, np.ndarray]:
    """score(q, k) = v_aᵀ tanh(W_a [q; k]); W_a is h × (d_q + d_k), v_a has h entries.

    W_a [q; k] = W_q q + W_k k splits W_a by columns (d2l's additive attention), so each query
    and each key is projected once, not once per pair.
    """
    W_q, W_k = Wa[..., : Q.shape[-2]], Wa[..., Q.shape[-2] :]  # h × d_q, h × d_k
    WqQ = W_q @ Q  # h × n            rows: Q W_qᵀ, n × h
    WkK = W_k @ K  # h × m            rows: K W_kᵀ, m × h
    # hidden[:, i, j] = tanh(W_q q_j + W_k k_i)
    hidden = np.tanh(WkK[..., :, :, None] + WqQ[..., :, None, :])  # h × m × n
    S = np.einsum("...h,...hmn->...mn", va, hidden)  # m × n   rows: n × m
    return {"WqQ": WqQ, "WkK": WkK, "S": S}


def location(Q: np.ndarray, K: np.ndarray, Wa: np.ndarray) -> dict[str, np.ndarray]:
    """score(q, k_i) = (W_a q)_i, Luong's location: the keys are not used; W_a is m × d_q."""
    S = Wa @ Q  # m × n               rows: S = Q W_aᵀ, n × m
    return {"S": S}


SCORE_FUNCTIONS = {
    "dot": dot,
    "scaled_dot": scaled_dot,
    "general": general,
    "concat": concat,
    "location": location,
}
