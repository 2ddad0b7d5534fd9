"""The regression page's pure helpers: training-data presets, the queries along the axis, the
gaps in a prediction curve, and the claims about σ that are shown only when they hold.

No Streamlit here: tests call these directly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

PRESETS = ("noisy", "sine", "step", "few", "outlier")
NOISE = 1.0  # d2l's current section: y = f(x) + ε, ε ~ N(0, 1), n = 40
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


def preset_points(name: str, seed: int = 0, count: int = 40) -> tuple[np.ndarray, np.ndarray]:
    """The training points (x, y) of a preset, x ascending.

    'noisy' is d2l's: `count` x drawn uniformly from [0, 5] with the given seed, y = f(x) plus
    Gaussian noise of unit variance. The others are fixed: a sine, a step, three
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
    'nearest_shared' (points with equal largest weights, e.g. at the same x, have ≥ 99 % of it
    together), 'mean' (every weight within 1 % of 1/m), 'between' / 'between_shared' (the
    largest weight is on one point / on several equally), or 'none' (no prediction)."""

    kind: str
    points: tuple[int, ...]  # 0-based indices of the points with the largest weight
    share: float  # their combined weight ('between_shared': each one's weight)
    value: float  # the y the claim is about: their mean y, or the mean of all y


def sigma_claim(
    weights: np.ndarray, y_train: np.ndarray, distances: np.ndarray | None = None
) -> SigmaClaim:
    """Classify one query's weight row (length m) against y. Several equal largest weights
    are a nearest-neighbour lookup only when they are on the points nearest to the query
    (`distances`, |x* − xᵢ|): a boxcar also gives equal weights to points at different x."""
    weights, y_train = np.asarray(weights, dtype=float), np.asarray(y_train, dtype=float)
    top = weights.max()
    if not top > 0:
        return SigmaClaim("none", (int(np.argmax(weights)),), 0.0, float("nan"))
    points = tuple(int(i) for i in np.flatnonzero(weights == top))
    m, shared = weights.size, len(points) > 1
    together, their_y = float(top * len(points)), float(np.mean(y_train[list(points)]))
    nearest = distances is None or bool(np.all(distances[list(points)] == np.min(distances)))
    if together >= NEAREST_SHARE and not shared:
        return SigmaClaim("nearest", points, together, their_y)
    # Before the mean: when every point is nearest (all at one distance), their equal weights
    # are a nearest-neighbour tie, not the large-σ limit, though they are 1/m each.
    if together >= NEAREST_SHARE and shared and nearest:
        return SigmaClaim("nearest_shared", points, together, their_y)
    if np.max(np.abs(weights - 1 / m)) <= MEAN_SPREAD / m:
        return SigmaClaim("mean", points, float(top), float(np.mean(y_train)))
    return SigmaClaim("between_shared" if shared else "between", points, float(top), their_y)


def nearest_points(x_train: np.ndarray, query: float) -> tuple[int, ...]:
    """The training points nearest to the query (several at a repeated or symmetric x): as
    σ → 0 the Gaussian kernel gives them all the weight, equally."""
    distances = np.abs(np.asarray(x_train, dtype=float) - query)
    return tuple(int(i) for i in np.flatnonzero(distances == distances.min()))


def duplicate_positions(x: np.ndarray, rows: list[int]) -> dict[float, list[int]]:
    """x values that occur more than once, each with the table rows that hold it."""
    found: dict[float, list[int]] = {}
    for value, row in zip(x, rows, strict=True):
        found.setdefault(float(value), []).append(row)
    return {value: where for value, where in found.items() if len(where) > 1}
