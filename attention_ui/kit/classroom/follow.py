"""The classroom in a Streamlit session: the connection, who this browser is in which class,
and following the teacher's page.

Membership lives in the session; a student's travels in the address (`class` with `seat`) and
a teacher's in the tab's keeper (the key is never in an address bar), so a reload keeps it;
anything the address or the keeper brings is checked against the store first (and a wrong
one counts against the browser's rate limit). The teacher's page and state are published
after each of the teacher's runs (`after_run`, from the shared address writer); a follower's
sidebar polls the class (attention_ui.kit.classroom.panel) and, on a change, takes the
teacher's state through the same checks as an address (`PageAccess.restore`) at the top of the
next run. A follower's own edit (a different state or page) leaves follow mode; a run that
the browser sent before the teacher's state reached it carries the widgets' old values and is
not one (its address does not yet hold the change count taken: `REV_PARAM`).

The class has a language, the teacher's (stored with the class, updated when the teacher
switches). A student who has not picked one with the language switch is shown it, whatever
route they joined by; their pick is kept with their seat (a reload keeps it), and is not an
own edit: they go on following.
"""

from __future__ import annotations

import functools
import logging
import math
import os
import sqlite3
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import sqlalchemy as sa
import streamlit as st

from attention_ui.kit.text.i18n import LANGUAGE_STATE_KEY, current_language, language_from_tag

from . import codes, keeper, sqlite_file, store

CLASS_PARAM, TEACHER_PARAM, SEAT_PARAM = "class", "teacher", "seat"
CLASS_PARAMS = (CLASS_PARAM, TEACHER_PARAM, SEAT_PARAM)
# A follower's address holds the teacher's change count it took, written at the run's end
# after every widget: a run whose request (the browser's address when it sent it) holds
# another count was sent before the taken state reached the browser (its poll's timer), so
# the widgets' old values it carries are an echo, not the student's edit, however late it
# comes on a loaded server. Not a class parameter: the address's join is tried on those.
REV_PARAM = "rev"
ADDRESS_PARAMS = (*CLASS_PARAMS, REV_PARAM)  # every classroom parameter: none is a page's state
DB_ENV = "ATTENTION_CLASSROOM_DB"  # a SQLite file to use instead of the default one
# How many proxies of ours stand in front of the app, each appending the address it saw to
# X-Forwarded-For (deploy/nginx.conf: 1). Unset or 0: the header is anyone's to write, so it is
# ignored and the client is the connection's peer.
PROXY_HOPS_ENV = "ATTENTION_PROXY_HOPS"
SESSION_JOINS = 3  # new seats one browser session may take (a reload keeps its seat)
PURGE_EVERY = 60.0  # seconds between a process's purges of expired classes and old attempts
HEALTH_EVERY = 2.0  # seconds between a process's checks that its store is there and writable
RESTORED_SHOWN = 120.0  # seconds every screen says the store was restored
# Seconds a class read is shared by the sessions of one process: a change made on another
# process reaches its followers' polls at most this late, a small part of the follow latency's
# budget (STUDENT_POLL_SECONDS); a read is one row by its key.
VIEW_TTL = 0.25
TOUCH_EVERY = 5.0  # seconds between a process's presence writes (all its students in one)
CONFIG_TTL = 10.0  # seconds the secrets' answer (which store) is kept: every poll asks
_MEMBER = "classroom.member"
_TRIED = "classroom.tried"  # the address's class parameters already tried in this session
_JOINS = "classroom.joins"  # new seats this session has taken
_REFUSED_KEPT = "classroom.refused_kept"  # a seat the browser keeps that the store refused
# The (code, key) the tab's piece keeps for its teacher that this session took or tried (it is
# not tried again), and whether the piece is to forget it (refused, or the class ended).
_TRIED_TEACHER = "classroom.tried_teacher"
_DROP_TEACHER = "classroom.drop_teacher"
_PENDING = "classroom.pending"  # the teacher's (page, state) to take at the next run's top
_APPLIED = "classroom.applied"  # the teacher's change count this follower shows
_BASELINE = "classroom.baseline"  # (page, state) after taking the teacher's state
_TAKEN = "classroom.taken"  # the Taken of the teacher's state this follower took last
_RUNS = "classroom.runs"  # this session's whole runs, counted: which one took the state
# Seconds after a take in which a run from an address that holds its count, showing the state
# from before the take on every parameter that differs, is still no own edit: on a loaded
# machine a toggle's old value came back with the new address (edf45d5 has the figures).
# The state is taken again; a student who really went back to the old value within the
# window is taken over once.
RETAKE_WITHIN = 10.0
_PUBLISHED = "classroom.published"  # the teacher's (page, state) last published
_PUBLISHED_LANG = "classroom.published_lang"  # the teacher's language last published
_BASELINE_LANG = "classroom.baseline_lang"  # the language the baseline was drawn in
PRESENT = "classroom.present"  # the teacher's present mode (a join panel, larger text)
NOTICE = "classroom.notice"  # a message code for the sidebar (wrong code, limited, ended)
STORE_DOWN = "classroom.store_down"  # set when a store call failed; the sidebar says so
# A database that is down, refuses, times out or is full; a SQLite file that cannot be opened.
STORE_ERRORS = (sa.exc.SQLAlchemyError, sqlite3.Error, OSError)
_log = logging.getLogger(__name__)


