"""The Luong explorer through AppTest: every setting shows what attention_core computes for the
inputs on screen, edits change it, and bad input gives a message, never a traceback."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_core import attention
from attention_core.attention import SCORES
from attention_core.formatting import fmt
from attention_ui.kit.grids.number_text import read_number
from attention_ui.kit.text.i18n import catalog, step_sentence, step_title
from attention_ui.luong.model import Sizes, causal_mask, default_parameters, padding_mask
from attention_ui.luong.presets import PRESETS, random_matrices
from tests.conftest import open_app_page
from tests.plotly_json import chart, charts
from tests.support.grids import edit_grid, shown_grids

FIRST = PRESETS["first"].column_matrices()  # the page's default: dot, d = 2, n = 2, m = 3
PRESET_WHY = {key: catalog("en")[f"luong.preset.{key}.why"] for key in PRESETS}


@pytest.fixture
def at() -> AppTest:
    return open_app_page("luong")


def z(app: AppTest, key: str) -> np.ndarray:
    return np.array(chart(app, key)["data"][0]["z"], dtype=float)


def assert_shows(app: AppTest, expected) -> None:
    """S, A and O on screen are the engine's scores, weights and output."""
    assert not app.exception
    assert not app.error, [e.value for e in app.error]
    np.testing.assert_allclose(z(app, "luong.chart.S"), expected.scores, rtol=1e-12)
    np.testing.assert_allclose(z(app, "luong.chart.A"), expected.weights, rtol=1e-12)
    np.testing.assert_allclose(z(app, "luong.chart.O"), expected.output, rtol=1e-12)


def edit(app: AppTest, name: str, changes: dict) -> None:
    """Simulate typing into grid `name`: {row position: {column label: value}}."""
    edit_grid(app, f"luong.{name}", changes)


def open_tab(app: AppTest, label: str) -> None:
    """Open a tab as a click would (only the open tab is drawn)."""
    app.session_state["luong.tab"] = label
    app.run()
    assert not app.exception


def compare_charts(app: AppTest) -> set[str]:
    return {c.proto.id.rsplit("-", 1)[1] for c in charts(app) if ".compare." in c.proto.id}


def errors(app: AppTest) -> str:
    """The error boxes' text, with Markdown's escaping undone."""
    return "\n".join(e.value for e in app.error).replace("\\", "")


def test_page_opens_on_the_first_example_with_the_engines_numbers(at):
    assert at.title[0].value == "Luong explorer"
    assert_shows(at, attention(FIRST["Q"], FIRST["K"], FIRST["V"], "dot"))
    assert "q1: 1 · q2: 1" in " ".join(m.value for m in at.markdown)


def test_each_score_shows_what_the_engine_computes(at):
    params = default_parameters(Sizes(2, 2, 2, 2, 3, 2))
    open_tab(at, "Compare score functions")
    for score in SCORES:
        at.selectbox(key="luong.score").set_value(score).run()
        kwargs = {
            "general": {"W": params["W"]},
            "concat": {"Wa": params["Wa_concat"], "va": params["va"].reshape(-1)},
            "location": {"Wa": params["Wa_location"]},
        }.get(score, {})
        assert_shows(at, attention(FIRST["Q"], FIRST["K"], FIRST["V"], score, **kwargs))
        assert len(compare_charts(at)) == 5


def test_row_layout_transposes_inputs_and_results(at):
    at.radio(key="luong.layout").set_value("row").run()
    expected = attention(FIRST["Q"].T, FIRST["K"].T, FIRST["V"].T, "dot", layout="row")
    assert_shows(at, expected)
    np.testing.assert_allclose(
        z(at, "luong.chart.A"), attention(FIRST["Q"], FIRST["K"], FIRST["V"]).weights.T
    )
    q_grid = shown_grids(at)[0]
    assert list(q_grid.index) == ["q1", "q2"] and list(q_grid.columns) == ["1", "2"]
    shown = [[read_number(text) for text in row] for row in q_grid.to_numpy()]
    np.testing.assert_array_equal(shown, FIRST["Q"].T)
    weights = chart(at, "luong.chart.A")["data"][0]
    assert list(weights["x"]) == ["k1", "k2", "k3"] and list(weights["y"]) == ["q1", "q2"]


def test_switching_layout_carries_the_learners_edits_along(at):
    edit(at, "Q", {1: {"q2": 7.0}})  # row "2", column q2
    at.run()
    at.radio(key="luong.layout").set_value("row").run()
    Q = FIRST["Q"].copy()
    Q[1, 1] = 7.0
    assert_shows(at, attention(Q.T, FIRST["K"].T, FIRST["V"].T, layout="row"))
    at.radio(key="luong.layout").set_value("column").run()
    assert_shows(at, attention(Q, FIRST["K"], FIRST["V"]))


