"""Plotly heatmaps as pure functions: arrays and labels in, plotly's figure dict out.

Tests call these directly to check labels and hover texts without a browser. One colour rule,
readable with colour-blind vision (ColorBrewer's RdBu and Reds are both marked colour-blind
safe): weights in [0, 1] in d2l's single-hue red from 0 to 1 (callers pass WEIGHT_SCALE), every
other matrix (scores, Q, K, V, X, outputs) in the diverging red-blue scale centred on 0, on every
page and for every example. Every cell also carries its number, so colour never carries it
alone.
"""

from __future__ import annotations

import copy
import functools
import html
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from attention_core import Step
from attention_core.formatting import fmt

SIGNED_SCALE = "RdBu_r"
WEIGHT_SCALE = "Reds"
# Print numbers on the cells only while they stay legible.
MAX_CELLS_WITH_TEXT = 12 * 12
# A weight below this prints on its cell as "<0.01" (its hover and the chart's table of numbers
# keep its value): plotly sizes every cell's text to fit the chart's longest, and "6.52×10⁻⁶"
# beside "0.116" left the regression heatmap's numbers about 6 px high. With it no weight's
# text is longer than "0.0116".
WEIGHT_FLOOR = 0.01
BELOW_FLOOR = "<" + fmt(WEIGHT_FLOOR)
T = TypeVar("T")


def cell_texts(values: np.ndarray, weights: bool) -> list[list[str]]:
    """What each cell prints: its number in the app's one format (attention_core.fmt), and, on a
    chart of weights (`weights`), "<0.01" for a weight above 0 but below WEIGHT_FLOOR; an exact
    0 prints 0."""
    return [[cell_text(float(v), weights) for v in row] for row in np.atleast_2d(values)]


def cell_text(value: float, weights: bool) -> str:
    """What one cell prints (see `cell_texts`)."""
    return BELOW_FLOOR if weights and 0 < value < WEIGHT_FLOOR else fmt(value)


def plotly_text(text: str) -> str:
    """User text made literal for Plotly, which renders a subset of HTML in labels and hovers."""
    return html.escape(str(text), quote=False)


@dataclass(frozen=True)
class Titles:
    """A heatmap's titles: the chart's, its columns' (`x`) and its rows' (`y`)."""

    chart: str = ""
    x: str = ""
    y: str = ""


@dataclass(frozen=True)
class Looks:
    """How a heatmap colours, labels and lays out its cells, declared (a page never edits a
    heatmap's figure). `colorscale` None: chosen from the values (`_default_scale`);
    `zmin`/`zmax` None: the values' own range; `show_text` None: each cell prints its number
    while that stays legible (MAX_CELLS_WITH_TEXT); `missing`: what a cell with no number
    (NaN) prints instead of "NaN" (its hover keeps fmt's word); `cells_px`: the cells' height
    (the chart's less its top and bottom margins; None: 38 px a row, as `heatmap_layout`);
    `max_height`: the chart's height at most (many rows grow thin, not the page long);
    `side_margin`: the left and right margins (None: `heatmap_layout`'s); `shapes`: plotly
    layout shapes drawn over the cells (train/figures.py frames the cells to attend to);
    `text_px`: the cells' numbers at this size (None: plotly fits them to the narrowest cell,
    which it may take below 11 px: the caller then keeps its cells wide enough for it)."""

    colorscale: str | None = None
    zmin: float | None = None
    zmax: float | None = None
    show_text: bool | None = None
    missing: str | None = None
    cells_px: int | None = None
    max_height: int | None = None
    side_margin: int | None = None
    shapes: tuple[dict, ...] = ()
    text_px: int | None = None


# Weights on the fixed 0…1 red scale, so that two weight charts compare at a glance; every
# other matrix on the diverging scale centred on 0.
WEIGHTS = Looks(WEIGHT_SCALE, 0, 1)
SIGNED = Looks(SIGNED_SCALE)