def store_safe(fallback: Callable[[], object] | None = None):
    """For every way in from a page (run top and end, sidebar, polls, buttons): when the store
    cannot be reached the class pauses, the page goes on, and the sidebar says so. The next
    run or poll tries again (SQLAlchemy's pool drops the broken connections)."""

    def decorate(function):
        @functools.wraps(function)
        def guarded(*args, **kwargs):
            try:
                return function(*args, **kwargs)
            except STORE_ERRORS as error:
                _log.warning("classroom store unavailable: %s", type(error).__name__)
                st.session_state[STORE_DOWN] = True
                return fallback() if fallback is not None else None

        return guarded

    return decorate


@dataclass(frozen=True)
class Member:
    code: str
    role: str  # "teacher" or "student"
    secret: str  # the teacher key or the student's seat
    following: bool = True
    lang: str | None = None  # the language a student picked (None: the class's)

    @property
    def teacher(self) -> bool:
        return self.role == "teacher"


@dataclass(frozen=True)
class Taken:
    """The teacher's state as a follower took it, and what the follower showed before."""

    rev: int  # the teacher's change count
    page: str
    state: dict[str, str]
    run: int  # the whole run that took it (_RUNS)
    at: float  # time.monotonic() when taken
    before: tuple[str, dict[str, str]] | None  # the (page, state) shown before, if known

    @property
    def pending(self) -> tuple[int, str, dict[str, str]]:
        """To take it again: the form of `_PENDING`."""
        return self.rev, self.page, self.state


@dataclass(frozen=True)
class PageAccess:
    """What the frame lends the classroom about pages (it never imports one)."""

    restore: Callable[[str, dict[str, str]], None]  # a page's state from address parameters
    goto: Callable[[str], None]  # switch to a page by name (st.switch_page)
    pages: tuple[str, ...]  # the menu's page names


# -- the connection ----------------------------------------------------------------------------


def default_url() -> str:
    path = os.environ.get(DB_ENV) or str(
        Path(tempfile.gettempdir()) / "attention-explorer-classroom.sqlite"
    )
    return f"sqlite:///{path}"


_config_checked: list[tuple[float, bool]] = []


def _configured() -> bool:
    """A [connections.classroom] entry in the app's secrets (e.g. a PostgreSQL url); read
    again at most every CONFIG_TTL s, since parsing the secrets is most of an idle poll."""
    now = time.monotonic()
    if _config_checked and now - _config_checked[0][0] < CONFIG_TTL:
        return _config_checked[0][1]
    found = bool(st.secrets.load_if_toml_exists()) and "classroom" in st.secrets.get(
        "connections", {}
    )
    _config_checked[:] = [(now, found)]
    return found


