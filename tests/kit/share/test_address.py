"""The shareable address: every page's state → the address → a fresh session shows the same
charts (Plotly JSON compared), and a bad address never shows a traceback."""

from __future__ import annotations

import json
from collections.abc import Callable

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_ui.kit.grids.matrix_editor import matrix_values
from attention_ui.kit.grids.records_editor import current_records
from attention_ui.kit.share.address import APP_NAME, read_state_file
from attention_ui.kit.share.codec import pack
from attention_ui.kit.text.i18n import catalog
from attention_ui.transformer.model import EXAMPLES, split_sentence
from tests.conftest import APP
from tests.plotly_json import charts
from tests.support.grids import type_cell

Action = Callable[[AppTest], None]


def session(page: str, params: dict[str, str] | None = None, lang: str = "en") -> AppTest:
    """A new session opening /<page>?<params>, as a pasted address does."""
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.query_params["lang"] = lang
    for name, value in (params or {}).items():
        at.query_params[name] = value
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def screen(at: AppTest) -> list[dict]:
    """Every chart's Plotly JSON, in order (the numbers, labels and hovers on screen)."""
    return [json.loads(chart.proto.spec) for chart in charts(at)]


def cell(state_key: str, row: int, column: str, value) -> Action:
    def act(at: AppTest) -> None:
        type_cell(at, state_key, row, column, value)

    return act


def widget(key: str, value) -> Action:
    def act(at: AppTest) -> None:
        at.session_state[key] = value

    return act


def click(key: str) -> Action:
    return lambda at: at.button(key=key).click()


def tab(name: str) -> Action:
    def act(at: AppTest) -> None:
        at.session_state["luong.tab"] = catalog("en")[f"luong.tabs.{name}"]

    return act


STATES: dict[str, tuple[str, str, list[Action]]] = {
    "luong default": ("luong", "en", []),
    "luong rotation preset, ja": ("luong", "ja", [widget("luong.preset", "rotation")]),
    "luong random seed 7 at 3x4": (
        "luong",
        "en",
        [
            widget("luong.size.n", 3),
            widget("luong.size.m", 4),
            widget("luong.preset", "random"),
            widget("luong.seed", 7),
        ],
    ),
    "luong scaled dot, the softmax step picked": (
        "luong",
        "en",
        [widget("luong.score", "scaled_dot"), widget("luong.steps.open", "weights_softmax")],
    ),
    "luong edited cells, row layout, general, tau": (
        "luong",
        "en",
        [
            widget("luong.layout", "row"),
            widget("luong.score", "general"),
            widget("luong.tau", 0.5),
            cell("luong.Q", 0, "1", -2.5),
            cell("luong.W", 1, "2", 3.25),
        ],
    ),
    "luong causal preset, compare tab": (
        "luong",
        "en",
        [widget("luong.preset", "causal"), tab("compare")],
    ),
    "luong per-cell mask, follow tab": (
        "luong",
        "ja",
        [
            widget("luong.mask.kind", "cells"),
            cell("luong.mask.cells", 0, "q1", False),
            tab("follow"),
            widget("luong.follow.key", 1),
        ],
    ),
    "database default": ("database", "en", []),
    "database story step 3": ("database", "ja", [click("database.story.3")]),
    "database edited table and queries": (
        "database",
        "en",
        [
            click("database.preset.ja"),
            cell("database.records", 0, "value", "<b>次郎</b>"),
            widget("database.query", "山田, 田中"),
            widget("database.similarity", "ngram"),
            widget("database.temperature", 0.5),
            widget("database.normalization", "sum"),
        ],
    ),
    "gallery default": ("gallery", "en", []),
    "gallery around the origin, query, m": (
        "gallery",
        "en",
        [
            click("gallery.preset.around_origin"),
            widget("gallery.q1", -1.5),
            widget("gallery.temperature", 0.2),
            cell("gallery.cone", 0, "v2", -0.5),
        ],
    ),
    "gallery grid of the database's records": (
        "gallery",
        "ja",
        [
            widget("gallery.grid.source", "database"),
            widget("gallery.grid.temperatures", [0.1, 10.0]),
        ],
    ),
    "home query": ("home", "ja", [widget("home.q1", -1.0), widget("home.q2", 2.5)]),
    "regression default": ("regression", "en", []),
    "regression boxcar, sigma, edited point": (
        "regression",
        "ja",
        [
            widget("regression.kernel", "boxcar"),
            widget("regression.sigma", 1.5),
            cell("regression.points", 0, "y", 2.25),
        ],
    ),
    "transformer default": ("transformer", "en", []),
    "transformer edited X and W_O cells, one head in detail": (
        "transformer",
        "en",
        [
            cell("transformer.X", 1, "2", -2.5),
            cell("transformer.W_O", 0, "1", 3.25),
            widget("transformer.detail", True),
            widget("transformer.detail.head", 1),
        ],
    ),
    "transformer h=1 with identity weights": (
        "transformer",
        "en",
        [click("transformer.identity")],
    ),
    "transformer causal, positions, seed 5, d_model 6, h=3": (
        "transformer",
        "en",
        [
            widget("transformer.d_model", 6),
            widget("transformer.heads", 3),
            widget("transformer.seed", 5),
            widget("transformer.causal", True),
            widget("transformer.positions", True),
        ],
    ),
    "transformer Japanese sentence, edited X": (
        "transformer",
        "ja",
        [click("transformer.example.ja"), cell("transformer.X", 0, "1", 1.5)],
    ),
    "exercises gradient section": (
        "exercises",
        "en",
        [widget("exercises.section", "grad"), widget("exercises.grad.q1", -0.5)],
    ),
}


