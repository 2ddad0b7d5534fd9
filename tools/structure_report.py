"""Counts that describe the interface package's structure, so a refactoring can say before/after.

    python tools/structure_report.py            # static counts (a second or two)
    python tools/structure_report.py --q-edit   # also run the Luong page and trace one Q edit

Static counts come from the source alone (an AST walk): files, import edges between the
project's files, imports from the shared layer into a page package, imports inside functions,
import cycles, functions over 80 lines or 8 parameters, `st.session_state` uses; and, for the
engine (attention_core) and the interface (attention_ui and pages/) apart, functions over 60
lines or 6 parameters (issue 33's thresholds); hand-written keep/restore calls, shadow keys
(`<key>.kept`) and the lines of Python of the code that draws the pages and keeps their state
(STATE_CODE). The Q-edit
trace runs the Luong page in AppTest, edits one cell of Q and records which interface files
run code during that rerun, and how often `attention_core.attention` is called.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
UI = "attention_ui"


def menu_pages() -> tuple[str, ...]:
    """The page packages (attention_ui/<page>/): every `MenuPage("<name>", …)` of the page list."""
    tree = ast.parse((REPO / UI / "page_list.py").read_text(encoding="utf-8"))
    return tuple(
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", "") == "MenuPage"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    )


PAGES = menu_pages()
MAX_LINES = 80
MAX_PARAMS = 8
# issue 33's targets count functions over these, in the engine and in the interface apart
WIDE_LINES = 60
WIDE_PARAMS = 6
# The hand-written machinery Streamlit's persist_state="session" replaces (issue 33): calls of
# these names (bare, or on `page_state` / a page's `state` module) are keep/restore calls.
KEEP_CALLS = frozenset(
    {"restore_widgets", "keep_widgets", "remember", "keep", "kept", "set_widget", "widget_value"}
)
KEEP_OWNERS = frozenset({"page_state", "state"})
SHADOW_KEY = re.compile(r"\.kept\b")  # in a string: a shadow copy's session key `<key>.kept`
# The code that draws the pages and keeps their state: the page packages, pages/, the frame,
# the page list, kit/state and kit/share.
STATE_CODE = (
    *(f"{UI}/{name}" for name in PAGES),
    "pages",
    f"{UI}/frame.py",
    f"{UI}/page_list.py",
    f"{UI}/kit/state",
    f"{UI}/kit/share",
)
# Parts of the kit whose size the issues follow (listed with --details, not in STATE_CODE)
KIT_PARTS = (f"{UI}/kit/state", f"{UI}/kit/figures")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def source_files() -> list[Path]:
    files = sorted((REPO / UI).rglob("*.py")) + sorted((REPO / "pages").glob("*.py"))
    return [f for f in files if "__pycache__" not in f.parts]


def imported_modules(path: Path, tree: ast.Module, known: set[str]) -> list[str]:
    """Every module an import statement of `path` names (relative imports resolved):
    `from X import name` names the submodule X.name when there is one, else X."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                found.append(submodule if submodule in known else target)
    return found


def page_of(module: str) -> str | None:
    parts = module.split(".")
    if len(parts) >= 2 and parts[0] == UI and parts[1] in PAGES:
        return parts[1]
    return None


def function_level_imports(tree: ast.Module) -> int:
    count = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    count += 1
    return count


