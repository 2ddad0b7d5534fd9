"""The plain floor of the training page's step scrub (bench/browser.py --page train): a bare
st.select_slider over a finished run's snapshot steps, labelled as the app's, and the loss and
accuracy curves with the step marked, each head's weights and learned score matrix at that
step as plain Plotly figures (bench/plain_floor_figures.py, NumPy), nothing else. The run is
the bench's (its snapshots in START.json, read once): the floor trains nothing, as the app's
page, whose finished run is cached, trains nothing while the slider moves. Not part of the app.

    streamlit run bench/plain_floor_train.py -- START.json
"""

import sys

import streamlit as st
from plain_floor_figures import load_start, train  # bench/ (the script's folder)

start = st.cache_resource(load_start)(sys.argv[1])
step = st.select_slider(start["label"], start["steps"], value=start["steps"][-1])
charts = train(start, step)
for row in range(0, len(charts), 2):
    for column, (name, figure) in zip(st.columns(2), charts[row : row + 2], strict=False):
        column.plotly_chart(figure, key=f"plain.{name}")
