"""Weights gallery: d2l's four special cases of the attention weights, drawn in the plane, and
grids of attention heatmaps in the spirit of d2l's `show_heatmaps`.

The values v₁…v_m are points in the plane; the keys are the same points (d2l's exercise 2,
kᵢ = vᵢ), so a 2-D query q scores each value by the dot product qᵀvᵢ. The engine
(`attention_core.attention`) turns the scores into weights with softmax or divide-by-sum at
temperature τ; `attention_core.geometry` finds and checks the cone and the hull. Each section
is drawn by a function of attention_ui/gallery/view.py; attention_ui/gallery/state.py holds the
keys, presets and callbacks, attention_ui/gallery/cases.py the four cases' claims.

Each setting (its key, default, values and label) is declared once in
attention_ui/gallery/state.py. Other keys (for tests and the browser tour):
- "gallery.values.editor.<version>": the values table (matrix editor "gallery.values": rows
  v1…vm, columns "x", "y").
- "gallery.preset.<name>": value presets (first_quadrant, around_origin, half_plane, on_a_line).
- "gallery.cone.editor.<version>": the weights of case 1 (matrix editor "gallery.cone": one
  row "w", columns v1…vm).
- "gallery.export": the export expander of the plane's attention (script, CSV, LaTeX).
"""

from attention_ui.frame import page_footer, page_header
from attention_ui.gallery import state, teaching, view
from attention_ui.gallery import tasks as gallery_tasks
from attention_ui.kit.teaching.task_panel import panel as task_panel

page_header("gallery")
state.start()
view.formula()
plane = view.plane()
teaching.export(plane)
view.cases(plane)
view.heatmap_grids()
state.note_borrowed()
task_panel(gallery_tasks.TASKS, gallery_tasks.snapshot)

page_footer("gallery")  # the address follows the page: a reload or a copied link shows it
