"""Nadaraya–Watson regression: attention pooling where the keys are the positions xᵢ of the
training data, the values their yᵢ and a query x* asks for a prediction (d2l, the section after
"Queries, Keys, and Values"). Thin: the sections are in attention_ui/regression/view.py.

Each setting (its key, default, values and label) is declared once in
attention_ui/regression/state.py; the training table's key, the preset buttons' and the folded
sections' keys are there too; "regression.export" is the export expander.
"""

import streamlit as st

from attention_ui.frame import page_footer, page_header
from attention_ui.regression import state, teaching, view

page_header("regression")
state.start()
# The chart beside the table from the first screen: the kernel, σ and the prediction on the
# left (first on a phone, which stacks the columns), the training data on the right.
result_column, data_column = st.columns([3, 2], gap="large")
with data_column:
    points = view.training_data()
with result_column:
    settings, chart_place = view.controls()
    runs = view.engine_runs(points, settings) if points.ok else None
    if runs is not None:
        with chart_place:
            view.prediction_chart(points, settings, runs, st.session_state[state.PRESET.key])
    view.formula()  # under the chart: how each point of its curve is computed
if runs is not None:
    view.weights_map(points, runs)
    view.temperature(points, settings, runs)  # folded: built once opened
    view.learned_sigma(points, settings)  # folded
    view.bridge(points, settings, runs)
    view.classes(points, settings, runs)
    view.steps(runs, points)
    teaching.export(runs.queries, points)

page_footer("regression")  # the address follows the page: a reload or a copied link shows it
