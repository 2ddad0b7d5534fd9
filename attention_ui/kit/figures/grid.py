"""d2l's `show_heatmaps` in Plotly: a grid of attention-weight heatmaps from one 4-axis array.

The array's axes are (display rows, display columns, queries, keys), as in d2l's "Queries, Keys,
and Values": each cell of the grid is one queries × keys matrix. The panels share their axes,
only the outer edges carry axis titles and tick labels, each column has a title, and one colorbar
serves the whole grid (one shared colour axis, so equal colours mean equal numbers everywhere).
A pure function: any page can call it with any 4-axis array.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from attention_core.formatting import fmt
from attention_ui.kit.figures.heatmap import WEIGHT_SCALE, cell_texts, plotly_text, weight_range

# Print numbers on the cells only while every panel stays legible.
MAX_TEXT_CELLS = 6 * 6
MAX_TEXT_COLUMNS = 4


@dataclass(frozen=True)
class GridSettings:
    """How a grid of heatmaps is labelled and coloured; every field is optional.

    titles : one title per display column, shown above the top row
    row_titles : one title per display row, shown at the right
    colorscale : Plotly scale name; d2l's red by default
    x_labels, y_labels : key and query labels (default 1, 2, …)
    zmin, zmax : the colour range (default: 0…1 on the weights' red, otherwise the array's
        minimum and maximum, 0 included)
    colorbar_title : the one colorbar's title
    hover : optional (r, c, i, j) → plain text explaining one cell (escaped here)
    show_text : print the numbers on the cells (default: only while every panel stays legible)
    panel_height : pixels per display row (default: from the number of queries)
    panel_titles : one title per panel, row by row, above it (in place of `titles` and
        `row_titles`)
    """

    titles: Sequence[str] | None = None
    row_titles: Sequence[str] | None = None
    colorscale: str = WEIGHT_SCALE
    x_labels: Sequence[str] | None = None
    y_labels: Sequence[str] | None = None
    zmin: float | None = None
    zmax: float | None = None
    colorbar_title: str = ""
    hover: Callable[[int, int, int, int], str] | None = None
    show_text: bool | None = None
    panel_height: int | None = None
    panel_titles: Sequence[str] | None = None


@dataclass(frozen=True)
class _Grid:
    """One call's array with its settings checked and its defaults filled in."""

    matrices: np.ndarray
    finite: np.ndarray
    x_title: str
    y_title: str
    titles: list[str] | None
    row_titles: list[str] | None
    panel_titles: list[str] | None
    raw_x: list[str]
    raw_y: list[str]
    zmin: float
    zmax: float
    show_text: bool
    panel_height: int
    settings: GridSettings


def heatmap_grid(
    matrices: np.ndarray,
    x_title: str,
    y_title: str,
    settings: GridSettings | None = None,
) -> go.Figure:
    """A grid of heatmaps, one per (display row, display column) of `matrices`.

    matrices : array of shape (rows, cols, queries, keys)
    x_title, y_title : the axis titles (d2l: 'Keys', 'Queries'), on the outer edges only
    settings : titles, labels, colour range, hover; see GridSettings
    """
    grid = _resolved(
        np.asarray(matrices, dtype=float), x_title, y_title, settings or GridSettings()
    )
    rows, cols = grid.matrices.shape[:2]
    above = grid.panel_titles or grid.titles
    figure = make_subplots(
        rows=rows,
        cols=cols,
        shared_xaxes=True,
        shared_yaxes=True,
        subplot_titles=[plotly_text(t) for t in above] if above else None,
        row_titles=[plotly_text(t) for t in grid.row_titles] if grid.row_titles else None,
        horizontal_spacing=min(0.04, 0.3 / cols),
        vertical_spacing=min(0.08, 0.4 / rows),
    )
    for r in range(rows):
        for c in range(cols):
            figure.add_trace(_panel(grid, r, c), row=r + 1, col=c + 1)
    _lay_out(figure, grid)
    return figure