@pytest.mark.parametrize("name", sorted(STATES))
def test_the_address_opens_the_same_page_in_a_fresh_session(name):
    page, lang, actions = STATES[name]
    a = session(page, lang=lang)
    for act in actions:
        act(a)
        a.run()
        assert not a.exception, [e.value for e in a.exception]
    address = dict(a.query_params)
    assert address["v"] == "1" and address["lang"] == lang
    b = session(page, address, lang=lang)
    assert screen(b) == screen(a)
    assert dict(b.query_params) == address  # the address stays as it was
    assert not b.sidebar.warning  # every parameter was read
    if page == "luong":
        assert b.session_state["luong.tab"] == a.session_state["luong.tab"]
        step = "luong.steps.open"  # the picked step, while its tab is closed too
        picked = [at.session_state[step] for at in (a, b)]  # kept by Streamlit
        assert picked[0] == picked[1]


def test_an_edit_made_on_the_luong_page_reaches_the_gallerys_shared_grid():
    a = session("luong")
    cell("luong.K", 1, "k2", 4.0)(a)
    a.run()
    a.switch_page("pages/gallery.py").run()
    address = dict(a.query_params)
    assert "lQ" in address and "lK" in address
    b = session("gallery", address)
    assert screen(b) == screen(a)


def test_a_luong_grid_edit_updates_the_address_and_the_open_share_box():
    """The Luong grids rerun alone (an st.fragment): the address, and the link, follow."""
    at = open_share_box(session("luong"))
    cell("luong.K", 0, "k1", 6.5)(at)
    at.run()
    assert at.query_params["K"].startswith("6.5_")
    assert "K=6.5_" in at.sidebar.code[0].value


def test_the_address_follows_every_edit_without_a_save_step():
    at = session("gallery")
    cell("gallery.values", 0, "x", -0.75)(at)
    at.run()
    assert at.query_params["V"].startswith("-0.75_0.5~")


def test_a_reload_keeps_an_edit_hidden_by_the_preset_buttons_untouched():
    at = session("luong")
    cell("luong.Q", 1, "q2", 9.0)(at)
    at.run()
    reloaded = session("luong", dict(at.query_params))
    assert matrix_values("luong.Q", reloaded.session_state)[1, 1] == 9.0


