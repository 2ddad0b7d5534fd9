"""The training page's numbers: a run of the engine's `train_attention_steps` from the page's
settings, trained in a process of its own (train/worker.py) and reporting as it goes (for
train/runs.py); the task it trains on; what a typed input gives; each head's learned scores."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import multiprocessing
import queue
import re
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

import numpy as np
import streamlit as st

from attention_core import (
    AttentionInputError,
    AttentionResult,
    ToyTask,
    TrainingRun,
    attention,
    toy_task,
)
from attention_core.task_rule import rule_answer
from attention_core.training import (
    Snapshot,
    TrainingSettings,
    model_forward,
    train_attention_steps,
)
from attention_ui.train import worker
from attention_ui.train.state import Settings

TASK_SIZE = 256  # training examples, and as many held out
# About this many snapshots per run, whatever its steps: a run reports its progress at each
# one, so the page's curves grow in about a hundred steps.
SNAPSHOTS = 100


def record_every(steps: int) -> int:
    return max(1, steps // SNAPSHOTS)


@functools.lru_cache(maxsize=16)
def task_of(name: str, seed: int) -> ToyTask:
    """The toy task a run trains on (pure: the same name and seed give the same examples)."""
    return toy_task(name, size=TASK_SIZE, seed=seed)


class TrainingStoppedError(Exception):
    """The training process ended without a run to keep: `code` "killed" (the process was
    killed, or ran out of memory, and died), "memory" (it ran out of memory and said so),
    "bug" (an error in the code), "cancelled" (nobody waited for the run any more)."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(code, detail)
        self.code = code


# report(new losses, new (step, held-out accuracy) pairs, new compact snapshots)
Report = Callable[[list[float], list[tuple[int, float]], tuple], None]


def train(
    settings: Settings, report: Report, stopped: Callable[[], bool], urgent: bool = False
) -> TrainingRun:
    """Train the run of `settings` in the calling lane's training process (train/worker.py),
    reporting each snapshot's new losses, held-out accuracy and compact snapshot as they
    arrive, and stopping the process's run once `stopped()`. Called by a lane of
    train/runs.py, one run at a time per lane, always as urgent or always not: an urgent
    lane's process is forked at the class's niceness, another at the open lane's. Raises
    AttentionInputError for settings the engine refuses, TrainingStoppedError when there is
    no run to keep."""
    request = {**dataclasses.asdict(settings), "size": TASK_SIZE}
    request["record_every"] = record_every(settings.steps)
    run_id = next(_run_ids)
    lane, future = _submitted(run_id, request, urgent)
    while True:
        if stopped():
            lane.stop.set()
        try:
            kind, sender, loss, snapshot = lane.progress.get(timeout=POLL_SECONDS)
        except queue.Empty:
            if future.done():  # every report was put before the run returned
                break
            continue
        if kind == "progress" and sender == run_id:  # not a cancelled run's last words
            report(loss, [(snapshot.step, snapshot.accuracy)], (snapshot,))
    return _outcome(future, lane)


def _submitted(run_id: int, request: dict, urgent: bool) -> tuple[_Lane, Future]:
    """The run handed to the calling lane's training process; a process that died while the
    lane was idle (killed, out of memory) is replaced first: its pool takes no more calls."""
    lane = _lane(urgent)
    try:
        # A call that answers: its process lives. One dead, even if its pool had not noticed
        # yet, breaks the pool here (the pool watches its process), not the run.
        lane.pool.submit(worker.ready).result()
        lane.stop.clear()
        return lane, lane.pool.submit(worker.train, run_id, request)
    except BrokenProcessPool:
        _drop(lane)
    lane = _lane(urgent)
    lane.stop.clear()
    return lane, lane.pool.submit(worker.train, run_id, request)


def _drop(lane: _Lane) -> None:
    """Forget the calling thread's lane whose process died: its next run forks another."""
    _lanes.pop(threading.current_thread().name, None)
    lane.pool.shutdown(wait=False, cancel_futures=True)


