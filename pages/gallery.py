"""Weights gallery: d2l's four special cases of the attention weights, drawn in the plane, and
grids of attention heatmaps in the spirit of d2l's `show_heatmaps`.

The values v₁…v_m are points in the plane; the keys are the same points (d2l's exercise 2,
kᵢ = vᵢ), so a 2-D query q scores each value by the dot product qᵀvᵢ. The engine
(`attention_core.attention`) turns the scores into weights with softmax or divide-by-sum at
temperature τ; `attention_core.geometry` finds and checks the cone and the hull.

Main session-state keys (for tests and the browser tour):
- "gallery.values.editor.<version>": the values table (matrix editor "gallery.values": rows
  v1…vm, columns "x", "y"); "gallery.m": how many values (number input).
- "gallery.preset.<name>": value presets (first_quadrant, around_origin, half_plane, on_a_line).
- "gallery.q1", "gallery.q2": the query's coordinates (sliders).
- "gallery.temperature": τ (a select slider over TEMPERATURES).
- "gallery.normalization": "softmax" | "sum".
- "gallery.cone.editor.<version>": the weights of case 1 (matrix editor "gallery.cone": one
  row "w", columns v1…vm).
- "gallery.grid.source": "luong" | "database"; "gallery.grid.temperatures": the grid's τ columns.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from attention_core import (
    SIMILARITIES,
    AttentionInputError,
    attention,
    combine,
    cone,
    fmt,
    in_cone,
    in_hull,
    lookup_many,
    weight_cases,
)
from attention_ui.figures import WEIGHT_SCALE, step_heatmap
from attention_ui.frame import page_header, show_error
from attention_ui.grid import heatmap_grid
from attention_ui.i18n import localize_arithmetic, t
from attention_ui.matrix_editor import matrix_editor, set_matrix
from attention_ui.page_state import keep_widgets, option_labels, restore_widgets
from attention_ui.plane_figures import PlaneCaptions, plane_figure, view_box
from attention_ui.records_editor import D2L_RECORDS, check_records, current_records

PRESETS = {
    "first_quadrant": [[1.0, 0.5], [0.5, 2.0], [2.0, 1.5]],
    "around_origin": [[2.0, 0.5], [-1.0, 1.5], [-0.5, -2.0], [1.5, -1.0]],
    "half_plane": [[2.0, 0.0], [-2.0, 0.0], [0.5, 1.5]],
    "on_a_line": [[0.5, 0.5], [1.0, 1.0], [2.0, 2.0]],
}
TEMPERATURES = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0)
PATH_TEMPERATURES = np.geomspace(0.01, 100.0, 61)
GRID_TEMPERATURES = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 10.0)
DEFAULT_CONE_WEIGHTS = [1.5, 0.5, 1.0, 0.8, 0.3, 1.2, 0.6, 0.9]
# A small built-in Q and K (column layout: one query / key per column) for the live grid.
EXAMPLE_Q = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
EXAMPLE_K = np.array([[1.0, 0.0, -1.0, 0.5], [0.0, 1.0, 0.0, 0.5]])
DEFAULT_QUERIES = ["Li", "Smola", "Hu"]
KEPT = {"gallery.m": 3, "gallery.q1": 1.0, "gallery.q2": 1.0, "gallery.temperature": 1.0,
        "gallery.normalization": "softmax", "gallery.grid.source": "luong",
        "gallery.grid.temperatures": [0.25, 1.0, 4.0]}
VALUES, CONE_WEIGHTS = "gallery.values", "gallery.cone"


def load_values(name: str) -> None:
    """Preset callback: new values (and as many of them)."""
    points = np.array(PRESETS[name])
    st.session_state["gallery.m"] = points.shape[0]
    set_matrix(VALUES, points)
    st.session_state[f"{VALUES}.shadow"] = points  # the preset replaces the remembered edits


def editor_with_memory(name: str, state_key: str, default: np.ndarray, rows: list[str],
                       cols: list[str]):
    """A matrix editor whose edits survive a visit to another page (a plain `.shadow` copy)."""
    shadow = st.session_state.get(f"{state_key}.shadow")
    base = st.session_state.get(f"{state_key}.base")
    version = st.session_state.get(f"{state_key}.version", 0)
    if (shadow is not None and base is not None and shadow.shape == base.shape
            and f"{state_key}.editor.{version}" not in st.session_state
            and not np.array_equal(shadow, base, equal_nan=True)):
        set_matrix(state_key, shadow)
    entered = matrix_editor(name, state_key, default, rows, cols)
    st.session_state[f"{state_key}.shadow"] = entered.values
    return entered


def plane_captions() -> PlaneCaptions:
    return PlaneCaptions(cone=t("gallery.plane.cone"), hull=t("gallery.plane.hull"),
                         values=t("gallery.plane.values"), output=t("gallery.plane.output"),
                         path=t("gallery.plane.path"), query=t("gallery.plane.query"))


def verdict(ok: bool, yes: str, no: str) -> None:
    (st.success if ok else st.warning)(t(yes) if ok else t(no))


def luong_inputs() -> tuple[np.ndarray, np.ndarray, bool]:
    """The Luong page's current Q and K in column layout, or the built-in example (False)."""
    saved = st.session_state.get("luong.saved") or {}
    layout = saved.get("luong.layout", st.session_state.get("luong.layout", "column"))
    matrices = []
    for name in ("Q", "K"):
        values = st.session_state.get(f"luong.{name}.shadow")
        if values is None:
            values = st.session_state.get(f"luong.{name}.base")
        if values is None:
            return EXAMPLE_Q, EXAMPLE_K, False
        values = np.asarray(values, dtype=float)
        matrices.append(values.T if layout == "row" else values)
    Q, K = matrices
    if Q.ndim != 2 or K.ndim != 2 or Q.shape[0] != K.shape[0] or not (
            np.isfinite(Q).all() and np.isfinite(K).all()):
        return EXAMPLE_Q, EXAMPLE_K, False
    return Q, K, True


