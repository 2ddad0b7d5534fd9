"""A heatmap too wide for a phone, drawn as blocks of its columns: Streamlit cannot scroll a
chart sideways, so a wide matrix's cells would shrink below the size that prints their numbers.
The page lays the blocks out in columns, side by side on a desktop, one under another on a
phone, every block on the whole matrix's colour range."""

from __future__ import annotations

from attention_ui.kit.figures.heatmap import DrawnFigure


def column_blocks(n: int, most: int, whole_up_to: int | None = None) -> list[range]:
    """The columns 0 … n−1 as drawn: all of them while there are at most `whole_up_to`
    (default `most`), else as few blocks of at most `most` as hold them, as equal as can be
    (10 by 5: 5 + 5; 40 by 7: 7, 7, 7, 7, 6, 6)."""
    if n <= (most if whole_up_to is None else whole_up_to):
        return [range(n)]
    count = -(-n // most)
    sizes = [n // count + (b < n % count) for b in range(count)]  # differ by 1 at most
    starts = [sum(sizes[:b]) for b in range(count)]
    return [range(start, start + size) for start, size in zip(starts, sizes, strict=True)]


_BAR = {
    "orientation": "h",
    "x": 0,
    "xanchor": "left",
    "y": 0,
    "yanchor": "top",
    "ypad": 8,
    "thickness": 10,
    "len": 1,
}


def colour_bar_below(figure: DrawnFigure, shown: bool) -> None:
    """A block's colour bar: under its cells (standing beside them it took a sixth of a phone's
    width from them), or none (`shown` False: the blocks share one range, one bar serves them).
    Done on the heatmap's dicts before its first draw."""
    spec = figure.plain
    for trace in spec["data"]:
        if shown:
            trace["colorbar"] = {**trace.get("colorbar", {}), **_BAR}
        else:
            trace["showscale"] = False
    if shown:
        layout = spec["layout"]
        layout["height"] += 44
        layout["margin"] = {**layout.get("margin", {}), "b": 54}
