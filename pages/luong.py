"""Luong explorer: edit Q, K, V (and W, W_a, v_a) and see every step of attention, live.

Top to bottom: a preset (each tells one story) or a seeded random fill; the score function,
layout, temperature and mask; the sizes; the chosen score's formula; the grids; then S, A, O
as heatmaps and three tabs: every step of the engine (one at a time, picked by the learner),
one entry followed through all of them, and all applicable score functions side by side.
Every number comes from `attention_core`.
Each section is drawn by a function of attention_ui/luong/view.py.

Widget keys (for tests and tours)
---------------------------------
luong.preset           selectbox of presets (loads on change); luong.reset reloads it
luong.seed, luong.redraw   the random preset's seed (number input) and "next seed" button
luong.score            selectbox: dot, scaled_dot, general, concat, location
luong.layout           radio: column (one query per column) or row (one query per row)
luong.tau              select_slider of temperatures from 0.05 to 20
luong.mask.kind        selectbox: none, causal, padding, cells; luong.mask.length (padding L)
luong.size.<s>         number inputs for s in d_q, d_k, d_v, n, m, h (h: concat only)
luong.follow.key, luong.follow.query   the pair followed in the "follow one entry" tab
luong.tab              the open tab's label (only the open tab is drawn; switching reruns)
luong.steps.open       radio: the step shown in the step-by-step tab (a step key; only that
                       step's formula, sentence and chart are drawn)
luong.predict         toggle: predict, then reveal (hides S, A, O, the tabs and the export);
                       luong.predict.guess.<j>.<puzzle id> one radio per query (keys 0…m−1),
                       luong.predict.reveal / .again / .new (next random seed) buttons
luong.formula          the formula notes' fold (built only while open): Luong's and d2l's forms,
                       the layouts' relation and the scaling demo (luong.scaling.d_k, .seed)
luong.export           the export expander (lazy: built only while open); luong.export.script,
                       luong.export.csv.<name>, luong.export.latex its download buttons
Grids: state key luong.<M> for M in Q, K, V, W, Wa_concat, va, Wa_location, and
luong.mask.cells for the per-cell mask; each grid's widget key is
"<state key>.editor.<version>" with the version in session_state["<state key>.version"].
In column layout Q's columns are q1…qn and its rows 1…d_q; in row layout the reverse.
Fragment keys (st.rerun): luong.results (grids, S, A, O, the other tabs, the verdicts),
luong.steps (the step-by-step tab) and luong.export.panel (the export); attention_ui/luong/
reruns.py says which an edit reruns.
"""

import contextlib

import streamlit as st

from attention_ui.frame import page_footer, page_header
from attention_ui.kit.share.address import follow_address
from attention_ui.kit.state.trained import show_trained_note
from attention_ui.kit.teaching.task_panel import fill as fill_tasks
from attention_ui.kit.text.i18n import show_error
from attention_ui.luong import reruns, state, teaching, view
from attention_ui.luong import tasks as luong_tasks
from attention_ui.luong.model import Sizes

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
    # The mask's controls sit under its selector: the fragment writes them into this place (no
    # place for no mask, which has no controls: a place costs a wrapper message per edit).
    mask_place = st.container() if settings.mask_kind != "none" else contextlib.nullcontext()
    sizes = view.size_controls(settings.score)
    view.formula_panel(settings.score, settings.layout)
above = view.settings_above()


