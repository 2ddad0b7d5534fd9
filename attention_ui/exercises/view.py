"""The four exercises of d2l's "Queries, Keys, and Values", in the order pages/exercises.py
draws them. Every number comes from attention_core; this module only lays it out in words.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import (
    MAX_SEARCH_STEPS,
    SIMILARITIES,
    SIMILARITY_LATEX,
    AttentionInputError,
    fmt,
    frobenius_norm,
    gradient_search,
    hard_lookup,
    in_hull,
    letter_pair_vectors,
    lookup,
    plane_projection,
    query_gradient,
    squeeze_excitation,
    weighted_covariance,
)
from attention_ui.database.state import chart_captions as lookup_captions
from attention_ui.exercises import state, teaching
from attention_ui.exercises.figures import (
    EllipseCaptions,
    gates_figure,
    gradient_figure,
    loss_figure,
    search_figure,
)
from attention_ui.kit.figures.charts import show_chart
from attention_ui.kit.figures.heatmap import WEIGHT_SCALE, heatmap
from attention_ui.kit.figures.lookup import weights_bar
from attention_ui.kit.figures.plane import PlaneCaptions
from attention_ui.kit.grids.matrix_editor import matrix_editor
from attention_ui.kit.state.page_state import option_labels
from attention_ui.kit.text.i18n import show_error, t
from attention_ui.kit.text.markdown import escape_markdown, stacked

# Below this norm a change of q no longer moves the output by anything double precision shows
# next to the output's own size (its relative precision is about 2e-16).
NUMERICALLY_GONE = 1e-12
# "One weight is so close to 1": all but a millionth of the weight on one key.
ONE_WEIGHT = 1 - 1e-6


def _labels(prefix: str, count: int) -> list[str]:
    return [f"{prefix}{i + 1}" for i in range(count)]


def _matrix(
    values: np.ndarray, rows: list[str], cols: list[str], title: str, chart_key: str
) -> None:
    show_chart(heatmap(values, cols, rows, title=title), key=chart_key)


def _opening(name: str, *formula: str) -> list:
    """An exercise's title and question (`exercises.<name>.*`), its formula one line at a
    time (so that it fits a phone), and the two columns under it: controls, then charts."""
    st.subheader(t(f"exercises.{name}.title"))
    st.markdown(t(f"exercises.{name}.question"))
    st.latex(stacked(*formula))
    return st.columns([2, 3], gap="large")


def _choice(label: str, key: str, names: str, *, horizontal: bool = False) -> str:
    """A radio over the options state.OPTIONS has for `key`, each worded by `names` + option."""
    return st.radio(
        t(label),
        list(state.OPTIONS[key]),
        key=key,
        horizontal=horizontal,
        format_func=option_labels(names),
    )


def chosen_section() -> str:
    """One exercise at a time: each is a page's worth of charts, and drawing all four on every
    rerun would make every slider move slow."""
    return st.radio(
        t("exercises.section"),
        list(state.SECTIONS),
        key=state.SECTION,
        horizontal=True,
        format_func=option_labels("exercises.section_name."),
    )


def section(name: str) -> None:
    {"match": matching, "grad": gradient, "search": search, "se": squeeze}[name]()


# ---------------------------------------------------------------------------------------------
# Exercise 1: which attention function reproduces approximate matching?


def matching() -> None:
    st.subheader(t("exercises.match.title"))
    st.markdown(t("exercises.match.question"))
    records, learners = state.database_records()
    st.caption(
        t(
            "exercises.match.source_learner" if learners else "exercises.match.source_d2l",
            count=len(records),
        )
    )
    controls, result_column = st.columns([2, 3], gap="large")
    with controls:
        query = st.text_input(t("exercises.match.query"), key=state.MATCH_QUERY, max_chars=100)
        similarity = st.radio(
            t("exercises.match.similarity"),
            SIMILARITIES,
            key=state.MATCH_SIMILARITY,
            horizontal=True,
            format_func=option_labels("exercises.match.similarity_name."),
        )
        tau = st.slider(
            t("exercises.match.tau"), *state.MATCH_TAU_RANGE, step=0.05, key=state.MATCH_TAU
        )
    st.latex(
        stacked(
            *SIMILARITY_LATEX[similarity].split(r",\quad "),  # one part a line, as the database
            r"\alpha(q, k_i) = \frac{\exp(a(q, k_i)/\tau)}{\sum_j \exp(a(q, k_j)/\tau)}",
        )
    )
    with result_column:
        try:
            result = lookup(records, query, similarity, temperature=tau)
        except AttentionInputError as error:
            show_error(error)
            result = None
        if result is not None:
            order = sorted(range(len(result.records)), key=lambda i: -result.weights[i])
            st.dataframe(
                pd.DataFrame(
                    {
                        t("exercises.match.rank"): range(1, len(order) + 1),
                        t("exercises.match.key"): [result.records[i].key for i in order],
                        t("exercises.match.value"): [result.records[i].value for i in order],
                        "a(q, k)": [fmt(result.scores[i]) for i in order],
                        "α": [fmt(result.weights[i]) for i in order],
                    }
                ),
                hide_index=True,
            )
            if result.best is None:
                st.markdown(t("exercises.match.no_answer", query=escape_markdown(query)))
            else:
                best = result.best_index
                st.markdown(
                    t(
                        "exercises.match.best",
                        record=escape_markdown(result.records[best].key),
                        value=escape_markdown(result.records[best].value),
                        weight=fmt(result.weights[best]),
                    )
                )
            show_chart(
                weights_bar(
                    result,
                    tau,
                    "softmax",
                    captions=replace(  # every word of the database page's charts, three own
                        lookup_captions(),
                        weight=t("exercises.match.weight"),
                        records=t("exercises.match.records"),
                        best=t("exercises.match.best_word"),
                    ),
                ),
                key="exercises.chart.match",
            )
            teaching.export_match(result, tau, SIMILARITY_LATEX[similarity])
    if st.toggle(t("exercises.match.answer_toggle"), key=state.MATCH_ANSWER):
        st.markdown(t("exercises.match.answer"))
        try:
            exact = lookup(records, query, "exact")
            approximate = lookup(records, query, "ngram", temperature=tau)
        except AttentionInputError:
            return
        best = approximate.best_index
        st.markdown(
            t(
                "exercises.match.answer_exact_hit"
                if exact.best is not None
                else "exercises.match.answer_exact_miss",
                query=escape_markdown(query),
            )
        )
        if best is not None:
            st.markdown(
                t(
                    "exercises.match.answer_ngram",
                    record=escape_markdown(approximate.records[best].key),
                    weight=fmt(approximate.weights[best]),
                    tau=fmt(tau),
                )
            )


# ---------------------------------------------------------------------------------------------
# Exercise 2: ∇_q Attention = Cov


def gradient() -> None:
    controls, chart = _opening(
        "grad",
        r"\frac{\partial \mathbf{o}}{\partial \mathbf{q}} = \frac{1}{\tau}\,\mathbf{V}"
        r"\left(\operatorname{diag}(\mathbf{p}) - \mathbf{p}\mathbf{p}^{\mathsf{T}}\right)"
        r"\mathbf{K}^{\mathsf{T}}",
        r"\overset{\mathbf{k}_i = \mathbf{v}_i}{=}\; "
        r"\frac{1}{\tau}\operatorname{Cov}_{p}(\mathbf{k})",
        r"= \frac{1}{\tau}\sum_i p_i\,"
        r"(\mathbf{k}_i - \bar{\mathbf{k}})(\mathbf{k}_i - \bar{\mathbf{k}})^{\mathsf{T}}",
    )
    with controls:
        points = _choice("exercises.grad.points", state.GRAD_POINTS, "exercises.grad.points_name.")
        st.button(
            t("exercises.grad.huge_button"),
            key="exercises.grad.huge",
            on_click=state.load_huge_score,
        )
        q1 = st.slider(t("exercises.grad.q1"), *state.GRAD_Q_RANGE, step=0.1, key=state.GRAD_Q1)
        q2 = st.slider(t("exercises.grad.q2"), *state.GRAD_Q_RANGE, step=0.1, key=state.GRAD_Q2)
        tau = st.slider(
            t("exercises.grad.tau"), *state.GRAD_TAU_RANGE, step=0.05, key=state.GRAD_TAU
        )
    if points == "huge":
        values, source = state.HUGE_POINTS, "exercises.grad.source_huge"
    else:
        values, learners = state.gallery_values()
        source = "exercises.grad.source_gallery" if learners else "exercises.grad.source_default"
    with controls:
        st.caption(t(source, m=values.shape[0]))
    labels = _labels("k", values.shape[0])
    query = np.array([q1, q2])
    try:
        result = query_gradient(query, values.T, values.T, "dot", temperature=tau)
    except AttentionInputError as error:
        with chart:
            show_error(error)
        return
    covariance = weighted_covariance(values.T, result.weights)
    with chart:
        show_chart(
            gradient_figure(
                values,
                result.output,
                query,
                result.weights,
                covariance,
                result.jacobian,
                captions=PlaneCaptions(
                    cone=t("gallery.plane.cone"),
                    hull=t("exercises.grad.hull"),
                    values=t("exercises.grad.values"),
                    path=t("gallery.plane.path"),
                    output=t("exercises.grad.output"),
                    query=t("exercises.grad.query"),
                    weight="p",
                ),
                ellipses=EllipseCaptions(
                    covariance=t("exercises.grad.cov_name"), jacobian=t("exercises.grad.jac_name")
                ),
            ),
            key="exercises.chart.gradient",
        )
        st.caption(t("exercises.grad.ellipse_note"))
    left, right = st.columns(2)
    with left:
        st.latex(r"\underbrace{\frac{\partial \mathbf{o}}{\partial \mathbf{q}}}_{2 \times 2}")
        _matrix(
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
        _matrix(
            covariance / tau,
            ["x", "y"],
            ["x", "y"],
            t("exercises.grad.cov_over_tau"),
            "exercises.chart.covariance",
        )
    difference = float(np.abs(result.jacobian - covariance / tau).max())
    st.markdown(t("exercises.grad.agree", difference=fmt(difference)))
    _matrix(
        result.weights[None, :],
        ["p"],
        labels,
        t("exercises.grad.weights"),
        "exercises.chart.grad_weights",
    )
    draw = {"markdown": st.markdown, "info": st.info, "warning": st.warning}
    for kind, text in gradient_notes(result.jacobian, result.weights, values, labels):
        draw[kind](text)
    teaching.export_gradient(result, values, covariance)
    if st.toggle(t("exercises.grad.answer_toggle"), key=state.GRAD_ANSWER):
        st.markdown(t("exercises.grad.answer"))


def gradient_notes(
    jacobian: np.ndarray,
    weights: np.ndarray,
    keys: np.ndarray,
    labels: list[str],
    lang: str | None = None,
) -> list[tuple[str, str]]:
    """What the page says about the size of ∂o/∂q, as (how it is drawn, text): its norm and
    the weights, then why it is exactly 0 (every key the same point, or the weights of the
    other keys came out as exactly 0), numerically gone (one weight next to 1, or the weighted
    keys nearly one point) or alive. `keys` is (m, 2), one key per row."""
    norm = frobenius_norm(jacobian)
    best = int(np.argmax(weights))
    others = float(np.delete(weights, best).sum())
    notes = [
        (
            "markdown",
            t(
                "exercises.grad.norm",
                lang,
                norm=fmt(norm),
                best=labels[best],
                p=fmt(weights[best], 6),  # next to 1 but not 1: the digits that say so
                others=fmt(others),
            ),
        )
    ]
    limit = fmt(NUMERICALLY_GONE)
    if norm == 0 and (keys == keys[0]).all():
        notes.append(("info", t("exercises.grad.exactly_zero", lang)))
    elif norm == 0:  # the keys differ: the covariance's terms are below the smallest float
        notes.append(("info", t("exercises.grad.exactly_zero_underflow", lang, best=labels[best])))
    elif norm < NUMERICALLY_GONE and weights[best] > ONE_WEIGHT:
        notes.append(("warning", t("exercises.grad.gone", lang, norm=fmt(norm), limit=limit)))
    elif norm < NUMERICALLY_GONE:
        notes.append(
            ("warning", t("exercises.grad.gone_close_keys", lang, norm=fmt(norm), limit=limit))
        )
    else:
        notes.append(("markdown", t("exercises.grad.alive", lang, limit=limit)))
    return notes


# ---------------------------------------------------------------------------------------------
# Exercise 3: a differentiable search engine


def search() -> None:
    controls, chart = _opening(
        "search",
        r"L(\mathbf{q}) = -\log p_t,\quad "
        r"p = \operatorname{softmax}(\mathbf{K}^{\mathsf{T}}\mathbf{q}),",
        r"\nabla_{\mathbf{q}} L = -\Big(\mathbf{k}_t - \sum_j p_j \mathbf{k}_j\Big),",
        r"\mathbf{q} \leftarrow \mathbf{q} - \eta\,\nabla_{\mathbf{q}} L",
    )
    with controls:
        source = _choice(
            "exercises.search.source",
            state.SEARCH_SOURCE,
            "exercises.search.source_name.",
            horizontal=True,
        )
        if source == "vectors":
            keys, labels, start, names = _vector_records()
        else:
            keys, labels, start, names = _name_records()
    if keys is None:
        return
    m = keys.shape[1]
    with controls:
        if not 0 <= st.session_state[state.SEARCH_TARGET] < m:
            st.session_state[state.SEARCH_TARGET] = 0
        target = st.selectbox(
            t("exercises.search.target"),
            list(range(m)),
            key=state.SEARCH_TARGET,
            format_func=lambda i: _label(labels, i),
        )
        rate = st.number_input(
            t("exercises.search.rate"),
            key=state.SEARCH_RATE,
            format="%g",
            help=t("exercises.search.rate_help"),
        )
        steps = st.number_input(
            t("exercises.search.steps"),
            key=state.SEARCH_STEPS,
            step=1,
            help=t("exercises.search.steps_help", cap=MAX_SEARCH_STEPS),
        )
    try:
        path = gradient_search(start, keys, target, learning_rate=rate, steps=steps)
    except AttentionInputError as error:
        with chart:
            show_error(error)
        return
    if path.capped:
        st.warning(
            t("exercises.search.capped", requested=path.requested_steps, cap=MAX_SEARCH_STEPS)
        )
    if "diverged" in path.notices:
        st.warning(t("exercises.search.diverged", steps=path.steps))
    centre, axes = plane_projection(keys)
    keys_2d = (keys.T - centre) @ axes
    path_2d = (path.queries - centre) @ axes
    projected = keys.shape[0] > 2
    with chart:
        show_chart(
            search_figure(
                keys_2d,
                labels,
                target,
                path_2d,
                path.losses,
                x_title=t("exercises.search.axis1" if projected else "exercises.search.x"),
                y_title=t("exercises.search.axis2" if projected else "exercises.search.y"),
                key_name=t("exercises.search.records"),
                path_name=t("exercises.search.path"),
                loss_word=t("exercises.search.loss"),
                step_word=t("exercises.search.step"),
            ),
            key="exercises.chart.search",
        )
        if projected:
            st.caption(
                t(
                    "exercises.search.projection",
                    d=keys.shape[0],
                    pairs=escape_markdown(", ".join(f"'{p}'" for p in names[:12]), 200),
                )
            )
    losses, weights = path.losses, path.weights
    draw = {"markdown": st.markdown, "success": st.success, "info": st.info}
    for kind, text in search_notes(path, keys, target, labels):
        draw[kind](text)
    iterations = [str(i) for i in range(len(losses))]
    hover = [
        [
            f"{t('exercises.search.step')} {j}, {labels[i]}: p = {fmt(weights[j, i])}"
            for j in range(len(iterations))
        ]
        for i in range(m)
    ]
    left, right = st.columns(2)
    with left:
        show_chart(
            heatmap(
                weights.T,
                iterations,
                labels,
                title=t("exercises.search.weights_title"),
                x_title=t("exercises.search.step"),
                y_title=t("exercises.search.records"),
                hover=hover,
                colorscale=WEIGHT_SCALE,
                zmin=0,
                zmax=1,
            ),
            key="exercises.chart.search_weights",
        )
    with right:
        show_chart(
            loss_figure(
                losses, x_title=t("exercises.search.step"), y_title=t("exercises.search.loss")
            ),
            key="exercises.chart.loss",
        )
    hard = hard_lookup(start, keys, target)
    st.markdown("#### " + t("exercises.search.hard_title"))
    st.latex(
        stacked(
            r"\alpha_i = \begin{cases} 1 & i = \arg\max_j \mathbf{k}_j^{\mathsf{T}}\mathbf{q} "
            r"\\ 0 & \text{" + t("exercises.search.hard_otherwise") + r"} \end{cases},",
            r"\nabla_{\mathbf{q}}(-\log \alpha_t) = \mathbf{0} \text{ "
            + t("exercises.search.hard_undefined")
            + "}",
        )
    )
    gradient_text = (
        "("
        + ", ".join(fmt(g) for g in hard.gradient[:4])
        + (", …)" if hard.gradient.size > 4 else ")")
    )
    st.markdown(
        t(
            "exercises.search.hard_result",
            best=escape_markdown(labels[hard.best]),
            target=escape_markdown(labels[target]),
            gradient=gradient_text,
        )
    )
    st.markdown(
        t("exercises.search.hard_hit" if hard.best == target else "exercises.search.hard_miss")
    )
    teaching.export_search(
        path,
        keys,
        start,
        hard.best,
        labels,
        names=labels if source == "names" else None,
        pairs=names,
    )


def _label(labels: list[str], index: object) -> str:
    """A record's name for the target box (a crafted index is shown as itself, not raised)."""
    return labels[index] if isinstance(index, int) and 0 <= index < len(labels) else str(index)


