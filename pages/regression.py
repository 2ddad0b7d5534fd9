"""Nadaraya–Watson regression: attention pooling where the keys are the positions xᵢ of the
training data, the values their yᵢ and a query x* asks for a prediction (d2l, the section after
"Queries, Keys, and Values"). Thin: the sections are in attention_ui/regression/view.py.

Main session-state keys (for tests and the browser tour), all listed with their defaults in
attention_ui/regression/state.py DEFAULTS:
- "regression.points.editor.<version>": the training table (columns "x", "y"; rows added and
  deleted by the learner);
- "regression.preset.<name>": preset buttons (noisy, sine, step, few, outlier); the chosen one
  is kept under "regression.preset"; "regression.seed", "regression.count" (noisy preset);
- "regression.kernel" (gaussian, boxcar, constant, triangular, epanechnikov), "regression.sigma";
- "regression.queries" (how many queries x*), "regression.chosen" (the query whose weights are
  drawn as bars); "regression.loo.use": the button that takes the leave-one-out σ;
- "regression.temperature.open", "regression.loo.open": the expanders of σ as the temperature
  and of leave-one-out (folded, built only while open);
- "regression.steps.show": the toggle that draws every step; "regression.bridge.show" and
  "regression.classes.show": the unit-circle bridge to dot-product attention and the
  classification with one-hot values (drawn when asked for);
- "regression.export": the export expander (script, points, weights and predictions as CSV,
  the steps in LaTeX); its buttons "regression.export.script", ".csv.<name>", ".latex".
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
            view.prediction_chart(points, settings, runs, st.session_state[state.PRESET])
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
