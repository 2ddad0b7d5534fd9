"""The engine's steps on screen: each intermediate matrix with its formula, its sentence and a
heatmap whose hover spells out every entry's arithmetic; and one entry followed through them.

The pure builders (`step_axes`, `step_figure`, `score_hover`, `weight_hover`, `trace_entry`)
take an `AttentionResult` and return labels, figures or numbers, so tests can check them
without Streamlit. `show_steps` and `show_entry_trace` draw them; their text comes from the
calling page's catalog namespace (`<namespace>.steps.*`), so any page can reuse them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import AttentionResult, Step
from attention_core.entry import score_terms
from attention_core.formatting import fmt, subscript
from attention_ui.kit.figures.charts import show_chart
from attention_ui.kit.figures.heatmap import (
    SIGNED,
    WEIGHTS,
    DrawnFigure,
    Titles,
    heatmap,
    hover_texts,
)
from attention_ui.kit.text.i18n import step_sentence, step_title, t

# What the rows and columns of each step's matrix are, in column layout (rows, columns).
# Kinds: key, query, dim (a vector entry), hidden (a unit of the concat layer), sum.
STEP_AXES: dict[str, tuple[str, str]] = {
    "keys_transposed": ("key", "dim"),
    "queries_transformed": ("dim", "query"),
    "queries_projected": ("hidden", "query"),
    "keys_projected": ("hidden", "key"),
    "sums": ("sum", "query"),
    "output": ("dim", "query"),
}
# The steps that compute the score of one (key, query) pair from vectors, before it is an
# entry of a score-shaped matrix.
_VECTOR_STEPS = ("keys_transposed", "queries_transformed", "queries_projected", "keys_projected")
_WEIGHT_STEPS = ("weights_softmax", "weights_sum")
_SCORE_STEPS = ("scaled", "scores_dot", "scores_general", "scores_concat", "scores_location")


@dataclass(frozen=True)
class StepAxes:
    x_labels: list[str]
    y_labels: list[str]
    x_title: str
    y_title: str


def axis_labels(kind: str, count: int) -> list[str]:
    """q1…qn, k1…km, 1…d for vector entries and hidden units, Σ for a sum row."""
    if kind == "query":
        return [f"q{j}" for j in range(1, count + 1)]
    if kind == "key":
        return [f"k{i}" for i in range(1, count + 1)]
    if kind == "sum":
        return ["Σ"] * count if count == 1 else [f"Σ{i}" for i in range(1, count + 1)]
    return [str(a) for a in range(1, count + 1)]


def step_axes(
    step: Step,
    layout: str,
    titles: Mapping[str, str],
    labels: Mapping[str, Sequence[str]] | None = None,
) -> StepAxes:
    """Axis labels and titles of a step's matrix as the learner sees it (`step.value` is
    already in `layout`). `titles` maps a kind (key, query, dim, hidden, sum) to its word;
    `labels` may name a kind's entries (e.g. the queries and keys by their tokens)."""
    rows, cols = STEP_AXES.get(step.key, ("key", "query"))
    if layout == "row":
        rows, cols = cols, rows
    n_rows, n_cols = step.value.shape
    named = labels or {}
    return StepAxes(
        list(named.get(cols, axis_labels(cols, n_cols))),
        list(named.get(rows, axis_labels(rows, n_rows))),
        titles.get(cols, cols),
        titles.get(rows, rows),
    )


def step_figure(
    step: Step,
    layout: str,
    titles: Mapping[str, str],
    *,
    title: str = "",
    hover: Sequence[Sequence[str]] | None = None,
    labels: Mapping[str, Sequence[str]] | None = None,
) -> DrawnFigure:
    """The heatmap of one step; hover = the engine's arithmetic of each entry by default.
    Weights keep the fixed 0…1 red scale so that two weight charts compare at a glance."""
    axes = step_axes(step, layout, titles, labels)
    if hover is None:
        hover = hover_texts(step.value.shape, step.entry)
    weights = step.key in _WEIGHT_STEPS
    return heatmap(
        step.value,
        axes.x_labels,
        axes.y_labels,
        Titles(title, axes.x_title, axes.y_title),
        hover=hover,
        looks=WEIGHTS if weights else SIGNED,
    )


def score_step(result: AttentionResult) -> Step:
    """The step whose value is `result.scores` (the scaled one for scaled dot)."""
    for key in _SCORE_STEPS:
        try:
            return result.step(key)
        except KeyError:
            continue
    raise KeyError("scores")


def weight_step(result: AttentionResult) -> Step:
    return result.step("weights_softmax" if result.normalization == "softmax" else "weights_sum")


