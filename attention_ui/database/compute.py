"""The database page's numbers from its inputs: one pure function that the answers, the puzzle,
the export, the tasks and the claim walk all call, so a rerun looks the queries up once."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from attention_core import AttentionInputError
from attention_core.lookup import LookupTable, lookup_many


@dataclass(frozen=True)
class Inputs:
    """What the page computes from: the checked records, the queries and how to weigh."""

    records: Sequence[Any]
    queries: Sequence[str]
    similarity: str
    temperature: float = 1.0
    normalization: str = "softmax"


def compute(inputs: Inputs) -> LookupTable:
    """`attention_core.lookup_many` on the page's inputs; raises its AttentionInputError."""
    return lookup_many(
        list(inputs.records),
        list(inputs.queries),
        inputs.similarity,
        inputs.temperature,
        inputs.normalization,
    )


@dataclass(frozen=True)
class Answer:
    """One rerun's lookup: the table, or the engine's refusal, or neither (nothing to look up)."""

    table: LookupTable | None = None
    error: AttentionInputError | None = None


def answer(inputs: Inputs | None) -> Answer:
    """`compute`, with its refusal kept for the page to explain."""
    if inputs is None:
        return Answer()
    try:
        return Answer(table=compute(inputs))
    except AttentionInputError as error:
        return Answer(error=error)
