"""The sections of the database lookup page, in the order pages/database.py draws them.

Each function draws one part of the page and returns what the next part needs; the page itself
stays a short table of contents.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import LookupResult, lookup
from attention_core.formatting import fmt, fmt_latex
from attention_core.lookup import SIMILARITY_LATEX, TopK, explain_similarity, top_k
from attention_ui.database import state
from attention_ui.database.compute import Answer, Inputs, answer
from attention_ui.database.state import chart_captions as captions
from attention_ui.database.state import parse_queries
from attention_ui.kit.figures.charts import show_chart
from attention_ui.kit.figures.lookup import distribution_bar, weights_bar, weights_heatmap
from attention_ui.kit.folds import fold, folded
from attention_ui.kit.grids.records_editor import D2L_RECORDS, RecordsInput, records_editor
from attention_ui.kit.state import settings as draw
from attention_ui.kit.state.page_state import open_tab
from attention_ui.kit.text.i18n import show_error, t
from attention_ui.kit.text.markdown import escape_markdown


@dataclass(frozen=True)
class Query:
    """What the query column asks: the parsed queries and how to weigh the records."""

    queries: list[str]
    similarity: str
    temperature: float
    normalization: str
    top_k: int = 2


def formula() -> None:
    """Attention as a soft lookup, under the page's introduction."""
    st.latex(
        r"\operatorname{Attention}(\mathbf{q}, \mathcal{D}) = \sum_{i=1}^{m} "
        r"\alpha(\mathbf{q}, \mathbf{k}_i)\, \mathbf{v}_i"
    )


def story() -> Any:
    """The section's story, one click per step. Returns the place under the buttons where
    `story_notice` says what the step shows, once the page knows whether it may."""
    with st.container(border=True):
        st.header(t("database.story.title"))
        st.caption(t("database.story.intro"))
        for column, step in zip(st.columns(len(state.STORY)), state.STORY, strict=True):
            column.button(
                t(f"database.story.step{step}.button"),
                key=f"database.story.{step}",
                on_click=state.replay,
                args=(step,),
                width="stretch",
            )
        return st.empty()


def story_notice(place: Any, answers_shown: bool) -> None:
    """What the replayed step shows (its answer), or, while predict-then-reveal hides the
    answers, that it comes with them; a note when the screen no longer shows that step."""
    step = st.session_state.get(state.STORY_STEP)
    if step is not None and state.step_still_shown(step):
        if answers_shown:
            place.info(t(f"database.story.step{step}.notice"), icon=":material/visibility:")
        else:
            place.caption(t("database.story.after_reveal", step=step))
    elif step is not None:
        place.caption(t("database.story.moved_on", step=step))


def table_and_query() -> tuple[RecordsInput, Query]:
    """The database (left) and the query with its similarity (right); under both, τ and k
    (left) and the normalization with its formula (right). With τ, the normalization and k
    in the query's column, a desktop left about 350 px empty under the table."""
    table_column, query_column = st.columns([3, 2], gap="large")
    with table_column:
        records_in = records_table()
    with query_column:
        similarity = query_and_similarity()
    settings_column, normalization_column = st.columns(2, gap="large")
    with settings_column:
        temperature, k = temperature_and_top_k(similarity)
    with normalization_column:
        normalization = normalization_controls(similarity, temperature)
    queries, query_notes = parse_queries(st.session_state[state.QUERY.key])
    for note in query_notes:
        st.warning(note, icon=":material/edit:")
    # what the answers' fragment compares with the inputs it finds (state.query_edited)
    st.session_state[state.ABOVE] = state.drawn_inputs(query_notes)
    st.session_state[state.QUERY_SHOWN] = st.session_state[state.QUERY.key]
    # checked by the frame
    return records_in, Query(queries, similarity, temperature, normalization, k)


def query_now(drawn: Query) -> Query:
    """The query as the box holds it now (a query edit reruns the answers' fragment alone),
    with the settings the whole run drew (`drawn`), which only a whole run changes."""
    return replace(drawn, queries=parse_queries(state.QUERY.value())[0])


