"""The sections of the Nadaraya–Watson page, in the order pages/regression.py draws them.

Every number comes from `attention_core.nadaraya_watson` / `leave_one_out` applied to the
learner's table and controls; each function draws one part and returns what the next needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import streamlit as st

from attention_core import AttentionInputError, NadarayaWatsonResult, nadaraya_watson
from attention_core.formatting import fmt
from attention_core.regression import (
    bandwidth_range,
    leave_one_out,
    nadaraya_watson_classes,
    sphere_bridge,
)
from attention_core.regression_steps import KERNEL_LATEX
from attention_ui.kit.figures.charts import below_floor_note, show_chart
from attention_ui.kit.figures.heatmap import hover_texts
from attention_ui.kit.folds import fold
from attention_ui.kit.grids.points_editor import PointsInput, points_editor
from attention_ui.kit.state import settings as draw
from attention_ui.kit.teaching.steps_view import show_steps
from attention_ui.kit.text.i18n import show_error, t
from attention_ui.kit.text.markdown import escape_markdown, stacked
from attention_ui.regression import data, figures, state
from attention_ui.regression.compute import Inputs, Runs, compute


@dataclass(frozen=True)
class Settings:
    kernel: str
    sigma: float
    queries: int
    chosen: int  # 0-based index of the chosen query


def formula() -> None:
    """Nadaraya–Watson as attention pooling: keys xᵢ, values yᵢ, the query x*."""
    st.latex(
        stacked(
            r"\hat{y}(x^*) = \sum_{i=1}^{m} \alpha(x^*, x_i)\, y_i,",
            r"\alpha(x^*, x_i) = \frac{\kappa\!\left(\frac{x^* - x_i}{\sigma}\right)}"
            r"{\sum_{j=1}^{m} \kappa\!\left(\frac{x^* - x_j}{\sigma}\right)}",
        )
    )
    st.caption(t("regression.formula_note"))


def training_data() -> PointsInput:
    """The preset, its seed and size, and the editable table of (x, y)."""
    st.header(t("regression.data.title"))
    st.caption(t("regression.data.preset"))
    buttons = st.columns(3)
    for index, name in enumerate(data.PRESETS):
        buttons[index % 3].button(
            t(f"regression.preset.{name}"),
            key=f"{state.PRESET.key}.{name}",
            on_click=state.load_preset,
            args=(name,),
            width="stretch",
        )
    preset = st.session_state[state.PRESET.key]
    noisy = preset == "noisy"
    seed_col, count_col = st.columns(2)
    for setting, column in ((state.SEED, seed_col), (state.COUNT, count_col)):
        draw.number_input(setting, column, on_change=state.change_noisy_data, disabled=not noisy)
    state.data_drawn()
    st.caption(
        t(
            f"regression.preset_text.{preset}",
            seed=st.session_state[state.SEED.key],
            count=st.session_state[state.COUNT.key],
        )
    )
    st.latex(data.TRUE_FUNCTIONS[preset][1])
    st.caption(t("regression.data.table_help", add=t("editor.grid.add_row"), limit=50))
    points = points_editor(state.POINTS, state.default_points())
    for problem in points.problems:
        st.error(problem)
    if not points.ok:
        st.error(t("regression.check.no_points"))
        return points
    repeated = data.duplicate_positions(points.x, points.rows)
    if repeated:
        st.info(
            t(
                "regression.check.duplicates",
                places="; ".join(
                    t("regression.check.duplicate", x=fmt(x), rows=", ".join(map(str, rows)))
                    for x, rows in repeated.items()
                ),
            )
        )
    return points


def controls() -> tuple[Settings, Any]:
    """Kernel, σ (checked on the server), a place for the prediction chart (`prediction_chart`,
    drawn once the engine has run), then the number of queries and the chosen query, which
    the chart's lower panel shows."""
    st.header(t("regression.controls.title"))
    kernel = draw.radio(state.KERNEL, horizontal=True)
    st.latex(KERNEL_LATEX[kernel])
    if kernel in ("triangular", "epanechnikov", "boxcar"):
        st.caption(t(f"regression.kernel_note.{kernel}"))
    low, high = (fmt(bound) for bound in state.SIGMA_RANGE)
    draw.number_input(
        state.SIGMA,
        step=0.1,
        format="%g",
        help=t("regression.controls.sigma_help", low=low, high=high),
    )
    entered = st.session_state.get(state.SIGMA.key)
    sigma = state.checked_sigma(entered)
    if sigma is None:
        fallback = st.session_state.get(state.LAST_GOOD_SIGMA, state.SIGMA.default)
        shown = entered if isinstance(entered, (int, float)) else escape_markdown(entered, 30)
        st.error(
            t(
                "regression.controls.sigma_bad",
                value=_number_text(shown),
                low=low,
                high=high,
                used=fmt(fallback),
            )
        )
        sigma = fallback
    else:
        st.session_state[state.LAST_GOOD_SIGMA] = sigma
    chart_place = st.container()
    queries = draw.slider(state.QUERIES)
    chosen = draw.slider(state.CHOSEN, max_value=max(queries, 2), disabled=queries < 2)
    return Settings(kernel, sigma, queries, min(chosen, queries) - 1), chart_place


