"""The differentiable search engine: gradient descent on L(q) = −log p_target finds the target,
its gradient is the loss's (finite differences), and its work is bounded."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_core import AttentionInputError
from attention_core.geometry import in_hull
from attention_core.search import (
    MAX_LEARNING_RATE,
    MAX_SEARCH_STEPS,
    gradient_search,
    hard_lookup,
    letter_pair_vectors,
    outranking_mix,
    plane_projection,
    search_loss,
)

K = np.array([[1.0, 0.0, -1.0, 0.5], [0.0, 1.0, 0.0, 0.5]])  # four 2-D keys


def loss_by_loop(q, K, target, tau):
    """−log p_target with a plain loop over the keys (dot score)."""
    scores = [sum(K[a, i] * q[a] for a in range(K.shape[0])) / tau for i in range(K.shape[1])]
    top = max(scores)
    return -(scores[target] - top - math.log(sum(math.exp(s - top) for s in scores)))


entries = st.floats(-2.0, 2.0, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 3), st.integers(1, 5), st.data())
def test_the_gradient_equals_central_finite_differences_of_the_loss(d, m, data):
    keys = data.draw(arrays(float, (d, m), elements=entries))
    q = data.draw(arrays(float, d, elements=entries))
    target = data.draw(st.integers(0, m - 1))
    tau = data.draw(st.sampled_from([0.5, 1.0, 2.0]))
    loss, gradient, p = search_loss(q, keys, target, temperature=tau)
    assert loss == pytest.approx(loss_by_loop(q, keys, target, tau), abs=1e-12)
    h = 1e-6
    numeric = [
        (loss_by_loop(q + h * e, keys, target, tau) - loss_by_loop(q - h * e, keys, target, tau))
        / (2 * h)
        for e in np.eye(d)
    ]
    np.testing.assert_allclose(gradient, numeric, atol=1e-6)
    assert p.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("target", range(4))
def test_a_small_learning_rate_lowers_the_loss_at_every_step_and_finds_the_target(target):
    path = gradient_search([0.0, 0.0], K, target, learning_rate=0.5, steps=40)
    if target == 3:  # k₄ = (0.5, 0.5) is inside the hull of the others: it can be found only
        assert np.all(np.diff(path.losses) <= 1e-12)  # approximately, and slowly
        return
    assert np.all(np.diff(path.losses) < 0)
    assert int(np.argmax(path.weights[-1])) == target
    assert path.queries.shape == (41, 2) and path.weights.shape == (41, 4)
    assert path.losses.shape == (41,) and path.gradients.shape == (41, 2)
    np.testing.assert_allclose(path.queries[1], path.queries[0] - 0.5 * path.gradients[0])


def test_each_recorded_step_is_the_loss_and_gradient_at_that_query():
    path = gradient_search([0.3, -0.2], K, 1, learning_rate=0.3, steps=5)
    for q, loss, gradient, p in zip(
        path.queries, path.losses, path.gradients, path.weights, strict=True
    ):
        expected_loss, expected_gradient, expected_p = search_loss(q, K, 1)
        assert loss == expected_loss
        np.testing.assert_array_equal(gradient, expected_gradient)
        np.testing.assert_array_equal(p, expected_p)


def test_too_many_steps_are_capped_and_the_path_says_so():
    path = gradient_search([0.0, 0.0], K, 0, learning_rate=0.1, steps=10_000)
    assert path.capped and path.notices == ("steps_capped",)
    assert path.requested_steps == 10_000 and path.steps == MAX_SEARCH_STEPS
    assert len(path.queries) == MAX_SEARCH_STEPS + 1
    assert not gradient_search([0.0, 0.0], K, 0, steps=MAX_SEARCH_STEPS).capped


def test_a_descent_that_overflows_stops_and_says_it_diverged():
    path = gradient_search(
        [0.0, 0.0],
        [[1e300, -1e300], [0.0, 0.0]],
        0,
        learning_rate=100.0,
        steps=50,
        temperature=1e-5,
    )
    assert "diverged" in path.notices
    assert np.isfinite(path.queries).all() and np.isfinite(path.losses).all()


def test_the_hard_lookup_picks_the_best_key_and_has_no_gradient():
    hard = hard_lookup([2.0, 0.1], K, 1)
    assert hard.best == 0 and hard.weights.tolist() == [1.0, 0.0, 0.0, 0.0]
    assert not hard.gradient.any()
    # and indeed: a small move of q changes no weight, so the loss does not change
    assert hard_lookup([2.01, 0.1], K, 1).weights.tolist() == hard.weights.tolist()


def test_names_become_letter_pair_count_vectors():
    keys, pairs = letter_pair_vectors(["Li", "Lipton", "佐藤"])
    assert pairs == tuple(sorted(pairs))
    column = dict(zip(pairs, keys[:, 0], strict=True))
    assert {pair for pair, count in column.items() if count} == {" l", "li", "i "}
    assert keys[pairs.index("li"), 1] == 1 and keys[pairs.index("佐藤"), 2] == 1
    assert keys.shape == (len(pairs), 3)


def test_the_plane_projection_keeps_two_dimensions_and_finds_the_spread_of_more():
    centre, axes = plane_projection(K)
    np.testing.assert_array_equal(axes, np.eye(2))
    keys = np.array([[0.0, 1.0, 2.0], [0.0, 1.0, 2.0], [0.0, 0.0, 0.0]])
    centre, axes = plane_projection(keys)
    np.testing.assert_allclose(centre, [1.0, 1.0, 0.0])
    np.testing.assert_allclose(np.abs(axes[:, 0]), [1 / math.sqrt(2), 1 / math.sqrt(2), 0])
    np.testing.assert_allclose(axes.T @ axes, np.eye(2), atol=1e-12)  # orthonormal


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"learning_rate": 0}, "bad_learning_rate"),
        ({"learning_rate": -1.0}, "bad_learning_rate"),
        ({"learning_rate": math.nan}, "bad_learning_rate"),
        ({"learning_rate": 1e6}, "learning_rate_too_large"),
        ({"steps": 0}, "bad_steps"),
        ({"steps": 2.5}, "bad_steps"),
        ({"steps": math.inf}, "bad_steps"),
        ({"target": 4}, "bad_target"),
        ({"target": -1}, "bad_target"),
        ({"q0": [math.inf, 0.0]}, "not_finite"),
        ({"K": [[]]}, "empty"),
        ({"q0": [1.0, 2.0, 3.0]}, "query_key_size"),
        ({"score": "concat"}, "unknown_score"),
        ({"temperature": 0.0}, "bad_temperature"),
    ],
)
def test_bad_settings_raise_a_coded_error(kwargs, code):
    arguments = {"q0": [0.0, 0.0], "K": K, "target": 0, **kwargs}
    with pytest.raises(AttentionInputError) as caught:
        gradient_search(**arguments)
    assert caught.value.code == code


def test_the_largest_allowed_learning_rate_runs():
    assert gradient_search([0.0, 0.0], K, 0, learning_rate=MAX_LEARNING_RATE, steps=3).steps == 3


# Which keys can never come first: the target's key a convex combination of the others'.


def test_a_name_halfway_between_two_others_is_their_mix_in_seven_dimensions():
    keys, _ = letter_pair_vectors(["Li", "Lilili", "Lili", "Hu"])  # d = 7 letter pairs
    np.testing.assert_allclose(outranking_mix(keys, 2), [0.5, 0.5, 0.0, 0.0], atol=1e-12)
    for corner in (0, 1, 3):  # q = its key minus the others' mean makes Li, Lilili or Hu first
        assert outranking_mix(keys, corner) is None
        scores = keys.T @ (keys[:, corner] - np.delete(keys, corner, axis=1).mean(axis=1))
        assert scores[corner] > np.delete(scores, corner).max()


def test_the_mix_agrees_with_the_planes_hull_test():
    rng = np.random.default_rng(0)
    for _ in range(2000):
        m = int(rng.integers(2, 7))
        points = rng.integers(-3, 4, size=(m, 2)) * float(rng.choice([1e-3, 1.0, 37.5]))
        target = int(rng.integers(m))
        inside = in_hull(points[target], np.delete(points, target, axis=0))
        assert (outranking_mix(points.T, target) is not None) == inside, (points, target)


@pytest.mark.parametrize("d", [3, 5, 12])
def test_a_mix_rebuilds_the_key_and_a_corner_has_none(d):
    rng = np.random.default_rng(d)
    corners = rng.standard_normal((d, d + 2))
    weights = rng.dirichlet(np.ones(d + 2))
    keys = np.column_stack([corners, corners @ weights])  # the last key inside the others' hull
    mix = outranking_mix(keys, d + 2)
    assert mix is not None and mix[-1] == 0 and (mix >= 0).all()
    np.testing.assert_allclose(mix.sum(), 1.0)
    np.testing.assert_allclose(keys @ mix, keys[:, -1], atol=1e-9)
    # Pushed outside along a direction where it already leads, the key becomes a corner.
    lead = keys[:, -1] + 10 * corners[:, 0]
    assert outranking_mix(np.column_stack([corners[:, 1:], lead]), d + 1) is None


def test_a_lone_key_or_a_copy():
    assert outranking_mix([[1.0], [2.0]], 0) is None
    np.testing.assert_array_equal(outranking_mix([[1.0, 1.0, 0.0], [0.0, 0.0, 1.0]], 0), [0, 1, 0])


def test_the_mix_is_found_for_keys_on_a_grid_with_exact_ties():
    """Integer keys where the active-set steps meet entries at exactly 0 (no 0/0 on the way)."""
    keys = np.array([[0.0, 2.0, 0.0, 1.0, 1.0, 2.0], [0.0, 0.0, 2.0, 1.0, 0.0, 2.0]])
    for target, inside in [(3, True), (4, True), (0, False), (5, False)]:
        mix = outranking_mix(keys, target)
        assert (mix is not None) == inside, target
        if inside:
            assert np.isfinite(mix).all()
            np.testing.assert_allclose(keys @ mix, keys[:, target], atol=1e-12)
