"""Where the live chart's plotly.js comes from (kit/figures/live_chart.py): the chunk of
Streamlit's frontend that st.plotly_chart loads, which sets window.Plotly when it runs and which
Streamlit serves as it is on disk, with a year's caching. The plotly package's file, the
fallback, is compressed anew by the server for every request (130 ms of its CPU per fetch at
load 11, more under load) and kept by no browser."""

from __future__ import annotations

import asyncio
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from attention_ui.kit.figures import live_chart
from bench.cold_elements import first_run
from tests.app_server import start_app, stop_app

pytestmark = pytest.mark.timeout(180)


def test_the_chunk_named_is_streamlits_plotly_and_sets_window_plotly():
    chunk = live_chart.streamlit_plotly_chunk()
    assert chunk.startswith("PlotlyChart.") and chunk.endswith(".js")
    text = (live_chart._STREAMLIT_JS / chunk).read_text(encoding="utf-8")
    assert "window.Plotly=" in text  # what static/live_chart.js waits for after the import
    assert "plotly.js v" in text or "src/version.js" in text


def _get(url: str) -> tuple[int, dict[str, str], int]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip, deflate, br"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return (
            response.status,
            {k.lower(): v for k, v in response.headers.items()},
            len(response.read()),
        )


def test_the_server_sends_the_chunk_as_it_is_and_lets_the_browser_keep_it():
    process, url = start_app(extra_args=("--server.runOnSave", "false"))
    try:
        with ThreadPoolExecutor(1) as pool:  # its own event loop, apart from Playwright's
            pool.submit(asyncio.run, first_run(url, "luong")).result()  # a page's charts drawn
        chunk = live_chart.streamlit_plotly_chunk()
        status, headers, size = _get(f"{url}/static/js/{chunk}")
        assert status == 200
        assert "javascript" in headers["content-type"]
        assert "content-encoding" not in headers  # not compressed anew for each request
        assert "immutable" in headers["cache-control"] and "max-age=" in headers["cache-control"]
        assert size == (live_chart._STREAMLIT_JS / chunk).stat().st_size
        # the fallback still answers
        status, _, _ = _get(f"{url}/{live_chart._PLOTLY_URL}")
        assert status == 200
    finally:
        stop_app(process)