def inputs_moved() -> bool:
    """Whether an input drawn by the whole run changed since (a callback in the answers'
    fragment set it: the puzzle's button), so that the page must rerun whole to show it."""
    query = state.QUERY.value()
    moved = st.session_state.get(state.ABOVE) != state.drawn_inputs(parse_queries(query)[1])
    return moved or query != st.session_state.get(state.QUERY_SHOWN)


def records_table() -> RecordsInput:
    """The editable records, the preset buttons, and what is wrong with the table."""
    st.header(t("database.table.title"))
    records_in = records_editor(
        state.RECORDS, D2L_RECORDS, help=t("database.table.help", add=t("editor.grid.add_row"))
    )
    for column, (name, records) in zip(
        st.columns(len(state.PRESETS)), state.PRESETS.items(), strict=True
    ):
        column.button(
            t(f"database.preset.{name}"),
            key=f"database.preset.{name}",
            on_click=state.load_preset,
            args=(records,),
            width="stretch",
        )
    for problem in records_in.problems:
        st.warning(problem, icon=":material/edit:")
    if records_in.duplicates:
        st.warning(
            t("database.check.duplicates", keys=", ".join(records_in.duplicates)),
            icon=":material/content_copy:",
        )
    return records_in


def query_and_similarity() -> str:
    """The query box and the similarity a(q, k) with its formula."""
    st.header(t("database.query.title"))
    query_box()
    similarity = draw.radio(state.SIMILARITY, horizontal=True)
    for part in SIMILARITY_LATEX[similarity].split(r",\quad "):  # narrow column: one per line
        st.latex(part)
    st.caption(t(f"database.similarity.{similarity}_help"))
    return similarity


@st.fragment(key=state.QUERY_BOX)
def query_box() -> None:
    """The query box, in a fragment of its own: an edit then starts as a run of this fragment,
    which its callback turns into a run of the answers' (state.query_edited). (Started as a
    run of the page, the edit dropped the page's files, the favicon among them, which the
    browser then asked for in vain.)"""
    draw.text_input(
        state.QUERY,
        placeholder=t("database.query.placeholder"),
        on_change=state.query_edited,  # reruns the answers' fragment alone
    )


def inactive_label(setting: draw.Setting, inactive: bool) -> Literal["visible", "collapsed"]:
    """A control with no part in exact matching is disabled, and Streamlit draws a disabled
    control's label in a faded grey (2.6:1 on white, below WCAG's 4.5:1): its label is then
    written as ordinary text saying why, and the control's own label only names it for screen
    readers."""
    if not inactive:
        return "visible"
    st.markdown(t("database.inactive", label=t(setting.label)))
    return "collapsed"


def temperature_and_top_k(similarity: str) -> tuple[float, int]:
    """τ (no part in exact matching) and the k of top-k retrieval."""
    temperature = draw.select_slider(
        state.TEMPERATURE,
        format_func=fmt,
        disabled=similarity == "exact",
        label_visibility=inactive_label(state.TEMPERATURE, similarity == "exact"),
    )
    return temperature, int(draw.number_input(state.TOP_K))


def normalization_controls(similarity: str, temperature: float) -> str:
    """The normalization (no part in exact matching) and its formula."""
    normalization = draw.radio(
        state.NORMALIZATION,
        horizontal=True,
        disabled=similarity == "exact",
        label_visibility=inactive_label(state.NORMALIZATION, similarity == "exact"),
    )
    if similarity == "exact":
        st.latex(r"\alpha_i = \frac{a(q, k_i)}{\sum_j a(q, k_j)}")
        st.caption(t("database.normalization.exact_note"))
    elif normalization == "softmax":
        st.latex(
            rf"\alpha_i = \frac{{\exp(a(q, k_i)/\tau)}}{{\sum_j \exp(a(q, k_j)/\tau)}},"
            rf"\quad \tau = {fmt(temperature)}"
        )
    else:
        for formula in divide_by_sum_latex(temperature):
            st.latex(formula)
        if temperature != 1:
            power = fmt(1 / temperature)
            st.caption(t("database.normalization.power_note", tau=fmt(temperature), power=power))
        st.caption(t("database.normalization.sum_note"))
    return normalization