_engines: dict[str, sa.Engine] = {}
# One session at a time makes an engine: sessions opening together would each add the
# engine's event listeners while another connects (SQLAlchemy: "deque mutated during
# iteration") and make the file's guard twice.
_engines_lock = threading.Lock()


class StoreUnavailableError(OSError):
    """The store answers reads but takes no writes, or its file went away unrestorably."""


def engine() -> sa.Engine:
    """The classroom's engine, checked (`_check`) at most every HEALTH_EVERY s: a store that
    takes no writes raises StoreUnavailableError, which every way in turns into the paused
    class's notice; a SQLite file deleted under the running process is restored."""
    eng = _engine()
    _check(eng)
    return eng


def _engine() -> sa.Engine:
    """The configured connection, else the SQLite file (made once per process and place:
    every follower's poll asks for it)."""
    where = "secrets" if _configured() else default_url()
    eng = _engines.get(where)
    if eng is not None:
        return eng
    with _engines_lock:
        eng = _engines.get(where)
        return eng if eng is not None else _make_engine(where)


def _make_engine(where: str) -> sa.Engine:
    if where == "secrets":
        connection = st.connection("classroom", type="sql")
    else:
        connection = st.connection("classroom", type="sql", url=where, connect_args={"timeout": 15})
    eng = connection.engine
    if eng.dialect.name == "sqlite":
        sa.event.listen(eng, "connect", _sqlite_pragmas)
    sqlite_file.attach(eng)  # a SQLite file: made once here, restored if it goes
    store.ensure_schema(eng)
    _engines[where] = eng
    return eng


_health: dict[str, tuple[float, bool]] = {}
_health_lock = threading.Lock()
restored_at = [float("-inf")]  # when this process last restored its store (time.time())


def _check(eng: sa.Engine) -> None:
    """At every use: a SQLite file deleted or replaced is restored first (`settle`); at most
    every HEALTH_EVERY s: the store takes a write (one that takes none pauses the class for
    every role)."""
    settle(eng)
    guard = sqlite_file.guard_of(eng)
    name = eng.url.render_as_string(hide_password=True)
    now = time.monotonic()
    with _health_lock:
        last = _health.get(name)
        if last is not None and now - last[0] < HEALTH_EVERY:
            if not last[1]:
                raise StoreUnavailableError(name)
            return
        _health[name] = (now, False)  # one check at a time; the others wait for its answer
        try:
            if guard is not None:
                guard.probe()  # on a connection of its own: a pooled one may still write
            else:
                store.probe(eng)
        except STORE_ERRORS:
            _log.warning("classroom store takes no writes")
            raise
        _health[name] = (now, True)


def settle(eng: sa.Engine) -> None:
    """The SQLite file at the path is the one the process holds, restored now if it was
    deleted or replaced (kit/classroom/sqlite_file). Also after a write a student is told of
    (a vote), so that it is in the file that stays."""
    guard = sqlite_file.guard_of(eng)
    if guard is not None and guard.check():
        restored_at[0] = time.time()
        _log.warning("classroom store file was deleted or replaced: restored")
        with _views_lock:
            _views.clear()


def restored_recently() -> bool:
    return time.time() - restored_at[0] < RESTORED_SHOWN


_purged = [float("-inf")]
_purge_lock = threading.Lock()


def purge_if_due(eng: sa.Engine) -> None:
    """Expired classes and old attempts are deleted at most every PURGE_EVERY s per process,
    whatever the traffic (a class being started is not needed for it)."""
    now = time.monotonic()
    with _purge_lock:
        if now - _purged[0] < PURGE_EVERY:
            return
        _purged[0] = now
    _forget_old_views(now)
    store.purge(eng, time.time())


