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
state.restore()
view.formula()
data_column, control_column = st.columns([2, 3], gap="large")
with data_column:
    points = view.training_data()
with control_column:
    settings = view.controls()
    runs = view.engine_runs(points, settings) if points.ok else None
    # beside the 40-row table: under the controls, at 1400 px, the column was empty for its
    # whole height (about 1,000 px); a phone stacks the columns, so its order is unchanged
    if runs is not None:
        view.prediction_chart(points, settings, runs, st.session_state[state.PRESET])
if runs is not None:
    view.weights_map(points, runs)
    view.temperature(points, settings, runs)
    view.learned_sigma(points, settings)
    view.bridge(points, settings, runs)
    view.classes(points, settings, runs)
    view.steps(runs, points)
    teaching.export(runs.queries, points)
state.remember()

page_footer("regression")  # the address follows the page: a reload or a copied link shows it
