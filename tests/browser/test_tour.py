"""A new user's tour of every page in a real browser (Debian's Chromium).

Each test opens one page at its own address, uses its main controls the way a learner does
(types into a grid cell, moves a slider, picks an example, types a query) and checks that what
is on screen changed to what `attention_core` computes from the same inputs. The `page`
fixture fails a test on any browser console error and leaves a screenshot in test-artifacts/;
every step also checks that no exception box is shown.

`test_every_page_is_toured` keeps the tour complete: a page the menu gains without a tour
here fails it.
"""

from __future__ import annotations

import numpy as np

from attention_core import attention, lookup, multi_head, nadaraya_watson, query_gradient
from attention_core.formatting import fmt
from attention_ui.kit.grids.records_editor import D2L_RECORDS
from attention_ui.kit.text.i18n import catalog
from attention_ui.luong.presets import PRESETS
from attention_ui.page_list import PAGES
from attention_ui.regression.data import preset_points, queries_along
from attention_ui.transformer.model import embeddings, projections
from tests.browser.conftest import (
    HEAD_GRID,
    POLL_MS,
    assert_no_exception,
    grid,
    move_slider,
    open_page,
    pick_option,
    plot_data,
    type_into_cell,
    wait_for_plot,
    wait_idle,
)

EN = catalog("en")
TOURED = {
    "home",
    "luong",
    "database",
    "gallery",
    "exercises",
    "regression",
    "transformer",
    "train",  # tests/browser/test_train.py
}


def routed_pages() -> set[str]:
    """The name (and address) of every page of the menu (attention_ui/page_list.py)."""
    return {page.name for page in PAGES}


def test_every_page_is_toured():
    assert routed_pages() == TOURED


def values(page, title: str, field: str = "z") -> np.ndarray:
    return np.array(plot_data(page, title)[field], dtype=float)


def wait_for_chart(page, title: str, expected, field: str = "z") -> None:
    """Wait until the chart shows `expected` (Plotly redraws a moment after the run)."""
    expected = np.asarray(expected, dtype=float)
    try:
        wait_for_plot(page, title, expected.tolist(), field)
    except Exception:  # say what the chart shows instead of a bare timeout
        np.testing.assert_allclose(
            values(page, title, field).ravel(), expected.ravel(), rtol=1e-9, err_msg=title
        )
        raise


# --- Home -----------------------------------------------------------------------------------

HOME_KEYS = np.array([[1.0, 0.0, -1.0], [0.0, 1.0, 0.0]])
HOME_VALUES = np.array([[10.0, 20.0, 30.0]])


def test_home_slider_moves_the_weights(page, server):
    open_page(page, server)
    title = EN["home.example.weights"]
    first = attention([[2.0], [0.5]], HOME_KEYS, HOME_VALUES, "dot")
    wait_for_chart(page, title, first.weights)

    move_slider(page, EN["home.example.q1"], -5)  # 2.0 → 1.5
    moved = attention([[1.5], [0.5]], HOME_KEYS, HOME_VALUES, "dot")
    wait_for_chart(page, title, moved.weights)
    assert_no_exception(page)


# --- Luong explorer ---------------------------------------------------------------------------


def luong_matrices(key: str, **changes) -> dict[str, np.ndarray]:
    """A preset's matrices (column layout) with `changes` = {name: (row, col, value)}."""
    matrices = PRESETS[key].column_matrices()
    for name, (row, col, value) in changes.items():
        matrices[name] = matrices[name].copy()
        matrices[name][row, col] = value
    return matrices


def test_luong_typing_a_cell_sliding_tau_switching_score_and_example(page, server):
    open_page(page, server, "luong")
    S, A, OUT = EN["luong.results.S"], EN["luong.results.A"], EN["luong.results.O"]
    first = luong_matrices("first")
    wait_for_chart(page, S, attention(first["Q"], first["K"], first["V"], "dot").scores)

    # Type 3 into Q's cell (1, q1): the scores, weights and output follow.
    type_into_cell(page, grid(page, 0), 0, 0, "3", columns=PRESETS["first"].sizes.n)
    edited = luong_matrices("first", Q=(0, 0, 3.0))
    Q, K, V = edited["Q"], edited["K"], edited["V"]
    result = attention(Q, K, V, "dot")
    wait_for_chart(page, S, result.scores)
    wait_for_chart(page, A, result.weights)
    wait_for_chart(page, OUT, result.output)
    assert_no_exception(page)

    # One step of the temperature slider (1 → 1.5) flattens the weights; the edit stays.
    move_slider(page, EN["luong.tau.label"], 1)
    wait_for_chart(page, A, attention(Q, K, V, "dot", temperature=1.5).weights)

    # The general score kᵀWq with the preset's W, still on the edited Q and at τ = 1.5.
    pick_option(page, EN["luong.score.label"], EN["luong.score_name.general"])
    general = attention(Q, K, V, "general", W=edited["W"], temperature=1.5)
    wait_for_chart(page, S, general.scores)
    wait_for_chart(page, A, general.weights)
    assert_no_exception(page)

    # Another example replaces every grid and setting: Q = K = I.
    pick_option(page, EN["luong.preset.label"], EN["luong.preset.identity.name"])
    identity = luong_matrices("identity")
    wait_for_chart(page, S, attention(identity["Q"], identity["K"], identity["V"], "dot").scores)
    assert_no_exception(page)


