"""Watch attention learn: train a tiny attention model on a toy task and watch its weights
become the lookup, the alignment and the head. Every number comes from the engine's
`train_attention_steps` (attention_core/training.py) for the settings on the page; runs are
shared by every session with the same settings (attention_ui/train/runs.py).

One screen (attention_ui/train/watch.py): the settings and Train; the curves and the attention
side by side, the step slider and Play under the attention (the model at step 0 before
training, the latest snapshot while it trains); what does not fit folds below.

Keys (for tests and tours): the run's settings, each declared once in
attention_ui/train/state.py; train.train (the Train button), train.player (the attention
player: its step; train.player.start before training, with the cells clicked while
predicting), train.probe.<task> (the input typed through the trained model), train.compare
(train every score function), train.predict (the predict switch) with "which cells light up?"
(train.predict.guess.<row>.<id>, train.predict.reveal / .again) and "which score learns
first?" (train.compare.predict.*). In a class the teacher asks them with classroom.ask and
classroom.ask.compare (the class questions "train" and "train.compare"). Folds: train.fold.*.
Charts: train.chart.loss, train.chart.accuracy, train.chart.learned.<head>,
train.chart.compare.loss/.accuracy, train.chart.step.<step key>; what was learned
(attention_ui/train/learned.py): train.chart.tokens/.positions/.token_position/
.position_token.<head>,
train.chart.induction and train.chart.layer1.<head>.
"""

import streamlit as st

from attention_ui.frame import page_footer, page_header
from attention_ui.kit.teaching import task_panel
from attention_ui.train import learned, own_input, teaching, transfer, view, watch
from attention_ui.train import tasks as train_tasks

page_header("train")
settings = view.settings()
train_column, predict_column = st.columns([1, 3], vertical_alignment="center")
with predict_column:
    predicting = teaching.switch()
problem = view.out_of_bounds(settings)
run, taken = None, False
with train_column:
    pressed = not problem and view.train_button()
screen = st.container()
if pressed:
    with screen:
        run, taken = view.trained_run(settings)
if run is None:
    if not taken and not problem:
        with screen:
            watch.before(settings, predicting)
    teaching.ask_before_training(settings, predicting)
else:
    # Until "which cells light up?" is revealed, what states its answer stays hidden: the
    # weights (the player stays at step 0, its cells to click), the sentences (the weight on
    # the right position), the typed input's steps, the weights sent elsewhere and the export.
    sentences = st.container()
    revealed = teaching.revealed_cells(run, settings, predicting)

    def folds(step: int) -> None:
        """Below the screen, following its step: induction's two layers (two-layer runs), what
        each head learned in the task's tokens and positions, the hand-over."""
        if not revealed:
            return
        learned.induction_section(run, step)
        with watch.fold_of("learned") as open_:
            if open_:
                learned.learned_section(run, settings, step)
        with watch.fold_of("transfer") as open_:
            if open_:
                transfer.section(run, settings, step, watch.typed_tokens(run, settings))

    with screen:
        watch.screen(run, settings, not revealed, folds)
    if revealed:
        with sentences:
            view.run_sentences(run, settings)
        with watch.fold_of("input") as open_:
            if open_:
                own_input.section(run, settings)
        teaching.export(run, settings)  # a fold of its own, built only while open
with watch.fold_of("model") as open_:
    if open_:
        view.model_formula()
if not problem:
    view.compare(settings, predicting)
else:
    teaching.waiting(teaching.SCORES)
task_panel.panel(train_tasks.TASKS, train_tasks.snapshot)

page_footer("train")  # the address follows the page: a reload or a copied link shows it
