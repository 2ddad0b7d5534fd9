"""The floor of this stack for the Luong page's edit, built with no app code: Streamlit, NumPy and
plain Plotly heatmaps only (bench/browser.py's "plain floor").

Q's cells are a bare component of <input>s named as the app's grid names them ("Q, row 1, column
q1"), which sends a cell when Enter is pressed; the page computes S = KᵀQ, A = softmax(S) down
each column and O = V A with NumPy, and draws three go.Heatmap charts titled as the app's ("S:
scores", "A: weights", "O: output") with st.plotly_chart. Nothing else: no menu, no theme of
the app's, no text alternative, no table, no fragment.

    streamlit run bench/plain_floor.py -- '{"Q": [[…]], "K": [[…]], "V": [[…]]}'   # or a file

The matrices (column layout: Q is d × n, K is d × m, V is d_v × m) come from the bench, which
passes the Luong page's opening example. Not part of the app.
"""

import sys

import numpy as np
import streamlit as st
from plain_floor_figures import figures, load_start  # bench/ (the script's folder is on the path)
from streamlit.components.v2 import component

START = {name: np.array(v, dtype=float) for name, v in load_start(sys.argv[1]).items()}

CELLS = component(
    "plain_floor_cells",
    js="""
export default function ({ parentElement, data, setStateValue }) {
  if (!parentElement.querySelector("table")) {
    const table = document.createElement("table");
    data.cells.forEach((row, i) => {
      const tr = table.insertRow();
      row.forEach((value, j) => {
        const input = document.createElement("input");
        input.setAttribute("aria-label", `Q, row ${i + 1}, column q${j + 1}`);
        input.value = String(value);
        input.addEventListener("keydown", (event) => {
          if (event.key !== "Enter") return;
          event.preventDefault();
          setStateValue("edit", { row: i, col: j, text: input.value });
        });
        tr.insertCell().appendChild(input);
      });
    });
    parentElement.appendChild(table);
  }
}
""",
)


q = st.session_state.setdefault("q", START["Q"].copy())
edit = (CELLS(key="cells", data={"cells": q.tolist()}, on_edit_change=lambda: None) or {}).get(
    "edit"
)
if edit:
    try:
        q[int(edit["row"]), int(edit["col"])] = float(edit["text"])
    except (ValueError, KeyError, IndexError, TypeError):
        st.warning("not a number")
for column, (name, figure) in zip(st.columns(3), figures(q, START["K"], START["V"]), strict=True):
    column.plotly_chart(figure, key=f"plain.{name}")
