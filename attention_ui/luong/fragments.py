"""The parts of the Luong page that an edit of a grid changes, each an `st.fragment`, and what
an edit reruns (`after_edit`).

Each grid is a fragment of its own; S, A and O are the three calls of one fragment (`RESULTS`:
Streamlit reruns a fragment's every call together), their numbers' tables in their open folds
the calls of another (`NUMBERS`); the example's story, the open tab, the export and the tasks'
verdicts are four more. A fragment is called where its part is drawn and reads the grids as
they are now (`view.run_now`), so a rerun of it alone draws the same as the whole page would.
An edit of Q reruns Q's grid, S, A, O and the verdicts, the story and the open tab when what
they show changed, and the export and the numbers' tables while their folds are open; K's and
V's grids, the settings, the headings, the columns and the folds are not sent again (each part
rerun costs a message: tests/pages/luong/test_edit_messages.py).
"""

from __future__ import annotations

import streamlit as st
from streamlit.errors import StreamlitAPIException

from attention_ui.kit.figures.charts import numbers_fold, numbers_key
from attention_ui.kit.share.address import follow_address
from attention_ui.kit.state.page_state import changed, drawn
from attention_ui.kit.teaching.task_panel import TaskSlots, fill
from attention_ui.kit.text.i18n import t
from attention_ui.luong import state, teaching, view
from attention_ui.luong import tasks as luong_tasks
from attention_ui.luong.model import ALL_PARAMETERS, INPUTS, Sizes

RESULTS = "luong.results"  # S, A and O
NUMBERS = "luong.numbers"  # the numbers of S, A and O, in their open folds
STORY = "luong.story"  # the example's story under them
TAB = "luong.tab.open"  # the open tab's content
EXPORT = "luong.export.panel"  # the export (its fold's widget key is luong.export)
EXPORT_OPEN = "luong.export"  # the export fold's widget key: True while it is open
VERDICTS = "luong.verdicts"  # the tasks' verdicts, and the address
# The widgets of the open tab that travel in the address (the step picked, the entry followed).
TAB_SETTINGS = (state.STEP.key, state.FOLLOW_KEY.key, state.FOLLOW_QUERY.key)


def grid_key(name: str) -> str:
    return f"luong.grid.{name}"


def _grid(name: str, sizes: Sizes, layout: str) -> None:
    state.matrix(name, sizes, layout, help=t(f"luong.inputs.{name}_help"), after_edit=after_edit)


# One fragment per grid (each needs its own key, so each is a function of its own).
_GRIDS = {name: st.fragment(key=grid_key(name))(_grid) for name in (*INPUTS, *ALL_PARAMETERS)}


def grids(settings: view.Settings, sizes: Sizes) -> None:
    """Q, K, V and the chosen score's parameters, each in its column (`view.grid_columns`)."""
    columns = view.grid_columns(settings.score, sizes, settings.layout)
    for name, column in columns.items():
        with column:
            _GRIDS[name](name, sizes, settings.layout)


@st.fragment(key=RESULTS)
def _chart(name: str, settings: view.Settings, sizes: Sizes) -> None:
    """The chart of S, A or O (by name): three calls of one fragment, which rerun together."""
    inputs, problems = view.inputs_now(settings, sizes)
    if not problems:  # an edit that hides the results reruns the whole page
        view.result_chart(name, inputs)


@st.fragment(key=STORY)
def _story(settings: view.Settings, sizes: Sizes) -> None:
    run = view.run_now(settings, sizes)
    if run.result is not None:
        view.story(settings.preset, run)


@st.fragment(key=NUMBERS)
def _numbers(name: str, settings: view.Settings, sizes: Sizes) -> None:
    """The numbers of S, A or O (by name) as a table, in its open fold: the calls of one
    fragment, which an edit reruns while a fold is open."""
    inputs, problems = view.inputs_now(settings, sizes)
    if not problems:
        view.result_numbers(name, inputs)


def results(settings: view.Settings, sizes: Sizes) -> None:
    """S, A and O side by side, each with its numbers' fold, and the example's story under
    them. The folds are the whole run's, not the charts' fragment's: an edit does not send
    them again."""
    for column, name in zip(st.columns(3), view.RESULT_NAMES, strict=True):
        with column:
            _chart(name, settings, sizes)
            numbers = numbers_fold(view.chart_key(name))
            if numbers.open:
                with numbers.box:
                    _numbers(name, settings, sizes)
    _story(settings, sizes)


