"""The floor of this stack for the Luong page's edit: the baseline of bench/load.py and
bench/browser.py.

It draws what the Luong explorer draws for an edit of Q, and nothing else: the Q, K and V grids
(the Luong page's own grid function, so the same editor) in three columns, and the S, A and O
heatmaps in three columns, built by the Luong page's own figure builder from one engine run and
drawn through the app's one chart function (same specs, same camera-button config). No menu, no
settings, no formulas, no tabs, no story, no tasks, no address, no st.fragment.

On a first visit it loads the Luong page's default example (the same preset, sizes, score,
layout and temperature), so both pages start from the same numbers and an edit of Q's first
cell moves the same charts by the same amounts.

Its grids load their script and style as files, as the app's do: Streamlit serves the static/
folder beside the script it runs, and bench/static links to the repository's static/ (without
it each redraw of a grid carried its 20 kB script inline, which made the floor send more bytes
per edit than the app).

Not part of the app (app.py never routes here). The benches start it as its own server, from
the repository's root (so that it reads the same .streamlit/config.toml):

    streamlit run bench/floor_app.py
"""

import sys
from pathlib import Path

import streamlit as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the app's packages

from attention_core import attention
from attention_ui.kit.figures.charts import show_chart
from attention_ui.kit.text.i18n import t
from attention_ui.luong import state, view
from attention_ui.luong.model import INPUTS

OPENED = "floor.opened"

if OPENED not in st.session_state:  # the Luong page's first visit: its default example
    state.start()
    st.session_state[OPENED] = True

sizes = state.sizes()
score = state.SCORE.value()
layout = state.LAYOUT.value()

grids = {}
for column, name in zip(st.columns(len(INPUTS)), INPUTS, strict=True):
    with column:
        grids[name] = state.matrix(name, sizes, layout)

if all(not grid.problems for grid in grids.values()):
    result = attention(
        *(grids[name].values for name in INPUTS),
        score,
        temperature=state.TEMPERATURE.value(),
        layout=layout,
    )
    names = {name: t(f"luong.results.{name}") for name in "SAO"}
    figures = view.result_figures(result, view.axis_titles(), names)
    for column, name, figure in zip(st.columns(3), "SAO", figures.values(), strict=True):
        show_chart(figure, f"luong.chart.{name}", details=(score, layout), container=column)