# Fragments: an edit of a grid reruns that grid's fragment (view.input_grids) and this one,
# not the settings above or the other grids, which cuts the server's work per edit
# (bench/load.py); the step-by-step tab (`steps_tab`) reruns with them only when the edit
# changes the open step. The grid's callback names them (attention_ui/luong/reruns.py). A grid
# sends its edit up to 150 ms after the learner leaves the cell, so after "type a number, click
# another page" that rerun can stop the other page's run, which once left the browser blank;
# the grid's callback then sends the learner on to the page they clicked instead
# (attention_ui/kit/state/navigation.py).
# What an edit does not change is drawn by the whole run around this fragment's place: the
# grids' columns and headings (`places`), the results' heading, columns, table expanders and
# weight sums (`frame`), the tabs and the task panel's frame (`below`); this fragment writes
# only the charts, an open table, the open tab and the tasks' verdicts into them, so an edit
# does not re-send the rest (bench/browser.py counts messages per edit; each container written
# so costs a wrapper message per run). The export is a fragment of its own (`export_panel`),
# which an edit reruns only while it is open: its deferred downloads did not download when a
# fragment wrote them into a container drawn outside it (tests/browser/test_export_predict.py).
@st.fragment(key=reruns.RESULTS)
def grids_and_results(
    settings: view.Settings,
    sizes: Sizes,
    above: tuple,
    places: dict,
    mask_place: object,
    switch_drawn: bool,
    frame: view.ResultsFrame | None,
    below: view.Below,
) -> None:
    """Everything an edit of a grid changes but the grid itself and the step tab: an edit of a
    grid (or of the mask's length, the open tab's widgets, the followed entry, a prediction)
    reruns this, not the settings above it; changing those reruns the whole page."""
    if view.settings_above() != above:  # a callback in here changed a setting above
        st.rerun()
    entered = view.entered_grids(places, sizes, settings.layout)
    with mask_place:  # above the switch, which the whole run draws
        mask = view.mask_input(settings.mask_kind, sizes, settings.layout)

    # Compute once per set of inputs: every chart and table below reads this result, and reruns
    # that change none of the inputs (another tab, another followed entry) reuse it and its charts.
    problems = [problem for matrix in entered.values() for problem in matrix.problems]
    values = {name: matrix.values for name, matrix in entered.items()}
    learner = view.learner_parameters(values, sizes)
    cache = state.run_cache(view.fingerprint(settings, values, learner, mask))
    result = error = None
    if problems:
        view.show_problems(problems)
    else:
        result, error = view.compute(cache, settings, values, mask)
    if error is not None:
        show_error(error)
    # predict-then-reveal hides what follows, the example's story included (it states the answer)
    shown = result is not None and teaching.reveal(result, switch_drawn)
    if shown != below.shown:  # the tabs appear or go: the whole run draws them
        state.results_shown(shown)
        st.rerun()
    if shown and frame is not None:
        story = view.preset_story(settings.preset, result, values, learner, sizes, mask)
        frame.story.info(story, icon=":material/lightbulb:")  # under the charts it explains
        titles = view.axis_titles()
        view.results(result, titles, cache, frame)
        cache["export"] = (values, sizes, mask, titles)  # what the export panel reads
        if below.tabs["follow"].open:
            with below.tabs["follow"]:
                view.follow_tab(result, values, sizes)
        if below.tabs["compare"].open:
            with below.tabs["compare"]:
                view.compare_tab(result, values, sizes, titles, learner, cache, mask=mask)
    # in the fragment, so an edit of a grid rechecks the tasks
    fill_tasks(below.tasks, luong_tasks.TASKS, lambda: luong_tasks.snapshot(result))
    follow_address("luong")  # an edit made in here reruns this alone: the address follows it


@st.fragment(key=reruns.STEPS)
def steps_tab() -> None:
    """The step-by-step tab, from the result the grids' fragment computed last: its step picker
    reruns this alone; an edit reruns it with the results when it changes the open step."""
    cache = state.last_cache()
    result, _ = cache.get("outcome", (None, None))
    if result is None:
        return
    picked = state.step_picked()
    view.steps_tab(result, view.axis_titles(), cache.get("results", {}), cache)
    if picked:  # a run of this alone: the address holds the open step
        follow_address("luong")


@st.fragment(key=reruns.EXPORT)
def export_panel() -> None:
    """The export, from the result the grids' fragment computed last: opening or closing it
    reruns this alone; an edit reruns it with the results while it is open. Nothing in it is
    in the address (no follow_address)."""
    cache = state.last_cache()
    result, _ = cache.get("outcome", (None, None))
    if result is not None and "export" in cache:
        teaching.export(result, *cache["export"])


with work:
    heading = view.inputs_heading(settings.layout)
    with heading:
        switch_drawn = teaching.switch()
    places = view.grid_places(settings.score, sizes, settings.layout)
    view.input_grids(places, sizes, settings.layout)  # each a fragment of its own
    view.results_heading(settings.score, settings.layout, state.results_shown())
    fragment_place = st.container()
    frame = view.results_frame(sizes) if state.results_shown() else None
export_place = st.container()
below = view.below_results(state.results_shown(), luong_tasks.TASKS)
with fragment_place:
    grids_and_results(settings, sizes, above, places, mask_place, switch_drawn, frame, below)
if below.shown:
    with export_place:
        export_panel()
if below.shown and below.tabs["steps"].open:
    with below.tabs["steps"]:
        steps_tab()

page_footer("luong")  # the address follows the page: a reload or a copied link shows it
