"""The training page's export: a stand-alone NumPy script that retrains the run from its seed
and checks it reaches the page's numbers (run here in a fresh interpreter, with no path to
the app), and the curves as CSV."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from attention_ui.kit.export.panel import table_csv
from attention_ui.train import compute, runs, teaching
from attention_ui.train.state import settings_of
from tests.support.train import polled


def finished(settings):
    job = runs.job(settings, compute.train)
    seen = polled(job, 120)
    assert seen.error is None
    return seen.result


def run_script(text: str, tmp_path) -> subprocess.CompletedProcess:
    path = tmp_path / "retrain.py"
    path.write_text(text, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-I", str(path)], capture_output=True, text=True, timeout=300, cwd=tmp_path
    )


@pytest.mark.parametrize(
    "values",
    [
        {"train.task": "reverse", "train.steps": 50, "train.d_model": 8},
        {"train.task": "lookup", "train.score": "location", "train.steps": 30, "train.heads": 2},
        {"train.task": "previous", "train.score": "concat", "train.steps": 30},
        {
            "train.task": "induction",
            "train.score": "general",
            "train.steps": 20,
            "train.d_model": 8,
        },
    ],
    ids=["reverse", "lookup-location", "previous-concat", "induction-general"],
)
def test_the_exported_script_retrains_the_run_and_reaches_the_pages_numbers(values, tmp_path):
    settings = settings_of(values)
    run = finished(settings)
    done = run_script(teaching.training_script(run, settings), tmp_path)
    assert done.returncode == 0, done.stderr
    assert "retrained" in done.stdout


def test_the_script_fails_when_the_run_does_not_reach_the_pages_loss(tmp_path):
    settings = settings_of({"train.task": "reverse", "train.steps": 20, "train.d_model": 8})
    run = finished(settings)
    text = teaching.training_script(run, settings)
    wrong = text.replace(
        f"EXPECTED_LOSS = {float(run.loss[-1])!r}",
        f"EXPECTED_LOSS = {float(run.loss[-1]) + 1e-3!r}",
    )
    assert wrong != text
    done = run_script(wrong, tmp_path)
    assert done.returncode != 0 and "AssertionError" in done.stderr


def test_the_curves_as_csv_hold_every_step_and_snapshot():
    settings = settings_of({"train.task": "reverse", "train.steps": 30, "train.d_model": 8})
    run = finished(settings)
    steps, snapshots = teaching.curve_tables(run)
    lines = table_csv(steps).splitlines()
    assert lines[0] == ",training_loss,batch_accuracy" and len(lines) == 1 + run.steps
    assert [float(x) for x in lines[-1].split(",")[1:]] == [run.loss[-1], run.batch_accuracy[-1]]
    values = np.array(
        [[float(x) for x in line.split(",")[1:]] for line in table_csv(snapshots).splitlines()[1:]]
    )
    np.testing.assert_array_equal(values[:, 0], run.accuracy)
