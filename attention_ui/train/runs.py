"""Training runs shared by every session of the server process, keyed by their settings.

A run is a pure function of its settings (the engine is deterministic from its seed), so the
first session that asks for one starts it and every other session asking for the same settings
reads the same run: a class pressing Train together costs one run. The runs train one after
another on one worker thread, so training takes at most one core of the server whatever the
number of sessions waiting for it; while one trains, the sessions read how far it got
(`Job.seen`) and draw the curves so far.

The last MAX_KEPT runs stay (finished runs first in line to go); a session holding one keeps
its own reference.
"""

from __future__ import annotations

import queue
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from attention_ui.train.state import Settings

MAX_KEPT = 24  # runs kept in memory: the five score functions of four tasks fit


@dataclass(frozen=True)
class Seen:
    """A run as far as it got: the loss of every step trained so far, the held-out accuracy
    at every snapshot so far (step, accuracy), and the finished run or the engine's refusal."""

    done: int
    total: int
    loss: tuple[float, ...]
    accuracy: tuple[tuple[int, float], ...]
    result: Any = None
    error: Exception | None = None

    @property
    def finished(self) -> bool:
        return self.result is not None or self.error is not None


@dataclass
class Job:
    settings: Settings
    total: int
    loss: list[float] = field(default_factory=list)
    accuracy: list[tuple[int, float]] = field(default_factory=list)
    result: Any = None
    error: Exception | None = None
    finished: threading.Event = field(default_factory=threading.Event)

    def seen(self) -> Seen:
        # the worker only appends: a copy of each list is a consistent prefix of the run
        return Seen(
            len(self.loss),
            self.total,
            tuple(self.loss),
            tuple(self.accuracy),
            self.result,
            self.error,
        )


# A training function: runs the settings, calling `report(loss, accuracy)` as steps are done
# (`loss`: the new steps' losses, `accuracy`: new (step, accuracy) pairs), returns the run.
Trainer = Callable[[Settings, Callable[[list[float], list[tuple[int, float]]], None]], Any]

_jobs: OrderedDict[Settings, Job] = OrderedDict()
_lock = threading.Lock()
_queue: queue.Queue[tuple[Job, Trainer]] = queue.Queue()
_worker: threading.Thread | None = None


def job(settings: Settings, trainer: Trainer) -> Job:
    """The run of these settings: the one kept, or a new one put in the worker's line."""
    global _worker
    with _lock:
        found = _jobs.get(settings)
        if found is not None:
            _jobs.move_to_end(settings)
            return found
        new = Job(settings, settings.steps)
        _jobs[settings] = new
        _forget_finished(len(_jobs) - MAX_KEPT)  # beyond MAX_KEPT
        if _worker is None or not _worker.is_alive():
            _worker = threading.Thread(target=_work, name="train-worker", daemon=True)
            _worker.start()
    _queue.put((new, trainer))
    return new


def kept(settings: Settings) -> Job | None:
    """The run of these settings if one was started (finished or not), else None."""
    with _lock:
        return _jobs.get(settings)


def _forget_finished(count: int) -> None:
    """The `count` least recently asked-for finished runs go (all of them, if fewer)."""
    for settings in [s for s, j in _jobs.items() if j.finished.is_set()][: max(count, 0)]:
        del _jobs[settings]


def _work() -> None:
    while True:
        new, trainer = _queue.get()
        _run(new, trainer)
        _queue.task_done()


def _run(new: Job, trainer: Trainer) -> None:
    """Train one job; whatever goes wrong ends it with its error (never a waiting page)."""

    def report(loss: list[float], accuracy: list[tuple[int, float]]) -> None:
        new.accuracy.extend(accuracy)  # before the losses: a page that sees the steps done
        new.loss.extend(loss)  # has their snapshot too

    try:
        new.result = trainer(new.settings, report)
    except Exception as failure:  # an engine refusal, or a bug: said on the page, not raised
        new.error = failure
    finally:
        new.finished.set()


def clear() -> None:
    """Forget every finished run (tests)."""
    with _lock:
        _forget_finished(len(_jobs))
