"""The sections of the weights gallery, in the order pages/gallery.py draws them.

Each function draws one part of the page and returns what the next part needs; the page itself
stays a short table of contents.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import streamlit as st

from attention_core import AttentionInputError, AttentionResult, attention
from attention_core.formatting import fmt
from attention_core.geometry import Cone, cone, weight_cases
from attention_core.lookup import SIMILARITIES, lookup_many
from attention_ui.gallery import state
from attention_ui.gallery.cases import Case, holds, outside_hull_but_in_cone, special_cases
from attention_ui.gallery.compute import PATH_TEMPERATURES, Inputs, compute, output_path
from attention_ui.kit.figures.charts import shareable, show_chart
from attention_ui.kit.figures.grid import GridSettings, grid_columns, heatmap_grid
from attention_ui.kit.figures.heatmap import WEIGHTS, DrawnFigure, Titles, step_heatmap
from attention_ui.kit.figures.lookup import short
from attention_ui.kit.figures.plane import (
    PLANE_HEIGHT,
    PlaneCaptions,
    PlaneScene,
    plane_figure,
    view_box,
)
from attention_ui.kit.grids.matrix_editor import MatrixInput, matrix_editor
from attention_ui.kit.state import settings as draw
from attention_ui.kit.text.i18n import draw_notes, show_error, t, worded
from attention_ui.kit.text.markdown import stacked

# Where each case's output must land, as (catalog key if it does, if it does not).
VERDICTS = {
    "nonneg": ("gallery.cases.in_cone", "gallery.cases.out_cone"),
    "convex": ("gallery.cases.in_hull", "gallery.cases.out_hull"),
    "one_hot": ("gallery.cases.is_value", "gallery.cases.out_hull"),
    "uniform": ("gallery.cases.is_mean", "gallery.cases.out_hull"),
}


@dataclass(frozen=True)
class Plane:
    """What the plane section leaves for the cases: the values, their labels, the engine's
    result for the query (None if the values or the engine said no) and the values' cone."""

    values_in: MatrixInput
    labels: list[str]
    result: AttentionResult | None
    shape: Cone | None


def formula() -> None:
    """Attention as a lookup whose keys are the values, scored by the dot product."""
    st.latex(
        stacked(
            r"\operatorname{Attention}(\mathbf{q}, \mathcal{D}) = \sum_{i=1}^{m} "
            r"\alpha(\mathbf{q}, \mathbf{k}_i)\, \mathbf{v}_i,",
            r"\mathbf{k}_i = \mathbf{v}_i,\quad a(\mathbf{q}, \mathbf{k}_i) = "
            r"\mathbf{q}^\top \mathbf{v}_i",
        )
    )


def plane_captions() -> PlaneCaptions:
    """The plane charts' words, in this run's language."""
    return worded(PlaneCaptions, "gallery.plane", weight="α")


CASE_HEIGHT = 300  # px: each case's plane (four side by side); the plane's is PLANE_HEIGHT


# The gallery's figures are built once per set of inputs for every session (read-only:
# charts.shareable). Validating a plotly figure as it is built was four fifths of a gallery run
# (a plane, four cases and a grid of one figure per τ; py-spy over the tests); a move of the
# query now builds the plane and the cases alone, the grids are kept.
@st.cache_resource(max_entries=64, show_spinner=False)
def _plane_figure(
    scene: PlaneScene, box: tuple[float, float, float, float], height: int, captions: PlaneCaptions
) -> DrawnFigure:
    """The plane of `scene` in `box`, `height` px high."""
    return shareable(plane_figure(scene, box=box, captions=captions, height=height))


def plane() -> Plane:
    """The values, the query, τ and the normalization (left); the plane and α (right)."""
    st.header(t("gallery.plane.title"))
    controls, chart = st.columns([2, 3], gap="large")
    with controls:
        values_in, value_labels, inputs = plane_controls()
    presets()
    if inputs is None:
        return Plane(values_in, value_labels, None, None)
    result = path = None
    try:
        result = compute(inputs)
        path = output_path(inputs)
    except AttentionInputError as error:
        result = None
        with chart:
            show_error(error)
    shape = cone(inputs.values)
    with chart:
        plane_chart(inputs, value_labels, result, path, shape)
    return Plane(values_in, value_labels, result, shape)


