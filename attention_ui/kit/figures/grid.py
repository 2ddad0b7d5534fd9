"""d2l's `show_heatmaps` in Plotly: a grid of attention-weight heatmaps from one 4-axis array.

The array's axes are (display rows, display columns, queries, keys), as in d2l's "Queries, Keys,
and Values": each cell of the grid is one queries × keys matrix. The panels share their axes,
only the outer edges carry axis titles and tick labels, each column has a title, and one colorbar
serves the whole grid (one shared colour axis, so equal colours mean equal numbers everywhere).
A pure function: any page can call it with any 4-axis array.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from attention_core import fmt
from attention_ui.kit.figures.heatmap import WEIGHT_SCALE, plotly_text

# Print numbers on the cells only while every panel stays legible.
MAX_TEXT_CELLS = 6 * 6
MAX_TEXT_COLUMNS = 4


def heatmap_grid(
    matrices: np.ndarray,
    x_title: str,
    y_title: str,
    *,
    titles: Sequence[str] | None = None,
    row_titles: Sequence[str] | None = None,
    colorscale: str = WEIGHT_SCALE,
    x_labels: Sequence[str] | None = None,
    y_labels: Sequence[str] | None = None,
    zmin: float | None = None,
    zmax: float | None = None,
    colorbar_title: str = "",
    hover: Callable[[int, int, int, int], str] | None = None,
    show_text: bool | None = None,
    panel_height: int | None = None,
) -> go.Figure:
    """A grid of heatmaps, one per (display row, display column) of `matrices`.

    Parameters
    ----------
    matrices : array of shape (rows, cols, queries, keys)
    x_title, y_title : the axis titles (d2l: 'Keys', 'Queries'), on the outer edges only
    titles : one title per display column, shown above the top row
    row_titles : one title per display row, shown at the right
    colorscale : Plotly scale name; d2l's red by default
    x_labels, y_labels : key and query labels (default 1, 2, …)
    zmin, zmax : the colour range (default: the array's minimum and maximum, 0 included)
    hover : optional (r, c, i, j) → plain text explaining one cell (escaped here)
    """
    matrices = np.asarray(matrices, dtype=float)
    if matrices.ndim != 4 or 0 in matrices.shape:
        raise ValueError(
            "heatmap_grid needs a non-empty 4-axis array "
            f"(rows, columns, queries, keys); got shape {matrices.shape}"
        )
    rows, cols, n_queries, n_keys = matrices.shape
    titles = _checked(titles, cols, "titles")
    row_titles = _checked(row_titles, rows, "row_titles")
    raw_x = _checked(x_labels, n_keys, "x_labels") or [str(j + 1) for j in range(n_keys)]
    raw_y = _checked(y_labels, n_queries, "y_labels") or [str(i + 1) for i in range(n_queries)]
    x, y = [plotly_text(s) for s in raw_x], [plotly_text(s) for s in raw_y]
    finite = np.where(np.isfinite(matrices), matrices, np.nan)
    if zmin is None:
        zmin = min(0.0, float(np.nanmin(finite))) if np.isfinite(finite).any() else 0.0
    if zmax is None:
        zmax = float(np.nanmax(finite)) if np.isfinite(finite).any() else 1.0
    if show_text is None:
        show_text = n_queries * n_keys <= MAX_TEXT_CELLS and cols <= MAX_TEXT_COLUMNS

    figure = make_subplots(
        rows=rows,
        cols=cols,
        shared_xaxes=True,
        shared_yaxes=True,
        subplot_titles=[plotly_text(t) for t in titles] if titles else None,
        row_titles=[plotly_text(t) for t in row_titles] if row_titles else None,
        horizontal_spacing=min(0.04, 0.3 / cols),
        vertical_spacing=min(0.08, 0.4 / rows),
    )
    for r in range(rows):
        for c in range(cols):
            panel = finite[r, c]
            text = [[fmt(v) for v in row] for row in matrices[r, c]]
            cell_hover = [
                [
                    plotly_text(
                        _hover_text(
                            hover,
                            r,
                            c,
                            i,
                            j,
                            titles,
                            row_titles,
                            x_title,
                            y_title,
                            raw_x,
                            raw_y,
                            matrices,
                        )
                    )
                    for j in range(n_keys)
                ]
                for i in range(n_queries)
            ]
            figure.add_trace(
                go.Heatmap(
                    z=panel,
                    x=x,
                    y=y,
                    text=text,
                    customdata=cell_hover,
                    texttemplate="%{text}" if show_text else None,
                    hovertemplate="%{customdata}<extra></extra>",
                    coloraxis="coloraxis",
                    xgap=1 if n_keys <= 20 else 0,
                    ygap=1 if n_queries <= 20 else 0,
                ),
                row=r + 1,
                col=c + 1,
            )
    for c in range(cols):  # axis titles on the outer edges only, like d2l
        figure.update_xaxes(title_text=plotly_text(x_title), row=rows, col=c + 1)
    for r in range(rows):
        figure.update_yaxes(title_text=plotly_text(y_title), row=r + 1, col=1)
    figure.update_xaxes(type="category", constrain="domain")
    figure.update_yaxes(type="category", autorange="reversed")
    if panel_height is None:
        panel_height = max(150, min(320, 40 + 24 * n_queries))
    figure.update_layout(
        coloraxis={
            "colorscale": colorscale,
            "cmin": zmin,
            "cmax": zmax,
            "colorbar": {
                "thickness": 12,
                "len": 0.8,
                "x": 1.06 if row_titles else 1.02,
                "title": {"text": plotly_text(colorbar_title)},
            },
        },
        height=panel_height * rows + 90,
        margin={"l": 10, "r": 30 if row_titles else 10, "t": 50 if titles else 20, "b": 10},
    )
    figure.update_annotations(font_size=13)
    return figure


def _checked(labels: Sequence[str] | None, expected: int, name: str) -> list[str] | None:
    if labels is None:
        return None
    labels = [str(s) for s in labels]
    if len(labels) != expected:
        raise ValueError(f"{name} has {len(labels)} entries for {expected} panels/cells")
    return labels


def _hover_text(
    hover: Callable[[int, int, int, int], str] | None,
    r: int,
    c: int,
    i: int,
    j: int,
    titles: list[str] | None,
    row_titles: list[str] | None,
    x_title: str,
    y_title: str,
    x: list[str],
    y: list[str],
    matrices: np.ndarray,
) -> str:
    if hover is not None:
        return hover(r, c, i, j)
    where = " · ".join(
        s for s in [row_titles[r] if row_titles else "", titles[c] if titles else ""] if s
    )
    cell = f"{y_title} {y[i]}, {x_title} {x[j]}: {fmt(matrices[r, c, i, j])}"
    return f"{where} — {cell}" if where else cell
