"""The plain floor of the database page's main edit, the query (bench/browser.py --page
database): a bare st.text_input labelled as the app's query box, and the weights and first
names' totals as plain go.Bar figures (bench/plain_floor_figures.py, NumPy, exact matching),
nothing else. Not part of the app.

    streamlit run bench/plain_floor_database.py -- START.json
"""

import sys

import streamlit as st
from plain_floor_figures import database, load_start  # bench/ (the script's folder)

start = load_start(sys.argv[1])
query = st.text_input(start["label"], value=start["query"])
for column, (name, figure) in zip(st.columns([3, 2]), database(start, query), strict=True):
    column.plotly_chart(figure, key=f"plain.{name}")
