"""The regression page's claim walk: each sentence about σ, the chosen query, the gaps, repeated x
and the steps, built by the page's own functions from the page's `compute`, checked against the
kernels written out here, in both languages: nearest neighbour, mean, none, the underflow of
exp()."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from attention_core.formatting import fmt
from attention_core.regression import BOUNDED_KERNELS, KERNELS
from attention_ui.kit.text.i18n import LANGUAGES, step_sentence, t
from attention_ui.regression import data
from attention_ui.regression.compute import Inputs, compute
from attention_ui.regression.view import chart_caption, chosen_sentence, sigma_sentence


def kernel_reference(kernel: str, u: np.ndarray) -> np.ndarray:
    """d2l's kernels, written out here (not the engine's). The Gaussian is positive everywhere
    in exact arithmetic (the engine computes it as a softmax, so it never becomes 0/0): it is
    given as 1 here, which is all the walk asks of it (whether a point is reached)."""
    return {
        "gaussian": lambda: np.ones_like(u),
        "boxcar": lambda: (np.abs(u) < 1).astype(float),
        "constant": lambda: np.ones_like(u),
        "triangular": lambda: np.maximum(0.0, 1 - np.abs(u)),
        "epanechnikov": lambda: 0.75 * np.maximum(0.0, 1 - u**2),
    }[kernel]()


def regression_sets():
    for preset in data.PRESETS:
        yield preset, *data.preset_points(preset)
    yield "repeated x", np.array([0.0, 1.0, 1.0, 3.0]), np.array([1.0, 2.0, 4.0, 0.0])
    yield "far apart", np.array([0.0, 10.0]), np.array([-1.0, 1.0])
    yield "a query halfway", np.array([0.0, 2.0]), np.array([1.0, 3.0])  # x* = 1: a tie


def test_every_regression_sentence_holds_for_the_engines_numbers():
    seen: set[str] = set()
    for (name, x, y), kernel, sigma in itertools.product(
        regression_sets(),
        KERNELS,
        (0.02, 0.3, 1.0, 5.0, 100.0),
    ):
        rows = list(range(1, x.size + 1))
        runs = compute(Inputs(x, y, kernel, sigma, queries=7))
        nw = runs.queries
        queries = nw.x_query
        reach = kernel_reference(kernel, (queries[:, None] - x[None, :]) / sigma)
        for chosen, lang in itertools.product(range(queries.size), LANGUAGES):
            weights = nw.weights[chosen]
            distances = np.abs(x - queries[chosen])
            kind, text = sigma_sentence(nw, chosen, rows, lang)
            # The sentence under the chart: ŷ, and every row that holds the largest weight.
            under = chosen_sentence(nw, chosen, rows, lang)
            top_rows = [rows[i] for i in np.flatnonzero(weights == weights.max())]
            if reach[chosen].max() == 0:
                assert under == t("regression.chart.chosen_none", lang, name=rf"x\*{chosen + 1}",
                                  x=fmt(queries[chosen]))  # fmt: skip
            else:
                tied = "chosen_tied" if len(top_rows) > 1 else "chosen"
                assert under.split("{")[0] == under and fmt(nw.prediction[chosen]) in under
                assert under.endswith(
                    t(f"regression.chart.{tied}", lang, name="", x="", prediction="",
                      row=top_rows[0], rows=", ".join(map(str, top_rows)),
                      weight=fmt(weights.max(), 3)).split("**")[-1]
                ), (under, top_rows)  # fmt: skip
                seen.add(tied)
            seen.add(kind)
            state = (name, kernel, sigma, chosen, lang)
            # "they sum to 1" under the chart only when some point reaches the chosen query
            summed = t("regression.chart.caption_sum", lang) in chart_caption(weights, lang)
            assert summed == (abs(weights.sum() - 1) < 1e-12), state
            assert summed != (
                t("regression.chart.caption_none", lang) in chart_caption(weights, lang)
            )
            assert "{" not in text
            top = int(np.argmax(weights))
            # "no training point reaches x*": every kernel value is 0 (reference kernels)
            assert (kind == "none") == (reach[chosen].max() == 0), state
            if kind == "none":
                assert np.isnan(nw.prediction[chosen])
                continue
            if kind == "nearest":  # one point ≥ 99 %: the nearest one; ŷ ≈ its y
                distance = np.abs(x - queries[chosen])
                assert weights[top] >= 0.99 and distance[top] == distance.min(), state
                assert nw.prediction[chosen] == pytest.approx(y[top], abs=0.01 * np.ptp(y) + 1e-9)
                assert f"{rows[top]}" in text
            if kind == "mean":  # every weight within 1 % of 1/m; ŷ ≈ the mean of y; and
                # not a tie of points all nearest to x* (that is the small-σ end)
                assert np.abs(weights - 1 / x.size).max() <= 0.01 / x.size, state
                distance = np.abs(x - queries[chosen])
                assert not (distance == distance.min()).all(), state
                assert nw.prediction[chosen] == pytest.approx(y.mean(), abs=0.01 * np.ptp(y) + 1e-9)
            if kind == "nearest_shared":  # equal top weights ≥ 99 % together; ŷ ≈ their mean y
                group = np.flatnonzero(weights == weights.max())
                distance = np.abs(x - queries[chosen])
                assert group.size > 1 and weights[group].sum() >= 0.99, state
                assert (distance[group] == distance.min()).all(), state
                mean_y = y[group].mean()
                assert nw.prediction[chosen] == pytest.approx(mean_y, abs=0.01 * np.ptp(y) + 1e-9)
                assert ", ".join(str(rows[i]) for i in group) in text
            if kind in ("between", "between_shared"):
                group = np.flatnonzero(weights == weights.max())
                assert (group.size > 1) == (kind == "between_shared"), state
                at_nearest = (distances[group] == distances.min()).all()
                assert weights[group].sum() < 0.99 or not at_nearest, state
                assert np.abs(weights - 1 / x.size).max() > 0.01 / x.size
        check_gaps_and_repeated_x(x, kernel, sigma, runs)
        seen |= check_steps(name, x, kernel, sigma, nw)
    assert {
        "nearest", "nearest_shared", "mean", "between", "none", "underflow", "positive",
        "chosen_tied", "kernel constant", "kernel boxcar", "kernel epanechnikov",
    } <= seen  # fmt: skip


def test_repeated_x_is_explained_by_what_always_holds():
    for lang in LANGUAGES:
        text = t("regression.check.duplicates", lang, places="x")
        assert ("mean of their y" in text) if lang == "en" else ("平均" in text)
        assert "prediction there" not in text  # a claim about one σ only: not said


def check_gaps_and_repeated_x(x, kernel: str, sigma: float, runs) -> None:
    """The gaps under the curve are exactly the queries no point reaches; repeated x always
    get equal weights."""
    nw, curve = runs.queries, runs.curve
    rows = list(range(1, x.size + 1))
    curve_x = curve.x_query
    reached = kernel_reference(kernel, (curve_x[:, None] - x[None, :]) / sigma).max(1) > 0
    np.testing.assert_array_equal(curve.reached, reached)
    stretches = data.gaps(curve_x, curve.reached)
    inside = np.zeros(curve_x.size, dtype=bool)
    for low, high in stretches:
        inside |= (curve_x >= low) & (curve_x <= high)
    np.testing.assert_array_equal(inside, ~reached)
    # Repeated x: "they always get equal weights, one point whose y is their mean".
    for where in data.duplicate_positions(x, rows).values():
        for row in nw.weights:
            assert len({row[r - 1] for r in where}) == 1


def check_steps(name: str, x, kernel: str, sigma: float, nw) -> set[str]:
    """What the steps say of exp() and of far points holds for the run's numbers."""
    seen: set[str] = set()
    # "exp() gives each point a positive kernel value", unless it underflowed.
    for step in nw.steps:
        sentence = step_sentence(step, "en", run_steps=nw.steps)
        if step.key == "nw_exponentials":
            underflow = bool((step.value == 0).any())
            assert ("exactly 0" in sentence) == underflow, (name, kernel, sigma)
            seen.add("underflow" if underflow else "positive")
        if step.key == "nw_kernel":
            # "far points count less or not at all" is false for the constant kernel
            far = "do not count" in sentence or "counts the same" in sentence
            assert far == (kernel in BOUNDED_KERNELS), (kernel, sentence)
            if kernel == "constant":
                assert "1/m" in sentence and np.allclose(nw.weights, 1 / x.size)
            seen.add(f"kernel {kernel}")
    return seen
