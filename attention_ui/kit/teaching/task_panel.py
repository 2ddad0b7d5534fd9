"""The panel of checked tasks at the end of a page: goal, how far off, hints one at a time, a
worked solution on request, and the tasks solved in this session.

Each page's package has its tasks and the snapshot of its inputs they read
(`<page>/tasks.py`); this module checks them (kit/teaching/tasks.py) and words the verdict.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

from attention_ui.kit.teaching.tasks import Task, check
from attention_ui.kit.text.i18n import t

SOLVED = "tasks.solved"  # the ids of the tasks solved in this session, in the order solved


def panel(tasks: Sequence[Task], snapshot_of: Callable[[], dict | None]) -> None:
    """A page's tasks, checked against what the learner has entered right now (the page's
    `snapshot_of()`: its inputs as a plain dict, None while they are not usable)."""
    try:
        snapshot = snapshot_of()
    except (ValueError, TypeError, IndexError):  # half-edited inputs: nothing to check yet
        snapshot = None
    solved: list[str] = st.session_state.setdefault(SOLVED, [])
    with st.expander(t("tasks.title"), expanded=True):
        st.caption(t("tasks.intro"))
        for task in tasks:
            _task(task, snapshot, solved)
        if solved:
            st.markdown(
                t(
                    "tasks.solved_list",
                    tasks=", ".join(t(f"tasks.{task_id}.name") for task_id in solved),
                )
            )


def _task(task: Task, snapshot: dict | None, solved: list[str]) -> None:
    progress = check(task, snapshot)
    st.markdown(f"**{t(f'tasks.{task.id}.name')}** · " + t(f"tasks.{task.id}.goal"))
    if progress.solved:
        if task.id not in solved:
            solved.append(task.id)
        st.success(t("tasks.solved") + " " + t(f"tasks.{task.id}.progress", **progress.params))
    elif progress.reason is not None:
        st.info(t(progress.reason))
    else:
        st.info(t(f"tasks.{task.id}.progress", **progress.params))
    hints_key = f"tasks.{task.id}.hints"
    shown = min(int(st.session_state.get(hints_key, 0)), task.hints)
    for number in range(1, shown + 1):
        st.caption(t("tasks.hint_label", number=number) + " " + t(f"tasks.{task.id}.hint{number}"))
    # One row block for both controls (st.columns would send three): every edit redraws this.
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
