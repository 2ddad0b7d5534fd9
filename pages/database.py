"""Database lookup: attention as a database lookup made soft (d2l, "Queries, Keys, and Values").

A table of (surname, first name, number) records, one or several queries, a similarity a(q, k),
a temperature and a normalization; the engine (`attention_core.lookup_many`) gives each record
a weight, and the page shows the weights, the best match and the pooled answer. A four-step
guided story replays the section's argument; each step sets the widgets, so the learner can
keep playing from there.

Main session-state keys (for tests and the browser tour):
- "database.records.editor.<version>": the records table (st.data_editor, columns "key",
  "value", "number"); <version> is st.session_state["database.records.version"].
  "database.records.current": the rows as last seen, [(key, value, number or None), …].
- "database.query": the query box (several queries separated by commas).
- "database.similarity": "exact" | "ngram" | "edit".
- "database.temperature": τ, one of TEMPERATURES (a select slider).
- "database.normalization": "softmax" | "sum".
- "database.story.1" … "database.story.4": the story's buttons; "database.story.step" is the
  step last replayed.
- "database.preset.d2l", "database.preset.ja", "database.preset.empty": table presets.
- "database.queries.current": the parsed queries of the last run (the gallery reads them).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import (
    SIMILARITY_LATEX,
    AttentionInputError,
    LookupResult,
    explain_similarity,
    fmt,
    lookup_many,
)
from attention_ui.frame import page_header, show_error
from attention_ui.i18n import localize_arithmetic, t
from attention_ui.lookup_figures import (
    LookupCaptions,
    distribution_bar,
    weights_bar,
    weights_heatmap,
)
from attention_ui.page_state import keep_widgets, option_labels, restore_widgets
from attention_ui.records_editor import (
    D2L_RECORDS,
    NAME_LIMIT,
    current_records,
    records_editor,
    set_records,
)
from attention_ui.text import escape_markdown

JAPANESE_RECORDS = [("山田", "太郎", 10.0), ("山本", "花子", 20.0), ("田中", "一郎", 30.0),
                    ("中田", "美咲", 40.0), ("佐藤", "健", 50.0), ("高橋", "さくら", 60.0)]
WITHOUT_LI = [record for record in D2L_RECORDS if record[0] != "Li"]
TEMPERATURES = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 100.0)
QUERY_LIMIT = 10
QUERY_SEPARATORS = re.compile(r"[,;、，；]")
RECORDS = "database.records"
KEPT = {"database.query": "Li", "database.similarity": "exact",
        "database.temperature": 0.1, "database.normalization": "softmax"}
# The section's story: (records, query, similarity, temperature), replayed by one click each.
STORY = {
    1: (D2L_RECORDS, "Li", "exact", 0.1),
    2: (WITHOUT_LI, "Li", "exact", 0.1),
    3: (WITHOUT_LI, "Li", "ngram", 0.1),
    4: (WITHOUT_LI, "Li", "ngram", 10.0),
}


def replay(step: int) -> None:
    """Button callback: set the table and every control to one step of the story."""
    records, query, similarity, temperature = STORY[step]
    set_records(RECORDS, records)
    st.session_state.update({"database.query": query, "database.similarity": similarity,
                             "database.temperature": temperature,
                             "database.normalization": "softmax", "database.story.step": step})


def load_preset(records: list) -> None:
    set_records(RECORDS, records)
    st.session_state.pop("database.story.step", None)


def step_still_shown(step: int) -> bool:
    """Whether the widgets still hold what the story step set (the learner may have moved on)."""
    records, query, similarity, temperature = STORY[step]
    same_records = [tuple(r) for r in current_records(RECORDS) or []] == list(records)
    same_controls = (st.session_state.get("database.query") == query
                     and st.session_state.get("database.similarity") == similarity
                     and st.session_state.get("database.normalization") == "softmax")
    same_tau = similarity == "exact" or st.session_state.get("database.temperature") == temperature
    return same_records and same_controls and same_tau


def parse_queries(text: str) -> tuple[list[str], list[str]]:
    """Queries from the box (comma separated), and messages about what was cut or skipped."""
    notes = []
    pieces = [piece.strip() for piece in QUERY_SEPARATORS.split(text or "")]
    queries = [piece for piece in pieces if piece]
    if len(queries) > QUERY_LIMIT:
        notes.append(t("database.query.too_many", count=len(queries), limit=QUERY_LIMIT))
        queries = queries[:QUERY_LIMIT]
    for number, query in enumerate(queries, start=1):
        if len(query) > NAME_LIMIT:
            notes.append(t("database.query.too_long", number=number, length=len(query),
                           limit=NAME_LIMIT))
    return [query[:NAME_LIMIT] for query in queries], notes


def captions() -> LookupCaptions:
    return LookupCaptions(
        weight=t("database.chart.weight"), records=t("database.chart.records"),
        queries=t("database.chart.queries"), score=t("database.chart.score"),
        best=t("database.chart.best"), first_names=t("database.chart.first_names"),
        total_weight=t("database.chart.total_weight"),
        exact_weight=t("database.chart.exact_weight"), localize=localize_arithmetic)


def show_answer(number: int, result: LookupResult, rows: list[int], temperature: float,
                normalization: str) -> None:
    """One query's answer: best match (or no valid answer), weights, pooled output."""
    query = escape_markdown(result.query, 40)
    if not result.valid:
        reason = "exact" if result.similarity == "exact" else "approximate"
        st.warning(t(f"database.answer.none_{reason}", query=query), icon="🚫")
    else:
        index = result.best_index
        record = result.records[index]
        tied = int(np.sum(np.isclose(result.weights, result.weights[index])))
        st.success(t("database.answer.best", query=query, surname=escape_markdown(record.key, 40),
                     value=escape_markdown(record.value, 40), row=rows[index],
                     weight=fmt(result.weights[index])), icon="🎯")
        if tied > 1:
            st.caption(t("database.answer.tie", count=tied))
    st.plotly_chart(weights_bar(result, temperature, normalization, rows=rows,
                                title=t("database.chart.weights_title", query=result.query[:40]),
                                captions=captions()),
                    key=f"database.chart.weights.{number}")
    pooled_values, pooled_number = st.columns([3, 2], gap="large")
    with pooled_values:
        st.markdown(t("database.pooled.values_title"))
        st.plotly_chart(distribution_bar(result, captions=captions()),
                        key=f"database.chart.values.{number}")
    with pooled_number:
        st.markdown(t("database.pooled.number_title"))
        show_pooled_number(result, rows)


