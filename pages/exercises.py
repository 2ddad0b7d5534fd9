"""Exercises: the four exercises that close d2l's "Queries, Keys, and Values", live.

1. Which attention function reproduces approximate matching? (the database's similarities)
2. ∇_q Attention = Cov: the Jacobian beside the keys' covariance, in the gallery's plane
3. A differentiable search engine: gradient descent on −log p(target), and the hard argmax
4. Squeeze-and-Excitation read as attention: each channel gated by its own sigmoid weight

Each setting is declared once in attention_ui/exercises/state.py, beside the grids (MATRICES);
each section is drawn by its module in attention_ui/exercises/ (matching, gradient, search,
squeeze); view.py picks one.
"""

from attention_ui.exercises import state, view
from attention_ui.exercises import tasks as exercises_tasks
from attention_ui.frame import page_footer, page_header
from attention_ui.kit.teaching.task_panel import panel as task_panel

page_header("exercises")
state.start()
view.section(view.chosen_section())
task_panel(exercises_tasks.TASKS, exercises_tasks.snapshot)

page_footer("exercises")  # the address follows the page: a reload or a copied link shows it
