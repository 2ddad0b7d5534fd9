"""A classroom store per test: on a fresh SQLite file (the default), and on Debian's
PostgreSQL (marked deploy: one throw-away cluster for the session, one database per test)."""

from __future__ import annotations

import itertools

import pytest
import sqlalchemy as sa

from attention_ui.kit.classroom import store
from attention_ui.kit.classroom.rounds import Question
from tests.postgres_server import start_postgres, stop_postgres

_databases = itertools.count()


@pytest.fixture(scope="session")
def postgres():
    server = start_postgres()
    yield server
    stop_postgres(server)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.deploy)])
def engine(request, tmp_path):
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'classroom.sqlite'}"
    else:
        server = request.getfixturevalue("postgres")
        name = f"test_{next(_databases)}"
        admin = sa.create_engine(server.url, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(sa.text(f"CREATE DATABASE {name}"))
        admin.dispose()
        url = server.url.rsplit("/", 1)[0] + f"/{name}"
    eng = sa.create_engine(url)
    store.ensure_schema(eng)
    yield eng
    eng.dispose()


@pytest.fixture
def question():
    """Two queries over three keys: q1's winner is k2, q2's k1 and k3 tie."""
    return Question("luong", "0123456789ab", ((0, 1, 2), (0, 1, 2)), ((1,), (0, 2)))