def show_pooled_number(result: LookupResult, rows: list[int]) -> None:
    """Σ αᵢ xᵢ as a metric, with its arithmetic two terms per line."""
    missing = [row for row, record in zip(rows, result.records, strict=True)
               if record.number is None]
    if not result.valid:
        st.info(t("database.pooled.no_answer"))
    elif missing:
        st.info(t("database.pooled.missing", rows=", ".join(map(str, missing))))
    else:
        st.metric(t("database.pooled.metric"), fmt(result.pooled_number))
        terms = [rf"{fmt(w, 3)} \times {fmt(r.number)}"
                 for w, r in zip(result.weights, result.records, strict=True)]
        shown = terms[:12] + ([r"\dots"] if len(terms) > 12 else [])
        lines = [" + ".join(shown[i:i + 2]) for i in range(0, len(shown), 2)]
        body = r" \\ &\quad + ".join(lines)
        st.latex((r"\begin{aligned}\textstyle\sum_i \alpha_i x_i &= " + body
                  + rf" \\ &= {fmt(result.pooled_number)}\end{{aligned}}").replace("−", "-"))


def similarity_table(result: LookupResult, rows: list[int]) -> pd.DataFrame:
    """Every number of one query in a table: the dataframe shows names as plain text."""
    return pd.DataFrame({
        t("database.numbers.row"): rows,
        t("database.table.key"): [r.key for r in result.records],
        t("database.table.value"): [r.value for r in result.records],
        t("database.numbers.score"): [fmt(s) for s in result.scores],
        t("database.numbers.how"): [
            localize_arithmetic(explain_similarity(result.query, r.key, result.similarity))
            for r in result.records],
        t("database.numbers.weight"): [fmt(w) for w in result.weights],
    })


restore_widgets(KEPT)
page_header("database")
st.latex(r"\operatorname{Attention}(\mathbf{q}, \mathcal{D}) = \sum_{i=1}^{m} "
         r"\alpha(\mathbf{q}, \mathbf{k}_i)\, \mathbf{v}_i")

# --- The section's story, one click per step --------------------------------------------------
with st.container(border=True):
    st.subheader(t("database.story.title"))
    st.caption(t("database.story.intro"))
    for column, step in zip(st.columns(len(STORY)), STORY, strict=True):
        column.button(t(f"database.story.step{step}.button"), key=f"database.story.{step}",
                      on_click=replay, args=(step,), width="stretch")
    step = st.session_state.get("database.story.step")
    if step is not None and step_still_shown(step):
        st.info(t(f"database.story.step{step}.notice"), icon="👀")
    elif step is not None:
        st.caption(t("database.story.moved_on", step=step))

