"""What a chart shows, read back from the figure itself: the facts of its text alternative
(kind, size, largest entry) and its numbers as a table.

Pure: a figure in, facts or a DataFrame out, so the words (kit.figures.charts puts them in the
learner's language) and the numbers come from the very traces the browser draws. Labels in a
figure are Plotly text (user text escaped, line breaks as <br>); they come back here as the plain
text the learner typed. Every number is written in the app's one format (attention_core.fmt),
and a heatmap cell as the text printed on it (a masked score reads "−∞", as on the chart).
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from attention_core.formatting import fmt
from attention_ui.kit.figures.heatmap import BELOW_FLOOR, DrawnFigure

Figure = go.Figure | DrawnFigure | dict

_TAG = re.compile(r"<[^>]*>")
_XY_TYPES = ("scatter", "bar", "scattergl")


def values_of(data: object) -> object:
    """A trace's array as given, or decoded from plotly's typed-array form ({"dtype", "bdata",
    "shape"}), which a figure rebuilt from another's to_dict() holds."""
    if isinstance(data, dict) and "bdata" in data and "dtype" in data:
        array = np.frombuffer(base64.b64decode(data["bdata"]), dtype=np.dtype(data["dtype"]))
        shape = data.get("shape")
        return array.reshape([int(n) for n in str(shape).split(",")]) if shape else array
    return data


def plain(text: object) -> str:
    """Plotly text as plain text: tags dropped (a <br> becomes a space), entities decoded."""
    if text is None:
        return ""
    text = str(text)
    if "<" in text or "&" in text:  # else neither a tag nor an entity: as it is (faster)
        text = html.unescape(_TAG.sub(" ", text))
    return text.strip().replace("  ", " ")


@dataclass(frozen=True)
class ChartFacts:
    """What a text alternative says about a chart, numbers already written.

    kind: "heatmap" (one matrix or a grid of equal-sized panels), "xy" (lines, points and
    bars) or "other". For a heatmap, `size` is (rows, columns) of one panel and `where` the
    (row label, column label) of the largest entry; for xy charts `size` is (points, series)
    and `where` (series name, x). `largest` is "" when no entry is a finite number.
    """

    kind: str
    title: str
    x_title: str
    y_title: str
    size: tuple[int, int]
    panels: int
    largest: str
    where: tuple[str, str]
    panel: str
    series: tuple[str, ...]


def chart_facts(figure: Figure) -> ChartFacts:
    """The facts of `figure`'s text alternative, from its first kind of trace."""
    figure = plain_figure(figure)
    layout = figure["layout"]
    title = plain((layout.get("title") or {}).get("text"))
    x_title, y_title = _axis_titles(layout)
    heatmaps = [trace for trace in figure["data"] if trace.get("type") == "heatmap"]
    if heatmaps:
        return _heatmap_facts(layout, heatmaps, title, x_title, y_title)
    series = [trace for trace in figure["data"] if trace.get("type", "scatter") in _XY_TYPES]
    if series:
        return _xy_facts(series, title, x_title, y_title)
    return ChartFacts("other", title, x_title, y_title, (0, 0), 0, "", ("", ""), "", ())


def plain_figure(figure: Figure) -> dict:
    """The figure as plotly's plain dicts ({"data": [...], "layout": {...}}), read here and
    never changed: a DrawnFigure's own, else what this module reads of a go.Figure (its traces,
    title, annotations and axes), copied through plotly's public API. Not its to_dict(): that
    deep-copies the whole layout, the default template included, which was most of the time a
    text alternative took."""
    if isinstance(figure, DrawnFigure):
        figure = figure.plain
    if isinstance(figure, dict):
        return figure
    layout = figure.layout
    read = {name: layout[name].to_plotly_json() for name in layout if _is_axis(name)}
    read["title"] = layout.title.to_plotly_json()
    read["annotations"] = [note.to_plotly_json() for note in layout.annotations]
    return {"data": [trace.to_plotly_json() for trace in figure.data], "layout": read}


def _is_axis(name: str) -> bool:
    return name.startswith(("xaxis", "yaxis"))


def _axis_titles(layout: dict) -> tuple[str, str]:
    """The first x- and y-axis titles of the figure (a grid titles its outer edges only)."""
    found = {"x": "", "y": ""}
    axes = sorted((len(n), n) for n in layout if _is_axis(n))
    for _, name in axes:  # xaxis, then xaxis2, … (the first that has a title)
        if not found[name[0]]:
            found[name[0]] = _axis_title(layout, name)
    if not found["y"]:  # a Japanese row title is written level, as a note (heatmap_layout)
        level = [a for a in layout.get("annotations", ()) if a.get("yref") == "y domain"]
        found["y"] = plain(level[0].get("text")) if level else ""
    return found["x"], found["y"]


