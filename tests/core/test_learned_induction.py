"""Induction's two heads form with the page's defaults (scaled dot, one head, d_model 16, 600
steps, η = 0.005): on 5 seeds of 5, the first layer's best previous-token score and the last
layer's best prefix-matching score end above 0.5, and both start below it. A slow test, like
test_training_learning.py: five runs of 600 steps (about 15 s of CPU)."""

from __future__ import annotations

import pytest

from attention_core import toy_task, train_attention


@pytest.mark.parametrize("seed", range(5))
def test_both_induction_heads_form_with_the_defaults(seed):
    task = toy_task("induction", seed=seed)
    run = train_attention(task, seed=seed, record_every=600)
    first, last = run.snapshots[0], run.snapshots[-1]
    assert first.previous_token.max() < 0.5 and first.prefix_matching.max() < 0.5
    assert last.previous_token.max() > 0.5
    assert last.prefix_matching.max() > 0.5


def test_one_layer_tasks_record_no_induction_scores():
    run = train_attention(toy_task("reverse", seed=0), steps=10, record_every=10)
    assert run.snapshots[-1].previous_token is None and run.snapshots[-1].prefix_matching is None
