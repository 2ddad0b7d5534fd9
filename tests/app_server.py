"""Starting and stopping `streamlit run app.py` on a free loopback port, for the browser and
deploy tests and for bench/load.py."""

from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_app(
    python: str = sys.executable,
    cwd: Path = REPO,
    env: dict[str, str] | None = None,
    extra_args: tuple[str, ...] = (),
    script: str = "app.py",
    script_args: tuple[str, ...] = (),
    port: int | None = None,
) -> tuple[subprocess.Popen, str]:
    """Start `streamlit run app.py` (or another `script`, relative to `cwd`, with `script_args`
    after `--`) on `port` (default: a free one) and wait until it is healthy; returns
    (process, url).

    The server's output goes to a temporary file, not a pipe: nobody reads a pipe while the
    server runs, and a full one would block it.
    """
    port = port or free_port()
    log = tempfile.TemporaryFile()  # noqa: SIM115 (kept with the process)
    process = subprocess.Popen(
        [
            python,
            "-m",
            "streamlit",
            "run",
            script,
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--browser.gatherUsageStats",
            "false",
            "--server.fileWatcherType",
            "none",
            *extra_args,
            *(("--", *script_args) if script_args else ()),
        ],
        cwd=cwd,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    process.log = log  # read by server_log()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"streamlit exited: {server_log(process)[-2000:]}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return process, url
        except OSError:
            time.sleep(0.3)
    process.kill()
    raise RuntimeError("streamlit did not become healthy within 60 s")


def stop_app(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


def server_log(process: subprocess.Popen) -> str:
    """Everything a server started by start_app has printed so far."""
    log = process.log
    log.seek(0)
    return log.read().decode(errors="replace")
