"""The training page's teaching parts: predict-then-reveal ("which cells light up at the
end?", "which score learns first?"), each of which a teacher may ask the class (the class
question takes the puzzle's place: attention_ui/kit/classroom/panel.py), and the export (a
stand-alone NumPy script that retrains the run from its seed and checks it reaches the page's
numbers; the curves as CSV).

A question's answer is the engine's, from the run of the page's settings; runs are shared by
settings (train/runs.py), so students who follow the teacher answer about the same run."""

from __future__ import annotations

import inspect
import re
from collections.abc import Sequence

import numpy as np
import streamlit as st

from attention_core import (
    TrainingRun,
    learned,
    normalize,
    scores,
    tiny_model,
    toy_tasks,
    training,
)
from attention_core import errors as engine_errors
from attention_core.formatting import fmt
from attention_ui.kit.classroom import follow
from attention_ui.kit.classroom.panel import question_here, question_without_numbers
from attention_ui.kit.export.panel import Export, Table, export_panel
from attention_ui.kit.export.scripts import literal
from attention_ui.kit.teaching.predict import Puzzle, Verdict, puzzle_id
from attention_ui.kit.teaching.predict_view import predict_switch, puzzle, verdict_text
from attention_ui.kit.text.i18n import t
from attention_ui.kit.text.markdown import escape_markdown
from attention_ui.train import compute, player, runs, watch
from attention_ui.train.claims import LEARNED  # "learns" (the compare puzzle): reaches it
from attention_ui.train.state import Settings

PAGE = "train"
CELLS, SCORES = PAGE, f"{PAGE}.compare"  # the two puzzles (and class questions) of the page


# ---------------------------------------------------------------------------------------------
# Predict, then reveal


def switch() -> bool:
    """The switch; True (and no switch drawn) while a class question about this page is open."""
    return predict_switch(PAGE)


def predicting_open() -> bool:
    """Whether a prediction about this page's run may be open: the switch is on, or a class
    question about the page is (the weights then stay hidden while the run trains)."""
    return bool(st.session_state.get(f"{PAGE}.predict")) or question_here(PAGE)


def waiting(puzzle: str) -> None:
    """Where the puzzle `puzzle` (CELLS or SCORES) would be while the page has no run for it
    (a setting changed and nothing was trained again): the class question about it, if one is
    open, keeps its place (the teacher can still reveal or close it)."""
    question_without_numbers(puzzle)


def cell_rows(weights: np.ndarray, task) -> tuple[np.ndarray, list[str], list[list[str]]]:
    """The rows the learner predicts, as the player's clickable panel shows them (the last
    layer's; `weights`: a snapshot's probe × heads × T × L): each row's weights (the heads'
    mean), the rows' questions and each row's option labels. A task with one output per
    example (key lookup) asks about its first player.STACKED examples, one row each."""
    mean = weights.mean(axis=1)  # probe × T × L
    if task.outputs == 1:
        count = min(player.STACKED, mean.shape[0])
        rows = mean[:count, 0, :]
        questions = [
            t("watch.example_query", number=e + 1, query=task.tokens[int(task.inputs[e][-1])])
            for e in range(count)
        ]
        labels = [
            [f"{i + 1} · {task.tokens[int(token)]}" for i, token in enumerate(task.inputs[e])]
            for e in range(count)
        ]
        return rows, questions, labels
    labels = [f"{i + 1} · {task.tokens[int(token)]}" for i, token in enumerate(task.inputs[0])]
    questions = [t("train.axis.output", number=i + 1, token="?") for i in range(task.outputs)]
    return mean[0], questions, [labels] * task.outputs


def cells_puzzle(
    run: TrainingRun, settings: Settings, on: bool, picked: Sequence[int | None] = ()
) -> bool:
    """ "Which cells light up at the end?": for the rows of the player's clickable panel, the
    input position each will attend to most once trained (the heads' mean). The cells the
    learner clicked before training (`picked`) are the guesses. True once revealed (or when
    the switch is off): the page then draws the weights."""
    if not on:
        return True
    task = compute.task_of(settings.task, settings.seed)
    weights, outputs, labels = cell_rows(run.snapshots[-1].weights, task)
    st.subheader(t("train.predict.cells.title"))
    st.markdown(t("train.predict.cells.ask", example=" ".join(labels[0])))
    names = [[escape_markdown(label, 40) for label in row] for row in labels]

    def describe(verdict: Verdict, row: np.ndarray) -> str:
        return verdict_text(verdict, outputs[verdict.query], names[verdict.query], row)

    pid = puzzle_id(weights, extra=repr(settings))
    applied = f"{PAGE}.predict.applied.{pid}"
    if list(picked) != st.session_state.get(applied):  # new clicks: the puzzle's guesses
        for number, column in enumerate(picked):
            if column is not None:
                st.session_state[f"{PAGE}.predict.guess.{number}.{pid}"] = column
        st.session_state[applied] = list(picked)
    asked = Puzzle(
        CELLS,
        pid,
        questions=outputs,
        options=list(range(task.length)),
        option_label=lambda i: labels[0][i] if task.outputs != 1 else str(i + 1),
        per_query=list(weights),
        describe=describe,
        horizontal=False,
    )
    return puzzle(asked)


