"""Attention pooling drawn in the plane: 2-D values, their cone and hull, and the output point.

Pure functions (arrays in, `go.Figure` out), so tests can check what is drawn without a browser.
Colours are colour-blind safe: the cone is light blue, the hull orange, the values dark blue,
the output black; the path of the output over temperatures is a dotted grey line.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from attention_core.formatting import fmt
from attention_core.geometry import Cone, cone_polygon, convex_hull
from attention_ui.kit.figures.heatmap import plotly_text

CONE_FILL = "rgba(158, 202, 225, 0.35)"
CONE_LINE = "#6baed6"
HULL_FILL = "rgba(253, 174, 107, 0.45)"
HULL_LINE = "#e6550d"
VALUE_COLOUR = "#08519c"
OUTPUT_COLOUR = "#000000"
PATH_COLOUR = "#737373"
QUERY_COLOUR = "#54278f"
PLANE_HEIGHT = 460  # px: a plane's figure unless its caller asks another height


@dataclass(frozen=True)
class PlaneCaptions:
    """Translated names of what the plane figure shows."""

    cone: str = "cone of the values"
    hull: str = "convex hull of the values"
    values: str = "values vᵢ"
    output: str = "output Σ αᵢ vᵢ"
    path: str = "output as τ changes"
    query: str = "query q"
    weight: str = "α"


def view_box(*point_sets: np.ndarray, margin: float = 0.15) -> tuple[float, float, float, float]:
    """(x0, x1, y0, y1): a square view holding every point and the origin, with a margin."""
    points = np.vstack(
        [np.zeros((1, 2)), *[np.asarray(p, dtype=float).reshape(-1, 2) for p in point_sets]]
    )
    low, high = points.min(axis=0), points.max(axis=0)
    centre, half = (low + high) / 2, max(float((high - low).max()) / 2, 1.0)
    half *= 1 + margin
    return centre[0] - half, centre[0] + half, centre[1] - half, centre[1] + half


@dataclass(frozen=True, eq=False)
class PlaneScene:
    """What the plane shows, in data units.

    values : (m, 2); output : (2,) or None; weights : one per value (shown next to it) or None
    cone : the values' cone to shade, or None; show_hull : whether to draw their convex hull
    path : (t, 2) outputs over a range of temperatures, drawn as a dotted line, or None
    query : (2,) drawn as an arrow from the origin, or None
    avoid : polylines (k, 2) the caller draws on the figure afterwards (exercise 2's ellipses),
        which the values' labels keep clear of as of the figure's own lines
    """

    values: np.ndarray
    output: np.ndarray | None = None
    weights: Sequence[float] | None = None
    cone: Cone | None = None
    show_hull: bool = True
    path: np.ndarray | None = None
    query: np.ndarray | None = None
    avoid: Sequence[np.ndarray] = ()


def plane_figure(
    scene: PlaneScene,
    *,
    box: tuple[float, float, float, float],
    captions: PlaneCaptions,
    title: str = "",
    height: int = PLANE_HEIGHT,
) -> go.Figure:
    """The values as labelled points, optionally their cone and hull, and the output point.

    box : the view (x0, x1, y0, y1), shared by the figures that should be compared; it grows
    where the values' labels need room (plotly clips text at the axes)
    """
    values = np.asarray(scene.values, dtype=float)
    figure = go.Figure()
    drawn_lines = [np.asarray(line, dtype=float) for line in scene.avoid]  # labels keep clear
    if scene.cone is not None:
        figure.add_trace(_cone_trace(scene.cone, box, captions, drawn_lines))
    if scene.show_hull:
        figure.add_trace(_hull_trace(values, captions, drawn_lines))
    if scene.path is not None and len(scene.path) > 1:
        figure.add_trace(_path_trace(scene.path, captions, drawn_lines))
    if scene.query is not None:
        drawn_lines.append(np.vstack([[0.0, 0.0], scene.query]))
    values_trace, leaders, box, query_side = _values_trace(
        scene, box, captions, drawn_lines, height
    )
    figure.add_trace(values_trace)
    for leader in leaders:
        figure.add_annotation(leader)
    if scene.query is not None:
        q = np.asarray(scene.query, dtype=float).reshape(2)
        figure.add_annotation(_query_arrow(q))
        figure.add_trace(_query_trace(q, captions, query_side))
    if scene.output is not None:
        figure.add_trace(_output_trace(scene.output, captions))
    _lay_out(figure, box, title, height)
    return figure


def _cone_trace(shape: Cone, box, captions: PlaneCaptions, drawn_lines: list) -> go.Scatter:
    """The cone, drawn far past the view so its edges leave it; its polygon joins drawn_lines."""
    x0, x1, y0, y1 = box
    radius = 3 * max(abs(x0), abs(x1), abs(y0), abs(y1))
    polygon = cone_polygon(shape, radius)
    drawn_lines.append(np.asarray(polygon, dtype=float))
    filled = shape.kind in ("wedge", "half_plane", "plane")
    return go.Scatter(
        x=polygon[:, 0],
        y=polygon[:, 1],
        mode="lines",
        name=plotly_text(captions.cone),
        fill="toself" if filled else None,
        fillcolor=CONE_FILL,
        line={"color": CONE_LINE, "width": 1 if filled else 4},
        hoverinfo="skip",
    )


def _hull_trace(values: np.ndarray, captions: PlaneCaptions, drawn_lines: list) -> go.Scatter:
    """The values' convex hull, closed (a segment or a point drawn as a thick line)."""
    hull = convex_hull(values)
    closed = np.vstack([hull, hull[:1]])
    drawn_lines.append(closed)
    return go.Scatter(
        x=closed[:, 0],
        y=closed[:, 1],
        mode="lines",
        name=plotly_text(captions.hull),
        fill="toself" if hull.shape[0] >= 3 else None,
        fillcolor=HULL_FILL,
        line={"color": HULL_LINE, "width": 2 if hull.shape[0] >= 3 else 5},
        hoverinfo="skip",
    )


def _path_trace(path: np.ndarray, captions: PlaneCaptions, drawn_lines: list) -> go.Scatter:
    path = np.asarray(path, dtype=float)
    drawn_lines.append(path)
    return go.Scatter(
        x=path[:, 0],
        y=path[:, 1],
        mode="lines",
        name=plotly_text(captions.path),
        line={"color": PATH_COLOUR, "dash": "dot", "width": 2},
        hoverinfo="skip",
    )


def _values_trace(
    scene: PlaneScene, box, captions: PlaneCaptions, drawn_lines: list, height: int
) -> tuple[go.Scatter, list[dict], tuple[float, float, float, float], str]:
    """The values as points, each labelled with its name over its weight in two short lines
    placed where they cross no drawn line and cover no mark (beside the point, or apart with a
    leader line: the annotations returned); the view grown to hold them; and
    the side of the query's "q", placed last (on a value's point, "q" and "v1" were drawn
    over each other)."""
    values = np.asarray(scene.values, dtype=float)
    lines_of, labels, hover = _value_texts(values, scene.weights, captions.weight)
    points, placed_lines = values, lines_of
    if scene.query is not None:
        points = np.vstack([values, np.asarray(scene.query, dtype=float).reshape(1, 2)])
        placed_lines = [*lines_of, ["q"]]
    view = box
    for _ in range(3):  # the view grown for the labels shrinks them in data units: place again
        places = label_positions(
            points,
            placed_lines,
            view,
            # a phone's plot is about 300 px wide (358 px less the y axis): taken as 290, the
            # view grows enough that a label on the right ("α=0.662") is not cut at the edge
            plot_px=min(290.0, height - 130.0),
            lines=drawn_lines,
            marks=[scene.output] if scene.output is not None else [],
        )
        grown = _grown(box, [place.rect for place in places])
        if _span(grown) <= _span(view) * 1.01:
            break
        view = grown
    x0, x1, y0, y1 = grown
    beside = [place.side != LEADER for place in places[: len(values)]]
    trace = go.Scatter(
        x=values[:, 0],
        y=values[:, 1],
        mode="markers+text",
        name=plotly_text(captions.values),
        # a label set apart is drawn by its leader annotation (leader_annotations)
        text=[label if near else "" for label, near in zip(labels, beside, strict=True)],
        textposition=[p.side if p.side != LEADER else "top center" for p in places[: len(values)]],
        customdata=hover,
        hovertemplate="%{customdata}<extra></extra>",
        marker={"color": VALUE_COLOUR, "size": 11, "symbol": "circle"},
        textfont={"shadow": LABEL_HALO},
        cliponaxis=False,  # a label just past the axis is still drawn in the margin
    )
    leaders = [
        _leader(point, label, place.centre)
        for point, label, place in zip(values, labels, places, strict=False)
        if place.side == LEADER
    ]
    query_side = places[-1].side if scene.query is not None else ""
    return trace, leaders, (x0, x1, y0, y1), "top center" if query_side == LEADER else query_side


def _value_texts(
    values: np.ndarray, weights: np.ndarray | None, weight: str
) -> tuple[list[list[str]], list[str], list[str]]:
    """Each value's label as its lines (its name over its weight, named `weight`), the same
    label as plotly draws it, and its hover."""
    lines_of = [
        [f"v{i + 1}"] + ([] if weights is None else [f"{weight}={fmt(weights[i])}"])
        for i in range(values.shape[0])
    ]
    labels = ["<br>".join(plotly_text(line) for line in lines) for lines in lines_of]
    hover = [
        plotly_text(
            f"v{i + 1} = ({fmt(x)}, {fmt(y)})"
            + ("" if weights is None else f"; {weight}{i + 1} = {fmt(weights[i])}")
        )
        for i, (x, y) in enumerate(values)
    ]
    return lines_of, labels, hover


def _grown(box, rects) -> tuple[float, float, float, float]:
    """The view `box` grown to hold every rectangle (left, right, bottom, top)."""
    x0, x1, y0, y1 = box
    x0, x1 = min(x0, *(r[0] for r in rects)), max(x1, *(r[1] for r in rects))
    y0, y1 = min(y0, *(r[2] for r in rects)), max(y1, *(r[3] for r in rects))
    return x0, x1, y0, y1


def _span(box) -> float:
    return max(box[1] - box[0], box[3] - box[2])


def _leader(point: np.ndarray, label: str, centre: tuple[float, float]) -> dict:
    """A value's label set apart from its point, centred at `centre`, with a thin grey line to
    the point."""
    return {
        "x": float(point[0]),
        "y": float(point[1]),
        "xref": "x",
        "yref": "y",
        "ax": centre[0],
        "ay": centre[1],
        "axref": "x",
        "ayref": "y",
        "text": label,
        "showarrow": True,
        "arrowhead": 0,
        "arrowwidth": 1,
        "arrowcolor": PATH_COLOUR,
        "standoff": 6,  # the line stops short of the point's marker
        "font": {"size": 12, "shadow": LABEL_HALO},
        "bgcolor": "rgba(255, 255, 255, 0.85)",
        "borderpad": 0,
        "name": LEADER,
    }


def _query_arrow(q: np.ndarray) -> dict:
    """An arrow from the origin to the query."""
    return {
        "x": float(q[0]),
        "y": float(q[1]),
        "ax": 0,
        "ay": 0,
        "xref": "x",
        "yref": "y",
        "axref": "x",
        "ayref": "y",
        "showarrow": True,
        "arrowhead": 3,
        "arrowwidth": 2,
        "arrowcolor": QUERY_COLOUR,
        "text": "",
    }


def _query_trace(q: np.ndarray, captions: PlaneCaptions, side: str) -> go.Scatter:
    return go.Scatter(
        x=[q[0]],
        y=[q[1]],
        mode="markers+text",
        name=plotly_text(captions.query),
        text=["q"],
        textposition=side,
        textfont={"color": QUERY_COLOUR, "shadow": LABEL_HALO},
        marker={"color": QUERY_COLOUR, "size": 8, "symbol": "diamond"},
        hovertemplate=plotly_text(f"{captions.query} = ({fmt(q[0])}, {fmt(q[1])})")
        + "<extra></extra>",
    )


def _output_trace(output: np.ndarray, captions: PlaneCaptions) -> go.Scatter:
    out = np.asarray(output, dtype=float).reshape(2)
    return go.Scatter(
        x=[out[0]],
        y=[out[1]],
        mode="markers",
        name=plotly_text(captions.output),
        marker={
            "color": OUTPUT_COLOUR,
            "size": 16,
            "symbol": "star",
            "line": {"color": "white", "width": 1},
        },
        hovertemplate=plotly_text(f"{captions.output} = ({fmt(out[0])}, {fmt(out[1])})")
        + "<extra></extra>",
    )


def _lay_out(figure: go.Figure, box, title: str, height: int) -> None:
    """Title, size, legend below (only where there is room), and x and y on one scale so that
    the cone's angles look right."""
    x0, x1, y0, y1 = box
    figure.update_layout(
        title={"text": plotly_text(title)} if title else None,
        height=height,
        margin={"l": 10, "r": 10, "t": 40 if title else 10, "b": 10},
        # below the x axis's title: at -0.08 its first row ran through the "x"
        legend={"orientation": "h", "y": -0.16, "yanchor": "top"},
        showlegend=height >= 380,
    )
    figure.update_xaxes(range=[x0, x1], zeroline=True, zerolinecolor="#bdbdbd", title_text="x")
    figure.update_yaxes(
        range=[y0, y1],
        zeroline=True,
        zerolinecolor="#bdbdbd",
        title_text="y",
        scaleanchor="x",
        scaleratio=1,
    )


# Where plotly can put a point's label, as (horizontal, vertical) sides of the marker.
_SIDES = {
    "top center": (0, 1),
    "bottom center": (0, -1),
    "middle right": (1, 0),
    "middle left": (-1, 0),
    "top right": (1, 1),
    "top left": (-1, 1),
    "bottom right": (1, -1),
    "bottom left": (-1, -1),
}
_CHAR_PX, _LINE_PX, _MARKER_PX = 7.0, 14.0, 7.0  # a 12 px label's character, line; marker gap
_CLEAR_PX = 3.0  # room kept between a label and a line
# A white halo around a label's letters: where every side of a point has a line near it
# (exercise 2's v3, between the hull's corner and the ellipses), the line stops at the letters
# instead of running through them.
LABEL_HALO = "0 0 2px white, 0 0 2px white, 0 0 3px white"
# A desktop's plot, as a multiple of a phone's (label_positions): about 460 px against 290.
_DESKTOP_SCALE = 1.6


@dataclass(frozen=True)
class LabelPlace:
    """Where a value's label goes: beside its point (`side`, a plotly textposition), or, where
    every side would cross a line or cover a mark, apart from it with a leader line (`side` is
    LEADER and `centre` the label's centre in data units). `rect` is the label's (left, right,
    bottom, top) in data units on the phone's plot."""

    side: str
    rect: tuple[float, float, float, float]
    centre: tuple[float, float] | None = None


LEADER = "leader"
# A label drawn apart: its centre this many pixels from its point, in 16 directions.
_LEADER_PX = (34.0, 46.0, 60.0, 76.0, 92.0)
_LEADER_ANGLES = np.linspace(0.0, 2 * np.pi, 16, endpoint=False)
# A label set apart is centred at a point of the data, so on a wider plot it is smaller around
# the same centre and stays clear of what it cleared on the phone's plot; it is checked on a
# smaller plot as well (a gallery case's at 1400 px is about 130 px across, not 170), drawn as
# an annotation (lines of about 16 px, not 14) and kept further from lines.
_APART_SCALES = (0.75, 1.0)
_APART_PAD_PX = (6.0, 6.0)  # added to the label's width and height
_APART_LINE_PX = 16.0
_MARK_PX = 10.0  # a mark's reach (the output's 16 px star, and a little room) from its centre


def label_positions(
    points: np.ndarray,
    labels: Sequence[Sequence[str]],
    box: tuple[float, float, float, float],
    plot_px: float,
    lines: Sequence[np.ndarray] = (),
    marks: Sequence[np.ndarray] = (),
) -> list[LabelPlace]:
    """A place for each point's label (given as its lines) where it covers the least: no line
    of `lines` (the hull, the cone's edges, paths: polylines of shape (k, 2)), no mark of
    `marks` (the output star, the query), no other point or label, nothing past the view `box`.
    The plot is taken as `plot_px` pixels across its wider axis (x and y keep one scale) and,
    for lines and marks, also as a desktop's wider plot: there a label is drawn smaller in data
    units and closer to its point, and a line between the two places ran through it ('p=0.662'
    on exercise 2's hull at 1400 px). Where every side of the point crosses something (exercise
    2's v3 sits on the hull's corner and on the covariance ellipse; gallery case 3's output star
    sits on v3), the label is set apart at the clearest of 80 places (5 distances × 16
    directions) with a leader line."""
    x0, x1, y0, y1 = box
    span = max(x1 - x0, y1 - y0)
    units = [span / px for px in (plot_px, plot_px * _DESKTOP_SCALE)]
    apart_units = [span / (plot_px * scale) for scale in _APART_SCALES]
    polylines = [_Polyline.of(line) for line in lines]
    points = np.asarray(points, dtype=float)
    marked = [np.asarray(m, dtype=float).reshape(2) for m in marks]
    placed: list[tuple[float, float, float, float]] = []

    def clash(rects, scales, dots, own: int = 0) -> float:
        """What a label's rectangles (one per scale of `scales`) run into: lines, marks, and,
        on its `own` scale, dots (points, marks) and the labels already placed."""
        pairs = list(zip(rects, scales, strict=True))
        crossed = max(_crossings(r, u, polylines) for r, u in pairs)
        touched = max(sum(_within(r, m, _MARK_PX * u) for m in marked) for r, u in pairs)
        return _cost(rects[own], None, dots, placed) + 3.0 * crossed + 4.0 * touched

    places = []
    for i, (point, label) in enumerate(zip(points, labels, strict=True)):
        size = (_CHAR_PX * max(len(line) for line in label), len(label) * _LINE_PX)  # px
        others = [other for j, other in enumerate(points) if j != i]
        beside = {
            side: [_label_box(point, _SIDES[side], _scaled(size, u), u) for u in units]
            for side in _SIDES
        }
        costs = {
            side: (clash(rects, units, others), _cost(rects[0], box, [], []))
            for side, rects in beside.items()
        }
        best = min(_SIDES, key=lambda side, costs=costs: sum(costs[side]))
        if costs[best][0] == 0:
            places.append(LabelPlace(best, beside[best][0]))
        else:
            apart = (size[0] + _APART_PAD_PX[0], len(label) * _APART_LINE_PX + _APART_PAD_PX[1])
            scored = functools.partial(clash, scales=apart_units, dots=[point, *others], own=1)
            places.append(_apart(point, apart, apart_units, box, scored))
        placed.append(places[-1].rect)
    return places


def _apart(point, size, units, box, clash) -> LabelPlace:
    """The label set apart from its point: the nearest of the leader's places that runs into
    the least (inside the view if it can be); `units` are the scales it is checked on, the
    second the plot's own, on which the places lie `_LEADER_PX` from the point."""
    candidates = []
    for radius in _LEADER_PX:
        for angle in _LEADER_ANGLES:
            centre = (
                float(point[0] + radius * np.cos(angle) * units[1]),
                float(point[1] + radius * np.sin(angle) * units[1]),
            )
            rects = [_centred_box(centre, size, u) for u in units]
            candidates.append(
                (clash(rects), _cost(rects[1], box, [], []), radius, centre, rects[1])
            )
    best = min(candidates, key=lambda c: c[:3])
    return LabelPlace(LEADER, best[4], best[3])


def _centred_box(centre, size, unit: float) -> tuple[float, ...]:
    """(left, right, bottom, top) of a label of `size` px centred at `centre` (data units)."""
    cx, cy = centre
    half_w, half_h = size[0] * unit / 2, size[1] * unit / 2
    return cx - half_w, cx + half_w, cy - half_h, cy + half_h


def _within(rect, mark, reach: float) -> bool:
    """Whether `mark` lies within `reach` of the rectangle."""
    left, right, bottom, top = rect
    dx = max(left - mark[0], 0.0, mark[0] - right)
    dy = max(bottom - mark[1], 0.0, mark[1] - top)
    return dx * dx + dy * dy < reach * reach


def _label_box(point, side, size: tuple[float, float], unit: float) -> tuple[float, ...]:
    """(left, right, bottom, top) of a label of `size` on `side` of the marker at `point`."""
    (width, height), gap = size, _MARKER_PX * unit
    dx, dy = side
    left = point[0] + (-width / 2 if dx == 0 else gap if dx > 0 else -gap - width)
    bottom = point[1] + (-height / 2 if dy == 0 else gap if dy > 0 else -gap - height)
    return left, left + width, bottom, bottom + height


def _scaled(size_px: tuple[float, float], unit: float) -> tuple[float, float]:
    return size_px[0] * unit, size_px[1] * unit


@dataclass(frozen=True)
class _Polyline:
    """A drawn line as its segments' ends in plain floats, with the box around it: placing a
    gallery's labels tests thousands of rectangles against ellipses of 73 points, and a line
    whose box misses the rectangle cannot cross it (this made the gallery's first run about
    twice as fast as clipping every segment with NumPy scalars)."""

    segments: tuple[tuple[float, float, float, float], ...]
    box: tuple[float, float, float, float]  # left, right, bottom, top

    @classmethod
    def of(cls, line: np.ndarray) -> _Polyline:
        xy = [(float(x), float(y)) for x, y in np.asarray(line, dtype=float).reshape(-1, 2)]
        segments = tuple((*a, *b) for a, b in itertools.pairwise(xy))
        xs, ys = [x for x, _ in xy] or [0.0], [y for _, y in xy] or [0.0]
        return cls(segments, (min(xs), max(xs), min(ys), max(ys)))


def _crossings(rect, unit: float, polylines: Sequence[_Polyline]) -> int:
    """How many lines run through the label's rectangle or within _CLEAR_PX of it (a line
    just touching a label's letters reads as crossing them). A line counts once however many
    of its segments cross: an ellipse of 73 points is one line."""
    pad = _CLEAR_PX * unit
    left, right, bottom, top = rect[0] - pad, rect[1] + pad, rect[2] - pad, rect[3] + pad
    grown = (left, right, bottom, top)
    count = 0
    for line in polylines:
        x0, x1, y0, y1 = line.box
        if x1 < left or x0 > right or y1 < bottom or y0 > top:
            continue  # the line's box misses the rectangle
        count += any(_crosses_xy(*segment, grown) for segment in line.segments)
    return count


def _cost(rect, box, dots, placed) -> float:
    """What a label's rectangle costs: past the view `box` (None: not counted), over a dot
    (a point or a mark) or over a label already placed."""
    left, right, bottom, top = rect
    outside = box is not None and (
        left < box[0] or right > box[1] or bottom < box[2] or top > box[3]
    )
    covered = sum(left <= d[0] <= right and bottom <= d[1] <= top for d in dots)
    overlaps = sum(left < o[1] and o[0] < right and bottom < o[3] and o[2] < top for o in placed)
    # past the view costs least: the figure then widens its view to hold the label
    return 2.0 * outside + 4.0 * covered + 4.0 * overlaps


def _crosses(a: np.ndarray, b: np.ndarray, rect) -> bool:
    """Whether the segment a–b passes through the rectangle (Liang–Barsky clipping)."""
    return _crosses_xy(float(a[0]), float(a[1]), float(b[0]), float(b[1]), rect)


def _crosses_xy(ax: float, ay: float, bx: float, by: float, rect) -> bool:
    """`_crosses` on the ends' coordinates as floats."""
    left, right, bottom, top = rect
    low, high = 0.0, 1.0
    dx, dy = bx - ax, by - ay
    for p, q in (
        (-dx, ax - left),
        (dx, right - ax),
        (-dy, ay - bottom),
        (dy, top - ay),
    ):
        if p == 0:
            if q < 0:
                return False
        elif p < 0:
            low = max(low, q / p)
        else:
            high = min(high, q / p)
        if low > high:
            return False
    return True
