"""Debian's PostgreSQL for the classroom's deploy test and bench/load.py's class mode: a
throw-away cluster in a temporary folder, on a free loopback port, never as root.

initdb refuses to run as root, so when this process is root (CI, containers) the cluster
belongs to Debian's `postgres` system user and its commands run through `runuser`; otherwise
they run as the current user. Connections are trusted on 127.0.0.1 only (the cluster listens
nowhere else and its socket folder is its own).
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tests.app_server import free_port

USER = "classroom"


def postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


@dataclass
class Postgres:
    folder: Path
    port: int
    as_user: tuple[str, ...]

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/postgres"


def _run(as_user: tuple[str, ...], *command: str) -> None:
    subprocess.run([*as_user, *command], check=True, capture_output=True, timeout=120)


def start_postgres() -> Postgres:
    """initdb and pg_ctl start in a new temporary folder; returns when it accepts connections."""
    binaries = postgres_bin()
    if binaries is None:
        raise RuntimeError("Debian's postgresql is missing: tools/test-all.sh installs it")
    folder = Path(tempfile.mkdtemp(prefix="classroom-pg-"))
    as_user: tuple[str, ...] = ()
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
        as_user = ("runuser", "-u", "postgres", "--")
    port = free_port()
    data = folder / "data"
    _run(
        as_user,
        str(binaries / "initdb"),
        "-D",
        str(data),
        "-U",
        USER,
        "-A",
        "trust",
        "-E",
        "UTF8",
        "--no-sync",
    )
    options = f"-c listen_addresses=127.0.0.1 -p {port} -k {folder} -c fsync=off"
    _run(
        as_user,
        str(binaries / "pg_ctl"),
        "-D",
        str(data),
        "-o",
        options,
        "-l",
        str(folder / "log"),
        "-w",
        "-t",
        "60",
        "start",
    )
    return Postgres(folder, port, as_user)


def stop_postgres(server: Postgres) -> None:
    binaries = postgres_bin()
    try:
        _run(
            server.as_user,
            str(binaries / "pg_ctl"),
            "-D",
            str(server.folder / "data"),
            "-m",
            "fast",
            "-w",
            "stop",
        )
    finally:
        shutil.rmtree(server.folder, ignore_errors=True)
