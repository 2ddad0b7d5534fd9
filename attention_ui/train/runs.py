"""Training as a service shared by every session of the server process, bounded and fair.

A run is a pure function of its settings (the engine is deterministic from its seed), so the
first session that asks for one puts it in line and every other session asking for the same
settings follows the same run: a class pressing Train together costs one run.

- The line: runs wait in order of priority, then of asking. A class's run (the settings its
  teacher's page shows) comes before any other; the line holds at most MAX_WAITING other runs,
  and one session, or one network address, at most PER_SESSION or PER_CLIENT runs waiting or
  training; a run beyond a bound is refused, said in a sentence (`NoRunError`).
- Two lanes train, each in a process of its own (train/compute.py): the class lane takes
  class runs only, the open lane any run, a class's first. So a class's run never waits behind
  a student's long one, and training takes at most two processes whatever the sessions. The
  class lane's process also comes first for the processor (`urgent`).
- A page polls its run (`Job.seen`, or asking for it again). A run nobody polled for
  CANCEL_AFTER seconds is dropped from the line, or its process stops training it.
- Finished runs are kept (compact: train/snapshots.py) up to KEPT_BYTES of arrays, the least
  recently asked for going first; runs in flight are not counted, and a run a class asked for
  in the last CLASS_KEPT seconds, or that a page polls, stays.
- A run that ended without a result (its process killed, out of memory, a bug, cancelled) is
  never kept: the next press trains it again, and the page says what happened.
"""

from __future__ import annotations

import itertools
import logging
import math
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from attention_core import AttentionInputError, TrainingRun
from attention_core.training import TRAINING_SCORES
from attention_ui.kit.classroom import follow as classroom
from attention_ui.kit.share.codec import decode
from attention_ui.train import schema, state
from attention_ui.train.snapshots import Thinned, size_in_bytes
from attention_ui.train.state import Settings

CANCEL_AFTER = 5.0  # seconds without a poll after which nobody waits for a run
MAX_WAITING = 24  # runs waiting in line, class runs apart
PER_SESSION = 5  # runs one session may have waiting or training: a comparison is five
PER_CLIENT = 8  # runs one network address may have waiting or training
KEPT_BYTES = 160 * 2**20  # finished runs' arrays kept in memory (about 30 of the largest)
CLASS_KEPT = 600.0  # seconds a class's run stays kept after a class member last asked for it
CLASS, OWN = 0, 1  # priorities: a class's runs first
CLASS_LANE, OPEN_LANE = 0, 1
SESSION_KEY = "train.runs.session"  # the browser session's id, for the per-session bound
_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Asker:
    """Who asks for a run: the browser session, its network address where known (None on
    this machine), and whether the run is the one the asker's class shows. The default asker
    (tests, bench) is counted against no bound."""

    session: str = ""
    client: str | None = None
    in_class: bool = False


class NoRunError(Exception):
    """No run to show, with a catalog key's last part and its numbers: refused ("busy",
    "session", "client") or ended without a run ("killed", "memory", "bug", "cancelled")."""

    def __init__(self, code: str, **numbers: Any) -> None:
        super().__init__(code, numbers)
        self.code, self.numbers = code, numbers


@dataclass(frozen=True)
class Seen:
    """A run as far as it got: the loss of every step trained so far, the held-out accuracy
    at every snapshot so far (step, accuracy), the snapshots kept so far (compact, the kind the
    finished run holds), its place in line while it waits (1 is next; None once it trains),
    and the finished run or why there is none."""

    done: int
    total: int
    loss: tuple[float, ...]
    accuracy: tuple[tuple[int, float], ...]
    result: Any = None
    error: Exception | None = None
    snapshots: tuple = ()
    place: int | None = None

    @property
    def finished(self) -> bool:
        return self.result is not None or self.error is not None


# A training function, run by a lane: trains the settings, calling `report(losses,
# accuracies, snapshots)` with what is new as it goes, and ending early (raising) once
# `stopped()` is true; returns the run. `urgent` is true in the class lane.
Trainer = Callable[[Settings, Callable[..., None], Callable[[], bool], bool], Any]


