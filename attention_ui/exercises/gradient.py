"""Exercise 2: ∇_q Attention = Cov, in the gallery's plane.

The engine's Jacobian ∂o/∂q (chain rule) beside the keys' covariance under p (its definition),
and what the page may say about the gradient's size: each sentence is chosen by the numbers.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from attention_core import AttentionInputError, QueryGradient, query_gradient
from attention_core.formatting import fmt
from attention_core.gradient import frobenius_norm
from attention_ui.kit.figures.charts import show_chart
from attention_ui.kit.figures.heatmap import WEIGHTS
from attention_ui.kit.figures.plane import PlaneCaptions
from attention_ui.kit.state import settings as draw
from attention_ui.kit.text.i18n import draw_notes, show_error, t, worded

from . import compute, state, teaching
from .common import labels, matrix_chart, opening
from .figures import EllipseCaptions, gradient_figure

# Below this norm a change of q no longer moves the output by anything double precision shows
# next to the output's own size (its relative precision is about 2e-16).
NUMERICALLY_GONE = 1e-12
# A q slider's step, and the part of the keys' size the page's three digits still show: a
# gradient whose step moves the output by less is alive but too faint to see.
Q_STEP, VISIBLE = 0.1, 1e-3
# "One weight is so close to 1": all but a millionth of the weight on one key.
ONE_WEIGHT = 1 - 1e-6

# The chain rule for any values, then d2l's case kᵢ = vᵢ. Column layout: K is d_k × m, V is
# d_v × m, and ∂o/∂q is d_v × d_q (row i: ∂oᵢ/∂q, the Jacobian or numerator layout).
FORMULA = (
    r"\frac{\partial \mathbf{o}}{\partial \mathbf{q}} = \frac{1}{\tau}\,\mathbf{V}"
    r"\left(\operatorname{diag}(\mathbf{p}) - \mathbf{p}\mathbf{p}^{\mathsf{T}}\right)"
    r"\mathbf{K}^{\mathsf{T}}",
    r"= \frac{1}{\tau}\sum_i p_i\,(\mathbf{v}_i - \bar{\mathbf{v}})"
    r"(\mathbf{k}_i - \bar{\mathbf{k}})^{\mathsf{T}}",
    r"= \frac{1}{\tau}\operatorname{Cov}_{p}(\mathbf{v}, \mathbf{k})",
    r"\overset{\mathbf{k}_i = \mathbf{v}_i}{=}\; "
    r"\frac{1}{\tau}\operatorname{Cov}_{p}(\mathbf{k})",
)


def gradient() -> None:
    controls, chart = opening("grad", *FORMULA)
    with controls:
        st.caption(t("exercises.grad.layout"))
        points, query, tau = _controls()
    if points == "huge":
        values, source = state.HUGE_POINTS, "exercises.grad.source_huge"
    else:
        values, learners = state.gallery_values()
        source = "exercises.grad.source_gallery" if learners else "exercises.grad.source_default"
    with controls:
        st.caption(t(source, m=values.shape[0], **huge_points_text()))
    key_labels = labels("k", values.shape[0])
    try:
        numbers = compute.gradient(compute.GradientInputs(values, query, tau))
    except AttentionInputError as error:
        with chart:
            show_error(error)
        return
    result, covariance = numbers.result, numbers.covariance
    with chart:
        _plane(values, numbers)
    _matrices(result, covariance, tau, key_labels)
    draw_notes(gradient_notes(result.jacobian, result.weights, values, key_labels))
    draw_notes(tau_notes(query, values, tau, here=result))
    if points == "huge":
        draw_notes(cross_covariance_notes(query, values, state.HUGE_OWN_VALUES, tau))
    teaching.export_gradient(result, values, covariance)
    if draw.toggle(state.GRAD_ANSWER):
        st.markdown(t("exercises.grad.answer"))


def huge_points_text() -> dict[str, str]:
    """The "One huge score" keys and the preset's own values, written as the page writes them."""

    scores = state.HUGE_POINTS @ np.array(state.HUGE_QUERY)
    return {
        "keys": _points(state.HUGE_POINTS),
        "own_values": _points(state.HUGE_OWN_VALUES),
        "query": _points(np.array([state.HUGE_QUERY])),
        "scores": ", ".join(fmt(s) for s in scores),
    }