def score_hover(result: AttentionResult) -> list[list[str]]:
    """For each score, the products that sum to it (and, for scaled dot, the division)."""
    step = score_step(result)
    if step.key != "scaled":
        return hover_texts(step.value.shape, step.entry)
    dots = result.step("scores_dot")
    root = fmt(np.sqrt(step.params["d_k"]))
    return hover_texts(
        step.value.shape,
        lambda r, c: (
            f"{dots.entry(r, c)} → ÷√{step.params['d_k']} (≈ {root}) = {fmt(step.value[r, c])}"
        ),
    )


def weight_hover(result: AttentionResult) -> list[list[str]]:
    """For each softmax weight: a = exp(s − max) / Σ exp, with the engine's numbers."""
    weights = weight_step(result)
    if result.normalization != "softmax":
        return hover_texts(weights.value.shape, weights.entry)
    shifted = result.step("shifted").value
    exponentials = result.step("exponentials").value
    sums = result.step("sums").value.reshape(-1)
    column = result.layout == "column"

    def explain(r: int, c: int) -> str:
        name = f"a{subscript(r + 1)}{subscript(c + 1)}"
        total = fmt(sums[c if column else r])
        if not np.isfinite(shifted[r, c]):
            return f"{name} = exp(−∞) / Σ = 0 / {total} = 0"
        return (
            f"{name} = exp(s − max) / Σ exp = exp({fmt(shifted[r, c])}) / {total} = "
            f"{fmt(exponentials[r, c])} / {total} = {fmt(weights.value[r, c])}"
        )

    return hover_texts(weights.value.shape, explain)


# ---------------------------------------------------------------------------------------------
# One entry followed through every step


@dataclass(frozen=True)
class EntryTrace:
    """How the score, the weight and the output share of one (key, query) pair come about.

    `vectors` are rows over a shared index (vector entries or hidden units): the two vectors
    that meet, then their elementwise products, whose sum is the raw score. `chain` is each
    later step's arithmetic for this pair, in the engine's order. The last part is the weight's
    share of the output: a·v_i next to o_j = Σ a·v.
    """

    score: str
    key: int  # 0-based key index i
    query: int  # 0-based query index j
    weight_name: str  # a₂₁ for key 2, query 1 in column layout; a₁₂ in row layout
    index: list[str]
    vectors: list[tuple[str, np.ndarray]]
    raw_score: float
    chain: list[tuple[Step, str]]
    weight: float
    value: np.ndarray  # v_i
    contribution: np.ndarray  # a_ij · v_i
    output: np.ndarray  # o_j


def trace_entry(
    result: AttentionResult,
    Q: np.ndarray,
    V: np.ndarray,
    key: int,
    query: int,
    parameters: Mapping[str, np.ndarray] | None = None,
) -> EntryTrace:
    """Follow score, weight and output share of key `key` for query `query` (0-based).

    Q and V are the inputs in the result's layout; `parameters`: the score's by name (`va` for
    concat and `Wa` for location are read). The vectors and their products come from the
    engine (`attention_core.score_terms`).
    """
    column = result.layout == "column"
    v = V if column else V.T  # column layout from here on
    i, j = key, query
    sub_i, sub_j = subscript(i + 1), subscript(j + 1)

    parameters = parameters or {}
    vectors = list(score_terms(result, Q, i, j, Wa=parameters.get("Wa"), va=parameters.get("va")))

    chain = []
    for step in result.steps:
        if step.key in _VECTOR_STEPS or step.key == "output":
            continue
        if step.key == "sums":
            r, c = (0, j) if column else (j, 0)
        else:
            r, c = (i, j) if column else (j, i)
        chain.append((step, step.entry(r, c)))

    weights = result.weights if column else result.weights.T
    output = result.output if column else result.output.T
    raw = result.step(_raw_score_key(result)).value
    raw_score = float(raw[i, j] if column else raw[j, i])
    first, second = (sub_i, sub_j) if column else (sub_j, sub_i)
    index = [str(a) for a in range(1, len(vectors[0][1]) + 1)]
    return EntryTrace(
        score=result.score,
        key=i,
        query=j,
        weight_name=f"a{first}{second}",
        index=index,
        vectors=vectors,
        raw_score=raw_score,
        chain=chain,
        weight=float(weights[i, j]),
        value=v[:, i],
        contribution=weights[i, j] * v[:, i],
        output=output[:, j],
    )


def _raw_score_key(result: AttentionResult) -> str:
    return "scores_dot" if result.score in ("dot", "scaled_dot") else f"scores_{result.score}"


# ---------------------------------------------------------------------------------------------
# Drawing (Streamlit)


