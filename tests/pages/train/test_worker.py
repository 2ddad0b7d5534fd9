"""The training process (train/worker.py), forked from the server: it holds no file of the
server's but its own pipe, so nothing the server lets go of stays open through it, and it ends
when the server closes that pipe."""

from __future__ import annotations

import os
import socket
import time

from attention_ui.train import compute


def open_files(pid: int) -> set[int]:
    return {int(fd) for fd in os.listdir(f"/proc/{pid}/fd")}


def test_the_training_process_keeps_only_its_pipe_and_ends_when_the_server_closes_it():
    listening = socket.socket()  # stands for the server's socket and a driver's pipe
    try:
        with compute._process_lock:
            compute._stop()
            connection = compute._connection()
            process, ours = compute._process[0]
            deadline = time.monotonic() + 30
            # the child closes what it inherited first thing; wait until it has
            while len(open_files(process.pid)) > 4 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert len(open_files(process.pid)) == 4  # standard in, out, error and its pipe
            assert connection is ours
            compute._stop()
            assert not process.is_alive()
    finally:
        listening.close()