def search_notes(
    path, keys: np.ndarray, target: int, labels: list[str], lang: str | None = None
) -> list[tuple[str, str]]:
    """What the page says after the descent, as (how it is drawn, text): whether the loss fell,
    rose or stayed, and whether the target now ranks first (alone or tied), cannot ever come
    first (its key is another's, or, in the plane, inside the other keys' hull), or not yet.
    `keys` is d × m, one key per column."""
    losses, weights = path.losses, path.weights
    first, last = float(losses[0]), float(losses[-1])
    summary = "summary" if last < first else "summary_rose" if last > first else "summary_same"
    name = escape_markdown(labels[target])
    notes = [
        (
            "markdown",
            t(
                f"exercises.search.{summary}",
                lang,
                steps=path.steps,
                first=fmt(first),
                last=fmt(last),
                target=name,
                p0=fmt(weights[0, target]),
                p=fmt(weights[-1, target]),
            ),
        )
    ]
    final = weights[-1]
    top = [int(i) for i in np.flatnonzero(final == final.max())]
    if top == [target]:
        notes.append(("success", t("exercises.search.found", lang, target=name)))
    elif target in top:
        others = ", ".join(escape_markdown(labels[i]) for i in top if i != target)
        notes.append(("info", t("exercises.search.found_tied", lang, target=name, others=others)))
    elif never_first(keys, target):
        notes.append(("info", t("exercises.search.cannot_win", lang, target=name)))
    else:
        best = escape_markdown(labels[top[0]])
        notes.append(("info", t("exercises.search.not_yet", lang, target=name, best=best)))
    return notes


