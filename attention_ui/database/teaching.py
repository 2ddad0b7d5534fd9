"""The database page's export panel and its predict-then-reveal puzzle.

pages/database.py draws the switch in its whole run (`switch`), calls `reveal(...)` in the
answers' fragment before drawing the answers (False: keep them hidden) and `export(...)` after
them. Both read the rerun's one lookup (attention_ui/database/compute.py).
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from attention_core.lookup import LookupTable
from attention_ui.database import state
from attention_ui.database.view import Query
from attention_ui.kit.classroom.panel import student_question_here
from attention_ui.kit.export.panel import Export, Table, export_panel
from attention_ui.kit.export.scripts import table_script
from attention_ui.kit.grids.records_editor import D2L_RECORDS, RecordsInput, current_records
from attention_ui.kit.state import settings
from attention_ui.kit.teaching.predict import NO_WINNER, Puzzle, puzzle_id, typo_queries
from attention_ui.kit.teaching.predict_view import predict_switch, puzzle, verdict_text
from attention_ui.kit.text.i18n import t
from attention_ui.kit.text.markdown import escape_markdown

PAGE = "database"
PUZZLE_QUERIES = 3


def make_puzzle() -> None:
    """Button callback: misspelt keys of the current table as the queries (drawn with the
    seed), matched approximately so that a record can win."""
    rows = current_records(state.RECORDS) or D2L_RECORDS
    keys = [row[0] for row in rows if isinstance(row[0], str)]
    # the seed as its box holds it; anything else (crafted state, which reaches a button's
    # callback before the frame's check) counts as its default
    queries = typo_queries(keys, int(state.PUZZLE_SEED.current()), PUZZLE_QUERIES)
    if queries:
        st.session_state[state.QUERY.key] = ", ".join(queries)
    if st.session_state.get(state.SIMILARITY.key) == "exact":
        st.session_state[state.SIMILARITY.key] = "ngram"
    st.session_state.pop(state.STORY_STEP, None)


def switch() -> bool:
    """The 'Predict, then reveal' switch (drawn by the page's whole run: toggling it reruns the
    page); True while it is on."""
    return predict_switch(PAGE)


def reveal(records_in: RecordsInput, table: LookupTable | None, switch_on: bool) -> bool:
    """When the switch (`switch`) is on, one question per query about `table` (the rerun's
    lookup). True when the page may show its answers and exports (switch off, answers
    revealed, or nothing to guess)."""
    if not switch_on:
        return True
    if not student_question_here(PAGE):  # a student answers the teacher's records
        _puzzle_controls()
    if table is None:
        return True  # the answers section says what is missing or wrong
    return _puzzle(records_in, table)


def _puzzle_controls() -> None:
    st.header(t("predict.database.title"))
    st.caption(t("predict.database.ask"))
    seed_col, button_col = st.columns([1, 2], vertical_alignment="bottom")
    settings.start((state.PUZZLE_SEED,))
    settings.number_input(state.PUZZLE_SEED, seed_col)
    button_col.button(
        t("predict.database.make"),
        key="database.predict.make",
        on_click=make_puzzle,
        icon=":material/casino:",
    )


def _puzzle(records_in: RecordsInput, table: LookupTable) -> bool:
    records = table.records
    texts = [
        f"{row} · {r.key} → {r.value}" for row, r in zip(records_in.rows, records, strict=True)
    ]
    names = [escape_markdown(text, 60) for text in texts]
    labels = [text[:60] for text in texts]
    none = t("predict.database.none")
    asked = Puzzle(
        PAGE,
        puzzle_id(table.weights, table.scores, extra="\n".join((*table.queries, *labels))),
        questions=[
            t("predict.database.question", query=number, text=escape_markdown(text, 40))
            for number, text in enumerate(table.queries, start=1)
        ],
        options=[*range(len(records)), NO_WINNER],
        option_label=lambda i: none if i == NO_WINNER else labels[i],
        # A query with no valid answer (an exact miss, or one sharing nothing with any key,
        # whose softmax weights are uniform) has no winning record: "no record" is right.
        per_query=[r.weights if r.valid else np.zeros_like(r.weights) for r in table.results],
        describe=lambda verdict, _: verdict_text(
            verdict,
            f"q{verdict.query + 1}",
            names,
            table.results[verdict.query].weights,  # the weights the answers show
            none_name=none,
        ),
        horizontal=False,
    )
    return puzzle(asked)


def export(records_in: RecordsInput, query: Query, table: LookupTable | None) -> None:
    """The script, the scores and weights of `table` (the rerun's lookup) as CSV."""
    if table is None:
        return

    def build() -> Export:
        rows = [f"q{i + 1}" for i in range(len(table.queries))]
        cols = [
            f"{row}: {record.key}"
            for row, record in zip(records_in.rows, table.records, strict=True)
        ]
        return Export(
            script=table_script(
                table, temperature=query.temperature, normalization=query.normalization
            ),
            tables=[
                Table("scores", table.scores, rows, cols),
                Table("weights", table.weights, rows, cols),
            ],
        )

    export_panel(PAGE, build, details=(query.similarity, query.normalization), latex=False)
