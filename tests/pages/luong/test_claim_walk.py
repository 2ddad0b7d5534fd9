"""The claim walk: every Luong preset × score × layout × mask × language, and each
sentence the page would show about the numbers checked against the engine's numbers.

The page's own pure functions build the sentences (step sentences, the weight sums, the
followed entry's share, the winner table, the preset's story); this test recomputes each
claim from `attention` alone and fails where a sentence says what the numbers do not.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from attention_core.formatting import fmt
from attention_ui.kit.teaching.steps_view import trace_entry, vectors_sentence
from attention_ui.kit.text.i18n import LANGUAGES, catalog, step_sentence, t
from attention_ui.luong.compare import compare_scores, largest_change, winner_table
from attention_ui.luong.compute import Inputs, compute
from attention_ui.luong.model import (
    applicable_scores,
    causal_mask,
    engine_parameters,
    in_layout,
    padding_mask,
)
from attention_ui.luong.presets import PRESETS, RANDOM, random_matrices
from attention_ui.luong.view import Run, preset_story

SCORES = ("dot", "scaled_dot", "general", "concat", "location")
LAYOUTS = ("column", "row")
MASKS = ("none", "causal", "padding")
PARAMETERS = ("W", "Wa_concat", "va", "Wa_location")


def page_story(key, result, values, sizes, mask, lang) -> str:
    """The preset's story as the page tells it for this run (the learner's parameters: the
    values' own)."""
    inputs = Inputs(values, result.score, result.layout, result.temperature, mask)
    return preset_story(key, Run(result, inputs, sizes, values), lang)


def preset_inputs(key: str) -> tuple[dict[str, np.ndarray], object]:
    preset = PRESETS[key]
    matrices = preset.column_matrices()
    if key == RANDOM:
        matrices.update(random_matrices(preset.sizes, 0))
    return matrices, preset.sizes


def column_mask(kind: str, sizes, length: int) -> np.ndarray | None:
    if kind == "causal":
        return causal_mask(sizes.m, sizes.n)
    if kind == "padding":
        return padding_mask(sizes.m, sizes.n, length)
    return None


def run(values, score, *, layout="column", mask=None, temperature=1.0):
    """The page's own computation (luong/compute.py), as the view, tasks and export call it."""
    return compute(Inputs(values, score, layout, temperature, mask))


def states(key: str):
    """(score, layout, mask kind, engine result, page values in layout, mask in layout)."""
    matrices, sizes = preset_inputs(key)
    for score, layout, kind in itertools.product(SCORES, LAYOUTS, MASKS):
        if score not in applicable_scores(sizes):
            continue
        mask = column_mask(kind, sizes, PRESETS[key].mask_length)
        values = {n: in_layout(matrices[n], layout) for n in ("Q", "K", "V")}
        values |= {n: matrices[n] for n in PARAMETERS}
        layout_mask = None if mask is None else in_layout(mask, layout)
        result = run(
            values, score, layout=layout, mask=layout_mask, temperature=PRESETS[key].temperature
        )
        yield score, layout, kind, result, values, layout_mask


def per_query(array: np.ndarray, layout: str) -> np.ndarray:
    """m × n (one query per column), whatever the layout."""
    return array if layout == "column" else array.T


def argmax_set(column: np.ndarray) -> tuple[int, ...]:
    """Every key whose weight equals the largest (ties within float noise)."""
    return tuple(int(i) for i in np.flatnonzero(np.isclose(column, column.max(), atol=1e-12)))


