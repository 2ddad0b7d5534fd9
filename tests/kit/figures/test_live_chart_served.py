"""Where the live chart's plotly.js comes from (kit/figures/live_chart.py): the plotly package's
own file, kept in the project's static/ under its version's name and served by Streamlit's static
serving. Nothing reaches into Streamlit's frontend files (whose names any release may change) and
no components-v1 declaration serves a file."""

from __future__ import annotations

import re
import urllib.request
from pathlib import Path

import plotly
import pytest

from attention_ui.kit.figures import live_chart
from tests.app_server import REPO

pytestmark = pytest.mark.timeout(180)
PACKAGE_FILE = Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"
# What brought plotly.js from elsewhere before: a glob on Streamlit's own chunk, and a v1
# component declared only to have Streamlit serve the plotly package's folder.
FORBIDDEN = re.compile(r"PlotlyChart\.|static/static|components\.v1|declare_component")


def test_static_plotly_is_the_plotly_packages_own_file():
    """The JSON the server writes and the plotly.js that draws it come from one plotly version.
    After a plotly upgrade: `cp <plotly>/package_data/plotly.min.js static/vendor/<PLOTLY_FILE>` and
    delete the old file."""
    ours = REPO / "static" / "vendor" / live_chart.PLOTLY_FILE
    assert ours.exists(), f"static/vendor/{live_chart.PLOTLY_FILE} is missing (see the docstring)"
    assert ours.read_bytes() == PACKAGE_FILE.read_bytes()
    assert [p.name for p in (REPO / "static").rglob("plotly*.js")] == [live_chart.PLOTLY_FILE]
    assert "window.Plotly = Plotly" in PACKAGE_FILE.read_text(encoding="utf-8")[-300:]


def _app_sources() -> list[Path]:
    code = [*(REPO / "attention_ui").rglob("*.py"), *(REPO / "pages").glob("*.py")]
    scripts = list((REPO / "static").glob("*.js"))  # not static/vendor/: plotly.js itself
    return [REPO / "app.py", *code, *scripts]


def test_no_chart_reads_streamlits_frontend_files_or_declares_a_v1_component():
    offences = [
        f"{path.relative_to(REPO)}: {match.group(0)}"
        for path in _app_sources()
        for match in FORBIDDEN.finditer(path.read_text(encoding="utf-8"))
    ]
    assert not offences
    # the test's own pattern does find what it forbids
    assert FORBIDDEN.search('glob("PlotlyChart.*.js")')
    assert FORBIDDEN.search("from streamlit.components.v1 import declare_component")


def test_the_server_sends_plotly_js_from_static(app_server):
    """Measured (Streamlit 1.67): 200, application/javascript, ETag and Last-Modified, no
    Cache-Control, gzip-compressed for each request (4.8 MB → 1.5 MB); a conditional request is
    answered in full, not 304."""
    request = urllib.request.Request(
        f"{app_server}/app/static/vendor/{live_chart.PLOTLY_FILE}",
        headers={"Accept-Encoding": "gzip"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        headers = {k.lower(): v for k, v in response.headers.items()}
        body = response.read()
    assert response.status == 200
    assert "javascript" in headers["content-type"] and "etag" in headers
    assert body  # whole (compressed or not)