def open_share_box(at: AppTest) -> AppTest:
    at.session_state["share.box"] = True
    at.run()
    assert not at.exception
    return at


def test_the_copy_link_is_the_address_in_a_code_block():
    at = open_share_box(session("luong"))
    link = at.sidebar.code[0].value
    assert link.startswith("/luong?lang=en&v=1&preset=first")


# --- Bad addresses: a message, the defaults, never a traceback ------------------------------

BAD_ADDRESSES = [
    ("luong", {"v": "1", "n": "abc"}, "n"),
    ("luong", {"v": "1", "n": "0"}, "n"),
    ("luong", {"v": "1", "score": "softmax"}, "score"),
    ("luong", {"v": "1", "tau": "1e308"}, "tau"),
    ("luong", {"v": "1", "Q": "1_2~3"}, "Q"),
    ("luong", {"v": "1", "Q": "1e308_0~0_1"}, None),  # read: the grid names the cell
    ("luong", {"v": "1", "preset": "__import__('os')"}, "preset"),
    ("luong", {"v": "1", "mc": "2~x"}, "mc"),
    ("luong", {"v": "1", "seed": "-1"}, "seed"),
    ("luong", {"v": "1", "fk": "7", "m": "2"}, None),  # a followed key the grid lacks
    ("luong", {"v": "1", "dq": "3", "dk": "2", "score": "dot"}, None),  # sizes dot refuses
    ("luong", {"v": "1", "Q": "1_0~0_1", "n": "5"}, "Q"),  # a matrix smaller than its sizes
    ("luong", {"v": "1", "K": "1_0~0_1~1_1~0_0"}, "K"),  # larger
    ("database", {"v": "1", "db": "!!!"}, "db"),
    ("database", {"v": "1", "db": pack([["a", "b", "c", "d"]])}, "db"),
    ("database", {"v": "1", "q": "x" * 401}, "q"),
    ("database", {"v": "1", "step": "9"}, "step"),
    ("gallery", {"v": "1", "m": "9"}, "m"),
    ("gallery", {"v": "1", "q1": "4"}, "q1"),
    ("gallery", {"v": "1", "V": "1_2_3~4_5_6"}, "V"),
    ("gallery", {"v": "1", "taus": "0.3"}, "taus"),
    ("gallery", {"v": "1", "lQ": "1_0~0_1", "lK": "1_2_3"}, None),  # Q and K do not fit
    ("home", {"v": "1", "q1": "nan"}, "q1"),
    ("home", {"v": "2", "q1": "1"}, "newer"),
    ("luong", {"v": "1", **{f"x{i}": "1" for i in range(80)}}, "x0"),
    ("transformer", {"v": "1", "d": "99"}, "d"),
    ("transformer", {"v": "1", "h": "abc", "causal": "2"}, "h"),
    ("transformer", {"v": "1", "WQ": "1_x~0_1"}, "WQ"),
    ("transformer", {"v": "1", "text": "x" * 201}, "text"),
    ("transformer", {"v": "1", "X": "1_2~3_4"}, "X"),  # X of another shape: seeded, and said
    ("transformer", {"v": "1", "d": "2", "WO": "1_0_0~0_1_0~0_0_1"}, "WO"),  # W_O is 3 × 3
    ("exercises", {"v": "1", "section": "se", "se_X": "1_2~3_4"}, "se_X"),  # X is 3 × 4
    (
        "exercises",
        {"v": "1", "section": "search", "search_m": "2", "search_keys": "1~2"},
        "search_keys",
    ),
    ("gallery", {"v": "1", "m": "2", "V": "1_0~0_1~1_1"}, "V"),  # three rows for m = 2
    ("transformer", {"v": "1", "h": "3"}, None),  # h not dividing d_model: the page says so
]


