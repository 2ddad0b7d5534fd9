"""The exercises' numbers from their inputs: one pure function per exercise that its view, the
tasks, the export and the claim walk all call, so each reads the same engine run."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from attention_core import LookupResult, QueryGradient, lookup, query_gradient
from attention_core.gradient import weighted_covariance
from attention_core.search import HardLookup, SearchPath, gradient_search, hard_lookup
from attention_core.squeeze_excitation import SqueezeExcitation, squeeze_excitation

# Every function here raises the engine's AttentionInputError for inputs it refuses.


@dataclass(frozen=True)
class MatchInputs:
    """Exercise 1: the database's records, one query, the similarity and τ."""

    records: Sequence[Any]
    query: str
    similarity: str
    temperature: float = 1.0


def match(inputs: MatchInputs) -> LookupResult:
    return lookup(
        list(inputs.records), inputs.query, inputs.similarity, temperature=inputs.temperature
    )


@dataclass(frozen=True)
class GradientInputs:
    """Exercise 2: the keys (= values, one 2-D point per row), the query q and τ."""

    points: np.ndarray
    query: Sequence[float]
    temperature: float = 1.0


@dataclass(frozen=True)
class Gradient:
    result: QueryGradient  # the engine's ∂o/∂q by the chain rule
    covariance: np.ndarray  # the keys' covariance under p, from its definition


def gradient(inputs: GradientInputs) -> Gradient:
    keys = np.asarray(inputs.points, dtype=float).T
    result = query_gradient(
        np.asarray(inputs.query, dtype=float), keys, keys, "dot", temperature=inputs.temperature
    )
    return Gradient(result, weighted_covariance(keys, result.weights))


@dataclass(frozen=True)
class Records:
    """Exercise 3's records: their keys (d × m, one per column), names and the start q₀; by
    name, the keys count the names' letter pairs (`pairs`, one per row)."""

    keys: np.ndarray
    names: list[str]
    start: np.ndarray
    pairs: tuple[str, ...] = ()
    by_name: bool = False


@dataclass(frozen=True)
class SearchInputs:
    """Exercise 3: the keys (one per column), the start q₀, the target, η and the steps."""

    keys: np.ndarray
    start: np.ndarray
    target: int
    learning_rate: float
    steps: int


@dataclass(frozen=True)
class Search:
    path: SearchPath  # gradient descent on −log p(target)
    hard: HardLookup  # the argmax lookup from the same start


def search(inputs: SearchInputs) -> Search:
    path = gradient_search(
        inputs.start,
        inputs.keys,
        inputs.target,
        learning_rate=inputs.learning_rate,
        steps=inputs.steps,
    )
    return Search(path, hard_lookup(inputs.start, inputs.keys, inputs.target))


@dataclass(frozen=True)
class SqueezeInputs:
    """Exercise 4: the feature map X (C × P) and SE's W1 (h × C), W2 (C × h)."""

    X: np.ndarray
    W1: np.ndarray
    W2: np.ndarray


@dataclass(frozen=True)
class Squeeze:
    sigmoid: SqueezeExcitation  # SE's gates
    softmax: SqueezeExcitation  # a softmax over the channels, for contrast


def squeeze(inputs: SqueezeInputs) -> Squeeze:
    return Squeeze(
        squeeze_excitation(inputs.X, inputs.W1, inputs.W2),
        squeeze_excitation(inputs.X, inputs.W1, inputs.W2, gate="softmax"),
    )
