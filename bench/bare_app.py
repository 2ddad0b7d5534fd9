"""The physical limit of this stack, for bench/load.py: a bare Streamlit page that receives the
same kind of edit as the Luong explorer (one cell of a Q grid in an st.data_editor) and draws
the same heatmaps (as many, of the same shapes, with numbers on the cells, hover text and
labelled axes) from it, with nothing else: no engine, no formulas, no tabs, no other grids.

Not part of the app (app.py never routes here). bench/load.py starts it as its own server:

    streamlit run bench/bare_app.py -- '[[3, 2], [2, 2], ...]'

The argument is the JSON list of the heatmaps' (rows, columns), read from the Luong page's
first run, so both servers send as many charts of the same sizes per edit.
"""

import json
import sys

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

SHAPES = [tuple(shape) for shape in json.loads(sys.argv[1])] if len(sys.argv) > 1 else [(3, 2)]
Q_ROWS, Q_COLUMNS = 3, 2  # the Luong page's default Q (d_q × n, one query per column)


@st.cache_resource
def base_arrays(shapes: tuple[tuple[int, int], ...]) -> list[np.ndarray]:
    """Fixed numbers for every chart, made once per server (not part of a rerun's cost)."""
    rng = np.random.default_rng(0)
    return [rng.normal(size=shape) for shape in shapes]


st.title("Bare page")
default_q = pd.DataFrame(
    np.arange(Q_ROWS * Q_COLUMNS, dtype=float).reshape(Q_ROWS, Q_COLUMNS),
    columns=[f"q{j + 1}" for j in range(Q_COLUMNS)],
)
q = st.data_editor(default_q, key="bare.Q.editor.0")
shift = float(q.iloc[0, 0])  # the edited cell moves every chart, as an edit of Q does

for number, base in enumerate(base_arrays(tuple(SHAPES))):
    rows, columns = base.shape
    z = base + shift
    text = np.round(z, 3).astype(str)
    figure = go.Figure(
        go.Heatmap(
            z=z,
            x=[f"c{j}" for j in range(columns)],
            y=[f"r{i}" for i in range(rows)],
            text=text,
            texttemplate="%{text}",
            customdata=text,
            hovertemplate="row %{y}, column %{x}: %{customdata}<extra></extra>",
            colorscale="Viridis",
        )
    )
    figure.update_layout(height=70 + 38 * rows, xaxis_title="column", yaxis_title="row")
    st.plotly_chart(figure, key=f"bare.chart.{number}")