def test_temperature_divides_the_scores(at):
    for tau in (0.05, 20.0):
        at.select_slider(key="luong.tau").set_value(tau).run()
        assert_shows(at, attention(FIRST["Q"], FIRST["K"], FIRST["V"], temperature=tau))


def test_causal_and_padding_masks_zero_the_hidden_weights(at):
    at.selectbox(key="luong.mask.kind").set_value("causal").run()
    assert_shows(at, attention(FIRST["Q"], FIRST["K"], FIRST["V"], mask=causal_mask(3, 2)))
    assert "m ≠ n" in " ".join(c.value for c in at.caption)
    at.selectbox(key="luong.mask.kind").set_value("padding").run()
    at.number_input(key="luong.mask.length").set_value(2).run()
    expected = attention(FIRST["Q"], FIRST["K"], FIRST["V"], mask=padding_mask(3, 2, 2))
    assert_shows(at, expected)
    assert (z(at, "luong.chart.A")[2] == 0).all()


def test_per_cell_mask_hides_the_unticked_pair(at):
    at.selectbox(key="luong.mask.kind").set_value("cells").run()
    edit(at, "mask.cells", {0: {"q1": False}})  # hide k1 from q1
    at.run()
    mask = np.ones((3, 2), dtype=bool)
    mask[0, 0] = False
    assert_shows(at, attention(FIRST["Q"], FIRST["K"], FIRST["V"], mask=mask))
    assert z(at, "luong.chart.A")[0, 0] == 0


def test_each_preset_replaces_every_grid_and_shows_its_story(at):
    for key, preset in [*list(PRESETS.items())[1:], ("first", PRESETS["first"])]:
        edit(at, "Q", {0: {"q1": 9.0}})  # an edit the preset must replace
        at.selectbox(key="luong.preset").set_value(key).run()
        m = preset.column_matrices()
        kwargs = {
            "general": {"W": m["W"]},
            "concat": {"Wa": m["Wa_concat"], "va": m["va"][0]},
            "location": {"Wa": m["Wa_location"]},
        }.get(preset.score, {})
        mask = causal_mask(preset.sizes.m, preset.sizes.n) if preset.mask == "causal" else None
        assert_shows(at, attention(m["Q"], m["K"], m["V"], preset.score, mask=mask, **kwargs))
        assert at.selectbox(key="luong.score").value == preset.score
        assert at.number_input(key="luong.size.m").value == preset.sizes.m
        assert at.info[0].value == PRESET_WHY[key]


def test_a_presets_story_gives_way_to_a_note_once_the_numbers_no_longer_bear_it_out(at):
    """The first example says q1 takes mostly k1's value: with concat, q1 picks k2."""
    assert at.info[0].value == PRESET_WHY["first"]
    at.selectbox(key="luong.score").set_value("concat").run()
    note = catalog("en")["luong.preset.changed"].format(
        name=catalog("en")["luong.preset.first.name"]
    )
    assert at.info[0].value == note
    at.selectbox(key="luong.score").set_value("dot").run()
    assert at.info[0].value == PRESET_WHY["first"]


def test_random_preset_uses_the_visible_seed_and_reset_undoes_edits(at):
    at.selectbox(key="luong.preset").set_value("random").run()
    sizes = Sizes(2, 2, 2, 2, 3, 2)
    m = random_matrices(sizes, 0)
    assert_shows(at, attention(m["Q"], m["K"], m["V"]))
    at.number_input(key="luong.seed").set_value(42).run()
    m = random_matrices(sizes, 42)
    assert_shows(at, attention(m["Q"], m["K"], m["V"]))
    edit(at, "V", {0: {"k1": 5.0}})
    at.run()
    assert z(at, "luong.chart.O")[0, 0] != attention(m["Q"], m["K"], m["V"]).output[0, 0]
    at.button(key="luong.reset").click().run()
    assert_shows(at, attention(m["Q"], m["K"], m["V"]))


def test_a_cell_edit_changes_the_output(at):
    edit(at, "Q", {0: {"q1": -3.0}})
    at.run()
    Q = FIRST["Q"].copy()
    Q[0, 0] = -3.0
    assert_shows(at, attention(Q, FIRST["K"], FIRST["V"]))
    assert not np.allclose(
        z(at, "luong.chart.A"), attention(FIRST["Q"], FIRST["K"], FIRST["V"]).weights
    )


