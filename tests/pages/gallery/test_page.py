"""The weights gallery: the output point the engine computes, the four cases, the heatmap grids.

Expected numbers come from `attention_core` (attention, lookup_many, geometry) on the same inputs.
"""

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_core import attention
from attention_core.lookup import lookup_many
from attention_ui.kit.grids.matrix_editor import matrix_values, set_matrix
from attention_ui.kit.grids.records_editor import D2L_RECORDS
from attention_ui.kit.text.i18n import catalog
from tests.conftest import APP, open_app_page
from tests.plotly_json import chart
from tests.support.grids import edit_grid

FIRST_QUADRANT = np.array([[1.0, 0.5], [0.5, 2.0], [2.0, 1.5]])


@pytest.fixture
def at() -> AppTest:
    return open_app_page("gallery")


def trace(figure: dict, name: str) -> dict:
    return next(t for t in figure["data"] if t.get("name") == name)


def output_point(at: AppTest) -> np.ndarray:
    out = trace(chart(at, "gallery.chart.plane"), "output Σ αᵢ vᵢ")
    return np.array([out["x"][0], out["y"][0]], dtype=float)


def expected(values, q, tau, normalization="softmax"):
    values = np.asarray(values, dtype=float)
    return attention(
        np.array(q)[:, None],
        values.T,
        values.T,
        "dot",
        temperature=tau,
        normalization=normalization,
    )


def texts(elements) -> str:
    return "\n".join(e.value for e in elements)


def test_default_output_point_is_the_engines_and_all_four_cases_hold(at):
    np.testing.assert_allclose(output_point(at), expected(FIRST_QUADRANT, [1, 1], 1.0).output[:, 0])
    assert len(at.success) == 4  # cone, hull, one of the values, the mean
    assert not at.warning


@pytest.mark.parametrize(("tau", "limit"), [(0.01, "one_hot"), (100.0, "mean")])
def test_temperature_moves_the_point_from_a_value_to_the_mean(at, tau, limit):
    at.select_slider(key="gallery.temperature").set_value(tau).run()
    assert not at.exception
    point = output_point(at)
    np.testing.assert_allclose(point, expected(FIRST_QUADRANT, [1, 1], tau).output[:, 0])
    target = FIRST_QUADRANT[2] if limit == "one_hot" else FIRST_QUADRANT.mean(axis=0)
    np.testing.assert_allclose(point, target, atol=0.02)


def test_divide_by_sum_gives_the_engines_weights(at):
    at.radio(key="gallery.normalization").set_value("sum").run()
    assert not at.exception
    weights = chart(at, "gallery.chart.weights")["data"][0]["z"]
    np.testing.assert_allclose(
        np.array(weights, dtype=float), expected(FIRST_QUADRANT, [1, 1], 1.0, "sum").weights
    )


def test_divide_by_sum_with_a_negative_score_gives_a_message_not_a_traceback(at):
    at.radio(key="gallery.normalization").set_value("sum")
    at.slider(key="gallery.q1").set_value(-2.0).run()
    assert not at.exception
    assert "needs non-negative scores" in texts(at.error)
    assert "The cases appear once" in texts(at.info)


def test_editing_a_value_moves_the_output(at):
    edit_grid(at, "gallery.values", {0: {"x": -1.0}})
    at.run()
    assert not at.exception
    values = FIRST_QUADRANT.copy()
    values[0, 0] = -1.0
    np.testing.assert_allclose(output_point(at), expected(values, [1, 1], 1.0).output[:, 0])


def test_a_cleared_value_cell_is_named(at):
    edit_grid(at, "gallery.values", {1: {"y": None}})
    at.run()
    assert not at.exception
    assert "(v2, y) is empty" in texts(at.error)


def test_values_around_the_origin_have_the_whole_plane_as_cone(at):
    at.button(key="gallery.preset.around_origin").click().run()
    assert not at.exception
    assert at.number_input(key="gallery.m").value == 4
    assert "their cone is the whole plane" in texts(at.caption)


def test_a_preset_of_the_same_size_replaces_the_values(at):
    at.button(key="gallery.preset.on_a_line").click().run()  # three values, like the default
    assert not at.exception
    values = np.array([[0.5, 0.5], [1.0, 1.0], [2.0, 2.0]])
    np.testing.assert_allclose(output_point(at), expected(values, [1, 1], 1.0).output[:, 0])
    assert "their cone is a ray" in texts(at.caption)


def test_negative_cone_weight_is_flagged(at):
    edit_grid(at, "gallery.cone", {0: {"v1": -3.0}})
    at.run()
    assert not at.exception
    assert "A weight is negative" in texts(at.warning)
    assert "outside the cone" in texts(at.warning)


