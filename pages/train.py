"""Watch attention learn: train a tiny attention model on a toy task and watch its weights
become the lookup, the alignment and the head. Every number comes from the engine's
`train_attention_steps` (attention_core/training.py) for the settings on the page; runs are
shared by every session with the same settings (attention_ui/train/runs.py).

Widget keys (for tests and tours): the settings train.task, train.score, train.heads,
train.d_model, train.learning_rate, train.steps, train.seed (attention_ui/train/state.py
declares each once); train.train (the Train button), train.step (the step slider),
train.probe.<task> (the input typed through the trained model), train.compare (train every
score function), train.export (the export expander).
Charts: train.chart.loss, train.chart.accuracy, train.chart.weights.<head>,
train.chart.learned.<head>, train.chart.compare.loss/.accuracy, train.chart.step.<step key>.
"""

from attention_ui.frame import page_footer, page_header
from attention_ui.kit.teaching import task_panel
from attention_ui.train import tasks as train_tasks
from attention_ui.train import teaching, view

page_header("train")
view.model_formula()
settings = view.settings()
predicting = teaching.switch()
problem = view.bounds_problem(settings)
if problem is not None:
    view.show_problem(problem)
elif view.train_button():
    run = view.trained_run(settings)
    if run is not None:
        step = view.scrub(run)
        view.curves_section(run, step)
        view.run_sentences(run, settings)
        if teaching.cells_puzzle(run, settings, predicting):
            view.snapshot_section(run, settings, step)
        tokens = view.typed_input(run, settings)
        view.transfer(run, settings, step, tokens)
        teaching.export(run, settings)
if problem is None:
    view.compare(settings, predicting)
task_panel.panel(train_tasks.TASKS, train_tasks.snapshot)

page_footer("train")  # the address follows the page: a reload or a copied link shows it