def presets() -> None:
    """The values' presets, on a row under the plane (they wrap on a phone)."""
    row = st.container(horizontal=True)
    for name in state.PRESETS:
        row.button(
            t(f"gallery.preset.{name}"),
            key=f"gallery.preset.{name}",
            on_click=state.load_values,
            args=(name,),
        )


def plane_controls() -> tuple[MatrixInput, list[str], Inputs | None]:
    """The plane's widgets; the inputs they make (None while the values are not usable)."""
    q1, q2 = (draw.slider(setting, step=0.1) for setting in (state.Q1, state.Q2))
    temperature = draw.select_slider(state.TEMPERATURE, format_func=fmt)
    normalization = draw.radio(state.NORMALIZATION, horizontal=True)
    if normalization == "softmax":
        st.latex(
            r"\alpha_i = \frac{\exp(\mathbf{q}^\top\mathbf{v}_i/\tau)}"
            r"{\sum_j \exp(\mathbf{q}^\top\mathbf{v}_j/\tau)}"
        )
    else:
        st.latex(
            r"\alpha_i = \frac{(\mathbf{q}^\top\mathbf{v}_i)^{1/\tau}}"
            r"{\sum_j (\mathbf{q}^\top\mathbf{v}_j)^{1/\tau}}"
        )
        st.caption(t("gallery.normalization.sum_note"))
    # the values under the query's sliders: on a phone, which stacks the columns, the sliders
    # are then on the first screen and the plane follows on the second
    m = int(draw.number_input(state.M))
    value_labels = [f"v{i + 1}" for i in range(m)]
    st.caption(t("gallery.values.help"))
    values_in = matrix_editor(
        "V", state.VALUES, np.array(state.PRESETS["first_quadrant"]), (value_labels, ["x", "y"])
    )
    for problem in values_in.problems:
        st.error(problem)
    if not values_in.ok:
        return values_in, value_labels, None
    inputs = Inputs(values_in.values, (q1, q2), temperature, normalization)
    return values_in, value_labels, inputs


def plane_chart(
    inputs: Inputs,
    value_labels: list[str],
    result: AttentionResult | None,
    path: np.ndarray | None,
    shape: Cone,
) -> None:
    """The plane with the cone, the output and its path over τ; the weights α below."""
    values, query = inputs.values, np.asarray(inputs.query, dtype=float)
    output = None if result is None else result.output[:, 0]
    weights = None if result is None else result.weights[:, 0]
    box = view_box(values, query, *([] if output is None else [output]))
    scene = PlaneScene(
        values, output, weights=weights, cone=shape, path=None if result is None else path,
        query=query,
    )  # fmt: skip
    show_chart(
        _plane_figure(scene, box, PLANE_HEIGHT, plane_captions()),
        key="gallery.chart.plane",
        name=t("gallery.plane.title"),
    )
    st.caption(t(f"gallery.cone.kind.{shape.kind}"))
    if result is None:
        return
    st.markdown(
        t(
            "gallery.plane.output_text",
            x=fmt(output[0]),
            y=fmt(output[1]),
            tau=fmt(inputs.temperature),
        )
    )
    if path is not None:
        st.markdown(" ".join(path_ends(inputs, value_labels)))
    weight_step = result.step(f"weights_{inputs.normalization}")
    show_chart(
        step_heatmap(
            weight_step,
            ["q"],
            value_labels,
            Titles(t("gallery.plane.weights_title"), y=t("gallery.plane.values")),
            looks=WEIGHTS,
        ),
        key="gallery.chart.weights",
    )


