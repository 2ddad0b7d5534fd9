"""The process that trains: the server hands it one run's settings at a time and reads back
its progress and the finished run, so training never holds the server's interpreter (a NumPy
model this small spends most of its time in Python, which in a thread of the server would
slow every other session's run). It imports the engine alone.

Messages it sends for a request: ("progress", (new losses, [(step, held-out accuracy)])) after
each snapshot, then ("done", TrainingRun), or ("refused", (code, params)) for settings the
engine refuses, or ("failed", text).
"""

from __future__ import annotations

import os
import resource
import signal
from dataclasses import fields
from multiprocessing.connection import Connection
from typing import Any

from attention_core import AttentionInputError, toy_task
from attention_core.training import TrainingSettings, train_attention_steps


def serve(connection: Connection) -> None:
    """Answer requests until the server closes the connection. The fork inherited the
    server's signal handlers (Streamlit's SIGTERM handler stops a server this process does not
    run, so it would never end, and the server's exit, which waits for it, with it)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    _close_inherited(keep=connection.fileno())
    while True:
        try:
            request = connection.recv()
        except (EOFError, OSError):
            return
        connection.send(_train(request, connection))


def _close_inherited(keep: int) -> None:
    """Close every file the fork inherited but standard input, output, error and `keep`: the
    server's listening socket, its sessions' websockets, the server's end of this process's
    own pipe and the pipes of processes the server started. Held here, they outlive the server
    letting go of them: the server's end of the pipe would never read as closed (this process
    would outlive the server), nor would a browser driver's pipe (its driver never exits)."""
    limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    os.closerange(3, keep)
    os.closerange(keep + 1, limit if limit != resource.RLIM_INFINITY else 65536)


def _train(request: dict[str, Any], connection: Connection) -> tuple[str, Any]:
    try:
        task = toy_task(request["task"], size=request["size"], seed=request["seed"])
        done = 0
        settings = TrainingSettings(**{f.name: request[f.name] for f in fields(TrainingSettings)})
        for progress in train_attention_steps(task, settings):
            snapshot = progress.snapshot
            new = progress.loss[done:].tolist()
            connection.send(("progress", (new, [(snapshot.step, snapshot.accuracy)])))
            done = progress.step
            if progress.run is not None:
                return ("done", progress.run)
        return ("failed", "no run")
    except AttentionInputError as refused:
        params = {**refused.params, "matrix": refused.matrix, "cell": refused.cell}
        return ("refused", (refused.code, params))
    except Exception as failure:  # said on the page in one sentence; never a traceback there
        return ("failed", repr(failure))
