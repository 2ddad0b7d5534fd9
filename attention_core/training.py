"""Training the tiny attention model of tiny_model.py on a toy task, with Adam.

    for step in 1 … steps:
        batch  = 32 training examples drawn from the seed
        loss, grads = forward and backward on the batch      (tiny_model.py, by hand)
        params = Adam(params, grads)                          (Kingma & Ba, 2015)
        every `record_every` steps: a snapshot: the parameters, the attention on the probe
        examples, the held-out accuracy and the weight on the right position

A run is a pure function of its settings: the same settings give the same arrays, bit for bit,
whether it runs at once (`train_attention`) or in chunks that report progress
(`train_attention_steps`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, replace
from numbers import Integral, Real
from typing import Any

import numpy as np

from .errors import AttentionInputError
from .learned import induction_scores
from .scores import SCORE_FUNCTIONS
from .tiny_model import Architecture, ForwardPass, Params, backward, forward, gradients, init_params
from .toy_tasks import SEED_RANGE, TASKS, ToyTask, whole_number

TRAINING_SCORES = tuple(SCORE_FUNCTIONS)  # dot, scaled_dot, general, concat, location
MAX_TRAINING_STEPS = 3000
D_MODEL_RANGE = (4, 64)
MAX_HEADS = 8
MAX_TRAINING_RATE = 0.1  # Adam's steps beyond it make the loss jump around instead of settle
BATCH = 32
PROBE = 8  # the examples whose attention every snapshot keeps
ADAM_BETAS = (0.9, 0.999)
ADAM_EPS = 1e-8


@dataclass(frozen=True, eq=False)
class Snapshot:
    """The model after `step` updates (step 0: as initialised).

    params : name → array, a copy
    weights : probe × heads × T × L, the last layer's attention on task.inputs[:probe]; each
        row sums to 1
    accuracy : held-out accuracy (share of outputs whose most probable token is the target)
    on_target : held-out mean weight on the right position (task.attend), of the head that
        puts most there; on_target_by_head : the same for each head (heads,)
    held_out_loss : the held-out mean cross-entropy
    layer_weights : each layer's attention on the probe, first layer first (probe × heads ×
        T × L for the last, probe × heads × L × L for a first layer that answers everywhere);
        the last is `weights`
    previous_token, prefix_matching : with two layers, each first-layer head's previous-token
        score and each last-layer head's prefix-matching score on the held-out examples
        (learned.induction_scores); None with one layer
    """

    step: int
    params: Params
    weights: np.ndarray
    accuracy: float
    on_target: float
    on_target_by_head: np.ndarray
    held_out_loss: float
    layer_weights: tuple[np.ndarray, ...] = ()
    previous_token: np.ndarray | None = None
    prefix_matching: np.ndarray | None = None


@dataclass(frozen=True, eq=False)
class TrainingRun:
    """A finished run: its settings, the curves and the snapshots.

    loss : (steps,) training loss of each step's batch; batch_accuracy : (steps,) its accuracy
    snapshot_steps, accuracy, on_target, held_out_loss : one entry per snapshot
    params : the final parameters (those of the last snapshot)
    """

    task: str
    score: str
    heads: int
    d_model: int
    steps: int
    learning_rate: float
    seed: int
    record_every: int
    batch: int
    probe: int
    causal: bool
    layers: int
    loss: np.ndarray
    batch_accuracy: np.ndarray
    snapshots: tuple[Snapshot, ...]

    @property
    def snapshot_steps(self) -> np.ndarray:
        return np.array([s.step for s in self.snapshots])

    @property
    def accuracy(self) -> np.ndarray:
        return np.array([s.accuracy for s in self.snapshots])

    @property
    def on_target(self) -> np.ndarray:
        return np.array([s.on_target for s in self.snapshots])

    @property
    def held_out_loss(self) -> np.ndarray:
        return np.array([s.held_out_loss for s in self.snapshots])

    @property
    def params(self) -> Params:
        return self.snapshots[-1].params

    def snapshot_at(self, step: int) -> Snapshot:
        """The last snapshot taken at or before `step`."""
        index = int(np.searchsorted(self.snapshot_steps, step, side="right")) - 1
        return self.snapshots[max(index, 0)]


@dataclass(frozen=True, eq=False)
class TrainingProgress:
    """What `train_attention_steps` reports after each snapshot.

    step of steps done; loss : the training losses so far; snapshot : the latest one;
    run : the finished TrainingRun in the last report, None before
    """

    step: int
    steps: int
    loss: np.ndarray
    snapshot: Snapshot
    run: TrainingRun | None = None

    @property
    def fraction(self) -> float:
        return self.step / self.steps


@dataclass(frozen=True)
class TrainingSettings:
    """What a run is asked for beyond its task (see `train_attention` for each one's bounds)."""

    score: str = "scaled_dot"
    heads: int = 1
    d_model: int = 16
    steps: int = 600
    learning_rate: float = 5e-3
    seed: int = 0
    record_every: int = 10


def train_attention(
    task: ToyTask,
    score: str = "scaled_dot",
    heads: int = 1,
    d_model: int = 16,
    steps: int = 600,
    learning_rate: float = 5e-3,
    seed: int = 0,
    record_every: int = 10,
) -> TrainingRun:
    """Train the tiny model on `task` and keep its curves and snapshots.

    Parameters
    ----------
    task : from toy_task(); the model answers task.targets from task.inputs
    score : one of 'dot', 'scaled_dot', 'general', 'concat', 'location'
    heads : a whole number from 1 to 8 that divides d_model
    d_model : embedding size, 4 to 64
    steps : Adam updates, 1 to 3000, each on a batch of 32 training examples
    learning_rate : Adam's η, above 0 and at most 0.1
    seed : the initial parameters and the batches, 0 to 2³² − 1
    record_every : a snapshot every this many steps (and at step 0 and the last step)

    Raises AttentionInputError: unknown_score, out_of_bounds, bad_heads, heads_not_dividing,
    bad_learning_rate, training_rate_too_large.
    """
    settings = TrainingSettings(score, heads, d_model, steps, learning_rate, seed, record_every)
    for progress in train_attention_steps(task, settings):
        if progress.run is not None:
            return progress.run
    raise AssertionError("train_attention_steps ends with the finished run")  # pragma: no cover


def train_attention_steps(
    task: ToyTask, settings: TrainingSettings = TrainingSettings()
) -> Iterator[TrainingProgress]:
    """`train_attention`, reporting a TrainingProgress after every snapshot; the last report
    carries the finished run (`.run`), identical to train_attention's with the same settings.

    The settings are checked before the first report (the generator checks when first advanced).
    """
    return _train(task, check_settings(task, settings))


def check_settings(task: Any, settings: TrainingSettings) -> TrainingSettings:
    """The settings as numbers, or AttentionInputError naming the first one out of bounds."""
    if not isinstance(task, ToyTask):
        raise AttentionInputError("unknown_task", task=repr(task), choices=", ".join(TASKS))
    score = check_score(settings.score)
    d_model = whole_number("d_model", settings.d_model, *D_MODEL_RANGE)
    heads = check_heads(settings.heads, d_model)
    steps = whole_number("steps", settings.steps, 1, MAX_TRAINING_STEPS)
    learning_rate = settings.learning_rate
    is_real = isinstance(learning_rate, Real) and not isinstance(learning_rate, bool)
    if not is_real or not math.isfinite(learning_rate) or learning_rate <= 0:
        raise AttentionInputError("bad_learning_rate", value=learning_rate)
    if learning_rate > MAX_TRAINING_RATE:
        raise AttentionInputError(
            "training_rate_too_large", value=learning_rate, limit=MAX_TRAINING_RATE
        )
    return replace(
        settings,
        score=score,
        heads=heads,
        d_model=d_model,
        steps=steps,
        learning_rate=float(learning_rate),
        seed=whole_number("seed", settings.seed, *SEED_RANGE),
        record_every=whole_number("record_every", settings.record_every, 1, MAX_TRAINING_STEPS),
    )


def check_score(score: Any) -> str:
    if score not in TRAINING_SCORES:
        raise AttentionInputError("unknown_score", score=score, choices=", ".join(TRAINING_SCORES))
    return score


def check_heads(heads: Any, d_model: int) -> int:
    if isinstance(heads, bool) or not isinstance(heads, Integral) or heads < 1:
        raise AttentionInputError("bad_heads", value=heads)
    heads = whole_number("heads", heads, 1, MAX_HEADS)
    if d_model % heads:
        raise AttentionInputError("heads_not_dividing", heads=heads, d_model=d_model)
    return heads


# ---------------------------------------------------------------------------------------------
# The loop


def _train(task: ToyTask, settings: TrainingSettings) -> Iterator[TrainingProgress]:
    steps, record_every = settings.steps, settings.record_every
    model = Architecture(settings.score, settings.heads, task.causal, task.features)
    rng = np.random.default_rng(settings.seed)
    params = init_params(rng, model, task.vocab, task.length, settings.d_model, task.layers)
    adam = Adam(params, settings.learning_rate)
    batch = min(BATCH, len(task.inputs))
    probe = min(PROBE, len(task.inputs))
    losses = np.zeros(steps)
    batch_accuracy = np.zeros(steps)
    snapshots = [_snapshot(0, params, task, model, probe)]
    yield TrainingProgress(0, steps, losses[:0].copy(), snapshots[-1])
    for step in range(1, steps + 1):
        rows = rng.choice(len(task.inputs), batch, replace=False)
        inputs, targets = task.inputs[rows], task.targets[rows]  # B × L, B × T
        run = forward(params, model, inputs, targets)
        losses[step - 1] = run.loss
        batch_accuracy[step - 1] = (run.predictions == targets).mean()
        adam.update(params, backward(params, model, inputs, targets, run))
        if step % record_every == 0 or step == steps:
            snapshots.append(_snapshot(step, params, task, model, probe))
            finished = None
            if step == steps:
                finished = TrainingRun(
                    task=task.name,
                    score=settings.score,
                    heads=settings.heads,
                    d_model=settings.d_model,
                    steps=steps,
                    learning_rate=settings.learning_rate,
                    seed=settings.seed,
                    record_every=record_every,
                    batch=batch,
                    probe=probe,
                    causal=task.causal,
                    layers=task.layers,
                    loss=losses,
                    batch_accuracy=batch_accuracy,
                    snapshots=tuple(snapshots),
                )
            yield TrainingProgress(step, steps, losses[:step].copy(), snapshots[-1], finished)


def _snapshot(
    step: int, params: Params, task: ToyTask, model: Architecture, probe: int
) -> Snapshot:
    held_out = task.held_out if task.held_out is not None else task
    run = forward(params, model, held_out.inputs, held_out.targets)
    weights = run.weights  # N × H × T × L
    on_right = np.take_along_axis(weights, held_out.attend[:, None, :, None], axis=-1)[..., 0]
    by_head = on_right.mean(axis=(0, 2))  # H
    induction = (None, None)
    if len(run.layers) == 2:
        induction = induction_scores(run, task, held_out.inputs)
    probe_inputs, probe_targets = task.inputs[:probe], task.targets[:probe]
    probe_run = forward(params, model, probe_inputs, probe_targets)
    return Snapshot(
        step=step,
        params={name: array.copy() for name, array in params.items()},
        weights=probe_run.weights,
        accuracy=float((run.predictions == held_out.targets).mean()),
        on_target=float(by_head.max()),
        on_target_by_head=by_head,
        held_out_loss=run.loss,
        layer_weights=tuple(layer.weights.transpose(1, 0, 3, 2) for layer in probe_run.layers),
        previous_token=induction[0],
        prefix_matching=induction[1],
    )


class Adam:
    """Adam (Kingma & Ba, 2015): steps scaled by running averages of the gradient and of its
    square, bias-corrected for their start at 0; each parameter gets its own step size."""

    def __init__(self, params: Params, learning_rate: float) -> None:
        self.learning_rate = learning_rate
        self.t = 0
        self.m = {name: np.zeros_like(p) for name, p in params.items()}  # mean of g
        self.v = {name: np.zeros_like(p) for name, p in params.items()}  # mean of g²

    def update(self, params: Params, grads: Params) -> None:
        """Move every parameter in place by one Adam step."""
        beta1, beta2 = ADAM_BETAS
        self.t += 1
        step = self.learning_rate * math.sqrt(1 - beta2**self.t) / (1 - beta1**self.t)
        for name, g in grads.items():
            m, v = self.m[name], self.v[name]
            m += (1 - beta1) * (g - m)  # m ← β₁ m + (1 − β₁) g
            v += (1 - beta2) * (g * g - v)  # v ← β₂ v + (1 − β₂) g²
            params[name] -= step * m / (np.sqrt(v) + ADAM_EPS)


# ---------------------------------------------------------------------------------------------
# The model's loss and gradients on any tokens (the finite-difference tests, the page's input)


def model_loss(
    params: Params,
    inputs: Any,
    targets: Any,
    score: str = "scaled_dot",
    heads: int = 1,
    *,
    causal: bool = False,
    features: np.ndarray | None = None,
) -> float:
    """The mean cross-entropy of the model `params` on inputs (N × L) and targets (N × T ≤ L);
    outputs are read at the last T positions; `causal` and `features` as the task's."""
    inputs, targets = _tokens(params, inputs, targets, heads, score)
    return forward(params, Architecture(score, heads, causal, features), inputs, targets).loss


def model_gradients(
    params: Params,
    inputs: Any,
    targets: Any,
    score: str = "scaled_dot",
    heads: int = 1,
    *,
    causal: bool = False,
    features: np.ndarray | None = None,
) -> Params:
    """∂model_loss/∂ each parameter, by hand (backpropagation); name → array, as params."""
    inputs, targets = _tokens(params, inputs, targets, heads, score)
    return gradients(params, Architecture(score, heads, causal, features), inputs, targets)[1]


def model_forward(
    params: Params,
    inputs: Any,
    outputs: int,
    score: str = "scaled_dot",
    heads: int = 1,
    *,
    causal: bool = False,
    features: np.ndarray | None = None,
) -> ForwardPass:
    """Every array of the model on inputs (N × L) answering at the last `outputs` positions:
    .weights (N × heads × T × L), .probabilities, .predictions, .layers (Q, K, V, S, A, ...)."""
    rows = np.atleast_2d(np.asarray(inputs))
    blank = np.zeros((len(rows), outputs), dtype=int)
    inputs, _ = _tokens(params, rows, blank, heads, score)
    return forward(params, Architecture(score, heads, causal, features), inputs, None, outputs)


def _tokens(
    params: Params, inputs: Any, targets: Any, heads: int, score: str
) -> tuple[np.ndarray, np.ndarray]:
    check_score(score)
    d_model, vocab = params["W_U"].shape
    check_heads(heads, d_model)
    x = np.atleast_2d(np.asarray(inputs))
    y = np.atleast_2d(np.asarray(targets))
    length = params["P"].shape[0]
    for name, a, width in (("inputs", x, length), ("targets", y, None)):
        if a.dtype.kind not in "iu":
            raise AttentionInputError("bad_tokens", matrix=name, last=vocab - 1)
        if width is not None and a.shape[1] != width:
            raise AttentionInputError("token_count", matrix=name, count=a.shape[1], length=width)
        bad = np.argwhere((a < 0) | (a >= vocab))
        if bad.size:
            i, j = (int(c) for c in bad[0])
            raise AttentionInputError(
                "token_out_of_range", matrix=name, cell=(i, j), value=int(a[i, j]), last=vocab - 1
            )
    if y.shape[0] != x.shape[0] or y.shape[1] > x.shape[1]:
        raise AttentionInputError(
            "targets_shape",
            shape=f"{y.shape[0]} × {y.shape[1]}",
            rows=x.shape[0],
            length=x.shape[1],
        )
    return x.astype(np.int64), y.astype(np.int64)
