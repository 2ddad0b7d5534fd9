"""show_chart draws through the live chart (kit.figures.live_chart): one components-v2 element per
chart key, whose document carries the figure as plotly writes it, the camera's config, the text
alternative and where plotly.js is served; an edit redraws the same element with new numbers."""

from __future__ import annotations

import numpy as np
from streamlit.testing.v1 import AppTest

from attention_ui.kit.figures import live_chart
from tests.plotly_json import LIVE_CHART, charts, decode


def _script() -> None:
    import numpy as np
    import plotly.graph_objects as go
    import streamlit as st

    from attention_ui.kit.figures.charts import show_chart

    value = st.number_input("value", value=1.0, key="value")
    figure = go.Figure(go.Heatmap(z=np.array([[value, 2.0], [3.0, 4.0]])))
    figure.update_layout(title="numbers", xaxis_title="column", yaxis_title="row")
    show_chart(figure, "test.chart.numbers", details=("dot",))
    show_chart(figure, "test.chart.inside", container=st.container())


def _live(at: AppTest) -> list:
    return [e for e in at.get("bidi_component") if e.proto.component_name == LIVE_CHART]


def test_show_chart_sends_the_figure_config_and_text_alternative_as_one_document():
    at = AppTest.from_function(_script, default_timeout=30).run()
    assert not at.exception
    assert not at.get("plotly_chart")  # no st.plotly_chart: every chart is live
    elements = _live(at)
    assert [e.proto.id.rsplit("-", 1)[-1] for e in elements] == [
        "test.chart.numbers",
        "test.chart.inside",
    ]
    document = live_chart.chart_spec(elements[0])
    assert set(document) == {"figure", "config", "alt", "plotly"}
    # plotly.js: the plotly package's file in static/ (tests/kit/figures/test_live_chart_served.py)
    assert document["plotly"] == f"app/static/vendor/{live_chart.PLOTLY_FILE}"
    assert document["config"]["toImageButtonOptions"]["filename"] == (
        "attention-explorer_test_chart_numbers_dot"
    )
    assert document["config"]["modeBarButtons"] == [["toImage"]]
    # the largest entry of the figure, worded in the text alternative
    assert document["alt"].startswith("numbers") and "4" in document["alt"]
    z = decode(document["figure"])["data"][0]["z"]
    np.testing.assert_array_equal(z, [[1.0, 2.0], [3.0, 4.0]])
    # plotly's own JSON, with the template whose colours the browser turns into the theme's
    assert document["figure"]["layout"]["title"]["text"] == "numbers"
    assert "template" in document["figure"]["layout"]
    # the numbers' table under it, as before
    assert "Numbers as a table" in [e.label for e in at.expander]


def test_an_edit_redraws_the_same_element_with_the_new_numbers():
    at = AppTest.from_function(_script, default_timeout=30).run()
    before = [e.proto.id for e in _live(at)]
    at.number_input(key="value").set_value(7.5).run()
    assert [e.proto.id for e in _live(at)] == before  # same key, same element: Plotly.react
    z = decode(live_chart.chart_spec(_live(at)[0])["figure"])["data"][0]["z"]
    assert z[0, 0] == 7.5
    assert charts(at)[0].proto.id == before[0]
    assert "7.5" in charts(at)[0].proto.alt