def _forget_old_views(now: float) -> None:
    """The views read and the write times noted more than PURGE_EVERY s ago: a view serves
    for VIEW_TTL s and a write time for the reads in flight, so neither is needed any more
    (a class's are otherwise kept for the process's life, one per class ever seen)."""
    with _views_lock:
        for code in [code for code, (at, _) in _views.items() if now - at > PURGE_EVERY]:
            del _views[code]
        for code in [code for code, at in _written.items() if now - at > PURGE_EVERY]:
            del _written[code]


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    # WAL: the followers' reads do not wait for the teacher's writes.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


_views: dict[str, tuple[float, store.ClassView | None]] = {}
# When this process last wrote to each class: a read begun before it is not kept, or the
# writer's own run (which waits for a poll's read in flight) would be shown the class as it was.
_written: dict[str, float] = {}
_views_lock = threading.Lock()
_reading = threading.Lock()  # one read at a time: the polls that found it stale wait for it


def class_view(code: str) -> store.ClassView | None:
    """The class as the store has it, read at most every VIEW_TTL s per process (the polls
    of a process's followers that find it stale at the same moment share one read)."""
    found = _fresh_view(code)
    if found is not None:
        return found[0]
    with _reading:
        found = _fresh_view(code)  # read by another poll meanwhile
        if found is not None:
            return found[0]
        now = time.monotonic()
        view = store.view(engine(), code)
        with _views_lock:
            if now > _written.get(code, -math.inf):
                _views[code] = (now, view)
    return view


def _fresh_view(code: str) -> tuple[store.ClassView | None] | None:
    with _views_lock:
        cached = _views.get(code)
    if cached is not None and time.monotonic() - cached[0] < VIEW_TTL:
        return (cached[1],)
    return None


def forget_view(code: str) -> None:
    """This process has just changed the class `code`: its next read comes from the store."""
    with _views_lock:
        _views.pop(code, None)
        _written[code] = time.monotonic()


def proxy_hops() -> int:
    text = os.environ.get(PROXY_HOPS_ENV, "").strip()
    return int(text) if text.isdigit() and int(text) < 10 else 0


def client_from(forwarded: object, peer: object, hops: int) -> str:
    """Whom an attempt is counted against. Behind `hops` proxies of ours, the entry the first
    of them wrote (the hops-th from the end of X-Forwarded-For: a client may put anything
    before it); with none, the connection's peer, whatever the header says; "local" for a
    browser on this machine."""
    if hops > 0 and isinstance(forwarded, str):
        entries = [entry.strip() for entry in forwarded.split(",")]
        if len(entries) >= hops and entries[-hops]:
            return entries[-hops][:80]
    return peer[:80] if isinstance(peer, str) and peer else "local"


def client_id() -> str:
    return client_from(
        st.context.headers.get("X-Forwarded-For"), st.context.ip_address, proxy_hops()
    )


# -- membership --------------------------------------------------------------------------------


def member() -> Member | None:
    found = st.session_state.get(_MEMBER)
    return found if isinstance(found, Member) else None


def _set_member(found: Member | None) -> None:
    if found is None:
        for key in (
            _MEMBER,
            _PENDING,
            _APPLIED,
            _BASELINE,
            _BASELINE_LANG,
            _PUBLISHED,
            _PUBLISHED_LANG,
            _TAKEN,
        ):
            st.session_state.pop(key, None)
    else:
        st.session_state[_MEMBER] = found


def address_params() -> dict[str, str]:
    """The class's part of this browser's address. A teacher's has none: the key is never in
    an address bar (a projector shows it to the room; the class code alone would make a
    reloaded teacher's tab a student's). The tab keeps the key (keeper) and the teacher
    address stays behind the teacher's button. A follower's holds the change count of the
    teacher's state it took last (REV_PARAM)."""
    found = member()
    if found is None:
        # A join or teacher address not tried yet (the store was down) stays for the next run.
        waiting = _address_to_try()
        return {name: str(value) for name, value in (waiting or {}).items() if value}
    if found.teacher:
        return {}
    seat = {CLASS_PARAM: found.code, SEAT_PARAM: found.secret}
    taken = st.session_state.get(_TAKEN)
    return {**seat, REV_PARAM: str(taken.rev)} if found.following and taken else seat


