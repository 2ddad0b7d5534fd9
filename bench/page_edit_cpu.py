"""Processor time of one edit on a page through AppTest (the script's whole rerun: the page's
computation, its figures, their text alternatives and JSON, with AppTest's own overhead on
top), median of N edits, each edit unlike the one before. Run from a checkout's root, the
checkouts compared in interleaved runs (a shared machine's load drifts):

    PYTHONPATH=. python bench/page_edit_cpu.py transformer 40

Pages and their edit: transformer (the sentence), regression (σ, the steps shown), exercises
(the search's rate: its weights-per-step heatmap), train (the player's step of a trained run,
stopped at a snapshot as the browser sends it: the player's state and its callback's step).
Luong's edit is bench/heatmap_edit.py.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

import streamlit.logger
from streamlit.testing.v1 import AppTest

from attention_ui.train import state as train_state
from tests.support.train import press_train

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
        lambda at, k: _stop_at(at, _steps(at)[k % 3]),
    ),
}


def _set(at: AppTest, key: str, value) -> None:
    at.session_state[key] = value
    at.run()


def _player(at: AppTest) -> dict:
    """What the attention player was last sent (train/player.py)."""
    drawn = at.get("bidi_component")
    return json.loads(next(e for e in drawn if e.proto.id.endswith(train_state.PLAYER)).proto.json)


def _steps(at: AppTest) -> list[int]:
    """The first, a middle and the last snapshot's step of the run the player was sent."""
    options = _player(at)["steps"]
    return [options[0], options[len(options) // 2], options[-1]]


def _stop_at(at: AppTest, step: int) -> None:
    """The player stopped at `step`: its state, and what its callback (which AppTest does not
    call) sets before the rerun (train/watch._took_step)."""
    at.session_state[train_state.PLAYER] = {"step": step}
    at.session_state[train_state.STEP] = step
    at.run()


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
        press_train(at, EDITS["train"][0])  # and wait for the run to finish
    for k in range(5):  # warm up
        edit(at, k)
    if page == "train":  # the page followed the player's last stop
        sent = _player(at)
        assert sent["steps"][sent["index"]] == _steps(at)[4 % 3], sent["index"]
    times = []
    for k in range(n):
        begin = time.process_time_ns()
        edit(at, k)
        times.append(time.process_time_ns() - begin)
    assert not at.exception, [e.value for e in at.exception]
    print(f"{page} edit {statistics.median(times) / 1e6:.2f} ms (median of {n})")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40)
