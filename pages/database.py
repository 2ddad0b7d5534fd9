"""Database lookup: attention as a database lookup made soft (d2l, "Queries, Keys, and Values").

A table of (surname, first name, number) records, one or several queries, a similarity a(q, k),
a temperature and a normalization; the engine (`attention_core.lookup_many`) gives each record
a weight, and the page shows the weights, the best match and the pooled answer. A four-step
guided story replays the section's argument; each step sets the widgets, so the learner can
keep playing from there. Each section is drawn by a function of attention_ui/database/view.py;
attention_ui/database/state.py declares each setting once (its key, default, values, label)
and holds the other keys, the presets, the story and the callbacks. Other keys (for tests and
the browser tour):
- "database.records.cells": the records table (the grid editor, attention_ui/kit/grids;
  columns "key", "value", "number"); `records_editor.current_records(state.RECORDS)`: the rows
  as last seen, [(key, value, number or None), …].
- "database.story.1" … "database.story.4": the story's buttons; "database.preset.d2l",
  "database.preset.ja", "database.preset.empty": table presets.
- predict, then reveal (its switch hides the answers and the export):
  "database.predict.guess.<i>.<puzzle id>": one selectbox per query (record index, −1 = none);
  "database.predict.make": misspelt keys as a seeded puzzle; "database.predict.reveal" /
  "database.predict.again".
- "database.export": the export expander (script, scores and weights as CSV).
- "database.numbers.<i>": query i's "every number" expander (its table is built only while open).
Fragment key (st.rerun): "database.answers", the answers with the predict switch, the export,
the story's notice and the tasks' verdicts; an edit of the query reruns it alone
(`state.query_edited`), not the table and the controls, which it does not change.
"""

import streamlit as st

from attention_ui.database import state, teaching, view
from attention_ui.database import tasks as database_tasks
from attention_ui.frame import page_footer, page_header
from attention_ui.kit.share.address import follow_address
from attention_ui.kit.teaching.task_panel import TaskSlots, fill, panel_frame

page_header("database")
state.start()
# The switch above the story: on a phone in Japanese the story's box fills the first screen,
# and the switch is then the first thing there to change (no query edit changes it).
predicting = teaching.switch()
notice = view.story()
# The answers (or the prediction they wait for) right under the story's buttons, on the first
# screen; the formula, the table, the query and the controls that make them follow.
answers_place = st.container()
view.formula()
records_in, drawn = view.table_and_query()
view.lessons(records_in, answers_shown=state.answers_shown())
slots = panel_frame(database_tasks.TASKS)  # the verdicts: the fragment's


# An edit of the query reruns this alone (state.query_edited): the table, the controls, the
# lessons and the task panel's frame, which a query does not change, are not sent again
# (tests/pages/database/test_edit_messages.py checks what an edit sends).
@st.fragment(key=state.ANSWERS)
def answers(
    records_in: view.RecordsInput, drawn: view.Query, notice, slots: TaskSlots, predicting: bool
) -> None:
    """The puzzle (while `predicting`), the answers and the export from the query as the box
    holds it now; the story's notice above and the tasks' verdicts below."""
    if view.inputs_moved():  # a callback in here (the puzzle's button) set an input above
        st.rerun()
    query = view.query_now(drawn)
    state.publish_queries(query.queries)
    looked_up = view.lookup_of(records_in, query)
    # predict-then-reveal hides them
    shown = teaching.reveal(records_in, looked_up.table, predicting)
    if shown != state.answers_shown():  # the lessons' story answers follow: the whole run
        st.session_state[state.ANSWERS_SHOWN] = shown
        st.rerun()
    view.story_notice(notice, shown)  # a step's notice states its answer: only with the answers
    if shown:
        view.answers(records_in, query, looked_up, heading=predicting)
        teaching.export(records_in, query, looked_up.table)
    fill(slots, database_tasks.TASKS, database_tasks.snapshot, hidden=not shown)
    follow_address("database")  # a query edit reruns this alone: the address follows it


with answers_place:
    # While the switch is off, the answers' heading: no query edit changes it.
    if not predicting:
        view.answers_heading()
    answers(records_in, drawn, notice, slots, predicting)

page_footer("database")  # the address follows the page: a reload or a copied link shows it
