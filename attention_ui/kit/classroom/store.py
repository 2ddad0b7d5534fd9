"""The classroom's tables, on any SQLAlchemy engine (SQLite by default, PostgreSQL shared by
several app processes).

Every teacher action takes the teacher key and checks it here (`codes.key_matches`), so no
caller can skip the check; a vote is one INSERT ... SELECT that only inserts while the seat
belongs to the class and the round is open (a primary key on class, question, round and seat
makes a second vote a no-op). Every row read back is checked like an address before use.

A class and everything in it (seats, votes) is deleted CLASS_HOURS after it was started.

SCHEMA_VERSION counts the changes an older app cannot work with. A column added later is
nullable and added in place by `ensure_schema` (ADDED_COLUMNS): an older app ignores it, so the
version stays.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from . import codes
from .rounds import Question, answer_from, answer_json, question_from

SCHEMA_VERSION = 1
CLASS_HOURS = 12
PRESENCE_SECONDS = 15.0  # a student seen this recently is connected
FAILURE_WINDOW_SECONDS = 600.0  # wrong codes, seats or keys are counted this long
MAX_FAILURES = 30  # per client (a school's NAT or proxy is one client for a whole class)
MAX_CLASS_FAILURES = 30  # wrong teacher keys or seats naming one class
JOIN_WINDOW_SECONDS, MAX_JOINS = 600.0, 100  # new seats per client
MAX_SEATS = 200  # per class
CLASS_WINDOW_SECONDS, MAX_CLASSES = 3600.0, 5  # classes started per client
MAX_STATE_PARAMS, MAX_STATE_CHARS = 60, 200_000
_PAGE = re.compile(r"[a-z]{1,20}")
_PARAM = re.compile(r"[A-Za-z0-9_]{1,40}")
_LANG = re.compile(r"[a-z]{2,3}")  # a language code as the app names one ("en", "ja")

metadata = sa.MetaData()
meta = sa.Table(
    "classroom_meta",
    metadata,
    sa.Column("name", sa.String(40), primary_key=True),
    sa.Column("value", sa.String(40), nullable=False),
)
classes = sa.Table(
    "classroom_class",
    metadata,
    sa.Column("code", sa.String(8), primary_key=True),
    sa.Column("teacher_hash", sa.String(64), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=False, index=True),
    sa.Column("page", sa.String(20), nullable=False),
    sa.Column("state", sa.Text, nullable=False),  # the page's address parameters, JSON
    sa.Column("rev", sa.Integer, nullable=False),  # +1 on every change of page or state
    sa.Column("question", sa.Text),  # rounds.Question JSON, or NULL
    sa.Column("question_no", sa.Integer, nullable=False),  # +1 on every question asked
    sa.Column("round", sa.Integer, nullable=False),  # 1, then 2 after "discuss, vote again"
    sa.Column("revealed", sa.Boolean, nullable=False),
    # The class's language: the teacher's, kept up to date (NULL: a class from before it was
    # stored). A student who did not pick a language of their own is shown it.
    sa.Column("lang", sa.String(8)),
)
seats = sa.Table(
    "classroom_seat",
    metadata,
    sa.Column("code", sa.String(8), primary_key=True),
    sa.Column("seat", sa.String(64), primary_key=True),
    sa.Column("seen", sa.Float, nullable=False),
    sa.Column("following", sa.Boolean, nullable=False),
    sa.Column("lang", sa.String(8)),  # the language the student picked (NULL: the class's)
)
votes = sa.Table(
    "classroom_vote",
    metadata,
    sa.Column("code", sa.String(8), primary_key=True),
    sa.Column("question_no", sa.Integer, primary_key=True),
    sa.Column("round", sa.Integer, primary_key=True),
    sa.Column("seat", sa.String(64), primary_key=True),
    sa.Column("answer", sa.String(200), nullable=False),
)
failures = sa.Table(
    "classroom_failure",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("client", sa.String(80), nullable=False, index=True),
    sa.Column("at", sa.Float, nullable=False),
)

# What a client did that is bounded (kind "join" or "class"), kept for the longest window.
events = sa.Table(
    "classroom_event",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("client", sa.String(80), nullable=False, index=True),
    sa.Column("at", sa.Float, nullable=False),
)


# Columns added after the tables were first made, by table: ensure_schema adds any a database
# made earlier lacks (nullable, so the rows already there and an older app's writes hold).
ADDED_COLUMNS = {classes: ("lang",), seats: ("lang",)}


class SchemaTooNewError(RuntimeError):
    """The database was written by a later version of the app."""


@dataclass(frozen=True)
class Status:
    """What a follower polls: the teacher's change count and the question's place."""

    rev: int
    question_no: int
    round: int
    revealed: bool


@dataclass(frozen=True)
class Ballot:
    """What a vote answers: the class's question, its number (`Status.question_no`), and the
    round."""

    question: Question
    number: int
    round: int


@dataclass(frozen=True)
class ClassView:
    status: Status
    page: str
    state: dict[str, str]
    question: Question | None
    lang: str | None = None  # the class's language (None: not known)


_ready: set[str] = set()


def ensure_schema(engine: sa.Engine) -> None:
    """Create the tables on first use and record the schema's version (checked once per
    engine and process)."""
    name = engine.url.render_as_string(hide_password=True)
    if name in _ready:
        return
    metadata.create_all(engine, checkfirst=True)
    _add_columns(engine)
    with engine.begin() as conn:
        found = conn.scalar(sa.select(meta.c.value).where(meta.c.name == "schema_version"))
        if found is None:
            try:
                with conn.begin_nested():
                    conn.execute(meta.insert().values(name="schema_version", value="1"))
            except IntegrityError:  # another process wrote it first
                pass
        elif not found.isdigit() or int(found) > SCHEMA_VERSION:
            raise SchemaTooNewError(found)
    _ready.add(name)


def _add_columns(engine: sa.Engine) -> None:
    """ADDED_COLUMNS a database made by an earlier version lacks (another process may add one
    at the same moment: its error is taken as the column being there, checked again)."""
    for table, names in ADDED_COLUMNS.items():
        for name in names:
            if _has_column(engine, table, name):
                continue
            column = sa.schema.CreateColumn(table.c[name]).compile(dialect=engine.dialect)
            try:
                with engine.begin() as conn:
                    conn.execute(sa.text(f"ALTER TABLE {table.name} ADD COLUMN {column}"))
            except sa.exc.DBAPIError:
                if not _has_column(engine, table, name):
                    raise


def _has_column(engine: sa.Engine, table: sa.Table, name: str) -> bool:
    return name in {column["name"] for column in sa.inspect(engine).get_columns(table.name)}


def forget_schema(engine: sa.Engine) -> None:
    """Check the schema again at the next ensure_schema (the file was replaced)."""
    _ready.discard(engine.url.render_as_string(hide_password=True))


def probe(engine: sa.Engine) -> None:
    """A write that changes nothing: raises while the store takes no writes (a read-only
    file or database), which reads alone would not show."""
    with engine.begin() as conn:
        conn.execute(
            meta.update().where(meta.c.name == "schema_version").values(value=meta.c.value)
        )


def purge(engine: sa.Engine, now: float) -> None:
    """Delete expired classes with their seats and votes, and old failed attempts."""
    with engine.begin() as conn:
        gone = sa.select(classes.c.code).where(classes.c.expires < now)
        conn.execute(votes.delete().where(votes.c.code.in_(gone)))
        conn.execute(seats.delete().where(seats.c.code.in_(gone)))
        conn.execute(classes.delete().where(classes.c.expires < now))
        conn.execute(failures.delete().where(failures.c.at < now - FAILURE_WINDOW_SECONDS))
        longest = max(JOIN_WINDOW_SECONDS, CLASS_WINDOW_SECONDS)
        conn.execute(events.delete().where(events.c.at < now - longest))


def create_class(
    engine: sa.Engine,
    page: str,
    state: dict[str, str],
    now: float | None = None,
    lang: str | None = None,
) -> tuple[str, str]:
    """A new class showing `page` with `state`, in the teacher's language `lang`: (its code,
    the teacher's key)."""
    now = time.time() if now is None else now
    purge(engine, now)
    key = codes.new_key()
    for _ in range(20):
        code = codes.new_code()
        row = {
            "code": code,
            "teacher_hash": codes.key_hash(key),
            "created": now,
            "expires": now + CLASS_HOURS * 3600,
            "page": page,
            "state": _state_json(state),
            "rev": 1,
            "question": None,
            "question_no": 0,
            "round": 1,
            "revealed": False,
            "lang": _valid_lang(lang),
        }
        try:
            with engine.begin() as conn:
                conn.execute(classes.insert().values(**row))
            return code, key
        except IntegrityError:  # the code is taken: draw another
            continue
    raise RuntimeError("no free class code")


