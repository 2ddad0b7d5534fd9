"""The "output = mean of the values" task's hint and solution hold for every score function:
Q = 0 makes every score equal with dot, scaled dot, general and location scores, but not with
concat (tanh(W_a [0; k]) still reads each key), where v_a = 0 does it."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import attention
from attention_ui.kit.text.i18n import catalog

RNG = np.random.default_rng(7)
D, M, N, H = 3, 4, 2, 5
K, V = RNG.normal(size=(D, M)), RNG.normal(size=(2, M))
PARAMS = {
    "dot": {},
    "scaled_dot": {},
    "general": {"W": RNG.normal(size=(D, D))},
    "location": {"Wa": RNG.normal(size=(M, D))},
    "concat": {"Wa": RNG.normal(size=(H, 2 * D)), "va": RNG.normal(size=H)},
}
ZERO_Q = np.zeros((D, N))


def is_mean(result) -> bool:
    return np.allclose(result.output, V.mean(axis=1, keepdims=True))


@pytest.mark.parametrize("score", ["dot", "scaled_dot", "general", "location"])
def test_q_zero_makes_the_output_the_mean_with_every_score_but_concat(score):
    result = attention(ZERO_Q, K, V, score, **PARAMS[score])
    assert np.ptp(result.scores, axis=0).max() == 0 and is_mean(result)


def test_with_concat_q_zero_leaves_scores_that_differ_and_v_a_zero_gives_the_mean():
    alone = attention(ZERO_Q, K, V, "concat", **PARAMS["concat"])
    assert np.ptp(alone.scores, axis=0).min() > 0.1 and not is_mean(alone)
    flat = attention(ZERO_Q, K, V, "concat", Wa=PARAMS["concat"]["Wa"], va=np.zeros(H))
    assert is_mean(flat)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_hint_and_the_solution_say_so(lang):
    words = catalog(lang)
    for key in ("tasks.luong_mean.hint2", "tasks.luong_mean.solution"):
        text = words[key]
        assert "Q" in text and "v_a" in text, key
        assert words["engine.value.score.concat"] in text, key