def story_oracle(key, score, kind, result, values, mask) -> bool:
    """What each preset's story claims, recomputed plainly from the engine's numbers."""
    A = per_query(result.weights, result.layout)
    Q, K, V = (per_query(values[n], result.layout) for n in ("Q", "K", "V"))
    m, n = A.shape

    def winners_of(run):
        W = per_query(run.weights, run.layout)
        return [argmax_set(W[:, j]) for j in range(W.shape[1])]

    def rerun(other, inputs=values):
        return run(inputs, other, layout=result.layout, mask=mask, temperature=result.temperature)

    own = winners_of(result)
    if key == "first":  # q_j takes mostly k_j's value
        return m >= n and all(own[j] == (j,) and A[j, j] > 0.5 for j in range(n))
    if key == "identity":  # Q = K = I, q_j matches k_j, and every other key keeps some weight
        eye = np.eye(*Q.shape)
        return (
            Q.shape == K.shape
            and np.array_equal(Q, eye)
            and np.array_equal(K, eye)
            and all(own[j] == (j,) for j in range(n))
            and (A > 0).all()
        )
    if key == "near_equal":  # the weight splits between k1 and k2
        return bool((np.minimum(A[0], A[1]) >= 0.2).all() and (abs(A[0] - A[1]) <= 0.2).all())
    if key == "saturate":  # q1: k1 has ≥ 99 %; q2: no key above 90 %, its top two scores
        S = per_query(result.scores, result.layout)  # at most a tenth as far apart as q1's
        gaps = [np.subtract(*sorted(S[:, j])[::-1][:2]) if m > 1 else 0.0 for j in range(n)]
        return n >= 2 and A[0, 0] >= 0.99 and A[:, 1].max() <= 0.9 and gaps[1] <= gaps[0] / 10
    if key == "rotation":  # dot: q_j picks k_j; general: q_j picks k_{j+1}
        dot, general = winners_of(rerun("dot")), winners_of(rerun("general"))
        return m > n and all(dot[j] == (j,) and general[j] == (j + 1,) for j in range(n))
    if key == "large_d":  # dot gives one key most weight; scaled dot less, and soft
        dot = per_query(rerun("dot").weights, result.layout).max(axis=0)
        scaled = per_query(rerun("scaled_dot").weights, result.layout).max(axis=0)
        return bool((dot > 0.5).all() and (dot > scaled).all() and (scaled <= 0.9).all())
    if key == "concat":  # a 2-entry query, 3-entry keys, h = 2
        return Q.shape[0] == 2 and K.shape[0] == 3 and values["va"].size == 2
    if key == "location":  # changing a key moves nothing, not even a score
        shift = 1.0 + 0.37 * np.arange(values["K"].size).reshape(values["K"].shape)
        moved = {**values, "K": values["K"] + shift}  # a different change for every key
        again = rerun(score, moved)
        return bool(np.array_equal(again.scores, result.scores))
    if key == "causal":  # Q = K = V, causal mask, q1's weight on k1 is exactly 1
        return kind == "causal" and (Q == K).all() and (K == V).all() and A[0, 0] == 1.0
    return True  # random: the story claims nothing about the numbers


def check_steps(result, layout, kind, lang) -> None:
    column = layout == "column"
    A = per_query(result.weights, layout)
    masked = np.zeros_like(A, dtype=bool)
    if kind != "none":
        masked = ~np.isfinite(per_query(result.step("masked").value, layout))
    for step in result.steps:
        sentence = step_sentence(step, lang, run_steps=result.steps)  # as the page words it
        assert "{" not in sentence and not sentence.startswith(f"engine.step.{step.key}.")
        value = per_query(step.value, layout)
        if step.key == "shifted":  # "the largest entry becomes 0"
            np.testing.assert_array_equal(value.max(axis=0), 0.0)
        if step.key in ("exponentials", "weights_softmax"):
            # "every entry is positive, except a masked one, which is exactly 0", or, where exp()
            # underflowed: "positive in exact arithmetic, but N of them are stored as exactly 0"
            assert ("masked" in sentence) if lang == "en" else ("マスク" in sentence)
            assert (value[masked] == 0).all()
            underflowed = int((value[~masked] == 0).sum())
            underflow_text = t(
                f"engine.step.{step.key}.sentence_underflow", lang, count=underflowed
            )
            assert (sentence == underflow_text) == (underflowed > 0), (step.key, sentence)
            assert (value[~masked] >= 0).all()
        if step.key == "masked":  # "their weight will be exactly 0"
            assert kind != "none" and (A[masked] == 0).all()
        if step.key == "weights_softmax":  # each query's weights sum to 1
            np.testing.assert_allclose(A.sum(axis=0), 1.0, rtol=0, atol=1e-12)
        if step.key.startswith("temperature_"):  # "τ = …" names this run's temperature
            assert f"τ = {fmt(result.temperature)}" in sentence
            assert result.temperature != 1.0  # the step is shown only when τ does something
        if step.key == "scaled":  # names d_k and √d_k of this run
            d_k = step.params["d_k"]
            assert f"d_k = {d_k}" in sentence
        if step.key == "output":  # a mix of the values weighted by the attention weights
            V_col = per_query(result.step("output").value, layout)
            assert V_col.shape[1] == A.shape[1]
    # The line under A: "each query's weights add up to: …" with the engine's own sums.
    sums = result.weights.sum(axis=0 if column else 1)
    line = t("luong.results.sums", lang, sums=" · ".join(fmt(s) for s in sums))
    assert all(fmt(s) == fmt(1.0) for s in sums), line