def heatmap(
    values: np.ndarray,
    x_labels: Sequence[str],
    y_labels: Sequence[str],
    titles: Titles = Titles(),
    *,
    hover: Sequence[Sequence[str]] | None = None,
    looks: Looks = Looks(),
) -> DrawnFigure:
    """A matrix drawn as it is written: row 1 at the top, one labelled cell per entry.

    −∞ (a masked score) is drawn as an empty cell labelled '−∞'. `hover` holds one text per
    cell (plain text; it is escaped here); lines break before each ' = ' so long arithmetic
    stays readable.
    """
    values = np.asarray(values, dtype=float)
    finite = np.where(np.isfinite(values), values, np.nan)
    colorscale = looks.colorscale
    if colorscale is None:
        colorscale = _default_scale(finite)
    zmid = 0.0 if colorscale == SIGNED_SCALE else None
    zmin, zmax = weight_range(colorscale, looks.zmin, looks.zmax)
    show_text = looks.show_text
    if show_text is None:
        show_text = values.size <= MAX_CELLS_WITH_TEXT
    printed = cell_texts(values, weights=colorscale == WEIGHT_SCALE)
    if looks.missing is not None:
        printed = [[looks.missing if c == "NaN" else c for c in row] for row in printed]
    if hover is None:
        hover = [[fmt(v) for v in row] for row in values]
    hover_html = [[plotly_text(h).replace(" = ", "<br>= ") for h in row] for row in hover]
    x = [plotly_text(label) for label in x_labels]
    y = [plotly_text(label) for label in y_labels]
    trace = {
        "type": "heatmap",
        "z": finite,
        "x": x,
        "y": y,
        "text": printed,
        "customdata": hover_html,
        "texttemplate": "%{text}" if show_text else None,
        "textfont": {"size": looks.text_px} if looks.text_px and show_text else None,
        "hovertemplate": "%{customdata}<extra></extra>",
        "colorscale": _scale(colorscale),
        "zmid": zmid,
        "zmin": zmin,
        "zmax": zmax,
        "xgap": 1,
        "ygap": 1,
        "colorbar": {"thickness": 12, "len": 0.9},
    }
    layout = heatmap_layout(list(x_labels), len(y_labels), titles)
    _laid_out(layout, looks)
    return DrawnFigure(
        {"data": [{k: v for k, v in trace.items() if v is not None}], "layout": layout}
    )


def _laid_out(layout: dict, looks: Looks) -> None:
    """`looks`' height, side margins and shapes written into a heatmap's `layout`."""
    margin = layout["margin"]
    if looks.cells_px is not None:
        layout["height"] = margin["t"] + margin["b"] + looks.cells_px
    if looks.max_height is not None:
        layout["height"] = min(layout["height"], looks.max_height)
    if looks.side_margin is not None:
        margin["l"] = margin["r"] = looks.side_margin
    if looks.shapes:
        layout["shapes"] = [dict(shape) for shape in looks.shapes]


def weight_range(
    colorscale: str, zmin: float | None, zmax: float | None
) -> tuple[float | None, float | None]:
    """The weights' red always spans 0…1 (unless the caller names a range): with the values'
    own range a weight of 0.66 would look as dark as a weight of 1."""
    if colorscale != WEIGHT_SCALE:
        return zmin, zmax
    return (0.0 if zmin is None else zmin), (1.0 if zmax is None else zmax)