def never_first(keys: np.ndarray, target: int) -> bool:
    """Whether no query can give the target key the largest score alone: its key equals
    another's, or (in the plane) lies in the convex hull of the other keys, since a linear
    score k·q is largest at a corner of the hull. Beyond the plane nothing is claimed."""
    points = np.asarray(keys, dtype=float).T  # m × d
    others = np.delete(points, target, axis=0)
    if others.size and (others == points[target]).all(axis=1).any():
        return True
    return points.shape[1] == 2 and len(others) > 0 and bool(in_hull(points[target], others))


def _vector_records():
    """The learner's table of 2-D keys, the record names r1…rm and the start (sliders)."""
    m = st.number_input(
        t("exercises.search.m"),
        min_value=1,
        max_value=state.MAX_RECORDS,
        step=1,
        key=state.SEARCH_M,
    )
    m = int(min(max(m, 1), state.MAX_RECORDS))
    labels = _labels("r", m)
    keys_in = matrix_editor(
        "K",
        state.SEARCH_KEYS,
        state.MATRICES[state.SEARCH_KEYS],
        labels,
        ["x", "y"],
        help=t("exercises.search.keys_help"),
    )
    q1 = st.slider(
        t("exercises.search.start1"), *state.SEARCH_Q_RANGE, step=0.1, key=state.SEARCH_Q1
    )
    q2 = st.slider(
        t("exercises.search.start2"), *state.SEARCH_Q_RANGE, step=0.1, key=state.SEARCH_Q2
    )
    for problem in keys_in.problems:
        st.error(problem)
    if not keys_in.ok:
        return None, labels, None, ()
    return keys_in.values.T, labels, np.array([q1, q2]), ()


