"""The database page's state in the shareable address: the table, the query and its settings."""

from __future__ import annotations

from attention_ui.database import state as database
from attention_ui.database import teaching as database_teaching
from attention_ui.kit.grids.records_editor import NAME_LIMIT, NUMBER_LIMIT, RECORD_LIMIT
from attention_ui.kit.share.codec import (
    Choice,
    Flag,
    Integer,
    PageSchema,
    Records,
    Text,
)

SCHEMA = PageSchema(
    "database",
    (
        Records(
            "db",
            database.RECORDS,
            max_rows=RECORD_LIMIT,
            max_text=NAME_LIMIT,
            number_limit=NUMBER_LIMIT,
        ),
        Text("q", database.QUERY, max_length=400),
        Choice("sim", database.SIMILARITY, options=("exact", "ngram", "edit")),
        Choice("tau", database.TEMPERATURE, options=database.TEMPERATURES),
        Choice("norm", database.NORMALIZATION, options=("softmax", "sum")),
        Integer("topk", database.TOP_K, 1, RECORD_LIMIT),
        Integer("step", database.STORY_STEP, 1, len(database.STORY)),
        Flag("predict", database.PREDICT),
        database_teaching.SEED_FIELD,
    ),
    baseline=lambda values: {database.RECORDS: database.D2L_RECORDS},
    defaults={**database.DEFAULTS, **database_teaching.DEFAULTS},
)
