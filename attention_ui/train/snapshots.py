"""What a run keeps of its snapshots, on the server and in the training process alike.

The engine trains in float64; what is kept is float32 (half the bytes; the page draws a
weight to two decimals), and at most MAX_KEPT snapshots whatever the step count: when a new
one would pass the bound, the stride between kept snapshots doubles and the older ones off it
go, so the kept ones stay evenly spread from step 0 on, with the newest always kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from attention_core import TrainingRun
from attention_core.training import Snapshot

MAX_KEPT = 64  # snapshots of one run: a 3,000-step run keeps one every 50 to 100 steps


def compact(snapshot: Snapshot) -> Snapshot:
    """The snapshot with every array stored as float32."""
    return replace(
        snapshot,
        params={name: _f32(array) for name, array in snapshot.params.items()},
        weights=_f32(snapshot.weights),
        on_target_by_head=_f32(snapshot.on_target_by_head),
        layer_weights=tuple(_f32(w) for w in snapshot.layer_weights),
    )


def _f32(array: np.ndarray) -> np.ndarray:
    return np.asarray(array, dtype=np.float32)


@dataclass
class Thinned:
    """The snapshots kept so far: those at multiples of `stride` steps, plus the newest."""

    stride: int = 0  # the run's record_every to begin with (0: the first step after 0)
    kept: list[Snapshot] = field(default_factory=list)

    def add(self, snapshot: Snapshot) -> None:
        if not self.stride:
            self.stride = snapshot.step
        if self.kept and self.kept[-1].step % self.stride:  # kept only as the newest
            self.kept.pop()
        self.kept.append(snapshot)
        while len(self.kept) > MAX_KEPT:
            self.stride *= 2
            self.kept = [s for s in self.kept[:-1] if s.step % self.stride == 0] + [snapshot]


def compact_run(run: TrainingRun) -> TrainingRun:
    """The finished run as it is kept: its snapshots compact and thinned (the same ones
    `Thinned` keeps from the run's reports) but the last, the trained model, as trained
    (float64: a typed input's answer and the weights sent to other pages are computed from
    it); its curves as they are."""
    kept = Thinned(run.record_every)
    for snapshot in run.snapshots:
        kept.add(compact(snapshot))
    return replace(run, snapshots=(*kept.kept[:-1], run.snapshots[-1]))


def size_in_bytes(run: TrainingRun) -> int:
    """The bytes of a kept run's arrays (its curves and snapshots)."""
    total = run.loss.nbytes + run.batch_accuracy.nbytes
    for s in run.snapshots:
        arrays = [*s.params.values(), s.weights, s.on_target_by_head, *s.layer_weights]
        total += sum(a.nbytes for a in arrays)
    return total
