"""Bad input, everywhere: one table, one row per bad input, run through the pages with AppTest.

A student can type anything into any cell, or open any address. For every row of BAD_INPUTS:

1. the page is opened (with the row's URL query parameters, if any) and the learner first makes
   an ordinary edit elsewhere on the page (PRIOR_EDITS: another cell, the query box, a slider);
2. the bad input goes in the way the browser would send it (a grid edit as the grid editor's
   state, a widget value, a button click, a URL parameter);
3. then: no exception, no traceback text; a message (error, warning or info) that contains every
   fragment the row lists, i.e. names the matrix and cell, the record or the parameter at fault;
   and the earlier edit is still there.

Rows marked `ok=True` are edge cases that are not errors at all (sizes at their limits, names in
any script): they must simply work (no error message, the results drawn).

Widget keys come from each page's docstring (prefixes luong., database., gallery.). Messages are
built from the English catalog, so a reworded message needs no change here, but a message that
stops naming the cell fails.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from attention_ui.kit.grids import store
from attention_ui.kit.grids.points_editor import current_points
from attention_ui.kit.text.i18n import catalog
from attention_ui.luong.model import MAX_SIZE
from attention_ui.page_list import NAMES
from attention_ui.regression.data import preset_points
from tests.conftest import APP
from tests.plotly_json import charts
from tests.support.actions import (
    PRIOR_EDITS,
    Prior,
    both,
    choose,
    click,
    delete_every_record,
    delete_rows,
    edit_grid,
    grid,
    nothing,
    paste_below,
    set_widget,
    then,
)
from tests.support.grids import paste_block
from tests.support.train import press_train

EN = catalog("en")


def typed_after_training(task: str, text: str) -> Callable[[AppTest], None]:
    """Train a short run of `task`, open "your own input" and type `text` into it."""

    def act(at: AppTest) -> None:
        values = {"train.task": task, "train.steps": 20}
        for key, value in values.items():
            at.session_state[key] = value
        press_train(at, values)
        at.session_state["train.fold.input"] = True
        at.session_state[f"train.probe.{task}"] = text

    return act


FIRST_X = float(preset_points("noisy")[0][0])  # the regression page's first training x
LONG_NAME = "x" * 10_000
SCRIPT = "<script>alert('x')</script>"
IMG = "<img src=x onerror=alert(1)>"

ENGLISH = catalog("en")


def en(key: str, **params: Any) -> str:
    return EN[key].format(**params)


# --- The table ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    id: str
    page: str  # pages/<page>.py
    bad: Callable[[AppTest], None]  # the bad input, made before a run
    expect: tuple[str, ...] = ()  # fragments one message must contain (all of them)
    prior: str | None = None  # key of PRIOR_EDITS (default: the page's own)
    query: dict[str, str] = field(default_factory=dict)  # URL query parameters
    ok: bool = False  # an edge case that must simply work


def cell_empty(matrix: str, row: str, col: str) -> tuple[str, ...]:
    return (en("editor.cell_empty", matrix=matrix, row=row, col=col),)


def out_of_range(
    matrix: str, row: str, col: str, value: str, kept: str | None = None
) -> tuple[str, ...]:
    """The grid refuses the number and the matrix keeps the cell's previous value (`kept`; when
    not given, the message up to it)."""
    text = en(
        "editor.rejected_range",
        matrix=matrix,
        row=row,
        col=col,
        typed=value,
        limit="1000",
        kept="\x00" if kept is None else kept,
    )
    return (text.split("\x00")[0],)


def not_a_number(
    matrix: str, row: str, col: str, typed: str, kept: str, reason: str = "text"
) -> tuple[str, ...]:
    return (
        en(f"editor.rejected_{reason}", matrix=matrix, row=row, col=col, typed=typed, kept=kept),
    )


SIZES = {
    f"luong__size__{name}": value
    for name, value in {"d_q": 1, "d_k": 1, "d_v": 1, "n": 1, "m": 1}.items()
}
MAX_SIZES = {key: MAX_SIZE for key in SIZES}

# A value typed into one cell of a matrix grid and refused: the message names the matrix and
# the cell by their labels, shows what was typed and the value the cell keeps.
REFUSED_CELLS = [
    # id, grid, matrix, row, column (as labelled), typed, refusal, typed as shown, kept
    ("cleared cell", "luong.Q", "Q", "1", "q1", None, "empty"),
    ("text in a cell", "luong.K", "K", "2", "k3", "abc", "text", "abc", "0"),
    ("NaN", "luong.V", "V", "1", "k2", math.nan, "empty"),
    ("+inf", "luong.Q", "Q", "2", "q2", math.inf, "range", "∞", "1.5"),
    ("-inf", "luong.V", "V", "2", "k1", -math.inf, "range", "−∞", "1"),
    ("1e308", "luong.Q", "Q", "1", "q2", 1e308, "range", "1×10³⁰⁸", "0"),
    ("-1e308", "luong.K", "K", "1", "k2", -1e308, "range", "−1×10³⁰⁸", "0"),
    ("just over the limit", "luong.V", "V", "1", "k3", 1000.5, "range", "1000.5", "30"),
    ("1,000: a thousands comma?", "luong.Q", "Q", "1", "q1", "1,000", "thousands", "1,000", "2"),
    ("two decimal points", "luong.Q", "Q", "2", "q2", "1..5", "text", "1\\.\\.5", "1.5"),
    ("a trailing minus", "luong.V", "V", "1", "k1", "4-", "text", "4\\-", "10"),
    ("1001 typed", "luong.Q", "Q", "1", "q2", "1001", "range", "1001", "0"),
    ("1e400 typed (overflows to ∞)", "luong.K", "K", "2", "k1", "1e400", "range", "∞", "0"),
    ("cleared value", "gallery.values", "V", "v1", "x", None, "empty"),
    ("infinite value", "gallery.values", "V", "v2", "y", math.inf, "range", "∞", "2"),
    ("NaN in X", "transformer.X", "X", "1 · the", "1", math.nan, "empty"),
    ("text in W_K", "transformer.W_K", "W_K", "2", "2", "abc", "text", "abc", "−0.5"),
    ("+inf in W_O", "transformer.W_O", "W_O", "2", "3", math.inf, "range", "∞"),
]


def typed_at(grid_key: str, row: str, column: str, value: Any) -> Callable[[AppTest], None]:
    """Type into the cell of row `row` (the grid's own row label) and column `column`."""

    def act(at: AppTest) -> None:
        drawn = store.record(grid_key, at.session_state) or {}
        edit_grid(at, grid_key, drawn.get("rows", []).index(row), column, value)

    return act


def refused_cell(
    id: str,
    grid_key: str,
    matrix: str,
    row: str,
    col: str,
    typed: Any,
    refusal: str,
    shown: str = "",
    kept: str | None = None,
) -> Case:
    """A row of REFUSED_CELLS as a Case (refusal: empty, range, text or thousands)."""
    if refusal == "empty":
        expect = cell_empty(matrix, row, col)
    elif refusal == "range":
        expect = out_of_range(matrix, row, col, shown, kept)
    else:
        expect = not_a_number(matrix, row, col, shown, kept or "", refusal)
    return Case(id, grid_key.split(".")[0], typed_at(grid_key, row, col, typed), expect)


# Names in any script, and markup, in a record and in the query: shown as typed, as text
# (every Markdown/HTML character escaped in the message). (id, row, column, name, query, shown)
NAMES_AS_TEXT = [
    ("emoji name", 0, "key", "🙂😀", "🙂😀", "🙂😀 → Astrid"),
    ("right-to-left name", 1, "key", "محمد", "محمد", "محمد → Zachary"),
    ("<script> in a name", 1, "key", SCRIPT, SCRIPT, "\\<script\\>alert"),
    ("<img onerror> in a name", 1, "value", IMG, "Lipton", "\\<img src=x onerror=alert\\(1\\)\\>"),
]


def typed_name(row: int, column: str, name: str, query: str) -> Callable[[AppTest], None]:
    return both(grid("database.records", row, column, name), set_widget(database__query=query))


BAD_INPUTS = [
    # Luong explorer: the matrix grids.
    *(refused_cell(*row) for row in REFUSED_CELLS),
    # Text typed into a grid cell, as the browser sends it (the cells are text, read on the
    # server): numbers as people write them work; anything else keeps the previous value.
    Case(
        "decimal comma and the app's minus sign", "luong", grid("luong.Q", 0, "q1", "−0,5"), ok=True
    ),
    Case("scientific notation", "luong", grid("luong.Q", 0, "q1", "1e-3"), ok=True),
    Case("the app's own ×10^ notation", "luong", grid("luong.K", 0, "k3", "−1.5×10^−2"), ok=True),
    Case("the app's own raised notation", "luong", grid("luong.K", 0, "k3", "−1.5×10⁻²"), ok=True),
    Case("full-width digits and minus", "luong", grid("luong.V", 1, "k2", "－３．５"), ok=True),
    Case(
        "10,000 characters in a cell",
        "luong",
        grid("luong.Q", 0, "q1", "1" * 10_000),
        ("Q, cell (1, q1)", "too long to be a number", "keeps 2"),
    ),
    Case(
        "cleared W cell (general)",
        "luong",
        then(set_widget(luong__score="general"), grid("luong.W", 1, "2", None)),
        cell_empty("W", "2", "2"),
    ),
    Case("sizes at their minimum", "luong", set_widget(**SIZES), ok=True),
    Case("sizes at their maximum", "luong", set_widget(**MAX_SIZES), ok=True),
    # Beyond the limits only a crafted client can go; Streamlit resets such a value.
    Case(
        "size beyond the maximum (crafted)",
        "luong",
        set_widget(luong__size__m=10_000),
        ("m (keys = values)", "so it stays at 3"),  # kit/state/number_box.py names its bounds
    ),
    Case(
        "edit of a row the grid does not have (crafted)",
        "luong",
        grid("luong.Q", 99, "q1", 1.0),
        ("cannot hold",),
    ),
    Case(
        "rows deleted from a fixed grid (crafted)",
        "gallery",
        lambda at: delete_rows(at, "gallery.values", [0, 1, 2]),
        ("cannot hold",),
    ),
    Case(
        "edit of a record the table does not have (crafted)",
        "database",
        grid("database.records", 99, "key", "Li"),
        ("cannot hold",),
    ),
    # The page keeps d_q = d_k for dot; a tampered client can still send d_q ≠ d_k.
    Case(
        "mismatched sizes (dot, d_q ≠ d_k)",
        "luong",
        set_widget(luong__size__d_q=3, luong__size__d_k=2),
        ("Q has 3 rows", "K has 2 rows", "dot attention"),
    ),
    Case(
        "all keys masked",
        "luong",
        then(
            choose("selectbox", "luong.mask.kind", "cells"),
            both(*(grid("luong.mask.cells", i, f"q{j}", False) for i in range(3) for j in (1, 2))),
        ),
        (ENGLISH["engine.error.all_masked"].format(query=1),),
    ),
    # Database lookup: the records table and the query.
    Case(
        "empty records table",
        "database",
        delete_every_record,
        (en("database.check.empty_table"),),
        prior="database.query",
    ),
    Case(
        "empty table preset",
        "database",
        click("database.preset.empty"),
        (en("database.check.empty_table"),),
        prior="database.query",
    ),
    Case(
        "duplicate keys",
        "database",
        grid("database.records", 3, "key", "Zhang"),
        ("Zhang", "more than once"),
    ),
    Case(
        "10,000-character name",
        "database",
        grid("database.records", 1, "key", LONG_NAME),
        (
            en(
                "database.check.too_long",
                row=2,
                column=EN["database.table.key"],
                length=10_000,
                limit=100,
            ),
        ),
    ),
    Case(
        "name of 100 × U+FDFA (1800 characters normalised)",
        "database",
        grid("database.records", 1, "key", "\ufdfa" * 100),
        (
            en(
                "database.check.too_long",
                row=2,
                column=EN["database.table.key"],
                length=1800,
                limit=100,
            ),
        ),
    ),
    Case(
        "5,000 pasted rows",
        "database",
        lambda at: paste_below(at, "\n".join(f"k{i}\tv\t{i}" for i in range(5000))),
        ("records: the pasted block did not fit from cell (7, Surname (key))", "4956 rows"),
    ),
    Case(
        "numbers typed as people write them",
        "database",
        both(
            grid("database.records", 0, "number", "1e-3"),
            grid("database.records", 1, "number", "−0,5"),
        ),
        ok=True,
    ),
    Case(
        "cleared key",
        "database",
        grid("database.records", 2, "key", None),
        (en("database.check.empty_key", row=3),),
    ),
    Case(
        "number 1e308",
        "database",
        grid("database.records", 4, "number", 1e308),
        (en("database.check.number_range", row=5, value="1×10³⁰⁸", limit="1×10⁶"),),
    ),
    Case(
        "number -inf",
        "database",
        grid("database.records", 4, "number", -math.inf),
        (en("database.check.number_range", row=5, value="−∞", limit="1×10⁶"),),
    ),
    Case(
        "text in the number column",
        "database",
        grid("database.records", 5, "number", "abc"),
        ("records, cell (6, Number (optional))", "is not a number", "keeps 60 there"),
    ),
    # "qqq" shares no letter pair with any key: every similarity is 0, so is their sum.
    Case(
        "zero sum under divide-by-sum",
        "database",
        then(
            both(
                choose("text_input", "database.query", "qqq"),
                choose("radio", "database.similarity", "ngram"),
            ),
            choose("radio", "database.normalization", "sum"),
        ),
        ("every score of query 1", "“qqq”", "0/0"),
        prior="database.records",
    ),
    Case(
        "empty query",
        "database",
        set_widget(database__query=""),
        (en("database.query.empty"),),
        prior="database.records",
    ),
    # The query box holds at most 400 characters (the browser stops there); the page uses 100.
    Case(
        "10,000-character query",
        "database",
        set_widget(database__query=LONG_NAME),
        ("Query 1 is", "only the first 100 are used"),
        prior="database.records",
    ),
    *(
        Case(id, "database", typed_name(row, column, name, query), (shown,), ok=True)
        for id, row, column, name, query, shown in NAMES_AS_TEXT
    ),
    # Weights gallery: values and the query under divide-by-sum.
    Case(
        "zero sum (q = 0) under divide-by-sum",
        "gallery",
        both(
            choose("radio", "gallery.normalization", "sum"),
            choose("slider", "gallery.q1", 0.0),
            choose("slider", "gallery.q2", 0.0),
        ),
        (ENGLISH["engine.error.zero_sum"].format(query=1),),
        prior="gallery.values",
    ),
    Case(
        "negative scores under divide-by-sum",
        "gallery",
        both(
            choose("radio", "gallery.normalization", "sum"),
            choose("slider", "gallery.q1", -1.0),
            choose("slider", "gallery.q2", -1.0),
        ),
        ("Divide-by-sum normalization needs non-negative scores", "key 1 for query 1"),
        prior="gallery.values",
    ),
    # Exercises: the search engine's settings and the Squeeze-and-Excitation feature map.
    Case(
        "learning rate 0",
        "exercises",
        set_widget(exercises__section="search", exercises__search__rate=0.0),
        ("The learning rate must be a positive finite number",),
    ),
    Case(
        "learning rate 1e6",
        "exercises",
        set_widget(exercises__section="search", exercises__search__rate=1e6),
        ("more than this page allows (100)", "at most 100"),
    ),
    Case(
        "10,000 gradient steps",
        "exercises",
        set_widget(exercises__section="search", exercises__search__steps=10_000),
        (en("exercises.search.capped", requested=10_000, cap=200),),
    ),
    Case(
        "empty feature map",
        "exercises",
        set_widget(exercises__section="se", exercises__se__channels=0),
        ("X is empty",),
    ),
    Case(
        "NaN in the feature map",
        "exercises",
        both(set_widget(exercises__section="se"), grid("exercises.se.X", 1, "p2", math.nan)),
        cell_empty("X", "c2", "p2"),
    ),
    Case(
        "borrowed queries that are all blank, in the address",
        "gallery",
        nothing,
        ok=True,
        query={"v": "1", "grid": "database", "lq": "i1ZSigUA"},
    ),
    # Nadaraya–Watson regression: the training table and σ.
    Case(
        "empty training table",
        "regression",
        lambda at: delete_rows(
            at,
            "regression.points",
            list(range(len(current_points("regression.points", at.session_state)))),
        ),
        (en("regression.check.no_points"),),
        prior="regression.sigma",
    ),
    Case(
        "an edit of a row the training table does not have (crafted)",
        "regression",
        grid("regression.points", 99, "x", 1.0),
        ("cannot hold",),
    ),
    Case(
        "a paste of 2,000 training rows",
        "regression",
        lambda at: paste_block(
            at,
            "regression.points",
            (len(current_points("regression.points", at.session_state)) - 1, 0),
            "\n".join(f"{float(i % 50)}\t1" for i in range(2000)),
        ),
        ("training data: the pasted block did not fit", "rows of it were left out"),
        prior="regression.sigma",
    ),
    Case(
        "text in a training cell",
        "regression",
        grid("regression.points", 2, "y", "abc"),
        ("training data, cell (3, y (value))", "is not a number"),
    ),
    Case(
        "NaN in a training cell",
        "regression",
        grid("regression.points", 4, "x", math.nan),
        ("Training data, row 5, column x",),
    ),
    Case(
        "infinite x",
        "regression",
        grid("regression.points", 1, "x", math.inf),
        ("Training data, row 2, column x", "∞", "outside"),
    ),
    Case(
        "duplicate x",
        "regression",
        grid("regression.points", 3, "x", FIRST_X),
        ("Repeated x (allowed)",),
        ok=True,
    ),
    Case(
        "10⁶ as σ",
        "regression",
        set_widget(regression__sigma=1e6),
        ("σ = 1000000 cannot be used", "0.001", "1000"),
    ),
    Case("σ = 0", "regression", set_widget(regression__sigma=0.0), ("σ = 0 cannot be used",)),
    Case(
        "NaN as σ",
        "regression",
        set_widget(regression__sigma=math.nan),
        ("Bandwidth σ", "so it stays at 0.5"),  # the box keeps its value and says so
    ),
    # Self-attention and multi-head: the sentence, the heads, the grids.
    Case(
        "0 tokens",
        "transformer",
        set_widget(transformer__sentence=""),
        (en("transformer.sentence.no_tokens", low=2, high=12),),
    ),
    Case(
        "1 token",
        "transformer",
        set_widget(transformer__sentence="hello"),
        (en("transformer.sentence.too_few", count=1, low=2),),
    ),
    Case(
        "50 tokens",
        "transformer",
        set_widget(transformer__sentence=" ".join(["w"] * 50)),
        (en("transformer.sentence.too_many", count=50, high=12),),
    ),
    Case(
        "20 Japanese words",
        "transformer",
        set_widget(transformer__sentence="猫と" * 10),
        (en("transformer.sentence.too_many", count=20, high=12),),
    ),
    Case(
        "a 20-character token",
        "transformer",
        set_widget(transformer__sentence="a " + "x" * 20),
        (en("transformer.sentence.token_too_long", index=2, token="x" * 20, length=20, limit=12),),
    ),
    Case(
        "h = 3 with d_model = 8",
        "transformer",
        set_widget(transformer__d_model=8, transformer__heads=3),
        (en("transformer.heads_not_dividing", heads=3, d_model=8, choices="1, 2, 4, 8"),),
        prior="transformer.causal",
    ),
    Case(
        "d_model at its limits with h = d_model",
        "transformer",
        set_widget(transformer__d_model=8, transformer__heads=8),
        ok=True,
        prior="transformer.causal",
    ),
    Case(
        "<script> as a token",
        "transformer",
        set_widget(transformer__sentence=f"{SCRIPT[:8]} {IMG[:10]}"),
        ok=True,
    ),
    # Watch attention learn: the steps beyond the bound, a token the task does not have.
    Case(
        "10,000 training steps",
        "train",
        set_widget(train__steps=10_000),
        (en("train.bounds.steps", steps="10000", high="3000"),),
    ),
    Case(
        "a typed token the task does not have",
        "train",
        typed_after_training("reverse", "1 2 <b>x</b> 4 5 6"),
        (en("train.input.unknown", number=3, token="\\<b\\>x\\</b\\>"),),
    ),
    Case(
        "a step count beyond the bound in the address",
        "train",
        nothing,
        ("steps",),
        query={"steps": "99999", "trained": "1"},
    ),
    # The address: malformed or oversized query parameters.
    Case("unknown language", "home", nothing, ("xx",), query={"lang": "xx"}),
    Case("10,000-character language", "home", nothing, ("xxxx",), query={"lang": LONG_NAME}),
    Case("<script> as the language", "home", nothing, ("\\<script\\>",), query={"lang": SCRIPT}),
    Case(
        "a path as the language",
        "home",
        nothing,
        ("etc/passwd", "showing English"),
        query={"lang": "../../etc/passwd"},
    ),
    Case(
        "a right-to-left override in the language",
        "home",
        nothing,
        ("“abc”",),
        query={"lang": "\u202eabc\u0007"},
    ),
    Case("empty language", "home", nothing, ok=True, query={"lang": ""}),
    Case(
        "unknown parameter",
        "luong",
        nothing,
        ("could not be read", "<b\\>"),
        query={"<b>": "<b>bar</b>", "lang": "en"},
    ),
]


def messages(at: AppTest) -> list[str]:
    return [
        element.value
        for kind in ("error", "warning", "info", "success")
        for element in getattr(at, kind)
    ]


def prior_for(case: Case) -> Prior:
    return PRIOR_EDITS[
        case.prior
        or {"database": "database.records", "gallery": "gallery.query"}.get(case.page, case.page)
    ]


def test_the_table_is_big_enough_and_reaches_every_page():
    assert len(BAD_INPUTS) >= 25
    assert len({case.id for case in BAD_INPUTS}) == len(BAD_INPUTS)
    assert {case.page for case in BAD_INPUTS} == set(NAMES)


@pytest.mark.parametrize("case", BAD_INPUTS, ids=lambda case: case.id)
def test_bad_input_gets_a_message_and_keeps_other_edits(case):
    at = AppTest.from_file(str(APP), default_timeout=30)
    for name, value in case.query.items():
        at.query_params[name] = value
    at.switch_page(f"pages/{case.page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    prior = prior_for(case)
    if case.query:  # the address was the bad input: check its message, then keep working
        check_outcome(at, case, [])
        prior.make(at)
        at.run()
        assert not at.exception and prior.kept(at)
        return

    prior.make(at)
    at.run()
    assert prior.kept(at), "the earlier edit did not take"
    shown_before = messages(at)
    case.bad(at)
    at.run()
    check_outcome(at, case, shown_before)
    assert prior.kept(at), "the learner's earlier edit was lost"


def check_outcome(at: AppTest, case: Case, shown_before: list[str]) -> None:
    assert not at.exception, [e.value for e in at.exception]
    shown = messages(at)
    assert not any("Traceback" in text for text in shown)
    if case.ok:
        assert not at.error, [e.value for e in at.error]
        new_warnings = [w.value for w in at.warning if w.value not in shown_before]
        assert not new_warnings, new_warnings
        assert charts(at), "nothing was drawn"
    if case.expect:
        naming = [text for text in shown if all(fragment in text for fragment in case.expect)]
        assert naming, f"no message names {case.expect}: {shown}"
        assert any(text not in shown_before for text in naming), "the message was there before"
