"""Sentences about runs, each with the numbers that make it true: computed from the runs and
shown only when they hold (the page words them, train.claims.* in the catalogs)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from attention_core import TrainingRun

LEARNED = 0.9  # held-out accuracy that counts as "learned the task"
NEAR_CHANCE = 1.5  # "stays near chance": below this many times the chance accuracy


@dataclass(frozen=True)
class Claim:
    key: str  # train.claims.<key>
    numbers: Mapping[str, object]


def location_claims(compared: Mapping[str, TrainingRun], chance: float) -> list[Claim]:
    """What the comparison shows about location scores, which read the query alone:
    - `location_blind`: location stays near chance while another score function learns the
      task (the right position depends on the keys: key lookup);
    - `location_positions`: location learns the task too (the right position depends only on
      where the output stands: reversal, the previous token)."""
    location = compared.get("location")
    others = {name: run for name, run in compared.items() if name != "location"}
    if location is None or not others:
        return []
    best_name, best = max(others.items(), key=lambda item: item[1].accuracy[-1])
    final = float(location.accuracy[-1])
    numbers = {
        "location": final,
        "chance": chance,
        "best": float(best.accuracy[-1]),
        "on_target": float(location.on_target[-1]),
    }
    if final < NEAR_CHANCE * chance and best.accuracy[-1] >= LEARNED:
        return [Claim("location_blind", {**numbers, "best_name": best_name})]
    if final >= LEARNED:
        return [Claim("location_positions", numbers)]
    return []


def run_claims(run: TrainingRun, chance: float) -> list[Claim]:
    """What one finished run did: when it first reached LEARNED held-out accuracy, and how
    much weight its attention put on the right position at the start and at the end; or
    that it stayed near chance."""
    first = run.snapshots[0]
    last = run.snapshots[-1]
    reached = [s.step for s in run.snapshots if s.accuracy >= LEARNED]
    numbers = {
        "start": float(first.on_target),
        "end": float(last.on_target),
        "accuracy": float(last.accuracy),
        "chance": chance,
        "threshold": LEARNED,
    }
    if reached:
        return [Claim("learned", {**numbers, "step": float(reached[0])})]
    if last.accuracy < NEAR_CHANCE * chance:
        return [Claim("near_chance", numbers)]
    return [Claim("not_yet", numbers)]