def _number_text(value: object) -> str:
    if isinstance(value, float):
        return fmt(value, 10)
    return str(value)


def engine_runs(points: PointsInput, settings: Settings) -> Runs | None:
    """The page's one `compute` for this rerun, or its message."""
    try:
        return compute(
            Inputs(points.x, points.y, settings.kernel, settings.sigma, settings.queries)
        )
    except AttentionInputError as error:
        show_error(error)
        return None


def prediction_chart(points: PointsInput, settings: Settings, runs: Runs, preset: str) -> None:
    """Data, true function, prediction curve with its gaps; the chosen query's weights."""
    st.header(t("regression.chart.title"))
    curve, queries = runs.curve, runs.queries
    chosen_x = float(queries.x_query[settings.chosen])
    weights = queries.weights[settings.chosen]
    words = {
        key: t(f"regression.chart.{key}")
        for key in (
            "truth",
            "prediction",
            "data",
            "weights",
            "x_axis",
            "y_axis",
            "weight_axis",
            "point_hover",
        )
    }
    truth = data.TRUE_FUNCTIONS[preset][0](curve.x_query)
    show_chart(
        figures.data_figure(points, curve, words, truth_y=truth, chosen=(chosen_x, weights)),
        "regression.chart.data",
        details=(settings.kernel,),
    )
    st.caption(chart_caption(weights))
    stretches = data.gaps(curve.x_query, curve.reached)
    if stretches:
        st.warning(
            t(
                "regression.chart.gaps",
                count=len(stretches),
                stretches=", ".join(
                    t("regression.chart.stretch", low=fmt(a), high=fmt(b))
                    if a != b
                    else t("regression.chart.stretch_one", x=fmt(a))
                    for a, b in stretches
                ),
            )
        )
    st.markdown(chosen_sentence(queries, settings.chosen, points.rows))
    if settings.kernel in ("triangular", "epanechnikov"):
        compared = kernel_comparison(points.x, points.y, chosen_x, settings)
        if compared:
            st.markdown(compared)


def kernel_comparison(
    x: np.ndarray, y: np.ndarray, query: float, settings: Settings, lang: str | None = None
) -> str | None:
    """The triangular kernel (d2l's "Epanechikov") against the Epanechnikov kernel at the
    chosen query, both from the engine; None when either reaches no point there."""
    predictions = {
        kernel: nadaraya_watson([query], x, y, kernel, settings.sigma).prediction[0]
        for kernel in ("triangular", "epanechnikov")
    }
    if any(np.isnan(value) for value in predictions.values()):
        return None
    return t(
        "regression.kernel_note.compare",
        lang,
        name=rf"x\*{settings.chosen + 1}",
        x=fmt(query),
        **{kernel: fmt(value) for kernel, value in predictions.items()},
    )


def chart_caption(weights: np.ndarray, lang: str | None = None) -> str:
    """The chart's caption; its last sentence says the chosen query's weights sum to 1 only
    when some point reaches it (otherwise they are all 0)."""
    last = "caption_sum" if weights.max() > 0 else "caption_none"
    return f"{t('regression.chart.caption', lang)} {t(f'regression.chart.{last}', lang)}"


