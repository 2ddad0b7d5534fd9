"""The steps are the explanation: their order, their values and the arithmetic they spell out.

A learner reads the steps top to bottom and hovers any cell to see how it was computed, so the
steps must come in the order a teacher would write them, agree with the result, and every
cell's text must end in the number the cell shows.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from attention_core import attention
from attention_core.formatting import fmt
from attention_core.steps import STEP_KEYS
from attention_ui.kit.text.i18n import step_sentence, step_title

SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉"
SOFTMAX_TAIL = ["shifted", "exponentials", "sums", "weights_softmax", "output"]
SUM_TAIL = ["sums", "weights_sum", "output"]
SCORE_STEPS = {
    "dot": ["keys_transposed", "scores_dot"],
    "scaled_dot": ["keys_transposed", "scores_dot", "scaled"],
    "general": ["queries_transformed", "keys_transposed", "scores_general"],
    "concat": ["queries_projected", "keys_projected", "scores_concat"],
    "location": ["scores_location"],
}

MASK = [[True, False, True], [False, False, True], [True, True, False], [True, False, True]]


def problem(score: str, *, non_negative: bool = False) -> tuple[list, dict]:
    """A column-layout problem with m = 4 keys, n = 3 queries, d_q = 2, d_k = 3 (or 2), d_v = 2."""
    rng = np.random.default_rng(42)
    low = 0.1 if non_negative else -2.0
    d_q, d_k, m, n, h = 2, 3, 4, 3, 2
    if score in ("dot", "scaled_dot"):
        d_k = d_q
    Q, K, V = (rng.uniform(low, 2.0, size=s) for s in ((d_q, n), (d_k, m), (2, m)))
    params = {
        "general": {"W": rng.uniform(low, 1.0, size=(d_k, d_q))},
        "concat": {"Wa": rng.uniform(-1, 1, size=(h, d_q + d_k)), "va": rng.uniform(-1, 1, size=h)},
        "location": {"Wa": rng.uniform(low, 1.0, size=(m, d_q))},
    }.get(score, {})
    return [Q, K, V], params


# (id, score, options, non-negative inputs) for runs that between them make every kind of step
CONFIGS = [
    *[(f"{s}", s, {}, False) for s in SCORE_STEPS],
    *[(f"{s}-tau-mask", s, {"temperature": 0.5, "mask": MASK}, False) for s in SCORE_STEPS],
    ("dot-sum", "dot", {"normalization": "sum"}, True),
    (
        "general-sum-tau-mask",
        "general",
        {"normalization": "sum", "temperature": 2.0, "mask": MASK},
        True,
    ),
    ("location-sum-tau", "location", {"normalization": "sum", "temperature": 0.5}, True),
]


def run(score, options, non_negative, layout="column"):
    (Q, K, V), params = problem(score, non_negative=non_negative)
    if layout == "row":
        Q, K, V = Q.T, K.T, V.T
        if "mask" in options:
            options = {**options, "mask": np.array(options["mask"]).T}
    return attention(Q, K, V, score, layout=layout, **params, **options)


def expected_order(score: str, options: dict) -> list[str]:
    steps = list(SCORE_STEPS[score])
    if options.get("normalization", "softmax") == "softmax":
        if options.get("temperature", 1.0) != 1.0:
            steps.append("temperature_softmax")
        if "mask" in options:
            steps.append("masked")
        return steps + SOFTMAX_TAIL
    if "mask" in options:
        steps.append("masked")
    if options.get("temperature", 1.0) != 1.0:
        steps.append("temperature_sum")
    return steps + SUM_TAIL


def all_runs(configs=CONFIGS) -> list:
    return [
        pytest.param(score, options, non_negative, layout, id=f"{config_id}-{layout}")
        for config_id, score, options, non_negative in configs
        for layout in ("column", "row")
    ]


MASKED_CONFIGS = [c for c in CONFIGS if "mask" in c[2]]


# ------------------------------------------------------------------------------------------


def test_scaled_dot_steps_come_in_the_teachers_order():
    r = attention([[1.0], [2.0]], [[0.5, 1.0], [-1.0, 0.0]], [[1.0, 2.0]], "scaled_dot")
    assert [s.key for s in r.steps] == [
        "keys_transposed",
        "scores_dot",
        "scaled",
        "shifted",
        "exponentials",
        "sums",
        "weights_softmax",
        "output",
    ]


@pytest.mark.parametrize(("score", "options", "non_negative", "layout"), all_runs())
def test_steps_come_in_order_for_every_score_and_option(score, options, non_negative, layout):
    r = run(score, options, non_negative, layout)
    assert [s.key for s in r.steps] == expected_order(score, options)


@pytest.mark.parametrize(("score", "options", "non_negative", "layout"), all_runs())
def test_steps_agree_with_the_result(score, options, non_negative, layout):
    r = run(score, options, non_negative, layout)
    assert r.steps[-1].key == "output"
    np.testing.assert_array_equal(r.steps[-1].value, r.output)
    weights_key = "weights_sum" if options.get("normalization") == "sum" else "weights_softmax"
    np.testing.assert_array_equal(r.step(weights_key).value, r.weights)
    scores_step = "scaled" if score == "scaled_dot" else SCORE_STEPS[score][-1]
    np.testing.assert_array_equal(r.step(scores_step).value, r.scores)
    n_queries = r.weights.shape[1] if layout == "column" else r.weights.shape[0]
    assert r.step("sums").value.size == n_queries


@pytest.mark.parametrize(("score", "options", "non_negative", "layout"), all_runs())
def test_every_cells_arithmetic_ends_with_the_value_it_shows(score, options, non_negative, layout):
    r = run(score, options, non_negative, layout)
    for step in r.steps:
        for (i, j), x in np.ndenumerate(step.value):
            text = step.entry(i, j)
            if step.key == "masked":  # "s₁₂ = 0.31" or "s₁₂ → −∞  ⇒  a₁₂ = 0"
                assert text.endswith(f" = {fmt(x)}") or f" → {fmt(x)}  ⇒  a" in text, (
                    step.key,
                    i,
                    j,
                    text,
                )
            else:
                assert text.endswith(f" = {fmt(x)}"), (step.key, i, j, text)


@pytest.mark.parametrize(("score", "options", "non_negative", "layout"), all_runs(MASKED_CONFIGS))
def test_masked_step_says_which_pairs_are_masked(score, options, non_negative, layout):
    r = run(score, options, non_negative, layout)
    user_mask = np.array(MASK) if layout == "column" else np.array(MASK).T
    step = r.step("masked")
    for (i, j), keep in np.ndenumerate(user_mask):
        assert ("⇒" in step.entry(i, j)) != bool(keep)  # "s₁₂ → −∞  ⇒  a₁₂ = 0"


# ------------------------------------------------------------------------------------------
# One small example worked out by hand: q₁ = (1, 2), k₁ = (0.5, −1), k₂ = (1, 0), v = (1, 2).
# s₁₁ = 0.5·1 + (−1)·2 = −1.5 and s₂₁ = 1; scaled by √2: −1.061 and 0.7071;
# weights e^(−1.768) / (1 + e^(−1.768)) = 0.1458 and 0.8542; output 0.1458 + 2·0.8542 = 1.854.

COLUMN_EXAMPLE = ([[1.0], [2.0]], [[0.5, 1.0], [-1.0, 0.0]], [[1.0, 2.0]])
ROW_EXAMPLE = ([[1.0, 2.0]], [[0.5, -1.0], [1.0, 0.0]], [[1.0], [2.0]])


def test_known_example_spells_out_each_step_in_column_layout():
    r = attention(*COLUMN_EXAMPLE, "scaled_dot")
    assert r.step("keys_transposed").entry(0, 1) == "(Kᵀ)₁₂ = K₂₁ = −1"
    assert r.step("scores_dot").entry(0, 0) == "s₁₁ = k₁·q₁ = 0.5×1 + (−1)×2 = −1.5"
    assert r.step("scores_dot").entry(1, 0) == "s₂₁ = k₂·q₁ = 1×1 + 0×2 = 1"
    assert r.step("scaled").entry(0, 0) == "s₁₁ / √2 = (−1.5) / 1.41 = −1.06"
    assert r.step("shifted").entry(0, 0) == "s₁₁ − max = −1.06 − 0.707 = −1.77"
    assert r.step("exponentials").entry(0, 0) == "e₁₁ = exp(−1.77) = 0.171"
    assert r.step("sums").entry(0, 0) == "Σᵢ eᵢ₁ = 0.171 + 1 = 1.17"
    assert r.step("weights_softmax").entry(1, 0) == "a₂₁ = e₂₁ / Σ = 1 / 1.17 = 0.854"
    assert r.step("output").entry(0, 0) == "o₁₁ = Σᵢ aᵢ₁·v₁ᵢ = 0.146×1 + 0.854×2 = 1.85"
    assert r.output[0, 0] == pytest.approx(1.8541, abs=1e-4)


def test_known_example_in_row_layout_names_cells_by_the_row_layouts_indices():
    r = attention(*ROW_EXAMPLE, "scaled_dot", layout="row")
    assert r.step("keys_transposed").entry(1, 0) == "(Kᵀ)₂₁ = K₁₂ = −1"
    assert r.step("scores_dot").entry(0, 0) == "s₁₁ = k₁·q₁ = 0.5×1 + (−1)×2 = −1.5"
    assert r.step("scores_dot").entry(0, 1) == "s₁₂ = k₂·q₁ = 1×1 + 0×2 = 1"
    assert r.step("weights_softmax").entry(0, 1) == "a₁₂ = e₁₂ / Σ = 1 / 1.17 = 0.854"


def test_known_example_formulas_carry_the_users_sizes():
    column = attention(*COLUMN_EXAMPLE, "scaled_dot")
    row = attention(*ROW_EXAMPLE, "scaled_dot", layout="row")
    # S is m × n = 2 × 1 in column layout and n × m = 1 × 2 in row layout
    assert column.step("scores_dot").latex.startswith(r"\underbrace{\mathbf{S}}_{2 \times 1}")
    assert row.step("scores_dot").latex.startswith(r"\underbrace{\mathbf{S}}_{1 \times 2}")
    assert r"\sqrt{2}" in column.step("scaled").latex
    sentence = step_sentence(column.step("scaled"), "en")
    assert "variance is d_k = 2" in sentence and "√d_k ≈ 1.41" in sentence


def strip_subscripts(text: str) -> str:
    return re.sub(f"[{SUBSCRIPTS}]", "", text)


@pytest.mark.parametrize(
    ("config_id", "score", "options", "non_negative"), CONFIGS, ids=[c[0] for c in CONFIGS]
)
def test_row_layout_steps_are_transposes_with_the_same_arithmetic(
    config_id, score, options, non_negative
):
    column = run(score, options, non_negative, "column")
    row = run(score, options, non_negative, "row")
    assert [s.key for s in row.steps] == [s.key for s in column.steps]
    for c_step, r_step in zip(column.steps, row.steps, strict=True):
        assert r_step.value.shape == c_step.value.T.shape, c_step.key
        np.testing.assert_allclose(
            r_step.value, c_step.value.T, rtol=1e-13, atol=1e-13, err_msg=c_step.key
        )
        for (i, j), _ in np.ndenumerate(c_step.value):
            # same numbers and operations; only the cell names' index order differs
            assert strip_subscripts(r_step.entry(j, i)) == strip_subscripts(c_step.entry(i, j))


def test_row_layout_names_a_score_with_its_indices_swapped():
    column = attention(*COLUMN_EXAMPLE, "dot")
    row = attention(*ROW_EXAMPLE, "dot", layout="row")
    assert column.step("scores_dot").entry(1, 0).startswith("s₂₁ = k₂·q₁ = ")
    assert row.step("scores_dot").entry(0, 1).startswith("s₁₂ = k₂·q₁ = ")


# ------------------------------------------------------------------------------------------


def test_every_step_has_a_title_and_a_sentence_that_formats():
    made = set()
    for _, score, options, non_negative in CONFIGS:
        for layout in ("column", "row"):
            for step in run(score, options, non_negative, layout).steps:
                assert step.key in STEP_KEYS
                assert step_title(step, "en") != f"engine.step.{step.key}.title"
                sentence = step_sentence(step, "en")  # KeyError if a placeholder has no parameter
                assert sentence and "{" not in sentence and "}" not in sentence, step.key
                assert step.latex, step.key
                made.add(step.key)
    assert made == set(STEP_KEYS), f"STEP_KEYS no run produces: {set(STEP_KEYS) - made}"


def test_asking_for_a_step_this_run_does_not_have_raises_key_error():
    r = attention(*COLUMN_EXAMPLE, "dot")
    with pytest.raises(KeyError):
        r.step("scaled")


@pytest.mark.parametrize("score", list(SCORE_STEPS))
def test_steps_recorded_when_first_read_show_the_results_own_numbers(score):
    matrices, params = problem(score)
    result = attention(*matrices, score, temperature=0.5, mask=MASK, **params)
    steps = result.steps
    assert result.steps is steps  # recorded once, then kept
    assert result.step("weights_softmax").value.tobytes() == result.weights.tobytes()
    assert result.step("output").value.tobytes() == result.output.tobytes()
    scores_key = SCORE_STEPS[score][-1]
    assert result.step(scores_key).value.tobytes() == result.scores.tobytes()


WORD_IN_FORMULA = re.compile(r"\\text\{[^}]*[A-Za-z]{2,}")  # \text{where masked}


def test_no_steps_formula_carries_a_word():
    """The engine returns codes and numbers, the interface every word: the mask step's
    formula said "where masked" in English on the Japanese page. It is written with the mask's
    entries instead (m = 1 kept, m = 0 masked)."""
    for _, score, options, non_negative in CONFIGS:
        for layout in ("column", "row"):
            for step in run(score, options, non_negative, layout).steps:
                assert not WORD_IN_FORMULA.search(step.latex), (step.key, step.latex)