def _axis_title(layout: dict, name: str) -> str:
    """An axis's title, or the level note that stands for it (kit.figures.level_titles names
    it after the axis: "y2 title")."""
    text = plain((layout.get(name, {}).get("title") or {}).get("text"))
    if text or not name.startswith("yaxis"):
        return text
    note = f"y{name[len('yaxis') :]} title"
    level = [a for a in layout.get("annotations", ()) if a.get("name") == note]
    return plain(level[0].get("text")) if level else ""


def _heatmap_facts(layout, heatmaps, title, x_title, y_title) -> ChartFacts:
    best = None  # (value, panel, row, col)
    size = None
    for index, trace in enumerate(heatmaps):
        z = np.asarray(values_of(trace.get("z")), dtype=float)  # each trace's z read once
        if size is None:
            size = (z.shape[0], z.shape[1] if z.ndim == 2 else 1)
        finite = np.isfinite(z)
        if not finite.any():
            continue
        # the first largest finite entry (NaN and ±∞ left out), as np.nanargmax finds it
        i, j = np.unravel_index(int(np.argmax(np.where(finite, z, -np.inf))), z.shape)
        if best is None or z[i, j] > best[0]:
            best = (float(z[i, j]), index, int(i), int(j), z.shape)
    if best is None:
        return ChartFacts(
            "heatmap", title, x_title, y_title, size, len(heatmaps), "", ("", ""), "", ()
        )
    value, index, i, j, shape = best
    rows, cols = _labels(heatmaps[index], shape)
    # a panel's name only in a grid of several (a lone chart's facts name none)
    panel = panel_names(layout, heatmaps)[index] if len(heatmaps) > 1 else ""
    return ChartFacts(
        "heatmap",
        title,
        x_title,
        y_title,
        size,
        len(heatmaps),
        fmt(value),
        (rows[i], cols[j]),
        panel,
        (),
    )


def _xy_facts(series, title, x_title, y_title) -> ChartFacts:
    best = None  # (value, series index, point index), on the first y axis only
    for index, trace in enumerate(series):
        if (trace.get("yaxis") or "y") != "y":
            continue
        y = _numbers(values_of(trace.get("y")))
        if y.size and np.isfinite(y).any():
            k = int(np.nanargmax(np.where(np.isfinite(y), y, np.nan)))
            if best is None or y[k] > best[0]:
                best = (float(y[k]), index, k)
    names = tuple(plain(trace.get("name")) for trace in series)
    points = max(_length(values_of(trace.get("y"))) for trace in series)
    size = (points, len(series))
    if best is None:
        return ChartFacts("xy", title, x_title, y_title, size, 1, "", ("", ""), "", names)
    value, index, k = best
    x = _x_texts(series[index])
    return ChartFacts(
        "xy", title, x_title, y_title, size, 1, fmt(value), (names[index], x[k]), "", names
    )


def panel_names(layout: dict, heatmaps: Sequence[dict]) -> list[str]:
    """Each panel's name in a grid of heatmaps (make_subplots' titles: a column's above it, a
    row's at its right, matched by position), else its number; `layout` as `plain_figure`
    gives it."""
    notes = [a for a in layout.get("annotations", ()) if a.get("xref") == "paper"]
    names = []
    for number, trace in enumerate(heatmaps, start=1):
        xaxis = layout.get("xaxis" + (trace.get("xaxis") or "x")[1:], {})
        yaxis = layout.get("yaxis" + (trace.get("yaxis") or "y")[1:], {})
        x_mid, y_mid = np.mean(xaxis.get("domain", (0, 1))), np.mean(yaxis.get("domain", (0, 1)))
        parts = [
            plain(a.get("text"))
            for a in notes
            if (not a.get("textangle") and abs(a.get("x", -1) - x_mid) < 1e-6)
            or (a.get("textangle") == 90 and abs(a.get("y", -1) - y_mid) < 1e-6)
        ]
        names.append(" · ".join(p for p in parts if p) or str(number))
    return names


