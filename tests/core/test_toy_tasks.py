"""The toy tasks of attention_core/toy_tasks.py against their definitions, by plain loops."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import toy_task
from attention_core.toy_tasks import LOOKUP_KEYS, LOOKUP_PAIRS, LOOKUP_VALUES, TASKS


def both_sets(task):
    return (task, task.held_out)


@pytest.mark.parametrize("name", TASKS)
def test_each_output_attends_to_the_position_that_holds_its_answer(name):
    task = toy_task(name, size=64, seed=1)
    for part in both_sets(task):
        assert part.inputs.shape == (64, part.length)
        assert part.targets.shape == part.attend.shape == (64, part.outputs)
        for row, targets, attend in zip(part.inputs, part.targets, part.attend, strict=True):
            for t, (target, position) in enumerate(zip(targets, attend, strict=True)):
                held = part.tokens[row[position]]
                answer = part.tokens[target]
                if name == "lookup":  # the pair "C→5" holds the answer "5"
                    assert held.endswith("→" + answer)
                else:
                    assert held == answer
                if part.causal:  # the answer is visible to the output reading it
                    assert position <= part.read_at[t]


def test_lookup_asks_for_one_of_four_distinct_keys_and_answers_its_value():
    task = toy_task("lookup", size=200, seed=2)
    k, v = len(LOOKUP_KEYS), len(LOOKUP_VALUES)
    for row, target in zip(task.inputs, task.targets[:, 0], strict=True):
        pairs = [task.tokens[token] for token in row[:LOOKUP_PAIRS]]
        keys = [pair.split("→")[0] for pair in pairs]
        values = [pair.split("→")[1] for pair in pairs]
        assert len(set(keys)) == len(set(values)) == LOOKUP_PAIRS
        query = task.tokens[row[-1]]
        assert query.endswith("?") and query[:-1] in keys
        assert task.tokens[target] == values[keys.index(query[:-1])]
    assert task.vocab == k * v + k + v
    assert task.chance == 1 / LOOKUP_PAIRS


def test_the_answering_pair_stands_at_any_of_the_four_positions_drawn_at_random():
    """What the location sentence says: the pair that answers is at one of the four positions,
    drawn for each example, so many examples share a position and a fixed preference for one
    finds it in about one example in four."""
    task = toy_task("lookup", size=2000, seed=0)
    where = task.attend[:, 0]
    shares = np.bincount(where, minlength=LOOKUP_PAIRS) / len(where)
    assert set(where) == set(range(LOOKUP_PAIRS))
    assert np.all(np.abs(shares - 1 / LOOKUP_PAIRS) < 0.04), shares


def test_a_lookup_pair_is_made_of_its_key_and_its_value():
    task = toy_task("lookup", size=16)
    for token, label in enumerate(task.tokens):
        made_of = [task.feature_names[f] for f in np.flatnonzero(task.features[token])]
        if "→" in label:
            assert made_of == label.split("→")
        else:  # a query "C?" and an answer "5" are features of their own
            assert made_of == [label]


def test_reverse_and_previous_are_what_their_names_say():
    reverse = toy_task("reverse", size=32)
    assert np.array_equal(reverse.targets, reverse.inputs[:, ::-1])
    assert not reverse.causal
    previous = toy_task("previous", size=32)
    assert np.array_equal(previous.targets, previous.inputs[:, :-1])
    assert list(previous.read_at) == list(range(1, previous.length))
    assert previous.causal


def test_induction_answers_with_what_followed_the_token_the_first_time():
    task = toy_task("induction", size=100, seed=4)
    half = task.length // 2
    assert task.layers == 2 and task.causal
    for row, targets in zip(task.inputs, task.targets, strict=True):
        assert len(set(row[:half])) == half and sorted(row[half:]) == sorted(row[:half])
        for t, target in zip(range(half, task.length), targets, strict=True):
            first = list(row).index(row[t])
            assert target == row[first + 1]


@pytest.mark.parametrize("name", TASKS)
def test_training_and_held_out_examples_share_no_row(name):
    task = toy_task(name, size=512, seed=7)
    seen = {tuple(row) for row in task.inputs}
    assert len(seen) == 512
    assert not seen & {tuple(row) for row in task.held_out.inputs}


def test_a_task_is_a_pure_function_of_its_name_size_and_seed():
    first, again = toy_task("reverse", 64, seed=9), toy_task("reverse", 64, seed=9)
    assert np.array_equal(first.inputs, again.inputs)
    assert np.array_equal(first.held_out.inputs, again.held_out.inputs)
    assert not np.array_equal(first.inputs, toy_task("reverse", 64, seed=10).inputs)
