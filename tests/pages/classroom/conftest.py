"""Each classroom test gets its own SQLite file (the app's default store, moved to tmp)."""

from __future__ import annotations

import pytest

from attention_ui.kit.classroom.follow import DB_ENV


@pytest.fixture(autouse=True)
def classroom_db(tmp_path, monkeypatch):
    monkeypatch.setenv(DB_ENV, str(tmp_path / "classroom.sqlite"))
    return tmp_path / "classroom.sqlite"
