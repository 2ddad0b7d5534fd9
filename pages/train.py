"""Watch attention learn: train a tiny attention model on a toy task and watch its weights
become the lookup, the alignment and the head. Every number comes from the engine's
`train_attention_steps` (attention_core/training.py) for the settings on the page; runs are
shared by every session with the same settings (attention_ui/train/runs.py).

Keys (for tests and tours): the run's settings, each declared once in
attention_ui/train/state.py; train.train (the Train button), train.step (the step slider),
train.probe.<task> (the input typed through the trained model), train.compare (train every
score function), train.export (the export expander), train.predict (the predict switch) with
"which cells light up?" (train.predict.guess.<output>.<id>, train.predict.reveal / .again) and
"which score learns first?" (train.compare.predict.*). In a class the teacher asks them with
classroom.ask and classroom.ask.compare (the class questions "train" and "train.compare").
Charts: train.chart.loss, train.chart.accuracy, train.chart.weights.<head>,
train.chart.learned.<head>, train.chart.compare.loss/.accuracy, train.chart.step.<step key>.
"""

import streamlit as st

from attention_ui.frame import page_footer, page_header
from attention_ui.kit.teaching import task_panel
from attention_ui.train import learned, own_input, teaching, transfer, view
from attention_ui.train import tasks as train_tasks

page_header("train")
view.model_formula()
settings = view.settings()
predicting = teaching.switch()
problem = view.out_of_bounds(settings)
run = None
if not problem and view.train_button():
    run = view.trained_run(settings)
if run is None:
    teaching.waiting(teaching.CELLS)  # a class question asked about a run keeps its place
else:
    step = view.scrub(run)
    view.curves_section(run, step)
    # Until "which cells light up?" is revealed, what states its answer stays hidden: the
    # sentences (the weight on the right position), the weights, the typed input's steps (the
    # first example's by default), the weights sent elsewhere and the export.
    sentences = st.container()
    if teaching.cells_puzzle(run, settings, predicting):
        with sentences:
            view.run_sentences(run, settings)
        view.snapshot_section(run, settings, step)
        learned.learned_section(run, settings, step)
        learned.induction_section(run, step)
        tokens = own_input.section(run, settings)
        transfer.section(run, settings, step, tokens)
        teaching.export(run, settings)
if not problem:
    view.compare(settings, predicting)
else:
    teaching.waiting(teaching.SCORES)
task_panel.panel(train_tasks.TASKS, train_tasks.snapshot)

page_footer("train")  # the address follows the page: a reload or a copied link shows it
