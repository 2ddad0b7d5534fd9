"""Predict, then reveal: which key each query attends to most, and what the learner got right.

Pure functions of the engine's numbers. A tie is a tie: when several keys share the largest
weight (to rounding), choosing any of them is right, and the feedback says they tie.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

# Weights this close to the largest count as tied with it (the engine's own rounding noise).
TIE_RTOL, TIE_ATOL = 1e-9, 1e-12


@dataclass(frozen=True)
class Verdict:
    """One query: the learner's guess (None: no guess), the keys with the most weight (empty:
    no key wins, e.g. an exact lookup that matches nothing) and whether the guess is right."""

    query: int
    guess: int | None
    winners: tuple[int, ...]

    @property
    def right(self) -> bool:
        return self.guess in self.winners if self.winners else self.guess == NO_WINNER


NO_WINNER = -1  # the guess "no key wins" (database: no record answers the query)


@dataclass(frozen=True)
class Puzzle:
    """One predict-then-reveal puzzle as a page asks it (kit/teaching/predict_view.puzzle; in a
    class, kit/classroom/panel.class_puzzle).

    `page` names it: the page ("train"), or page.puzzle on a page with several ("train.compare").
    `puzzle_id`: `puzzle_id` of its numbers. One question per query, all with the same
    `options` (named by `option_label`); `per_query`: each query's weights, whose winners are
    the right answers; `describe(verdict, weights)`: the feedback sentence. `horizontal`: the
    options as a row of radio buttons rather than a select box.
    """

    page: str
    puzzle_id: str
    questions: Sequence[str]
    options: Sequence[int]
    option_label: Callable[[int], str]
    per_query: Sequence[np.ndarray]
    describe: Callable[[Verdict, np.ndarray], str] | None
    horizontal: bool


def winners_of(weights: Sequence[float]) -> tuple[int, ...]:
    """The indices whose weight is the largest, ties included; () if every weight is 0."""
    w = np.asarray(weights, dtype=float)
    if w.size == 0 or not (w.max() > 0):
        return ()
    return tuple(
        int(i) for i in np.flatnonzero(np.isclose(w, w.max(), rtol=TIE_RTOL, atol=TIE_ATOL))
    )


def query_weights(weights: np.ndarray, layout: str) -> list[np.ndarray]:
    """Each query's weights over the keys: the columns in column layout, the rows in row."""
    weights = np.asarray(weights, dtype=float)
    return list(weights.T if layout == "column" else weights)


def grade(guesses: Sequence[int | None], per_query: Sequence[Sequence[float]]) -> list[Verdict]:
    """A verdict per query from the guesses and each query's weights."""
    return [
        Verdict(j, guess, winners_of(w))
        for j, (guess, w) in enumerate(zip(guesses, per_query, strict=True))
    ]


def puzzle_id(*arrays: np.ndarray, extra: str = "") -> str:
    """A short name for one puzzle: the same numbers give the same id (so guesses and the
    reveal stay while nothing changes, and reset when anything does)."""
    digest = hashlib.sha256(extra.encode())
    for a in arrays:
        a = np.ascontiguousarray(a, dtype=float)
        digest.update(str(a.shape).encode())
        digest.update(a.tobytes())
    return digest.hexdigest()[:12]


def typo_queries(keys: Sequence[str], seed: int, count: int = 3) -> list[str]:
    """`count` misspelt keys, drawn with `seed` (the same keys and seed give the same puzzle
    on every screen): each drops, doubles or swaps one letter of a key, or changes its case.

    Keys of one character stay as they are but change case; duplicates are allowed.
    """
    keys = [k.strip() for k in keys if k and k.strip()]
    if not keys:
        return []
    rng = np.random.default_rng(seed)
    queries = []
    for _ in range(count):
        key = keys[int(rng.integers(len(keys)))]
        kind = int(rng.integers(4))
        at = int(rng.integers(len(key)))
        if kind == 0 and len(key) > 1:  # drop a letter
            typo = key[:at] + key[at + 1 :]
        elif kind == 1:  # double a letter
            typo = key[: at + 1] + key[at:]
        elif kind == 2 and len(key) > 1:  # swap two neighbours
            at = min(at, len(key) - 2)
            typo = key[:at] + key[at + 1] + key[at] + key[at + 2 :]
        else:  # change the case (a no-op for scripts without case)
            typo = key.swapcase()
        queries.append(typo)
    return queries
