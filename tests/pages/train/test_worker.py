"""The training process (train/worker.py), a one-process pool forked from the server: it holds
none of the files the server had open when it was forked (its listening socket, its sessions'
websockets, a browser driver's pipe), so nothing the server lets go of stays open through it,
and it ends when its pool is shut down."""

from __future__ import annotations

import os
import socket
import threading

import psutil

from attention_ui.train import compute


def test_the_training_process_holds_none_of_the_servers_files_and_ends_with_its_pool():
    listening = socket.socket()  # stands for the server's socket and a driver's pipe
    listening.bind(("127.0.0.1", 0))
    listening.listen()
    found: list[int] = []
    lane = threading.Thread(target=lambda: found.append(compute._lane().pid), name="test-lane")
    try:
        lane.start()
        lane.join(60)
        (pid,) = found
        held = {int(fd) for fd in os.listdir(f"/proc/{pid}/fd")}
        assert listening.fileno() not in held
        sockets = [c for c in psutil.Process(pid).net_connections(kind="all")]
        assert sockets == []
    finally:
        listening.close()
        compute.stop_processes()
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
