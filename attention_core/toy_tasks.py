"""Toy tasks that a tiny attention model can learn, each with the position it should attend to.

Every example is a row of L token ids; the model answers at the last T positions, and for each
answer the task knows which input position holds it (`attend`), so a learner can watch the
attention weights move onto that position while the model trains.

- **lookup** (d2l's database, learned): four (key, value) pair tokens such as "C→5", then a
  query key "C?"; the answer is the value stored with that key, 5. Keys and values of an
  example are distinct, so the answer sits at exactly one position. Attention that weighs
  that pair 1 and the others 0 is d2l's third special case, the classic database query.
  A pair token is made of two features, its key and its value, and a query of its key and
  the mark "?" (`features`): the model embeds each feature once, as d2l's records hold a key
  and a value, so it learns what key C means from every pair and query that holds C.
- **reverse**: six digits; output t is digit L − 1 − t, so its right positions lie on the
  anti-diagonal (Luong et al.'s alignment figures are of translations, near the diagonal).
- **previous**: eight digits under a causal mask (a token sees itself and what came before);
  the output at position t is the token at t − 1, the transformer page's mask put to work.
- **induction** (two layers): six distinct tokens, then the same six rotated by a random
  amount. At each token of the repeated half the answer is the token that followed it the
  first time, wherever that was: one head must copy each token's predecessor forward, and the
  next match it, a composition of two heads that no single layer can do.

The training and held-out examples share no row, so held-out accuracy measures what the model
learned about the task, not which examples it saw.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from numbers import Integral
from typing import Any

import numpy as np

from .errors import AttentionInputError

TASKS = ("lookup", "reverse", "previous", "induction")
TASK_SIZE_RANGE = (16, 2048)  # examples in each of the training and held-out sets
SEED_RANGE = (0, 2**32 - 1)

LOOKUP_KEYS = "ABCDEF"  # six keys
LOOKUP_VALUES = "012345"  # six values
LOOKUP_PAIRS = 4
DIGITS = 10
REVERSE_LENGTH = 6
PREVIOUS_LENGTH = 8
INDUCTION_TOKENS = "abcdefghijklmnop"  # sixteen tokens
INDUCTION_HALF = 6


@dataclass(frozen=True, eq=False)
class ToyTask:
    """Examples of one task: `size` for training, as many held out (`held_out`, same fields).

    inputs : size × L ints, token ids in 0 … vocab − 1
    targets : size × T ints, the token each output must predict; output t is read at input
        position L − T + t (`read_at`)
    attend : size × T ints, the input position (0-based) each output should attend to
    tokens : vocab labels, one per token id (e.g. "C→5", "C?", "5"), for axes and hovers
    features : vocab × F of 0/1, the features each token is made of (its embedding is the sum
        of theirs), or None when each token is its own feature; feature_names : F labels
    causal : whether a position may attend only to itself and earlier positions
    layers : attention layers the task needs (2 for induction)
    chance : the held-out accuracy of guessing among the answers the input offers (for
        lookup, one of the four values present), the floor a model that cannot do the task
        stays near
    suggested_steps, suggested_learning_rate : settings with which the default model learns
        the task (induction's two layers need more steps, and larger ones, than one layer)
    """

    name: str
    inputs: np.ndarray
    targets: np.ndarray
    attend: np.ndarray
    vocab: int
    tokens: tuple[str, ...]
    causal: bool
    layers: int
    chance: float
    size: int
    seed: int
    features: np.ndarray | None = field(default=None, repr=False)
    feature_names: tuple[str, ...] = ()
    suggested_steps: int = 600
    suggested_learning_rate: float = 5e-3
    held_out: ToyTask | None = field(default=None, repr=False)

    @property
    def length(self) -> int:
        """L, the number of input positions."""
        return int(self.inputs.shape[1])

    @property
    def outputs(self) -> int:
        """T, the number of outputs per example."""
        return int(self.targets.shape[1])

    @property
    def read_at(self) -> np.ndarray:
        """The input position whose attention gives each output: the last T positions."""
        return np.arange(self.length - self.outputs, self.length)


def toy_task(name: str, size: int = 256, seed: int = 0) -> ToyTask:
    """`size` training examples of task `name` and `size` held-out ones, from `seed`.

    Raises AttentionInputError: unknown_task, out_of_bounds (size, seed).
    """
    if name not in TASKS:
        raise AttentionInputError("unknown_task", task=name, choices=", ".join(TASKS))
    size = whole_number("size", size, *TASK_SIZE_RANGE)
    seed = whole_number("seed", seed, *SEED_RANGE)
    make, tokens, causal, layers, chance = _TASKS[name]
    features, feature_names = _FEATURES.get(name, (None, tokens))
    steps, learning_rate = _SUGGESTED.get(name, (600, 5e-3))
    rng = np.random.default_rng([seed, TASKS.index(name)])
    inputs = _distinct_rows(lambda count: make(rng, count)[0], 2 * size, rng)  # 2·size × L
    _, targets, attend = make(None, 0, inputs)

    def part(rows: slice, held_out: ToyTask | None) -> ToyTask:
        return ToyTask(
            name,
            inputs[rows],
            targets[rows],
            attend[rows],
            len(tokens),
            tokens,
            causal,
            layers,
            chance,
            size,
            seed,
            features,
            feature_names,
            steps,
            learning_rate,
            held_out,
        )

    return part(slice(0, size), part(slice(size, 2 * size), None))


def answers(name: str, inputs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The task's rule on rows it could draw (N × L): their targets and attend (N × T each).
    task_rule.rule_answer checks a row first and says what keeps it from being one."""
    _, targets, attend = _TASKS[name][0](None, 0, np.atleast_2d(inputs))
    return targets, attend


def whole_number(name: str, value: Any, low: int, high: int) -> int:
    """`value` as an int in [low, high], or out_of_bounds naming the setting."""
    if isinstance(value, bool) or not isinstance(value, Integral) or not low <= value <= high:
        raise AttentionInputError("out_of_bounds", parameter=name, value=value, low=low, high=high)
    return int(value)


def _distinct_rows(
    sample: Callable[[int], np.ndarray], count: int, rng: np.random.Generator
) -> np.ndarray:
    """`count` different rows drawn by `sample`, in the order they were first drawn."""
    rows = sample(count)
    _, first = np.unique(rows, axis=0, return_index=True)
    rows = rows[np.sort(first)]
    while len(rows) < count:
        more = np.concatenate([rows, sample(count)])
        _, first = np.unique(more, axis=0, return_index=True)
        rows = more[np.sort(first)]
    return rows[:count]


# ---------------------------------------------------------------------------------------------
# Each task: make(rng, count) draws `count` inputs; make(None, 0, inputs) gives their answers.
# Both return (inputs, targets, attend).


def _lookup(rng, count, inputs=None):
    """Pair token key·V + value (ids 0 … 35), query key 36 + key, value 42 + value."""
    k, v, pairs = len(LOOKUP_KEYS), len(LOOKUP_VALUES), LOOKUP_PAIRS
    if inputs is None:
        keys = rng.random((count, k)).argsort(axis=1)[:, :pairs]  # count × 4, distinct
        values = rng.random((count, v)).argsort(axis=1)[:, :pairs]  # count × 4, distinct
        asked = rng.integers(0, pairs, count)  # which pair the query asks for
        query = k * v + keys[np.arange(count), asked]
        return np.column_stack([keys * v + values, query]), None, None  # count × 5
    keys, values = inputs[:, :pairs] // v, inputs[:, :pairs] % v  # count × 4
    where = np.argmax(keys == (inputs[:, pairs] - k * v)[:, None], axis=1)  # count
    answer = values[np.arange(len(inputs)), where]
    return inputs, (k * v + k + answer)[:, None], where[:, None]  # count × 1


def _reverse(rng, count, inputs=None):
    if inputs is None:
        return rng.integers(0, DIGITS, (count, REVERSE_LENGTH)), None, None
    attend = np.broadcast_to(np.arange(REVERSE_LENGTH)[::-1], inputs.shape)
    return inputs, inputs[:, ::-1].copy(), attend.copy()


def _previous(rng, count, inputs=None):
    if inputs is None:
        return rng.integers(0, DIGITS, (count, PREVIOUS_LENGTH)), None, None
    attend = np.broadcast_to(np.arange(PREVIOUS_LENGTH - 1), (len(inputs), PREVIOUS_LENGTH - 1))
    return inputs, inputs[:, :-1].copy(), attend.copy()  # outputs at positions 1 … L − 1


def _induction(rng, count, inputs=None):
    n, vocab = INDUCTION_HALF, len(INDUCTION_TOKENS)
    if inputs is None:
        first = rng.random((count, vocab)).argsort(axis=1)[:, :n]  # count × 6, distinct
        shift = rng.integers(0, n, count)[:, None]
        second = np.take_along_axis(first, (np.arange(n) + shift) % n, axis=1)
        return np.concatenate([first, second], axis=1), None, None  # count × 12
    first, second = inputs[:, :n], inputs[:, n:]
    # where each token of the repeated half stood the first time, then the position after it
    seen = np.argmax(second[:, :, None] == first[:, None, :], axis=2)  # count × 6
    attend = seen + 1  # the token after the last of the first half is the first repeated one
    return inputs, np.take_along_axis(inputs, attend, axis=1), attend


_TASKS = {  # name: (make, token labels, causal, layers, chance accuracy)
    "lookup": (
        _lookup,
        tuple(f"{k}→{v}" for k in LOOKUP_KEYS for v in LOOKUP_VALUES)
        + tuple(f"{k}?" for k in LOOKUP_KEYS)
        + tuple(LOOKUP_VALUES),
        False,
        1,
        1 / LOOKUP_PAIRS,
    ),
    "reverse": (_reverse, tuple(str(d) for d in range(DIGITS)), False, 1, 1 / DIGITS),
    "previous": (_previous, tuple(str(d) for d in range(DIGITS)), True, 1, 1 / DIGITS),
    "induction": (
        _induction,
        tuple(INDUCTION_TOKENS),
        True,
        2,
        1 / INDUCTION_HALF,
    ),
}


def _lookup_features() -> tuple[np.ndarray, tuple[str, ...]]:
    """Pair k→v = key k + value v; a query k? and an answer v are features of their own."""
    k, v = len(LOOKUP_KEYS), len(LOOKUP_VALUES)
    names = (*LOOKUP_KEYS, *LOOKUP_VALUES, *(f"{key}?" for key in LOOKUP_KEYS))
    features = np.zeros((k * v + k + v, len(names)))
    for key in range(k):
        for value in range(v):
            features[key * v + value, [key, k + value]] = 1
        features[k * v + key, k + v + key] = 1
    for value in range(v):
        features[k * v + k + value, k + value] = 1
    return features, names


_FEATURES = {"lookup": _lookup_features()}
_SUGGESTED = {"induction": (1000, 1e-2)}  # (steps, learning rate) where the defaults fall short