def revealed_cells(run: TrainingRun, settings: Settings, on: bool) -> bool:
    """The cells puzzle with the cells clicked before training as its guesses; once revealed,
    how the clicks compare with the learned weights, in a sentence from the numbers."""
    task = compute.task_of(settings.task, settings.seed)
    weights, _, _ = cell_rows(run.snapshots[-1].weights, task)
    picks = watch.picks_of(settings, len(weights))
    shown = cells_puzzle(run, settings, on, picks)
    sentence = watch.gap_sentence(weights, picks) if on and shown else None
    if sentence:
        st.info(sentence, icon=":material/compare_arrows:")
    return shown


def ask_before_training(settings: Settings, on: bool) -> None:
    """Where the cells puzzle is while the page has no run: the class question keeps its
    place; a teacher predicting gets the Ask button before training (the question's answer is
    the run of these settings, trained for it in the shared line)."""
    found = follow.member()
    if not (on and found is not None and found.teacher):
        waiting(CELLS)
        return
    job = runs.job(settings, compute.train, runs.asker(settings))
    if not job.finished.wait(0.5):
        _ready(settings)
        waiting(CELLS)
        return
    seen = job.seen()
    if seen.result is None:
        waiting(CELLS)
        return
    task = compute.task_of(settings.task, settings.seed)
    rows, _, _ = cell_rows(seen.result.snapshots[-1].weights, task)
    cells_puzzle(seen.result, settings, True, watch.picks_of(settings, len(rows)))


@st.fragment(run_every=0.5)
def _ready(settings: Settings) -> None:
    """The teacher's page again once the question's run has finished (its Ask button)."""
    job = runs.kept(settings)
    if job is None or job.seen().finished:  # seen(): a poll, so the run stays waited for
        st.rerun(scope="app")


def speed(run: TrainingRun) -> float:
    """How fast a run learns, larger is faster: the steps left after its first step at LEARNED
    held-out accuracy, plus one (so every run that gets there scores above 0, which a winner
    needs: kit/teaching/predict.winners_of); 0 for a run that never gets there."""
    step = compute.first_step_reaching(run, LEARNED)
    return float(run.steps + 1 - step) if step is not None else 0.0


def scores_puzzle(compared: dict[str, TrainingRun], on: bool) -> bool:
    """ "Which score learns first?" (to LEARNED held-out accuracy); True once revealed (or when
    the switch is off). Not asked when no score function gets there (a class question asked
    about other runs keeps its place)."""
    if not on:
        return True
    if all(compute.first_step_reaching(r, LEARNED) is None for r in compared.values()):
        waiting(SCORES)
        return True
    names = list(compared)
    speeds = np.array([speed(compared[name]) for name in names])
    labels = [t(f"engine.value.score.{name}") for name in names]
    st.subheader(t("train.predict.scores.title"))

    def first(i: int) -> int | None:
        return compute.first_step_reaching(compared[names[i]], LEARNED)

    def describe(verdict: Verdict, _: np.ndarray) -> str:
        """Who got there first and when; the guess's own step when it was wrong."""
        best = t("predict.and").join(labels[i] for i in verdict.winners)
        numbers = {"best": best, "step": fmt(first(verdict.winners[0]))}
        if verdict.guess is None:
            return t("train.predict.scores.no_guess", **numbers)
        chosen = labels[verdict.guess]
        if verdict.right:
            return t("train.predict.scores.right", chosen=chosen, **numbers)
        step = first(verdict.guess)
        when = (
            t("train.predict.scores.chosen_at", step=fmt(step))
            if step is not None
            else t("train.predict.scores.chosen_never", steps=fmt(compared[names[0]].steps))
        )
        return t("train.predict.scores.wrong", chosen=chosen, chosen_when=when, **numbers)

    asked = Puzzle(
        SCORES,
        puzzle_id(speeds, extra=repr(names)),
        questions=[t("train.predict.scores.question", accuracy=fmt(100 * LEARNED))],
        options=list(range(len(names))),
        option_label=lambda i: labels[i],
        per_query=[speeds],
        describe=describe,
        horizontal=True,
    )
    return puzzle(asked)


# ---------------------------------------------------------------------------------------------
# Export