def _outcome(future: Future, lane: _Lane) -> TrainingRun:
    try:
        outcome = future.result()
    except BrokenProcessPool:  # the process died: the lane's next run forks another
        _drop(lane)
        raise TrainingStoppedError("killed") from None
    if outcome[0] == "done":
        return outcome[1]
    if outcome[0] == "refused":
        raise AttentionInputError(outcome[1], **outcome[2])
    if outcome[0] == "cancelled":
        raise TrainingStoppedError("cancelled")
    raise TrainingStoppedError(outcome[1], outcome[2])


# A lane's training process: a ProcessPoolExecutor of one forked worker, given the lane's
# progress queue and stop event when forked. The pool runs a call and returns its result (or
# BrokenProcessPool when its process dies, and then takes no more calls); it cannot report
# from a running call nor stop one: the queue and the event do.
#
# Forked: "spawn" and "forkserver" start the child by importing the parent's `__main__`,
# which under Streamlit is the page script (it fails outside a session).
_FORK = multiprocessing.get_context("fork")
POLL_SECONDS = 0.25  # how often a lane looks whether its run is still waited for


@dataclass(frozen=True)
class _Lane:
    pool: ProcessPoolExecutor
    progress: Any  # multiprocessing.Queue
    stop: Any  # multiprocessing.Event
    pid: int  # the pool's one process


_lanes: dict[str, _Lane] = {}  # by the name of the lane's thread
_run_ids = itertools.count(1)


def _lane(urgent: bool) -> _Lane:
    name = threading.current_thread().name
    if name not in _lanes:
        inherited = worker.open_files()
        progress, stop = _FORK.Queue(), _FORK.Event()
        nice = worker.CLASS_NICE if urgent else worker.OPEN_NICE
        pool = ProcessPoolExecutor(
            1,
            mp_context=_FORK,
            initializer=worker.start,
            initargs=(inherited, progress, stop, nice),
        )
        pid = pool.submit(worker.ready).result()  # forked now, before more files are opened
        _lanes[name] = _Lane(pool, progress, stop, pid)
    return _lanes[name]


def training_pids() -> list[int]:
    """The lanes' training processes (tests, bench)."""
    return [lane.pid for lane in _lanes.values()]


def stop_processes() -> None:
    """End every lane's training process (tests)."""
    for name in list(_lanes):
        _lanes.pop(name).pool.shutdown(wait=True, cancel_futures=True)


@st.cache_data(max_entries=64, show_spinner=False)
def initial_snapshot(settings: Settings) -> Snapshot:
    """The model of these settings at step 0, as initialised from the seed: the engine's own
    first snapshot (`train_attention_steps` yields it before any step), the same arrays as the
    finished run's snapshot 0. Raises the engine's refusal for settings it refuses."""
    task = task_of(settings.task, settings.seed)
    asked = TrainingSettings(
        score=settings.score,
        heads=settings.heads,
        d_model=settings.d_model,
        steps=settings.steps,
        learning_rate=settings.learning_rate,
        seed=settings.seed,
        record_every=record_every(settings.steps),
    )
    return next(train_attention_steps(task, asked)).snapshot


def first_step_reaching(run: TrainingRun, accuracy: float) -> int | None:
    """The first snapshot step whose held-out accuracy is at least `accuracy`, else None."""
    reached = np.flatnonzero(run.accuracy >= accuracy)
    return int(run.snapshot_steps[reached[0]]) if reached.size else None


# ---------------------------------------------------------------------------------------------
# What each head learned


def score_matrix_kind(score: str) -> str:
    """Which matrix `score_matrix` draws for this score function (a catalog key's last part)."""
    return {"concat": "concat", "location": "location"}.get(score, "bilinear")


