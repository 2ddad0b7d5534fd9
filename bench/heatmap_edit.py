"""A Luong edit's S, A and O heatmaps, built and drawn as show_chart draws them (the figures,
their text alternatives, the JSON the live chart sends), the chart's Streamlit call stubbed:
processor time per edit, median of N edits, and the parts (building the three, their JSON).

Run from a checkout's root (compare two checkouts in interleaved runs on a shared machine):

    PYTHONPATH=. python bench/heatmap_edit.py 300
"""

from __future__ import annotations

import statistics
import sys
import time

import plotly.graph_objects as go
import plotly.io as pio
import streamlit.logger  # also registers Streamlit's plotly template, as the app does

from attention_core import attention
from attention_ui.kit.figures import charts
from attention_ui.kit.figures.heatmap import DrawnFigure
from attention_ui.luong import view
from attention_ui.luong.presets import DEFAULT_PRESET, PRESETS

streamlit.logger.set_log_level("error")


def drawn_json(figure) -> str:
    """The figure's JSON as live_chart makes it (a DrawnFigure was a go.Figure before)."""
    if isinstance(figure, DrawnFigure) and not isinstance(figure, go.Figure):
        return figure.to_json()
    return pio.to_json(figure, validate=False)


class _Closed:
    open = False


def main(n: int) -> None:
    sent = []
    charts.live_chart = lambda figure, key, *, config, alt, container=None: sent.append(
        len(drawn_json(figure)) + len(alt)
    )
    charts.folded = lambda *args, **kwargs: _Closed()
    matrices = PRESETS[DEFAULT_PRESET].column_matrices()
    q, k, v = matrices["Q"], matrices["K"], matrices["V"]
    titles, names = view.axis_titles(), {name: name for name in "SAO"}

    def edit(value: float) -> None:
        edited = q.copy()
        edited[0, 0] = value
        result = attention(edited, k, v, "dot", temperature=1.0, layout="column")
        figures = view.result_figures(result, titles, names)
        for name, figure in zip("SAO", figures.values(), strict=True):
            charts.show_chart(figure, f"luong.chart.{name}", details=("dot", "column"))

    def median_ms(job) -> float:
        times = []
        for _ in range(n):
            start = time.process_time_ns()
            job()
            times.append(time.process_time_ns() - start)
        return statistics.median(times) / 1e6

    for i in range(30):  # warm up
        edit(i * 0.1)
    result = attention(q, k, v, "dot", temperature=1.0, layout="column")
    build = median_ms(lambda: view.result_figures(result, titles, names))
    built = iter([view.result_figures(result, titles, names) for _ in range(n)])
    json_ms = median_ms(lambda: [drawn_json(f) for f in next(built).values()])
    counter = iter(range(10**9))
    whole = median_ms(lambda: edit(1 + next(counter) % 50 * 0.01))
    print(f"edit {whole:.3f} ms  build3 {build:.3f} ms  json3 {json_ms:.3f} ms  bytes {sent[-3:]}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