# --- Database lookup --------------------------------------------------------------------------


def weights_title(query: str) -> str:
    return EN["database.chart.weights_title"].format(query=query)


def test_database_typing_a_key_and_a_query_changing_similarity_tau_and_table(page, server):
    open_page(page, server, "database")
    wait_for_chart(page, weights_title("Li"), lookup(D2L_RECORDS, "Li", "exact").weights, "y")

    # Overwrite the key "Li" (row 3): the exact query "Li" has no valid answer any more.
    type_into_cell(page, grid(page, 0), 2, 0, "Lee", columns=3)
    records = [
        ("Lee", "Mu", 30.0) if key == "Li" else (key, value, number)
        for key, value, number in D2L_RECORDS
    ]
    wait_for_chart(page, weights_title("Li"), lookup(records, "Li", "exact").weights, "y")
    page.get_by_text("No valid answer").first.wait_for()

    # Approximate matching (shared letter pairs): "Li" now retrieves ("Lipton", "Zachary").
    page.get_by_text(EN["database.similarity.ngram"], exact=True).click()
    wait_idle(page)
    approximate = lookup(records, "Li", "ngram", temperature=0.1)
    assert approximate.best[0] == "Lipton"
    wait_for_chart(page, weights_title("Li"), approximate.weights, "y")
    page.get_by_text("Lipton → Zachary").first.wait_for()

    # Two steps of the temperature slider (0.1 → 0.5) spread the weight.
    move_slider(page, EN["database.temperature.label"], 2)
    wait_for_chart(page, weights_title("Li"), lookup(records, "Li", "ngram", 0.5).weights, "y")

    # Type another query.
    box = page.get_by_role("textbox", name=EN["database.query.label"])
    box.fill("Smola")
    box.press("Enter")
    wait_idle(page)
    wait_for_chart(
        page, weights_title("Smola"), lookup(records, "Smola", "ngram", 0.5).weights, "y"
    )

    # A preset table of Japanese names replaces the records.
    page.get_by_role("button", name=EN["database.preset.ja"]).click()
    wait_idle(page)
    page.locator(".js-plotly-plot").first.wait_for()
    data = page.evaluate("""() => Array.from(document.querySelectorAll('.js-plotly-plot'))
        .flatMap(p => p._fullData.map(t => JSON.stringify([t.x, t.y])))""")
    assert any("山田" in trace for trace in data), "the Japanese records are not charted"
    assert_no_exception(page)


# --- Weights gallery --------------------------------------------------------------------------

# The page's inputs (its value presets "first_quadrant", the default, and "around_origin").
GALLERY_VALUES = np.array([[1.0, 0.5], [0.5, 2.0], [2.0, 1.5]])
AROUND_ORIGIN = np.array([[2.0, 0.5], [-1.0, 1.5], [-0.5, -2.0], [1.5, -1.0]])


def gallery_weights(points: np.ndarray, q1: float, q2: float) -> np.ndarray:
    return attention([[q1], [q2]], points.T, points.T, "dot").weights


def test_gallery_typing_a_value_moving_the_query_and_picking_values(page, server):
    open_page(page, server, "gallery")
    title = EN["gallery.plane.weights_title"]
    wait_for_chart(page, title, gallery_weights(GALLERY_VALUES, 1.0, 1.0))

    # Type 3 into v1's x: the weights follow.
    type_into_cell(page, grid(page, 0), 0, 0, "3", columns=2)
    points = GALLERY_VALUES.copy()
    points[0, 0] = 3.0
    wait_for_chart(page, title, gallery_weights(points, 1.0, 1.0))

    # Five steps left on q₂ (1.0 → 0.5); the edited value stays.
    move_slider(page, EN["gallery.query.q2"], -5)
    wait_for_chart(page, title, gallery_weights(points, 1.0, 0.5))

    # A preset set of values replaces the edited ones: four points around the origin.
    page.get_by_role("button", name=EN["gallery.preset.around_origin"]).click()
    wait_idle(page)
    wait_for_chart(page, title, gallery_weights(AROUND_ORIGIN, 1.0, 0.5))
    assert_no_exception(page)


