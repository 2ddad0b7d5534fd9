"""How much does the engine's training step cost over a bare NumPy forward and backward?

Run from the repository root:

    python bench/train.py

A training step of `train_attention` is a forward pass, the hand-written backward pass and an
Adam update on a batch of 32 (attention_core/tiny_model.py, training.py). The reference below
is the same one-layer model (token and position embeddings, multi-head scaled-dot attention,
W_O, an unembedding, mean cross-entropy, Adam) written as tersely as NumPy allows, with none
of the engine's code: it checks nothing and keeps nothing for the page. Before timing, its
loss and gradients are checked against the engine's on the same batch. Both run in this
process on the same batches, interleaved step by step (a noisy neighbour hits them alike), and
each reports the median of its steps. The target is a step within 1.2× of the reference.

"whole run" is train_attention itself, as the page calls it, divided by its steps: the batches
drawn, the loss and accuracy kept, and a snapshot every 10 steps (parameters, the held-out
accuracy and weights), median of 3 runs; it has no reference, it is what a learner waits for.

This script prints; it never asserts, because timings depend on the machine.
"""

from __future__ import annotations

import math
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from anywhere

from attention_core import toy_task, train_attention
from attention_core.tiny_model import Architecture, backward, forward, init_params
from attention_core.training import Adam

TARGET = 1.2  # engine step / reference step
CASES = (  # (task, heads, d_model)
    ("reverse", 1, 16),
    ("lookup", 1, 16),
    ("previous", 2, 16),
)
STEPS = 600
BATCH = 32


def reference_step(p, m, v, t, tokens, targets, features, causal, heads, lr=5e-3):
    """Forward, backward and Adam for one batch; p, m, v: name → array, updated in place."""
    B, L = tokens.shape
    T = targets.shape[1]
    d = p["W_Q"].shape[0]
    h, dh = heads, d // heads
    onehot = np.eye(len(features))[tokens] @ features  # B × L × F
    x = onehot @ p["E"] + p["P"]  # B × L × d
    xr = x[:, L - T :]  # B × T × d
    q = (xr @ p["W_Q"]).reshape(B, T, h, dh).transpose(0, 2, 1, 3)  # B × h × T × dh
    k = (x @ p["W_K"]).reshape(B, L, h, dh).transpose(0, 2, 1, 3)  # B × h × L × dh
    val = (x @ p["W_V"]).reshape(B, L, h, dh).transpose(0, 2, 1, 3)  # B × h × L × dh
    s = q @ k.transpose(0, 1, 3, 2) / math.sqrt(dh)  # B × h × T × L
    if causal:
        s = np.where(np.arange(L)[None, :] <= np.arange(L - T, L)[:, None], s, -np.inf)
    a = np.exp(s - s.max(-1, keepdims=True))
    a /= a.sum(-1, keepdims=True)
    c = (a @ val).transpose(0, 2, 1, 3).reshape(B, T, d)  # B × T × d
    y = c @ p["W_O"]
    z = y @ p["W_U"]  # B × T × V
    z = np.exp(z - z.max(-1, keepdims=True))
    z /= z.sum(-1, keepdims=True)
    b_idx, t_idx = np.arange(B)[:, None], np.arange(T)[None, :]
    loss = -np.log(z[b_idx, t_idx, targets]).mean()
    z[b_idx, t_idx, targets] -= 1
    dz = z / (B * T)
    g = {"W_U": y.reshape(-1, d).T @ dz.reshape(B * T, -1)}
    dy = dz @ p["W_U"].T
    g["W_O"] = c.reshape(-1, d).T @ dy.reshape(-1, d)
    dc = (dy @ p["W_O"].T).reshape(B, T, h, dh).transpose(0, 2, 1, 3)
    da = dc @ val.transpose(0, 1, 3, 2)
    dval = a.transpose(0, 1, 3, 2) @ dc
    ds = a * (da - (a * da).sum(-1, keepdims=True)) / math.sqrt(dh)
    dq, dk = ds @ k, ds.transpose(0, 1, 3, 2) @ q
    dq = dq.transpose(0, 2, 1, 3).reshape(B, T, d)
    dk = dk.transpose(0, 2, 1, 3).reshape(B, L, d)
    dval = dval.transpose(0, 2, 1, 3).reshape(B, L, d)
    g["W_Q"] = xr.reshape(-1, d).T @ dq.reshape(-1, d)
    g["W_K"] = x.reshape(-1, d).T @ dk.reshape(-1, d)
    g["W_V"] = x.reshape(-1, d).T @ dval.reshape(-1, d)
    dx = dk @ p["W_K"].T + dval @ p["W_V"].T
    dx[:, L - T :] += dq @ p["W_Q"].T
    g["E"] = onehot.reshape(B * L, -1).T @ dx.reshape(B * L, d)
    g["P"] = dx.sum(0)
    for name in g:
        m[name] = 0.9 * m[name] + 0.1 * g[name]
        v[name] = 0.999 * v[name] + 0.001 * g[name] ** 2
        p[name] -= lr * (m[name] / (1 - 0.9**t)) / (np.sqrt(v[name] / (1 - 0.999**t)) + 1e-8)
    return loss, g


