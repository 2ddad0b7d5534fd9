"""Issue 9's claim walk on the other pages: each sentence a page shows about its numbers,
built by the page's own pure function, checked against the engine's numbers (and, for the
geometry and the kernels, against references written here), in both languages. A sentence
must hold where it is shown and be absent where it does not hold.

database: best match, ties, no valid answer, pooling · gallery: the cone's shape, inside or
outside the cone and the hull, negative weights, the one-hot pick · regression: the σ claim
(nearest neighbour, mean, none), the gaps, repeated x, the underflow of exp() · transformer:
the repeated word, the heads' rows, the causal mask · exercises: the size of ∂o/∂q (exactly 0,
numerically gone, alive), the search (the loss fell, rose or stayed; the target first, tied,
never first, or not yet).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from attention_core import (
    BOUNDED_KERNELS,
    KERNELS,
    AttentionInputError,
    attention,
    cone,
    fmt,
    lookup_many,
    multi_head,
    nadaraya_watson,
    query_gradient,
)
from attention_ui.kit.grids.records_editor import D2L_RECORDS
from attention_ui.kit.text.i18n import LANGUAGES, step_sentence, t

# --- database ----------------------------------------------------------------------------------

D2L = D2L_RECORDS  # the page's own table, with its score column
TABLES = {
    "d2l": D2L,
    "no Li": [r for r in D2L if r[0] != "Li"],
    "Li twice": [*D2L, ("Li", "Mu", 35.0)],
    "a missing number": [("Zhang", "Aston", 10.0), ("Li", "Mu", None), ("Hu", "Rachel", 50.0)],
    "twins": [("Ab", "x", 1.0), ("Ba", "y", 2.0), ("Cd", "z", 3.0)],
    "japanese": [("田中", "太郎", 1.0), ("中田", "花子", 2.0), ("山田", "一郎", 3.0)],
}
QUERIES = ["Li", "Smola", "Lipton", "Hu", "Zh", "xyz", "Lii", "ab", "田中", "中"]


def lookups():
    for (name, records), similarity, tau, normalization in itertools.product(
        TABLES.items(), ("exact", "ngram", "edit"), (0.1, 1.0, 10.0), ("softmax", "sum")
    ):
        if similarity == "exact" and (tau != 1.0 or normalization != "softmax"):
            continue  # exact ignores both
        for query in QUERIES:
            try:
                table = lookup_many(records, [query], similarity, tau, normalization)
            except AttentionInputError as error:  # divide by a sum of 0: the page says so
                assert error.code == "zero_sum" and normalization == "sum"
                continue
            yield name, records, table.results[0]


def test_every_database_answer_sentence_holds_for_the_engines_numbers():
    from attention_ui.database.view import answer_notes, pooled_formula, pooled_note

    seen: set[str] = set()
    for name, records, result in lookups():
        rows = list(range(1, len(records) + 1))
        scores, weights = result.scores, result.weights
        top_scores = np.flatnonzero(scores == scores.max())  # ties in a(q, k): ties in α
        for lang in LANGUAGES:
            notes = dict(answer_notes(result, rows, lang))
            seen |= set(notes)
            state = (name, result.query, result.similarity, lang)
            # "No valid answer": every similarity 0; exact: every weight 0, else all equal.
            assert ("none" in notes) == (scores.max() == 0), state
            if "none" in notes:
                assert set(notes) == {"none"}
                if result.similarity == "exact":
                    assert (weights == 0).all()
                    assert all(key != result.query for key, *_ in records)
                else:
                    np.testing.assert_allclose(weights, weights[0], rtol=1e-12)
                continue
            # "Best match: key → value (row r) with weight w": the record of largest weight.
            best = int(top_scores[0])
            assert weights[best] == weights.max(), state
            assert f"{records[best][0]}" in notes["best"] and f"{records[best][1]}" in notes["best"]
            assert str(rows[best]) in notes["best"] and fmt(weights[best]) in notes["best"]
            # "N records share the largest weight": shown exactly when N ≥ 2 scores tie.
            assert ("tie" in notes) == (top_scores.size > 1), state
            if "tie" in notes:
                assert str(top_scores.size) in notes["tie"]
                np.testing.assert_allclose(weights[top_scores], weights.max(), rtol=1e-12)
            # The pooled number: Σ αᵢ xᵢ when every record has one, else why there is none.
            numbers = [r[2] for r in records]
            note = pooled_note(result, rows, lang)
            assert (note is None) == (None not in numbers), state
            if note is None:
                total = float(np.dot(weights, numbers))
                assert result.pooled_number == pytest.approx(total, rel=1e-12, abs=1e-12)
                assert fmt(total) in pooled_formula(weights, numbers, result.pooled_number)
            else:
                assert str(rows[numbers.index(None)]) in note
    assert seen == {"none", "best", "tie"}  # the walk reached every sentence


# --- gallery -----------------------------------------------------------------------------------

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
    from attention_ui.gallery.cases import special_cases
    from attention_ui.gallery.view import case_notes

    seen: set[str] = set()
    for (name, points), q, tau, normalization in itertools.product(
        VALUE_SETS.items(), QUERIES_2D, (0.2, 1.0, 5.0), ("softmax", "sum")
    ):
        values = np.array(points)
        m = len(values)
        # The cone's shape, as the page's caption names it.
        assert cone(values).kind == cone_kind_reference(values), name
        try:
            result = attention(
                np.array(q)[:, None], values.T, values.T, "dot", temperature=tau,
                normalization=normalization,
            )  # fmt: skip
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


# --- regression --------------------------------------------------------------------------------


def kernel_reference(kernel: str, u: np.ndarray) -> np.ndarray:
    """d2l's kernels, written out here (not the engine's). The Gaussian is positive everywhere
    in exact arithmetic (the engine computes it as a softmax, so it never becomes 0/0): it is
    given as 1 here, which is all the walk asks of it (whether a point is reached)."""
    return {
        "gaussian": lambda: np.ones_like(u),
        "boxcar": lambda: (np.abs(u) < 1).astype(float),
        "constant": lambda: np.ones_like(u),
        "triangular": lambda: np.maximum(0.0, 1 - np.abs(u)),
        "epanechnikov": lambda: 0.75 * np.maximum(0.0, 1 - u**2),
    }[kernel]()


def regression_sets():
    from attention_ui.regression import data

    for preset in data.PRESETS:
        yield preset, *data.preset_points(preset)
    yield "repeated x", np.array([0.0, 1.0, 1.0, 3.0]), np.array([1.0, 2.0, 4.0, 0.0])
    yield "far apart", np.array([0.0, 10.0]), np.array([-1.0, 1.0])


def test_every_regression_sentence_holds_for_the_engines_numbers():
    from attention_ui.regression import data
    from attention_ui.regression.view import chart_caption, chosen_sentence, sigma_sentence

    seen: set[str] = set()
    for (name, x, y), kernel, sigma in itertools.product(
        regression_sets(),
        KERNELS,
        (0.02, 0.3, 1.0, 5.0, 100.0),
    ):
        rows = list(range(1, x.size + 1))
        queries = data.queries_along(x, 7)
        nw = nadaraya_watson(queries, x, y, kernel, sigma)
        reach = kernel_reference(kernel, (queries[:, None] - x[None, :]) / sigma)
        for chosen, lang in itertools.product(range(queries.size), LANGUAGES):
            weights = nw.weights[chosen]
            distances = np.abs(x - queries[chosen])
            kind, text = sigma_sentence(weights, y, rows, sigma, chosen, lang, distances=distances)
            # The sentence under the chart: ŷ, and every row that holds the largest weight.
            prediction = nw.prediction[chosen]
            under = chosen_sentence(weights, prediction, rows, queries[chosen], chosen, lang)
            top_rows = [rows[i] for i in np.flatnonzero(weights == weights.max())]
            if reach[chosen].max() == 0:
                assert under == t("regression.chart.chosen_none", lang, name=rf"x\*{chosen + 1}",
                                  x=fmt(queries[chosen]))  # fmt: skip
            else:
                tied = "chosen_tied" if len(top_rows) > 1 else "chosen"
                assert under.split("{")[0] == under and fmt(nw.prediction[chosen]) in under
                assert under.endswith(
                    t(f"regression.chart.{tied}", lang, name="", x="", prediction="",
                      row=top_rows[0], rows=", ".join(map(str, top_rows)),
                      weight=fmt(weights.max(), 3)).split("**")[-1]
                ), (under, top_rows)  # fmt: skip
                seen.add(tied)
            seen.add(kind)
            state = (name, kernel, sigma, chosen, lang)
            # "they sum to 1" under the chart only when some point reaches the chosen query
            summed = t("regression.chart.caption_sum", lang) in chart_caption(weights, lang)
            assert summed == (abs(weights.sum() - 1) < 1e-12), state
            assert summed != (
                t("regression.chart.caption_none", lang) in chart_caption(weights, lang)
            )
            assert "{" not in text
            top = int(np.argmax(weights))
            # "no training point reaches x*": every kernel value is 0 (reference kernels)
            assert (kind == "none") == (reach[chosen].max() == 0), state
            if kind == "none":
                assert np.isnan(nw.prediction[chosen])
                continue
            if kind == "nearest":  # one point ≥ 99 %: the nearest one; ŷ ≈ its y
                distance = np.abs(x - queries[chosen])
                assert weights[top] >= 0.99 and distance[top] == distance.min(), state
                assert nw.prediction[chosen] == pytest.approx(y[top], abs=0.01 * np.ptp(y) + 1e-9)
                assert f"{rows[top]}" in text
            if kind == "mean":  # every weight within 1 % of 1/m; ŷ ≈ the mean of y
                assert np.abs(weights - 1 / x.size).max() <= 0.01 / x.size, state
                assert nw.prediction[chosen] == pytest.approx(y.mean(), abs=0.01 * np.ptp(y) + 1e-9)
            if kind == "nearest_shared":  # equal top weights ≥ 99 % together; ŷ ≈ their mean y
                group = np.flatnonzero(weights == weights.max())
                distance = np.abs(x - queries[chosen])
                assert group.size > 1 and weights[group].sum() >= 0.99, state
                assert (distance[group] == distance.min()).all(), state
                mean_y = y[group].mean()
                assert nw.prediction[chosen] == pytest.approx(mean_y, abs=0.01 * np.ptp(y) + 1e-9)
                assert ", ".join(str(rows[i]) for i in group) in text
            if kind in ("between", "between_shared"):
                group = np.flatnonzero(weights == weights.max())
                assert (group.size > 1) == (kind == "between_shared"), state
                at_nearest = (distances[group] == distances.min()).all()
                assert weights[group].sum() < 0.99 or not at_nearest, state
                assert np.abs(weights - 1 / x.size).max() > 0.01 / x.size
        # The gaps under the curve: exactly the queries no point reaches.
        curve_x = data.queries_along(x, 41)
        curve = nadaraya_watson(curve_x, x, y, kernel, sigma)
        reached = kernel_reference(kernel, (curve_x[:, None] - x[None, :]) / sigma).max(1) > 0
        np.testing.assert_array_equal(curve.reached, reached)
        stretches = data.gaps(curve_x, curve.reached)
        inside = np.zeros(curve_x.size, dtype=bool)
        for low, high in stretches:
            inside |= (curve_x >= low) & (curve_x <= high)
        np.testing.assert_array_equal(inside, ~reached)
        # Repeated x: "they always get equal weights, one point whose y is their mean".
        for where in data.duplicate_positions(x, rows).values():
            for row in nw.weights:
                assert len({row[r - 1] for r in where}) == 1
        # The steps: "exp() gives each point a positive kernel value", unless it underflowed.
        for step in nw.steps:
            sentence = step_sentence(step, "en", run_steps=nw.steps)
            if step.key == "nw_exponentials":
                underflow = bool((step.value == 0).any())
                assert ("exactly 0" in sentence) == underflow, (name, kernel, sigma)
                seen.add("underflow" if underflow else "positive")
            if step.key == "nw_kernel":
                # "far points count less or not at all" is false for the constant kernel
                far = "do not count" in sentence or "counts the same" in sentence
                assert far == (kernel in BOUNDED_KERNELS), (kernel, sentence)
                if kernel == "constant":
                    assert "1/m" in sentence and np.allclose(nw.weights, 1 / x.size)
                seen.add(f"kernel {kernel}")
    assert {
        "nearest", "nearest_shared", "mean", "between", "none", "underflow", "positive",
        "chosen_tied", "kernel constant", "kernel boxcar", "kernel epanechnikov",
    } <= seen  # fmt: skip


def test_repeated_x_is_explained_by_what_always_holds():
    for lang in LANGUAGES:
        text = t("regression.check.duplicates", lang, places="x")
        assert ("mean of their y" in text) if lang == "en" else ("平均" in text)
        assert "prediction there" not in text  # a claim about one σ only: not said


# --- transformer -------------------------------------------------------------------------------


def test_every_transformer_sentence_holds_for_the_engines_numbers():
    from attention_ui.transformer.model import embeddings, projections
    from attention_ui.transformer.view import identity_sentence, repeated_word_note, weights_note

    seen: set[str] = set()
    tokens = ["the", "cat", "sat", "on", "the", "mat"]
    for d_model, heads, positions, causal, edit in itertools.product(
        (4, 8), (1, 2, 4), (False, True), (False, True), (False, True)
    ):
        if d_model % heads:
            continue
        X = embeddings(tokens, d_model, 0)
        if edit:  # the learner edits the second "the"
            X[4, 0] += 1.0
        W = projections(d_model, 0)
        mh = multi_head(X, W["W_Q"], W["W_K"], W["W_V"], W["W_O"], heads,
                        causal=causal, positions=positions)  # fmt: skip
        # The grid's caption: every row sums to 1, scores divided by √d_h with d_h = d_model/h.
        np.testing.assert_allclose(mh.weights.sum(axis=2), 1.0, rtol=0, atol=1e-12)
        assert mh.d_head == d_model // heads
        if causal:  # "the cells above the diagonal are exactly 0"
            assert (mh.weights[:, np.triu_indices(len(tokens), 1)[0],
                               np.triu_indices(len(tokens), 1)[1]] == 0).all()  # fmt: skip
        same_x = np.array_equal(X[0], X[4])
        same_input = np.array_equal(mh.inputs[0], mh.inputs[4])
        same_weights = np.array_equal(mh.weights[:, 0], mh.weights[:, 4])
        for lang in LANGUAGES:
            note = repeated_word_note(mh, tokens, X, lang)
            words = {
                key: t(f"transformer.repeat.{key}", lang, token="the", first=1, second=5)
                for key in ("same", "masked", "positions", "positions_masked")
            }
            said = next((key for key, text in words.items() if text == note), None)
            assert (note is None) == (said is None)
            state = (d_model, heads, positions, causal, edit, lang)
            if said == "same":  # same row of X, no positions, no mask: the same weights
                assert same_x and not positions and not causal and same_weights, state
            if said == "masked":  # same row, different weights, the mask makes the difference
                assert same_input and causal and not same_weights, state
            if said == "positions":  # same word, positions make the rows and weights differ
                assert same_x and positions and not same_input and not same_weights, state
                assert not causal, state  # under the mask the positions are not the cause
            if said == "positions_masked":  # the mask alone would make the weights differ
                assert same_x and positions and causal and not same_input, state
                unmasked_positions_only = multi_head(
                    X, np.eye(d_model), np.eye(d_model), np.eye(d_model), np.eye(d_model), 1,
                    causal=True, positions=False)  # fmt: skip
                assert not np.array_equal(
                    unmasked_positions_only.weights[:, 0], unmasked_positions_only.weights[:, 4]
                ), state
            # The identity check quotes the call it makes: X + P with positions, mask= with it.
            identity = identity_sentence(mh, lang)
            assert ("X + P" in identity) == positions and ("causal_mask(6)" in identity) == causal
            # The W's are called the seed's random numbers only when they are.
            note_w = weights_note(W, 0, lang)
            assert note_w == t("transformer.heads_grid.random", lang, seed=0)
            edited = {**W, "W_Q": W["W_Q"] + 1}
            assert weights_note(edited, 0, lang) == t("transformer.heads_grid.edited", lang)
            if said is None:  # nothing general would be true
                assert edit or not same_x, state
            seen.add(said)
    assert {"same", "masked", "positions", "positions_masked", None} <= seen


# --- exercises ---------------------------------------------------------------------------------

KEY_SETS = {
    "huge": [[5.0, 0.0], [1.0, 1.0], [0.0, 1.0]],
    "gallery": [[1.0, 0.5], [0.5, 2.0], [2.0, 1.5]],
    "one point": [[1.0, 1.0], [1.0, 1.0]],
    "five identical": [[0.1, 0.7]] * 5,  # their mean is off by rounding: a 1e-34 residue
    "almost one point": [[1.0, 1.0], [1.0, 1.0 + 1e-7], [1.0 - 1e-7, 1.0]],
    "two equal, one apart": [[3.0, 0.0], [3.0, 0.0], [-3.0, 0.0]],
}


def test_every_gradient_sentence_holds_for_the_engines_numbers():
    from attention_ui.exercises.gradient import NUMERICALLY_GONE, gradient_notes

    seen: set[str] = set()
    sentences = (
        "exactly_zero",
        "identical_rounding",
        "exactly_zero_underflow",
        "gone",
        "gone_close_keys",
        "alive",
    )
    for (name, points), q, tau in itertools.product(
        KEY_SETS.items(), itertools.product((-12.0, 0.0, 1.0, 12.0), repeat=2), (0.05, 1.0, 5.0)
    ):
        keys = np.array(points)
        labels = [f"k{i + 1}" for i in range(len(keys))]
        result = query_gradient(np.array(q), keys.T, keys.T, "dot", temperature=tau)
        p = result.weights
        largest = np.abs(result.jacobian).max()  # the norm of the Jacobian, without underflow
        norm = 0.0 if largest == 0 else largest * np.sqrt(((result.jacobian / largest) ** 2).sum())
        for lang in LANGUAGES:
            texts = [text for _, text in gradient_notes(result.jacobian, p, keys, labels, lang)]
            assert fmt(norm, 3) in texts[0] and fmt(p.max(), 6) in texts[0]
            best = labels[int(np.argmax(p))]
            params = {"norm": fmt(norm, 3), "limit": fmt(NUMERICALLY_GONE), "best": best}
            shown = {
                key for key in sentences if t(f"exercises.grad.{key}", lang, **params) in texts
            }
            assert len(shown) == 1, (name, q, tau, lang, texts)
            (said,) = shown
            state = (name, q, tau, lang, said)
            away = (keys != keys[int(np.argmax(p))]).any(axis=1)  # keys off the best's point
            if said == "exactly_zero":  # exactly 0 because every key is the same point
                assert norm == 0 and (keys == keys[0]).all(), state
            if said == "identical_rounding":  # every key the same point: 0 but for rounding
                assert 0 < norm < 1e-30 and (keys == keys[0]).all(), state
            if said == "exactly_zero_underflow":  # the keys differ; the weighted ones do not
                assert not result.jacobian.any() and away.any(), state
                assert not (keys == keys[0]).all(), state
                assert (p[away] < 1e-290).all(), state  # their covariance terms underflow
            if said == "gone":  # not 0, below the limit, one weight next to 1
                assert 0 < norm < NUMERICALLY_GONE and p.max() > 1 - 1e-6, state
            if said == "gone_close_keys":  # not 0, below the limit, the keys nearly one point
                assert not (keys == keys[0]).all(), state  # identical keys are said first
                spread = np.ptp(keys[p > 1e-3], axis=0).max()
                assert 0 < norm < NUMERICALLY_GONE and spread < 1e-5, state
            if said == "alive":
                assert norm >= NUMERICALLY_GONE, state
            seen.add(said)
    assert seen == set(sentences)


# --- exercise 3: the search engine -------------------------------------------------------------

SEARCH_KEYS = {
    "the page's keys": [[2.0, 0.0], [0.0, 2.0], [-2.0, 0.0], [1.0, 1.0]],  # r4 inside the hull
    "a repeated key": [[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]],
    "a line": [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]],
}


def wins_somewhere(points: np.ndarray, target: int) -> bool:
    """Whether some direction q gives the target the largest score alone (3,600 directions)."""
    angles = np.linspace(0, 2 * np.pi, 3600, endpoint=False)
    scores = points @ np.vstack([np.cos(angles), np.sin(angles)])  # m × directions
    others = np.delete(scores, target, axis=0).max(axis=0)
    return bool((scores[target] > others + 1e-12).any())


def test_every_search_sentence_holds_for_the_engines_numbers():
    from attention_core import gradient_search
    from attention_ui.exercises.search import search_notes

    seen: set[str] = set()
    for (name, points), start, rate, steps in itertools.product(
        SEARCH_KEYS.items(), ((-1.0, -1.0), (0.0, 0.0), (3.0, 3.0)), (0.05, 0.5, 5.0, 50.0), (1, 30)
    ):
        points = np.array(points)
        labels = [f"r{i + 1}" for i in range(len(points))]
        for target, lang in itertools.product(range(len(points)), LANGUAGES):
            path = gradient_search(
                np.array(start), points.T, target, learning_rate=rate, steps=steps
            )
            texts = [text for _, text in search_notes(path, points.T, target, labels, lang)]
            state = (name, start, rate, steps, target, lang)
            first, last = path.losses[0], path.losses[-1]
            # the loss is −log p_target of the engine's own weights
            assert last == pytest.approx(-np.log(path.weights[-1, target]), rel=1e-9, abs=1e-12)
            verb = "summary" if last < first else "summary_rose" if last > first else "summary_same"
            assert texts[0].split("**")[0] == t(
                f"exercises.search.{verb}", lang, steps=path.steps, first=fmt(first, 3),
                last=fmt(last, 3), target="", p0="", p="",
            ).split("**")[0], state  # fmt: skip
            final = path.weights[-1]
            top = np.flatnonzero(final == final.max())
            target_name = f"r{target + 1}"
            others = ", ".join(f"r{i + 1}" for i in top if i != target)
            said = {
                key
                for key in ("found", "found_tied", "cannot_win", "not_yet")
                if texts[1]
                == t(f"exercises.search.{key}", lang, target=target_name, others=others,
                     best=f"r{top[0] + 1}")
            }  # fmt: skip
            assert len(said) == 1, (state, texts[1])
            (said,) = said
            if said == "found":
                assert list(top) == [target], state
            if said == "found_tied":
                assert target in top and len(top) > 1, state
            if said == "cannot_win":  # no direction of q makes it first alone
                assert target not in top and not wins_somewhere(points, target), state
            if said == "not_yet":  # it can still come first, and another is first now
                assert target not in top and wins_somewhere(points, target), state
                assert f"r{top[0] + 1}" in texts[1]
            seen |= {said, verb}
    assert {"found", "cannot_win", "not_yet", "summary", "summary_rose"} <= seen
