"""Security rules that must hold for every page, now and as pages are added.

- No user text reaches raw HTML: no `unsafe_allow_html`, no `st.html`, no components.
- Nothing the user types is evaluated, unpickled or used as a path: the app's code has no eval,
  exec, pickle and friends, and opens files only where listed below (with paths it builds itself).
- XSRF protection stays on and uploads stay small (.streamlit/config.toml).

The static checks walk the syntax tree of the app's Python files (app.py, pages/, attention_ui/,
attention_core/), so a new page is covered the moment it exists. The behavioural checks render
every page with AppTest and inspect what Streamlit would send to the browser.
(tests/browser/test_untrusted_text.py checks the same in a real DOM.)
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import APP, REPO

APP_CODE = [
    REPO / "app.py",
    *sorted((REPO / "pages").glob("*.py")),
    *sorted((REPO / "attention_ui").rglob("*.py")),
    *sorted((REPO / "attention_core").rglob("*.py")),
]
PAGES = sorted(path.relative_to(REPO).as_posix() for path in (REPO / "pages").glob("*.py"))

# Calls that run, load or import what they are given.
FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__", "execfile", "input", "breakpoint"}
# Modules that deserialize arbitrary objects or run programs.
FORBIDDEN_MODULES = {
    "pickle",
    "cPickle",
    "dill",
    "cloudpickle",
    "joblib",
    "marshal",
    "shelve",
    "subprocess",
    "importlib",
    "runpy",
    "yaml",
    "code",
    "codeop",
    "streamlit.components",
    "streamlit.components.v1",
}
# Methods that read or write files, or render raw HTML / JavaScript.
# (str.replace and DataFrame.rename share names with Path methods, so they are not listed.)
FILE_METHODS = {
    "open",
    "read_text",
    "read_bytes",
    "write_text",
    "write_bytes",
    "unlink",
    "rmdir",
    "mkdir",
    "touch",
    "load",
    "loads",
    "read_pickle",
    "to_pickle",
    "read_csv",
    "read_json",
    "read_parquet",
    "read_excel",
    "read_feather",
}
RAW_HTML_METHODS = {"html", "iframe", "declare_component", "components"}
# The only files that may open files: each with why its paths are not user input.
FILE_ACCESS_ALLOWED = {
    "attention_ui/kit/text/i18n.py": "reads the TOML catalogs of attention_ui/locales by glob",
    "attention_ui/kit/grids/cell_grid.py": "reads static/cell_grid.js and cell_grid.css, named",
    "attention_ui/kit/figures/live_chart.py": "reads static/live_chart.js, named",
    "attention_ui/kit/classroom/sqlite_file.py": (
        "the classroom's own SQLite file only (its path from the engine's url): a deleted or "
        "replaced file restored, its old WAL and a copy removed"
    ),
    "attention_ui/kit/lessons/builtin.py": "reads builtin/<id>.json, an id of IDS",
    "attention_ui/train/player.py": "reads static/train_player.js, named",
    "attention_ui/transformer/japanese.py": "reads janome's connections1.py and 2.py, named",
}


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _name(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


def _calls(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            yield node


def _forbidden_module(name: str) -> bool:
    return name in FORBIDDEN_MODULES or name.split(".")[0] in FORBIDDEN_MODULES


def raw_html_offences(tree: ast.AST) -> list[str]:
    """Calls that let text through as HTML or JavaScript."""
    offences = []
    for call in _calls(tree):
        for keyword in call.keywords:
            if keyword.arg in {"unsafe_allow_html", "unsafe_allow_javascript"} and not (
                isinstance(keyword.value, ast.Constant) and keyword.value.value is False
            ):
                offences.append(f"line {call.lineno}: {keyword.arg}=")
        if isinstance(call.func, ast.Attribute) and call.func.attr in RAW_HTML_METHODS:
            offences.append(f"line {call.lineno}: .{call.func.attr}(")
    return offences


def evaluation_offences(tree: ast.AST) -> list[str]:
    """Code that runs, imports or deserializes what it is given."""
    offences = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            offences += [
                f"line {node.lineno}: import {alias.name}"
                for alias in node.names
                if _forbidden_module(alias.name)
            ]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if _forbidden_module(node.module):
                offences.append(f"line {node.lineno}: from {node.module} import")
            if node.module == "streamlit" and any(a.name == "components" for a in node.names):
                offences.append(f"line {node.lineno}: from streamlit import components")
    for call in _calls(tree):
        func = call.func
        if isinstance(func, ast.Name) and func.id in FORBIDDEN_CALLS:
            offences.append(f"line {call.lineno}: {func.id}(")
        if isinstance(func, ast.Attribute) and func.attr == "system":
            offences.append(f"line {call.lineno}: .system(")
    return offences


def file_offences(tree: ast.AST) -> list[str]:
    """Calls that open, read or write files."""
    offences = []
    for call in _calls(tree):
        func = call.func
        if isinstance(func, ast.Name) and func.id == "open":
            offences.append(f"line {call.lineno}: open(")
        elif isinstance(func, ast.Attribute) and func.attr in FILE_METHODS:
            # json.loads / tomllib.loads parse text: they do not touch files or run code.
            base = func.value.id if isinstance(func.value, ast.Name) else ""
            if func.attr in {"load", "loads"} and base in {"json", "tomllib"}:
                continue
            offences.append(f"line {call.lineno}: .{func.attr}(")
    return offences


BAD_CODE = """
import pickle
from streamlit import components
import streamlit as st
name = st.text_input("name")
st.markdown(name, unsafe_allow_html=True)
st.html(name)
st.write(eval(name))
pickle.loads(name.encode())
open(name).read()
Path(name).read_text()
np.load(name, allow_pickle=True)
"""


def test_the_checks_catch_known_bad_code():
    """The checkers below would fail on each kind of unsafe call (so they can fail)."""
    tree = ast.parse(BAD_CODE)
    assert len(raw_html_offences(tree)) == 2
    assert len(evaluation_offences(tree)) == 3  # import pickle, import components, eval
    assert len(file_offences(tree)) == 4  # pickle.loads, open, read_text, np.load
    assert not raw_html_offences(ast.parse("st.markdown(x, unsafe_allow_html=False)"))


@pytest.mark.parametrize("path", APP_CODE, ids=_name)
def test_no_raw_html_reaches_the_browser(path):
    offences = raw_html_offences(_tree(path))
    assert not offences, f"{_name(path)} renders raw HTML: {offences}"


@pytest.mark.parametrize("path", APP_CODE, ids=_name)
def test_nothing_is_evaluated_or_unpickled(path):
    offences = evaluation_offences(_tree(path))
    assert not offences, f"{_name(path)} evaluates or deserializes: {offences}"


@pytest.mark.parametrize("path", APP_CODE, ids=_name)
def test_files_are_opened_only_where_listed(path):
    name = _name(path)
    if name in FILE_ACCESS_ALLOWED:
        return
    offences = file_offences(_tree(path))
    assert not offences, f"{name} touches files (list it in FILE_ACCESS_ALLOWED): {offences}"


def test_static_checks_see_every_page():
    """The checks above cover every page of the menu (a page added later is picked up)."""
    from attention_ui.page_list import PAGES as MENU

    assert MENU, "the menu lists no page"
    assert {page.path for page in MENU} <= set(PAGES)


def test_config_keeps_xsrf_on_and_uploads_small():
    with (REPO / ".streamlit" / "config.toml").open("rb") as file:
        config = tomllib.load(file)
    server = config.get("server", {})
    assert server.get("enableXsrfProtection") is True
    assert server.get("enableCORS", True) is True  # turning CORS off would switch XSRF off too
    assert 0 < server.get("maxUploadSize", 200) <= 5  # MB; Streamlit's default is 200
    assert 0 < server.get("maxMessageSize", 200) <= 100  # MB; bounds what one session can send
    assert config.get("client", {}).get("showErrorDetails") in (None, False, "none", "stacktrace")


def test_streamlit_reads_the_config_with_xsrf_on(monkeypatch):
    """The same file as Streamlit parses it (catches a typo in a section or option name)."""
    from streamlit import config

    monkeypatch.chdir(REPO)
    config.get_config_options(force_reparse=True)
    try:
        assert config.get_option("server.enableXsrfProtection") is True
        assert config.get_option("server.maxUploadSize") <= 5
        assert config.is_manually_set("server.enableXsrfProtection")
    finally:
        config.get_config_options(force_reparse=True)


HOSTILE = "<script>alert('x')</script><img src=x onerror=alert(1)>"


@pytest.mark.parametrize("page", PAGES)
def test_no_page_sends_html_to_the_browser(page):
    """What every page actually renders: no Html element, no Markdown with HTML allowed,
    also when the address carries hostile text."""
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.query_params["lang"] = HOSTILE
    at.run()
    at.switch_page(page).run()
    assert not at.exception
    for node in at:  # main area and sidebar
        assert node.type not in {"html", "iframe", "component_instance"}, node.type
        proto = getattr(node, "proto", None)
        if proto is not None and hasattr(proto, "allow_html"):
            assert not proto.allow_html, f"{page}: markdown with allow_html: {proto.body[:80]}"


def test_hostile_text_in_the_address_is_shown_escaped():
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.query_params["lang"] = HOSTILE
    at.run()
    assert not at.exception
    warning = at.sidebar.warning[0].value
    assert "<script>" not in warning and "\\<script\\>" in warning
    assert at.sidebar.radio[0].value == "en"