def _labels(trace, shape: tuple[int, ...] | None = None) -> tuple[list[str], list[str]]:
    """The trace's row and column labels as plain text (1, 2, … where they do not fit its z,
    of `shape` when the caller has read it)."""
    if shape is None:
        shape = np.shape(values_of(trace.get("z")))
    y, x = values_of(trace.get("y")), values_of(trace.get("x"))
    rows = [plain(s) for s in y] if y is not None else []
    cols = [plain(s) for s in x] if x is not None else []
    n_rows, n_cols = shape[0], shape[1] if len(shape) == 2 else 1
    rows = rows if len(rows) == n_rows else [str(i + 1) for i in range(n_rows)]
    cols = cols if len(cols) == n_cols else [str(j + 1) for j in range(n_cols)]
    return rows, cols


def _numbers(values) -> np.ndarray:
    if values is None:
        return np.zeros(0)
    try:
        return np.asarray(values, dtype=float).ravel()
    except (TypeError, ValueError):  # categories, not numbers
        return np.full(len(values), np.nan)


def _x_texts(trace) -> list[str]:
    """A trace's x values as the table writes them: numbers in the app's format, labels as
    typed (a bar chart's categories); 1, 2, … when the trace has none."""
    n = _length(values_of(trace.get("y")))
    x = values_of(trace.get("x"))
    if x is None:
        return [str(k + 1) for k in range(n)]
    numbers = _numbers(x)
    if numbers.size and np.isfinite(numbers).all():
        return [fmt(v) for v in numbers]
    return [plain(v) for v in x]


def _length(values) -> int:
    return 0 if values is None else len(values)


def _cell_texts(trace) -> list[list[str]]:
    """What each heatmap cell shows: its printed text, else its number in the app's format; a
    tiny weight printed "<0.01" (heatmap.BELOW_FLOOR) has its number here, which only the hover
    gives on the chart."""
    z = np.asarray(values_of(trace.get("z")), dtype=float)
    text = values_of(trace.get("text"))
    if text is not None and np.shape(text) == z.shape:
        return [
            [fmt(v) if cell == BELOW_FLOOR else plain(cell) for cell, v in zip(*row, strict=True)]
            for row in zip(text, z, strict=True)
        ]
    return [[fmt(v) for v in row] for row in np.atleast_2d(z)]


def chart_table(figure: Figure, row_title: str, panel_title: str, value_title: str) -> pd.DataFrame:
    """The chart's numbers as text, as the chart writes them.

    A heatmap: one row per matrix row, one column per matrix column, the row labels as the
    index (named after the rows' axis, else `row_title`); a grid of panels puts the panel's
    name (column `panel_title`) before the row label. Lines and bars: one row per point, with
    the series' name (column `panel_title`, when there are several), x and y (column
    `value_title` when the series have different y axes).
    """
    figure = plain_figure(figure)
    layout = figure["layout"]
    heatmaps = [trace for trace in figure["data"] if trace.get("type") == "heatmap"]
    if heatmaps:
        return _heatmap_table(layout, heatmaps, _axis_titles(layout)[1] or row_title, panel_title)
    series = [trace for trace in figure["data"] if trace.get("type", "scatter") in _XY_TYPES]
    return _xy_table(layout, series, panel_title, value_title)


def _heatmap_table(layout, heatmaps, row_title: str, panel_title: str) -> pd.DataFrame:
    names = panel_names(layout, heatmaps)
    frames = []
    for name, trace in zip(names, heatmaps, strict=True):
        rows, cols = _labels(trace)
        frame = pd.DataFrame(_cell_texts(trace), index=rows, columns=_unique(cols))
        frame.index.name = row_title
        if len(heatmaps) > 1:
            frame.index = pd.MultiIndex.from_product(
                [[name], frame.index], names=[panel_title, row_title]
            )
        frames.append(frame)
    return pd.concat(frames) if len(frames) > 1 else frames[0]


def _xy_table(layout, series, series_title: str, value_title: str) -> pd.DataFrame:
    """One row per point: series, x, y. The y column is titled by the series' y axis when
    they share one (else `value_title`), the x column by the x axis (else "x")."""
    x_title = _axis_titles(layout)[0] or "x"
    y_titles = {_axis_title(layout, "yaxis" + (t.get("yaxis") or "y")[1:]) for t in series}
    y_title = y_titles.pop() if len(y_titles) == 1 else value_title
    columns = _unique([series_title, x_title, y_title or "y"])
    rows = [
        (plain(trace.get("name")), x, fmt(v))
        for trace in series
        for x, v in zip(_x_texts(trace), _numbers(values_of(trace.get("y"))), strict=False)
    ]
    frame = pd.DataFrame(rows, columns=columns)
    return frame.drop(columns=columns[0]) if len(series) == 1 else frame


def _unique(labels: list[str]) -> list[str]:
    """Column names as shown, made distinct (two keys may carry the same label)."""
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label} ({seen[label]})")
    return out
