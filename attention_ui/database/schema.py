"""The database page's state in the shareable address: the table, then each setting's field
from its one declaration (database/state.py), with the story's step between k and the switch."""

from __future__ import annotations

from attention_ui.database import state as database
from attention_ui.kit.grids.records_editor import NAME_LIMIT, NUMBER_LIMIT, RECORD_LIMIT
from attention_ui.kit.share.codec import Integer, Records
from attention_ui.kit.share.schema import from_settings

SCHEMA = from_settings(
    "database",
    (
        Records(
            "db",
            database.RECORDS,
            max_rows=RECORD_LIMIT,
            max_text=NAME_LIMIT,
            number_limit=NUMBER_LIMIT,
        ),
        *database.CONTROLS,
        Integer("step", database.STORY_STEP, 1, len(database.STORY)),
        database.PREDICT,
        database.PUZZLE_SEED,
    ),
    baseline=lambda values: {database.RECORDS: database.D2L_RECORDS},
)
