"""The exercises page says only what its numbers bear out, in English and Japanese: each test
is one sentence or formula that was false for some state, checked on
the page (AppTest) or on the pure function that words it."""

from __future__ import annotations

import re

import numpy as np
import pytest

from attention_core import AttentionInputError, lookup, query_gradient
from attention_core.formatting import fmt
from attention_core.search import gradient_search, hard_lookup, letter_pair_vectors
from attention_core.squeeze_excitation import squeeze_excitation
from attention_ui.exercises import state
from attention_ui.exercises.gradient import NUMERICALLY_GONE, gradient_notes, tau_notes
from attention_ui.exercises.matching import SOFTMAX_LATEX, SUM_LATEX
from attention_ui.exercises.search import hard_notes, search_notes
from attention_ui.exercises.squeeze import gate_notes
from attention_ui.exercises.tasks import exercise_open_gates
from attention_ui.kit.grids.records_editor import D2L_RECORDS
from attention_ui.kit.text.i18n import LANGUAGES, catalog, t
from attention_ui.luong.presets import PRESETS
from tests.plotly_json import chart
from tests.support.exercises import open_exercise
from tests.support.pages import shown

FIRST_QUADRANT = np.array([[1.0, 0.5], [0.5, 2.0], [2.0, 1.5]])  # the gallery's first preset


# --- 1 · a query that shares nothing ----------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("similarity", ["ngram", "edit"])
def test_a_query_sharing_nothing_gets_the_uniform_weight_it_is_shown_with(lang, similarity):
    at = open_exercise(lang)
    at.text_input(key=state.MATCH_QUERY.key).set_value("xyz")
    at.radio(key=state.MATCH_SIMILARITY.key).set_value(similarity).run()
    result = lookup(D2L_RECORDS, "xyz", similarity, temperature=0.25)
    assert not result.valid and np.allclose(result.weights, 1 / 6)
    table = at.dataframe[0].value
    assert list(table["α"]) == [fmt(1 / 6)] * 6  # the table shows α = 1/6 for all six
    text = shown(at)
    uniform = t("exercises.match.no_answer_uniform", lang, query="xyz", m=6, weight=fmt(1 / 6, 3))
    assert uniform in text
    assert t("exercises.match.no_answer", lang, query="xyz") not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_exact_miss_says_every_weight_is_zero(lang):
    at = open_exercise(lang)
    at.text_input(key=state.MATCH_QUERY.key).set_value("xyz")
    at.radio(key=state.MATCH_SIMILARITY.key).set_value("exact").run()
    assert list(at.dataframe[0].value["α"]) == [fmt(0.0)] * 6
    assert t("exercises.match.no_answer", lang, query="xyz") in shown(at)


# --- 2 · exact matching has no τ ---------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_exact_matching_shows_the_sum_normalisation_and_disables_tau(lang):
    at = open_exercise(lang)
    at.radio(key=state.MATCH_SIMILARITY.key).set_value("exact").run()
    formulas = "\n".join(e.value for e in at.latex)
    assert SUM_LATEX in formulas and SOFTMAX_LATEX not in formulas
    assert at.slider(key=state.MATCH_TAU.key).proto.disabled
    result = lookup(D2L_RECORDS, "Li", "exact")
    np.testing.assert_allclose(result.weights, result.scores / result.scores.sum())  # a/Σa
    at.session_state["exercises.export"] = True
    at.run()
    derivation = next(code.value for code in at.main.code if code.language == "latex")
    assert r"\frac{a(q, k_i)}{\sum_j a(q, k_j)}" in derivation
    assert r"\exp(a(q, k_i)/\tau)" not in derivation
    # with an approximate similarity the softmax over τ is back, and τ can move
    at.radio(key=state.MATCH_SIMILARITY.key).set_value("ngram").run()
    assert SOFTMAX_LATEX in "\n".join(e.value for e in at.latex)
    assert not at.slider(key=state.MATCH_TAU.key).proto.disabled


