"""The heatmaps an edit draws on the transformer, regression, exercises and training pages,
built and drawn as show_chart draws them (figures, text alternatives, the live chart's JSON;
the chart's Streamlit call stubbed, as bench/heatmap_edit.py does for Luong): processor time
per edit, median of N. The page-level builders are called as the pages call them, so two
checkouts compare in interleaved runs:

    PYTHONPATH=. python bench/heatmap_pages.py 200
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import streamlit.logger  # also registers Streamlit's plotly template, as the app does

from attention_core import multi_head, nadaraya_watson
from attention_ui.exercises.figures import weights_per_step_figure
from attention_ui.kit.figures import charts, heatmap
from attention_ui.regression import figures as regression
from attention_ui.train import figures as train
from attention_ui.transformer.figures import head_figures

streamlit.logger.set_log_level("error")
RNG = np.random.default_rng(0)
TOKENS = [f"{i + 1} · w{i}" for i in range(6)]
TITLES = {"query": "token (query)", "key": "token (key)", "dim": "entry"}


def drawn_json(figure) -> str:
    if isinstance(figure, heatmap.DrawnFigure) and not isinstance(figure, go.Figure):
        return figure.to_json()
    return pio.to_json(figure, validate=False)


class _Closed:
    open = False


def transformer(k: int) -> list:
    x = RNG.normal(size=(6, 8)) + 0.01 * k
    mh = multi_head(x, *(RNG.normal(size=(8, 8)) for _ in range(4)), 2)
    hover = lambda h, i, j: f"w{h}{i}{j} = {mh.weights[h][i, j]:.3g}"  # noqa: E731
    return head_figures(mh, TOKENS, TITLES, ["head 1", "head 2"], hover)


def regression_edit(k: int) -> list:
    x, y = RNG.uniform(0, 5, 40), RNG.normal(size=40)
    queries = np.linspace(0, 5, 12)
    result = nadaraya_watson(queries, x, y, "gaussian", 0.5 + 0.01 * k)
    step = result.step("nw_weights")
    hover = heatmap.hover_texts(step.value.shape, step.entry)
    words = {"title": "weights", "x_title": "key", "y_title": "query"}
    rows = list(range(1, 41))
    weights = regression.weights_heatmap(result.weights, queries, x, rows, hover, words)
    steps = regression.step_figures(result.steps, rows, {"query": "query", "key": "key"})
    return [weights, *steps.values()]


def exercises(k: int) -> list:
    weights = RNG.dirichlet(np.ones(6), size=31)
    return [weights_per_step_figure(weights, [f"r{i}" for i in range(6)])]


def train_edit(k: int) -> list:
    weights = RNG.dirichlet(np.ones(8), size=8)
    labels = [str(i) for i in range(8)]
    attend = list(range(8))[::-1]
    titles = ("head 1", "input", "outputs")
    if hasattr(train, "frames"):
        looks = heatmap.Looks(heatmap.WEIGHT_SCALE, 0, 1, shapes=train.frames(attend, "right"))
        figure = heatmap.heatmap(weights, labels, labels, heatmap.Titles(*titles), looks=looks)
    else:
        figure = heatmap.heatmap(
            weights,
            labels,
            labels,
            title=titles[0],
            x_title=titles[1],
            y_title=titles[2],
            shading=heatmap.WEIGHTS,
        )
        figure = train.mark_cells(figure, attend, "right")
    return [figure]


PAGES = {
    "transformer": transformer,
    "regression": regression_edit,
    "exercises": exercises,
    "train": train_edit,
}


def main(n: int) -> None:
    charts.live_chart = lambda figure, key, *, config, alt, container=None: drawn_json(figure)
    charts.folded = lambda *args, **kwargs: _Closed()
    for page, build in PAGES.items():

        def edit(k: int, build=build, page=page) -> None:
            for i, figure in enumerate(build(k)):
                charts.show_chart(figure, f"{page}.chart.{i}")

        for k in range(20):  # warm up
            edit(k)
        times = []
        for k in range(n):
            begin = time.process_time_ns()
            edit(k)
            times.append(time.process_time_ns() - begin)
        print(f"{page} {statistics.median(times) / 1e6:.3f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
