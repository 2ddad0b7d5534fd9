"""The gallery's four special cases (attention_ui/gallery/cases.py): the weights each case uses,
the output they give, and the verdict the page prints about where that output lands."""

from __future__ import annotations

import numpy as np

from attention_core import attention
from attention_ui.gallery.cases import CASES, holds, special_cases

VALUES = np.array([[1.0, 0.5], [0.5, 2.0], [2.0, 1.5]])


def engine_alpha(query: np.ndarray) -> tuple[np.ndarray, int]:
    result = attention(query[:, None], VALUES.T, VALUES.T, "dot", temperature=1.0)
    return result.weights[:, 0], int(np.argmax(result.scores[:, 0]))


def test_each_case_outputs_its_weighted_sum_of_the_values():
    alpha, best = engine_alpha(np.array([1.0, 0.2]))
    cases = special_cases(VALUES, alpha, np.array([1.5, 0.5, 1.0]), best)
    assert [case.name for case in cases] == list(CASES)
    by_name = {case.name: case for case in cases}
    np.testing.assert_allclose(
        by_name["nonneg"].output, 1.5 * VALUES[0] + 0.5 * VALUES[1] + 1.0 * VALUES[2]
    )
    np.testing.assert_allclose(by_name["convex"].output, alpha @ VALUES)
    np.testing.assert_allclose(by_name["one_hot"].output, VALUES[best])
    np.testing.assert_allclose(by_name["uniform"].output, VALUES.mean(axis=0))


def test_one_hot_picks_the_highest_score():
    # q = (1, 0.2) scores the values 1.1, 0.9, 2.3: the third wins.
    _, best = engine_alpha(np.array([1.0, 0.2]))
    assert best == 2
    one_hot = special_cases(VALUES, np.full(3, 1 / 3), np.ones(3), best)[2]
    np.testing.assert_array_equal(one_hot.weights, [0.0, 0.0, 1.0])


def test_every_case_holds_for_the_engine_weights_and_positive_cone_weights():
    alpha, best = engine_alpha(np.array([-0.4, 1.3]))
    for case in special_cases(VALUES, alpha, np.array([0.2, 3.0, 0.7]), best):
        assert holds(case, VALUES, best), case.name


def test_negative_cone_weights_can_leave_the_cone():
    # −1·v1 = (−1, −0.5): opposite v1, outside the cone of three first-quadrant points.
    alpha, best = engine_alpha(np.array([1.0, 1.0]))
    nonneg = special_cases(VALUES, alpha, np.array([-1.0, 0.0, 0.0]), best)[0]
    np.testing.assert_allclose(nonneg.output, [-1.0, -0.5])
    assert not holds(nonneg, VALUES, best)


def test_weights_that_do_not_sum_to_one_are_not_called_convex():
    alpha, best = engine_alpha(np.array([1.0, 1.0]))
    convex = special_cases(VALUES, alpha * 0.5, np.ones(3), best)[1]
    assert not holds(convex, VALUES, best)