@dataclass(eq=False)
class Job:
    settings: Settings
    total: int
    trainer: Trainer
    asker: Asker
    priority: int
    order: int
    service: Service | None = None
    loss: list[float] = field(default_factory=list)
    accuracy: list[tuple[int, float]] = field(default_factory=list)
    kept: Thinned = field(default_factory=lambda: Thinned(0))
    result: Any = None
    error: Exception | None = None
    finished: threading.Event = field(default_factory=threading.Event)
    polled: float = field(default_factory=time.monotonic)
    class_asked: float = -math.inf
    lane: int | None = None  # while it trains
    cancelling: bool = False  # its lane was told nobody waits for it

    def seen(self) -> Seen:
        """The run so far; a poll: the run is still waited for."""
        if self.service is None:  # refused: never in line
            return Seen(0, self.total, (), (), None, self.error)
        return self.service.seen(self)


class Service:
    """The line, the lanes and the kept runs of one server process (`service()`)."""

    def __init__(self) -> None:
        self.lock = threading.Condition()
        self.jobs: dict[Settings, Job] = {}  # waiting, training and kept; oldest asked first
        self.waiting: list[Job] = []  # at most a few dozen: a sort gives the order
        self.orders = itertools.count()
        self.lanes: list[threading.Thread] = []

    # -- asking ------------------------------------------------------------------------------

    def job(self, settings: Settings, trainer: Trainer, asker: Asker = Asker()) -> Job:
        with self.lock:
            now = time.monotonic()
            found = self.jobs.get(settings)
            if found is not None and not found.cancelling:
                self._asked(found, asker, now)
                return found
            refusal = self._refusal(asker)
            if refusal is not None:
                refused = Job(settings, settings.steps, trainer, asker, OWN, -1, error=refusal)
                refused.finished.set()
                return refused
            priority = CLASS if asker.in_class else OWN
            new = Job(settings, settings.steps, trainer, asker, priority, next(self.orders), self)
            new.class_asked = now if asker.in_class else -math.inf
            self.jobs[settings] = new
            self.waiting.append(new)
            self._start_lanes()
            self.lock.notify_all()
            return new

    def _asked(self, found: Job, asker: Asker, now: float) -> None:
        found.polled = now
        if asker.in_class:
            found.class_asked = now
            if found in self.waiting:
                found.priority = CLASS  # a class now looks at it: it moves up the line
                self.lock.notify_all()
        if found.finished.is_set():  # the most recently asked for goes last
            self.jobs[found.settings] = self.jobs.pop(found.settings)

    def _refusal(self, asker: Asker) -> NoRunError | None:
        if asker.in_class:
            return None
        self._drop_stale(time.monotonic())
        mine = [j for j in self.jobs.values() if not j.finished.is_set()]
        if asker.session and sum(j.asker.session == asker.session for j in mine) >= PER_SESSION:
            return NoRunError("session", limit=PER_SESSION)
        if asker.client and sum(j.asker.client == asker.client for j in mine) >= PER_CLIENT:
            return NoRunError("client", limit=PER_CLIENT)
        if sum(j.priority == OWN for j in self.waiting) >= MAX_WAITING:
            return NoRunError("busy", limit=MAX_WAITING)
        return None

    def seen(self, job: Job) -> Seen:
        with self.lock:
            job.polled = time.monotonic()
            self._drop_stale(job.polled)  # any page's poll ends the runs nobody polls
            place = None
            if job in self.waiting:
                place = 1 + sum(_rank(other) < _rank(job) for other in self.waiting)
            finished = isinstance(job.result, TrainingRun)
            snapshots = tuple(job.result.snapshots if finished else job.kept.kept)
            return Seen(
                len(job.loss),
                job.total,
                tuple(job.loss),
                tuple(job.accuracy),
                job.result,
                job.error,
                snapshots,
                place,
            )

    # -- the lanes ---------------------------------------------------------------------------

    def _start_lanes(self) -> None:
        if self.lanes:
            return
        for lane in (CLASS_LANE, OPEN_LANE):
            name = f"train-lane-{lane}-{id(self):x}"  # its own training process (compute)
            thread = threading.Thread(target=self._serve, args=(lane,), name=name, daemon=True)
            self.lanes.append(thread)
            thread.start()

    def _serve(self, lane: int) -> None:
        while True:
            with self.lock:
                job = self._next(lane)
                while job is None:
                    self.lock.wait(CANCEL_AFTER)  # the stale go even when nobody asks
                    job = self._next(lane)
                job.lane = lane
            self._train(job)

    def _next(self, lane: int) -> Job | None:
        """The first in line that this lane takes (the class lane takes class runs only)."""
        self._drop_stale(time.monotonic())
        fits = [j for j in self.waiting if lane == OPEN_LANE or j.priority == CLASS]
        if not fits:
            return None
        first = min(fits, key=_rank)
        self.waiting.remove(first)
        return first

    def _drop_stale(self, now: float) -> None:
        for job in [j for j in self.waiting if now - j.polled > CANCEL_AFTER]:
            self.waiting.remove(job)
            self._end(job, None, NoRunError("cancelled"))

    def _train(self, job: Job) -> None:
        def report(loss: list[float], accuracy: list, snapshots: tuple = ()) -> None:
            with self.lock:
                for snapshot in snapshots:
                    job.kept.add(snapshot)
                job.accuracy.extend(accuracy)  # before the losses: a page that sees the
                job.loss.extend(loss)  # steps done has their snapshot too

        def stopped() -> bool:
            with self.lock:
                job.cancelling = job.cancelling or time.monotonic() - job.polled > CANCEL_AFTER
                return job.cancelling

        result, error = None, None
        try:
            result = job.trainer(job.settings, report, stopped, job.lane == CLASS_LANE)
        except AttentionInputError as refused:  # the engine's refusal, worded by the page
            error = refused
        except Exception as failure:  # said on the page in one sentence, never kept
            error = NoRunError(getattr(failure, "code", "bug"))
            if error.code == "bug":
                _log.exception("training %s failed", job.settings)
        with self.lock:
            self._end(job, result, error)

    def _end(self, job: Job, result: Any, error: Exception | None) -> None:
        job.lane = None
        job.result, job.error = result, error
        job.finished.set()
        if error is not None and self.jobs.get(job.settings) is job:
            del self.jobs[job.settings]  # never served again: the next ask trains it anew
        self._evict(time.monotonic())

    def _evict(self, now: float) -> None:
        """Finished runs beyond KEPT_BYTES go, least recently asked for first, but those a
        class asked for in the last CLASS_KEPT seconds or a page polls now."""
        kept = [j for j in self.jobs.values() if j.result is not None]
        total = sum(_size(j.result) for j in kept)
        for job in kept:
            if total <= KEPT_BYTES:
                return
            if now - job.class_asked < CLASS_KEPT or now - job.polled < CANCEL_AFTER:
                continue
            del self.jobs[job.settings]
            total -= _size(job.result)

    def kept_bytes(self) -> int:
        with self.lock:
            return sum(_size(j.result) for j in self.jobs.values() if j.result is not None)

    def clear(self) -> None:
        with self.lock:
            for settings in [s for s, j in self.jobs.items() if j.finished.is_set()]:
                del self.jobs[settings]


