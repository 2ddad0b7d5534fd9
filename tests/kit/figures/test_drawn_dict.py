"""DrawnFigure.to_dict copies and converts in one walk: the same dict, and the same JSON byte
for byte, as plotly's own to_dict (deep copy, then convert_to_base64) on every kind of value a
figure may hold, and the figure itself left as it was."""

from __future__ import annotations

import copy

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from attention_core import attention
from attention_ui.kit.figures.heatmap import SIGNED, WEIGHTS, DrawnFigure, heatmap, step_heatmap
from attention_ui.luong.view import result_figures


def _same_as_plotly(figure: go.Figure) -> None:
    ours = figure.to_dict()
    theirs = go.Figure.to_dict(figure)  # plotly's own, bypassing DrawnFigure's
    assert pio.to_json(ours, validate=False) == pio.to_json(theirs, validate=False)
    assert pio.to_json(figure, validate=False) == pio.to_json(theirs, validate=False)
    assert repr(ours) == repr(theirs)  # the same types and key order, not only the same JSON


def _raw(trace: dict, layout: dict | None = None) -> DrawnFigure:
    return DrawnFigure(data=[trace], layout=layout or {"height": 200}, _validate=False)


ARRAYS = {
    "float64": np.array([[1.0, -2.5], [0.25, np.nan]]),
    "float32": np.array([[1.5, -2.0]], dtype=np.float32),
    "int64 small": np.array([[1, -2], [3, 4]]),  # plotly narrows these to int8
    "int64 wide": np.array([[1, 70_000]]),  # … and these to int32
    "uint64": np.array([3, 4], dtype=np.uint64),
    "int8": np.array([1, 2], dtype=np.int8),
    "bool": np.array([[True, False]]),
    "strings": np.array(["a", "b"]),
    "objects": np.array(["a", 1], dtype=object),
    "big-endian": np.array([[1.0, 2.0]], dtype=">f8"),
    "not contiguous": np.arange(12, dtype=float).reshape(3, 4)[:, ::2],
    "transposed": np.arange(6, dtype=float).reshape(2, 3).T,
    "empty": np.zeros((0, 2)),
    "0-d": np.array(2.5),
    "1-d": np.linspace(0, 1, 5),
}


@pytest.mark.parametrize("name", ARRAYS)
def test_an_array_as_plotly_converts_it(name):
    _same_as_plotly(_raw({"type": "heatmap", "z": ARRAYS[name]}))


def test_arrays_in_lists_tuples_nested_dicts_and_skipped_keys():
    z = np.array([[1.0, 2.0]])
    figure = _raw(
        {
            "type": "heatmap",
            "z": z,
            "x": ("a", "b"),
            "text": [["1", "2"]],
            "customdata": [[np.float64(1.5), None, True, 3]],  # numpy scalars too
            "colorscale": [[0, "#fff"], [1.0, "#000"]],
            "marker": {"color": np.array([1.0, 2.0]), "line": {"width": np.array([1, 2])}},
            "meta": [np.array([1.0, 2.0])],  # an array in a list stays an array
        },
        {
            "height": 300,
            "xaxis": {"range": np.array([0.0, 1.0]), "title": {"text": "x"}},  # left as is
            "margin": {"l": 1, "r": 2},
        },
    )
    _same_as_plotly(figure)


def test_the_apps_heatmaps_as_plotly_draws_them():
    rng = np.random.default_rng(3)
    q, k, v = rng.normal(size=(3, 2)), rng.normal(size=(3, 4)), rng.normal(size=(2, 4))
    figures = [
        heatmap(
            np.array([[1.0, -2.5], [0.25, -np.inf]]),
            ["q1", "<b>q2</b>"],
            ["k1", "k2"],
            title="S & <i>T</i>",
            hover=[["a = 1", "b"], ["c", "d = <x>"]],
        ),
        heatmap(
            rng.random((13, 13)), list("abcdefghijklm"), list("nopqrstuvwxyz"), shading=WEIGHTS
        ),
        heatmap(rng.normal(size=(1, 1)), ["x"], ["y"], shading=SIGNED),
    ]
    for score in ("dot", "scaled_dot"):
        for layout in ("column", "row"):
            result = attention(
                q if layout == "column" else q.T,
                k if layout == "column" else k.T,
                v if layout == "column" else v.T,
                score,
                layout=layout,
            )
            figures += list(
                result_figures(
                    result, {"query": "q", "key": "k", "dim": "d"}, dict.fromkeys("SAO", "t")
                ).values()
            )
            figures += [
                step_heatmap(step, ["a"] * step.value.shape[1], ["b"] * step.value.shape[0])
                for step in result.steps
            ]
    for figure in figures:
        _same_as_plotly(figure)


def test_the_figure_is_left_as_it_was():
    z = np.array([[1.0, 2.0], [3.0, 4.0]])
    figure = heatmap(z, ["a", "b"], ["c", "d"])
    before = copy.deepcopy(figure._data)
    drawn = figure.to_dict()
    drawn["data"][0]["text"][0][0] = "changed"  # the dict is the figure's copy, not the figure
    drawn["data"][0]["colorscale"][0][1] = "changed"
    after = figure._data[0]
    assert after.keys() == before[0].keys()
    for key, value in before[0].items():
        if key == "z":
            np.testing.assert_array_equal(after[key], value)
        else:
            assert after[key] == value
    assert after["z"].flags.writeable  # not turned read-only, as plotly's conversion would
