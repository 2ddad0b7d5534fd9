"""The regression page's pure helpers: training-data presets, the queries along the axis, the
gaps in a prediction curve, and the claims about σ that are shown only when they hold.

No Streamlit here: tests call these directly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

PRESETS = ("noisy", "sine", "step", "few", "outlier")
NOISE = 0.5  # d2l's noise: y = f(x) + ε, ε ~ N(0, 0.5²)
CURVE_POINTS = 201  # the prediction curve is the engine's prediction at this many queries
# A claim about σ holds when the numbers say so within these tolerances.
NEAREST_SHARE = 0.99  # one weight carries at least 99 % of the query's weight
MEAN_SPREAD = 0.01  # every weight within 1 % of 1/m


def d2l_function(x: np.ndarray) -> np.ndarray:
    """d2l's example: f(x) = 2 sin(x) + x."""
    return 2 * np.sin(x) + x


def _step(x: np.ndarray) -> np.ndarray:
    return np.where(x < 2.5, 0.0, 2.0)


def _line(x: np.ndarray) -> np.ndarray:
    return 0.5 * x + 1


# Each preset's true function (the one its points come from) and its formula.
TRUE_FUNCTIONS: dict[str, tuple[Callable[[np.ndarray], np.ndarray], str]] = {
    "noisy": (d2l_function, r"f(x) = 2\sin x + x"),
    "sine": (np.sin, r"f(x) = \sin x"),
    "step": (_step, r"f(x) = \begin{cases} 0 & x < 2.5 \\ 2 & x \ge 2.5 \end{cases}"),
    "few": (d2l_function, r"f(x) = 2\sin x + x"),
    "outlier": (_line, r"f(x) = 0.5x + 1"),
}


def preset_points(name: str, seed: int = 0, count: int = 20) -> tuple[np.ndarray, np.ndarray]:
    """The training points (x, y) of a preset, x ascending.

    'noisy' is d2l's: `count` x drawn uniformly from [0, 5] with the given seed, y = f(x) plus
    Gaussian noise of standard deviation 0.5. The others are fixed: a sine, a step, three
    points, a line with one outlier.
    """
    function = TRUE_FUNCTIONS[name][0]
    if name == "noisy":
        rng = np.random.default_rng(seed)
        x = np.sort(rng.uniform(0, 5, count))
        y = function(x) + rng.normal(0, NOISE, count)
    elif name == "sine":
        x = np.linspace(0, 2 * np.pi, 12)
        y = function(x)
    elif name == "step":
        x = np.linspace(0, 5, 10)
        y = function(x)
    elif name == "few":
        x = np.array([0.5, 2.0, 4.0])
        y = function(x)
    else:  # outlier: points on a line, the seventh far above it
        x = np.linspace(0, 5, 10)
        y = function(x)
        y[6] = 6.0
    return np.round(x, 3), np.round(y, 3)


def axis_range(x_train: np.ndarray) -> tuple[float, float]:
    """Where queries go: the data's span and a tenth more on each side (±1 around one x)."""
    low, high = float(np.min(x_train)), float(np.max(x_train))
    margin = 0.1 * (high - low) if high > low else 1.0
    return low - margin, high + margin


def queries_along(x_train: np.ndarray, count: int) -> np.ndarray:
    """`count` evenly spaced queries x* over `axis_range` (rounded so labels stay short)."""
    low, high = axis_range(x_train)
    return np.round(np.linspace(low, high, count), 3)


def gaps(x: np.ndarray, reached: np.ndarray) -> list[tuple[float, float]]:
    """The stretches of consecutive queries with no prediction, as (first x, last x)."""
    stretches, start = [], None
    for position, ok in enumerate(reached):
        if not ok and start is None:
            start = position
        if ok and start is not None:
            stretches.append((float(x[start]), float(x[position - 1])))
            start = None
    if start is not None:
        stretches.append((float(x[start]), float(x[-1])))
    return stretches


@dataclass(frozen=True)
class SigmaClaim:
    """What one query's weights are at this σ: 'nearest' (one point has ≥ 99 % of the weight),
    'mean' (every weight within 1 % of 1/m), 'between', or 'none' (no prediction)."""

    kind: str
    point: int  # 0-based index of the point with the largest weight
    share: float  # that largest weight
    value: float  # the y the claim is about: that point's y, or the mean of all y


def sigma_claim(weights: np.ndarray, y_train: np.ndarray) -> SigmaClaim:
    """Classify one query's weight row (length m) against y."""
    weights = np.asarray(weights, dtype=float)
    point = int(np.argmax(weights))
    share = float(weights[point])
    if share == 0:
        return SigmaClaim("none", point, 0.0, float("nan"))
    m = weights.size
    if share >= NEAREST_SHARE and m > 1:
        return SigmaClaim("nearest", point, share, float(y_train[point]))
    if np.max(np.abs(weights - 1 / m)) <= MEAN_SPREAD / m:
        return SigmaClaim("mean", point, share, float(np.mean(y_train)))
    return SigmaClaim("between", point, share, float(y_train[point]))


def duplicate_positions(x: np.ndarray, rows: list[int]) -> dict[float, list[int]]:
    """x values that occur more than once, each with the table rows that hold it."""
    found: dict[float, list[int]] = {}
    for value, row in zip(x, rows, strict=True):
        found.setdefault(float(value), []).append(row)
    return {value: where for value, where in found.items() if len(where) > 1}
