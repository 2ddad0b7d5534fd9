"""The heatmap builder: a matrix drawn as written, labelled, with readable hovers and safe text."""

import numpy as np
import plotly.graph_objects as go

from attention_core import attention
from attention_ui.kit.figures.heatmap import (
    SIGNED,
    WEIGHTS,
    DrawnFigure,
    heatmap,
    step_heatmap,
)


def test_heatmap_draws_rows_top_down_with_labels_and_numbers():
    figure = heatmap(
        np.array([[1.0, -2.5], [0.25, 3.0]]),
        ["q1", "q2"],
        ["k1", "k2"],
        title="S",
        x_title="queries",
        y_title="keys",
    )
    trace = figure.data[0]
    assert list(trace.x) == ["q1", "q2"] and list(trace.y) == ["k1", "k2"]
    assert trace.texttemplate == "%{text}"
    assert [list(row) for row in trace.text] == [["1", "−2.5"], ["0.25", "3"]]
    assert figure.layout.yaxis.autorange == "reversed"
    assert figure.layout.xaxis.title.text == "queries"
    assert figure.layout.yaxis.title.text == "keys"
    assert figure.layout.title.text == "S"


def test_masked_minus_infinity_is_an_empty_cell_labelled_minus_infinity():
    figure = heatmap(np.array([[0.5, -np.inf]]), ["q1", "q2"], ["k1"])
    z = np.array(figure.data[0].z, dtype=float)
    assert z[0, 0] == 0.5 and np.isnan(z[0, 1])
    assert figure.data[0].text[0][1] == "−∞"


def _scale_of(values: list[list[float]], **kwargs) -> tuple:
    trace = heatmap(np.array(values), [str(i) for i in range(len(values[0]))], ["x"], **kwargs)
    return trace.data[0].colorscale, trace.data[0].zmid


def test_one_colour_rule_weights_red_everything_else_diverging_around_0():
    weights_scale, _ = _scale_of([[0.0]], shading=WEIGHTS)
    signed_scale, _ = _scale_of([[0.0]], shading=SIGNED)
    assert _scale_of([[0.2, 0.8]]) == (weights_scale, None)  # weights: d2l's reds
    assert _scale_of([[-1.0, 2.0]]) == (signed_scale, 0)  # signed: diverging around 0
    # an all-positive score or output is still drawn on the scale centred on 0, so S keeps
    # its palette whatever the example
    assert _scale_of([[3.0, 7.0]]) == (signed_scale, 0)


def test_large_matrices_drop_the_cell_numbers():
    figure = heatmap(np.zeros((13, 13)), [str(i) for i in range(13)], [str(i) for i in range(13)])
    assert figure.data[0].texttemplate is None


def test_user_text_in_labels_and_hover_is_escaped_not_rendered():
    figure = heatmap(
        np.array([[1.0]]),
        ["<img src=x onerror=alert(1)>"],
        ["<b>k</b>"],
        title="<script>",
        hover=[["<script>alert(1)</script>"]],
    )
    trace = figure.data[0]
    assert trace.x[0] == "&lt;img src=x onerror=alert(1)&gt;"
    assert trace.y[0] == "&lt;b&gt;k&lt;/b&gt;"
    assert trace.customdata[0][0] == "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert figure.layout.title.text == "&lt;script&gt;"


def test_step_heatmap_hover_is_the_engines_arithmetic_broken_into_lines():
    result = attention([[1.0], [2.0]], [[0.5, 1.0], [-1.0, 0.0]], [[1.0, 2.0]], "dot")
    step = result.step("scores_dot")
    figure = step_heatmap(step, ["q1"], ["k1", "k2"])
    assert figure.data[0].customdata[0][0] == step.entry(0, 0).replace(" = ", "<br>= ")
    assert figure.data[0].customdata[0][0] == "s₁₁<br>= k₁·q₁<br>= 0.5×1 + (−1)×2<br>= −1.5"


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
            title="S & <i>T</i>",
            x_title="queries",
            y_title="keys",
            hover=[["a = 1", "b"], ["c", "d = <x>"]],
        ),
        heatmap(
            np.random.default_rng(0).random((13, 13)),
            list("abcdefghijklm"),
            list("nopqrstuvwxyz"),
            shading=WEIGHTS,
        ),
        *(
            step_heatmap(
                step,
                [f"x{c}" for c in range(step.value.shape[1])],
                [f"y{r}" for r in range(step.value.shape[0])],
                title=step.key,
            )
            for step in result.steps
        ),
    ]


def test_figures_built_without_plotly_validation_equal_the_validated_ones():
    import plotly.graph_objects as go
    import plotly.io as pio

    for figure in _sample_figures():
        validated = go.Figure(
            data=[trace.to_plotly_json() for trace in figure.data],
            layout=figure.layout.to_plotly_json(),
        )
        assert go.Figure.to_dict(figure) == go.Figure.to_dict(validated)
        assert figure.to_dict() == go.Figure.to_dict(validated)
        # What Streamlit sends: plotly's own JSON of this figure, key order included.
        assert pio.to_json(figure.to_dict(), validate=False) == pio.to_json(
            go.Figure.to_dict(figure), validate=False
        )
        assert figure.to_dict() is figure.to_dict()  # made once, for every redraw


def test_a_tiny_weight_prints_short_and_keeps_its_value_in_its_hover_and_table():
    """plotly sizes every cell's text to fit the chart's longest: one "6.52×10⁻⁶" left every
    number of the regression heatmap about 6 px high. On a weights chart a weight above 0 but
    below 0.01 prints "<0.01"; an exact 0 prints 0; a signed matrix keeps every digit."""
    from attention_ui.kit.figures.alt_text import chart_table
    from attention_ui.kit.figures.grid import heatmap_grid
    from attention_ui.kit.figures.heatmap import BELOW_FLOOR

    row = [0.9, 0.0999, 6.52e-6, 0.0]
    weights = heatmap(np.array([row]), ["a", "b", "c", "d"], ["q"], shading=WEIGHTS)
    assert BELOW_FLOOR == "<0.01"
    assert list(weights.data[0].text[0]) == ["0.9", "0.0999", "<0.01", "0"]
    assert max(len(cell) for cell in weights.data[0].text[0]) <= len("0.0116")
    assert weights.data[0].customdata[0][2] == "6.52×10⁻⁶"  # the hover keeps it
    assert chart_table(weights, "rows", "panel", "value").values.tolist() == [
        ["0.9", "0.0999", "6.52×10⁻⁶", "0"]
    ]
    signed = heatmap(np.array([[-0.5, 6.52e-6]]), ["a", "b"], ["q"], shading=SIGNED)
    assert list(signed.data[0].text[0]) == ["−0.5", "6.52×10⁻⁶"]
    grid = heatmap_grid(np.array(row).reshape(1, 1, 1, 4), "k", "q")  # weights' red: one rule
    assert list(grid.data[0].text[0]) == ["0.9", "0.0999", "<0.01", "0"]


def test_a_drawn_figure_overrides_no_private_plotly_method():
    """Plotly's public API only: DrawnFigure may override public methods (to_dict), never one
    of go.Figure's private ones (it once replaced _initialize_layout_template)."""
    private = [
        name
        for name in vars(DrawnFigure)
        if name.startswith("_") and not name.startswith("__") and hasattr(go.Figure, name)
    ]
    assert private == []