def _points(rows: np.ndarray) -> str:
    """Points one per row, as "(5, 0), (1, 1)"."""
    return ", ".join("(" + ", ".join(fmt(x) for x in row) + ")" for row in rows)


def _controls() -> tuple[str, np.ndarray, float]:
    points = draw.radio(state.GRAD_POINTS)
    st.button(
        t("exercises.grad.huge_button"),
        key="exercises.grad.huge",
        on_click=state.load_huge_score,
    )
    q1, q2 = (draw.slider(q, step=Q_STEP) for q in (state.GRAD_Q1, state.GRAD_Q2))
    tau = draw.slider(state.GRAD_TAU, step=0.05)
    return points, np.array([q1, q2]), tau


def _plane(values: np.ndarray, numbers: compute.Gradient) -> None:
    show_chart(
        gradient_figure(
            values,
            numbers,
            captions=worded(
                PlaneCaptions,
                "exercises.grad",
                cone=t("gallery.plane.cone"),
                path=t("gallery.plane.path"),
                weight="p",
            ),
            ellipses=worded(EllipseCaptions, "exercises.grad"),
        ),
        key="exercises.chart.gradient",
    )
    st.caption(t("exercises.grad.ellipse_note"))


def _matrices(
    result: QueryGradient, covariance: np.ndarray, tau: float, key_labels: list[str]
) -> None:
    left, right = st.columns(2)
    with left:
        st.latex(r"\underbrace{\frac{\partial \mathbf{o}}{\partial \mathbf{q}}}_{2 \times 2}")
        matrix_chart(
            result.jacobian,
            ["o₁", "o₂"],
            ["q₁", "q₂"],
            t("exercises.grad.jac_name"),
            "exercises.chart.jacobian",
        )
    with right:
        st.latex(
            r"\underbrace{\tfrac{1}{\tau}\operatorname{Cov}_{p}(\mathbf{k})}_{2 \times 2}"
            rf",\quad \tau = {fmt(tau)}"
        )
        matrix_chart(
            covariance / tau,
            ["x", "y"],
            ["x", "y"],
            t("exercises.grad.cov_over_tau"),
            "exercises.chart.covariance",
        )
    difference = float(np.abs(result.jacobian - covariance / tau).max())
    st.markdown(t("exercises.grad.agree", difference=fmt(difference)))
    matrix_chart(
        result.weights[None, :],
        ["p"],
        key_labels,
        t("exercises.grad.weights"),
        "exercises.chart.grad_weights",
        WEIGHTS,
    )


