"""The database page's address, now built from its settings' declarations (issue 33), is the
one it wrote before: the same parameters in the same order, with the same values allowed and
the same defaults, so that addresses and state files written before open to the same page."""

from __future__ import annotations

from attention_ui.database.schema import SCHEMA
from attention_ui.kit.share.codec import (
    MAX_INT,
    Choice,
    Flag,
    Integer,
    Records,
    Text,
    decode,
    encode,
)

TEMPERATURES = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 100.0)
BEFORE = (
    Records("db", "database.records", max_rows=50, max_text=100, number_limit=1e6),
    Text("q", "database.query", max_length=400),
    Choice("sim", "database.similarity", options=("exact", "ngram", "edit")),
    Choice("tau", "database.temperature", options=TEMPERATURES),
    Choice("norm", "database.normalization", options=("softmax", "sum")),
    Integer("topk", "database.top_k", 1, 50),
    Integer("step", "database.story.step", 1, 4),
    Flag("predict", "database.predict"),
    Integer("pseed", "database.predict.seed", 0, MAX_INT),
)


def test_the_fields_are_the_ones_the_address_had_before_the_declarations():
    assert SCHEMA.page == "database"
    assert SCHEMA.fields == BEFORE


def test_a_crafted_value_goes_back_to_the_same_defaults_as_before():
    assert dict(SCHEMA.defaults) == {
        "database.query": "Li",
        "database.similarity": "exact",
        "database.temperature": 0.1,
        "database.normalization": "softmax",
        "database.top_k": 2,
        "database.predict": False,
        "database.predict.seed": 0,
    }


def test_an_address_written_before_reads_to_the_same_values_and_back():
    params = {
        "v": "1",
        "q": "Li, Lipton",
        "sim": "ngram",
        "tau": "0.5",
        "norm": "sum",
        "topk": "3",
        "step": "4",
        "predict": "1",
        "pseed": "7",
    }
    decoded = decode(SCHEMA, params)
    assert decoded.ignored == []
    assert decoded.values == {
        "database.query": "Li, Lipton",
        "database.similarity": "ngram",
        "database.temperature": 0.5,
        "database.normalization": "sum",
        "database.top_k": 3,
        "database.story.step": 4,
        "database.predict": True,
        "database.predict.seed": 7,
    }
    assert list(encode(SCHEMA, decoded.values).items()) == list(params.items())