# --- 3 · differentiable in what ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "where", "pointer"),
    [("en", "in the scores and in τ, but not in the query", "exercise 3"),
     ("ja", "スコアと τ について微分可能ですが、クエリについては微分可能ではありません", "演習 3")],
)  # fmt: skip
def test_the_worked_answer_says_the_weights_are_differentiable_in_the_scores_not_the_text(
    lang, where, pointer
):
    at = open_exercise(lang)
    at.toggle(key=state.MATCH_ANSWER.key).set_value(True).run()
    answer = t("exercises.match.answer", lang)
    assert answer in shown(at)
    assert where in answer and pointer in answer


# --- 4 · what lowering τ does -------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_lowering_tau_is_said_to_grow_the_gradient_where_it_does(lang):
    """Default points, q = (1, −1): ‖∂o/∂q‖ is 0.483 at τ = 1 and larger at τ = 0.5 (10 at
    0.05), so the page must not say that a lower τ shrinks it."""
    q = np.array([1.0, -1.0])
    at_one = query_gradient(q, FIRST_QUADRANT.T, FIRST_QUADRANT.T, temperature=1.0).norm
    at_half = query_gradient(q, FIRST_QUADRANT.T, FIRST_QUADRANT.T, temperature=0.5).norm
    assert fmt(at_one, 3) == "0.483" and at_half > at_one
    ((_, text),) = tau_notes(q, FIRST_QUADRANT, 1.0, lang)
    assert text.split("{")[0] == t("exercises.grad.tau_grows", lang, **tau_params(text, lang))
    assert fmt(at_half, 3) in text and fmt(at_one, 3) in text
    alive = t("exercises.grad.alive", lang, limit="", norm="", step="", move="", scale="")
    assert "τ" not in alive  # no general claim about τ is left in the "alive" sentence
    at = open_exercise(lang, "grad")
    at.slider(key=state.GRAD_Q1.key).set_value(1.0)
    at.slider(key=state.GRAD_Q2.key).set_value(-1.0).run()
    assert text in shown(at)


def tau_params(text: str, lang: str) -> dict[str, str]:
    q = np.array([1.0, -1.0])
    here = query_gradient(q, FIRST_QUADRANT.T, FIRST_QUADRANT.T, temperature=1.0)
    there = query_gradient(q, FIRST_QUADRANT.T, FIRST_QUADRANT.T, temperature=0.5)
    return {
        "tau": "1", "low": "0.5", "norm": fmt(here.norm, 3), "lower": fmt(there.norm, 3),
        "factor": "2", "p": fmt(here.weights.max(), 3), "p_low": fmt(there.weights.max(), 3),
    }  # fmt: skip


def test_every_tau_sentence_matches_the_engine_at_the_lower_tau():
    seen = set()
    keys_sets = [FIRST_QUADRANT, np.array([[5.0, 0.0], [1.0, 1.0], [0.0, 1.0]])]
    for keys in keys_sets:
        for q in ([1.0, -1.0], [0.0, 0.0], [3.0, 0.0], [10.0, 0.0], [1.0, 0.5]):
            for tau in (0.05, 0.1, 0.5, 1.0, 5.0):
                q = np.asarray(q)
                notes = tau_notes(q, keys, tau, "en")
                if tau == state.GRAD_TAU.field.low:
                    assert notes == []  # nothing lower to compare with
                    continue
                here = query_gradient(q, keys.T, keys.T, temperature=tau).norm
                there = query_gradient(q, keys.T, keys.T, temperature=tau / 2).norm
                if not notes:
                    assert here < NUMERICALLY_GONE or here == there
                    continue
                ((_, text),) = notes
                low = query_gradient(q, keys.T, keys.T, temperature=tau / 2)
                params = {
                    "tau": fmt(tau), "low": fmt(tau / 2), "norm": fmt(here, 3),
                    "lower": fmt(there, 3), "factor": fmt(2.0, 3),
                    "p": fmt(query_gradient(q, keys.T, keys.T, temperature=tau).weights.max(), 3),
                    "p_low": fmt(low.weights.max(), 3),
                }  # fmt: skip
                word = "tau_grows" if there > here else "tau_shrinks"
                assert text == t(f"exercises.grad.{word}", "en", **params), (keys, q, tau)
                if word == "tau_shrinks":  # the covariance fell by more than 1/τ gained
                    assert there * (tau / 2) < here * tau
                seen.add(word)
    assert seen == {"tau_grows", "tau_shrinks"}


