"""The figures of the plain floor and the limit page (bench/plain_floor.py, bench/limit_page.py):
the Luong page's S, A and O for one edit, from NumPy and plain Plotly heatmaps, no app code.

Column layout, as the Luong page opens: Q is d × n, K is d × m, V is d_v × m; S = KᵀQ (m × n),
A = softmax of S down each column (one query each), O = V A (d_v × n).
"""

import numpy as np
import plotly.graph_objects as go

TITLES = {"S": "S: scores", "A": "A: weights", "O": "O: output"}


def heatmap(z: np.ndarray, title: str) -> go.Figure:
    figure = go.Figure(go.Heatmap(z=z, text=np.round(z, 3), texttemplate="%{text}"))
    figure.update_layout(title=title, height=260, yaxis_autorange="reversed")
    return figure


def figures(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> list[tuple[str, go.Figure]]:
    scores = k.T @ q  # (m, n)
    weights = np.exp(scores - scores.max(axis=0))  # the largest subtracted: no overflow
    weights /= weights.sum(axis=0)
    output = v @ weights  # (d_v, n)
    arrays = {"S": scores, "A": weights, "O": output}
    return [(name, heatmap(arrays[name], TITLES[name])) for name in TITLES]
