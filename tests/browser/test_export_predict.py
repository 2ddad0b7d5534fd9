"""In Chromium: the Luong page's script downloads and runs on its own; predict, then
reveal hides the charts until the learner reveals them; the open export follows an edit."""

from __future__ import annotations

import csv
import io
import subprocess
import sys

import numpy as np

from attention_core import attention
from attention_ui.luong.model import padding_mask
from attention_ui.luong.presets import PRESETS
from tests.browser.conftest import (
    assert_no_exception,
    grid,
    open_page,
    type_into_cell,
    wait_for_plot,
    wait_idle,
)


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


def test_the_open_export_and_the_masks_length_follow_an_edit(page, server):
    """The export is a fragment of its own, rerun with an edit only while it is open, and the
    padding mask's length sits in a place the results' fragment writes
    (attention_ui/luong/fragments.py): after L goes from 1 to 2 and Q's first cell to 3, A's
    CSV downloads those weights."""
    first = PRESETS["first"].column_matrices()
    open_page(page, server, "luong", "mask=padding&L=1")
    page.get_by_text("Export: script, CSV, LaTeX").click()
    wait_idle(page)
    length = page.locator("[data-testid=stNumberInput]").filter(has_text="Visible keys L")
    length.locator("[data-testid=stNumberInputStepUp]").click()
    wait_idle(page)
    q = first["Q"].copy()
    q[0, 0] = 3.0
    weights = attention(q, first["K"], first["V"], mask=padding_mask(3, 2, 2)).weights
    type_into_cell(page, grid(page, 0), 0, 0, "3")
    wait_for_plot(page, "A: weights", weights.tolist())
    wait_idle(page)
    with page.expect_download() as download:
        page.get_by_role("button", name="A (.csv)").click()
    rows = list(csv.reader(io.StringIO(download.value.path().read_text())))
    np.testing.assert_allclose([[float(x) for x in row[1:]] for row in rows[1:]], weights)
    assert_no_exception(page)
