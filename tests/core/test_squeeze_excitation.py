"""Squeeze-and-Excitation, checked against a plain loop, and read as attention: sigmoid gates are
non-negative without summing to 1 (d2l's cone); the softmax version sums to 1 (the hull)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_core import AttentionInputError
from attention_core.squeeze_excitation import squeeze_excitation

X = np.array([[1.0, 2.0, 3.0, 2.0], [0.0, -1.0, 1.0, 0.0], [4.0, 4.0, 0.0, 0.0]])  # C = 3, P = 4
W1 = np.array([[1.0, 0.5, -0.5], [0.0, 1.0, 1.0]])  # r = 2
W2 = np.array([[1.0, -1.0], [0.5, 0.5], [-1.0, 2.0]])


def se_by_loop(x, w1, w2):
    channels, pixels = len(x), len(x[0])
    z = [sum(x[c]) / pixels for c in range(channels)]
    h = [max(0.0, sum(w1[j][c] * z[c] for c in range(channels))) for j in range(len(w1))]
    a = [sum(w2[c][j] * h[j] for j in range(len(h))) for c in range(channels)]
    s = [1 / (1 + math.exp(-v)) for v in a]
    return z, h, s, [[s[c] * x[c][p] for p in range(pixels)] for c in range(channels)]


def test_each_step_matches_a_plain_loop():
    se = squeeze_excitation(X, W1, W2)
    z, h, s, y = se_by_loop(X.tolist(), W1.tolist(), W2.tolist())
    np.testing.assert_allclose(se.squeezed, z)
    np.testing.assert_allclose(se.hidden, h)
    np.testing.assert_allclose(se.gates, s)
    np.testing.assert_allclose(se.output, y)
    assert [step.key for step in se.steps] == [
        "se_squeeze",
        "se_reduce",
        "se_relu",
        "se_expand",
        "se_gate_sigmoid",
        "se_scale",
    ]


entries = st.floats(-50.0, 50.0, allow_nan=False)


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 4), st.integers(1, 6), st.integers(1, 3), st.data())
def test_sigmoid_gates_are_a_cone_and_softmax_gates_a_hull(channels, pixels, r, data):
    x = data.draw(arrays(float, (channels, pixels), elements=entries))
    w1 = data.draw(arrays(float, (r, channels), elements=entries))
    w2 = data.draw(arrays(float, (channels, r), elements=entries))
    sigmoid = squeeze_excitation(x, w1, w2)
    assert np.all(sigmoid.gates >= 0) and np.all(sigmoid.gates <= 1)
    assert np.isfinite(sigmoid.output).all()
    softmax = squeeze_excitation(x, w1, w2, gate="softmax")
    assert softmax.gate_sum == pytest.approx(1.0)
    assert np.all(softmax.gates >= 0)


def test_sigmoid_weights_need_not_sum_to_one():
    se = squeeze_excitation(X, W1, W2)
    assert se.gate_sum != pytest.approx(1.0)
    # all gates equal to σ(0) = 1/2 when the excitation is silenced: sum C/2
    silent = squeeze_excitation(X, np.zeros((2, 3)), np.zeros((3, 2)))
    assert silent.gates.tolist() == [0.5, 0.5, 0.5] and silent.gate_sum == 1.5


@pytest.mark.parametrize(
    ("args", "kwargs", "code"),
    [
        (([[]], W1, W2), {}, "empty"),
        ((np.zeros((0, 3)), W1, W2), {}, "empty"),
        (([[1.0, math.nan], [0.0, 1.0], [1.0, 1.0]], W1, W2), {}, "not_finite"),
        ((X, np.ones((2, 2)), W2), {}, "weight_shape"),
        ((X, W1, np.ones((2, 2))), {}, "weight_shape"),
        ((X, W1, W2), {"gate": "tanh"}, "unknown_gate"),
        ((X * 1e300, W1 * 1e300, W2), {}, "overflow"),
    ],
)
def test_bad_input_raises_a_coded_error(args, kwargs, code):
    with pytest.raises(AttentionInputError) as caught:
        squeeze_excitation(*args, **kwargs)
    assert caught.value.code == code