def _name_records():
    """The database page's keys as letter-pair count vectors; the search starts at q = 0."""
    records, learners = state.database_records()
    names = [record[0] for record in records][: state.MAX_RECORDS * 2]
    st.caption(
        t(
            "exercises.search.names_source_learner"
            if learners
            else "exercises.search.names_source_d2l",
            count=len(names),
        )
    )
    try:
        keys, pairs = letter_pair_vectors(names)
    except AttentionInputError as error:
        show_error(error)
        return None, names, None, ()
    st.caption(t("exercises.search.names_start", d=keys.shape[0]))
    return keys, names, np.zeros(keys.shape[0]), pairs


# ---------------------------------------------------------------------------------------------
# Exercise 4: Squeeze-and-Excitation as attention


def squeeze() -> None:
    st.subheader(t("exercises.se.title"))
    st.markdown(t("exercises.se.question"))
    sizes = st.columns(3)
    channels = sizes[0].number_input(
        t("exercises.se.channels"),
        min_value=0,
        max_value=state.MAX_CHANNELS,
        step=1,
        key=state.SE_CHANNELS,
    )
    pixels = sizes[1].number_input(
        t("exercises.se.pixels"),
        min_value=0,
        max_value=state.MAX_PIXELS,
        step=1,
        key=state.SE_PIXELS,
    )
    hidden = sizes[2].number_input(
        t("exercises.se.r"), min_value=1, max_value=state.MAX_HIDDEN, step=1, key=state.SE_R
    )
    limits = (
        (channels, state.MAX_CHANNELS, "exercises.se.channels"),
        (pixels, state.MAX_PIXELS, "exercises.se.pixels"),
        (hidden, state.MAX_HIDDEN, "exercises.se.r"),
    )
    for value, limit, name in limits:  # the browser's max is not enforced on the server
        if value > limit:
            st.warning(t("exercises.se.too_many", name=t(name), value=value, limit=limit))
    channels, pixels = min(int(channels), state.MAX_CHANNELS), min(int(pixels), state.MAX_PIXELS)
    hidden = max(1, min(int(hidden), state.MAX_HIDDEN))
    if channels < 1 or pixels < 1:  # nothing to edit: the engine names what is empty
        try:
            squeeze_excitation(
                np.zeros((channels, pixels)),
                np.zeros((hidden, channels)),
                np.zeros((channels, hidden)),
            )
        except AttentionInputError as error:
            show_error(error)
        return
    c_labels, p_labels, r_labels = (
        _labels("c", channels),
        _labels("p", pixels),
        _labels("h", hidden),
    )
    grids = st.columns([3, 2, 2])
    with grids[0]:
        x_in = matrix_editor(
            "X",
            state.SE_X,
            state.MATRICES[state.SE_X],
            c_labels,
            p_labels,
            help=t("exercises.se.x_help"),
        )
    with grids[1]:
        w1_in = matrix_editor("W1", state.SE_W1, state.MATRICES[state.SE_W1], r_labels, c_labels)
    with grids[2]:
        w2_in = matrix_editor("W2", state.SE_W2, state.MATRICES[state.SE_W2], c_labels, r_labels)
    problems = x_in.problems + w1_in.problems + w2_in.problems
    for problem in problems:
        st.error(problem)
    if problems:
        return
    try:
        se = squeeze_excitation(x_in.values, w1_in.values, w2_in.values)
        soft = squeeze_excitation(x_in.values, w1_in.values, w2_in.values, gate="softmax")
    except AttentionInputError as error:
        show_error(error)
        return
    for step in se.steps:
        rows = c_labels if step.value.shape[0] == channels else r_labels
        cols = p_labels if step.value.shape[1] == pixels and step.value.shape[1] > 1 else [""]
        formula, matrix = st.columns([2, 3])
        with formula:
            st.markdown("**" + t(f"exercises.se.step.{step.key}") + "**")
            st.latex(step.latex)
        with matrix:
            _matrix(step.value, rows, cols, "", f"exercises.chart.{step.key}")
    st.markdown("#### " + t("exercises.se.reading_title"))
    st.markdown(t("exercises.se.reading"))
    show_chart(
        gates_figure(
            c_labels,
            se.gates,
            soft.gates,
            sigmoid_name=t("exercises.se.sigmoid"),
            softmax_name=t("exercises.se.softmax"),
            x_title=t("exercises.se.channel"),
            y_title=t("exercises.se.weight"),
        ),
        key="exercises.chart.gates",
    )
    total = se.gate_sum
    st.markdown(
        t(
            "exercises.se.sigmoid_sum",
            total=fmt(total),
            low=fmt(se.gates.min()),
            high=fmt(se.gates.max()),
        )
    )
    if abs(total - 1) > 1e-9:
        st.markdown(t("exercises.se.cone"))
    else:
        st.markdown(t("exercises.se.sum_one_by_chance"))
    st.markdown(t("exercises.se.softmax_sum", total=fmt(soft.gate_sum)))
    teaching.export_se(se, soft, w1_in.values, w2_in.values, (c_labels, p_labels, r_labels))