def grid_columns(
    matrices: np.ndarray, x_title: str, y_title: str, settings: GridSettings
) -> list[go.Figure]:
    """The grid of `heatmap_grid` as one figure per display column, its panels one above the
    other, each titled "<column title> · <row title>", so that a page can lay the columns out
    side by side on a desktop and one under another on a phone (a chart cannot scroll
    sideways: one figure of every column left a phone's cells too narrow for their numbers).
    The colour range is the whole array's, and every column has the same colour bar under its
    cells: with the bar under the last alone, that one was laid out taller than the others
    beside it (its panels did not line up with theirs) and, on a phone, the first columns had
    none in sight. `settings.hover` still gets the cell's place in the whole grid."""
    whole = _resolved(np.asarray(matrices, dtype=float), x_title, y_title, settings)
    rows, cols = whole.matrices.shape[:2]
    figures = []
    for c in range(cols):
        column_title = whole.titles[c] if whole.titles else ""
        row_titles = whole.row_titles or [""] * rows
        names = [" · ".join(filter(None, (column_title, row_titles[r]))) for r in range(rows)]
        column = replace(
            settings,
            titles=None,
            row_titles=None,
            panel_titles=names if any(names) else None,
            zmin=whole.zmin,
            zmax=whole.zmax,
            hover=_column_hover(settings.hover, c),
        )
        figure = heatmap_grid(whole.matrices[:, c : c + 1], x_title, y_title, column)
        _colorbar_below(figure)
        figures.append(figure)
    return figures


def _colorbar_below(figure: go.Figure) -> None:
    """The colour bar lying under the key labels and title, as wide as the cells: standing
    beside them it left the last column's cells narrower than the others'."""
    layout = figure.layout
    plot_px = layout.height - layout.margin.t - layout.margin.b
    layout.coloraxis.colorbar.update(
        orientation="h", x=0, xanchor="left", y=-56 / plot_px, yanchor="top", len=1, thickness=10
    )
    figure.update_layout(height=layout.height + 50, margin_b=layout.margin.b + 50)


def _column_hover(hover: Callable | None, column: int) -> Callable | None:
    """A whole grid's hover, for the one-column figure of its display column `column`."""
    return None if hover is None else (lambda r, _, i, j: hover(r, column, i, j))


def _resolved(matrices: np.ndarray, x_title: str, y_title: str, settings: GridSettings) -> _Grid:
    if matrices.ndim != 4 or 0 in matrices.shape:
        raise ValueError(
            "heatmap_grid needs a non-empty 4-axis array "
            f"(rows, columns, queries, keys); got shape {matrices.shape}"
        )
    rows, cols, n_queries, n_keys = matrices.shape
    finite = np.where(np.isfinite(matrices), matrices, np.nan)
    any_finite = bool(np.isfinite(finite).any())
    zmin, zmax = weight_range(settings.colorscale, settings.zmin, settings.zmax)
    show_text = settings.show_text
    if zmin is None:
        zmin = min(0.0, float(np.nanmin(finite))) if any_finite else 0.0
    if zmax is None:
        zmax = float(np.nanmax(finite)) if any_finite else 1.0
    if show_text is None:
        show_text = n_queries * n_keys <= MAX_TEXT_CELLS and cols <= MAX_TEXT_COLUMNS
    panel_height = settings.panel_height
    if panel_height is None:
        panel_height = max(150, min(320, 40 + 24 * n_queries))
    raw_x = _checked(settings.x_labels, n_keys, "x_labels")
    raw_y = _checked(settings.y_labels, n_queries, "y_labels")
    return _Grid(
        matrices=matrices,
        finite=finite,
        x_title=x_title,
        y_title=y_title,
        titles=_checked(settings.titles, cols, "titles"),
        row_titles=_checked(settings.row_titles, rows, "row_titles"),
        panel_titles=_checked(settings.panel_titles, rows * cols, "panel_titles"),
        raw_x=raw_x or [str(j + 1) for j in range(n_keys)],
        raw_y=raw_y or [str(i + 1) for i in range(n_queries)],
        zmin=zmin,
        zmax=zmax,
        show_text=show_text,
        panel_height=panel_height,
        settings=settings,
    )


