"""Every chart of every page in Japanese: no y-axis title on its side (plotly turns y-axis
titles by 90°, which Japanese does not read); each such title is written level as a note
instead, and the chart's numbers table and text alternative still name it."""

from __future__ import annotations

import pytest

from attention_ui.kit.figures.level_titles import CJK
from tests.conftest import open_app_page
from tests.plotly_json import figures

VIEWS = [
    ("home", None),
    ("luong", None),
    ("database", None),
    ("gallery", None),
    ("regression", None),
    ("transformer", None),
    *[("exercises", section) for section in ("match", "grad", "search", "se")],
]


def sideways_titles(figure: dict) -> list[str]:
    layout = figure["layout"]
    return [
        f"{name}: {layout[name]['title']['text']}"
        for name in layout
        if name.startswith("yaxis")
        and CJK.search((layout[name].get("title") or {}).get("text", ""))
    ]


@pytest.mark.parametrize(("page", "section"), VIEWS)
def test_no_japanese_y_axis_title_is_drawn_on_its_side(page, section):
    at = open_app_page(page)
    at.sidebar.radio(key="lang.switch").set_value("ja").run()
    if section is not None:
        at.radio(key="exercises.section").set_value(section).run()
    assert not at.exception
    drawn = figures(at)
    assert drawn
    sideways = [title for figure in drawn for title in sideways_titles(figure)]
    assert sideways == []