def chosen_sentence(
    result: NadarayaWatsonResult, chosen: int, rows: list[int], lang: str | None = None
) -> str:
    """The `chosen` query's prediction and where its largest weight is: one row, or every row
    that shares it (points at the same x, or placed symmetrically); no prediction when no
    point reaches it."""
    weights, x = result.weights[chosen], result.x_query[chosen]
    name = rf"x\*{chosen + 1}"  # escaped: Markdown must not start emphasis here
    if not weights.max() > 0:
        return t("regression.chart.chosen_none", lang, name=name, x=fmt(x))
    top = np.flatnonzero(weights == weights.max())
    return t(
        "regression.chart.chosen" if top.size == 1 else "regression.chart.chosen_tied",
        lang,
        name=name,
        x=fmt(x),
        prediction=fmt(result.prediction[chosen]),
        row=rows[top[0]],
        rows=", ".join(str(rows[i]) for i in top),
        weight=fmt(weights[top[0]]),
    )


def weights_map(points: PointsInput, runs: Runs) -> None:
    """d2l's heatmap of the weights: queries × training points."""
    st.header(t("regression.heatmap.title"))
    st.caption(t("regression.heatmap.caption"))
    result = runs.queries
    step = result.step("nw_weights")
    hover = hover_texts(step.value.shape, step.entry)  # the engine's arithmetic, each entry
    words = {
        "title": t("regression.heatmap.chart"),
        "x_title": t("regression.axis.key"),
        "y_title": t("regression.axis.query"),
    }
    drawn = figures.weights_heatmap(
        result.weights, result.x_query, points.x, points.rows, hover, words
    )
    if not figures.prints_numbers(result.weights.shape):  # too many cells for their numbers
        st.caption(t("regression.heatmap.many"))
    elif note := below_floor_note(result.weights):
        st.caption(note)
    show_chart(drawn, "regression.chart.weights", details=(result.kernel,))


def temperature(points: PointsInput, settings: Settings, runs: Runs) -> None:
    """σ as the temperature: the chosen query's prediction from tiny σ to huge σ. Folded, and
    built only once opened (a page's first view builds only what it shows)."""
    with fold(t("regression.temperature.title"), key=state.TEMPERATURE_BOX) as open_:
        if open_:
            _temperature(points, settings, runs)


def _temperature(points: PointsInput, settings: Settings, runs: Runs) -> None:
    st.markdown(t("regression.temperature.text"))
    st.latex(
        stacked(
            r"\alpha_i = \frac{\exp\!\left(-\frac{(x^* - x_i)^2}{2\sigma^2}\right)}"
            r"{\sum_j \exp\!\left(-\frac{(x^* - x_j)^2}{2\sigma^2}\right)}",
            r"= \operatorname{softmax}_i\!\left(\frac{-\tfrac12 (x^* - x_i)^2}{\tau}\right),"
            r"\quad \tau = \sigma^2",
        )
    )
    query = runs.queries.x_query[settings.chosen]
    nearest = data.nearest_points(points.x, query)
    nearest_y = float(np.mean(points.y[list(nearest)]))
    low, high = state.SIGMA_RANGE
    sigmas = np.geomspace(max(low, float(bandwidth_range(points.x)[0]) / 10), high, 61)
    predictions = np.array(
        [
            nadaraya_watson([query], points.x, points.y, settings.kernel, s).prediction[0]
            for s in sigmas
        ]
    )
    words = {
        "prediction": t("regression.temperature.prediction"),
        "nearest": t(
            "regression.temperature.nearest_line"
            if len(nearest) == 1
            else "regression.temperature.nearest_line_shared",
            row=points.rows[nearest[0]],
            rows=", ".join(str(points.rows[i]) for i in nearest),
            y=fmt(nearest_y),
        ),
        "mean": t("regression.temperature.mean_line", y=fmt(float(np.mean(points.y)))),
        "current": f"σ = {fmt(settings.sigma)}",
        "x_axis": t("regression.axis.sigma"),
        "y_axis": t("regression.temperature.y_axis", name=f"x*{settings.chosen + 1}", x=fmt(query)),
    }
    show_chart(
        figures.sigma_figure(
            sigmas,
            predictions,
            settings.sigma,
            nearest_y,
            float(np.mean(points.y)),
            words,
        ),
        "regression.chart.sigma",
        details=(settings.kernel,),
    )
    kind, text = sigma_sentence(runs.queries, settings.chosen, points.rows)
    (st.success if kind in ("nearest", "nearest_shared", "mean") else st.info)(text)


