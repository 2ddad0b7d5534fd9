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
