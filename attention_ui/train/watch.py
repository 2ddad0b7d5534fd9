"""The training page's one screen: the training curves and the attention side by side, the
step slider and Play under the attention (train/player.py). Before training it shows the model
at step 0 (the engine's first snapshot of the settings, computed without training); while a
run trains, the latest snapshot's attention and the curves so far, redrawn as they arrive; once
trained, every snapshot, played in the browser.

The finished run's screen is a fragment: a step chosen in the player reruns it alone (the
curves' marker, the step's numbers, the attention, the folds that show the step), not the
page."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

import numpy as np
import streamlit as st

from attention_core import AttentionInputError, TrainingRun
from attention_core.formatting import fmt
from attention_ui.kit.figures.charts import show_chart, show_moving_chart
from attention_ui.kit.folds import fold
from attention_ui.kit.share.address import follow_address
from attention_ui.kit.text.i18n import error_text, t
from attention_ui.train import compute, player, runs, service_text, state
from attention_ui.train.figures import curves, thinned
from attention_ui.train.player import Shown
from attention_ui.train.state import Settings

# The curves and the attention share the screen: the curves' column, then the attention's.
COLUMNS = (5, 6)
CURVE_HEIGHT = 220  # each of the two curves, one above the other
LIVE_POINTS = 600  # at most this many points per curve while a run trains (see view.py)
START_KEY = f"{state.PLAYER}.start"  # the player before training (step 0 alone)


def _columns():
    return st.columns(COLUMNS, gap="medium")


def _curves(series: dict, x_max: int, marker: int | None, *, live: bool, details=()) -> None:
    """The loss (every step) over the held-out accuracy (every snapshot), one chart each;
    `live`: redrawn in place while a run trains (no camera, no table)."""
    for kind in ("loss", "accuracy"):
        figure = curve_figure(kind, {t(f"train.curves.{kind}"): series[kind]}, x_max, marker)
        figure.plain["layout"]["height"] = CURVE_HEIGHT
        if live:
            show_moving_chart(figure, t("train.live_alt"))
        else:
            show_chart(figure, f"train.chart.{kind}", details=details)


def curve_figure(
    kind: str, series: Mapping, x_max: int, marker: int | None = None, chart: str = "curves"
):
    """The "loss" or "accuracy" curves of the named series (steps, values), titled for one
    run's charts (`chart` "curves") or the score functions' comparison ("compare")."""
    return curves(
        series,
        (t(f"train.{chart}.{kind}_title"), t("train.curves.step"), t(f"train.curves.{kind}")),
        y_range=(0.0, 1.02) if kind == "accuracy" else None,
        x_max=x_max,
        marker_step=marker,
    )


def refused(error: Exception) -> None:
    """The engine refused the settings (a code and numbers, worded here); anything else is
    said in one sentence, never as a traceback."""
    if isinstance(error, AttentionInputError):
        st.error(error_text(error), icon=":material/error:")
    elif isinstance(error, runs.NoRunError):
        st.error(service_text.unavailable(error), icon=":material/error:")
    else:
        st.error(t("train.failed"), icon=":material/error:")


# ---------------------------------------------------------------------------------------------
# Before training


def picks_of(settings: Settings, rows: int) -> list[int | None]:
    """The cells clicked for these settings (the chosen input per row; None: not yet)."""
    kept = st.session_state.get(state.PICKS, {}).get(repr(settings))
    if not isinstance(kept, list) or len(kept) != rows:
        return [None] * rows
    return [c if isinstance(c, int) and not isinstance(c, bool) else None for c in kept]


def _took_pick(key: str, settings: Settings, rows: int, columns: int) -> None:
    """A click on a step-0 cell: kept per settings (a column the player offers, or none)."""
    chosen = getattr(st.session_state.get(key), "pick", None)
    if not isinstance(chosen, list) or len(chosen) != rows:
        return
    clean = [c if isinstance(c, int) and 0 <= c < columns else None for c in chosen]
    st.session_state.setdefault(state.PICKS, {})[repr(settings)] = clean


def pick_panel(drawn: dict) -> int:
    """The panel the learner clicks: the last layer's first head (the outputs')."""
    first_of_last = [i for i, p in enumerate(drawn["panels"]) if p.get("outputs")]
    return first_of_last[0] if first_of_last else 0


def before(settings: Settings, predicting: bool) -> None:
    """The empty curves and the model's attention at step 0; with "Predict, then reveal" on,
    the cells to click (the right positions' frames hidden)."""
    try:
        snapshot = compute.initial_snapshot(settings)
    except AttentionInputError as problem:
        refused(problem)
        return
    task = compute.task_of(settings.task, settings.seed)
    left, right = _columns()
    with left:
        empty = {"loss": ((), ()), "accuracy": ((), ())}
        _curves(empty, settings.steps, None, live=True)
    with right:
        st.header(t("train.snapshot.title", step="0"))
        shown = Shown(rings=not predicting, shares=not predicting)
        drawn = player.panels(task, [snapshot], shown)
        _draw_start(drawn, settings, predicting)
        _task_caption(task)
        st.caption(t("watch.pick") if predicting else t("watch.before"))


def _draw_start(drawn: dict, settings: Settings, predicting: bool) -> None:
    """The step-0 player; the cells answer clicks while predicting."""
    if not predicting:
        player.player(drawn, START_KEY, step=0)
        return
    panel = drawn["panels"][pick_panel(drawn)]
    rows, columns = len(panel["y"]), len(panel["x"])
    picks = picks_of(settings, rows)
    result = player.player(
        drawn,
        START_KEY,
        step=0,
        pick=picks,
        pick_panel=pick_panel(drawn),
        on_pick=partial(_took_pick, START_KEY, settings, rows, columns),
    )
    if getattr(result, "pick", None) is not None:  # AppTest calls no callback
        _took_pick(START_KEY, settings, rows, columns)
    chosen = sum(p is not None for p in picks_of(settings, rows))
    st.caption(t("watch.picked", picked=chosen, rows=rows))


def _task_caption(task) -> None:
    if task.outputs == 1:
        # where each drawn example's answer stands: said to move only where it does
        where = [int(task.attend[e][0]) + 1 for e in range(min(player.STACKED, len(task.attend)))]
        if len(set(where)) > 1:
            st.caption(t("watch.examples", count=len(where), positions=", ".join(map(str, where))))
        else:
            st.caption(t("watch.examples_same", count=len(where), positions=str(where[0])))
    elif task.layers > 1:
        st.caption(t("watch.layers"))


# ---------------------------------------------------------------------------------------------
# While training


def live(settings: Settings, hidden: bool) -> None:
    """The run of `settings` as far as it got (`hidden`: a prediction is open, the attention
    stays at step 0): while it waits in the shared line, its place, asked again and again (a
    poll), over the model at step 0, drawn once; while it trains, the progress, the curves so
    far and the latest snapshot's attention, redrawn by Streamlit every `run_every`. Each
    turns into the whole page when the run moves on (which then draws the next)."""
    seen = _seen(settings)
    if seen is not None and _in_line(seen):
        _place_in_line(settings)
        _live_screen(settings, seen, hidden)
    else:
        _training(settings, hidden)


def _seen(settings: Settings) -> runs.Seen | None:
    job = runs.kept(settings)
    return job.seen() if job is not None else None  # seen(): a poll, the run stays waited for


def _in_line(seen: runs.Seen) -> bool:
    return seen.place is not None and not seen.done


def progress(where, done: int, total: int, place: int | None) -> None:
    """In `where`: the progress bar, or the place in line while the run (every run: `done` is
    their steps together, `place` the first's) waits."""
    if place is not None and not done:
        where.info(service_text.place(place), icon=":material/hourglass_top:")
    else:
        text = t("train.progress", done=fmt(done), total=fmt(total))
        where.progress(done / max(total, 1), text=text)


@st.fragment(run_every=0.5)
def _place_in_line(settings: Settings) -> None:
    seen = _seen(settings)
    if seen is None or seen.finished or not _in_line(seen):
        st.rerun(scope="app")
    progress(st, seen.done, seen.total, seen.place)


@st.fragment(run_every=0.3)
def _training(settings: Settings, hidden: bool) -> None:
    seen = _seen(settings)
    if seen is None or seen.finished or _in_line(seen):
        st.rerun(scope="app")
    progress(st, seen.done, seen.total, seen.place)
    _live_screen(settings, seen, hidden)


def _live_screen(settings: Settings, seen: runs.Seen, hidden: bool) -> None:
    """The curves so far beside the latest snapshot's attention (step 0 before the first)."""
    task = compute.task_of(settings.task, settings.seed)
    left, right = _columns()
    with left:
        accuracy = (
            thinned(*zip(*seen.accuracy, strict=True), LIVE_POINTS) if seen.accuracy else ((), ())
        )
        loss = thinned(range(1, len(seen.loss) + 1), seen.loss, LIVE_POINTS)
        _curves({"loss": loss, "accuracy": accuracy}, seen.total, None, live=True)
    with right:
        snapshots = seen.snapshots
        if hidden or not snapshots:  # none yet (or a prediction open): step 0
            snapshots = (compute.initial_snapshot(settings),)
        latest = snapshots[-1]
        st.header(t("train.snapshot.title", step=fmt(latest.step)))
        drawn = player.panels(task, [latest], _shown(hidden))
        player.player(drawn, state.LIVE_PLAYER, step=latest.step, live=True)
        st.caption(t("watch.live", step=fmt(latest.step)))


def _shown(hidden: bool) -> Shown:
    return Shown(rings=not hidden, shares=not hidden)


# ---------------------------------------------------------------------------------------------
# The finished run


def shown_step(run: TrainingRun) -> int:
    """The step the page shows: the one chosen (address, player), as the snapshot at or
    before it; the last one when none was chosen or it is beyond the run."""
    steps = [int(s) for s in run.snapshot_steps]
    chosen = st.session_state.get(state.STEP)
    if not isinstance(chosen, int) or isinstance(chosen, bool) or not 0 <= chosen <= steps[-1]:
        chosen = steps[-1]
    step = int(run.snapshot_at(chosen).step)
    st.session_state[state.STEP] = step
    return step


def _took_step(key: str) -> None:
    """The player stopped at a step (Pause, the end, the slider let go): the page follows."""
    step = getattr(st.session_state.get(key), "step", None)
    if isinstance(step, int) and not isinstance(step, bool):
        st.session_state[state.STEP] = step


def screen(run: TrainingRun, settings: Settings, hidden: bool, folds) -> int:
    """The finished run's screen; `hidden`: the attention stays at step 0 (a prediction is
    open); `folds(step)` draws what folds under it and follows the step. Returns the step."""
    return _screen(run, settings, hidden, folds)


@st.fragment
def _screen(run: TrainingRun, settings: Settings, hidden: bool, folds) -> int:
    step = shown_step(run)
    task = compute.task_of(settings.task, settings.seed)
    snapshot = run.snapshot_at(step)
    left, right = _columns()
    with left:
        series = {
            "loss": (range(1, len(run.loss) + 1), run.loss),
            "accuracy": (run.snapshot_steps, run.accuracy),
        }
        details = (run.task, run.score, f"h{run.heads}", f"d{run.d_model}", f"seed{run.seed}")
        _curves(series, run.steps, step, live=False, details=details)
    with right:
        st.header(t("train.snapshot.title", step=fmt(snapshot.step)))
        if hidden:  # the prediction is open: the step-0 cells to click, nothing learned
            drawn = player.panels(task, [run.snapshots[0]], _shown(True))
            _draw_start(drawn, settings, True)
        else:
            _numbers(snapshot, task)
            drawn = player.panels(task, run.snapshots)
            result = player.player(
                drawn, state.PLAYER, step=step, on_step=partial(_took_step, state.PLAYER)
            )
            played = getattr(result, "step", None)
            if isinstance(played, int) and played != step and played in drawn["steps"]:
                _took_step(state.PLAYER)  # AppTest calls no callback: the next run follows
            st.caption(t("watch.play_help"))
        _task_caption(task)
    folds(step)
    follow_address("train")  # a step chosen in here reruns this alone: the address follows it
    return step


def _numbers(snapshot, task) -> None:
    st.markdown(
        t(
            "train.snapshot.numbers",
            accuracy=fmt(100 * snapshot.accuracy),
            on_target=fmt(snapshot.on_target),
            chance=fmt(100 * task.chance),
        )
    )


# ---------------------------------------------------------------------------------------------
# Predict, then reveal: the clicks against the learned weights


def gap_sentence(trained: np.ndarray, picks: list[int | None]) -> str | None:
    """How the clicked cells compare with the trained weights (rows × inputs, the heads'
    mean): the mean weight on the clicked cells, on each row's largest, and how many rows'
    clicks are that largest; None before any click."""
    chosen = [(row, c) for row, c in enumerate(picks) if c is not None]
    if not chosen:
        return None
    mine = float(np.mean([trained[row, c] for row, c in chosen]))
    best = float(np.mean([trained[row].max() for row, _ in chosen]))
    right = sum(int(np.argmax(trained[row])) == c for row, c in chosen)
    numbers = {"mine": fmt(mine), "best": fmt(best), "rows_right": right, "rows": len(chosen)}
    if best - mine < 0.005:
        return t("watch.gap_close", **numbers)
    return t("watch.gap_far", gap=fmt(best - mine), **numbers)


def fold_of(name: str):
    """One fold below the screen (closed folds build nothing: kit/folds.py)."""
    return fold(t(f"watch.{name}_fold"), key=f"train.fold.{name}")


def typed_tokens(run: TrainingRun, settings: Settings) -> np.ndarray:
    """The tokens typed in "your own input" (own_input.section), else the first example's."""
    task = compute.task_of(settings.task, settings.seed)
    text = st.session_state.get(f"{state.PROBE}.{settings.task}")
    parsed = compute.parse_tokens(text, task) if text else None
    return parsed.tokens if parsed is not None and parsed.tokens is not None else task.inputs[0]
