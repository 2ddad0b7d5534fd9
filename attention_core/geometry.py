"""Where attention pooling can land: the cone and the convex hull of 2-D values.

d2l ("Queries, Keys, and Values") lists four special cases of the weights α_i in
Attention(q, D) = Σ_i α_i v_i:

1. every α_i ≥ 0: the output lies in the convex *cone* the values span, {Σ c_i v_i : c_i ≥ 0};
2. α_i ≥ 0 and Σ α_i = 1 (a convex combination): the output lies in the convex *hull*;
3. one α_i = 1, the rest 0: the output *is* one of the values (a classic database query);
4. every α_i = 1/m: the output is the mean of the values (average pooling).

For points in the plane both sets can be drawn, so these are plain functions over (m, 2)
arrays: the cone's shape and edges, the hull's vertices, membership tests with a tolerance
relative to the size of the points, and which of the four cases a weight vector falls under.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

# Relative tolerance: a point this close (times the scale of the values) to a boundary is in.
TOLERANCE = 1e-9
# Cone shapes, from smallest to largest.
CONE_KINDS = ("point", "ray", "line", "wedge", "half_plane", "plane")


@dataclass(frozen=True)
class Cone:
    """The convex cone {Σ c_i v_i : c_i ≥ 0} of some 2-D vectors.

    kind : one of CONE_KINDS. 'wedge' has an opening angle below π; 'half_plane' exactly π;
        'plane' is everything (the vectors surround the origin).
    start, end : unit vectors of the bounding rays; going counterclockwise from `start` to
        `end` sweeps the cone ('wedge', 'half_plane'); for 'ray' both are its direction; for
        'line' they are its two directions; None for 'point' and 'plane'.
    """

    kind: str
    start: np.ndarray | None = None
    end: np.ndarray | None = None

    @property
    def angle(self) -> float:
        """The opening angle in radians (0 for a point or ray, π for a line or half-plane)."""
        if self.kind in ("point", "ray"):
            return 0.0
        if self.kind in ("line", "half_plane"):
            return math.pi
        if self.kind == "plane":
            return 2 * math.pi
        return _ccw_angle(self.start, self.end)


def as_points(points: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
    """An (m, 2) float array of finite points (m ≥ 1), or ValueError saying what is wrong."""
    array = np.asarray(points, dtype=float)
    if array.ndim != 2 or array.shape[1] != 2 or array.shape[0] == 0:
        raise ValueError(f"expected m ≥ 1 points in the plane, shape (m, 2); got {array.shape}")
    if not np.isfinite(array).all():
        raise ValueError("the points must be finite numbers")
    return array


def combine(points: np.ndarray, weights: Sequence[float] | np.ndarray) -> np.ndarray:
    """Σ_i w_i v_i: attention pooling of the points with the given weights."""
    points = as_points(points)
    weights = np.asarray(weights, dtype=float).reshape(-1)
    if weights.shape[0] != points.shape[0]:
        raise ValueError(f"{weights.shape[0]} weights for {points.shape[0]} points")
    return weights @ points  # (m,) @ (m, 2) → (2,)


def cone(points: np.ndarray) -> Cone:
    """The cone spanned by the points (as vectors from the origin).

    Sort the nonzero directions by angle and find the largest angular gap between neighbours:
    a gap above π leaves a wedge (the rest of the circle), a gap of exactly π a half-plane
    (or a line, if the directions are just two opposite ones), a smaller gap the whole plane.
    """
    points = as_points(points)
    # Every nonzero vector counts, however short: a tiny vector still spans its whole ray.
    lengths = np.linalg.norm(points, axis=1)
    directions = points[lengths > 0] / lengths[lengths > 0, None]
    if directions.shape[0] == 0:
        return Cone("point")
    angles = np.sort(np.mod(np.arctan2(directions[:, 1], directions[:, 0]), 2 * math.pi))
    angles = _merge_close(angles)
    if angles.shape[0] == 1:
        direction = _unit(angles[0])
        return Cone("ray", direction, direction)
    gaps = np.diff(np.append(angles, angles[0] + 2 * math.pi))
    widest = int(np.argmax(gaps))
    gap = float(gaps[widest])
    # The cone runs counterclockwise from the direction after the widest gap to the one before.
    start, end = _unit(angles[(widest + 1) % angles.shape[0]]), _unit(angles[widest])
    angle_tolerance = 1e-9
    if gap > math.pi + angle_tolerance:
        return Cone("wedge", start, end)
    if gap >= math.pi - angle_tolerance:
        if angles.shape[0] == 2:  # only two opposite directions
            return Cone("line", start, end)
        return Cone("half_plane", start, end)
    return Cone("plane")


def in_cone(point: Sequence[float] | np.ndarray, points: np.ndarray) -> bool:
    """Whether `point` is a non-negative combination of the points (within the tolerance)."""
    points = as_points(points)
    p = np.asarray(point, dtype=float).reshape(2)
    shape = cone(points)
    tolerance = TOLERANCE * max(_scale(points), float(np.linalg.norm(p)), 1.0)
    if shape.kind == "plane":
        return True
    if float(np.linalg.norm(p)) <= tolerance:
        return True  # the origin (all weights 0) is in every cone
    if shape.kind == "point":
        return False
    if shape.kind == "ray":
        return abs(_cross(shape.start, p)) <= tolerance and float(shape.start @ p) > 0
    if shape.kind == "line":
        return abs(_cross(shape.start, p)) <= tolerance
    if shape.kind == "half_plane":
        return _cross(shape.start, p) >= -tolerance
    return _cross(shape.start, p) >= -tolerance and _cross(p, shape.end) >= -tolerance


def convex_hull(points: np.ndarray) -> np.ndarray:
    """The hull's vertices in counterclockwise order (Andrew's monotone chain).

    Degenerate inputs give fewer vertices: one point (all equal) or a segment's two ends
    (all on a line). Points on an edge are not vertices.
    """
    points = as_points(points)
    tolerance = TOLERANCE * _scale(points)
    # Round away differences below the tolerance first: otherwise x-coordinates that differ
    # by 1e−300 decide the sort order of points on a vertical line, and the chain breaks.
    decimals = int(-math.floor(math.log10(tolerance)))
    unique = np.unique(np.round(points, decimals) + 0.0, axis=0)  # by x, then y; + 0.0: no −0
    if unique.shape[0] <= 2:
        return unique

    def half(sequence: np.ndarray) -> list[np.ndarray]:
        chain: list[np.ndarray] = []
        for p in sequence:
            while len(chain) >= 2:
                # Drop the middle point unless it turns left by more than the tolerance: its
                # distance to the line from chain[-2] to p is cross / |p − chain[-2]|.
                turn = _cross(chain[-1] - chain[-2], p - chain[-2])
                if turn > tolerance * float(np.linalg.norm(p - chain[-2])):
                    break
                chain.pop()
            chain.append(p)
        return chain

    lower, upper = half(unique), half(unique[::-1])
    return np.array(lower[:-1] + upper[:-1])


def in_hull(point: Sequence[float] | np.ndarray, points: np.ndarray) -> bool:
    """Whether `point` is a convex combination of the points (within the tolerance)."""
    points = as_points(points)
    p = np.asarray(point, dtype=float).reshape(2)
    hull = convex_hull(points)
    # A few tolerances: the hull's vertices were rounded to the tolerance.
    tolerance = 4 * TOLERANCE * max(_scale(points), float(np.linalg.norm(p)), 1.0)
    if hull.shape[0] == 1:
        return float(np.linalg.norm(p - hull[0])) <= tolerance
    if hull.shape[0] == 2:
        a, b = hull
        length = float(np.linalg.norm(b - a))
        if length <= tolerance:
            return float(np.linalg.norm(p - a)) <= tolerance
        along = float((p - a) @ (b - a)) / length
        return (
            abs(_cross(b - a, p - a)) / length <= tolerance
            and -tolerance <= along <= length + tolerance
        )
    for a, b in zip(hull, np.roll(hull, -1, axis=0), strict=True):
        # Counterclockwise: the inside is to the left of every edge (distance ≥ −tolerance).
        if _cross(b - a, p - a) / float(np.linalg.norm(b - a)) < -tolerance:
            return False
    return True


def cone_polygon(shape: Cone, radius: float, steps: int = 48) -> np.ndarray:
    """The part of the cone within `radius` of the origin, as a closed polygon to draw.

    A point gives the origin alone; a ray or line gives its segment(s) through the origin.
    """
    if shape.kind == "point":
        return np.zeros((1, 2))
    if shape.kind == "ray":
        return np.array([[0.0, 0.0], radius * shape.start])
    if shape.kind == "line":
        return np.array([radius * shape.end, radius * shape.start])
    if shape.kind == "plane":
        angles = np.linspace(0.0, 2 * math.pi, steps + 1)
        return radius * np.stack([np.cos(angles), np.sin(angles)], axis=1)
    first = math.atan2(shape.start[1], shape.start[0])
    angles = first + np.linspace(0.0, shape.angle, steps + 1)
    arc = radius * np.stack([np.cos(angles), np.sin(angles)], axis=1)
    return np.vstack([[0.0, 0.0], arc, [0.0, 0.0]])


@dataclass(frozen=True)
class WeightCases:
    """Which of d2l's four special cases a weight vector belongs to (they can overlap)."""

    non_negative: bool
    convex: bool
    one_hot: int | None  # the index of the weight that is 1, or None
    uniform: bool