def _panel(grid: _Grid, r: int, c: int) -> go.Heatmap:
    n_queries, n_keys = grid.matrices.shape[2:]
    return go.Heatmap(
        z=grid.finite[r, c],
        x=[plotly_text(s) for s in grid.raw_x],
        y=[plotly_text(s) for s in grid.raw_y],
        text=cell_texts(grid.matrices[r, c], weights=grid.settings.colorscale == WEIGHT_SCALE),
        customdata=[
            [plotly_text(_hover_text(grid, r, c, i, j)) for j in range(n_keys)]
            for i in range(n_queries)
        ],
        texttemplate="%{text}" if grid.show_text else None,
        hovertemplate="%{customdata}<extra></extra>",
        coloraxis="coloraxis",
        xgap=1 if n_keys <= 20 else 0,
        ygap=1 if n_queries <= 20 else 0,
    )


def _lay_out(figure: go.Figure, grid: _Grid) -> None:
    rows, cols = grid.matrices.shape[:2]
    for c in range(cols):  # axis titles on the outer edges only, like d2l
        figure.update_xaxes(title_text=plotly_text(grid.x_title), row=rows, col=c + 1)
    # panels titled one by one: the rows' title once, at the top (beside a long panel title
    # a Japanese one, written level, ran into it)
    for r in range(1 if grid.panel_titles else rows):
        figure.update_yaxes(title_text=plotly_text(grid.y_title), row=r + 1, col=1)
    figure.update_xaxes(type="category", constrain="domain")
    figure.update_yaxes(type="category", autorange="reversed")
    figure.update_layout(
        coloraxis={
            "colorscale": grid.settings.colorscale,
            "cmin": grid.zmin,
            "cmax": grid.zmax,
            "colorbar": {
                "thickness": 12,
                "len": 0.8,
                "x": 1.06 if grid.row_titles else 1.02,
                "title": {"text": plotly_text(grid.settings.colorbar_title)},
            },
        },
        height=grid.panel_height * rows + 90,
        margin={
            "l": 10,
            "r": 30 if grid.row_titles else 10,
            "t": 50 if grid.titles or grid.panel_titles else 20,
            "b": 10,
        },
    )
    # A panel's own title (a column of the gallery's grids: "τ = 0.25 · スケールド・ドット
    # プロダクト", 231 px at 13 px) is centred over its panel, right of the query labels: at 12 px
    # it stays inside a third of the main block beside a 336 px sidebar (attention_ui/frame.py).
    figure.update_annotations(font_size=12 if grid.panel_titles else 13)


def _checked(labels: Sequence[str] | None, expected: int, name: str) -> list[str] | None:
    if labels is None:
        return None
    labels = [str(s) for s in labels]
    if len(labels) != expected:
        raise ValueError(f"{name} has {len(labels)} entries for {expected} panels/cells")
    return labels


def _hover_text(grid: _Grid, r: int, c: int, i: int, j: int) -> str:
    if grid.settings.hover is not None:
        return grid.settings.hover(r, c, i, j)
    row_title = grid.row_titles[r] if grid.row_titles else ""
    title = grid.titles[c] if grid.titles else ""
    where = " · ".join(s for s in [row_title, title] if s)
    if grid.panel_titles:
        where = grid.panel_titles[r * grid.matrices.shape[1] + c]
    value = fmt(grid.matrices[r, c, i, j])
    cell = f"{grid.y_title} {grid.raw_y[i]}, {grid.x_title} {grid.raw_x[j]}: {value}"
    return f"{where} — {cell}" if where else cell
