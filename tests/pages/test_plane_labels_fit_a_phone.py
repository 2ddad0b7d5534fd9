"""The plane charts' value labels ('v3' over 'α=0.662') fit inside the view on a phone: the view
is grown for them as if the plot were 290 px across (a phone's is about 300: at 330 the label
on the right was cut at the edge), and a label just past the axis is drawn in the chart's
margin, not clipped. Read from the figures the pages send (AppTest): each label's box as
plotly draws it, at a 290 px plot, lies within the chart. Where no side of a point is clear
(exercise 2's v3 on the hull's corner and the covariance ellipse, gallery case 3's v3 under
the output's star), the label is set apart with a leader line, clear of every line and mark."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from attention_ui.kit.figures.plane import _SIDES, LEADER, _crosses, _label_box
from attention_ui.kit.text.i18n import catalog
from tests.plotly_json import chart
from tests.support.exercises import open_exercise
from tests.support.pages import open_page

PHONE_PLOT_PX = 290.0
CHAR_PX, LINE_PX = 7.0, 14.0  # a 12 px label's character and line, as the figure reckons
NOTE_LINE_PX = 15.6  # an annotation's line: 12 px at plotly's line height of 1.3


def label_boxes(figure: dict, values_name: str, plot_px: float) -> list[tuple[float, ...]]:
    """Every value label's box in data units on a `plot_px` plot: those beside their point
    (the values trace's text) and those set apart (leader annotations, centred at the tail)."""
    trace = next(t for t in figure["data"] if t.get("name") == values_name)
    assert trace.get("cliponaxis") is False  # a label just past the axis is still drawn
    x0, x1 = figure["layout"]["xaxis"]["range"]
    y0, y1 = figure["layout"]["yaxis"]["range"]
    unit = max(x1 - x0, y1 - y0) / plot_px
    boxes = []
    for x, y, text, side in zip(
        trace["x"], trace["y"], trace["text"], trace["textposition"], strict=True
    ):
        if text:
            lines = text.split("<br>")
            size = (CHAR_PX * max(map(len, lines)) * unit, LINE_PX * len(lines) * unit)
            boxes.append(_label_box(np.array([x, y]), _SIDES[side], size, unit))
    for note in figure["layout"].get("annotations", ()):
        if note.get("name") == LEADER:
            lines = note["text"].split("<br>")
            half_w, half_h = CHAR_PX * max(map(len, lines)) / 2, NOTE_LINE_PX * len(lines) / 2
            assert (note["axref"], note["ayref"]) == ("x", "y")  # centred at a point of the data
            cx, cy = note["ax"], note["ay"]
            boxes.append(
                (cx - half_w * unit, cx + half_w * unit, cy - half_h * unit, cy + half_h * unit)
            )
    return boxes


def lines_named(figure: dict, names) -> list[np.ndarray]:
    return [np.column_stack([t["x"], t["y"]]) for t in figure["data"] if t.get("name") in names]


@pytest.mark.parametrize(
    ("page", "section", "key", "values"),
    [
        ("gallery", None, "gallery.chart.plane", "gallery.plane.values"),
        ("exercises", "grad", "exercises.chart.gradient", "exercises.grad.values"),
    ],
)
def test_every_value_label_lies_inside_the_view_of_a_phones_plot(page, section, key, values):
    at = open_exercise(section=section) if section else open_page(page)
    figure = chart(at, key)
    x0, x1 = figure["layout"]["xaxis"]["range"]
    y0, y1 = figure["layout"]["yaxis"]["range"]
    boxes = label_boxes(figure, catalog("en")[values], PHONE_PLOT_PX)
    # past the axis a label is still drawn in the chart's margin (cliponaxis off), not beyond
    margin = figure["layout"]["margin"]
    unit = max(x1 - x0, y1 - y0) / PHONE_PLOT_PX
    x0, x1 = x0 - margin["l"] * unit, x1 + margin["r"] * unit
    y0, y1 = y0 - margin["b"] * unit, y1 + margin["t"] * unit
    assert boxes
    for left, right, bottom, top in boxes:
        assert x0 <= left and right <= x1 and y0 <= bottom and top <= y1, (boxes, x0, x1)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_exercise_2s_labels_keep_clear_of_its_ellipses_and_hull(lang):
    """The covariance and Jacobian ellipses are drawn on the plane after its labels are placed:
    'v3 / p=0.662' sat across them at 1400 px until the placement was told of them, and then
    on the hull's edge at 390 and 1400 px (every side of v3 crosses one or the other), until it
    was set apart with a leader line. A phone's plot, a desktop's and a wide one."""
    words = catalog(lang)
    figure = chart(open_exercise(lang, section="grad"), "exercises.chart.gradient")
    names = (words["exercises.grad.cov_name"], words["exercises.grad.jac_name"])
    lines = lines_named(figure, (*names, words["exercises.grad.hull"]))
    assert len(lines) == 3
    for plot_px in (PHONE_PLOT_PX, 460.0, 600.0):
        boxes = label_boxes(figure, words["exercises.grad.values"], plot_px)
        assert len(boxes) == 3  # v1, v2, v3
        for box in boxes:
            crossed = [_crosses(a, b, box) for line in lines for a, b in itertools.pairwise(line)]
            assert not any(crossed), (plot_px, box)


STAR_REACH_PX = 9.0  # the output's 16 px star, and a pixel of room


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_gallery_case_3s_labels_keep_clear_of_the_star_on_v3(lang):
    """Case 3 (one weight is 1) puts the output's star on v3: its label beside the point, 7 px
    from the marker's centre, touched the star (1400 px screenshot). On a desktop's 4-column
    panel (about 130 px across) and a phone's (about 250 px), no label comes within the star's
    reach."""
    words = catalog(lang)
    figure = chart(open_page("gallery", lang), "gallery.chart.case.one_hot")
    star = next(t for t in figure["data"] if t.get("marker", {}).get("symbol") == "star")
    centre = np.array([star["x"][0], star["y"][0]])
    x0, x1 = figure["layout"]["xaxis"]["range"]
    y0, y1 = figure["layout"]["yaxis"]["range"]
    for plot_px in (130.0, 250.0):
        unit = max(x1 - x0, y1 - y0) / plot_px
        boxes = label_boxes(figure, words["gallery.plane.values"], plot_px)
        assert len(boxes) == 3
        for left, right, bottom, top in boxes:
            dx = max(left - centre[0], 0.0, centre[0] - right) / unit
            dy = max(bottom - centre[1], 0.0, centre[1] - top) / unit
            assert np.hypot(dx, dy) >= STAR_REACH_PX, (plot_px, (left, right, bottom, top))
