"""Luong explorer: edit Q, K, V (and W, W_a, v_a) and see every step of attention, live.

Top to bottom: a preset (each tells one story) or a seeded random fill; the score function,
layout, temperature and mask; the sizes; the chosen score's formula; the grids; then S, A, O
as heatmaps and three tabs: every step of the engine (one at a time, picked by the learner),
one entry followed through all of them, and all applicable score functions side by side.
Every number comes from `attention_core`.
Each section is drawn by a function of attention_ui/luong/view.py;
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
Fragment keys (st.rerun): luong.results (grids, S, A, O, the other tabs, the verdicts),
luong.steps (the step-by-step tab) and luong.export.panel (the export), drawn by
attention_ui/luong/fragments.py; attention_ui/luong/reruns.py says which an edit reruns.
"""

import streamlit as st

from attention_ui.frame import page_footer, page_header
from attention_ui.kit.grids.trained import show_trained_note
from attention_ui.kit.places import place_if
from attention_ui.luong import fragments, state, view

page_header("luong")
state.start()
show_trained_note("luong")  # matrices sent by the training page, while the grids hold them

# The first screen holds what the learner touches and what it does: the example, the score
# and τ with the formula, then the grids and S, A, O; the layout, the mask, the sizes and the
# formula's notes follow the results (`more`, drawn into from here, is placed under them).
top, work, more = st.container(), st.container(), st.container()
with top:
    settings = view.settings(more)
with more:
    mask_place = place_if(settings.mask_kind != "none")  # its controls, under its selector
    sizes = view.size_controls(settings.score)
    view.formula_panel(settings.score, settings.layout)
# The grids, S, A, O, the export, the tabs and the tasks: an edit reruns only what it changes.
places = fragments.lay_out(work, settings, sizes, mask_place)
fragments.show(settings, sizes, places)

page_footer("luong")  # the address follows the page: a reload or a copied link shows it