def engine_step(params, adam, tokens, targets, task, heads):
    model = Architecture("scaled_dot", heads, task.causal, task.features)
    run = forward(params, model, tokens, targets)
    grads = backward(params, model, tokens, targets, run)
    adam.update(params, grads)
    return run.loss, grads


def check_same_model(task, heads, d_model) -> None:
    """The reference's loss and gradients are the engine's on the same batch and parameters."""
    model = Architecture("dot", heads, task.causal, task.features)
    params = init_params(np.random.default_rng(0), model, task.vocab, task.length, d_model)
    features = task.features if task.features is not None else np.eye(task.vocab)
    tokens, targets = task.inputs[:BATCH], task.targets[:BATCH]
    copy = {name: a.copy() for name, a in params.items()}
    zeros = {name: np.zeros_like(a) for name, a in params.items()}
    ref_loss, ref_grads = reference_step(
        copy, dict(zeros), dict(zeros), 1, tokens, targets, features, task.causal, heads
    )
    loss, grads = engine_step(params, Adam(params, 5e-3), tokens, targets, task, heads)
    assert abs(loss - ref_loss) < 1e-12
    for name, g in grads.items():
        np.testing.assert_allclose(g, ref_grads[name], rtol=1e-9, atol=1e-13)


def measure(task_name: str, heads: int, d_model: int) -> tuple[float, float, float]:
    """Median seconds per step of (engine, reference), interleaved; and of a whole run."""
    task = toy_task(task_name, seed=0)
    check_same_model(task, heads, d_model)
    features = task.features if task.features is not None else np.eye(task.vocab)
    rng = np.random.default_rng(1)
    model = Architecture("scaled_dot", heads, task.causal, task.features)
    params = init_params(rng, model, task.vocab, task.length, d_model)
    ref = {name: a.copy() for name, a in params.items()}
    m = {name: np.zeros_like(a) for name, a in params.items()}
    v = {name: np.zeros_like(a) for name, a in params.items()}
    adam = Adam(params, 5e-3)
    ours, theirs = [], []
    for step in range(1, STEPS + 1):
        rows = rng.choice(len(task.inputs), BATCH, replace=False)
        tokens, targets = task.inputs[rows], task.targets[rows]
        first_engine = step % 2 == 0  # alternate which runs first
        for which in ("engine", "reference") if first_engine else ("reference", "engine"):
            start = time.perf_counter()
            if which == "engine":
                engine_step(params, adam, tokens, targets, task, heads)
                ours.append(time.perf_counter() - start)
            else:
                reference_step(ref, m, v, step, tokens, targets, features, task.causal, heads)
                theirs.append(time.perf_counter() - start)
    runs = []
    for _ in range(3):
        start = time.perf_counter()
        train_attention(task, heads=heads, d_model=d_model, steps=STEPS)
        runs.append((time.perf_counter() - start) / STEPS)
    whole = statistics.median(runs)
    return statistics.median(ours), statistics.median(theirs), whole


def main() -> None:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"NumPy {np.__version__}; load average {load:.1f} on {os.cpu_count()} CPU(s)")
    print(f"a training step (batch {BATCH}, scaled dot) against a bare NumPy reference, ")
    print(f"median of {STEPS} interleaved steps; 'whole run' is train_attention per step\n")
    header = (
        f"{'task':>9} {'heads':>5} {'d':>3} {'engine µs':>10} {'ref µs':>8} {'ratio':>6} "
        f"{'steps/s':>8} {'whole run µs':>13} {'steps/s':>8}  verdict"
    )
    print(header)
    print("-" * len(header))
    for task_name, heads, d_model in CASES:
        ours, theirs, whole = measure(task_name, heads, d_model)
        ratio = ours / theirs
        verdict = "ok" if ratio <= TARGET else f"over {TARGET}×"
        print(
            f"{task_name:>9} {heads:>5} {d_model:>3} {ours * 1e6:>10.0f} {theirs * 1e6:>8.0f} "
            f"{ratio:>6.2f} {1 / ours:>8.0f} {whole * 1e6:>13.0f} {1 / whole:>8.0f}  {verdict}"
        )


if __name__ == "__main__":
    main()
