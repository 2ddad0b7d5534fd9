"""The home page's live example from its query: one pure function the page and its tests call."""

from __future__ import annotations

import numpy as np

from attention_core import AttentionResult, attention

KEYS = np.array([[1.0, 0.0, -1.0], [0.0, 1.0, 0.0]])  # three 2-D keys, one per column
VALUES = np.array([[10.0, 20.0, 30.0]])  # one number stored under each key


def compute(q1: float, q2: float) -> AttentionResult:
    """Dot-product attention of the query (q1, q2) over KEYS and VALUES; raises the engine's
    AttentionInputError."""
    return attention([[q1], [q2]], KEYS, VALUES, "dot")