def sigma_sentence(
    result: NadarayaWatsonResult, chosen: int, rows: list[int], lang: str | None = None
) -> tuple[str, str]:
    """What the `chosen` query's weights are at this σ (`data.sigma_claim`: nearest neighbour,
    the mean, between, or no prediction), as (kind, sentence)."""
    y, distances = result.y_train, np.abs(result.x_train - result.x_query[chosen])
    claim = data.sigma_claim(result.weights[chosen], y, distances)
    params = {
        "name": rf"x\*{chosen + 1}",
        "sigma": fmt(result.bandwidth),
        "row": rows[claim.points[0]],
        "rows": ", ".join(str(rows[i]) for i in claim.points),
        "share": fmt(claim.share),  # a weight, written as every other weight is
        "y": fmt(claim.value),
        "m": y.size,
        "uniform": fmt(1 / y.size),
    }
    return claim.kind, t(f"regression.temperature.claim.{claim.kind}", lang, **params)


def learned_sigma(points: PointsInput, settings: Settings) -> None:
    """Leave-one-out error against σ, its minimum, and a button that uses it. Folded, and
    built only once opened."""
    with fold(t("regression.loo.title"), key=state.LOO_BOX) as open_:
        if open_:
            _learned_sigma(points, settings)


def _learned_sigma(points: PointsInput, settings: Settings) -> None:
    st.markdown(t("regression.loo.text"))
    if points.x.size < 2:
        st.info(t("regression.loo.too_few"))
        return
    low, high = state.SIGMA_RANGE
    sigmas = np.clip(bandwidth_range(points.x, 41), low, high)
    result = leave_one_out(points.x, points.y, settings.kernel, np.unique(sigmas))
    words = {
        "error": t("regression.loo.error"),
        "hover": t("regression.loo.error"),
        "best": t("regression.loo.best"),
        "current": f"σ = {fmt(settings.sigma)}",
        "x_axis": t("regression.axis.sigma"),
        "y_axis": t("regression.loo.y_axis"),
    }
    show_chart(
        figures.loo_figure(result.bandwidths, result.errors, result.best, settings.sigma, words),
        "regression.chart.loo",
        details=(settings.kernel,),
    )
    if result.best is None:
        st.info(t("regression.loo.no_best"))
        return
    best = result.best_bandwidth
    st.markdown(
        t(
            "regression.loo.found",
            sigma=fmt(best),
            error=fmt(result.errors[result.best]),
            m=points.x.size,
        )
    )
    st.button(
        t("regression.loo.use", sigma=fmt(best)),
        key=state.LOO_BUTTON,
        on_click=state.use_sigma,
        args=(best,),
    )


BRIDGE_TOLERANCE = 1e-12  # the two weightings agree up to rounding


def bridge(points: PointsInput, settings: Settings, runs: Runs) -> None:
    """d2l's exercise 3: on the unit circle the Gaussian kernel is dot-product attention."""
    st.header(t("regression.bridge.title"))
    if not draw.toggle(state.SHOW_BRIDGE):
        return
    st.markdown(t("regression.bridge.text"))
    st.latex(
        stacked(
            r"\|\mathbf{q} - \mathbf{k}_i\|^2 = 2 - 2\,\mathbf{q}^\top \mathbf{k}_i"
            r"\quad (\|\mathbf{q}\| = \|\mathbf{k}_i\| = 1),",
            r"\frac{\exp\!\left(-\frac{\|\mathbf{q} - \mathbf{k}_i\|^2}{2\sigma^2}\right)}"
            r"{\sum_j \exp\!\left(-\frac{\|\mathbf{q} - \mathbf{k}_j\|^2}{2\sigma^2}\right)}"
            r"= \operatorname{softmax}_i"
            r"\!\left(\frac{\mathbf{q}^\top \mathbf{k}_i}{\sigma^2}\right)",
        )
    )
    query = float(runs.queries.x_query[settings.chosen])
    result = sphere_bridge([query], points.x, settings.sigma)
    st.dataframe(bridge_table(result, points.rows), hide_index=True)
    st.markdown(bridge_sentence(result, settings, query))


