"""How much does the Luong explorer cost per rerun, beyond drawing its heatmaps?

Run from the repository root:

    python bench/page.py

The page draws many heatmaps (S, A, O, one per engine step, one per score function in the
comparison); Plotly figures are the bulk of any such page. So the baseline is a bare page that
draws the same number of go.Heatmap charts, of the same shapes, from arrays precomputed once,
with numbers on the cells and labelled axes but nothing else: no grids, no engine, no hover
arithmetic, no formulas. The target is a rerun within 1.3× of that baseline, at the default
sizes and at 8 everywhere (d_q = d_k = d_v = n = m = h = 8, random numbers).

Two kinds of rerun are timed. A plain rerun (what Streamlit does on any click that changes no
input: another tab, another followed entry) may reuse the page's cached result and figures. A
rerun after an edit of one Q cell (alternating values, as a learner typing) changes every
number, so every figure on screen is built again. The page opens on its first tab, so the
charts counted are S, A, O and the step-by-step tab's. Both pages run in this process through
AppTest, interleaved, and each reports the median of its repeats. This script prints; it never
asserts (timings depend on the machine).

AppTest runs the whole page on every rerun. In the browser an edit of a grid reruns only the
grids' st.fragment (pages/luong.py), not the settings, sizes, formulas and menu above it: what
the server spends on such an edit, against the bare page, is bench/load.py's "one session
alone" row (processor time per edit, measured on a real server).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run from anywhere

from streamlit.testing.v1 import AppTest  # noqa: E402

from tests.plotly_json import charts as live_charts  # noqa: E402
from tests.support.grids import type_cell  # noqa: E402

TARGET = 1.3  # issue 13
REPEATS = 15
SIZE_KEYS = ("d_q", "d_k", "d_v", "n", "m", "h")

BARE_PAGE = """
import numpy as np
import plotly.graph_objects as go
import streamlit as st

SHAPES = {shapes!r}
if "arrays" not in st.session_state:  # precomputed once, outside the timed reruns
    rng = np.random.default_rng(0)
    st.session_state.arrays = [rng.normal(size=shape) for shape in SHAPES]
for number, z in enumerate(st.session_state.arrays):
    rows, cols = z.shape
    figure = go.Figure(go.Heatmap(z=z, x=[f"c{{j}}" for j in range(cols)],
                                  y=[f"r{{i}}" for i in range(rows)],
                                  text=np.round(z, 3).astype(str), texttemplate="%{{text}}"))
    figure.update_layout(height=70 + 38 * rows)
    st.plotly_chart(figure, key=f"bare.{{number}}")
"""


def luong_page(big: bool) -> AppTest:
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60).run()
    at.switch_page("pages/luong.py").run()
    if big:
        for name in SIZE_KEYS:
            at.session_state[f"luong.size.{name}"] = 8
        at.selectbox(key="luong.preset").set_value("random").run()  # seeded fill at 8 × 8
    assert not at.exception and not at.error, "the page must run cleanly before timing"
    return at


def edit_q(at: AppTest, value: float) -> None:
    """Type `value` into Q's first cell and press Enter, as the grid editor sends it."""
    type_cell(at, "luong.Q", 0, "q1", str(value))


def chart_shapes(at: AppTest) -> list[tuple[int, int]]:
    shapes = []
    for chart in live_charts(at):
        trace = json.loads(chart.proto.spec)["data"][0]
        assert trace["type"] == "heatmap"
        z = trace["z"]
        if isinstance(z, dict):  # a typed array: {"dtype", "bdata", "shape": "rows, cols"}
            shapes.append(tuple(int(s) for s in str(z["shape"]).split(",")))
        else:
            shapes.append((len(z), len(z[0])))
    return shapes


def measure(big: bool, edit: bool) -> tuple[int, float, float]:
    """(charts per run, median page rerun, median bare rerun) in seconds; with `edit`, each
    page rerun follows a new value in one Q cell, so nothing can be reused."""
    page = luong_page(big)
    shapes = chart_shapes(page)
    assert shapes, "the page drew no chart"
    bare = AppTest.from_string(BARE_PAGE.format(shapes=shapes), default_timeout=60).run()
    assert len(bare.get("plotly_chart")) == len(shapes)
    page_times, bare_times = [], []
    for repeat in range(REPEATS + 2):
        if edit:
            edit_q(page, 1.0 + repeat % 2)
        start = time.perf_counter()
        page.run()
        page_time = time.perf_counter() - start
        start = time.perf_counter()
        bare.run()
        bare_time = time.perf_counter() - start
        assert not page.exception and not page.error
        if repeat >= 2:  # the first reruns warm caches
            page_times.append(page_time)
            bare_times.append(bare_time)
    return len(shapes), statistics.median(page_times), statistics.median(bare_times)


def main() -> None:
    print(
        f"Luong explorer rerun vs a bare page of as many heatmaps (target ≤ {TARGET}×), "
        f"median of {REPEATS}"
    )
    for label, big in (("default sizes", False), ("8 × 8 everywhere", True)):
        for kind, edit in (("plain rerun", False), ("after a Q edit", True)):
            charts, page, bare = measure(big, edit)
            ratio = page / bare
            verdict = "ok" if ratio <= TARGET else "over target"
            print(
                f"{label:>16}, {kind:<14}: {charts:2d} heatmaps  page {page * 1000:6.1f} ms  "
                f"bare {bare * 1000:6.1f} ms  ratio {ratio:4.2f}×  {verdict}"
            )
    print(
        "(whole-page reruns: in the browser a grid edit reruns only the grids' st.fragment; "
        "its server cost is bench/load.py's 'one session alone' row)"
    )


if __name__ == "__main__":
    main()