def test_resizing_keeps_what_fits_and_dot_keeps_d_q_equal_to_d_k(at):
    at.number_input(key="luong.size.n").set_value(3).run()
    Q = np.hstack([FIRST["Q"], np.zeros((2, 1))])
    assert_shows(at, attention(Q, FIRST["K"], FIRST["V"]))
    at.number_input(key="luong.size.d_k").set_value(3).run()
    assert at.number_input(key="luong.size.d_q").value == 3
    assert at.number_input(key="luong.size.d_q").disabled
    assert_shows(
        at,
        attention(
            np.vstack([Q, np.zeros((1, 3))]), np.vstack([FIRST["K"], np.zeros((1, 3))]), FIRST["V"]
        ),
    )


def test_each_bad_cell_is_named_and_other_edits_are_kept(at):
    edit(at, "K", {1: {"k3": "4"}})
    at.run()
    for value in (None, "", math.nan):  # a cleared cell: nothing is computed until it is filled
        edit(at, "Q", {0: {"q1": value}})
        at.run()
        assert not at.exception
        assert "Q, cell (1, q1) is empty" in errors(at)
        assert not [c for c in charts(at) if c.proto.id.endswith("luong.chart.A")]
    edit(at, "Q", {0: {"q1": "−0,5"}})  # the app's own minus and a decimal comma
    at.run()
    Q, K = FIRST["Q"].copy(), FIRST["K"].copy()
    Q[0, 0], K[1, 2] = -0.5, 4.0
    assert_shows(at, attention(Q, K, FIRST["V"]))
    # Text that is no number, or a number out of range: a message, and Q keeps −0.5 there.
    for value, says in [
        ("abc", "“abc” is not a number"),
        ("1,000", "the comma may separate thousands"),
        (math.inf, "∞ is outside the allowed range"),
        (-math.inf, "−∞ is outside the allowed range"),
        ("1e308", "1×10³⁰⁸ is outside the allowed range"),
        (1000.5, "1000.5 is outside the allowed range"),
    ]:
        edit(at, "Q", {0: {"q1": value}})
        at.run()
        assert not at.exception
        warnings = "\n".join(w.value for w in at.warning).replace("\\", "")
        assert "Q, cell (1, q1): " in warnings and says in warnings
        assert "so Q keeps −0.5 there" in warnings
        assert_shows(at, attention(Q, K, FIRST["V"]))


def test_a_size_mismatch_is_explained(at):
    at.session_state["luong.size.d_q"] = 3  # as a stale session could leave it
    at.run()
    assert not at.exception
    assert "Q has 3 rows (d_q = 3, shape 3 × 2) but K has 2 rows (d_k = 2, shape 2 × 3)" in errors(
        at
    )


def test_a_fully_masked_query_is_explained(at):
    at.selectbox(key="luong.mask.kind").set_value("cells").run()
    edit(at, "mask.cells", {0: {"q2": False}, 1: {"q2": False}, 2: {"q2": False}})
    at.run()
    assert not at.exception
    assert "Query 2 has every key masked" in errors(at)


def test_hovers_spell_out_products_softmax_and_weighted_sums(at):
    s_hover = chart(at, "luong.chart.S")["data"][0]["customdata"]
    assert s_hover[1][0] == "s₂₁<br>= k₂·q₁<br>= 0×2 + 1×0.5<br>= 0.5"
    result = attention(FIRST["Q"], FIRST["K"], FIRST["V"])
    a_hover = chart(at, "luong.chart.A")["data"][0]["customdata"][0][0]
    assert a_hover.startswith("a₁₁<br>= exp(s − max) / Σ exp<br>= exp(0)")
    assert a_hover.endswith(fmt(result.weights[0, 0]))
    o_hover = chart(at, "luong.chart.O")["data"][0]["customdata"][0][0]
    assert o_hover.startswith("o₁₁<br>= Σᵢ") and o_hover.endswith(fmt(result.output[0, 0]))


def test_every_step_is_shown_in_the_engines_order(at):
    at.selectbox(key="luong.score").set_value("scaled_dot").run()
    at.select_slider(key="luong.tau").set_value(2.0).run()
    result = attention(FIRST["Q"], FIRST["K"], FIRST["V"], "scaled_dot", temperature=2.0)
    picker = at.radio(key="luong.steps.open")
    assert picker.options == [
        f"{n}. {step_title(step, 'en')}" for n, step in enumerate(result.steps, 1)
    ]
    for n, step in enumerate(result.steps, 1):  # the learner picks each step in turn
        picker.set_value(step.key).run()
        assert not at.exception
        titles = [m.value for m in at.markdown if re.match(r"\*\*\d+\. ", m.value)]
        assert titles == [f"**{n}. {step_title(step, 'en')}**"]  # that step alone
        steps_drawn = [c.proto.id for c in charts(at) if ".step." in c.proto.id]
        assert len(steps_drawn) == 1
        np.testing.assert_allclose(z(at, f"luong.step.{step.key}"), step.value, rtol=1e-12)
        assert any(step.latex in element.value for element in at.latex)
        sentence = step_sentence(step, "en", run_steps=result.steps)
        assert any(sentence in c.value for c in at.caption)


