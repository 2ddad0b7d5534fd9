"""Every chart the pages draw carries a text alternative worded from its numbers (Streamlit's
`alt`: the chart's role="figure" and aria-label), and right under it "Numbers as a table": an
expander whose table is built only while open, holding the numbers the chart prints."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core.formatting import fmt
from attention_ui.kit.figures.charts import TABLE_SUFFIX
from attention_ui.kit.text.i18n import catalog
from tests.conftest import open_app_page
from tests.plotly_json import charts, figures

LABEL = {lang: catalog(lang)["figures.table.label"] for lang in ("en", "ja")}


def largest_printed(spec: dict) -> str:
    """The largest finite entry over a chart's heatmaps, as the app writes numbers."""
    z = np.concatenate([np.asarray(trace["z"], dtype=float).ravel() for trace in spec["data"]])
    return fmt(np.nanmax(np.where(np.isfinite(z), z, np.nan)))


@pytest.mark.parametrize("page", ["luong", "gallery", "transformer"])
def test_every_heatmap_is_named_with_its_size_and_largest_entry(page):
    at = open_app_page(page)
    drawn = charts(at)
    assert drawn
    for chart, spec in zip(drawn, figures(at), strict=True):
        alt = chart.proto.alt
        assert alt.strip(), chart.proto.id
        if all(trace["type"] == "heatmap" for trace in spec["data"]):
            rows, cols = np.shape(spec["data"][0]["z"])
            assert f"{rows} × {cols}" in alt, alt
            assert f"the largest entry is {largest_printed(spec)}," in alt, alt
    # one table control per chart, and no table while they are closed (nothing built)
    assert [e.label for e in at.expander].count(LABEL["en"]) == len(drawn)
    assert not at.dataframe


def test_the_table_shows_the_numbers_of_the_chart_once_opened():
    at = open_app_page("luong")
    at.session_state["luong.chart.S" + TABLE_SUFFIX] = True
    at.run()
    assert not at.exception
    assert len(at.dataframe) == 1
    table = at.dataframe[0].value
    spec = next(
        s
        for c, s in zip(charts(at), figures(at), strict=True)
        if c.proto.id.endswith("-luong.chart.S")
    )
    trace = spec["data"][0]
    assert list(table.columns) == list(trace["x"]) and list(table.index) == list(trace["y"])
    assert table.values.tolist() == [[fmt(v) for v in row] for row in trace["z"]]
    assert at.dataframe[0].proto.alt == "The numbers of: S: scores"
    # closing it again draws nothing
    at.session_state["luong.chart.S" + TABLE_SUFFIX] = False
    at.run()
    assert not at.dataframe


def test_the_text_alternative_and_the_table_speak_japanese():
    at = open_app_page("luong")
    at.sidebar.radio[0].set_value("ja").run()
    at.session_state["luong.chart.A" + TABLE_SUFFIX] = True
    at.run()
    assert not at.exception
    chart = next(c for c in charts(at) if c.proto.id.endswith("-luong.chart.A"))
    assert "ヒートマップ" in chart.proto.alt and "最大の値は" in chart.proto.alt
    assert [e.label for e in at.expander].count(LABEL["ja"]) == len(charts(at))
    name = catalog("ja")["luong.results.A"]
    assert at.dataframe[0].proto.alt == catalog("ja")["figures.table.alt"].format(name=name)
    assert chart.proto.alt.startswith(name)


def test_a_bar_charts_table_has_one_row_per_bar_with_its_height():
    at = open_app_page("database")
    # an element's id is "$$ID-<hash>-<key>": the chart's own key is what its table's is built on
    key = next(c.proto.id.split("-", 2)[2] for c in charts(at) if ".chart.weights." in c.proto.id)
    assert not at.dataframe  # every table folded: none built on the first view
    at.session_state[key + TABLE_SUFFIX] = True
    at.run()
    assert not at.exception
    spec = next(s for c, s in zip(charts(at), figures(at), strict=True) if c.proto.id.endswith(key))
    bars = spec["data"][0]
    assert len(at.dataframe) == 1  # the chart's table, opened
    table = at.dataframe[0].value
    assert table.iloc[:, -1].tolist() == [fmt(v) for v in bars["y"]]
    assert len(table) == len(bars["x"])
