"""Every chart goes through kit.figures.charts.show_chart, so its camera button saves a PNG
with a meaningful name (a page drawing st.plotly_chart itself would save 'newplot.png')."""

from __future__ import annotations

import re

from attention_ui.kit.figures.charts import chart_config
from tests.conftest import REPO

DIRECT_CALL = re.compile(r"\.plotly_chart\(")


def test_no_page_draws_a_plotly_chart_without_show_chart():
    offenders = [
        str(path.relative_to(REPO))
        for folder in ("attention_ui", "pages")
        for path in (REPO / folder).rglob("*.py")
        if path.name != "charts.py" and DIRECT_CALL.search(path.read_text("utf-8"))
    ]
    offenders += ["app.py"] if DIRECT_CALL.search((REPO / "app.py").read_text("utf-8")) else []
    assert offenders == [], "draw charts with kit.figures.charts.show_chart(figure, key)"


def test_the_png_is_named_after_the_key_and_settings_only():
    config = chart_config("database.chart.weights.1", "ngram", "<script>")
    assert config["toImageButtonOptions"] == {
        "format": "png",
        "filename": "attention-explorer_database_chart_weights_1_ngram_script",
    }


def test_the_mode_bar_keeps_only_the_camera():
    # Plotly's default bar is 8 Tab stops per chart; a keyboard learner crosses every one
    assert chart_config("luong.chart.S")["modeBarButtons"] == [["toImage"]]


def test_a_shareable_figure_draws_and_reads_as_the_figure_it_was_made_from():
    """charts.shareable: a grid and a plane (the gallery keeps them in a shared cache) draw the same
    JSON as the validated go.Figure and have the same text alternative; a Japanese y title is
    levelled once, in the shareable figure, so a later reader changes nothing in place."""
    import copy
    import json

    import numpy as np
    import plotly.io as pio

    from attention_ui.kit.figures.alt_text import chart_facts
    from attention_ui.kit.figures.charts import shareable
    from attention_ui.kit.figures.grid import GridSettings, heatmap_grid
    from attention_ui.kit.figures.level_titles import level_y_titles
    from attention_ui.kit.figures.plane import PlaneCaptions, PlaneScene, plane_figure

    def figures():
        matrices = np.random.default_rng(1).random((2, 1, 3, 4))
        yield heatmap_grid(matrices, "キー", "クエリ", GridSettings(row_titles=["ドット", "縮小"]))
        values = np.array([[1.0, 0.5], [-0.5, 1.0], [0.2, -1.0]])
        scene = PlaneScene(values, values.mean(axis=0), weights=[0.2, 0.3, 0.5])
        yield plane_figure(scene, box=(-2.0, 2.0, -2.0, 2.0), captions=PlaneCaptions())

    for made, validated in zip(figures(), figures(), strict=True):
        drawn = shareable(made)
        level_y_titles(validated)
        assert json.loads(drawn.to_json()) == json.loads(pio.to_json(validated, validate=False))
        facts = drawn.facts(chart_facts)
        assert facts == chart_facts(validated)
        assert facts.kind != "other"
        plain = copy.deepcopy(drawn.plain)
        level_y_titles(drawn)  # as show_chart does: nothing is left to level
        assert json.dumps(drawn.plain, default=str) == json.dumps(plain, default=str)
