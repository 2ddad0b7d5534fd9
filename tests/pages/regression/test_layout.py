"""The regression page's prediction chart sits in the controls' column, beside the training
table: under the kernel and bandwidth, at 1400 px, that column was empty for about 1,000 px
beside the 40-row table (screenshot). A phone stacks the columns, so its order is the same."""

from __future__ import annotations

from attention_ui.regression import state
from tests.plotly_json import charts
from tests.support.pages import open_page


def test_the_prediction_chart_is_in_the_kernels_column_beside_the_table():
    at = open_page("regression")
    kernel = [c for c in at.columns if any(w.key == state.KERNEL.key for w in c.radio)]
    assert kernel
    ids = [e.proto.id for c in kernel for e in charts(c)]
    assert any(i.endswith("-regression.chart.data") for i in ids), ids
    table = [c for c in at.columns if any(w.key == state.SEED.key for w in c.number_input)]
    assert table and not any(charts(c) for c in table)