class DrawnFigure:
    """A figure as plotly's plain figure dict, `{"data": [trace], "layout": layout}`: drawn
    (pio.to_json takes a dict; kit/figures/live_chart.py sends JSON to Plotly.react) and read
    for its text alternative (kit/figures/alt_text.py) as it is, with no go.Figure made.

    A go.Figure validates every property as it is built, which costs far more than the dicts
    (README, "Figures behind the code's design"). The properties here are fixed and known-good:
    tests/kit/figures/test_heatmap.py pins that the validated figure draws the same JSON.
    A page declares how a heatmap looks (`Looks`) instead of editing it; the kit's own edits
    (kit/figures/blocks.py, level_titles.py) change the dicts of `plain`, only before the
    first draw (the drawn JSON and the text alternative are made once per figure).
    """

    def __init__(self, spec: dict) -> None:
        self.plain = spec
        self._json: str | None = None
        self._facts: object = None

    @property
    def figure(self) -> go.Figure:
        """A validated go.Figure of the dicts, made on each use (tests and other readers off
        the edit path; changing it changes nothing drawn)."""
        return go.Figure(copy.deepcopy(self.plain))  # go.Figure pops each trace's type

    def drawn(self) -> dict | go.Figure:
        """What is drawn: the dicts with plotly's default template (as a go.Figure adds it),
        or a go.Figure when the default is no named template."""
        template = _template_dict()
        if template is None:
            return self.figure
        return {
            "data": self.plain["data"],
            "layout": {**self.plain["layout"], "template": template},
        }

    def to_json(self) -> str:
        """The drawn figure as JSON, made once (a page may draw the same figure again)."""
        if self._json is None:
            self._json = pio.to_json(self.drawn(), validate=False)
        return self._json

    def facts(self, read: Callable[[dict], T]) -> T:
        """`read(figure)` once per figure (the facts of its text alternative, which only depend
        on the figure), reading the dicts."""
        if self._facts is None:
            self._facts = read(self.plain)
        return self._facts


# functools caches, not Streamlit's: these are constants of the installed plotly (a template, a
# colour scale's stops), read for every figure a builder makes, also outside a Streamlit run
# (bench/, the builders' own tests); Streamlit's cache would hash the name on every call.
@functools.cache
def _template_dict_of(name: str) -> dict:
    return go.Figure().to_dict()["layout"]["template"]


def _template_dict() -> dict | None:
    """plotly's default template as a go.Figure adds it (shared: read-only), or None when the
    default is not a named template (then the figure is drawn as a go.Figure)."""
    name = pio.templates.default
    return _template_dict_of(name) if isinstance(name, str) else None


def step_heatmap(
    step: Step,
    x_labels: Sequence[str],
    y_labels: Sequence[str],
    titles: Titles = Titles(),
    *,
    looks: Looks = Looks(),
) -> DrawnFigure:
    """`heatmap` of one engine step, each cell's hover spelling out its arithmetic."""
    hover = hover_texts(step.value.shape, step.entry)
    return heatmap(step.value, x_labels, y_labels, titles, hover=hover, looks=looks)


def hover_texts(shape: tuple[int, int], explain: Callable[[int, int], str]) -> list[list[str]]:
    """One text per cell from an engine explainer (symbols and numbers: no words to translate)."""
    return [[explain(i, j) for j in range(shape[1])] for i in range(shape[0])]


def _scale(name: str) -> list[list]:
    """A named scale as the list of stops plotly's validation sends ("RdBu_r" is plotly.py's
    name, unknown to plotly.js); worked out once per name, a fresh copy per figure."""
    return [list(stop) for stop in _scale_stops(name)]


@functools.cache
def _scale_stops(name: str) -> tuple[tuple, ...]:
    return tuple(tuple(stop) for stop in go.Heatmap(colorscale=name).colorscale)


def _default_scale(values: np.ndarray) -> str:
    """Without a scale named by the caller: a matrix of weights (every entry in [0, 1], rows of
    a softmax) in the weights' red; anything else signed, centred on 0, whatever the example's
    numbers happen to be (an all-positive S is still a score)."""
    if not np.isnan(values).all() and np.nanmin(values) >= 0 and np.nanmax(values) <= 1:
        return WEIGHT_SCALE
    return SIGNED_SCALE


CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")
# Above this many columns, or with labels longer than this, column labels stand upright (-90°):
# otherwise plotly tilts them by a guess and they run into the chart's title.
_UPRIGHT_COLUMNS, _UPRIGHT_CHARS = 6, 4
_CHAR_PX, _CJK_PX = 7, 13  # a tick label character at plotly's 12 px font, about
# A phone's chart (358 px) less its row labels and margins: labels wider together than this
# ran into each other there ('3 · マット' in a head's block of 5 keys).
_PHONE_PLOT_PX = 260
# A title up to this many characters ends left of the column title centred above a phone's
# chart; a longer one gets a line of its own.
_SHORT_TITLE = 18


