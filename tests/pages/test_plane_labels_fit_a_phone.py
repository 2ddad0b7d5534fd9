"""The plane charts' value labels ('v3' over 'α=0.662') fit inside the view on a phone: the view
is grown for them as if the plot were 290 px across (a phone's is about 300: at 330 the label
on the right was cut at the edge), and a label just past the axis is drawn in the chart's
margin, not clipped. Read from the figures the pages send (AppTest): each label's box as
plotly draws it, at a 290 px plot, lies within the chart."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from attention_ui.kit.figures.plane import _SIDES, _crosses, _label_box
from attention_ui.kit.text.i18n import catalog
from tests.plotly_json import chart
from tests.support.exercises import open_exercise
from tests.support.pages import open_page

PHONE_PLOT_PX = 290.0
CHAR_PX, LINE_PX = 7.0, 14.0  # a 12 px label's character and line, as the figure reckons


def label_boxes(figure: dict, values_name: str, plot_px: float) -> list[tuple[float, ...]]:
    trace = next(t for t in figure["data"] if t.get("name") == values_name)
    assert trace.get("cliponaxis") is False  # a label just past the axis is still drawn
    x0, x1 = figure["layout"]["xaxis"]["range"]
    y0, y1 = figure["layout"]["yaxis"]["range"]
    unit = max(x1 - x0, y1 - y0) / plot_px
    boxes = []
    for x, y, text, side in zip(
        trace["x"], trace["y"], trace["text"], trace["textposition"], strict=True
    ):
        lines = text.split("<br>")
        size = (CHAR_PX * max(map(len, lines)) * unit, LINE_PX * len(lines) * unit)
        boxes.append(_label_box(np.array([x, y]), _SIDES[side], size, unit))
    return boxes


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
def test_exercise_2s_labels_keep_clear_of_its_ellipses(lang):
    """The covariance and Jacobian ellipses are drawn on the plane after its labels are placed:
    'v3 / p=0.662' sat across them at 1400 px until the placement was told of them."""
    words = catalog(lang)
    figure = chart(open_exercise(lang, section="grad"), "exercises.chart.gradient")
    names = (words["exercises.grad.cov_name"], words["exercises.grad.jac_name"])
    ellipses = [np.column_stack([t["x"], t["y"]]) for t in figure["data"] if t.get("name") in names]
    assert len(ellipses) == 2
    for plot_px in (PHONE_PLOT_PX, 600.0):
        for box in label_boxes(figure, words["exercises.grad.values"], plot_px):
            crossed = [
                _crosses(a, b, box) for line in ellipses for a, b in itertools.pairwise(line)
            ]
            assert not any(crossed), (plot_px, box)
