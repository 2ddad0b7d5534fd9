"""Long-lived objects set apart from the garbage collector once per page and process
(attention_ui.kit.long_lived.py), and new garbage still collected."""

from __future__ import annotations

import gc
import weakref

from attention_ui.kit import long_lived
from tests.conftest import open_app_page


class _Node:
    pass


def test_a_page_freezes_once(monkeypatch):
    monkeypatch.setattr(long_lived, "_FROZEN", set())
    before = gc.get_freeze_count()
    assert long_lived.freeze_after_first_run("a page")
    frozen = gc.get_freeze_count()
    assert frozen > before
    assert not long_lived.freeze_after_first_run("a page")
    assert long_lived.freeze_after_first_run("another page")


def test_a_cycle_made_after_freezing_is_still_collected(monkeypatch):
    monkeypatch.setattr(long_lived, "_FROZEN", set())
    long_lived.freeze_after_first_run("a page")
    node = _Node()
    node.me = node  # a reference cycle: only the collector frees it
    gone = weakref.ref(node)
    del node
    gc.collect()
    assert gone() is None


def test_the_page_footer_freezes_after_a_pages_first_run(monkeypatch):
    monkeypatch.setattr(long_lived, "_FROZEN", set())
    at = open_app_page("luong")
    assert not at.exception
    assert "luong" in long_lived._FROZEN
