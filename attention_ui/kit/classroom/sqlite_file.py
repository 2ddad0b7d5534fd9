"""The classroom's SQLite file under the running process: deleted or replaced, it is restored
from what the process holds, and no vote reported as sent is lost.

The process holds its own connection to the file it opened (the anchor), for as long as it
runs: if the file is deleted, the anchor still reads it. Three rules keep what was counted:

- The engine's connections never make a file (`mode=rw`), and none is opened while the file at
  the path is not the anchored one: a missing file is a refused write (the student is told it
  was not sent), never a new empty store that a later check would take for the class's.
- The file is compared with the anchored one (device and inode) at every use of the store
  (`check`, an `os.stat`). Deleted: the anchor's copy (sqlite3's backup) is put in its place.
  Replaced (another file moved onto the path): what the process holds is merged into it (its
  classes, seats and votes; the other file's own rows stay).
- A restore waits until no connection is checked out, and none is checked out while it runs:
  every write made before it is in the anchored file it copies, and every write after it goes
  to the restored file. A vote is reported as sent after a `check` that follows its commit
  (`follow.settle`), so it is in the file at the path, not only in a deleted one.

With PostgreSQL there is no file: the database server keeps the store for every process.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from urllib.parse import quote

import sqlalchemy as sa

from . import store

FileId = tuple[int, int]
WAIT_SECONDS = 10.0  # a restore waits this long for the connections in use to come back
_guards: dict[str, Guard] = {}


def file_id(path: str) -> FileId | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def plain_file(eng: sa.Engine) -> str | None:
    """The path of a SQLite engine's file, or None (another database, memory, or a URI whose
    own options say how to open it)."""
    url = eng.url
    if eng.dialect.name != "sqlite" or not url.database or url.database == ":memory:":
        return None
    return None if url.query.get("uri") or url.database.startswith("file:") else url.database


def guard_of(eng: sa.Engine) -> Guard | None:
    path = plain_file(eng)
    return _guards.get(path) if path else None


def attach(eng: sa.Engine) -> None:
    """Make the file if there is none, the tables, and the process's guard of it."""
    path = plain_file(eng)
    if path is None:
        return
    sqlite3.connect(path).close()  # the only place a file is made, apart from a restore
    old = _guards.pop(path, None)
    if old is not None:
        old.close()
    guard = Guard(path, eng)
    store.forget_schema(eng)
    store.ensure_schema(eng)
    guard.anchor()
    _guards[path] = guard