def heatmap_layout(x_labels: list[str], rows: int, titles: Titles) -> dict:
    """The layout of a matrix heatmap: column labels on top, the title above them with room
    for both (long labels stand upright), and a Japanese row title written level in the
    top-left corner (plotly turns a y-axis title on its side, which Japanese does not read)."""
    title, x_title, y_title = titles.chart, titles.x, titles.y
    labels, band = column_labels(x_labels)
    band += 22 if x_title else 0
    xaxis = {"title": {"text": plotly_text(x_title)}, "side": "top", "type": "category", **labels}
    yaxis = {"title": {"text": plotly_text(y_title)}, "autorange": "reversed", "type": "category"}
    top = band + (40 if title else 12)
    if x_title and label_px(title) > _SHORT_TITLE * _CHAR_PX:  # it would reach the centred
        top += 16  # column title (a Japanese character is twice as wide as a Latin one)
    layout = {
        # the cells keep their height whatever the labels above them take
        "height": max(120, 40 + 38 * rows) + top + 10,
        "margin": {"l": 10, "r": 10, "t": top, "b": 10},
        "xaxis": xaxis,
        "yaxis": yaxis,
    }
    if CJK.search(y_title):
        # level, and broken before its bracket ("トークン" over "(クエリ)"): on one line it
        # took 136 px of a phone's 358 from the cells
        lines = y_title.split(" (", 1)
        lines[1:] = [f"({rest}" for rest in lines[1:]]
        yaxis["title"] = {"text": ""}
        layout["annotations"] = [level_row_title(lines)]
        layout["margin"]["l"] = 14 * max(len(line) for line in lines) + 10
        layout["margin"]["t"] = max(top, 18 * len(lines) + 4)
    if title:
        layout["title"] = {
            "text": plotly_text(title),
            "x": 0,
            "xanchor": "left",
            "y": 1,
            "yanchor": "top",
            "yref": "container",
            "pad": {"t": 8, "l": 4},
        }
    return layout


def label_px(label: str) -> int:
    """About how wide a tick label is drawn, in px (a CJK character is about twice a Latin one)."""
    return sum(_CJK_PX if CJK.match(ch) else _CHAR_PX for ch in label)


def column_labels(x_labels: Sequence[str]) -> tuple[dict, int]:
    """How the column labels are written (extra x-axis settings) and the px they take above
    the cells: level on one line while they fit a phone side by side; a token's label
    ('3 · マット') as its number over its word when that fits; else upright (-90°; plotly's own
    tilt is a guess that runs into the chart's title)."""
    widest = max((label_px(label) for label in x_labels), default=_CHAR_PX)
    count = len(x_labels)
    longest = max((len(label) for label in x_labels), default=1)
    crowded = count * (widest + 8) > _PHONE_PLOT_PX
    if not crowded and not (count > _UPRIGHT_COLUMNS and longest > _UPRIGHT_CHARS):
        return {}, 18
    lines = [label.split(" · ", 1) for label in x_labels]
    two_lines = all(len(parts) == 2 for parts in lines)
    line_px = max((label_px(part) for parts in lines for part in parts), default=0)
    if two_lines and count * (line_px + 8) <= _PHONE_PLOT_PX:
        text = ["<br>".join(plotly_text(part) for part in parts) for parts in lines]
        return {"tickvals": [plotly_text(label) for label in x_labels], "ticktext": text}, 34
    return {"tickangle": -90}, widest


def level_row_title(text, yref: str = "y domain", xref: str = "x domain") -> dict:
    """A row title written level, right-aligned just left of the plot's top-left corner;
    `text` is one string or its lines."""
    lines = [text] if isinstance(text, str) else list(text)
    return {
        "text": "<br>".join(plotly_text(line) for line in lines),
        "x": 0,
        "xref": xref,
        "xanchor": "right",
        "y": 1,
        "yref": yref,
        "yanchor": "bottom",
        "showarrow": False,
        "xshift": -4,
    }
