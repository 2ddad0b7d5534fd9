"""Nadaraya–Watson kernel regression: attention pooling with scalar queries, keys and values.

Implements d2l's next section ("Attention Pooling by Similarity"): the keys are the positions
xᵢ of observed data, the values their yᵢ, and a query x* asks for a prediction there:

    αᵢ(x*) = κ((x* − xᵢ)/σ) / Σⱼ κ((x* − xⱼ)/σ),      ŷ(x*) = Σᵢ αᵢ(x*) yᵢ

with d2l's kernels κ: Gaussian exp(−u²/2), boxcar 1[|u| < 1], constant 1, the triangular
max(0, 1 − |u|) (which d2l calls "Epanechikov"), and the Epanechnikov kernel itself,
¾ max(0, 1 − u²); a bandwidth σ > 0. A query that no training point reaches (Σⱼ κ = 0, which
the kernels of bounded support allow) has no prediction: its weights are all 0 and its ŷ is NaN.

The Gaussian is computed as the softmax of the scores −u²/2 (subtract each query's largest
score before exp), which gives the same weights but never 0/0: σ → 0 tends to a nearest-
neighbour lookup instead of underflowing. That is also the lesson: σ plays the temperature.

Shapes: n queries, m training points; every matrix is n × m (one query per row, as d2l draws
the weights), sums and predictions are n × 1 in the steps. The steps a learner is shown are
recorded apart, from the matrices computed here (regression_steps.py), as steps.py records
`attention`'s.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from numbers import Real
from typing import Any

import numpy as np

from .attention import attention
from .errors import AttentionInputError
from .normalize import softmax_stages
from .regression_steps import RegressionRun, regression_steps
from .steps import Step
from .validation import check_finite

KERNELS = ("gaussian", "boxcar", "constant", "triangular", "epanechnikov")
# Kernels that are 0 for |u| ≥ 1: a query farther than σ from every point is not reached.
BOUNDED_KERNELS = ("boxcar", "triangular", "epanechnikov")


@dataclass(frozen=True)
class NadarayaWatsonResult:
    """Weights, predictions and the ordered steps of one Nadaraya–Watson regression.

    `layout` is "row" (one query per row) so the app's step display reads it like an
    `AttentionResult` in row layout.
    """

    x_query: np.ndarray  # n
    x_train: np.ndarray  # m
    y_train: np.ndarray  # m
    kernel: str
    bandwidth: float
    weights: np.ndarray  # n × m; each row sums to 1, or is all 0 where nothing is reached
    prediction: np.ndarray  # n; NaN where no training point is reached
    sums: np.ndarray  # n; Σⱼ κ for each query (for the Gaussian: of exp(score − max))
    steps: tuple[Step, ...]
    layout: str = "row"

    @property
    def score(self) -> str:
        """The kernel, under the name `AttentionResult` gives its score function (so the app's
        step display and export read both results alike)."""
        return self.kernel

    @property
    def reached(self) -> np.ndarray:
        """n booleans: True where some training point reaches the query (a prediction exists)."""
        return self.sums > 0

    def step(self, key: str) -> Step:
        """The step called `key` (e.g. 'nw_weights'); KeyError if this run has none."""
        for step in self.steps:
            if step.key == key:
                return step
        raise KeyError(key)


@dataclass(frozen=True)
class LeaveOneOut:
    """Leave-one-out error of Nadaraya–Watson against the bandwidth.

    For each σ, every training point is predicted from the others; `errors` is the mean
    squared error over the points that got a prediction (NaN if none did), `predicted` how many
    did. `best` indexes the σ with the smallest error among those that predict every point
    (None when no σ does).
    """

    bandwidths: np.ndarray  # k
    errors: np.ndarray  # k
    predicted: np.ndarray  # k ints, each 0 … m
    count: int  # m, the number of training points
    kernel: str
    best: int | None = field(default=None)

    @property
    def best_bandwidth(self) -> float | None:
        return None if self.best is None else float(self.bandwidths[self.best])


def nadaraya_watson(
    x_query: Any, x_train: Any, y_train: Any, kernel: str = "gaussian", bandwidth: float = 1.0
) -> NadarayaWatsonResult:
    """Predict y at each query by kernel-weighted averaging of the training points: weights
    n × m and a prediction of length n, with the steps that compute them (regression_steps.py).

    Parameters
    ----------
    x_query : array_like, n numbers, where predictions are wanted (the queries)
    x_train : array_like, m numbers, the training inputs (the keys); repeats are allowed
    y_train : array_like, m numbers, the training outputs (the values)
    kernel : one of KERNELS
    bandwidth : float, σ > 0 and finite

    Raises
    ------
    AttentionInputError (a ValueError) with a code: empty_data, data_not_numeric,
    data_not_finite, data_ndim, data_length_mismatch, unknown_kernel, bad_bandwidth, overflow.
    """
    sigma, queries, x, y = _check_inputs(x_query, x_train, y_train, kernel, bandwidth)
    differences = queries[:, None] - x[None, :]  # n × m
    with np.errstate(over="ignore"):
        scaled = differences / sigma  # n × m
        squares = scaled**2
    check_finite("u²", squares)
    # the Gaussian is the softmax of −u²/2 along each query's row, the other kernels κ(u)
    softmax = softmax_stages(-squares / 2, axis=1) if kernel == "gaussian" else None
    numerators = _kernel_values(kernel, scaled) if softmax is None else softmax.exponentials
    sums = numerators.sum(axis=1)  # n
    reached = sums > 0
    # n × m; an unreached row is all 0, and 0 / 1 keeps it 0
    weights = numerators / np.where(reached, sums, 1.0)[:, None]
    prediction = np.where(reached, weights @ y, np.nan)  # n
    run = RegressionRun(
        queries,
        x,
        y,
        kernel,
        sigma,
        differences,
        scaled,
        softmax,
        numerators,
        sums,
        weights,
        prediction,
    )
    return NadarayaWatsonResult(
        x_query=queries,
        x_train=x,
        y_train=y,
        kernel=kernel,
        bandwidth=sigma,
        weights=weights,
        prediction=prediction,
        sums=sums,
        steps=regression_steps(run),
    )


def _kernel_values(kernel: str, u: np.ndarray) -> np.ndarray:
    """κ(u) entrywise, for the kernels other than the Gaussian."""
    if kernel == "boxcar":
        return (np.abs(u) < 1).astype(float)
    if kernel == "constant":
        return np.ones_like(u)
    if kernel == "triangular":
        return np.maximum(0.0, 1.0 - np.abs(u))  # d2l's "Epanechikov"
    return 0.75 * np.maximum(0.0, 1.0 - u**2)


def leave_one_out(
    x_train: Any, y_train: Any, kernel: str = "gaussian", bandwidths: Any = (1.0,)
) -> LeaveOneOut:
    """The leave-one-out squared error of Nadaraya–Watson for each bandwidth.

    Each training point i is predicted from the other m − 1 (its own weight is set to 0
    before normalizing), the error is (ŷ₋ᵢ − yᵢ)², averaged over the points that got a
    prediction. The σ with the smallest error is the non-parametric counterpart of d2l's
    trained bandwidth.

    Parameters
    ----------
    x_train, y_train : array_like, m ≥ 2 numbers each
    kernel : one of KERNELS
    bandwidths : array_like, k positive finite numbers

    Raises
    ------
    AttentionInputError: the codes of `nadaraya_watson`, and loo_too_few for m < 2.
    """
    x, y = _as_data("x_train", x_train), _as_data("y_train", y_train)
    if x.size != y.size:
        raise AttentionInputError("data_length_mismatch", n_x=x.size, n_y=y.size)
    if kernel not in KERNELS:
        raise AttentionInputError("unknown_kernel", kernel=kernel, choices=", ".join(KERNELS))
    if x.size < 2:
        raise AttentionInputError("loo_too_few", count=x.size)
    sigmas = [_as_bandwidth(s) for s in _as_data("bandwidths", bandwidths)]
    m = x.size
    errors, predicted = np.full(len(sigmas), np.nan), np.zeros(len(sigmas), dtype=int)
    differences = x[:, None] - x[None, :]  # m × m
    others = ~np.eye(m, dtype=bool)
    for index, sigma in enumerate(sigmas):
        with np.errstate(over="ignore", invalid="ignore"):
            u = differences / sigma
            squares = u**2
            if kernel == "gaussian":
                # each point's own score is masked: it is left out of its prediction
                numerators = softmax_stages(-squares / 2, axis=1, mask=others).exponentials
            else:
                numerators = np.where(others, _kernel_values(kernel, u), 0.0)
            sums = numerators.sum(axis=1)
        reached = sums > 0  # NaN (every other point overflowed away) counts as not reached
        if not reached.any():
            continue
        estimates = (numerators[reached] @ y) / sums[reached]
        errors[index] = float(np.mean((estimates - y[reached]) ** 2))
        predicted[index] = int(reached.sum())
    complete = np.flatnonzero(predicted == m)
    best = None if complete.size == 0 else int(complete[np.argmin(errors[complete])])
    return LeaveOneOut(
        bandwidths=np.array(sigmas),
        errors=errors,
        predicted=predicted,
        count=m,
        kernel=kernel,
        best=best,
    )


def bandwidth_range(x_train: Any, count: int = 41) -> np.ndarray:
    """`count` bandwidths spaced evenly on a log scale, from a quarter of the smallest gap
    between distinct xᵢ to four times their span: from nearest-neighbour to almost the mean."""
    x = np.unique(_as_data("x_train", x_train))
    if x.size < 2:
        return np.geomspace(0.01, 10.0, count)
    span = float(x[-1] - x[0])
    smallest_gap = float(np.min(np.diff(x)))
    return np.geomspace(smallest_gap / 4, span * 4, count)


# ---------------------------------------------------------------------------------------------
# Checking the inputs (once, here; the computation above may assume finite 1-D float arrays)


def _check_inputs(
    x_query: Any, x_train: Any, y_train: Any, kernel: str, bandwidth: Any
) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
    if not isinstance(kernel, str) or kernel not in KERNELS:
        raise AttentionInputError("unknown_kernel", kernel=kernel, choices=", ".join(KERNELS))
    sigma = _as_bandwidth(bandwidth)
    x, y = _as_data("x_train", x_train), _as_data("y_train", y_train)
    if x.size != y.size:
        raise AttentionInputError("data_length_mismatch", n_x=x.size, n_y=y.size)
    return sigma, _as_data("x_query", x_query), x, y


def _as_bandwidth(value: Any) -> float:
    is_real = isinstance(value, Real) and not isinstance(value, bool)
    if not is_real or not math.isfinite(value) or value <= 0:
        raise AttentionInputError("bad_bandwidth", value=value)
    return float(value)


def _as_data(name: str, data: Any) -> np.ndarray:
    """`data` as a finite 1-D float array, or an error naming `name` and the 1-based entry."""
    if isinstance(data, (str, bytes)) or np.ndim(data) == 0:
        raise AttentionInputError("data_ndim", vector=name, ndim=0)
    try:
        array = np.array(data, dtype=float)
    except (TypeError, ValueError):
        array = None
    if array is not None and array.ndim != 1:
        raise AttentionInputError("data_ndim", vector=name, ndim=array.ndim)
    if array is None:  # find the entry that is not a number
        entries = list(data)
        array = np.empty(len(entries))
        for index, entry in enumerate(entries):
            array[index] = _as_number(name, index, entry)
    if array.size == 0:
        raise AttentionInputError("empty_data", vector=name)
    if not np.isfinite(array).all():
        index = int(np.flatnonzero(~np.isfinite(array))[0])
        entry = list(data)[index]
        if entry is None or isinstance(entry, str):
            raise AttentionInputError("data_not_numeric", vector=name, index=index + 1, value=entry)
        raise AttentionInputError(
            "data_not_finite", vector=name, index=index + 1, value=float(array[index])
        )
    return array


def _as_number(name: str, index: int, entry: Any) -> float:
    if isinstance(entry, (bool, np.bool_)) or entry is None:
        raise AttentionInputError("data_not_numeric", vector=name, index=index + 1, value=entry)
    if isinstance(entry, str):
        try:
            return float(entry.strip().replace("−", "-"))
        except ValueError:
            raise AttentionInputError(
                "data_not_numeric", vector=name, index=index + 1, value=entry
            ) from None
    if isinstance(entry, Real):
        return float(entry)
    raise AttentionInputError("data_not_numeric", vector=name, index=index + 1, value=entry)


# ---------------------------------------------------------------------------------------------
# What d2l's section adds: classification with one-hot values, and the unit-sphere bridge


@dataclass(frozen=True)
class NadarayaWatsonClasses:
    """Nadaraya–Watson classification: the values are one-hot vectors of the class labels.

    `probabilities[j, c]` is query j's weight on the points of class `classes[c]` (rows sum to
    1, or are all 0 where nothing is reached); `predicted[j]` indexes the most probable class
    (the first on a tie), −1 where no point reaches the query.
    """

    classes: np.ndarray  # C distinct labels, ascending
    one_hot: np.ndarray  # m × C, the values vᵢ
    probabilities: np.ndarray  # n × C = weights @ one_hot
    predicted: np.ndarray  # n ints, −1 where unreached
    regression: NadarayaWatsonResult  # the weights (its prediction averages the labels)


def nadaraya_watson_classes(
    x_query: Any, x_train: Any, labels: Any, kernel: str = "gaussian", bandwidth: float = 1.0
) -> NadarayaWatsonClasses:
    """Classify each query by kernel-weighted voting: Σᵢ αᵢ(x*) onehot(labelᵢ).

    d2l: "In the case of (multiclass) classification, we use one-hot-encoding of yᵢ to obtain
    vᵢ". The weights are those of `nadaraya_watson` (they do not depend on the values); the
    same codes are raised.
    """
    result = nadaraya_watson(x_query, x_train, labels, kernel, bandwidth)
    classes = np.unique(result.y_train)
    one_hot = (result.y_train[:, None] == classes[None, :]).astype(float)
    probabilities = result.weights @ one_hot
    predicted = np.where(result.reached, np.argmax(probabilities, axis=1), -1)
    return NadarayaWatsonClasses(classes, one_hot, probabilities, predicted, result)


@dataclass(frozen=True)
class SphereBridge:
    """The Gaussian kernel on unit vectors against dot-product attention (d2l's exercise 3).

    On the unit circle ‖q − kᵢ‖² = 2 − 2 qᵀkᵢ, so exp(−‖q − kᵢ‖²/(2σ²)) = e^{−1/σ²} exp(qᵀkᵢ/σ²):
    the constant cancels in the normalization and the Gaussian weights are the dot-product
    attention weights at temperature τ = σ².
    """

    queries: np.ndarray  # n × 2, unit vectors (cos θ, sin θ)
    keys: np.ndarray  # m × 2
    squared_distances: np.ndarray  # n × m, ‖q − kᵢ‖²
    dots: np.ndarray  # n × m, qᵀkᵢ
    gaussian: np.ndarray  # n × m, the Gaussian kernel's weights (from the distances)
    dot_product: np.ndarray  # n × m, `attention(..., "dot", temperature=σ²)`'s weights
    temperature: float  # σ²

    @property
    def identity_gap(self) -> float:
        """max |‖q − kᵢ‖² − (2 − 2qᵀkᵢ)|: rounding only."""
        return float(np.max(np.abs(self.squared_distances - (2 - 2 * self.dots))))

    @property
    def weight_gap(self) -> float:
        """max |Gaussian weight − dot-product weight|."""
        return float(np.max(np.abs(self.gaussian - self.dot_product)))


def sphere_bridge(query_angles: Any, key_angles: Any, bandwidth: float = 1.0) -> SphereBridge:
    """Put queries and keys on the unit circle at the given angles (radians) and compute both
    weightings: the Gaussian kernel of their distance, and dot-product attention with τ = σ²."""
    sigma = _as_bandwidth(bandwidth)
    theta_q, theta_k = _as_data("x_query", query_angles), _as_data("x_train", key_angles)
    queries = np.column_stack([np.cos(theta_q), np.sin(theta_q)])
    keys = np.column_stack([np.cos(theta_k), np.sin(theta_k)])
    squared = ((queries[:, None, :] - keys[None, :, :]) ** 2).sum(axis=2)
    scores = -squared / (2 * sigma**2)
    gaussian = softmax_stages(scores, axis=1)
    gaussian_weights = gaussian.exponentials / gaussian.exponentials.sum(axis=1, keepdims=True)
    values = np.zeros((keys.shape[0], 1))
    dot = attention(queries, keys, values, "dot", temperature=sigma**2, layout="row")
    return SphereBridge(
        queries=queries,
        keys=keys,
        squared_distances=squared,
        dots=queries @ keys.T,
        gaussian=gaussian_weights,
        dot_product=np.asarray(dot.weights, dtype=float),
        temperature=sigma**2,
    )