def _address_to_try() -> dict[str, str | None] | None:
    """The address's class parameters, while this session has not yet tried them."""
    params = {name: st.query_params.get(name) for name in CLASS_PARAMS}
    if params[CLASS_PARAM] and st.session_state.get(_TRIED) != params:
        return params
    return None


def admit(eng: sa.Engine, client: str, code_text: object, teacher=None, seat=None) -> object:
    """Check what an address or the join box brings: a Member, or a notice code ("unknown",
    "limited", "busy": too many joins from this client, "full": the class has MAX_SEATS).

    A valid teacher key or seat is let in first, whatever the limits: a guess cannot lock the
    teacher or a seated student out. Anything else is refused while its client, or the class
    it names a key or seat of, has failed too often; every failure counts against both."""
    code = codes.normal_code(code_text)
    if code is not None and teacher is not None:
        if store.is_teacher(eng, code, teacher):
            return Member(code, "teacher", str(teacher))
    elif code is not None and seat is not None:
        following = store.seat_following(eng, code, seat)
        if following is not None:
            picked = store.seat_language(eng, code, seat)
            return Member(code, "student", str(seat), following, language_from_tag(picked))
    secret = teacher is not None or seat is not None
    parties = (client, store.class_party(code)) if code is not None and secret else (client,)
    if any(store.limited(eng, party) for party in parties):
        return "limited"
    if code is not None and not secret:
        if store.too_many(eng, "join", client):
            return "busy"
        if store.class_exists(eng, code) and store.seat_count(eng, code) >= store.MAX_SEATS:
            return "full"
        new_seat = store.join(eng, code)
        if new_seat is not None:
            store.note(eng, "join", client)
            return Member(code, "student", new_seat)
    store.fail(eng, *parties)
    return "unknown"


def _session_may_join(secret: bool) -> bool:
    """A new seat for this session, unless it has taken SESSION_JOINS already (a script
    joining over and over on one connection)."""
    return secret or st.session_state.get(_JOINS, 0) < SESSION_JOINS


def _count_join(result: object, secret: bool) -> None:
    if isinstance(result, Member) and not secret:
        st.session_state[_JOINS] = st.session_state.get(_JOINS, 0) + 1


@store_safe()
def join(code_text: object, access: PageAccess, page: str) -> None:
    """The join box's or the address's code: a new seat, then the teacher's page."""
    kept = keeper.kept_seat()
    if kept is not None and kept[0] == codes.normal_code(code_text):
        result = admit(engine(), client_id(), kept[0], seat=kept[1])
        if isinstance(result, Member):  # this browser's seat, from another tab or before
            _enter(result, access, page)
            return
    if not _session_may_join(False):
        st.session_state[NOTICE] = "busy"
        return
    result = admit(engine(), client_id(), code_text)
    _count_join(result, False)
    _enter(result, access, page)


def _enter(result: object, access: PageAccess, page: str) -> None:
    if not isinstance(result, Member):
        st.session_state[NOTICE] = result
        return
    _set_member(result)
    if not result.teacher and result.following:
        follow_again(access, page)


@store_safe()
def start_class(page: str, state: dict[str, str]) -> None:
    eng, client = engine(), client_id()
    if store.too_many(eng, "class", client):
        st.session_state[NOTICE] = "too_many_classes"
        return
    lang = current_language()
    code, key = store.create_class(eng, page, _page_state(state), lang=lang)
    store.note(eng, "class", client)
    _set_member(Member(code, "teacher", key))
    st.session_state[_TRIED_TEACHER] = (code, key)
    st.session_state[_PUBLISHED] = (page, _page_state(state))
    st.session_state[_PUBLISHED_LANG] = lang


def leave() -> None:
    """This browser leaves its class (a teacher's class goes on: the teacher address
    resumes it)."""
    _set_member(None)
    # The address still holds the class until this run's end: it is not to be taken again.
    st.session_state[_TRIED] = {name: st.query_params.get(name) for name in CLASS_PARAMS}


