"""What d2l's "Attention Pooling by Similarity" teaches, in the engine: the triangular kernel
d2l calls "Epanechikov" beside the real Epanechnikov kernel, classification with one-hot values,
and the Gaussian kernel on the unit circle as dot-product attention."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core import attention, nadaraya_watson
from attention_core.regression import KERNELS, nadaraya_watson_classes, sphere_bridge

EXAMPLE = ([1.0], [0.0, 0.6, 2.0], [0.0, 1.0, 5.0], 1.5)  # x*, x, y, σ


def test_the_triangular_and_the_epanechnikov_kernel_are_both_offered():
    assert {"triangular", "epanechnikov"} <= set(KERNELS)


def test_the_worked_example_triangular_1_714_epanechnikov_1_817():
    x_query, x, y, sigma = EXAMPLE
    triangular = nadaraya_watson(x_query, x, y, "triangular", sigma).prediction[0]
    epanechnikov = nadaraya_watson(x_query, x, y, "epanechnikov", sigma).prediction[0]
    assert round(triangular, 3) == 1.714 and round(epanechnikov, 3) == 1.817


def test_the_epanechnikov_kernel_is_three_quarters_one_minus_u_squared():
    result = nadaraya_watson([0.0], [0.0, 0.5, 1.0, 3.0], [1.0, 1.0, 1.0, 1.0], "epanechnikov", 1.0)
    kernel = result.step("nw_kernel").value[0]
    np.testing.assert_allclose(kernel, [0.75, 0.75 * 0.75, 0.0, 0.0])
    assert result.step("nw_kernel").entry(0, 1) == "κ(u₁₂) = 0.75·max(0, 1 − (−0.5)²) = 0.562"


def test_one_hot_values_give_each_class_the_weight_of_its_points():
    x, labels = [0.0, 1.0, 2.0, 3.0], [0.0, 0.0, 1.0, 2.0]
    result = nadaraya_watson_classes([0.5, 2.5, 9.0], x, labels, "boxcar", 1.0)
    assert result.classes.tolist() == [0.0, 1.0, 2.0]
    np.testing.assert_allclose(result.probabilities, [[1, 0, 0], [0, 0.5, 0.5], [0, 0, 0]])
    assert result.predicted.tolist() == [0, 1, -1]  # a tie takes the first; −1: no point


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.floats(-6, 6), min_size=1, max_size=8),
    st.floats(-6, 6),
    st.floats(0.2, 20),
)
def test_class_probabilities_are_the_regression_weights_summed_per_class(x, query, sigma):
    labels = [float(i % 3) for i in range(len(x))]
    result = nadaraya_watson_classes([query], x, labels, "gaussian", sigma)
    weights = nadaraya_watson([query], x, labels, "gaussian", sigma).weights[0]
    for index, label in enumerate(result.classes):
        chosen = [w for w, lab in zip(weights, labels, strict=True) if lab == label]
        assert result.probabilities[0, index] == pytest.approx(sum(chosen))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.floats(-10, 10), min_size=1, max_size=8),
    st.lists(st.floats(-10, 10), min_size=1, max_size=4),
    st.floats(0.3, 30),
)
def test_on_the_unit_circle_the_gaussian_kernel_is_dot_product_attention(keys, queries, sigma):
    bridge = sphere_bridge(queries, keys, sigma)
    np.testing.assert_allclose(bridge.squared_distances, 2 - 2 * bridge.dots, atol=1e-12)
    assert bridge.weight_gap <= 1e-12 and bridge.temperature == pytest.approx(sigma**2)
    dot = attention(bridge.queries, bridge.keys, np.eye(len(keys)), "dot", layout="row",
                    temperature=sigma**2)  # fmt: skip
    np.testing.assert_allclose(bridge.dot_product, dot.weights)