def bridge_table(result, rows: list[int]) -> dict[str, list[str]]:
    """The chosen query against each key: both sides of the identity and both weightings."""
    return {
        t("regression.bridge.row"): [str(row) for row in rows],
        "‖q − kᵢ‖²": [fmt(v) for v in result.squared_distances[0]],
        "2 − 2 qᵀkᵢ": [fmt(v) for v in 2 - 2 * result.dots[0]],
        t("regression.bridge.gaussian"): [fmt(v) for v in result.gaussian[0]],
        t("regression.bridge.dot"): [fmt(v) for v in result.dot_product[0]],
    }


def bridge_sentence(result, settings: Settings, query: float, lang: str | None = None) -> str:
    """Says the two weightings agree only when the engine's numbers do (up to rounding)."""
    params = {
        "name": rf"x\*{settings.chosen + 1}",
        "x": fmt(query),
        "tau": fmt(result.temperature),
        "sigma": fmt(settings.sigma),
        "gap": fmt(result.weight_gap),
        "identity_gap": fmt(result.identity_gap),
    }
    agree = max(result.weight_gap, result.identity_gap) <= BRIDGE_TOLERANCE
    return t("regression.bridge.agree" if agree else "regression.bridge.differ", lang, **params)


def classes(points: PointsInput, settings: Settings, runs: Runs) -> None:
    """d2l: "for (multiclass) classification, we use one-hot-encoding of yᵢ to obtain vᵢ"."""
    st.header(t("regression.classes.title"))
    if not draw.toggle(state.SHOW_CLASSES):
        return
    labels = class_labels(points.y)
    st.markdown(t("regression.classes.text"))
    curve = nadaraya_watson_classes(
        runs.curve.x_query, points.x, labels, settings.kernel, settings.sigma
    )
    names = [t("regression.classes.name", label=fmt(c)) for c in curve.classes]
    words = {"x_axis": t("regression.axis.query"), "y_axis": t("regression.classes.y_axis")}
    show_chart(
        figures.classes_figure(
            curve.regression.x_query, curve.probabilities, curve.regression.reached, names, words
        ),
        "regression.chart.classes",
        details=(settings.kernel,),
    )
    query = float(runs.queries.x_query[settings.chosen])
    chosen = nadaraya_watson_classes([query], points.x, labels, settings.kernel, settings.sigma)
    st.markdown(classes_sentence(chosen, settings, query))


def class_labels(y: np.ndarray) -> np.ndarray:
    """Each point's class: its y rounded to a whole number (the step's 0 and 2, for one)."""
    return np.round(np.asarray(y, dtype=float))


def classes_sentence(result, settings: Settings, query: float, lang: str | None = None) -> str:
    """The chosen query's class probabilities from the engine: its predicted class, or every
    class that ties for the top, or no prediction when no point reaches it."""
    name = rf"x\*{settings.chosen + 1}"
    if result.predicted[0] < 0:
        return t("regression.classes.none", lang, name=name, x=fmt(query))
    probabilities = result.probabilities[0]
    top = np.flatnonzero(probabilities == probabilities.max())
    listed = ", ".join(
        t("regression.classes.share", lang, label=fmt(c), p=fmt(p))
        for c, p in zip(result.classes, probabilities, strict=True)
        if p > 0
    )
    return t(
        "regression.classes.tied" if top.size > 1 else "regression.classes.chosen",
        lang,
        name=name,
        x=fmt(query),
        shares=listed,
        label=fmt(result.classes[top[0]]),
        labels=", ".join(fmt(result.classes[i]) for i in top),
    )


def steps(runs: Runs, points: PointsInput) -> None:
    """The engine's steps at the learner's queries, via the shared step view; drawn only when
    asked for (eight heatmaps more on every rerun are a cost the browser feels)."""
    result = runs.queries
    st.header(t("regression.steps.title", count=len(result.steps)))
    if not draw.toggle(state.SHOW_STEPS):
        return
    st.caption(t("regression.steps.intro"))
    show_steps(
        result,
        {},
        namespace="regression",
        key_prefix="regression.step",
        figures=figures.step_figures(
            result.steps,
            points.rows,
            {"query": t("regression.axis.query"), "key": t("regression.axis.key")},
        ),
    )