@pytest.mark.parametrize(
    ("page", "params", "named"),
    BAD_ADDRESSES,
    ids=[f"{p}-{str(q)[:50]}" for p, q, _ in BAD_ADDRESSES],
)
def test_a_bad_address_opens_the_page_with_a_sentence_and_no_traceback(page, params, named):
    at = session(page, params)
    assert (at.title and charts(at)) or at.error, "the page was drawn"
    warnings = [w.value for w in at.sidebar.warning]
    if named == "newer":
        assert any("newer version" in w for w in warnings)
    elif named is not None:
        assert len(warnings) == 1 and named in warnings[0].replace("\\", ""), warnings
    at.run()  # and keeps working
    assert not at.exception


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_transformer_grid_of_the_wrong_shape_is_seeded_afresh_and_said(lang):
    """d_model 6 and h 3 are used; X (2 × 2) and W_K (4 × 4) do not fit them: both are drawn
    from the seed, as without them, and one sentence names them; the edited W_O is kept."""
    kept = {"v": "1", "d": "6", "h": "3", "seed": "5"}
    w_o = "_".join(["0.5"] * 6)
    fitting = session("transformer", {**kept, "WO": "~".join([w_o] * 6)}, lang)
    at = session(
        "transformer", {**kept, "WO": "~".join([w_o] * 6), "X": "1_2~3_4", "WK": pack_grid(4)}, lang
    )
    warnings = [w.value.replace("\\", "") for w in at.sidebar.warning]
    sentence = catalog(lang)["share.wrong_shape_address"]
    assert warnings == [sentence.format(names="X, WK")]
    assert screen(at) == screen(fitting)
    n = len(split_sentence(EXAMPLES[lang]).tokens)  # each language opens on its example
    assert matrix_values("transformer.X", at.session_state).shape == (n, 6)
    assert np.all(matrix_values("transformer.W_O", at.session_state) == 0.5)
    assert not fitting.sidebar.warning


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_luong_grid_of_the_wrong_shape_is_left_out_and_said(lang):
    """n = 3: Q is d_q × n = 2 × 3 in column layout and 3 × 2 in row layout. A 2 × 3 Q fits
    the first; in the second it is left out (the example's Q is drawn), and one sentence names
    it, instead of a cropped or padded Q the learner never wrote."""
    params = {"v": "1", "n": "3", "Q": "1_2_3~4_5_6"}
    column = session("luong", params, lang)
    assert not column.sidebar.warning
    np.testing.assert_array_equal(
        matrix_values("luong.Q", column.session_state), [[1, 2, 3], [4, 5, 6]]
    )
    row = session("luong", {**params, "layout": "row"}, lang)
    fitting = session("luong", {"v": "1", "n": "3", "layout": "row"}, lang)
    sentence = catalog(lang)["share.wrong_shape_address"]
    assert [w.value.replace("\\", "") for w in row.sidebar.warning] == [sentence.format(names="Q")]
    assert screen(row) == screen(fitting)
    assert matrix_values("luong.Q", row.session_state).shape == (3, 2)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("xy", ["9", "1~2~3", "99999999999999999999"])
def test_a_regression_table_without_its_y_column_is_left_out_and_said(lang, xy):
    """The training table's rows are (x, y): an address whose table has one column is not
    read (it raised ValueError while storing the points), the default points are drawn and
    the notice names the table."""
    at = session("regression", {"v": "1", "xy": xy}, lang)
    assert not at.exception, [e.value for e in at.exception]
    fitting = session("regression", {"v": "1"}, lang)
    sentence = catalog(lang)["share.ignored_address"]
    assert [w.value.replace("\\", "") for w in at.sidebar.warning] == [sentence.format(names="xy")]
    assert screen(at) == screen(fitting)


def pack_grid(size: int) -> str:
    """An identity grid in the address's matrix format."""
    return "~".join("_".join("1" if i == j else "0" for j in range(size)) for i in range(size))


