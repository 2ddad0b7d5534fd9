"""Processor time of one edit on a page through AppTest (the script's whole rerun: the page's
computation, its figures, their text alternatives and JSON, with AppTest's own overhead on
top), median of N edits, each edit unlike the one before. Run from a checkout's root, the
checkouts compared in interleaved runs (a shared machine's load drifts):

    PYTHONPATH=. python bench/page_edit_cpu.py transformer 40

Pages and their edit: transformer (the sentence), regression (σ, the steps shown), exercises
(the search's rate: its weights-per-step heatmap), train (the step slider of a trained run).
Luong's edit is bench/heatmap_edit.py.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import streamlit.logger
from streamlit.testing.v1 import AppTest

streamlit.logger.set_log_level("error")
APP = Path("app.py").resolve()
SENTENCES = ("the cat sat on the mat", "a dog ran under the box", "the old red cat sat on")

# page: (settings set before the first run, the edit: (AppTest, k) -> None)
EDITS = {
    "transformer": (
        {},
        lambda at, k: _set(at, "transformer.sentence", SENTENCES[k % 3]),
    ),
    "regression": (
        {"regression.steps.show": True},
        lambda at, k: _set(at, "regression.sigma", 0.5 + 0.01 * (k % 7)),
    ),
    "exercises": (
        {"exercises.section": "search"},
        lambda at, k: _set(at, "exercises.search.rate", 0.5 + 0.05 * (k % 5)),
    ),
    "train": (
        {"train.steps": 60, "train.d_model": 8, "train.task": "reverse", "train.heads": 2},
        lambda at, k: at.select_slider(key="train.step").set_value(_steps(at)[k % 3]).run(),
    ),
}


def _set(at: AppTest, key: str, value) -> None:
    at.session_state[key] = value
    at.run()


def _steps(at: AppTest) -> list:
    options = at.select_slider(key="train.step").options
    return [options[0], options[len(options) // 2], options[-1]]


def main(page: str, n: int) -> None:
    start, edit = EDITS[page]
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.session_state["lang"] = "en"
    at.run()
    at.switch_page(f"pages/{page}.py").run()
    for key, value in start.items():
        at.session_state[key] = value
    at.run()
    if page == "train":
        at.button(key="train.train").click().run()
    for k in range(5):  # warm up
        edit(at, k)
    times = []
    for k in range(n):
        begin = time.process_time_ns()
        edit(at, k)
        times.append(time.process_time_ns() - begin)
    assert not at.exception, [e.value for e in at.exception]
    print(f"{page} edit {statistics.median(times) / 1e6:.2f} ms (median of {n})")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40)