def score_matrix(
    params: dict[str, np.ndarray], score: str, heads: int, head: int
) -> tuple[np.ndarray, str, str]:
    """Head `head`'s learned scoring, as one matrix, and what its rows and columns are.

    dot, scaled dot: score(x_t, x_j) = x_t W_Q,h W_K,hᵀ x_jᵀ (/ √d_h): W_Q,h W_K,hᵀ, d × d,
    query entries × key entries; general: kᵀ W q = x_t W_Q,h Wᵀ W_K,hᵀ x_jᵀ: W_Q,h Wᵀ W_K,hᵀ;
    concat: its W_a (d_h × 2 d_h: hidden units × [q; k]); location: its W_a (L × d_h: one
    row of weights per key position, read from the query alone).
    """
    d = params["W_Q"].shape[0]
    d_h = d // heads
    cols = slice(head * d_h, (head + 1) * d_h)
    if score == "concat":
        return params["W_a"][head], "hidden", "concat"
    if score == "location":
        return params["W_a"][head], "position", "query_entry"
    middle = params["W"][head].T if score == "general" else np.eye(d_h)
    matrix = params["W_Q"][:, cols] @ middle @ params["W_K"][:, cols].T  # d × d
    if score == "scaled_dot":
        matrix = matrix / np.sqrt(d_h)
    return matrix, "query_entry", "key_entry"


# ---------------------------------------------------------------------------------------------
# A row of tokens the learner types


@dataclass(frozen=True)
class Parsed:
    tokens: np.ndarray | None  # L ids
    problem: tuple[str, dict] | None = None  # a catalog key's last part and its numbers


_JOINERS = re.compile(r"→|->|>|=|:|-")


def _plain(label: str) -> str:
    """A token label as it may be typed: 'C→5', 'C>5', 'C5' and 'c5' are the same token."""
    return _JOINERS.sub("", label).strip().casefold()


def parse_tokens(text: object, task: ToyTask) -> Parsed:
    """The task's token ids of `text`, tokens separated by spaces; exactly task.length of
    them, each one of the task's tokens."""
    words = str(text or "").split()
    if not words:
        return Parsed(None, ("empty", {"length": task.length}))
    known = {_plain(label): index for index, label in enumerate(task.tokens)}
    ids = []
    for number, word in enumerate(words[: task.length + 1], start=1):
        if _plain(word) not in known:
            return Parsed(None, ("unknown", {"number": number, "token": word}))
        ids.append(known[_plain(word)])
    if len(words) != task.length:
        return Parsed(None, ("count", {"count": len(words), "length": task.length}))
    return Parsed(np.array(ids, dtype=np.int64))


@dataclass(frozen=True)
class Answer:
    predictions: np.ndarray  # T: the model's answer, token ids
    expected: np.ndarray | None  # T: the task's answer by its rule, None when it has none
    problem: tuple[str, dict] | None  # why the rule has no answer (task_rule.rule_answer)
    heads: tuple[AttentionResult, ...]  # the last layer's heads on this input, with their steps


def answer(run: TrainingRun, task: ToyTask, tokens: np.ndarray) -> Answer:
    """The trained model (final parameters) on one row of tokens; each head of its last layer
    recomputed by the engine's `attention` from that layer's queries, keys and values in the
    row layout (one output per row, one input position per column, as the snapshot heatmap),
    which gives the same weights with every step recorded; and the task's own answer, by its
    rule (attention_core/task_rule.py), for any row the rule can answer."""
    outputs = task.outputs
    passed = model_forward(
        run.params,
        tokens[None, :],
        outputs,
        run.score,
        run.heads,
        causal=task.causal,
        features=task.features,
    )
    layer = passed.layers[-1]
    mask = None
    if task.causal:  # the output at position t sees key j when j ≤ t: T × L in rows
        mask = np.arange(task.length)[layer.read][:, None] >= np.arange(task.length)[None, :]
    p = {name: run.params[name] for name in ("W", "W_a", "v_a") if name in run.params}
    results = []
    for head in range(run.heads):
        q, v = layer.q[head, 0].T, layer.v[head, 0].T  # T × d_h, L × d_h
        k = v if layer.k is None else layer.k[head, 0].T  # location reads no key
        extra = {}
        if run.score == "general":
            extra["W"] = p["W"][head]
        elif run.score == "concat":
            extra = {"Wa": p["W_a"][head], "va": p["v_a"][head]}
        elif run.score == "location":
            extra["Wa"] = p["W_a"][head]
        results.append(attention(q, k, v, run.score, mask=mask, layout="row", **extra))
    rule = rule_answer(task, tokens)
    return Answer(passed.predictions[0], rule.targets, rule.problem, tuple(results))