def divide_by_sum_latex(temperature: float) -> tuple[str, ...]:
    """d2l's divide-by-the-sum α / Σα; at τ ≠ 1 beside it this app's extension with the power
    1/τ (which d2l does not have), so the learner sees which is which."""
    d2l = r"\alpha_i = \frac{a(q, k_i)}{\sum_j a(q, k_j)}"
    if temperature == 1:
        return (d2l,)
    power = (
        rf"\alpha_i = \frac{{a(q, k_i)^{{1/\tau}}}}{{\sum_j a(q, k_j)^{{1/\tau}}}},"
        rf"\quad \tau = {fmt(temperature)}"
    )
    return d2l, power


def lookup_of(records_in: RecordsInput, query: Query) -> Answer:
    """The page's one lookup for this rerun (nothing while the table or the queries are empty)."""
    if not records_in.ok or not query.queries:
        return answer(None)
    return answer(
        Inputs(
            records_in.records,
            query.queries,
            query.similarity,
            query.temperature,
            query.normalization,
        )
    )


def answers_heading() -> None:
    st.header(t("database.answer.title"))


def answers(
    records_in: RecordsInput, query: Query, looked_up: Answer, heading: bool = True
) -> None:
    """What the engine computes: all queries as one heatmap, then one tab per query; under
    `heading` (False: the page's whole run drew it, no query edit changes it)."""
    if heading:
        answers_heading()
    if not records_in.ok:
        st.info(t("database.check.empty_table"), icon=":material/folder_open:")
        return
    if not query.queries:
        st.info(t("database.query.empty"), icon=":material/keyboard:")
        return
    if looked_up.error is not None:
        show_error(looked_up.error)
        if looked_up.error.code == "zero_sum":
            st.caption(t("database.normalization.zero_sum_hint"))
        return
    table = looked_up.table
    rows = records_in.rows
    if len(query.queries) > 1:
        show_chart(
            weights_heatmap(
                table,
                query.temperature,
                query.normalization,
                rows=rows,
                title=t("database.chart.heatmap_title"),
                captions=captions(),
            ),
            key="database.chart.heatmap",
        )
        st.caption(t("database.chart.heatmap_caption"))
    labels = [f"q{i + 1}: {escape_markdown(text, 24)}" for i, text in enumerate(query.queries)]
    tabs = answer_tabs(labels)
    for number, (tab, result) in enumerate(zip(tabs, table.results, strict=True), start=1):
        if tab.open is False:  # (a lone tab's is None: it is the one shown)
            continue
        with tab:
            show_answer(number, result, rows, query.temperature, query.normalization)
            zero = t(f"database.topk_zero.{query.similarity}")
            st.markdown(t("database.topk.title", k=query.top_k, zero=zero))
            retrieved = top_k(records_in.records, result.query, query.top_k, query.similarity)
            for text in top_k_lines(retrieved, rows):
                st.markdown(text)
            # Built only while open: a folded table still made the browser load and draw
            # Streamlit's data grid on the page's first view.
            numbers = folded(t("database.numbers.title"), key=f"database.numbers.{number}")
            if numbers.open:
                headers = [t(key) for key in SIMILARITY_COLUMNS]
                numbers.box.dataframe(similarity_table(result, rows, headers), hide_index=True)
    # under the answers it is about: above them it pushed the weights off the first screen
    st.caption(t("database.answer.intuition"))


def answer_tabs(labels: list[str]) -> list[Any]:
    """One tab per query, labelled with it. Only the open query's tab is built (switching
    reruns): a first view builds only what it shows, and ten queries made ten tabs' answers,
    lists and tables on every run. A lone query's tab has nothing to switch to and is drawn
    without a key: a keyed st.tabs is told apart by its labels, so each edit of the query made
    it a new element, and its charts with it, built and drawn anew instead of redrawn in place
    (kit/figures/live_chart)."""
    if len(labels) == 1:
        return st.tabs(labels)
    open_tab(state.ANSWER_TAB, state.ANSWER_TAB_INDEX, labels)
    return st.tabs(labels, key=state.ANSWER_TAB, on_change="rerun")


