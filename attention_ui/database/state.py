"""The database page's session state: each setting declared once (kit/state/settings.py), the
table's key, the presets, the story and the callbacks that set them.

The table lives under RECORDS (attention_ui/kit/grids/records_editor.py); Streamlit keeps the
other controls' values across visits to other pages itself (persist_state="session").
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable
from typing import Any

import streamlit as st
from streamlit.errors import StreamlitAPIException

from attention_ui.kit.figures.lookup import LookupCaptions
from attention_ui.kit.grids.records_editor import (
    D2L_RECORDS,
    NAME_LIMIT,
    RECORD_LIMIT,
    current_records,
    cut_name,
    set_records,
)
from attention_ui.kit.state import settings
from attention_ui.kit.text.i18n import t, worded

RECORDS = "database.records"
TEMPERATURES = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 100.0)  # τ's slider
# Each setting once: key, address parameter, default, values, label and help.
QUERY = settings.text(
    "database.query", "q", "Li", 400, label="database.query.label", help="database.query.help"
)
SIMILARITY = settings.choice(
    "database.similarity",
    "sim",
    "exact",
    ("exact", "ngram", "edit"),
    label="database.similarity.label",
    options_label="database.similarity.",
)
TEMPERATURE = settings.choice(
    "database.temperature",
    "tau",
    0.1,
    TEMPERATURES,
    label="database.temperature.label",
    help="database.temperature.help",
)
NORMALIZATION = settings.choice(
    "database.normalization",
    "norm",
    "softmax",
    ("softmax", "sum"),
    label="database.normalization.label",
    options_label="database.normalization.",
)
TOP_K = settings.integer(  # how many records top-k retrieval returns
    "database.top_k",
    "topk",
    2,
    1,
    RECORD_LIMIT,
    label="database.topk.label",
    help="database.topk.help",
)
# Predict, then reveal: its switch (drawn by kit.teaching.predict_view under "<page>.predict")
# and the seed of its misspelt queries (attention_ui/database/teaching.py).
PREDICT = settings.flag("database.predict", "predict")
PUZZLE_SEED = settings.integer(
    "database.predict.seed",
    "pseed",
    0,
    label="predict.database.seed",
    help="predict.database.seed_help",
)
# Drawn on every run, and so given their first value by `start`; the switch and the seed get
# theirs when drawn (an address of a page that never showed the puzzle has no seed).
CONTROLS = (QUERY, SIMILARITY, TEMPERATURE, NORMALIZATION, TOP_K)
SETTINGS = (*CONTROLS, PREDICT, PUZZLE_SEED)
STORY_STEP = "database.story.step"  # the story's step last replayed (none: no notice)
QUERIES = "database.queries.current"  # the parsed queries of the last run (the gallery reads them)
ANSWER_TAB = "database.answer.tab"  # the open query's tab (only that one is built)
ANSWER_TAB_INDEX = "database.answer.tab.index"  # its position, kept while the tabs are hidden
ANSWERS = "database.answers"  # the answers' st.fragment (pages/database.py), rerun by a query edit
ANSWERS_SHOWN = "database.answers.shown"  # whether the answers' fragment last showed them
ABOVE = "database.answers.above"  # what the whole run drew of the inputs (`drawn_inputs`)
QUERY_BOX = "database.query.box"  # the query box's own st.fragment
QUERY_SHOWN = "database.answers.query"  # the query the box shows (drawn, or typed since)
QUERY_SEPARATORS = re.compile(r"[,;、，；]")  # between the box's queries
QUERY_LIMIT = 10  # queries shown at once

JAPANESE_RECORDS = [
    ("山田", "太郎", 10.0),
    ("山本", "花子", 20.0),
    ("田中", "一郎", 30.0),
    ("中田", "美咲", 40.0),
    ("佐藤", "健", 50.0),
    ("高橋", "さくら", 60.0),
]
WITHOUT_LI = [record for record in D2L_RECORDS if record[0] != "Li"]
PRESETS = {"d2l": D2L_RECORDS, "ja": JAPANESE_RECORDS, "empty": []}
# The section's story: (records, query, similarity, temperature), replayed by one click each.
STORY = {
    1: (D2L_RECORDS, "Li", "exact", 0.1),
    2: (WITHOUT_LI, "Li", "exact", 0.1),
    3: (WITHOUT_LI, "Li", "ngram", 0.1),
    4: (WITHOUT_LI, "Li", "ngram", 10.0),
}


def start() -> None:
    """Before the widgets are drawn: each control at its default on a first visit."""
    settings.start(CONTROLS)


def publish_queries(queries: list[str]) -> None:
    """After the query box is drawn: its queries, for the gallery."""
    st.session_state[QUERIES] = queries


def answers_shown() -> bool:
    """Whether the answers' fragment last showed the answers (the lessons' story answers follow
    it; True before it has run)."""
    return bool(st.session_state.get(ANSWERS_SHOWN, True))


def drawn_inputs(notes: Iterable[str] = ()) -> tuple:
    """The inputs as the whole run draws them but the query's text: the table, the similarity,
    τ, the normalization and k, and the query's notes (`notes`, drawn under the controls). The
    answers' fragment compares them with what the whole run drew: when a callback in the
    fragment changed one (the puzzle's button), the page reruns whole."""
    rows = current_records(RECORDS)
    return (
        tuple(tuple(row) for row in rows) if rows is not None else None,
        *(st.session_state.get(s.key) for s in (SIMILARITY, TEMPERATURE, NORMALIZATION, TOP_K)),
        tuple(notes),
    )


def query_edited() -> None:
    """The query box's callback: the query reruns the answers' fragment alone (the story's
    notice, the answers, the export and the tasks' verdicts), not the table and the controls,
    which it does not change; but the whole page when the query's notes change (too many,
    too long), which the whole run draws under the controls."""
    drawn = st.session_state.get(ABOVE)
    if drawn is None or drawn[-1] != tuple(parse_queries(QUERY.value())[1]):
        st.rerun()  # the whole page (the box's own fragment would be the default)
    st.session_state[QUERY_SHOWN] = QUERY.value()  # the box shows what was typed
    with contextlib.suppress(StreamlitAPIException):  # no fragment drawn yet: the whole page
        st.rerun(ANSWERS)
    st.rerun()


def parse_queries(text: str) -> tuple[list[str], list[str]]:
    """Queries from the box (comma separated), and messages about what was cut or skipped."""
    return check_queries(QUERY_SEPARATORS.split(text or ""))


def check_queries(pieces: Iterable[Any]) -> tuple[list[str], list[str]]:
    """The queries a lookup can use, from the box's pieces or from another page's list (the
    gallery's borrowed queries, an address): blank ones skipped, at most QUERY_LIMIT, each cut
    to NAME_LIMIT characters once normalised; and one message per thing cut."""
    notes = []
    queries = [piece.strip() for piece in pieces if isinstance(piece, str) and piece.strip()]
    if len(queries) > QUERY_LIMIT:
        notes.append(t("database.query.too_many", count=len(queries), limit=QUERY_LIMIT))
        queries = queries[:QUERY_LIMIT]
    cut = []
    for number, query in enumerate(queries, start=1):
        text, length = cut_name(query)  # counted once normalised, as the similarities read it
        if length > NAME_LIMIT:
            notes.append(
                t("database.query.too_long", number=number, length=length, limit=NAME_LIMIT)
            )
        cut.append(text)
    return cut, notes


def replay(step: int) -> None:
    """Button callback: set the table and every control to one step of the story."""
    records, query, similarity, temperature = STORY[step]
    set_records(RECORDS, records)
    st.session_state.update(
        {
            QUERY.key: query,
            SIMILARITY.key: similarity,
            TEMPERATURE.key: temperature,
            NORMALIZATION.key: "softmax",
            STORY_STEP: step,
        }
    )


def load_preset(records: list) -> None:
    """Button callback: a preset table (the story's notice no longer applies)."""
    set_records(RECORDS, records)
    st.session_state.pop(STORY_STEP, None)


def step_still_shown(step: int) -> bool:
    """Whether the widgets still hold what the story step set (the learner may have moved on)."""
    records, query, similarity, temperature = STORY[step]
    same_records = [tuple(r) for r in current_records(RECORDS) or []] == list(records)
    same_controls = (QUERY.value(), SIMILARITY.value(), NORMALIZATION.value()) == (
        query,
        similarity,
        "softmax",
    )
    same_tau = similarity == "exact" or TEMPERATURE.value() == temperature
    return same_records and same_controls and same_tau


def chart_captions() -> LookupCaptions:
    """The lookup charts' words, in this run's language (the exercises' lookup
    charts use them too)."""
    return worded(LookupCaptions, "database.chart")
