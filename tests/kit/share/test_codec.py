"""The address codec: every page's state ⇄ query parameters, and what a bad address gives."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import parse_qsl, urlencode

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_ui.gallery.schema import SCHEMA as GALLERY
from attention_ui.kit.share import codec as codec
from attention_ui.kit.share.codec import (
    LANGUAGE_PARAM,
    VERSION,
    VERSION_PARAM,
    Choice,
    Field,
    Integer,
    Matrix,
    Number,
    NumberSet,
    PageSchema,
    Records,
    Text,
    TextList,
    decode,
    encode,
    pack,
)
from attention_ui.luong.model import MAX_SIZE
from attention_ui.luong.schema import SCHEMA as LUONG
from attention_ui.page_list import SCHEMAS


def longest(fields: Sequence[Field], worst: Mapping[str, Any]) -> int:
    """How many characters the query string of `worst` values costs (the README's figures)."""
    params = {VERSION_PARAM: str(VERSION), LANGUAGE_PARAM: "ja"}
    for f in fields:
        if f.key in worst:
            params[f.param] = f.encode(worst[f.key]) or ""
    return len(urlencode(params))


SCHEMA = PageSchema(
    "test",
    (
        Choice("c", "t.c", options=("dot", "general")),
        Choice("tau", "t.tau", options=(0.05, 0.1, 1.0, 20.0)),
        Integer("n", "t.n", 1, 8),
        Number("x", "t.x", -3.0, 3.0),
        Text("q", "t.q", max_length=20),
        NumberSet("taus", "t.taus", options=(0.25, 1.0, 4.0)),
        Matrix("Q", "t.Q", max_rows=3, max_cols=4),
        Matrix("mc", "t.mc", ticks=True),
        Records("db", "t.db", max_rows=3, max_text=10),
        TextList("lq", "t.lq", max_items=2, max_text=10),
    ),
)


def through_address(params: dict[str, str]) -> dict[str, str]:
    """What the browser's address gives back: urlencoded, then parsed."""
    return dict(parse_qsl(urlencode(params), keep_blank_values=True))


def roundtrip(values: dict) -> codec.Decoded:
    return decode(SCHEMA, through_address(encode(SCHEMA, values)))


def test_every_field_kind_round_trips():
    values = {
        "t.c": "general",
        "t.tau": 0.05,
        "t.n": 3,
        "t.x": -2.5,
        "t.q": "Li, 山田",
        "t.taus": [4.0, 0.25],
        "t.Q": np.array([[1.0, -0.5, math.nan], [1e-3, 1e3, 0]]),
        "t.mc": np.array([[1.0, 0.0], [0.0, 1.0]]),
        "t.db": [("Zhang", "Aston", 10.0), ("山田", "太郎", None)],
        "t.lq": ["Li", "田中"],
    }
    decoded = roundtrip(values)
    assert decoded.ignored == []
    for key, value in values.items():
        if isinstance(value, np.ndarray):
            np.testing.assert_array_equal(decoded.values[key], value)
        else:
            assert decoded.values[key] == value, key


def test_the_format_carries_its_version_and_short_readable_matrices():
    params = encode(SCHEMA, {"t.Q": np.array([[1.0, 0.0], [0.5, -2.0]]), "t.n": 2})
    assert params == {"v": "1", "n": "2", "Q": "1_0~0.5_-2"}
    assert urlencode(params) == "v=1&n=2&Q=1_0~0.5_-2"  # nothing percent-encoded


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.lists(st.floats(allow_nan=True, allow_infinity=False, width=64), min_size=4, max_size=4),
        min_size=1,
        max_size=3,
    )
)
def test_any_matrix_round_trips_exactly(rows):
    matrix = np.array(rows)
    decoded = roundtrip({"t.Q": matrix})
    assert decoded.ignored == []
    np.testing.assert_array_equal(decoded.values["t.Q"], matrix)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.text(max_size=10), st.text(max_size=10), st.one_of(st.none(), st.floats(-1e6, 1e6))
        ),
        max_size=3,
    )
)
def test_any_table_round_trips_without_control_characters(rows):
    decoded = roundtrip({"t.db": rows})
    assert decoded.ignored == []
    clean = [(codec._printable(k), codec._printable(v), n) for k, v, n in rows]
    assert decoded.values["t.db"] == clean


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=20))
def test_any_query_text_round_trips(text):
    assert roundtrip({"t.q": text}).values["t.q"] == codec._printable(text)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(
            ["v", "c", "tau", "n", "x", "q", "taus", "Q", "mc", "db", "lq", "zz", "lang"]
        ),
        st.text(max_size=60),
    )
)
def test_any_address_decodes_without_an_exception(params):
    decoded = decode(SCHEMA, params)
    names = {item.param for item in decoded.ignored}
    read = {f.param for f in SCHEMA.fields if f.key in decoded.values}
    assert not names & read  # a parameter is either used or reported, never both