# --- 5, 6 · identical keys ----------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_identical_keys_are_said_to_have_zero_gradient_before_rounding_is_read(lang):
    keys = np.array([[0.1, 0.7]] * 5)
    result = query_gradient(np.array([1.0, 0.5]), keys.T, keys.T)
    assert 0 < result.norm < 1e-30  # a rounding residue, not a gradient
    labels = [f"k{i + 1}" for i in range(5)]
    texts = [
        text for _, text in gradient_notes(result.jacobian, result.weights, keys, labels, lang)
    ]
    norm = fmt(result.norm, 3)
    assert t("exercises.grad.identical_rounding", lang, norm=norm) in texts
    limit = fmt(NUMERICALLY_GONE)
    assert t("exercises.grad.gone_close_keys", lang, norm=norm, limit=limit) not in texts


@pytest.mark.parametrize(
    ("lang", "condition"), [("en", "0 exactly when every key is the same point"),
                            ("ja", "すべてのキーが同じ点のときだけ")]
)  # fmt: skip
def test_the_derivation_names_when_the_gradient_is_exactly_zero(lang, condition):
    answer = catalog(lang)["exercises.grad.answer"]
    assert condition in answer
    # one point: the engine's gradient is exactly 0, as the derivation now says it can be
    keys = np.array([[1.0, 1.0], [1.0, 1.0]])
    assert query_gradient(np.array([2.0, -1.0]), keys.T, keys.T).norm == 0


# --- 7 · the huge preset's keys are not its values ----------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_huge_score_says_its_keys_stand_in_for_the_presets_own_values(lang):
    preset = PRESETS["saturate"].column_matrices()
    keys = ", ".join(f"({fmt(a)}, {fmt(b)})" for a, b in preset["K"].T)
    values = ", ".join(f"({fmt(a)}, {fmt(b)})" for a, b in preset["V"].T)
    assert values == "(1, 0), (2, 1), (3, 0)" and keys == "(5, 0), (1, 1), (0, 1)"
    at = open_exercise(lang, "grad")
    at.button(key="exercises.grad.huge").click().run()
    text = shown(at)
    source = t(
        "exercises.grad.source_huge", lang, keys=keys, own_values=values, query="(10, 0)",
        scores="50, 10, 0",
    )  # fmt: skip
    assert source in text
    assert "keys = values =" not in text and "キー = バリュー =" not in text
    # and with the preset's own values the Jacobian is a cross-covariance, not symmetric
    J = query_gradient(np.array([10.0, 0.0]), preset["K"], preset["V"]).jacobian
    assert not np.allclose(J, J.T, rtol=1e-9, atol=0)
    assert t("exercises.grad.cross_asymmetric", lang).split("{")[0] in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_gradient_says_its_layout_and_that_a_cross_covariance_need_not_be_symmetric(lang):
    at = open_exercise(lang, "grad")
    layout = t("exercises.grad.layout", lang)
    assert layout in shown(at)
    assert "d_v × d_q" in layout and "Cov_p(v, k)" in layout
    assert r"\operatorname{Cov}_{p}(\mathbf{v}, \mathbf{k})" in "\n".join(e.value for e in at.latex)


# --- 8 · the hard lookup started on a tie -------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_search_started_on_a_tie_says_the_argmax_has_no_gradient_there(lang):
    at = open_exercise(lang, "search")
    at.radio(key=state.SEARCH_SOURCE.key).set_value("names").run()
    text = shown(at)
    assert t("exercises.search.hard_miss", lang) not in text
    assert t("exercises.search.hard_hit", lang) not in text
    names = ", ".join(record[0] for record in D2L_RECORDS)
    tie = t("exercises.search.hard_tie", lang, count=6, tied=names, best="Zhang")
    assert tie in text
    assert t("exercises.search.hard_reinforcement", lang) in text


