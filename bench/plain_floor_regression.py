"""The plain floor of the regression page's main edit, the bandwidth σ (bench/browser.py --page
regression): a bare st.number_input labelled as the app's, and the data with the prediction
curve and the chosen query's weights, and the weights' heatmap, as plain Plotly figures
(bench/plain_floor_figures.py, NumPy, the Gaussian kernel), nothing else. Not part of the app.

    streamlit run bench/plain_floor_regression.py -- START.json
"""

import sys

import streamlit as st
from plain_floor_figures import load_start, regression  # bench/ (the script's folder)

start = load_start(sys.argv[1])
sigma = st.number_input(start["label"], value=start["sigma"], step=0.1, format="%g")
for name, figure in regression(start, sigma):
    st.plotly_chart(figure, key=f"plain.{name}")