restore_widgets(KEPT)
page_header("gallery")
st.latex(r"\operatorname{Attention}(\mathbf{q}, \mathcal{D}) = \sum_{i=1}^{m} "
         r"\alpha(\mathbf{q}, \mathbf{k}_i)\, \mathbf{v}_i,\qquad \mathbf{k}_i = \mathbf{v}_i,"
         r"\quad a(\mathbf{q}, \mathbf{k}_i) = \mathbf{q}^\top \mathbf{v}_i")

# --- Controls: the values, the query, the temperature, the normalization --------------------
st.subheader(t("gallery.plane.title"))
controls, chart = st.columns([2, 3], gap="large")
with controls:
    st.number_input(t("gallery.values.m"), min_value=1, max_value=8, step=1, key="gallery.m")
    m = int(st.session_state["gallery.m"])
    value_labels = [f"v{i + 1}" for i in range(m)]
    st.caption(t("gallery.values.help"))
    values_in = editor_with_memory("V", VALUES, np.array(PRESETS["first_quadrant"]),
                                   value_labels, ["x", "y"])
    preset_columns = st.columns(2)
    for index, name in enumerate(PRESETS):
        preset_columns[index % 2].button(t(f"gallery.preset.{name}"), key=f"gallery.preset.{name}",
                                         on_click=load_values, args=(name,), width="stretch")
    q1 = st.slider(t("gallery.query.q1"), -3.0, 3.0, step=0.1, key="gallery.q1")
    q2 = st.slider(t("gallery.query.q2"), -3.0, 3.0, step=0.1, key="gallery.q2")
    temperature = st.select_slider(t("gallery.temperature.label"), TEMPERATURES,
                                   key="gallery.temperature", format_func=fmt,
                                   help=t("gallery.temperature.help"))
    normalization = st.radio(t("gallery.normalization.label"), ["softmax", "sum"],
                             key="gallery.normalization", horizontal=True,
                             format_func=option_labels("gallery.normalization."))
    if normalization == "softmax":
        st.latex(r"\alpha_i = \frac{\exp(\mathbf{q}^\top\mathbf{v}_i/\tau)}"
                 r"{\sum_j \exp(\mathbf{q}^\top\mathbf{v}_j/\tau)}")
    else:
        st.latex(r"\alpha_i = \frac{(\mathbf{q}^\top\mathbf{v}_i)^{1/\tau}}"
                 r"{\sum_j (\mathbf{q}^\top\mathbf{v}_j)^{1/\tau}}")
        st.caption(t("gallery.normalization.sum_note"))
    for problem in values_in.problems:
        st.error(problem)

