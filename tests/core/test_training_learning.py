"""The tiny attention model learns each toy task with the page's defaults (induction with its
suggested steps and learning rate), and location scores, which never look at the keys, cannot
learn key lookup.

Snapshots are taken only at the start and the end (`record_every=steps`): they read the model
and never the random stream, so the final model is the one a run with the default
record_every ends with (test_training.py checks that a run is a pure function of its
settings).
"""

from __future__ import annotations

import pytest

from attention_core import toy_task, train_attention
from attention_core.learned import induction_curves

SEEDS = range(10)
DEFAULT_STEPS = 600


def final(task_name, seed, **settings):
    steps = settings.pop("steps", DEFAULT_STEPS)
    task = toy_task(task_name, seed=seed)
    run = train_attention(task, seed=seed, steps=steps, record_every=steps, **settings)
    return task, run.snapshots[-1]


@pytest.mark.parametrize("task_name", ["lookup", "reverse", "previous"])
def test_each_task_is_learned_with_the_defaults_in_nine_seeds_of_ten(task_name):
    learned = []
    for seed in SEEDS:
        _, last = final(task_name, seed)
        learned.append(last.accuracy >= 0.99 and last.on_target >= 0.9)
    assert sum(learned) >= 9, learned


def test_the_default_run_is_the_final_snapshot_of_a_run_that_records_every_ten_steps():
    task = toy_task("reverse", seed=0)
    _, last = final("reverse", 0)
    recorded = train_attention(task, seed=0)
    assert recorded.snapshots[-1].accuracy == last.accuracy
    assert recorded.snapshots[-1].on_target == last.on_target


@pytest.mark.parametrize("seed", range(3))
def test_location_scores_stay_near_chance_on_key_lookup(seed):
    task, last = final("lookup", seed, score="location")
    assert last.accuracy <= task.chance + 0.1  # chance: one of the four values present
    assert last.on_target <= 0.35  # uniform over the five positions is 0.2


@pytest.mark.parametrize("task_name", ["reverse", "previous"])
def test_location_scores_learn_the_tasks_that_depend_only_on_positions(task_name):
    _, last = final(task_name, 0, score="location")
    assert last.accuracy >= 0.99 and last.on_target >= 0.9


@pytest.mark.parametrize("seed", range(5))
def test_two_layers_learn_induction_on_the_repeated_half(seed):
    """With the defaults, in 5 seeds of 5: the task is learned, and the two halves of an
    induction head (Olsson et al. 2022) have formed: the best first-layer head's
    previous-token score and the best last-layer head's prefix-matching score end above 0.5."""
    task = toy_task("induction", seed=seed)
    steps = task.suggested_steps
    run = train_attention(
        task,
        seed=seed,
        steps=steps,
        learning_rate=task.suggested_learning_rate,
        record_every=steps,
    )
    assert run.layers == 2
    assert run.accuracy[-1] >= 0.95  # every output of the task is in the repeated half
    curves = induction_curves(run)
    assert curves.previous_token[-1].max() > 0.5, curves.previous_token[-1]
    assert curves.prefix_matching[-1].max() > 0.5, curves.prefix_matching[-1]
