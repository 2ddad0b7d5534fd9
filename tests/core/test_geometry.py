"""Cone and convex-hull geometry of 2-D values: the special cases of d2l's attention weights."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core import attention
from attention_core.geometry import (
    combine,
    cone,
    cone_polygon,
    convex_hull,
    in_cone,
    in_hull,
    weight_cases,
)

TRIANGLE = np.array([[1.0, 0.0], [0.0, 2.0], [2.0, 2.0]])

coordinate = st.floats(-50, 50, allow_nan=False, allow_infinity=False)
point_sets = st.lists(st.tuples(coordinate, coordinate), min_size=1, max_size=7).map(np.array)


def test_combine_is_the_weighted_sum_of_the_points():
    assert combine(TRIANGLE, [0.5, 0.25, 0.25]).tolist() == [1.0, 1.0]


@pytest.mark.parametrize(
    ("points", "kind"),
    [
        ([[0, 0], [0, 0]], "point"),
        ([[1, 1], [2, 2]], "ray"),
        ([[1, 0], [-3, 0]], "line"),
        ([[1, 0], [0, 1]], "wedge"),
        ([[1, 0], [-1, 0], [0, 1]], "half_plane"),
        ([[1, 0], [-1, 1], [-1, -1]], "plane"),
        ([[1, 0], [0, 1], [-1, 0], [0, -1]], "plane"),
    ],
)
def test_cone_kind_follows_the_largest_angular_gap(points, kind):
    assert cone(np.array(points, dtype=float)).kind == kind


def test_wedge_edges_run_counterclockwise_from_start_to_end():
    shape = cone(np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]))
    assert shape.kind == "wedge"
    assert np.allclose(shape.start, [1, 0]) and np.allclose(shape.end, [0, 1])
    assert math.isclose(shape.angle, math.pi / 2)


def test_wedge_across_the_positive_x_axis_is_found():
    shape = cone(np.array([[1.0, -1.0], [1.0, 1.0]]))
    assert shape.kind == "wedge"
    assert np.allclose(shape.start, np.array([1, -1]) / math.sqrt(2))
    assert in_cone([5.0, 0.0], np.array([[1.0, -1.0], [1.0, 1.0]]))
    assert not in_cone([-1.0, 0.0], np.array([[1.0, -1.0], [1.0, 1.0]]))


@pytest.mark.parametrize(
    ("point", "inside"),
    [
        ([3, 3], True),
        ([1, 0], True),
        ([0, 0], True),
        ([-1, 1], False),
        ([1, -0.1], False),
    ],
)
def test_membership_in_the_first_quadrant_cone(point, inside):
    assert in_cone(point, np.array([[1.0, 0.0], [0.0, 1.0]])) is inside


def test_every_point_is_in_the_cone_of_values_surrounding_the_origin():
    values = np.array([[1.0, 0.0], [-1.0, 1.0], [-1.0, -1.0]])
    assert all(in_cone(p, values) for p in [[-7, 0.1], [0, -9], [3, 3]])


def test_hull_vertices_are_counterclockwise_and_skip_interior_points():
    points = np.array([[0, 0], [2, 0], [2, 2], [0, 2], [1, 1], [1, 0]], dtype=float)
    hull = convex_hull(points)
    assert hull.tolist() == [[0, 0], [2, 0], [2, 2], [0, 2]]


def test_degenerate_hulls_are_a_point_or_a_segment():
    assert convex_hull(np.array([[1.0, 1.0], [1.0, 1.0]])).tolist() == [[1, 1]]
    assert convex_hull(np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]])).tolist() == [[0, 0], [2, 2]]
    segment = np.array([[0.0, 0.0], [2.0, 2.0]])
    assert in_hull([1, 1], segment) and not in_hull([3, 3], segment)
    assert not in_hull([1, 1.1], segment)


def test_a_thin_triangle_keeps_its_far_vertex():
    # Found by Hypothesis: a tolerance on the raw cross product dropped the vertex (0, 1).
    points = np.array([[0.0, 0.0], [0.0, 1.0], [1e-9, 0.0]])
    assert len(convex_hull(points)) == 3
    assert in_hull([3.3e-10, 1 / 3], points)


def test_points_outside_the_triangle_are_not_in_its_hull():
    assert not in_hull([0, 0], TRIANGLE)
    assert not in_hull([1, 2.01], TRIANGLE)
    assert in_hull([1, 2], TRIANGLE)  # on an edge


@settings(max_examples=60, deadline=None)
@given(point_sets, st.lists(st.floats(0, 10), min_size=7, max_size=7))
def test_convex_weights_put_the_output_inside_the_hull(points, raw):
    weights = np.array(raw[: len(points)]) + 1e-3
    weights /= weights.sum()
    assert in_hull(combine(points, weights), points)


@settings(max_examples=60, deadline=None)
@given(point_sets, st.lists(st.floats(0, 10), min_size=7, max_size=7))
def test_non_negative_weights_put_the_output_inside_the_cone(points, raw):
    assert in_cone(combine(points, raw[: len(points)]), points)


@settings(max_examples=40, deadline=None)
@given(point_sets, st.tuples(coordinate, coordinate), st.sampled_from([0.05, 1.0, 20.0]))
def test_softmax_attention_output_is_inside_the_hull_of_the_values(values, query, tau):
    # Keys equal to the values (d2l's exercise 2): the engine's output must stay in the hull.
    result = attention(np.array(query)[:, None], values.T, values.T, "dot", temperature=tau)
    assert in_hull(result.output[:, 0], values)


def test_a_point_outside_the_hull_is_found_for_weights_summing_to_more_than_one():
    assert not in_hull(combine(TRIANGLE, [1.0, 1.0, 1.0]), TRIANGLE)
    assert in_cone(combine(TRIANGLE, [1.0, 1.0, 1.0]), TRIANGLE)


def test_negative_weight_can_leave_the_cone():
    values = np.array([[1.0, 0.0], [0.0, 1.0]])
    assert not in_cone(combine(values, [-1.0, 0.5]), values)


def test_cone_polygon_of_a_wedge_starts_and_ends_at_the_origin_within_the_radius():
    polygon = cone_polygon(cone(np.array([[1.0, 0.0], [0.0, 1.0]])), radius=3.0)
    assert polygon[0].tolist() == [0, 0] and polygon[-1].tolist() == [0, 0]
    assert np.linalg.norm(polygon, axis=1).max() == pytest.approx(3.0)
    assert (polygon >= -1e-12).all()  # stays in the first quadrant


@pytest.mark.parametrize(
    ("weights", "cases"),
    [
        ([2.0, 0.5, 1.0], (True, False, None, False)),
        ([0.5, 0.25, 0.25], (True, True, None, False)),
        ([0.0, 1.0, 0.0], (True, True, 1, False)),
        ([1 / 3, 1 / 3, 1 / 3], (True, True, None, True)),
        ([1.5, -0.5, 0.0], (False, False, None, False)),
        ([1.0], (True, True, 0, True)),
    ],
)
def test_weight_cases_name_each_special_case(weights, cases):
    found = weight_cases(weights)
    assert (found.non_negative, found.convex, found.one_hot, found.uniform) == cases


def test_bad_point_arrays_are_rejected_with_a_message():
    with pytest.raises(ValueError, match="shape"):
        convex_hull(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="finite"):
        cone(np.array([[np.nan, 1.0]]))