@store_safe()
def end_class() -> None:
    found = member()
    if found is not None and found.teacher:
        store.end_class(engine(), found.code, found.secret)
        forget_view(found.code)
        st.session_state[_DROP_TEACHER] = True
    _set_member(None)


def _page_state(params: dict[str, str]) -> dict[str, str]:
    """A page's address parameters without the language (each screen keeps its own)."""
    return {k: v for k, v in params.items() if k != "lang" and k not in ADDRESS_PARAMS}


# -- a run's top and end -----------------------------------------------------------------------


@store_safe()
def on_page_start(page: str, access: PageAccess) -> None:
    """At the top of a whole run, before the page's widgets: join or resume from the address
    (once per address), then take the teacher's state if it is waiting."""
    st.session_state.pop(STORE_DOWN, None)  # each run finds out afresh
    st.session_state[_RUNS] = st.session_state.get(_RUNS, 0) + 1
    purge_if_due(engine())
    params = _address_to_try()
    if params is not None and member() is None:
        secret = bool(params[TEACHER_PARAM] or params[SEAT_PARAM])
        if _session_may_join(secret):
            result = admit(
                engine(),
                client_id(),
                params[CLASS_PARAM],
                teacher=params[TEACHER_PARAM],
                seat=params[SEAT_PARAM],
            )
        else:
            result = "busy"
        _count_join(result, secret)
        # After the store answered (an outage tries again), and only for an answer that
        # holds: a limited or busy client keeps its address (class and key) to try later.
        if isinstance(result, Member) or result == "unknown":
            st.session_state[_TRIED] = params
        _enter(result, access, page)
        if adopt_class_language():  # the page, its title and menu too, in the class's
            st.rerun()
    adopt_kept_teacher(access, page)
    adopt_kept_seat(access, page)
    pending = st.session_state.get(_PENDING)
    found = member()
    if pending is None or found is None or not found.following:
        return
    rev, teacher_page, state = pending
    if teacher_page != page:
        if teacher_page in access.pages:
            access.goto(teacher_page)  # the same pending state is taken there
        st.session_state.pop(_PENDING, None)
        return
    st.session_state.pop(_PENDING, None)
    access.restore(page, dict(state))
    st.session_state[_APPLIED] = rev
    before = st.session_state.get(_BASELINE)
    st.session_state[_TAKEN] = Taken(
        rev, page, state, st.session_state[_RUNS], time.monotonic(), before
    )
    st.session_state[_BASELINE] = None  # taken at this run's end


def adopt_kept_seat(access: PageAccess, page: str) -> None:
    """This tab took a new seat, but the browser keeps another in the same class (another
    tab's, or from before a reload that lost the address): take the kept one, checked like an
    address, and give the new one back (unless it already voted). One seat per browser."""
    found, kept = member(), keeper.kept_seat()
    if found is None or found.teacher or kept is None:
        return
    code, seat = kept
    if code != found.code or seat == found.secret or st.session_state.get(_REFUSED_KEPT) == seat:
        return
    result = admit(engine(), client_id(), code, seat=seat)
    if not isinstance(result, Member):
        st.session_state[_REFUSED_KEPT] = seat  # the browser is told to keep this tab's
        return
    store.give_back(engine(), found.code, found.secret)
    _set_member(None)
    _enter(result, access, page)


def adopt_kept_teacher(access: PageAccess, page: str) -> None:
    """A tab out of a class whose piece keeps a teacher key (its teacher reloaded it, or its
    session was lost): the class is resumed, the key checked like an address (once per key and
    session; a wrong one counts against the client). A key that does not hold is dropped."""
    kept = keeper.kept_teacher()
    if member() is not None or kept is None or st.session_state.get(_TRIED_TEACHER) == kept:
        return
    st.session_state[_TRIED_TEACHER] = kept
    result = admit(engine(), client_id(), kept[0], teacher=kept[1])
    if isinstance(result, Member) and result.teacher:
        _enter(result, access, page)
    else:
        st.session_state[_DROP_TEACHER] = True


