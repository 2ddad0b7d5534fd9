"""Each setting declared once (issue 33): a page that declares its settings
(attention_ui/kit/state/settings.py, a `SETTINGS` tuple in `<page>/state.py`) names each
setting's key string in that one declaration and nowhere else in attention_ui/ or pages/: its
widget, its address field, its first value and the check of a crafted value all come from it.

Every page of the menu declares its settings so.
"""

from __future__ import annotations

import ast
import importlib
import re

import pytest

from attention_ui.kit.state.settings import Setting
from attention_ui.page_list import PAGES
from tests.conftest import REPO

PAGE_PACKAGES = tuple(page.name for page in PAGES)
DECLARED = PAGE_PACKAGES  # every page declares its settings


def sources() -> dict[str, str]:
    files = [*(REPO / "attention_ui").rglob("*.py"), *(REPO / "pages").glob("*.py")]
    return {
        str(path.relative_to(REPO)): path.read_text(encoding="utf-8")
        for path in files
        if "__pycache__" not in path.parts
    }


SOURCES = sources()


def mentions(key: str, text: str) -> list[int]:
    """Where `key` stands as a key of its own: not the start of a longer key
    (`regression.sigma.last_good`, `regression.preset.{name}`, `luong.preset.<key>.name`) or
    name (`kernel_note`), nor the end of one (`predict.luong.seed`)."""
    pattern = r"(?<![\w.])" + re.escape(key) + r"(?![\w]|\.[\w{<])"
    return [m.start() for m in re.finditer(pattern, text)]


def declaration(path: str, name: str) -> tuple[int, int]:
    """The character span of `NAME = settings.<kind>(...)` in a page's state.py."""
    text = SOURCES[path]
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [
            name
        ]:
            return (
                starts[node.lineno - 1] + node.col_offset,
                starts[node.end_lineno - 1] + node.end_col_offset,
            )
    raise AssertionError(f"{name} is not assigned in {path}")


def page_settings(page: str) -> dict[str, Setting]:
    state = importlib.import_module(f"attention_ui.{page}.state")
    named = {name: value for name, value in vars(state).items() if isinstance(value, Setting)}
    assert set(named.values()) == set(state.SETTINGS), "every setting is in SETTINGS"
    return named


@pytest.mark.parametrize("page", DECLARED)
def test_each_setting_key_is_written_in_its_one_declaration_only(page):
    path = f"attention_ui/{page}/state.py"
    found = {}
    for name, setting in page_settings(page).items():
        low, high = declaration(path, name)
        elsewhere = [
            f"{file}:{text.count(chr(10), 0, at) + 1}"
            for file, text in SOURCES.items()
            for at in mentions(setting.key, text)
            if not (file == path and low <= at < high)
        ]
        if elsewhere:
            found[setting.key] = elsewhere
    assert found == {}


@pytest.mark.parametrize("page", DECLARED)
def test_the_address_and_the_crafted_value_check_come_from_the_declaration(page):
    schema = importlib.import_module(f"attention_ui.{page}.schema").SCHEMA
    for setting in importlib.import_module(f"attention_ui.{page}.state").SETTINGS:
        assert schema.field(setting.field.param) is setting.field
        if setting.checked_by_page:
            assert setting.key not in schema.defaults
        else:
            assert schema.defaults[setting.key] == setting.default
        assert setting.accepts(setting.default)


def test_every_page_declares_its_settings_and_keeps_no_defaults_table():
    """Every page of the menu has a SETTINGS tuple of kit Settings, and none a DEFAULTS dict
    beside it (the old second place a key and its default were written)."""
    for page in DECLARED:
        state = importlib.import_module(f"attention_ui.{page}.state")
        assert all(isinstance(s, Setting) for s in state.SETTINGS), page
        assert not hasattr(state, "DEFAULTS"), page


def test_mentions_finds_a_key_and_not_a_longer_one():
    text = 'a = "p.sigma"\nb = "p.sigma.last_good"\nc = f"p.sigma.{x}"\nd = "p.sigma_help"\n'
    assert len(mentions("p.sigma", text)) == 1
    assert len(mentions("p.sigma", 'see "p.sigma". Then')) == 1
    assert mentions("p.sigma", 'f"p.sigma.<name>" and "q.p.sigma"') == []