def _size(result: Any) -> int:
    return size_in_bytes(result) if isinstance(result, TrainingRun) else 0  # tests' stand-ins


def _rank(job: Job) -> tuple[int, int]:
    return job.priority, job.order


@st.cache_resource(show_spinner=False)
def service() -> Service:
    """The server process's one service (every session, AppTest's too, shares it)."""
    return Service()


def job(settings: Settings, trainer: Trainer, asker: Asker = Asker()) -> Job:
    """The run of these settings: the one kept or in line, or a new one put in line (or
    refused, finished with `NoRunError`, when a bound is reached)."""
    return service().job(settings, trainer, asker)


def kept(settings: Settings) -> Job | None:
    """The run of these settings if one is in line, training or kept, else None."""
    with service().lock:
        return service().jobs.get(settings)


def clear() -> None:
    """Forget every finished run (tests)."""
    service().clear()


# -- who asks ----------------------------------------------------------------------------------


def asker(settings: Settings) -> Asker:
    """This session as an asker of `settings`: its id, its network address where known
    (the classroom's reading of it, a proxy's header included), and whether the run is its
    class's: the teacher's own (the teacher's page is what the class shows; it is published
    at the end of this very run) or the one the teacher's page shows."""
    session = st.session_state.setdefault(SESSION_KEY, uuid.uuid4().hex)
    client = classroom.client_id()
    found = classroom.member()
    in_class = found is not None and (found.teacher or settings in class_settings(found.code))
    return Asker(session, None if client == "local" else client, in_class)


def class_settings(code: str) -> frozenset[Settings]:
    """The runs class `code` shows: its teacher's page's settings (and, when the teacher
    compared the score functions, theirs with every score), if that page is this one."""
    try:
        view = classroom.class_view(code)
    except classroom.STORE_ERRORS:  # the class pauses; the run is an individual one
        return frozenset()
    if view is None or view.page != "train":
        return frozenset()
    values = decode(schema.SCHEMA, view.state).values
    shown = state.settings_of(values)
    if not values.get(state.COMPARED):
        return frozenset({shown})
    return frozenset({shown, *(shown.with_score(s) for s in TRAINING_SCORES)})
