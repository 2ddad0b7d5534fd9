"""The exercises page's pure figure builders: ellipses of the right size, labelled axes,
escaped user text."""

from __future__ import annotations

import numpy as np

from attention_ui.exercises.figures import SearchCaptions, ellipse_points, search_figure


def test_the_ellipse_of_a_diagonal_matrix_has_half_axes_root_of_its_entries():
    points = ellipse_points(np.array([1.0, -1.0]), np.diag([4.0, 1.0]))
    np.testing.assert_allclose(points.max(axis=0), [3.0, 0.0], atol=1e-9)
    np.testing.assert_allclose(points.min(axis=0), [-1.0, -2.0], atol=1e-9)


def test_a_vanishing_covariance_draws_the_ellipse_as_the_centre_itself():
    points = ellipse_points(np.array([5.0, 0.0]), np.full((2, 2), 1e-17))
    np.testing.assert_allclose(points, np.tile([5.0, 0.0], (len(points), 1)), atol=1e-8)


def test_the_search_figure_labels_its_axes_and_escapes_record_names():
    figure = search_figure(
        np.array([[1.0, 0.0], [0.0, 1.0]]),
        ["<b>x</b>", "y"],
        0,
        np.array([[0.0, 0.0], [0.5, 0.1]]),
        np.array([0.7, 0.4]),
        captions=SearchCaptions("x", "y", "records", "path", "loss", "step"),
    )
    assert figure.layout.xaxis.title.text == "x" and figure.layout.yaxis.title.text == "y"
    assert "&lt;b&gt;x&lt;/b&gt;" in figure.data[0].text
    assert "loss = 0.4" in figure.data[1].customdata[1]