def gradient_notes(
    jacobian: np.ndarray,
    weights: np.ndarray,
    keys: np.ndarray,
    labels: list[str],
    lang: str | None = None,
) -> list[tuple[str, str]]:
    """What the page says about the size of ∂o/∂q, as (how it is drawn, text): its norm and
    the weights, then why it is 0 (every key the same point: exactly, or up to rounding; or
    the weights of the other keys came out as exactly 0), numerically gone (one weight next to
    1, or the weighted keys nearly one point) or alive. `keys` is (m, 2), one key per row.

    Identical keys are tested first: their true gradient is 0 whatever the rounding leaves."""
    norm = frobenius_norm(jacobian)
    best = int(np.argmax(weights))
    others = float(np.delete(weights, best).sum())
    notes = [
        (
            "markdown",
            t(
                "exercises.grad.norm",
                lang,
                norm=fmt(norm, 3),
                best=labels[best],
                p=fmt(weights[best]),
                others=fmt(others, 3),
            ),
        )
    ]
    limit = fmt(NUMERICALLY_GONE)
    if (keys == keys[0]).all() and norm == 0:
        notes.append(("info", t("exercises.grad.exactly_zero", lang)))
    elif (keys == keys[0]).all():  # the mean of equal numbers is not always that number
        notes.append(("info", t("exercises.grad.identical_rounding", lang, norm=fmt(norm, 3))))
    elif norm == 0:  # the keys differ: the covariance's terms are below the smallest float
        notes.append(("info", t("exercises.grad.exactly_zero_underflow", lang, best=labels[best])))
    elif norm < NUMERICALLY_GONE and weights[best] > ONE_WEIGHT:
        notes.append(("warning", t("exercises.grad.gone", lang, norm=fmt(norm, 3), limit=limit)))
    elif norm < NUMERICALLY_GONE:
        notes.append(
            ("warning", t("exercises.grad.gone_close_keys", lang, norm=fmt(norm, 3), limit=limit))
        )
    else:
        move, scale = slider_move(jacobian), float(np.abs(keys).max())
        word = "alive" if move >= VISIBLE * scale else "faint"
        notes.append(
            (
                "markdown" if word == "alive" else "warning",
                t(
                    f"exercises.grad.{word}",
                    lang,
                    norm=fmt(norm, 3),
                    limit=limit,
                    step=fmt(Q_STEP),
                    move=fmt(move, 3),
                    scale=fmt(scale),
                ),
            )
        )
    return notes


def slider_move(jacobian: np.ndarray) -> float:
    """How far one step of the q slider that moves it most changes the output, to first order:
    the largest column of ∂o/∂q times the step."""
    return float(np.linalg.norm(jacobian, axis=0).max()) * Q_STEP


def lower_tau(tau: float) -> float | None:
    """The τ the page compares with: half of this one, no lower than the slider goes; None
    when τ is already at the bottom."""
    low = max(state.GRAD_TAU.field.low, tau / 2)
    return low if low < tau else None


def tau_notes(
    query: np.ndarray,
    keys: np.ndarray,
    tau: float,
    lang: str | None = None,
    *,
    here: QueryGradient | None = None,
) -> list[tuple[str, str]]:
    """What lowering τ would do to ‖∂o/∂q‖ here, measured by the engine at a lower τ: it grows
    where the weights stay shared between keys that differ, shrinks once they concentrate.
    Said only where the gradient is alive (elsewhere it is the identical keys or rounding).
    `here`: the run at τ when the page has it already."""
    low = lower_tau(tau)
    if low is None or (keys == keys[0]).all():
        return []
    if here is None:
        here = compute.gradient(compute.GradientInputs(keys, query, tau)).result
    there = compute.gradient(compute.GradientInputs(keys, query, low)).result
    if here.norm < NUMERICALLY_GONE or here.norm == there.norm:
        return []
    word = "tau_grows" if there.norm > here.norm else "tau_shrinks"
    text = t(
        f"exercises.grad.{word}",
        lang,
        tau=fmt(tau),
        low=fmt(low),
        norm=fmt(here.norm, 3),
        lower=fmt(there.norm, 3),
        factor=fmt(tau / low, 3),
        p=fmt(here.weights.max(), 3),
        p_low=fmt(there.weights.max(), 3),
    )
    return [("markdown", text)]


def cross_covariance_notes(
    query: np.ndarray, keys: np.ndarray, values: np.ndarray, tau: float, lang: str | None = None
) -> list[tuple[str, str]]:
    """With values that are not the keys the Jacobian is the cross-covariance Cov_p(v, k)/τ:
    its entries, and whether it is symmetric (it need not be). One key, value per row."""
    result = query_gradient(query, keys.T, values.T, "dot", temperature=tau)
    J = result.jacobian
    entries = {"values": _points(values), "j11": fmt(J[0, 0], 3), "j12": fmt(J[0, 1], 3)}
    entries |= {"j21": fmt(J[1, 0], 3), "j22": fmt(J[1, 1], 3)}
    symmetric = np.allclose(J, J.T, rtol=1e-9, atol=1e-300)
    key = "cross_symmetric" if symmetric else "cross_asymmetric"
    return [("markdown", t(f"exercises.grad.{key}", lang, **entries))]
