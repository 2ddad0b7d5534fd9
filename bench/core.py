"""How much does the step-by-step engine cost over a bare NumPy attention?

Run from the repository root:

    python bench/core.py

`attention(Q, K, V, "scaled_dot")` checks its input and every computed matrix, so it cannot be
faster than the five-line reference below; the target is to stay within 1.3× of it at realistic
sizes. Its steps (what the app shows) are recorded when first read, so a caller that wants only
the output does not keep every intermediate matrix alive; "with steps" reads them too (no
target: it is the app's path, at the app's small sizes). All run in this process on the same
inputs, interleaved (so a noisy neighbour or a CPU frequency change hits them alike), and each
size reports the median of its repeats. This script prints; it never asserts, because timings
depend on the machine.

On a busy machine the multi-threaded BLAS makes both timings jump around; pinning it to one
thread gives steadier ratios:

    OPENBLAS_NUM_THREADS=1 python bench/core.py
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

from attention_core import attention

TARGET = 1.3  # attention / reference, at the sizes marked below
SIZES = (  # (d, n, m, repeats, held to the target)
    (8, 8, 8, 2001, False),
    (64, 256, 256, 201, True),
    (64, 1024, 1024, 41, True),
)


def reference(Q: np.ndarray, K: np.ndarray, V: np.ndarray) -> np.ndarray:
    """Scaled dot-product attention in column layout, nothing else."""
    S = K.T @ Q / math.sqrt(Q.shape[0])  # m × n
    S -= S.max(axis=0)  # stable softmax: each column's max becomes 0
    E = np.exp(S)
    A = E / E.sum(axis=0)  # each query's weights sum to 1
    return V @ A  # d × n


def time_once(fn, *args) -> float:
    start = time.perf_counter()
    fn(*args)
    return time.perf_counter() - start


def engine(Q: np.ndarray, K: np.ndarray, V: np.ndarray) -> np.ndarray:
    return attention(Q, K, V, "scaled_dot").output


def engine_with_steps(Q: np.ndarray, K: np.ndarray, V: np.ndarray) -> tuple:
    return attention(Q, K, V, "scaled_dot").steps


def measure(d: int, n: int, m: int, repeats: int) -> tuple[float, float, float]:
    """Median seconds of (engine, engine with steps, reference), interleaved, after a warm-up."""
    rng = np.random.default_rng(0)
    Q, K, V = rng.normal(size=(d, n)), rng.normal(size=(d, m)), rng.normal(size=(d, m))
    np.testing.assert_allclose(engine(Q, K, V), reference(Q, K, V), rtol=1e-10, atol=1e-12)
    for _ in range(3):  # warm caches and the BLAS thread pool
        engine(Q, K, V)
        engine_with_steps(Q, K, V)
        reference(Q, K, V)
    runs = {engine: [], engine_with_steps: [], reference: []}
    for i in range(repeats):  # rotate which goes first, so none always runs "warm"
        order = list(runs)[i % 3 :] + list(runs)[: i % 3]
        for fn in order:
            runs[fn].append(time_once(fn, Q, K, V))
    return tuple(statistics.median(times) for times in runs.values())


def blas_summary() -> str:
    """One line on NumPy's BLAS, which decides the matrix-product part of both timings."""
    try:
        config = np.show_config(mode="dicts")
        blas = config["Build Dependencies"]["blas"]
        text = f"{blas.get('name')} {blas.get('version')}"
    except Exception:  # informative only: never let it stop the benchmark
        text = "unknown BLAS"
    try:
        from threadpoolctl import threadpool_info  # optional

        pools = [f"{p['internal_api']}: {p['num_threads']} thread(s)" for p in threadpool_info()]
        text += ("; " + ", ".join(pools)) if pools else ""
    except ImportError:
        text += f"; {os.cpu_count()} CPU(s) visible (install threadpoolctl for thread counts)"
    pinned = [
        f"{name}={os.environ[name]}"
        for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")
        if name in os.environ
    ]
    return text + (f"; {', '.join(pinned)}" if pinned else "")


def main() -> None:
    print(f"NumPy {np.__version__}, {blas_summary()}")
    print("attention(Q, K, V, 'scaled_dot').output, and with its steps read, vs a five-line NumPy")
    print("reference\n")
    header = (
        f"{'d':>4} {'n':>5} {'m':>5} {'repeats':>8} {'attention':>12} {'reference':>12} "
        f"{'ratio':>7} {'with steps':>11}  verdict"
    )
    print(header)
    print("-" * len(header))
    for d, n, m, repeats, held in SIZES:
        ours, with_steps, theirs = measure(d, n, m, repeats)
        ratio = ours / theirs
        if held:
            verdict = f"PASS (≤ {TARGET}×)" if ratio <= TARGET else f"ABOVE TARGET ({TARGET}×)"
        else:
            verdict = "(no target: fixed overhead dominates)"
        print(
            f"{d:>4} {n:>5} {m:>5} {repeats:>8} {ours * 1e3:>10.3f}ms {theirs * 1e3:>10.3f}ms "
            f"{ratio:>6.2f}× {with_steps / theirs:>10.2f}×  {verdict}"
        )


if __name__ == "__main__":
    main()
