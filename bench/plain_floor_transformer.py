"""The plain floor of the transformer page's main edit, the sentence (bench/browser.py --page
transformer): a bare st.text_input labelled as the app's, and the heads' weights, Y and the
steps Q, K, V, C, Y as plain go.Heatmap figures (bench/plain_floor_figures.py, NumPy), nothing
else. Not part of the app.

    streamlit run bench/plain_floor_transformer.py -- START.json
"""

import sys

import streamlit as st
from plain_floor_figures import load_start, transformer  # bench/ (the script's folder)

start = load_start(sys.argv[1])
sentence = st.text_input(start["label"], value=start["sentence"])
charts = transformer(start, sentence)
heads = charts[: start["heads"]]
for column, (name, figure) in zip(st.columns(len(heads)), heads, strict=True):
    column.plotly_chart(figure, key=f"plain.{name}")
for name, figure in charts[len(heads) :]:
    st.plotly_chart(figure, key=f"plain.{name}")