def show_steps(
    result: AttentionResult,
    titles: Mapping[str, str],
    *,
    namespace: str,
    key_prefix: str,
    figures: Mapping[str, DrawnFigure | Sequence[DrawnFigure]] | None = None,
    start: int = 1,
) -> None:
    """Every step in the engine's order: number and title, formula at the actual sizes, the
    plain sentence, and the matrix as a heatmap. `figures` can supply ready-made figures by
    step key (so a page drawing S, A, O above does not build them twice), or several (a wide
    matrix cut into blocks of columns, drawn one under another); `start` is the
    number shown on the first step (a page showing its steps in several groups counts on)."""
    figures = figures or {}
    for number, step in enumerate(result.steps, start=1):
        figure = figures.get(step.key) or step_figure(step, result.layout, titles)
        show_step(
            result,
            number,
            figure,
            namespace=namespace,
            key_prefix=key_prefix,
            shown=start + number - 1,
        )


def show_step(
    result: AttentionResult,
    number: int,
    figure: DrawnFigure | Sequence[DrawnFigure],
    *,
    namespace: str,
    key_prefix: str,
    shown: int | None = None,
) -> None:
    """Step `number` (1-based) of `result`: its number (`shown`, if given) and title, its
    formula at the actual sizes, its plain sentence and shape, and its matrix as `figure`."""
    step = result.steps[number - 1]
    with st.container(border=True):
        text, chart = st.columns([2, 3])
        with text:
            st.markdown(f"**{shown or number}. {step_title(step)}**")
            st.latex(step.latex)
            # The sentence and the shape in one caption: one element (one message) less.
            shape = t(
                f"{namespace}.steps.shape", rows=step.value.shape[0], cols=step.value.shape[1]
            )
            st.caption(f"{step_sentence(step, run_steps=result.steps)}  \n{shape}")
        with chart:
            parts = list(figure) if isinstance(figure, (list, tuple)) else [figure]
            for block, part in enumerate(parts, start=1):
                suffix = "" if block == 1 else f".{block}"
                show_chart(
                    part,
                    f"{key_prefix}.{step.key}{suffix}",
                    details=(result.score, result.layout),
                    name=step_title(step),
                )


def vectors_sentence(trace: EntryTrace, namespace: str, lang: str | None = None) -> str:
    """What the table of vectors shows, for this score function: k and q (dot, scaled dot),
    k and W·q (general), a row of W_a and q (location: no key), the network (concat)."""
    variant = {"general": "_general", "location": "_location", "concat": "_concat"}
    key = f"{namespace}.steps.vectors{variant.get(trace.score, '')}"
    i, j = subscript(trace.key + 1), subscript(trace.query + 1)
    return t(key, lang, kname=f"k{i}", qname=f"q{j}", row=trace.key + 1)


def show_entry_trace(trace: EntryTrace, *, namespace: str) -> None:
    """The side-by-side vectors, the chain of arithmetic, and the output share of one pair."""
    i, j = subscript(trace.key + 1), subscript(trace.query + 1)
    st.markdown(vectors_sentence(trace, namespace))
    st.dataframe(_vector_table(trace.index, trace.vectors, total=trace.raw_score))
    st.markdown(t(f"{namespace}.steps.raw_sum", value=fmt(trace.raw_score)))
    st.markdown(t(f"{namespace}.steps.chain"))
    st.markdown(
        "\n".join(
            f"{number}. {step_title(step)}: `{text}`"
            for number, (step, text) in enumerate(trace.chain, start=1)
        )
    )
    a = trace.weight_name
    st.markdown(
        t(
            f"{namespace}.steps.share",
            kname=f"k{i}",
            qname=f"q{j}",
            name=a,
            weight=fmt(trace.weight),
            percent=fmt(100 * trace.weight),
        )
    )
    index = [str(c) for c in range(1, len(trace.value) + 1)]
    st.dataframe(
        _vector_table(
            index,
            [
                (f"v{i}", trace.value),
                (f"{a}·v{i}", trace.contribution),
                (f"o{j} = Σ a·v", trace.output),
            ],
        )
    )


def _vector_table(
    index: Sequence[str], vectors: Sequence[tuple[str, np.ndarray]], *, total: float | None = None
) -> pd.DataFrame:
    """Vectors as the columns of a small table of formatted numbers (true minus signs), one
    row per entry, as vectors are written; `total` adds a Σ row under the last column."""
    columns = [name for name, _ in vectors]
    rows = [[fmt(values[a]) for _, values in vectors] for a in range(len(index))]
    labels = list(index)
    if total is not None:
        rows.append([""] * (len(vectors) - 1) + [fmt(total)])
        labels.append("Σ")
    return pd.DataFrame(rows, index=labels, columns=columns)