def teacher_to_keep() -> tuple[tuple[str, str] | None, bool]:
    """For the keeper piece: (code, key) of this tab's class if it leads one, and whether the
    piece is to forget a kept key."""
    found = member()
    if found is not None and found.teacher:
        st.session_state.pop(_DROP_TEACHER, None)
        return (found.code, found.secret), False
    return None, bool(st.session_state.get(_DROP_TEACHER))


def kept_refused() -> bool:
    """The seat the browser keeps was refused: the piece is to keep this tab's instead."""
    found, kept = member(), keeper.kept_seat()
    return found is not None and kept is not None and st.session_state.get(_REFUSED_KEPT) == kept[1]


@store_safe()
def follow_again(access: PageAccess, page: str) -> None:
    """Take the teacher's page and state now, and keep following."""
    found = member()
    if found is None or found.teacher:
        return
    _set_member(replace(found, following=True))
    forget_view(found.code)
    view = class_view(found.code)
    if view is None:
        return
    st.session_state[_PENDING] = (view.status.rev, view.page, view.state)
    _mark_seen_now(found.code, found.secret, True)


@store_safe(lambda: False)
def check_teacher_change(access: PageAccess, page: str) -> bool:
    """A follower's poll: True when the teacher changed page or state since this screen took
    it (the state is then waiting for the next run)."""
    found = member()
    if found is None or found.teacher or not found.following:
        return False
    if _PENDING in st.session_state:  # the teacher's state, to take again (after_run)
        return True
    view = class_view(found.code)
    if view is None or view.status.rev == st.session_state.get(_APPLIED):
        return False
    st.session_state[_PENDING] = (view.status.rev, view.page, view.state)
    return True


_presence: dict[tuple[str, str], tuple[float, bool]] = {}  # waiting to be written
_presence_flushed = [0.0]
_presence_lock = threading.Lock()


@store_safe()
def touch_seat() -> None:
    """A student's presence. The sessions of one process note theirs here, and one of them
    writes them all in one transaction at most every TOUCH_EVERY s (one write per student
    each time was the largest part of an idle class's server time)."""
    found = member()
    if found is None or found.teacher:
        return
    now = time.monotonic()
    with _presence_lock:
        _presence[(found.code, found.secret)] = (time.time(), found.following)
        if now - _presence_flushed[0] < TOUCH_EVERY:
            return
        waiting = dict(_presence)
        _presence.clear()
        _presence_flushed[0] = now
    store.mark_seen_many(engine(), waiting)


def _mark_seen_now(code: str, seat: str, following: bool) -> None:
    """Following changed: written at once, and the waiting note says the same."""
    with _presence_lock:
        if (code, seat) in _presence:
            _presence[(code, seat)] = (time.time(), following)
    store.mark_seen(engine(), code, seat, following)


@store_safe(lambda: address_params())  # the address keeps the class
def after_run(page: str, params: dict[str, str]) -> dict[str, str]:
    """At the end of every run (whole or fragment) with the page's address parameters: the
    teacher publishes what changed; a follower whose state or page is no longer the one taken
    has edited it and stops following. Returns the class's address parameters."""
    found = member()
    if found is None:
        return address_params()
    shown = (page, _page_state(params))
    if found.teacher:
        changed = st.session_state.get(_PUBLISHED) != shown
        if changed and store.publish(engine(), found.code, found.secret, *shown):
            st.session_state[_PUBLISHED] = shown
            forget_view(found.code)
        lang = params.get("lang", current_language())
        moved = st.session_state.get(_PUBLISHED_LANG) != lang
        if moved and store.set_language(engine(), found.code, found.secret, lang):
            st.session_state[_PUBLISHED_LANG] = lang
            forget_view(found.code)
    elif found.following and _APPLIED in st.session_state:
        _see_own_edit(shown)
    return address_params()


