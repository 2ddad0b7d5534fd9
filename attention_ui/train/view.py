"""The sections of "Watch attention learn", in the order pages/train.py draws them. Each draws
one part and returns what the next part needs."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

import numpy as np
import streamlit as st

from attention_core import AttentionInputError, TrainingRun
from attention_core.formatting import fmt
from attention_core.training import TRAINING_SCORES
from attention_ui.kit.figures.charts import show_chart, show_moving_chart
from attention_ui.kit.figures.heatmap import SIGNED, WEIGHTS, Titles, heatmap
from attention_ui.kit.share.address import SCHEMAS, apply_state
from attention_ui.kit.share.codec import MAX_INT
from attention_ui.kit.state import settings as draw
from attention_ui.kit.state.number_box import number_box
from attention_ui.kit.state.settings import Setting
from attention_ui.kit.state.trained import Trained, mark_trained
from attention_ui.kit.teaching.steps_view import show_steps
from attention_ui.kit.text.i18n import current_language, error_text, t
from attention_ui.kit.text.markdown import escape_markdown, stacked
from attention_ui.train import claims, compute, runs, state, teaching
from attention_ui.train import transfer as transfer_rules
from attention_ui.train.figures import curves, frames, thinned
from attention_ui.train.state import SETTINGS, Settings

# While a run trains, the page redraws its progress this often (the browser sees the curves
# grow at least twice a second), each curve with at most LIVE_POINTS points, so a redraw's
# figure stays the same size however long the run (it is sent to every session watching); the
# finished run's curves have every point.
REFRESH_SECONDS = 0.3
LIVE_POINTS = 600


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
    """Every setting's widget, three to a row (one under another on a phone)."""
    draw.start(SETTINGS)
    rows = (SETTINGS[:2], SETTINGS[2:5], SETTINGS[5:])
    for row in rows:
        for column, s in zip(st.columns(len(row)), row, strict=True):
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
    """Draw the runs' progress (one bar over all their steps) and their curves so far
    (`draw_live(seen, place)`), redrawn every REFRESH_SECONDS, until every one has finished;
    the finished runs' curves are drawn by `finished_curves`."""
    bar = st.empty()
    live = st.empty()
    seen = {name: job.seen() for name, job in jobs.items()}
    drawn = None
    while not all(s.finished for s in seen.values()):
        done = sum(s.done for s in seen.values())
        total = sum(s.total for s in seen.values())
        if done != drawn:  # redrawn only when a run got further
            bar.progress(
                done / max(total, 1), text=t("train.progress", done=fmt(done), total=fmt(total))
            )
            draw_live(seen, live)
            drawn = done
        waiting = [job for job in jobs.values() if not job.finished.is_set()]
        if waiting:
            waiting[0].finished.wait(REFRESH_SECONDS)
        seen = {name: job.seen() for name, job in jobs.items()}
    bar.empty()
    live.empty()
    return seen


def _live_curves(seen: Mapping[str, runs.Seen], live) -> None:
    """One run's loss and held-out accuracy so far."""
    (run,) = seen.values()
    points = {
        "loss": thinned(range(1, len(run.loss) + 1), run.loss, LIVE_POINTS),
        "accuracy": (
            thinned(*zip(*run.accuracy, strict=True), LIVE_POINTS) if run.accuracy else ((), ())
        ),
    }
    with live.container():  # no key: the chart in place is updated, not remade
        for column, (kind, curve) in zip(st.columns(2), points.items(), strict=True):
            figure = curve_figure(kind, {t(f"train.curves.{kind}"): curve}, run.total)
            show_moving_chart(figure, t("train.live_alt"), container=column)


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


def trained_run(settings: Settings) -> TrainingRun | None:
    """The run of these settings: followed while it trains (shared with every session that
    asks for the same settings), then returned; None (and a message) if the engine refused."""
    seen = follow({"run": runs.job(settings, compute.train)}, _live_curves)["run"]
    if seen.error is not None:
        refused(seen.error)
        return None
    return seen.result


def curves_section(run: TrainingRun, marker: int | None) -> None:
    """The finished run's loss and held-out accuracy, with the slider's step marked."""
    finished_curves({"": run}, marker, "curves", _details(run))
    st.caption(t("train.curves.caption"))


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


def refused(error: Exception) -> None:
    """The engine refused the settings (a code and numbers, worded here); anything else is
    said in one sentence, never as a traceback."""
    if isinstance(error, AttentionInputError):
        st.error(error_text(error), icon=":material/error:")
    else:
        st.error(t("train.failed"), icon=":material/error:")


# ---------------------------------------------------------------------------------------------
# Scrubbing through the snapshots