@st.fragment(key=EXPORT)
def export(settings: view.Settings, sizes: Sizes) -> None:
    """The script, the CSV files and the LaTeX of what the grids hold (built while open)."""
    run = view.run_now(settings, sizes)
    if run.result is not None:
        values = dict(run.inputs.values)
        teaching.export(run.result, values, sizes, run.inputs.mask, view.axis_titles())


def tabs(settings: view.Settings, sizes: Sizes) -> None:
    """The three tabs, only the open one drawn (switching tabs reruns the page)."""
    containers = view.tabs()
    name = view.TAB_NAMES[state.TAB_INDEX.value()]
    with containers[name]:
        _open_tab(name, settings, sizes)


@st.fragment(key=TAB)
def _open_tab(name: str, settings: view.Settings, sizes: Sizes) -> None:
    """The open tab: the step by step, one entry followed, or the score functions compared.
    Its own widgets rerun it alone; the address follows them."""
    picked = changed(*TAB_SETTINGS)  # since this tab was last drawn
    run = view.run_now(settings, sizes)
    if run.result is not None:
        {"steps": view.steps_tab, "follow": view.follow_tab, "compare": view.compare_tab}[name](run)
    drawn(*TAB_SETTINGS)
    if picked:
        follow_address("luong")


@st.fragment(key=VERDICTS)
def verdicts(slots: TaskSlots, settings: view.Settings, sizes: Sizes, hidden: bool) -> None:
    """The tasks' verdicts into the panel's places (kit/teaching/task_panel), or while the
    results are `hidden` (a prediction asked, or no result) a line that they come back with
    them; then the address, which follows every edit. (A grid's edit reruns this alone only
    while the results show: `after_edit`.)"""
    result = view.run_now(settings, sizes).result
    fill(slots, luong_tasks.TASKS, lambda: luong_tasks.snapshot(result), hidden=hidden)
    follow_address("luong")


def after_edit(state_key: str) -> None:
    """A grid's callback, once its edit is kept (kit/grids/cell_grid): rerun the grid, S, A and
    O, the verdicts and the address; the story and the open tab when what they show changed
    (an edit of Q mostly leaves the story true and the first step, Kᵀ, as it was); the export
    and the numbers of S, A and O while their folds are open. When the results show or hide
    with this edit (a bad cell, the engine's error), or a prediction is asked (the switch, a
    class question), the page reruns whole: those change its outline, as does the first edit
    of numbers the training page sent (the example box said "trained")."""
    name = state_key.removeprefix("luong.")
    settings = view.settings_now()
    run = view.run_now(settings, state.sizes())
    if not (state.fragments_drawn() and run.result is not None):
        st.rerun()
    # A setting changed in the same interaction (a click right after typing): the fragments
    # were drawn for other settings, and only the whole page draws the new ones.
    if state.part_shows("settings") != (settings, state.sizes()):
        st.rerun()
    sent = view.from_training()  # edited, trained numbers are no longer "trained"
    if sent is not None and state.part_shows("example") != view.preset_label(settings.preset):
        st.rerun()
    parts = [grid_key(name), RESULTS, VERDICTS]
    if state.part_shows("story") != view.story_text(settings.preset, run):
        parts.append(STORY)
    # the entry followed and the comparison read every input; the step by step one step
    steps_open = state.TAB_INDEX.value() == 0
    step = view.step_shown(run.result, state.STEP.value())
    if not steps_open or state.part_shows("step") != step:
        parts.append(TAB)
    if st.session_state.get(EXPORT_OPEN):
        parts.append(EXPORT)
    if any(st.session_state.get(numbers_key(view.chart_key(n))) for n in view.RESULT_NAMES):
        parts.append(NUMBERS)
    try:
        st.rerun(parts)
    except StreamlitAPIException:  # a part the last whole run did not draw (it was cut short)
        st.rerun()


def drawn_by_this_run(settings: view.Settings, sizes: Sizes, shown: bool, predicting: bool) -> None:
    """After the whole run drew the page: an edit may rerun the parts alone while the results
    are shown (their fragments drawn), no prediction is asked and the settings are the ones
    the fragments were drawn with (`after_edit`)."""
    state.fragments_drawn(shown and not predicting)
    state.part_shows("settings", (settings, sizes))