def test_following_one_entry_shows_its_score_weight_and_share(at):
    open_tab(at, "Follow one entry")
    at.selectbox(key="luong.follow.key").set_value(1).run()  # k2
    at.selectbox(key="luong.follow.query").set_value(0).run()  # q1
    result = attention(FIRST["Q"], FIRST["K"], FIRST["V"])
    text = " ".join(m.value for m in at.markdown)
    assert f"raw score, **{fmt(result.scores[1, 0])}**" in text
    assert f"a₂₁ = **{fmt(result.weights[1, 0])}**" in text
    assert f"e₂₁ = exp({fmt(result.scores[1, 0] - result.scores[:, 0].max())})" in text
    vectors = at.dataframe[-2].value  # k₂, q₁, k₂ ⊙ q₁ as columns, then a Σ row
    assert list(vectors.columns) == ["k₂", "q₁", "k₂ ⊙ q₁"]
    assert vectors.loc["Σ", "k₂ ⊙ q₁"] == fmt(result.scores[1, 0])
    share = at.dataframe[-1].value  # v₂, a₂₁·v₂, o₁ as columns
    assert list(share.iloc[:, 2]) == [fmt(x) for x in result.output[:, 0]]


def test_comparison_shows_only_scores_that_apply(at):
    at.selectbox(key="luong.preset").set_value("concat").run()  # d_q = 2, d_k = 3
    open_tab(at, "Compare score functions")
    assert compare_charts(at) == {
        "luong.compare.general",
        "luong.compare.concat",
        "luong.compare.location",
    }
    assert "they need d_q = d_k" in " ".join(c.value for c in at.caption)
    m = PRESETS["concat"].column_matrices()
    general = attention(
        m["Q"], m["K"], m["V"], "general", W=default_parameters(PRESETS["concat"].sizes)["W"]
    )
    np.testing.assert_allclose(z(at, "luong.compare.general"), general.weights, rtol=1e-12)
    assert "Uses W = I (the default)" in " ".join(c.value for c in at.caption)


def test_leaving_the_page_keeps_settings_and_edits(at):
    at.selectbox(key="luong.score").set_value("general").run()
    edit(at, "W", {0: {"2": 0.5}})
    at.run()
    at.switch_page("pages/home.py").run()
    at.switch_page("pages/luong.py").run()
    assert at.selectbox(key="luong.score").value == "general"
    W = np.eye(2)
    W[0, 1] = 0.5
    assert_shows(at, attention(FIRST["Q"], FIRST["K"], FIRST["V"], "general", W=W))


def test_only_the_open_tab_is_drawn_and_it_stays_open_in_the_other_language(at):
    first = attention(FIRST["Q"], FIRST["K"], FIRST["V"]).steps[0].key
    assert at.radio(key="luong.steps.open").value == first  # the steps tab, on its first step
    assert not compare_charts(at) and len(z(at, f"luong.step.{first}"))
    open_tab(at, "Compare score functions")
    assert len(compare_charts(at)) == 5
    assert not [c for c in charts(at) if ".step." in c.proto.id]
    at.sidebar.radio[0].set_value("ja").run()
    assert not at.exception and len(compare_charts(at)) == 5


def test_japanese_page_has_every_text(at):
    at.sidebar.radio[0].set_value("ja").run()
    assert not at.exception
    assert at.title[0].value == "ルオン・アテンションを動かしてみる"
    assert at.selectbox(key="luong.score").options[0] == "ドットプロダクト・アテンション"
    at.selectbox(key="luong.score").set_value("general").run()  # labels work after a switch
    assert not at.exception
    texts = [e.value for kind in ("markdown", "caption", "info", "header") for e in at.get(kind)]
    assert not [text for text in texts if "luong." in str(text)]


def test_the_weight_sums_under_a_are_the_engines(at):
    """The line under A sums each query's weights as the chart shows them, also after an
    edit, in the other layout and with a mask (no figure drawn apart from the engine's run)."""
    text = catalog("en")["luong.results.sums"]

    def line(weights: np.ndarray) -> str:
        return text.format(sums=" · ".join(f"q{j + 1}: {fmt(s)}" for j, s in enumerate(weights)))

    for change in (
        lambda: edit(at, "Q", {0: {"q1": "5"}}),
        lambda: at.radio(key="luong.layout").set_value("row"),
        lambda: at.selectbox(key="luong.mask.kind").set_value("causal"),
    ):
        change()
        at.run()
        weights = z(at, "luong.chart.A")
        axis = 0 if at.radio(key="luong.layout").value == "column" else 1
        assert line(weights.sum(axis=axis)) in [m.value for m in at.markdown]
