"""The sections of "Watch attention learn", in the order pages/train.py draws them. Each draws
one part and returns what the next part needs."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

import streamlit as st

from attention_core import TrainingRun
from attention_core.formatting import fmt
from attention_core.training import TRAINING_SCORES
from attention_ui.kit.figures.charts import show_chart, show_moving_chart
from attention_ui.kit.share.codec import MAX_INT
from attention_ui.kit.state import settings as draw
from attention_ui.kit.state.settings import Setting
from attention_ui.kit.text.i18n import t
from attention_ui.kit.text.markdown import stacked
from attention_ui.train import claims, compute, runs, state, teaching, watch
from attention_ui.train.state import SETTINGS, Settings
from attention_ui.train.watch import curve_figure, refused

# While a run trains, the page redraws its progress this often (the browser sees the curves
# grow at least twice a second), each curve with at most LIVE_POINTS points, so a redraw's
# figure stays the same size however long the run (it is sent to every session watching); the
# finished run's curves have every point.
REFRESH_SECONDS = 0.3
KEEP_SECONDS = 1.0
LIVE_POINTS = watch.LIVE_POINTS
# A run that finishes within FINISH_WAIT seconds of Train goes straight to the finished page
# (a run at the defaults, even on a busy machine), with no live screen in between: one run of
# the page instead of two (about half the messages and bytes reach the browser: README).
# After FIRST_WAIT the run's pace so far says whether it will: a longer run (or one waiting in
# line) shows its live screen then.
FIRST_WAIT = 0.3
FINISH_WAIT = 1.0


# ---------------------------------------------------------------------------------------------
# The settings


def _untrain() -> None:
    """A changed setting is another run: it is drawn once the learner presses Train (or
    compares the score functions again)."""
    st.session_state[state.TRAINED] = False
    st.session_state[state.COMPARED] = False


def _widget(s: Setting, where) -> None:
    """One setting's widget, from its declaration: a choice of words as a select box, a choice
    of numbers as a select slider, a range of whole numbers as a number box (no upper bound:
    the steps' is said by the page, the seed's by the address)."""
    low, high = getattr(s.field, "low", 0), getattr(s.field, "high", MAX_INT)
    common = {"help": t(s.help, low=fmt(low), high=fmt(high)), "on_change": _untrain}
    options = getattr(s.field, "options", ())
    if options and isinstance(options[0], str):
        draw.selectbox(s, where, **common)
    elif options:
        draw.select_slider(s, where, format_func=fmt, **common)
    else:
        draw.number_input(s, where, min_value=low, max_value=None, **common)


def settings() -> Settings:
    """Every setting's widget: the task and the score function in one row (their longest
    labels, the Japanese scaled dot product's, need half the width), the five numbers in the
    next (one under another on a phone)."""
    draw.start(SETTINGS)
    columns = [*st.columns(2), *st.columns(len(SETTINGS) - 2)]
    for column, s in zip(columns, SETTINGS, strict=True):
        _widget(s, column)
    return state.current()


def model_formula() -> None:
    """The model in four lines, as the engine computes it."""
    st.latex(
        stacked(
            r"\mathbf{X} = \mathbf{E}[\text{tokens}] + \mathbf{P},",
            r"\mathbf{Q} = \mathbf{X}\mathbf{W}_Q,\ \mathbf{K} = \mathbf{X}\mathbf{W}_K,"
            r"\ \mathbf{V} = \mathbf{X}\mathbf{W}_V,",
        )
    )
    st.latex(
        stacked(
            r"\mathbf{A}_i = \operatorname{softmax}\big(f(\mathbf{Q}_i, \mathbf{K}_i)\big),",
            r"\mathbf{Y} = \operatorname{concat}(\mathbf{V}_i \mathbf{A}_i)\,\mathbf{W}_O,",
            r"p = \operatorname{softmax}(\mathbf{Y}\mathbf{W}_U)",
        )
    )
    st.markdown(t("train.model"))


def out_of_bounds(settings: Settings) -> bool:
    """Whether a setting is beyond the page's bounds, said in a sentence naming it (only the
    steps box lets one through: its upper bound is said, not clamped)."""
    high = state.STEPS.field.high
    if settings.steps > high:
        text = t("train.bounds.steps", steps=fmt(settings.steps), high=fmt(high))
        st.error(text, icon=":material/error:")
    return settings.steps > high


# ---------------------------------------------------------------------------------------------
# Training


def train_button() -> bool:
    """The Train button; True while the page should show the run of the current settings."""
    if st.button(
        t("train.train"), key=state.TRAIN_BUTTON, type="primary", icon=":material/play_arrow:"
    ):
        st.session_state[state.TRAINED] = True
    return bool(st.session_state.get(state.TRAINED, False))


def follow(jobs: Mapping[str, runs.Job], draw_live: Callable) -> dict[str, runs.Seen]:
    """Draw the runs' progress (one bar over all their steps, or the place in line while
    they wait) and their curves so far (`draw_live(seen, place)`), redrawn every
    REFRESH_SECONDS, until every one has finished; the finished runs' curves are drawn by
    `finished_curves`. Each look at the runs is a poll (train/runs.py): the bar is sent again
    at least every KEEP_SECONDS, so that a closed tab's run (Streamlit stops its script at
    the next element sent) stops polling."""
    bar = st.empty()
    live = st.empty()
    seen = {name: job.seen() for name, job in jobs.items()}
    drawn, sent = (None, None), 0.0
    while not all(s.finished for s in seen.values()):
        done = sum(s.done for s in seen.values())
        total = sum(s.total for s in seen.values())
        place = min((s.place for s in seen.values() if s.place is not None), default=None)
        if (done, place) != drawn or time.monotonic() - sent > KEEP_SECONDS:
            watch.progress(bar, done, total, place)
            sent = time.monotonic()
        if done != drawn[0]:  # redrawn only when a run got further
            draw_live(seen, live)
        drawn = (done, place)
        waiting = [job for job in jobs.values() if not job.finished.is_set()]
        if waiting:
            waiting[0].finished.wait(REFRESH_SECONDS)
        seen = {name: job.seen() for name, job in jobs.items()}
    bar.empty()
    live.empty()
    return seen


def _live_scores(seen: Mapping[str, runs.Seen], live) -> None:
    """Each score function's run's held-out accuracy so far, overlaid."""
    series = {
        t(f"engine.value.score.{name}"): (
            [step for step, _ in s.accuracy],
            [value for _, value in s.accuracy],
        )
        for name, s in seen.items()
    }
    x_max = max(s.total for s in seen.values())
    figure = curve_figure("accuracy", series, x_max, chart="compare")
    show_moving_chart(figure, t("train.live_alt"), container=live)


def _no_curves(seen: Mapping[str, runs.Seen], live) -> None:
    """Nothing but the progress bar (a prediction about these runs is open)."""


def trained_run(settings: Settings) -> tuple[TrainingRun | None, bool]:
    """The run of these settings (shared with every session that asks for the same settings)
    and whether something took its place: while it trains, the live screen (watch.live, which
    reruns the page once the run has finished); a message if the engine refused."""
    job = runs.job(settings, compute.train, runs.asker(settings))
    _wait_if_soon(job)
    seen = job.seen()
    if not seen.finished:
        watch.live(settings, teaching.predicting_open())
        return None, True
    if seen.error is not None:
        refused(seen.error)
        return None, True
    return seen.result, False


def _wait_if_soon(job: runs.Job) -> None:
    """Wait for the run while, at its pace so far (measured from FIRST_WAIT on), it finishes
    within FINISH_WAIT of Train; stop waiting as soon as it will not, or it waits in line."""
    start, first = time.monotonic(), job.seen().done
    while not job.finished.wait(0.1):
        elapsed = time.monotonic() - start
        if elapsed >= FINISH_WAIT:
            return
        if elapsed < FIRST_WAIT:
            continue
        seen = job.seen()
        rate = (seen.done - first) / elapsed  # steps a second (0: not started yet)
        if seen.place is not None or (
            rate > 0 and (seen.total - seen.done) / rate > FINISH_WAIT - elapsed
        ):
            return


def finished_curves(
    named: Mapping[str, TrainingRun], marker: int | None, chart: str, details: tuple
) -> None:
    """The named finished runs' loss at every step and held-out accuracy at every snapshot,
    side by side (one run's curve is named after what it plots)."""
    x_max = max(run.steps for run in named.values())
    for column, kind in zip(st.columns(2), ("loss", "accuracy"), strict=True):
        series = {
            name or t(f"train.curves.{kind}"): (
                (range(1, len(run.loss) + 1), run.loss)
                if kind == "loss"
                else (run.snapshot_steps, run.accuracy)
            )
            for name, run in named.items()
        }
        key = f"train.chart.{kind}" if chart == "curves" else f"train.chart.{chart}.{kind}"
        with column:
            show_chart(curve_figure(kind, series, x_max, marker, chart), key, details=details)


def _details(run: TrainingRun) -> tuple:
    """The settings that name a chart's PNG (never user text)."""
    return (run.task, run.score, f"h{run.heads}", f"d{run.d_model}", f"seed{run.seed}")


# ---------------------------------------------------------------------------------------------
# One finished run, in sentences


def run_sentences(run: TrainingRun, settings: Settings) -> None:
    """What this run did, each sentence computed from its numbers (train/claims.py)."""
    chance = compute.task_of(settings.task, settings.seed).chance
    for claim in claims.run_claims(run, chance):
        st.markdown(claims.sentence(claim))


# ---------------------------------------------------------------------------------------------
# Every score function on the same task


def compare(settings: Settings, predicting: bool) -> None:
    """Train the same task with every score function (shared runs, like any other) and
    overlay their curves; say what location scores can and cannot learn, when the runs show
    it."""
    st.header(t("train.compare.title"))
    st.markdown(t("train.compare.intro"))
    if st.button(
        t("train.compare.button"), key=state.COMPARE_BUTTON, icon=":material/stacked_line_chart:"
    ):
        st.session_state[state.COMPARED] = True
    if not st.session_state.get(state.COMPARED):
        teaching.waiting(teaching.SCORES)  # a class question asked about other runs stays
        return
    jobs = {
        score: runs.job(s, compute.train, runs.asker(s))
        for score, s in ((score, settings.with_score(score)) for score in TRAINING_SCORES)
    }
    # while a prediction is open the curves would answer "which score learns first?"
    seen = follow(jobs, _no_curves if predicting else _live_scores)
    failed = [s for s in seen.values() if s.error is not None]
    if failed:
        refused(failed[0].error)
        teaching.waiting(teaching.SCORES)
        return
    compared = {score: s.result for score, s in seen.items()}
    if not teaching.scores_puzzle(compared, predicting):
        return
    named = {t(f"engine.value.score.{score}"): run for score, run in compared.items()}
    finished_curves(named, None, "compare", (settings.task, f"seed{settings.seed}"))
    chance = compute.task_of(settings.task, settings.seed).chance
    for claim in claims.location_claims(compared, chance):
        st.info(claims.sentence(claim), icon=":material/lightbulb:")