def test_every_hard_lookup_sentence_holds_at_its_start():
    keys = state.MATRICES[state.SEARCH_KEYS].T  # 2 × 4
    labels = ["r1", "r2", "r3", "r4"]
    seen = set()
    for start in ([0.0, 0.0], [-1.0, -1.0], [1.0, 1.0], [0.0, 1.0], [2.0, 0.0]):
        for target in range(4):
            hard = hard_lookup(np.array(start), keys, target)
            scores = keys.T @ np.array(start)
            on_tie = (scores == scores.max()).sum() > 1
            for lang in LANGUAGES:
                texts = [text for _, text in hard_notes(hard, labels, target, lang)]
                top = np.flatnonzero(scores == scores.max())
                tie = t(
                    "exercises.search.hard_tie", lang, count=len(top),
                    tied=", ".join(labels[i] for i in top), best=labels[top[0]],
                )  # fmt: skip
                said_tie = tie in texts
                assert said_tie == on_tie, (start, target)
                if not on_tie:
                    verdict = "hard_hit" if int(np.argmax(scores)) == target else "hard_miss"
                    assert t(f"exercises.search.{verdict}", lang) in texts
                seen.add(on_tie)
    assert seen == {True, False}


# --- 9 · the learning rate's limit is the page's -------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_too_large_learning_rate_is_refused_as_the_pages_limit_not_an_overshoot(lang):
    at = open_exercise(lang, "search")
    at.number_input(key=state.SEARCH_RATE.key).set_value(1000.0).run()
    errors = "\n".join(e.value for e in at.error)
    assert "overshoot" not in errors and "行き過ぎ" not in errors
    assert t("engine.error.learning_rate_too_large", lang, value="1000", limit="100") in errors
    # why not "every step overshoots": keys of size 0.01 still fall steadily at the page's η
    keys = np.array([[0.01, 0.0], [0.0, 0.01], [-0.01, 0.0]]).T
    path = gradient_search(np.zeros(2), keys, 1, learning_rate=100.0, steps=30)
    assert (np.diff(path.losses) < 0).all()
    with pytest.raises(AttentionInputError):
        gradient_search(np.zeros(2), keys, 1, learning_rate=1000.0, steps=30)


# --- 10, 11, 12 · Squeeze-and-Excitation ---------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_se_is_read_as_a_gating_with_the_squeeze_as_average_pooling(lang):
    reading = catalog(lang)["exercises.se.reading"]
    words = {"en": ("gating", "special case 4", "Y_c = s_c X_c"),
             "ja": ("ゲーティング", "特殊ケース 4", "Y_c = s_c X_c")}[lang]  # fmt: skip
    assert all(word in reading for word in words)
    for key in ("exercises.se.reading", "exercises.se.softmax_sum", "exercises.se.no_sum"):
        text = catalog(lang)[key]
        assert "special case 1" not in text and "special case 2" not in text
        assert "特殊なケース 1" not in text and "特殊なケース 2" not in text
    at = open_exercise(lang, "se")
    assert reading in shown(at)


def test_the_se_script_comments_no_longer_call_the_gating_a_cone_or_a_convex_combination():
    from attention_ui.exercises import teaching

    assert "cone" not in teaching._SE_CODE and "convex" not in teaching._SE_CODE
    assert "reduction ratio" in teaching._SE_CODE


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_gate_rounded_to_exactly_one_is_said_where_it_happens(lang):
    x = np.array([[40.0, 40.0], [0.0, 0.0]])  # c1's mean 40 → its score 40 → σ = 1.0 exactly
    w1, w2 = np.eye(2), np.eye(2)
    se, soft = squeeze_excitation(x, w1, w2), squeeze_excitation(x, w1, w2, gate="softmax")
    assert se.gates[0] == 1.0 and se.gates[1] == 0.5
    texts = [text for _, text in gate_notes(se, soft, ["c1", "c2"], lang)]
    assert t("exercises.se.gate_one", lang, channels="c1") in texts
    default = squeeze_excitation(
        *(state.MATRICES[k] for k in (state.SE_X, state.SE_W1, state.SE_W2))
    )
    assert (default.gates < 1).all()
    quiet = [text for _, text in gate_notes(default, soft, ["c1", "c2", "c3"], lang)]
    assert not any(text.startswith(t("exercises.se.gate_one", lang)[:20]) for text in quiet)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_hidden_size_is_c_over_r_with_r_the_reduction_ratio(lang):
    assert "C/r" in catalog(lang)["exercises.se.r"]
    assert "reduction ratio" in catalog(lang)["exercises.se.r_help"]
    at = open_exercise(lang, "se")
    assert at.number_input(key=state.SE_R.key).label == t("exercises.se.r", lang)