def scrub(run: TrainingRun) -> int:
    """The step slider over the run's snapshots; returns the step shown."""
    steps = [int(s) for s in run.snapshot_steps]
    if st.session_state.get(state.STEP) not in steps:
        st.session_state[state.STEP] = steps[-1]
    return int(
        st.select_slider(
            t("train.scrub.label"),
            steps,
            key=state.STEP,
            help=t("train.scrub.help"),
            persist_state="session",
        )
    )


def position_labels(task, row: np.ndarray) -> list[str]:
    """'1 · C→5': each input position and its token."""
    return [f"{i + 1} · {task.tokens[int(token)]}" for i, token in enumerate(row)]


def output_labels(task, row: np.ndarray) -> list[str]:
    """'out 1 → 5': each output with the token it must predict."""
    return [
        t("train.axis.output", number=i + 1, token=task.tokens[int(token)])
        for i, token in enumerate(row)
    ]


def snapshot_section(run: TrainingRun, settings: Settings, step: int) -> None:
    """At the slider's step: the probe example's attention per head, with the right positions
    ringed, and the share of weight on them; then each head's learned score matrix."""
    task = compute.task_of(settings.task, settings.seed)
    snapshot = run.snapshot_at(step)
    st.header(t("train.snapshot.title", step=fmt(snapshot.step)))
    st.markdown(
        t(
            "train.snapshot.numbers",
            accuracy=fmt(100 * snapshot.accuracy),
            on_target=fmt(snapshot.on_target),
            chance=fmt(100 * task.chance),
        )
    )
    example = 0
    x_labels = position_labels(task, task.inputs[example])
    y_labels = output_labels(task, task.targets[example])
    for head, column in enumerate(_head_columns(run.heads)):
        share = float(snapshot.on_target_by_head[head])
        figure = heatmap(
            snapshot.weights[example, head],
            x_labels,
            y_labels,
            Titles(
                t("train.snapshot.head", number=head + 1, share=fmt(share)),
                t("train.axis.input"),
                t("train.axis.outputs"),
            ),
            looks=replace(WEIGHTS, shapes=frames(task.attend[example], t("train.snapshot.mark"))),
        )
        with column:
            show_chart(figure, f"train.chart.weights.{head}", details=_details(run))
    st.caption(t("train.snapshot.rings"))
    score_matrices(run, snapshot)


def _head_columns(heads: int) -> list:
    """A column for each head, two heads to a row."""
    columns = st.columns(min(heads, 2))
    return [columns[head % len(columns)] for head in range(heads)]


def score_matrices(run: TrainingRun, snapshot) -> None:
    """Each head's learned score matrix at this step (compute.score_matrix)."""
    st.markdown(t(f"train.learned.{compute.score_matrix_kind(run.score)}"))
    for head, column in enumerate(_head_columns(run.heads)):
        matrix, rows, cols = compute.score_matrix(snapshot.params, run.score, run.heads, head)
        figure = heatmap(
            matrix,
            [str(j + 1) for j in range(matrix.shape[1])],
            [str(i + 1) for i in range(matrix.shape[0])],
            Titles(
                t("train.learned.head", number=head + 1),
                t(f"train.learned.axis.{cols}"),
                t(f"train.learned.axis.{rows}"),
            ),
            looks=SIGNED,
        )
        with column:
            show_chart(figure, f"train.chart.learned.{head}", details=_details(run))


# ---------------------------------------------------------------------------------------------
# The learner's own input through the trained model


def typed_input(run: TrainingRun, settings: Settings) -> np.ndarray:
    """A row of tokens the learner types goes through the trained model (final parameters):
    its answer, and the last layer's first head step by step (the engine's own steps).
    Returns the tokens (the first example's while the box holds something unreadable)."""
    task = compute.task_of(settings.task, settings.seed)
    st.header(t("train.input.title"))
    key = f"{state.PROBE}.{settings.task}"
    st.session_state.setdefault(key, " ".join(task.tokens[int(i)] for i in task.inputs[0]))
    text = st.text_input(
        t("train.input.label", length=task.length),
        key=key,
        max_chars=200,
        help=t("train.input.help", examples=" ".join(task.tokens[: min(len(task.tokens), 12)])),
        persist_state="session",
    )
    parsed = compute.parse_tokens(text, task)
    if parsed.problem is not None:
        code, params = parsed.problem
        if "token" in params:
            params = {**params, "token": escape_markdown(str(params["token"]), 20)}
        st.error(t(f"train.input.{code}", **params), icon=":material/error:")
        return task.inputs[0]
    answer = compute.answer(run, task, parsed.tokens)
    shown = " ".join(task.tokens[int(i)] for i in answer.predictions)
    st.markdown(t("train.input.answer", answer=escape_markdown(shown, 80)))
    if answer.expected is not None:
        expected = " ".join(task.tokens[int(i)] for i in answer.expected)
        right = np.array_equal(answer.expected, answer.predictions)
        said = "train.input.right" if right else "train.input.wrong"
        st.markdown(t(said, expected=escape_markdown(expected, 80)))
    head = 1
    if run.heads > 1:
        if not 1 <= st.session_state.get(state.HEAD, 1) <= run.heads:
            st.session_state[state.HEAD] = 1  # a run with fewer heads
        head = number_box(
            t("train.input.head"), state.HEAD, 1, True, min_value=1, max_value=run.heads
        )
    result = answer.heads[int(head) - 1]
    st.caption(
        t("train.input.steps_intro", head=int(head), score=t(f"engine.value.score.{run.score}"))
    )
    show_steps(result, _step_titles(), namespace="train", key_prefix="train.chart.step")
    return parsed.tokens


