"""The Luong explorer's pure helpers: presets, sizes and labels, masks, the score comparison."""

import numpy as np
import pytest

from attention_core import attention
from attention_core.attention import SCORES
from attention_ui.kit.text.i18n import catalog
from attention_ui.luong.claims import story_holds
from attention_ui.luong.compare import compare_scores, largest_change, winner_table, winners
from attention_ui.luong.compute import Inputs, compute
from attention_ui.luong.model import (
    ALL_PARAMETERS,
    INPUTS,
    Sizes,
    applicable_scores,
    causal_mask,
    column_shape,
    default_parameters,
    engine_parameters,
    labels,
    padding_mask,
)
from attention_ui.luong.presets import PRESET_KEYS, PRESETS, random_matrices


@pytest.mark.parametrize("key", PRESETS)
def test_every_preset_fits_its_sizes_and_runs(key):
    preset = PRESETS[key]
    matrices = preset.column_matrices()
    for name in (*INPUTS, *ALL_PARAMETERS):
        assert matrices[name].shape == column_shape(name, preset.sizes), name
    mask = causal_mask(preset.sizes.m, preset.sizes.n) if preset.mask == "causal" else None
    result = attention(
        matrices["Q"],
        matrices["K"],
        matrices["V"],
        preset.score,
        mask=mask,
        **engine_parameters(preset.score, matrices),
    )
    np.testing.assert_allclose(result.weights.sum(axis=0), 1.0)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_preset_tells_its_story_in_both_languages(lang):
    texts = catalog(lang)
    for key in PRESET_KEYS:
        assert texts[f"luong.preset.{key}.name"] and texts[f"luong.preset.{key}.why"]


def test_the_stories_hold_for_the_numbers_the_engine_computes():
    def run(key, score=None, **extra):
        preset = PRESETS[key]
        m = preset.column_matrices()
        score = score or preset.score
        return attention(m["Q"], m["K"], m["V"], score, **engine_parameters(score, m), **extra)

    assert np.argmax(run("identity").weights, axis=0).tolist() == [0, 1, 2]
    near = run("near_equal").weights[:, 0]
    assert abs(near[0] - near[1]) < 0.1 and near[2] < 0.05  # the weight splits between k1, k2
    saturated = run("saturate").weights
    assert saturated[0, 0] > 0.999999 and saturated[:, 1].max() < 0.8
    assert np.argmax(run("rotation", "dot").weights, axis=0).tolist() == [0, 1]
    assert np.argmax(run("rotation").weights, axis=0).tolist() == [1, 2]  # W turned them
    assert run("large_d", "dot").weights.max() > 0.85 > run("large_d").weights.max()
    location = PRESETS["location"].column_matrices()
    moved = attention(
        location["Q"], -location["K"], location["V"], "location", Wa=location["Wa_location"]
    )
    np.testing.assert_array_equal(moved.weights, run("location").weights)  # K is never read
    assert run("causal", mask=causal_mask(4, 4)).weights[0, 0] == 1.0


def test_random_fill_comes_from_the_seed_alone():
    sizes = Sizes(d_q=3, d_k=2, d_v=1, n=4, m=5, h=3)
    first, again, other = (
        random_matrices(sizes, 7),
        random_matrices(sizes, 7),
        random_matrices(sizes, 8),
    )
    for name, values in first.items():
        assert values.shape == column_shape(name, sizes)
        np.testing.assert_array_equal(values, again[name])
        assert np.array_equal(values, np.round(values, 1))  # one decimal, readable
    assert not np.array_equal(first["Q"], other["Q"])


def test_causal_mask_shows_key_i_to_query_j_only_when_i_is_at_most_j():
    mask = causal_mask(3, 2)  # m = 3 keys, n = 2 queries
    assert mask.tolist() == [[True, True], [False, True], [False, False]]
    assert causal_mask(2, 3).tolist() == [[True, True, True], [False, True, True]]


def test_padding_mask_shows_only_the_first_keys():
    assert padding_mask(3, 2, 2).tolist() == [[True, True], [True, True], [False, False]]