def path_ends(inputs: Inputs, labels: list[str], lang: str | None = None) -> list[str]:
    """What the dotted line's two ends are, read from the engine at τ = 0.01 and τ = 100:
    nearly one-hot (a weight ≥ 0.99, the one-hot task's rule), a tie of the top scores that no
    τ breaks, or scores too close for one-hot; and how near uniform the weights are at 100."""
    low = compute(inputs, float(PATH_TEMPERATURES[0]))
    weights, scores = low.weights[:, 0], low.scores[:, 0]
    top = [int(i) for i in np.flatnonzero(weights == weights.max())]
    best = labels[top[0]]
    if len(top) > 1:
        tied = ", ".join(f"**{labels[i]}**" for i in top)
        first = t(
            "gallery.plane.low_tie", lang, tied=tied, score=fmt(scores[top[0]]),
            weight=fmt(weights[top[0]], 3),
        )  # fmt: skip
    elif weights.max() >= 0.99:
        first = t("gallery.plane.low_one_hot", lang, best=best, weight=fmt(weights.max(), 3))
    else:
        second = np.sort(scores)[-2]
        first = t(
            "gallery.plane.low_close", lang, best=best, weight=fmt(weights.max(), 3),
            first=fmt(scores[top[0]]), second=fmt(second),
        )  # fmt: skip
    high = compute(inputs, float(PATH_TEMPERATURES[-1]))
    spread = high.weights[:, 0]
    gap = np.linalg.norm(high.output[:, 0] - np.asarray(inputs.values, dtype=float).mean(axis=0))
    last = t(
        "gallery.plane.high", lang, low=fmt(spread.min(), 3), high=fmt(spread.max(), 3),
        uniform=fmt(1 / spread.size, 3), gap=fmt(gap, 3),
    )  # fmt: skip
    return [first, last]


def cases(plane: Plane) -> None:
    """The four special cases side by side: case 1's weights are the learner's to edit."""
    st.header(t("gallery.cases.title"))
    st.caption(t("gallery.cases.intro"))
    m = len(plane.labels)
    cone_in = matrix_editor(
        "w", state.CONE_WEIGHTS, np.array([state.DEFAULT_CONE_WEIGHTS[:m]]), (["w"], plane.labels)
    )
    if plane.values_in.ok and plane.result is not None and cone_in.ok:
        values = plane.values_in.values
        scores = plane.result.scores[:, 0]
        best = int(np.argmax(scores))
        shown = special_cases(values, plane.result.weights[:, 0], cone_in.values[0], best)
        small_box = view_box(values, *(case.output for case in shown))
        for column, case in zip(st.columns(len(shown)), shown, strict=True):
            with column:
                show_case(case, values, best, scores, plane.shape, small_box)
    elif not cone_in.ok:
        for problem in cone_in.problems:
            st.error(problem)
    elif plane.values_in.ok:
        st.info(t("gallery.cases.need_weights"))


def show_case(
    case: Case,
    values: np.ndarray,
    best: int,
    scores: np.ndarray,
    shape: Cone | None,
    box: tuple[float, float, float, float],
) -> None:
    """One case: its plane, its weights and output, and whether the output is where it must be."""
    name, w, out = case.name, case.weights, case.output
    st.markdown(f"**{t(f'gallery.cases.{name}.title')}**")
    scene = PlaneScene(values, out, weights=w, cone=shape if name == "nonneg" else None)
    show_chart(
        _plane_figure(scene, box, CASE_HEIGHT, plane_captions()),
        key=f"gallery.chart.case.{name}",
        name=t(f"gallery.cases.{name}.title"),
    )
    draw_notes(case_notes(case, values, best, scores))


