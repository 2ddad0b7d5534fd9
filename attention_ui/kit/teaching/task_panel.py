"""The panel of checked tasks at the end of a page: goal, how far off, hints one at a time, a
worked solution on request, and the tasks solved in this session.

Each page's package has its tasks and the snapshot of its inputs they read
(`<page>/tasks.py`); this module checks them (kit/teaching/tasks.py) and words the verdict.

`panel` draws the whole panel in one run. A page whose inputs sit in an `st.fragment` draws the
panel's frame in its whole run (`panel_frame`: goals, hints, buttons, the solution toggles, the
solved list) and only the verdicts from the fragment (`fill`), so an edit re-sends two lines,
not the panel; an edit that solves a task reruns the page, which draws the solved list anew.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from attention_ui.kit.classroom.panel import student_question_open
from attention_ui.kit.teaching.tasks import Progress, Task, check
from attention_ui.kit.text.i18n import t

SOLVED = "tasks.solved"  # the ids of the tasks solved in this session, in the order solved


@dataclass(frozen=True)
class TaskSlots:
    """Where `fill` writes: one placeholder per task for its verdict; and the solved list as
    the frame drew it (task ids)."""

    verdicts: dict[str, Any]
    solved: tuple[str, ...]


def panel(tasks: Sequence[Task], snapshot_of: Callable[[], dict | None]) -> None:
    """A page's tasks, checked against what the learner has entered right now (the page's
    `snapshot_of()`: its inputs as a plain dict, None while they are not usable)."""
    progress = _check_all(tasks, snapshot_of)
    _draw(tasks, lambda task: _verdict(task, progress[task.id]), _solved_list)


def panel_frame(tasks: Sequence[Task]) -> TaskSlots:
    """The panel without its verdicts: a placeholder for each, which `fill` writes (it must
    write them in every whole run of the page, as Streamlit requires of a fragment), and the
    tasks solved so far: no edit changes them but one that solves a task (`fill`)."""
    verdicts: dict[str, Any] = {}

    def slot(task: Task) -> None:
        verdicts[task.id] = st.empty()

    _draw(tasks, slot, _solved_list)
    return TaskSlots(verdicts, tuple(st.session_state.get(SOLVED, [])))


def fill(
    slots: TaskSlots,
    tasks: Sequence[Task],
    snapshot_of: Callable[[], dict | None],
    hidden: bool = False,
) -> None:
    """The verdicts of `tasks`, into the placeholders of `panel_frame`; when a task is solved
    now, the page reruns, whose frame then lists it. While the page's answers are `hidden`
    (predict, then reveal), a verdict would give them away (“Lipton's weight is now 0.75”):
    each slot says they come back with the answers, and nothing is checked or solved."""
    if hidden:
        for task in tasks:
            slots.verdicts[task.id].caption(t("tasks.while_hidden.verdict"))
        return
    progress = _check_all(tasks, snapshot_of)
    if tuple(st.session_state.get(SOLVED, [])) != slots.solved:
        st.rerun()
    for task in tasks:
        with slots.verdicts[task.id]:
            _verdict(task, progress[task.id])


def _check_all(tasks: Sequence[Task], snapshot_of: Callable[[], dict | None]) -> dict:
    """Each task's progress; a task solved now joins the session's solved list."""
    try:
        snapshot = snapshot_of()
    except (ValueError, TypeError, IndexError):  # half-edited inputs: nothing to check yet
        snapshot = None
    solved: list[str] = st.session_state.setdefault(SOLVED, [])
    progress = {}
    for task in tasks:
        progress[task.id] = check(task, snapshot)
        if progress[task.id].solved and task.id not in solved:
            solved.append(task.id)
    return progress


def _draw(
    tasks: Sequence[Task], verdict: Callable[[Task], None], solved_list: Callable[[], None]
) -> None:
    with st.expander(t("tasks.title"), expanded=True):
        st.caption(t("tasks.intro"))
        for task in tasks:
            st.markdown(f"**{t(f'tasks.{task.id}.name')}** · " + t(f"tasks.{task.id}.goal"))
            verdict(task)
            _help(task)
        solved_list()


def _verdict(task: Task, progress: Progress) -> None:
    if progress.solved:
        st.success(t("tasks.solved") + " " + t(f"tasks.{task.id}.progress", **progress.params))
    elif progress.reason is not None:
        st.info(t(progress.reason))
    else:
        st.info(t(f"tasks.{task.id}.progress", **progress.params))


def _solved_list() -> None:
    """The tasks solved in this session (nothing while there are none)."""
    solved = st.session_state.get(SOLVED, [])
    if solved:
        names = ", ".join(t(f"tasks.{task_id}.name") for task_id in solved)
        st.markdown(t("tasks.solved_list", tasks=names))


def _help(task: Task) -> None:
    """The hints asked for so far, the next-hint button and the solution toggle (hidden from
    a student while a class question is open: a hint may state what the hidden charts show)."""
    if student_question_open():
        st.caption(t("classroom.q.tasks_hidden"))
        return
    hints_key = f"tasks.{task.id}.hints"
    shown = min(int(st.session_state.get(hints_key, 0)), task.hints)
    for number in range(1, shown + 1):
        st.caption(t("tasks.hint_label", number=number) + " " + t(f"tasks.{task.id}.hint{number}"))
    # One row block for both controls (st.columns would send three).
    row = st.container(horizontal=True, vertical_alignment="center")
    if shown < task.hints:
        row.button(
            t("tasks.hint_button"),
            key=f"tasks.{task.id}.hint",
            on_click=_more_hints,
            args=(hints_key,),
        )
    if row.toggle(t("tasks.solution_toggle"), key=f"tasks.{task.id}.solution"):
        st.markdown(t(f"tasks.{task.id}.solution"))


def _more_hints(key: str) -> None:
    st.session_state[key] = int(st.session_state.get(key, 0)) + 1
