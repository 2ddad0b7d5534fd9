"""A tiny attention model, its loss and its gradients written out by hand.

    X = E[tokens] + P                              token and position embeddings, B × L × d
                                                   (F[tokens] E when tokens are made of features)
    Q = X_read W_Q,  K = X W_K,  V = X W_V         X_read: the T positions that answer
    head i: S_i = f(Q_i, K_i)                      scores.py's own f, one query per column
            A_i = Softmax(S_i) down each column    causal: key j only for a query at t ≥ j
            O_i = V_i A_i
    U = concat(O_1 … O_h) W_O                      the heads split d as multi_head() does
    logits = U W_U,  loss = mean −log softmax(logits)[target]

Two layers (induction): the first answers at every position and adds to its input,
X₂ = X + U₁, the residual stream; the second reads X₂ as above. The first layer's parameters
are named "1.W_Q" and so on; the last layer's keep the plain names, so code that reads "W_Q"
reads the layer whose weights are shown.

The backward pass runs the forward in reverse, one line per line (micrograd's idea, by hand):
each gradient has the shape of what it is the gradient of. tests/core/test_training.py checks
every parameter against central finite differences.

A task may build its tokens from features (key lookup's pair "C→5" is the key C and the value
5): `features` (vocab × F, 0/1) says which, E has one row per feature, and a token's embedding
is the sum of its features' rows. Without features, each token has its own row.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .normalize import softmax
from .scores import SCORE_FUNCTIONS, swap

Params = dict[str, np.ndarray]


@dataclass(frozen=True, eq=False)
class Architecture:
    """How the model is built beyond its parameters: its score function (one of scores.py's),
    its number of heads, whether a position sees only itself and earlier ones (`causal`), and
    the features its tokens are made of (vocab × F of 0/1; None: each token its own row of E).
    """

    score: str
    heads: int
    causal: bool = False
    features: np.ndarray | None = None


LAYER_NAMES = ("W_Q", "W_K", "W_V", "W_O")
EMBEDDING_SCALE = 0.5
SCORE_PARAMETERS = {  # what each score function learns beyond W_Q, W_K, W_V, W_O
    "dot": (),
    "scaled_dot": (),
    "general": ("W",),  # heads × d_h × d_h: score kᵀ W q
    "concat": ("W_a", "v_a"),  # heads × d_h × 2·d_h and heads × d_h: v_aᵀ tanh(W_a [q; k])
    "location": ("W_a",),  # heads × L × d_h: scores W_a q, no keys (and no W_K)
}


@dataclass(frozen=True, eq=False)
class LayerPass:
    """One attention layer's intermediate arrays (H heads, B examples, T answering positions)."""

    x: np.ndarray  # B × L × d: the layer's input
    read: slice  # the T positions whose queries are asked
    params: Params  # the layer's parameters under their plain names
    q: np.ndarray  # H × B × d_h × T: one query per column
    k: np.ndarray | None  # H × B × d_h × L (None for location, which uses no keys)
    v: np.ndarray  # H × B × d_h × L
    parts: dict[str, np.ndarray]  # what the score function returned: S and its pieces
    weights: np.ndarray  # H × B × L × T: each column sums to 1
    heads_out: np.ndarray  # B × T × d: concat(O_1 … O_h)
    out: np.ndarray  # B × T × d: concat(O_1 … O_h) W_O


@dataclass(frozen=True, eq=False)
class ForwardPass:
    """Every array of the model on a batch: the layers, the logits and the loss."""

    layers: tuple[LayerPass, ...]
    logits: np.ndarray  # B × T × vocab
    probabilities: np.ndarray  # B × T × vocab, each row sums to 1
    loss: float  # mean −log p(target), or NaN without targets

    @property
    def weights(self) -> np.ndarray:
        """The last layer's attention, B × H × T × L: each output's weights over the inputs."""
        return self.layers[-1].weights.transpose(1, 0, 3, 2)

    @property
    def predictions(self) -> np.ndarray:
        """B × T: the most probable token of each output."""
        return self.logits.argmax(axis=-1)


# ---------------------------------------------------------------------------------------------
# Parameters


def init_params(
    rng: np.random.Generator,
    model: Architecture,
    vocab: int,
    length: int,
    d_model: int,
    layers: int = 1,
) -> Params:
    """Random parameters: embeddings of standard deviation 1/2, matrices scaled by 1/√(fan-in).

    The scores then start small, so attention starts near uniform and no position is favoured
    before training has seen why (with unit embeddings, one seed in ten of key lookup settled
    on a wrong match it never left)."""
    score, heads = model.score, model.heads
    d, d_h = d_model, d_model // heads
    normal = rng.standard_normal
    rows = vocab if model.features is None else model.features.shape[1]
    params = {"E": normal((rows, d)) * EMBEDDING_SCALE, "P": normal((length, d)) * EMBEDDING_SCALE}
    for layer in range(layers):
        prefix = "" if layer == layers - 1 else f"{layer + 1}."
        for name in LAYER_NAMES:
            if not (name == "W_K" and score == "location"):
                params[prefix + name] = normal((d, d)) / math.sqrt(d)
        shapes = {
            "W": (heads, d_h, d_h),
            "W_a": (heads, length, d_h) if score == "location" else (heads, d_h, 2 * d_h),
            "v_a": (heads, d_h),
        }
        for name in SCORE_PARAMETERS[score]:
            params[prefix + name] = normal(shapes[name]) / math.sqrt(shapes[name][-1])
    params["W_U"] = normal((d, vocab)) / math.sqrt(d)
    return params


def layer_count(params: Params) -> int:
    return 2 if "1.W_Q" in params else 1


def layer_params(params: Params, layer: int) -> Params:
    """Layer `layer`'s (0-based) attention parameters under their plain names."""
    if layer_count(params) == 1:
        return params  # already plain; the embeddings beside them are never read as a layer's
    prefix = "" if layer == layer_count(params) - 1 else f"{layer + 1}."
    return {
        name[len(prefix) :]: array
        for name, array in params.items()
        if name.startswith(prefix) and name[len(prefix) :] in (*LAYER_NAMES, "W", "W_a", "v_a")
    }


# ---------------------------------------------------------------------------------------------
# Forward


def split_heads(m: np.ndarray, heads: int) -> np.ndarray:
    """B × n × d → H × B × d_h × n: head i takes columns i·d_h … (i+1)·d_h − 1, one query
    (or key, or value) per column."""
    B, n, d = m.shape
    return m.reshape(B, n, heads, d // heads).transpose(2, 0, 3, 1)


def merge_heads(m: np.ndarray) -> np.ndarray:
    """H × B × d_h × n → B × n × d: the heads side by side, concat(O_1 … O_h)."""
    H, B, d_h, n = m.shape
    return m.transpose(1, 3, 0, 2).reshape(B, n, H * d_h)


def score_arguments(p: Params, score: str) -> dict[str, np.ndarray]:
    """The score function's own parameters, one per head, broadcast over the batch."""
    if score == "general":
        return {"W": p["W"][:, None]}  # H × 1 × d_h × d_h
    if score == "concat":
        return {"Wa": p["W_a"][:, None], "va": p["v_a"][:, None]}  # H × 1 × d_h × 2d_h, H × 1 × d_h
    if score == "location":
        return {"Wa": p["W_a"][:, None]}  # H × 1 × L × d_h
    return {}


def attention_layer(
    p: Params, x: np.ndarray, read: slice, score: str, heads: int, causal: bool
) -> LayerPass:
    """One multi-head attention layer whose queries are asked at positions `read`."""
    q = split_heads(x[:, read] @ p["W_Q"], heads)  # H × B × d_h × T
    k = None if score == "location" else split_heads(x @ p["W_K"], heads)  # H × B × d_h × L
    v = split_heads(x @ p["W_V"], heads)  # H × B × d_h × L
    parts = SCORE_FUNCTIONS[score](q, k, **score_arguments(p, score))  # S: H × B × L × T
    mask = None
    if causal:  # key j is visible to the query at position t when j ≤ t
        positions = np.arange(x.shape[1])
        mask = positions[:, None] <= positions[read][None, :]  # L × T
    weights = softmax(parts["S"], axis=-2, mask=mask)  # H × B × L × T, columns sum to 1
    heads_out = merge_heads(v @ weights)  # O_i = V_i A_i, side by side: B × T × d
    out = heads_out @ p["W_O"]  # B × T × d
    return LayerPass(x, read, p, q, k, v, parts, weights, heads_out, out)


def embed(params: Params, inputs: np.ndarray, features: np.ndarray | None) -> np.ndarray:
    """X = E[tokens] + P, or F[tokens] E + P when tokens are made of features: B × L × d."""
    if features is None:
        return params["E"][inputs] + params["P"]
    return features[inputs] @ params["E"] + params["P"]  # (B × L × F)(F × d)


def forward(
    params: Params,
    model: Architecture,
    inputs: np.ndarray,
    targets: np.ndarray | None,
    outputs: int | None = None,
) -> ForwardPass:
    """The model on a batch of token rows (B × L); outputs at the last T positions, where T is
    the targets' width (or `outputs` without targets)."""
    L = inputs.shape[1]
    T = targets.shape[1] if targets is not None else (outputs or L)
    x = embed(params, inputs, model.features)  # B × L × d
    passes = []
    for layer in range(layer_count(params)):
        last = layer == layer_count(params) - 1
        read = slice(L - T, L) if last else slice(0, L)
        p = layer_params(params, layer)
        passes.append(attention_layer(p, x, read, model.score, model.heads, model.causal))
        if not last:
            x = x + passes[-1].out  # the residual stream: B × L × d
    logits = passes[-1].out @ params["W_U"]  # B × T × vocab
    shifted = logits - logits.max(axis=-1, keepdims=True)  # exp cannot overflow
    exponentials = np.exp(shifted)
    sums = exponentials.sum(axis=-1)  # B × T
    loss = math.nan
    if targets is not None:  # −log p(target) = log Σ exp − shifted logit of the target
        loss = float((np.log(sums) - shifted[_at(targets)]).mean())
    return ForwardPass(tuple(passes), logits, exponentials / sums[..., None], loss)


def _at(targets: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The index [b, t, targets[b, t]] of each output's target in a B × T × vocab array."""
    B, T = targets.shape
    return np.arange(B)[:, None], np.arange(T)[None, :], targets


# ---------------------------------------------------------------------------------------------
# Backward: each function takes the gradient of what its forward made, returns its inputs'


def score_backward(
    dS: np.ndarray, layer: LayerPass, p: Params, score: str
) -> tuple[np.ndarray, np.ndarray | None, Params]:
    """∂loss/∂q, ∂loss/∂k and the score parameters' gradients, from ∂loss/∂S (H × B × L × T)."""
    q, k = layer.q, layer.k  # H × B × d_h × T, H × B × d_h × L
    if score in ("dot", "scaled_dot"):  # S = kᵀq (/ √d_h)
        scale = 1.0 if score == "dot" else 1.0 / math.sqrt(q.shape[-2])
        return scale * (k @ dS), scale * (q @ swap(dS)), {}  # d_h × T, d_h × L
    if score == "general":  # S = kᵀ (W q)
        W = p["W"][:, None]  # H × 1 × d_h × d_h
        dWq = k @ dS  # H × B × d_h × T
        dk = layer.parts["WQ"] @ swap(dS)  # H × B × d_h × L
        return swap(W) @ dWq, dk, {"W": (dWq @ swap(q)).sum(axis=1)}  # W: H × d_h × d_h
    if score == "location":  # S = W_a q
        Wa = p["W_a"][:, None]  # H × 1 × L × d_h
        return swap(Wa) @ dS, None, {"W_a": (dS @ swap(q)).sum(axis=1)}  # W_a: H × L × d_h
    # concat: S = Σ_h v_a,h tanh(W_q q + W_k k)_h, for each key (m) and query (n)
    d_h = q.shape[-2]
    hidden = np.tanh(layer.parts["WkK"][..., :, :, None] + layer.parts["WqQ"][..., :, None, :])
    # hidden: H × B × h × L × T
    dva = np.einsum("xbmn,xbhmn->xh", dS, hidden)  # H × h
    dpre = dS[:, :, None] * p["v_a"][:, None, :, None, None] * (1 - hidden**2)  # H×B×h×L×T
    dWqQ, dWkK = dpre.sum(axis=-2), dpre.sum(axis=-1)  # H × B × h × T, H × B × h × L
    Wq, Wk = p["W_a"][:, None, :, :d_h], p["W_a"][:, None, :, d_h:]  # H × 1 × h × d_h
    dWa = np.concatenate(
        [(dWqQ @ swap(q)).sum(axis=1), (dWkK @ swap(k)).sum(axis=1)], axis=-1
    )  # H × h × 2d_h
    return swap(Wq) @ dWqQ, swap(Wk) @ dWkK, {"W_a": dWa, "v_a": dva}


def attention_layer_backward(
    dout: np.ndarray, layer: LayerPass, p: Params, score: str
) -> tuple[np.ndarray, Params]:
    """∂loss/∂x (B × L × d) and the layer's parameter gradients, from ∂loss/∂out (B × T × d)."""
    d = dout.shape[-1]
    heads = layer.q.shape[0]
    grads = {"W_O": layer.heads_out.reshape(-1, d).T @ dout.reshape(-1, d)}  # d × d
    dO = split_heads(dout @ p["W_O"].T, heads)  # H × B × d_h × T
    A = layer.weights  # H × B × L × T
    dA = swap(layer.v) @ dO  # H × B × L × T
    dv = dO @ swap(A)  # H × B × d_h × L
    dS = A * (dA - (A * dA).sum(axis=-2, keepdims=True))  # softmax, down each column
    dq, dk, grads_score = score_backward(dS, layer, p, score)
    grads.update(grads_score)
    x, read = layer.x, layer.read
    dQ, dV = merge_heads(dq), merge_heads(dv)  # B × T × d, B × L × d
    grads["W_Q"] = x[:, read].reshape(-1, d).T @ dQ.reshape(-1, d)  # d × d
    grads["W_V"] = x.reshape(-1, d).T @ dV.reshape(-1, d)  # d × d
    dx = dV @ p["W_V"].T  # B × L × d
    dx[:, read] += dQ @ p["W_Q"].T
    if dk is not None:
        dK = merge_heads(dk)  # B × L × d
        grads["W_K"] = x.reshape(-1, d).T @ dK.reshape(-1, d)  # d × d
        dx += dK @ p["W_K"].T
    return dx, grads


def backward(
    params: Params, model: Architecture, inputs: np.ndarray, targets: np.ndarray, run: ForwardPass
) -> Params:
    """∂(mean cross-entropy)/∂ every parameter, from the forward pass `run`."""
    B, T = targets.shape
    dlogits = run.probabilities.copy()  # softmax − one-hot, averaged: B × T × vocab
    dlogits[_at(targets)] -= 1
    dlogits /= B * T
    d = params["W_U"].shape[0]
    grads = {"W_U": run.layers[-1].out.reshape(-1, d).T @ dlogits.reshape(B * T, -1)}
    dout = dlogits @ params["W_U"].T  # B × T × d
    layers = len(run.layers)
    dx = None  # ∂loss/∂x of the layer below the one being walked back: B × L × d
    for layer in reversed(range(layers)):
        prefix = "" if layer == layers - 1 else f"{layer + 1}."
        dx_layer, grads_layer = attention_layer_backward(
            dout, run.layers[layer], run.layers[layer].params, model.score
        )
        grads.update({prefix + name: g for name, g in grads_layer.items()})
        # the residual x₂ = x + out: x's gradient is x₂'s plus what flows back through out
        dx = dx_layer if dx is None else dx + dx_layer
        dout = dx
    # every use of a token (or of a feature) adds its gradient to that row of E
    features = model.features
    used = np.eye(len(params["E"]))[inputs] if features is None else features[inputs]
    dE = used.reshape(B * len(inputs[0]), -1).T @ dx.reshape(-1, d)  # rows of E × d
    grads["E"], grads["P"] = dE, dx.sum(axis=0)
    return {name: grads[name] for name in params}


def gradients(
    params: Params, model: Architecture, inputs: np.ndarray, targets: np.ndarray
) -> tuple[float, Params]:
    """The loss and its gradient for every parameter."""
    run = forward(params, model, inputs, targets)
    return run.loss, backward(params, model, inputs, targets, run)