def case_notes(
    case: Case, values: np.ndarray, best: int, scores: np.ndarray, lang: str | None = None
) -> list[tuple[str, str]]:
    """What the page says under one case's plane, as (how it is drawn, text) in order: what the
    case is, its weights and output, a warning for negative weights, whether the output is
    where the case puts it (✓ or ✗), and why (outside the hull but in the cone; which value the
    one-hot weight picks). `scores` are qᵀvᵢ, one per value; `best` the first largest."""
    name, w, out = case.name, case.weights, case.output
    notes = [
        ("caption", t(f"gallery.cases.{name}.text", lang)),
        (
            "markdown",
            t(
                "gallery.cases.weights",
                lang,
                weights=", ".join(fmt(x) for x in w),
                total=fmt(float(np.sum(w))),
                x=fmt(out[0]),
                y=fmt(out[1]),
            ),
        ),
    ]
    if name == "nonneg" and not weight_cases(w).non_negative:
        notes.append(("warning", t("gallery.cases.nonneg.negative", lang)))
    ok = holds(case, values, best)
    yes, no = VERDICTS[name]
    notes.append(("success", t(yes, lang)) if ok else ("warning", t(no, lang)))
    if outside_hull_but_in_cone(case, values):
        notes.append(("caption", t("gallery.cases.nonneg.outside_hull", lang)))
    elif name == "one_hot":
        tied = int(np.sum(scores == scores[best]))
        key = "which_tied" if tied > 1 else "which"
        notes.append(("caption", t(f"gallery.cases.one_hot.{key}", lang, index=best + 1)))
    return notes


def heatmap_grids() -> None:
    """d2l's show_heatmaps: a grid from a 4-axis array, first the identity as a sanity check,
    then live weights from the Luong page or the database page at several temperatures."""
    st.header(t("gallery.grid.title"))
    st.markdown(t("gallery.grid.intro"))
    sanity, live = st.columns([2, 3], gap="large")
    with sanity:
        st.markdown(t("gallery.grid.identity"))
        show_chart(
            _identity_grid(t("gallery.grid.keys"), t("gallery.grid.queries")),
            key="gallery.chart.identity",
        )
    with live:  # the settings here, the live grid below them at the page's whole width
        draw.radio(state.GRID_SOURCE, horizontal=True)
        draw.multiselect(state.GRID_TAUS, format_func=lambda tau: f"τ = {fmt(tau)}")
    taus = sorted(st.session_state[state.GRID_TAUS.key])
    if not taus:
        st.info(t("gallery.grid.no_temperature"))
    elif st.session_state[state.GRID_SOURCE.key] == "luong":
        luong_grid(taus)
    else:
        database_grid(taus)


@st.cache_resource(max_entries=2, show_spinner=False)
def _identity_grid(keys: str, queries: str) -> DrawnFigure:
    """d2l's sanity check, the 10 × 10 identity, its axes titled `keys` and `queries`."""
    return shareable(
        heatmap_grid(
            np.eye(10).reshape(1, 1, 10, 10),
            keys,
            queries,
            # every cell's number (one digit: "0" or "1") fits its ~30 px cell on a phone
            GridSettings(show_text=True),
        )
    )


LUONG_SCORES = ("dot", "scaled_dot")  # the live grid's rows from the Luong page's Q and K


def luong_grid(taus: list[float]) -> None:
    """Dot and scaled-dot weights of the Luong page's Q and K (or an example), one τ a column."""
    Q, K, from_luong = state.luong_inputs()
    st.caption(
        t(
            "gallery.grid.from_luong" if from_luong else "gallery.grid.example",
            n=Q.shape[1],
            m=K.shape[1],
            d=Q.shape[0],
        )
    )
    try:
        figures = _luong_grid_figures(Q, K, tuple(taus), grid_words("score", LUONG_SCORES))
    except AttentionInputError as error:
        show_error(error)  # and the rest of the page (its kept state too) carries on
        return
    _show_grid(figures, K.shape[1])


@st.cache_resource(max_entries=64, show_spinner=False)
def _luong_grid_figures(
    Q: np.ndarray, K: np.ndarray, taus: tuple[float, ...], words: GridWords
) -> list[DrawnFigure]:
    """The weights of Q and K under each of LUONG_SCORES at each τ, one figure a τ. Raises
    the engine's AttentionInputError."""
    runs = [[attention(Q, K, K, score, temperature=tau) for tau in taus] for score in LUONG_SCORES]
    matrices = np.array([[r.weights.T for r in row] for row in runs])  # (score, τ, n, m)
    return _weights_figures(
        matrices,
        taus,
        words,
        GridSettings(
            x_labels=[f"k{j + 1}" for j in range(K.shape[1])],
            y_labels=[f"q{i + 1}" for i in range(Q.shape[1])],
            hover=lambda r, c, i, j: runs[r][c].step("weights_softmax").entry(j, i),
        ),
    )


