"""Luong explorer: edit Q, K, V (and W, W_a, v_a) and see every step of attention, live.

Top to bottom: a preset (each tells one story) or a seeded random fill, the score function and
τ; the grids; the engine's run of what they hold; S, A, O as heatmaps, the export and three
tabs: every step of the engine (one at a time, picked by the learner), one entry followed
through all of them, and all applicable score functions side by side; the tasks; then the
layout, the mask, the sizes and the formula's notes. Every number comes from `attention_core`.
Each section is drawn by a function of attention_ui/luong/view.py; the parts an edit of a grid
changes are st.fragments (attention_ui/luong/fragments.py, which says what an edit reruns);
attention_ui/luong/state.py declares each setting once (its key, default, values, label).

Keys (for tests and tours), besides the settings declared in state.py
----------------------------------------------------------------------
luong.reset, luong.redraw  buttons: reload the preset; the random preset's next seed
luong.tab                  the open tab's label (only the open tab is drawn; switching reruns)
luong.predict.guess.<j>.<puzzle id> one radio per query (keys 0…m−1) under the predict switch;
                           luong.predict.reveal / .again / .new (next random seed) buttons
luong.formula              the formula notes' fold (built only while open): Luong's and d2l's
                           forms, the layouts' relation and the scaling demo
luong.export               the export expander (lazy: built only while open); luong.export.script,
                           luong.export.csv.<name>, luong.export.latex its download buttons
Grids: state key luong.<M> for M in Q, K, V, W, Wa_concat, va, Wa_location, and
luong.mask.cells for the per-cell mask; each grid's widget key is
"<state key>.editor.<version>" with the version in session_state["<state key>.version"].
In column layout Q's columns are q1…qn and its rows 1…d_q; in row layout the reverse.
Fragment keys (st.rerun): luong.grid.<M> (each grid), luong.results (S, A, O, the story),
luong.tab.open, luong.export.panel and luong.verdicts (the tasks' verdicts and the address).
"""

import streamlit as st

from attention_ui.frame import page_footer, page_header
from attention_ui.kit.teaching.task_panel import panel_frame
from attention_ui.luong import fragments, state, teaching, view
from attention_ui.luong import tasks as luong_tasks

page_header("luong")
state.start()
view.trained_note()  # what the numbers are, while the grids hold what the training page sent

settings = view.settings()  # the example, the score, τ (the layout, mask and sizes: at the end)
sizes = state.sizes()
switch_drawn = view.inputs_heading(settings.layout, teaching.switch)  # predict, then reveal
fragments.grids(settings, sizes)  # an edit reruns its grid and what it changes below

run = view.run_now(settings, sizes)  # the engine's one run of what the grids hold (cached)
heading = st.container()  # the results' heading, once it is known whether they show
view.why_not(run)  # the bad cells, or the engine's error
shown = run.result is not None and teaching.reveal(run.result, switch_drawn)
with heading:
    view.results_heading(settings.score, settings.layout, shown)
if shown:
    fragments.results(settings, sizes)  # S, A, O and the example's story
    fragments.export(settings, sizes)
    fragments.tabs(settings, sizes)
hidden = run.result is not None and not shown  # asked to predict: a verdict would tell
fragments.verdicts(panel_frame(luong_tasks.TASKS), settings, sizes, hidden)
fragments.drawn_by_this_run(
    settings, sizes, shown, predicting=not switch_drawn or state.PREDICT.value()
)

view.lower_settings(settings, sizes)  # the layout, the mask, the sizes, the formula's notes
page_footer("luong")  # the address follows the page: a reload or a copied link shows it
