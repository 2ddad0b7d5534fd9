"""The plane figure's value labels sit where they cover nothing: no hull or cone edge, not the
output's star, not each other (they covered the hull's edges and the star in the gallery)."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core.geometry import convex_hull
from attention_ui.kit.figures.plane import (
    _SIDES,
    PlaneCaptions,
    PlaneScene,
    _crosses,
    _crossings,
    _label_box,
    _Polyline,
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


def _brute_crossings(rect, unit, lines) -> int:
    """_crossings as it was: every segment of every line clipped against the grown rectangle."""
    from attention_ui.kit.figures.plane import _CLEAR_PX

    pad = _CLEAR_PX * unit
    grown = (rect[0] - pad, rect[1] + pad, rect[2] - pad, rect[3] + pad)
    return sum(
        any(_crosses(a, b, grown) for a, b in itertools.pairwise(np.asarray(line, float)))
        for line in lines
    )


coordinate = st.floats(-5, 5, allow_nan=False).map(lambda x: round(x, 2))


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(st.lists(st.tuples(coordinate, coordinate), min_size=1, max_size=6), max_size=4),
    corner=st.tuples(coordinate, coordinate),
    size=st.tuples(st.floats(0, 3), st.floats(0, 3)),
    unit=st.sampled_from([0.0, 0.01, 0.05]),
)
def test_a_line_counts_as_crossing_a_label_exactly_when_one_of_its_segments_does(
    lines, corner, size, unit
):
    # the lines' boxes only skip the clipping of lines that cannot cross: the same count
    rect = (corner[0], corner[0] + size[0], corner[1], corner[1] + size[1])
    polylines = [_Polyline.of(np.array(line)) for line in lines]
    assert _crossings(rect, unit, polylines) == _brute_crossings(rect, unit, lines)