def database_grid(taus: list[float]) -> None:
    """Each similarity's weights for the database page's records and queries, one τ a column."""
    records, queries, live = state.database_inputs()
    if live:
        st.caption(t("gallery.grid.database_live", records=len(records), queries=len(queries)))
    else:
        st.caption(t("gallery.grid.database_default"))
    _show_grid(
        _database_grid_figures(
            records, queries, tuple(taus), grid_words("similarity", SIMILARITIES, "records")
        ),
        len(records),
    )
    st.caption(t("gallery.grid.exact_note"))


@st.cache_resource(max_entries=64, show_spinner=False)
def _database_grid_figures(
    records: list, queries: list[str], taus: tuple[float, ...], words: GridWords
) -> list[DrawnFigure]:
    """Each similarity's weights of `records` for `queries` at each τ, one figure a τ."""
    tables = [[lookup_many(records, queries, sim, tau) for tau in taus] for sim in SIMILARITIES]
    matrices = np.array([[table.weights for table in row] for row in tables])
    settings = GridSettings(x_labels=record_labels(records), y_labels=query_labels(queries))
    return _weights_figures(matrices, taus, words, settings)


# Cells across a desktop's row of columns: as many temperatures side by side as keep about
# 40 px a cell (the page's main block is about 700 px wide); a phone stacks them.
ROW_CELLS = 12


@dataclass(frozen=True)
class GridWords:
    """A live grid's words: its axes' titles and one title per row (score or similarity)."""

    keys: str
    queries: str
    rows: tuple[str, ...]


def grid_words(kind: str, rows: Sequence[str], keys: str = "keys") -> GridWords:
    """The live grid's words in this run's language: `gallery.grid.<keys>` across, one
    `gallery.grid.<kind>_<row>` per row."""
    return GridWords(
        t(f"gallery.grid.{keys}"),
        t("gallery.grid.queries"),
        tuple(t(f"gallery.grid.{kind}_{row}") for row in rows),
    )


def _weights_figures(
    matrices: np.ndarray, taus: Sequence[float], words: GridWords, labels: GridSettings
) -> list[DrawnFigure]:
    """The live grid of weights (row, τ, query, key) on one 0…1 scale, one figure a τ."""
    grid = replace(
        labels,
        titles=[f"τ = {fmt(tau)}" for tau in taus],
        row_titles=list(words.rows),
        zmin=0,
        zmax=1,
        colorbar_title="α",
    )
    return [shareable(figure) for figure in grid_columns(matrices, words.keys, words.queries, grid)]


def _show_grid(figures: list[DrawnFigure], keys: int) -> None:
    """The grid's figures (one a τ) side by side while their `keys` cells a row stay wide
    enough for their numbers, in rows, one under another on a phone."""
    per_row = max(1, min(len(figures), ROW_CELLS // max(1, keys)))
    for first in range(0, len(figures), per_row):
        shown = figures[first : first + per_row]
        for offset, (column, figure) in enumerate(zip(st.columns(per_row), shown, strict=False)):
            show_chart(figure, key=f"gallery.chart.grid.{first + offset + 1}", container=column)


def record_labels(records) -> list[str]:
    """'3 · Lipton' per record: numbered, so that equal or long keys stay apart."""
    return [f"{i + 1} · {short(record[0], 12)}" for i, record in enumerate(records)]


def query_labels(queries: list[str]) -> list[str]:
    """'q2 · Smola' per query: numbered like the records, so that two long queries that start
    alike stay two rows of the grid (a category axis merges equal labels)."""
    return [f"q{i + 1} · {short(query, 12)}" for i, query in enumerate(queries)]
