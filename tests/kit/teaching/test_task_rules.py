"""The checked tasks: each one is solved by a known state (its worked solution where it has
numbers) and failed by another, and a state that does not fit says why instead of raising."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import toy_task, train_attention
from attention_ui.exercises import state as ex
from attention_ui.kit.grids.records_editor import D2L_RECORDS
from attention_ui.kit.teaching.tasks import check
from attention_ui.page_list import PAGES, TASKS
from attention_ui.train import compute as train_compute
from attention_ui.train.state import settings_of

BY_ID = {task.id: task for task in TASKS}
WITHOUT_LI = [r for r in D2L_RECORDS if r[0] != "Li"]
Q = np.array([[1.0, 0.0], [0.0, 1.0]])
K = np.array([[1.0, 0.0, -1.0], [0.0, 1.0, 0.0]])
V = np.array([[10.0, 20.0, 30.0], [0.0, 5.0, 1.0]])
k3, q2 = K[:, 2], Q[:, 1]
W_AIMED = 20 * np.outer(k3, q2) / (k3 @ k3 * (q2 @ q2))  # the worked solution's W
LUONG = {"Q": Q, "K": K, "V": V, "score": "general", "W": np.eye(2), "tau": 1.0}
GALLERY_VALUES = np.array([[1.0, 0.5], [0.5, 2.0], [2.0, 1.5]])
GALLERY = {"values": GALLERY_VALUES, "q": (1.0, 1.0), "tau": 1.0, "normalization": "softmax"}
EXERCISES = {
    "points": GALLERY_VALUES,
    "q": [1.0, 0.5],
    "tau": 1.0,
    "X": ex.MATRICES[ex.SE_X],
    "W1": ex.MATRICES[ex.SE_W1],
    "W2": ex.MATRICES[ex.SE_W2],
    "keys": ex.MATRICES[ex.SEARCH_KEYS].T,
    "start": np.array([-1.0, -1.0]),
    "target": 1,
    "rate": 0.5,
    "steps": 20,
}


def _trained(**values):
    settings = settings_of({f"train.{k}": v for k, v in values.items()})
    task = toy_task(settings.task, size=train_compute.TASK_SIZE, seed=settings.seed)
    run = train_attention(
        task,
        score=settings.score,
        heads=settings.heads,
        d_model=settings.d_model,
        steps=settings.steps,
        learning_rate=settings.learning_rate,
        seed=settings.seed,
        record_every=train_compute.record_every(settings.steps),
    )
    return {"settings": settings, "run": run}


LOOKUP_LEARNED = _trained(task="lookup")  # the page's defaults
LOOKUP_EARLY = _trained(task="lookup", steps=10)
LOCATION = _trained(task="lookup", score="location", steps=200)
# the learned lookup run, as if location had been chosen: a state the rule must not pass
LOCATION_NOT_BLIND = {**LOOKUP_LEARNED, "settings": LOCATION["settings"]}

# (task, a state that solves it, a state that does not)
CASES = [
    ("train_lookup", LOOKUP_LEARNED, LOOKUP_EARLY),
    ("train_location_blind", LOCATION, LOCATION_NOT_BLIND),
    ("luong_focus", {**LUONG, "W": W_AIMED}, LUONG),
    ("luong_mean", {**LUONG, "Q": np.zeros((2, 2))}, LUONG),
    (
        "database_lipton",
        {"records": WITHOUT_LI, "query": "Li", "similarity": "ngram", "tau": 0.05},
        {"records": WITHOUT_LI, "query": "Li", "similarity": "ngram", "tau": 0.1},
    ),
    (
        "database_uniform",
        {"records": D2L_RECORDS, "query": "Li", "similarity": "ngram", "tau": 100.0},
        {"records": D2L_RECORDS, "query": "Li", "similarity": "ngram", "tau": 0.1},
    ),
    ("gallery_one_hot", {**GALLERY, "q": (3.0, 0.0), "tau": 0.1}, GALLERY),
    ("gallery_mean", {**GALLERY, "q": (0.0, 0.0)}, GALLERY),
    ("exercise_small_gradient", {**EXERCISES, "q": [10.0, 0.0]}, EXERCISES),
    (
        "exercise_open_gates",
        {**EXERCISES, "W1": np.ones((2, 3)), "W2": np.full((3, 2), 2.0)},
        EXERCISES,
    ),
    ("exercise_quick_search", {**EXERCISES, "rate": 3.0}, EXERCISES),
]


@pytest.mark.parametrize(("task_id", "solving", "failing"), CASES, ids=[c[0] for c in CASES])
def test_a_known_state_solves_the_task_and_another_does_not(task_id, solving, failing):
    solved, unsolved = check(BY_ID[task_id], solving), check(BY_ID[task_id], failing)
    assert solved.solved and solved.reason is None
    assert not unsolved.solved and unsolved.reason is None
    assert unsolved.params  # how far off the learner is


def test_every_task_has_a_case_and_the_pages_share_them_out():
    assert {case[0] for case in CASES} == set(BY_ID)
    assert len(TASKS) >= 8
    assert {task.page for task in TASKS} == {"luong", "database", "gallery", "exercises", "train"}
    by_page = {page.name: page.tasks for page in PAGES}
    assert all(len(by_page[page]) >= 2 for page in ("luong", "database", "gallery", "exercises"))


@pytest.mark.parametrize(
    ("task_id", "snapshot", "reason"),
    [
        ("luong_focus", {**LUONG, "score": "dot"}, "needs_general"),
        ("luong_focus", {**LUONG, "K": K[:, :2], "V": V[:, :2]}, "needs_two_queries_three_keys"),
        (
            "database_lipton",
            {"records": D2L_RECORDS, "query": "Li", "similarity": "ngram", "tau": 0.1},
            "needs_no_li",
        ),
        (
            "database_lipton",
            {"records": WITHOUT_LI, "query": "Hu", "similarity": "ngram", "tau": 0.1},
            "needs_query_li",
        ),
        ("luong_mean", {**LUONG, "Q": np.zeros((2, 2)), "mask": "causal"}, "needs_no_mask"),
        ("exercise_quick_search", {**EXERCISES, "steps": 200}, "needs_few_steps"),
        ("exercise_quick_search", {**EXERCISES, "rate": 0.0}, "engine_refuses"),
        ("gallery_mean", None, "no_inputs"),
        ("train_lookup", {"settings": settings_of({}), "run": None}, "needs_run"),
        (
            "train_location_blind",
            {"settings": settings_of({"train.score": "location"}), "run": None},
            "needs_run",
        ),
    ],
)
def test_a_state_that_does_not_fit_says_why(task_id, snapshot, reason):
    progress = check(BY_ID[task_id], snapshot)
    assert not progress.solved and progress.reason == f"tasks.reason.{reason}"
