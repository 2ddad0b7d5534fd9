"""The gallery's claim walk: each sentence the cases show about the plane, built by the page's own
functions from the page's `compute`, checked against the engine's numbers and against the
geometry written out here (the cone's shape, inside or outside the cone and the hull, negative
weights, the one-hot pick), in both languages."""

from __future__ import annotations

import itertools

import numpy as np

from attention_core import AttentionInputError, cone
from attention_ui.gallery.cases import special_cases
from attention_ui.gallery.compute import Inputs, compute
from attention_ui.gallery.view import case_notes
from attention_ui.kit.text.i18n import LANGUAGES, t

VALUE_SETS = {
    "first quadrant": [[1.0, 0.5], [0.5, 2.0], [2.0, 1.5]],
    "around the origin": [[2.0, 0.5], [-1.0, 1.5], [-0.5, -2.0], [1.5, -1.0]],
    "half plane": [[2.0, 0.0], [-2.0, 0.0], [0.5, 1.5]],
    "on a line": [[0.5, 0.5], [1.0, 1.0], [2.0, 2.0]],
    "opposite": [[1.0, 1.0], [-2.0, -2.0]],
    "symmetric": [[1.0, 1.0], [1.0, -1.0], [3.0, 0.0]],  # q = (0, 0) or (1, 0): score ties
    "origin": [[0.0, 0.0], [0.0, 0.0]],
}
QUERIES_2D = [(1.0, 0.0), (0.0, 1.0), (-1.0, -0.5), (0.0, 0.0), (3.0, 0.2)]
CONE_WEIGHTS = [
    (1.5, 0.5, 1.0, 0.8),
    (0.2, 0.1, 0.1, 0.1),
    (0.5, 0.5, 0.0, 0.0),
    (1.0, -1.0, 0.5, 0.0),
    (0.0, 0.0, 0.0, 0.0),
]
EPS = 1e-9


def cross(a, b) -> float:
    return float(a[0] * b[1] - a[1] * b[0])


def in_cone_reference(p, values) -> bool:
    """p is Σ cᵢ vᵢ with cᵢ ≥ 0 iff it is on one value's ray or between two values (2-D)."""
    p = np.asarray(p, dtype=float)
    scale = max(1.0, float(np.abs(values).max()), float(np.abs(p).max()))
    if np.linalg.norm(p) <= EPS * scale:
        return True
    for v in values:
        if np.linalg.norm(v) > 0 and abs(cross(v, p)) <= EPS * scale**2 and v @ p > 0:
            return True
    for a, b in itertools.combinations(values, 2):
        det = cross(a, b)
        if abs(det) > EPS * scale**2:
            c = np.linalg.solve(np.column_stack([a, b]), p)
            if (c >= -EPS * scale).all():
                return True
    return False


def in_hull_reference(p, values) -> bool:
    """p is a convex combination iff it is a value, on a segment or in a triangle of them."""
    p = np.asarray(p, dtype=float)
    scale = max(1.0, float(np.abs(values).max()), float(np.abs(p).max()))
    tol = EPS * scale
    if any(np.linalg.norm(v - p) <= tol for v in values):
        return True
    for a, b in itertools.combinations(values, 2):
        d = b - a
        if d @ d > 0 and abs(cross(d, p - a)) <= tol * scale:
            s = (p - a) @ d / (d @ d)
            if -tol <= s <= 1 + tol:
                return True
    for a, b, c in itertools.combinations(values, 3):
        det = cross(b - a, c - a)
        if abs(det) > tol * scale:
            u = cross(p - a, c - a) / det
            w = cross(b - a, p - a) / det
            if u >= -tol and w >= -tol and u + w <= 1 + tol:
                return True
    return False


def cone_kind_reference(values) -> str:
    nonzero = [v for v in values if np.linalg.norm(v) > 0]
    if not nonzero:
        return "point"
    first = nonzero[0]
    parallel = all(abs(cross(first, v)) <= EPS for v in nonzero)
    if parallel and all(first @ v > 0 for v in nonzero):
        return "ray"
    if parallel:
        return "line"
    if all(in_cone_reference(d, values) for d in ([1, 0], [-1, 0], [0, 1], [0, -1])):
        return "plane"
    if any(in_cone_reference(-v, values) for v in nonzero):
        return "half_plane"
    return "wedge"


def test_every_gallery_case_sentence_holds_for_the_engines_numbers():
    seen: set[str] = set()
    for (name, points), q, tau, normalization in itertools.product(
        VALUE_SETS.items(), QUERIES_2D, (0.2, 1.0, 5.0), ("softmax", "sum")
    ):
        values = np.array(points)
        m = len(values)
        # The cone's shape, as the page's caption names it.
        assert cone(values).kind == cone_kind_reference(values), name
        try:
            result = compute(Inputs(values, q, tau, normalization))
        except AttentionInputError:
            continue  # divide-by-sum of negative or zero scores: the page shows the message
        scores = result.scores[:, 0]
        best = int(np.argmax(scores))
        for weights in CONE_WEIGHTS:
            cone_weights = np.array((weights * 2)[:m])
            cases = special_cases(values, result.weights[:, 0], cone_weights, best)
            for case, lang in itertools.product(cases, LANGUAGES):
                notes = case_notes(case, values, best, scores, lang)
                texts = [text for _, text in notes]
                out, w = case.output, case.weights
                state = (name, q, tau, normalization, case.name, tuple(w), lang)
                np.testing.assert_allclose(out, w @ values, rtol=1e-12, atol=1e-12)
                ok = {
                    "nonneg": in_cone_reference(out, values),
                    "convex": bool(
                        (w >= 0).all()
                        and abs(w.sum() - 1) <= 1e-9
                        and in_hull_reference(out, values)
                    ),
                    "one_hot": bool(np.sort(w)[-1] == 1 and (np.sort(w)[:-1] == 0).all())
                    and np.allclose(out, values[best]),
                    "uniform": bool(np.allclose(w, 1 / m)) and np.allclose(out, values.mean(0)),
                }[case.name]
                yes, no = {
                    "nonneg": ("in_cone", "out_cone"),
                    "convex": ("in_hull", "out_hull"),
                    "one_hot": ("is_value", "out_hull"),
                    "uniform": ("is_mean", "out_hull"),
                }[case.name]
                verdict = t(f"gallery.cases.{yes if ok else no}", lang)
                assert verdict in texts, state
                negative = t("gallery.cases.nonneg.negative", lang)
                assert (negative in texts) == (case.name == "nonneg" and (w < 0).any()), state
                left_hull = t("gallery.cases.nonneg.outside_hull", lang)
                left = (
                    case.name == "nonneg"
                    and (w >= 0).all()
                    and in_cone_reference(out, values)
                    and not in_hull_reference(out, values)
                )
                assert (left_hull in texts) == left, state
                if left:  # "the weights sum to more (or less) than 1"
                    assert abs(w.sum() - 1) > 1e-12
                if case.name == "one_hot":  # "the weight 1 goes to v_i, the largest score"
                    tied = int((scores == scores.max()).sum())
                    key = "which_tied" if tied > 1 else "which"
                    which = t(f"gallery.cases.one_hot.{key}", lang, index=best + 1)
                    assert which in texts and scores[best] == scores.max(), state
                    seen.add(key)
                seen.add(yes if ok else no)
                if negative in texts:
                    seen.add("negative")
                if left:
                    seen.add("outside_hull")
    assert {"in_cone", "out_cone", "outside_hull", "which", "which_tied", "negative"} <= seen
