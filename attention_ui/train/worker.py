"""The training process: a worker of a one-process pool (train/compute.py), forked from the
server, that trains one run at a time, so training never holds the server's interpreter (a
NumPy model this small spends most of its time in Python, which in a thread of the server
would slow every other session's run). It imports the engine alone.

For each run (`train`) it puts ("progress", run id, new losses, compact snapshot) on its
lane's progress queue after each snapshot, and stops early when its lane's stop event is set
(nobody waits for the run any more). It returns ("done", the kept run: compact, thinned),
("cancelled",), ("refused", code, params) for settings the engine refuses, or
("failed", what, text): "memory" (out of memory) or "bug".
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from dataclasses import fields
from typing import Any

from attention_core import AttentionInputError, toy_task
from attention_core.training import TrainingSettings, train_attention_steps
from attention_ui.train import snapshots

# Niceness: the server's sessions (drawing, Luong's edits) come before training, and the
# class's run before the runs students start on their own (the kernel weighs niceness 5 at 335
# against 36 for 15, so the class lane gets nine tenths of a processor the two share).
CLASS_NICE, OPEN_NICE = 5, 15
_lane: dict[str, Any] = {}  # this process's progress queue and stop event


def open_files() -> dict[int, tuple[int, int]]:
    """This process's open files now: {descriptor: (device, inode)}, what the lane's process
    closes (`start`). The file's identity, not only its number: between this look and the fork
    another thread of the server can close one of these descriptors, and the pool's own pipes,
    made after, can take its number (the new pool then broke at its first call: two runs of
    the suite in about twenty, in tests/pages/train/test_worker.py)."""
    found = {}
    for name in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):  # the listing's own descriptor, closed by now
            status = os.fstat(int(name))
            found[int(name)] = (status.st_dev, status.st_ino)
    return found


def start(inherited: dict[int, tuple[int, int]], progress, stop, nice: int) -> None:
    """The pool's initializer, first thing in the forked process.

    The fork inherited the server's signal handlers (Streamlit's SIGTERM handler would stop,
    through the inherited wake-up socket, the server itself) and every file the server had
    open before the pool was made (`inherited`, from `open_files`): its listening socket, its
    sessions' websockets, a browser driver's pipe. Held here, they would outlive the server
    letting go of them. They are closed; what the pool made after (its queues, its pipes)
    stays, even under a number one of them had.
    """
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.set_wakeup_fd(-1)
    for fd, identity in inherited.items():
        with contextlib.suppress(OSError):  # closed since
            status = os.fstat(fd)
            if fd > 2 and (status.st_dev, status.st_ino) == identity:
                os.close(fd)
    os.nice(nice)
    _lane.update(progress=progress, stop=stop)
    server = os.getppid()
    threading.Thread(target=_end_with, args=(server,), name="server-watch", daemon=True).start()


def _end_with(server: int) -> None:
    """End this process once the server is gone (killed, or its exit did not wait): the pool
    ends its process only when the server shuts it down, and this process holds both ends of
    the pool's pipes, so it would never read the server's end as closed."""
    while os.getppid() == server:
        time.sleep(1.0)
    os._exit(0)


def ready() -> int:
    """A task that forks the pool's process at once (so it inherits nothing opened later)."""
    return os.getpid()


def train(run_id: int, request: dict[str, Any]) -> tuple:
    progress, stop = _lane["progress"], _lane["stop"]
    try:
        task = toy_task(request["task"], size=request["size"], seed=request["seed"])
        done = 0
        settings = TrainingSettings(**{f.name: request[f.name] for f in fields(TrainingSettings)})
        for step in train_attention_steps(task, settings):
            if stop.is_set():
                return ("cancelled",)
            new = step.loss[done:].tolist()
            progress.put(("progress", run_id, new, snapshots.compact(step.snapshot)))
            done = step.step
            if step.run is not None:
                return ("done", snapshots.compact_run(step.run))
        return ("failed", "bug", "no run")
    except AttentionInputError as refused:
        params = {**refused.params, "matrix": refused.matrix, "cell": refused.cell}
        return ("refused", refused.code, params)
    except MemoryError:
        return ("failed", "memory", "")
    except Exception as failure:  # said on the page in one sentence; never a traceback there
        return ("failed", "bug", repr(failure))
