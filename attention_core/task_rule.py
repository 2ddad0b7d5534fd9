"""A toy task's rule applied to any row of its tokens, not only to rows it drew.

The learner types a row; the page answers with the model's prediction and with the task's
answer, computed here by the task's own rule (toy_tasks.answers), so a verdict exists for
every row the rule can answer. A row it cannot answer is named by a code and the positions
(0-based) and token ids that make it so:

- misplaced : a token of the task where the rule has no use for it (key lookup: a query or a
  value among the pairs, or a pair where the query stands)
- duplicate : a key stored twice (key lookup), a token twice in induction's first half: the
  task never draws such rows, and which one the answer follows is then undefined
- absent : the query's key is in no pair (key lookup), a repeated token never occurred in the
  first half (induction): the answer does not exist
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .toy_tasks import INDUCTION_HALF, LOOKUP_KEYS, LOOKUP_PAIRS, LOOKUP_VALUES, ToyTask, answers


@dataclass(frozen=True)
class RuleAnswer:
    """targets and attend (T each) when the rule answers the row; else problem: (code,
    numbers) with 0-based positions and token ids."""

    targets: np.ndarray | None
    attend: np.ndarray | None
    problem: tuple[str, dict] | None = None


def rule_answer(task: ToyTask, tokens: np.ndarray) -> RuleAnswer:
    """The task's answer for one row of token ids (length task.length, each below task.vocab)."""
    tokens = np.asarray(tokens, dtype=np.int64)
    check = {"lookup": _lookup_problem, "induction": _induction_problem}.get(task.name)
    problem = check(tokens) if check else None
    if problem is not None:
        return RuleAnswer(None, None, problem)
    targets, attend = answers(task.name, tokens)
    return RuleAnswer(targets[0], attend[0])


def _lookup_problem(tokens: np.ndarray) -> tuple[str, dict] | None:
    k, v = len(LOOKUP_KEYS), len(LOOKUP_VALUES)
    pairs, query = tokens[:LOOKUP_PAIRS], int(tokens[LOOKUP_PAIRS])  # ids < k·v are pairs
    for position, token in enumerate(pairs):
        if token >= k * v:
            return "misplaced", {"position": position, "token": int(token), "place": "pair"}
    if not k * v <= query < k * v + k:
        return "misplaced", {"position": LOOKUP_PAIRS, "token": query, "place": "query"}
    keys = pairs // v
    for key in np.unique(keys):
        where = np.flatnonzero(keys == key)
        if where.size > 1:
            return "duplicate", {
                "positions": tuple(int(p) for p in where),
                "token": int(pairs[where[0]]),
            }
    if query - k * v not in keys:
        return "absent", {"position": LOOKUP_PAIRS, "token": query}
    return None


def _induction_problem(tokens: np.ndarray) -> tuple[str, dict] | None:
    first, second = tokens[:INDUCTION_HALF], tokens[INDUCTION_HALF:]
    for token in np.unique(first):
        where = np.flatnonzero(first == token)
        if where.size > 1:
            return "duplicate", {"positions": tuple(int(p) for p in where), "token": int(token)}
    for offset, token in enumerate(second):
        if token not in first:
            return "absent", {"position": INDUCTION_HALF + offset, "token": int(token)}
    return None