def test_the_open_gates_solution_states_the_examples_channel_means_and_solves_it():
    X = state.MATRICES[state.SE_X]
    z = squeeze_excitation(X, state.MATRICES[state.SE_W1], state.MATRICES[state.SE_W2]).squeezed
    written = "(" + ", ".join(fmt(v) for v in z) + ")"
    assert written == "(2, 0, 2)"
    for lang in LANGUAGES:
        solution = catalog(lang)["tasks.exercise_open_gates.solution"]
        assert written in solution and "are positive" not in solution
    solved = exercise_open_gates({"X": X, "W1": np.ones((2, 3)), "W2": 2 * np.ones((3, 2))})
    assert solved.solved


# --- one number format: a sentence prints a number as its chart does -----------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_largest_weight_reads_in_the_sentence_as_on_its_chart(lang):
    at = open_exercise(lang, section="grad")
    cells = chart(at, "exercises.chart.grad_weights")["data"][0]["text"]
    weights = query_gradient(np.array([1.0, 0.5]), FIRST_QUADRANT.T, FIRST_QUADRANT.T).weights
    best = int(np.argmax(weights))
    assert cells[0][best] == fmt(weights[best])  # the chart's "0.662" ...
    said = re.search(rf"p\(k{best + 1}\) = ([\d.]+)", shown(at))
    assert said and said.group(1).rstrip(".") == fmt(weights[best])  # ... is the sentence's


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("rate", [0.5, 2.0])
@pytest.mark.parametrize("steps", [1, 30, 200])
def test_a_name_halfway_between_two_others_is_said_never_to_come_first(lang, rate, steps):
    """Lili's letter pairs are half Li's plus half Lilili's (7 dimensions, not a plane): no query
    puts it first, so the page must not send the learner to more steps or a larger η."""
    names = ["Li", "Lilili", "Lili", "Hu"]
    keys, _ = letter_pair_vectors(names)
    path = gradient_search(np.zeros(keys.shape[0]), keys, 2, learning_rate=rate, steps=steps)
    verdict = search_notes(path, keys, 2, names, lang)[1][1]
    mix = "0.5 × **Li** + 0.5 × **Lilili**"
    assert verdict == t("exercises.search.cannot_win", lang, target="Lili", mix=mix)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("q", [(3.0, 0.0), (5.0, 0.0), (6.0, 0.0)])
def test_a_gradient_too_small_to_move_the_output_is_not_called_clearly_alive(lang, q):
    """Keys (5, 0), (1, 1), (0, 1): at q = (6, 0) ‖∂o/∂q‖ is 6×10⁻¹⁰, far above the 10⁻¹² at
    which it counts as gone, yet a slider step moves the output by 6×10⁻¹¹ against keys of
    size 5: alive in name only, and said to be faint."""
    keys = np.array([[5.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    result = query_gradient(q, keys.T, keys.T)
    assert NUMERICALLY_GONE < np.linalg.norm(result.jacobian) < 1e-3
    said = gradient_notes(result.jacobian, result.weights, keys, ["k1", "k2", "k3"], lang)[-1]
    assert said[0] == "warning" and said[1].startswith(t("exercises.grad.faint", lang)[:12])
    move = 0.1 * np.linalg.norm(result.jacobian, axis=0).max()
    assert move < 1e-3 * 5 and fmt(move, 3) in said[1]
