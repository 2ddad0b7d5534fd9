"""Exercise 3: a differentiable search engine, and beside it the hard argmax lookup.

Gradient descent on −log p(target) with p = softmax(Kᵀq), on the learner's 2-D keys or on the
database's names as letter-pair counts; every sentence after it is chosen by the numbers.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from attention_core import AttentionInputError
from attention_core.formatting import fmt
from attention_core.search import (
    MAX_SEARCH_STEPS,
    HardLookup,
    SearchPath,
    letter_pair_vectors,
    outranking_mix,
    plane_projection,
)
from attention_ui.kit.figures.charts import below_floor_note, show_chart
from attention_ui.kit.grids.matrix_editor import matrix_editor
from attention_ui.kit.state import settings as draw
from attention_ui.kit.text.i18n import draw_notes, show_error, t, worded
from attention_ui.kit.text.markdown import escape_markdown, stacked

from . import compute, state, teaching
from .common import labels, opening
from .figures import (
    SearchCaptions,
    StepCaptions,
    loss_figure,
    numbers_fit,
    search_figure,
    weights_per_step_figure,
)

PAIRS_SHOWN = 12  # letter pairs named under the projected plane


def search() -> None:
    controls, chart = opening(
        "search",
        r"L(\mathbf{q}) = -\log p_t,\quad "
        r"p = \operatorname{softmax}(\mathbf{K}^{\mathsf{T}}\mathbf{q}),",
        r"\nabla_{\mathbf{q}} L = -\Big(\mathbf{k}_t - \sum_j p_j \mathbf{k}_j\Big),",
        r"\mathbf{q} \leftarrow \mathbf{q} - \eta\,\nabla_{\mathbf{q}} L",
    )
    with controls:
        source = draw.radio(state.SEARCH_SOURCE, horizontal=True)
        records = _vector_records() if source == "vectors" else _name_records()
    if records is None:
        return
    keys, names = records.keys, records.names
    with controls:
        target, rate, steps = _descent_controls(names, keys.shape[1])
    try:
        numbers = compute.search(compute.SearchInputs(keys, records.start, target, rate, steps))
    except AttentionInputError as error:
        with chart:
            show_error(error)
        return
    path = numbers.path
    if path.capped:
        st.warning(
            t("exercises.search.capped", requested=path.requested_steps, cap=MAX_SEARCH_STEPS)
        )
    if "diverged" in path.notices:
        st.warning(t("exercises.search.diverged", steps=path.steps))
    with chart:
        _plane(path, records, target)
    draw_notes(search_notes(path, keys, target, names))
    _weights_and_loss(path, names)
    _hard_lookup(numbers.hard, names, target)
    teaching.export_search(numbers, records)


def _descent_controls(names: list[str], m: int) -> tuple[int, float, int]:
    if not 0 <= st.session_state[state.SEARCH_TARGET.key] < m:
        st.session_state[state.SEARCH_TARGET.key] = 0
    target = draw.selectbox(
        state.SEARCH_TARGET, options=list(range(m)), format_func=lambda i: _label(names, i)
    )
    # no bounds: the engine caps a rate or a count of steps, and the page says so
    rate = draw.number_input(state.SEARCH_RATE, min_value=None, max_value=None, format="%g")
    steps = draw.number_input(
        state.SEARCH_STEPS,
        min_value=None,
        max_value=None,
        help=t("exercises.search.steps_help", cap=MAX_SEARCH_STEPS),
    )
    return target, rate, steps


def _plane(path: SearchPath, records: compute.Records, target: int) -> None:
    """Keys and path in the plane (projected on the keys' two main directions beyond 2-D)."""
    keys, pairs = records.keys, records.pairs
    centre, axes = plane_projection(keys)
    projected = keys.shape[0] > 2
    show_chart(
        search_figure(
            (keys.T - centre) @ axes,
            records.names,
            target,
            (path.queries - centre) @ axes,
            path.losses,
            captions=worded(
                SearchCaptions,
                "exercises.search",
                x=t("exercises.search.axis1" if projected else "exercises.search.x"),
                y=t("exercises.search.axis2" if projected else "exercises.search.y"),
            ),
        ),
        key="exercises.chart.search",
    )
    if projected:
        st.caption(
            t(
                "exercises.search.projection",
                d=keys.shape[0],
                shown=min(len(pairs), PAIRS_SHOWN),
                pairs=escape_markdown(pair_list(pairs), 200),
            )
        )


def pair_list(pairs: tuple[str, ...]) -> str:
    """The first letter pairs as a reader writes them: a space shown as ␣, no quotes."""
    return " · ".join(pair.replace(" ", "␣") for pair in pairs[:PAIRS_SHOWN])


def _weights_and_loss(path: SearchPath, names: list[str]) -> None:
    losses, weights = path.losses, path.weights
    step = t("exercises.search.step")
    records = t("exercises.search.records")
    captions = StepCaptions(t("exercises.search.weights_title"), step, records)
    left, right = st.columns(2)
    with left:
        if not numbers_fit(*weights.shape):
            st.caption(t("exercises.search.weights_many"))
        elif note := below_floor_note(weights):
            st.caption(note)
        show_chart(
            weights_per_step_figure(weights, names, captions),
            key="exercises.chart.search_weights",
        )
    with right:
        show_chart(
            loss_figure(losses, x_title=step, y_title=t("exercises.search.loss")),
            key="exercises.chart.loss",
        )


def _hard_lookup(hard: HardLookup, names: list[str], target: int) -> None:
    st.markdown("### " + t("exercises.search.hard_title"))
    st.latex(
        stacked(
            r"\alpha_i = \begin{cases} 1 & i = \arg\max_j \mathbf{k}_j^{\mathsf{T}}\mathbf{q} "
            r"\\ 0 & \text{" + t("exercises.search.hard_otherwise") + r"} \end{cases},",
            r"\nabla_{\mathbf{q}}(-\log \alpha_t) = \mathbf{0} \text{ "
            + t("exercises.search.hard_undefined")
            + "}",
        )
    )
    draw_notes(hard_notes(hard, names, target))


def hard_notes(
    hard: HardLookup, labels: list[str], target: int, lang: str | None = None
) -> list[tuple[str, str]]:
    """What the page says about the hard lookup at the start query: on a tie of the top
    scores the argmax is arbitrary and has no gradient; off a tie its gradient is 0, and it
    picks the target or not; then d2l's remark that such models are trained otherwise."""
    best, goal = escape_markdown(labels[hard.best]), escape_markdown(labels[target])
    if len(hard.tied) > 1:
        tied = ", ".join(escape_markdown(labels[i]) for i in hard.tied)
        notes = [
            (
                "markdown",
                t("exercises.search.hard_tie", lang, count=len(hard.tied), tied=tied, best=best),
            )
        ]
    else:
        gradient = "(" + ", ".join(fmt(g) for g in hard.gradient[:4])
        gradient += ", …)" if hard.gradient.size > 4 else ")"
        result = t("exercises.search.hard_result", lang, best=best, target=goal, gradient=gradient)
        verdict = "hard_hit" if hard.best == target else "hard_miss"
        notes = [("markdown", result), ("markdown", t(f"exercises.search.{verdict}", lang))]
    notes.append(("caption", t("exercises.search.hard_reinforcement", lang)))
    return notes


def _label(names: list[str], index: object) -> str:
    """A record's name for the target box (a crafted index is shown as itself, not raised)."""
    return names[index] if isinstance(index, int) and 0 <= index < len(names) else str(index)


def search_notes(
    path, keys: np.ndarray, target: int, labels: list[str], lang: str | None = None
) -> list[tuple[str, str]]:
    """What the page says after the descent, as (how it is drawn, text): whether the loss fell,
    rose or stayed, and whether the target now ranks first (alone or tied), cannot ever come
    first (its key is another's, or a weighted average of others), or not yet.
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
                first=fmt(first, 3),
                last=fmt(last, 3),
                target=name,
                p0=fmt(weights[0, target], 3),
                p=fmt(weights[-1, target], 3),
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
    elif (mix := outranking_mix(keys, target)) is not None:
        notes.append(("info", cannot_win(mix, target, labels, lang)))
    else:
        best = escape_markdown(labels[top[0]])
        notes.append(("info", t("exercises.search.not_yet", lang, target=name, best=best)))
    return notes


def cannot_win(mix: np.ndarray, target: int, labels: list[str], lang: str | None = None) -> str:
    """Why the target can never come first: its key equals another's, or is the weighted
    average `mix` of other keys (the engine's `outranking_mix`), in any dimension."""
    name = escape_markdown(labels[target])
    used = [int(i) for i in np.flatnonzero(mix > 0)]
    if len(used) == 1:
        return t(
            "exercises.search.cannot_win_same",
            lang,
            target=name,
            other=escape_markdown(labels[used[0]]),
        )
    terms = " + ".join(f"{fmt(mix[i], 3)} × **{escape_markdown(labels[i])}**" for i in used)
    return t("exercises.search.cannot_win", lang, target=name, mix=terms)


def _vector_records() -> compute.Records | None:
    """The learner's table of 2-D keys, the record names r1…rm and the start (sliders)."""
    m = draw.number_input(state.SEARCH_M, min_value=1, max_value=state.MAX_RECORDS)
    m = int(min(max(m, 1), state.MAX_RECORDS))
    names = labels("r", m)
    keys_in = matrix_editor(
        "K",
        state.SEARCH_KEYS,
        state.MATRICES[state.SEARCH_KEYS],
        (names, ["x", "y"]),
        help=t("exercises.search.keys_help"),
    )
    q1, q2 = (draw.slider(q, step=0.1) for q in (state.SEARCH_Q1, state.SEARCH_Q2))
    for problem in keys_in.problems:
        st.error(problem)
    return compute.Records(keys_in.values.T, names, np.array([q1, q2])) if keys_in.ok else None


def _name_records() -> compute.Records | None:
    """The database page's keys as letter-pair count vectors; the search starts at q = 0."""
    records, learners = state.database_records()
    names = [record[0] for record in records][: state.MAX_RECORDS * 2]
    source = (
        "exercises.search.names_source_learner" if learners else "exercises.search.names_source_d2l"
    )
    st.caption(t(source, count=len(names)))
    try:
        keys, pairs = letter_pair_vectors(names)
    except AttentionInputError as error:
        show_error(error)
        return None
    st.caption(t("exercises.search.names_start", d=keys.shape[0]))
    return compute.Records(keys, names, np.zeros(keys.shape[0]), pairs, by_name=True)
