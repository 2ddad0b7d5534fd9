"""The figures of the plain floors and the limit page (bench/plain_floor*.py, bench/limit_page.py):
each page's charts for its main edit, from NumPy and plain Plotly figures, no app code.

One function per page, `PAGES[page](start, value)`: `start` is what the bench hands the page
(the example the app opens with: matrices, records, points, a finished run), `value` what the
learner's input holds now (Q for Luong; the query, the sentence, σ, the step). Each returns
[(name, figure), …] in the order the page draws them.

- luong: column layout, as the Luong page opens: Q is d × n, K is d × m, V is d_v × m; S = KᵀQ
  (m × n), A = softmax of S down each column (one query each), O = V A (d_v × n).
- database: exact matching (the page's default similarity): each record weighs 1 / (records
  whose key is the query) or 0; the weights as bars, and the total weight of each first name.
- transformer: each token's row drawn from (seed, sha-256 of the token) as the page seeds X;
  Q, K, V = X W; h heads of scaled dot attention (rows are queries); C = concat; Y = C W_O.
- regression: Gaussian Nadaraya–Watson at 201 points along the data and at the page's queries;
  the data, the truth and the curve with the chosen query's weights as bars, and the weights
  as a heatmap (queries × points).

Heatmaps print each cell's number up to 12 × 12 cells, as the app's.
- train: a finished run's snapshot at a step: each head's weights on the probe example, each
  head's learned W_Q,h W_K,hᵀ / √d_h, and the loss and accuracy curves with the step marked.
"""

import hashlib
import json
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

TITLES = {"S": "S: scores", "A": "A: weights", "O": "O: output"}


def load_start(argument: str) -> dict:
    """The bench's start for a page: JSON, or the path of a JSON file (a run is large)."""
    return json.loads(argument if argument.lstrip().startswith("{") else Path(argument).read_text())


def heatmap(z: np.ndarray, title: str, height: int = 260) -> go.Figure:
    """A heatmap with each cell's number printed up to 12 × 12 cells (as the app's)."""
    printed = {"text": np.round(z, 3), "texttemplate": "%{text}"} if np.size(z) <= 144 else {}
    figure = go.Figure(go.Heatmap(z=z, **printed))
    figure.update_layout(title=title, height=height, yaxis_autorange="reversed")
    return figure


def softmax(scores: np.ndarray, axis: int) -> np.ndarray:
    weights = np.exp(scores - scores.max(axis=axis, keepdims=True))  # no overflow
    return weights / weights.sum(axis=axis, keepdims=True)


