"""The gallery's "outside the hull, inside the cone" note and the labels of borrowed names."""

from __future__ import annotations

import numpy as np

from attention_ui.gallery.cases import Case, outside_hull_but_in_cone
from attention_ui.gallery.view import query_labels, record_labels


def test_the_hull_but_not_cone_note_needs_weights_that_keep_the_output_in_the_cone():
    values = np.array([[1.0, 0.0], [0.0, 1.0]])
    negative = np.array([-1.0, 0.5])  # output (−1, 0.5): outside the cone
    case = Case("nonneg", negative, values.T @ negative)
    assert not outside_hull_but_in_cone(case, values)
    doubled = np.array([1.0, 1.0])  # output (1, 1): in the cone, outside the hull
    assert outside_hull_but_in_cone(Case("nonneg", doubled, values.T @ doubled), values)


def test_gallery_labels_keep_long_names_that_start_alike_apart():
    queries = ["Alexandrovich-Smith", "Alexandrovich-Jones"]
    assert len(set(query_labels(queries))) == 2
    assert len(set(record_labels([("Li", "Mu"), ("Li", "Mo")]))) == 2
