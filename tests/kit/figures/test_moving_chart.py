"""The training page's moving chart (kit/figures/charts.show_moving_chart) draws a figure's
plain dicts: Streamlit validates them into the same JSON as the figure with plotly's template,
without validating that template again on every redraw, and leaves the figure as it was."""

from __future__ import annotations

import json

import numpy as np
import plotly.io as pio
import plotly.tools
from streamlit.testing.v1 import AppTest

from attention_ui.train.figures import curves


def loss_curve():
    steps = list(range(1, 601))
    values = list(np.linspace(2.0, 0.1, 600))
    return curves({"loss": (steps, values)}, ("Loss", "step", "loss"), x_max=3000)


def _draw_curve() -> None:  # AppTest runs this function's source alone
    import plotly.io as pio

    from attention_ui.kit.figures.charts import show_moving_chart
    from tests.kit.figures.test_moving_chart import loss_curve

    figure = loss_curve()
    before = pio.to_json(figure.plain, validate=False)
    show_moving_chart(figure, "the loss so far")
    assert pio.to_json(figure.plain, validate=False) == before  # plotly pops a trace's type


def test_the_moving_chart_draws_the_figure_with_plotlys_template_as_json():
    at = AppTest.from_function(_draw_curve).run()
    assert not at.exception, [e.value for e in at.exception]
    (chart,) = at.get("plotly_chart")
    with_template = plotly.tools.return_figure_from_figure_or_data(loss_curve().drawn(), True)
    drawn = json.loads(chart.proto.spec)
    assert drawn == json.loads(pio.to_json(with_template, validate=False))
    assert drawn["layout"]["template"]["layout"]  # plotly's default template is drawn
    assert json.loads(chart.proto.config) == {"staticPlot": True}