class Guard:
    """One SQLite file of this process: its anchor, the engine's events, restores."""

    def __init__(self, path: str, eng: sa.Engine) -> None:
        self.path, self.engine = path, eng
        self.held: sqlite3.Connection | None = None
        self.ids: tuple[FileId | None, ...] = (file_id(path), None, None)
        self.restores = 0  # how many times the file was restored (read by tests and logs)
        self._cond = threading.Condition()
        self._holders: dict[int, int] = {}  # thread → connections it has checked out
        self._restorer: int | None = None  # the thread restoring the file, if one is
        sa.event.listen(eng, "do_connect", self._connect)
        sa.event.listen(eng, "checkout", self._checkout)  # kept by the pools dispose() makes
        sa.event.listen(eng, "checkin", self._checkin)

    # -- the anchor ------------------------------------------------------------------------

    def anchor(self) -> None:
        """Hold the file now at the path (the WAL opened too): what the process counted."""
        held = sqlite3.connect(self.path, check_same_thread=False)
        held.execute("SELECT count(*) FROM classroom_meta").fetchone()  # opens its WAL too
        old, self.held = self.held, held
        self.ids = tuple(file_id(self.path + tail) for tail in ("", "-wal", "-shm"))
        if old is not None:
            old.close()  # SQLite never deletes the WAL of a file that moved: the new one stays

    def close(self) -> None:
        if self.held is not None:
            self.held.close()
            self.held = None

    # -- the engine's events ---------------------------------------------------------------

    def _connect(self, dialect, record, cargs, cparams) -> None:
        if self._restorer != threading.get_ident() and file_id(self.path) != self.ids[0]:
            raise sqlite3.OperationalError("the classroom's store file moved: not restored yet")
        cargs[:] = [f"file:{quote(self.path)}?mode=rw"]
        cparams["uri"] = True
        record.info["restores"] = self.restores  # the file it opens

    def _checkout(self, dbapi_connection, record, proxy) -> None:
        """Wait while a restore runs (a thread holding a connection already goes on: the
        restore waits for it); a connection to the file from before a restore is discarded
        (the pool opens another)."""
        me = threading.get_ident()
        with self._cond:
            if not self._holders.get(me) and self._restorer not in (None, me):
                self._cond.wait_for(lambda: self._restorer is None, WAIT_SECONDS)
            if record.info.get("restores", self.restores) != self.restores:
                raise sa.exc.DisconnectionError("the classroom's store file was restored")
            record.info["held_by"] = me
            self._holders[me] = self._holders.get(me, 0) + 1

    def _checkin(self, dbapi_connection, record) -> None:
        with self._cond:
            holder = record.info.pop("held_by", None) if record is not None else None
            if holder is not None:
                self._holders[holder] -= 1
                if not self._holders[holder]:
                    del self._holders[holder]
            self._cond.notify_all()

    def _others_hold(self, me: int) -> bool:
        return any(count for thread, count in self._holders.items() if thread != me)

    # -- checks and restores ---------------------------------------------------------------

    def check(self) -> bool:
        """Restore the file if it is not the anchored one; True when it was restored now."""
        if file_id(self.path) == self.ids[0]:
            return False
        me = threading.get_ident()
        with self._cond:
            if self._restorer is not None and self._restorer != me:
                self._cond.wait_for(lambda: self._restorer is None, WAIT_SECONDS)
                return False  # restored by another thread
            if file_id(self.path) == self.ids[0]:
                return False
            self._restorer = me
            self._cond.wait_for(lambda: not self._others_hold(me), WAIT_SECONDS)
        try:
            self._rebuild()
        finally:
            with self._cond:
                self._restorer = None
                self._cond.notify_all()
        return True

    def probe(self) -> None:
        """A write that changes nothing, on a connection of its own (a pooled one opened before
        the file was made read-only would still write): raises while the file takes none."""
        if not os.access(self.path, os.W_OK):
            raise sqlite3.OperationalError("the classroom's store file is read-only")
        conn = sqlite3.connect(f"file:{quote(self.path)}?mode=rw", uri=True, timeout=15)
        try:
            conn.execute("UPDATE classroom_meta SET value = value WHERE name = 'schema_version'")
            conn.commit()
        finally:
            conn.close()

    def _rebuild(self) -> None:
        """The file at the path becomes what the anchor holds (deleted), or takes it in
        (replaced); then the engine works on it."""
        copy = f"{self.path}.restoring"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(copy)
        target = sqlite3.connect(copy)
        try:
            self.held.backup(target)
        finally:
            target.close()
        self._drop_stale_wal()
        if file_id(self.path) is None or not self._merge(copy):
            os.replace(copy, self.path)
        else:
            os.unlink(copy)
        self.restores += 1  # connections opened before are discarded at their next checkout
        self.engine.dispose()  # its connections hold the old file
        self.anchor()
        store.forget_schema(self.engine)
        store.ensure_schema(self.engine)

    def _drop_stale_wal(self) -> None:
        """The old file's WAL and shared memory, if still at the path: a new file must not
        take them for its own (the old file's connections keep them open)."""
        for tail, kept in zip(("-wal", "-shm"), self.ids[1:], strict=True):
            found = file_id(self.path + tail)
            if found is not None and (kept is None or found == kept or file_id(self.path) is None):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.path + tail)

    def _merge(self, copy: str) -> bool:
        """What the process holds (`copy`), merged into the file that replaced its own; False
        when that file is not a store this app can use (it is then moved aside)."""
        try:
            other = sa.create_engine(f"sqlite:///{self.path}", poolclass=sa.pool.NullPool)
            store.forget_schema(other)
            store.ensure_schema(other)
            other.dispose()
            store.forget_schema(other)
            conn = sqlite3.connect(f"file:{quote(self.path)}?mode=rw", uri=True, timeout=15)
        except (sa.exc.SQLAlchemyError, sqlite3.Error, store.SchemaTooNewError):
            os.replace(self.path, f"{self.path}.replaced-{int(time.time())}")
            return False
        try:
            conn.execute("ATTACH DATABASE ? AS ours", (copy,))
            for table, verb in (
                (store.classes, "INSERT OR REPLACE"),  # the process's class is the latest
                (store.seats, "INSERT OR IGNORE"),
                (store.votes, "INSERT OR IGNORE"),
            ):
                names = ", ".join(column.name for column in table.columns)
                conn.execute(
                    f"{verb} INTO main.{table.name} ({names}) SELECT {names} FROM ours.{table.name}"
                )
            for table in (store.failures, store.events):
                names = ", ".join(c.name for c in table.columns if c.name != "id")
                conn.execute(
                    f"INSERT INTO main.{table.name} ({names}) SELECT {names} FROM ours.{table.name}"
                    f" o WHERE NOT EXISTS (SELECT 1 FROM main.{table.name} m"
                    " WHERE m.client = o.client AND m.at = o.at)"
                )
            conn.commit()
            conn.execute("DETACH DATABASE ours")
        finally:
            conn.close()
        return True
