"""In Chromium: the Luong page's script downloads and runs on its own; predict, then
reveal hides the charts until the learner reveals them."""

from __future__ import annotations

import subprocess
import sys

from tests.browser.conftest import assert_no_exception, open_page, wait_idle


def test_the_downloaded_script_runs_alone_then_predict_hides_and_reveals(page, server, tmp_path):
    open_page(page, server, "luong")
    page.get_by_text("Export: script, CSV, LaTeX").click()
    wait_idle(page)
    with page.expect_download() as download:
        page.get_by_role("button", name="Python script (.py)").click()
    assert download.value.suggested_filename == "attention-explorer_luong_dot_column.py"
    script = tmp_path / download.value.suggested_filename
    download.value.save_as(script)
    done = subprocess.run(
        [sys.executable, "-I", str(script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "OK: S, A, O agree with the app." in done.stdout

    page.get_by_text("Predict, then reveal").click()
    wait_idle(page)
    assert page.locator(".js-plotly-plot").count() == 0
    page.get_by_role("radiogroup", name="Query q1").get_by_text("k1").click()
    wait_idle(page)
    page.get_by_role("button", name="Reveal", exact=True).click()
    wait_idle(page)
    page.get_by_text("q1: k1 is right.", exact=False).wait_for(timeout=30_000)
    page.locator(".js-plotly-plot").first.wait_for(timeout=30_000)
    assert_no_exception(page)
