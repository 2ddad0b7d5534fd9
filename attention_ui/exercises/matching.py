"""Exercise 1: which attention function reproduces approximate (key, query) matching?

The database page's similarities on one query. Exact matching is the classic lookup and is
normalised by its sum (d2l's α / Σα), without τ; the approximate ones go through a softmax.
"""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import streamlit as st

from attention_core import AttentionInputError, LookupResult, lookup
from attention_core.formatting import fmt
from attention_core.lookup import SIMILARITY_LATEX
from attention_ui.database.state import chart_captions as lookup_captions
from attention_ui.kit.figures.charts import show_chart
from attention_ui.kit.figures.lookup import weights_bar
from attention_ui.kit.state import settings as draw
from attention_ui.kit.teaching.predict import winners_of
from attention_ui.kit.text.i18n import draw_notes, show_error, t
from attention_ui.kit.text.markdown import escape_markdown, stacked

from . import compute, state, teaching

SOFTMAX_LATEX = r"\alpha(q, k_i) = \frac{\exp(a(q, k_i)/\tau)}{\sum_j \exp(a(q, k_j)/\tau)}"
SUM_LATEX = r"\alpha(q, k_i) = \frac{a(q, k_i)}{\sum_j a(q, k_j)}"


def weights_latex(similarity: str) -> str:
    """How the engine turns the scores into weights: exact matching divides by the sum (and
    has no τ), the approximate similarities use the softmax over τ."""
    return SUM_LATEX if similarity == "exact" else SOFTMAX_LATEX


def match_notes(result: LookupResult, lang: str | None = None) -> list[tuple[str, str]]:
    """What the page says under the ranking: no answer (exact: every weight 0; approximate:
    every score 0, so the softmax gives each record 1/m), or the best match and any tie."""
    query = escape_markdown(result.query)
    m = len(result.records)
    if not result.valid and result.similarity == "exact":
        return [("markdown", t("exercises.match.no_answer", lang, query=query))]
    if not result.valid:  # every score 0: a softmax of equal numbers is uniform
        weight = fmt(result.weights[0], 3)
        text = t("exercises.match.no_answer_uniform", lang, query=query, m=m, weight=weight)
        return [("markdown", text)]
    best = result.best_index
    notes = [
        (
            "markdown",
            t(
                "exercises.match.best",
                lang,
                record=escape_markdown(result.records[best].key),
                value=escape_markdown(result.records[best].value),
                weight=fmt(result.weights[best], 3),
            ),
        )
    ]
    tied = len(winners_of(result.weights))  # equal up to rounding
    if tied > 1:
        notes.append(("markdown", t("exercises.match.tie", lang, count=tied)))
    return notes


def matching() -> None:
    st.header(t("exercises.match.title"))
    st.markdown(t("exercises.match.question"))
    records, learners = state.database_records()
    source = "exercises.match.source_learner" if learners else "exercises.match.source_d2l"
    st.caption(t(source, count=len(records)))
    controls, result_column = st.columns([2, 3], gap="large")
    with controls:
        query = draw.text_input(state.MATCH_QUERY, max_chars=100)
        similarity = draw.radio(state.MATCH_SIMILARITY, horizontal=True)
        tau = draw.slider(
            state.MATCH_TAU,
            step=0.05,
            disabled=similarity == "exact",  # the exact lookup has no τ
            help=t("exercises.match.tau_exact") if similarity == "exact" else None,
        )
        # one part a line, as the database page writes them; under its controls, where at
        # 1400 px the column was empty beside the ranking and its chart
        st.latex(
            stacked(*SIMILARITY_LATEX[similarity].split(r",\quad "), weights_latex(similarity))
        )
    with result_column:
        try:
            result = compute.match(compute.MatchInputs(records, query, similarity, tau))
        except AttentionInputError as error:
            show_error(error)
            result = None
        if result is not None:
            ranking(result, tau)
    if draw.toggle(state.MATCH_ANSWER):
        worked_answer(records, query, tau)


def ranking(result: LookupResult, tau: float) -> None:
    """The records by weight, what that means, the weights' chart and the export."""
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
    draw_notes(match_notes(result))
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
    teaching.export_match(
        result, tau, SIMILARITY_LATEX[result.similarity], weights_latex(result.similarity)
    )


def worked_answer(records: list, query: str, tau: float) -> None:
    st.markdown(t("exercises.match.answer"))
    try:
        exact = lookup(records, query, "exact")
        approximate = lookup(records, query, "ngram", temperature=tau)
    except AttentionInputError:
        return
    hit = "exercises.match.answer_exact_hit" if exact.valid else "exercises.match.answer_exact_miss"
    st.markdown(t(hit, query=escape_markdown(query)))
    best = approximate.best_index
    if best is not None:
        st.markdown(
            t(
                "exercises.match.answer_ngram",
                record=escape_markdown(approximate.records[best].key),
                weight=fmt(approximate.weights[best], 3),
                tau=fmt(tau),
            )
        )