# The engine's modules a run needs, in the order their names are defined; the script carries
# their code, so it computes exactly what the page computed.
_ENGINE_MODULES = (engine_errors, normalize, scores, toy_tasks, tiny_model, learned, training)
_RELATIVE_IMPORT = re.compile(r"^from \.[\w.]* import (\([^)]*\)|.*)$", re.MULTILINE)
_FUTURE = "from __future__ import annotations\n"


def engine_code() -> str:
    """The engine's training code as one module: each module's source without its relative
    imports (their names are defined above it in the same file)."""
    parts = []
    for module in _ENGINE_MODULES:
        source = inspect.getsource(module).replace(_FUTURE, "")
        parts.append(f"# ---- attention_core/{module.__name__.rsplit('.', 1)[-1]}.py\n")
        parts.append(_RELATIVE_IMPORT.sub("", source))
    return "\n".join(parts)


def training_script(run: TrainingRun, settings: Settings) -> str:
    """A stand-alone NumPy script: the engine's training code, the run's settings, a retrain
    from the seed, and checks that it reaches the page's loss, accuracy and weights."""
    final = run.snapshots[-1]
    sums = ", ".join(f"{name!r}: {literal(float(a.sum()))}" for name, a in final.params.items())
    expected = "\n".join(
        [
            f"EXPECTED_LOSS = {literal(float(run.loss[-1]))}",
            f"EXPECTED_ACCURACY = {literal(float(final.accuracy))}",
            f"EXPECTED_ON_TARGET = {literal(float(final.on_target))}",
            f"EXPECTED_SUMS = {{{sums}}}",
            f"EXPECTED_WEIGHTS = {literal(final.weights[0])}",
        ]
    )
    call = (
        f"task = toy_task({settings.task!r}, size={compute.TASK_SIZE}, seed={settings.seed})\n"
        f"run = train_attention(task, score={settings.score!r}, heads={settings.heads}, "
        f"d_model={settings.d_model}, steps={settings.steps}, "
        f"learning_rate={settings.learning_rate!r}, seed={settings.seed}, "
        f"record_every={compute.record_every(settings.steps)})\n"
    )
    checks = "\n".join(
        [
            "final = run.snapshots[-1]",
            "assert np.isclose(run.loss[-1], EXPECTED_LOSS, rtol=1e-9, atol=1e-12)",
            "assert np.isclose(final.accuracy, EXPECTED_ACCURACY, rtol=0, atol=1e-12)",
            "assert np.isclose(final.on_target, EXPECTED_ON_TARGET, rtol=1e-9, atol=1e-12)",
            "for name, total in EXPECTED_SUMS.items():",
            "    assert np.isclose(final.params[name].sum(), total, rtol=1e-9, atol=1e-9), name",
            "assert np.allclose(final.weights[0], EXPECTED_WEIGHTS, rtol=1e-9, atol=1e-12)",
            "print(f'retrained {len(run.loss)} steps: final loss {run.loss[-1]:.6f}, held-out"
            " accuracy {final.accuracy:.4f}, weight on the right position {final.on_target:.4f}"
            " (the page\\'s numbers)')",
        ]
    )
    return "\n".join(
        [
            '"""Watch attention learn: retrain the run of the page from its seed, with NumPy'
            " alone, and check that it reaches the page's numbers.",
            "",
            f"task {settings.task}, score {settings.score}, heads {settings.heads}, d_model"
            f" {settings.d_model}, learning rate {settings.learning_rate}, steps"
            f" {settings.steps}, seed {settings.seed}",
            "The model, its gradients (by hand) and Adam are Attention Explorer's own engine,",
            'copied below, so this script computes exactly what the page computed."""',
            "",
            _FUTURE,
            engine_code(),
            "",
            "# ---- the page's run",
            expected,
            "",
            call,
            checks,
            "",
        ]
    )


def curve_tables(run: TrainingRun) -> Sequence[Table]:
    """The loss and batch accuracy of every step; the held-out numbers of every snapshot."""
    steps = [str(s) for s in range(1, run.steps + 1)]
    snapshots = [str(int(s)) for s in run.snapshot_steps]
    return (
        Table(
            "steps",
            np.column_stack([run.loss, run.batch_accuracy]),
            steps,
            ["training_loss", "batch_accuracy"],
        ),
        Table(
            "snapshots",
            np.column_stack([run.accuracy, run.on_target, run.held_out_loss]),
            snapshots,
            ["held_out_accuracy", "weight_on_right_position", "held_out_loss"],
        ),
    )


def export(run: TrainingRun, settings: Settings) -> None:
    export_panel(
        PAGE,
        lambda: Export(script=training_script(run, settings), tables=curve_tables(run)),
        details=(settings.task, settings.score, f"seed{settings.seed}"),
        latex=False,
    )
