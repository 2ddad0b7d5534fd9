"""The training page's own computations: a typed input through the trained model (its heads
recomputed by the engine's attention() give the model's own weights), each head's learned
score matrix, and the sentences about runs, shown only when their numbers hold."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core.training import model_forward
from attention_ui.train import claims, compute, runs
from attention_ui.train.state import settings_of
from tests.support.train import polled


def finished(**values):
    job = runs.job(settings_of({f"train.{k}": v for k, v in values.items()}), compute.train)
    seen = polled(job)
    assert seen.error is None
    return seen.result


@pytest.mark.parametrize("score", ["dot", "scaled_dot", "general", "concat", "location"])
@pytest.mark.parametrize("task", ["lookup", "reverse", "previous", "induction"])
def test_the_heads_recomputed_by_attention_are_the_models_own(task, score):
    run = finished(task=task, score=score, steps=20, heads=2, d_model=8)
    t = compute.task_of(task, 0)
    tokens = t.held_out.inputs[3]
    answer = compute.answer(run, t, tokens)
    model = model_forward(
        run.params, tokens[None], t.outputs, score, 2, causal=t.causal, features=t.features
    )
    for head, result in enumerate(answer.heads):
        np.testing.assert_allclose(result.weights, model.layers[-1].weights[head, 0].T, atol=1e-12)
    np.testing.assert_array_equal(answer.predictions, model.predictions[0])
    np.testing.assert_array_equal(answer.expected, t.held_out.targets[3])


def test_typed_tokens_are_read_as_the_tasks_labels():
    t = compute.task_of("lookup", 0)
    labels = [t.tokens[int(i)] for i in t.inputs[0]]
    typed = " ".join(label.replace("→", "") for label in labels)  # "C5" for "C→5"
    parsed = compute.parse_tokens(typed, t)
    np.testing.assert_array_equal(parsed.tokens, t.inputs[0])
    assert compute.parse_tokens("", t).problem[0] == "empty"
    assert compute.parse_tokens("A0 B1", t).problem == ("count", {"count": 2, "length": 5})
    assert compute.parse_tokens("A0 zz", t).problem == ("unknown", {"number": 2, "token": "zz"})


def test_the_learned_score_matrix_gives_the_models_scores():
    run = finished(task="reverse", score="general", steps=20, heads=2, d_model=8)
    t = compute.task_of("reverse", 0)
    x = run.params["E"][t.inputs[0]] + run.params["P"]  # L × d
    model = model_forward(run.params, t.inputs[:1], t.outputs, "general", 2)
    for head in range(2):
        matrix, rows, cols = compute.score_matrix(run.params, "general", 2, head)
        assert (rows, cols) == ("query_entry", "key_entry")
        scores = x[t.read_at] @ matrix @ x.T  # T × L
        np.testing.assert_allclose(scores.T, model.layers[-1].parts["S"][head, 0], atol=1e-10)


def test_a_run_sentence_is_the_one_its_numbers_support():
    learned = finished(task="reverse", steps=600)
    said = claims.run_claims(learned, 0.1)
    assert said[0].key == "learned"
    first = said[0].numbers["step"]
    assert learned.accuracy[list(learned.snapshot_steps).index(first)] >= claims.LEARNED
    assert all(
        a < claims.LEARNED
        for s, a in zip(learned.snapshot_steps, learned.accuracy, strict=True)
        if s < first
    )
    early = finished(task="reverse", steps=10)
    assert claims.run_claims(early, 0.1)[0].key in ("near_chance", "not_yet")


def test_location_is_said_to_learn_reversal_only_when_it_does():
    compared = {s: finished(task="reverse", score=s, steps=600) for s in ("scaled_dot", "location")}
    said = claims.location_claims(compared, 0.1)
    if compared["location"].accuracy[-1] >= claims.LEARNED:
        assert [c.key for c in said] == ["location_positions"]
    else:
        assert "location_positions" not in [c.key for c in said]


def test_location_is_said_blind_to_keys_only_when_another_score_learns_the_lookup():
    compared = {s: finished(task="lookup", score=s, steps=600) for s in ("scaled_dot", "location")}
    chance = compute.task_of("lookup", 0).chance
    said = [c.key for c in claims.location_claims(compared, chance)]
    holds = (
        compared["location"].accuracy[-1] < claims.NEAR_CHANCE * chance
        and compared["scaled_dot"].accuracy[-1] >= claims.LEARNED
    )
    assert said == (["location_blind"] if holds else said) and (
        holds or "location_blind" not in said
    )