values = values_in.values
query = np.array([q1, q2])
result = None
if values_in.ok:
    try:
        result = attention(query[:, None], values.T, values.T, "dot", temperature=temperature,
                           normalization=normalization)
        path = np.array([attention(query[:, None], values.T, values.T, "dot", temperature=tau,
                                   normalization=normalization).output[:, 0]
                         for tau in PATH_TEMPERATURES])
    except AttentionInputError as error:
        with chart:
            show_error(error)
with chart:
    if values_in.ok:
        shape = cone(values)
        output = None if result is None else result.output[:, 0]
        weights = None if result is None else result.weights[:, 0]
        box = view_box(values, query, *([] if output is None else [output]))
        st.plotly_chart(plane_figure(values, output, weights=weights, box=box, cone_shape=shape,
                                     path=None if result is None else path, query=query,
                                     captions=plane_captions()),
                        key="gallery.chart.plane")
        st.caption(t(f"gallery.cone.kind.{shape.kind}"))
        if result is not None:
            st.markdown(t("gallery.plane.output_text", x=fmt(output[0]), y=fmt(output[1]),
                          tau=fmt(temperature)))
            weight_step = result.step(f"weights_{normalization}")
            st.plotly_chart(step_heatmap(weight_step, ["q"], value_labels,
                                         title=t("gallery.plane.weights_title"),
                                         y_title=t("gallery.plane.values"),
                                         colorscale=WEIGHT_SCALE, zmin=0, zmax=1),
                            key="gallery.chart.weights")

# --- The four special cases, side by side -----------------------------------------------------
st.subheader(t("gallery.cases.title"))
st.caption(t("gallery.cases.intro"))
cone_in = editor_with_memory("w", CONE_WEIGHTS, np.array([DEFAULT_CONE_WEIGHTS[:m]]), ["w"],
                             value_labels)
if values_in.ok and result is not None and cone_in.ok:
    alpha = result.weights[:, 0]
    best = int(np.argmax(result.scores[:, 0]))
    cases = [
        ("nonneg", cone_in.values[0]),
        ("convex", alpha),
        ("one_hot", np.eye(m)[best]),
        ("uniform", np.full(m, 1.0 / m)),
    ]
    outputs = [combine(values, w) for _, w in cases]
    small_box = view_box(values, *outputs)
    for column, (name, w), out in zip(st.columns(4), cases, outputs, strict=True):
        with column:
            st.markdown(f"**{t(f'gallery.cases.{name}.title')}**")
            st.plotly_chart(plane_figure(values, out, weights=w, box=small_box,
                                         cone_shape=shape if name == "nonneg" else None,
                                         height=300, captions=plane_captions()),
                            key=f"gallery.chart.case.{name}")
            st.caption(t(f"gallery.cases.{name}.text"))
            st.markdown(t("gallery.cases.weights", weights=", ".join(fmt(x, 3) for x in w),
                          total=fmt(float(np.sum(w))), x=fmt(out[0]), y=fmt(out[1])))
            found = weight_cases(w)
            if name == "nonneg":
                if not found.non_negative:
                    st.warning(t("gallery.cases.nonneg.negative"))
                verdict(in_cone(out, values), "gallery.cases.in_cone", "gallery.cases.out_cone")
                if not in_hull(out, values):
                    st.caption(t("gallery.cases.nonneg.outside_hull"))
            elif name == "convex":
                verdict(found.convex and in_hull(out, values), "gallery.cases.in_hull",
                        "gallery.cases.out_hull")
            elif name == "one_hot":
                verdict(found.one_hot is not None and np.allclose(out, values[best]),
                        "gallery.cases.is_value", "gallery.cases.out_hull")
                st.caption(t("gallery.cases.one_hot.which", index=best + 1))
            else:
                verdict(found.uniform and np.allclose(out, values.mean(axis=0)),
                        "gallery.cases.is_mean", "gallery.cases.out_hull")