def check_follow(result, values, lang) -> None:
    """Every (key, query) pair of "Follow one entry": the vectors, the share, o = Σ a v."""
    layout = result.layout
    A = per_query(result.weights, layout)
    V = per_query(values["V"], layout)
    out = per_query(result.output, layout)
    np.testing.assert_allclose(out, V @ A, rtol=1e-12, atol=1e-12)
    params = engine_parameters(result.score, values)
    m, n = A.shape
    for i, j in itertools.product(range(m), range(n)):
        trace = trace_entry(result, values["Q"], values["V"], i, j, params)
        sentence = vectors_sentence(trace, "luong", lang)
        names = [name for name, _ in trace.vectors]
        if result.score == "location":  # the keys are not used: no k in the table or text
            assert not any(name.startswith("k") for name in names[:2])
            assert f"k{i + 1}".translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")) not in sentence
        # Each product row is the product of the two vectors; their sum is the raw score.
        if result.score in ("dot", "scaled_dot", "general", "location"):
            (_, left), (_, right), (_, products) = trace.vectors[:3]
            np.testing.assert_allclose(products, left * right, rtol=1e-12)
            assert products.sum() == pytest.approx(trace.raw_score, rel=1e-12, abs=1e-12)
        # "k enters q's output with the weight a = w: the output is p % of k's value plus …"
        assert trace.weight == A[i, j]
        share = t(
            "luong.steps.share",
            lang,
            kname="k",
            qname="q",
            name="a",
            weight=fmt(trace.weight),
            percent=fmt(100 * trace.weight, 3),
        )
        assert fmt(100 * A[i, j], 3) in share
        np.testing.assert_allclose(trace.contribution, A[i, j] * V[:, i], rtol=1e-12)
        np.testing.assert_array_equal(trace.output, out[:, j])


def check_compare(result, values, sizes, mask) -> None:
    """The winner table names exactly the keys of largest weight (every one on a tie), with
    that weight; "the same weights" is said only when no weight differs by 5e-4 or more."""
    learner = {name: values[name] for name in PARAMETERS}
    inputs = Inputs(values, result.score, result.layout, result.temperature, mask)
    comparisons = compare_scores(inputs, sizes, learner, chosen=result)
    table = winner_table(comparisons, result, {s: s for s in SCORES})
    for comparison in comparisons:
        A = per_query(comparison.result.weights, result.layout)
        for j in range(A.shape[1]):
            cell = table.loc[f"q{j + 1}", comparison.score]
            named = cell.split(" (")[0].split(" = ")
            top = A[:, j].max()
            printed_top = [i for i in range(len(A)) if fmt(A[i, j], 3) == fmt(top, 3)]
            assert argmax_set(A[:, j])[0] in printed_top
            assert named == [f"k{i + 1}" for i in printed_top], cell
            assert f"({fmt(A[:, j].max(), 3)})" in cell
        delta, _, _ = largest_change(comparison.result.weights, result.weights)
        same = abs(delta) < 5e-4
        assert same == np.allclose(comparison.result.weights, result.weights, rtol=0, atol=5e-4)


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("key", list(PRESETS))
def test_every_claim_on_the_luong_page_holds_for_the_engines_numbers(key, lang):
    _, sizes = preset_inputs(key)
    walked = 0
    for score, layout, kind, result, values, mask in states(key):
        check_steps(result, layout, kind, lang)
        check_follow(result, values, lang)
        check_compare(result, values, sizes, mask)
        story = page_story(key, result, values, sizes, mask, lang)
        holds = story_oracle(key, score, kind, result, values, mask)
        why = catalog(lang)[f"luong.preset.{key}.why"]
        assert (story == why) == holds, (key, score, layout, kind)
        walked += 1
    assert walked >= 2 * 3 * 3  # at least three scores, two layouts, three masks


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("key", list(PRESETS))
def test_each_presets_story_is_shown_in_its_own_settings(key, layout):
    preset = PRESETS[key]
    _, sizes = preset_inputs(key)
    mask = column_mask(preset.mask, sizes, preset.mask_length)
    for score, lay, kind, result, values, layout_mask in states(key):
        if score == preset.score and lay == layout and kind == preset.mask:
            for lang in LANGUAGES:
                story = page_story(key, result, values, sizes, layout_mask, lang)
                assert story == catalog(lang)[f"luong.preset.{key}.why"]
            return
    pytest.fail(f"{key}: its own settings were not walked ({mask is not None})")


