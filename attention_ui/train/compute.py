"""The training page's numbers: a run of the engine's `train_attention_steps` from the page's
settings, trained in a process of its own (train/worker.py) and reporting as it goes (for
train/runs.py); the task it trains on; what a typed input gives; each head's learned scores."""

from __future__ import annotations

import dataclasses
import functools
import multiprocessing
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection

import numpy as np

from attention_core import (
    AttentionInputError,
    AttentionResult,
    ToyTask,
    TrainingRun,
    attention,
    toy_task,
)
from attention_core.task_rule import rule_answer
from attention_core.training import model_forward
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


def train(
    settings: Settings, report: Callable[[list[float], list[tuple[int, float]]], None]
) -> TrainingRun:
    """Train the run of `settings` in the training process (train/worker.py), reporting each
    snapshot's new losses and held-out accuracy as they arrive. Called by the runs' one
    worker thread (train/runs.py), so the process trains one run at a time."""
    request = {**dataclasses.asdict(settings), "size": TASK_SIZE}
    request["record_every"] = record_every(settings.steps)
    with _process_lock:
        connection = _connection()
        try:
            connection.send(request)
            while True:
                kind, payload = connection.recv()
                if kind == "progress":
                    report(*payload)
                elif kind == "done":
                    return payload
                elif kind == "refused":
                    code, params = payload
                    raise AttentionInputError(code, **params)
                else:
                    raise RuntimeError(payload)
        except (EOFError, OSError) as lost:  # the process died: the next run starts another
            _stop()
            raise RuntimeError("the training process ended") from lost


# Forked: "spawn" and "forkserver" start the child by running the parent's `__main__` again,
# which under Streamlit is the page script (it fails outside a session). The forked child runs
# worker.serve alone: NumPy, the engine and its pipe, no lock of the server's threads.
_SPAWN = multiprocessing.get_context("fork")
_process_lock = threading.Lock()
_process: list = []  # [(process, connection)] while one runs


def _connection() -> Connection:
    if _process and not _process[0][0].is_alive():
        _stop()
    if not _process:
        ours, theirs = _SPAWN.Pipe()
        process = _SPAWN.Process(target=worker.serve, args=(theirs,), daemon=True, name="train")
        process.start()
        theirs.close()
        _process.append((process, ours))
    return _process[0][1]


def _stop() -> None:
    if _process:
        process, connection = _process.pop()
        connection.close()
        process.join(timeout=5)


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