# Bad addresses (for every page's schema, each must be read without an exception, the good
# parameters used, the bad ones reported by name).
BAD = [
    ({"n": "abc"}, "n", codec.UNREADABLE),
    ({"n": "99"}, "n", codec.OUT_OF_RANGE),
    ({"n": "1e3"}, "n", codec.UNREADABLE),
    ({"x": "nan"}, "x", codec.UNREADABLE),
    ({"x": "inf"}, "x", codec.UNREADABLE),
    ({"x": "1e999"}, "x", codec.OUT_OF_RANGE),
    ({"x": "1_000"}, "x", codec.UNREADABLE),
    ({"x": "__import__('os')"}, "x", codec.UNREADABLE),
    ({"c": "softmax"}, "c", codec.OUT_OF_RANGE),
    ({"tau": "0.3"}, "tau", codec.OUT_OF_RANGE),
    ({"q": "x" * 21}, "q", codec.TOO_LONG),
    ({"taus": "0.25_9"}, "taus", codec.OUT_OF_RANGE),
    ({"Q": "1_2~3"}, "Q", codec.UNREADABLE),  # ragged
    ({"Q": "1_2~3_4~5_6~7_8"}, "Q", codec.TOO_LONG),  # 4 rows, at most 3
    ({"Q": "1_2_3_4_5"}, "Q", codec.TOO_LONG),
    ({"Q": "1_x"}, "Q", codec.UNREADABLE),
    ({"Q": "1_2~"}, "Q", codec.UNREADABLE),  # truncated
    ({"mc": "12~01"}, "mc", codec.UNREADABLE),
    ({"db": "not-base64!"}, "db", codec.UNREADABLE),
    ({"db": pack({"rows": 1})}, "db", codec.UNREADABLE),
    ({"db": pack([["a", "b", "NaN"]])}, "db", codec.OUT_OF_RANGE),
    ({"db": pack([["a", "b", 1e300]])}, "db", codec.OUT_OF_RANGE),
    ({"db": pack([["a", "b", 1]] * 4)}, "db", codec.TOO_LONG),
    ({"db": pack([["a" * 11, "b", 1]])}, "db", codec.TOO_LONG),
    ({"db": pack(["x" * 70_000])}, "db", codec.TOO_LONG),  # a deflate bomb is not inflated
    ({"db": pack([["a", "b", 1]])[:-3]}, "db", codec.UNREADABLE),  # truncated
    ({"lq": pack([1, 2])}, "lq", codec.UNREADABLE),
    ({"zz": "1"}, "zz", codec.UNKNOWN),
    ({"<script>": "1"}, "<script>", codec.UNKNOWN),
    ({"Q": "1_" * 40_000}, "Q", codec.TOO_LONG),
]


@pytest.mark.parametrize(("bad", "name", "code"), BAD, ids=[str(b[0])[:40] for b in BAD])
def test_a_bad_parameter_is_reported_and_the_good_ones_are_used(bad, name, code):
    params = {"v": "1", "n": "3", "c": "general", **bad}
    decoded = decode(SCHEMA, params)
    assert codec.Ignored(name, code) in decoded.ignored
    for good, key, value in (("n", "t.n", 3), ("c", "t.c", "general")):
        if good not in bad:
            assert decoded.values[key] == value


def test_a_newer_version_reads_nothing():
    decoded = decode(SCHEMA, {"v": "2", "n": "3"})
    assert decoded.values == {}
    assert decoded.ignored == [codec.Ignored("v", codec.NEWER_VERSION)]


def test_an_address_without_a_version_is_read_as_version_one():
    assert decode(SCHEMA, {"n": "3"}).values == {"t.n": 3}


def test_the_language_is_not_this_codecs_business():
    assert decode(SCHEMA, {"lang": "ja", "n": "2"}).ignored == []


def test_too_many_parameters_are_cut():
    params = {f"p{i}": "1" for i in range(500)}
    decoded = decode(SCHEMA, params)
    assert len(decoded.ignored) == codec.MAX_PARAMS + 1


def test_a_repeated_parameter_counts_once_the_last_time():
    assert decode(SCHEMA, {"n": ["2", "5"]}).values["t.n"] == 5


def test_text_keeps_no_control_characters():
    decoded = decode(SCHEMA, {"q": "a\u202eb\x00c"})
    assert decoded.values["t.q"] == "abc"


def test_every_page_schema_has_distinct_parameters_and_keys():
    for schema in SCHEMAS.values():
        params = [f.param for f in schema.fields]
        keys = [f.key for f in schema.fields]
        assert len(set(params)) == len(params) and len(set(keys)) == len(keys), schema.page
        assert not {"v", "lang"} & set(params)


def test_the_longest_luong_address_costs_what_the_readme_says():
    """Every size at its maximum and every cell a 17-digit number: the worst case."""
    worst = {}
    long_number = -0.12345678901234567
    for f in LUONG.fields:
        if isinstance(f, Matrix):
            worst[f.key] = np.full((f.max_rows, f.max_cols), long_number)
        elif isinstance(f, Choice):
            worst[f.key] = max(f.options, key=lambda o: len(f.encode(o)))
        elif isinstance(f, Integer):
            worst[f.key] = f.high
    cost = longest(LUONG.fields, worst)
    assert cost < 45_000
    assert MAX_SIZE == 16


def test_the_gallerys_borrowed_inputs_travel_only_with_their_grid():
    values = {
        "gallery.grid.source": "database",
        "gallery.live.Q": np.eye(2),
        "gallery.live.K": np.eye(2),
        "gallery.live.queries": ["Li"],
    }
    params = encode(GALLERY, values)
    assert "lQ" not in params and "lq" in params


def test_a_grid_whose_shape_does_not_fit_the_sizes_is_left_out_and_reported():
    """`shapes` gives each grid's shape from the other values (here Q is 2 × n)."""
    sized = dataclasses.replace(SCHEMA, shapes=lambda values: {"t.Q": (2, values.get("t.n", 2))})
    fits = decode(sized, {"v": "1", "n": "3", "Q": "1_2_3~4_5_6"})
    assert fits.ignored == [] and fits.values["t.Q"].shape == (2, 3)
    misfit = decode(sized, {"v": "1", "n": "2", "Q": "1_2_3~4_5_6"})
    assert misfit.ignored == [codec.Ignored("Q", codec.WRONG_SHAPE)]
    assert "t.Q" not in misfit.values and misfit.values["t.n"] == 2
    assert decode(SCHEMA, {"v": "1", "n": "2", "Q": "1_2_3~4_5_6"}).ignored == []