@pytest.mark.parametrize(
    ("key", "score", "kind"),
    [
        ("first", "concat", "none"),  # concat sends q1 to k2
        ("first", "dot", "padding"),  # q2 can only see k1
        ("causal", "dot", "none"),  # without the mask q1's weight on k1 is not 1
        ("saturate", "concat", "none"),  # concat does not saturate
        ("near_equal", "location", "none"),  # no split
        ("rotation", "dot", "padding"),  # with one visible key nobody picks "the next key"
        ("location", "dot", "none"),  # with dot, changing a key does move the weights
    ],
)
def test_a_presets_story_is_replaced_where_its_numbers_no_longer_bear_it_out(key, score, kind):
    _, sizes = preset_inputs(key)
    found = 0
    for s, _layout, k, result, values, mask in states(key):
        if (s, k) == (score, kind):
            found += 1
            for lang in LANGUAGES:
                story = page_story(key, result, values, sizes, mask, lang)
                assert story != catalog(lang)[f"luong.preset.{key}.why"]
                assert catalog(lang)[f"luong.preset.{key}.name"] in story
    assert found == len(LAYOUTS)


# --- Beyond the presets' own settings: other temperatures, masks cell by cell, edited numbers --

TEMPERATURES = (0.05, 0.5, 1.0, 5.0, 20.0)


def walk_state(key, values, sizes, score, layout, kind, mask, temperature, *, compare=True):
    """Every check of the page's claims on one state (values and mask in `layout`). The
    followed entry's numbers do not depend on the language: its sentences are read in one,
    taking turns, which keeps the walk fast."""
    result = run(values, score, layout=layout, mask=mask, temperature=temperature)
    check_follow(result, values, list(LANGUAGES)[walk_state.turn % len(LANGUAGES)])
    walk_state.turn += 1
    for lang in LANGUAGES:
        check_steps(result, layout, kind, lang)
        story = page_story(key, result, values, sizes, mask, lang)
        holds = story_oracle(key, score, kind, result, values, mask)
        assert (story == catalog(lang)[f"luong.preset.{key}.why"]) == holds, (key, score, kind)
    if compare:
        check_compare(result, values, sizes, mask)
    return result


walk_state.turn = 0


@pytest.mark.parametrize("key", list(PRESETS))
def test_every_claim_holds_at_other_temperatures(key):
    """τ from 0.05 (exp() underflows to exactly 0) to 20 (nearly average pooling)."""
    matrices, sizes = preset_inputs(key)
    values = {n: matrices[n] for n in ("Q", "K", "V", *PARAMETERS)}
    walked = 0
    for tau, score, kind in itertools.product(TEMPERATURES, SCORES, ("none", "causal")):
        if score in applicable_scores(sizes):
            mask = column_mask(kind, sizes, PRESETS[key].mask_length)
            walk_state(key, values, sizes, score, "column", kind, mask, tau, compare=tau != 1.0)
            walked += 1
    assert walked >= len(TEMPERATURES) * 2 * 3


def cell_masks(sizes, seed: int) -> list[np.ndarray]:
    """Seeded per-cell masks (m × n), each query keeping at least one visible key: about half
    the cells hidden, a single visible key per query, and every key visible but the first."""
    rng = np.random.default_rng(seed)
    m, n = sizes.m, sizes.n
    half = rng.random((m, n)) < 0.5
    half[rng.integers(0, m, n), np.arange(n)] = True
    single = np.zeros((m, n), dtype=bool)
    single[rng.integers(0, m, n), np.arange(n)] = True
    but_first = np.ones((m, n), dtype=bool)
    but_first[0, :] = m == 1  # a lone key stays visible
    return [half, single, but_first]