def _state_json(state: dict[str, str]) -> str:
    return json.dumps(dict(state), ensure_ascii=False, sort_keys=True)


def _valid_state(text: object) -> dict[str, str] | None:
    """A stored state: at most MAX_STATE_PARAMS text parameters with plain names."""
    if not isinstance(text, str) or len(text) > MAX_STATE_CHARS:
        return None
    try:
        state = json.loads(text)
    except ValueError:
        return None
    if not isinstance(state, dict) or len(state) > MAX_STATE_PARAMS:
        return None
    if not all(isinstance(k, str) and _PARAM.fullmatch(k) for k in state):
        return None
    if not all(isinstance(v, str) for v in state.values()):
        return None
    return state


def _valid_lang(lang: object) -> str | None:
    return lang if isinstance(lang, str) and _LANG.fullmatch(lang) else None


def _row(conn: sa.Connection, code: str, now: float):
    return conn.execute(
        sa.select(classes).where(classes.c.code == code, classes.c.expires >= now)
    ).first()


def _status(row) -> Status | None:
    values = (row.rev, row.question_no, row.round)
    if not all(type(v) is int and v >= 0 for v in values) or row.round not in (1, 2):
        return None
    return Status(row.rev, row.question_no, row.round, bool(row.revealed))


def status(engine: sa.Engine, code: str, now: float | None = None) -> Status | None:
    """The class's change count and question place (None: no such class, or expired)."""
    now = time.time() if now is None else now
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(
                classes.c.rev, classes.c.question_no, classes.c.round, classes.c.revealed
            ).where(classes.c.code == code, classes.c.expires >= now)
        ).first()
    return None if row is None else _status(row)