def test_identity_sanity_check_grid(at):
    grid = chart(at, "gallery.chart.identity")
    assert len(grid["data"]) == 1
    np.testing.assert_array_equal(np.array(grid["data"][0]["z"], dtype=float), np.eye(10))
    assert grid["layout"]["coloraxis"]["colorscale"][-1][1] == "rgb(103,0,13)"
    # every cell carries its number: colour is never the only carrier
    assert grid["data"][0]["texttemplate"] == "%{text}"
    assert {text for row in grid["data"][0]["text"] for text in row} == {"0", "1"}


def test_live_grid_uses_the_luong_pages_q_and_k_when_present(at):
    Q = np.array([[1.0, -1.0], [0.5, 2.0]])
    K = np.array([[1.0, 0.0, 2.0], [0.0, 1.0, -1.0]])
    set_matrix("luong.Q", Q, at.session_state)
    set_matrix("luong.K", K, at.session_state)
    at.run()
    assert not at.exception
    # one chart per temperature (side by side on a desktop, stacked on a phone), its panels
    # the two score functions
    columns = [chart(at, f"gallery.chart.grid.{c}") for c in (1, 2, 3)]
    assert [len(column["data"]) for column in columns] == [2, 2, 2]
    taus = [0.25, 1.0, 4.0]
    for index, score in enumerate(["dot", "scaled_dot"]):
        for column, tau in enumerate(taus):
            z = np.array(columns[column]["data"][index]["z"], dtype=float)
            np.testing.assert_allclose(z, attention(Q, K, K, score, temperature=tau).weights.T)
    assert "the Luong page's current Q (2 queries)" in texts(at.caption)


@pytest.mark.parametrize("layout", ["column", "row"])
def test_live_grid_follows_an_edit_made_on_the_luong_page(layout):
    at = AppTest.from_file(str(APP), default_timeout=30).run()
    at.switch_page("pages/luong.py").run()
    at.radio(key="luong.layout").set_value(layout).run()
    cell = {0: {"q1": 3.0}} if layout == "column" else {0: {"1": 3.0}}
    edit_grid(at, "luong.Q", cell)
    at.run()
    Q = matrix_values("luong.Q", at.session_state)
    K = matrix_values("luong.K", at.session_state)
    assert Q[0, 0] == 3.0
    if layout == "row":
        Q, K = Q.T, K.T
    at.switch_page("pages/gallery.py").run()
    assert not at.exception
    z = np.array(chart(at, "gallery.chart.grid.2")["data"][0]["z"], dtype=float)  # dot, τ = 1
    np.testing.assert_allclose(z, attention(Q, K, K, "dot").weights.T)


def test_live_grid_from_the_database_pages_queries(at):
    at.radio(key="gallery.grid.source").set_value("database").run()
    assert not at.exception
    columns = [chart(at, f"gallery.chart.grid.{c}") for c in (1, 2, 3)]
    assert [len(column["data"]) for column in columns] == [3, 3, 3]  # similarities, each τ
    table = lookup_many(D2L_RECORDS, ["Li", "Smola", "Hu"], "edit", 4.0)
    np.testing.assert_allclose(np.array(columns[2]["data"][2]["z"], dtype=float), table.weights)


def test_no_temperature_chosen_says_so(at):
    at.multiselect(key="gallery.grid.temperatures").set_value([]).run()
    assert not at.exception
    assert "at least one temperature" in texts(at.info)


def test_japanese_interface(at):
    at.sidebar.radio[0].set_value("ja").run()
    at.radio(key="gallery.normalization").set_value("sum").run()
    assert not at.exception
    assert at.title[0].value == "重みのギャラリー"
    assert "✓ 出力はバリューの凸包の中にあります。" in texts(at.success)


JA_GRID_DOT = catalog("ja")["gallery.grid.score_dot"]


def test_the_live_grid_is_one_chart_per_temperature_with_level_panel_titles(at):
    """One figure of every temperature left a phone's (and half a desktop's) cells about 16 px
    wide: each temperature is its own chart, its panels titled level above them ("τ = 1 ·
    dot", not a rotated row title, which Japanese does not read), each with the colour bar
    under it, every cell carrying its number."""
    at.sidebar.radio[0].set_value("ja").run()
    columns = [chart(at, f"gallery.chart.grid.{c}") for c in (1, 2, 3)]
    for column, tau in zip(columns, ("0.25", "1", "4"), strict=True):
        titles = [a["text"] for a in column["layout"]["annotations"] if a.get("textangle") is None]
        assert f"τ = {tau} · " + JA_GRID_DOT in titles
        assert all(a.get("textangle") is None for a in column["layout"]["annotations"])
        assert all(trace["texttemplate"] == "%{text}" for trace in column["data"])
    # the same colour bar under each: laid out alike, their panels line up side by side
    assert all(c["layout"]["coloraxis"].get("showscale", True) for c in columns)
    bars = [c["layout"]["coloraxis"]["colorbar"] for c in columns]
    assert all(bar == bars[0] and bar["orientation"] == "h" for bar in bars)
    assert len({(c["layout"]["height"], c["layout"]["margin"]["b"]) for c in columns}) == 1
