"""The database page's checked tasks: a prefix that finds Lipton, and average pooling.

Each rule recomputes with the page's `compute` from the plain snapshot of the page's inputs that
`snapshot()` reads through the page's state; attention_ui.kit.teaching.task_panel draws them.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from attention_core.formatting import fmt
from attention_ui.database import state as database
from attention_ui.database.compute import Inputs, compute
from attention_ui.kit.grids.records_editor import check_records, current_records
from attention_ui.kit.teaching.tasks import Progress, Snapshot, Task, unfit


def database_lipton(s: Snapshot) -> Progress:
    """Query "Li" with no record "Li": Lipton gets at least 0.9 of the weight."""
    keys = [record[0] for record in s["records"]]
    if s["query"] != "Li":
        return unfit("needs_query_li")
    if "Li" in keys:
        return unfit("needs_no_li")
    if "Lipton" not in keys:
        return unfit("needs_lipton")
    result = compute(Inputs(s["records"], ["Li"], s["similarity"], s["tau"])).results[0]
    weight = float(result.weights[keys.index("Lipton")])
    return Progress(weight >= 0.9, {"weight": fmt(weight)})


def database_uniform(s: Snapshot) -> Progress:
    """Every record gets the same weight 1/m (within 0.01): average pooling."""
    result = compute(Inputs(s["records"], [s["query"]], s["similarity"], s["tau"])).results[0]
    m = len(result.weights)
    gap = float(np.abs(result.weights - 1 / m).max())
    return Progress(gap <= 0.01, {"gap": fmt(gap), "m": str(m)})


def snapshot() -> dict | None:
    """The page's inputs as the rules read them, or None while they are not usable."""
    rows = current_records(database.RECORDS)
    records = check_records(rows).records if rows else []
    queries = st.session_state.get(database.QUERIES) or [
        st.session_state.get(database.QUERY.key, "")
    ]
    if not records or not queries:
        return None
    return {
        "records": records,
        "query": queries[0],
        "similarity": st.session_state.get(database.SIMILARITY.key, "exact"),
        "tau": st.session_state.get(database.TEMPERATURE.key, 1.0),
    }


TASKS: tuple[Task, ...] = (
    Task("database_lipton", "database", 2, database_lipton),
    Task("database_uniform", "database", 2, database_uniform),
)