def view(engine: sa.Engine, code: str, now: float | None = None) -> ClassView | None:
    """The class as followers see it (checked; None if missing, expired or unreadable)."""
    now = time.time() if now is None else now
    with engine.connect() as conn:
        row = _row(conn, code, now)
    if row is None:
        return None
    found, state = _status(row), _valid_state(row.state)
    if found is None or state is None or not _PAGE.fullmatch(str(row.page)):
        return None
    question = question_from(row.question) if row.question is not None else None
    return ClassView(found, row.page, state, question, _valid_lang(row.lang))


# -- the teacher -------------------------------------------------------------------------------


def is_teacher(engine: sa.Engine, code: str, key: object, now: float | None = None) -> bool:
    now = time.time() if now is None else now
    with engine.connect() as conn:
        stored = conn.scalar(
            sa.select(classes.c.teacher_hash).where(
                classes.c.code == code, classes.c.expires >= now
            )
        )
    return codes.key_matches(key, stored)


def _teacher_update(engine: sa.Engine, code: str, key: object, **values) -> bool:
    """Apply `values` to the class if `key` is its teacher's (checked in the same
    transaction). False when it is not."""
    now = time.time()
    with engine.begin() as conn:
        row = _row(conn, code, now)
        if row is None or not codes.key_matches(key, row.teacher_hash):
            return False
        values = {
            name: (value(row) if callable(value) else value) for name, value in values.items()
        }
        conn.execute(classes.update().where(classes.c.code == code).values(**values))
    return True


def publish(engine: sa.Engine, code: str, key: object, page: str, state: dict[str, str]) -> bool:
    """The teacher's page and its state, for followers (one more change)."""
    if not _PAGE.fullmatch(page) or _valid_state(_state_json(state)) is None:
        return False
    return _teacher_update(
        engine, code, key, page=page, state=_state_json(state), rev=classes.c.rev + 1
    )


def set_language(engine: sa.Engine, code: str, key: object, lang: str) -> bool:
    """The teacher's language is now `lang`: the class's, for students who did not pick one.
    Not a change of the page (`rev` stays): followers keep what they show."""
    if _valid_lang(lang) is None:
        return False
    return _teacher_update(engine, code, key, lang=lang)


def ask(engine: sa.Engine, code: str, key: object, question: Question) -> bool:
    """A new question, round 1, votes hidden until the reveal."""
    return _teacher_update(
        engine,
        code,
        key,
        question=question.to_json(),
        question_no=classes.c.question_no + 1,
        round=1,
        revealed=False,
    )


def reopen(engine: sa.Engine, code: str, key: object) -> bool:
    """'Discuss, then vote again': round 2 of the question asked (once, before the reveal)."""
    return _teacher_update(
        engine, code, key, round=lambda row: 2 if row.question is not None else row.round
    )


def reveal(engine: sa.Engine, code: str, key: object) -> bool:
    return _teacher_update(engine, code, key, revealed=lambda row: row.question is not None)


def close_question(engine: sa.Engine, code: str, key: object) -> bool:
    return _teacher_update(engine, code, key, question=None, round=1, revealed=False)