def long_functions(
    path: Path, tree: ast.Module, max_lines: int = MAX_LINES, max_params: int = MAX_PARAMS
) -> list[str]:
    """Every function of `tree` longer than `max_lines` or taking more than `max_params`
    parameters (self and cls not counted)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args
            params = len(args.posonlyargs) + len(args.args) + len(args.kwonlyargs)
            params += bool(args.vararg) + bool(args.kwarg)
            if args.args and args.args[0].arg in ("self", "cls"):
                params -= 1
            lines = node.end_lineno - node.lineno + 1
            if lines > max_lines or params > max_params:
                where = path.relative_to(REPO)
                found.append(f"{where}:{node.lineno} {node.name} ({lines} lines, {params} params)")
    return found


def wide_functions(files: list[Path]) -> list[str]:
    """Functions over WIDE_LINES lines or WIDE_PARAMS parameters in `files`."""
    found = []
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += long_functions(path, tree, WIDE_LINES, WIDE_PARAMS)
    return found


def wide_counts(found: list[str]) -> str:
    """'N (L over the lines, P over the parameters)' for lines of `long_functions`."""
    sizes = [re.search(r"\((\d+) lines, (\d+) params\)$", line).groups() for line in found]
    lines = sum(int(n) > WIDE_LINES for n, _ in sizes)
    params = sum(int(p) > WIDE_PARAMS for _, p in sizes)
    return f"{len(found)} ({lines} over the lines, {params} over the parameters)"


def keep_restore_calls(tree: ast.Module) -> int:
    """Calls of the hand-written keep/restore functions (KEEP_CALLS; a page's `state.restore`)."""
    count = 0
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if (isinstance(func, ast.Name) and func.id in KEEP_CALLS) or (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id in KEEP_OWNERS
            and (func.attr in KEEP_CALLS or (func.value.id == "state" and func.attr == "restore"))
        ):
            count += 1
    return count


def shadow_keys(tree: ast.Module) -> int:
    """String constants naming a shadow copy's key (`<key>.kept`, or the suffix itself)."""
    return sum(
        len(SHADOW_KEY.findall(node.value))
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


def state_code_files() -> list[Path]:
    files = []
    for part in STATE_CODE:
        path = REPO / part
        files += [path] if path.suffix == ".py" else sorted(path.rglob("*.py"))
    return files


def state_code_lines() -> int:
    """Lines of Python in STATE_CODE."""
    return sum(len(f.read_text(encoding="utf-8").splitlines()) for f in state_code_files())


def code_lines(text: str) -> int:
    """Lines that hold code: not blank, not only a comment, not part of a docstring (so that
    a cut made by trimming prose alone does not show as less code)."""
    tree = ast.parse(text)
    prose: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                prose.update(range(body[0].lineno, body[0].end_lineno + 1))
    return sum(
        1
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.strip().startswith("#") and number not in prose
    )


def state_code_parts(parts_of: tuple[str, ...] = STATE_CODE) -> list[str]:
    """Each part of STATE_CODE (or of `parts_of`): its lines, and its lines of code."""
    parts = []
    for part in parts_of:
        if not (REPO / part).exists():
            parts.append(f"{part}: gone")
            continue
        path = REPO / part
        files = [path] if path.suffix == ".py" else sorted(path.rglob("*.py"))
        texts = [f.read_text(encoding="utf-8") for f in files]
        lines = sum(len(text.splitlines()) for text in texts)
        parts.append(f"{part}: {lines} lines, {sum(map(code_lines, texts))} of code")
    return parts


def state_code_only_lines() -> int:
    """Lines of code (no blanks, comments or docstrings) in STATE_CODE."""
    return sum(code_lines(f.read_text(encoding="utf-8")) for f in state_code_files())


def engine_files() -> list[Path]:
    return sorted(f for f in (REPO / "attention_core").glob("*.py"))


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one file (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    sys.setrecursionlimit(10_000)

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in list(graph):
        if v not in index:
            visit(v)
    return found


def static_report() -> dict[str, object]:
    files = source_files()
    modules = {module_name(f): f for f in files}
    graph: dict[str, set[str]] = defaultdict(set)
    shared_to_page: set[tuple[str, str]] = set()
    page_to_page: set[tuple[str, str]] = set()
    inner_imports = 0
    too_long: list[str] = []
    session_state = keep_restore = shadow = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        me = module_name(path)
        for target in set(imported_modules(path, tree, set(modules))):
            if target in modules and target != me:
                graph[me].add(target)
        inner_imports += function_level_imports(tree)
        too_long += long_functions(path, tree)
        session_state += len(re.findall(r"\bst\.session_state\b", text))
        keep_restore += keep_restore_calls(tree)
        shadow += shadow_keys(tree)
    for source, targets in graph.items():
        # the page list and the frame sit above the pages: they may read them
        if not source.startswith(UI + ".") or source in (f"{UI}.page_list", f"{UI}.frame"):
            continue
        mine = page_of(source)
        for target in targets:
            theirs = page_of(target)
            if theirs and not mine:
                shared_to_page.add((source, target))
            elif theirs and mine and theirs != mine and not target.endswith(".state"):
                page_to_page.add((source, target))  # another page's state is allowed
    ui_files = [f for f in files if f.parts[len(REPO.parts)] == UI]
    wide_engine, wide_interface = wide_functions(engine_files()), wide_functions(files)
    wide = f"over {WIDE_LINES} lines or {WIDE_PARAMS} params"
    return {
        "files in attention_ui": len(ui_files),
        "import edges (file -> file, attention_ui and pages/)": sum(map(len, graph.values())),
        "shared -> page imports (file pairs)": len(shared_to_page),
        "page -> other page imports, other than its state (file pairs)": len(page_to_page),
        "function-level imports": inner_imports,
        "import cycles (files in each)": [len(c) for c in cycles(graph)],
        f"functions over {MAX_LINES} lines or {MAX_PARAMS} params": len(too_long),
        "st.session_state uses": session_state,
        "hand-written keep/restore calls": keep_restore,
        "shadow keys (.kept)": shadow,
        "lines of Python drawing the pages and keeping their state": state_code_lines(),
        "of which lines of code (no blanks, comments or docstrings)": state_code_only_lines(),
        "_state_code_parts": state_code_parts(),
        "_kit_parts": state_code_parts(KIT_PARTS),
        f"engine functions {wide}": wide_counts(wide_engine),
        f"interface functions {wide} (attention_ui and pages/)": wide_counts(wide_interface),
        "_long": too_long,
        "_wide_engine": wide_engine,
        "_wide_interface": wide_interface,
        "_shared_to_page": sorted(shared_to_page),
        "_page_to_page": sorted(page_to_page),
    }


def q_edit_report() -> dict[str, object]:
    """Open the Luong page, edit Q's first cell, and trace the rerun that follows."""
    sys.path.insert(0, str(REPO))
    from streamlit.testing.v1 import AppTest

    import attention_core  # noqa: F401 (loads the engine's modules)

    engine = sys.modules["attention_core.attention"]
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60).run()
    at.switch_page("pages/luong.py").run()
    edit_first_q_cell(at)
    seen: set[str] = set()
    calls = {"attention": 0}
    root = str(REPO / UI)
    real = engine.attention.__code__

    def profile(frame, event, _arg):
        if event == "call":
            name = frame.f_code.co_filename
            if name.startswith(root):
                seen.add(str(Path(name).relative_to(REPO)))
            if frame.f_code is real:
                calls["attention"] += 1

    import threading

    threading.setprofile(profile)
    sys.setprofile(profile)
    try:
        at.run()
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    if at.exception:
        raise SystemExit(f"the Luong page failed: {at.exception}")
    if first_q_cell(at) != 0.5:
        raise SystemExit("the Q edit did not reach the page: the grid's edit format changed?")
    return {
        "Q edit: interface files run": len(seen),
        "Q edit: attention() calls in the rerun": calls["attention"],
        "_q_files": sorted(seen),
    }


def edit_first_q_cell(at) -> None:
    """Type 0.5 into Q's first cell as the grid's browser half commits it: one entry of the
    component's `edit` state (static/cell_grid.js; tests/support/grids.py)."""
    from attention_ui.kit.grids import store

    grid = store.record("luong.Q", at.session_state) or {}
    entry = {"n": 1, "rows": grid.get("rows", []), "cols": grid.get("cols", [])}
    entry["cells"] = [[0, 0, "0.5"]]
    edit = {"token": "structure-report", "n": 1, "entries": [entry]}
    at.session_state[store.widget_key("luong.Q")] = {"edit": edit}


def first_q_cell(at) -> float:
    from attention_ui.kit.grids.matrix_editor import matrix_values

    return float(matrix_values("luong.Q", at.session_state)[0, 0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--q-edit", action="store_true", help="also trace one Q edit")
    parser.add_argument("--details", action="store_true", help="list what each count counts")
    options = parser.parse_args()
    report = static_report()
    if options.q_edit:
        report |= q_edit_report()
    for key, value in report.items():
        if not key.startswith("_"):
            print(f"{key}: {value}")
    if options.details:
        for key, value in report.items():
            if key.startswith("_"):
                print(f"\n{key[1:]}:")
                for item in value:
                    print(f"  {item}")


if __name__ == "__main__":
    main()