def _step_titles() -> dict[str, str]:
    return {kind: t(f"train.steps.axis.{kind}") for kind in ("query", "key", "dim", "sum")}


# ---------------------------------------------------------------------------------------------
# One finished run, in sentences


def run_sentences(run: TrainingRun, settings: Settings) -> None:
    """What this run did, each sentence computed from its numbers (train/claims.py)."""
    chance = compute.task_of(settings.task, settings.seed).chance
    for claim in claims.run_claims(run, chance):
        st.markdown(t(f"train.claims.{claim.key}", **_worded(claim.numbers)))


def _worded(numbers) -> dict[str, str]:
    """A claim's numbers as the catalog's placeholders: shares as percentages, steps as
    whole numbers, score names in words."""
    out = {}
    for name, value in numbers.items():
        if name.endswith("_name"):
            out[name] = t(f"engine.value.score.{value}")
        elif name == "step":
            out[name] = fmt(int(value))
        elif name in ("start", "end", "on_target"):
            out[name] = fmt(value)
        else:
            out[name] = fmt(100 * value)
    return out


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
    jobs = {score: runs.job(settings.with_score(score), compute.train) for score in TRAINING_SCORES}
    seen = follow(jobs, _live_scores)
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
        st.info(
            t(f"train.claims.{claim.key}", **_worded(claim.numbers)), icon=":material/lightbulb:"
        )


# ---------------------------------------------------------------------------------------------
# Trained weights travel


def transfer(run: TrainingRun, settings: Settings, step: int, tokens: np.ndarray) -> None:
    """ "Open in multi-head self-attention" and "Open in the Luong explorer": the model at the
    slider's step on this input, put into those pages' grids (where their shapes fit), which
    then say the matrices are trained, on which task and at which step."""
    task = compute.task_of(settings.task, settings.seed)
    st.subheader(t("train.transfer.title"))
    st.caption(t("train.transfer.intro", step=fmt(step)))
    head = int(st.session_state.get(state.HEAD, 1)) - 1
    head = head if 0 <= head < run.heads else 0
    sends = {
        "transformer": transfer_rules.transformer_state(run, settings, task, tokens, step),
        "luong": transfer_rules.luong_state(run, task, tokens, step, head),
    }
    # what the page the weights go to says of them: trained on which task, at which step
    shown = " ".join(task.tokens[int(i)] for i in tokens)
    told = Trained(
        grids={},
        words={
            "task": f"train.settings.task_options.{settings.task}",
            "score": f"engine.value.score.{run.score}",
        },
        numbers={"step": fmt(step), "head": fmt(head + 1), "tokens": escape_markdown(shown, 80)},
    )
    for column, (page, sent) in zip(st.columns(2), sends.items(), strict=True):
        with column:
            pressed = st.button(
                t(f"train.transfer.{page}"),
                key=f"train.transfer.{page}",
                disabled=sent.problem is not None,
                icon=":material/open_in_new:",
            )
            if sent.problem is not None:
                code, numbers = sent.problem
                st.caption(t(f"train.transfer.{code}", **{k: fmt(v) for k, v in numbers.items()}))
            if pressed and sent.problem is None:
                send(page, sent, told)


def send(page: str, sent: transfer_rules.Sent, told: Trained) -> None:
    """Put the weights into `page`'s state, marked trained (`told` with the grids sent), and
    open that page."""
    apply_state(SCHEMAS[page], sent.values)
    grids = {key: np.asarray(sent.values[key], dtype=float) for key in sent.grids}
    mark_trained(page, replace(told, grids=grids))
    st.switch_page(f"pages/{page}.py", query_params={"lang": current_language()})