def _see_own_edit(shown: tuple[str, dict[str, str]]) -> None:
    """A follower's run: the first to end after taking the teacher's state notes what the
    screen shows (the baseline); a later one showing something else is an own edit, and the
    student stops following. A run the browser sent before the state reached it is no edit:
    the state is taken again (at the next poll)."""
    baseline, taken = st.session_state.get(_BASELINE), st.session_state.get(_TAKEN)
    if baseline is None and taken is not None and _cut_the_take_short(shown, taken):
        st.session_state[_PENDING] = taken.pending
    # A screen now in another language (the student's pick, or the class's) may word its
    # state otherwise: that is not an own edit, and what it shows is the baseline again.
    elif baseline is None or st.session_state.get(_BASELINE_LANG) != current_language():
        st.session_state[_BASELINE] = shown
        st.session_state[_BASELINE_LANG] = current_language()
    elif baseline != shown and _PENDING not in st.session_state:
        if _sent_before_taking(taken) or _old_values_just_after(shown, baseline, taken):
            st.session_state[_PENDING] = taken.pending  # the poll reruns
        else:
            stop_following()


def _cut_the_take_short(shown: tuple[str, dict[str, str]], taken: Taken) -> bool:
    """Is this run a browser's rerun that ended the run taking the state before its end (a
    click sent while the take was still arriving, with the widgets' old values), so that
    what it shows is not the state taken?"""
    cut = taken.run != st.session_state.get(_RUNS) and _sent_before_taking(taken)
    return cut and shown != (taken.page, taken.state)


def _old_values_just_after(shown: tuple, baseline: tuple, taken: Taken | None) -> bool:
    """Within RETAKE_WITHIN of the take, is `shown`, which differs from the state taken
    (`baseline`), the state from before it on every parameter that differs?"""
    if taken is None or time.monotonic() - taken.at >= RETAKE_WITHIN or taken.before is None:
        return False
    (page, state), (before_page, before) = shown, taken.before
    if page != baseline[0] or page != before_page:
        return False
    keys = set(state) | set(baseline[1])
    return all(state.get(k) == before.get(k) for k in keys if state.get(k) != baseline[1].get(k))


def _sent_before_taking(taken: Taken | None) -> bool:
    """Did the browser send this run before the teacher's state it took last (`taken`)
    reached it? Its address, as it sent the run, does not hold that state's change count (the
    address is written at a run's end, after the widgets' new values)."""
    return taken is not None and st.query_params.get(REV_PARAM) != str(taken.rev)


# -- the class's language ----------------------------------------------------------------------


@store_safe(lambda: None)
def class_language(view: store.ClassView | None = None) -> str | None:
    """The language this screen is to show as the class's: a student's who has not picked one
    of their own (None otherwise, or when the class has none stored)."""
    found = member()
    if found is None or found.teacher or found.lang is not None:
        return None
    view = view or class_view(found.code)
    return language_from_tag(view.lang) if view is not None else None


@store_safe(lambda: False)
def adopt_class_language() -> bool:
    """At a run's top, before anything is worded: a student who has not picked a language is
    shown the class's. True when the screen's language changed."""
    lang = class_language()
    if lang is None or lang == current_language():
        return False
    st.session_state[LANGUAGE_STATE_KEY] = lang
    return True


@store_safe()
def language_picked(lang: str) -> None:
    """The language switch (a callback, before the run): a student's pick is kept with their
    seat and the class's language no longer applies to them; picking the class's language
    again returns them to it (a teacher's language is published at the run's end)."""
    found = member()
    if found is None or found.teacher:
        return
    view = class_view(found.code)
    own = None if view is not None and view.lang == lang else language_from_tag(lang)
    if own != found.lang:
        store.pick_language(engine(), found.code, found.secret, own)
        _set_member(replace(found, lang=own))


@store_safe()
def stop_following() -> None:
    found = member()
    if found is None or found.teacher:
        return
    _set_member(replace(found, following=False))
    st.session_state.pop(_BASELINE, None)
    st.session_state.pop(_APPLIED, None)
    st.session_state.pop(_TAKEN, None)
    _mark_seen_now(found.code, found.secret, False)
