"""The plain floors and the limit page of bench/browser.py start and show the engine's numbers.

Each page's plain floor (bench/plain_floor*.py, run with AppTest) opens on the page's example
and, after one edit of its input, draws charts that hold what attention_core gives for it (the
check bench/browser.py makes in the browser, bench/page_edits.missing); the limit page
(bench/limit_page.py, its own server) does the same through its one round trip. So neither can
drift from the app's numbers, or stop starting, without a test saying so. No timing here.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bench.page_edits import EDITS, missing
from tests.app_server import free_port
from tests.plotly_json import decode

REPO = Path(__file__).resolve().parent.parent.parent
BENCH = REPO / "bench"
PAGES = tuple(EDITS)


@pytest.fixture(scope="module")
def edits():
    return {page: EDITS[page]() for page in PAGES}  # the training page trains its run once


def start_file(tmp_path: Path, edit) -> str:
    path = tmp_path / f"{edit.page}.json"
    path.write_text(json.dumps(edit.start))
    return str(path)


def floor_figures(at: AppTest) -> list[dict]:
    return [decode(json.loads(chart.proto.spec)) for chart in at.get("plotly_chart")]


def edit_value(edit):
    """One edit, unlike the opening (the training page: its first snapshot)."""
    return edit.values(1)[0] if edit.values(1) else edit.start["steps"][0]


def edit_floor(at: AppTest, edit, value) -> None:
    if edit.page == "regression":
        at.number_input[0].set_value(value)
    elif edit.page == "train":
        at.select_slider[0].set_value(value)
    else:
        at.text_input[0].input(edit.typed(value))
    at.run()


@pytest.mark.parametrize("page", PAGES)
def test_plain_floor_shows_the_engines_numbers(page, edits, tmp_path, monkeypatch):
    """Its opening charts hold the engine's numbers; after an edit (but for Luong's cells, a
    custom component AppTest cannot type into: bench/browser.py's run edits them), the new
    ones."""
    edit = edits[page]
    monkeypatch.syspath_prepend(str(BENCH))  # the floors import their figures from bench/
    monkeypatch.setattr(sys, "argv", ["streamlit", start_file(tmp_path, edit)])
    at = AppTest.from_file(str(BENCH / Path(edit.floor).name), default_timeout=60).run()
    assert not at.exception
    assert missing(floor_figures(at), edit.expected(edit.opening)) == []
    if page == "luong":
        return
    value = edit_value(edit)
    edit_floor(at, edit, value)
    assert not at.exception
    assert missing(floor_figures(at), edit.expected(value)) == []
    assert missing(floor_figures(at), edit.expected(edit.opening)) != []  # the edit moved them


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


@pytest.mark.parametrize("page", PAGES)
def test_limit_page_shows_the_engines_numbers(page, edits, tmp_path):
    edit = edits[page]
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, str(BENCH / "limit_page.py"), str(port), start_file(tmp_path, edit), page]
    )
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                html = urllib.request.urlopen(url, timeout=5).read().decode()
                break
            except OSError:
                time.sleep(0.1)
        assert f'"label": {json.dumps(edit.start.get("label", ""))}' in html
        value = edit_value(edit)
        if page == "luong":
            body = {"row": 0, "col": 0, "text": edit.typed(value)}
        else:
            body = {"text": edit.typed(value)}
        figures = [decode(figure) for figure in post(f"{url}/edit", body).values()]
        assert missing(figures, edit.expected(value)) == []
        assert missing(figures, edit.expected(edit.opening)) != []
    finally:
        server.terminate()
        server.wait(timeout=30)
