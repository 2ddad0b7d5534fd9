"""The parts of the Luong page an edit reruns (the results, the step-by-step tab, the export;
attention_ui/luong/reruns.py says which an edit reruns), and the places the whole run draws.

What an edit does not change is drawn by the whole run around the fragments (`lay_out`): the
grids' heading and columns, the results' heading, columns, table expanders and weight sums,
the tabs and the task panel's frame. The fragments write only the charts, an open table, the
open tab and the tasks' verdicts into them, so an edit does not send the rest again
(attention_ui/kit/places.py). The export writes its own place: its deferred downloads do not
download when a fragment writes them into a container drawn outside it
(tests/browser/test_export_predict.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st

from attention_ui.kit.share.address import follow_address
from attention_ui.kit.state.page_state import changed
from attention_ui.kit.teaching.task_panel import fill as fill_tasks
from attention_ui.kit.text.i18n import show_error
from attention_ui.luong import reruns, state, teaching, view
from attention_ui.luong import tasks as luong_tasks
from attention_ui.luong.compute import Inputs
from attention_ui.luong.model import Sizes


@dataclass(frozen=True)
class Places:
    """What the whole run drew for the fragments: the settings above the grids as it saw them
    (`above`), the grids' columns, the mask's controls' place under its selector, whether the
    predict switch is drawn, the results' place and frame (None while the results are hidden),
    the export's place and what is drawn under the results (the tabs, the task panel)."""

    above: tuple
    grids: dict[str, Any]
    mask: Any
    switch_drawn: bool
    results: Any
    frame: view.ResultsFrame | None
    export: Any
    below: view.Below


def lay_out(work: Any, settings: view.Settings, sizes: Sizes, mask_place: Any) -> Places:
    """The grids (each a fragment of its own) and every place of the results, drawn in `work`
    by the whole run; then the export's place, the tabs and the task panel's frame."""
    above = view.settings_above()
    shown = state.results_shown()
    with work:
        with view.inputs_heading(settings.layout):
            switch_drawn = teaching.switch()
        grids = view.grid_places(settings.score, sizes, settings.layout)
        view.input_grids(grids, sizes, settings.layout)
        view.results_heading(settings.score, settings.layout, shown)
        results_place = st.container()
        frame = view.results_frame(sizes) if shown else None
    export_place = st.container()
    below = view.below_results(shown, luong_tasks.TASKS)
    return Places(above, grids, mask_place, switch_drawn, results_place, frame, export_place, below)


def show(settings: view.Settings, sizes: Sizes, places: Places) -> None:
    """The results, the export and the open step, each a fragment in its place."""
    with places.results:
        results(settings, sizes, places)
    if places.below.shown:
        with places.export:
            export()
    if places.below.shown and places.below.tabs["steps"].open:
        with places.below.tabs["steps"]:
            steps_tab()


@st.fragment(key=reruns.RESULTS)
def results(settings: view.Settings, sizes: Sizes, places: Places) -> None:
    """Everything an edit of a grid changes but the grid itself and the step tab: an edit of a
    grid (or of the mask's length, the open tab's widgets, the followed entry, a prediction)
    reruns this, not the settings above it; changing those reruns the whole page."""
    if view.settings_above() != places.above:  # a callback in here changed a setting above
        st.rerun()
    entered = view.entered_grids(places.grids, sizes, settings.layout)
    with places.mask:  # above the switch, which the whole run draws
        mask = view.mask_input(settings.mask_kind, sizes, settings.layout)

    # Compute once per set of inputs: every chart and table below reads this result, and reruns
    # that change none of the inputs (another tab, another followed entry) reuse it and its charts.
    problems = [problem for matrix in entered.values() for problem in matrix.problems]
    values = {name: matrix.values for name, matrix in entered.items()}
    inputs = Inputs(values, settings.score, settings.layout, settings.temperature, mask)
    learner = view.learner_parameters(values, sizes)
    cache = state.run_cache(view.fingerprint(inputs, learner))
    result = error = None
    if problems:
        view.show_problems(problems)
    else:
        result, error = view.compute(cache, inputs)
    if error is not None:
        show_error(error)
    # predict-then-reveal hides what follows, the example's story included (it states the answer)
    shown = result is not None and teaching.reveal(result, places.switch_drawn)
    below, frame = places.below, places.frame
    if shown != below.shown:  # the tabs appear or go: the whole run draws them
        state.results_shown(shown)
        st.rerun()
    if shown and frame is not None:
        run = view.Run(result, inputs, sizes, learner, cache)
        story = view.preset_story(settings.preset, run)
        frame.story.info(story, icon=":material/lightbulb:")  # under the charts it explains
        titles = view.axis_titles()
        view.results(result, titles, cache, frame)
        cache["export"] = (values, sizes, mask, titles)  # what the export panel reads
        if below.tabs["follow"].open:
            with below.tabs["follow"]:
                view.follow_tab(run)
        if below.tabs["compare"].open:
            with below.tabs["compare"]:
                view.compare_tab(run, titles)
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
    picked = changed(state.STEP.key)  # since the step picker was last drawn
    view.steps_tab(result, view.axis_titles(), cache.get("results", {}), cache)
    if picked:  # a run of this alone: the address holds the open step
        follow_address("luong")


@st.fragment(key=reruns.EXPORT)
def export() -> None:
    """The export, from the result the grids' fragment computed last: opening or closing it
    reruns this alone; an edit reruns it with the results while it is open. Nothing in it is
    in the address (no follow_address)."""
    cache = state.last_cache()
    result, _ = cache.get("outcome", (None, None))
    if result is not None and "export" in cache:
        teaching.export(result, *cache["export"])
