"""The Luong page's numbers from its inputs: one pure function that the view, the tasks, the
comparison, the sentences and the claim walks all call, so each reads the same engine run; the
page calls it through `run`, once per set of inputs for every session."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import streamlit as st

from attention_core import AttentionInputError, AttentionResult, attention
from attention_ui.luong.model import engine_parameters


@dataclass(frozen=True)
class Inputs:
    """What the page computes from: its matrices by name (Q, K, V in `layout`; W, Wa_concat,
    va, Wa_location in column form, None where the learner has no valid one), the score, the
    layout, τ and the mask (in `layout`, True where a query may attend)."""

    values: Mapping[str, np.ndarray | None]
    score: str
    layout: str = "column"
    temperature: float = 1.0
    mask: np.ndarray | None = None

    def key(self) -> bytes:
        """Everything the engine reads, as one bytes object: how the page's caches tell inputs
        apart (`HASHED`: Streamlit's own hashing walks the dataclass field by field, which was
        most of a cache hit). The shapes and types come first, so the numbers' bytes after
        them can be read only one way."""
        arrays = [(name, value) for name, value in sorted(self.values.items())]
        arrays.append(("mask", self.mask))
        head = [(name, None if a is None else (a.shape, a.dtype.str)) for name, a in arrays]
        numbers = b"".join(a.tobytes() for _, a in arrays if a is not None)
        return repr((self.score, self.layout, self.temperature, head)).encode() + numbers


HASHED = {Inputs: Inputs.key}  # hash_funcs for a cache whose arguments include Inputs


def compute(inputs: Inputs) -> AttentionResult:
    """`attention_core.attention` on the page's inputs; raises its AttentionInputError."""
    values = inputs.values
    return attention(
        values["Q"],
        values["K"],
        values["V"],
        inputs.score,
        temperature=inputs.temperature,
        mask=inputs.mask,
        layout=inputs.layout,
        **engine_parameters(inputs.score, values),
    )


# st.cache_resource, not st.cache_data: a result records its steps on first use, through a
# closure that pickle (st.cache_data's copy of each hit) cannot take. The result is read-only:
# every session that enters the same inputs reads the same one.
@st.cache_resource(max_entries=256, show_spinner=False, hash_funcs=HASHED)
def run(*, inputs: Inputs) -> tuple[AttentionResult | None, AttentionInputError | None]:
    """`compute(inputs)`, or the engine's error, once per set of inputs. (The page's cached
    functions take keywords only: Streamlit names a positional argument with inspect.signature
    on every call, which was a tenth of an edit's rerun.)"""
    try:
        return compute(inputs), None
    except AttentionInputError as error:
        return None, error


def in_columns(result: AttentionResult) -> tuple[np.ndarray, np.ndarray]:
    """(weights, output) in column layout (keys × queries, d_v × queries), whatever the
    result's layout."""
    if result.layout == "column":
        return result.weights, result.output
    return result.weights.T, result.output.T
