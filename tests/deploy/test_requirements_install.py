"""What Streamlit Community Cloud will do with this repository, done here first.

Community Cloud reads one dependency file (the first of uv.lock, Pipfile, environment.yml,
requirements.txt, pyproject.toml), installs it into a clean Python and runs the entrypoint. So:

- the fast checks: requirements.txt is that file, every line an exact pin, and every third-party
  module the app imports is pinned there;
- the deploy test: a copy of the repository's files (tracked, or new and not ignored), a fresh
  virtual environment with requirements.txt alone, every page run by Streamlit's own AppTest
  inside it with no exception, then `streamlit run app.py` on loopback, a healthy server, and the
  bare address (the home page, through the app's router) opened in Chromium with no exception
  box and no console error. A dependency that only the dev requirements bring makes it fail. It
  takes one to three minutes (less with pip's cache warm). Every page's frontend is opened in
  Chromium by tests/browser/test_accessibility.py (the same Streamlit, so the same frontend):
  here, a page opened in Chromium costs 10-20 s of CPU, an AppTest run about 1 s.
"""

from __future__ import annotations

import ast
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.app_server import server_log, start_app, stop_app
from tests.browser.conftest import (
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_FLAGS,
    IDLE,
    console_error,
)
from tests.conftest import APP, REPO

