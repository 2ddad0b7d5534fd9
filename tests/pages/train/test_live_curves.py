"""The curves drawn while a run trains: at most LIVE_POINTS points each, spread over the
steps trained so far, the first and the last always drawn; the finished run's curves keep
every step."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from attention_ui.train.figures import thinned
from attention_ui.train.view import LIVE_POINTS, curve_figure


@given(st.integers(1, 5000), st.integers(2, 700))
def test_thinned_keeps_at_most_n_points_in_order_with_both_ends(length, at_most):
    steps = np.arange(1, length + 1)
    values = np.sin(steps / 7.0)
    kept_steps, kept_values = thinned(steps, values, at_most)
    assert len(kept_steps) == min(length, at_most)
    assert kept_steps[0] == 1 and kept_steps[-1] == length
    assert np.all(np.diff(kept_steps) > 0)
    np.testing.assert_array_equal(kept_values, values[kept_steps - 1])  # the points themselves


def test_a_3000_step_live_curve_is_600_points_and_the_finished_curve_3000():
    loss = np.linspace(2.0, 0.1, 3000)
    live = curve_figure("loss", {"loss": thinned(range(1, 3001), loss, LIVE_POINTS)}, 3000).figure
    finished = curve_figure("loss", {"loss": (range(1, 3001), loss)}, 3000).figure
    assert len(live.data[0].x) == LIVE_POINTS and live.data[0].x[-1] == 3000
    assert len(finished.data[0].x) == 3000
    # the live figure is what makes each redraw cheap
    assert len(live.to_json()) < len(finished.to_json()) / 3
