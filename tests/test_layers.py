"""The interface's layers, read from the syntax tree of every import (as test_security does):

    attention_core  <-  attention_ui.kit  <-  attention_ui.<page>  <-  page_list, frame  <-  pages/

- the kit imports only attention_core and itself: it never names a page, the page list or the
  frame (pages plug into it);
- a page package imports no other page, except another page's `state` (its keys and what it
  keeps), and neither the page list nor the frame;
- no import inside a function: every dependency is in the module's first lines.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import REPO

UI = "attention_ui"
# The packages beside the kit (a folder of Python: not assets/ or a __pycache__/).
PAGE_PACKAGES = sorted(
    p.parent.name for p in (REPO / UI).glob("*/__init__.py") if p.parent.name != "kit"
)
ABOVE_THE_PAGES = (f"{UI}.page_list", f"{UI}.frame")


def python_files(*places: str) -> list[Path]:
    found = []
    for place in places:
        path = REPO / place
        found += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return [f for f in found if "__pycache__" not in f.parts]


def module_of(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> list[tuple[str, ast.stmt]]:
    """(module named, statement) for every import of the file, relative ones resolved; `from X
    import name` names X.name too, since the name may be a module."""
    package = module_of(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package[: len(package) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            found.append((base, node))
            found += [(f"{base}.{alias.name}", node) for alias in node.names]
    return found


def page_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == UI and parts[1] in PAGE_PACKAGES else None


def names_above_the_pages(module: str) -> bool:
    return any(module == top or module.startswith(f"{top}.") for top in ABOVE_THE_PAGES)


def where(path: Path, node: ast.stmt) -> str:
    return f"{path.relative_to(REPO)}:{node.lineno}"


def test_there_are_page_packages_and_a_kit():
    assert {"luong", "database", "gallery", "exercises"} <= set(PAGE_PACKAGES)
    assert python_files(f"{UI}/kit")


def test_the_kit_imports_only_the_engine_and_itself():
    offenders = []
    for path in python_files(f"{UI}/kit"):
        for module, node in imports(path):
            ours = module == UI or module.startswith(f"{UI}.")
            kit = module == f"{UI}.kit" or module.startswith(f"{UI}.kit.")
            if ours and not kit:
                offenders.append(f"{where(path, node)} imports {module}")
    assert offenders == []


@pytest.mark.parametrize("page", PAGE_PACKAGES)
def test_a_page_imports_no_other_page_but_its_state(page):
    offenders = []
    for path in python_files(f"{UI}/{page}"):
        for module, node in imports(path):
            other = page_of(module)
            # `from attention_ui.<other> import state` names the package too (checked below)
            allowed = (f"{UI}.{other}", f"{UI}.{other}.state")
            of_state = module.startswith(f"{UI}.{other}.state.")
            if other not in (None, page) and module not in allowed and not of_state:
                offenders.append(f"{where(path, node)} imports {module}")
            if names_above_the_pages(module):
                offenders.append(f"{where(path, node)} imports {module}")
    assert offenders == []


def test_a_page_taking_another_pages_package_takes_only_its_state():
    """`from attention_ui.database import state` names the package: only `state` may follow."""
    offenders = []
    for page in PAGE_PACKAGES:
        for path in python_files(f"{UI}/{page}"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    other = page_of(node.module)
                    if other not in (None, page) and node.module == f"{UI}.{other}":
                        taken = {alias.name for alias in node.names}
                        if taken != {"state"}:
                            offenders.append(f"{where(path, node)} takes {sorted(taken)}")
    assert offenders == []


def test_no_import_inside_a_function():
    offenders = []
    for path in python_files("app.py", "pages", UI):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Import | ast.ImportFrom):
                        offenders.append(f"{where(path, inner)} in {node.name}()")
    assert offenders == []


def test_the_page_list_and_the_frame_are_read_only_from_above():
    """The page list names every page; only the frame, the routing script and pages/ read it."""
    readers = set()
    for path in python_files(UI):
        if module_of(path) in ABOVE_THE_PAGES:
            continue
        readers |= {module_of(path) for module, _ in imports(path) if names_above_the_pages(module)}
    assert readers == set()


def test_the_engine_knows_no_interface():
    offenders = [
        f"{where(path, node)} imports {module}"
        for path in python_files("attention_core")
        for module, node in imports(path)
        if module.split(".")[0] in (UI, "streamlit", "plotly")
    ]
    assert offenders == []