def test_inputs_transpose_in_row_layout_and_parameters_do_not():
    sizes = Sizes(d_q=2, d_k=3, d_v=1, n=4, m=5, h=2)
    assert labels("Q", sizes, "column") == (["1", "2"], ["q1", "q2", "q3", "q4"])
    assert labels("Q", sizes, "row") == (["q1", "q2", "q3", "q4"], ["1", "2"])
    assert labels("mask", sizes, "row") == (
        ["q1", "q2", "q3", "q4"],
        ["k1", "k2", "k3", "k4", "k5"],
    )
    for name in ALL_PARAMETERS:
        assert labels(name, sizes, "row") == labels(name, sizes, "column")
    assert labels("Wa_concat", sizes, "row")[1] == ["q:1", "q:2", "k:1", "k:2", "k:3"]


def test_dot_scores_apply_only_when_query_and_key_sizes_match():
    assert applicable_scores(Sizes(d_q=2, d_k=2)) == SCORES
    assert applicable_scores(Sizes(d_q=2, d_k=3)) == ("general", "concat", "location")


def test_default_parameters_make_general_equal_dot():
    sizes = Sizes(d_q=2, d_k=2, d_v=1, n=2, m=3)
    m = PRESETS["first"].column_matrices()
    W = default_parameters(sizes)["W"]
    np.testing.assert_array_equal(
        attention(m["Q"], m["K"], m["V"], "general", W=W).weights,
        attention(m["Q"], m["K"], m["V"], "dot").weights,
    )


def test_comparison_reuses_the_chosen_result_and_names_the_defaults():
    preset = PRESETS["rotation"]
    m = preset.column_matrices()
    chosen = attention(m["Q"], m["K"], m["V"], "general", W=m["W"])
    learner = {"W": m["W"], "Wa_concat": None, "va": None, "Wa_location": None}
    inputs = Inputs({n: m[n] for n in ("Q", "K", "V")}, "general")
    comparisons = compare_scores(inputs, preset.sizes, learner, chosen=chosen)
    assert [c.score for c in comparisons] == list(SCORES)
    by_score = {c.score: c for c in comparisons}
    assert by_score["general"].result is chosen and by_score["general"].defaults == ()
    assert by_score["concat"].defaults == ("Wa_concat", "va")
    np.testing.assert_array_equal(
        by_score["dot"].result.weights, attention(m["Q"], m["K"], m["V"]).weights
    )
    table = winner_table(comparisons, chosen, {s: s for s in SCORES})
    assert table.loc["q1", "general"].startswith("k2") and "◆" not in table.loc["q1", "general"]
    assert table.loc["q1", "dot"].startswith("k1") and table.loc["q1", "dot"].endswith("◆")


def test_winners_and_largest_change_read_either_layout():
    weights = np.array([[0.1, 0.7], [0.95, 0.3]])  # 2 keys × 2 queries
    assert winners(weights, "column") == [(1,), (0,)]
    assert winners(weights.T, "row") == [(1,), (0,)]
    tie = np.array([[0.5, 0.2], [0.5, 0.8]])
    assert winners(tie, "column") == [(0, 1), (1,)]  # a tie names every tied key
    assert largest_change(weights, np.full((2, 2), 0.5)) == pytest.approx((0.45, 1, 0))


def story_for(key: str, **changed) -> bool:
    """Whether the preset's story holds once some of its matrices are replaced."""
    values = {**PRESETS[key].column_matrices(), **changed}
    result = compute(Inputs(values, PRESETS[key].score))
    return story_holds(key, result, values, None)


def test_the_saturate_story_needs_q2s_top_scores_far_closer_together_than_q1s():
    """q1 = (1.6, 0) scores 8, 1.6, 0 (k1 takes 0.990); q2 = (0.4, 0.5) scores 2, 0.9, 0.5
    (soft, 0.61 at most) but its gap 1.1 is no tenth of q1's 6.4: the story is not told."""
    assert story_for("saturate")
    assert not story_for("saturate", Q=np.array([[1.6, 0.4], [0.0, 0.5]]))


def test_the_large_d_story_needs_dot_to_give_one_key_most_of_the_weight():
    """Keys a tenth as long with k1's first entry lowered: dot scores 1.9, 1.8, 0.6 and k1 takes
    0.45 (more than under scaled dot, yet not most of the weight): the story is not told."""
    assert story_for("large_d")
    keys = np.array(PRESETS["large_d"].matrices["K"], dtype=float) * 0.3
    keys[0, 0] -= 0.5
    dot = attention(np.ones((8, 1)), keys, np.ones((2, 3)), "dot").weights.max()
    scaled = attention(np.ones((8, 1)), keys, np.ones((2, 3)), "scaled_dot").weights.max()
    assert scaled < dot < 0.5
    assert not story_for("large_d", K=keys)