def weight_cases(weights: Sequence[float] | np.ndarray, tolerance: float = 1e-9) -> WeightCases:
    """Classify weights: all ≥ 0; a convex combination; one weight 1 (which); all equal 1/m."""
    w = np.asarray(weights, dtype=float).reshape(-1)
    non_negative = bool((w >= -tolerance).all())
    convex = non_negative and abs(float(w.sum()) - 1.0) <= tolerance * max(1, w.shape[0])
    one_hot = None
    ones = np.flatnonzero(np.abs(w - 1.0) <= tolerance)
    others_zero = np.abs(np.delete(w, ones[:1])) <= tolerance
    if ones.shape[0] == 1 and others_zero.all():
        one_hot = int(ones[0])
    uniform = bool(np.abs(w - 1.0 / w.shape[0]).max() <= tolerance)
    return WeightCases(non_negative, convex, one_hot, uniform)


# ---------------------------------------------------------------------------------------------


def _cross(a: np.ndarray, b: np.ndarray) -> float:
    """The z component of a × b: positive when b is counterclockwise from a."""
    return float(a[0] * b[1] - a[1] * b[0])


def _unit(angle: float) -> np.ndarray:
    return np.array([math.cos(angle), math.sin(angle)])


def _ccw_angle(a: np.ndarray, b: np.ndarray) -> float:
    """The counterclockwise angle from direction a to direction b, in [0, 2π)."""
    return math.atan2(_cross(a, b), float(a @ b)) % (2 * math.pi)


def _scale(points: np.ndarray) -> float:
    return max(float(np.abs(points).max()), 1.0)


def _merge_close(angles: np.ndarray, tolerance: float = 1e-12) -> np.ndarray:
    """Sorted angles with near-duplicates (same direction) merged, 0 and 2π included."""
    kept = [float(angles[0])]
    for angle in angles[1:]:
        if angle - kept[-1] > tolerance:
            kept.append(float(angle))
    if len(kept) > 1 and kept[0] + 2 * math.pi - kept[-1] <= tolerance:
        kept.pop()
    return np.array(kept)