def test_a_bad_address_parameter_leaves_the_good_ones_in_use():
    at = session("luong", {"v": "1", "preset": "rotation", "tau": "bogus", "layout": "row"})
    assert at.radio(key="luong.layout").value == "row"
    assert at.selectbox(key="luong.preset").value == "rotation"


# --- State files ----------------------------------------------------------------------------


def state_document(page: str = "luong", **state) -> bytes:
    return json.dumps({"app": APP_NAME, "v": 1, "page": page, "state": state}).encode()


BAD_FILES = [
    b"",
    b"\xff\xfe not utf-8",
    b"{not json",
    b"[1, 2, 3]",
    b'{"app": "something else", "v": 1, "page": "luong", "state": {}}',
    b'{"app": "attention-explorer", "v": 1, "page": "../../etc", "state": {}}',
    b'{"app": "attention-explorer", "v": 1, "page": "luong", "state": [1]}',
    b'{"app": "attention-explorer", "v": 1, "page": "luong", "state": {"n": NaN}}'[:40],
    b"[" * 100_000,
    b'{"app": "attention-explorer", "v": 1, "page": "luong", "state": {"n": "2"}}' + b" " * 300_000,
]


@pytest.mark.parametrize("data", BAD_FILES, ids=range(len(BAD_FILES)))
def test_a_bad_state_file_is_refused_without_an_exception(data):
    assert read_state_file(data) is None


def test_a_state_file_with_bad_entries_keeps_the_good_ones():
    page, params, skipped = read_state_file(state_document(n=3, m="4", score="<b>"))
    assert page == "luong" and params["m"] == "4" and skipped == ["n"]


def test_the_downloaded_file_is_the_addresss_state():
    at = open_share_box(session("gallery"))
    cell("gallery.values", 0, "x", -0.75)(at)
    at.run()
    data = at.sidebar.get("download_button")[0].proto
    assert data is not None
    address = dict(at.query_params)
    page, params, skipped = read_state_file(
        state_document("gallery", **{k: v for k, v in address.items() if k not in ("v", "lang")})
    )
    assert page == "gallery" and not skipped and params["V"] == address["V"]
    assert np.isclose(float(params["V"].split("_")[0]), -0.75)
    assert current_records("database.records", at.session_state) is None


# --- "Open a JSON file": the uploader in the Share box, through AppTest ----------------------


def upload(at: AppTest, data: bytes, name: str = "state.json") -> AppTest:
    """The learner picks a file in the Share box's "Open a JSON file" uploader."""
    uploaders = at.sidebar.get("file_uploader")
    assert len(uploaders) == 1, "the Share box shows one uploader"
    uploaders[0].upload(name, data, "application/json")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def edited_transformer() -> AppTest:
    at = session("transformer")
    cell("transformer.W_Q", 0, "1", -3.5)(at)
    at.run()
    widget("transformer.causal", True)(at)
    at.run()
    return at


def test_opening_a_state_file_shows_the_page_it_was_saved_from():
    saved = edited_transformer()
    address = dict(saved.query_params)
    document = state_document(
        "transformer", **{k: v for k, v in address.items() if k not in ("v", "lang")}
    )
    at = upload(open_share_box(session("transformer")), document)
    assert screen(at) == screen(saved)
    assert dict(at.query_params) == address
    assert not at.sidebar.warning


@pytest.mark.parametrize(
    "data",
    [
        b'{"app": "attention-explorer", "v": 1, "page": "transformer", "state": {"h": ',
        state_document("transformer", h="1") + b" " * 300_000,
    ],
    ids=["bad JSON", "oversized"],
)
def test_a_bad_or_oversized_state_file_says_so_and_keeps_the_current_state(data):
    at = open_share_box(edited_transformer())
    before, address = screen(at), dict(at.query_params)
    upload(at, data)
    warnings = [w.value for w in at.sidebar.warning]
    assert warnings == [catalog("en")["share.bad_file"].format(limit=200)]
    assert screen(at) == before and dict(at.query_params) == address
