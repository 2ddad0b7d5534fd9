"""docs/ARCHITECTURE.md names only what exists: every file, folder, module, function and
constant it writes in backticks is in the tree.

A span is read as a folder when it ends with a slash (`grids/`: one of the project's folders),
as a file when it ends with a file's suffix (`view.py`: one of the project's files), as a path
when it has a slash (`kit/grids/store.py`, `static/live_chart.js`,
`luong/view.compute`: a module of attention_ui, the repository or attention_core, then a name
in it), as a dotted name when it has a dot (`cell_grid._on_edit`, `attention_core.attention`:
a module found by its last parts, then a name in it), else as one name (`AttentionInputError`,
`page_state`: a module, or a name a module of the project defines). Placeholders (`<page>`),
calls' arguments and Streamlit's, Plotly's and NumPy's own names are left out.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "ARCHITECTURE.md"
ROOTS = (REPO, REPO / "attention_ui", REPO / "attention_core")
CODE = ("attention_core", "attention_ui", "pages", "tools", "tests", "bench")
FOREIGN = ("st.", "go.", "np.", "Plotly.", "pio.")  # Streamlit's, Plotly's and NumPy's names
SPAN = re.compile(r"`([^`\n]+)`")


def spans() -> list[str]:
    found = []
    for text in SPAN.findall(DOC.read_text(encoding="utf-8")):
        text = re.sub(r"\(.*\)$", "", text.strip())  # page_header("home") → page_header
        if not text or "<" in text or " " in text or text.startswith(FOREIGN):
            continue
        found.append(text)
    return sorted(set(found))


@cache
def python_files() -> tuple[Path, ...]:
    files = [REPO / "app.py"]
    for top in CODE:
        files += (REPO / top).rglob("*.py")
    return tuple(f for f in files if "__pycache__" not in f.parts)


@cache
def defined_names(path: Path) -> frozenset[str]:
    """The names `path` defines at its top level and in its classes."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return frozenset(names)


def modules_named(dotted: str) -> list[Path]:
    """The project's modules (or packages) whose path ends with `dotted`'s parts."""
    parts = dotted.split(".")
    found = []
    for path in python_files():
        name = path.with_suffix("").parts if path.name != "__init__.py" else path.parent.parts
        if tuple(name[-len(parts) :]) == tuple(parts):
            found.append(path)
    return found


def in_module(modules: list[Path], attribute: str) -> bool:
    return any(attribute in defined_names(path) for path in modules)


@cache
def project_paths() -> tuple[Path, ...]:
    paths = []
    for top in (*CODE, "static", "docs"):
        paths += (p for p in (REPO / top).rglob("*") if "__pycache__" not in p.parts)
    return tuple(paths)


def exists(span: str) -> bool:
    if span.endswith("/"):  # a folder, e.g. the kit's `grids/`
        name = span.rstrip("/").split("/")
        return any(p.is_dir() and p.parts[-len(name) :] == tuple(name) for p in project_paths())
    if "/" not in span and re.search(r"\.(py|js|css|md|toml)$", span):  # a file by its name
        return (REPO / span).exists() or any(p.name == span for p in project_paths())
    if "/" in span:
        head, _, tail = span.rpartition("/")
        for root in ROOTS:
            if (root / span).exists():
                return True
            module, _, attribute = tail.partition(".")
            path = root / head / f"{module}.py"
            if attribute and path.exists():
                return attribute.split(".")[0] in defined_names(path)
            if not attribute and (root / head / module).with_suffix(".py").exists():
                return True
        return False
    parts = span.split(".")
    for cut in range(len(parts), 0, -1):  # the longest module prefix, then a name in it
        modules = modules_named(".".join(parts[:cut]))
        if modules:
            rest = parts[cut:]
            return not rest or in_module(modules, rest[0])
    return len(parts) == 1 and any(span in defined_names(path) for path in python_files())


def test_the_doc_names_things_in_backticks():
    assert len(spans()) > 40


@pytest.mark.parametrize("span", spans())
def test_every_name_in_the_architecture_doc_exists(span):
    assert exists(span), f"docs/ARCHITECTURE.md names `{span}`, which is not in the tree"
