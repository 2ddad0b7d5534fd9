"""The plane figure's value labels sit where they cover nothing: no hull or cone edge, not the
output's star, not each other (they covered the hull's edges and the star in the gallery)."""

from __future__ import annotations

import itertools

import numpy as np

from attention_core import convex_hull
from attention_ui.kit.figures.plane import (
    _SIDES,
    PlaneCaptions,
    PlaneScene,
    _crosses,
    _label_box,
    label_positions,
    plane_figure,
    view_box,
)

GALLERY = np.array([[1.0, 0.5], [0.5, 2.0], [2.0, 1.5]])  # the gallery's default values
WEIGHTS = np.array([0.0900, 0.245, 0.665])
OUTPUT = WEIGHTS @ GALLERY


def boxes(figure, box, plot_px):
    """Each value label's rectangle as drawn (its side, its lines' size), in data units."""
    trace = next(t for t in figure.data if t.name == "values vᵢ")
    unit = max(box[1] - box[0], box[3] - box[2]) / plot_px
    for point, text, side in zip(GALLERY, trace.text, trace.textposition, strict=True):
        lines = text.split("<br>")
        size = (7.0 * max(map(len, lines)) * unit, 14.0 * len(lines) * unit)
        yield _label_box(point, _SIDES[side], size, unit)


def test_the_gallery_labels_cross_no_hull_edge_and_cover_neither_star_nor_each_other():
    box = view_box(GALLERY, OUTPUT[None])
    scene = PlaneScene(GALLERY, OUTPUT, weights=WEIGHTS)
    figure = plane_figure(scene, box=box, captions=PlaneCaptions())
    hull = convex_hull(GALLERY)
    edges = list(itertools.pairwise(np.vstack([hull, hull[:1]])))
    rects = list(boxes(figure, box, 330.0))
    x0, x1, y0, y1 = figure.layout.xaxis.range + figure.layout.yaxis.range
    assert all(x0 <= r[0] and r[1] <= x1 and y0 <= r[2] and r[3] <= y1 for r in rects)
    for rect in rects:
        assert not any(_crosses(a, b, rect) for a, b in edges), rect
        assert not (rect[0] <= OUTPUT[0] <= rect[1] and rect[2] <= OUTPUT[1] <= rect[3])
    for a, b in itertools.combinations(rects, 2):
        assert not (a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3])


def test_a_label_moves_off_a_line_that_runs_through_its_usual_place():
    point = np.array([[0.0, 0.0]])
    box = (-1.0, 1.0, -1.0, 1.0)
    line = np.array([[-1.0, 0.1], [1.0, 0.1]])  # just above the point
    assert [p.side for p in label_positions(point, [["v1"]], box, 300.0)] == ["top center"]
    moved = label_positions(point, [["v1"]], box, 300.0, lines=[line])
    assert [p.side for p in moved] != ["top center"]