# --- Exercises ------------------------------------------------------------------------------

EXERCISE_VALUES = np.array([[1.0, 0.5], [0.5, 2.0], [2.0, 1.5]])  # the gallery's first preset


def test_exercises_query_slider_moves_the_jacobian_and_one_huge_score_shrinks_it(page, server):
    open_page(page, server, "exercises")
    page.get_by_text(EN["exercises.section_name.grad"], exact=True).click()
    wait_idle(page)
    title = EN["exercises.grad.jac_name"]
    keys = EXERCISE_VALUES.T
    wait_for_chart(page, title, query_gradient([1.0, 0.5], keys, keys).jacobian)

    # Five steps right on q₁ (1.0 → 1.5): the Jacobian is recomputed.
    move_slider(page, EN["exercises.grad.q1"], 5)
    wait_for_chart(page, title, query_gradient([1.5, 0.5], keys, keys).jacobian)

    # "One huge score": the norm printed is tiny but not 0, and the page says it is gone.
    page.get_by_role("button", name=EN["exercises.grad.huge_button"]).click()
    wait_idle(page)
    huge = query_gradient(
        [10.0, 0.0], [[5.0, 1.0, 0.0], [0.0, 1.0, 1.0]], [[5.0, 1.0, 0.0], [0.0, 1.0, 1.0]]
    )
    page.get_by_text(EN["exercises.grad.gone"].split(":")[0]).wait_for()
    assert page.get_by_text(fmt(huge.norm)).count() >= 1
    # ... which solves the checked task "make the gradient vanish (nearly)"
    solved = EN["tasks.solved"] + " " + EN["tasks.exercise_small_gradient.progress"].split("{")[0]
    page.get_by_text(solved).wait_for()
    assert_no_exception(page)


# --- Nadaraya–Watson regression -----------------------------------------------------------------


def test_regression_sigma_box_redraws_the_weights(page, server):
    open_page(page, server, "regression")
    x, y = preset_points("noisy")  # the default data, seed 0
    queries = queries_along(x, 12)
    order = np.argsort(x, kind="stable")
    title = EN["regression.heatmap.chart"]  # one chart: queries × every point, in x's order

    def weights(sigma: float) -> np.ndarray:
        return nadaraya_watson(queries, x, y, "gaussian", sigma).weights[:, order]

    # A generous wait: the page draws four charts, and the machine may be busy.
    wait_for_plot(page, title, weights(0.5).tolist(), timeout=60_000)
    box = page.get_by_role("spinbutton", name=EN["regression.controls.sigma"])
    box.fill("2")
    box.press("Enter")
    wait_idle(page, timeout=60_000)
    wait_for_plot(page, title, weights(2.0).tolist(), timeout=60_000)


def test_transformer_typing_a_sentence_draws_one_panel_per_head(page, server):
    open_page(page, server, "transformer")
    first = EN["transformer.heads_grid.head"].format(number=1, d_head=2)
    box = page.get_by_label(EN["transformer.sentence.label"], exact=True)
    box.fill("a dog sees a cat")
    box.press("Enter")
    wait_idle(page)
    tokens = ["a", "dog", "sees", "a", "cat"]
    X, W = embeddings(tokens, 4, 0), projections(4, 0)
    expected = multi_head(X, W["W_Q"], W["W_K"], W["W_V"], W["W_O"], 2).weights
    labels = [f"{i + 1} · {token}" for i, token in enumerate(tokens)]
    page.wait_for_function(
        f"""([first, labels]) => {{
            const panels = ({HEAD_GRID})(first);
            return panels !== null && panels.length === 2
                && JSON.stringify(panels[0].x) === JSON.stringify(labels);
        }}""",
        arg=[first, labels],
        timeout=15_000,
        polling=POLL_MS,
    )
    panels = page.evaluate(HEAD_GRID, first)
    np.testing.assert_allclose([panel["z"] for panel in panels], expected, rtol=1e-9)
    assert_no_exception(page)