# --- The database and the query ---------------------------------------------------------------
table_column, query_column = st.columns([3, 2], gap="large")
with table_column:
    st.subheader(t("database.table.title"))
    records_in = records_editor(RECORDS, D2L_RECORDS, help=t("database.table.help"))
    presets = st.columns(3)
    presets[0].button(t("database.preset.d2l"), key="database.preset.d2l", on_click=load_preset,
                      args=(D2L_RECORDS,), width="stretch")
    presets[1].button(t("database.preset.ja"), key="database.preset.ja", on_click=load_preset,
                      args=(JAPANESE_RECORDS,), width="stretch")
    presets[2].button(t("database.preset.empty"), key="database.preset.empty",
                      on_click=load_preset, args=([],), width="stretch")
    for problem in records_in.problems:
        st.warning(problem, icon="✏️")
    if records_in.duplicates:
        st.warning(t("database.check.duplicates", keys=", ".join(records_in.duplicates)),
                   icon="👯")

with query_column:
    st.subheader(t("database.query.title"))
    st.text_input(t("database.query.label"), key="database.query", max_chars=400,
                  help=t("database.query.help"), placeholder=t("database.query.placeholder"))
    similarity = st.radio(t("database.similarity.label"), ["exact", "ngram", "edit"],
                          key="database.similarity", horizontal=True,
                          format_func=option_labels("database.similarity."))
    for part in SIMILARITY_LATEX[similarity].split(r",\quad "):  # narrow column: one per line
        st.latex(part)
    st.caption(t(f"database.similarity.{similarity}_help"))
    temperature = st.select_slider(t("database.temperature.label"), TEMPERATURES,
                                   key="database.temperature", format_func=fmt,
                                   disabled=similarity == "exact",
                                   help=t("database.temperature.help"))
    normalization = st.radio(t("database.normalization.label"), ["softmax", "sum"],
                             key="database.normalization", horizontal=True,
                             format_func=option_labels("database.normalization."),
                             disabled=similarity == "exact")
    if similarity == "exact":
        st.latex(r"\alpha_i = \frac{a(q, k_i)}{\sum_j a(q, k_j)}")
        st.caption(t("database.normalization.exact_note"))
    elif normalization == "softmax":
        st.latex(rf"\alpha_i = \frac{{\exp(a(q, k_i)/\tau)}}{{\sum_j \exp(a(q, k_j)/\tau)}},"
                 rf"\quad \tau = {fmt(temperature)}")
    else:
        st.latex(rf"\alpha_i = \frac{{a(q, k_i)^{{1/\tau}}}}{{\sum_j a(q, k_j)^{{1/\tau}}}},"
                 rf"\quad \tau = {fmt(temperature)}")
        st.caption(t("database.normalization.sum_note"))
    queries, query_notes = parse_queries(st.session_state["database.query"])
    for note in query_notes:
        st.warning(note, icon="✏️")
keep_widgets(KEPT)
st.session_state["database.queries.current"] = queries

# --- What the engine computes -----------------------------------------------------------------
st.subheader(t("database.answer.title"))
if not records_in.ok:
    st.info(t("database.check.empty_table"), icon="🗂️")
elif not queries:
    st.info(t("database.query.empty"), icon="⌨️")
else:
    try:
        table = lookup_many(records_in.records, queries, similarity, temperature, normalization)
    except AttentionInputError as error:
        show_error(error)
        if error.code == "zero_sum":
            st.caption(t("database.normalization.zero_sum_hint"))
    else:
        rows = records_in.rows
        if len(queries) > 1:
            st.plotly_chart(weights_heatmap(table, temperature, normalization, rows=rows,
                                            title=t("database.chart.heatmap_title"),
                                            captions=captions()),
                            key="database.chart.heatmap")
            st.caption(t("database.chart.heatmap_caption"))
        tabs = st.tabs([f"q{i + 1}: {escape_markdown(query, 24)}"
                        for i, query in enumerate(queries)])
        for number, (tab, result) in enumerate(zip(tabs, table.results, strict=True), start=1):
            with tab:
                show_answer(number, result, rows, temperature, normalization)
                with st.expander(t("database.numbers.title")):
                    st.dataframe(similarity_table(result, rows), hide_index=True)