@pytest.mark.parametrize("key", list(PRESETS))
def test_every_claim_holds_with_masks_ticked_cell_by_cell(key):
    matrices, sizes = preset_inputs(key)
    walked = 0
    for seed, layout in itertools.product(range(2), LAYOUTS):
        values = {n: in_layout(matrices[n], layout) for n in ("Q", "K", "V")}
        values |= {n: matrices[n] for n in PARAMETERS}
        for mask, score in itertools.product(cell_masks(sizes, seed), SCORES):
            if score in applicable_scores(sizes):
                layout_mask = in_layout(mask, layout)
                tau = PRESETS[key].temperature
                compare = layout == "column"
                walk_state(
                    key, values, sizes, score, layout, "cells", layout_mask, tau, compare=compare
                )
                walked += 1
    assert walked >= 2 * 2 * 3 * 3


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_query_with_every_key_unticked_is_named_and_nothing_is_claimed(layout):
    """The page computes nothing for it: the engine's error names that query, in the
    learner's numbering (query j is column j, or row j in row layout), in both languages."""
    from attention_core import AttentionInputError
    from attention_ui.kit.text.i18n import error_text

    matrices, sizes = preset_inputs("identity")
    values = {n: in_layout(matrices[n], layout) for n in ("Q", "K", "V")}
    values |= {n: matrices[n] for n in PARAMETERS}
    for query in range(sizes.n):
        mask = np.ones((sizes.m, sizes.n), dtype=bool)
        mask[:, query] = False
        with pytest.raises(AttentionInputError) as raised:
            run(values, "dot", layout=layout, mask=in_layout(mask, layout))
        assert raised.value.code == "all_masked" and raised.value.params["query"] == query + 1
        assert f"Query {query + 1} has every key masked" in error_text(raised.value, "en")
        assert f"{query + 1}" in error_text(raised.value, "ja")


def edited(matrices, sizes, seed: int) -> dict[str, np.ndarray]:
    """The preset's sizes with numbers a learner might type: small integers (ties, zeros,
    negatives), a few halves, sometimes a whole row of zeros."""
    rng = np.random.default_rng(seed)
    values = {}
    for name in ("Q", "K", "V", *PARAMETERS):
        shape = matrices[name].shape
        numbers = rng.integers(-2, 3, shape).astype(float)
        numbers += np.where(rng.random(shape) < 0.2, 0.5, 0.0)
        if name in ("Q", "K") and rng.random() < 0.3:
            numbers[0] = 0.0
        values[name] = numbers
    return values


@pytest.mark.parametrize("key", list(PRESETS))
def test_every_claim_holds_for_edited_numbers(key):
    """Seeded edits of every matrix (ties, negative weights, zeros) under each preset's name:
    the story is shown only where the edited numbers still bear it out."""
    matrices, sizes = preset_inputs(key)
    walked = 0
    for seed in range(3):
        column_values = edited(matrices, sizes, seed)
        for score, layout, kind in itertools.product(SCORES, LAYOUTS, MASKS):
            if score not in applicable_scores(sizes):
                continue
            values = {n: in_layout(column_values[n], layout) for n in ("Q", "K", "V")}
            values |= {n: column_values[n] for n in PARAMETERS}
            mask = column_mask(kind, sizes, PRESETS[key].mask_length)
            layout_mask = None if mask is None else in_layout(mask, layout)
            tau = PRESETS[key].temperature
            # the comparison is layout-free (the walk above compares in both layouts)
            compare = layout == "column"
            walk_state(key, values, sizes, score, layout, kind, layout_mask, tau, compare=compare)
            walked += 1
    assert walked >= 3 * 3 * 2 * 3


def test_the_app_words_every_step_with_its_runs_steps():
    """step_sentence can say "exactly 0 after underflow" only when it is given the run's steps
    (to tell a masked 0 from an underflowed one): every use in the app passes them."""
    import ast

    from tests.conftest import REPO

    uses = 0
    for path in sorted((REPO / "attention_ui").rglob("*.py")):
        if path.name == "i18n.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = {
            id(node.func): node
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id == "step_sentence":  # imports are not Names
                call = calls.get(id(node))
                assert call is not None, f"{path.name}: step_sentence passed on uncalled"
                assert "run_steps" in {k.arg for k in call.keywords}, path.name
                uses += 1
    assert uses >= 4
