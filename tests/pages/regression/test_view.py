"""The regression page's pure helpers: presets, gaps, σ's claims, the table check, the figures."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_core import nadaraya_watson
from attention_ui.kit.grids.points_editor import LIMIT, MAX_POINTS, PointsInput, check_points
from attention_ui.regression import data, figures, state

WORDS = {
    key: key
    for key in ("truth", "prediction", "data", "weights", "x_axis", "y_axis", "weight_axis")
} | {"point_hover": "row {row}: {x}, {y}, {weight}"}


@pytest.mark.parametrize("name", data.PRESETS)
def test_presets_are_sorted_finite_and_on_their_true_function_unless_noisy(name):
    x, y = data.preset_points(name, seed=3, count=15)
    assert np.all(np.diff(x) >= 0) and np.isfinite(y).all()
    truth = data.TRUE_FUNCTIONS[name][0](x)
    off = np.abs(truth - y) > 1e-3
    if name == "noisy":
        assert off.sum() > 10 and x.size == 15
    elif name == "outlier":
        assert off.tolist().count(True) == 1
    else:
        assert not off.any()


def test_the_noisy_preset_depends_only_on_its_seed():
    first, again = data.preset_points("noisy", 5, 20), data.preset_points("noisy", 5, 20)
    other = data.preset_points("noisy", 6, 20)
    np.testing.assert_array_equal(first[0], again[0])
    assert not np.array_equal(first[0], other[0])


def test_gaps_are_the_stretches_without_a_prediction():
    x = np.arange(8.0)
    reached = np.array([False, True, True, False, False, True, True, False])
    assert data.gaps(x, reached) == [(0.0, 0.0), (3.0, 4.0), (7.0, 7.0)]
    assert data.gaps(x, np.ones(8, dtype=bool)) == []


def test_queries_span_the_data_and_a_margin():
    queries = data.queries_along(np.array([0.0, 10.0]), 3)
    assert queries.tolist() == [-1.0, 5.0, 11.0]
    assert data.queries_along(np.array([2.0, 2.0]), 2).tolist() == [1.0, 3.0]


@pytest.mark.parametrize(
    ("weights", "kind"),
    [
        ([0.995, 0.005, 0.0], "nearest"),
        ([1 / 3, 1 / 3 + 1e-4, 1 / 3 - 1e-4], "mean"),
        ([0.5, 0.3, 0.2], "between"),
        ([0.0, 0.0, 0.0], "none"),
    ],
)
def test_sigma_claims_hold_only_when_the_numbers_say_so(weights, kind):
    y = np.array([1.0, 2.0, 6.0])
    claim = data.sigma_claim(np.array(weights), y)
    assert claim.kind == kind
    if kind == "nearest":
        assert claim.value == 1.0 and claim.points == (0,)
    if kind == "mean":
        assert claim.value == 3.0


def test_sigma_claims_follow_the_engine_at_the_extremes():
    x, y = data.preset_points("noisy")
    tiny = nadaraya_watson([2.0], x, y, "gaussian", 1e-3).weights[0]
    huge = nadaraya_watson([2.0], x, y, "gaussian", 1e3).weights[0]
    assert data.sigma_claim(tiny, y).kind == "nearest"
    assert data.sigma_claim(huge, y).kind == "mean"


def test_check_points_names_row_and_column_and_keeps_the_good_rows():
    rows = [
        (0.0, 1.0),
        (None, None),
        (math.nan, 2.0),
        (1.0, "abc"),
        (2.0, 2e6),
        (math.inf, 1.0),
        (3.0, -4.0),
    ]
    checked = check_points(rows)
    assert checked.x.tolist() == [0.0, 3.0] and checked.y.tolist() == [1.0, -4.0]
    assert checked.rows == [1, 7]
    joined = "\n".join(checked.problems)
    assert "row 3, column x" in joined and "row 4, column y" in joined
    assert "row 5, column y: 2000000 is outside" in joined and "row 6, column x: ∞" in joined
    assert "row 2" not in joined  # a blank row is skipped silently


def test_check_points_caps_the_table_and_uses_the_shown_row_numbers():
    rows = [(float(i), 0.0) for i in range(MAX_POINTS + 3)]
    checked = check_points(rows)
    assert checked.x.size == MAX_POINTS and str(MAX_POINTS + 1) in checked.problems[0]
    assert check_points([(1.0, LIMIT)], [4]).rows == [4]
    assert not check_points([]).ok


def test_duplicates_are_found_with_their_rows():
    assert data.duplicate_positions(np.array([1.0, 2.0, 1.0]), [1, 2, 5]) == {1.0: [1, 5]}


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        (0.5, True),
        (0.001, True),
        (1000, True),
        (1e6, False),
        (0.0, False),
        (-1.0, False),
        (math.nan, False),
        ("1", False),
        (True, False),
    ],
)
def test_sigma_is_checked_on_the_server(value, ok):
    assert (state.checked_sigma(value) is not None) == ok


def test_the_prediction_curve_breaks_where_there_is_no_prediction():
    x, y = np.array([0.0, 1.0]), np.array([1.0, 2.0])
    curve_x = np.linspace(-1, 2, 7)
    result = nadaraya_watson(curve_x, x, y, "boxcar", 0.4)
    figure = figures.data_figure(PointsInput(x, y, [1, 2]), result, WORDS)
    line = next(trace for trace in figure.data if trace.name == "prediction")
    assert line.connectgaps is False
    assert [v is None for v in line.y] == (~result.reached).tolist()
    assert "NaN" not in figure.to_json()


def test_a_prediction_heatmap_never_prints_nan():
    x, y = np.array([0.0, 1.0]), np.array([1.0, 2.0])
    result = nadaraya_watson(np.array([0.0, 5.0]), x, y, "boxcar", 0.4)  # 5 reaches no point
    built = figures.step_figures(result.steps, [1, 2], {"query": "query", "key": "key"})
    trace = built["nw_prediction"].plain["data"][0]
    assert trace["text"][1][0] == "—" and "NaN" not in str(trace["text"])


def test_the_chosen_querys_weights_are_bars_at_the_training_x():
    x, y = np.array([0.0, 1.0, 2.0]), np.array([1.0, 2.0, 3.0])
    weights = np.array([0.2, 0.5, 0.3])
    curve = nadaraya_watson(x, x, y, "gaussian", 1.0)
    figure = figures.data_figure(PointsInput(x, y, [1, 2, 3]), curve, WORDS, chosen=(1.0, weights))
    bars = next(trace for trace in figure.data if trace.type == "bar")
    assert list(bars.x) == [0.0, 1.0, 2.0] and list(bars.y) == [0.2, 0.5, 0.3]
    assert figure.layout.xaxis2.title.text == "x_axis"


@pytest.mark.parametrize(("nearest", "mean", "side"), [(2.54, 2.97, "bottom"), (3.5, 2.97, "top")])
def test_the_nearest_points_note_sits_at_the_right_away_from_the_mean(nearest, mean, side):
    """At the left the curve rises off the nearest point's line and the σ line crosses it."""
    sigmas = np.geomspace(0.01, 100, 5)
    words = {k: k for k in ("prediction", "nearest", "mean", "current", "x_axis", "y_axis")}
    figure = figures.sigma_figure(sigmas, np.linspace(nearest, mean, 5), 0.5, nearest, mean, words)
    note = next(a for a in figure.layout.annotations if a.text == "nearest")
    assert note.xanchor == "right" and note.yanchor == ("top" if side == "bottom" else "bottom")
    right = figures.sigma_figure(sigmas, np.full(5, nearest), 30.0, nearest, mean, words)
    assert next(a for a in right.layout.annotations if a.text == "nearest").xanchor == "left"


def test_two_points_equally_near_at_small_sigma_are_a_nearest_neighbour_tie_not_the_mean():
    """x = 0 and 2, x* = 1, σ = 0.05: weights 0.5 and 0.5 are 1/m each, but they come from the
    tie of the two nearest points (the small-σ end), not from σ large against the distances."""
    x, y = np.array([0.0, 2.0]), np.array([1.0, 3.0])
    weights = nadaraya_watson([1.0], x, y, "gaussian", 0.05).weights[0]
    claim = data.sigma_claim(weights, y, np.abs(x - 1.0))
    assert claim.kind == "nearest_shared" and claim.points == (0, 1)
    far = nadaraya_watson([1.5], x, y, "gaussian", 1e3).weights[0]
    assert data.sigma_claim(far, y, np.abs(x - 1.5)).kind == "mean"