def end_class(engine: sa.Engine, code: str, key: object) -> bool:
    """Delete the class now (seats and votes go with it)."""
    if not is_teacher(engine, code, key):
        return False
    with engine.begin() as conn:
        conn.execute(votes.delete().where(votes.c.code == code))
        conn.execute(seats.delete().where(seats.c.code == code))
        conn.execute(classes.delete().where(classes.c.code == code))
    return True


# -- students ----------------------------------------------------------------------------------


def class_party(code: str) -> str:
    """Whom the wrong keys and seats naming a class are counted against, besides the client."""
    return f"class:{code}"


def limited(engine: sa.Engine, client: str, now: float | None = None) -> bool:
    """True while `client` (an address, or `class_party(code)`) has failed MAX_FAILURES
    (a class: MAX_CLASS_FAILURES) times within the window: every guess (a right code too) is
    refused until then, so guesses teach nothing. A valid teacher key or seat is checked
    before this (follow.admit): it is never refused."""
    now = time.time() if now is None else now
    with engine.connect() as conn:
        count = conn.scalar(
            sa.select(sa.func.count()).where(
                failures.c.client == client[:80],
                failures.c.at >= now - FAILURE_WINDOW_SECONDS,
            )
        )
    limit = MAX_CLASS_FAILURES if client.startswith("class:") else MAX_FAILURES
    return int(count or 0) >= limit


def fail(engine: sa.Engine, *parties: str, now: float | None = None) -> None:
    """A failed attempt, counted against each of `parties` (the client, and the class whose
    key or seat was wrong)."""
    now = time.time() if now is None else now
    with engine.begin() as conn:
        for party in parties:
            conn.execute(failures.insert().values(client=party[:80], at=now))


def note(engine: sa.Engine, kind: str, client: str, now: float | None = None) -> None:
    """`client` joined ("join") or started a class ("class")."""
    now = time.time() if now is None else now
    with engine.begin() as conn:
        conn.execute(events.insert().values(kind=kind, client=client[:80], at=now))


def too_many(engine: sa.Engine, kind: str, client: str, now: float | None = None) -> bool:
    """`client` has reached its bound of joins (MAX_JOINS per JOIN_WINDOW_SECONDS) or of
    classes started (MAX_CLASSES per CLASS_WINDOW_SECONDS)."""
    now = time.time() if now is None else now
    window, limit = (
        (JOIN_WINDOW_SECONDS, MAX_JOINS) if kind == "join" else (CLASS_WINDOW_SECONDS, MAX_CLASSES)
    )
    with engine.connect() as conn:
        count = conn.scalar(
            sa.select(sa.func.count()).where(
                events.c.kind == kind, events.c.client == client[:80], events.c.at >= now - window
            )
        )
    return int(count or 0) >= limit


def seat_count(engine: sa.Engine, code: str) -> int:
    with engine.connect() as conn:
        return int(conn.scalar(sa.select(sa.func.count()).where(seats.c.code == code)) or 0)


def class_exists(engine: sa.Engine, code: str, now: float | None = None) -> bool:
    now = time.time() if now is None else now
    with engine.connect() as conn:
        return _row(conn, code, now) is not None


def join(engine: sa.Engine, code: str, now: float | None = None) -> str | None:
    """A new seat in the class (None: no such class, or it has MAX_SEATS). The caller
    rate-limits."""
    now = time.time() if now is None else now
    seat = codes.new_key()
    with engine.begin() as conn:
        if _row(conn, code, now) is None:
            return None
        taken = conn.scalar(sa.select(sa.func.count()).where(seats.c.code == code))
        if int(taken or 0) >= MAX_SEATS:
            return None
        conn.execute(seats.insert().values(code=code, seat=seat, seen=now, following=True))
    return seat


def give_back(engine: sa.Engine, code: str, seat: str) -> None:
    """A seat its browser no longer uses (it took the seat it keeps): deleted unless it voted."""
    voted = sa.select(votes.c.seat).where(votes.c.code == code, votes.c.seat == seat)
    with engine.begin() as conn:
        conn.execute(
            seats.delete().where(seats.c.code == code, seats.c.seat == seat, ~sa.exists(voted))
        )


def seat_following(engine: sa.Engine, code: str, seat: object) -> bool | None:
    """Whether the seat follows (None: not a seat of this class)."""
    if not codes.is_token(seat):
        return None
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(seats.c.following).where(seats.c.code == code, seats.c.seat == seat)
        ).first()
    return None if row is None else bool(row.following)


