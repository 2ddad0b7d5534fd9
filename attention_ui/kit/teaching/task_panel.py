"""The panel of checked tasks at the end of a page: goal, how far off, hints one at a time, a
worked solution on request, and the tasks solved in this session.

The rules are in kit/teaching/tasks.py; this module reads each page's current inputs through
that page's own state accessors into a plain snapshot, and words the verdict.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import streamlit as st

from attention_ui.kit.grids.matrix_editor import matrix_values
from attention_ui.kit.grids.records_editor import check_records, current_records
from attention_ui.kit.state.page_state import widget_value
from attention_ui.kit.teaching.tasks import Task, check, tasks_of
from attention_ui.kit.text.i18n import t

SOLVED = "tasks.solved"  # the ids of the tasks solved in this session, in the order solved


def _finite(*arrays: Any) -> bool:
    return all(a is not None and np.isfinite(np.asarray(a, dtype=float)).all() for a in arrays)


def luong_snapshot() -> dict | None:
    from attention_ui.luong import state as luong

    layout = widget_value(luong.LAYOUT, "column")
    q, k, v = luong.latest("Q"), luong.latest("K"), luong.latest("V")
    if not _finite(q, k, v):
        return None
    if layout == "row":
        q, k, v = q.T, k.T, v.T
    score = widget_value(luong.SCORE, "dot")
    params = {"W": "W", "Wa": "Wa_concat" if score == "concat" else "Wa_location", "va": "va"}
    snapshot = {
        "Q": q,
        "K": k,
        "V": v,
        "score": score,
        "tau": widget_value(luong.TEMPERATURE, 1.0),
        "mask": widget_value(luong.MASK_KIND, "none"),
    }
    for name, matrix in params.items():
        values = luong.latest(matrix)
        snapshot[name] = values if _finite(values) else None
    return snapshot


def database_snapshot() -> dict | None:
    from attention_ui.database import state as database

    rows = current_records(database.RECORDS)
    records = check_records(rows).records if rows else []
    queries = st.session_state.get(database.QUERIES) or [widget_value(database.QUERY, "")]
    if not records or not queries:
        return None
    return {
        "records": records,
        "query": queries[0],
        "similarity": widget_value(database.SIMILARITY, "exact"),
        "tau": widget_value(database.TEMPERATURE, 1.0),
    }


def gallery_snapshot() -> dict | None:
    from attention_ui.gallery import state as gallery

    values = matrix_values(gallery.VALUES)
    m = widget_value(gallery.M, 3)
    if values is None or not isinstance(m, int) or not 1 <= m <= values.shape[0]:
        return None
    values = values[:m]
    if not _finite(values):
        return None
    return {
        "values": values,
        "q": (widget_value(gallery.Q1, 1.0), widget_value(gallery.Q2, 1.0)),
        "tau": widget_value(gallery.TEMPERATURE, 1.0),
        "normalization": widget_value(gallery.NORMALIZATION, "softmax"),
    }


def exercises_snapshot() -> dict | None:
    from attention_core import letter_pair_vectors
    from attention_ui.exercises import state as ex

    def setting(key: str) -> Any:
        return widget_value(key, ex.DEFAULTS[key])

    points = ex.HUGE_POINTS if setting(ex.GRAD_POINTS) == "huge" else ex.gallery_values()[0]
    matrices = {key: matrix_values(key) for key in (ex.SE_X, ex.SE_W1, ex.SE_W2)}
    matrices = {
        key: ex.MATRICES[key] if values is None else values for key, values in matrices.items()
    }
    if setting(ex.SEARCH_SOURCE) == "names":
        keys, _pairs = letter_pair_vectors([r[0] for r in ex.database_records()[0]])
        start = np.zeros(keys.shape[0])
    else:
        table = matrix_values(ex.SEARCH_KEYS)
        keys = (ex.MATRICES[ex.SEARCH_KEYS] if table is None else table).T
        start = np.array([setting(ex.SEARCH_Q1), setting(ex.SEARCH_Q2)])
    if not _finite(*matrices.values(), keys):
        return None
    return {
        "points": points,
        "q": [setting(ex.GRAD_Q1), setting(ex.GRAD_Q2)],
        "tau": setting(ex.GRAD_TAU),
        "X": matrices[ex.SE_X],
        "W1": matrices[ex.SE_W1],
        "W2": matrices[ex.SE_W2],
        "keys": keys,
        "start": start,
        "target": setting(ex.SEARCH_TARGET),
        "rate": setting(ex.SEARCH_RATE),
        "steps": setting(ex.SEARCH_STEPS),
    }


SNAPSHOTS = {
    "luong": luong_snapshot,
    "database": database_snapshot,
    "gallery": gallery_snapshot,
    "exercises": exercises_snapshot,
}


def panel(page: str) -> None:
    """The tasks of `page`, checked against what the learner has entered right now."""
    try:
        snapshot = SNAPSHOTS[page]()
    except (ValueError, TypeError, IndexError):  # half-edited inputs: nothing to check yet
        snapshot = None
    solved: list[str] = st.session_state.setdefault(SOLVED, [])
    with st.expander(t("tasks.title"), expanded=True):
        st.caption(t("tasks.intro"))
        for task in tasks_of(page):
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