def show_answer(
    number: int, result: LookupResult, rows: list[int], temperature: float, normalization: str
) -> None:
    """One query's answer: best match (or no valid answer), weights, pooled output."""
    for kind, text in answer_notes(result, rows):
        if kind == "none":
            st.warning(text, icon=":material/block:")
        elif kind == "best":
            st.success(text, icon=":material/target:")
        else:
            st.caption(text)
    show_chart(
        weights_bar(
            result,
            temperature,
            normalization,
            rows=rows,
            title=t("database.chart.weights_title", query=result.query[:40]),
            captions=captions(),
        ),
        key=f"database.chart.weights.{number}",
    )
    pooled_values, pooled_number = st.columns([3, 2], gap="large")
    with pooled_values:
        st.markdown(t("database.pooled.values_title"))
        show_chart(
            distribution_bar(result, captions=captions()), key=f"database.chart.values.{number}"
        )
    with pooled_number:
        st.markdown(t("database.pooled.number_title"))
        show_pooled_number(result, rows)


def answer_notes(
    result: LookupResult, rows: list[int], lang: str | None = None
) -> list[tuple[str, str]]:
    """What the page says about one query's answer, as (kind, text) in order: "none" (no
    valid answer), or "best" (the record of largest weight, the first of a tie) and "tie"
    (how many records share that weight, when more than one)."""
    query = escape_markdown(result.query, 40)
    if not result.valid:
        reason = "exact" if result.similarity == "exact" else "approximate"
        return [("none", t(f"database.answer.none_{reason}", lang, query=query))]
    index = result.best_index
    record = result.records[index]
    notes = [
        (
            "best",
            t(
                "database.answer.best",
                lang,
                query=query,
                surname=escape_markdown(record.key, 40),
                value=escape_markdown(record.value, 40),
                row=rows[index],
                weight=fmt(result.weights[index]),
            ),
        )
    ]
    tied = len(tied_best(result.weights))
    if tied > 1:
        notes.append(("tie", t("database.answer.tie", lang, count=tied)))
    return notes


def tied_best(weights: np.ndarray) -> list[int]:
    """The records whose weight is the largest, up to float noise (a relative 1e-9: two
    weights that differ only there come from equal similarities computed in another order)."""
    top = float(np.max(weights))
    return [int(i) for i in np.flatnonzero(np.abs(weights - top) <= 1e-9 * top)]


def pooled_note(result: LookupResult, rows: list[int], lang: str | None = None) -> str | None:
    """Why there is no pooled number (no valid answer, or rows without a number), or None
    when there is one."""
    missing = [
        row for row, record in zip(rows, result.records, strict=True) if record.number is None
    ]
    if not result.valid:
        return t("database.pooled.no_answer", lang)
    if missing:
        return t("database.pooled.missing", lang, rows=", ".join(map(str, missing)))
    return None


def show_pooled_number(result: LookupResult, rows: list[int]) -> None:
    """Σ αᵢ xᵢ as a metric, with its arithmetic two terms per line."""
    note = pooled_note(result, rows)
    if note is not None:
        st.info(note)
    else:
        st.metric(t("database.pooled.metric"), fmt(result.pooled_number))
        st.latex(
            pooled_formula(result.weights, [r.number for r in result.records], result.pooled_number)
        )


# Terms whose numbers are this long (LaTeX source characters) go one per line: two of them
# would overflow the narrow column.
_SHORT_TERM = 24


def pooled_formula(weights: Sequence[float], numbers: Sequence[float], total: float) -> str:
    """Σ αᵢ xᵢ in LaTeX with its terms: two short terms a line, a long one (10^{…}) alone, at
    most 12 terms then …, so the formula fits the pooled number's column."""
    terms = [
        rf"{fmt_latex(w, 3)} \times {_factor(x)}" for w, x in zip(weights, numbers, strict=True)
    ]
    shown = terms[:12] + ([r"\dots"] if len(terms) > 12 else [])
    lines: list[list[str]] = []
    for term in shown:
        if lines and len(lines[-1]) == 1 and max(len(lines[-1][0]), len(term)) <= _SHORT_TERM:
            lines[-1].append(term)
        else:
            lines.append([term])
    body = r" \\ &\quad + ".join(" + ".join(line) for line in lines)
    return (
        r"\begin{aligned}\textstyle\sum_i \alpha_i x_i &= "
        + body
        + rf" \\ &= {fmt_latex(total)}\end{{aligned}}"
    )