def seat_language(engine: sa.Engine, code: str, seat: object) -> str | None:
    """The language the student of this seat picked (None: none, or not a seat of this
    class)."""
    if not codes.is_token(seat):
        return None
    with engine.connect() as conn:
        found = conn.scalar(
            sa.select(seats.c.lang).where(seats.c.code == code, seats.c.seat == seat)
        )
    return _valid_lang(found)


def pick_language(engine: sa.Engine, code: str, seat: str, lang: str | None) -> None:
    """The student of this seat picked `lang` (None: back to the class's)."""
    with engine.begin() as conn:
        conn.execute(
            seats.update()
            .where(seats.c.code == code, seats.c.seat == seat)
            .values(lang=_valid_lang(lang))
        )


def mark_seen(engine: sa.Engine, code: str, seat: str, following: bool, now: float | None = None):
    """The student is here (and follows or not)."""
    now = time.time() if now is None else now
    with engine.begin() as conn:
        conn.execute(
            seats.update()
            .where(seats.c.code == code, seats.c.seat == seat)
            .values(seen=now, following=following)
        )


def mark_seen_many(engine: sa.Engine, seen: dict[tuple[str, str], tuple[float, bool]]) -> None:
    """Many students' presence in one transaction: {(code, seat): (when, following)}."""
    if not seen:
        return
    rows = [
        {"c": code, "s": seat, "seen": when, "following": following}
        for (code, seat), (when, following) in seen.items()
    ]
    update = (
        seats.update()
        .where(seats.c.code == sa.bindparam("c"), seats.c.seat == sa.bindparam("s"))
        .values(seen=sa.bindparam("seen"), following=sa.bindparam("following"))
    )
    with engine.begin() as conn:
        conn.execute(update, rows)


def presence(engine: sa.Engine, code: str, now: float | None = None) -> tuple[int, int]:
    """(students connected, of whom following)."""
    now = time.time() if now is None else now
    recent = sa.and_(seats.c.code == code, seats.c.seen >= now - PRESENCE_SECONDS)
    with engine.connect() as conn:
        connected = conn.scalar(sa.select(sa.func.count()).where(recent))
        following = conn.scalar(sa.select(sa.func.count()).where(recent, seats.c.following))
    return int(connected or 0), int(following or 0)


def vote(
    engine: sa.Engine, code: str, seat: object, ballot: Ballot, answer: tuple[int, ...]
) -> bool:
    """Count `answer` once: only for a seat of this class, while the ballot's question is the
    class's, in the ballot's round, not revealed. True when it was counted now."""
    if not codes.is_token(seat) or not ballot.question.accepts(answer):
        return False
    open_round = (
        sa.select(
            sa.literal(code),
            sa.literal(ballot.number),
            sa.literal(ballot.round),
            sa.literal(seat),
            sa.literal(answer_json(answer)),
        )
        .select_from(classes.join(seats, seats.c.code == classes.c.code))
        .where(
            classes.c.code == code,
            classes.c.expires >= time.time(),
            classes.c.question_no == ballot.number,
            classes.c.round == ballot.round,
            sa.not_(classes.c.revealed),
            seats.c.seat == seat,
        )
    )
    # RETURNING, not rowcount: psycopg reports -1 rows for an INSERT ... SELECT here.
    insert = (
        votes.insert()
        .from_select(["code", "question_no", "round", "seat", "answer"], open_round)
        .returning(votes.c.seat)
    )
    try:
        with engine.begin() as conn:
            return conn.execute(insert).first() is not None
    except IntegrityError:  # this seat already voted in this round
        return False


def answers(
    engine: sa.Engine, code: str, question: Question, number: int
) -> dict[int, dict[str, tuple[int, ...]]]:
    """Round → seat → answer, for question `number` (unreadable rows are left out)."""
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(votes.c.round, votes.c.seat, votes.c.answer).where(
                votes.c.code == code, votes.c.question_no == number
            )
        ).all()
    found: dict[int, dict[str, tuple[int, ...]]] = {1: {}, 2: {}}
    for row in rows:
        answer = answer_from(row.answer, question)
        if row.round in found and codes.is_token(row.seat) and answer is not None:
            found[row.round][row.seat] = answer
    return found


def my_answer(engine: sa.Engine, code: str, seat: str, ballot: Ballot) -> tuple[int, ...] | None:
    with engine.connect() as conn:
        text = conn.scalar(
            sa.select(votes.c.answer).where(
                votes.c.code == code,
                votes.c.question_no == ballot.number,
                votes.c.round == ballot.round,
                votes.c.seat == seat,
            )
        )
    return None if text is None else answer_from(text, ballot.question)
