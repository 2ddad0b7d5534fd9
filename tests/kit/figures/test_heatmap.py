"""The heatmap builder: a matrix drawn as written, labelled, with readable hovers and safe text."""

import numpy as np
import plotly.graph_objects as go

from attention_core import attention
from attention_ui.kit.figures.heatmap import (
    SIGNED,
    WEIGHT_SCALE,
    WEIGHTS,
    Looks,
    Titles,
    heatmap,
    step_heatmap,
)


def test_heatmap_draws_rows_top_down_with_labels_and_numbers():
    figure = heatmap(
        np.array([[1.0, -2.5], [0.25, 3.0]]),
        ["q1", "q2"],
        ["k1", "k2"],
        Titles("S", "queries", "keys"),
    )
    trace = figure.figure.data[0]
    assert list(trace.x) == ["q1", "q2"] and list(trace.y) == ["k1", "k2"]
    assert trace.texttemplate == "%{text}"
    assert [list(row) for row in trace.text] == [["1", "−2.5"], ["0.25", "3"]]
    assert figure.figure.layout.yaxis.autorange == "reversed"
    assert figure.figure.layout.xaxis.title.text == "queries"
    assert figure.figure.layout.yaxis.title.text == "keys"
    assert figure.figure.layout.title.text == "S"


def test_masked_minus_infinity_is_an_empty_cell_labelled_minus_infinity():
    figure = heatmap(np.array([[0.5, -np.inf]]), ["q1", "q2"], ["k1"])
    z = np.array(figure.figure.data[0].z, dtype=float)
    assert z[0, 0] == 0.5 and np.isnan(z[0, 1])
    assert figure.figure.data[0].text[0][1] == "−∞"


def _scale_of(values: list[list[float]], **kwargs) -> tuple:
    trace = heatmap(np.array(values), [str(i) for i in range(len(values[0]))], ["x"], **kwargs)
    return trace.figure.data[0].colorscale, trace.figure.data[0].zmid


def test_one_colour_rule_weights_red_everything_else_diverging_around_0():
    weights_scale, _ = _scale_of([[0.0]], looks=WEIGHTS)
    signed_scale, _ = _scale_of([[0.0]], looks=SIGNED)
    assert _scale_of([[0.2, 0.8]]) == (weights_scale, None)  # weights: d2l's reds
    assert _scale_of([[-1.0, 2.0]]) == (signed_scale, 0)  # signed: diverging around 0
    # an all-positive score or output is still drawn on the scale centred on 0, so S keeps
    # its palette whatever the example
    assert _scale_of([[3.0, 7.0]]) == (signed_scale, 0)


def test_large_matrices_drop_the_cell_numbers():
    figure = heatmap(np.zeros((13, 13)), [str(i) for i in range(13)], [str(i) for i in range(13)])
    assert figure.figure.data[0].texttemplate is None


def test_user_text_in_labels_and_hover_is_escaped_not_rendered():
    figure = heatmap(
        np.array([[1.0]]),
        ["<img src=x onerror=alert(1)>"],
        ["<b>k</b>"],
        Titles("<script>"),
        hover=[["<script>alert(1)</script>"]],
    )
    trace = figure.figure.data[0]
    assert trace.x[0] == "&lt;img src=x onerror=alert(1)&gt;"
    assert trace.y[0] == "&lt;b&gt;k&lt;/b&gt;"
    assert trace.customdata[0][0] == "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert figure.figure.layout.title.text == "&lt;script&gt;"


def test_step_heatmap_hover_is_the_engines_arithmetic_broken_into_lines():
    result = attention([[1.0], [2.0]], [[0.5, 1.0], [-1.0, 0.0]], [[1.0, 2.0]], "dot")
    step = result.step("scores_dot")
    figure = step_heatmap(step, ["q1"], ["k1", "k2"])
    assert figure.figure.data[0].customdata[0][0] == step.entry(0, 0).replace(" = ", "<br>= ")
    assert figure.figure.data[0].customdata[0][0] == "s₁₁<br>= k₁·q₁<br>= 0.5×1 + (−1)×2<br>= −1.5"


def _sample_figures() -> list:
    result = attention(
        np.array([[1.0, -2.0], [0.5, 3.0]]),
        np.array([[1.0, 0.0, -1.5], [2.0, 1.0, 0.25]]),
        np.eye(2, 3),
        "dot",
        mask=np.array([[True, True], [False, True], [True, False]]),
    )
    return [
        heatmap(
            np.array([[1.0, -2.5], [0.25, -np.inf]]),
            ["q1", "<b>q2</b>"],
            ["k1", "k2"],
            Titles("S & <i>T</i>", "queries", "keys"),
            hover=[["a = 1", "b"], ["c", "d = <x>"]],
        ),
        heatmap(
            np.random.default_rng(0).random((13, 13)),
            list("abcdefghijklm"),
            list("nopqrstuvwxyz"),
            looks=WEIGHTS,
        ),
        *(
            step_heatmap(
                step,
                [f"x{c}" for c in range(step.value.shape[1])],
                [f"y{r}" for r in range(step.value.shape[0])],
                Titles(step.key),
            )
            for step in result.steps
        ),
    ]