def figures(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> list[tuple[str, go.Figure]]:
    scores = k.T @ q  # (m, n)
    weights = softmax(scores, axis=0)
    output = v @ weights  # (d_v, n)
    arrays = {"S": scores, "A": weights, "O": output}
    return [(name, heatmap(arrays[name], TITLES[name])) for name in TITLES]


def luong(start: dict, q) -> list[tuple[str, go.Figure]]:
    return figures(np.asarray(q, dtype=float), np.array(start["K"]), np.array(start["V"]))


def bars(x, y, title: str) -> go.Figure:
    figure = go.Figure(go.Bar(x=x, y=y, text=np.round(y, 3), textposition="outside"))
    figure.update_layout(title=title, height=320, yaxis_range=[0, 1.1])
    return figure


def database(start: dict, query: str) -> list[tuple[str, go.Figure]]:
    keys = [str(record[0]) for record in start["records"]]
    names = [str(record[1]) for record in start["records"]]
    matches = np.array([key == query.strip() for key in keys], dtype=float)
    weights = matches / matches.sum() if matches.sum() else matches
    totals = {}
    for name, weight in zip(names, weights, strict=True):
        totals[name] = totals.get(name, 0.0) + float(weight)
    labels = [f"{i + 1} · {key}" for i, key in enumerate(keys)]
    return [
        ("weights", bars(labels, weights, f"Weights for the query {query[:40]}")),
        ("values", bars(list(totals), np.array(list(totals.values())), "first names")),
    ]


def embeddings(tokens: list[str], d_model: int, seed: int) -> np.ndarray:
    rows = []
    for token in tokens:
        token_seed = int.from_bytes(hashlib.sha256(token.encode("utf-8")).digest()[:4], "big")
        rows.append(np.random.default_rng([seed, token_seed]).normal(size=d_model))
    return np.round(np.array(rows), 1).reshape(len(tokens), d_model)


def transformer(start: dict, sentence: str) -> list[tuple[str, go.Figure]]:
    tokens = sentence.split()
    heads, w = start["heads"], {name: np.array(m) for name, m in start["W"].items()}
    x = embeddings(tokens, start["d_model"], start["seed"])
    q, k, v = x @ w["W_Q"], x @ w["W_K"], x @ w["W_V"]
    d_head = q.shape[1] // heads
    parts, shown = [], []
    for h in range(heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        weights = softmax(q[:, cols] @ k[:, cols].T / np.sqrt(d_head), axis=1)  # queries × keys
        shown.append((f"head {h + 1}", heatmap(weights, f"head {h + 1}")))
        parts.append(weights @ v[:, cols])
    c = np.concatenate(parts, axis=1)
    y = c @ w["W_O"]
    steps = [(name, heatmap(m, name)) for name, m in (("Q", q), ("K", k), ("V", v), ("C", c))]
    return [*shown, ("Y", heatmap(y, "Y")), *steps, ("Y step", heatmap(y, "Y (step)"))]


def regression(start: dict, sigma) -> list[tuple[str, go.Figure]]:
    x, y = np.array(start["x"]), np.array(start["y"])
    curve_x, queries = np.array(start["curve_x"]), np.array(start["queries"])

    def weights_at(x_query: np.ndarray) -> np.ndarray:  # Gaussian kernel: softmax of −u²/2
        u = (x_query[:, None] - x[None, :]) / float(sigma)
        return softmax(-(u**2) / 2, axis=1)

    curve = weights_at(curve_x) @ y
    weights = weights_at(queries)
    chosen = weights[start["chosen"]]
    data = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.68, 0.32])
    data.add_trace(go.Scatter(x=curve_x, y=start["truth"], mode="lines", name="f"), 1, 1)
    data.add_trace(go.Scatter(x=curve_x, y=curve, mode="lines", name="prediction"), 1, 1)
    data.add_trace(go.Scatter(x=x, y=y, mode="markers", name="data"), 1, 1)
    data.add_trace(go.Bar(x=x, y=chosen, name="weights"), 2, 1)
    data.update_layout(title="prediction", height=560)
    return [("data", data), ("weights", heatmap(weights, "weights", height=400))]


def curve(x, y, title: str, step: int) -> go.Figure:
    figure = go.Figure(go.Scatter(x=x, y=y, mode="lines"))
    figure.update_layout(title=title, height=300)
    figure.add_vline(x=step, line_dash="dash")
    return figure


def train(start: dict, step) -> list[tuple[str, go.Figure]]:
    index = start["steps"].index(int(step))
    heads, w_q, w_k = start["heads"], np.array(start["W_Q"][index]), np.array(start["W_K"][index])
    d_head = w_q.shape[1] // heads
    shown = [
        ("loss", curve(list(range(1, len(start["loss"]) + 1)), start["loss"], "loss", step)),
        ("accuracy", curve(start["steps"], start["accuracy"], "accuracy", step)),
    ]
    for h in range(heads):
        shown.append(
            (f"weights {h}", heatmap(np.array(start["weights"][index][h]), f"Head {h + 1}"))
        )
    for h in range(heads):
        cols = slice(h * d_head, (h + 1) * d_head)
        learned = w_q[:, cols] @ w_k[:, cols].T / np.sqrt(d_head)
        shown.append((f"learned {h}", heatmap(learned, f"learned, head {h + 1}")))
    return shown


PAGES = {
    "luong": luong,
    "database": database,
    "transformer": transformer,
    "regression": regression,
    "train": train,
}