OTHER_DEPENDENCY_FILES = [
    "uv.lock",
    "Pipfile",
    "Pipfile.lock",
    "environment.yml",
    "environment.yaml",
]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[A-Za-z0-9,._-]+\])?==([0-9][^\s;#]*)$")
APP_CODE = [
    APP,
    *sorted((REPO / "pages").glob("*.py")),
    *sorted((REPO / "attention_ui").rglob("*.py")),
    *sorted((REPO / "attention_core").rglob("*.py")),
]
LOCAL_PACKAGES = {"attention_core", "attention_ui", "pages"}


def requirement_lines() -> list[str]:
    lines = (REPO / "requirements.txt").read_text(encoding="utf-8").splitlines()
    return [line.split("#")[0].strip() for line in lines if line.split("#")[0].strip()]


def page_names() -> list[str]:
    """The name (pages/<name>.py, served at /<name>) of every page of the menu."""
    from attention_ui.page_list import PAGES

    return [page.name for page in PAGES]


# Run in the fresh environment: the app's router, then each page, as a new session would.
_RUN_EVERY_PAGE = """
import os
import sys
from streamlit.testing.v1 import AppTest
failed = []
for name in sys.argv[1:]:
    at = AppTest.from_file(os.path.abspath("app.py"), default_timeout=120).run()
    at.switch_page(f"pages/{name}.py").run()
    if at.exception or not at.title:
        failed.append((name, [e.value for e in at.exception], len(at.title)))
print(failed)
sys.exit(1 if failed else 0)
"""


def test_requirements_txt_is_the_one_dependency_file_community_cloud_reads():
    for folder in {REPO, APP.parent}:
        present = [name for name in OTHER_DEPENDENCY_FILES if (folder / name).exists()]
        assert not present, f"Community Cloud would read {present} instead of requirements.txt"
    assert (REPO / "requirements.txt").is_file()
    if (REPO / "pyproject.toml").exists():
        text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
        assert "[project]" not in text and "[tool.poetry" not in text, (
            "pyproject.toml declares dependencies: keep them in requirements.txt only"
        )


def test_every_requirement_is_an_exact_pin():
    lines = requirement_lines()
    assert lines
    loose = [line for line in lines if not PIN.match(line)]
    assert not loose, f"not pinned with == (or an option/include line): {loose}"


def test_every_module_the_app_imports_is_pinned():
    """Third-party imports of the app's code, mapped to their distributions, all pinned."""
    pinned = {PIN.match(line).group(1).lower().replace("_", "-") for line in requirement_lines()}
    distributions = importlib.metadata.packages_distributions()
    modules: set[str] = set()
    for path in APP_CODE:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                modules.add(node.module.split(".")[0])
    third_party = modules - set(sys.stdlib_module_names) - LOCAL_PACKAGES - {"__future__"}
    missing = {
        module: distributions.get(module, [module])
        for module in third_party
        if not {d.lower().replace("_", "-") for d in distributions.get(module, [module])} & pinned
    }
    assert not missing, f"imported but not in requirements.txt: {missing}"


def _copy_tracked_files(target: Path) -> None:
    """The files a clone would have once the work in progress is committed: tracked files and
    new ones git does not ignore (no venvs, caches, test artifacts or local secrets)."""
    listed = (
        subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=REPO,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def _open_every_page(url: str, paths: list[str]) -> list[str]:
    """Open each path in a fresh Chromium context; return what went wrong (empty: all good).
    Runs in its own thread: Playwright's sync API allows one instance per thread, and the
    browser tests may hold one in the main thread."""
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            for path in paths:
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                page = context.new_page()
                errors: list[str] = []
                page.on("console", lambda m, e=errors: e.extend(filter(None, [console_error(m)])))
                page.on("pageerror", lambda exc, e=errors: e.append(str(exc)))
                page.goto(f"{url}/{path}")
                page.wait_for_selector("[data-testid=stApp]", timeout=30_000)
                # Idle holds before the first run starts too: wait for the page's title (or
                # an exception box) first; a fresh server's first page is slow on a busy machine.
                page.wait_for_selector("h1, [data-testid=stException]", timeout=120_000)
                page.wait_for_selector(IDLE, timeout=60_000)
                shown = page.locator("[data-testid=stException]").count()
                headings = page.locator("h1").count()
                if shown or errors or not headings:
                    problems.append(
                        f"/{path}: {shown} exception box(es), console errors "
                        f"{errors}, {headings} title(s)"
                    )
                    ARTIFACTS.mkdir(exist_ok=True)
                    page.screenshot(
                        path=str(ARTIFACTS / f"deploy-{path or 'root'}.png"), full_page=True
                    )
                context.close()
        finally:
            browser.close()
    return problems


@pytest.mark.deploy
@pytest.mark.timeout(600)
def test_requirements_txt_alone_runs_every_page(tmp_path):
    app_dir = tmp_path / "app"
    _copy_tracked_files(app_dir)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "PYTHONSTARTUP"}
    }
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"

    def in_app_env(arguments: list[str], timeout: float) -> subprocess.CompletedProcess:
        """The fresh environment's Python with `arguments`, in the copy, its output kept."""
        return subprocess.run(
            [str(python), *arguments],
            cwd=app_dir,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    install = in_app_env(
        [
            "-m",
            "pip",
            "install",
            "--disable-pip-version-check",
            "--quiet",
            # Python compiles what the app imports when it imports it; compiling all of Plotly
            # and pandas up front was two thirds of the install (277 s → 80 s measured)
            "--no-compile",
            "-r",
            "requirements.txt",
        ],
        timeout=420,
    )
    assert install.returncode == 0, install.stderr[-3000:]
    check = in_app_env(["-m", "pip", "check"], timeout=60)
    assert check.returncode == 0, f"inconsistent environment: {check.stdout}"
    # Nothing from the test environment may be importable in the app's environment.
    leaked = in_app_env(["-c", "import pytest"], timeout=60)
    assert leaked.returncode != 0, "the fresh environment sees the test requirements"
    pages = in_app_env(["-c", _RUN_EVERY_PAGE, *page_names()], timeout=300)
    assert pages.returncode == 0, f"{pages.stdout[-3000:]}\n{pages.stderr[-3000:]}"

    process, url = start_app(python=str(python), cwd=app_dir, env=env)
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=10) as response:
            assert response.status == 200 and response.read() == b"ok"
            # XSRF protection is on in the server as deployed: it hands out the XSRF cookie.
            cookies = response.headers.get_all("Set-Cookie") or []
            assert any(cookie.startswith("_streamlit_xsrf=") for cookie in cookies), cookies
        with ThreadPoolExecutor(max_workers=1) as worker:
            problems = worker.submit(_open_every_page, url, [""]).result(timeout=300)
    finally:
        stop_app(process)
    log = server_log(process)
    assert not problems, f"{problems}\nserver log:\n{log[-3000:]}"
    assert "Traceback" not in log, log[-3000:]