def _factor(x: float) -> str:
    text = fmt_latex(x)
    return f"({text})" if text.startswith("-") else text


# The columns of the numbers table, in order: catalog keys of their headers.
SIMILARITY_COLUMNS = (
    "database.numbers.row",
    "database.table.key",
    "database.table.value",
    "database.numbers.score",
    "database.numbers.how",
    "database.numbers.weight",
)


def similarity_table(result: LookupResult, rows: list[int], headers: Sequence[str]) -> pd.DataFrame:
    """Every number of one query in a table (the dataframe shows names as plain text);
    `headers` are the six column titles in the order of SIMILARITY_COLUMNS."""
    columns = (
        rows,
        [r.key for r in result.records],
        [r.value for r in result.records],
        [fmt(s) for s in result.scores],
        [explain_similarity(result.query, r.key, result.similarity) for r in result.records],
        [fmt(w) for w in result.weights],
    )
    return pd.DataFrame(dict(zip(headers, columns, strict=True)))


def top_k_lines(result: TopK, rows: list[int], lang: str | None = None) -> list[str]:
    """Top-k retrieval in words: the records taken, best first, then whether fewer than k
    score above 0 (or none), whether the cut fell on a tie, and how it differs from pooling."""
    query = escape_markdown(result.query, 40)
    lines = [
        t(
            "database.topk.item",
            lang,
            rank=rank,
            name=escape_markdown(result.records[i].key, 40),
            value=escape_markdown(result.records[i].value, 40),
            row=rows[i],
            score=fmt(result.scores[i]),
        )
        for rank, i in enumerate(result.indices, start=1)
    ]
    found = len(result.indices)
    if found == 0:
        lines.append(t("database.topk.none", lang, query=query))
    elif found < result.k:
        key = "database.topk.fewer_one" if found == 1 else "database.topk.fewer"
        lines.append(t(key, lang, query=query, found=found, k=result.k))
    if result.tie_at_cut:
        lines.append(t("database.topk.tie", lang, score=fmt(result.scores[result.indices[-1]])))
    lines.append(t("database.topk.contrast", lang))
    return lines


LESSONS_BOX = "database.lessons"  # the lessons' expander (open or not)


def lessons(records_in: RecordsInput, answers_shown: bool = True, lang: str | None = None) -> None:
    """d2l's lessons of the database example, each with this page's numbers where it has any
    (the story's answers only once the page shows its answers: they may be the puzzle's)."""
    # Folded: built only once opened (a page's first view builds only what it shows).
    with fold(t("database.lessons.title", lang), key=LESSONS_BOX) as open_:
        if not open_:
            return
        m = len(records_in.records) if records_in.ok else 0
        for text in lesson_lines(m, lang, answers=answers_shown):
            st.markdown("- " + text)


def lesson_lines(m: int, lang: str | None = None, *, answers: bool = True) -> list[str]:
    """The four lessons and d2l's two remarks after them; the table's size and the story's
    answers are the engine's, and each sentence about them is said only when they bear it out
    (and `answers` allows them)."""
    lines = []
    if m:
        lines.append(t("database.lessons.size", lang, m=m))
    if not answers:
        simple, whole = t("database.lessons.simple", lang), t("database.lessons.whole", lang)
        return [*lines, simple, whole, *closing_lessons(lang)]
    first = lookup(state.STORY[1][0], "Li", "exact")
    without = lookup(state.WITHOUT_LI, "Li", "exact")
    second = lookup(state.WITHOUT_LI, "Li", "ngram", temperature=state.STORY[3][3])
    if first.valid and not without.valid and second.valid:
        lines.append(
            t(
                "database.lessons.contents",
                lang,
                first=escape_markdown(first.records[first.best_index].value),
                name=escape_markdown(second.records[second.best_index].key),
                second=escape_markdown(second.records[second.best_index].value),
            )
        )
    lines.append(t("database.lessons.simple", lang))
    lines.append(t("database.lessons.whole", lang))
    return [*lines, *closing_lessons(lang)]


def closing_lessons(lang: str | None = None) -> list[str]:
    """What d2l draws from the example for networks: few parameters, a differentiable choice."""
    return [t("database.lessons.concise", lang), t("database.lessons.select", lang)]