elif not cone_in.ok:
    for problem in cone_in.problems:
        st.error(problem)
elif values_in.ok:
    st.info(t("gallery.cases.need_weights"))

# --- d2l's show_heatmaps: a grid from a 4-axis array ------------------------------------------
st.subheader(t("gallery.grid.title"))
st.markdown(t("gallery.grid.intro"))
sanity, live = st.columns([2, 3], gap="large")
with sanity:
    st.markdown(t("gallery.grid.identity"))
    st.plotly_chart(heatmap_grid(np.eye(10).reshape(1, 1, 10, 10), t("gallery.grid.keys"),
                                 t("gallery.grid.queries")), key="gallery.chart.identity")
with live:
    st.radio(t("gallery.grid.source"), ["luong", "database"], key="gallery.grid.source",
             horizontal=True, format_func=option_labels("gallery.grid.source_"))
    st.multiselect(t("gallery.grid.temperatures"), GRID_TEMPERATURES,
                   key="gallery.grid.temperatures", format_func=lambda tau: f"τ = {fmt(tau)}")
    taus = sorted(st.session_state["gallery.grid.temperatures"])
    if not taus:
        st.info(t("gallery.grid.no_temperature"))
    elif st.session_state["gallery.grid.source"] == "luong":
        Q, K, from_luong = luong_inputs()
        st.caption(t("gallery.grid.from_luong" if from_luong else "gallery.grid.example",
                     n=Q.shape[1], m=K.shape[1], d=Q.shape[0]))
        scores = ("dot", "scaled_dot")
        try:
            runs = [[attention(Q, K, K, score, temperature=tau) for tau in taus]
                    for score in scores]
        except AttentionInputError as error:
            show_error(error)
            st.stop()
        matrices = np.array([[r.weights.T for r in row] for row in runs])  # (score, τ, n, m)
        step = "weights_softmax"
        figure = heatmap_grid(
            matrices, t("gallery.grid.keys"), t("gallery.grid.queries"),
            titles=[f"τ = {fmt(tau)}" for tau in taus],
            row_titles=[t(f"gallery.grid.score_{s}") for s in scores],
            x_labels=[f"k{j + 1}" for j in range(K.shape[1])],
            y_labels=[f"q{i + 1}" for i in range(Q.shape[1])], zmin=0, zmax=1,
            colorbar_title="α",
            hover=lambda r, c, i, j: localize_arithmetic(runs[r][c].step(step).entry(j, i)))
        st.plotly_chart(figure, key="gallery.chart.grid")
    else:
        rows = current_records("database.records")
        records = check_records(rows).records if rows else []
        queries = st.session_state.get("database.queries.current") or DEFAULT_QUERIES
        if not records:
            records = list(D2L_RECORDS)
            st.caption(t("gallery.grid.database_default"))
        else:
            st.caption(t("gallery.grid.database_live", records=len(records),
                         queries=len(queries)))
        tables = [[lookup_many(records, queries, sim, tau) for tau in taus]
                  for sim in SIMILARITIES]
        matrices = np.array([[table.weights for table in row] for row in tables])
        figure = heatmap_grid(
            matrices, t("gallery.grid.records"), t("gallery.grid.queries"),
            titles=[f"τ = {fmt(tau)}" for tau in taus],
            row_titles=[t(f"gallery.grid.similarity_{s}") for s in SIMILARITIES],
            x_labels=[f"{i + 1} · {r[0][:12]}" for i, r in enumerate(records)],
            y_labels=[q[:12] for q in queries], zmin=0, zmax=1, colorbar_title="α")
        st.plotly_chart(figure, key="gallery.chart.grid")
        st.caption(t("gallery.grid.exact_note"))
keep_widgets(KEPT)
