"""A classroom store on a fresh SQLite file per test."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from attention_ui.kit.classroom import store
from attention_ui.kit.classroom.rounds import Question


@pytest.fixture
def engine(tmp_path):
    eng = sa.create_engine(f"sqlite:///{tmp_path / 'classroom.sqlite'}")
    store.ensure_schema(eng)
    yield eng
    eng.dispose()


@pytest.fixture
def question():
    """Two queries over three keys: q1's winner is k2, q2's k1 and k3 tie."""
    return Question("luong", "0123456789ab", ((0, 1, 2), (0, 1, 2)), ((1,), (0, 2)))
