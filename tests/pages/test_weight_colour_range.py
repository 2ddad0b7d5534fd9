"""Weights (softmax outputs, gates, probabilities in [0, 1]) are drawn on the weights' red
over the fixed range 0…1 on every page, so that a weight of 0.66 never looks as dark as 1;
signed matrices stay on the diverging scale centred on 0."""

from __future__ import annotations

import numpy as np
import pytest

from attention_ui.kit.figures.grid import heatmap_grid
from attention_ui.kit.figures.heatmap import Looks, _scale, heatmap
from tests.plotly_json import chart, figures
from tests.support.exercises import open_exercise
from tests.support.pages import open_page

REDS = _scale("Reds")


def weight_traces(figure: dict) -> list[dict]:
    """The traces (heatmaps, or a grid's colour bar) that colour by the weights' red."""
    traces = []
    for trace in figure["data"]:
        scale = trace.get("colorscale") or trace.get("marker", {}).get("colorscale")
        if scale in (REDS, "Reds"):
            traces.append(trace)
    return traces


def weight_range(trace: dict) -> tuple:
    if "zmin" in trace or "zmax" in trace:
        return trace.get("zmin"), trace.get("zmax")
    marker = trace.get("marker", {})
    return marker.get("cmin"), marker.get("cmax")


def test_a_weight_matrix_of_the_values_own_range_still_spans_0_to_1():
    p = np.array([[0.15, 0.19, 0.66]])
    assert weight_range(heatmap(p, ["a", "b", "c"], ["p"]).figure.to_dict()["data"][0]) == (0, 1)
    grid = heatmap_grid(p[None, None], "k", "q").to_dict()
    assert all(weight_range(t) == (0, 1) for t in weight_traces(grid))
    signed = heatmap(p, ["a", "b", "c"], ["s"], looks=Looks("RdBu_r")).figure.to_dict()["data"][0]
    assert signed.get("zmid") == 0 and "zmin" not in signed


@pytest.mark.parametrize(
    "section, weight_charts",
    [("grad", ["exercises.chart.grad_weights"]), ("se", ["exercises.chart.se_gate_sigmoid"])],
)
def test_the_exercises_weights_span_0_to_1_and_their_signed_matrices_centre_on_0(
    section, weight_charts
):
    at = open_exercise(section=section)
    for key in weight_charts:
        traces = weight_traces(chart(at, key))
        assert traces and all(weight_range(t) == (0, 1) for t in traces), key
    if section == "grad":  # a 2×2 Jacobian is signed even when its entries happen to be ≥ 0
        assert chart(at, "exercises.chart.jacobian")["data"][0].get("zmid") == 0


@pytest.mark.parametrize("page", ["luong", "regression", "transformer", "gallery"])
def test_every_weight_chart_a_page_draws_spans_0_to_1(page):
    at = open_page(page)
    drawn = [t for figure in figures(at) for t in weight_traces(figure)]
    assert drawn, f"{page} draws no weights"
    assert all(weight_range(t) == (0, 1) for t in drawn)