def test_the_drawn_json_is_plotlys_own_for_the_validated_figure():
    """A heatmap is drawn from its plain dicts, never validated: plotly's JSON of the validated
    go.Figure of the same dicts (default template included) holds the very same figure, and
    the dicts are left as they were."""
    import copy

    import plotly.io as pio

    for figure in _sample_figures():
        before = pio.to_json(figure.plain, validate=False)
        validated = go.Figure(copy.deepcopy(figure.plain))  # go.Figure pops each trace's type
        assert _decoded(figure.to_json()) == _decoded(pio.to_json(validated, validate=False))
        assert figure.to_json() is figure.to_json()  # made once, for every redraw
        assert pio.to_json(figure.plain, validate=False) == before


def _decoded(text: str):
    """JSON read back with plotly's typed arrays as lists and NaN as None (plotly.js reads
    both forms alike)."""
    import json

    from attention_ui.kit.figures.alt_text import values_of

    def walk(value):
        if isinstance(value, dict):
            array = values_of(value)
            if array is not value:
                return walk(np.asarray(array, dtype=float).tolist())
            return {key: walk(item) for key, item in value.items()}
        if isinstance(value, list):
            return [walk(item) for item in value]
        if isinstance(value, float) and value != value:
            return None
        return value

    return walk(json.loads(text))


def test_a_heatmap_is_laid_out_by_its_declared_looks_and_has_no_go_figure_api():
    """A page declares how its heatmap looks (height, side margins, frames, the text of a
    missing number) instead of editing the figure, which would build a validated go.Figure on
    every edit: the looks are in the drawn dicts, and go.Figure's API is not there to call."""
    import json

    from attention_ui.kit.figures.alt_text import chart_facts

    frame = {"type": "rect", "x0": 0.5, "x1": 1.5, "y0": -0.5, "y1": 0.5}
    looks = Looks(WEIGHT_SCALE, 0, 1, missing="—", side_margin=0, shapes=(frame,))
    figure = heatmap(np.array([[0.2, np.nan]]), ["a", "b"], ["q"], Titles("A"), looks=looks)
    plain = heatmap(np.array([[0.2, np.nan]]), ["a", "b"], ["q"], Titles("A"), looks=WEIGHTS)
    for name in ("layout", "data", "add_shape", "update_layout", "to_dict"):
        assert not hasattr(figure, name)
    drawn = json.loads(figure.to_json())
    layout, trace = drawn["layout"], drawn["data"][0]
    assert layout["margin"]["l"] == layout["margin"]["r"] == 0 and layout["shapes"] == [frame]
    assert trace["text"] == [["0.2", "—"]] and trace["customdata"] == [["0.2", "NaN"]]
    assert plain.plain["data"][0]["text"] == [["0.2", "NaN"]]
    assert figure.facts(chart_facts).largest == "0.2"
    tall = heatmap(np.eye(3), list("abc"), list("xyz"), looks=Looks(cells_px=500)).plain
    assert tall["layout"]["height"] == tall["layout"]["margin"]["t"] + 10 + 500  # bottom: 10
    capped = heatmap(np.eye(3), list("abc"), list("xyz"), looks=Looks(cells_px=500, max_height=90))
    assert capped.plain["layout"]["height"] == 90


def test_a_tiny_weight_prints_short_and_keeps_its_value_in_its_hover_and_table():
    """plotly sizes every cell's text to fit the chart's longest: one "6.52×10⁻⁶" left every
    number of the regression heatmap about 6 px high. On a weights chart a weight above 0 but
    below 0.01 prints "<0.01"; an exact 0 prints 0; a signed matrix keeps every digit."""
    from attention_ui.kit.figures.alt_text import chart_table
    from attention_ui.kit.figures.grid import heatmap_grid
    from attention_ui.kit.figures.heatmap import BELOW_FLOOR

    row = [0.9, 0.0999, 6.52e-6, 0.0]
    weights = heatmap(np.array([row]), ["a", "b", "c", "d"], ["q"], looks=WEIGHTS)
    assert BELOW_FLOOR == "<0.01"
    assert list(weights.figure.data[0].text[0]) == ["0.9", "0.0999", "<0.01", "0"]
    assert max(len(cell) for cell in weights.figure.data[0].text[0]) <= len("0.0116")
    assert weights.figure.data[0].customdata[0][2] == "6.52×10⁻⁶"  # the hover keeps it
    assert chart_table(weights, "rows", "panel", "value").values.tolist() == [
        ["0.9", "0.0999", "6.52×10⁻⁶", "0"]
    ]
    signed = heatmap(np.array([[-0.5, 6.52e-6]]), ["a", "b"], ["q"], looks=SIGNED)
    assert list(signed.figure.data[0].text[0]) == ["−0.5", "6.52×10⁻⁶"]
    grid = heatmap_grid(np.array(row).reshape(1, 1, 1, 4), "k", "q")  # weights' red: one rule
    assert list(grid.data[0].text[0]) == ["0.9", "0.0999", "<0.01", "0"]
