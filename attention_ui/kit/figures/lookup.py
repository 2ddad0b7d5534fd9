"""Figures for attention as a soft database lookup: weights per record, the pooled answer.

Pure functions: an engine `LookupResult` (or `LookupTable`) and already-translated captions in,
`go.Figure` out. Names are user text, so every name goes through `plotly_text`; axis labels
carry the table row as well, so two records with the same surname stay two bars.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from attention_core import LookupResult
from attention_core.formatting import fmt
from attention_core.lookup import LookupTable, explain_similarity
from attention_ui.kit.figures.heatmap import WEIGHTS, DrawnFigure, Titles, heatmap, plotly_text

# Colour-blind safe: the best bar is dark red, the others a light red (lightness, not hue,
# tells them apart), and it is also labelled.
BEST_COLOUR = "#99000d"
OTHER_COLOUR = "#fc9272"
LABEL_LIMIT = 24


@dataclass(frozen=True)
class LookupCaptions:
    """Translated words the figures need: the page fills every one with `t()`; the English
    defaults are for tests (a builder has no default, so it never prints them unasked)."""

    weight: str = "weight α"
    records: str = "records"
    queries: str = "queries"
    score: str = "a(q, k)"
    best: str = "best"
    first_names: str = "first name (value)"
    total_weight: str = "total weight"
    exact_weight: str = "exact: the matching keys share the weight equally"


def short(text: str, limit: int = LABEL_LIMIT) -> str:
    """A name cut for an axis label (the hover shows more)."""
    text = str(text).replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def record_labels(
    result: LookupResult | LookupTable, rows: Sequence[int] | None = None, limit: int = LABEL_LIMIT
) -> list[str]:
    """'3 · Li' for each record: its table row and its key, unique even for duplicate keys."""
    rows = list(rows) if rows is not None else list(range(1, len(result.records) + 1))
    return [
        f"{row} · {short(record.key, limit)}"
        for row, record in zip(rows, result.records, strict=True)
    ]


def weight_formula(
    result: LookupResult,
    index: int,
    temperature: float,
    normalization: str,
    captions: LookupCaptions,
) -> str:
    """How the engine turned the score of record `index` into its weight, with its numbers."""
    score, weight = fmt(result.scores[index]), fmt(result.weights[index])
    if result.similarity == "exact":
        return f"{captions.exact_weight}: α = {weight}"
    tau = fmt(temperature)
    if normalization == "softmax":
        return f"α = exp({score}/{tau}) / Σⱼ exp(aⱼ/{tau}) = {weight}"
    return f"α = {score}^(1/{tau}) / Σⱼ aⱼ^(1/{tau}) = {weight}"


def cell_explanation(
    result: LookupResult,
    index: int,
    temperature: float,
    normalization: str,
    captions: LookupCaptions,
) -> str:
    """Hover text for one record: the match arithmetic, then the weight arithmetic."""
    record = result.records[index]
    match = explain_similarity(result.query, record.key, result.similarity)
    return (
        f"q = {short(result.query, 60)} · k = {short(record.key, 60)} → "
        f"v = {short(record.value, 60)}\n{captions.score}: {match}\n"
        f"{weight_formula(result, index, temperature, normalization, captions)}"
    )


def weights_bar(
    result: LookupResult,
    temperature: float,
    normalization: str,
    *,
    rows: Sequence[int] | None = None,
    title: str = "",
    captions: LookupCaptions,
) -> go.Figure:
    """One bar per record: its weight α(q, kᵢ) for this query, the best one dark and labelled."""
    labels = [plotly_text(label) for label in record_labels(result, rows)]
    best = result.best_index
    colours = [BEST_COLOUR if i == best else OTHER_COLOUR for i in range(len(labels))]
    hover = [
        plotly_text(cell_explanation(result, i, temperature, normalization, captions)).replace(
            "\n", "<br>"
        )
        for i in range(len(labels))
    ]
    # "(best)" on a line of its own: plotly shrinks a bar's text to the bar's width, and
    # "0.890 (best)" on one line was about 5 px high on a phone's six bars
    text = [
        plotly_text(fmt(w)) + (f"<br>{plotly_text(f'({captions.best})')}" if i == best else "")
        for i, w in enumerate(result.weights)
    ]
    layout = _bar_layout(title, 320, captions.records, captions.weight)
    return _bars(labels, result.weights, colours, text, hover, layout)


def distribution_bar(
    result: LookupResult, *, title: str = "", captions: LookupCaptions
) -> go.Figure:
    """Attention pooling with one-hot values: the total weight each first name receives."""
    pairs = result.value_distribution
    names = [plotly_text(short(name) if name else "∅") for name, _ in pairs]
    totals = np.array([total for _, total in pairs])
    contributors = [
        [i + 1 for i, record in enumerate(result.records) if record.value == name]
        for name, _ in pairs
    ]
    hover = [
        plotly_text(
            f"{short(name, 60) or '∅'}: "
            + " + ".join(f"α{row}" for row in rows)
            + f" = {fmt(total)}"
        )
        for (name, total), rows in zip(pairs, contributors, strict=True)
    ]
    colours = [BEST_COLOUR if t == totals.max() and t > 0 else OTHER_COLOUR for t in totals]
    layout = _bar_layout(title, 300, captions.first_names, captions.total_weight)
    return _bars(names, totals, colours, [fmt(t) for t in totals], hover, layout)


def weights_heatmap(
    table: LookupTable,
    temperature: float,
    normalization: str,
    *,
    rows: Sequence[int] | None = None,
    title: str = "",
    captions: LookupCaptions,
) -> DrawnFigure:
    """Queries × records: one row of weights per query (each row sums to 1, or is all 0)."""
    hover = [
        [
            cell_explanation(result, j, temperature, normalization, captions).replace("\n", " · ")
            for j in range(len(table.records))
        ]
        for result in table.results
    ]
    query_labels = [f"q{i + 1} · {short(q)}" for i, q in enumerate(table.queries)]
    return heatmap(
        table.weights,
        record_labels(table, rows),
        query_labels,
        Titles(title, captions.records, captions.queries),
        hover=hover,
        looks=WEIGHTS,
    )


def _bars(
    x: Sequence[str],
    y: Sequence[float],
    colours: Sequence[str],
    text: Sequence[str],
    hover: list,
    layout: dict,
) -> go.Figure:
    """One bar per category, its number printed above it and its hover text (all plain
    text already made safe by the caller), with `layout` (`_bar_layout`): built in one
    constructor, a fifth of the time that the trace and then four layout updates took (each
    update walks plotly's property paths; a query edit builds two such charts)."""
    return go.Figure(
        go.Bar(
            x=x,
            y=y,
            marker_color=colours,
            text=text,
            textposition="outside",
            customdata=hover,
            hovertemplate="%{customdata}<extra></extra>",
            cliponaxis=False,
        ),
        layout,
    )


def _bar_layout(title: str, height: int, x_title: str, y_title: str) -> dict:
    """The layout both bar charts share: weights on a fixed 0…1 axis (room for the labels
    printed above the bars), one bar per category."""
    return {
        **({"title": {"text": plotly_text(title)}} if title else {}),
        "height": height,
        "margin": {"l": 10, "r": 10, "t": 50 if title else 20, "b": 10},
        "showlegend": False,
        "xaxis": {"title": {"text": plotly_text(x_title)}, "type": "category"},
        "yaxis": {"title": {"text": plotly_text(y_title)}, "range": [0, 1.12]},
    }
